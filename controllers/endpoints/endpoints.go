package endpoints

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

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:endpoint-controller"

// Component is the source component of the controller's events.
const Component = "endpoint-controller"

// Name is the controller's name in its manager.
const Name = "endpoint-controller"

// DefaultWorkers is --concurrent-endpoint-syncs: 5.
const DefaultWorkers = 5

// Options configure the controller; zero fields take the defaults.
type Options struct {
	// Workers is the number of services synced at once (default 5).
	Workers int
	// UpdatesBatchPeriod is --endpoint-updates-batch-period: a pod change
	// syncs its Services this much later, so that the changes of other
	// pods of theirs within the period are one sync (upstream's
	// queue.AddAfter in addPod, updatePod and deletePod). 0 (the
	// default): at once.
	UpdatesBatchPeriod time.Duration
	// Observer, if set, is told of every reconcile.
	Observer controller.Observer
}

// lister is what the reconciler reads from informer caches.
type lister interface {
	Get(key api.Key) (api.Object, bool)
	List(sel api.Selector, namespace string) []api.Object
}

// reconciler syncs the Endpoints of one service per request (upstream's
// syncService).
type reconciler struct {
	client    client.Client
	recorder  client.EventRecorder
	services  lister
	pods      lister
	endpoints lister
	// memos holds, per Service, what its last sync took from its pods
	// (memo.go); made on first use.
	memos map[api.Key]*serviceMemo
	// stale holds, per Endpoints, the resourceVersion this incarnation's
	// last update replaced (upstream's staleEndpointsTracker): a cache
	// still showing it is behind the controller's own write.
	stale map[api.Key]string
}

// Setup registers the Endpoints controller with m: informers on
// Services, Pods and Endpoints; a service is synced when it changes, when
// a pod it selects (or selected) changes in a way that matters, and when
// its Endpoints are deleted.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	svcInf, err := m.Informer(api.KindService, informer.Options{})
	if err != nil {
		return err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	epInf, err := m.Informer(api.KindEndpoints, informer.Options{})
	if err != nil {
		return err
	}
	r := &reconciler{client: m.Client(), recorder: m.Recorder(Component), services: svcInf.Lister(), pods: podInf.Lister(), endpoints: epInf.Lister()}
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers, Observer: opts.Observer}, r)
	if err != nil {
		return err
	}
	c.Watch(svcInf, controller.EnqueueObject())
	podInf.AddEventHandler(PodHandler(r.services, func(k api.Key) {
		c.EnqueueBatched(controller.Request{Key: k}, opts.UpdatesBatchPeriod)
	}))
	// A deleted Endpoints object is put back if its service still exists.
	epInf.AddEventHandler(informer.HandlerFuncs{DeleteFunc: func(obj api.Object) {
		c.Enqueue(controller.Request{Key: obj.GetObjectMeta().Key()})
	}})
	return nil
}

// ServiceLister is what PodHandler reads: the Services of a namespace.
type ServiceLister interface {
	List(sel api.Selector, namespace string) []api.Object
}

// PodHandler returns the pod event handlers of the endpoints and
// EndpointSlice controllers (upstream's addPod, updatePod and deletePod,
// which both controllers have alike): a pod added or deleted enqueues
// the services selecting it; an update enqueues those selecting it
// before and after when its labels changed, else those selecting it when
// PodChanged. A resync (the same object) enqueues nothing.
func PodHandler(services ServiceLister, enqueue func(api.Key)) informer.HandlerFuncs {
	each := func(p *api.Pod) {
		for _, k := range ServicesOf(services, p) {
			enqueue(k)
		}
	}
	return informer.HandlerFuncs{
		AddFunc: func(obj api.Object) {
			if p, ok := obj.(*api.Pod); ok {
				each(p)
			}
		},
		UpdateFunc: func(old, obj api.Object) {
			o, ok1 := old.(*api.Pod)
			p, ok2 := obj.(*api.Pod)
			if !ok1 || !ok2 || o == p {
				return // a resync: nothing changed
			}
			if !api.EqualEntries(o.Labels, p.Labels) {
				each(o)
				each(p)
				return
			}
			if PodChanged(o, p) {
				each(p)
			}
		},
		DeleteFunc: func(obj api.Object) {
			if p, ok := obj.(*api.Pod); ok {
				each(p)
			}
		},
	}
}

// ServicesOf returns the keys of the services of p's namespace whose
// selector matches p (upstream's GetPodServiceMemberships), in name
// order. A service without a selector selects nothing.
func ServicesOf(services ServiceLister, p *api.Pod) []api.Key {
	var out []api.Key
	for _, o := range services.List(api.Everything(), p.Namespace) {
		svc, ok := o.(*api.Service)
		if ok && svc.Spec.Selector != nil && api.SelectorFromSet(svc.Spec.Selector).Matches(p.Labels) {
			out = append(out, svc.Key())
		}
	}
	return out
}

// PodChanged reports whether an update can change the pod's endpoint, for
// the endpoints and EndpointSlice controllers both (upstream's
// podEndpointsChanged, which they share): readiness, deletion, IPs;
// labels are handled by the caller. Upstream's leaves out the rest,
// immutable or set before the pod has an IP; here the node, hostname,
// subdomain, phase, UID and container ports count too, so that a change
// to any field an endpoint is built from syncs (a pod that fails before
// it was ever ready leaves the endpoints at once).
func PodChanged(o, p *api.Pod) bool {
	if api.IsPodReady(o) != api.IsPodReady(p) || (o.DeletionTimestamp == nil) != (p.DeletionTimestamp == nil) {
		return true
	}
	if o.Status.PodIP != p.Status.PodIP || len(o.Status.PodIPs) != len(p.Status.PodIPs) {
		return true
	}
	for i := range o.Status.PodIPs {
		if o.Status.PodIPs[i] != p.Status.PodIPs[i] {
			return true
		}
	}
	return o.Spec.NodeName != p.Spec.NodeName || o.Spec.Hostname != p.Spec.Hostname ||
		o.Spec.Subdomain != p.Spec.Subdomain || o.Status.Phase != p.Status.Phase || o.UID != p.UID ||
		!portsEqual(o, p)
}

// portsEqual compares the pods' container ports (named targetPorts
// resolve through them).
func portsEqual(o, p *api.Pod) bool {
	if len(o.Spec.Containers) != len(p.Spec.Containers) {
		return false
	}
	for i := range o.Spec.Containers {
		a, b := o.Spec.Containers[i].Ports, p.Spec.Containers[i].Ports
		if len(a) != len(b) {
			return false
		}
		for j := range a {
			if a[j] != b[j] {
				return false
			}
		}
	}
	return true
}

// Reconcile makes the Endpoints of the service req names match its pods.
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	o, ok := r.services.Get(req.Key)
	svc, isSvc := o.(*api.Service)
	if !ok || !isSvc || svc.Spec.Type == api.ServiceTypeExternalName || svc.Spec.Selector == nil {
		delete(r.memos, req.Key)
	}
	if !ok || !isSvc {
		// The service is gone: so are its endpoints.
		delete(r.stale, req.Key)
		err := r.client.Delete(ctx, api.KindEndpoints, req.Key)
		if err != nil && !errors.Is(err, apierr.ErrNotFound) {
			return controller.Result{}, err
		}
		return controller.Result{}, nil
	}
	if svc.Spec.Type == api.ServiceTypeExternalName || svc.Spec.Selector == nil {
		// ExternalName services have no endpoints; services without a
		// selector have endpoints managed by someone else.
		return controller.Result{}, nil
	}
	sel := api.SelectorFromSet(svc.Spec.Selector)
	var pods []*api.Pod
	for _, po := range r.pods.List(sel, svc.Namespace) {
		if p, ok := po.(*api.Pod); ok {
			pods = append(pods, p)
		}
	}
	subsets := r.subsets(req.Key, svc, pods)
	truncated := Truncate(subsets)

	var current *api.Endpoints
	if eo, ok := r.endpoints.Get(req.Key); ok {
		current, _ = eo.(*api.Endpoints)
	}
	create := current == nil
	if !create && r.stale[req.Key] == current.ResourceVersion {
		// The cache has not caught up with this controller's last
		// update: wait for it rather than write over what it replaced.
		return controller.Result{}, fmt.Errorf("endpoints informer cache is out of date, resource version %s already processed for endpoints %s", current.ResourceVersion, req.Key)
	}
	if create {
		current = &api.Endpoints{
			TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: api.KindEndpoints.Name},
			ObjectMeta: api.ObjectMeta{Name: svc.Name, Namespace: svc.Namespace},
		}
	}
	labels := maps.Clone(svc.Labels)
	if svc.Spec.ClusterIP == "None" {
		if labels == nil {
			labels = map[string]string{}
		}
		labels[LabelHeadless] = ""
	}
	if !create && subsetsEqual(current.Subsets, subsets) && maps.Equal(current.Labels, labels) &&
		(current.Annotations[AnnotationOverCapacity] == "truncated") == truncated {
		return controller.Result{}, nil // nothing to do
	}
	next := current.DeepCopy()
	next.Subsets = subsets
	next.Labels = labels
	if truncated {
		if next.Annotations == nil {
			next.Annotations = map[string]string{}
		}
		next.Annotations[AnnotationOverCapacity] = "truncated"
	} else {
		delete(next.Annotations, AnnotationOverCapacity)
		if len(next.Annotations) == 0 {
			next.Annotations = nil
		}
	}
	var err error
	var updated api.Object
	if create {
		_, err = r.client.Create(ctx, next)
	} else {
		updated, err = r.client.Update(ctx, next)
	}
	if err == nil {
		// An update that moved the resourceVersion leaves the one it
		// replaced behind: the cache showing it again is stale. (A no-op
		// update returns the same one.)
		if updated != nil && updated.GetObjectMeta().ResourceVersion != current.ResourceVersion {
			if r.stale == nil {
				r.stale = map[api.Key]string{}
			}
			r.stale[req.Key] = current.ResourceVersion
		}
		return controller.Result{}, nil
	}
	if create && errors.Is(err, apierr.ErrForbidden) && strings.Contains(err.Error(), "because it is being terminated") {
		// The namespace is terminating: creates will keep failing.
		return controller.Result{}, nil
	}
	if create {
		r.recorder.Eventf(next, client.EventTypeWarning, "FailedToCreateEndpoint", "Failed to create endpoint for service %v/%v: %v", svc.Namespace, svc.Name, err)
	} else {
		r.recorder.Eventf(next, client.EventTypeWarning, "FailedToUpdateEndpoint", "Failed to update endpoint %v/%v: %v", svc.Namespace, svc.Name, err)
	}
	return controller.Result{}, err
}

// subsets is Subsets(svc, pods) through the Service's memo.
func (r *reconciler) subsets(key api.Key, svc *api.Service, pods []*api.Pod) []api.EndpointSubset {
	m := informer.MemoOf(&r.memos, key)
	m.update(svc, pods)
	if ss, _, _, ok := m.subsets(); ok {
		return ss
	}
	ss, _, _ := repackedSubsets(svc, pods)
	return ss
}

// subsetsEqual compares subsets as they would be serialized, so that nil
// and empty lists and the server's defaults do not cause writes.
func subsetsEqual(a, b []api.EndpointSubset) bool {
	// Field by field, each equal as its JSON is (every list of a subset
	// is omitempty: nil and empty are the same; a pointer differs from
	// nil whatever it points to). Encoding both was a third of a
	// 900-pod Service's sync.
	return slices.EqualFunc(a, b, func(x, y api.EndpointSubset) bool {
		return slices.EqualFunc(x.Addresses, y.Addresses, addressEqual) &&
			slices.EqualFunc(x.NotReadyAddresses, y.NotReadyAddresses, addressEqual) &&
			slices.EqualFunc(x.Ports, y.Ports, func(p, q api.EndpointPort) bool {
				return p.Name == q.Name && p.Port == q.Port && p.Protocol == q.Protocol && PtrEqual(p.AppProtocol, q.AppProtocol)
			})
	})
}

func addressEqual(a, b api.EndpointAddress) bool {
	return a.IP == b.IP && a.Hostname == b.Hostname && PtrEqual(a.NodeName, b.NodeName) && PtrEqual(a.TargetRef, b.TargetRef)
}

// PtrEqual reports whether a and b are both nil or point to equal values.
func PtrEqual[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
