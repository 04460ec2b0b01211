package scheduler

import (
	"math"

	"github.com/clustersim/clustersim/sim/api"
)

// newInterPodFilterPodByPod is InterPodAffinity's PreFilter as upstream's
// loops make it, pod by pod (newInterPodFilter before its memos), the
// reference TestInterPodMemoMatchesDirect compares newInterPodFilter with.
func newInterPodFilterPodByPod(pi *podInfo, nodes []*nodeInfo, withAffinity int) *interPodFilter {
	pt := compileTerms(pi.pod, nil)
	own := len(pt.affinity)+len(pt.antiAffinity) > 0
	if !own && withAffinity == 0 {
		return nil
	}
	f := &interPodFilter{terms: pt, affinity: map[topologyPair]int{}, anti: map[topologyPair]int{}, existing: map[topologyPair]int{}}
	for _, ni := range nodes {
		labels := ni.node.Labels
		for _, e := range ni.entries {
			if withAffinity > 0 && hasPodAffinity(e.pod) {
				et := compileTerms(e.pod, nil)
				for i := range et.antiAffinity {
					t := &et.antiAffinity[i]
					if v, ok := labels[t.key]; ok && t.matches(pi.pod) {
						f.existing[topologyPair{t.key, v}]++
					}
				}
			}
			if !own {
				continue
			}
			if matchesAll(pt.affinity, e.pod) {
				for i := range pt.affinity {
					if v, ok := labels[pt.affinity[i].key]; ok {
						f.affinity[topologyPair{pt.affinity[i].key, v}]++
					}
				}
			}
			for i := range pt.antiAffinity {
				t := &pt.antiAffinity[i]
				if v, ok := labels[t.key]; ok && t.matches(e.pod) {
					f.anti[topologyPair{t.key, v}]++
				}
			}
		}
	}
	return f
}

// interPodScorePodByPod is InterPodAffinity's score as upstream's loops
// make it, pod by pod (interPodScore before its memos).
func interPodScorePodByPod(pi *podInfo, all, feasible []*nodeInfo, withAffinity int, out []int64) bool {
	pt := compileTerms(pi.pod, nil)
	own := len(pt.preferredAffinity)+len(pt.preferredAntiAffinity) > 0
	if !own && withAffinity == 0 {
		return false
	}
	scores := map[string]map[string]int64{}
	add := func(terms []affinityTerm, target *api.Pod, labels map[string]string, weight int32, sign int64) {
		for i := range terms {
			t := &terms[i]
			if v, ok := labels[t.key]; ok && t.matches(target) {
				w := t.weight
				if weight != 0 {
					w = weight
				}
				if scores[t.key] == nil {
					scores[t.key] = map[string]int64{}
				}
				scores[t.key][v] += int64(w) * sign
			}
		}
	}
	for _, ni := range all {
		labels := ni.node.Labels
		if len(labels) == 0 {
			continue
		}
		for _, e := range ni.entries {
			if own {
				add(pt.preferredAffinity, e.pod, labels, 0, 1)
				add(pt.preferredAntiAffinity, e.pod, labels, 0, -1)
			}
			if hasPodAffinity(e.pod) {
				et := compileTerms(e.pod, nil)
				add(et.affinity, pi.pod, labels, hardPodAffinityWeight, 1)
				add(et.preferredAffinity, pi.pod, labels, 0, 1)
				add(et.preferredAntiAffinity, pi.pod, labels, 0, -1)
			}
		}
	}
	return scoreDomains(scores, feasible, out)
}

// scoreDomains gives each feasible node the sum of its labels' domain
// scores, min-max normalized to 0..MaxNodeScore (all 0 when they are
// equal); false, and out untouched, when no domain scored (upstream's
// Skip).
func scoreDomains(scores map[string]map[string]int64, feasible []*nodeInfo, out []int64) bool {
	if len(scores) == 0 {
		return false
	}
	minScore, maxScore := int64(math.MaxInt64), int64(math.MinInt64)
	for j, ni := range feasible {
		var s int64
		for key, values := range scores {
			if v, ok := ni.label(key); ok {
				s += values[v]
			}
		}
		out[j] = s
		minScore, maxScore = min(minScore, s), max(maxScore, s)
	}
	normalizeDomainScores(out, minScore, maxScore)
	return true
}
