package api

// Pod placement rules beyond node affinity: topology spread constraints
// and inter-pod (anti-)affinity, as in k8s.io/api core/v1 types.go.

// UnsatisfiableConstraintAction says what the scheduler does with a pod
// whose topology spread constraint no node satisfies.
type UnsatisfiableConstraintAction string

const (
	// DoNotSchedule filters out nodes that would break maxSkew.
	DoNotSchedule UnsatisfiableConstraintAction = "DoNotSchedule"
	// ScheduleAnyway only ranks nodes by how little they break maxSkew.
	ScheduleAnyway UnsatisfiableConstraintAction = "ScheduleAnyway"
)

// NodeInclusionPolicy says whether a node's affinity or taints are
// honoured when topology spread counts the node's domain.
type NodeInclusionPolicy string

const (
	// NodeInclusionPolicyIgnore counts every node.
	NodeInclusionPolicyIgnore NodeInclusionPolicy = "Ignore"
	// NodeInclusionPolicyHonor counts only nodes the pod could pass.
	NodeInclusionPolicyHonor NodeInclusionPolicy = "Honor"
)

// TopologySpreadConstraint spreads matching pods over topology domains.
type TopologySpreadConstraint struct {
	// MaxSkew is the largest allowed difference between the number of
	// matching pods in a domain and the global minimum; at least 1.
	MaxSkew int32 `json:"maxSkew"`
	// TopologyKey is the node label whose values are the domains.
	TopologyKey string `json:"topologyKey"`
	// WhenUnsatisfiable is DoNotSchedule or ScheduleAnyway.
	WhenUnsatisfiable UnsatisfiableConstraintAction `json:"whenUnsatisfiable"`
	// LabelSelector finds the pods counted; nil counts none.
	LabelSelector *LabelSelector `json:"labelSelector,omitempty"`
	// MinDomains, with DoNotSchedule, treats the global minimum as 0 while
	// fewer domains are eligible; nil means 1.
	MinDomains *int32 `json:"minDomains,omitempty"`
	// NodeAffinityPolicy defaults to Honor.
	NodeAffinityPolicy *NodeInclusionPolicy `json:"nodeAffinityPolicy,omitempty"`
	// NodeTaintsPolicy defaults to Ignore.
	NodeTaintsPolicy *NodeInclusionPolicy `json:"nodeTaintsPolicy,omitempty"`
	// MatchLabelKeys adds the incoming pod's values of these labels to
	// LabelSelector.
	MatchLabelKeys []string `json:"matchLabelKeys,omitempty"`
}

// PodAffinity attracts the pod to domains running matching pods.
type PodAffinity struct {
	// RequiredDuringSchedulingIgnoredDuringExecution terms must all hold.
	RequiredDuringSchedulingIgnoredDuringExecution []PodAffinityTerm `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	// PreferredDuringSchedulingIgnoredDuringExecution add weights to
	// matching nodes' scores.
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAntiAffinity repels the pod from domains running matching pods.
type PodAntiAffinity struct {
	// RequiredDuringSchedulingIgnoredDuringExecution terms must all hold.
	RequiredDuringSchedulingIgnoredDuringExecution []PodAffinityTerm `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	// PreferredDuringSchedulingIgnoredDuringExecution subtract weights
	// from matching nodes' scores.
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAffinityTerm selects pods in namespaces and a topology domain.
type PodAffinityTerm struct {
	// LabelSelector finds the pods; nil matches none.
	LabelSelector *LabelSelector `json:"labelSelector,omitempty"`
	// Namespaces lists the namespaces searched; empty (with a nil
	// NamespaceSelector) means the pod's own.
	Namespaces []string `json:"namespaces,omitempty"`
	// TopologyKey is the node label whose values are the domains.
	TopologyKey string `json:"topologyKey"`
	// NamespaceSelector selects namespaces by label; {} means all.
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty"`
	// MatchLabelKeys adds "key in (incoming pod's value)" to LabelSelector.
	MatchLabelKeys []string `json:"matchLabelKeys,omitempty"`
	// MismatchLabelKeys adds "key notin (incoming pod's value)".
	MismatchLabelKeys []string `json:"mismatchLabelKeys,omitempty"`
}

// WeightedPodAffinityTerm is a preferred term with its weight (1-100).
type WeightedPodAffinityTerm struct {
	// Weight is added to (affinity) or subtracted from (anti-affinity)
	// the score of nodes in a matching domain.
	Weight int32 `json:"weight"`
	// PodAffinityTerm is the term.
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm"`
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *TopologySpreadConstraint) DeepCopyInto(out *TopologySpreadConstraint) {
	*out = *in
	out.LabelSelector = in.LabelSelector.DeepCopy()
	if in.MinDomains != nil {
		v := *in.MinDomains
		out.MinDomains = &v
	}
	if in.NodeAffinityPolicy != nil {
		v := *in.NodeAffinityPolicy
		out.NodeAffinityPolicy = &v
	}
	if in.NodeTaintsPolicy != nil {
		v := *in.NodeTaintsPolicy
		out.NodeTaintsPolicy = &v
	}
	out.MatchLabelKeys = copyStrings(in.MatchLabelKeys)
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *PodAffinityTerm) DeepCopyInto(out *PodAffinityTerm) {
	*out = *in
	out.LabelSelector = in.LabelSelector.DeepCopy()
	out.NamespaceSelector = in.NamespaceSelector.DeepCopy()
	out.Namespaces = copyStrings(in.Namespaces)
	out.MatchLabelKeys = copyStrings(in.MatchLabelKeys)
	out.MismatchLabelKeys = copyStrings(in.MismatchLabelKeys)
}

func copyTerms(in []PodAffinityTerm) []PodAffinityTerm {
	if in == nil {
		return nil
	}
	out := make([]PodAffinityTerm, len(in))
	for i := range in {
		in[i].DeepCopyInto(&out[i])
	}
	return out
}

func copyWeightedTerms(in []WeightedPodAffinityTerm) []WeightedPodAffinityTerm {
	if in == nil {
		return nil
	}
	out := make([]WeightedPodAffinityTerm, len(in))
	for i := range in {
		out[i].Weight = in[i].Weight
		in[i].PodAffinityTerm.DeepCopyInto(&out[i].PodAffinityTerm)
	}
	return out
}

// DeepCopy returns a new PodAffinity sharing no memory with in (nil for nil).
func (in *PodAffinity) DeepCopy() *PodAffinity {
	if in == nil {
		return nil
	}
	return &PodAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution:  copyTerms(in.RequiredDuringSchedulingIgnoredDuringExecution),
		PreferredDuringSchedulingIgnoredDuringExecution: copyWeightedTerms(in.PreferredDuringSchedulingIgnoredDuringExecution),
	}
}

// DeepCopy returns a new PodAntiAffinity sharing no memory with in (nil for nil).
func (in *PodAntiAffinity) DeepCopy() *PodAntiAffinity {
	if in == nil {
		return nil
	}
	return &PodAntiAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution:  copyTerms(in.RequiredDuringSchedulingIgnoredDuringExecution),
		PreferredDuringSchedulingIgnoredDuringExecution: copyWeightedTerms(in.PreferredDuringSchedulingIgnoredDuringExecution),
	}
}

func copyStrings(in []string) []string {
	if in == nil {
		return nil
	}
	return append(make([]string, 0, len(in)), in...)
}
