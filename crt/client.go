package crt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	simclient "github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Errors of the adapter.
var (
	// ErrUnsupportedField: the user's object sets a field the simulator's
	// types do not carry (strict conversion).
	ErrUnsupportedField = errors.New("crt: field not simulated")
	// ErrUnsupported: a client call or option the adapter does not
	// simulate (pagination, JSON patches, dry runs, server-side apply of
	// a subresource, subresources other than status and scale).
	ErrUnsupported = errors.New("crt: not supported by the simulator")
)

// Client is controller-runtime's client.Client over the simulator: reads
// come from the manager's informer caches (like the manager's cached
// client: an informer per kind, started on first use and waited for), and
// writes go through the simulated network and API server as the
// controller's actor. Objects cross through JSON (see Converter).
type Client struct {
	m      *controller.Manager
	conv   *Converter
	sim    simclient.Client
	mapper meta.RESTMapper
	// indexes lists the fields indexed per kind (Manager.GetFieldIndexer).
	indexes map[api.Kind][]string
}

var _ client.Client = (*Client)(nil)

func newClient(m *controller.Manager, conv *Converter, mapper meta.RESTMapper) *Client {
	return &Client{m: m, conv: conv, sim: m.Client(), mapper: mapper}
}

// lister returns the cache of kind, once it has synced: as
// controller-runtime's cache reader, it waits for that kind's informer
// only. An event handler (a map function of Watches) that reads a cache
// not synced yet cannot wait, since it runs in a watch event's callback or
// in the process applying an informer's first list: it reads the cache as
// it stands, and each object missing from it is enqueued by its own add
// event once its informer syncs.
func (c *Client) lister(kind api.Kind) (informer.Lister, error) {
	inf, err := c.m.Informer(kind, informer.Options{})
	if err != nil {
		return informer.Lister{}, err
	}
	if !c.m.WaitForSync(inf) && !c.m.Running() {
		return informer.Lister{}, fmt.Errorf("crt: the cache of %s did not sync (the controller is stopping)", kind.GroupKind())
	}
	return inf.Lister(), nil
}

// Get reads obj from the cache.
func (c *Client) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	gvk, err := c.conv.GVK(obj)
	if err != nil {
		return err
	}
	if err := c.served(gvk); err != nil {
		return err
	}
	kind := api.Kind{Group: gvk.Group, Name: gvk.Kind}
	l, err := c.lister(kind)
	if err != nil {
		return err
	}
	o, ok := l.Get(api.Key{Namespace: key.Namespace, Name: key.Name})
	if !ok {
		return apierrors.NewNotFound(c.resource(kind), key.Name)
	}
	return c.conv.FromCache(o, obj)
}

// List reads the objects of list's item kind from the cache, sorted by
// namespace and name, into a typed list, an UnstructuredList or a
// PartialObjectMetadataList. Namespaces, label selectors and field selectors of
// field=value requirements on indexed fields (IndexField; as the
// manager's cache, which serves nothing else) are served; limits and
// continue tokens are not (ErrUnsupported).
func (c *Client) List(_ context.Context, list client.ObjectList, opts ...client.ListOption) error {
	lo := (&client.ListOptions{}).ApplyOptions(opts)
	if lo.Limit != 0 || lo.Continue != "" {
		return fmt.Errorf("%w: paginated lists", ErrUnsupported)
	}
	gvk, err := c.conv.GVK(list)
	if err != nil {
		return err
	}
	gvk.Kind = strings.TrimSuffix(gvk.Kind, "List")
	if err := c.served(gvk); err != nil {
		return err
	}
	sel := api.Everything()
	if lo.LabelSelector != nil {
		if sel, err = api.ParseSelector(lo.LabelSelector.String()); err != nil {
			return fmt.Errorf("crt: label selector %q: %w", lo.LabelSelector, err)
		}
	}
	kind := api.Kind{Group: gvk.Group, Name: gvk.Kind}
	l, err := c.lister(kind)
	if err != nil {
		return err
	}
	var objs []api.Object
	if lo.FieldSelector != nil {
		if objs, err = c.byFields(l, kind, lo.FieldSelector, lo.Namespace); err != nil {
			return err
		}
		objs = slices.DeleteFunc(objs, func(o api.Object) bool { return !sel.Matches(o.GetObjectMeta().Labels) })
	} else {
		objs = l.List(sel, lo.Namespace)
	}
	items := make([]runtime.Object, 0, len(objs))
	for _, o := range objs {
		item, err := c.newLike(list, gvk)
		if err != nil {
			return err
		}
		if err := c.conv.FromCache(o, item); err != nil {
			return err
		}
		items = append(items, item)
	}
	return meta.SetList(list, items)
}

// newLike returns a new object of kind gvk in the form proto has (proto
// an object or a list): an Unstructured for an Unstructured or an
// UnstructuredList, a PartialObjectMetadata for a PartialObjectMetadata or
// a PartialObjectMetadataList, as controller-runtime's cache serves each
// (informer_cache.go, objectTypeForListObject), else the scheme's type.
// A kind the scheme has no Go type for is served in the first two forms.
func (c *Client) newLike(proto runtime.Object, gvk schema.GroupVersionKind) (client.Object, error) {
	var obj client.Object
	switch proto.(type) {
	case *unstructured.Unstructured, *unstructured.UnstructuredList:
		obj = &unstructured.Unstructured{}
	case *metav1.PartialObjectMetadata, *metav1.PartialObjectMetadataList:
		obj = &metav1.PartialObjectMetadata{}
	default:
		return c.conv.New(gvk)
	}
	obj.GetObjectKind().SetGroupVersionKind(gvk)
	return obj, nil
}

// Create creates obj and fills it in with the stored object.
func (c *Client) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	co := (&client.CreateOptions{}).ApplyOptions(opts)
	if len(co.DryRun) > 0 {
		return fmt.Errorf("%w: dry-run", ErrUnsupported)
	}
	return c.write(ctx, obj, co.FieldManager, c.sim.Create)
}

// Update replaces obj's main resource (a stale resourceVersion fails with
// a Conflict).
func (c *Client) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	uo := (&client.UpdateOptions{}).ApplyOptions(opts)
	if len(uo.DryRun) > 0 {
		return fmt.Errorf("%w: dry-run", ErrUnsupported)
	}
	return c.write(ctx, obj, uo.FieldManager, c.sim.Update)
}

func (c *Client) write(ctx context.Context, obj client.Object, fieldManager string, do func(context.Context, api.Object) (api.Object, error)) error {
	o, err := c.conv.ToSim(obj)
	if err != nil {
		return err
	}
	if fieldManager != "" {
		ctx = simclient.WithFieldManager(ctx, fieldManager)
	}
	out, err := do(ctx, o)
	if err != nil {
		return c.statusError(err, o)
	}
	return c.conv.FromCache(out, obj)
}

// Patch sends a merge or strategic merge patch of obj (client.MergeFrom,
// client.StrategicMergeFrom, client.RawPatch of those types), or obj
// itself as a server-side apply (client.Apply, with client.FieldOwner and
// optionally client.ForceOwnership), and fills obj in with the result.
func (c *Client) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return c.patch(ctx, obj, patch, "", opts)
}

func (c *Client) patch(ctx context.Context, obj client.Object, patch client.Patch, sub string, opts []client.PatchOption) error {
	po := (&client.PatchOptions{}).ApplyOptions(opts)
	if len(po.DryRun) > 0 {
		return fmt.Errorf("%w: dry-run", ErrUnsupported)
	}
	var pt simclient.PatchType
	switch patch.Type() {
	case types.ApplyPatchType:
		if sub != "" {
			return fmt.Errorf("%w: server-side apply of the %s subresource", ErrUnsupported, sub)
		}
		data, err := patch.Data(obj)
		if err != nil {
			return err
		}
		gvk, err := c.conv.GVK(obj)
		if err != nil {
			return err
		}
		out, err := c.apply(ctx, gvk, data, po.FieldManager, po.Force)
		if err != nil {
			return err
		}
		return c.conv.FromCache(out, obj)
	case types.MergePatchType:
		pt = simclient.MergePatch
	case types.StrategicMergePatchType:
		pt = simclient.StrategicMergePatch
	default:
		return fmt.Errorf("%w: patch type %s", ErrUnsupported, patch.Type())
	}
	data, err := patch.Data(obj)
	if err != nil {
		return err
	}
	kind, err := c.conv.Kind(obj)
	if err != nil {
		return err
	}
	if po.FieldManager != "" {
		ctx = simclient.WithFieldManager(ctx, po.FieldManager)
	}
	key := api.Key{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	var out api.Object
	if sub == "" {
		out, err = c.sim.Patch(ctx, kind, key, pt, data)
	} else {
		ps, ok := c.sim.(interface {
			PatchStatus(context.Context, api.Kind, api.Key, simclient.PatchType, []byte) (api.Object, error)
		})
		if !ok {
			return fmt.Errorf("%w: status patches through %T", ErrUnsupported, c.sim)
		}
		out, err = ps.PatchStatus(ctx, kind, key, pt, data)
	}
	if err != nil {
		return c.statusErrorKind(err, kind, key.Name)
	}
	return c.conv.FromCache(out, obj)
}

// Delete deletes obj with the options' propagation policy, grace period
// and preconditions.
func (c *Client) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	kind, err := c.conv.Kind(obj)
	if err != nil {
		return err
	}
	do := (&client.DeleteOptions{}).ApplyOptions(opts)
	if len(do.DryRun) > 0 {
		return fmt.Errorf("%w: dry-run", ErrUnsupported)
	}
	var sopts []simclient.DeleteOption
	if do.PropagationPolicy != nil {
		sopts = append(sopts, simclient.PropagationPolicy(simclient.Propagation(*do.PropagationPolicy)))
	}
	if do.GracePeriodSeconds != nil {
		sopts = append(sopts, simclient.GracePeriodSeconds(*do.GracePeriodSeconds))
	}
	if p := do.Preconditions; p != nil {
		var uid api.UID
		rv := ""
		if p.UID != nil {
			uid = api.UID(*p.UID)
		}
		if p.ResourceVersion != nil {
			rv = *p.ResourceVersion
		}
		sopts = append(sopts, simclient.Preconditions(uid, rv))
	}
	key := api.Key{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	if err := c.sim.Delete(ctx, kind, key, sopts...); err != nil {
		return c.statusErrorKind(err, kind, key.Name)
	}
	return nil
}

// DeleteAllOf deletes every object of obj's kind the options select,
// reading them from the cache.
func (c *Client) DeleteAllOf(ctx context.Context, obj client.Object, opts ...client.DeleteAllOfOption) error {
	dao := (&client.DeleteAllOfOptions{}).ApplyOptions(opts)
	kind, err := c.conv.Kind(obj)
	if err != nil {
		return err
	}
	sel := api.Everything()
	if dao.LabelSelector != nil {
		if sel, err = api.ParseSelector(dao.LabelSelector.String()); err != nil {
			return err
		}
	}
	if dao.FieldSelector != nil && !dao.FieldSelector.Empty() {
		return fmt.Errorf("%w: field selector %q", ErrUnsupported, dao.FieldSelector)
	}
	l, err := c.lister(kind)
	if err != nil {
		return err
	}
	for _, o := range l.List(sel, dao.Namespace) {
		m := o.GetObjectMeta()
		victim, err := c.conv.New(schema.FromAPIVersionAndKind(o.GetTypeMeta().APIVersion, kind.Name))
		if err != nil {
			return err
		}
		victim.SetNamespace(m.Namespace)
		victim.SetName(m.Name)
		if err := c.Delete(ctx, victim, &dao.DeleteOptions); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// Apply server-side applies an apply configuration (client-go's
// applyconfigurations, or client.ApplyConfigurationFromUnstructured)
// through the simulated API server's server-side apply as
// client.FieldOwner's manager (required, as upstream), taking conflicting
// fields with client.ForceOwnership, and fills obj in with the stored
// object, as controller-runtime's client does. The configuration converts
// strictly, like any write.
func (c *Client) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.ApplyOption) error {
	ao := (&client.ApplyOptions{}).ApplyOptions(opts)
	if len(ao.DryRun) > 0 {
		return fmt.Errorf("%w: dry-run", ErrUnsupported)
	}
	src, err := json.Marshal(obj)
	if err != nil {
		return fmt.Errorf("crt: encode %T: %w", obj, err)
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(src, &head); err != nil || head.APIVersion == "" || head.Kind == "" {
		return fmt.Errorf("crt: the apply configuration %T sets no apiVersion and kind", obj)
	}
	out, err := c.apply(ctx, schema.FromAPIVersionAndKind(head.APIVersion, head.Kind), src, ao.FieldManager, ao.Force)
	if err != nil {
		return err
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, obj)
}

// apply sends src, the JSON of an apply configuration of kind gvk, as a
// server-side apply.
func (c *Client) apply(ctx context.Context, gvk schema.GroupVersionKind, src []byte, fieldManager string, force *bool) (api.Object, error) {
	o, err := c.conv.toSimJSON(gvk, src)
	if err != nil {
		return nil, err
	}
	out, err := simclient.Apply(ctx, c.sim, o, fieldManager, force != nil && *force)
	if err != nil {
		return nil, c.statusError(err, o)
	}
	return out, nil
}

// Status returns the writer of the status subresource.
func (c *Client) Status() client.SubResourceWriter { return statusWriter{c} }

// SubResource returns the client of a subresource: "status" and "scale"
// are served, others fail with ErrUnsupported.
func (c *Client) SubResource(sub string) client.SubResourceClient {
	return subResource{c: c, name: sub}
}

// served fails as controller-runtime's REST mapper does (`no matches for
// kind "Tenant" in version "ops.example.com/v1"`) when the simulated API
// serves gvk's kind but not at gvk's version: the operator's Go type and
// the scenario's CustomResourceDefinition disagree. A kind not served at
// all is left to the read or write that needs it (its definition may come
// later in the run).
func (c *Client) served(gvk schema.GroupVersionKind) error {
	avs := c.m.Kinds().APIVersions(api.Kind{Group: gvk.Group, Name: gvk.Kind})
	if len(avs) == 0 || slices.Contains(avs, gvk.GroupVersion().String()) {
		return nil
	}
	return &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
}

// Scheme returns the user's scheme.
func (c *Client) Scheme() *runtime.Scheme { return c.conv.scheme }

// RESTMapper maps the scheme's kinds to the simulated API's resources.
func (c *Client) RESTMapper() meta.RESTMapper { return c.mapper }

// GroupVersionKindFor returns obj's kind from the scheme.
func (c *Client) GroupVersionKindFor(obj runtime.Object) (schema.GroupVersionKind, error) {
	return c.conv.GVK(obj)
}

// IsObjectNamespaced reports whether obj's kind is namespaced in the
// simulated API.
func (c *Client) IsObjectNamespaced(obj runtime.Object) (bool, error) {
	kind, err := c.conv.Kind(obj)
	if err != nil {
		return false, err
	}
	info, ok := c.m.Kinds().Lookup(kind)
	if !ok {
		return false, &meta.NoKindMatchError{GroupKind: schema.GroupKind{Group: kind.Group, Kind: kind.Name}}
	}
	return info.Namespaced, nil
}

// resource returns kind's group and resource, for errors.
func (c *Client) resource(kind api.Kind) schema.GroupResource {
	if info, ok := c.m.Kinds().Lookup(kind); ok {
		return schema.GroupResource{Group: kind.Group, Resource: info.Resource}
	}
	return schema.GroupResource{Group: kind.Group, Resource: strings.ToLower(kind.Name) + "s"}
}

func (c *Client) statusError(err error, o api.Object) error {
	return c.statusErrorKind(err, api.KindOf(o), o.GetObjectMeta().Name)
}

// statusErrorKind turns the simulator's status errors into apimachinery's
// (so that apierrors.IsNotFound, IsConflict, client.IgnoreNotFound work),
// keeping code, reason and message.
func (c *Client) statusErrorKind(err error, kind api.Kind, name string) error {
	var se *apierr.StatusError
	if !errors.As(err, &se) {
		return err
	}
	gr := c.resource(kind)
	st := metav1.Status{
		Status:  metav1.StatusFailure,
		Code:    int32(se.Code),
		Reason:  metav1.StatusReason(se.Reason),
		Message: se.Message,
		Details: &metav1.StatusDetails{Group: gr.Group, Kind: gr.Resource, Name: name},
	}
	for _, fe := range se.Causes {
		st.Details.Causes = append(st.Details.Causes, metav1.StatusCause{Type: metav1.CauseType(fe.Type), Message: fe.Detail, Field: fe.Field})
	}
	return &apierrors.StatusError{ErrStatus: st}
}

// statusWriter is Status(): updates and patches of the status subresource.
type statusWriter struct{ c *Client }

// Create of a subresource is not simulated.
func (w statusWriter) Create(context.Context, client.Object, client.Object, ...client.SubResourceCreateOption) error {
	return fmt.Errorf("%w: create of the status subresource", ErrUnsupported)
}

// Update replaces obj's status.
func (w statusWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	uo := (&client.SubResourceUpdateOptions{}).ApplyOptions(opts)
	if len(uo.DryRun) > 0 {
		return fmt.Errorf("%w: dry-run", ErrUnsupported)
	}
	return w.c.write(ctx, obj, uo.FieldManager, w.c.sim.UpdateStatus)
}

// Patch patches obj's status.
func (w statusWriter) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	po := (&client.SubResourcePatchOptions{}).ApplyOptions(opts)
	if po.SubResourceBody != nil {
		return fmt.Errorf("%w: a status patch with a subresource body", ErrUnsupported)
	}
	return w.c.patch(ctx, obj, patch, "status", []client.PatchOption{&po.PatchOptions})
}

// Apply of the status subresource is not simulated.
func (w statusWriter) Apply(context.Context, runtime.ApplyConfiguration, ...client.SubResourceApplyOption) error {
	return fmt.Errorf("%w: server-side apply of status", ErrUnsupported)
}

// subResource is SubResource(name): status and scale.
type subResource struct {
	c    *Client
	name string
}

func (s subResource) check() error {
	if s.name != "status" && s.name != "scale" {
		return fmt.Errorf("%w: subresource %q", ErrUnsupported, s.name)
	}
	return nil
}

// Get reads the subresource of obj from the API server (not the cache:
// controller-runtime's subresource client is not cached) into sub: the
// whole object for status, an autoscaling/v1 Scale for scale.
func (s subResource) Get(ctx context.Context, obj, sub client.Object, _ ...client.SubResourceGetOption) error {
	if err := s.check(); err != nil {
		return err
	}
	kind, err := s.c.conv.Kind(obj)
	if err != nil {
		return err
	}
	key := api.Key{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	if s.name == "scale" {
		if err := scalable(kind); err != nil {
			return err
		}
	}
	o, err := s.c.sim.Get(ctx, kind, key)
	if err != nil {
		return s.c.statusErrorKind(err, kind, key.Name)
	}
	if s.name == "scale" {
		return scaleOf(o, sub)
	}
	return s.c.conv.FromCache(o, sub)
}

// Create of a subresource is not simulated.
func (s subResource) Create(ctx context.Context, obj, sub client.Object, opts ...client.SubResourceCreateOption) error {
	return statusWriter{s.c}.Create(ctx, obj, sub, opts...)
}

// Update replaces obj's status, or sets obj's replicas from the Scale
// given with client.WithSubResourceBody (its resourceVersion, when set,
// is a precondition) and fills that Scale in with the result.
func (s subResource) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	if err := s.check(); err != nil {
		return err
	}
	if s.name == "status" {
		return statusWriter{s.c}.Update(ctx, obj, opts...)
	}
	uo := (&client.SubResourceUpdateOptions{}).ApplyOptions(opts)
	if len(uo.DryRun) > 0 {
		return fmt.Errorf("%w: dry-run", ErrUnsupported)
	}
	if uo.SubResourceBody == nil {
		return fmt.Errorf("crt: an update of the scale subresource needs its Scale (client.WithSubResourceBody)")
	}
	kind, err := s.c.conv.Kind(obj)
	if err != nil {
		return err
	}
	if err := scalable(kind); err != nil {
		return err
	}
	var scale autoscalingv1.Scale
	if err := convertJSON(uo.SubResourceBody, &scale); err != nil {
		return err
	}
	patch := map[string]any{"spec": map[string]any{"replicas": scale.Spec.Replicas}}
	if rv := scale.ResourceVersion; rv != "" {
		patch["metadata"] = map[string]any{"resourceVersion": rv}
	}
	data, err := json.Marshal(patch)
	if err != nil {
		return err
	}
	if uo.FieldManager != "" {
		ctx = simclient.WithFieldManager(ctx, uo.FieldManager)
	}
	key := api.Key{Namespace: obj.GetNamespace(), Name: obj.GetName()}
	out, err := s.c.sim.Patch(ctx, kind, key, simclient.MergePatch, data)
	if err != nil {
		return s.c.statusErrorKind(err, kind, key.Name)
	}
	return scaleOf(out, uo.SubResourceBody)
}

// Patch patches obj's status (scale patches are not simulated).
func (s subResource) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	if s.name != "status" {
		return fmt.Errorf("%w: patches of the %q subresource", ErrUnsupported, s.name)
	}
	return statusWriter{s.c}.Patch(ctx, obj, patch, opts...)
}

// Apply of a subresource is not simulated.
func (s subResource) Apply(ctx context.Context, obj runtime.ApplyConfiguration, opts ...client.SubResourceApplyOption) error {
	return statusWriter{s.c}.Apply(ctx, obj, opts...)
}

// scalable reports whether kind has a scale subresource the adapter
// serves: the simulated API server has none, so the adapter serves those
// of the built-in workloads (spec.replicas, status.replicas and a label
// selector in spec.selector) over the main resource; custom resources'
// (a CRD's subresources.scale) are not simulated.
func scalable(kind api.Kind) error {
	if kind.Group == "apps" && (kind.Name == "Deployment" || kind.Name == "ReplicaSet" || kind.Name == "StatefulSet") {
		return nil
	}
	return fmt.Errorf("%w: the scale subresource of %s", ErrUnsupported, kind.GroupKind())
}

// scaleOf fills sub in with o's autoscaling/v1 Scale, as the API
// server's scale subresource of a Deployment serves it
// (k8s.io/kubernetes pkg/registry/apps/deployment/storage
// scaleFromDeployment): identity, spec.replicas, status.replicas, and the
// selector in its string form.
func scaleOf(o api.Object, sub client.Object) error {
	var w struct {
		Spec struct {
			Replicas *int32                `json:"replicas"`
			Selector *metav1.LabelSelector `json:"selector"`
		} `json:"spec"`
		Status struct {
			Replicas int32 `json:"replicas"`
		} `json:"status"`
	}
	if err := convertJSON(o, &w); err != nil {
		return err
	}
	sel, err := metav1.LabelSelectorAsSelector(w.Spec.Selector)
	if err != nil {
		return err
	}
	m := o.GetObjectMeta()
	scale := &autoscalingv1.Scale{
		TypeMeta: metav1.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
		ObjectMeta: metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: types.UID(m.UID), ResourceVersion: m.ResourceVersion,
			CreationTimestamp: metav1.NewTime(m.CreationTimestamp.Time)},
		Status: autoscalingv1.ScaleStatus{Replicas: w.Status.Replicas, Selector: sel.String()},
	}
	if w.Spec.Replicas != nil {
		scale.Spec.Replicas = *w.Spec.Replicas
	}
	return convertJSON(scale, sub)
}

// convertJSON copies in into out through JSON.
func convertJSON(in, out any) error {
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}
