package scenarios

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/controllers/gitops"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/gap"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/metrics"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// Error is a scenario that cannot run: the file, line and column of the
// offending node, the field path, and what is wrong. It is the same type
// the manifest loader returns, so errors inside inline manifests read the
// same way.
type Error = manifest.Error

// Controllers are the names spec.controllers accepts, in the order they
// are started.
var Controllers = []string{"resourcequota", "garbage-collector", "replicaset", "deployment", "daemonset", "scheduler",
	"node-lifecycle", "endpoints", "endpointslice", "horizontal-pod-autoscaler", "disruption", "job", "cronjob", "statefulset", "persistentvolume-binder", "naive-app-operator", "polling-app-operator",
	"app-operator", "retrying-app-operator", "edge-app-operator", "level-app-operator",
	"panicking-app-operator", "busy-app-operator"}

// OptInControllers run only when spec.controllers lists them (and does not
// set enabled: false): specimens of common operator mistakes
// (controllers/naive), not part of a Kubernetes control plane.
var OptInControllers = []string{"naive-app-operator", "polling-app-operator",
	"app-operator", "retrying-app-operator", "edge-app-operator", "level-app-operator",
	"panicking-app-operator", "busy-app-operator"}

// OnDemandControllers are the built-in controllers that run, unless
// spec.controllers says otherwise, only in a scenario that holds an object
// of a kind they act on (in spec.objects or an apply step): upstream runs
// them always, and without such objects they would only list and watch,
// adding requests to every run's report and trace. The disruption
// controller runs where there is a PodDisruptionBudget, the Job controller
// where there is a Job or a CronJob, the CronJob controller where there is
// a CronJob, the daemon set controller where there is a DaemonSet, the
// StatefulSet controller where there is a StatefulSet and the persistent
// volume controller (with the scheduler's volume plugins) where there is
// a StatefulSet, a claim, a volume or a class, and the EndpointSlice
// controller where there is a Service.
var OnDemandControllers = map[string][]api.Kind{"disruption": {api.KindPodDisruptionBudget}, "job": {api.KindJob, api.KindCronJob}, "cronjob": {api.KindCronJob}, "daemonset": {api.KindDaemonSet},
	"statefulset":             {api.KindStatefulSet},
	"endpointslice":           {api.KindService},
	"persistentvolume-binder": {api.KindStatefulSet, api.KindPersistentVolumeClaim, api.KindPersistentVolume, api.KindStorageClass}}

func init() { controller.Reserve(Controllers...) }

// Enabled reports whether the named controller runs under these settings.
// Controllers registered through controller.Register are opt-in: they run
// only when spec.controllers names them.
// An on-demand controller (OnDemandControllers) counts as enabled here
// only when listed; Runs says whether it runs in a given scenario.
func Enabled(settings map[string]ControllerSettings, name string) bool {
	cs, listed := settings[name]
	if !listed {
		_, onDemand := OnDemandControllers[name]
		return slices.Contains(Controllers, name) && !slices.Contains(OptInControllers, name) && !onDemand
	}
	return cs.Enabled == nil || *cs.Enabled
}

// Runs reports whether the named controller runs in s: Enabled, or an
// on-demand controller not listed in spec.controllers whose kind the
// scenario declares anywhere (Declared: spec.objects, an apply step, a
// GitOps commit, spec.iac).
func Runs(s *Scenario, name string) bool {
	kinds, onDemand := OnDemandControllers[name]
	if _, listed := s.Spec.Controllers[name]; listed || !onDemand {
		return Enabled(s.Spec.Controllers, name)
	}
	return slices.ContainsFunc(s.Declared(), func(o api.Object) bool { return slices.Contains(kinds, api.KindOf(o)) })
}

// QuotaKinds lists, sorted, the kinds besides pods, Services,
// ConfigMaps, Deployments, ReplicaSets and ResourceQuotas whose objects a
// ResourceQuota the scenario declares anywhere (Declared: spec.objects,
// an apply step, a GitOps commit, spec.iac) counts by name
// (api.QuotaCountedKind of its spec.hard): the quota controller watches
// them to recalculate usage.
func QuotaKinds(s *Scenario) []api.Kind {
	var out []api.Kind
	for _, o := range s.Declared() {
		q, ok := o.(*api.ResourceQuota)
		if !ok {
			continue
		}
		for name := range q.Spec.Hard {
			if k, ok := api.QuotaCountedKind(name); ok && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.SortFunc(out, api.Kind.Compare)
	return out
}

// AllControllers are the names spec.controllers accepts, in the order a
// run starts them: the built-in Controllers, then every controller
// registered with controller.Register, by name.
func AllControllers() []string {
	return append(slices.Clip(Controllers), controller.Registered()...)
}

// DefaultNamespace is where objects without a namespace go.
const DefaultNamespace = "default"

var dnsLabelPattern = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// isDNSLabel reports whether s is a lowercase RFC 1123 label: at most 63
// characters of a-z, 0-9 and -, starting and ending with a letter or digit.
func isDNSLabel(s string) bool {
	return len(s) <= 63 && dnsLabelPattern.MatchString(s)
}

// LoadFile reads and loads the scenario file at p under the default
// limits; relative file references in it are resolved against its
// directory and may not leave it.
func LoadFile(p string) (*Scenario, error) { return LoadFileWith(p, Options{}) }

// LoadFileWith reads and loads the scenario file at p. Its relative file
// references are resolved against its directory and must stay inside
// opts.Root (default: that directory) after symbolic links are resolved.
func LoadFileWith(p string, opts Options) (*Scenario, error) {
	lim := opts.Limits.WithDefaults()
	data, err := ReadFile(p, lim)
	if err != nil {
		return nil, err
	}
	dir, err := filepath.Abs(filepath.Dir(p))
	if err != nil {
		return nil, err
	}
	root := dir
	if opts.Root != "" {
		if root, err = filepath.Abs(opts.Root); err != nil {
			return nil, err
		}
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || !fs.ValidPath(filepath.ToSlash(rel)) {
		return nil, fmt.Errorf("%s: the scenario is not inside --root %s", p, opts.Root)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	l := &loader{dir: filepath.ToSlash(rel), fsys: r.FS(), limits: lim, users: opts.Users}
	if opts.Root != "" {
		l.rootDir = opts.Root
	}
	return l.loadData(p, data)
}

// Load loads a scenario from data under the default limits. file names it
// in errors; its relative file references are resolved against dir inside
// fsys (the scenario's own directory, or the built-in scenarios' embedded
// tree) and may not leave fsys. Nothing in the scenario runs if Load
// fails.
func Load(file, dir string, fsys fs.FS, data []byte) (*Scenario, error) {
	return LoadWith(file, dir, fsys, data, Options{})
}

// LoadWith is Load under opts' limits (zero fields take their defaults)
// and with its users; opts.Root is not read (fsys is the tree).
func LoadWith(file, dir string, fsys fs.FS, data []byte, opts Options) (*Scenario, error) {
	l := &loader{dir: dir, fsys: fsys, limits: opts.Limits.WithDefaults(), users: opts.Users}
	return l.loadData(file, data)
}

func (l *loader) loadData(file string, data []byte) (*Scenario, error) {
	l.file = file
	if int64(len(data)) > l.limits.FileBytes {
		return nil, &Error{File: file, Line: 1, Column: 1, Msg: capError("file-bytes", fmt.Sprintf("%d bytes", len(data)), l.limits.FileBytes)}
	}
	docs, err := manifest.Documents(file, data)
	if err != nil {
		return nil, err
	}
	switch len(docs) {
	case 0:
		return nil, &Error{File: file, Line: 1, Column: 1, Msg: "empty scenario file"}
	case 1:
	default:
		return nil, &Error{File: file, Line: docs[1].Line, Column: docs[1].Column, Msg: "a scenario file holds one document; found more"}
	}
	l.root = docs[0]
	// Aliases are counted once over the whole file, so that steps each
	// expanding the same alias cannot multiply the budget.
	if err := manifest.CheckAliases(file, docs[0]); err != nil {
		return nil, err
	}
	if err := l.counts(); err != nil {
		return nil, err
	}
	s := &Scenario{File: file, Dir: l.dir, root: docs[0]}
	if err := manifest.DecodeNode(file, docs[0], "", s); err != nil {
		return nil, decodeError(err, docs[0], reflect.TypeFor[Scenario](), "")
	}
	if err := l.validate(s); err != nil {
		return nil, err
	}
	s.refs = l.refs
	s.origins = l.origins
	s.settleWarnings()
	return s, nil
}

type loader struct {
	file string
	dir  string
	fsys fs.FS
	root *yaml.Node
	// rootDir names the tree references are confined to in messages ("":
	// the scenario's directory).
	rootDir string
	limits  Limits
	// objects and pods count what the scenario declares so far, against
	// the caps.
	nObjects, nNodes int
	crds             Definitions       // the definitions loaded so far
	refs             map[string][]byte // the referenced files read, by name as written
	users            []string          // Options.Users
	// refBytes counts the bytes file references read, against the
	// ref-bytes cap; uncounted is set while a file is read again for an
	// error's position.
	refBytes  int64
	uncounted bool
	// origins is where each object read so far was written.
	origins origins
}

// errorf returns an *Error at the node of the field path.
func (l *loader) errorf(field, format string, args ...any) *Error {
	line, col := manifest.Position(l.root, field)
	return &Error{File: l.file, Line: line, Column: col, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// validate checks what strict decoding cannot: values, and references to
// nodes, objects, partitions and controllers in time order.
func (l *loader) validate(s *Scenario) error {
	if s.APIVersion != APIVersion {
		return l.errorf("apiVersion", "unsupported apiVersion %q; this clustersim reads %s", s.APIVersion, APIVersion)
	}
	if s.Kind != "Scenario" {
		return l.errorf("kind", "kind %q is not Scenario", s.Kind)
	}
	if s.Metadata.Name == "" {
		return l.errorf("metadata.name", "required")
	}
	if !isDNSLabel(s.Metadata.Name) {
		return l.errorf("metadata.name", "%q is not a lowercase DNS label (a-z, 0-9 and -, at most 63 characters)", s.Metadata.Name)
	}
	if s.Spec.Duration.Duration <= 0 {
		return l.errorf("spec.duration", "required, and must be positive")
	}
	if d := s.Spec.Duration.Duration; d > l.limits.Duration {
		return l.errorf("spec.duration", "%s", capError("duration", d, l.limits.Duration))
	}
	w := &world{nodes: map[string]bool{}, groups: map[string]bool{}, objects: map[objKey]bool{}, partitions: map[string]bool{}, controllers: map[string]bool{}, apps: map[string]bool{}, down: map[string]bool{}}
	if err := l.cluster(s, w); err != nil {
		return err
	}
	if err := l.registry(s); err != nil {
		return err
	}
	if err := l.network(s); err != nil {
		return err
	}
	if err := l.controllers(s, w); err != nil {
		return err
	}
	if err := l.faults(s, w); err != nil {
		return err
	}
	entries := make([]entry, 0, len(s.Spec.Objects))
	for i, n := range s.Spec.Objects {
		objs, err := l.objects(fmt.Sprintf("spec.objects[%d]", i), n)
		if err != nil {
			return err
		}
		if err := l.addObjects(fmt.Sprintf("spec.objects[%d]", i), len(objs)); err != nil {
			return err
		}
		for _, o := range objs {
			f, inline := fmt.Sprintf("spec.objects[%d]", i), mapValue(n, "file") == nil
			if !inline {
				f += ".file"
			}
			if err := l.bootstrappable(f, inline, o, w); err != nil {
				return err
			}
			w.add(o)
		}
		if err := l.checkPods(fmt.Sprintf("spec.objects[%d]", i), w); err != nil {
			return err
		}
		s.Objects = append(s.Objects, objs...)
		entries = append(entries, entry{field: fmt.Sprintf("spec.objects[%d]", i), node: n, objs: objs})
	}
	if err := l.checkPodClasses(entries, s.Objects); err != nil {
		return err
	}
	if err := l.gitops(s, w); err != nil {
		return err
	}
	if err := l.iac(s, w); err != nil {
		return err
	}
	if err := l.load(s, w); err != nil {
		return err
	}
	if err := l.measure(s); err != nil {
		return err
	}
	order := make([]int, len(s.Spec.Timeline))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return int(s.Spec.Timeline[a].At.Duration - s.Spec.Timeline[b].At.Duration)
	})
	if err := l.checkPods("spec.objects", w); err != nil {
		return err
	}
	for _, i := range order {
		if err := l.step(s, i, w); err != nil {
			return err
		}
		if err := l.checkPods(fmt.Sprintf("spec.timeline[%d]", i), w); err != nil {
			return err
		}
	}
	if err := l.ignoreDifferences(s); err != nil {
		return err
	}
	if err := l.faultPatterns(s, w); err != nil {
		return err
	}
	if s.OneProcess() && len(processMembers(s)) == 0 {
		return l.errorf("spec.cluster.controllerManager", "%s, but none of kube-controller-manager's controllers runs in this scenario: the setting would change nothing", ControllerManagerOneProcess)
	}
	var checks int64
	for i := range s.Spec.Expect {
		if err := l.expectation(s, i, w); err != nil {
			return err
		}
		// Each window is within the run, so the sum cannot overflow:
		// the entries are at most the file's bytes, each at most the
		// duration's seconds.
		if checks += s.Spec.Expect[i].Checks(); checks > l.limits.Checks {
			return l.errorf(fmt.Sprintf("spec.expect[%d]", i), "%s", capError("checks", fmt.Sprintf("%d looks at the cluster by the expectations so far (a within window looks once a second)", checks), l.limits.Checks))
		}
	}
	return nil
}

// world is what exists as the timeline is checked in time order: nodes,
// node groups, objects, partitions and controllers, so that a reference to
// something that does not exist (yet) is caught.
type world struct {
	nodes, groups, partitions, controllers, apps map[string]bool
	// down are the nodes a crashNode, crashNodes or stopKubelet step has
	// stopped, until a recoverNode brings each back; apiServerDown is
	// whether an apiServerDown step is in force.
	down          map[string]bool
	apiServerDown bool
	// crashed are the controllers a crashController step has stopped,
	// until a restartController starts each again; faulted are those
	// spec.faults may crash and restart on its own, which the timeline
	// cannot follow.
	crashed, faulted map[string]bool
	objects          map[objKey]bool
	groupSize        map[string]int
	// pods is what each workload asks for, hpaMax the maxReplicas of a
	// HorizontalPodAutoscaler scaling it, and totalPods the sum over the
	// workloads of the larger of the two, checked against the pods cap
	// with a pod on every node for each of daemonSets.
	pods, hpaMax map[objKey]int64
	totalPods    int64
	daemonSets   map[objKey]bool
	// containers are the names of the containers and init containers of
	// each Deployment's templates declared so far (addContainers), and
	// unknownContainers the Deployments an edit or request may have
	// changed since.
	containers        map[objKey][]string
	unknownContainers map[objKey]bool
	// last is each object as the scenario declared it last (spec.objects,
	// apply steps, GitOps commits, spec.iac, request steps), for an edit
	// or a patch to apply to (patched).
	last map[objKey]api.Object
}

type objKey struct {
	kind api.Kind
	key  api.Key
}

func (w *world) add(o api.Object) {
	k := w.key(o)
	ns := k.key.Namespace
	w.objects[k] = true
	if w.last == nil {
		w.last = map[objKey]api.Object{}
	}
	w.last[k] = o
	switch o := o.(type) {
	case *api.Deployment:
		w.setPods(k, orOne(o.Spec.Replicas))
		w.addContainers(k, o)
	case *api.ReplicaSet:
		w.setPods(k, orOne(o.Spec.Replicas))
	case *api.StatefulSet:
		w.setPods(k, orOne(o.Spec.Replicas))
	case *api.Pod:
		w.setPods(k, 1)
	case *api.Job:
		w.setPods(k, jobPods(o.Spec))
	case *api.CronJob:
		// The Jobs it keeps (the history limits, defaults 3 and 1) and
		// one running.
		kept := int64(3) + 1
		if n := o.Spec.SuccessfulJobsHistoryLimit; n != nil {
			kept = int64(*n) + 1
		}
		if n := o.Spec.FailedJobsHistoryLimit; n != nil {
			kept += int64(*n)
		} else {
			kept++
		}
		w.setPods(k, kept*jobPods(o.Spec.JobTemplate.Spec))
	case *api.HorizontalPodAutoscaler:
		t := o.Spec.ScaleTargetRef
		tk, _ := ResolveKind(t.Kind)
		w.setHPAMax(objKey{tk, api.Key{Namespace: ns, Name: t.Name}}, int64(o.Spec.MaxReplicas))
	case *api.DaemonSet:
		if w.daemonSets == nil {
			w.daemonSets = map[objKey]bool{}
		}
		w.daemonSets[k] = true
	}
}

// orOne is *n, or 1 (the default replicas) for nil.
func orOne(n *int32) int64 {
	if n == nil {
		return 1
	}
	return int64(*n)
}

// jobPods is the pods a Job keeps: its parallelism (default 1) or, when
// larger, its completions (succeeded pods stay).
func jobPods(spec api.JobSpec) int64 {
	p := orOne(spec.Parallelism)
	if c := spec.Completions; c != nil {
		return max(p, int64(*c))
	}
	return p
}

// setPods records the pods the workload k asks for.
func (w *world) setPods(k objKey, n int64) {
	if w.pods == nil {
		w.pods = map[objKey]int64{}
	}
	old := max(w.pods[k], w.hpaMax[k])
	w.pods[k] = n
	w.totalPods += max(n, w.hpaMax[k]) - old
}

// setHPAMax records the maxReplicas of an autoscaler scaling the
// workload k: it may ask for that many pods.
func (w *world) setHPAMax(k objKey, n int64) {
	if w.hpaMax == nil {
		w.hpaMax = map[objKey]int64{}
	}
	old := max(w.pods[k], w.hpaMax[k])
	w.hpaMax[k] = n
	w.totalPods += max(w.pods[k], n) - old
}

func (l *loader) cluster(s *Scenario, w *world) error {
	w.groupSize = map[string]int{}
	for i, g := range s.Spec.Cluster.NodeGroups {
		f := fmt.Sprintf("spec.cluster.nodeGroups[%d]", i)
		// Its length is checked below, against its nodes' names.
		if !dnsLabelPattern.MatchString(g.Name) {
			return l.errorf(f+".name", "%q is not a lowercase DNS label (a-z, 0-9 and -)", g.Name)
		}
		if w.groups[g.Name] {
			return l.errorf(f+".name", "node group %q is declared twice", g.Name)
		}
		// A node's name, <group>-<n>, is the value of its
		// kubernetes.io/hostname label: a label value has at most 63
		// characters, whatever n the group's nodes reach (the nodes cap
		// bounds it).
		if most := 63 - len(fmt.Sprintf("-%d", l.limits.Nodes)); len(g.Name) > most {
			return l.errorf(f+".name", "%q is %d characters, more than %d: its nodes' names (%s-1 ... %s-%d) are the value of their kubernetes.io/hostname label, which must be no more than 63 characters", g.Name, len(g.Name), most, "<group>", "<group>", l.limits.Nodes)
		}
		if g.Count < 0 {
			return l.errorf(f+".count", "must not be negative")
		}
		for _, r := range []api.ResourceName{api.ResourceCPU, api.ResourceMemory} {
			q, ok := g.Capacity[r]
			if !ok || q.Cmp(api.Quantity{}) <= 0 {
				return l.errorf(f+".capacity", "%s is required and must be positive", r)
			}
		}
		for _, r := range g.Capacity.SortedNames() {
			if r != api.ResourceCPU && r != api.ResourceMemory && r != api.ResourcePods && r != api.ResourceEphemeralStorage {
				return l.errorf(f+".capacity["+string(r)+"]", "unknown resource %q (cpu, memory, pods, ephemeral-storage)", r)
			}
		}
		for _, part := range []struct {
			field string
			list  api.ResourceList
		}{{".capacity", g.Capacity}, {".kubeReserved", g.KubeReserved}, {".systemReserved", g.SystemReserved}} {
			for _, r := range part.list.SortedNames() {
				q := part.list[r]
				rf := f + part.field + "[" + string(r) + "]"
				if q.Cmp(api.Quantity{}) < 0 {
					return l.errorf(rf, "Invalid value: %q: must be greater than or equal to 0", q.String())
				}
				if r == api.ResourcePods && q.MilliValue()%1000 != 0 {
					return l.errorf(rf, "Invalid value: %q: must be an integer", q.String())
				}
			}
		}
		for _, k := range sortedKeys(g.Labels) {
			if err := labelPair(k, g.Labels[k]); err != nil {
				return l.errorf(f+".labels["+k+"]", "%v", err)
			}
		}
		for _, part := range []struct {
			field        string
			kube, system api.ResourceList
			eviction     map[string]string
		}{{".kubeReserved", g.KubeReserved, nil, nil}, {".systemReserved", nil, g.SystemReserved, nil}, {".evictionHard", nil, nil, g.EvictionHard}} {
			if _, err := kubelet.NodeAllocatable(g.Capacity, part.kube, part.system, part.eviction); err != nil {
				return l.errorf(f+part.field, "%v", err)
			}
		}
		for j, t := range g.Taints {
			tf := fmt.Sprintf("%s.taints[%d]", f, j)
			if t.Key == "" {
				return l.errorf(tf+".key", "required")
			}
			if err := labelPair(t.Key, ""); err != nil {
				return l.errorf(tf+".key", "%v", err)
			}
			if err := labelPair("value", t.Value); err != nil {
				return l.errorf(tf+".value", "%v", err)
			}
			switch t.Effect {
			case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
			default:
				return l.errorf(fmt.Sprintf("%s.taints[%d].effect", f, j), "effect %q is not NoSchedule, PreferNoSchedule or NoExecute", t.Effect)
			}
		}
		if err := l.addNodes(f+".count", g.Count); err != nil {
			return err
		}
		if err := l.groupAutoscaling(f, g); err != nil {
			return err
		}
		w.groups[g.Name] = true
		w.groupSize[g.Name] = g.Count
		for n := 1; n <= g.Count; n++ {
			w.nodes[fmt.Sprintf("%s-%d", g.Name, n)] = true
		}
	}
	if g := s.Spec.Cluster.NodeMonitorGracePeriod; g != nil && g.Duration <= 0 {
		return l.errorf("spec.cluster.nodeMonitorGracePeriod", "must be positive")
	}
	if err := l.evictionSettings(s); err != nil {
		return err
	}
	if err := l.eventTTL(s.Spec.Cluster.EventTTL); err != nil {
		return err
	}
	switch s.Spec.Cluster.ControllerManager {
	case "", ControllerManagerPerController, ControllerManagerOneProcess:
	default:
		return l.errorf("spec.cluster.controllerManager", "unknown value %q (known: %s, the default, and %s)", s.Spec.Cluster.ControllerManager, ControllerManagerPerController, ControllerManagerOneProcess)
	}
	if err := l.kubelet(s); err != nil {
		return err
	}
	return l.autoscaler(s)
}

// MaxEventTTL is the longest spec.cluster.eventTTL: etcd grants no lease
// longer than 9,000,000,000 seconds (MaxLeaseTTL), and the API server
// asks for a minute more than the TTL.
const MaxEventTTL = (9_000_000_000 - store.LeaseReuseDurationSeconds) * time.Second

// eventTTL checks spec.cluster.eventTTL: whole seconds (kube-apiserver
// would truncate the rest), not negative, at most MaxEventTTL.
func (l *loader) eventTTL(d *api.Duration) error {
	const field = "spec.cluster.eventTTL"
	switch {
	case d == nil:
		return nil
	case d.Duration < 0:
		return l.errorf(field, "must not be negative (0 keeps Events for the whole run)")
	case d.Duration%time.Second != 0:
		return l.errorf(field, "%v is not a whole number of seconds", d.Duration)
	case d.Duration > MaxEventTTL:
		return l.errorf(field, "%v exceeds %v: etcd grants no lease longer than 9000000000s, and the API server asks for %ds more", d.Duration, MaxEventTTL, store.LeaseReuseDurationSeconds)
	}
	return nil
}

// groupAutoscaling checks the autoscaling bounds of the node group g at
// field group, and its count within them; the nodes the autoscaler may
// add count against the nodes cap.
func (l *loader) groupAutoscaling(group string, g NodeGroup) error {
	a := g.Autoscaling
	if a == nil {
		return nil
	}
	f := group + ".autoscaling"
	if a.MinSize < 0 {
		return l.errorf(f+".minSize", "must not be negative")
	}
	if a.MaxSize < 1 || a.MaxSize < a.MinSize {
		return l.errorf(f+".maxSize", "must be at least 1 and at least minSize (%d)", a.MinSize)
	}
	if g.Count < a.MinSize || g.Count > a.MaxSize {
		return l.errorf(group+".count", "%d is outside the autoscaling bounds: minSize %d to maxSize %d", g.Count, a.MinSize, a.MaxSize)
	}
	if d := a.ProvisioningDelay; d != nil && d.Duration < 0 {
		return l.errorf(f+".provisioningDelay", "must not be negative")
	}
	if extra := a.MaxSize - g.Count; extra > 0 {
		return l.addNodes(f+".maxSize", extra)
	}
	return nil
}

// MaxWorkers caps spec.controllers.<name>.workers: each worker is a
// process of the simulation, so that a count of a billion would exhaust
// the machine's memory before the run starts (kube-controller-manager's
// --concurrent-*-syncs run in the tens).
const MaxWorkers = 1000

// MinQPS is the lowest qps a client's pacing accepts (one request every
// 1000s): below it the token bucket's wait for one token overflows
// virtual time.
const MinQPS = 0.001

// minQPS checks a positive qps at field against MinQPS.
func (l *loader) minQPS(field string, q *float64) error {
	if q != nil && *q < MinQPS {
		return l.errorf(field, "%v is below the minimum of %v (a request every %v)", *q, MinQPS, time.Duration(float64(time.Second)/MinQPS))
	}
	return nil
}

// MinPeriod is the shortest period spec.iac.every, spec.gitops.resync
// and spec.cluster.autoscaler.scanInterval accept: each starts a round of
// work every period, so that a slip of the unit (1ns) would start
// billions of rounds and the run would never end. The informers' resync
// (spec.controllers.<name>.resync) has client-go's minimum,
// informer.MinResync, also 1s.
const MinPeriod = time.Second

// period checks the periodic setting at field: absent, or at least min.
func (l *loader) period(field string, d *api.Duration, min time.Duration) error {
	if d != nil && d.Duration < min {
		return l.errorf(field, "%v is below the minimum period of %v", d.Duration, min)
	}
	return nil
}

// kubelet checks spec.cluster.kubelet.
func (l *loader) kubelet(s *Scenario) error {
	k := s.Spec.Cluster.Kubelet
	if k == nil {
		return nil
	}
	const f = "spec.cluster.kubelet"
	if err := l.clientRates(f, clientRates{k.KubeAPIQPS, k.KubeAPIBurst, "kubeAPIQPS", "kubeAPIBurst"}, k.Unpaced, "the kubelet's default 50"); err != nil {
		return err
	}
	return l.clientRates(f, clientRates{k.EventRecordQPS, k.EventBurst, "eventRecordQPS", "eventBurst"}, k.Unpaced, "the kubelet's default 50")
}

// clientRates are one client's pacing fields: its qps and burst and
// their names.
type clientRates struct {
	qps          *float64
	burst        int
	qpsF, burstF string
}

// clientRates checks a client's pacing under block f (whose unpaced
// field is unpaced); byDefault names the qps an absent one means.
func (l *loader) clientRates(f string, c clientRates, unpaced bool, byDefault string) error {
	if c.qps != nil && !(*c.qps > 0 && !math.IsInf(*c.qps, 0)) {
		return l.errorf(f+"."+c.qpsF, "must be a positive number (absent: %s; unpaced: true leaves its clients unpaced)", byDefault)
	}
	if err := l.minQPS(f+"."+c.qpsF, c.qps); err != nil {
		return err
	}
	if c.burst < 0 {
		return l.errorf(f+"."+c.burstF, "must not be negative")
	}
	if err := l.zeroBurst(f+"."+c.burstF, c.burst); err != nil {
		return err
	}
	if unpaced && (c.qps != nil || c.burst != 0) {
		return l.errorf(f+".unpaced", "unpaced clients have no %s or %s: set unpaced or the rates, not both", c.qpsF, c.burstF)
	}
	return nil
}

// MinRetryDelay is the shortest baseDelay and maxDelay a work queue
// setting takes (client-go's default first delay is 5ms).
const MinRetryDelay = time.Millisecond

// workqueue checks spec.controllers.<name>.workqueue: positive delays, a
// cap not below the first delay in the limits that result (the setting
// over the controller's own), a positive rate and burst, and a
// controller whose retries a work queue limits.
func (l *loader) workqueue(f, name string, q *QueueSettings) error {
	own, ok := QueueLimits(name)
	if !ok {
		why := "kube-scheduler retries an unschedulable pod by its scheduling queue's backoff (podInitialBackoffSeconds 1, podMaxBackoffSeconds 10), not by a controller work queue"
		if name == "horizontal-pod-autoscaler" {
			why = "the HPA controller retries every HorizontalPodAutoscaler at its sync period (upstream's FixedItemIntervalRateLimiter), not with a work queue's backoff"
		}
		return l.errorf(f, "%s has no work queue limits to set: %s", name, why)
	}
	if q.BaseDelay == nil && q.MaxDelay == nil && q.QPS == nil && q.Burst == 0 && !manifest.Has(l.root, f+".burst") {
		return l.errorf(f, "sets nothing: give baseDelay, maxDelay, qps or burst (absent: %s's own, %s)", name, own)
	}
	for _, d := range []struct {
		field string
		v     *api.Duration
	}{{"baseDelay", q.BaseDelay}, {"maxDelay", q.MaxDelay}} {
		if d.v != nil && d.v.Duration <= 0 {
			return l.errorf(f+"."+d.field, "must be positive")
		}
		if d.v != nil && d.v.Duration < MinRetryDelay {
			return l.errorf(f+"."+d.field, "%v is below the minimum of %v: a request failing every time would be retried thousands of times a virtual second", d.v.Duration, MinRetryDelay)
		}
	}
	if v := q.QPS; v != nil && !(*v > 0 && !math.IsInf(*v, 0)) {
		return l.errorf(f+".qps", "must be a positive number (absent: %s's own, %s)", name, own)
	}
	if err := l.minQPS(f+".qps", q.QPS); err != nil {
		return err
	}
	if q.Burst < 0 {
		return l.errorf(f+".burst", "must not be negative")
	}
	if q.Burst == 0 && manifest.Has(l.root, f+".burst") {
		return l.errorf(f+".burst", "must be at least 1: a bucket of burst 0 lets no retry through (golang.org/x/time/rate's Limiter); leave it out for %s's own", name)
	}
	// What the setting leaves of the controller's own limits: a cap below
	// the first delay is refused where either was written (a maxDelay
	// alone below the Job controller's own 1s baseDelay too).
	merged, err := own.With(q.limits())
	switch {
	case errors.Is(err, workqueue.ErrCapBelowBase) && q.MaxDelay != nil && q.BaseDelay != nil:
		return l.errorf(f+".maxDelay", "%v is below baseDelay %v: %v", merged.MaxDelay, merged.BaseDelay, workqueue.ErrCapBelowBase)
	case errors.Is(err, workqueue.ErrCapBelowBase) && q.MaxDelay != nil:
		return l.errorf(f+".maxDelay", "%v is below %s's own baseDelay %v: %v; set a baseDelay too", merged.MaxDelay, name, merged.BaseDelay, workqueue.ErrCapBelowBase)
	case errors.Is(err, workqueue.ErrCapBelowBase):
		return l.errorf(f+".baseDelay", "%v is above %s's own maxDelay %v: %v; set a maxDelay too", merged.BaseDelay, name, merged.MaxDelay, workqueue.ErrCapBelowBase)
	case err != nil:
		return l.errorf(f+".burst", "%s: %v (its own limits: %s)", name, err, own)
	}
	return nil
}

// zeroBurst refuses a burst the user wrote as 0, which decodes as an
// absent one (the default): client-go builds no paced client with it
// (kubernetes.NewForConfig: "burst is required to be greater than 0 when
// RateLimiter is not set and QPS is set to greater than 0"), and taking
// the default for it would ignore what was written.
func (l *loader) zeroBurst(field string, burst int) error {
	if burst != 0 || !manifest.Has(l.root, field) {
		return nil
	}
	return l.errorf(field, "must be at least 1: client-go refuses a burst of 0 for a paced client (\"burst is required to be greater than 0 when RateLimiter is not set and QPS is set to greater than 0\"); leave it out for the default, or set unpaced: true")
}

// KubeletPacing is the pacing of every kubelet's API and event clients
// under s's spec.cluster.kubelet: the kubelet's defaults where it sets
// none.
func KubeletPacing(s *Scenario) (api, events Pacing) {
	api, events = Pacing{QPS: KubeletQPS, Burst: KubeletBurst}, Pacing{QPS: KubeletQPS, Burst: KubeletBurst}
	k := s.Spec.Cluster.Kubelet
	if k == nil {
		return api, events
	}
	if k.Unpaced {
		return Pacing{}, Pacing{}
	}
	if k.KubeAPIQPS != nil {
		api.QPS = *k.KubeAPIQPS
	}
	if k.KubeAPIBurst > 0 {
		api.Burst = k.KubeAPIBurst
	}
	if k.EventRecordQPS != nil {
		events.QPS = *k.EventRecordQPS
	}
	if k.EventBurst > 0 {
		events.Burst = k.EventBurst
	}
	return api, events
}

// autoscaler checks spec.cluster.autoscaler.
func (l *loader) autoscaler(s *Scenario) error {
	a := s.Spec.Cluster.Autoscaler
	if a == nil {
		return nil
	}
	const f = "spec.cluster.autoscaler"
	if err := l.period(f+".scanInterval", a.ScanInterval, MinPeriod); err != nil {
		return err
	}
	for _, d := range []struct {
		field string
		v     *api.Duration
	}{{".scaleDownUnneededTime", a.ScaleDownUnneededTime}, {".scaleDownDelayAfterAdd", a.ScaleDownDelayAfterAdd}, {".maxPodEvictionTime", a.MaxPodEvictionTime},
		{".maxNodeProvisionTime", a.MaxNodeProvisionTime}, {".scaleDownUnreadyTime", a.ScaleDownUnreadyTime},
		{".initialNodeGroupBackoffDuration", a.InitialNodeGroupBackoffDuration}, {".maxNodeGroupBackoffDuration", a.MaxNodeGroupBackoffDuration},
		{".nodeGroupBackoffResetTimeout", a.NodeGroupBackoffResetTimeout}} {
		if d.v != nil && d.v.Duration <= 0 {
			return l.errorf(f+d.field, "must be positive")
		}
	}
	if t := a.ScaleDownUtilizationThreshold; t != nil && (*t <= 0 || *t > 1 || math.IsNaN(*t)) {
		return l.errorf(f+".scaleDownUtilizationThreshold", "%v is not in (0, 1]", *t)
	}
	if n := a.MaxGracefulTerminationSec; n != nil && *n <= 0 {
		return l.errorf(f+".maxGracefulTerminationSec", "must be positive")
	}
	if err := l.unreadyLimits(a); err != nil {
		return err
	}
	if err := l.clientRates(f, clientRates{a.KubeClientQPS, a.KubeClientBurst, "kubeClientQPS", "kubeClientBurst"}, a.Unpaced, "cluster-autoscaler's default 5"); err != nil {
		return err
	}
	if !slices.ContainsFunc(s.Spec.Cluster.NodeGroups, func(g NodeGroup) bool { return g.Autoscaling != nil }) {
		return l.errorf(f, "no node group has autoscaling: the autoscaler would resize nothing")
	}
	return nil
}

// unreadyLimits checks the autoscaler's cluster health flags.
func (l *loader) unreadyLimits(a *AutoscalerSettings) error {
	const f = "spec.cluster.autoscaler"
	if p := a.MaxTotalUnreadyPercentage; p != nil && (*p < 0 || *p > 100 || math.IsNaN(*p)) {
		return l.errorf(f+".maxTotalUnreadyPercentage", "%v is not in [0, 100]", *p)
	}
	if n := a.OkTotalUnreadyCount; n != nil && *n < 0 {
		return l.errorf(f+".okTotalUnreadyCount", "must not be negative")
	}
	return nil
}

func (l *loader) registry(s *Scenario) error {
	seen := map[string]string{} // repository -> the name that listed it
	if p := s.Spec.Registry.PullTime; p != nil && p.Duration < 0 {
		return l.errorf("spec.registry.pullTime", "must not be negative")
	}
	for i, im := range s.Spec.Registry.Images {
		f := fmt.Sprintf("spec.registry.images[%d]", i)
		if im.Name == "" {
			return l.errorf(f+".name", "required")
		}
		// What the run's registry will push (ImageRegistry) must parse
		// as the container runtime parses a reference, or the run would
		// stop at its start without a position. A ":" before the last
		// "/" is a registry's port (localhost:5000/app), not a tag.
		if strings.Contains(im.Name, "@") || strings.LastIndexByte(im.Name, ':') > strings.LastIndexByte(im.Name, '/') {
			return l.errorf(f+".name", "%q: a repository name has no tag or digest (list tags under tags)", im.Name)
		}
		ref, err := kubelet.ParseReference(im.Name)
		if err != nil {
			return l.errorf(f+".name", "%q is not a repository name: %v", im.Name, err)
		}
		if first, ok := seen[ref.Repository()]; ok {
			if first == im.Name {
				return l.errorf(f+".name", "image %q is listed twice", im.Name)
			}
			return l.errorf(f+".name", "image %q is listed twice (as %q, the same repository %s)", im.Name, first, ref.Repository())
		}
		seen[ref.Repository()] = im.Name
		for j, t := range im.Tags {
			if _, err := kubelet.ParseReference(im.Name + ":" + t); err != nil || t == "" {
				return l.errorf(fmt.Sprintf("%s.tags[%d]", f, j), "%q is not an image tag (up to 128 letters, digits, _, . and -, not starting with . or -)", t)
			}
		}
		if im.PullTime != nil && im.PullTime.Duration < 0 {
			return l.errorf(f+".pullTime", "must not be negative")
		}
		if im.ExitAfter != nil && im.ExitAfter.Duration < 0 {
			return l.errorf(f+".exitAfter", "must not be negative")
		}
		if im.ExitCode != nil && im.ExitAfter == nil {
			return l.errorf(f+".exitCode", "needs exitAfter")
		}
		if im.StopTime != nil && im.StopTime.Duration <= 0 {
			return l.errorf(f+".stopTime", "must be positive")
		}
		if im.ReadyAfter != nil && im.ReadyAfter.Duration < 0 {
			return l.errorf(f+".readyAfter", "must not be negative")
		}
		if im.UnhealthyAfter != nil && im.UnhealthyAfter.Duration <= 0 {
			return l.errorf(f+".unhealthyAfter", "must be positive")
		}
		if im.StopTime != nil && im.IgnoresSigterm {
			return l.errorf(f+".stopTime", "an image that ignores SIGTERM has no stop time")
		}
	}
	return nil
}

// LinkConfig converts a scenario link to the network's configuration.
func LinkConfig(k Link) (netsim.LinkConfig, error) {
	c := netsim.LinkConfig{
		Latency:      netsim.Latency{Base: k.Latency.Duration, Jitter: k.Jitter.Duration},
		Drop:         k.Drop,
		Duplicate:    k.Duplicate,
		Reorder:      k.Reorder,
		ReorderDelay: k.ReorderDelay.Duration,
		Delay:        k.Delay,
		DelayExtra:   k.DelayExtra.Duration,
		StreamBreak:  k.StreamBreak,
		StreamLoss:   k.StreamLoss,
		StreamLag:    k.StreamLag.Duration,
	}
	switch k.Distribution {
	case "", "uniform":
		c.Latency.Dist = netsim.Uniform
	case "exponential":
		c.Latency.Dist = netsim.Exponential
	case "constant":
		c.Latency.Dist = netsim.Constant
	default:
		return c, fmt.Errorf("distribution %q is not uniform, exponential or constant", k.Distribution)
	}
	if err := c.Validate(); err != nil {
		return c, errors.New(strings.TrimPrefix(err.Error(), netsim.ErrInvalidConfig.Error()+": "))
	}
	return c, nil
}

// linkFields checks a link's values one by one, so that an error names the
// field.
func (l *loader) link(field string, k Link) error {
	for _, p := range []struct {
		name string
		v    float64
	}{{"drop", k.Drop}, {"duplicate", k.Duplicate}, {"reorder", k.Reorder}, {"delay", k.Delay}, {"streamBreak", k.StreamBreak}, {"streamLoss", k.StreamLoss}} {
		if !(p.v >= 0 && p.v <= 1) {
			return l.errorf(field+"."+p.name, "%v is not a probability in [0, 1]", p.v)
		}
	}
	for _, d := range []struct {
		name string
		v    api.Duration
	}{{"latency", k.Latency}, {"jitter", k.Jitter}, {"reorderDelay", k.ReorderDelay}, {"delayExtra", k.DelayExtra}, {"streamLag", k.StreamLag}} {
		if d.v.Duration < 0 {
			return l.errorf(field+"."+d.name, "must not be negative")
		}
	}
	if _, err := LinkConfig(k); err != nil {
		return l.errorf(field+".distribution", "%v", err)
	}
	return nil
}

func (l *loader) measure(s *Scenario) error {
	m := &s.Spec.Measure
	if m.GapSLO != nil && m.GapSLO.Duration <= 0 {
		return l.errorf("spec.measure.gapSLO", "must be positive")
	}
	if m.Settle != nil && m.Settle.Duration <= 0 {
		return l.errorf("spec.measure.settle", "must be positive")
	}
	for i, name := range m.Ignore {
		k, ok := ResolveKind(name)
		if !ok || !slices.Contains(gap.Measured, k) {
			return l.errorf(fmt.Sprintf("spec.measure.ignore[%d]", i), "%q is not a kind whose gap is measured (%s)", name, kindList(gap.Measured))
		}
		m.Ignore[i] = k.Name
	}
	switch m.Heartbeats {
	case "", HeartbeatsKeep, HeartbeatsCount:
	default:
		return l.errorf("spec.measure.heartbeats", "%q is neither %q nor %q", m.Heartbeats, HeartbeatsKeep, HeartbeatsCount)
	}
	switch m.Events {
	case "", EventsKeep, EventsBrief:
	default:
		return l.errorf("spec.measure.events", "%q is neither %q nor %q", m.Events, EventsKeep, EventsBrief)
	}
	return nil
}

// kindList joins kinds with commas.
func kindList(kinds []api.Kind) string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = k.Name
	}
	return strings.Join(s, ", ")
}

func (l *loader) network(s *Scenario) error {
	if err := l.link("spec.network.default", s.Spec.Network.Default); err != nil {
		return err
	}
	for i, r := range s.Spec.Network.Links {
		f := fmt.Sprintf("spec.network.links[%d]", i)
		if r.From == "" {
			return l.errorf(f+".from", "required")
		}
		if r.To == "" {
			return l.errorf(f+".to", "required")
		}
		if err := l.link(f, r.Link); err != nil {
			return err
		}
	}
	if t := s.Spec.Network.RequestTimeout; t != nil && t.Duration <= 0 {
		return l.errorf("spec.network.requestTimeout", "must be positive")
	}
	return nil
}

func (l *loader) controllers(s *Scenario, w *world) error {
	names := make([]string, 0, len(s.Spec.Controllers))
	for name := range s.Spec.Controllers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		f := "spec.controllers." + name
		if all := AllControllers(); !slices.Contains(all, name) {
			return l.errorf(f, "unknown controller %q (known: %s)", name, strings.Join(all, ", "))
		}
		cs := s.Spec.Controllers[name]
		if cs.Workers < 0 || cs.Workers > MaxWorkers {
			return l.errorf(f+".workers", "%d is not between 0 (the controller's default) and %d", cs.Workers, MaxWorkers)
		}
		if cs.Resync != nil && cs.Resync.Duration < 0 {
			return l.errorf(f+".resync", "must not be negative")
		}
		if r := cs.Resync; r != nil && r.Duration > 0 && r.Duration < informer.MinResync {
			return l.errorf(f+".resync", "%v is below client-go's minimum resync period of %v (0 or absent: no resync)", r.Duration, informer.MinResync)
		}
		if q := cs.QPS; q != nil && !(*q > 0 && !math.IsInf(*q, 0)) {
			return l.errorf(f+".qps", "must be a positive number (absent: the default %s; unpaced: true leaves the client unpaced)", DefaultPacing(name))
		}
		if err := l.minQPS(f+".qps", cs.QPS); err != nil {
			return err
		}
		if cs.Burst < 0 {
			return l.errorf(f+".burst", "must not be negative")
		}
		if err := l.zeroBurst(f+".burst", cs.Burst); err != nil {
			return err
		}
		if cs.Unpaced && (cs.QPS != nil || cs.Burst != 0) {
			return l.errorf(f+".unpaced", "an unpaced client has no qps or burst: set unpaced or qps and burst, not both")
		}
		if cs.Burst > 0 && cs.QPS == nil && DefaultPacing(name).Unpaced() {
			return l.errorf(f+".burst", "needs qps: %s is unpaced by default, and a burst without a rate paces nothing", name)
		}
		if b := cs.UpdatesBatchPeriod; b != nil {
			if !slices.Contains(BatchingControllers, name) {
				return l.errorf(f+".updatesBatchPeriod", "only the endpoints and endpointslice controllers batch their updates (kube-controller-manager's --endpoint-updates-batch-period and --endpointslice-updates-batch-period)")
			}
			if b.Duration < 0 {
				return l.errorf(f+".updatesBatchPeriod", "must not be negative")
			}
		}
		if q := cs.Workqueue; q != nil {
			if err := l.workqueue(f+".workqueue", name, q); err != nil {
				return err
			}
		}
		for _, b := range []struct {
			field string
			v     int
		}{{"slowStartInitialBatch", cs.SlowStartInitialBatch}, {"burstReplicas", cs.BurstReplicas}} {
			if b.v == 0 && !manifest.Has(l.root, f+"."+b.field) {
				continue
			}
			if !slices.Contains(SlowStartControllers, name) {
				return l.errorf(f+"."+b.field, "only the replicaset and daemonset controllers create pods in slow-start batches of a capped sync (upstream's slowStartBatch and BurstReplicas)")
			}
			if b.v < 1 || b.v > MaxBurstReplicas {
				return l.errorf(f+"."+b.field, "%d is not between 1 and %d", b.v, MaxBurstReplicas)
			}
		}
		if p := cs.PercentageOfNodesToScore; p != nil {
			if name != "scheduler" {
				return l.errorf(f+".percentageOfNodesToScore", "only the scheduler scores nodes (KubeSchedulerConfiguration's percentageOfNodesToScore)")
			}
			if !percentageOK(*p) {
				return l.errorf(f+".percentageOfNodesToScore", "%d: %s", *p, percentageWant)
			}
		}
		if cs.Standbys < 0 || cs.Standbys > MaxStandbys {
			return l.errorf(f+".standbys", "must be between 0 and %d", MaxStandbys)
		}
		if s.OneProcess() && InControllerManager(name) {
			// One process: what is per controller in the default mode is
			// the process's here, and the process has no such setting yet.
			if cs.Standbys != 0 {
				return l.errorf(f+".standbys", "%s runs inside kube-controller-manager's one process (spec.cluster.controllerManager: %s), which has no standbys of its own: a controller cannot stand by alone", name, ControllerManagerOneProcess)
			}
			if cs.Resync != nil {
				return l.errorf(f+".resync", "%s takes its informers from kube-controller-manager's one process (spec.cluster.controllerManager: %s), whose informers resync as the process's do: a controller cannot resync alone", name, ControllerManagerOneProcess)
			}
		}
		if field := cs.tuned(); field != "" && cs.Enabled != nil && !*cs.Enabled {
			return l.errorf(f+"."+field, "%s is disabled (enabled: false), so this would tune nothing: drop one or the other", name)
		}
	}
	for _, name := range AllControllers() {
		if Enabled(s.Spec.Controllers, name) {
			w.controllers[name] = true
		}
	}
	return nil
}

// objects decodes one spec.objects entry (or apply object): an inline
// manifest, or {file: path}.
func (l *loader) objects(field string, n *yaml.Node) ([]api.Object, error) {
	if n == nil || n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "") {
		return nil, l.errorf(field, "an inline manifest or {file: path} is required")
	}
	if n.Kind == yaml.MappingNode && len(n.Content) == 2 && n.Content[0].Value == "file" {
		var ref struct {
			File string `json:"file"`
		}
		if err := manifest.DecodeNode(l.file, n, field, &ref); err != nil {
			return nil, err
		}
		return l.file2objects(field+".file", ref.File)
	}
	objs, err := manifest.DecodeObjectNode(l.file, n, field)
	if err != nil {
		return nil, err
	}
	items := mapValue(n, "items") // a List's
	for i, o := range objs {
		if err := validate(o); err != nil {
			return nil, l.invalid(field, n, err)
		}
		if err := l.custom(o); err != nil {
			return nil, l.invalid(field, n, err)
		}
		root := n
		switch {
		case items != nil && items.Kind == yaml.SequenceNode && len(items.Content) == len(objs):
			root = items.Content[i]
		case len(objs) != 1:
			// Not an item of the node's own: the node's position.
			l.origins.add(o, l.file, func(string) (int, int) { return n.Line, n.Column })
			continue
		}
		l.origins.add(o, l.file, func(path string) (int, int) { return manifest.Position(root, path) })
	}
	return objs, nil
}

// invalid turns an API validation error into an *Error at the offending
// field of the node.
func (l *loader) invalid(field string, n *yaml.Node, err error) error {
	var se *apierr.StatusError
	if errors.As(err, &se) && len(se.Causes) > 0 {
		c := se.Causes[0]
		line, col := manifest.Position(n, c.Field)
		return &Error{File: l.file, Line: line, Column: col, Field: field + "." + c.Field, Msg: err.Error()}
	}
	return &Error{File: l.file, Line: n.Line, Column: n.Column, Field: field, Msg: err.Error()}
}

func (l *loader) file2objects(field, name string) ([]api.Object, error) {
	files, err := l.readRefs(field, name)
	if err != nil {
		return nil, err
	}
	if l.crds == nil {
		l.crds = Definitions{}
	}
	var out []api.Object
	for _, f := range files {
		display := l.display(f.name)
		located, err := decodeManifestsLocated(display, f.data, l.crds, manifest.DecodeReferenced)
		if err != nil {
			return nil, err
		}
		for _, o := range located {
			l.origins.add(o.Object, display, o.Position)
			out = append(out, o.Object)
		}
	}
	return out, nil
}

// display is how messages name a referenced file: relative to the
// scenario's directory, as the scenario names it.
func (l *loader) display(name string) string {
	if !strings.HasPrefix(l.file, "builtin:") && !filepath.IsAbs(name) {
		return filepath.Join(filepath.Dir(l.file), name)
	}
	return name
}

// DecodeManifests decodes the manifests of a file strictly and validates
// each object as the API server would on create; an error names the file,
// the line and column and the field path of the first offending value.
// Both `clustersim validate` and the scenario loader use it, so that they
// accept and refuse the same manifests. A custom resource needs its
// CustomResourceDefinition earlier in the file or in defs (the files read
// before), and the file's definitions are added to defs; nil defs start
// empty.
func DecodeManifests(file string, data []byte, defs Definitions) ([]api.Object, error) {
	return decodeManifests(file, data, defs, manifest.DecodeLocated)
}

// decodeManifests is DecodeManifests with decode's errors: the loader's,
// for a referenced file, never quote a value (manifest.DecodeReferenced).
func decodeManifests(file string, data []byte, defs Definitions, decode func(string, []byte) ([]manifest.Located, error)) ([]api.Object, error) {
	located, err := decodeManifestsLocated(file, data, defs, decode)
	if err != nil {
		return nil, err
	}
	objs := make([]api.Object, len(located))
	for i, o := range located {
		objs[i] = o.Object
	}
	return objs, nil
}

// decodeManifestsLocated is decodeManifests keeping where each object
// was written (its warnings are placed by it).
func decodeManifestsLocated(file string, data []byte, defs Definitions, decode func(string, []byte) ([]manifest.Located, error)) ([]manifest.Located, error) {
	if defs == nil {
		defs = Definitions{}
	}
	located, err := decode(file, data)
	if err != nil {
		return nil, err
	}
	for _, o := range located {
		err := validate(o.Object)
		if err == nil {
			err = defs.Check(o.Object)
			var se *apierr.StatusError
			if err != nil && !errors.As(err, &se) {
				// No field to point at: the kind has no definition.
				line, col := o.Position("kind")
				return nil, &Error{File: file, Line: line, Column: col, Field: "kind", Msg: err.Error()}
			}
		}
		if err != nil {
			var se *apierr.StatusError
			if errors.As(err, &se) && len(se.Causes) > 0 {
				line, col := o.Position(se.Causes[0].Field)
				return nil, &Error{File: file, Line: line, Column: col, Field: se.Causes[0].Field, Msg: err.Error()}
			}
			return nil, &Error{File: file, Msg: err.Error()}
		}
	}
	return located, nil
}

// validate checks o as the API server does on create: a defaulted copy
// against Kubernetes' validation rules.
func validate(o api.Object) error {
	c := o.DeepCopyObject()
	api.SetDefaults(c)
	apiserver.PrepareForCreate(c)
	return apiserver.Validate(c, nil)
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// actionFields are the Step fields that are actions or observations.
var actionFields = func() []int {
	t := reflect.TypeFor[Step]()
	var out []int
	for i := range t.NumField() {
		if name := t.Field(i).Name; name != "At" && name != "As" && name != "DrainTimeout" {
			out = append(out, i)
		}
	}
	return out
}()

// jsonName is a struct field's name in the file.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// setFields lists the json names of the non-zero fields among idx of v.
func setFields(v reflect.Value, idx []int) []string {
	var out []string
	for _, i := range idx {
		if !v.Field(i).IsZero() {
			out = append(out, jsonName(v.Type().Field(i)))
		}
	}
	return out
}

func (l *loader) step(s *Scenario, i int, w *world) error {
	st := &s.Spec.Timeline[i]
	f := fmt.Sprintf("spec.timeline[%d]", i)
	if err := l.inRun(f+".at", st.At.Duration, s); err != nil {
		return err
	}
	set := setFields(reflect.ValueOf(st).Elem(), actionFields)
	switch len(set) {
	case 0:
		return l.errorf(f, "a step needs one action or observation (apply, scale, setImage, get, describe, ...)")
	case 1:
	default:
		return l.errorf(f+"."+set[1], "a step holds one action; this one has %s", strings.Join(set, " and "))
	}
	a := f + "." + set[0]
	if st.DrainTimeout != nil {
		if st.Drain == "" {
			return l.errorf(f+".drainTimeout", "goes with drain (kubectl drain --timeout)")
		}
		if st.DrainTimeout.Duration <= 0 {
			return l.errorf(f+".drainTimeout", "must be positive (leave it out to retry evictions until the run ends, kubectl's default)")
		}
	}
	switch {
	case st.Apply != nil:
		objs, err := l.fileOrObjects(a, st.Apply.File, st.Apply.Objects, w, false)
		if err != nil {
			return err
		}
		st.Apply.Parsed = objs
	case st.ServerSideApply != nil:
		objs, err := l.fileOrObjects(a, st.ServerSideApply.File, st.ServerSideApply.Objects, w, false)
		if err != nil {
			return err
		}
		st.ServerSideApply.Parsed = objs
	case st.Command != nil:
		if err := l.command(a, st.Command, w); err != nil {
			return err
		}
	case st.StopKubelet != "":
		if !w.nodes[st.StopKubelet] {
			return l.errorf(a, "no node %q", st.StopKubelet)
		}
		w.down[st.StopKubelet] = true
	case st.Request != nil:
		if err := l.request(a, st.Request); err != nil {
			return err
		}
		if k, _ := l.kind(a+".kind", st.Request.Kind); k == api.KindDeployment {
			w.forgetContainers(objKey{k, api.Key{Namespace: cmp.Or(st.Request.Namespace, DefaultNamespace), Name: st.Request.Name}})
		}
		l.requestCounts(st.Request, w)
	case st.Increment != nil:
		if err := l.increment(a, st.Increment, w); err != nil {
			return err
		}
	case st.Writes != nil:
		if err := l.ref(a, st.Writes.ObjectRef, w); err != nil {
			return err
		}
		k, _ := l.kind(a+".kind", st.Writes.Kind)
		if err := l.fieldPath(a+".path", k, st.Writes.Path); err != nil {
			return err
		}
	case st.AppStatus != "":
		if !w.apps[st.AppStatus] {
			return l.errorf(a, "no application %q in spec.gitops", st.AppStatus)
		}
	case st.IaCState:
		if s.Spec.IaC == nil {
			return l.errorf(a, "no spec.iac in this scenario")
		}
	case st.Delete != nil:
		if err := l.ref(a, st.Delete.ObjectRef, w); err != nil {
			return err
		}
		switch st.Delete.Cascade {
		case "", "background", "foreground", "orphan":
		default:
			return l.errorf(a+".cascade", "%q is not background, foreground or orphan", st.Delete.Cascade)
		}
	case st.Scale != nil:
		k, err := l.kind(a+".kind", st.Scale.Kind)
		if err != nil {
			return err
		}
		if k != api.KindDeployment && k != api.KindReplicaSet {
			return l.errorf(a+".kind", "only Deployments and ReplicaSets scale")
		}
		if err := l.ref(a, st.Scale.ObjectRef, w); err != nil {
			return err
		}
		if st.Scale.Replicas < 0 {
			return l.errorf(a+".replicas", "must not be negative")
		}
		if k == api.KindDeployment || k == api.KindReplicaSet {
			ns := st.Scale.Namespace
			if ns == "" {
				ns = DefaultNamespace
			}
			w.setPods(objKey{k, api.Key{Namespace: ns, Name: st.Scale.Name}}, int64(st.Scale.Replicas))
		}
	case st.SetImage != nil:
		if err := l.deployment(a+".deployment", st.SetImage.Deployment, w); err != nil {
			return err
		}
		if st.SetImage.Container == "" {
			return l.errorf(a+".container", "required")
		}
		if err := l.container(a+".container", st.SetImage.Deployment, st.SetImage.Container, w); err != nil {
			return err
		}
		if st.SetImage.Image == "" {
			return l.errorf(a+".image", "required")
		}
	case st.DeletePod != nil:
		d := st.DeletePod
		if (d.Name == "") == (d.Selector == "") {
			return l.errorf(a, "give either name or selector")
		}
		if d.Selector != "" {
			if _, err := api.ParseSelector(d.Selector); err != nil {
				return l.errorf(a+".selector", "%v", err)
			}
		}
		if d.Count < 0 {
			return l.errorf(a+".count", "must not be negative")
		}
	case st.Edit != nil:
		if err := l.ref(a, st.Edit.ObjectRef, w); err != nil {
			return err
		}
		if k, _ := l.kind(a+".kind", st.Edit.Kind); k == api.KindDeployment {
			w.forgetContainers(objKey{k, api.Key{Namespace: cmp.Or(st.Edit.Namespace, DefaultNamespace), Name: st.Edit.Name}})
		}
		if st.Edit.Patch == nil || st.Edit.Patch.Kind != yaml.MappingNode {
			return l.errorf(a+".patch", "a mapping of the fields to change is required")
		}
		var v any
		if err := manifest.DecodeNode(l.file, st.Edit.Patch, a+".patch", &v); err != nil {
			return err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return l.errorf(a+".patch", "%v", err)
		}
		st.Edit.PatchJSON = b
		if err := l.editPatch(a, st.Edit, w); err != nil {
			return err
		}
	case st.Cordon != "" || st.Uncordon != "" || st.Drain != "" || st.CrashNode != "" || st.RecoverNode != "":
		name := st.Cordon + st.Uncordon + st.Drain + st.CrashNode + st.RecoverNode
		if !w.nodes[name] {
			return l.errorf(a, "no node %q (nodes are <group>-1 ... <group>-<count>)", name)
		}
		switch {
		case st.CrashNode != "":
			if w.down[name] {
				return l.errorf(a, "node %q is already down at %v (an earlier crashNode, crashNodes or stopKubelet stopped it; recoverNode brings it back)", name, st.At.Duration)
			}
			w.down[name] = true
		case st.RecoverNode != "":
			if !w.down[name] {
				return l.errorf(a, "node %q is not down at %v (recoverNode brings back a node an earlier crashNode, crashNodes or stopKubelet stopped)", name, st.At.Duration)
			}
			delete(w.down, name)
		}
	case st.CrashNodes != "":
		sel, err := api.ParseSelector(st.CrashNodes)
		if err != nil {
			return l.errorf(a, "%v", err)
		}
		if sel.Empty() {
			return l.errorf(a, "an empty selector would crash every node; name them by label, e.g. topology.kubernetes.io/zone=zone-a")
		}
		matched := false
		for _, g := range s.Spec.Cluster.NodeGroups {
			if sel.Matches(g.Labels) {
				matched = true
				for n := 1; n <= w.groupSize[g.Name]; n++ {
					w.down[fmt.Sprintf("%s-%d", g.Name, n)] = true
				}
			}
		}
		if !matched {
			return l.errorf(a, "%q matches the labels of no node group", st.CrashNodes)
		}
	case st.AddNodes != nil:
		g := st.AddNodes.Group
		if !w.groups[g] {
			return l.errorf(a+".group", "no node group %q", g)
		}
		if st.AddNodes.Count <= 0 {
			return l.errorf(a+".count", "must be positive")
		}
		if err := l.addNodes(a+".count", st.AddNodes.Count); err != nil {
			return err
		}
		for n := 1; n <= st.AddNodes.Count; n++ {
			w.groupSize[g]++
			w.nodes[fmt.Sprintf("%s-%d", g, w.groupSize[g])] = true
		}
	case st.Partition != nil:
		p := st.Partition
		if p.Name == "" {
			return l.errorf(a+".name", "required")
		}
		if w.partitions[p.Name] {
			return l.errorf(a+".name", "partition %q is already in place", p.Name)
		}
		if len(p.A) == 0 {
			return l.errorf(a+".a", "name at least one endpoint")
		}
		if len(p.B) == 0 {
			return l.errorf(a+".b", "name at least one endpoint")
		}
		if err := oneProcessSides(s, p.A, p.B); err != "" {
			return l.errorf(a, "%s", err)
		}
		w.partitions[p.Name] = true
	case st.Network != nil:
		if err := l.networkChange(a, st, s.Spec.Duration.Duration); err != nil {
			return err
		}
	case st.Heal != "":
		if !w.partitions[st.Heal] {
			return l.errorf(a, "no partition %q is in place at %v", st.Heal, st.At.Duration)
		}
		delete(w.partitions, st.Heal)
	case st.CrashController != "" || st.RestartController != "":
		name := st.CrashController + st.RestartController
		if !w.controllers[name] {
			if err := processNamed(s, w.controllers, name); err != "" {
				return l.errorf(a, "%s", err)
			}
			return l.errorf(a, "controller %q is not running in this scenario (running: %s)", name, strings.Join(sortedKeys(w.controllers), ", "))
		}
		// A crash of one of kube-controller-manager's controllers run
		// as one process is one of the process.
		proc := processOf(s, name)
		switch {
		case st.RestartController != "":
			delete(w.crashed, proc)
		case w.crashed[proc] && !w.faulted[proc]:
			if proc != name {
				return l.errorf(a, "controller %q is already down at %v: an earlier crashController stopped its process, %s (spec.cluster.controllerManager: %s), which restartController of any of its controllers brings back", name, st.At.Duration, proc, ControllerManagerOneProcess)
			}
			return l.errorf(a, "controller %q is already down at %v (an earlier crashController stopped it; restartController brings it back)", name, st.At.Duration)
		default:
			if w.crashed == nil {
				w.crashed = map[string]bool{}
			}
			w.crashed[proc] = true
		}
	case st.APIServerDown:
		if w.apiServerDown {
			return l.errorf(a, "the API server is already down at %v", st.At.Duration)
		}
		w.apiServerDown = true
	case st.APIServerUp:
		if !w.apiServerDown {
			return l.errorf(a, "the API server is not down at %v (apiServerUp ends an earlier apiServerDown)", st.At.Duration)
		}
		w.apiServerDown = false
	case st.RolloutUndo != nil:
		if err := l.deployment(a+".deployment", st.RolloutUndo.Deployment, w); err != nil {
			return err
		}
		if st.RolloutUndo.ToRevision < 0 {
			return l.errorf(a+".toRevision", "must not be negative")
		}
	case st.RolloutRestart != "" || st.RolloutPause != "" || st.RolloutResume != "":
		if err := l.deployment(a, st.RolloutRestart+st.RolloutPause+st.RolloutResume, w); err != nil {
			return err
		}
	case st.RolloutStatus != nil:
		return l.rolloutStatus(a, st.RolloutStatus, w)
	case st.RolloutHistory != nil:
		// A name written as a string is pointed at by its .deployment
		// path as well (manifest.Position stops at the scalar).
		if err := l.deployment(a+".deployment", st.RolloutHistory.Deployment, w); err != nil {
			return err
		}
		if st.RolloutHistory.Revision < 0 {
			return l.errorf(a+".revision", "must be positive (kubectl: revision must be a positive integer)")
		}
	case st.Get != nil:
		if _, err := l.kind(a+".kind", st.Get.Kind); err != nil {
			return err
		}
		if st.Get.Selector != "" {
			if _, err := api.ParseSelector(st.Get.Selector); err != nil {
				return l.errorf(a+".selector", "%v", err)
			}
		}
	case st.Describe != nil:
		if err := l.ref(a, *st.Describe, w); err != nil {
			return err
		}
		if k, _ := l.kind(a+".kind", st.Describe.Kind); !slices.Contains(DescribeKinds, k) {
			return l.errorf(a+".kind", "describe does not print a %s (it prints %s; get lists the others)", k.Name, kindList(DescribeKinds))
		}
	case st.Events != nil:
		if st.Events.For != nil {
			if err := l.ref(a+".for", *st.Events.For, w); err != nil {
				return err
			}
		}
	}
	return nil
}

// networkChange checks a network step (its endpoint patterns are checked
// by faultPatterns, once every endpoint is known) and decodes its link.
func (l *loader) networkChange(a string, st *Step, duration time.Duration) error {
	c := st.Network
	if c.From == "" {
		return l.errorf(a+".from", "required")
	}
	if c.To == "" {
		return l.errorf(a+".to", "required")
	}
	if c.Link == nil || c.Link.Kind != yaml.MappingNode {
		return l.errorf(a+".link", "a mapping of the link fields to change (drop, latency, ...) is required")
	}
	if err := manifest.DecodeNode(l.file, c.Link, a+".link", &c.Parsed); err != nil {
		return decodeError(err, c.Link, reflect.TypeFor[Link](), a+".link")
	}
	var given map[string]any
	if err := manifest.DecodeNode(l.file, c.Link, a+".link", &given); err != nil {
		return err
	}
	if len(given) == 0 {
		return l.errorf(a+".link", "name at least one link field to change")
	}
	// The fields in Link's order, so that the timeline prints them in
	// one order whatever the file's.
	t := reflect.TypeFor[Link]()
	for i := range t.NumField() {
		if name := jsonName(t.Field(i)); hasGiven(given, name) {
			c.Fields = append(c.Fields, name)
		}
	}
	if err := l.link(a+".link", c.Parsed); err != nil {
		return err
	}
	if u := c.Until; u != nil && (u.Duration <= st.At.Duration || u.Duration > duration) {
		return l.errorf(a+".until", "%v is not after the step (%v) and within the run (%v)", u.Duration, st.At.Duration, duration)
	}
	return nil
}

// inRun checks that the time at, given at field, falls within the run:
// from 0 to spec.duration, both included.
func (l *loader) inRun(field string, at time.Duration, s *Scenario) error {
	if at < 0 || at > s.Spec.Duration.Duration {
		return l.errorf(field, "%v is outside the run (0 to %v)", at, s.Spec.Duration.Duration)
	}
	return nil
}

func hasGiven(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// labelPair checks a label's key and value as the API server checks a
// node's labels (a taint's key and value follow the same rules): the
// first problem, without the object and field it would name.
func labelPair(key, value string) error {
	err := validate(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n", Labels: map[string]string{key: value}}})
	var se *apierr.StatusError
	if errors.As(err, &se) && len(se.Causes) > 0 {
		c := se.Causes[0]
		return errors.New(strings.TrimPrefix(c.Error(), c.Field+": "))
	}
	return err
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// kind resolves a kind name as kubectl accepts it.
func (l *loader) kind(field, name string) (api.Kind, error) {
	if name == "" {
		return api.Kind{}, l.errorf(field, "required")
	}
	k, ok := ResolveKind(name)
	if !ok {
		k, ok = l.customKind(name)
	}
	if !ok {
		return api.Kind{}, l.errorf(field, "unknown kind %q", name)
	}
	return k, nil
}

// ref checks that an object reference names an object that exists by this
// point of the timeline (pods, events and nodes are made by the cluster, so
// only their kind is checked).
func (l *loader) ref(field string, r ObjectRef, w *world) error {
	k, err := l.kind(field+".kind", r.Kind)
	if err != nil {
		return err
	}
	if r.Name == "" {
		return l.errorf(field+".name", "required")
	}
	if ns, name, ok := strings.Cut(r.Name, "/"); ok {
		return l.errorf(field+".name", "%q: a name has no namespace in it; give it as a key of its own: {kind: %s, namespace: %s, name: %s}", r.Name, r.Kind, ns, name)
	}
	switch k {
	case api.KindPod, api.KindEvent, api.KindReplicaSet, api.KindEndpoints, api.KindEndpointSlice, api.KindLease:
		return nil // made by controllers at run time
	case api.KindNode:
		if !w.nodes[r.Name] {
			return l.errorf(field+".name", "no node %q", r.Name)
		}
		return nil
	}
	info, _ := api.Lookup(k)
	key := api.Key{Name: r.Name}
	if info.Namespaced {
		key.Namespace = r.Namespace
		if key.Namespace == "" {
			key.Namespace = DefaultNamespace
		}
	}
	if !w.objects[objKey{k, key}] && !(k == api.KindNamespace && isBuiltinNamespace(r.Name)) {
		return l.errorf(field+".name", "no %s %q in spec.objects or an earlier apply", k, key)
	}
	return nil
}

// bootstrappable fails at field when the cluster could not create o
// where spec.objects puts it, which would stop the run at its start
// without a position: an object without a name or generateName, with a
// resourceVersion (the API server refuses it on a create), of the same
// kind, namespace and name as one declared earlier in spec.objects or a
// built-in namespace (it already exists), or of a namespace neither built in nor declared
// earlier in spec.objects (the objects are created in order, and the API
// server refuses an object of a namespace that does not exist). inline
// says o is written in the scenario, under field, rather than in a file
// it names: the error then points at o's offending field.
func (l *loader) bootstrappable(field string, inline bool, o api.Object, w *world) error {
	m := o.GetObjectMeta()
	k := api.KindOf(o)
	if m.Name == "" && m.GenerateName == "" {
		return l.errorf(field, "%s: metadata.name: Required value: name or generateName is required", k.Name)
	}
	if m.ResourceVersion != "" {
		f := field
		if inline {
			f += ".metadata.resourceVersion"
		}
		return l.errorf(f, "%s %s: resourceVersion should not be set on objects to be created", k.Name, w.key(o).key)
	}
	builtin := k == api.KindNamespace && isBuiltinNamespace(m.Name)
	if key := w.key(o); m.Name != "" && (w.objects[key] || builtin) {
		res := k.Name
		if info, ok := api.Lookup(k); ok {
			res = info.GroupResource()
		} else if crd := l.crds[k]; crd != nil {
			res = crd.ResourceInfo().GroupResource()
		}
		f := field
		if inline {
			f += ".metadata.name"
		}
		where := "declared earlier in spec.objects"
		if builtin {
			where = "built in: default, kube-system, kube-public, kube-node-lease"
		}
		return l.errorf(f, "%s %s: %s %q already exists (%s)", k.Name, key.key, res, m.Name, where)
	}
	info, ok := api.Lookup(k)
	if !ok || !info.Namespaced || m.Namespace == "" || isBuiltinNamespace(m.Namespace) ||
		w.objects[objKey{api.KindNamespace, api.Key{Name: m.Namespace}}] {
		return nil
	}
	return l.errorf(field, "%s %s/%s: namespace %q does not exist when it is created (declare the Namespace earlier in spec.objects; built in: default, kube-system, kube-public, kube-node-lease)", k.Name, m.Namespace, m.Name, m.Namespace)
}

func isBuiltinNamespace(n string) bool {
	return n == "default" || n == "kube-system" || n == "kube-public" || n == "kube-node-lease"
}

// deployment checks a "[namespace/]name" Deployment reference.
func (l *loader) deployment(field, ref string, w *world) error {
	if ref == "" {
		return l.errorf(field, "required")
	}
	ns, name := SplitRef(ref)
	if !w.objects[objKey{api.KindDeployment, api.Key{Namespace: ns, Name: name}}] {
		return l.errorf(field, "no Deployment %q in spec.objects or an earlier apply", ns+"/"+name)
	}
	return nil
}

// rolloutStatus checks a rolloutStatus step: one object named, of a
// kind with a rollout status, existing by then; a positive timeout.
func (l *loader) rolloutStatus(a string, rs *RolloutStatus, w *world) error {
	var set []string
	for _, f := range []struct{ name, ref string }{{"deployment", rs.Deployment}, {"daemonSet", rs.DaemonSet}, {"statefulSet", rs.StatefulSet}} {
		if f.ref != "" {
			set = append(set, f.name)
		}
	}
	switch len(set) {
	case 0:
		return l.errorf(a, "name the object: deployment, daemonSet or statefulSet")
	case 1:
	default:
		return l.errorf(a+"."+set[1], "name one object; this step has %s", strings.Join(set, " and "))
	}
	kind, ref := rs.Ref()
	if kind == api.KindDeployment {
		if err := l.deployment(a+".deployment", ref, w); err != nil {
			return err
		}
	} else {
		ns, name := SplitRef(ref)
		if !w.objects[objKey{kind, api.Key{Namespace: ns, Name: name}}] {
			return l.errorf(a+"."+set[0], "no %s %q in spec.objects or an earlier apply", kind.Name, ns+"/"+name)
		}
	}
	if rs.Timeout != nil && rs.Timeout.Duration <= 0 {
		return l.errorf(a+".timeout", "must be positive (leave it out to wait until the rollout ends, kubectl's default)")
	}
	if rs.Timeout != nil && !rs.Watching() {
		return l.errorf(a+".timeout", "goes with a watch; --watch=false looks once")
	}
	return nil
}

// path checks a field path (manifest.ParsePath).
func (l *loader) path(field, p string) error {
	if p == "" {
		return l.errorf(field, "required")
	}
	if _, err := manifest.ParsePath(p); err != nil {
		return l.errorf(field, "bad path: %v; a key holding dots or slashes goes in brackets (metadata.annotations[deployment.kubernetes.io/revision]) or has its dots escaped (metadata.annotations.deployment\\.kubernetes\\.io/revision)", err)
	}
	return nil
}

// SplitRef splits "namespace/name" (or "name", in the default namespace).
func SplitRef(ref string) (namespace, name string) {
	if ns, n, ok := strings.Cut(ref, "/"); ok {
		return ns, n
	}
	return DefaultNamespace, ref
}

var expectFields = func() []int {
	t := reflect.TypeFor[Expectation]()
	var out []int
	for i := range t.NumField() {
		if t.Field(i).Name != "Name" {
			out = append(out, i)
		}
	}
	return out
}()

func (l *loader) expectation(s *Scenario, i int, w *world) error {
	e := &s.Spec.Expect[i]
	f := fmt.Sprintf("spec.expect[%d]", i)
	set := setFields(reflect.ValueOf(e).Elem(), expectFields)
	switch len(set) {
	case 0:
		return l.errorf(f, "an expectation needs one check (rolloutComplete, rolloutStatus, condition, field, pods, converged, incidents, findings)")
	case 1:
	default:
		return l.errorf(f+"."+set[1], "an expectation holds one check; this one has %s", strings.Join(set, " and "))
	}
	a := f + "." + set[0]
	timing := func(t Timing) error {
		if (t.At == nil) == (t.Within == nil) {
			return l.errorf(a, "give either at or within")
		}
		d := t.At
		if d == nil {
			d = t.Within
		}
		return l.inRun(a, d.Duration, s)
	}
	switch {
	case e.RolloutComplete != nil:
		if err := l.deployment(a+".deployment", e.RolloutComplete.Deployment, w); err != nil {
			return err
		}
		if d := e.RolloutComplete.Within.Duration; d <= 0 || d > s.Spec.Duration.Duration {
			return l.errorf(a+".within", "must be positive and within the run (%v)", s.Spec.Duration.Duration)
		}
		if af := e.RolloutComplete.After; af != nil && (af.Duration < 0 || af.Duration >= e.RolloutComplete.Within.Duration) {
			return l.errorf(a+".after", "must be before within (%v)", e.RolloutComplete.Within.Duration)
		}
	case e.RolloutStatus != nil:
		return l.rolloutStatusCheck(s, a, e.RolloutStatus)
	case e.Converged != nil:
		if d := e.Converged.Within.Duration; d <= 0 || d > s.Spec.Duration.Duration {
			return l.errorf(a+".within", "must be positive and within the run (%v)", s.Spec.Duration.Duration)
		}
		if af := e.Converged.After; af != nil && (af.Duration < 0 || af.Duration >= e.Converged.Within.Duration) {
			return l.errorf(a+".after", "must be before within (%v)", e.Converged.Within.Duration)
		}
	case e.Findings != nil:
		ranges := []struct {
			name string
			r    *Range
		}{{"fights", e.Findings.Fights}, {"flaps", e.Findings.Flaps}, {"hotLoops", e.Findings.HotLoops}, {"noOpWrites", e.Findings.NoOpWrites}}
		set := 0
		for _, rg := range ranges {
			if rg.r == nil {
				continue
			}
			set++
			if rg.r.Min == nil && rg.r.Max == nil {
				return l.errorf(a+"."+rg.name, "give min, max or both")
			}
			if (rg.r.Min != nil && *rg.r.Min < 0) || (rg.r.Max != nil && *rg.r.Max < 0) {
				return l.errorf(a+"."+rg.name, "bounds must not be negative")
			}
			if rg.r.Min != nil && rg.r.Max != nil && *rg.r.Min > *rg.r.Max {
				return l.errorf(a+"."+rg.name, "min %d is above max %d", *rg.r.Min, *rg.r.Max)
			}
		}
		if set == 0 {
			return l.errorf(a, "bound at least one of fights, flaps, hotLoops, noOpWrites")
		}
	case e.Incidents != nil:
		if e.Incidents.Max < 0 {
			return l.errorf(a+".max", "must not be negative")
		}
		if e.Incidents.Min < 0 || e.Incidents.Min > e.Incidents.Max {
			return l.errorf(a+".min", "must be between 0 and max (%d)", e.Incidents.Max)
		}
	case e.Condition != nil:
		if err := l.ref(a, e.Condition.ObjectRef, w); err != nil {
			return err
		}
		if e.Condition.Type == "" {
			return l.errorf(a+".type", "required")
		}
		if err := l.conditions(a, e.Condition.Kind, e.Condition.Type); err != nil {
			return err
		}
		switch e.Condition.Status {
		case "True", "False", "Unknown":
		default:
			return l.errorf(a+".status", "%q is not True, False or Unknown", e.Condition.Status)
		}
		return timing(e.Condition.Timing)
	case e.Field != nil:
		if err := l.ref(a, e.Field.ObjectRef, w); err != nil {
			return err
		}
		k, _ := l.kind(a+".kind", e.Field.Kind)
		if err := l.fieldPath(a+".path", k, e.Field.Path); err != nil {
			return err
		}
		return timing(e.Field.Timing)
	case e.Pods != nil:
		if e.Pods.Selector != "" {
			if _, err := api.ParseSelector(e.Pods.Selector); err != nil {
				return l.errorf(a+".selector", "%v", err)
			}
		}
		if err := l.podPhase(a+".phase", e.Pods.Phase); err != nil {
			return err
		}
		if e.Pods.Node != "" && !w.nodes[e.Pods.Node] {
			return l.errorf(a+".node", "no node %q", e.Pods.Node)
		}
		if e.Pods.Equals < 0 {
			return l.errorf(a+".equals", "must not be negative")
		}
		return timing(e.Pods.Timing)
	}
	return nil
}

// podPhases are the phases a pod can be in.
var podPhases = []api.PodPhase{api.PodPending, api.PodRunning, api.PodSucceeded, api.PodFailed, api.PodUnknown}

// podPhase checks a pods expectation's phase: absent, or one of
// podPhases, spelled as the API spells it.
func (l *loader) podPhase(field, phase string) error {
	if phase == "" || slices.Contains(podPhases, api.PodPhase(phase)) {
		return nil
	}
	names := make([]string, len(podPhases))
	for i, p := range podPhases {
		names[i] = string(p)
		if strings.EqualFold(phase, names[i]) {
			return l.errorf(field, "%q is not a pod phase; did you mean %s? (phases are case-sensitive)", phase, p)
		}
	}
	return l.errorf(field, "%q is not a pod phase (%s)", phase, strings.Join(names, ", "))
}

// rolloutStatusCheck checks a rolloutStatus expectation: it must name
// exactly one rolloutStatus step of the timeline and a known outcome.
func (l *loader) rolloutStatusCheck(s *Scenario, a string, c *RolloutStatusCheck) error {
	n := 0
	for _, r := range []string{c.Deployment, c.DaemonSet, c.StatefulSet} {
		if r != "" {
			n++
		}
	}
	if n != 1 {
		return l.errorf(a, "name one object: deployment, daemonSet or statefulSet")
	}
	if !slices.Contains(StatusOutcomes, c.Outcome) {
		return l.errorf(a+".outcome", "%q is not one of %s", c.Outcome, strings.Join(StatusOutcomes, ", "))
	}
	if c.Within != nil && c.Within.Duration <= 0 {
		return l.errorf(a+".within", "must be positive")
	}
	kind, ref := c.Ref()
	var at []string
	found := 0
	for i := range s.Spec.Timeline {
		st := &s.Spec.Timeline[i]
		if st.RolloutStatus == nil {
			continue
		}
		if k, r := st.RolloutStatus.Ref(); k != kind || !sameRef(r, ref) {
			continue
		}
		at = append(at, st.At.Duration.String())
		if c.Step == nil || c.Step.Duration == st.At.Duration {
			found++
		}
	}
	switch {
	case len(at) == 0:
		return l.errorf(a, "no rolloutStatus step of %s %q in spec.timeline", kind.Name, ref)
	case found == 0:
		return l.errorf(a+".step", "no rolloutStatus step of %s %q at %v (steps at %s)", kind.Name, ref, c.Step.Duration, strings.Join(at, ", "))
	case found > 1 && c.Step == nil:
		return l.errorf(a, "%d rolloutStatus steps of %s %q (at %s): give step, the time of the one to check", found, kind.Name, ref, strings.Join(at, ", "))
	case found > 1:
		return l.errorf(a+".step", "%d rolloutStatus steps of %s %q at %v: the check cannot tell them apart", found, kind.Name, ref, c.Step.Duration)
	}
	return nil
}

// sameRef reports whether two "[namespace/]name" references name the
// same object.
func sameRef(a, b string) bool {
	na, a2 := SplitRef(a)
	nb, b2 := SplitRef(b)
	return na == nb && a2 == b2
}

// DescribeKinds are the kinds a describe step prints: those
// report/kubectl.Describe has a printer for (it fails on the others, and
// the report with it). The scenarios package may not import the report's
// printers, so this list follows Describe's switch by hand.
var DescribeKinds = []api.Kind{api.KindDeployment, api.KindReplicaSet, api.KindPod, api.KindNode, api.KindService, api.KindEndpoints,
	api.KindResourceQuota, api.KindPodDisruptionBudget, api.KindJob, api.KindCronJob, api.KindPersistentVolumeClaim}

// kindAliases are the names kubectl accepts for each kind.
var kindAliases = map[string]api.Kind{
	"pod": api.KindPod, "pods": api.KindPod, "po": api.KindPod,
	"node": api.KindNode, "nodes": api.KindNode, "no": api.KindNode,
	"namespace": api.KindNamespace, "namespaces": api.KindNamespace, "ns": api.KindNamespace,
	"deployment": api.KindDeployment, "deployments": api.KindDeployment, "deploy": api.KindDeployment,
	"replicaset": api.KindReplicaSet, "replicasets": api.KindReplicaSet, "rs": api.KindReplicaSet,
	"daemonset": api.KindDaemonSet, "daemonsets": api.KindDaemonSet, "ds": api.KindDaemonSet,
	"service": api.KindService, "services": api.KindService, "svc": api.KindService,
	"endpoints": api.KindEndpoints, "ep": api.KindEndpoints,
	"event": api.KindEvent, "events": api.KindEvent, "ev": api.KindEvent,
	"resourcequota": api.KindResourceQuota, "resourcequotas": api.KindResourceQuota, "quota": api.KindResourceQuota,
	"configmap": api.KindConfigMap, "configmaps": api.KindConfigMap, "cm": api.KindConfigMap,
	"lease": api.KindLease, "leases": api.KindLease,
	"secret": api.KindSecret, "secrets": api.KindSecret,
	"serviceaccount": api.KindServiceAccount, "serviceaccounts": api.KindServiceAccount, "sa": api.KindServiceAccount,
	"horizontalpodautoscaler": api.KindHorizontalPodAutoscaler, "horizontalpodautoscalers": api.KindHorizontalPodAutoscaler, "hpa": api.KindHorizontalPodAutoscaler,
	"poddisruptionbudget": api.KindPodDisruptionBudget, "poddisruptionbudgets": api.KindPodDisruptionBudget, "pdb": api.KindPodDisruptionBudget,
	"priorityclass": api.KindPriorityClass, "priorityclasses": api.KindPriorityClass, "pc": api.KindPriorityClass,
	"limitrange": api.KindLimitRange, "limitranges": api.KindLimitRange, "limits": api.KindLimitRange,
	"job": api.KindJob, "jobs": api.KindJob, "cronjob": api.KindCronJob, "cronjobs": api.KindCronJob, "cj": api.KindCronJob,
	"endpointslice": api.KindEndpointSlice, "endpointslices": api.KindEndpointSlice,
	"statefulset": api.KindStatefulSet, "statefulsets": api.KindStatefulSet, "sts": api.KindStatefulSet,
	"persistentvolumeclaim": api.KindPersistentVolumeClaim, "persistentvolumeclaims": api.KindPersistentVolumeClaim, "pvc": api.KindPersistentVolumeClaim,
	"persistentvolume": api.KindPersistentVolume, "persistentvolumes": api.KindPersistentVolume, "pv": api.KindPersistentVolume,
	"storageclass": api.KindStorageClass, "storageclasses": api.KindStorageClass, "sc": api.KindStorageClass,
	"ingress": api.KindIngress, "ingresses": api.KindIngress, "ing": api.KindIngress,
	"networkpolicy": api.KindNetworkPolicy, "networkpolicies": api.KindNetworkPolicy, "netpol": api.KindNetworkPolicy,
	"role": api.KindRole, "roles": api.KindRole, "rolebinding": api.KindRoleBinding, "rolebindings": api.KindRoleBinding,
	"clusterrole": api.KindClusterRole, "clusterroles": api.KindClusterRole,
	"clusterrolebinding": api.KindClusterRoleBinding, "clusterrolebindings": api.KindClusterRoleBinding,
}

// ResolveKind maps a kind name as kubectl accepts it (Deployment,
// deployments, deploy, po, svc, ...) to the kind.
func ResolveKind(name string) (api.Kind, bool) {
	k, ok := kindAliases[strings.ToLower(name)]
	return k, ok
}

// gitops checks spec.gitops: applications, their commits and options.
func (l *loader) gitops(s *Scenario, w *world) error {
	g := s.Spec.GitOps
	if g == nil {
		return nil
	}
	if err := l.period("spec.gitops.resync", g.Resync, MinPeriod); err != nil {
		return err
	}
	if g.Jitter != nil && g.Jitter.Duration < 0 {
		return l.errorf("spec.gitops.jitter", "must not be negative")
	}
	if len(g.Applications) == 0 {
		return l.errorf("spec.gitops.applications", "name at least one application")
	}
	for i := range g.Applications {
		app := &g.Applications[i]
		f := fmt.Sprintf("spec.gitops.applications[%d]", i)
		if !isDNSLabel(app.Name) {
			return l.errorf(f+".name", "%q is not a lowercase DNS label (a-z, 0-9 and -, at most 63 characters)", app.Name)
		}
		if w.apps[app.Name] {
			return l.errorf(f+".name", "application %q is declared twice", app.Name)
		}
		w.apps[app.Name] = true
		if _, err := gitops.ParseSyncOptions(app.SyncOptions); err != nil {
			return l.errorf(f+".syncOptions", "%v", err)
		}
		for j, o := range app.SyncOptions {
			key, _, _ := strings.Cut(o, "=")
			if !slices.Contains(argoSyncOptions, key) {
				return l.errorf(fmt.Sprintf("%s.syncOptions[%d]", f, j), "unknown sync option %q (known: %s)", key, strings.Join(argoSyncOptions, ", "))
			}
		}
		for j, d := range app.IgnoreDifferences {
			if len(d.JSONPointers) == 0 {
				return l.errorf(fmt.Sprintf("%s.ignoreDifferences[%d].jsonPointers", f, j), "name at least one JSON pointer")
			}
			for k, p := range d.JSONPointers {
				if !strings.HasPrefix(p, "/") {
					return l.errorf(fmt.Sprintf("%s.ignoreDifferences[%d].jsonPointers[%d]", f, j, k), "%q is not a JSON pointer (it starts with /)", p)
				}
			}
		}
		if len(app.Commits) == 0 {
			return l.errorf(f+".commits", "name at least one commit")
		}
		prev := time.Duration(-1)
		for j := range app.Commits {
			c := &app.Commits[j]
			cf := fmt.Sprintf("%s.commits[%d]", f, j)
			if err := l.inRun(cf+".at", c.At.Duration, s); err != nil {
				return err
			}
			if c.At.Duration <= prev {
				return l.errorf(cf+".at", "commits must be in time order")
			}
			prev = c.At.Duration
			objs, err := l.fileOrObjects(cf, c.File, c.Objects, w, true)
			if err != nil {
				return err
			}
			if err := l.repeated(cf, cmp.Or(app.Namespace, DefaultNamespace), objs); err != nil {
				return err
			}
			c.Parsed = objs
		}
	}
	return nil
}

// repeated refuses a commit (at field) that declares an object twice
// (by kind, namespace, ns when it names none, and name): Argo CD would
// sync only one of the two and report RepeatedResourceWarning, so which
// one the repository means is not said. The error is at the second
// one's name.
func (l *loader) repeated(field, ns string, objs []api.Object) error {
	seen := make(map[objKey]bool, len(objs))
	for _, o := range objs {
		m := o.GetObjectMeta()
		k := objKey{api.KindOf(o), api.Key{Name: m.Name}}
		if info, ok := api.Lookup(k.kind); !ok || info.Namespaced {
			k.key.Namespace = cmp.Or(m.Namespace, ns)
		}
		if !seen[k] {
			seen[k] = true
			continue
		}
		msg := fmt.Sprintf("the commit declares %s twice: Argo CD would sync only one of them (RepeatedResourceWarning)", objectName(o))
		if or, ok := l.origins[o]; ok {
			line, col := or.at("metadata.name")
			return &Error{File: or.file, Line: line, Column: col, Field: field, Msg: msg}
		}
		return l.errorf(field, "%s", msg)
	}
	return nil
}

// argoSyncOptions are Argo CD's sync option names; only
// RespectIgnoreDifferences changes what the simulated syncer does, the
// others are accepted so that real Application specs load.
var argoSyncOptions = []string{"RespectIgnoreDifferences", "Prune", "Validate", "CreateNamespace", "ServerSideApply",
	"ApplyOutOfSyncOnly", "PruneLast", "Replace", "FailOnSharedResource", "PrunePropagationPolicy", "SkipDryRunOnMissingResource"}

// iac checks spec.iac.
func (l *loader) iac(s *Scenario, w *world) error {
	c := s.Spec.IaC
	if c == nil {
		return nil
	}
	if (len(c.Runs) == 0) == (c.Every == nil) {
		return l.errorf("spec.iac", "give either runs or every")
	}
	if err := l.period("spec.iac.every", c.Every, MinPeriod); err != nil {
		return err
	}
	for i, r := range c.Runs {
		if err := l.inRun(fmt.Sprintf("spec.iac.runs[%d]", i), r.Duration, s); err != nil {
			return err
		}
	}
	if len(c.Objects) == 0 {
		return l.errorf("spec.iac.objects", "declare at least one object")
	}
	for i, n := range c.Objects {
		objs, err := l.objects(fmt.Sprintf("spec.iac.objects[%d]", i), n)
		if err != nil {
			return err
		}
		if err := l.addObjects(fmt.Sprintf("spec.iac.objects[%d]", i), len(objs)); err != nil {
			return err
		}
		c.Parsed = append(c.Parsed, objs...)
		for _, o := range objs {
			w.add(o)
		}
		if err := l.checkPods(fmt.Sprintf("spec.iac.objects[%d]", i), w); err != nil {
			return err
		}
	}
	return nil
}

// load checks spec.load and reads CSV curves.
func (l *loader) load(s *Scenario, w *world) error {
	for i := range s.Spec.Load {
		m := &s.Spec.Load[i]
		f := fmt.Sprintf("spec.load[%d]", i)
		if err := l.deployment(f+".deployment", m.Deployment, w); err != nil {
			return err
		}
		if m.CPUPerRequest.Cmp(api.Quantity{}) <= 0 {
			return l.errorf(f+".cpuPerRequest", "required, and must be positive")
		}
		if m.BaseCPU != nil && m.BaseCPU.Cmp(api.Quantity{}) < 0 {
			return l.errorf(f+".baseCPU", "must not be negative")
		}
		r := &m.RPS
		set := 0
		for _, b := range []bool{r.Constant != nil, len(r.Steps) > 0, len(r.Ramp) > 0, r.CSV != ""} {
			if b {
				set++
			}
		}
		if set != 1 {
			return l.errorf(f+".rps", "give exactly one of constant, steps, ramp or csv")
		}
		if r.Constant != nil {
			if err := l.rate(f+".rps.constant", *r.Constant); err != nil {
				return err
			}
		}
		for _, pts := range []struct {
			name string
			p    []LoadPoint
		}{{"steps", r.Steps}, {"ramp", r.Ramp}} {
			for j, p := range pts.p {
				pf := fmt.Sprintf("%s.rps.%s[%d]", f, pts.name, j)
				if err := l.rate(pf+".rps", p.RPS); err != nil {
					return err
				}
				// A step after the end never comes; a ramp's later
				// point still sets its slope within the run.
				if pts.name == "steps" {
					if err := l.inRun(pf+".at", p.At.Duration, s); err != nil {
						return err
					}
				}
				if j > 0 && p.At.Duration <= pts.p[j-1].At.Duration {
					return l.errorf(pf+".at", "points must be in time order")
				}
			}
		}
		if r.CSV != "" {
			data, err := l.readRef(f+".rps.csv", r.CSV)
			if err != nil {
				return err
			}
			points, lines, err := metrics.ParseCSVLines(bytes.NewReader(data))
			if err != nil {
				return l.errorf(f+".rps.csv", "%s: %v", r.CSV, err)
			}
			// Its rows are steps: a file without any is as empty as
			// steps: [], and a row after the end never comes.
			if len(points) == 0 {
				return l.errorf(f+".rps.csv", "%s: no rows (want seconds,rps lines)", r.CSV)
			}
			for j, p := range points {
				if p.At > s.Spec.Duration.Duration {
					return l.errorf(f+".rps.csv", "%s: line %d: %v is outside the run (0 to %v)", r.CSV, lines[j], p.At, s.Spec.Duration.Duration)
				}
				r.Points = append(r.Points, LoadPoint{At: api.Duration{Duration: p.At}, RPS: p.RPS})
			}
		}
	}
	return nil
}

// rate checks a load's requests per second: a finite number, not
// negative.
func (l *loader) rate(field string, rps float64) error {
	if math.IsNaN(rps) || math.IsInf(rps, 0) {
		return l.errorf(field, "%v is not a rate: give a finite number of requests per second", rps)
	}
	if rps < 0 {
		return l.errorf(field, "must not be negative")
	}
	return nil
}

// command checks an imperative command step.
func (l *loader) command(a string, c *Command, w *world) error {
	set := 0
	for _, b := range []bool{c.CreatePod != nil, c.DeletePod != "", c.ScaleUp != nil} {
		if b {
			set++
		}
	}
	if set != 1 {
		return l.errorf(a, "give exactly one of createPod, deletePod or scaleUp")
	}
	if c.Retries != nil && *c.Retries < 0 {
		return l.errorf(a+".retries", "must not be negative")
	}
	switch {
	case c.CreatePod != nil:
		k, err := l.kind(a+".createPod.kind", c.CreatePod.Kind)
		if err != nil {
			return err
		}
		if k != api.KindDeployment && k != api.KindReplicaSet {
			return l.errorf(a+".createPod.kind", "pods are made from a Deployment's or ReplicaSet's template")
		}
		if k == api.KindDeployment {
			return l.ref(a+".createPod", *c.CreatePod, w)
		}
	case c.DeletePod != "":
		if _, err := api.ParseSelector(c.DeletePod); err != nil {
			return l.errorf(a+".deletePod", "%v", err)
		}
	case c.ScaleUp != nil:
		k, err := l.kind(a+".scaleUp.kind", c.ScaleUp.Kind)
		if err != nil {
			return err
		}
		if k != api.KindDeployment && k != api.KindReplicaSet {
			return l.errorf(a+".scaleUp.kind", "only Deployments and ReplicaSets scale")
		}
		return l.ref(a+".scaleUp", *c.ScaleUp, w)
	}
	return nil
}

// increment checks an increment step: a ConfigMap that exists by then, a
// key, and counts that make sense.
func (l *loader) increment(a string, inc *Increment, w *world) error {
	if inc.ConfigMap == "" {
		return l.errorf(a+".configMap", "required")
	}
	ns, name := SplitRef(inc.ConfigMap)
	if !w.objects[objKey{api.KindConfigMap, api.Key{Namespace: ns, Name: name}}] {
		return l.errorf(a+".configMap", "no ConfigMap %q in spec.objects or an earlier apply", ns+"/"+name)
	}
	if inc.Key == "" {
		return l.errorf(a+".key", "required")
	}
	if inc.Times < 0 {
		return l.errorf(a+".times", "must not be negative")
	}
	// Each time is a read and a write of its own, as a step is: the
	// timeline's cap bounds them (a billion never ended).
	if most := l.limits.Timeline; inc.Times > most {
		return l.errorf(a+".times", "%d is more than the timeline cap of %d writes (--limit timeline=N raises it)", inc.Times, most)
	}
	if inc.Retries != nil && *inc.Retries < 0 {
		return l.errorf(a+".retries", "must not be negative")
	}
	return nil
}

// fileOrObjects decodes manifests given as a file (relative to the
// scenario) or as inline objects, exactly one of the two, and adds them to
// the world. With checkPods, the pods cap is checked after each object,
// at the object's own field (a GitOps commit's: the timeline's steps are
// checked at the step).
func (l *loader) fileOrObjects(field, file string, nodes []*yaml.Node, w *world, checkPods bool) ([]api.Object, error) {
	if (file == "") == (len(nodes) == 0) {
		return nil, l.errorf(field, "give either file or objects")
	}
	var out []api.Object
	var fields []string
	if file != "" {
		objs, err := l.file2objects(field+".file", file)
		if err != nil {
			return nil, err
		}
		out = objs
		for range objs {
			fields = append(fields, field+".file")
		}
	}
	for i, n := range nodes {
		f := fmt.Sprintf("%s.objects[%d]", field, i)
		objs, err := l.objects(f, n)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
		for range objs {
			fields = append(fields, f)
		}
	}
	if err := l.addObjects(field, len(out)); err != nil {
		return nil, err
	}
	for i, o := range out {
		w.add(o)
		if checkPods {
			if err := l.checkPods(fields[i], w); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// percentageOK reports whether p is a percentageOfNodesToScore
// kube-scheduler takes, for spec.controllers.scheduler and the
// generator; percentageWant is kube-scheduler's own message for the
// others (validatePercentageOfNodesToScore).
func percentageOK(p int32) bool { return p >= 0 && p <= 100 }

const percentageWant = "not in valid range [0-100]"

// MaxNodeEvictionRate bounds spec.cluster's eviction rates: a node a
// millisecond, far beyond any cluster's need, and a rate whose interval
// a token bucket can still count in nanoseconds.
const MaxNodeEvictionRate = 1000

// evictionRateOK reports whether v is a tainting rate spec.cluster and
// the generator take (NaN is not); evictionRateWant says which are.
func evictionRateOK(v float64) bool { return v >= 0 && v <= MaxNodeEvictionRate }

var evictionRateWant = fmt.Sprintf("want nodes a second from 0 (none tainted) to %d", MaxNodeEvictionRate)

// evictionSettings checks the node lifecycle controller's eviction
// settings in spec.cluster: rates from 0 (no taints) to
// MaxNodeEvictionRate nodes a second, a size threshold from 0, a share
// of not-Ready nodes above 0 (above 1: never partially disrupted).
// Set with the node lifecycle controller turned off, they are errors:
// nothing would read them.
func (l *loader) evictionSettings(s *Scenario) error {
	c := &s.Spec.Cluster
	if !Enabled(s.Spec.Controllers, "node-lifecycle") {
		for _, f := range []struct {
			name string
			set  bool
		}{{"nodeEvictionRate", c.NodeEvictionRate != nil}, {"secondaryNodeEvictionRate", c.SecondaryNodeEvictionRate != nil},
			{"largeClusterSizeThreshold", c.LargeClusterSizeThreshold != nil}, {"unhealthyZoneThreshold", c.UnhealthyZoneThreshold != nil}} {
			if f.set {
				return l.errorf("spec.cluster."+f.name, "the node lifecycle controller, which alone reads it, is turned off (spec.controllers.node-lifecycle.enabled: false)")
			}
		}
	}
	for _, r := range []struct {
		field string
		v     *float64
	}{{"nodeEvictionRate", c.NodeEvictionRate}, {"secondaryNodeEvictionRate", c.SecondaryNodeEvictionRate}} {
		if r.v != nil && !evictionRateOK(*r.v) {
			return l.errorf("spec.cluster."+r.field, "%v: %s", *r.v, evictionRateWant)
		}
	}
	if t := c.LargeClusterSizeThreshold; t != nil && *t < 0 {
		return l.errorf("spec.cluster.largeClusterSizeThreshold", "%d: want a number of nodes, 0 or more", *t)
	}
	if u := c.UnhealthyZoneThreshold; u != nil && (!(*u > 0) || math.IsInf(*u, 1)) {
		return l.errorf("spec.cluster.unhealthyZoneThreshold", "%v: want a share of a zone's nodes above 0 (0.55: 55%%; above 1: never)", *u)
	}
	return nil
}
