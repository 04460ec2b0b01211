// Package configmapper is an example operator written the way an outside
// module writes one against clustersim's public API: it keeps a ConfigMap
// per annotated Deployment, holding the Deployment's image and replica
// count, owned by the Deployment so that the garbage collector removes it
// with its Deployment. It reads through informer caches and writes through
// a client whose calls can time out, like any controller-runtime operator.
//
// Besides the correct operator it comes in three deliberately broken
// variants, one per bug class that tools such as Sieve find in real
// operators (see Flaw), and registers all four with the harness in its
// init function:
//
//   - configmapper: the correct operator;
//   - configmapper-stale: acts on a stale cache (an update without
//     resourceVersion, computed from a cached ConfigMap that may lag, wipes
//     a user's newer edit);
//   - configmapper-orphans: sets no ownerReference, so a deleted
//     Deployment's ConfigMap leaks;
//   - configmapper-dup: creates its ConfigMap with generateName and records
//     the name in a second write, so a lost reply or a crash between the
//     two writes leaves two ConfigMaps.
//
// docs/testing-your-controller.md walks through finding each with
// harness.Test, shrinking the failing schedule and fixing it.
package configmapper

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/harness"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Annotations and labels the operator reads and writes.
const (
	// Enabled on a Deployment, with value "true", asks for a ConfigMap.
	Enabled = "configmapper.example.com/enabled"
	// OwnerLabel on a ConfigMap names the Deployment it is for.
	OwnerLabel = "configmapper.example.com/owner"
	// NameAnnotation is where configmapper-dup records the generated name
	// of a Deployment's ConfigMap.
	NameAnnotation = "configmapper.example.com/configmap"
	// Suffix makes a Deployment's ConfigMap name: <deployment>-config.
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
	// generated name on the Deployment: a lost reply or a crash between
	// the two writes makes the next reconcile create a second ConfigMap.
	NonIdempotentCreate
)

// Names are the registered controllers' names, by flaw.
var Names = map[Flaw]string{
	Correct:             "configmapper",
	StaleCache:          "configmapper-stale",
	NoOwnerReference:    "configmapper-orphans",
	NonIdempotentCreate: "configmapper-dup",
}

func init() {
	for _, f := range []Flaw{Correct, StaleCache, NoOwnerReference, NonIdempotentCreate} {
		harness.MustRegister(Definition(f))
	}
}

// Definition is the controller with flaw f: it reconciles Deployments and
// owns ConfigMaps.
func Definition(f Flaw) harness.Controller {
	def := harness.Controller{
		Name: Names[f],
		For:  api.KindDeployment,
		Owns: []api.Kind{api.KindConfigMap},
		// configmapper-orphans sets no owner, so ConfigMaps also map back
		// to their Deployment by label.
		Watches: []harness.Watch{{Kind: api.KindConfigMap, Map: byOwnerLabel}},
		New: func(m *controller.Manager) (controller.Reconciler, error) {
			deps, err := m.Informer(api.KindDeployment, informer.Options{})
			if err != nil {
				return nil, err
			}
			cms, err := m.Informer(api.KindConfigMap, informer.Options{})
			if err != nil {
				return nil, err
			}
			return &Reconciler{Client: m.Client(), Deployments: deps.Lister(), ConfigMaps: cms.Lister(), Flaw: f}, nil
		},
	}
	if f == NonIdempotentCreate {
		// It finds its ConfigMap through the Deployment's annotation, so
		// only Deployments' changes matter to it (it still reads
		// ConfigMaps from a cache, made in New).
		def.Owns, def.Watches = nil, nil
	}
	return def
}

// byOwnerLabel maps a ConfigMap to the Deployment its OwnerLabel names.
func byOwnerLabel(o api.Object) []controller.Request {
	m := o.GetObjectMeta()
	if name := m.Labels[OwnerLabel]; name != "" {
		return []controller.Request{{Key: api.Key{Namespace: m.Namespace, Name: name}}}
	}
	return nil
}

// Reconciler keeps one Deployment's ConfigMap.
type Reconciler struct {
	Client                  client.Client
	Deployments, ConfigMaps informer.Lister
	Flaw                    Flaw
}

// Reconcile creates, adopts or corrects the ConfigMap of the Deployment
// req names. Errors are retried with the work queue's back-off.
func (r *Reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	o, ok := r.Deployments.Get(req.Key)
	if !ok {
		return controller.Result{}, nil // deleted: the garbage collector removes its ConfigMap
	}
	d := o.(*api.Deployment)
	if d.Annotations[Enabled] != "true" || d.DeletionTimestamp != nil {
		return controller.Result{}, nil
	}
	want := Data(d)
	cm := r.find(d)
	if cm == nil && r.Flaw == NonIdempotentCreate && d.Annotations[NameAnnotation] != "" {
		// Recorded but not in the cache yet: wait for it.
		return controller.Result{RequeueAfter: time.Second}, nil
	}
	if cm == nil {
		return controller.Result{}, r.create(ctx, d, want)
	}
	if cur := api.GetControllerOf(&cm.ObjectMeta); cur != nil && cur.UID != d.UID {
		// A ConfigMap of an earlier Deployment of this name, which the
		// garbage collector is about to remove: wait for it.
		return controller.Result{}, fmt.Errorf("configmap %s/%s belongs to another deployment", cm.Namespace, cm.Name)
	}
	owned := r.Flaw == NoOwnerReference || api.IsControlledBy(cm, d)
	if owned && cm.Data["image"] == want["image"] && cm.Data["replicas"] == want["replicas"] && cm.Labels[OwnerLabel] == d.Name {
		return controller.Result{}, nil
	}
	upd := cm.DeepCopyObject().(*api.ConfigMap)
	if upd.Data == nil {
		upd.Data = map[string]string{}
	}
	maps.Copy(upd.Data, want)
	if upd.Labels == nil {
		upd.Labels = map[string]string{}
	}
	upd.Labels[OwnerLabel] = d.Name
	if !owned {
		upd.OwnerReferences = append(upd.OwnerReferences, api.NewControllerRef(d))
	}
	if r.Flaw == StaleCache {
		// The bug: no precondition. The copy came from a cache that may
		// be seconds behind, and this write replaces whatever is newer.
		upd.ResourceVersion = ""
	}
	_, err := r.Client.Update(ctx, upd)
	return controller.Result{}, err
}

// find returns the Deployment's ConfigMap from the cache, or nil.
func (r *Reconciler) find(d *api.Deployment) *api.ConfigMap {
	name := d.Name + Suffix
	if r.Flaw == NonIdempotentCreate {
		if n := d.Annotations[NameAnnotation]; n != "" {
			name = n
		}
	}
	o, ok := r.ConfigMaps.Get(api.Key{Namespace: d.Namespace, Name: name})
	if !ok {
		return nil
	}
	return o.(*api.ConfigMap)
}

// create makes the Deployment's ConfigMap.
func (r *Reconciler) create(ctx context.Context, d *api.Deployment, data map[string]string) error {
	cm := &api.ConfigMap{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: api.ObjectMeta{Namespace: d.Namespace, Name: d.Name + Suffix, Labels: map[string]string{OwnerLabel: d.Name}},
		Data:       data,
	}
	if r.Flaw != NoOwnerReference {
		cm.OwnerReferences = []api.OwnerReference{api.NewControllerRef(d)}
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
	cm.Name, cm.GenerateName = "", d.Name+Suffix+"-"
	made, err := r.Client.Create(ctx, cm)
	if err != nil {
		return err
	}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, NameAnnotation, made.GetObjectMeta().Name)
	_, err = r.Client.Patch(ctx, api.KindDeployment, d.Key(), client.MergePatch, []byte(patch))
	return err
}

// Data is what a Deployment's ConfigMap must hold: its first container's
// image and its replica count.
func Data(d *api.Deployment) map[string]string {
	replicas := int32(1)
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}
	image := ""
	if cs := d.Spec.Template.Spec.Containers; len(cs) > 0 {
		image = cs[0].Image
	}
	return map[string]string{"image": image, "replicas": strconv.Itoa(int(replicas))}
}
