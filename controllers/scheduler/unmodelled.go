package scheduler

import (
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
)

// Unmodelled is a scheduling field of a pod spec that the API accepts and
// this scheduler does not act on.
type Unmodelled struct {
	// Field is the path in the pod spec, e.g. "preemptionPolicy".
	Field string
	// Why says what is not simulated.
	Why string
}

// UnmodelledFields lists the scheduling fields of spec that are set and
// not simulated, in field order, so that callers can warn instead of
// ignoring them silently.
func UnmodelledFields(spec *api.PodSpec) []Unmodelled {
	var out []Unmodelled
	if len(spec.ResourceClaims) > 0 {
		out = append(out, Unmodelled{"resourceClaims", "dynamic resource allocation is not simulated"})
	}
	if a := spec.Affinity; a != nil {
		if pa := a.PodAffinity; pa != nil {
			out = namespaceSelectors(out, "affinity.podAffinity", pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
		if pa := a.PodAntiAffinity; pa != nil {
			out = namespaceSelectors(out, "affinity.podAntiAffinity", pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		}
	}
	return out
}

// namespaceSelectors reports non-empty namespaceSelectors: selecting
// namespaces by their labels is not modelled ({} for all namespaces is).
func namespaceSelectors(out []Unmodelled, prefix string, req []api.PodAffinityTerm, pref []api.WeightedPodAffinityTerm) []Unmodelled {
	const why = "namespaces are not selected by label; only the listed namespaces (or {} for all) count"
	nonEmpty := func(s *api.LabelSelector) bool { return s != nil && len(s.MatchLabels)+len(s.MatchExpressions) > 0 }
	for i := range req {
		if nonEmpty(req[i].NamespaceSelector) {
			out = append(out, Unmodelled{fmt.Sprintf("%s.requiredDuringSchedulingIgnoredDuringExecution[%d].namespaceSelector", prefix, i), why})
		}
	}
	for i := range pref {
		if nonEmpty(pref[i].PodAffinityTerm.NamespaceSelector) {
			out = append(out, Unmodelled{fmt.Sprintf("%s.preferredDuringSchedulingIgnoredDuringExecution[%d].podAffinityTerm.namespaceSelector", prefix, i), why})
		}
	}
	return out
}
