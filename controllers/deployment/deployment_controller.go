package deployment

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity kube-controller-manager runs the controller as.
const Actor = "system:serviceaccount:kube-system:deployment-controller"

// Component is source.component of the controller's events.
const Component = "deployment-controller"

// Name is the controller's name in its manager (its work queue's name
// upstream); worker processes are "<manager>/deployment/worker-<i>".
const Name = "deployment"

// Defaults of Options.
const (
	// DefaultWorkers is kube-controller-manager's
	// --concurrent-deployment-syncs, 5.
	DefaultWorkers = 5
	// DefaultMaxRetries is how many times in a row a failing Deployment is
	// retried with back-off (5ms, 10ms, ... 82s) before it is dropped from
	// the queue until its next event, as upstream's maxRetries, 15.
	DefaultMaxRetries = 15
)

// Options configure the controller.
type Options struct {
	// Workers is the number of Deployments synced at once; 0 means
	// DefaultWorkers.
	Workers int
	// MaxRetries is how many failed syncs in a row a Deployment gets before
	// it is dropped from the queue; 0 means DefaultMaxRetries, a negative
	// value retries forever.
	MaxRetries int
	// Observer, if set, is told of every reconcile (for measurement); nil
	// means the manager's observer.
	Observer controller.Observer
}

// cache reads an informer's cache; informer.Lister is one. Objects it
// returns are shared: never mutate them.
type cache interface {
	Get(key api.Key) (api.Object, bool)
	List(sel api.Selector, namespace string) []api.Object
	// ByIndex lists the objects filed under value in index name, in
	// namespace/name order; pods are indexed by informer.IndexController.
	ByIndex(name, value string) []api.Object
}

// reconciler is the Deployment controller: its caches, its client and
// what it remembers between syncs (failure counts, which a crash forgets).
type reconciler struct {
	client      client.Client
	recorder    client.EventRecorder
	clock       client.PassiveClock
	deployments cache
	replicaSets cache
	pods        cache
	// enqueue adds a Deployment's key to the work queue (the event
	// handlers' only action); enqueueRateLimited adds it after the
	// queue's rate limiter's delay (upstream's enqueueRateLimited).
	enqueue            func(key api.Key)
	enqueueRateLimited func(key api.Key)
	maxRetries         int
	failures           map[api.Key]int
}

// pass is one sync of one Deployment: the reconciler plus the requeue this
// sync asks for (a stuck rollout is checked again at its deadline).
type pass struct {
	*reconciler
	ctx context.Context
	// requeueAfter, when positive, asks for another sync after it.
	requeueAfter time.Duration
	// newRS is the last answer of findNewReplicaSet.
	newRS newRSMemo
}

// newRSMemo is FindNewReplicaSet's answer (rs, nil for none) for
// Deployment d (the sync's own copy) and ReplicaSets list. A sync asks
// for the same one up to four times: isScalingEvent and the rollout
// each call getAllReplicaSetsAndSyncRevision, which finds it through
// FindOldReplicaSets and again in getNewReplicaSet; each answer compares
// d's pod template with every ReplicaSet's, reflectively (0.96 s of a
// 5,000-node probe's CPU profile). The answer depends only on d's
// template and the list's ReplicaSets, which the cache never changes in
// place: the memo is the answer while d is the same copy and the list
// holds the same objects, unless d's template was replaced
// (forgetTemplate, after a rollback's SetFromReplicaSetTemplate).
type newRSMemo struct {
	d    *api.Deployment // nil: nothing remembered
	list []*api.ReplicaSet
	rs   *api.ReplicaSet
}

// findNewReplicaSet is FindNewReplicaSet(d, rsList), remembered for the
// sync (newRSMemo).
func (p *pass) findNewReplicaSet(d *api.Deployment, rsList []*api.ReplicaSet) *api.ReplicaSet {
	if m := &p.newRS; m.d == d && d != nil && slices.Equal(m.list, rsList) {
		return m.rs
	}
	rs := FindNewReplicaSet(d, rsList)
	p.newRS = newRSMemo{d: d, list: slices.Clone(rsList), rs: rs}
	return rs
}

// forgetTemplate drops the memo of findNewReplicaSet: d's template has
// changed.
func (p *pass) forgetTemplate() { p.newRS = newRSMemo{} }

// Setup registers the Deployment controller with m: informers on
// Deployments, ReplicaSets and Pods, event handlers that enqueue the
// Deployment concerned, and opts.Workers workers.
func Setup(m *controller.Manager, opts Options) error {
	dInf, err := m.Informer(api.KindDeployment, informer.Options{})
	if err != nil {
		return err
	}
	rsInf, err := m.Informer(api.KindReplicaSet, informer.Options{})
	if err != nil {
		return err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	// The pods of a Deployment are read by their ReplicaSet's UID, never by
	// listing the namespace.
	podInf.AddIndex(informer.IndexController, informer.ByController)
	r := newReconciler(m.Client(), m.Recorder(Component), m.Clock(), dInf.Lister(), rsInf.Lister(), podInf.Lister(), opts)
	workers := opts.Workers
	if workers <= 0 {
		workers = DefaultWorkers
	}
	c, err := m.NewController(Name, controller.Options{Workers: workers, Observer: opts.Observer}, r)
	if err != nil {
		return err
	}
	r.enqueue = func(key api.Key) { c.Enqueue(controller.Request{Key: key}) }
	r.enqueueRateLimited = func(key api.Key) { c.EnqueueRateLimited(controller.Request{Key: key}) }
	dInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc:    r.addDeployment,
		UpdateFunc: r.updateDeployment,
		DeleteFunc: r.deleteDeployment,
	})
	rsInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc:    r.addReplicaSet,
		UpdateFunc: r.updateReplicaSet,
		DeleteFunc: r.deleteReplicaSet,
	})
	podInf.AddEventHandler(informer.HandlerFuncs{DeleteFunc: r.deletePod})
	return nil
}

func newReconciler(c client.Client, rec client.EventRecorder, clock client.PassiveClock, deployments, replicaSets, pods cache, opts Options) *reconciler {
	maxRetries := opts.MaxRetries
	if maxRetries == 0 {
		maxRetries = DefaultMaxRetries
	}
	return &reconciler{
		client:             c,
		recorder:           rec,
		clock:              clock,
		deployments:        deployments,
		replicaSets:        replicaSets,
		pods:               pods,
		enqueue:            func(api.Key) {},
		enqueueRateLimited: func(api.Key) {},
		maxRetries:         maxRetries,
		failures:           map[api.Key]int{},
	}
}

// Reconcile syncs the Deployment req names and files the outcome as
// upstream's handleErr does: success forgets the failures; an error is
// retried with back-off up to MaxRetries times in a row, then the
// Deployment is dropped (a terminal error) until its next event.
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	p := &pass{reconciler: r, ctx: ctx}
	err := p.syncDeployment(req.Key)
	if err == nil || isNamespaceTerminating(err) {
		delete(r.failures, req.Key)
		return p.result(), nil
	}
	if r.maxRetries < 0 || r.failures[req.Key] < r.maxRetries {
		r.failures[req.Key]++
		return controller.Result{}, err
	}
	delete(r.failures, req.Key)
	return controller.Result{}, controller.TerminalError(err)
}

// result is the requeue the pass asked for.
func (p *pass) result() controller.Result {
	if p.requeueAfter > 0 {
		return controller.Result{RequeueAfter: p.requeueAfter}
	}
	return controller.Result{}
}

// isNamespaceTerminating reports whether err is the API server refusing
// to create in a terminating namespace: every later create would fail
// too, so the Deployment is not retried.
func isNamespaceTerminating(err error) bool {
	return errors.Is(err, apierr.ErrForbidden) && strings.Contains(err.Error(), "because it is being terminated")
}

// ---- event handlers (they only enqueue) ----

func (r *reconciler) addDeployment(obj api.Object) { r.enqueueObject(obj) }

func (r *reconciler) updateDeployment(_, cur api.Object) { r.enqueueObject(cur) }

// deleteDeployment enqueues the key; the sync then finds nothing to do.
func (r *reconciler) deleteDeployment(obj api.Object) { r.enqueueObject(obj) }

func (r *reconciler) enqueueObject(obj api.Object) { r.enqueue(obj.GetObjectMeta().Key()) }

// addReplicaSet enqueues the Deployment controlling a new ReplicaSet, or
// every Deployment that could adopt an orphan.
func (r *reconciler) addReplicaSet(obj api.Object) {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return
	}
	if rs.DeletionTimestamp != nil {
		// After a restart an object may first show up already being
		// deleted.
		r.deleteReplicaSet(rs)
		return
	}
	if ref := api.GetControllerOfNoCopy(&rs.ObjectMeta); ref != nil {
		if d := r.resolveControllerRef(rs.Namespace, ref); d != nil {
			r.enqueueObject(d)
		}
		return
	}
	for _, d := range r.getDeploymentsForReplicaSet(rs) {
		r.enqueueObject(d)
	}
}

// updateReplicaSet enqueues the Deployments a ReplicaSet change concerns:
// the old and the new controller when the controller reference changed,
// the controller, or for an orphan whose labels or owner changed every
// Deployment that could adopt it. Resyncs (same resourceVersion) are
// ignored.
func (r *reconciler) updateReplicaSet(old, cur api.Object) {
	curRS, ok1 := cur.(*api.ReplicaSet)
	oldRS, ok2 := old.(*api.ReplicaSet)
	if !ok1 || !ok2 || curRS.ResourceVersion == oldRS.ResourceVersion {
		return
	}
	curRef := api.GetControllerOfNoCopy(&curRS.ObjectMeta)
	oldRef := api.GetControllerOfNoCopy(&oldRS.ObjectMeta)
	refChanged := !api.SameControllerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if d := r.resolveControllerRef(oldRS.Namespace, oldRef); d != nil {
			r.enqueueObject(d)
		}
	}
	if curRef != nil {
		if d := r.resolveControllerRef(curRS.Namespace, curRef); d != nil {
			r.enqueueObject(d)
		}
		return
	}
	if refChanged || !maps.Equal(curRS.Labels, oldRS.Labels) {
		for _, d := range r.getDeploymentsForReplicaSet(curRS) {
			r.enqueueObject(d)
		}
	}
}

// deleteReplicaSet enqueues the Deployment that controlled a deleted
// ReplicaSet; orphans concern nobody.
func (r *reconciler) deleteReplicaSet(obj api.Object) {
	rs, ok := obj.(*api.ReplicaSet)
	if !ok {
		return
	}
	ref := api.GetControllerOfNoCopy(&rs.ObjectMeta)
	if ref == nil {
		return
	}
	if d := r.resolveControllerRef(rs.Namespace, ref); d != nil {
		r.enqueueObject(d)
	}
}

// deletePod enqueues a Recreate Deployment once its last pod is gone, so
// that the new ReplicaSet is scaled up without waiting for another event.
// Upstream lists the ReplicaSets through the API here; a handler must not
// block, so the cache is used instead.
func (r *reconciler) deletePod(obj api.Object) {
	pod, ok := obj.(*api.Pod)
	if !ok {
		return
	}
	d := r.getDeploymentForPod(pod)
	if d == nil || d.Spec.Strategy.Type != api.RecreateDeploymentStrategyType {
		return
	}
	rsList, err := ListReplicaSets(d, r.listReplicaSetsFunc)
	if err != nil {
		return
	}
	podMap, err := r.getPodMapForDeployment(d, rsList)
	if err != nil {
		return
	}
	n := 0
	for _, pods := range podMap {
		n += len(pods)
	}
	if n == 0 {
		r.enqueueObject(d)
	}
}

// getDeploymentForPod returns the Deployment controlling the ReplicaSet
// that controls pod, from the caches, or nil.
func (r *reconciler) getDeploymentForPod(pod *api.Pod) *api.Deployment {
	ref := api.GetControllerOfNoCopy(&pod.ObjectMeta)
	if ref == nil || ref.Kind != api.KindReplicaSet.Name {
		return nil
	}
	obj, ok := r.replicaSets.Get(api.Key{Namespace: pod.Namespace, Name: ref.Name})
	if !ok {
		return nil
	}
	rs, ok := obj.(*api.ReplicaSet)
	if !ok || rs.UID != ref.UID {
		return nil
	}
	rsRef := api.GetControllerOfNoCopy(&rs.ObjectMeta)
	if rsRef == nil {
		return nil
	}
	return r.resolveControllerRef(rs.Namespace, rsRef)
}

// resolveControllerRef returns the cached Deployment a controller reference
// names, if its uid matches, or nil.
func (r *reconciler) resolveControllerRef(namespace string, ref *api.OwnerReference) *api.Deployment {
	d, _ := informer.ResolveControllerRef[*api.Deployment](r.deployments, api.KindDeployment, namespace, ref)
	return d
}

// getDeploymentsForReplicaSet returns the cached Deployments that could
// adopt rs (their selector matches its labels), or nil.
func (r *reconciler) getDeploymentsForReplicaSet(rs *api.ReplicaSet) []*api.Deployment {
	ds, err := GetDeploymentsForReplicaSet(r.listDeployments(rs.Namespace), rs)
	if err != nil {
		return nil
	}
	return ds
}

// ---- cache reads ----

func (r *reconciler) listDeployments(namespace string) []*api.Deployment {
	return typed[*api.Deployment](r.deployments.List(api.Everything(), namespace))
}

func (r *reconciler) listReplicaSets(namespace string, sel api.Selector) []*api.ReplicaSet {
	return typed[*api.ReplicaSet](r.replicaSets.List(sel, namespace))
}

// listReplicaSetsFunc is listReplicaSets as an RSListFunc.
func (r *reconciler) listReplicaSetsFunc(namespace string, sel api.Selector) ([]*api.ReplicaSet, error) {
	return r.listReplicaSets(namespace, sel), nil
}

// typed keeps the objects of type T, in order.
func typed[T api.Object](objs []api.Object) []T {
	out := make([]T, 0, len(objs))
	for _, o := range objs {
		if t, ok := o.(T); ok {
			out = append(out, t)
		}
	}
	return out
}

// getPodMapForDeployment returns the cached pods d's selector matches,
// grouped by the uid of the ReplicaSet of rsList that controls them (every
// ReplicaSet of rsList has an entry), each group in name order. Inactive
// pods are kept: Recreate must see every old pod gone. The pods are read
// from the controller index, one ReplicaSet at a time.
func (r *reconciler) getPodMapForDeployment(d *api.Deployment, rsList []*api.ReplicaSet) (map[api.UID][]*api.Pod, error) {
	sel, err := api.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, err
	}
	podMap := make(map[api.UID][]*api.Pod, len(rsList))
	for _, rs := range rsList {
		if _, done := podMap[rs.UID]; done {
			continue
		}
		pods := []*api.Pod{}
		for _, o := range r.pods.ByIndex(informer.IndexController, string(rs.UID)) {
			if pod, ok := o.(*api.Pod); ok && pod.Namespace == d.Namespace && sel.Matches(pod.Labels) {
				pods = append(pods, pod)
			}
		}
		podMap[rs.UID] = pods
	}
	return podMap, nil
}

// ---- sync ----

// syncDeployment syncs one Deployment, in upstream's order: empty selector,
// deletion, pause conditions, paused, rollback, scaling event, then the
// strategy's rollout step.
func (p *pass) syncDeployment(key api.Key) error {
	obj, ok := p.deployments.Get(key)
	if !ok {
		return nil // deleted: nothing to do
	}
	cached, ok := obj.(*api.Deployment)
	if !ok {
		return nil
	}
	// The cache is shared: work on a copy.
	d := cached.DeepCopy()

	if s := d.Spec.Selector; s != nil && len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0 {
		p.recorder.Eventf(d, client.EventTypeWarning, SelectingAllReason, "This deployment is selecting all pods. A non-empty selector is required.")
		if d.Status.ObservedGeneration < d.Generation {
			d.Status.ObservedGeneration = d.Generation
			// Upstream ignores the outcome of this write.
			_, _ = p.client.UpdateStatus(p.ctx, d)
		}
		return nil
	}

	// The ReplicaSets this Deployment owns, adopting and releasing as
	// needed.
	rsList, err := p.getReplicaSetsForDeployment(d)
	if err != nil {
		return err
	}
	// The pods of those ReplicaSets, for Recreate's "old pods gone" check.
	// Upstream lists them on every sync; only Recreate reads them, so
	// they are gathered there (the selector, whose error upstream returns
	// here, is still parsed here).
	if _, err := api.LabelSelectorAsSelector(d.Spec.Selector); err != nil {
		return err
	}
	if d.DeletionTimestamp != nil {
		return p.syncStatusOnly(d, rsList)
	}
	// An Unknown Progressing condition on pause and resume keeps a
	// resumed Deployment from timing out for the time it was paused.
	if err := p.checkPausedConditions(d); err != nil {
		return err
	}
	if d.Spec.Paused {
		return p.sync(d, rsList)
	}
	// A rollback is not re-entrant: it must finish (and clear the request)
	// before ReplicaSets are touched.
	if getRollbackTo(d) != nil {
		return p.rollback(d, rsList)
	}
	scalingEvent, err := p.isScalingEvent(d, rsList)
	if err != nil {
		return err
	}
	if scalingEvent {
		return p.sync(d, rsList)
	}
	switch d.Spec.Strategy.Type {
	case api.RecreateDeploymentStrategyType:
		podMap, err := p.getPodMapForDeployment(d, rsList)
		if err != nil {
			return err
		}
		return p.rolloutRecreate(d, rsList, podMap)
	case api.RollingUpdateDeploymentStrategyType:
		return p.rolloutRolling(d, rsList)
	}
	return fmt.Errorf("%w: unexpected deployment strategy type: %s", ErrUnknownStrategy, d.Spec.Strategy.Type)
}

// withNew returns a new slice of oldRSs followed by newRS (which may be
// nil), so that later changes to either slice cannot alias.
func withNew(oldRSs []*api.ReplicaSet, newRS *api.ReplicaSet) []*api.ReplicaSet {
	return append(slices.Clone(oldRSs), newRS)
}

// now returns the controller's current time.
func (r *reconciler) now() time.Time { return r.clock.Now() }
