package daemonset

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:daemon-set-controller"

// Component is the source component of the controller's events.
const Component = "daemonset-controller"

// Name is the controller's name in its manager.
const Name = "daemonset-controller"

// Defaults, as kube-controller-manager's.
const (
	// DefaultWorkers is --concurrent-daemonset-syncs, 2.
	DefaultWorkers = 2
	// BurstReplicas is the most pods created or deleted in one sync, 250
	// (k/k daemon_controller.go BurstReplicas).
	BurstReplicas = 250
	// StatusUpdateRetries is how often a failed status write is retried
	// after re-reading the DaemonSet (k/k StatusUpdateRetries, 1).
	StatusUpdateRetries = 1
	// FailedPodsBackoffInitial and FailedPodsBackoffMax bound the
	// back-off between deletions of failed pods on one node
	// (flowcontrol.NewBackOff(1*time.Second, 15*time.Minute) in k/k
	// cmd/kube-controller-manager/app/apps.go).
	FailedPodsBackoffInitial = time.Second
	FailedPodsBackoffMax     = 15 * time.Minute
)

// Event reasons, as upstream's.
const (
	ReasonSelectingAll       = "SelectingAll"
	ReasonFailedDaemonPod    = "FailedDaemonPod"
	ReasonSucceededDaemonPod = "SucceededDaemonPod"
	ReasonSuccessfulCreate   = "SuccessfulCreate"
	ReasonFailedCreate       = "FailedCreate"
	ReasonSuccessfulDelete   = "SuccessfulDelete"
	ReasonFailedDelete       = "FailedDelete"
)

// Options configure the controller; zero fields take the defaults.
type Options struct {
	// Workers is the number of DaemonSets synced at once (default 2).
	Workers int
	// BurstReplicas caps the pods created or deleted in one sync
	// (default 250).
	BurstReplicas int
	// SlowStartInitialBatch is the size of a sync's first batch of
	// creates, each next batch twice the last until one fails (default
	// 1, upstream's SlowStartInitialBatchSize).
	SlowStartInitialBatch int
}

// lister is what the reconciler reads from an informer cache.
type lister interface {
	Get(key api.Key) (api.Object, bool)
	List(sel api.Selector, namespace string) []api.Object
	ByIndex(name, value string) []api.Object
}

// reconciler syncs one DaemonSet per request (upstream's
// DaemonSetsController.syncDaemonSet).
type reconciler struct {
	client   client.Client
	recorder client.EventRecorder
	clock    client.PassiveClock
	dss      lister
	pods     lister
	nodes    lister
	exp      *replicaset.Expectations
	backoff  *backoff
	// burst caps a sync's creates or deletes; slow is the size of its
	// first batch of creates.
	burst, slow int
	enqueue     func(key api.Key)
	// enqueueAfter adds a DaemonSet key to the work queue after d.
	enqueueAfter func(key api.Key, d time.Duration)
	// verdicts remembers NodeShouldRunDaemonPod's answers (shouldRun).
	verdicts verdicts
}

// shouldRunFunc is NodeShouldRunDaemonPod or a memo of it.
type shouldRunFunc func(node *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool)

// verdicts remembers NodeShouldRunDaemonPod's answer for each DaemonSet
// and node, with the node object and the DaemonSet's generation it was
// computed from. The answer is a function of the node and the
// DaemonSet's pod template; the informers replace an object they change
// rather than change it, so it holds while the node is the same object
// and the DaemonSet the same object or of the same generation (its
// template is spec, and a change of spec raises the generation; status
// writes, one a ready pod, do not). Upstream builds the daemon pod anew (a deep copy of the
// template, its tolerations added one by one) for every node at each of
// a sync's four passes over the nodes (manage, the rolling update's two,
// the status); a DaemonSet over 1,200 nodes synced once for each of its
// pods' changes spent most of its time there. One entry a DaemonSet and
// node, filed by DaemonSet: a node's or DaemonSet's new object replaces
// it, and forgetting a DaemonSet is one deletion.
type verdicts struct {
	m map[api.UID]map[string]verdict
}

// verdict is one answer and what it was computed from: the node object,
// and the DaemonSet's generation, or, for a DaemonSet without one, the
// DaemonSet object itself (kept only then, so that an entry does not
// hold an old DaemonSet object alive after its status writes).
type verdict struct {
	node      *api.Node
	ds        *api.DaemonSet
	gen       int64
	run, cont bool
}

// shouldRun is NodeShouldRunDaemonPod(node, ds), remembered.
func (v *verdicts) shouldRun(node *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool) {
	byNode := v.m[ds.UID]
	if got, ok := byNode[node.Name]; ok && got.node == node && (ds.Generation > 0 && got.gen == ds.Generation || ds.Generation == 0 && got.ds == ds) {
		return got.run, got.cont
	}
	run, cont := NodeShouldRunDaemonPod(node, ds)
	if byNode == nil {
		if v.m == nil {
			v.m = map[api.UID]map[string]verdict{}
		}
		byNode = map[string]verdict{}
		v.m[ds.UID] = byNode
	}
	got := verdict{node: node, gen: ds.Generation, run: run, cont: cont}
	if ds.Generation == 0 {
		got.ds = ds
	}
	byNode[node.Name] = got
	return run, cont
}

// forget drops the answers of a DaemonSet that is gone, or of a node
// that is gone (either empty: every one).
func (v *verdicts) forget(ds api.UID, node string) {
	switch {
	case ds == "" && node == "":
		clear(v.m)
	case node == "":
		delete(v.m, ds)
	case ds == "":
		for _, byNode := range v.m {
			delete(byNode, node)
		}
	default:
		delete(v.m[ds], node)
	}
}

// Setup registers the DaemonSet controller with m: informers on
// DaemonSets, Pods (indexed by controller) and Nodes, and opts.Workers
// workers.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.BurstReplicas <= 0 {
		opts.BurstReplicas = BurstReplicas
	}
	if opts.SlowStartInitialBatch <= 0 {
		opts.SlowStartInitialBatch = replicaset.SlowStartInitialBatchSize
	}
	dsInf, err := m.Informer(api.KindDaemonSet, informer.Options{})
	if err != nil {
		return err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	nodeInf, err := m.Informer(api.KindNode, informer.Options{})
	if err != nil {
		return err
	}
	podInf.AddIndex(informer.IndexController, informer.ByController)
	r := &reconciler{
		client:   m.Client(),
		recorder: m.Recorder(Component),
		clock:    m.Clock(),
		dss:      dsInf.Lister(),
		pods:     podInf.Lister(),
		nodes:    nodeInf.Lister(),
		exp:      replicaset.NewExpectations(m.Clock()),
		backoff:  newBackoff(m.Clock(), FailedPodsBackoffInitial, FailedPodsBackoffMax),
		burst:    opts.BurstReplicas,
		slow:     opts.SlowStartInitialBatch,
	}
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers}, r)
	if err != nil {
		return err
	}
	r.enqueue = func(key api.Key) { c.Enqueue(controller.Request{Key: key}) }
	r.enqueueAfter = func(key api.Key, d time.Duration) { c.EnqueueAfter(controller.Request{Key: key}, d) }
	dsInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc:    func(o api.Object) { r.enqueue(keyOf(o)) },
		UpdateFunc: func(_, o api.Object) { r.enqueue(keyOf(o)) },
		DeleteFunc: func(o api.Object) {
			r.exp.Delete(keyOf(o).String())
			r.verdicts.forget(o.GetObjectMeta().UID, "")
			r.enqueue(keyOf(o))
		},
	})
	podInf.AddEventHandler(informer.HandlerFuncs{AddFunc: r.addPod, UpdateFunc: r.updatePod, DeleteFunc: r.deletePod})
	nodeInf.AddEventHandler(informer.HandlerFuncs{AddFunc: r.nodeChanged, UpdateFunc: r.updateNode, DeleteFunc: func(o api.Object) {
		r.verdicts.forget("", o.GetObjectMeta().Name)
		r.nodeChanged(o)
	}})
	return nil
}

func keyOf(o api.Object) api.Key { return o.GetObjectMeta().Key() }

func podKey(p *api.Pod) string { return p.Namespace + "/" + p.Name }

// ---- event handlers ----

func (r *reconciler) ownerOf(p *api.Pod) *api.DaemonSet {
	ref := api.GetControllerOfNoCopy(&p.ObjectMeta)
	if ref == nil {
		return nil
	}
	ds, _ := informer.ResolveControllerRef[*api.DaemonSet](r.dss, api.KindDaemonSet, p.Namespace, ref)
	return ds
}

func (r *reconciler) addPod(obj api.Object) {
	p, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	if p.DeletionTimestamp != nil {
		r.deletePod(p)
		return
	}
	if ds := r.ownerOf(p); ds != nil {
		r.exp.CreationObserved(keyOf(ds).String())
		r.enqueue(keyOf(ds))
	}
}

func (r *reconciler) updatePod(old, cur api.Object) {
	op, ok1 := old.(*api.Pod)
	cp, ok2 := cur.(*api.Pod)
	if !ok1 || !ok2 || op.ResourceVersion == cp.ResourceVersion {
		return
	}
	if cp.DeletionTimestamp != nil {
		r.deletePod(cp)
		return
	}
	if ds := r.ownerOf(cp); ds != nil {
		r.enqueue(keyOf(ds))
		if !api.IsPodReady(op) && api.IsPodReady(cp) && ds.Spec.MinReadySeconds > 0 {
			r.enqueueAfter(keyOf(ds), time.Duration(ds.Spec.MinReadySeconds)*time.Second+time.Second)
		}
	}
}

func (r *reconciler) deletePod(obj api.Object) {
	p, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	if ds := r.ownerOf(p); ds != nil {
		r.exp.DeletionObserved(keyOf(ds).String(), podKey(p))
		r.enqueue(keyOf(ds))
	}
}

// nodeChanged enqueues every DaemonSet: a node added or removed may
// change where each runs.
func (r *reconciler) nodeChanged(api.Object) {
	for _, o := range r.dss.List(api.Everything(), "") {
		r.enqueue(keyOf(o))
	}
}

// updateNode enqueues every DaemonSet when a node's labels, taints or
// readiness changed (upstream's shouldIgnoreNodeUpdate ignores the rest).
func (r *reconciler) updateNode(old, cur api.Object) {
	on, ok1 := old.(*api.Node)
	cn, ok2 := cur.(*api.Node)
	if !ok1 || !ok2 {
		return
	}
	if reflect.DeepEqual(on.Labels, cn.Labels) && reflect.DeepEqual(on.Spec.Taints, cn.Spec.Taints) &&
		on.Spec.Unschedulable == cn.Spec.Unschedulable && nodeReady(on) == nodeReady(cn) {
		return
	}
	r.nodeChanged(cn)
}

// nodeReady reports whether n's Ready condition is True.
func nodeReady(n *api.Node) bool {
	for i := range n.Status.Conditions {
		if c := &n.Status.Conditions[i]; c.Type == api.NodeReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// ---- eligibility ----

// NewPod returns the pod ds would run on node (upstream's NewPod): the
// template with the daemon tolerations added and spec.nodeName set, used
// to decide eligibility only.
func NewPod(ds *api.DaemonSet, node string) *api.Pod {
	p := &api.Pod{ObjectMeta: ds.Spec.Template.ObjectMeta, Spec: ds.Spec.Template.Spec}
	p.Namespace = ds.Namespace
	p.Spec.NodeName = node
	p.Spec.Tolerations = slices.Clone(p.Spec.Tolerations)
	AddDaemonTolerations(&p.Spec)
	return p
}

// NodeShouldRunDaemonPod reports whether ds should run a pod on node
// (shouldRun: a missing pod is created) and whether a pod already there
// may stay (shouldContinueRunning), as upstream's function of that name:
// nodeName and node affinity must match for either; an untolerated
// NoSchedule or NoExecute taint stops new pods, an untolerated NoExecute
// taint evicts running ones.
func NodeShouldRunDaemonPod(node *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool) {
	if n := ds.Spec.Template.Spec.NodeName; n != "" && n != node.Name {
		return false, false
	}
	pod := NewPod(ds, node.Name)
	if !scheduler.MatchesNodeAffinity(&pod.Spec, node) {
		return false, false
	}
	if scheduler.FindUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, api.TaintEffectNoSchedule, api.TaintEffectNoExecute) != nil {
		return false, scheduler.FindUntoleratedTaint(node.Spec.Taints, pod.Spec.Tolerations, api.TaintEffectNoExecute) == nil
	}
	return true, true
}

// AddDaemonTolerations adds the tolerations every daemon pod gets
// (k/k pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations): a
// toleration with the same key and effect is replaced.
func AddDaemonTolerations(spec *api.PodSpec) {
	add := func(key string, effect api.TaintEffect) {
		t := api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: effect}
		for i := range spec.Tolerations {
			if spec.Tolerations[i].Key == key && spec.Tolerations[i].Effect == effect {
				spec.Tolerations[i] = t
				return
			}
		}
		spec.Tolerations = append(spec.Tolerations, t)
	}
	add(api.TaintNodeNotReady, api.TaintEffectNoExecute)
	add(api.TaintNodeUnreachable, api.TaintEffectNoExecute)
	add(api.TaintNodeDiskPressure, api.TaintEffectNoSchedule)
	add(api.TaintNodeMemoryPressure, api.TaintEffectNoSchedule)
	add(api.TaintNodePIDPressure, api.TaintEffectNoSchedule)
	add(api.TaintNodeUnschedulable, api.TaintEffectNoSchedule)
	if spec.HostNetwork {
		add(api.TaintNodeNetworkUnavailable, api.TaintEffectNoSchedule)
	}
}

// nodeAffinityFor returns affinity with its required node affinity
// replaced by a term selecting node by name
// (util.ReplaceDaemonSetPodNodeNameNodeAffinity); affinity is the
// caller's copy.
func nodeAffinityFor(affinity *api.Affinity, node string) *api.Affinity {
	sel := &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
		MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{node}}},
	}}}
	if affinity == nil {
		return &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: sel}}
	}
	if affinity.NodeAffinity == nil {
		affinity.NodeAffinity = &api.NodeAffinity{}
	}
	affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = sel
	return affinity
}

// TargetNode returns the node a daemon pod is for: spec.nodeName, else
// the matchFields metadata.name In term of its node affinity
// (util.GetTargetNodeName); "" when it has neither.
func TargetNode(p *api.Pod) string {
	if p.Spec.NodeName != "" {
		return p.Spec.NodeName
	}
	a := p.Spec.Affinity
	if a == nil || a.NodeAffinity == nil || a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil {
		return ""
	}
	for _, t := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
		for _, f := range t.MatchFields {
			if f.Key == "metadata.name" && f.Operator == api.NodeSelectorOpIn && len(f.Values) == 1 {
				return f.Values[0]
			}
		}
	}
	return ""
}

// ---- sync ----

// Reconcile syncs the DaemonSet req names.
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	key := req.Key.String()
	obj, ok := r.dss.Get(req.Key)
	if !ok {
		r.exp.Delete(key)
		return controller.Result{}, nil
	}
	ds, ok := obj.(*api.DaemonSet)
	if !ok {
		return controller.Result{}, nil
	}
	if s := ds.Spec.Selector; s == nil || len(s.MatchLabels)+len(s.MatchExpressions) == 0 {
		r.recorder.Eventf(ds, client.EventTypeWarning, ReasonSelectingAll, "This daemon set is selecting all pods. A non-empty selector is required.")
		return controller.Result{}, nil
	}
	if ds.DeletionTimestamp != nil {
		return controller.Result{}, nil
	}
	hash := deployment.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount)
	nodes := r.listNodes()
	if !r.exp.Satisfied(key) {
		return r.updateStatus(ctx, ds, nodes, hash, false)
	}
	err := r.manage(ctx, ds, nodes, hash)
	if err == nil && r.exp.Satisfied(key) && ds.Spec.UpdateStrategy.Type == api.RollingUpdateDaemonSetStrategyType {
		err = r.rollingUpdate(ctx, ds, nodes, hash)
	}
	res, statusErr := r.updateStatus(ctx, ds, nodes, hash, true)
	if err != nil {
		return controller.Result{}, err
	}
	return res, statusErr
}

func (r *reconciler) listNodes() []*api.Node {
	objs := r.nodes.List(api.Everything(), "")
	out := make([]*api.Node, 0, len(objs))
	for _, o := range objs {
		if n, ok := o.(*api.Node); ok {
			out = append(out, n)
		}
	}
	return out
}

// nodeToDaemonPods returns ds's pods by the node they are for, each
// node's pods oldest first (scheduled before pending, then creation time,
// then name: podByCreationTimestampAndPhase). Only pods ds controls and
// its selector matches count.
func (r *reconciler) nodeToDaemonPods(ds *api.DaemonSet) map[string][]*api.Pod {
	sel, err := api.LabelSelectorAsSelector(ds.Spec.Selector)
	if err != nil {
		return nil
	}
	out := map[string][]*api.Pod{}
	for _, o := range r.pods.ByIndex(informer.IndexController, string(ds.UID)) {
		p, ok := o.(*api.Pod)
		if !ok || p.Namespace != ds.Namespace || !sel.Matches(p.Labels) {
			continue
		}
		if n := TargetNode(p); n != "" {
			out[n] = append(out[n], p)
		}
	}
	for _, pods := range out {
		slices.SortFunc(pods, olderFirst)
	}
	return out
}

// olderFirst orders daemon pods as upstream's
// podByCreationTimestampAndPhase: scheduled first, then by creation time,
// then by name.
func olderFirst(a, b *api.Pod) int {
	if (a.Spec.NodeName != "") != (b.Spec.NodeName != "") {
		if a.Spec.NodeName != "" {
			return -1
		}
		return 1
	}
	if c := a.CreationTimestamp.Time.Compare(b.CreationTimestamp.Time); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

// podsShouldBeOnNode is upstream's function of that name: whether node
// needs a pod, and which of its pods to delete.
func (r *reconciler) podsShouldBeOnNode(node *api.Node, pods []*api.Pod, ds *api.DaemonSet) (needs bool, del []*api.Pod) {
	shouldRun, shouldContinue := r.verdicts.shouldRun(node, ds)
	switch {
	case shouldRun && len(pods) == 0:
		return true, nil
	case shouldContinue:
		var running []*api.Pod
		for _, p := range pods {
			if p.DeletionTimestamp != nil {
				continue
			}
			switch p.Status.Phase {
			case api.PodFailed:
				bk := fmt.Sprintf("%s/%d/%s", ds.UID, ds.Status.ObservedGeneration, node.Name)
				if r.backoff.inBackoff(bk) {
					r.enqueueAfter(keyOf(ds), r.backoff.get(bk))
					continue
				}
				r.backoff.next(bk)
				r.recorder.Eventf(ds, client.EventTypeWarning, ReasonFailedDaemonPod, "Found failed daemon pod %s/%s on node %s, will try to kill it", p.Namespace, p.Name, node.Name)
				del = append(del, p)
			case api.PodSucceeded:
				r.recorder.Eventf(ds, client.EventTypeNormal, ReasonSucceededDaemonPod, "Found succeeded daemon pod %s/%s on node %s, will try to delete it", p.Namespace, p.Name, node.Name)
				del = append(del, p)
			default:
				running = append(running, p)
			}
		}
		del = append(del, r.extraPods(ds, running)...)
	case len(pods) > 0:
		for _, p := range pods {
			if p.DeletionTimestamp == nil {
				del = append(del, p)
			}
		}
	}
	return false, del
}

// extraPods are the running pods of a node (oldest first) beyond the
// one it keeps. Without surge only the oldest stays. With surge the
// oldest pod of the current template and the oldest of an old one may
// both stay while the old one is ready and the new one not yet
// available; if the old one is not ready it goes, if the new one is
// available the old one goes.
func (r *reconciler) extraPods(ds *api.DaemonSet, running []*api.Pod) []*api.Pod {
	if len(running) <= 1 {
		return nil
	}
	if maxSurge(ds, 1) == 0 {
		return running[1:]
	}
	hash := deployment.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount)
	var del []*api.Pod
	var oldestNew, oldestOld *api.Pod
	for _, p := range running {
		switch {
		case p.Labels[api.LabelControllerRevisionHash] == hash && oldestNew == nil:
			oldestNew = p
		case p.Labels[api.LabelControllerRevisionHash] != hash && oldestOld == nil:
			oldestOld = p
		default:
			del = append(del, p)
		}
	}
	if oldestNew != nil && oldestOld != nil {
		switch {
		case !api.IsPodReady(oldestOld):
			del = append(del, oldestOld)
		case replicaset.IsPodAvailable(oldestNew, ds.Spec.MinReadySeconds, r.clock.Now()):
			del = append(del, oldestOld)
		}
	}
	return del
}

// manage creates the missing daemon pods and deletes those that must go
// (upstream's manage and syncNodes).
func (r *reconciler) manage(ctx context.Context, ds *api.DaemonSet, nodes []*api.Node, hash string) error {
	byNode := r.nodeToDaemonPods(ds)
	var need []string
	var del []*api.Pod
	exists := make(map[string]bool, len(nodes))
	for _, n := range nodes {
		exists[n.Name] = true
		needs, d := r.podsShouldBeOnNode(n, byNode[n.Name], ds)
		if needs {
			need = append(need, n.Name)
		}
		del = append(del, d...)
	}
	// Pending pods for nodes that no longer exist: nothing else would
	// ever delete them (getUnscheduledPodsWithoutNode).
	gone := make([]string, 0)
	for n := range byNode {
		if !exists[n] {
			gone = append(gone, n)
		}
	}
	slices.Sort(gone)
	for _, n := range gone {
		for _, p := range byNode[n] {
			if p.Spec.NodeName == "" {
				del = append(del, p)
			}
		}
	}
	return r.syncNodes(ctx, ds, del, need, hash)
}

// syncNodes deletes del and creates a pod on each node of need, at most
// burst of each, creates in slow-start batches.
func (r *reconciler) syncNodes(ctx context.Context, ds *api.DaemonSet, del []*api.Pod, need []string, hash string) error {
	key := keyOf(ds).String()
	need = need[:min(len(need), r.burst)]
	del = del[:min(len(del), r.burst)]
	r.exp.Set(key, len(need), 0)
	if len(del) > 0 {
		keys := make([]string, len(del))
		for i, p := range del {
			keys[i] = podKey(p)
		}
		r.exp.ExpectDeletions(key, keys)
		r.exp.Raise(key, len(need), 0)
	}
	template := createPodTemplate(&ds.Spec.Template, hash)
	var errs []error
	created := 0
	for batch, pos := min(len(need), r.slow), 0; pos < len(need); batch, pos = min(2*batch, len(need)-(pos+batch)), pos+batch {
		failed := false
		for _, node := range need[pos : pos+batch] {
			if err := r.createPod(ctx, ds, template, node); err != nil {
				r.exp.CreationObserved(key)
				if !namespaceTerminating(err) {
					errs = append(errs, err)
					failed = true
				}
			}
			created++
		}
		if failed {
			// Creates never attempted will not be observed.
			for range len(need) - created {
				r.exp.CreationObserved(key)
			}
			break
		}
	}
	for _, p := range del {
		if err := r.deletePodOf(ctx, ds, p.Name); err != nil {
			r.exp.DeletionObserved(key, podKey(p))
			if !errors.Is(err, apierr.ErrNotFound) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// createPodTemplate is util.CreatePodTemplate: a copy of template with the
// daemon tolerations and, for a non-empty hash, the
// controller-revision-hash label.
func createPodTemplate(template *api.PodTemplateSpec, hash string) *api.PodTemplateSpec {
	t := template.DeepCopy()
	AddDaemonTolerations(&t.Spec)
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	if hash != "" {
		t.Labels[api.LabelControllerRevisionHash] = hash
	}
	return t
}

func (r *reconciler) createPod(ctx context.Context, ds *api.DaemonSet, template *api.PodTemplateSpec, node string) error {
	ref := api.NewControllerRef(ds)
	p := replicaset.PodFromTemplate(template, ds, &ref)
	p.Spec.Affinity = nodeAffinityFor(p.Spec.Affinity, node)
	// p was built for this create alone: given away, not copied.
	name, err := client.CreateGiven(ctx, r.client, p)
	if err != nil {
		if !namespaceTerminating(err) {
			r.recorder.Eventf(ds, client.EventTypeWarning, ReasonFailedCreate, "Error creating: %v", err)
		}
		return err
	}
	r.recorder.Eventf(ds, client.EventTypeNormal, ReasonSuccessfulCreate, "Created pod: %v", name)
	return nil
}

func (r *reconciler) deletePodOf(ctx context.Context, ds *api.DaemonSet, name string) error {
	err := r.client.Delete(ctx, api.KindPod, api.Key{Namespace: ds.Namespace, Name: name})
	if err != nil {
		if errors.Is(err, apierr.ErrNotFound) {
			return err
		}
		r.recorder.Eventf(ds, client.EventTypeWarning, ReasonFailedDelete, "Error deleting: %v", err)
		return fmt.Errorf("unable to delete pods: %w", err)
	}
	r.recorder.Eventf(ds, client.EventTypeNormal, ReasonSuccessfulDelete, "Deleted pod: %v", name)
	return nil
}

// namespaceTerminating reports a create refused because the namespace is
// being deleted.
func namespaceTerminating(err error) bool {
	return errors.Is(err, apierr.ErrForbidden) && strings.Contains(err.Error(), "because it is being terminated")
}
