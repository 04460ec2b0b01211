package scheduler

import "github.com/clustersim/clustersim/sim/api"

// MatchesNodeAffinity reports whether a pod with spec may run on n by its
// nodeSelector and required node affinity (component-helpers'
// nodeaffinity.GetRequiredNodeAffinity(pod).Match(node), the check the
// NodeAffinity filter makes). The daemon set controller uses it to decide
// which nodes are eligible.
func MatchesNodeAffinity(spec *api.PodSpec, n *api.Node) bool {
	pod := &api.Pod{Spec: *spec}
	var required *api.NodeSelector
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil {
		required = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	}
	return matchesNodeSelector(pod, required, invalidTerms(required), n)
}

// FindUntoleratedTaint returns the first of taints whose effect is one
// of effects and that no toleration tolerates, or nil
// (v1helper.FindMatchingUntoleratedTaint with an effect filter).
func FindUntoleratedTaint(taints []api.Taint, tols []api.Toleration, effects ...api.TaintEffect) *api.Taint {
	for i := range taints {
		t := &taints[i]
		match := false
		for _, e := range effects {
			if t.Effect == e {
				match = true
			}
		}
		if match && !tolerates(tols, t) {
			return t
		}
	}
	return nil
}

// PodRequests returns the milli-CPU and bytes of memory pod asks of a
// node, as NodeResourcesFit counts them (containers, init containers,
// sidecars and overhead). The cluster autoscaler packs pods with it.
func PodRequests(pod *api.Pod) (milliCPU, memory int64) {
	req, _ := podRequests(pod)
	return req.milliCPU, req.memory
}
