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
}

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
	// A managed slice someone deleted is replaced (upstream's
	// onEndpointSliceDelete).
	infs[api.KindEndpointSlice].AddEventHandler(informer.HandlerFuncs{DeleteFunc: func(obj api.Object) {
		s, ok := obj.(*api.EndpointSlice)
		if ok && s.Labels[api.LabelManagedBy] == ManagedBy && s.Labels[api.LabelServiceName] != "" {
			c.Enqueue(controller.Request{Key: api.Key{Namespace: s.Namespace, Name: s.Labels[api.LabelServiceName]}})
		}
	}})
	return nil
}

// Reconcile makes the EndpointSlices of the service req names match its
// pods (upstream's syncService).
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	o, ok := r.services.Get(req.Key)
	svc, isSvc := o.(*api.Service)
	if !ok || !isSvc || svc.Spec.Type == api.ServiceTypeExternalName || svc.Spec.Selector == nil {
		delete(r.memos, req.Key)
	}
	if !ok || !isSvc {
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
		if s, ok := so.(*api.EndpointSlice); ok {
			existing = append(existing, s)
		}
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
			if _, err := r.client.Create(ctx, s); err != nil {
				if errors.Is(err, apierr.ErrForbidden) && strings.Contains(err.Error(), "because it is being terminated") {
					return nil // the namespace is terminating: creates keep failing
				}
				return fmt.Errorf("failed to create EndpointSlice for Service %s/%s: %w", svc.Namespace, svc.Name, err)
			}
		}
	}
	for _, s := range plan.Update {
		if _, err := r.client.Update(ctx, s); err != nil {
			return fmt.Errorf("failed to update %s EndpointSlice for Service %s/%s: %w", s.Name, svc.Namespace, svc.Name, err)
		}
	}
	for _, s := range plan.Delete {
		if err := r.client.Delete(ctx, api.KindEndpointSlice, s.Key()); err != nil && !errors.Is(err, apierr.ErrNotFound) {
			return fmt.Errorf("failed to delete %s EndpointSlice for Service %s/%s: %w", s.Name, svc.Namespace, svc.Name, err)
		}
	}
	return nil
}
