// Package configset is an example operator built around a custom
// resource, written the way an outside module writes one against
// clustersim's public API. The custom resource is a ConfigSet
// (configsets.example.com/v1, defined by testdata/configsets-crd.yaml): a
// set of string entries in spec.data. For each ConfigSet the operator
// keeps a ConfigMap <name>-config holding those entries, owned by the
// ConfigSet so that the garbage collector removes it with the ConfigSet,
// and reports in the ConfigSet's status the ConfigMap's name and the
// generation it reflects. It reads through informer caches, converts the
// custom resource to its Go type through JSON (api.Unstructured.Into),
// and writes through a client whose calls can time out, like any
// controller-runtime operator.
//
// Besides the correct operator it comes in three deliberately broken
// variants, one per bug class that tools such as Sieve find in real
// operators (see Flaw), and registers all four with the harness in its
// init function:
//
//   - configset: the correct operator;
//   - configset-stale: acts on a stale cache (an update without
//     resourceVersion, computed from a cached ConfigMap that may lag, wipes
//     a user's newer edit);
//   - configset-orphans: sets no ownerReference, so a deleted ConfigSet's
//     ConfigMap leaks;
//   - configset-dup: creates its ConfigMap with generateName and records
//     the name in a second write, so a lost reply or a crash between the
//     two writes leaves two ConfigMaps.
//
// docs/testing-your-controller.md walks through finding each with
// harness.Test, shrinking the failing schedule and fixing it.
package configset

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/clustersim/clustersim/harness"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Kind is the custom resource's kind: group example.com, served at
// example.com/v1 once testdata/configsets-crd.yaml is loaded.
var Kind = api.Kind{Group: "example.com", Name: "ConfigSet"}

// APIVersion is the version the operator reads and writes ConfigSets in.
const APIVersion = "example.com/v1"

// ConfigSet is the custom resource as a Go type; it converts to and from
// the store's *api.Unstructured through JSON.
type ConfigSet struct {
	api.TypeMeta
	api.ObjectMeta `json:"metadata"`
	Spec           Spec   `json:"spec"`
	Status         Status `json:"status,omitempty"`
}

// Spec is what a user declares.
type Spec struct {
	// Data are the entries the ConfigMap must hold (it may hold others:
	// users add their own).
	Data map[string]string `json:"data"`
}

// Status is what the operator reports.
type Status struct {
	// ConfigMap names the ConfigSet's ConfigMap once it holds Data.
	ConfigMap string `json:"configMap,omitempty"`
	// ObservedGeneration is the generation of the spec ConfigMap holds.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}

// Decode converts a ConfigSet as the store serves it (an
// *api.Unstructured) to its Go type.
func Decode(o api.Object) (*ConfigSet, error) {
	u, ok := o.(*api.Unstructured)
	if !ok {
		return nil, fmt.Errorf("configset: got a %T, want *api.Unstructured", o)
	}
	cs := &ConfigSet{}
	if err := u.Into(cs); err != nil {
		return nil, fmt.Errorf("configset %s/%s: %w", u.Namespace, u.Name, err)
	}
	return cs, nil
}

// Annotations and labels the operator reads and writes.
const (
	// OwnerLabel on a ConfigMap names the ConfigSet it is for.
	OwnerLabel = "configset.example.com/owner"
	// NameAnnotation is where configset-dup records the generated name
	// of a ConfigSet's ConfigMap.
	NameAnnotation = "configset.example.com/configmap"
	// Suffix makes a ConfigSet's ConfigMap name: <configset>-config.
	Suffix = "-config"
)

// Flaw is the bug a variant has; the zero value has none.
type Flaw int

// The variants.
const (
	// Correct updates with the cached resourceVersion (a conflict is
	// retried with back-off), creates under a fixed name (AlreadyExists
	// means a previous try got through) and owns what it creates.
	Correct Flaw = iota
	// StaleCache updates without a resourceVersion: last write wins, and
	// its write is computed from a cached ConfigMap that may be seconds
	// behind, so a user's newer edit to the ConfigMap is lost.
	StaleCache
	// NoOwnerReference creates ConfigMaps without an ownerReference: the
	// garbage collector never removes them.
	NoOwnerReference
	// NonIdempotentCreate creates with generateName and then records the
	// generated name on the ConfigSet: a lost reply or a crash between
	// the two writes makes the next reconcile create a second ConfigMap.
	NonIdempotentCreate
)

// Names are the registered controllers' names, by flaw.
var Names = map[Flaw]string{
	Correct:             "configset",
	StaleCache:          "configset-stale",
	NoOwnerReference:    "configset-orphans",
	NonIdempotentCreate: "configset-dup",
}

func init() {
	for _, f := range []Flaw{Correct, StaleCache, NoOwnerReference, NonIdempotentCreate} {
		harness.MustRegister(Definition(f))
	}
}

// Definition is the controller with flaw f: it reconciles ConfigSets and
// owns ConfigMaps.
func Definition(f Flaw) harness.Controller {
	def := harness.Controller{
		Name: Names[f],
		For:  Kind,
		Owns: []api.Kind{api.KindConfigMap},
		// configset-orphans sets no owner, so ConfigMaps also map back to
		// their ConfigSet by label.
		Watches: []harness.Watch{{Kind: api.KindConfigMap, Map: byOwnerLabel}},
		New: func(m *controller.Manager) (controller.Reconciler, error) {
			sets, err := m.Informer(Kind, informer.Options{})
			if err != nil {
				return nil, err
			}
			cms, err := m.Informer(api.KindConfigMap, informer.Options{})
			if err != nil {
				return nil, err
			}
			return &Reconciler{Client: m.Client(), ConfigSets: sets.Lister(), ConfigMaps: cms.Lister(), Flaw: f}, nil
		},
	}
	if f == NonIdempotentCreate {
		// It finds its ConfigMap through the ConfigSet's annotation, so
		// only ConfigSets' changes matter to it (it still reads
		// ConfigMaps from a cache, made in New).
		def.Owns, def.Watches = nil, nil
	}
	return def
}

// byOwnerLabel maps a ConfigMap to the ConfigSet its OwnerLabel names.
func byOwnerLabel(o api.Object) []controller.Request {
	m := o.GetObjectMeta()
	if name := m.Labels[OwnerLabel]; name != "" {
		return []controller.Request{{Key: api.Key{Namespace: m.Namespace, Name: name}}}
	}
	return nil
}

// Reconciler keeps one ConfigSet's ConfigMap and status.
type Reconciler struct {
	Client                 client.Client
	ConfigSets, ConfigMaps informer.Lister
	Flaw                   Flaw
}

// Reconcile creates, adopts or corrects the ConfigMap of the ConfigSet
// req names, then reports it in the ConfigSet's status. Errors are
// retried with the work queue's back-off; a ConfigSet that does not
// decode is a terminal error (retrying cannot help).
func (r *Reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	o, ok := r.ConfigSets.Get(req.Key)
	if !ok {
		return controller.Result{}, nil // deleted: the garbage collector removes its ConfigMap
	}
	cs, err := Decode(o)
	if err != nil {
		return controller.Result{}, controller.TerminalError(err)
	}
	if cs.DeletionTimestamp != nil {
		return controller.Result{}, nil
	}
	cm := r.find(cs)
	if cm == nil && r.Flaw == NonIdempotentCreate && cs.Annotations[NameAnnotation] != "" {
		// Recorded but not in the cache yet: wait for it.
		return controller.Result{RequeueAfter: time.Second}, nil
	}
	if cm == nil {
		return controller.Result{}, r.create(ctx, o, cs)
	}
	if cur := api.GetControllerOf(&cm.ObjectMeta); cur != nil && cur.UID != cs.UID {
		// A ConfigMap of an earlier ConfigSet of this name, which the
		// garbage collector is about to remove: wait for it.
		return controller.Result{}, fmt.Errorf("configmap %s/%s belongs to another configset", cm.Namespace, cm.Name)
	}
	owned := r.Flaw == NoOwnerReference || api.IsControlledBy(cm, o)
	if owned && holds(cm, cs) {
		return controller.Result{}, r.report(ctx, cs, cm.Name)
	}
	upd := cm.DeepCopyObject().(*api.ConfigMap)
	if upd.Data == nil {
		upd.Data = map[string]string{}
	}
	maps.Copy(upd.Data, cs.Spec.Data)
	if upd.Labels == nil {
		upd.Labels = map[string]string{}
	}
	upd.Labels[OwnerLabel] = cs.Name
	if !owned {
		upd.OwnerReferences = append(upd.OwnerReferences, api.NewControllerRef(o))
	}
	if r.Flaw == StaleCache {
		// The bug: no precondition. The copy came from a cache that may
		// be seconds behind, and this write replaces whatever is newer.
		upd.ResourceVersion = ""
	}
	if _, err := r.Client.Update(ctx, upd); err != nil {
		return controller.Result{}, err
	}
	return controller.Result{}, r.report(ctx, cs, cm.Name)
}

// holds reports whether cm holds every entry of the ConfigSet's data and
// names it in OwnerLabel.
func holds(cm *api.ConfigMap, cs *ConfigSet) bool {
	for k, v := range cs.Spec.Data {
		if got, ok := cm.Data[k]; !ok || got != v {
			return false
		}
	}
	return cm.Labels[OwnerLabel] == cs.Name
}

// report writes the ConfigMap's name and the observed generation to the
// ConfigSet's status subresource, with the cached resourceVersion (a
// conflict is retried with back-off), unless it already says so.
func (r *Reconciler) report(ctx context.Context, cs *ConfigSet, name string) error {
	if cs.Status.ConfigMap == name && cs.Status.ObservedGeneration == cs.Generation {
		return nil
	}
	cs.Status = Status{ConfigMap: name, ObservedGeneration: cs.Generation}
	u, err := api.FromObject(cs)
	if err != nil {
		return controller.TerminalError(err)
	}
	_, err = r.Client.UpdateStatus(ctx, u)
	return err
}

// find returns the ConfigSet's ConfigMap from the cache, or nil.
func (r *Reconciler) find(cs *ConfigSet) *api.ConfigMap {
	name := cs.Name + Suffix
	if r.Flaw == NonIdempotentCreate {
		if n := cs.Annotations[NameAnnotation]; n != "" {
			name = n
		}
	}
	o, ok := r.ConfigMaps.Get(api.Key{Namespace: cs.Namespace, Name: name})
	if !ok {
		return nil
	}
	return o.(*api.ConfigMap)
}

// create makes the ConfigSet's ConfigMap; owner is the ConfigSet as
// served, for its ownerReference.
func (r *Reconciler) create(ctx context.Context, owner api.Object, cs *ConfigSet) error {
	cm := &api.ConfigMap{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Namespace: cs.Namespace, Name: cs.Name + Suffix, Labels: map[string]string{OwnerLabel: cs.Name}},
		Data:       maps.Clone(cs.Spec.Data),
	}
	if r.Flaw != NoOwnerReference {
		cm.OwnerReferences = []api.OwnerReference{api.NewControllerRef(owner)}
	}
	if r.Flaw != NonIdempotentCreate {
		_, err := r.Client.Create(ctx, cm)
		if errors.Is(err, apierr.ErrAlreadyExists) {
			// An earlier try got through (its reply was lost): the cache
			// will show it; look again then.
			return fmt.Errorf("configmap %s/%s exists but is not in the cache yet", cm.Namespace, cm.Name)
		}
		return err
	}
	// The bug: a generated name is only known from the reply, and is
	// remembered by a second write. Lose the reply, or crash before the
	// second write, and the next reconcile creates another ConfigMap.
	cm.Name, cm.GenerateName = "", cs.Name+Suffix+"-"
	made, err := r.Client.Create(ctx, cm)
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, NameAnnotation, made.GetObjectMeta().Name)
	_, err = r.Client.Patch(ctx, Kind, cs.Key(), client.MergePatch, []byte(patch))
	return err
}
