package scheduler

import (
	"math"
	"math/rand/v2"

	"github.com/clustersim/clustersim/sim/api"
)

// MaxNodeScore is the highest score a plugin gives a node (fwk.MaxNodeScore).
const MaxNodeScore int64 = 100

// Plugin weights of the default profile (k/k apis/config/v1
// default_plugins.go) for the score plugins implemented here.
const (
	weightTaintToleration   int64 = 3
	weightNodeAffinity      int64 = 2
	weightFit               int64 = 1
	weightBalancedAllocated int64 = 1
)

// leastRequestedScore is one resource's LeastAllocated score: the share of
// the node left free, 0..MaxNodeScore, 0 when over-committed.
func leastRequestedScore(requested, capacity int64) int64 {
	if capacity == 0 || requested > capacity {
		return 0
	}
	return (capacity - requested) * MaxNodeScore / capacity
}

// leastAllocated is NodeResourcesFit's default score (LeastAllocated, cpu
// and memory with weight 1 each): the weighted mean of the resources'
// free shares once the pod is added, with request-less containers counted
// at the defaults. A resource the node has none of is left out.
func leastAllocated(pi *podInfo, ni *nodeInfo) int64 {
	var score, weights int64
	if alloc := ni.allocatable.milliCPU; alloc != 0 {
		score += leastRequestedScore(ni.nonZero.milliCPU+pi.nonZero.milliCPU, alloc)
		weights++
	}
	if alloc := ni.allocatable.memory; alloc != 0 {
		score += leastRequestedScore(ni.nonZero.memory+pi.nonZero.memory, alloc)
		weights++
	}
	// The divisions by the constants the weights nearly always are
	// compile to shifts; they give what score / weights gives.
	switch weights {
	case 2:
		return score / 2
	case 1:
		return score
	}
	return 0
}

// fitMemo is a node's last NodeResourcesFit and BalancedAllocation
// scores with the sums they were computed from: the cpu and memory the
// node would have requested with the pod, counted with the defaults
// (nonZero, LeastAllocated's) and as requested (BalancedAllocation's).
// The scores also depend on the node's allocatable cpu and memory,
// which the key leaves out: nodeInfo.fitSet is cleared whenever they
// change (setNode), so that the memo fits in the node's first two cache
// lines with the fields beside it. A pod
// searches hundreds of nodes, the pods of a Deployment request the
// same, and between two visits of the search a node's pods rarely
// change: the scores' four divisions were a sixth of a scheduling
// cycle at 3,000 nodes (balancedScore and leastAllocated 0.91 of 5.64 s
// in `go test -run NONE -bench 'BenchmarkScheduleScaleProbe$'
// -benchtime 3s -cpuprofile` of ./controllers/scheduler/). The key is the
// inputs themselves, not a version of the node: copies of a node
// (preemption's trials, nominated pods' room) carry the memo and change
// the sums. The scores are 0 to MaxNodeScore, kept in 32 bits.
type fitMemo struct {
	nzCPU, nzMem, reqCPU, reqMem int64
	least, balanced              int32
}

// fitScores returns leastAllocated and balancedScore of pi on ni,
// through ni's memo.
func fitScores(pi *podInfo, ni *nodeInfo) (least, balanced int64) {
	m := &ni.fit
	nzCPU, nzMem := ni.nonZero.milliCPU+pi.nonZero.milliCPU, ni.nonZero.memory+pi.nonZero.memory
	reqCPU, reqMem := ni.requested.milliCPU+pi.req.milliCPU, ni.requested.memory+pi.req.memory
	if ni.fitSet && m.nzCPU == nzCPU && m.nzMem == nzMem && m.reqCPU == reqCPU && m.reqMem == reqMem {
		return int64(m.least), int64(m.balanced)
	}
	least, balanced = leastAllocated(pi, ni), balancedScore(pi, ni)
	*m = fitMemo{nzCPU: nzCPU, nzMem: nzMem, reqCPU: reqCPU, reqMem: reqMem, least: int32(least), balanced: int32(balanced)}
	ni.fitSet = true
	return least, balanced
}

// balancedAllocationApplies reports whether NodeResourcesBalancedAllocation
// scores pi: nodes whose cpu and memory would be used in similar shares
// score higher (balancedScore), but a pod that requests neither cpu nor
// memory skips the plugin, as upstream's does (k/k issue 129138).
func balancedAllocationApplies(pi *podInfo) bool {
	return pi.req.milliCPU != 0 || pi.req.memory != 0
}

// fractionOf is requested over allocatable, at most 1; ok is false when
// nothing is allocatable (the resource then has no fraction).
func fractionOf(requested, allocatable int64) (f float64, ok bool) {
	if allocatable == 0 {
		return 0, false
	}
	return min(float64(requested)/float64(allocatable), 1), true
}

// balancedScore is NodeResourcesBalancedAllocation's score of pi on ni,
// for a pod it applies to (balancedAllocationApplies): (1 - std) *
// MaxNodeScore with std = |cpuFraction - memFraction| / 2 on the actual
// requests, with upstream's float operations in upstream's order, so
// the same score to the bit.
func balancedScore(pi *podInfo, ni *nodeInfo) int64 {
	var fractions [2]float64
	n := 0
	if f, ok := fractionOf(ni.requested.milliCPU+pi.req.milliCPU, ni.allocatable.milliCPU); ok {
		fractions[n] = f
		n++
	}
	if f, ok := fractionOf(ni.requested.memory+pi.req.memory, ni.allocatable.memory); ok {
		fractions[n] = f
		n++
	}
	std := 0.0
	if n == 2 {
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	}
	return int64((1 - std) * float64(MaxNodeScore))
}

// intolerablePreferNoSchedule counts the node's PreferNoSchedule taints
// that the pod's PreferNoSchedule (or effect-less) tolerations do not
// tolerate: TaintToleration's raw score, lower is better.
func intolerablePreferNoSchedule(taints []api.Taint, tols []api.Toleration) int64 {
	var n int64
	for i := range taints {
		t := &taints[i]
		if t.Effect != api.TaintEffectPreferNoSchedule {
			continue
		}
		tolerated := false
		for j := range tols {
			if e := tols[j].Effect; (e == "" || e == api.TaintEffectPreferNoSchedule) && tols[j].ToleratesTaint(t) {
				tolerated = true
				break
			}
		}
		if !tolerated {
			n++
		}
	}
	return n
}

// preferredAffinity sums the weights of the pod's preferred node affinity
// terms that match the node: NodeAffinity's raw score. Empty terms count
// for nothing.
func preferredAffinity(pod *api.Pod, n *api.Node) int64 {
	a := pod.Spec.Affinity
	if a == nil || a.NodeAffinity == nil {
		return 0
	}
	var sum int64
	for i := range a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution {
		t := &a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution[i]
		if t.Weight != 0 && termMatches(&t.Preference, n) {
			sum += int64(t.Weight)
		}
	}
	return sum
}

// normalize scales raw scores to 0..MaxNodeScore relative to the highest
// (helper.DefaultNormalizeScore); reverse makes the highest raw score the
// lowest. All zero: 0 each, or MaxNodeScore each when reversed.
func normalize(scores []int64, reverse bool) {
	var maxCount int64
	for _, s := range scores {
		maxCount = max(maxCount, s)
	}
	for i, s := range scores {
		switch {
		case maxCount == 0 && reverse:
			scores[i] = MaxNodeScore
		case maxCount == 0:
			scores[i] = 0
		default:
			s = MaxNodeScore * s / maxCount
			if reverse {
				s = MaxNodeScore - s
			}
			scores[i] = s
		}
	}
}

// scorer holds the per-cycle scratch slices, reused across cycles.
type scorer struct {
	taint, affinity, spread, interPod, total []int64
	// interPodTerms is InterPodAffinity's buffer of terms to add.
	interPodTerms []scoreTerm
}

// fitScore is NodeResourcesFit's (LeastAllocated) and, where it
// applies (balancedAllocationApplies), NodeResourcesBalancedAllocation's
// part of pi's weighted total on ni.
func fitScore(pi *podInfo, ni *nodeInfo, balanced bool) int64 {
	least, bal := fitScores(pi, ni)
	t := weightFit * least
	if balanced {
		t += weightBalancedAllocated * bal
	}
	return t
}

// scoredByFitAlone reports whether score would give pi fitScore plus the
// same TaintToleration constant on every feasible node, so long as none
// has a PreferNoSchedule taint (the caller checks that node by node):
// no preferred node affinity (NodeAffinity scores 0), no topology spread
// constraint (PodTopologySpread scores nothing), and no pod affinity term
// of its own or on any pod in the cache (InterPodAffinity scores
// nothing). The search then scores each feasible node as it finds it
// (scheduler.schedule). A plugin added to score must be added here too,
// or make this false for the pods it scores; TestScoredInSearchMatchesScorer
// compares the two.
func scoredByFitAlone(pi *podInfo, c *cache) bool {
	spec := &pi.pod.Spec
	if len(spec.TopologySpreadConstraints) > 0 || c.withAffinity > 0 {
		return false
	}
	a := spec.Affinity
	return a == nil || (a.PodAffinity == nil && a.PodAntiAffinity == nil && !hasPreferredAffinity(pi.pod))
}

// score returns each feasible node's weighted total score, in the order
// given. The slice is the scorer's own and valid until the next call.
//
// Upstream runs each score plugin over the nodes, normalizes, then sums
// the weighted scores. Here one pass over the nodes computes the raw
// TaintToleration and NodeAffinity scores beside the plugins that need
// no normalization, and the normalized scores of the first two are
// added afterwards from their slices: the same integer sums, with each
// node's info loaded once. What is the same for every node is decided
// once a pod: a node without PreferNoSchedule taints counts 0
// intolerable taints, a pod without preferred node affinity scores 0 on
// every node, a pod that requests neither cpu nor memory skips
// NodeResourcesBalancedAllocation; and a normalization whose raw scores
// are all 0 gives each node the same constant (MaxNodeScore reversed, 0
// otherwise), added without a pass.
func (s *scorer) score(pi *podInfo, all, nodes []*nodeInfo, c *cache) []int64 {
	n := len(nodes)
	s.taint = grow(s.taint, n)
	s.affinity = grow(s.affinity, n)
	s.spread = grow(s.spread, n)
	s.interPod = grow(s.interPod, n)
	s.total = grow(s.total, n)
	spread, indexed := c.spreadScoreIndexed(pi, nodes, s.spread)
	if !indexed {
		spread = spreadScore(pi, all, nodes, s.spread)
	}
	var interPod bool
	s.interPodTerms, interPod = c.interPodScoreIndexed(pi, nodes, s.interPod, s.interPodTerms)
	tols := pi.pod.Spec.Tolerations
	preferred := hasPreferredAffinity(pi.pod)
	balanced := balancedAllocationApplies(pi)
	var maxTaint, maxAffinity int64
	for i, ni := range nodes {
		var taint, affinity int64
		if ni.softTaints {
			taint = intolerablePreferNoSchedule(ni.taints, tols)
		}
		if preferred {
			affinity = preferredAffinity(pi.pod, ni.node)
		}
		s.taint[i], s.affinity[i] = taint, affinity
		maxTaint, maxAffinity = max(maxTaint, taint), max(maxAffinity, affinity)
		t := fitScore(pi, ni, balanced)
		if spread {
			t += weightTopologySpread * s.spread[i]
		}
		if interPod {
			t += weightInterPod * s.interPod[i]
		}
		s.total[i] = t
	}
	if maxTaint == 0 {
		// normalize(s.taint, true) would make every score MaxNodeScore.
		for i := range s.total {
			s.total[i] += weightTaintToleration * MaxNodeScore
		}
	} else {
		normalize(s.taint, true)
		for i := range s.total {
			s.total[i] += weightTaintToleration * s.taint[i]
		}
	}
	if maxAffinity != 0 {
		// All 0, normalize(s.affinity, false) leaves them 0.
		normalize(s.affinity, false)
		for i := range s.total {
			s.total[i] += weightNodeAffinity * s.affinity[i]
		}
	}
	return s.total
}

// hasPreferredAffinity reports whether pod has preferred node affinity
// terms, which NodeAffinity's score weighs.
func hasPreferredAffinity(pod *api.Pod) bool {
	a := pod.Spec.Affinity
	return a != nil && a.NodeAffinity != nil && len(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) > 0
}

func grow(s []int64, n int) []int64 {
	if cap(s) < n {
		return make([]int64, n)
	}
	return s[:n]
}

// selectHost picks the highest score, breaking ties uniformly at random by
// reservoir sampling over the tied nodes in the order given (upstream's
// selectHost before it moved to a heap): the i-th node seen with the top
// score replaces the choice with probability 1/i. It returns -1 for no
// nodes.
func selectHost(scores []int64, rng *rand.Rand) int {
	if len(scores) == 0 {
		return -1
	}
	best, top, ties := 0, scores[0], 1
	for i := 1; i < len(scores); i++ {
		switch s := scores[i]; {
		case s > top:
			best, top, ties = i, s, 1
		case s == top:
			ties++
			if rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	return best
}
