package scheduler

import (
	"context"
	"fmt"
	"slices"

	"github.com/clustersim/clustersim/controllers/volume"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// The VolumeBinding and VolumeZone plugins' reasons, verbatim (k/k
// pkg/scheduler/framework/plugins/volumebinding/binder.go and
// volumebinding.go, volumezone/volume_zone.go).
const (
	// ReasonVolumeNodeConflict: a bound volume's node affinity rejects the
	// node.
	ReasonVolumeNodeConflict = "node(s) had volume node affinity conflict"
	// ReasonVolumeBindConflict: no volume can be found or provisioned for
	// an unbound claim on the node.
	ReasonVolumeBindConflict = "node(s) didn't find available persistent volumes to bind"
	// ReasonPVNotExist: a claim is bound to a volume that does not exist.
	ReasonPVNotExist = "node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)"
	// ReasonVolumeZoneConflict is VolumeZone's reason: a bound volume's
	// zone label is not the node's.
	ReasonVolumeZoneConflict = "node(s) had no available volume zone"
	// MsgUnboundImmediate is VolumeBinding's PreFilter failure: a claim of
	// an Immediate class is not bound yet.
	MsgUnboundImmediate = "pod has unbound immediate PersistentVolumeClaims"
)

// PreFilterError is a PreFilter plugin's failure: no node is tried, and
// the message is "0/<N> nodes are available: <msg>." (FitError with a
// PreFilterMsg).
type PreFilterError struct {
	// NumAllNodes is the number of nodes in the snapshot.
	NumAllNodes int
	// Msg is the plugin's message.
	Msg string
	// PostFilterMsg is what preemption said after the PreFilter failure
	// ("preemption: 0/3 nodes are available: 3 Preemption is not helpful
	// for scheduling."), if it ran.
	PostFilterMsg string
}

// Error returns upstream's FitError text for a PreFilter failure, and
// preemption's message after it (k/k pkg/scheduler/framework/types.go
// FitError.Error).
func (e *PreFilterError) Error() string {
	msg := fmt.Sprintf("0/%v nodes are available: %s.", e.NumAllNodes, e.Msg)
	if e.PostFilterMsg != "" {
		msg += " " + e.PostFilterMsg
	}
	return msg
}

// volumeBinder is the scheduler's view of claims, volumes and classes
// (upstream's volumeBinder with its assume caches).
type volumeBinder struct {
	client  client.Client
	claims  objectGetter
	volumes objectGetter
	classes objectGetter
}

// objectGetter is what the binder reads of an informer's cache (an
// informer.Lister; a map in the tests).
type objectGetter interface {
	Get(key api.Key) (api.Object, bool)
	List(sel api.Selector, namespace string) []api.Object
}

func getAs[T api.Object](g objectGetter, key api.Key) (T, bool) {
	o, ok := g.Get(key)
	if !ok {
		var zero T
		return zero, false
	}
	t, ok := o.(T)
	return t, ok
}

// newVolumeBinder starts informers on claims, volumes and classes; any
// change of them moves the parked pods back to the queue (the
// VolumeBinding plugin's EventsToRegister: PVC, PV and StorageClass adds
// and updates).
func newVolumeBinder(m *controller.Manager, s *scheduler) (*volumeBinder, error) {
	b := &volumeBinder{client: m.Client()}
	for _, k := range []api.Kind{api.KindPersistentVolumeClaim, api.KindPersistentVolume, api.KindStorageClass} {
		inf, err := m.Informer(k, informer.Options{})
		if err != nil {
			return nil, err
		}
		switch k {
		case api.KindPersistentVolumeClaim:
			b.claims = inf.Lister()
		case api.KindPersistentVolume:
			b.volumes = inf.Lister()
		default:
			b.classes = inf.Lister()
		}
		inf.AddEventHandler(informer.HandlerFuncs{
			AddFunc:    func(api.Object) { s.moveAll(api.Key{}) },
			UpdateFunc: func(api.Object, api.Object) { s.moveAll(api.Key{}) },
		})
	}
	return b, nil
}

// volumeState is what PreFilter found of a pod's claims.
type volumeState struct {
	// bound are the volumes of bound claims; missing counts claims bound
	// to a volume that does not exist.
	bound   []*api.PersistentVolume
	missing bool
	// toBind are the unbound claims of WaitForFirstConsumer classes.
	toBind []*api.PersistentVolumeClaim
}

// preFilter sorts the pod's claims (GetPodVolumes): a missing or deleted
// claim, or an unbound claim of an Immediate class, fails the pod on every
// node. It returns nil for a pod without claims.
func (b *volumeBinder) preFilter(pod *api.Pod, numNodes int) (*volumeState, error) {
	names := api.ClaimNames(pod)
	if len(names) == 0 {
		return nil, nil
	}
	st := &volumeState{}
	for _, name := range names {
		c, ok := getAs[*api.PersistentVolumeClaim](b.claims, api.Key{Namespace: pod.Namespace, Name: name})
		switch {
		case !ok:
			return nil, &PreFilterError{NumAllNodes: numNodes, Msg: fmt.Sprintf("persistentvolumeclaim %q not found", name)}
		case c.DeletionTimestamp != nil:
			return nil, &PreFilterError{NumAllNodes: numNodes, Msg: fmt.Sprintf("persistentvolumeclaim %q is being deleted", name)}
		case c.Spec.VolumeName != "" && c.Status.Phase == api.ClaimBound:
			v, ok := getAs[*api.PersistentVolume](b.volumes, api.Key{Name: c.Spec.VolumeName})
			if !ok {
				st.missing = true
				continue
			}
			st.bound = append(st.bound, v)
		default:
			class, _ := getAs[*api.StorageClass](b.classes, api.Key{Name: c.StorageClassName()})
			if class == nil || class.VolumeBindingMode == nil || *class.VolumeBindingMode != api.VolumeBindingWaitForFirstConsumer {
				return nil, &PreFilterError{NumAllNodes: numNodes, Msg: MsgUnboundImmediate}
			}
			st.toBind = append(st.toBind, c)
		}
	}
	return st, nil
}

// zoneLabels are the labels VolumeZone compares (topologyLabels).
var zoneLabels = []string{api.LabelTopologyZone, "topology.kubernetes.io/region",
	"failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region"}

// filter runs VolumeBinding's Filter on one node, then VolumeZone's if it
// passed, and appends the reasons the node fails for (FindPodVolumes:
// a bound volume's node affinity conflict, then an unbound claim that
// cannot bind there, then a bound volume that does not exist).
func (st *volumeState) filter(b *volumeBinder, n *api.Node, reasons []string) []string {
	before := len(reasons)
	for _, v := range st.bound {
		if !volume.VolumeAdmitsNode(v, n) {
			reasons = append(reasons, ReasonVolumeNodeConflict)
			break
		}
	}
	for _, c := range st.toBind {
		sel, ok := c.Annotations[api.AnnSelectedNode]
		if ok && sel != n.Name || !b.canBind(c, n) {
			reasons = append(reasons, ReasonVolumeBindConflict)
			break
		}
	}
	if st.missing {
		reasons = append(reasons, ReasonPVNotExist)
	}
	if len(reasons) > before {
		return reasons
	}
	for _, v := range st.bound {
		for _, k := range zoneLabels {
			if want, ok := v.Labels[k]; ok && n.Labels[k] != want {
				return append(reasons, ReasonVolumeZoneConflict)
			}
		}
	}
	return reasons
}

// canBind: an Available volume of the claim's class admits the node, or
// the class provisions volumes there (its allowedTopologies match the
// node's labels).
func (b *volumeBinder) canBind(c *api.PersistentVolumeClaim, n *api.Node) bool {
	want := c.Spec.Resources.Requests[api.ResourceStorage]
	for _, o := range b.volumes.List(api.Everything(), "") {
		v := o.(*api.PersistentVolume)
		if v.Spec.ClaimRef == nil && v.Spec.StorageClassName == c.StorageClassName() && v.Status.Phase == api.VolumeAvailable &&
			v.Spec.Capacity[api.ResourceStorage].Cmp(want) >= 0 && volume.VolumeAdmitsNode(v, n) {
			return true
		}
	}
	class, _ := getAs[*api.StorageClass](b.classes, api.Key{Name: c.StorageClassName()})
	if class == nil || class.Provisioner == volume.NoProvisioner {
		return false
	}
	if len(class.AllowedTopologies) == 0 {
		return true
	}
	for _, t := range class.AllowedTopologies {
		if slices.IndexFunc(t.MatchLabelExpressions, func(r api.TopologySelectorLabelRequirement) bool {
			return !slices.Contains(r.Values, n.Labels[r.Key])
		}) < 0 {
			return true
		}
	}
	return false
}

// preBind gives the unbound claims the chosen node
// (volume.kubernetes.io/selected-node, upstream's AssumePodVolumes and
// BindPodVolumes) and reports whether the pod must wait for them to be
// bound before it is bound itself. Upstream waits in the binding cycle
// with the pod assumed on the node; here the pod waits parked, without
// holding the node's resources, and is scheduled again once the claims
// are bound (their volumes' node affinity then keeps it in the zone).
func (b *volumeBinder) preBind(ctx context.Context, st *volumeState, node string) (bool, error) {
	if st == nil || len(st.toBind) == 0 {
		return false, nil
	}
	for _, c := range st.toBind {
		if c.Annotations[api.AnnSelectedNode] == node {
			continue
		}
		upd := c.DeepCopy()
		if upd.Annotations == nil {
			upd.Annotations = map[string]string{}
		}
		upd.Annotations[api.AnnSelectedNode] = node
		if _, err := b.client.Update(ctx, upd); err != nil {
			return false, err
		}
	}
	return true, nil
}
