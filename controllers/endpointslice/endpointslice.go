package endpointslice

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/endpoints"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:endpointslice-controller"

// Component is the source component of the controller's events.
const Component = "endpoint-slice-controller"

// Name is the controller's name in its manager.
const Name = "endpointslice-controller"

// RetryLimits are the EndpointSlice controller's work queue's: client-go's
// default shape with a first retry of 1s (defaultSyncBackOff) instead of
// 5ms, doubling up to 1000s (maxSyncBackOff), and the default 10 qps,
// burst 100 overall, "to help ensure that the Controller does not
// overwhelm the API Server" (pkg/controller/endpointslice, NewController).
var RetryLimits = workqueue.Limits{BaseDelay: time.Second, MaxDelay: 1000 * time.Second, QPS: 10, Burst: 100}

// DefaultWorkers is --concurrent-service-endpoint-syncs: 5.
const DefaultWorkers = 5

// Options configure the controller; zero fields take the defaults.
type Options struct {
	// Workers is the number of services synced at once (default 5).
	Workers int
	// MaxEndpointsPerSlice is --max-endpoints-per-slice (default 100).
	MaxEndpointsPerSlice int
	// UpdatesBatchPeriod is --endpointslice-updates-batch-period: a pod
	// change syncs its Services this much later, so that the changes of
	// other pods of theirs within the period are one sync (upstream's
	// queue.AddAfter in its pod handlers). 0 (the default): at once.
	UpdatesBatchPeriod time.Duration
	// Observer, if set, is told of every reconcile.
	Observer controller.Observer
}

// lister is what the reconciler reads from informer caches.
type lister interface {
	Get(key api.Key) (api.Object, bool)
	List(sel api.Selector, namespace string) []api.Object
}

type reconciler struct {
	client   client.Client
	recorder client.EventRecorder
	services lister
	pods     lister
	slices   lister
	nodes    lister
	max      int
	// memos holds, per Service, what its last sync made of its pods
	// (memo.go); made on first use (serviceMemo).
	memos map[api.Key]*serviceMemo
	// track is the generation of each slice this incarnation wrote.
	track tracker
}

// endpointSliceChangeMinSyncDelay is how long after a change of one of
// its slices by someone else a Service is synced at the soonest (the
// batch period when longer), so that the changes of several slices are
// one sync (upstream's).
const endpointSliceChangeMinSyncDelay = time.Second

// ErrStaleCache is a sync's error when the controller's cache of a
// Service's slices is behind its own writes (upstream's
// NewStaleInformerCache): the sync is retried after the queue's backoff.
var ErrStaleCache = errors.New("EndpointSlice informer cache is out of date")

// Setup registers the EndpointSlice controller with m: informers on
// Services, Pods, EndpointSlices and Nodes; a service is synced when it
// changes, when a pod it selects (or selected) changes in a way that
// matters, and when one of its slices is deleted.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	if opts.MaxEndpointsPerSlice <= 0 {
		opts.MaxEndpointsPerSlice = DefaultMaxEndpointsPerSlice
	}
	infs := map[api.Kind]*informer.Informer{}
	for _, k := range []api.Kind{api.KindService, api.KindPod, api.KindEndpointSlice, api.KindNode} {
		inf, err := m.Informer(k, informer.Options{})
		if err != nil {
			return err
		}
		infs[k] = inf
	}
	r := &reconciler{client: m.Client(), recorder: m.Recorder(Component), services: infs[api.KindService].Lister(),
		pods: infs[api.KindPod].Lister(), slices: infs[api.KindEndpointSlice].Lister(), nodes: infs[api.KindNode].Lister(), max: opts.MaxEndpointsPerSlice}
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers, Observer: opts.Observer, Limits: &RetryLimits}, r)
	if err != nil {
		return err
	}
	c.Watch(infs[api.KindService], controller.EnqueueObject())
	infs[api.KindPod].AddEventHandler(endpoints.PodHandler(r.services, func(k api.Key) {
		c.EnqueueBatched(controller.Request{Key: k}, opts.UpdatesBatchPeriod)
	}))
	// A managed slice someone else made, changed or deleted syncs its
	// Service again, a little later; the events of the controller's own
	// writes do not (upstream's onEndpointSliceAdd, Update and Delete).
	delay := max(endpointSliceChangeMinSyncDelay, opts.UpdatesBatchPeriod)
	queue := func(s *api.EndpointSlice) {
		if key, ok := serviceOf(s); ok {
			c.EnqueueAfter(controller.Request{Key: key}, delay)
		}
	}
	infs[api.KindEndpointSlice].AddEventHandler(informer.HandlerFuncs{
		AddFunc: func(obj api.Object) {
			if s, ok := obj.(*api.EndpointSlice); ok && managed(s) && r.track.shouldSync(s) {
				queue(s)
			}
		},
		UpdateFunc: func(old, cur api.Object) {
			o, _ := old.(*api.EndpointSlice)
			s, ok := cur.(*api.EndpointSlice)
			if ok && o != nil && (managed(o) != managed(s) || managed(s) && r.track.shouldSync(s)) {
				queue(s)
			}
		},
		DeleteFunc: func(obj api.Object) {
			if s, ok := obj.(*api.EndpointSlice); ok && managed(s) && r.track.has(s) && !r.track.handleDeletion(s) {
				queue(s)
			}
		},
	})
	return nil
}

// managed reports whether this controller manages s.
func managed(s *api.EndpointSlice) bool { return s.Labels[api.LabelManagedBy] == ManagedBy }

// Reconcile makes the EndpointSlices of the service req names match its
// pods (upstream's syncService).
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	o, ok := r.services.Get(req.Key)
	svc, isSvc := o.(*api.Service)
	if !ok || !isSvc || svc.Spec.Type == api.ServiceTypeExternalName || svc.Spec.Selector == nil {
		delete(r.memos, req.Key)
	}
	if !ok || !isSvc {
		r.track.deleteService(req.Key)
		return controller.Result{}, nil // the garbage collector deletes the slices it owned
	}
	if svc.Spec.Type == api.ServiceTypeExternalName || svc.Spec.Selector == nil {
		return controller.Result{}, nil
	}
	var pods []*api.Pod
	for _, po := range r.pods.List(api.SelectorFromSet(svc.Spec.Selector), svc.Namespace) {
		if p, ok := po.(*api.Pod); ok {
			pods = append(pods, p)
		}
	}
	var existing []*api.EndpointSlice
	sel := api.SelectorFromSet(map[string]string{api.LabelServiceName: svc.Name, api.LabelManagedBy: ManagedBy})
	for _, so := range r.slices.List(sel, svc.Namespace) {
		// Slices being deleted are left out, so that one held by a
		// finalizer does not hold the controller up.
		if s, ok := so.(*api.EndpointSlice); ok && s.DeletionTimestamp == nil {
			existing = append(existing, s)
		}
	}
	if r.track.stale(req.Key, existing) {
		return controller.Result{}, ErrStaleCache
	}
	node := func(name string) *api.Node {
		if no, ok := r.nodes.Get(api.Key{Name: name}); ok {
			n, _ := no.(*api.Node)
			return n
		}
		return nil
	}
	plan := informer.MemoOf(&r.memos, req.Key).reconcile(svc, pods, node, existing, r.max)
	if err := r.write(ctx, svc, plan); err != nil {
		r.recorder.Eventf(svc, client.EventTypeWarning, "FailedToUpdateEndpointSlices", "Error updating Endpoint Slices for Service %s/%s: %v", svc.Namespace, svc.Name, err)
		return controller.Result{}, err
	}
	return controller.Result{}, nil
}

// write is upstream's finalize: creates (not for a service being
// deleted), updates, then deletes.
func (r *reconciler) write(ctx context.Context, svc *api.Service, plan Plan) error {
	if svc.DeletionTimestamp == nil {
		for _, s := range plan.Create {
			created, err := r.client.Create(ctx, s)
			if err != nil {
				if errors.Is(err, apierr.ErrForbidden) && strings.Contains(err.Error(), "because it is being terminated") {
					return nil // the namespace is terminating: creates keep failing
				}
				return fmt.Errorf("failed to create EndpointSlice for Service %s/%s: %w", svc.Namespace, svc.Name, err)
			}
			if c, ok := created.(*api.EndpointSlice); ok {
				r.track.update(c)
			}
		}
	}
	for _, s := range plan.Update {
		updated, err := r.client.Update(ctx, s)
		if err != nil {
			return fmt.Errorf("failed to update %s EndpointSlice for Service %s/%s: %w", s.Name, svc.Namespace, svc.Name, err)
		}
		if u, ok := updated.(*api.EndpointSlice); ok {
			r.track.update(u)
		}
	}
	for _, s := range plan.Delete {
		r.track.expectDeletion(s)
		if err := r.client.Delete(ctx, api.KindEndpointSlice, s.Key()); err != nil && !errors.Is(err, apierr.ErrNotFound) {
			return fmt.Errorf("failed to delete %s EndpointSlice for Service %s/%s: %w", s.Name, svc.Namespace, svc.Name, err)
		}
	}
	return nil
}
