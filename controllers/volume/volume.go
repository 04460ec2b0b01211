package volume

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:persistent-volume-binder"

// Component is the source component of the controller's events.
const Component = "persistentvolume-controller"

// Name is the controller's name in its manager.
const Name = "persistentvolume-binder"

// Event reasons and messages (pv_controller.go, and the
// external-provisioner's controller.go for the provisioner's).
const (
	ReasonWaitForFirstConsumer  = "WaitForFirstConsumer"
	MsgWaitForFirstConsumer     = "waiting for first consumer to be created before binding"
	ReasonExternalProvisioning  = "ExternalProvisioning"
	ReasonProvisioning          = "Provisioning"
	ReasonProvisioningSucceeded = "ProvisioningSucceeded"
	ReasonProvisioningFailed    = "ProvisioningFailed"
	ReasonFailedBinding         = "FailedBinding"
	ReasonClaimLost             = "ClaimLost"
	MsgClaimLost                = "Bound claim has lost its PersistentVolume. Data on the volume is lost!"
	MsgNoVolumeNoClass          = "no persistent volumes available for this claim and no storage class is set"
	// NoProvisioner is the provisioner of classes whose volumes are made
	// by hand (local volumes).
	NoProvisioner = "kubernetes.io/no-provisioner"
)

// Options configure the controller; zero fields take the defaults.
type Options struct {
	// Workers is the number of objects synced at once (default 1, as the
	// PV controller's single claim and volume workers).
	Workers int
}

// reconciler syncs a claim (namespaced key) or a volume (cluster key).
type reconciler struct {
	client  client.Client
	rec     client.EventRecorder
	clients map[string]client.EventRecorder
	m       *controller.Manager
	claims  informer.Lister
	volumes informer.Lister
	classes informer.Lister
	nodes   informer.Lister
}

// Setup registers the controller with m: informers on claims, volumes,
// classes and nodes; a claim is synced when it or its volume changes, a
// volume when it or its claim changes.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = 1
	}
	infs := map[api.Kind]*informer.Informer{}
	for _, k := range []api.Kind{api.KindPersistentVolumeClaim, api.KindPersistentVolume, api.KindStorageClass, api.KindNode} {
		inf, err := m.Informer(k, informer.Options{})
		if err != nil {
			return err
		}
		infs[k] = inf
	}
	r := &reconciler{client: m.Client(), rec: m.Recorder(Component), clients: map[string]client.EventRecorder{}, m: m,
		claims: infs[api.KindPersistentVolumeClaim].Lister(), volumes: infs[api.KindPersistentVolume].Lister(),
		classes: infs[api.KindStorageClass].Lister(), nodes: infs[api.KindNode].Lister()}
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers}, r)
	if err != nil {
		return err
	}
	c.Watch(infs[api.KindPersistentVolumeClaim], func(obj api.Object) []controller.Request {
		out := []controller.Request{{Key: obj.GetObjectMeta().Key()}}
		if cl, ok := obj.(*api.PersistentVolumeClaim); ok && cl.Spec.VolumeName != "" {
			out = append(out, controller.Request{Key: api.Key{Name: cl.Spec.VolumeName}})
		}
		return out
	})
	c.Watch(infs[api.KindPersistentVolume], func(obj api.Object) []controller.Request {
		out := []controller.Request{{Key: obj.GetObjectMeta().Key()}}
		if v, ok := obj.(*api.PersistentVolume); ok && v.Spec.ClaimRef != nil {
			out = append(out, controller.Request{Key: api.Key{Namespace: v.Spec.ClaimRef.Namespace, Name: v.Spec.ClaimRef.Name}})
		}
		return out
	})
	return nil
}

// provisionerRecorder is the event recorder of a provisioner: its events
// come from the provisioner's name, as the sidecar's do.
func (r *reconciler) provisionerRecorder(name string) client.EventRecorder {
	if rec, ok := r.clients[name]; ok {
		return rec
	}
	rec := r.m.Recorder(name)
	r.clients[name] = rec
	return rec
}

// Reconcile syncs one claim or volume.
func (r *reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	if req.Key.Namespace == "" {
		v, ok := informer.GetAs[*api.PersistentVolume](r.volumes, req.Key)
		if !ok {
			return controller.Result{}, nil
		}
		return controller.Result{}, r.syncVolume(ctx, v)
	}
	cl, ok := informer.GetAs[*api.PersistentVolumeClaim](r.claims, req.Key)
	if !ok || cl.DeletionTimestamp != nil {
		return controller.Result{}, nil
	}
	return controller.Result{}, r.syncClaim(ctx, cl)
}

// defaultClass returns the default class's name (api.DefaultStorageClass
// over the informer's classes), "" for none.
func (r *reconciler) defaultClass() string {
	return api.DefaultStorageClass(r.classes.List(api.Everything(), ""))
}

func (r *reconciler) class(name string) *api.StorageClass {
	c, _ := informer.GetAs[*api.StorageClass](r.classes, api.Key{Name: name})
	return c
}

// delayBinding: the claim's class binds on first consumer.
func delayBinding(c *api.StorageClass) bool {
	return c != nil && c.VolumeBindingMode != nil && *c.VolumeBindingMode == api.VolumeBindingWaitForFirstConsumer
}

func (r *reconciler) syncClaim(ctx context.Context, cl *api.PersistentVolumeClaim) error {
	if cl.Spec.StorageClassName == nil {
		if def := r.defaultClass(); def != "" {
			upd := cl.DeepCopy()
			upd.Spec.StorageClassName = &def
			_, err := r.client.Update(ctx, upd)
			return err
		}
	}
	if cl.Spec.VolumeName != "" {
		return r.syncBoundClaim(ctx, cl)
	}
	class := r.class(cl.StorageClassName())
	node := cl.Annotations[api.AnnSelectedNode]
	if v := r.findVolume(cl, class, node); v != nil {
		return r.bind(ctx, cl, v)
	}
	switch {
	case delayBinding(class) && node == "":
		r.rec.Eventf(cl, client.EventTypeNormal, ReasonWaitForFirstConsumer, "%s", MsgWaitForFirstConsumer)
		return nil
	case cl.StorageClassName() == "":
		r.rec.Eventf(cl, client.EventTypeNormal, ReasonFailedBinding, "%s", MsgNoVolumeNoClass)
		return nil
	case class == nil:
		r.rec.Eventf(cl, client.EventTypeWarning, ReasonProvisioningFailed, "storageclass.storage.k8s.io %q not found", cl.StorageClassName())
		return nil
	case class.Provisioner == NoProvisioner:
		return nil // volumes of the class are made by hand: wait for one
	}
	return r.provision(ctx, cl, class, node)
}

// syncBoundClaim keeps a claim bound to its volume, or marks it Lost.
func (r *reconciler) syncBoundClaim(ctx context.Context, cl *api.PersistentVolumeClaim) error {
	v, ok := informer.GetAs[*api.PersistentVolume](r.volumes, api.Key{Name: cl.Spec.VolumeName})
	if !ok {
		if cl.Status.Phase == api.ClaimLost {
			return nil
		}
		upd := cl.DeepCopy()
		upd.Status.Phase = api.ClaimLost
		if _, err := r.client.UpdateStatus(ctx, upd); err != nil {
			return err
		}
		r.rec.Eventf(cl, client.EventTypeWarning, ReasonClaimLost, "%s", MsgClaimLost)
		return nil
	}
	if v.Spec.ClaimRef == nil || v.Spec.ClaimRef.UID == cl.UID || v.Spec.ClaimRef.UID == "" && v.Spec.ClaimRef.Name == cl.Name && v.Spec.ClaimRef.Namespace == cl.Namespace {
		return r.bind(ctx, cl, v)
	}
	return nil // the volume is bound to another claim: the claim stays Pending
}

// findVolume returns the volume the claim binds to from the cache, nil
// for none.
func (r *reconciler) findVolume(cl *api.PersistentVolumeClaim, class *api.StorageClass, node string) *api.PersistentVolume {
	var n *api.Node
	if node != "" {
		n, _ = informer.GetAs[*api.Node](r.nodes, api.Key{Name: node})
	}
	objs := r.volumes.List(api.Everything(), "")
	vols := make([]*api.PersistentVolume, 0, len(objs))
	for _, o := range objs {
		vols = append(vols, o.(*api.PersistentVolume))
	}
	return findMatchingVolume(cl, delayBinding(class), n, vols)
}

// findMatchingVolume returns a volume pre-bound to the claim, else the
// smallest Available volume of the claim's class whose capacity and
// access modes suffice and whose labels the claim's selector matches;
// with delayed binding, only one whose node affinity admits the selected
// node (nil: none). Upstream's FindMatchingVolume
// (k8s.io/component-helpers/storage/volume/pv_helpers.go).
func findMatchingVolume(cl *api.PersistentVolumeClaim, delayed bool, node *api.Node, vols []*api.PersistentVolume) *api.PersistentVolume {
	want := cl.Spec.Resources.Requests[api.ResourceStorage]
	var best *api.PersistentVolume
	for _, v := range vols {
		if ref := v.Spec.ClaimRef; ref != nil {
			if ref.Namespace == cl.Namespace && ref.Name == cl.Name && (ref.UID == "" || ref.UID == cl.UID) {
				return v // pre-bound
			}
			continue
		}
		if v.DeletionTimestamp != nil || v.Status.Phase != api.VolumeAvailable && v.Status.Phase != api.VolumePending ||
			v.Spec.StorageClassName != cl.StorageClassName() {
			continue
		}
		if q := v.Spec.Capacity[api.ResourceStorage]; q.Cmp(want) < 0 {
			continue
		}
		if !containsAll(v.Spec.AccessModes, cl.Spec.AccessModes) {
			continue
		}
		if sel := cl.Spec.Selector; sel != nil {
			s, err := api.LabelSelectorAsSelector(sel)
			if err != nil || !s.Matches(v.Labels) {
				continue
			}
		}
		if delayed && (node == nil || !VolumeAdmitsNode(v, node)) {
			continue
		}
		if best == nil || v.Spec.Capacity[api.ResourceStorage].Cmp(best.Spec.Capacity[api.ResourceStorage]) < 0 {
			best = v
		}
	}
	return best
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// bind binds the volume and the claim to each other: the volume's
// claimRef and phase, then the claim's volumeName, annotations and status,
// each written only if it differs.
func (r *reconciler) bind(ctx context.Context, cl *api.PersistentVolumeClaim, v *api.PersistentVolume) error {
	if ref := v.Spec.ClaimRef; ref == nil || ref.UID != cl.UID {
		upd := v.DeepCopy()
		upd.Spec.ClaimRef = &api.ObjectReference{Kind: api.KindPersistentVolumeClaim.Name, Namespace: cl.Namespace, Name: cl.Name, UID: cl.UID, APIVersion: "v1", ResourceVersion: cl.ResourceVersion}
		if ref == nil {
			setAnn(&upd.ObjectMeta, api.AnnBoundByController, "yes")
		}
		got, err := r.client.Update(ctx, upd)
		if err != nil {
			return err
		}
		v = got.(*api.PersistentVolume)
	}
	if v.Status.Phase != api.VolumeBound {
		upd := v.DeepCopy()
		upd.Status.Phase = api.VolumeBound
		t := api.NewTime(r.m.Clock().Now()).Rfc3339Copy()
		upd.Status.LastPhaseTransitionTime = &t
		if _, err := r.client.UpdateStatus(ctx, upd); err != nil {
			return err
		}
	}
	if cl.Spec.VolumeName != v.Name || cl.Annotations[api.AnnBindCompleted] != "yes" {
		upd := cl.DeepCopy()
		if upd.Spec.VolumeName == "" {
			setAnn(&upd.ObjectMeta, api.AnnBoundByController, "yes")
		}
		upd.Spec.VolumeName = v.Name
		setAnn(&upd.ObjectMeta, api.AnnBindCompleted, "yes")
		got, err := r.client.Update(ctx, upd)
		if err != nil {
			return err
		}
		cl = got.(*api.PersistentVolumeClaim)
	}
	if cl.Status.Phase != api.ClaimBound {
		upd := cl.DeepCopy()
		upd.Status.Phase = api.ClaimBound
		upd.Status.AccessModes = slices.Clone(v.Spec.AccessModes)
		upd.Status.Capacity = api.ResourceList{api.ResourceStorage: v.Spec.Capacity[api.ResourceStorage]}
		if _, err := r.client.UpdateStatus(ctx, upd); err != nil {
			return err
		}
	}
	return nil
}

func setAnn(m *api.ObjectMeta, k, v string) {
	if m.Annotations == nil {
		m.Annotations = map[string]string{}
	}
	m.Annotations[k] = v
}

// provision annotates the claim for its class's provisioner and, as that
// provisioner, creates the volume pre-bound to it.
func (r *reconciler) provision(ctx context.Context, cl *api.PersistentVolumeClaim, class *api.StorageClass, node string) error {
	name := "pvc-" + string(cl.UID)
	if _, exists := r.volumes.Get(api.Key{Name: name}); exists {
		return nil // provisioned; its informer event binds it
	}
	if cl.Annotations[api.AnnStorageProvisioner] != class.Provisioner {
		upd := cl.DeepCopy()
		setAnn(&upd.ObjectMeta, api.AnnStorageProvisioner, class.Provisioner)
		setAnn(&upd.ObjectMeta, api.AnnBetaStorageProvisioner, class.Provisioner)
		got, err := r.client.Update(ctx, upd)
		if err != nil {
			return err
		}
		cl = got.(*api.PersistentVolumeClaim)
	}
	r.rec.Eventf(cl, client.EventTypeNormal, ReasonExternalProvisioning,
		"Waiting for a volume to be created either by the external provisioner '%s' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.", class.Provisioner)
	prec := r.provisionerRecorder(class.Provisioner)
	prec.Eventf(cl, client.EventTypeNormal, ReasonProvisioning, "External provisioner is provisioning volume for claim %q", cl.Namespace+"/"+cl.Name)
	v := &api.PersistentVolume{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: api.KindPersistentVolume.Name},
		ObjectMeta: api.ObjectMeta{Name: name, Annotations: map[string]string{api.AnnDynamicallyProvisioned: class.Provisioner}},
		Spec: api.PersistentVolumeSpec{
			Capacity:                      api.ResourceList{api.ResourceStorage: cl.Spec.Resources.Requests[api.ResourceStorage]},
			AccessModes:                   slices.Clone(cl.Spec.AccessModes),
			ClaimRef:                      &api.ObjectReference{Kind: api.KindPersistentVolumeClaim.Name, Namespace: cl.Namespace, Name: cl.Name, UID: cl.UID, APIVersion: "v1", ResourceVersion: cl.ResourceVersion},
			PersistentVolumeReclaimPolicy: *class.ReclaimPolicy,
			StorageClassName:              class.Name,
			MountOptions:                  slices.Clone(class.MountOptions),
			VolumeMode:                    cl.Spec.VolumeMode,
			Source:                        map[string]api.RawValue{"csi": csiSource(class.Provisioner, name)},
		},
	}
	if zone := r.zoneFor(cl, class, node); zone != "" {
		v.Spec.NodeAffinity = &api.VolumeNodeAffinity{Required: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: api.LabelTopologyZone, Operator: api.NodeSelectorOpIn, Values: []string{zone}}}}}}}
	}
	if _, err := r.client.Create(ctx, v); err != nil && !errors.Is(err, apierr.ErrAlreadyExists) {
		prec.Eventf(cl, client.EventTypeWarning, ReasonProvisioningFailed, "failed to provision volume with StorageClass %q: %v", class.Name, err)
		return err
	}
	prec.Eventf(cl, client.EventTypeNormal, ReasonProvisioningSucceeded, "Successfully provisioned volume %s", name)
	return nil
}

// csiSource is the opaque source of a provisioned volume.
func csiSource(driver, handle string) api.RawValue {
	raw, _ := api.NewRawValue(map[string]string{"driver": driver, "volumeHandle": handle})
	return raw
}

// zoneFor picks the zone of a provisioned volume: the selected node's
// zone if the class is zonal (its allowedTopologies name zones) or binds
// on first consumer; else one of the allowed zones, by a hash of the
// claim's name (the external provisioner picks among them); "" for a
// volume reachable from every node.
func (r *reconciler) zoneFor(cl *api.PersistentVolumeClaim, class *api.StorageClass, node string) string {
	var allowed []string
	for _, t := range class.AllowedTopologies {
		for _, e := range t.MatchLabelExpressions {
			if e.Key == api.LabelTopologyZone {
				allowed = append(allowed, e.Values...)
			}
		}
	}
	if node != "" {
		if n, ok := informer.GetAs[*api.Node](r.nodes, api.Key{Name: node}); ok {
			if z := n.Labels[api.LabelTopologyZone]; z != "" {
				return z
			}
		}
	}
	if len(allowed) == 0 {
		return ""
	}
	h := fnv.New32a()
	fmt.Fprintf(h, "%s/%s", cl.Namespace, cl.Name)
	return allowed[h.Sum32()%uint32(len(allowed))]
}

// syncVolume keeps a volume's phase: Available without a claim, Released
// when its claim is gone (deleted when its reclaim policy is Delete).
func (r *reconciler) syncVolume(ctx context.Context, v *api.PersistentVolume) error {
	if v.DeletionTimestamp != nil {
		return nil
	}
	phase := api.VolumeAvailable
	if ref := v.Spec.ClaimRef; ref != nil {
		cl, ok := informer.GetAs[*api.PersistentVolumeClaim](r.claims, api.Key{Namespace: ref.Namespace, Name: ref.Name})
		switch {
		case ok && (ref.UID == "" || cl.UID == ref.UID):
			if cl.Spec.VolumeName != v.Name {
				return nil // pre-bound: the claim's sync binds it
			}
			phase = api.VolumeBound
		case v.Status.Phase == api.VolumePending || v.Status.Phase == api.VolumeAvailable:
			return nil // pre-bound to a claim not seen yet
		default:
			if v.Spec.PersistentVolumeReclaimPolicy == api.ReclaimDelete {
				err := r.client.Delete(ctx, api.KindPersistentVolume, v.Key())
				if err != nil && !errors.Is(err, apierr.ErrNotFound) {
					return err
				}
				return nil
			}
			phase = api.VolumeReleased
		}
	}
	if v.Status.Phase == phase {
		return nil
	}
	upd := v.DeepCopy()
	upd.Status.Phase = phase
	t := api.NewTime(r.m.Clock().Now()).Rfc3339Copy()
	upd.Status.LastPhaseTransitionTime = &t
	_, err := r.client.UpdateStatus(ctx, upd)
	return err
}

// VolumeAdmitsNode reports whether the volume's node affinity admits n
// (volume.CheckNodeAffinity): no affinity admits every node; otherwise
// one of its terms must match n's labels (and metadata.name fields).
func VolumeAdmitsNode(v *api.PersistentVolume, n *api.Node) bool {
	na := v.Spec.NodeAffinity
	if na == nil || na.Required == nil {
		return true
	}
	for i := range na.Required.NodeSelectorTerms {
		if termMatches(&na.Required.NodeSelectorTerms[i], n) {
			return true
		}
	}
	return false
}

func termMatches(t *api.NodeSelectorTerm, n *api.Node) bool {
	if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
		return false
	}
	for _, r := range t.MatchExpressions {
		v, has := n.Labels[r.Key]
		switch r.Operator {
		case api.NodeSelectorOpIn:
			if !has || !slices.Contains(r.Values, v) {
				return false
			}
		case api.NodeSelectorOpNotIn:
			if has && slices.Contains(r.Values, v) {
				return false
			}
		case api.NodeSelectorOpExists:
			if !has {
				return false
			}
		case api.NodeSelectorOpDoesNotExist:
			if has {
				return false
			}
		default:
			return false
		}
	}
	for _, f := range t.MatchFields {
		if f.Key != "metadata.name" || len(f.Values) != 1 {
			return false
		}
		if (f.Operator == api.NodeSelectorOpIn) != (n.Name == f.Values[0]) {
			return false
		}
	}
	return true
}
