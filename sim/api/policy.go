package api

// ---- PodDisruptionBudget, Eviction (policy/v1) ----
//
// Field names and meanings follow k8s.io/api policy/v1 types.go.

// PodDisruptionBudget bounds how many of a set of pods voluntary
// disruptions (evictions) may take down at once.
type PodDisruptionBudget struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the budget's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// Spec is the desired budget.
	Spec PodDisruptionBudgetSpec `json:"spec,omitempty"`
	// Status is written by the disruption controller (and decremented by
	// the eviction subresource).
	Status PodDisruptionBudgetStatus `json:"status,omitempty"`
}

// UnhealthyPodEvictionPolicyType is how the eviction subresource treats
// pods that are running but not ready.
type UnhealthyPodEvictionPolicyType string

// The unhealthy pod eviction policies.
const (
	// IfHealthyBudget evicts a running, not-ready pod only when the
	// budget is met (currentHealthy >= desiredHealthy): the default.
	IfHealthyBudget UnhealthyPodEvictionPolicyType = "IfHealthyBudget"
	// AlwaysAllow evicts running, not-ready pods whatever the budget.
	AlwaysAllow UnhealthyPodEvictionPolicyType = "AlwaysAllow"
)

// PodDisruptionBudgetSpec is the desired budget: exactly one of
// MinAvailable and MaxUnavailable (validation), each a count or a
// percentage.
type PodDisruptionBudgetSpec struct {
	// MinAvailable is how many selected pods must stay available after an
	// eviction ("100%" forbids every eviction).
	MinAvailable *IntOrString `json:"minAvailable,omitempty"`
	// Selector selects the pods; an empty selector selects every pod of
	// the namespace (policy/v1), a nil one none.
	Selector *LabelSelector `json:"selector,omitempty"`
	// MaxUnavailable is how many selected pods may be unavailable after an
	// eviction.
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty"`
	// UnhealthyPodEvictionPolicy: IfHealthyBudget (default when unset) or
	// AlwaysAllow.
	UnhealthyPodEvictionPolicy *UnhealthyPodEvictionPolicyType `json:"unhealthyPodEvictionPolicy,omitempty"`
}

// PodDisruptionBudgetStatus is the budget as the disruption controller
// last computed it.
type PodDisruptionBudgetStatus struct {
	// ObservedGeneration is the generation the status was computed for;
	// the eviction subresource refuses to evict (429) until it catches up.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// DisruptedPods maps the pods the eviction subresource has approved
	// but the controller has not yet seen deleted to the time of
	// approval; entries older than two minutes are dropped.
	DisruptedPods map[string]Time `json:"disruptedPods,omitempty"`
	// DisruptionsAllowed is how many pods may be evicted now.
	DisruptionsAllowed int32 `json:"disruptionsAllowed"`
	// CurrentHealthy is the number of selected pods that are ready and
	// not being deleted or disrupted.
	CurrentHealthy int32 `json:"currentHealthy"`
	// DesiredHealthy is the minimum number of healthy pods the budget
	// asks for.
	DesiredHealthy int32 `json:"desiredHealthy"`
	// ExpectedPods is the total number of pods the budget counts: the
	// selected pods (integer minAvailable) or the scale of their
	// controllers (percentages, maxUnavailable).
	ExpectedPods int32 `json:"expectedPods"`
	// Conditions: DisruptionAllowed.
	Conditions []Condition `json:"conditions,omitempty"`
}

// The PodDisruptionBudget condition and its reasons (policy/v1 types.go).
const (
	// DisruptionAllowedCondition is True when disruptionsAllowed > 0.
	DisruptionAllowedCondition = "DisruptionAllowed"
	// SyncFailedReason: the controller could not compute the status.
	SyncFailedReason = "SyncFailed"
	// SufficientPodsReason: enough healthy pods to allow a disruption.
	SufficientPodsReason = "SufficientPods"
	// InsufficientPodsReason: not enough healthy pods.
	InsufficientPodsReason = "InsufficientPods"
	// DisruptionBudgetCause is the cause type of a 429 from the eviction
	// subresource.
	DisruptionBudgetCause = "DisruptionBudget"
)

// Condition is apimachinery's metav1.Condition: the standard condition of
// newer kinds.
type Condition struct {
	// Type is the condition's name in CamelCase.
	Type string `json:"type"`
	// Status is True, False or Unknown.
	Status ConditionStatus `json:"status"`
	// ObservedGeneration is the generation the condition was set for.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// LastTransitionTime is when the status last changed.
	LastTransitionTime Time `json:"lastTransitionTime"`
	// Reason is a CamelCase reason for the status.
	Reason string `json:"reason"`
	// Message is a human-readable explanation.
	Message string `json:"message"`
}

// FindCondition returns the condition of type t in conds, or nil
// (apimeta.FindStatusCondition).
func FindCondition(conds []Condition, t string) *Condition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

// SetCondition sets c in *conds as apimeta.SetStatusCondition does: a new
// type is appended (lastTransitionTime c's, or now when zero); an existing
// one keeps its lastTransitionTime unless the status changes, and takes
// c's reason, message and observedGeneration.
func SetCondition(conds *[]Condition, c Condition, now Time) {
	old := FindCondition(*conds, c.Type)
	if old == nil {
		if c.LastTransitionTime.IsZero() {
			c.LastTransitionTime = now
		}
		*conds = append(*conds, c)
		return
	}
	if old.Status != c.Status {
		old.Status = c.Status
		old.LastTransitionTime = c.LastTransitionTime
		if old.LastTransitionTime.IsZero() {
			old.LastTransitionTime = now
		}
	}
	old.Reason, old.Message, old.ObservedGeneration = c.Reason, c.Message, c.ObservedGeneration
}

// UpdateDisruptionAllowedCondition sets the DisruptionAllowed condition
// from status.disruptionsAllowed, as k8s.io/component-helpers
// apps/poddisruptionbudget's helper of that name (used by both the
// eviction subresource and the disruption controller): True
// SufficientPods when a disruption is allowed, else False
// InsufficientPods.
func (in *PodDisruptionBudget) UpdateDisruptionAllowedCondition(now Time) {
	c := Condition{Type: DisruptionAllowedCondition, Status: ConditionFalse, Reason: InsufficientPodsReason, ObservedGeneration: in.Status.ObservedGeneration}
	if in.Status.DisruptionsAllowed > 0 {
		c.Status, c.Reason = ConditionTrue, SufficientPodsReason
	}
	if in.Status.Conditions == nil {
		in.Status.Conditions = []Condition{}
	}
	SetCondition(&in.Status.Conditions, c, now)
}

// Eviction is the body of a create on a pod's eviction subresource
// (policy/v1 Eviction): evict the pod it names, if the disruption budgets
// allow it.
type Eviction struct {
	// TypeMeta holds apiVersion (policy/v1) and kind (Eviction).
	TypeMeta `json:",inline"`
	// ObjectMeta names the pod (name, namespace).
	ObjectMeta `json:"metadata,omitempty"`
	// DeleteOptions may set the grace period of the pod's deletion.
	DeleteOptions *EvictionDeleteOptions `json:"deleteOptions,omitempty"`
}

// EvictionDeleteOptions are the DeleteOptions an Eviction may carry (the
// subset the simulator honours).
type EvictionDeleteOptions struct {
	// GracePeriodSeconds overrides the pod's terminationGracePeriodSeconds.
	GracePeriodSeconds *int64 `json:"gracePeriodSeconds,omitempty"`
}

// DeepCopyInto copies in into out.
func (in *PodDisruptionBudget) DeepCopyInto(out *PodDisruptionBudget) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Spec.MinAvailable != nil {
		v := *in.Spec.MinAvailable
		out.Spec.MinAvailable = &v
	}
	if in.Spec.MaxUnavailable != nil {
		v := *in.Spec.MaxUnavailable
		out.Spec.MaxUnavailable = &v
	}
	out.Spec.Selector = in.Spec.Selector.DeepCopy()
	if in.Spec.UnhealthyPodEvictionPolicy != nil {
		v := *in.Spec.UnhealthyPodEvictionPolicy
		out.Spec.UnhealthyPodEvictionPolicy = &v
	}
	if in.Status.DisruptedPods != nil {
		out.Status.DisruptedPods = make(map[string]Time, len(in.Status.DisruptedPods))
		for k, v := range in.Status.DisruptedPods {
			out.Status.DisruptedPods[k] = v
		}
	}
	if in.Status.Conditions != nil {
		out.Status.Conditions = append([]Condition(nil), in.Status.Conditions...)
	}
}

// DeepCopy returns a deep copy of in.
func (in *PodDisruptionBudget) DeepCopy() *PodDisruptionBudget {
	if in == nil {
		return nil
	}
	out := new(PodDisruptionBudget)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject returns a deep copy of in as an Object.
func (in *PodDisruptionBudget) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies in into out.
func (in *Eviction) DeepCopyInto(out *Eviction) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.DeleteOptions != nil {
		d := *in.DeleteOptions
		if d.GracePeriodSeconds != nil {
			g := *d.GracePeriodSeconds
			d.GracePeriodSeconds = &g
		}
		out.DeleteOptions = &d
	}
}

// DeepCopy returns a deep copy of in.
func (in *Eviction) DeepCopy() *Eviction {
	if in == nil {
		return nil
	}
	out := new(Eviction)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyObject returns a deep copy of in as an Object.
func (in *Eviction) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}
