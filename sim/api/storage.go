package api

import (
	"encoding/json"
	"slices"
)

// The storage kinds: core/v1 PersistentVolumeClaim and PersistentVolume,
// storage.k8s.io/v1 StorageClass (k8s.io/api core/v1 and storage/v1
// types.go).
var (
	// KindPersistentVolumeClaim is core/v1 PersistentVolumeClaim.
	KindPersistentVolumeClaim = Kind{"", "PersistentVolumeClaim"}
	// KindPersistentVolume is core/v1 PersistentVolume.
	KindPersistentVolume = Kind{"", "PersistentVolume"}
	// KindStorageClass is storage.k8s.io/v1 StorageClass.
	KindStorageClass = Kind{"storage.k8s.io", "StorageClass"}
)

// Storage annotations and labels (k/k pkg/controller/volume/persistentvolume
// and k8s.io/api core/v1 well_known_labels.go).
const (
	// AnnSelectedNode is the node the scheduler chose for a claim of a
	// WaitForFirstConsumer class: the provisioner creates the volume
	// where the pod goes.
	AnnSelectedNode = "volume.kubernetes.io/selected-node"
	// AnnStorageProvisioner names the provisioner a claim waits for
	// (and its legacy beta form, both set by the PV controller).
	AnnStorageProvisioner     = "volume.kubernetes.io/storage-provisioner"
	AnnBetaStorageProvisioner = "volume.beta.kubernetes.io/storage-provisioner"
	// AnnBindCompleted marks a claim whose binding the PV controller
	// finished; AnnBoundByController one it bound itself.
	AnnBindCompleted     = "pv.kubernetes.io/bind-completed"
	AnnBoundByController = "pv.kubernetes.io/bound-by-controller"
	// AnnDynamicallyProvisioned names the provisioner of a volume it
	// created.
	AnnDynamicallyProvisioned = "pv.kubernetes.io/provisioned-by"
	// AnnDefaultStorageClass marks the default StorageClass ("true").
	AnnDefaultStorageClass = "storageclass.kubernetes.io/is-default-class"
	// LabelTopologyZone is a node's (and a zonal volume's) zone.
	LabelTopologyZone = "topology.kubernetes.io/zone"
)

// Claim, volume and binding constants.
const (
	ClaimPending = "Pending"
	ClaimBound   = "Bound"
	ClaimLost    = "Lost"

	VolumePending   = "Pending"
	VolumeAvailable = "Available"
	VolumeBound     = "Bound"
	VolumeReleased  = "Released"
	VolumeFailed    = "Failed"

	ReclaimRetain  = "Retain"
	ReclaimDelete  = "Delete"
	ReclaimRecycle = "Recycle"

	VolumeBindingImmediate            = "Immediate"
	VolumeBindingWaitForFirstConsumer = "WaitForFirstConsumer"

	VolumeModeFilesystem = "Filesystem"
	VolumeModeBlock      = "Block"

	ReadWriteOnce    = "ReadWriteOnce"
	ReadOnlyMany     = "ReadOnlyMany"
	ReadWriteMany    = "ReadWriteMany"
	ReadWriteOncePod = "ReadWriteOncePod"
)

// PersistentVolumeClaim is a user's request for storage.
type PersistentVolumeClaim struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the claim's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is what the claim asks for.
	Spec PersistentVolumeClaimSpec `json:"spec,omitempty"`
	// Status is what the PV controller observed.
	Status PersistentVolumeClaimStatus `json:"status,omitempty"`
}

// PersistentVolumeClaimSpec is what a claim asks for.
type PersistentVolumeClaimSpec struct {
	// AccessModes the volume must offer (ReadWriteOnce, ...).
	AccessModes []string `json:"accessModes,omitempty"`
	// Selector restricts the volumes that may bind.
	Selector *LabelSelector `json:"selector,omitempty"`
	// Resources holds the requested storage.
	Resources VolumeResourceRequirements `json:"resources,omitempty"`
	// VolumeName binds the claim to that volume.
	VolumeName string `json:"volumeName,omitempty"`
	// StorageClassName is the class; nil takes the default class, ""
	// asks for a volume without a class.
	StorageClassName *string `json:"storageClassName,omitempty"`
	// VolumeMode is Filesystem (default) or Block.
	VolumeMode *string `json:"volumeMode,omitempty"`
	// DataSource, DataSourceRef and VolumeAttributesClassName are kept
	// opaque (not simulated).
	DataSource                *RawValue `json:"dataSource,omitempty"`
	DataSourceRef             *RawValue `json:"dataSourceRef,omitempty"`
	VolumeAttributesClassName *string   `json:"volumeAttributesClassName,omitempty"`
}

// VolumeResourceRequirements are a claim's storage requests and limits.
type VolumeResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty"`
	Requests ResourceList `json:"requests,omitempty"`
}

// PersistentVolumeClaimStatus is a claim's observed state.
type PersistentVolumeClaimStatus struct {
	// Phase is Pending, Bound or Lost.
	Phase string `json:"phase,omitempty"`
	// AccessModes and Capacity are the bound volume's.
	AccessModes []string     `json:"accessModes,omitempty"`
	Capacity    ResourceList `json:"capacity,omitempty"`
	// The rest is kept opaque (resizing and attributes classes are not
	// simulated).
	Conditions                       []RawValue   `json:"conditions,omitempty"`
	AllocatedResources               ResourceList `json:"allocatedResources,omitempty"`
	AllocatedResourceStatuses        *RawValue    `json:"allocatedResourceStatuses,omitempty"`
	CurrentVolumeAttributesClassName *string      `json:"currentVolumeAttributesClassName,omitempty"`
	ModifyVolumeStatus               *RawValue    `json:"modifyVolumeStatus,omitempty"`
}

// StorageClassName returns the claim's class name, "" for none.
func (c *PersistentVolumeClaim) StorageClassName() string {
	if c.Spec.StorageClassName != nil {
		return *c.Spec.StorageClassName
	}
	return ""
}

// PersistentVolume is a piece of storage in the cluster.
type PersistentVolume struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the volume's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec describes the volume.
	Spec PersistentVolumeSpec `json:"spec,omitempty"`
	// Status is what the PV controller observed.
	Status PersistentVolumeStatus `json:"status,omitempty"`
}

// PersistentVolumeSpec describes a volume. Its source (hostPath, csi,
// nfs, local, ...) is kept opaque: every key the spec does not name is
// stored in Source and written back verbatim.
type PersistentVolumeSpec struct {
	// Capacity holds the volume's storage.
	Capacity ResourceList `json:"capacity,omitempty"`
	// AccessModes the volume offers.
	AccessModes []string `json:"accessModes,omitempty"`
	// ClaimRef is the claim the volume is bound (or reserved) to.
	ClaimRef *ObjectReference `json:"claimRef,omitempty"`
	// PersistentVolumeReclaimPolicy is Retain (default for volumes
	// created by hand), Delete or Recycle.
	PersistentVolumeReclaimPolicy string `json:"persistentVolumeReclaimPolicy,omitempty"`
	// StorageClassName is the volume's class, "" for none.
	StorageClassName string `json:"storageClassName,omitempty"`
	// MountOptions are kept for round trips.
	MountOptions []string `json:"mountOptions,omitempty"`
	// VolumeMode is Filesystem (default) or Block.
	VolumeMode *string `json:"volumeMode,omitempty"`
	// NodeAffinity restricts the nodes that can reach the volume.
	NodeAffinity *VolumeNodeAffinity `json:"nodeAffinity,omitempty"`
	// VolumeAttributesClassName is kept (not simulated).
	VolumeAttributesClassName *string `json:"volumeAttributesClassName,omitempty"`
	// Source maps the volume source's JSON key (e.g. "hostPath") to its
	// value.
	Source map[string]RawValue `json:"-"`
}

// pvSpecFields are the keys of PersistentVolumeSpec that are not a
// source.
var pvSpecFields = map[string]bool{"capacity": true, "accessModes": true, "claimRef": true, "persistentVolumeReclaimPolicy": true,
	"storageClassName": true, "mountOptions": true, "volumeMode": true, "nodeAffinity": true, "volumeAttributesClassName": true}

type pvSpecFieldsOnly struct {
	Capacity                      ResourceList        `json:"capacity,omitempty"`
	AccessModes                   []string            `json:"accessModes,omitempty"`
	ClaimRef                      *ObjectReference    `json:"claimRef,omitempty"`
	PersistentVolumeReclaimPolicy string              `json:"persistentVolumeReclaimPolicy,omitempty"`
	StorageClassName              string              `json:"storageClassName,omitempty"`
	MountOptions                  []string            `json:"mountOptions,omitempty"`
	VolumeMode                    *string             `json:"volumeMode,omitempty"`
	NodeAffinity                  *VolumeNodeAffinity `json:"nodeAffinity,omitempty"`
	VolumeAttributesClassName     *string             `json:"volumeAttributesClassName,omitempty"`
}

// MarshalJSON writes the named fields, then the source keys sorted.
func (s PersistentVolumeSpec) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(pvSpecFieldsOnly{s.Capacity, s.AccessModes, s.ClaimRef, s.PersistentVolumeReclaimPolicy,
		s.StorageClassName, s.MountOptions, s.VolumeMode, s.NodeAffinity, s.VolumeAttributesClassName})
	if err != nil || len(s.Source) == 0 {
		return b, err
	}
	src, err := Volume{Source: s.Source}.MarshalJSON()
	if err != nil {
		return nil, err
	}
	// src is {"name":"",...}: splice its source keys into b.
	rest := src[len(`{"name":""`):]
	if len(b) == 2 { // {}
		return append([]byte{'{'}, rest[1:]...), nil
	}
	return append(b[:len(b)-1], rest...), nil
}

// UnmarshalJSON reads the named fields and keeps every other key as the
// source.
func (s *PersistentVolumeSpec) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	named := map[string]json.RawMessage{}
	out := PersistentVolumeSpec{}
	for k, raw := range m {
		if pvSpecFields[k] {
			named[k] = raw
			continue
		}
		var rv RawValue
		if err := rv.UnmarshalJSON(raw); err != nil {
			return err
		}
		if out.Source == nil {
			out.Source = map[string]RawValue{}
		}
		out.Source[k] = rv
	}
	nb, err := json.Marshal(named)
	if err != nil {
		return err
	}
	var f pvSpecFieldsOnly
	if err := json.Unmarshal(nb, &f); err != nil {
		return err
	}
	out.Capacity, out.AccessModes, out.ClaimRef, out.PersistentVolumeReclaimPolicy = f.Capacity, f.AccessModes, f.ClaimRef, f.PersistentVolumeReclaimPolicy
	out.StorageClassName, out.MountOptions, out.VolumeMode, out.NodeAffinity, out.VolumeAttributesClassName = f.StorageClassName, f.MountOptions, f.VolumeMode, f.NodeAffinity, f.VolumeAttributesClassName
	*s = out
	return nil
}

// VolumeNodeAffinity restricts the nodes a volume can be reached from.
type VolumeNodeAffinity struct {
	// Required must match the node of every pod using the volume.
	Required *NodeSelector `json:"required,omitempty"`
}

// PersistentVolumeStatus is a volume's observed state.
type PersistentVolumeStatus struct {
	// Phase is Pending, Available, Bound, Released or Failed.
	Phase string `json:"phase,omitempty"`
	// Message and Reason explain a Failed phase.
	Message string `json:"message,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// LastPhaseTransitionTime is when the phase last changed.
	LastPhaseTransitionTime *Time `json:"lastPhaseTransitionTime,omitempty"`
}

// StorageClass describes a class of dynamically provisioned storage.
type StorageClass struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the class's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Provisioner names the volume plugin that provisions volumes.
	Provisioner string `json:"provisioner"`
	// Parameters are passed to the provisioner (kept, not interpreted).
	Parameters map[string]string `json:"parameters,omitempty"`
	// ReclaimPolicy of the volumes provisioned (default Delete).
	ReclaimPolicy *string `json:"reclaimPolicy,omitempty"`
	// MountOptions are kept for round trips.
	MountOptions []string `json:"mountOptions,omitempty"`
	// AllowVolumeExpansion is kept (expansion is not simulated).
	AllowVolumeExpansion *bool `json:"allowVolumeExpansion,omitempty"`
	// VolumeBindingMode is Immediate (default) or WaitForFirstConsumer.
	VolumeBindingMode *string `json:"volumeBindingMode,omitempty"`
	// AllowedTopologies restricts where volumes are provisioned.
	AllowedTopologies []TopologySelectorTerm `json:"allowedTopologies,omitempty"`
}

// TopologySelectorTerm is a conjunction of label requirements.
type TopologySelectorTerm struct {
	MatchLabelExpressions []TopologySelectorLabelRequirement `json:"matchLabelExpressions,omitempty"`
}

// TopologySelectorLabelRequirement is a label key and its allowed values.
type TopologySelectorLabelRequirement struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// IsDefaultClass reports whether the class is annotated as the default.
func (c *StorageClass) IsDefaultClass() bool {
	return c.Annotations[AnnDefaultStorageClass] == "true" || c.Annotations["storageclass.beta.kubernetes.io/is-default-class"] == "true"
}

// DefaultStorageClass is upstream's GetDefaultClass over classes (other
// objects are skipped): the name of the default class, of several the
// newest (then the first by name), "" for none.
func DefaultStorageClass(classes []Object) string {
	var best *StorageClass
	for _, o := range classes {
		c, ok := o.(*StorageClass)
		if !ok || !c.IsDefaultClass() {
			continue
		}
		if best == nil || c.CreationTimestamp.Time.After(best.CreationTimestamp.Time) ||
			c.CreationTimestamp.Time.Equal(best.CreationTimestamp.Time) && c.Name < best.Name {
			best = c
		}
	}
	if best == nil {
		return ""
	}
	return best.Name
}

// Claims and volumes are copied field by field: the StatefulSet
// controller creates a claim a replica and the volume controller binds
// each claim to a volume, writing both. TestDeepCopyIndependent fails
// when a field is left out.

// DeepCopyObject returns a deep copy of in (nil for nil).
func (in *PersistentVolumeClaim) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a deep copy of in (nil for nil).
func (in *PersistentVolumeClaim) DeepCopy() *PersistentVolumeClaim {
	if in == nil {
		return nil
	}
	out := new(PersistentVolumeClaim)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *PersistentVolumeClaim) DeepCopyInto(out *PersistentVolumeClaim) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	s, o := &in.Spec, &out.Spec
	o.AccessModes = slices.Clone(s.AccessModes)
	o.Selector = s.Selector.DeepCopy()
	o.Resources.Limits = s.Resources.Limits.DeepCopy()
	o.Resources.Requests = s.Resources.Requests.DeepCopy()
	o.StorageClassName = copyPtr(s.StorageClassName)
	o.VolumeMode = copyPtr(s.VolumeMode)
	o.DataSource = copyRawPtr(s.DataSource)
	o.DataSourceRef = copyRawPtr(s.DataSourceRef)
	o.VolumeAttributesClassName = copyPtr(s.VolumeAttributesClassName)
	st, ot := &in.Status, &out.Status
	ot.AccessModes = slices.Clone(st.AccessModes)
	ot.Capacity = st.Capacity.DeepCopy()
	ot.Conditions = copyRaws(st.Conditions)
	ot.AllocatedResources = st.AllocatedResources.DeepCopy()
	ot.AllocatedResourceStatuses = copyRawPtr(st.AllocatedResourceStatuses)
	ot.CurrentVolumeAttributesClassName = copyPtr(st.CurrentVolumeAttributesClassName)
	ot.ModifyVolumeStatus = copyRawPtr(st.ModifyVolumeStatus)
}

// DeepCopyObject returns a deep copy of in (nil for nil).
func (in *PersistentVolume) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a deep copy of in (nil for nil).
func (in *PersistentVolume) DeepCopy() *PersistentVolume {
	if in == nil {
		return nil
	}
	out := new(PersistentVolume)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *PersistentVolume) DeepCopyInto(out *PersistentVolume) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	s, o := &in.Spec, &out.Spec
	o.Capacity = s.Capacity.DeepCopy()
	o.AccessModes = slices.Clone(s.AccessModes)
	o.ClaimRef = copyPtr(s.ClaimRef) // ObjectReference holds strings only
	o.MountOptions = slices.Clone(s.MountOptions)
	o.VolumeMode = copyPtr(s.VolumeMode)
	if s.NodeAffinity != nil {
		o.NodeAffinity = &VolumeNodeAffinity{Required: s.NodeAffinity.Required.DeepCopy()}
	}
	o.VolumeAttributesClassName = copyPtr(s.VolumeAttributesClassName)
	if s.Source != nil {
		o.Source = make(map[string]RawValue, len(s.Source))
		for k, v := range s.Source {
			o.Source[k] = v.DeepCopy()
		}
	}
	out.Status.LastPhaseTransitionTime = copyPtr(in.Status.LastPhaseTransitionTime)
}

// DeepCopyObject returns a deep copy of in.
func (in *StorageClass) DeepCopyObject() Object { return deepCopyReflect(in) }

// DeepCopy returns a deep copy of in.
func (in *StorageClass) DeepCopy() *StorageClass {
	if in == nil {
		return nil
	}
	return deepCopyReflect(in).(*StorageClass)
}

// SetDefaultsPersistentVolumeClaim applies core/v1 defaults (k/k
// pkg/apis/core/v1/defaults.go SetDefaults_PersistentVolumeClaim and
// SetDefaults_PersistentVolumeClaimSpec): volumeMode Filesystem, phase
// Pending.
func SetDefaultsPersistentVolumeClaim(c *PersistentVolumeClaim) {
	if c.Spec.VolumeMode == nil {
		m := VolumeModeFilesystem
		c.Spec.VolumeMode = &m
	}
	if c.Status.Phase == "" {
		c.Status.Phase = ClaimPending
	}
}

// SetDefaultsPersistentVolume applies core/v1 defaults
// (SetDefaults_PersistentVolume): phase Pending, reclaim policy Retain,
// volumeMode Filesystem.
func SetDefaultsPersistentVolume(v *PersistentVolume) {
	if v.Status.Phase == "" {
		v.Status.Phase = VolumePending
	}
	if v.Spec.PersistentVolumeReclaimPolicy == "" {
		v.Spec.PersistentVolumeReclaimPolicy = ReclaimRetain
	}
	if v.Spec.VolumeMode == nil {
		m := VolumeModeFilesystem
		v.Spec.VolumeMode = &m
	}
}

// SetDefaultsStorageClass applies storage/v1 defaults (k/k
// pkg/apis/storage/v1/defaults.go SetDefaults_StorageClass): reclaim
// policy Delete, volumeBindingMode Immediate.
func SetDefaultsStorageClass(c *StorageClass) {
	if c.ReclaimPolicy == nil {
		p := ReclaimDelete
		c.ReclaimPolicy = &p
	}
	if c.VolumeBindingMode == nil {
		m := VolumeBindingImmediate
		c.VolumeBindingMode = &m
	}
}

// ClaimNames returns the claims a pod's volumes name
// (persistentVolumeClaim.claimName), in volume order. Generic ephemeral
// volumes are not simulated (the scenario loader warns about them).
func ClaimNames(p *Pod) []string {
	var out []string
	for _, v := range p.Spec.Volumes {
		if raw, ok := v.Source["persistentVolumeClaim"]; ok {
			var src struct {
				ClaimName string `json:"claimName"`
			}
			if raw.Decode(&src) == nil && src.ClaimName != "" {
				out = append(out, src.ClaimName)
			}
		}
	}
	return out
}
