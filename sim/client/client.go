package client

import (
	"context"
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/flowcontrol"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// Reader reads objects from the API server (controller-runtime's
// client.Reader, returning objects since ours are interfaces). Controllers
// usually read from an informer's Lister instead; a Reader call costs a
// round trip.
type Reader interface {
	// Get returns the object of kind with key, a deep copy the caller may
	// mutate, or a *apierr.StatusError (NotFound, Forbidden, Timeout, ...).
	Get(ctx context.Context, kind api.Kind, key api.Key) (api.Object, error)
	// List returns the objects of kind that match opts, sorted by
	// namespace and name, with the resourceVersion of the list.
	List(ctx context.Context, kind api.Kind, opts ...ListOption) (*List, error)
}

// Writer changes objects (controller-runtime's client.Writer). Every
// method deep-copies its input before sending and returns the server's
// result as a deep copy.
type Writer interface {
	// Create creates obj and returns it as stored (uid, resourceVersion,
	// defaults, generated name filled in).
	Create(ctx context.Context, obj api.Object) (api.Object, error)
	// Update replaces the main resource of obj (its status is ignored);
	// a stale resourceVersion fails with Conflict.
	Update(ctx context.Context, obj api.Object) (api.Object, error)
	// UpdateStatus replaces the status subresource of obj (its spec is
	// ignored).
	UpdateStatus(ctx context.Context, obj api.Object) (api.Object, error)
	// Patch applies a merge or strategic merge patch to the object of kind
	// with key.
	Patch(ctx context.Context, kind api.Kind, key api.Key, pt PatchType, data []byte) (api.Object, error)
	// Delete deletes the object of kind with key. An object held by
	// finalizers or a grace period is only marked for deletion.
	Delete(ctx context.Context, kind api.Kind, key api.Key, opts ...DeleteOption) error
}

// Client reads and writes objects through a Transport, as one actor.
type Client interface {
	Reader
	Writer
	// Actor returns the authenticated user every request carries, e.g.
	// "system:serviceaccount:kube-system:deployment-controller".
	Actor() string
}

// List is the result of a list call.
type List struct {
	// Items are the matching objects, sorted by namespace and name.
	Items []api.Object
	// ResourceVersion is the store's resourceVersion when the list was
	// served; a watch from it misses nothing.
	ResourceVersion uint64
}

// PatchType is the format of a patch body. It mirrors the API server's
// formats so that controllers need not import the server.
type PatchType uint8

// The patch formats.
const (
	// MergePatch is an RFC 7386 JSON merge patch: objects merge, null
	// deletes a key, lists are replaced whole.
	MergePatch PatchType = iota + 1
	// StrategicMergePatch is Kubernetes' strategic merge patch: like
	// MergePatch, but lists of objects with a merge key (containers by
	// name, conditions by type, ...) merge element by element.
	StrategicMergePatch
)

// String returns the patch's content type.
func (t PatchType) String() string {
	switch t {
	case MergePatch:
		return "application/merge-patch+json"
	case StrategicMergePatch:
		return "application/strategic-merge-patch+json"
	}
	return fmt.Sprintf("PatchType(%d)", uint8(t))
}

func (t PatchType) server() apiserver.PatchType {
	switch t {
	case MergePatch:
		return apiserver.MergePatch
	case StrategicMergePatch:
		return apiserver.StrategicMergePatch
	}
	return 0
}

// listOptions collect ListOption values.
type listOptions struct {
	namespace string
	labels    api.Selector
	hasLabels bool
	nodeName  string
}

// ListOption narrows a list (controller-runtime's client.ListOption).
type ListOption func(*listOptions)

// InNamespace limits a list to namespace ns; "" means every namespace.
func InNamespace(ns string) ListOption { return func(o *listOptions) { o.namespace = ns } }

// MatchingLabels selects objects carrying every label of set.
func MatchingLabels(set map[string]string) ListOption {
	sel := api.SelectorFromSet(set)
	return MatchingSelector(sel)
}

// MatchingSelector selects objects whose labels sel matches.
func MatchingSelector(sel api.Selector) ListOption {
	return func(o *listOptions) { o.labels, o.hasLabels = sel, true }
}

// MatchingNodeName selects pods bound to node name (the field selector
// spec.nodeName=<name>); for other kinds it selects nothing.
func MatchingNodeName(name string) ListOption {
	return func(o *listOptions) { o.nodeName = name }
}

// deleteOptions collect DeleteOption values.
type deleteOptions = store.DeleteOptions

// DeleteOption sets a delete's policy or preconditions (controller-runtime's
// client.DeleteOption).
type DeleteOption func(*deleteOptions)

// Propagation is a delete's cascading policy (metav1.DeletionPropagation).
type Propagation string

// The cascading policies; without PropagationPolicy the kind's default,
// background, applies.
const (
	// Background deletes the owner at once; the garbage collector deletes
	// its dependents later.
	Background Propagation = "Background"
	// Foreground keeps the owner, marked for deletion, until its blocking
	// dependents are gone.
	Foreground Propagation = "Foreground"
	// Orphan deletes the owner and leaves its dependents without it.
	Orphan Propagation = "Orphan"
)

// PropagationPolicy sets the delete's cascading policy.
func PropagationPolicy(p Propagation) DeleteOption {
	return func(o *deleteOptions) { o.Propagation = store.Propagation(p) }
}

// GracePeriodSeconds overrides a pod's terminationGracePeriodSeconds; 0
// deletes at once.
func GracePeriodSeconds(s int64) DeleteOption {
	return func(o *deleteOptions) { o.GracePeriodSeconds = &s }
}

// Preconditions makes the delete fail with Conflict unless the stored
// object has this uid and, when resourceVersion is not empty, this
// resourceVersion.
func Preconditions(uid api.UID, resourceVersion string) DeleteOption {
	return func(o *deleteOptions) {
		o.PreconditionUID = uid
		o.PreconditionResourceVersion = resourceVersion
	}
}

// DefaultRequestTimeout is how long a request may take before the client
// gives up with a Timeout error: 10s, client-go's usual rest config
// timeout for controllers.
const DefaultRequestTimeout = 10 * time.Second

// Options configure a Client.
type Options struct {
	// RequestTimeout bounds each request, from sending it to its reply;
	// 0 means DefaultRequestTimeout. It reaches transports that implement
	// TimeoutTransport (the network transport); a transport without it
	// (Direct) answers at once or applies its own configured timeout.
	RequestTimeout time.Duration
	// QPS and Burst pace the client's requests with a token bucket, as
	// client-go's rest.Config does (flowcontrol.NewTokenBucketRateLimiter):
	// Burst requests at once, then QPS a second; a request over the
	// budget waits in virtual time before it is sent. QPS 0 means
	// unpaced. Burst below 1 with a positive QPS means 1.
	// kube-controller-manager's defaults are 20 and 30
	// (--kube-api-qps, --kube-api-burst; k8s.io/controller-manager
	// config/v1alpha1/defaults.go), each controller with its own client.
	QPS   float64
	Burst int
	// Paced, when set with a positive QPS, is told of every request the
	// token bucket lets through, with how long it waited for its token
	// (0: at once), before it is sent: the runner counts client-side
	// throttling per actor with it, as client-go logs "Waited for ... due
	// to client-side throttling" (k8s.io/client-go rest/request.go).
	Paced func(wait time.Duration)
}

// TimeoutTransport is a Transport that bounds a request by a timeout the
// caller chooses. The Client uses DoTimeout when its transport has it, so
// each client's RequestTimeout applies to its own calls.
type TimeoutTransport interface {
	Transport
	// DoTimeout is Do with a timeout: after timeout of virtual time
	// without a reply, p resumes with an apierr Timeout response.
	DoTimeout(p *kernel.Process, req *apiserver.Request, timeout time.Duration) *apiserver.Response
}

// client is the Client over a Transport.
type client struct {
	k       *kernel.Kernel
	t       Transport
	timed   TimeoutTransport
	actor   string
	timeout time.Duration
	bucket  *TokenBucket
	paced   func(wait time.Duration)
}

var _ Client = (*client)(nil)

// TokenBucket is the token bucket a paced client takes a token from
// for each request (flowcontrol.TokenBucket).
type TokenBucket = flowcontrol.TokenBucket

// NewTokenBucket returns a full bucket of burst tokens refilled at qps a
// second (flowcontrol.NewTokenBucket).
func NewTokenBucket(qps float64, burst int, now kernel.Time) *TokenBucket {
	return flowcontrol.NewTokenBucket(qps, burst, now)
}

// New returns a Client that sends requests through t as actor, blocking
// the calling kernel process (k.Current()) until each reply. Calling it
// outside a process is a bug and panics.
func New(k *kernel.Kernel, t Transport, actor string, opts Options) Client {
	c := &client{k: k, t: t, actor: actor, timeout: opts.RequestTimeout}
	if c.timeout <= 0 {
		c.timeout = DefaultRequestTimeout
	}
	c.timed, _ = t.(TimeoutTransport)
	if opts.QPS > 0 {
		c.bucket = NewTokenBucket(opts.QPS, opts.Burst, k.Now())
		c.paced = opts.Paced
	}
	return c
}

// Actor returns the identity every request carries.
func (c *client) Actor() string { return c.actor }

// Kinds returns the kinds the API server serves, custom ones included:
// the transport's discovery when it has one, else the built-in kinds. It
// makes every Client of this package a Discovery.
func (c *client) Kinds() *api.Registry {
	if d, ok := c.t.(Discovery); ok && d.Kinds() != nil {
		return d.Kinds()
	}
	return api.Builtin()
}

// do sends req as the client's actor from the running process.
func (c *client) do(req *apiserver.Request) *apiserver.Response {
	p := c.k.Current()
	if p == nil {
		panic(fmt.Sprintf("client invariant in-process: %s %s called by %q outside a kernel process", req.Verb, req.Kind, c.actor))
	}
	req.Actor = c.actor
	if c.bucket != nil {
		wait := c.bucket.Reserve(c.k.Now())
		if c.paced != nil {
			c.paced(wait)
		}
		if wait > 0 {
			p.Sleep(wait)
		}
	}
	if c.timed != nil {
		return c.timed.DoTimeout(p, req, c.timeout)
	}
	return c.t.Do(p, req)
}

// single finishes a call that returns one object: the error, or a copy of
// the server's (shared) object.
func single(resp *apiserver.Response) (api.Object, error) {
	if resp.Err != nil {
		return nil, resp.Err
	}
	if resp.Object == nil {
		return nil, nil
	}
	return resp.Object.DeepCopyObject(), nil
}

// Get sends a get and returns a copy of the object.
func (c *client) Get(_ context.Context, kind api.Kind, key api.Key) (api.Object, error) {
	return single(c.do(&apiserver.Request{Verb: apiserver.Get, Kind: kind, Namespace: key.Namespace, Name: key.Name}))
}

// List sends a list and returns copies of the objects.
func (c *client) List(_ context.Context, kind api.Kind, opts ...ListOption) (*List, error) {
	var o listOptions
	for _, f := range opts {
		f(&o)
	}
	req := &apiserver.Request{Verb: apiserver.List, Kind: kind, Namespace: o.namespace}
	req.ListOptions.NodeName = o.nodeName
	if o.hasLabels {
		sel := o.labels
		req.ListOptions.Labels = &sel
	}
	resp := c.do(req)
	if resp.Err != nil {
		return nil, resp.Err
	}
	l := &List{Items: make([]api.Object, len(resp.Items)), ResourceVersion: resp.ResourceVersion}
	for i, o := range resp.Items {
		l.Items[i] = o.DeepCopyObject()
	}
	return l, nil
}

// body builds a write request around a copy of obj, or fails with
// BadRequest for a missing object.
func body(verb apiserver.Verb, obj api.Object, sub string) (*apiserver.Request, error) {
	if obj == nil {
		return nil, apierr.NewBadRequest(fmt.Sprintf("%s needs an object", verb))
	}
	cp := statusBody(obj, sub)
	if cp == nil {
		cp = copyBody(obj)
	}
	return request(verb, obj, sub, cp), nil
}

// request builds a write request of obj that sends cp, obj's copy or
// obj itself.
func request(verb apiserver.Verb, obj api.Object, sub string, cp api.Object) *apiserver.Request {
	m := obj.GetObjectMeta()
	if tm := cp.GetTypeMeta(); tm.APIVersion == "" || tm.Kind == "" {
		// A serializer always writes apiVersion and kind, even for
		// objects built in code without them.
		tm.APIVersion, tm.Kind = typeOf(obj)
	}
	return &apiserver.Request{
		Verb:        verb,
		Kind:        api.KindOf(obj),
		Namespace:   m.Namespace,
		Name:        m.Name,
		Subresource: sub,
		Object:      cp,
	}
}

// statusBody returns the body of a status write of a pod or node, or nil
// for other writes. The server stores nothing of such a write but its
// status (the status strategies' ResetObjectMetaForStatus; the store's
// withStatusOf): it reads the name, namespace, resourceVersion and uid,
// and sets apiVersion, kind and a missing namespace in the body's own
// metadata. So only the status is copied deep; the metadata's maps and
// lists and the spec stay shared with obj, never written. Pod and node
// status writes are a third of a cluster's writes (the kubelets').
func statusBody(obj api.Object, sub string) api.Object {
	if sub != "status" {
		return nil
	}
	switch o := obj.(type) {
	case *api.Pod:
		cp := *o
		o.Status.DeepCopyInto(&cp.Status)
		return &cp
	case *api.Node:
		cp := *o
		o.Status.DeepCopyInto(&cp.Status)
		return &cp
	}
	return nil
}

// copyBody returns a deep copy of obj for a create or update, but for
// its managedFields, shared with obj: the server never reads a request's
// managedFields (the store computes them from the stored object's and
// the write's changes, the audit diff leaves them out) and replaces them
// before it stores the object. It saves copying every entry with its
// time and field set on the updates written most with managedFields: a
// lease renewal's body was half managedFields, and the ReplicaSet and
// Deployment controllers' status writes keep their metadata.
func copyBody(obj api.Object) api.Object {
	switch o := obj.(type) {
	case *api.Lease:
		src := *o
		src.ManagedFields = nil
		cp := src.DeepCopy()
		cp.ManagedFields = o.ManagedFields
		return cp
	case *api.ReplicaSet:
		src := *o
		src.ManagedFields = nil
		cp := src.DeepCopy()
		cp.ManagedFields = o.ManagedFields
		return cp
	case *api.Deployment:
		src := *o
		src.ManagedFields = nil
		cp := src.DeepCopy()
		cp.ManagedFields = o.ManagedFields
		return cp
	}
	return obj.DeepCopyObject()
}

// typeOf returns the apiVersion and kind of obj: its TypeMeta's, or those
// its Go type is served at.
func typeOf(obj api.Object) (apiVersion, kind string) {
	tm := obj.GetTypeMeta()
	if tm.APIVersion != "" && tm.Kind != "" {
		return tm.APIVersion, tm.Kind
	}
	k := api.KindOf(obj)
	if _, v1 := obj.(*api.HorizontalPodAutoscalerV1); v1 {
		return "autoscaling/v1", k.Name
	}
	if info, ok := api.Lookup(k); ok {
		return info.APIVersion(), k.Name
	}
	return tm.APIVersion, tm.Kind
}

func (c *client) write(ctx context.Context, verb apiserver.Verb, obj api.Object, sub string) (api.Object, error) {
	req, err := body(verb, obj, sub)
	if err != nil {
		return nil, err
	}
	req.FieldManager = FieldManagerFrom(ctx)
	return single(c.do(req))
}

// ownedCreator is a Client that can create an object its caller gives
// away.
type ownedCreator interface {
	createOwned(ctx context.Context, obj api.Object) (string, error)
}

// createOwned sends obj itself to be created and returns the created
// object's name, read from the server's (shared) reply without a copy:
// for a caller that built obj for this write alone and never reads or
// changes it again, so neither obj nor the stored object needs a copy.
func (c *client) createOwned(ctx context.Context, obj api.Object) (string, error) {
	if obj == nil {
		return "", apierr.NewBadRequest(fmt.Sprintf("%s needs an object", apiserver.Create))
	}
	req := request(apiserver.Create, obj, "", obj)
	req.FieldManager = FieldManagerFrom(ctx)
	resp := c.do(req)
	if resp.Err != nil {
		return "", resp.Err
	}
	if resp.Object == nil {
		return "", nil
	}
	return resp.Object.GetObjectMeta().Name, nil
}

// CreateGiven creates obj, which the caller gives away, and returns the
// created object's name (the server's choice when obj has only a
// generateName). The caller must not read or change obj after the call,
// whatever it returns: a Client of this package sends obj itself, which
// the server may keep as the stored object, and copies nothing back,
// where Create copies obj on the way out and the stored object on the
// way back. It is what a controller that builds a pod from its template
// for one create wants (the ReplicaSet, DaemonSet and Job controllers):
// two pod copies fewer per pod. Other Clients get a Create.
func CreateGiven(ctx context.Context, c Client, obj api.Object) (string, error) {
	if oc, ok := c.(ownedCreator); ok {
		return oc.createOwned(ctx, obj)
	}
	created, err := c.Create(ctx, obj)
	if err != nil || created == nil {
		return "", err
	}
	return created.GetObjectMeta().Name, nil
}

// Create sends a copy of obj to be created.
func (c *client) Create(ctx context.Context, obj api.Object) (api.Object, error) {
	return c.write(ctx, apiserver.Create, obj, "")
}

// Update sends a copy of obj to replace the stored main resource.
func (c *client) Update(ctx context.Context, obj api.Object) (api.Object, error) {
	return c.write(ctx, apiserver.Update, obj, "")
}

// UpdateStatus sends a copy of obj to replace the stored status.
func (c *client) UpdateStatus(ctx context.Context, obj api.Object) (api.Object, error) {
	return c.write(ctx, apiserver.Update, obj, "status")
}

// Patch sends a copy of data as a patch of the given type.
func (c *client) Patch(ctx context.Context, kind api.Kind, key api.Key, pt PatchType, data []byte) (api.Object, error) {
	return c.patch(ctx, kind, key, pt, data, "")
}

// PatchStatus sends a copy of data as a patch of the status subresource
// (controller-runtime's Status().Patch): only the status of the patched
// object is stored. It is not part of Client, whose other implementers
// need not have it; adapters find it with a type assertion.
func (c *client) PatchStatus(ctx context.Context, kind api.Kind, key api.Key, pt PatchType, data []byte) (api.Object, error) {
	return c.patch(ctx, kind, key, pt, data, "status")
}

func (c *client) patch(ctx context.Context, kind api.Kind, key api.Key, pt PatchType, data []byte, sub string) (api.Object, error) {
	spt := pt.server()
	if spt == 0 {
		return nil, apierr.NewBadRequest(fmt.Sprintf("unsupported patch type %s", pt))
	}
	return single(c.do(&apiserver.Request{
		Verb:         apiserver.Patch,
		Kind:         kind,
		Namespace:    key.Namespace,
		Name:         key.Name,
		Subresource:  sub,
		Patch:        append([]byte(nil), data...),
		PatchType:    spt,
		FieldManager: FieldManagerFrom(ctx),
	}))
}

// Delete sends a delete with the options applied.
func (c *client) Delete(_ context.Context, kind api.Kind, key api.Key, opts ...DeleteOption) error {
	req := &apiserver.Request{Verb: apiserver.Delete, Kind: kind, Namespace: key.Namespace, Name: key.Name}
	for _, f := range opts {
		f(&req.DeleteOptions)
	}
	return c.do(req).Err
}

// Evicter is a Client that can create a pod's eviction subresource (POST
// pods/<name>/eviction, client-go's EvictV1).
type Evicter interface {
	// Evict asks the API server to evict the pod ev names: a 429
	// TooManyRequests when a disruption budget forbids it.
	Evict(ctx context.Context, ev *api.Eviction) error
}

// Evict sends an eviction of the pod ev names through c, which must be an
// Evicter (every Client this package returns is).
func Evict(ctx context.Context, c Client, ev *api.Eviction) error {
	e, ok := c.(Evicter)
	if !ok {
		return apierr.NewBadRequest(fmt.Sprintf("client %T cannot create evictions", c))
	}
	return e.Evict(ctx, ev)
}

// Evict creates the eviction subresource of the pod ev names.
func (c *client) Evict(_ context.Context, ev *api.Eviction) error {
	cp := ev.DeepCopy()
	cp.APIVersion, cp.Kind = "policy/v1", "Eviction"
	return c.createPodSubresource(ev.Namespace, ev.Name, "eviction", cp)
}

// createPodSubresource creates the subresource sub of pod namespace/name
// with body, the caller's own copy.
func (c *client) createPodSubresource(namespace, name, sub string, body api.Object) error {
	return c.do(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindPod, Namespace: namespace, Name: name, Subresource: sub, Object: body}).Err
}

// Binder is a Client that can create a pod's binding subresource (POST
// pods/<name>/binding, client-go's Pods(ns).Bind).
type Binder interface {
	// Bind asks the API server to assign the pod b names to the node
	// b.Target names: a 409 Conflict when the pod is bound already, is
	// terminating or has scheduling gates, or its uid is not b's.
	Bind(ctx context.Context, b *api.Binding) error
}

// Bind sends a binding of the pod b names through c, which must be a
// Binder (every Client this package returns is).
func Bind(ctx context.Context, c Client, b *api.Binding) error {
	bd, ok := c.(Binder)
	if !ok {
		return apierr.NewBadRequest(fmt.Sprintf("client %T cannot create bindings", c))
	}
	return bd.Bind(ctx, b)
}

// Bind creates the binding subresource of the pod b names.
func (c *client) Bind(_ context.Context, b *api.Binding) error {
	cp := b.DeepCopy()
	cp.APIVersion, cp.Kind = "v1", "Binding"
	return c.createPodSubresource(b.Namespace, b.Name, apiserver.BindingSubresource, cp)
}
