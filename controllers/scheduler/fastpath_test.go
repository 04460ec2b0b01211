package scheduler

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// The filter and the scorer skip work that cannot change their result:
// a node's taints when its hardTaints or softTaints flag says none has
// the effect looked for, NodeAffinity's filter for a pod without a
// nodeSelector or required node affinity, the host ports for a pod that
// asks for none, the per-node NodeAffinity score for a pod without
// preferred terms, a normalization pass whose raw scores are all 0. The
// tests below compare them, over many random clusters and pods, with
// filterDirect and scoreDirect, the plugins run one after another
// without any of that (the code before the fast paths, kept here).

// filterDirect is filter without its fast paths.
func filterDirect(pi *podInfo, ni *nodeInfo, reasons []string) []string {
	n := ni.node
	if !ni.ready {
		return append(reasons, ReasonNotReady)
	}
	if ni.unschedulable && !tolerates(pi.pod.Spec.Tolerations, &api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}) {
		return append(reasons, ReasonUnschedulable)
	}
	if t := untoleratedTaint(ni.taints, pi.pod.Spec.Tolerations); t != nil {
		return append(reasons, ReasonUntoleratedTaint)
	}
	if !matchesNodeSelector(pi.pod, pi.required, pi.badTerms, n) {
		return append(reasons, ReasonNodeAffinity)
	}
	if portsConflict(pi.ports, ni.ports) {
		return append(reasons, ReasonNodePorts)
	}
	before := len(reasons)
	if reasons = fits(&pi.req, ni, reasons); len(reasons) > before {
		return reasons
	}
	if pi.spread != nil {
		// A nodeInfo without topo: the labels read from the map.
		if r := pi.spread.filter(&nodeInfo{node: n}); r != "" {
			return append(reasons, r)
		}
	}
	if pi.interPod != nil {
		if r := pi.interPod.filter(pi.pod, &nodeInfo{node: n}); r != "" {
			return append(reasons, r)
		}
	}
	return reasons
}

// balancedDirect is NodeResourcesBalancedAllocation's score as a
// closure over the resources, as it was written before balancedScore.
func balancedDirect(pi *podInfo, ni *nodeInfo) (int64, bool) {
	if pi.req.milliCPU == 0 && pi.req.memory == 0 {
		return 0, false
	}
	var fractions [2]float64
	n := 0
	add := func(requested, alloc int64) {
		if alloc == 0 {
			return
		}
		f := float64(requested) / float64(alloc)
		if f > 1 {
			f = 1
		}
		fractions[n] = f
		n++
	}
	add(ni.requested.milliCPU+pi.req.milliCPU, ni.allocatable.milliCPU)
	add(ni.requested.memory+pi.req.memory, ni.allocatable.memory)
	std := 0.0
	if n == 2 {
		std = math.Abs((fractions[0] - fractions[1]) / 2)
	}
	return int64((1 - std) * float64(MaxNodeScore)), true
}

// leastAllocatedDirect is leastAllocated dividing by the weights.
func leastAllocatedDirect(pi *podInfo, ni *nodeInfo) int64 {
	var score, weights int64
	if alloc := ni.allocatable.milliCPU; alloc != 0 {
		score += leastRequestedScore(ni.nonZero.milliCPU+pi.nonZero.milliCPU, alloc)
		weights++
	}
	if alloc := ni.allocatable.memory; alloc != 0 {
		score += leastRequestedScore(ni.nonZero.memory+pi.nonZero.memory, alloc)
		weights++
	}
	if weights == 0 {
		return 0
	}
	return score / weights
}

// scoreDirect is scorer.score as upstream's framework runs it: each
// plugin over every node, TaintToleration and NodeAffinity normalized,
// then the weighted sum.
func scoreDirect(pi *podInfo, all, nodes []*nodeInfo, withAffinity int) []int64 {
	n := len(nodes)
	taint, affinity := make([]int64, n), make([]int64, n)
	spread, interPod, total := make([]int64, n), make([]int64, n), make([]int64, n)
	hasSpread := spreadScore(pi, all, nodes, spread)
	hasInterPod := interPodScorePodByPod(pi, all, nodes, withAffinity, interPod)
	for i, ni := range nodes {
		taint[i] = intolerablePreferNoSchedule(ni.taints, pi.pod.Spec.Tolerations)
		affinity[i] = preferredAffinity(pi.pod, ni.node)
	}
	normalize(taint, true)
	normalize(affinity, false)
	for i, ni := range nodes {
		t := weightTaintToleration*taint[i] + weightNodeAffinity*affinity[i] + weightFit*leastAllocatedDirect(pi, ni)
		if b, ok := balancedDirect(pi, ni); ok {
			t += weightBalancedAllocated * b
		}
		if hasSpread {
			t += weightTopologySpread * spread[i]
		}
		if hasInterPod {
			t += weightInterPod * interPod[i]
		}
		total[i] = t
	}
	return total
}

var (
	fastTaintKeys = []string{"a", "b", "c"}
	fastValues    = []string{"", "x", "y"}
	fastEffects   = []api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}
)

func pick[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

// randomTaints returns 0 to 2 taints, none two times out of three.
func randomTaints(r *rand.Rand) []api.Taint {
	if r.IntN(3) != 0 {
		return nil
	}
	var out []api.Taint
	for range r.IntN(3) {
		out = append(out, api.Taint{Key: pick(r, fastTaintKeys), Value: pick(r, fastValues), Effect: pick(r, fastEffects)})
	}
	return out
}

// randomNode is a node with random resources, labels, taints, readiness
// and cordon.
func randomNode(r *rand.Rand, name string) *api.Node {
	alloc := api.ResourceList{}
	if r.IntN(8) != 0 {
		alloc["cpu"] = api.MustParseQuantity(pick(r, []string{"1", "2", "8", "500m"}))
	}
	if r.IntN(8) != 0 {
		alloc["memory"] = api.MustParseQuantity(pick(r, []string{"1Gi", "4Gi", "32Gi"}))
	}
	if r.IntN(3) == 0 {
		alloc["ephemeral-storage"] = api.MustParseQuantity(pick(r, []string{"1Gi", "10Gi"}))
	}
	if r.IntN(4) == 0 {
		alloc["example.com/gpu"] = api.MustParseQuantity(pick(r, []string{"1", "2"}))
	}
	alloc["pods"] = api.MustParseQuantity(pick(r, []string{"3", "110", "110"}))
	n := testNode(name, alloc)
	n.Labels[labelZone] = pick(r, []string{"z1", "z2", "z3"})
	if r.IntN(2) == 0 {
		n.Labels["disk"] = pick(r, []string{"ssd", "hdd"})
	}
	n.Spec.Taints = randomTaints(r)
	n.Spec.Unschedulable = r.IntN(10) == 0
	if r.IntN(8) == 0 {
		n.Status.Conditions[0].Status = api.ConditionFalse
	}
	return n
}

// randomFastPod is a pod with random requests (none at times),
// tolerations, host ports and node affinity; no placement rules.
func randomFastPod(r *rand.Rand, name string) *api.Pod {
	req := api.ResourceList{}
	if r.IntN(3) != 0 {
		req["cpu"] = api.MustParseQuantity(pick(r, []string{"100m", "500m", "1", "3"}))
	}
	if r.IntN(3) != 0 {
		req["memory"] = api.MustParseQuantity(pick(r, []string{"128Mi", "1Gi", "3Gi"}))
	}
	if r.IntN(5) == 0 {
		req["ephemeral-storage"] = api.MustParseQuantity("2Gi")
	}
	if r.IntN(5) == 0 {
		req["example.com/gpu"] = api.MustParseQuantity("1")
	}
	p := testPod(name, req)
	for range r.IntN(3) {
		tl := api.Toleration{Key: pick(r, append([]string{""}, fastTaintKeys...)), Effect: pick(r, append([]api.TaintEffect{""}, fastEffects...))}
		if tl.Key == "" || r.IntN(2) == 0 {
			tl.Operator = api.TolerationOpExists
		} else {
			tl.Operator, tl.Value = api.TolerationOpEqual, pick(r, fastValues)
		}
		p.Spec.Tolerations = append(p.Spec.Tolerations, tl)
	}
	if r.IntN(6) == 0 {
		p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: api.TaintNodeUnschedulable, Operator: api.TolerationOpExists})
	}
	if r.IntN(4) == 0 {
		p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: pick(r, []int32{80, 443})}}
	}
	if r.IntN(5) == 0 {
		p.Spec.NodeSelector = map[string]string{labelZone: pick(r, []string{"z1", "z2"})}
	}
	na := &api.NodeAffinity{}
	switch r.IntN(10) {
	case 0:
		// Required affinity without terms: it matches no node.
		na.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{}
	case 1:
		na.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{
			MatchExpressions: []api.NodeSelectorRequirement{{Key: "disk", Operator: api.NodeSelectorOpIn, Values: []string{"ssd"}}},
		}}}
	}
	for range r.IntN(3) {
		na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution, api.PreferredSchedulingTerm{
			Weight: pick(r, []int32{0, 1, 20, 40}),
			Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{
				Key: pick(r, []string{"disk", labelZone}), Operator: api.NodeSelectorOpIn, Values: []string{pick(r, []string{"ssd", "z1", "z3"})},
			}}},
		})
	}
	if na.RequiredDuringSchedulingIgnoredDuringExecution != nil || len(na.PreferredDuringSchedulingIgnoredDuringExecution) > 0 || r.IntN(4) == 0 {
		p.Spec.Affinity = &api.Affinity{NodeAffinity: na}
	}
	return p
}

// randomFastCluster is a cache of up to 12 random nodes, with some pods
// bound to them; a node's taints may change after it came.
func randomFastCluster(r *rand.Rand) (*cache, []*nodeInfo) {
	c := newCache()
	c.readyCheck = r.IntN(2) == 0
	var nodes []*api.Node
	for i := range 1 + r.IntN(12) {
		n := randomNode(r, "n"+strconv.Itoa(i))
		c.setNode(n)
		nodes = append(nodes, n)
	}
	for i := range r.IntN(15) {
		p := randomFastPod(r, "e"+strconv.Itoa(i))
		c.setPod(bindTo(p, pick(r, nodes).Name))
	}
	for _, n := range nodes {
		if r.IntN(4) == 0 {
			u := n.DeepCopyObject().(*api.Node)
			u.Spec.Taints = randomTaints(r)
			c.setNode(u)
		}
	}
	var infos []*nodeInfo
	for _, ni := range c.list() {
		infos = append(infos, ni)
	}
	return c, infos
}

// TestSetTaintsFlags: hardTaints and softTaints say whether some taint
// has effect NoSchedule or NoExecute, and PreferNoSchedule, for any
// taints, after a node's taints change and after it is removed.
func TestSetTaintsFlags(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	c := newCache()
	removed := 0
	for i := range 5000 {
		n := testNode("n"+strconv.Itoa(i%50), rl("cpu", "1"))
		n.Spec.Taints = randomTaints(r)
		c.setNode(n)
		if i < 50 {
			// A pod on each node keeps its nodeInfo when the node
			// object goes, so that the flags cleared then are checked.
			c.setPod(bindTo(testPod("p"+n.Name, rl("cpu", "10m")), n.Name))
		}
		ni := c.nodes[n.Name]
		if r.IntN(10) == 0 {
			c.removeNode(n.Name)
			n.Spec.Taints = nil
			removed++
			if ni = c.nodes[n.Name]; ni == nil {
				t.Fatalf("node %s with a pod forgotten with its object", n.Name)
			}
		}
		var hard, soft bool
		for _, tt := range n.Spec.Taints {
			hard = hard || tt.Effect == api.TaintEffectNoSchedule || tt.Effect == api.TaintEffectNoExecute
			soft = soft || tt.Effect == api.TaintEffectPreferNoSchedule
		}
		if ni.hardTaints != hard || ni.softTaints != soft || !slices.Equal(ni.taints, n.Spec.Taints) {
			t.Fatalf("taints %v: hardTaints %v softTaints %v, want %v %v", n.Spec.Taints, ni.hardTaints, ni.softTaints, hard, soft)
		}
	}
	if removed == 0 {
		t.Fatal("no node was removed: the cleared flags went unchecked")
	}
}

// TestFilterMatchesDirect: filter gives every random pod on every node of
// random clusters the reasons filterDirect gives.
func TestFilterMatchesDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	reached := map[string]int{}
	for range 3000 {
		_, nodes := randomFastCluster(r)
		for k := range 4 {
			pi := newPodInfo(randomFastPod(r, "p"+strconv.Itoa(k)))
			for _, ni := range nodes {
				got := filter(pi, ni, nil)
				want := filterDirect(pi, ni, nil)
				if !slices.Equal(got, want) {
					t.Fatalf("node %s (taints %v, ready %v, unschedulable %v), pod %+v: filter %q, direct %q",
						ni.name, ni.taints, ni.ready, ni.unschedulable, pi.pod.Spec, got, want)
				}
				if len(got) == 0 {
					reached["fits"]++
				}
				for _, reason := range got {
					reached[reason]++
				}
			}
		}
	}
	// The random cases must reach every outcome often.
	for _, k := range []string{"fits", ReasonNotReady, ReasonUnschedulable, ReasonUntoleratedTaint, ReasonNodeAffinity, ReasonNodePorts,
		ReasonTooManyPods, reasonInsufficientCPU, reasonInsufficientMemory, reasonInsufficientEphemeral, "Insufficient example.com/gpu"} {
		if reached[k] < 500 {
			t.Errorf("%q reached %d times", k, reached[k])
		}
	}
	t.Log(reached)
}

// TestScoreMatchesDirect: scorer.score gives the totals scoreDirect gives
// over random clusters, pods and subsets of the nodes, and leaves the
// taint and affinity slices as they would be after normalizing.
func TestScoreMatchesDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var s scorer
	kinds := map[string]int{}
	for range 5000 {
		c, nodes := randomFastCluster(r)
		feasible := slices.Clone(nodes)
		r.Shuffle(len(feasible), func(i, j int) { feasible[i], feasible[j] = feasible[j], feasible[i] })
		feasible = feasible[:1+r.IntN(len(feasible))]
		pi := newPodInfo(randomFastPod(r, "p"))
		got := slices.Clone(s.score(pi, nodes, feasible, c))
		want := scoreDirect(pi, nodes, feasible, c.withAffinity)
		if !slices.Equal(got, want) {
			var taints []string
			for _, ni := range feasible {
				taints = append(taints, fmt.Sprint(ni.taints))
			}
			t.Fatalf("pod %+v on nodes with taints %v: score %v, direct %v", pi.pod.Spec, taints, got, want)
		}
		if slices.ContainsFunc(feasible, func(ni *nodeInfo) bool { return intolerablePreferNoSchedule(ni.taints, pi.pod.Spec.Tolerations) > 0 }) {
			kinds["intolerable PreferNoSchedule taints"]++
		}
		if slices.ContainsFunc(feasible, func(ni *nodeInfo) bool { return preferredAffinity(pi.pod, ni.node) > 0 }) {
			kinds["preferred affinity matched"]++
		}
		if pi.req.milliCPU == 0 && pi.req.memory == 0 {
			kinds["no cpu or memory"]++
		}
	}
	for _, k := range []string{"intolerable PreferNoSchedule taints", "preferred affinity matched", "no cpu or memory"} {
		if kinds[k] < 200 {
			t.Errorf("only %d cases with %s", kinds[k], k)
		}
	}
	t.Log(kinds)
}

// TestSearchStartsAndWraps: the search for feasible nodes starts at
// nextStart modulo the candidates and wraps around, as the index
// (nextStart+i) % len(candidates) would have it, and nextStart moves on
// by the nodes processed, modulo all nodes. Every node of 300 fits, so
// the search takes numFeasibleNodesToFind of them from its start; one
// node is preferred by the pod's node affinity, and the pod must go
// there exactly when that node is in the window. Half of the rounds
// search all nodes, half the 100 or more NodeAffinity's PreFilter named
// (one matchFields term a node, in a random order).
func TestSearchStartsAndWraps(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const total = 300
	c := newCache()
	for i := range total {
		c.setNode(testNode(fmt.Sprintf("node-%03d", i), rl("cpu", "8", "memory", "8Gi", "pods", "110")))
	}
	order := slices.Clone(c.list())
	in, out := 0, 0
	for round := range 1000 {
		candidates := order
		pod := testPod("p", rl("cpu", "1"))
		na := &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 100,
			Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "best", Operator: api.NodeSelectorOpExists}}}}}}
		if round%2 == 1 {
			candidates = slices.Clone(order)
			r.Shuffle(len(candidates), func(i, j int) { candidates[i], candidates[j] = candidates[j], candidates[i] })
			candidates = candidates[:100+r.IntN(total-100)]
			var terms []api.NodeSelectorTerm
			for _, ni := range candidates {
				terms = append(terms, api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{
					{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{ni.name}}}})
			}
			na.RequiredDuringSchedulingIgnoredDuringExecution = &api.NodeSelector{NodeSelectorTerms: terms}
		}
		pod.Spec.Affinity = &api.Affinity{NodeAffinity: na}
		best := candidates[r.IntN(len(candidates))]
		labelled := best.node.DeepCopyObject().(*api.Node)
		labelled.Labels["best"] = "yes"
		c.setNode(labelled)
		s := &scheduler{cache: c, rng: rand.New(rand.NewPCG(1, uint64(round)))}
		s.opts.defaults()
		start := r.IntN(total)
		s.nextStart = start
		got, err := s.schedule(pod, "")
		if err != nil {
			t.Fatal(err)
		}
		want := numFeasibleNodesToFind(0, len(candidates))
		inWindow := false
		for i := range want {
			inWindow = inWindow || candidates[(start+i)%len(candidates)] == best
		}
		if inWindow != (got == best.name) {
			t.Fatalf("round %d: %d candidates from %d, the preferred node %s in the window %v, the pod went to %s",
				round, len(candidates), start, best.name, inWindow, got)
		}
		if inWindow {
			in++
		} else {
			out++
		}
		if next := (start + want) % total; s.nextStart != next {
			t.Fatalf("round %d: %d candidates from %d: nextStart = %d, want %d", round, len(candidates), start, s.nextStart, next)
		}
		delete(labelled.Labels, "best")
		c.setNode(labelled)
	}
	if in < 100 || out < 100 {
		t.Fatalf("the preferred node was in the window %d times, out of it %d times", in, out)
	}
}

// TestScoredInSearchMatchesScorer: a pod whose score is the resource
// fit's alone is scored as the search finds each feasible node
// (scoredByFitAlone); the same pod with an empty PodAffinity added (no
// term, so nothing more to score or filter, but not scoredByFitAlone) is
// scored by the scorer after the search. From the same start and random
// source both must choose the same node, over random clusters of 100 to
// 300 nodes of assorted sizes and loads and pods with and without
// requests. A fifth of the rounds are plain; in the others something
// the scorer weighs must send the pod to it: a PreferNoSchedule taint on
// one node in 200 (the search hands the scoring back when it finds one,
// in some of those rounds), the
// pod's preferred node affinity, other pods' preferred anti-affinity
// terms against it, or its own ScheduleAnyway spread constraint.
func TestScoredInSearchMatchesScorer(t *testing.T) {
	const (
		plain = iota
		tainted
		preferred
		heldTerms
		spread
		kinds
	)
	r := rand.New(rand.NewPCG(7, 8))
	scoredInSearch, handedBack := 0, 0
	for round := range 500 {
		kind := round % kinds
		c := newCache()
		n := 100 + r.IntN(201)
		for i := range n {
			node := testNode(fmt.Sprintf("node-%03d", i), rl("cpu", fmt.Sprint(2+r.IntN(15)), "memory", fmt.Sprintf("%dGi", 4+r.IntN(61)), "pods", "110"))
			zone := fmt.Sprintf("zone-%c", 'a'+i%3)
			node.Labels[labelZone], node.Labels[labelHostname] = zone, node.Name
			switch {
			case kind == tainted && r.IntN(200) == 0:
				node.Spec.Taints = []api.Taint{{Key: "soft", Effect: api.TaintEffectPreferNoSchedule}}
			case kind == preferred && r.IntN(10) == 0:
				node.Labels["best"] = "yes"
			}
			c.setNode(node)
			for j := range r.IntN(4) {
				p := testPod(fmt.Sprintf("load-%d-%d", i, j), rl("cpu", fmt.Sprintf("%dm", 100*r.IntN(20)), "memory", fmt.Sprintf("%dMi", 256*r.IntN(16))))
				switch {
				case kind == heldTerms && r.IntN(2) == 0:
					p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{
						Weight: 100, PodAffinityTerm: api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "p"}}, TopologyKey: labelHostname}}}}}
				case kind == spread && zone == "zone-a":
					p.Labels = map[string]string{"app": "p"}
				}
				c.setPod(bindTo(p, node.Name))
			}
		}
		pod := testPod("p", rl("cpu", fmt.Sprintf("%dm", 100+100*r.IntN(10)), "memory", fmt.Sprintf("%dMi", 128*r.IntN(8))))
		if r.IntN(5) == 0 {
			pod = testPod("p", api.ResourceList{})
		}
		pod.Labels = map[string]string{"app": "p"}
		switch kind {
		case preferred:
			pod.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 100,
				Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "best", Operator: api.NodeSelectorOpExists}}}}}}}
		case spread:
			pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: labelZone, WhenUnsatisfiable: api.ScheduleAnyway,
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "p"}}}}
		}
		start := r.IntN(n)
		choose := func(p *api.Pod) (string, bool) {
			s := &scheduler{cache: c, rng: rand.New(rand.NewPCG(1, uint64(round)))}
			s.opts.defaults()
			s.nextStart = start
			got, err := s.schedule(p, "")
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
			return got, len(s.fitOnly) == len(s.feasible)
		}
		fast, scored := choose(pod)
		viaScorer := pod.DeepCopyObject().(*api.Pod)
		if viaScorer.Spec.Affinity == nil {
			viaScorer.Spec.Affinity = &api.Affinity{}
		}
		viaScorer.Spec.Affinity.PodAffinity = &api.PodAffinity{}
		slow, _ := choose(viaScorer)
		if fast != slow {
			t.Fatalf("round %d (kind %d, %d nodes from %d): the pod went to %s, by the scorer to %s", round, kind, n, start, fast, slow)
		}
		if scored && kind > tainted {
			t.Fatalf("round %d (kind %d): scored in the search, though the scorer weighs more than the fit", round, kind)
		}
		if !scored && kind == plain {
			t.Fatalf("round %d: a plain pod handed to the scorer", round)
		}
		if scored {
			scoredInSearch++
		} else {
			handedBack++
		}
	}
	if scoredInSearch < 130 || handedBack < 330 {
		t.Fatalf("scored in the search %d times, handed back to the scorer %d times: too few of one to compare", scoredInSearch, handedBack)
	}
	t.Logf("scored in the search %d times, handed back %d times", scoredInSearch, handedBack)
}

// TestFitsPlainlyAgreesWithFilter: for a plain pod (podInfo.plain),
// fitsPlainly passes a node only if filter passes it, and filter passes
// a Ready, uncordoned node without NoSchedule or NoExecute taints only
// if fitsPlainly does, over random nodes (not Ready, cordoned, tainted,
// full, nearly full) and random plain pods, zero requests among them.
func TestFitsPlainlyAgreesWithFilter(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	checked := map[string]int{}
	for i := range 20000 {
		node := testNode(fmt.Sprintf("n-%d", i), rl("cpu", fmt.Sprint(1+r.IntN(4)), "memory", fmt.Sprintf("%dGi", 1+r.IntN(4)), "pods", fmt.Sprint(1+r.IntN(3))))
		switch r.IntN(8) {
		case 0:
			node.Status.Conditions[0].Status = api.ConditionFalse
		case 1:
			node.Spec.Unschedulable = true
		case 2:
			node.Spec.Taints = []api.Taint{{Key: "k", Effect: []api.TaintEffect{api.TaintEffectNoSchedule, api.TaintEffectNoExecute, api.TaintEffectPreferNoSchedule}[r.IntN(3)]}}
		}
		var pods []*api.Pod
		for j := range r.IntN(3) {
			pods = append(pods, bindTo(testPod(fmt.Sprintf("l-%d", j), rl("cpu", fmt.Sprintf("%dm", 500*r.IntN(4)), "memory", fmt.Sprintf("%dMi", 512*r.IntN(4)))), node.Name))
		}
		c := newTestCache([]*api.Node{node}, pods...)
		ni := c.nodes[node.Name]
		pod := testPod("p", rl("cpu", fmt.Sprintf("%dm", 250*r.IntN(8)), "memory", fmt.Sprintf("%dMi", 256*r.IntN(8))))
		pi := newPodInfo(pod)
		if !pi.plain() {
			t.Fatalf("%s: not plain", pod.Name)
		}
		reasons := filter(pi, ni, nil)
		plainly := fitsPlainly(&pi.req, ni)
		if plainly && len(reasons) > 0 {
			t.Fatalf("node %d: fitsPlainly passes it, filter gives %v", i, reasons)
		}
		if simple := ni.ready && !ni.unschedulable && !ni.hardTaints; simple && len(reasons) == 0 && !plainly {
			t.Fatalf("node %d: filter passes it, fitsPlainly does not", i)
		}
		switch {
		case plainly:
			checked["passed"]++
		case len(reasons) > 0:
			checked[reasons[0]]++
		default:
			checked["left to filter, passed"]++
		}
	}
	for _, k := range []string{"passed", ReasonNotReady, ReasonUnschedulable, ReasonUntoleratedTaint, ReasonTooManyPods, reasonInsufficientCPU, reasonInsufficientMemory} {
		if checked[k] < 100 {
			t.Errorf("only %d nodes with %q: %v", checked[k], k, checked)
		}
	}
	t.Log(checked)
}
