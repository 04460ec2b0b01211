package crt

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrlcontroller "sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/go-logr/logr"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Builder is controller-runtime's builder (ctrl.NewControllerManagedBy)
// over the simulator: For, Owns and Watches with predicates, Named,
// WithOptions and Complete, running on the simulated manager's informers
// and work queue. Its handlers are controller-runtime's own
// (handler.EnqueueRequestForObject for For, handler.EnqueueRequestForOwner
// with OnlyControllerOwner for Owns, the given handler for Watches); the
// requests one event makes are enqueued sorted by namespace and name, so
// handlers that collect them in a map (EnqueueRequestsFromMapFunc)
// enqueue in a deterministic order.
type Builder struct {
	mgr     *Manager
	forIn   *watchInput
	owns    []watchInput
	watches []watchInput
	filters []predicate.Predicate
	name    string
	opts    ctrlcontroller.Options
	err     error
}

type watchInput struct {
	obj     client.Object
	handler handler.EventHandler
	preds   []predicate.Predicate
	// metaHandler marks controller-runtime's EnqueueRequestForObject and
	// EnqueueRequestForOwner, which read only metadata.
	metaHandler bool
}

// WatchOption configures one For, Owns or Watches.
type WatchOption func(*watchInput)

// WithPredicates filters the events of one watch (builder.WithPredicates).
func WithPredicates(preds ...predicate.Predicate) WatchOption {
	return func(w *watchInput) { w.preds = append(w.preds, preds...) }
}

// NewControllerManagedBy starts a builder of a controller of mgr.
func NewControllerManagedBy(mgr *Manager) *Builder { return &Builder{mgr: mgr} }

// For names the kind the controller reconciles: each of its objects
// enqueues a request for itself.
func (b *Builder) For(obj client.Object, opts ...WatchOption) *Builder {
	if b.forIn != nil {
		b.err = errors.Join(b.err, errors.New("crt: For called more than once"))
		return b
	}
	w := watchInput{obj: obj, handler: &handler.EnqueueRequestForObject{}, metaHandler: true}
	for _, o := range opts {
		o(&w)
	}
	b.forIn = &w
	return b
}

// Owns watches a kind the controller creates: a change enqueues the
// object's controller owner if it is of the For kind.
func (b *Builder) Owns(obj client.Object, opts ...WatchOption) *Builder {
	w := watchInput{obj: obj}
	for _, o := range opts {
		o(&w)
	}
	b.owns = append(b.owns, w)
	return b
}

// Watches watches a further kind with handler h (e.g.
// handler.EnqueueRequestsFromMapFunc).
func (b *Builder) Watches(obj client.Object, h handler.EventHandler, opts ...WatchOption) *Builder {
	w := watchInput{obj: obj, handler: h}
	for _, o := range opts {
		o(&w)
	}
	b.watches = append(b.watches, w)
	return b
}

// WithEventFilter filters the events of every watch.
func (b *Builder) WithEventFilter(p predicate.Predicate) *Builder {
	b.filters = append(b.filters, p)
	return b
}

// Named names the controller (default: the For kind in lower case).
func (b *Builder) Named(name string) *Builder {
	b.name = name
	return b
}

// WithOptions sets the controller's options. MaxConcurrentReconciles is
// its number of workers (0: the scenario's spec.controllers.<name>.workers,
// default 1). A RateLimiter, NewQueue or Reconciler is refused: the
// simulated work queue has the default controller rate limiter on virtual
// time, and client-go's token bucket reads the wall clock. The other
// options (leader election, cache sync timeout, panic recovery, name
// validation) have no effect in the simulator, which recovers panics
// always.
func (b *Builder) WithOptions(o ctrlcontroller.Options) *Builder {
	if o.RateLimiter != nil || o.NewQueue != nil || o.Reconciler != nil {
		b.err = errors.Join(b.err, fmt.Errorf("%w: controller options RateLimiter, NewQueue and Reconciler", ErrUnsupported))
	}
	b.opts = o
	return b
}

// Complete builds the controller running r and starts its watches.
func (b *Builder) Complete(r reconcile.Reconciler) error {
	if b.err != nil {
		return b.err
	}
	if b.forIn == nil {
		return errors.New("crt: For is required")
	}
	if r == nil {
		return errors.New("crt: a reconciler is required")
	}
	m := b.mgr
	forGVK, err := m.conv.GVK(b.forIn.obj)
	if err != nil {
		return err
	}
	name := b.name
	if name == "" {
		name = strings.ToLower(forGVK.Kind)
	}
	workers := b.opts.MaxConcurrentReconciles
	if workers <= 0 {
		workers = m.settings.Workers
	}
	ad := &reconciler{r: r, name: name, log: m.logger.WithValues("controller", name, "controllerGroup", forGVK.Group, "controllerKind", forGVK.Kind)}
	ctl, err := m.sim.NewController(name, controller.Options{Workers: workers}, ad)
	if err != nil {
		return err
	}
	inputs := []watchInput{*b.forIn}
	for _, o := range b.owns {
		o.handler = handler.EnqueueRequestForOwner(m.op.Scheme, m.mapper, b.forIn.obj, handler.OnlyControllerOwner())
		o.metaHandler = true
		inputs = append(inputs, o)
	}
	inputs = append(inputs, b.watches...)
	for _, w := range inputs {
		if err := b.watch(ctl, w); err != nil {
			return err
		}
	}
	return nil
}

// watch feeds one kind's informer events through the predicates and the
// handler into ctl's queue.
func (b *Builder) watch(ctl *controller.Controller, w watchInput) error {
	m := b.mgr
	gvk, err := m.conv.GVK(w.obj)
	if err != nil {
		return err
	}
	if err := m.client.served(gvk); err != nil {
		return err
	}
	inf, err := m.sim.Informer(api.Kind{Group: gvk.Group, Name: gvk.Kind}, informer.Options{})
	if err != nil {
		return err
	}
	s := &source{conv: m.conv, ctl: ctl, handler: w.handler, preds: append(slices.Clone(b.filters), w.preds...)}
	// controller-runtime's own handlers of For and Owns read an object's
	// metadata only: without predicates, events carry just that.
	s.metaOnly = len(s.preds) == 0 && w.metaHandler
	s.newObj = func() (client.Object, error) { return m.client.newLike(w.obj, gvk) }
	inf.AddEventHandler(s)
	return nil
}

// source turns one informer's events into requests, as controller-runtime's
// source.Kind does.
type source struct {
	conv     *Converter
	ctl      *controller.Controller
	handler  handler.EventHandler
	preds    []predicate.Predicate
	newObj   func() (client.Object, error)
	metaOnly bool
}

// typed converts a simulator object to the user's type. The cache's
// objects always convert (they are the simulator's own); a failure is a
// broken invariant of the adapter.
func (s *source) typed(o api.Object) client.Object {
	obj, err := s.newObj()
	if err == nil && s.metaOnly {
		setMeta(obj, o.GetObjectMeta())
		return obj
	}
	if err == nil {
		err = s.conv.FromCache(o, obj)
	}
	if err != nil {
		panic(fmt.Sprintf("crt invariant cache-object-converts: %v", err))
	}
	return obj
}

// OnAdd handles a create event.
func (s *source) OnAdd(o api.Object) {
	e := event.CreateEvent{Object: s.typed(o)}
	for _, p := range s.preds {
		if !p.Create(e) {
			return
		}
	}
	q := &batch{}
	s.handler.Create(context.Background(), e, q)
	q.flush(s.ctl)
}

// OnUpdate handles an update event (and a resync).
func (s *source) OnUpdate(old, o api.Object) {
	e := event.UpdateEvent{ObjectOld: s.typed(old), ObjectNew: s.typed(o)}
	for _, p := range s.preds {
		if !p.Update(e) {
			return
		}
	}
	q := &batch{}
	s.handler.Update(context.Background(), e, q)
	q.flush(s.ctl)
}

// OnDelete handles a delete event.
func (s *source) OnDelete(o api.Object) {
	e := event.DeleteEvent{Object: s.typed(o)}
	for _, p := range s.preds {
		if !p.Delete(e) {
			return
		}
	}
	q := &batch{}
	s.handler.Delete(context.Background(), e, q)
	q.flush(s.ctl)
}

// batch is the work queue a handler sees for one event: it collects the
// requests, and flush enqueues them sorted into the controller's queue.
type batch struct {
	now   []reconcile.Request
	later []delayed
}

type delayed struct {
	req reconcile.Request
	d   time.Duration
}

var _ workqueue.TypedRateLimitingInterface[reconcile.Request] = (*batch)(nil)

func compareRequests(a, b reconcile.Request) int {
	return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
}

// sort orders the collected requests by namespace and name (dropping
// duplicates), the delayed ones by delay first.
func (q *batch) sort() {
	slices.SortFunc(q.now, compareRequests)
	q.now = slices.Compact(q.now)
	slices.SortStableFunc(q.later, func(a, b delayed) int {
		return cmp.Or(cmp.Compare(a.d, b.d), compareRequests(a.req, b.req))
	})
}

func (q *batch) flush(ctl *controller.Controller) {
	q.sort()
	for _, r := range q.now {
		ctl.Enqueue(controller.Request{Key: api.Key{Namespace: r.Namespace, Name: r.Name}})
	}
	for _, d := range q.later {
		ctl.EnqueueAfter(controller.Request{Key: api.Key{Namespace: d.req.Namespace, Name: d.req.Name}}, d.d)
	}
}

// Add collects a request.
func (q *batch) Add(r reconcile.Request) { q.now = append(q.now, r) }

// AddAfter collects a delayed request.
func (q *batch) AddAfter(r reconcile.Request, d time.Duration) {
	if d <= 0 {
		q.Add(r)
		return
	}
	q.later = append(q.later, delayed{r, d})
}

// AddRateLimited collects a request (handlers do not use it; the
// controller's queue rate-limits retries itself).
func (q *batch) AddRateLimited(r reconcile.Request) { q.Add(r) }

// Len is the number of requests collected.
func (q *batch) Len() int { return len(q.now) + len(q.later) }

// Get is not for handlers: a batch is never worked from.
func (q *batch) Get() (reconcile.Request, bool) { return reconcile.Request{}, true }

// Done, Forget, ShutDown and ShutDownWithDrain do nothing: a batch lives
// for one event.
func (q *batch) Done(reconcile.Request)   {}
func (q *batch) Forget(reconcile.Request) {}
func (q *batch) ShutDown()                {}
func (q *batch) ShutDownWithDrain()       {}

// ShuttingDown is false.
func (q *batch) ShuttingDown() bool { return false }

// NumRequeues is 0.
func (q *batch) NumRequeues(reconcile.Request) int { return 0 }

// reconciler runs the user's reconcile.Reconciler for the simulated
// controller: controller-runtime's reconcileHandler without its wall
// clock and UUIDs.
type reconciler struct {
	r    reconcile.Reconciler
	name string
	log  logr.Logger
	n    uint64
}

// Reconcile calls the user's Reconcile with a logger in the context that
// carries the request and a reconcile ID counted per controller (the
// same in every run of a seed; controller-runtime's is a random UUID),
// and maps its Result and error: Requeue and RequeueAfter as
// controller-runtime reads them, a reconcile.TerminalError to the
// simulator's terminal error (no retry).
func (a *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	a.n++
	log := a.log.WithValues(
		"namespace", req.Namespace, "name", req.Name,
		"reconcileID", types.UID(fmt.Sprintf("%s-%d", a.name, a.n)))
	ctx = logf.IntoContext(ctx, log)
	res, err := a.r.Reconcile(ctx, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: req.Namespace, Name: req.Name}})
	if err != nil {
		if errors.Is(err, reconcile.TerminalError(nil)) {
			return controller.Result{}, controller.TerminalError(err)
		}
		return controller.Result{}, err
	}
	return controller.Result{Requeue: res.Requeue, RequeueAfter: res.RequeueAfter}, nil //nolint:staticcheck // Requeue is deprecated upstream, still honoured
}

// setMeta copies the metadata handlers read (name, namespace, uid,
// resourceVersion, generation, labels, annotations, owner references,
// deletion timestamp) without converting the rest of the object.
func setMeta(obj client.Object, m *api.ObjectMeta) {
	obj.SetNamespace(m.Namespace)
	obj.SetName(m.Name)
	obj.SetUID(types.UID(m.UID))
	obj.SetResourceVersion(m.ResourceVersion)
	obj.SetGeneration(m.Generation)
	obj.SetLabels(maps.Clone(m.Labels))
	obj.SetAnnotations(maps.Clone(m.Annotations))
	if m.DeletionTimestamp != nil {
		t := metav1.NewTime(m.DeletionTimestamp.Time)
		obj.SetDeletionTimestamp(&t)
	}
	refs := make([]metav1.OwnerReference, len(m.OwnerReferences))
	for i, r := range m.OwnerReferences {
		refs[i] = metav1.OwnerReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: types.UID(r.UID), Controller: r.Controller, BlockOwnerDeletion: r.BlockOwnerDeletion}
	}
	obj.SetOwnerReferences(refs)
}
