package deployment

import (
	"context"
	"errors"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// The end-to-end harness: a simulated control plane running the
// Deployment controller, a minimal ReplicaSet controller standing in for
// controllers/replicaset (written in parallel), and a fake kubelet that
// makes pods Running and Ready after a delay and finishes graceful
// deletions.

// kubeletActor is the fake kubelet's identity.
const kubeletActor = "system:node:node-1"

// env is one simulated cluster with the controllers running.
type env struct {
	t testing.TB
	c *cluster.Cluster
	// badImages are never made ready by the kubelet.
	badImages map[string]bool
	// readyDelay is how long after creation a pod becomes Ready.
	readyDelay time.Duration
	// killDelay is how long a graceful deletion takes.
	killDelay time.Duration
	dm        *controller.Manager
	user      client.Client
}

type envOptions struct {
	seed uint64
	link netsim.LinkConfig
	// realRS runs controllers/replicaset instead of the stand-in.
	realRS bool
}

func newEnv(t testing.TB, o envOptions, objs ...api.Object) *env {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: o.seed, Link: o.link})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, c: c, badImages: map[string]bool{}, readyDelay: 2 * time.Second, killDelay: time.Second}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	e.startKubelet()
	e.dm = c.AddManager("kube-controller-manager", Actor, func(m *controller.Manager) error { return Setup(m, Options{}) })
	setupRS := setupStandIn
	if o.realRS {
		setupRS = func(m *controller.Manager) error { return replicaset.Setup(m, replicaset.Options{}) }
	}
	rsm := c.AddManager("replicaset", replicaset.Actor, setupRS)
	if err := rsm.Start(); err != nil {
		t.Fatal(err)
	}
	if err := e.dm.Start(); err != nil {
		t.Fatal(err)
	}
	e.user = c.Client("user/kubectl", "kubectl")
	return e
}

// after runs fn d of virtual time from now.
func (e *env) after(d time.Duration, fn func()) {
	e.c.At(time.Duration(e.c.K.Now())+d, fn)
}

// now returns the virtual time as a wall instant.
func (e *env) now() time.Time { return e.c.K.Now().Wall() }

// startKubelet watches pods in the store: a new pod becomes Running and
// Ready readyDelay later (unless its image is bad); a pod being deleted is
// removed killDelay later. Writes go straight to the API server as the
// node.
func (e *env) startKubelet() {
	_, err := e.c.Store.Watch(api.KindPod, 0, store.ListOptions{}, store.SinkFunc(func(ev store.Event) {
		pod := ev.Object.(*api.Pod)
		key, uid := pod.Key(), pod.UID
		switch {
		case ev.Type == store.Deleted:
		case pod.DeletionTimestamp != nil:
			e.after(e.killDelay, func() { e.kill(key, uid) })
		case ev.Type == store.Added:
			e.after(e.readyDelay, func() { e.markReady(key, uid) })
		}
	}))
	if err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) markReady(key api.Key, uid api.UID) {
	o, err := e.c.Store.Get(api.KindPod, key)
	if err != nil {
		return
	}
	pod := o.(*api.Pod).DeepCopy()
	if pod.UID != uid || pod.DeletionTimestamp != nil || len(pod.Spec.Containers) == 0 || e.badImages[pod.Spec.Containers[0].Image] {
		return
	}
	now := api.NewTime(e.now())
	pod.Status.Phase = api.PodRunning
	pod.Status.StartTime = &now
	for _, typ := range []api.PodConditionType{api.PodInitialized, api.ContainersReady, api.PodReady, api.PodScheduled} {
		pod.Status.Conditions = append(pod.Status.Conditions, api.PodCondition{Type: typ, Status: api.ConditionTrue, LastTransitionTime: now})
	}
	resp := e.c.API.Handle(&apiserver.Request{Verb: apiserver.Update, Kind: api.KindPod, Namespace: key.Namespace, Name: key.Name, Subresource: "status", Actor: kubeletActor, Object: pod})
	if resp.Err != nil && !errors.Is(resp.Err, apierr.ErrNotFound) {
		e.t.Errorf("kubelet: ready %s: %v", key, resp.Err)
	}
}

func (e *env) kill(key api.Key, uid api.UID) {
	zero := int64(0)
	resp := e.c.API.Handle(&apiserver.Request{Verb: apiserver.Delete, Kind: api.KindPod, Namespace: key.Namespace, Name: key.Name, Actor: kubeletActor,
		DeleteOptions: store.DeleteOptions{GracePeriodSeconds: &zero, PreconditionUID: uid}})
	if resp.Err != nil && !errors.Is(resp.Err, apierr.ErrNotFound) && !errors.Is(resp.Err, apierr.ErrConflict) {
		e.t.Errorf("kubelet: delete %s: %v", key, resp.Err)
	}
}

// run advances the simulation by d.
func (e *env) run(d time.Duration) { e.c.RunFor(d) }

// update changes the Deployment name as a user would: get, mutate,
// update, again on a conflict or a timeout. It runs in a process and
// returns once the update is accepted (within 100ms on a perfect network,
// a minute at most on a lossy one).
func (e *env) update(name string, mutate func(d *api.Deployment)) {
	e.t.Helper()
	done := false
	e.c.Go("user", func(p *kernel.Process) {
		ctx := context.Background()
		for !done {
			d, err := client.GetAs[*api.Deployment](ctx, e.user, api.Key{Namespace: "default", Name: name})
			if err != nil {
				p.Sleep(100 * time.Millisecond)
				continue
			}
			mutate(d)
			if _, err := e.user.Update(ctx, d); err != nil {
				p.Sleep(100 * time.Millisecond)
				continue
			}
			done = true
		}
	})
	for i := 0; !done && i < 600; i++ {
		e.run(100 * time.Millisecond)
	}
	if !done {
		e.t.Fatalf("update of %s not accepted", name)
	}
}

// deployment returns the stored Deployment.
func (e *env) deployment(name string) *api.Deployment {
	e.t.Helper()
	o, err := e.c.Store.Get(api.KindDeployment, api.Key{Namespace: "default", Name: name})
	if err != nil {
		e.t.Fatal(err)
	}
	return o.(*api.Deployment)
}

// replicaSets returns the stored ReplicaSets of the namespace, by name.
func (e *env) replicaSets() []*api.ReplicaSet {
	objs, _, err := e.c.Store.List(api.KindReplicaSet, store.ListOptions{Namespace: "default"})
	if err != nil {
		e.t.Fatal(err)
	}
	return typed[*api.ReplicaSet](objs)
}

// replicaSet returns the stored ReplicaSet whose template runs image.
func (e *env) replicaSet(image string) *api.ReplicaSet {
	e.t.Helper()
	for _, r := range e.replicaSets() {
		if r.Spec.Template.Spec.Containers[0].Image == image {
			return r
		}
	}
	e.t.Fatalf("no ReplicaSet runs %s", image)
	return nil
}

// pods returns the stored pods of the namespace, by name.
func (e *env) pods() []*api.Pod {
	objs, _, err := e.c.Store.List(api.KindPod, store.ListOptions{Namespace: "default"})
	if err != nil {
		e.t.Fatal(err)
	}
	return typed[*api.Pod](objs)
}

// events returns "Type Reason Message" of the events about the Deployment
// name, in the order they were created.
func (e *env) events(name string) []string {
	var out []string
	for _, r := range e.c.Store.Audit().Records() {
		if r.Kind != api.KindEvent || r.Verb != "create" {
			continue
		}
		o, err := e.c.Store.Get(api.KindEvent, r.Key)
		if err != nil {
			continue
		}
		ev := o.(*api.Event)
		if ev.InvolvedObject.Kind == "Deployment" && ev.InvolvedObject.Name == name && ev.Source.Component == Component {
			out = append(out, ev.Type+" "+ev.Reason+" "+ev.Message)
		}
	}
	return out
}

// condition returns the Deployment's condition of typ as "Status Reason
// Message", or "".
func condition(d *api.Deployment, typ api.DeploymentConditionType) string {
	c := GetDeploymentCondition(d.Status, typ)
	if c == nil {
		return ""
	}
	return string(c.Status) + " " + c.Reason + " " + c.Message
}

// ---- the stand-in ReplicaSet controller ----

// standIn is a minimal ReplicaSet controller for these tests: it lists a
// ReplicaSet's pods through the API (no expectations needed, no
// overshoot), creates missing pods bound to node-1 (so that deletions are
// graceful), deletes surplus ones (not-ready, then newest first), and
// writes replicas, ready, available, terminating and observedGeneration.
type standIn struct {
	client client.Client
	clock  client.PassiveClock
	rss    informer.Lister
}

func setupStandIn(m *controller.Manager) error {
	rsInf, err := m.Informer(api.KindReplicaSet, informer.Options{})
	if err != nil {
		return err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	r := &standIn{client: m.Client(), clock: m.Clock(), rss: rsInf.Lister()}
	c, err := m.NewController("replicaset", controller.Options{Workers: 2}, r)
	if err != nil {
		return err
	}
	c.Watch(rsInf, controller.EnqueueObject())
	c.Watch(podInf, controller.EnqueueOwner(api.KindReplicaSet))
	return nil
}

func (r *standIn) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	cached, ok := informer.GetAs[*api.ReplicaSet](r.rss, req.Key)
	if !ok || cached.DeletionTimestamp != nil {
		return controller.Result{}, nil
	}
	sel, err := api.LabelSelectorAsSelector(cached.Spec.Selector)
	if err != nil {
		return controller.Result{}, controller.TerminalError(err)
	}
	all, err := client.ListAs[*api.Pod](ctx, r.client, client.InNamespace(cached.Namespace), client.MatchingSelector(sel))
	if err != nil {
		return controller.Result{}, err
	}
	var active []*api.Pod
	terminating := int32(0)
	for _, p := range all {
		switch {
		case !api.IsControlledBy(p, cached):
		case p.DeletionTimestamp != nil:
			terminating++
		case p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed:
		default:
			active = append(active, p)
		}
	}
	// Status from the pods as listed, before this pass acts (as
	// upstream).
	now := r.clock.Now()
	var ready, available int32
	requeue := time.Duration(0)
	for _, p := range active {
		if !api.IsPodReady(p) {
			continue
		}
		ready++
		since := readySince(p)
		minReady := time.Duration(cached.Spec.MinReadySeconds) * time.Second
		if minReady == 0 || !since.Add(minReady).After(now) {
			available++
		} else if w := since.Add(minReady).Sub(now); requeue == 0 || w < requeue {
			requeue = w
		}
	}
	status := cached.Status.DeepCopy()
	status.Replicas = int32(len(active))
	status.FullyLabeledReplicas = int32(len(active))
	status.ReadyReplicas = ready
	status.AvailableReplicas = available
	status.TerminatingReplicas = &terminating
	status.ObservedGeneration = cached.Generation
	if !api.SemanticEqual(*status, cached.Status) {
		upd := cached.DeepCopy()
		upd.Status = *status
		if _, err := r.client.UpdateStatus(ctx, upd); err != nil {
			return controller.Result{}, err
		}
	}

	want := int(rsReplicas(cached))
	switch {
	case len(active) < want:
		for range want - len(active) {
			pod := &api.Pod{
				TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
				ObjectMeta: api.ObjectMeta{
					GenerateName:    cached.Name + "-",
					Namespace:       cached.Namespace,
					Labels:          cached.Spec.Template.Labels,
					Annotations:     cached.Spec.Template.Annotations,
					OwnerReferences: []api.OwnerReference{api.NewControllerRef(cached)},
				},
				Spec: *cached.Spec.Template.Spec.DeepCopy(),
			}
			pod.Spec.NodeName = "node-1"
			if _, err := r.client.Create(ctx, pod); err != nil {
				return controller.Result{}, err
			}
		}
	case len(active) > want:
		// Not-ready pods first, then the newest.
		sort.SliceStable(active, func(i, j int) bool {
			if api.IsPodReady(active[i]) != api.IsPodReady(active[j]) {
				return !api.IsPodReady(active[i])
			}
			ti, tj := active[i].CreationTimestamp.Time, active[j].CreationTimestamp.Time
			if !ti.Equal(tj) {
				return ti.After(tj)
			}
			return active[i].Name > active[j].Name
		})
		for _, p := range active[:len(active)-want] {
			err := r.client.Delete(ctx, api.KindPod, p.Key(), client.Preconditions(p.UID, ""))
			if err != nil && !errors.Is(err, apierr.ErrNotFound) {
				return controller.Result{}, err
			}
		}
	}
	if requeue > 0 {
		return controller.Result{RequeueAfter: requeue}, nil
	}
	return controller.Result{}, nil
}

// readySince returns when pod last became Ready.
func readySince(pod *api.Pod) time.Time {
	for _, c := range pod.Status.Conditions {
		if c.Type == api.PodReady {
			return c.LastTransitionTime.Time
		}
	}
	return time.Time{}
}

// ---- the rollout invariant ----

// budget checks, after every pod change in the store, that the pods of the
// Deployment (its selector's) stay within the rollout budget: active pods
// ≤ replicas + maxSurge, and, once armed, available pods ≥ replicas −
// maxUnavailable.
type budget struct {
	t               testing.TB
	sel             api.Selector
	maxPods         int
	minAvailable    int
	armed           bool
	pods            map[api.Key]*api.Pod
	checks          int
	peakPods        int
	lowestAvailable int
}

func (e *env) watchBudget(d *api.Deployment, replicas, maxSurge, maxUnavailable int) *budget {
	sel, err := api.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		e.t.Fatal(err)
	}
	b := &budget{t: e.t, sel: sel, maxPods: replicas + maxSurge, minAvailable: replicas - maxUnavailable, pods: map[api.Key]*api.Pod{}, lowestAvailable: 1 << 30}
	_, err = e.c.Store.Watch(api.KindPod, 0, store.ListOptions{Namespace: d.Namespace}, store.SinkFunc(func(ev store.Event) {
		pod := ev.Object.(*api.Pod)
		if ev.Type == store.Deleted {
			delete(b.pods, pod.Key())
		} else {
			b.pods[pod.Key()] = pod
		}
		b.check(e.c.K.Now())
	}))
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// counts returns the active and available pods the selector matches.
func (b *budget) counts() (active, available int) {
	for _, p := range b.pods {
		if !b.sel.Matches(p.Labels) || p.DeletionTimestamp != nil {
			continue
		}
		active++
		if api.IsPodReady(p) {
			available++
		}
	}
	return active, available
}

func (b *budget) check(now kernel.Time) {
	active, available := b.counts()
	b.checks++
	b.peakPods = max(b.peakPods, active)
	if active > b.maxPods {
		b.t.Errorf("at %v: %d pods, more than replicas + maxSurge = %d", now, active, b.maxPods)
	}
	if !b.armed && available >= b.minAvailable {
		b.armed = true
	}
	if b.armed {
		b.lowestAvailable = min(b.lowestAvailable, available)
		if available < b.minAvailable {
			b.t.Errorf("at %v: %d pods available, fewer than replicas − maxUnavailable = %d", now, available, b.minAvailable)
		}
	}
}

// names of pods, sorted.
func podNames(pods []*api.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Name)
	}
	slices.Sort(out)
	return out
}

// statusUpdate is a deployments/status update of d as the controller.
func statusUpdate(d *api.Deployment) *apiserver.Request {
	return &apiserver.Request{Verb: apiserver.Update, Kind: api.KindDeployment, Namespace: d.Namespace, Name: d.Name, Subresource: "status", Actor: Actor, Object: d.DeepCopy()}
}

// storeAll selects every object.
var storeAll = store.ListOptions{}

// sinkFunc adapts a function called after every event to a store sink.
func sinkFunc(f func()) store.Sink { return store.SinkFunc(func(store.Event) { f() }) }

// lossyLink drops 5% of messages, duplicates 3% and adds 1-5 ms of
// latency.
var lossyLink = netsim.LinkConfig{
	Latency:   netsim.Latency{Base: time.Millisecond, Jitter: 4 * time.Millisecond},
	Drop:      0.05,
	Duplicate: 0.03,
}
