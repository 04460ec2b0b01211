package api

// KindStatefulSet is apps/v1 StatefulSet.
var KindStatefulSet = Kind{"apps", "StatefulSet"}

// StatefulSet labels (k8s.io/api apps/v1 types.go).
const (
	// StatefulSetPodNameLabel carries a stateful pod's name.
	StatefulSetPodNameLabel = "statefulset.kubernetes.io/pod-name"
	// PodIndexLabel carries a stateful pod's ordinal.
	PodIndexLabel = "apps.kubernetes.io/pod-index"
)

// StatefulSet policies.
const (
	OrderedReadyPodManagement = "OrderedReady"
	ParallelPodManagement     = "Parallel"

	RollingUpdateStatefulSetStrategyType = "RollingUpdate"
	OnDeleteStatefulSetStrategyType      = "OnDelete"

	RetainPersistentVolumeClaimRetentionPolicyType = "Retain"
	DeletePersistentVolumeClaimRetentionPolicyType = "Delete"
)

// StatefulSet runs pods with stable names and storage (apps/v1).
type StatefulSet struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the set's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired state.
	Spec StatefulSetSpec `json:"spec,omitempty"`
	// Status is what the StatefulSet controller observed.
	Status StatefulSetStatus `json:"status,omitempty"`
}

// StatefulSetSpec is a StatefulSet's desired state.
type StatefulSetSpec struct {
	// Replicas is the desired pod count (default 1).
	Replicas *int32 `json:"replicas,omitempty"`
	// Selector must match the template's labels.
	Selector *LabelSelector `json:"selector"`
	// Template is the pods' template.
	Template PodTemplateSpec `json:"template"`
	// VolumeClaimTemplates give each pod its claims, named
	// <template>-<set>-<ordinal>.
	VolumeClaimTemplates []PersistentVolumeClaim `json:"volumeClaimTemplates,omitempty"`
	// ServiceName is the governing (headless) Service: the pods'
	// subdomain.
	ServiceName string `json:"serviceName,omitempty"`
	// PodManagementPolicy is OrderedReady (default) or Parallel.
	PodManagementPolicy string `json:"podManagementPolicy,omitempty"`
	// UpdateStrategy is RollingUpdate (default, partition 0) or OnDelete.
	UpdateStrategy StatefulSetUpdateStrategy `json:"updateStrategy,omitempty"`
	// RevisionHistoryLimit is how many old revisions to keep (default 10;
	// the simulator keeps no ControllerRevisions).
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// MinReadySeconds a pod must be ready to count as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// PersistentVolumeClaimRetentionPolicy says whether claims are deleted
	// with the set or on scale-down (default Retain, Retain).
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty"`
	// Ordinals sets the first ordinal (default 0).
	Ordinals *StatefulSetOrdinals `json:"ordinals,omitempty"`
}

// StatefulSetUpdateStrategy is how a StatefulSet replaces pods.
type StatefulSetUpdateStrategy struct {
	// Type is RollingUpdate or OnDelete.
	Type string `json:"type,omitempty"`
	// RollingUpdate parameters; only with Type RollingUpdate.
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty"`
}

// RollingUpdateStatefulSetStrategy bounds a rolling update.
type RollingUpdateStatefulSetStrategy struct {
	// Partition: pods with a lower ordinal keep the current revision
	// (default 0).
	Partition *int32 `json:"partition,omitempty"`
	// MaxUnavailable pods during the update (int or percent rounded
	// down, at least 1; default 1).
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
}

// StatefulSetPersistentVolumeClaimRetentionPolicy is what happens to
// claims from the set's templates.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	// WhenDeleted is Retain (default) or Delete.
	WhenDeleted string `json:"whenDeleted,omitempty"`
	// WhenScaled is Retain (default) or Delete.
	WhenScaled string `json:"whenScaled,omitempty"`
}

// StatefulSetOrdinals sets the ordinals' start.
type StatefulSetOrdinals struct {
	Start int32 `json:"start"`
}

// StatefulSetStatus is what the StatefulSet controller observed.
type StatefulSetStatus struct {
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Replicas counts created pods.
	Replicas int32 `json:"replicas"`
	// ReadyReplicas counts Running and Ready pods.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// CurrentReplicas counts pods at CurrentRevision.
	CurrentReplicas int32 `json:"currentReplicas,omitempty"`
	// UpdatedReplicas counts pods at UpdateRevision.
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty"`
	// CurrentRevision and UpdateRevision are revision names
	// (<set>-<hash>), the controller-revision-hash label of the pods.
	CurrentRevision string `json:"currentRevision,omitempty"`
	UpdateRevision  string `json:"updateRevision,omitempty"`
	// CollisionCount counts revision name collisions.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
	// Conditions are kept opaque (none is written).
	Conditions []RawValue `json:"conditions,omitempty"`
	// AvailableReplicas counts pods ready for minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas"`
}

// DeepCopyObject returns a deep copy of in (nil for nil).
func (in *StatefulSet) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a deep copy of in (nil for nil).
func (in *StatefulSet) DeepCopy() *StatefulSet {
	if in == nil {
		return nil
	}
	out := new(StatefulSet)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out, sharing no memory with in: field by
// field, as the StatefulSet controller writes a set's status as its
// pods change (the claim templates, rarely more than one, by their own
// copy).
func (in *StatefulSet) DeepCopyInto(out *StatefulSet) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	s, o := &in.Spec, &out.Spec
	o.Replicas = copyPtr(s.Replicas)
	o.Selector = s.Selector.DeepCopy()
	s.Template.DeepCopyInto(&o.Template)
	if s.VolumeClaimTemplates != nil {
		o.VolumeClaimTemplates = make([]PersistentVolumeClaim, len(s.VolumeClaimTemplates))
		for i := range s.VolumeClaimTemplates {
			s.VolumeClaimTemplates[i].DeepCopyInto(&o.VolumeClaimTemplates[i])
		}
	}
	if r := s.UpdateStrategy.RollingUpdate; r != nil {
		o.UpdateStrategy.RollingUpdate = &RollingUpdateStatefulSetStrategy{Partition: copyPtr(r.Partition), MaxUnavailable: copyPtr(r.MaxUnavailable)}
	}
	o.RevisionHistoryLimit = copyPtr(s.RevisionHistoryLimit)
	o.PersistentVolumeClaimRetentionPolicy = copyPtr(s.PersistentVolumeClaimRetentionPolicy)
	o.Ordinals = copyPtr(s.Ordinals)
	out.Status.CollisionCount = copyPtr(in.Status.CollisionCount)
	out.Status.Conditions = copyRaws(in.Status.Conditions)
}

// SetDefaultsStatefulSet applies apps/v1 defaults (k/k
// pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet): replicas 1,
// podManagementPolicy OrderedReady, updateStrategy RollingUpdate with
// partition 0 and maxUnavailable 1, revisionHistoryLimit 10, claim
// retention Retain/Retain; each claim template gets a claim's defaults
// and the pod template a pod's.
func SetDefaultsStatefulSet(s *StatefulSet) {
	sp := &s.Spec
	if sp.Replicas == nil {
		sp.Replicas = int32Ptr(1)
	}
	if sp.PodManagementPolicy == "" {
		sp.PodManagementPolicy = OrderedReadyPodManagement
	}
	if sp.UpdateStrategy.Type == "" {
		sp.UpdateStrategy.Type = RollingUpdateStatefulSetStrategyType
		if sp.UpdateStrategy.RollingUpdate == nil {
			sp.UpdateStrategy.RollingUpdate = &RollingUpdateStatefulSetStrategy{}
		}
	}
	if ru := sp.UpdateStrategy.RollingUpdate; sp.UpdateStrategy.Type == RollingUpdateStatefulSetStrategyType && ru != nil {
		if ru.Partition == nil {
			ru.Partition = int32Ptr(0)
		}
		if ru.MaxUnavailable == nil {
			one := FromInt32(1)
			ru.MaxUnavailable = &one
		}
	}
	if sp.RevisionHistoryLimit == nil {
		sp.RevisionHistoryLimit = int32Ptr(10)
	}
	if sp.PersistentVolumeClaimRetentionPolicy == nil {
		sp.PersistentVolumeClaimRetentionPolicy = &StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if p := sp.PersistentVolumeClaimRetentionPolicy; p.WhenDeleted == "" {
		p.WhenDeleted = RetainPersistentVolumeClaimRetentionPolicyType
	}
	if p := sp.PersistentVolumeClaimRetentionPolicy; p.WhenScaled == "" {
		p.WhenScaled = RetainPersistentVolumeClaimRetentionPolicyType
	}
	for i := range sp.VolumeClaimTemplates {
		SetDefaultsPersistentVolumeClaim(&sp.VolumeClaimTemplates[i])
	}
	SetDefaultsPodSpec(&sp.Template.Spec)
}
