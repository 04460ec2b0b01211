package replicaset

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:replicaset-controller"

// Component is the source component of the controller's events.
const Component = "replicaset-controller"

// Name is the controller's name in its manager (kube-controller-manager's
// name for it); its workers are "<manager>/replicaset-controller/worker-<i>".
const Name = "replicaset-controller"

// Defaults, as kube-controller-manager's.
const (
	// DefaultWorkers is --concurrent-replicaset-syncs, 5.
	DefaultWorkers = 5
	// BurstReplicas is the most pods created or deleted in one sync, 500.
	BurstReplicas = 500
	// SlowStartInitialBatchSize is the size of the first batch of
	// creates; each later batch doubles (k/k controller_utils.go, 1).
	SlowStartInitialBatchSize = 1
)

// ErrNoLabels is returned for a pod template without labels: such pods
// could never be selected.
var ErrNoLabels = errors.New("unable to create pods, no labels")

// Options configure the controller; zero fields take the defaults.
type Options struct {
	// Workers is the number of ReplicaSets synced at once (default 5).
	Workers int
	// BurstReplicas caps the pods created or deleted in one sync
	// (default 500).
	BurstReplicas int
	// SlowStartInitialBatch is the size of a sync's first batch of
	// creates, each next batch twice the last until one fails (default
	// 1, upstream's SlowStartInitialBatchSize).
	SlowStartInitialBatch int
}

// lister is what the reconciler reads from an informer cache;
// informer.Lister implements it.
type lister interface {
	Get(key api.Key) (api.Object, bool)
	List(sel api.Selector, namespace string) []api.Object
	// ByIndex lists the objects filed under value in index name, in
	// namespace/name order; pods are indexed by informer.IndexController.
	ByIndex(name, value string) []api.Object
}

// reconciler syncs one ReplicaSet per request (upstream's
// ReplicaSetController.syncReplicaSet). Its expectations live as long as
// the controller incarnation that Setup built.
type reconciler struct {
	client   client.Client
	recorder client.EventRecorder
	clock    client.PassiveClock
	rss      lister
	pods     lister
	exp      *Expectations
	// agg counts each synced ReplicaSet's pods by state, kept by the pod
	// event handlers (aggregate.go).
	agg *podAggregates
	// fastSyncs and fullSyncs count the syncs that read the counts from
	// agg and those that listed and claimed the pods.
	fastSyncs, fullSyncs int
	// burst caps a sync's creates or deletes; slow is the size of its
	// first batch of creates.
	burst, slow int
	// enqueue and enqueueAfter add a ReplicaSet key to the work queue.
	enqueue      func(key api.Key)
	enqueueAfter func(key api.Key, d time.Duration)
}

// Setup registers the ReplicaSet controller with m: informers on
// ReplicaSets and Pods, event handlers that keep the expectations and map
// pods to the ReplicaSet controlling them (or, for orphans, to every
// ReplicaSet whose selector matches), and opts.Workers workers.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.BurstReplicas <= 0 {
		opts.BurstReplicas = BurstReplicas
	}
	if opts.SlowStartInitialBatch <= 0 {
		opts.SlowStartInitialBatch = SlowStartInitialBatchSize
	}
	rsInf, err := m.Informer(api.KindReplicaSet, informer.Options{})
	if err != nil {
		return err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	// A sync looks at the pods it controls and the orphans it may adopt,
	// never at every pod of the namespace (upstream's
	// AddPodControllerUIDIndexer and FilterPodsByOwner, k/k
	// pkg/controller/controller_utils.go).
	podInf.AddIndex(informer.IndexController, informer.ByController)
	r := &reconciler{
		client:   m.Client(),
		recorder: m.Recorder(Component),
		clock:    m.Clock(),
		rss:      rsInf.Lister(),
		pods:     podInf.Lister(),
		exp:      NewExpectations(m.Clock()),
		agg:      newPodAggregates(),
		burst:    opts.BurstReplicas,
		slow:     opts.SlowStartInitialBatch,
	}
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers}, r)
	if err != nil {
		return err
	}
	r.enqueue = func(key api.Key) { c.Enqueue(controller.Request{Key: key}) }
	r.enqueueAfter = func(key api.Key, d time.Duration) { c.EnqueueAfter(controller.Request{Key: key}, d) }
	rsInf.AddEventHandler(informer.HandlerFuncs{AddFunc: r.addRS, UpdateFunc: r.updateRS, DeleteFunc: r.deleteRS})
	// The aggregates are kept first, so that whatever the other handler
	// enqueues is synced against counts that include this event.
	podInf.AddEventHandler(r.agg.handler())
	podInf.AddEventHandler(informer.HandlerFuncs{AddFunc: r.addPod, UpdateFunc: r.updatePod, DeleteFunc: r.deletePod})
	return nil
}

// ---- event handlers (they only enqueue and count observations) ----

func keyOf(o api.Object) api.Key { return o.GetObjectMeta().Key() }

func (r *reconciler) addRS(obj api.Object) {
	if _, ok := obj.(*api.ReplicaSet); ok {
		r.enqueue(keyOf(obj))
	}
}

func (r *reconciler) updateRS(old, cur api.Object) {
	o, ok1 := old.(*api.ReplicaSet)
	c, ok2 := cur.(*api.ReplicaSet)
	if !ok1 || !ok2 {
		return
	}
	if o.UID != c.UID {
		// Deleted and re-created between two observations: forget the
		// old one's expectations.
		r.deleteRS(o)
	}
	// Every update is synced, status-only ones included: a resync then
	// retries ReplicaSets whose last creates failed.
	r.enqueue(keyOf(c))
}

func (r *reconciler) deleteRS(obj api.Object) {
	if _, ok := obj.(*api.ReplicaSet); !ok {
		return
	}
	key := keyOf(obj)
	r.exp.Delete(key.String())
	r.agg.forget(obj.GetObjectMeta().UID)
	r.enqueue(key)
}

// resolveControllerRef returns the cached ReplicaSet ref points at in
// namespace ns, or nil when ref is not to a ReplicaSet or names one with
// another UID.
func (r *reconciler) resolveControllerRef(ns string, ref *api.OwnerReference) *api.ReplicaSet {
	rs, _ := informer.ResolveControllerRef[*api.ReplicaSet](r.rss, api.KindReplicaSet, ns, ref)
	return rs
}

// podReplicaSets returns the cached ReplicaSets of p's namespace whose
// selector matches p: the candidates to adopt an orphan. A pod without
// labels matches none, and so does a ReplicaSet with an empty or invalid
// selector.
func (r *reconciler) podReplicaSets(p *api.Pod) []*api.ReplicaSet {
	if len(p.Labels) == 0 {
		return nil
	}
	var out []*api.ReplicaSet
	for _, o := range r.rss.List(api.Everything(), p.Namespace) {
		rs, ok := o.(*api.ReplicaSet)
		if !ok {
			continue
		}
		sel, err := api.LabelSelectorAsSelector(rs.Spec.Selector)
		if err != nil || sel.Empty() || !sel.Matches(p.Labels) {
			continue
		}
		out = append(out, rs)
	}
	return out
}

func (r *reconciler) addPod(obj api.Object) {
	p, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	if p.DeletionTimestamp != nil {
		// After a restart a pod may first show up already terminating: it
		// must not count as an observed creation.
		r.deletePod(p)
		return
	}
	if ref := api.GetControllerOfNoCopy(&p.ObjectMeta); ref != nil {
		rs := r.resolveControllerRef(p.Namespace, ref)
		if rs == nil {
			return
		}
		r.exp.CreationObserved(keyOf(rs).String())
		r.enqueue(keyOf(rs))
		return
	}
	// An orphan: let every matching ReplicaSet consider adopting it. No
	// creation is observed: nobody waits for an orphan.
	for _, rs := range r.podReplicaSets(p) {
		r.enqueue(keyOf(rs))
	}
}

func (r *reconciler) updatePod(old, cur api.Object) {
	op, ok1 := old.(*api.Pod)
	cp, ok2 := cur.(*api.Pod)
	if !ok1 || !ok2 || op.ResourceVersion == cp.ResourceVersion {
		// A resync or a relist of an unchanged pod: nothing new.
		return
	}
	labelsChanged := !api.MapsDeepEqual(op.Labels, cp.Labels)
	if cp.DeletionTimestamp != nil {
		// A graceful delete starts: the pod no longer counts, so the
		// ReplicaSet may replace it now rather than when it is gone.
		r.deletePod(cp)
		if labelsChanged {
			r.deletePod(op)
		}
		return
	}
	curRef := api.GetControllerOfNoCopy(&cp.ObjectMeta)
	oldRef := api.GetControllerOfNoCopy(&op.ObjectMeta)
	refChanged := !api.SameControllerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if rs := r.resolveControllerRef(op.Namespace, oldRef); rs != nil {
			r.enqueue(keyOf(rs))
		}
	}
	if curRef != nil {
		rs := r.resolveControllerRef(cp.Namespace, curRef)
		if rs == nil {
			return
		}
		r.enqueue(keyOf(rs))
		if !api.IsPodReady(op) && api.IsPodReady(cp) && rs.Spec.MinReadySeconds > 0 {
			// Look again once the pod may have become available; the
			// extra second covers rounding of the ready time.
			r.enqueueAfter(keyOf(rs), time.Duration(rs.Spec.MinReadySeconds)*time.Second+time.Second)
		}
		return
	}
	if labelsChanged || refChanged {
		for _, rs := range r.podReplicaSets(cp) {
			r.enqueue(keyOf(rs))
		}
	}
}

func (r *reconciler) deletePod(obj api.Object) {
	p, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	ref := api.GetControllerOfNoCopy(&p.ObjectMeta)
	if ref == nil {
		return // nobody cares about an orphan's deletion
	}
	rs := r.resolveControllerRef(p.Namespace, ref)
	if rs == nil {
		return
	}
	r.exp.DeletionObserved(keyOf(rs).String(), podKey(p))
	r.enqueue(keyOf(rs))
}

// ---- sync ----

// Reconcile syncs the ReplicaSet req names: claims its pods, creates or
// deletes pods when its expectations are satisfied and it is not being
// deleted, then writes its status if it changed.
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	key := req.Key.String()
	obj, ok := r.rss.Get(req.Key)
	if !ok {
		r.exp.Delete(key)
		return controller.Result{}, nil
	}
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return controller.Result{}, nil
	}
	needsSync := r.exp.Satisfied(key)
	sel, err := api.LabelSelectorAsSelector(rs.Spec.Selector)
	if err != nil {
		// Bad input: retrying cannot fix it; an edit of the ReplicaSet
		// enqueues it again.
		return controller.Result{}, nil
	}
	if verifyFastPath != nil {
		r.verifyAggregate(rs)
	}
	// The counts are read before any write, as the full path lists the
	// pods before claiming: manageReplicas's calls take virtual time,
	// during which the cache moves on.
	counts, fast := r.countsFromAggregate(rs, sel, needsSync)
	var active, terminating []*api.Pod
	if fast {
		r.fastSyncs++
		if verifyFastPath != nil {
			r.verifyFastSync(ctx, rs, sel, counts)
		}
	} else {
		r.fullSyncs++
		all := r.listPods(rs)
		active, err = r.claimPods(ctx, rs, sel, FilterActivePods(all))
		if err != nil {
			return controller.Result{}, err
		}
		terminating = claimed(rs, sel, FilterTerminatingPods(all))
		counts.replicas = int32(len(active))
	}
	var manageErr error
	if needsSync && rs.DeletionTimestamp == nil {
		manageErr = r.manageReplicas(ctx, rs, counts.replicas, active)
	}
	evaluated := r.clock.Now()
	if !fast {
		counts = countPods(rs, active, terminating, evaluated)
	}
	st := statusFromCounts(rs, counts, manageErr, evaluated)
	updated, err := r.updateStatus(ctx, rs, st)
	if err != nil {
		return controller.Result{}, err
	}
	if manageErr != nil {
		return controller.Result{}, manageErr
	}
	if mrs := updated.Spec.MinReadySeconds; mrs > 0 && updated.Status.ReadyReplicas != updated.Status.AvailableReplicas {
		// Some pods are ready but not available yet: look again when the
		// first of them becomes available, minReadySeconds from now if
		// none is waiting (upstream's syncReplicaSet since 1.34).
		next := time.Duration(mrs) * time.Second
		if d, ok := NextAvailabilityCheck(active, mrs, evaluated, r.clock.Now()); ok {
			// Upstream's AddAfter(0) adds at once; a RequeueAfter must
			// be positive, so 0 becomes the shortest delay there is.
			next = max(d, time.Nanosecond)
		}
		return controller.Result{RequeueAfter: next}, nil
	}
	return controller.Result{}, nil
}

// listPods returns the cached pods of rs's namespace that rs controls or
// that no one controls, in name order: the only pods a claim can keep,
// adopt or release (pods of other controllers are left alone), read from
// the controller index (upstream's FilterPodsByOwner).
func (r *reconciler) listPods(rs *api.ReplicaSet) []*api.Pod {
	owned := r.pods.ByIndex(informer.IndexController, string(rs.UID))
	orphans := r.pods.ByIndex(informer.IndexController, informer.OrphanIndexValue(rs.Namespace))
	out := make([]*api.Pod, 0, len(owned)+len(orphans))
	add := func(o api.Object) {
		if p, ok := o.(*api.Pod); ok && p.Namespace == rs.Namespace {
			out = append(out, p)
		}
	}
	for len(owned) > 0 || len(orphans) > 0 {
		if len(orphans) == 0 || (len(owned) > 0 && owned[0].GetObjectMeta().Name < orphans[0].GetObjectMeta().Name) {
			add(owned[0])
			owned = owned[1:]
		} else {
			add(orphans[0])
			orphans = orphans[1:]
		}
	}
	return out
}

// claimed returns the pods rs controls that its selector matches
// (upstream's FilterClaimedPods).
func claimed(rs *api.ReplicaSet, sel api.Selector, pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if api.IsControlledBy(p, rs) && sel.Matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

// manageReplicas creates or deletes pods so that the number of active
// claimed pods, replicas, moves towards spec.replicas, at most burst per
// sync. Only a scale-down reads pods, the active claimed pods: a sync that
// counted from the aggregate has no list, and never scales down.
func (r *reconciler) manageReplicas(ctx context.Context, rs *api.ReplicaSet, replicas int32, pods []*api.Pod) error {
	key := keyOf(rs).String()
	diff := int(replicas) - int(replicasOf(rs))
	switch {
	case diff < 0:
		n := min(-diff, r.burst)
		// Expect them all before the first create: the informer may
		// deliver a pod before its create call returns.
		r.exp.ExpectCreations(key, n)
		ok, err := slowStartBatch(n, r.slow, func() error {
			err := r.createPod(ctx, rs)
			if err != nil && namespaceTerminating(err) {
				// Every create would fail: not a failure of this sync.
				return nil
			}
			return err
		})
		// Creates never attempted (or failed) will not be observed.
		for range n - ok {
			r.exp.CreationObserved(key)
		}
		return err
	case diff > 0:
		n := min(diff, r.burst)
		victims := getPodsToDelete(pods, r.relatedPods(rs), n, r.clock.Now())
		// Record which pods must go before deleting any, so that a pod is
		// counted once whether it is seen terminating or gone.
		r.exp.ExpectDeletions(key, podKeys(victims))
		var first error
		for _, p := range victims {
			if err := r.deletePodOf(ctx, rs, p.Name); err != nil {
				r.exp.DeletionObserved(key, podKey(p))
				if !errors.Is(err, apierr.ErrNotFound) && first == nil {
					first = err
				}
			}
		}
		return first
	}
	return nil
}

// slowStartBatch calls fn count times in batches of initial, 2·initial,
// 4·initial, ... calls; a batch with a failure is finished but no further
// batch starts. It returns the number of successful calls and the first
// error. Upstream runs a batch's calls in parallel; here they run one
// after another, with the same accounting.
func slowStartBatch(count, initial int, fn func() error) (int, error) {
	remaining, successes := count, 0
	for batch := min(remaining, initial); batch > 0; batch = min(2*batch, remaining) {
		var first error
		for range batch {
			if err := fn(); err != nil {
				if first == nil {
					first = err
				}
				continue
			}
			successes++
		}
		if first != nil {
			return successes, first
		}
		remaining -= batch
	}
	return successes, nil
}

// namespaceTerminating reports whether err is the API server refusing new
// content in a namespace being deleted (upstream matches the status cause
// NamespaceTerminating; this simulator's status errors carry the message
// only).
func namespaceTerminating(err error) bool {
	return errors.Is(err, apierr.ErrForbidden) && strings.Contains(err.Error(), "because it is being terminated")
}

// PodFromTemplate returns the pod a controller creates from template:
// the template's labels, annotations, finalizers and spec (deep copies),
// generateName "<parent name>-", the parent's namespace, and ref as its
// only owner reference when ref is not nil (upstream's GetPodFromTemplate).
func PodFromTemplate(template *api.PodTemplateSpec, parent api.Object, ref *api.OwnerReference) *api.Pod {
	pm := parent.GetObjectMeta()
	t := template.DeepCopy()
	p := &api.Pod{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: api.KindPod.Name},
		ObjectMeta: api.ObjectMeta{
			GenerateName: pm.Name + "-",
			Namespace:    pm.Namespace,
			Labels:       t.Labels,
			Annotations:  t.Annotations,
			Finalizers:   t.Finalizers,
		},
		Spec: t.Spec,
	}
	if ref != nil {
		p.OwnerReferences = []api.OwnerReference{*ref}
	}
	return p
}

// createPod creates one pod for rs and records the event.
func (r *reconciler) createPod(ctx context.Context, rs *api.ReplicaSet) error {
	ref := api.NewControllerRef(rs)
	p := PodFromTemplate(&rs.Spec.Template, rs, &ref)
	if len(p.Labels) == 0 {
		return ErrNoLabels
	}
	// p was built for this create alone: given away, not copied.
	name, err := client.CreateGiven(ctx, r.client, p)
	if err != nil {
		if !namespaceTerminating(err) {
			r.recorder.Eventf(rs, client.EventTypeWarning, ReasonFailedCreate, "Error creating: %v", err)
		}
		return err
	}
	r.recorder.Eventf(rs, client.EventTypeNormal, ReasonSuccessfulCreate, "Created pod: %v", name)
	return nil
}

// deletePodOf deletes pod name of rs and records the event. A pod already
// gone is returned as NotFound, without an event.
func (r *reconciler) deletePodOf(ctx context.Context, rs *api.ReplicaSet, name string) error {
	err := r.client.Delete(ctx, api.KindPod, api.Key{Namespace: rs.Namespace, Name: name})
	if err != nil {
		if errors.Is(err, apierr.ErrNotFound) {
			return err
		}
		r.recorder.Eventf(rs, client.EventTypeWarning, ReasonFailedDelete, "Error deleting: %v", err)
		return fmt.Errorf("unable to delete pods: %w", err)
	}
	r.recorder.Eventf(rs, client.EventTypeNormal, ReasonSuccessfulDelete, "Deleted pod: %v", name)
	return nil
}

// relatedPods returns the pods of every ReplicaSet controlled by the same
// owner as rs (rs included), each once: a Deployment's pods across its
// ReplicaSets, used to rank victims by how crowded their node is. A
// ReplicaSet without a controller has none.
func (r *reconciler) relatedPods(rs *api.ReplicaSet) []*api.Pod {
	ref := api.GetControllerOfNoCopy(&rs.ObjectMeta)
	if ref == nil {
		return nil
	}
	seen := map[api.UID]bool{}
	var out []*api.Pod
	for _, o := range r.rss.List(api.Everything(), rs.Namespace) {
		other, ok := o.(*api.ReplicaSet)
		if !ok {
			continue
		}
		if oref := api.GetControllerOfNoCopy(&other.ObjectMeta); oref == nil || oref.UID != ref.UID {
			continue
		}
		sel, err := api.LabelSelectorAsSelector(other.Spec.Selector)
		if err != nil {
			continue
		}
		for _, po := range r.pods.List(sel, other.Namespace) {
			p, ok := po.(*api.Pod)
			if !ok || seen[p.UID] {
				continue
			}
			seen[p.UID] = true
			out = append(out, p)
		}
	}
	return out
}

// getPodsToDelete returns the n pods of pods to delete first: all of them
// when n covers them, else the first n by ActivePodsWithRanks, each ranked
// by the number of active related pods on its node. pods is not modified.
func getPodsToDelete(pods, related []*api.Pod, n int, now time.Time) []*api.Pod {
	out := append([]*api.Pod(nil), pods...)
	if n >= len(out) {
		return out
	}
	onNode := map[string]int{}
	for _, p := range related {
		if IsPodActive(p) {
			onNode[p.Spec.NodeName]++
		}
	}
	ranks := make([]int, len(out))
	for i, p := range out {
		ranks[i] = onNode[p.Spec.NodeName]
	}
	sort.Sort(ActivePodsWithRanks{Pods: out, Rank: ranks, Now: now})
	return out[:n]
}
