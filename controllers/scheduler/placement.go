package scheduler

import (
	"math"

	"github.com/clustersim/clustersim/sim/api"
)

// PodTopologySpread and InterPodAffinity: their PreFilter and PreScore
// states are built once per scheduling cycle from the cache, the
// scheduler's snapshot of every node and the pods counted on it, in one
// pass over the nodes and their pods (O(nodes + pods)), and their Filter
// and Score are then map look-ups per node, as upstream's are
// (k/k pkg/scheduler/framework/plugins/podtopologyspread and
// .../interpodaffinity).

// Filter reasons of PodTopologySpread (filtering.go) and InterPodAffinity
// (filtering.go), verbatim.
const (
	// ReasonTopologySpread is PodTopologySpread's reason when placing the
	// pod on the node would exceed a DoNotSchedule constraint's maxSkew.
	ReasonTopologySpread = "node(s) didn't match pod topology spread constraints"
	// ReasonTopologySpreadLabel is its reason for a node without a
	// constraint's topology key.
	ReasonTopologySpreadLabel = ReasonTopologySpread + " (missing required label)"
	// ReasonPodAffinity is InterPodAffinity's reason when a required
	// affinity term finds no matching pod in the node's domain.
	ReasonPodAffinity = "node(s) didn't match pod affinity rules"
	// ReasonPodAntiAffinity is its reason when a required anti-affinity
	// term of the pod finds a matching pod in the node's domain.
	ReasonPodAntiAffinity = "node(s) didn't match pod anti-affinity rules"
	// ReasonExistingAntiAffinity is its reason when a pod in the node's
	// domain has a required anti-affinity term the pod matches.
	ReasonExistingAntiAffinity = "node(s) didn't satisfy existing pods anti-affinity rules"
)

// Default-profile weights of the two score plugins.
const (
	weightTopologySpread int64 = 2
	weightInterPod       int64 = 2
	// hardPodAffinityWeight is InterPodAffinityArgs' default: existing
	// pods' required affinity terms the pod matches score with it.
	hardPodAffinityWeight int32 = 1
)

const labelHostname = "kubernetes.io/hostname"

// topologyPair is one domain: a topology key and one of its values.
type topologyPair struct{ key, value string }

// spreadConstraint is a compiled topology spread constraint.
type spreadConstraint struct {
	maxSkew int32
	key     string
	sel     api.Selector
	// selID is sel's identity for the nodes' count memos (selectorID),
	// computed once per pod, not per node.
	selID      string
	minDomains int32
	// honorAffinity and honorTaints: the node inclusion policies.
	honorAffinity, honorTaints bool
}

// compileSpread compiles pod's constraints with the given action,
// merging matchLabelKeys into the selector (what kube-apiserver does on
// create since KEP-3243's selector merge, and the scheduler did before).
func compileSpread(pod *api.Pod, action api.UnsatisfiableConstraintAction) []spreadConstraint {
	var out []spreadConstraint
	for i := range pod.Spec.TopologySpreadConstraints {
		c := &pod.Spec.TopologySpreadConstraints[i]
		if c.WhenUnsatisfiable != action {
			continue
		}
		sc := spreadConstraint{maxSkew: c.MaxSkew, key: c.TopologyKey, minDomains: 1, honorAffinity: true}
		sc.sel = mergedSelector(c.LabelSelector, pod.Labels, c.MatchLabelKeys, nil)
		sc.selID = selectorID(sc.sel)
		if c.MinDomains != nil {
			sc.minDomains = *c.MinDomains
		}
		if p := c.NodeAffinityPolicy; p != nil {
			sc.honorAffinity = *p == api.NodeInclusionPolicyHonor
		}
		if p := c.NodeTaintsPolicy; p != nil {
			sc.honorTaints = *p == api.NodeInclusionPolicyHonor
		}
		out = append(out, sc)
	}
	return out
}

// mergedSelector compiles ls with "key in (value)" for each matchLabelKeys
// key and "key notin (value)" for each mismatchLabelKeys key that labels
// has. A nil selector matches nothing; an invalid one too (the API
// server's validation rejects it before).
func mergedSelector(ls *api.LabelSelector, labels map[string]string, match, mismatch []string) api.Selector {
	if ls == nil {
		return api.Nothing()
	}
	if len(match)+len(mismatch) > 0 {
		m := *ls
		m.MatchExpressions = append([]api.LabelSelectorRequirement(nil), ls.MatchExpressions...)
		for _, k := range match {
			if v, ok := labels[k]; ok {
				m.MatchExpressions = append(m.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpIn, Values: []string{v}})
			}
		}
		for _, k := range mismatch {
			if v, ok := labels[k]; ok {
				m.MatchExpressions = append(m.MatchExpressions, api.LabelSelectorRequirement{Key: k, Operator: api.LabelSelectorOpNotIn, Values: []string{v}})
			}
		}
		ls = &m
	}
	sel, err := api.LabelSelectorAsSelector(ls)
	if err != nil {
		return api.Nothing()
	}
	return sel
}

// hasAllKeys reports whether the node has every constraint's topology key
// (nodeLabelsMatchSpreadConstraints).
func hasAllKeys(ni *nodeInfo, cs []spreadConstraint) bool {
	for i := range cs {
		if _, ok := ni.label(cs[i].key); !ok {
			return false
		}
	}
	return true
}

// includes reports whether the node counts for constraint c of pi's pod
// (matchNodeInclusionPolicies).
func (c *spreadConstraint) includes(pi *podInfo, n *api.Node) bool {
	if c.honorAffinity && !matchesNodeSelector(pi.pod, pi.required, pi.badTerms, n) {
		return false
	}
	if c.honorTaints && untoleratedTaint(n.Spec.Taints, pi.pod.Spec.Tolerations) != nil {
		return false
	}
	return true
}

// countMatching counts the node's pods in ns that sel matches, leaving
// out terminating ones (countPodsMatchSelector), reading every pod; the
// plugins call countCached, which answers from the node's memo.
func countMatching(ni *nodeInfo, sel api.Selector, ns string) int {
	n := 0
	for _, e := range ni.entries {
		if e.pod.DeletionTimestamp != nil || e.pod.Namespace != ns {
			continue
		}
		if sel.Matches(e.pod.Labels) {
			n++
		}
	}
	return n
}

// spreadFilter is PodTopologySpread's PreFilter state: per DoNotSchedule
// constraint, the matching pods per domain and the global minimum.
type spreadFilter struct {
	cs     []spreadConstraint
	counts []map[string]int
	min    []int
	self   []int
	// countsBy, when set, stands for counts: the cache's counts by
	// domain (spreadFilterIndexed).
	countsBy []*domainCounts
}

// newSpreadFilter runs PodTopologySpread's PreFilter; nil when the pod
// has no DoNotSchedule constraint.
func newSpreadFilter(pi *podInfo, nodes []*nodeInfo) *spreadFilter {
	cs := compileSpread(pi.pod, api.DoNotSchedule)
	if len(cs) == 0 {
		return nil
	}
	f := &spreadFilter{cs: cs, counts: make([]map[string]int, len(cs)), min: make([]int, len(cs)), self: make([]int, len(cs))}
	for i := range cs {
		f.counts[i] = map[string]int{}
		if cs[i].sel.Matches(pi.pod.Labels) {
			f.self[i] = 1
		}
	}
	for _, ni := range nodes {
		if !hasAllKeys(ni, cs) {
			continue
		}
		for i := range cs {
			c := &cs[i]
			if !c.includes(pi, ni.node) {
				continue
			}
			f.counts[i][ni.labelValue(c.key)] += ni.countCached(c, pi.pod.Namespace)
		}
	}
	for i := range cs {
		if int32(len(f.counts[i])) < cs[i].minDomains {
			continue // fewer eligible domains than minDomains: the minimum is 0
		}
		m := math.MaxInt
		for _, n := range f.counts[i] {
			m = min(m, n)
		}
		if m != math.MaxInt {
			f.min[i] = m
		}
	}
	return f
}

// filter is PodTopologySpread's Filter on one node: "" when it passes.
func (f *spreadFilter) filter(ni *nodeInfo) string {
	for i := range f.cs {
		c := &f.cs[i]
		var n int
		if f.countsBy != nil {
			cnt, ok := f.countsBy[i].at(ni, c.key)
			if !ok {
				return ReasonTopologySpreadLabel
			}
			n = int(cnt)
		} else {
			v, ok := ni.label(c.key)
			if !ok {
				return ReasonTopologySpreadLabel
			}
			n = f.counts[i][v]
		}
		if skew := n + f.self[i] - f.min[i]; skew > int(c.maxSkew) {
			return ReasonTopologySpread
		}
	}
	return ""
}

// spreadDomain is one domain of the constraint with index i.
type spreadDomain struct {
	i     int
	value string
}

// spreadScore is PodTopologySpread's score for ScheduleAnyway
// constraints (scoring.go): per feasible node the matching pods of each
// constraint's domain, weighted by log(domains+2), plus maxSkew-1, then
// reversed so that emptier domains score higher. Nodes without every
// topology key score 0.
func spreadScore(pi *podInfo, all, feasible []*nodeInfo, out []int64) bool {
	cs := compileSpread(pi.pod, api.ScheduleAnyway)
	if len(cs) == 0 {
		return false
	}
	// Each constraint counts its own domains, even beside another on the
	// same key (upstream's TopologyValueToPodCounts, one map per
	// constraint): their selectors differ.
	counts := map[spreadDomain]*int64{}
	weights := spreadWeights(cs, feasible, func(p spreadDomain) { counts[p] = new(int64) })
	for _, ni := range all {
		if !hasAllKeys(ni, cs) {
			continue
		}
		for i := range cs {
			c := &cs[i]
			if c.key == labelHostname || !c.includes(pi, ni.node) {
				continue
			}
			if p := counts[spreadDomain{i, ni.labelValue(c.key)}]; p != nil {
				*p += int64(ni.countCached(c, pi.pod.Namespace))
			}
		}
	}
	spreadNodeScores(pi, cs, feasible, weights, out, func(i int, v string) int64 { return *counts[spreadDomain{i, v}] })
	return true
}

// spreadWeights returns each constraint's weight, log(domains+2): its
// domains are the values of its key on the feasible nodes with every
// key (upstream's PreScore takes them from the filtered nodes), or for
// the hostname key those nodes. onDomain is called once for each domain
// of a constraint on another key.
func spreadWeights(cs []spreadConstraint, feasible []*nodeInfo, onDomain func(spreadDomain)) []float64 {
	seen := map[spreadDomain]bool{}
	sizes := make([]int, len(cs))
	ignored := 0
	for _, ni := range feasible {
		if !hasAllKeys(ni, cs) {
			ignored++
			continue
		}
		for i := range cs {
			if cs[i].key == labelHostname {
				continue
			}
			if p := (spreadDomain{i, ni.labelValue(cs[i].key)}); !seen[p] {
				seen[p] = true
				sizes[i]++
				onDomain(p)
			}
		}
	}
	weights := make([]float64, len(cs))
	for i := range cs {
		sz := sizes[i]
		if cs[i].key == labelHostname {
			sz = len(feasible) - ignored
		}
		weights[i] = math.Log(float64(sz + 2))
	}
	return weights
}

// spreadNodeScores scores each feasible node with every key: per
// constraint the matching pods of its domain (on the hostname key, of
// the node, from its memo; on another, domainCount's), weighted, plus
// maxSkew-1; then normalizes.
func spreadNodeScores(pi *podInfo, cs []spreadConstraint, feasible []*nodeInfo, weights []float64, out []int64, domainCount func(i int, v string) int64) {
	const invalid = -1
	minScore, maxScore := int64(math.MaxInt64), int64(0)
	for j, ni := range feasible {
		if !hasAllKeys(ni, cs) {
			out[j] = invalid
			continue
		}
		var score float64
		for i := range cs {
			c := &cs[i]
			var cnt int64
			if c.key == labelHostname {
				cnt = int64(ni.countCached(c, pi.pod.Namespace))
			} else {
				cnt = domainCount(i, ni.labelValue(c.key))
			}
			score += float64(float64(cnt)*weights[i]) + float64(c.maxSkew-1) // rounded apart: no fused multiply-add (docs/fma-check.sh)
		}
		s := int64(math.Round(score))
		out[j] = s
		minScore, maxScore = min(minScore, s), max(maxScore, s)
	}
	normalizeSpreadScores(out, minScore, maxScore)
}

// normalizeSpreadScores is PodTopologySpread's NormalizeScore: raw scores
// between minScore and maxScore reversed onto 0..MaxNodeScore, the
// invalid (-1: a node without every key) 0.
func normalizeSpreadScores(out []int64, minScore, maxScore int64) {
	const invalid = -1
	for j := range out {
		switch {
		case out[j] == invalid:
			out[j] = 0
		case maxScore == 0:
			out[j] = MaxNodeScore
		default:
			out[j] = MaxNodeScore * (maxScore + minScore - out[j]) / maxScore
		}
	}
}
