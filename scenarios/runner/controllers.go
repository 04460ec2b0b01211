package runner

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/gitops"
	"github.com/clustersim/clustersim/controllers/iac"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/metrics"
	"github.com/clustersim/clustersim/sim/netsim"

	"github.com/clustersim/clustersim/controllers/cronjob"
	"github.com/clustersim/clustersim/controllers/daemonset"
	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/controllers/disruption"
	"github.com/clustersim/clustersim/controllers/endpoints"
	"github.com/clustersim/clustersim/controllers/endpointslice"
	"github.com/clustersim/clustersim/controllers/garbagecollector"
	"github.com/clustersim/clustersim/controllers/hpa"
	"github.com/clustersim/clustersim/controllers/job"
	"github.com/clustersim/clustersim/controllers/naive"
	"github.com/clustersim/clustersim/controllers/nodelifecycle"
	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/controllers/resourcequota"
	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/controllers/statefulset"
	"github.com/clustersim/clustersim/controllers/volume"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// controllerSpec is how the runner starts one named controller.
type controllerSpec struct {
	actor string
	setup func(r *run, m *controller.Manager, s scenarios.ControllerSettings) error
}

// controllerSpecs maps scenarios.Controllers' names to the controllers.
var controllerSpecs = map[string]controllerSpec{
	"resourcequota": {resourcequota.Actor, func(r *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return resourcequota.Setup(m, resourcequota.Options{Workers: s.Workers, Kinds: scenarios.QuotaKinds(r.s)})
	}},
	"replicaset": {replicaset.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return replicaset.Setup(m, replicaset.Options{Workers: s.Workers, BurstReplicas: s.BurstReplicas, SlowStartInitialBatch: s.SlowStartInitialBatch})
	}},
	"daemonset": {daemonset.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return daemonset.Setup(m, daemonset.Options{Workers: s.Workers, BurstReplicas: s.BurstReplicas, SlowStartInitialBatch: s.SlowStartInitialBatch})
	}},
	"deployment": {deployment.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return deployment.Setup(m, deployment.Options{Workers: s.Workers})
	}},
	"garbage-collector": {garbagecollector.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return garbagecollector.Setup(m, garbagecollector.Options{Workers: s.Workers})
	}},
	"scheduler": {scheduler.Actor, func(r *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		opts := scheduler.Options{Workers: s.Workers, Volumes: scenarios.Runs(r.s, "persistentvolume-binder"),
			NodeLifecycleTaints: scenarios.Runs(r.s, "node-lifecycle")}
		if p := s.PercentageOfNodesToScore; p != nil {
			opts.PercentageOfNodesToScore = *p
		}
		return scheduler.Setup(m, opts)
	}},
	// The node lifecycle controller and the taint-based eviction (the
	// NoExecute taint manager) run in one manager, as in
	// kube-controller-manager.
	"node-lifecycle": {nodelifecycle.Actor, func(r *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		c := &r.s.Spec.Cluster
		opts := c.EvictionOptions()
		opts.Workers, opts.Zones = s.Workers, &r.zones
		r.zones.now = func() time.Duration { return r.c.K.Now().Duration() }
		if g := c.NodeMonitorGracePeriod; g != nil {
			opts.GracePeriod = g.Duration
		}
		if err := nodelifecycle.Setup(m, opts); err != nil {
			return err
		}
		return nodelifecycle.SetupEviction(m, nodelifecycle.EvictionOptions{})
	}},
	"endpoints": {endpoints.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return endpoints.Setup(m, endpoints.Options{Workers: s.Workers, UpdatesBatchPeriod: s.BatchPeriod()})
	}},
	"naive-app-operator": {naive.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return naive.Setup(m, naive.Options{Flaw: naive.FlawCompareWithDefaults, Workers: s.Workers})
	}},
	"polling-app-operator": {naive.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return naive.Setup(m, naive.Options{Flaw: naive.FlawRequeueWithoutBackoff, Workers: s.Workers})
	}},
	"app-operator": {naive.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return naive.Setup(m, naive.Options{Workers: s.Workers})
	}},
	"retrying-app-operator": {naive.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return naive.Setup(m, naive.Options{Flaw: naive.FlawRetryWithoutBackoff, Workers: s.Workers})
	}},
	"edge-app-operator": {naive.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return naive.Setup(m, naive.Options{Flaw: naive.FlawEdgeTriggered, Workers: s.Workers})
	}},
	"panicking-app-operator": {naive.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return naive.Setup(m, naive.Options{Flaw: naive.FlawNilDeployment, Workers: s.Workers})
	}},
	"busy-app-operator": {naive.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return naive.Setup(m, naive.Options{Flaw: naive.FlawBusyWait, Workers: s.Workers})
	}},
	// The level-triggered operator re-reads the API server every resync
	// period (spec.controllers' resync, default naive.DefaultResync).
	"level-app-operator": {naive.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		resync := naive.DefaultResync
		if s.Resync != nil {
			resync = s.Resync.Duration
		}
		return naive.Setup(m, naive.Options{Resync: resync, Workers: s.Workers})
	}},
	"disruption": {disruption.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return disruption.Setup(m, disruption.Options{Workers: s.Workers})
	}},
	"endpointslice": {endpointslice.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return endpointslice.Setup(m, endpointslice.Options{Workers: s.Workers, UpdatesBatchPeriod: s.BatchPeriod()})
	}},
	"statefulset": {statefulset.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return statefulset.Setup(m, statefulset.Options{Workers: s.Workers})
	}},
	"persistentvolume-binder": {volume.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return volume.Setup(m, volume.Options{Workers: s.Workers})
	}},
	"job": {job.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return job.Setup(m, job.Options{Workers: s.Workers})
	}},
	"cronjob": {cronjob.Actor, func(_ *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return cronjob.Setup(m, cronjob.Options{Workers: s.Workers})
	}},
	"horizontal-pod-autoscaler": {hpa.Actor, func(r *run, m *controller.Manager, s scenarios.ControllerSettings) error {
		return hpa.Setup(m, hpa.Options{Workers: s.Workers, Metrics: r.metrics})
	}},
}

// startControllers starts every enabled controller, each as its own
// manager at endpoint "controller/<name>", in scenarios.AllControllers
// order: the built-ins, then the registered ones (controller.Register).
// With spec.cluster.controllerManager one-process, the controllers of
// kube-controller-manager are members of one more manager, the process
// (endpoint "controller/kube-controller-manager"), which holds their
// informers and the lease and starts after the others.
func (r *run) startControllers() error {
	var process *controller.Manager
	for _, name := range scenarios.AllControllers() {
		if !scenarios.Runs(r.s, name) {
			continue
		}
		settings := r.s.Spec.Controllers[name]
		opts := r.c.ManagerOptions()
		var actor string
		var setup func(m *controller.Manager) error
		if spec, ok := controllerSpecs[name]; ok {
			actor = spec.actor
			setup = func(m *controller.Manager) error { return spec.setup(r, m, settings) }
		} else if def, ok := controller.Lookup(name); ok {
			actor = def.Actor
			s := controller.Settings{Workers: settings.Workers, Resync: def.Resync}
			if settings.Resync != nil {
				s.Resync = settings.Resync.Duration
			}
			opts.Resync = s.Resync
			setup = def.SetupFunc(s)
		} else {
			return fmt.Errorf("runner: controller %q is not wired", name)
		}
		if settings.Resync != nil {
			opts.Resync = settings.Resync.Duration
		}
		opts.QueueLimits = settings.QueueOverrides()
		pacing := settings.Pacing(name)
		opts.Client.QPS, opts.Client.Burst = pacing.QPS, pacing.Burst
		if !pacing.Unpaced() {
			opts.Client.Paced = r.throttle.paced(actor, pacing, func() time.Duration { return r.c.K.Now().Duration() })
		}
		if name == "scheduler" {
			// kube-scheduler's events go through an event client of
			// their own, made from the same kubeconfig (same QPS and
			// burst, a bucket of its own): createClients in
			// cmd/kube-scheduler/app/options/options.go.
			ev := opts.Client
			if !pacing.Unpaced() {
				ev.Paced = r.throttle.paced(actor+" (event client)", pacing, func() time.Duration { return r.c.K.Now().Duration() })
			}
			opts.EventClient = &ev
		}
		lease, elects := "", false
		if _, builtin := controllerSpecs[name]; builtin {
			lease, elects = leaseName(name, actor)
		}
		member := r.s.OneProcess() && scenarios.InControllerManager(name)
		if member && process == nil {
			process = r.startProcess()
		}
		if settings.Standbys > 0 && !elects {
			return fmt.Errorf("spec.controllers.%s.standbys: %s elects no leader (only the scheduler and the controllers of kube-controller-manager do), so a standby would run beside it, not wait for it", name, name)
		}
		// The leader candidate first, then its standbys: each replica is
		// a manager of its own at an endpoint of its own, as each
		// replica of kube-controller-manager runs on its own
		// control-plane node.
		for replica := range 1 + settings.Standbys {
			rname := name
			if replica > 0 {
				rname = fmt.Sprintf("%s/%s%d", name, standbySuffix, replica)
			}
			ropts := opts
			ropts.OnInformer = r.onInformer(rname)
			ropts.Observer = func(o controller.Observation) {
				if _, ok := r.res.ControllerActors[o.Controller]; !ok {
					r.res.ControllerActors[o.Controller] = actor
				}
				r.observeReconcile(o)
				if o.Err != nil {
					// Only here: the target errors.As is given escapes, an
					// allocation on every reconcile when it was made for all.
					var pe *controller.PanicError
					if errors.As(o.Err, &pe) {
						r.controllerPanicked(rname, pe)
					}
				}
			}
			// The manager's endpoint first, then its leader election's:
			// endpoints are listed in the order they were made.
			m := r.c.AddManager(rname, actor, setup)
			if member {
				// The process elects, watches, relists and crashes for it
				// (a member setting any of that is refused).
				ropts.LeaderElection, ropts.OnInformer, ropts.Resync = nil, nil, 0
				m.SetOptions(ropts)
				r.addProcessAddr(ctrlAddr(rname))
				if err := process.Host(m); err != nil {
					return fmt.Errorf("runner: %s: %w", rname, err)
				}
				r.managers[rname] = m
				continue
			}
			if elects {
				ropts.LeaderElection = r.leaderElection(rname, lease, replica)
			}
			m.SetOptions(ropts)
			if err := m.Start(); err != nil {
				return fmt.Errorf("runner: start %s: %w", rname, err)
			}
			r.managers[rname] = m
		}
	}
	if process != nil {
		if err := process.Start(); err != nil {
			return fmt.Errorf("runner: start %s: %w", scenarios.ControllerManagerProcess, err)
		}
	}
	return nil
}

// addProcessAddr records addr as an endpoint of kube-controller-manager's
// one process.
func (r *run) addProcessAddr(addr netsim.Addr) {
	if i, found := slices.BinarySearch(r.processEps, addr); !found {
		r.processEps = slices.Insert(r.processEps, i, addr)
	}
}

// startProcess makes kube-controller-manager's one process
// (spec.cluster.controllerManager: one-process): a manager with no
// controllers of its own at endpoint "controller/kube-controller-manager",
// acting as system:kube-controller-manager (upstream's shared informers
// use the process's own credentials), holding upstream's lease,
// kube-controller-manager. Its members are the controllers it hosts.
func (r *run) startProcess() *controller.Manager {
	name := scenarios.ControllerManagerProcess
	m := r.c.AddManager(name, kubeControllerManagerActor, nil)
	opts := r.c.ManagerOptions()
	opts.OnInformer = r.onInformer(name)
	r.addProcessAddr(ctrlAddr(name))
	opts.LeaderElection = r.leaderElection(name, name, 0)
	m.SetOptions(opts)
	r.managers[name] = m
	return m
}

// standbySuffix names a standby replica of a controller after the
// controller: "deployment/standby-1", at endpoint
// "controller/deployment/standby-1". A pattern naming the controller
// ("controller/deployment") does not name its standbys, which run on
// other nodes; "controller/deployment*" names them all.
const standbySuffix = "standby-"

// LeaderElectionSuffix ends the endpoint of a controller's leader
// election: "controller/deployment/leader-election". It has links of its
// own (so its requests draw nothing from the controller's link's random
// stream and leave every other message of a run as it was), and every
// endpoint pattern that names the controller names it too (matchAddr), so
// a partition or a link fault of the controller reaches its lease
// renewals, as they share one process and connection in reality.
const LeaderElectionSuffix = "/leader-election"

// kubeSystemServiceAccount prefixes the users kube-controller-manager's
// controllers act as: it runs each with its own service account in
// kube-system (--use-service-account-credentials, as kubeadm and every
// managed cluster start it), which is what makes a built-in controller
// one of kube-controller-manager's here.
const kubeSystemServiceAccount = "system:serviceaccount:kube-system:"

// leaseName is the Lease (in kube-system) that built-in controller name,
// acting as actor, holds while it leads, and whether it elects a leader
// at all. kube-scheduler's is upstream's; the controllers of
// kube-controller-manager run here each in its own manager at its own
// endpoint (so that a fault can reach one of them), so each holds its
// own lease, named after upstream's kube-controller-manager lease and
// the controller. It is derived from controllerSpecs, not listed, so a
// controller added there elects a leader with no further wiring; the
// application operators of controllers/naive are no component of the
// control plane and elect none.
func leaseName(name, actor string) (string, bool) {
	switch {
	case name == "scheduler":
		return "kube-scheduler", true
	case strings.HasPrefix(actor, kubeSystemServiceAccount):
		return "kube-controller-manager-" + name, true
	}
	return "", false
}

// kubeControllerManagerActor is the user kube-controller-manager
// authenticates as with its own credentials (not a controller's service
// account), which its leader election uses: upstream builds the
// leader-election client from the manager's root client
// (cmd/kube-controller-manager/app/controllermanager.go).
const kubeControllerManagerActor = "system:kube-controller-manager"

// leaseActor is the user whose requests renew controller name's lease:
// kube-scheduler's own for the scheduler, kube-controller-manager's for
// the controllers it runs, so that a controller's own request and write
// counts do not include lease renewals.
func leaseActor(name string) string {
	if name == "scheduler" {
		return scheduler.Actor
	}
	return kubeControllerManagerActor
}

// leaderElection is the leader election of controller name (a standby
// replica's name, "deployment/standby-1", for replica > 0), with
// upstream's durations: a lost lease is a timeline entry, and the
// manager is started again at once, as the kubelet restarts a static
// pod's container that exited (its first restart has no back-off); the
// new incarnation acquires the lease again once the old holder's lease
// expired, and its acquisition is an entry too, as is a standby's taking
// the lease over. Each replica has its own identity: the leader candidate
// "control-plane", standby i "control-plane-<i+1>" (the node it would run
// on), each followed by its incarnation.
func (r *run) leaderElection(name, lease string, replica int) *controller.LeaderElection {
	addr := netsim.Addr("controller/" + name + LeaderElectionSuffix)
	base, _, _ := strings.Cut(name, "/")
	r.c.SetActor(addr, leaseActor(base))
	identity := "control-plane"
	if replica > 0 {
		identity = fmt.Sprintf("control-plane-%d", replica+1)
	}
	return &controller.LeaderElection{
		Name:      lease,
		Identity:  identity,
		Transport: r.c.Transport(addr),
		Actor:     leaseActor(base),
		OnAcquired: func(m *controller.Manager, id string) {
			now := r.c.K.Now().Duration()
			if m.Starts() == 1 && replica == 0 {
				r.res.Activity = append(r.res.Activity, Activity{At: now, Controller: name, What: "lease", Subject: lease})
			}
			switch {
			case m.Starts() == 1 && replica > 0:
				r.record(Entry{At: now, Observation: true, System: true,
					Command: fmt.Sprintf("leader election: %s acquired lease kube-system/%s as %s: the standby leads now (fresh caches)", name, lease, id)})
			case m.Starts() > 1:
				r.record(Entry{At: now, Observation: true, System: true,
					Command: fmt.Sprintf("leader election: %s acquired lease kube-system/%s as %s (fresh caches)", name, lease, id)})
			}
		},
		OnLost: func(m *controller.Manager, id string) {
			r.record(Entry{At: r.c.K.Now().Duration(), Observation: true, System: true,
				Command: fmt.Sprintf("leader election: %s (%s) could not renew lease kube-system/%s within %v: leaderelection lost, the process exits and is restarted", name, id, lease, controller.DefaultRenewDeadline)})
			_ = m.Start()
		},
	}
}

// onInformer records the informer activity of controller name's
// manager.
func (r *run) onInformer(name string) func(informer.Activity) {
	return func(a informer.Activity) {
		r.res.Activity = append(r.res.Activity, Activity{At: r.c.K.Now().Duration(), Controller: name, What: a.Op.String(),
			Reason: a.Reason, Subject: a.Kind.Name + a.Options.String(), Failed: a.Failed, Objects: a.Objects})
	}
}

// observeInformers makes manager m (named name) report its informers'
// activity.
func (r *run) observeInformers(m *controller.Manager, name string) {
	o := r.c.ManagerOptions()
	o.OnInformer = r.onInformer(name)
	m.SetOptions(o)
}

// startActors starts the scenario's other actors: the metrics source fed
// by spec.load (which the HPA reads), the GitOps syncer and the IaC tool.
func (r *run) startActors() error {
	r.metrics = metrics.NewSource(r.c.K, r.c.Store, metrics.Options{})
	for _, lm := range r.s.Spec.Load {
		model, err := r.loadModel(lm)
		if err != nil {
			return err
		}
		r.metrics.AddModel(model)
	}
	r.metrics.Start()
	if g := r.s.Spec.GitOps; g != nil {
		var apps []gitops.Application
		for _, a := range g.Applications {
			repo := gitops.NewRepo("https://git.example.com/" + a.Name + ".git")
			for _, c := range a.Commits {
				objs := make([]api.Object, len(c.Parsed))
				for i, o := range c.Parsed {
					objs[i] = o.DeepCopyObject()
				}
				repo.Commit(kernel.Time(c.At.Duration).Wall(), objs)
			}
			opts, _ := gitops.ParseSyncOptions(a.SyncOptions)
			app := gitops.Application{Name: a.Name, Repo: repo, Namespace: a.Namespace, SyncOptions: opts}
			if a.Automated != nil {
				app.SyncPolicy.Automated = &gitops.Automated{Prune: a.Automated.Prune, SelfHeal: a.Automated.SelfHeal}
			}
			for _, d := range a.IgnoreDifferences {
				app.IgnoreDifferences = append(app.IgnoreDifferences, gitops.IgnoreDifference{Group: d.Group, Kind: d.Kind, Name: d.Name, Namespace: d.Namespace, JSONPointers: d.JSONPointers})
			}
			apps = append(apps, app)
		}
		opts := gitops.Options{}
		if g.Resync != nil {
			opts.Resync = g.Resync.Duration
		}
		if g.Jitter != nil {
			opts.Jitter = g.Jitter.Duration
		}
		syncer, err := gitops.New(apps, opts)
		if err != nil {
			return err
		}
		r.syncer = syncer
		m := r.c.AddManager("gitops", gitops.Actor, syncer.Setup)
		r.observeInformers(m, "gitops")
		if err := m.Start(); err != nil {
			return err
		}
		r.managers["gitops"] = m
	}
	if c := r.s.Spec.IaC; c != nil {
		opts := iac.Options{Refresh: c.Refresh}
		for _, at := range c.Runs {
			opts.Schedule.At = append(opts.Schedule.At, kernel.Time(at.Duration).Wall())
		}
		if c.Every != nil {
			opts.Schedule.Every = c.Every.Duration
		}
		decl := make([]api.Object, len(c.Parsed))
		for i, o := range c.Parsed {
			decl[i] = o.DeepCopyObject()
		}
		r.iac = iac.New(decl, opts)
		m := r.c.AddManager("iac", iac.Actor, r.iac.Setup)
		r.observeInformers(m, "iac")
		if err := m.Start(); err != nil {
			return err
		}
		r.managers["iac"] = m
	}
	return nil
}

// loadModel builds a metrics model from a scenario load: the target
// Deployment's selector is read from the scenario's objects.
func (r *run) loadModel(lm scenarios.LoadModel) (metrics.Model, error) {
	ns, name := scenarios.SplitRef(lm.Deployment)
	var sel api.Selector
	found := false
	for _, o := range r.allDeclared() {
		if d, ok := o.(*api.Deployment); ok && d.Name == name && (d.Namespace == ns || d.Namespace == "" && ns == scenarios.DefaultNamespace) {
			s, err := api.LabelSelectorAsSelector(d.Spec.Selector)
			if err != nil {
				return metrics.Model{}, err
			}
			sel, found = s, true
		}
	}
	if !found {
		return metrics.Model{}, fmt.Errorf("load: no Deployment %s/%s", ns, name)
	}
	var load metrics.Load
	rps := lm.RPS
	points := func(ps []scenarios.LoadPoint) []metrics.Point {
		out := make([]metrics.Point, len(ps))
		for i, p := range ps {
			out[i] = metrics.Point{At: p.At.Duration, RPS: p.RPS}
		}
		return out
	}
	var err error
	switch {
	case rps.Constant != nil:
		load = metrics.Constant(*rps.Constant)
	case len(rps.Steps) > 0:
		load, err = metrics.NewSteps(points(rps.Steps)...)
	case len(rps.Ramp) > 0:
		load, err = metrics.NewRamp(points(rps.Ramp)...)
	default:
		load, err = metrics.NewRamp(points(rps.Points)...)
	}
	if err != nil {
		return metrics.Model{}, err
	}
	m := metrics.Model{Namespace: ns, Selector: sel, Load: load, PerRequestMilli: float64(lm.CPUPerRequest.MilliValue())}
	if lm.BaseCPU != nil {
		m.BaseMilli = lm.BaseCPU.MilliValue()
	}
	return m, nil
}

// allDeclared lists every object the scenario declares anywhere.
func (r *run) allDeclared() []api.Object { return r.s.Declared() }

// observeReconcile records a finished reconcile.
func (r *run) observeReconcile(o controller.Observation) {
	rec := Reconcile{Controller: o.Controller, Key: o.Request.Key,
		Start: o.Start.Sub(kernel.Epoch), End: o.End.Sub(kernel.Epoch),
		Requeue: o.Result.Requeue || o.Result.RequeueAfter > 0}
	if o.Err != nil {
		rec.Err = o.Err.Error()
	}
	r.reconciles.add(rec)
}

// reconcileLog keeps a run's reconciles in blocks of a fixed size until
// Finish gathers them: appending to one slice copied it at each doubling,
// 310 MB of garbage at 5,000 nodes (698,178 reconciles) for the
// collector to chase. A block keeps each reconcile in a smaller form
// (keptReconcile) that the collector marks on every cycle while the run
// lasts; gather gives them back as Reconciles.
type reconcileLog struct {
	blocks [][]keptReconcile
	n      int
	// controllers are the controllers' names, errs the reconciles'
	// errors: a keptReconcile holds its numbers.
	controllers []string
	errs        []string
}

// keptReconcile is a Reconcile as the log keeps it: 56 bytes with its two
// pointers (the key's) first, where a Reconcile is 88 with four.
type keptReconcile struct {
	key        api.Key
	start, end time.Duration
	// err is the number of the error in errs plus one, 0 for none.
	err        uint32
	controller uint16
	requeue    bool
}

const reconcileBlock = 4096

func (l *reconcileLog) add(rec Reconcile) {
	if len(l.blocks) == 0 || len(l.blocks[len(l.blocks)-1]) == reconcileBlock {
		l.blocks = append(l.blocks, make([]keptReconcile, 0, reconcileBlock))
	}
	k := keptReconcile{key: rec.Key, start: rec.Start, end: rec.End, controller: l.controllerID(rec.Controller), requeue: rec.Requeue}
	if rec.Err != "" {
		l.errs = append(l.errs, rec.Err)
		k.err = uint32(len(l.errs))
	}
	last := &l.blocks[len(l.blocks)-1]
	*last = append(*last, k)
	l.n++
}

// controllerID returns the number of the controller named name, numbering
// it if new. A run has a few dozen controllers at most, and most
// reconciles are the last one's or a recent one's.
func (l *reconcileLog) controllerID(name string) uint16 {
	for i := len(l.controllers) - 1; i >= 0; i-- {
		if l.controllers[i] == name {
			return uint16(i)
		}
	}
	if len(l.controllers) > math.MaxUint16 {
		panic("runner invariant reconcile-log: more than 65,536 controllers")
	}
	l.controllers = append(l.controllers, name)
	return uint16(len(l.controllers) - 1)
}

// gather returns the reconciles in one slice, in order, and lets the
// blocks go.
func (l *reconcileLog) gather() []Reconcile {
	if l.n == 0 {
		return nil
	}
	out := make([]Reconcile, 0, l.n)
	for i, b := range l.blocks {
		for _, k := range b {
			rec := Reconcile{Controller: l.controllers[k.controller], Key: k.key, Start: k.start, End: k.end, Requeue: k.requeue}
			if k.err != 0 {
				rec.Err = l.errs[k.err-1]
			}
			out = append(out, rec)
		}
		l.blocks[i] = nil
	}
	l.blocks, l.n, l.errs = nil, 0, nil
	return out
}

// panicked is one recovered panic of a reconciler.
type panicked struct {
	at  time.Duration
	err *controller.PanicError
}

// Restart back-off of a controller that panicked: the kubelet's
// CrashLoopBackOff for the controller manager's container, 10 s doubling
// to 5 min.
const (
	crashBackoffInitial = 10 * time.Second
	crashBackoffMax     = 5 * time.Minute
)

// controllerPanicked records a reconciler's panic as a finding and crashes
// the controller's manager, as an unrecovered panic crashes
// kube-controller-manager; it is restarted after the crash-loop back-off
// and relists everything, as a restarted process does.
func (r *run) controllerPanicked(name string, pe *controller.PanicError) {
	if r.panics == nil {
		r.panics = map[string][]panicked{}
	}
	now := r.c.K.Now().Duration()
	r.panics[name] = append(r.panics[name], panicked{at: now, err: pe})
	m := r.managers[name]
	// The back-off is the process's: a member of kube-controller-manager's
	// one process shares its container's CrashLoopBackOff with the
	// others, so it counts the panics of every controller of the process.
	crashes := 0
	for other, ps := range r.panics { // a sum: the order is no matter
		if processOf(r.managers[other]) == processOf(m) {
			crashes += len(ps)
		}
	}
	backoff := crashBackoffInitial
	for range crashes - 1 {
		backoff = min(2*backoff, crashBackoffMax)
	}
	// The panic is observed on the worker that recovered it; the crash
	// happens as the next event, not inside the worker.
	r.c.K.At(r.c.K.Now(), func() {
		if m.Running() {
			m.Crash()
		}
	})
	r.c.K.At(r.c.K.Now().Add(backoff), func() {
		if !m.Running() {
			_ = m.Start()
		}
	})
}

// processOf is the manager that is m's process: its host
// (kube-controller-manager's one process, for its members), else m.
func processOf(m *controller.Manager) *controller.Manager {
	if h := m.Hosted(); h != nil {
		return h
	}
	return m
}

// panicFindings turns each controller's panics into a failed outcome:
// how many, the first's time, object, value and top frames.
func (r *run) panicFindings() []Outcome {
	var out []Outcome
	for _, name := range slices.Sorted(maps.Keys(r.panics)) {
		ps := r.panics[name]
		first := ps[0]
		out = append(out, Outcome{Name: "controller " + name + " did not panic",
			Detail: fmt.Sprintf("%s panicked %d time(s) and was restarted as a crashed controller is; first at %s reconciling %s: %v (at %s)",
				name, len(ps), clock(first.at), first.err.Request.Key, first.err.Value, strings.Join(first.err.Frames, " <- "))})
	}
	return out
}
