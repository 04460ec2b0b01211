package api

// ---- DaemonSet (apps/v1) ----

// DaemonSet runs one copy of a pod on every eligible node (k8s.io/api
// apps/v1 DaemonSet).
type DaemonSet struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the daemon set's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired state.
	Spec DaemonSetSpec `json:"spec,omitempty"`
	// Status is the observed state, written by the daemon set controller.
	Status DaemonSetStatus `json:"status,omitempty"`
}

// DaemonSetSpec is the desired state of a daemon set.
type DaemonSetSpec struct {
	// Selector must match the template's labels.
	Selector *LabelSelector `json:"selector"`
	// Template is the pod template of every daemon pod; its nodeSelector,
	// node affinity and tolerations decide which nodes are eligible.
	Template PodTemplateSpec `json:"template"`
	// UpdateStrategy is how old pods are replaced; defaults to
	// RollingUpdate with maxUnavailable 1 and maxSurge 0.
	UpdateStrategy DaemonSetUpdateStrategy `json:"updateStrategy,omitempty"`
	// MinReadySeconds a pod must be ready to count as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is how many old revisions to keep; defaults to
	// 10 (accepted; the simulator keeps no ControllerRevisions).
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
}

// DaemonSetUpdateStrategyType names a daemon set update strategy.
type DaemonSetUpdateStrategyType string

const (
	// RollingUpdateDaemonSetStrategyType replaces old pods, at most
	// maxUnavailable at a time (default).
	RollingUpdateDaemonSetStrategyType DaemonSetUpdateStrategyType = "RollingUpdate"
	// OnDeleteDaemonSetStrategyType replaces an old pod only once someone
	// deletes it.
	OnDeleteDaemonSetStrategyType DaemonSetUpdateStrategyType = "OnDelete"
)

// DaemonSetUpdateStrategy is how a daemon set replaces pods.
type DaemonSetUpdateStrategy struct {
	// Type defaults to RollingUpdate.
	Type DaemonSetUpdateStrategyType `json:"type,omitempty"`
	// RollingUpdate parameters; only with Type RollingUpdate.
	RollingUpdate *RollingUpdateDaemonSet `json:"rollingUpdate,omitempty"`
}

// RollingUpdateDaemonSet bounds a daemon set's rolling update.
type RollingUpdateDaemonSet struct {
	// MaxUnavailable daemon pods during the update (int or percent of the
	// desired number, rounded up); defaults to 1.
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	// MaxSurge new pods started on a node before its old one is deleted
	// (int or percent, rounded up); defaults to 0. Only 0 is simulated: a
	// non-zero value is named by a warning.
	MaxSurge *IntOrString `json:"maxSurge,omitempty"`
}

// DaemonSetStatus is the observed state of a daemon set.
type DaemonSetStatus struct {
	// CurrentNumberScheduled counts eligible nodes running at least one
	// daemon pod.
	CurrentNumberScheduled int32 `json:"currentNumberScheduled"`
	// NumberMisscheduled counts nodes running a daemon pod that should
	// not.
	NumberMisscheduled int32 `json:"numberMisscheduled"`
	// DesiredNumberScheduled counts nodes that should run the daemon pod.
	DesiredNumberScheduled int32 `json:"desiredNumberScheduled"`
	// NumberReady counts eligible nodes whose oldest daemon pod is ready.
	NumberReady int32 `json:"numberReady"`
	// ObservedGeneration is the generation the controller last acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// UpdatedNumberScheduled counts nodes running the current template.
	UpdatedNumberScheduled int32 `json:"updatedNumberScheduled,omitempty"`
	// NumberAvailable counts nodes whose daemon pod has been ready for
	// minReadySeconds.
	NumberAvailable int32 `json:"numberAvailable,omitempty"`
	// NumberUnavailable is desired minus available.
	NumberUnavailable int32 `json:"numberUnavailable,omitempty"`
	// CollisionCount disambiguates template-hash collisions.
	CollisionCount *int32 `json:"collisionCount,omitempty"`
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *DaemonSet) DeepCopyInto(out *DaemonSet) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	in.Spec.DeepCopyInto(&out.Spec)
	out.Status = in.Status
	if in.Status.CollisionCount != nil {
		c := *in.Status.CollisionCount
		out.Status.CollisionCount = &c
	}
}

// DeepCopy returns a new DaemonSet sharing no memory with in (nil for nil).
func (in *DaemonSet) DeepCopy() *DaemonSet {
	if in == nil {
		return nil
	}
	out := new(DaemonSet)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject returns a deep copy of in as an Object.
func (in *DaemonSet) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *DaemonSetSpec) DeepCopyInto(out *DaemonSetSpec) {
	*out = *in
	if in.Selector != nil {
		out.Selector = new(LabelSelector)
		in.Selector.DeepCopyInto(out.Selector)
	}
	in.Template.DeepCopyInto(&out.Template)
	if in.UpdateStrategy.RollingUpdate != nil {
		ru := *in.UpdateStrategy.RollingUpdate
		if ru.MaxUnavailable != nil {
			v := *ru.MaxUnavailable
			ru.MaxUnavailable = &v
		}
		if ru.MaxSurge != nil {
			v := *ru.MaxSurge
			ru.MaxSurge = &v
		}
		out.UpdateStrategy.RollingUpdate = &ru
	}
	if in.RevisionHistoryLimit != nil {
		v := *in.RevisionHistoryLimit
		out.RevisionHistoryLimit = &v
	}
}

// SetDefaultsDaemonSet applies apps/v1 DaemonSet defaults
// (k/k pkg/apis/apps/v1/defaults.go SetDefaults_DaemonSet): updateStrategy
// RollingUpdate with maxUnavailable 1 and maxSurge 0, revisionHistoryLimit
// 10, and the pod template's spec defaults.
func SetDefaultsDaemonSet(ds *DaemonSet) {
	s := &ds.Spec.UpdateStrategy
	if s.Type == "" {
		s.Type = RollingUpdateDaemonSetStrategyType
	}
	if s.Type == RollingUpdateDaemonSetStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &RollingUpdateDaemonSet{}
		}
		if s.RollingUpdate.MaxUnavailable == nil {
			v := FromInt32(1)
			s.RollingUpdate.MaxUnavailable = &v
		}
		if s.RollingUpdate.MaxSurge == nil {
			v := FromInt32(0)
			s.RollingUpdate.MaxSurge = &v
		}
	}
	if ds.Spec.RevisionHistoryLimit == nil {
		ds.Spec.RevisionHistoryLimit = int32Ptr(10)
	}
	SetDefaultsPodSpec(&ds.Spec.Template.Spec)
}

// The node condition taints a daemon pod tolerates besides not-ready,
// unreachable and unschedulable (k8s.io/api core/v1 well_known_taints.go).
const (
	// TaintNodeMemoryPressure is added when the node reports MemoryPressure.
	TaintNodeMemoryPressure = "node.kubernetes.io/memory-pressure"
	// TaintNodeDiskPressure is added when the node reports DiskPressure.
	TaintNodeDiskPressure = "node.kubernetes.io/disk-pressure"
	// TaintNodePIDPressure is added when the node reports PIDPressure.
	TaintNodePIDPressure = "node.kubernetes.io/pid-pressure"
	// TaintNodeNetworkUnavailable is added when the node's network is
	// unavailable.
	TaintNodeNetworkUnavailable = "node.kubernetes.io/network-unavailable"
)

// Labels the daemon set controller puts on its pods.
const (
	// LabelControllerRevisionHash is the hash of the template a daemon
	// pod was created from (apps/v1 ControllerRevisionHashLabelKey, and
	// DefaultDaemonSetUniqueLabelKey).
	LabelControllerRevisionHash = "controller-revision-hash"
)
