package scheduler

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// The sizes and priorities of upstream's preemption tables (k/k
// pkg/scheduler/core/generic_scheduler_test.go, the rows now in
// pkg/scheduler/framework/plugins/defaultpreemption/
// default_preemption_test.go): containers of 1, 2, 3 and 5 times the
// default request on nodes of 5 times it.
var (
	negPrio, lowPrio, midPrio, highPrio, veryHighPrio = int32(-100), int32(0), int32(100), int32(1000), int32(10000)
	small, medium, large, veryLarge                   = rl("cpu", "100m"), rl("cpu", "200m"), rl("cpu", "300m"), rl("cpu", "500m")
	day                                               = func(d int) time.Time { return time.Date(2019, 1, d, 1, 1, 1, 0, time.UTC) }
)

func prioPod(name, node string, prio int32, reqs ...api.ResourceList) *api.Pod {
	p := testPod(name, reqs...)
	p.Spec.Priority = &prio
	p.Spec.NodeName = node
	return p
}

func started(p *api.Pod, t time.Time) *api.Pod {
	st := api.NewTime(t)
	p.Status.StartTime = &st
	return p
}

func labelledNode(name string, kv ...string) *api.Node {
	n := testNode(name, rl("cpu", "500m", "memory", "1Gi", "pods", "110"))
	for i := 0; i+1 < len(kv); i += 2 {
		n.Labels[kv[i]] = kv[i+1]
	}
	return n
}

func machines(names ...string) []*api.Node {
	var out []*api.Node
	for _, n := range names {
		out = append(out, labelledNode(n, "hostname", n))
	}
	return out
}

// dryRun schedules pod (which must fail) and runs preemption's dry run.
func dryRun(t *testing.T, nodes []*api.Node, pods []*api.Pod, pod *api.Pod, pdbs []*api.PodDisruptionBudget) ([]candidate, map[string]int) {
	t.Helper()
	s := &scheduler{cache: newTestCache(nodes, pods...), rng: rand.New(rand.NewPCG(1, 2)), prng: rand.New(rand.NewPCG(3, 4))}
	if node, err := s.schedule(pod, ""); err == nil {
		t.Fatalf("pod fits %s without preemption", node)
	}
	cands, statuses, _, err := s.findCandidates(pod, func() ([]*api.PodDisruptionBudget, error) { return pdbs, nil }, day(10))
	if err != nil {
		t.Fatal(err)
	}
	return cands, statuses
}

func victimNames(c candidate) []string {
	var out []string
	for _, v := range c.victims {
		out = append(out, v.pod.Name)
	}
	slices.Sort(out)
	return out
}

// TestSelectVictims ports the rows of upstream's
// TestSelectNodesForPreemption (now TestDryRunPreemption's table,
// default_preemption_test.go read at 008b3652) that map onto the
// simulated filters: per candidate node, the victims.
func TestSelectVictims(t *testing.T) {
	anti := &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
		LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "pod", Operator: api.LabelSelectorOpIn, Values: []string{"preemptor", "value2"}}}},
		TopologyKey:   "hostname"}}}}
	spreadOn := func(key string) api.TopologySpreadConstraint {
		return api.TopologySpreadConstraint{MaxSkew: 1, TopologyKey: key, WhenUnsatisfiable: api.DoNotSchedule,
			LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "foo", Operator: api.LabelSelectorOpExists}}}}
	}
	foo := func(p *api.Pod) *api.Pod { p.Labels = map[string]string{"foo": ""}; return p }
	spreadPod := foo(prioPod("p", "", highPrio))
	spreadPod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spreadOn("zone"), spreadOn("hostname")}
	preemptor := prioPod("machine1", "", highPrio, small)
	preemptor.Labels = map[string]string{"pod": "preemptor"}
	securityscan := prioPod("a", "machine1", lowPrio, small)
	securityscan.Labels = map[string]string{"service": "securityscan"}
	securityscan.Spec.Affinity = anti
	tests := []struct {
		name     string
		nodes    []*api.Node
		pods     []*api.Pod
		pod      *api.Pod
		want     map[string][]string
		statuses string
	}{
		{"a pod that fits on both machines when lower priority pods are preempted", machines("machine1", "machine2"),
			[]*api.Pod{prioPod("a", "machine1", midPrio, large), prioPod("b", "machine2", midPrio, large)},
			prioPod("machine1", "", highPrio, large), map[string][]string{"machine1": {"a"}, "machine2": {"b"}}, ""},
		{"a pod that would fit on the machines, but other pods running are higher priority", machines("machine1", "machine2"),
			[]*api.Pod{prioPod("a", "machine1", midPrio, large), prioPod("b", "machine2", midPrio, large)},
			prioPod("machine1", "", lowPrio, large), map[string][]string{}, "2 No preemption victims found for incoming pod"},
		{"medium priority pod is preempted, but lower priority one stays as it is small", machines("machine1", "machine2"),
			[]*api.Pod{prioPod("a", "machine1", lowPrio, small), prioPod("b", "machine1", midPrio, large), prioPod("c", "machine2", midPrio, large)},
			prioPod("machine1", "", highPrio, large), map[string][]string{"machine1": {"b"}, "machine2": {"c"}}, ""},
		{"mixed priority pods are preempted", machines("machine1", "machine2"),
			[]*api.Pod{prioPod("a", "machine1", midPrio, small), prioPod("b", "machine1", lowPrio, small), prioPod("c", "machine1", midPrio, medium),
				prioPod("d", "machine1", highPrio, small), prioPod("e", "machine2", highPrio, large)},
			prioPod("machine1", "", highPrio, large), map[string][]string{"machine1": {"b", "c"}}, "1 No preemption victims found for incoming pod"},
		{"mixed priority pods are preempted, pick later StartTime one when priorities are equal", machines("machine1", "machine2"),
			[]*api.Pod{started(prioPod("a", "machine1", lowPrio, small), day(7)), started(prioPod("b", "machine1", lowPrio, small), day(6)),
				started(prioPod("c", "machine1", midPrio, medium), day(5)), started(prioPod("d", "machine1", highPrio, small), day(4)),
				started(prioPod("e", "machine2", highPrio, large), day(3))},
			prioPod("machine1", "", highPrio, large), map[string][]string{"machine1": {"a", "c"}}, "1 No preemption victims found for incoming pod"},
		// Upstream's row also has machine2, where the preemptor fits
		// without preemption; here it would simply be scheduled there.
		{"pod with anti-affinity is preempted", machines("machine1"),
			[]*api.Pod{securityscan, prioPod("b", "machine1", midPrio, small), prioPod("d", "machine1", highPrio, small)},
			preemptor, map[string][]string{"machine1": {"a"}}, ""},
		{"preemption to resolve even pods spread FitError",
			[]*api.Node{labelledNode("node-a", "zone", "zone1", "hostname", "node-a"), labelledNode("node-b", "zone", "zone1", "hostname", "node-b"),
				labelledNode("node-x", "zone", "zone2", "hostname", "node-x")},
			[]*api.Pod{foo(prioPod("pod-a1", "node-a", midPrio)), foo(prioPod("pod-a2", "node-a", lowPrio)), foo(prioPod("pod-b1", "node-b", lowPrio)),
				foo(prioPod("pod-x1", "node-x", highPrio)), foo(prioPod("pod-x2", "node-x", highPrio))},
			spreadPod, map[string][]string{"node-a": {"pod-a2"}, "node-b": {"pod-b1"}}, "1 No preemption victims found for incoming pod"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cands, statuses := dryRun(t, tc.nodes, tc.pods, tc.pod, nil)
			got := map[string][]string{}
			for _, c := range cands {
				got[c.node] = victimNames(c)
			}
			if len(got) != len(tc.want) {
				t.Errorf("candidates %v, want %v", got, tc.want)
			}
			for n, v := range tc.want {
				if !slices.Equal(got[n], v) {
					t.Errorf("%s: victims %v, want %v", n, got[n], v)
				}
			}
			var parts []string
			for r, n := range statuses {
				parts = append(parts, strconv.Itoa(n)+" "+r)
			}
			slices.Sort(parts)
			if s := strings.Join(parts, ", "); s != tc.statuses {
				t.Errorf("statuses %q, want %q", s, tc.statuses)
			}
		})
	}
}

// TestPickOneNodeForPreemption ports upstream's table of that name: the
// node preemption takes among the candidates.
func TestPickOneNodeForPreemption(t *testing.T) {
	m3 := machines("machine1", "machine2", "machine3")
	tests := []struct {
		name  string
		nodes []*api.Node
		pods  []*api.Pod
		pod   *api.Pod
		want  []string // any of them
	}{
		{"a pod that fits on both machines when lower priority pods are preempted", machines("machine1", "machine2"),
			[]*api.Pod{prioPod("m1.1", "machine1", midPrio, large), prioPod("m2.1", "machine2", midPrio, large)},
			prioPod("machine1", "", highPrio, large), []string{"machine1", "machine2"}},
		{"machine with min highest priority pod is picked", m3,
			[]*api.Pod{prioPod("m1.1", "machine1", midPrio, medium), prioPod("m1.2", "machine1", midPrio, large),
				prioPod("m2.1", "machine2", midPrio, medium), prioPod("m2.2", "machine2", lowPrio, medium),
				prioPod("m3.1", "machine3", lowPrio, medium), prioPod("m3.2", "machine3", lowPrio, medium)},
			prioPod("machine1", "", highPrio, veryLarge), []string{"machine3"}},
		{"when highest priorities are the same, minimum sum of priorities is picked", m3,
			[]*api.Pod{prioPod("m1.1", "machine1", midPrio, medium), prioPod("m1.2", "machine1", midPrio, large),
				prioPod("m2.1", "machine2", midPrio, large), prioPod("m2.2", "machine2", lowPrio, medium),
				prioPod("m3.1", "machine3", midPrio, medium), prioPod("m3.2", "machine3", midPrio, medium)},
			prioPod("machine1", "", highPrio, veryLarge), []string{"machine2"}},
		{"when highest priority and sum are the same, minimum number of pods is picked", m3,
			[]*api.Pod{prioPod("m1.1", "machine1", midPrio, small), prioPod("m1.2", "machine1", negPrio, small),
				prioPod("m1.3", "machine1", midPrio, small), prioPod("m1.4", "machine1", negPrio, small),
				prioPod("m2.1", "machine2", midPrio, large), prioPod("m2.2", "machine2", negPrio, medium),
				prioPod("m3.1", "machine3", midPrio, medium), prioPod("m3.2", "machine3", negPrio, small), prioPod("m3.3", "machine3", lowPrio, small)},
			prioPod("machine1", "", highPrio, veryLarge), []string{"machine2"}},
		{"sum of adjusted priorities is considered", m3,
			[]*api.Pod{prioPod("m1.1", "machine1", midPrio, small), prioPod("m1.2", "machine1", negPrio, small), prioPod("m1.3", "machine1", negPrio, small),
				prioPod("m2.1", "machine2", midPrio, large), prioPod("m2.2", "machine2", negPrio, medium),
				prioPod("m3.1", "machine3", midPrio, medium), prioPod("m3.2", "machine3", negPrio, small), prioPod("m3.3", "machine3", lowPrio, small)},
			prioPod("machine1", "", highPrio, veryLarge), []string{"machine2"}},
		{"non-overlapping lowest high priority, sum priorities, and number of pods", machines("machine1", "machine2", "machine3", "machine4"),
			[]*api.Pod{prioPod("m1.1", "machine1", midPrio, small), prioPod("m1.2", "machine1", lowPrio, small), prioPod("m1.3", "machine1", lowPrio, small),
				prioPod("m2.1", "machine2", highPrio, large),
				prioPod("m3.1", "machine3", midPrio, medium), prioPod("m3.2", "machine3", lowPrio, small), prioPod("m3.3", "machine3", lowPrio, small), prioPod("m3.4", "machine3", lowPrio, medium),
				prioPod("m4.1", "machine4", midPrio, medium), prioPod("m4.2", "machine4", midPrio, small), prioPod("m4.3", "machine4", midPrio, small), prioPod("m4.4", "machine4", negPrio, small)},
			prioPod("pod1", "", veryHighPrio, veryLarge), []string{"machine1"}},
		{"same priority, same number of victims, different start time for all pods", m3,
			[]*api.Pod{started(prioPod("m1.1", "machine1", midPrio, medium), day(5)), started(prioPod("m1.2", "machine1", midPrio, medium), day(3)),
				started(prioPod("m2.1", "machine2", midPrio, medium), day(6)), started(prioPod("m2.2", "machine2", midPrio, medium), day(2)),
				started(prioPod("m3.1", "machine3", midPrio, medium), day(4)), started(prioPod("m3.2", "machine3", midPrio, medium), day(7))},
			prioPod("machine1", "", highPrio, veryLarge), []string{"machine3"}},
		{"different priority, same number of victims, different start time for all pods", m3,
			[]*api.Pod{started(prioPod("m1.1", "machine1", lowPrio, medium), day(5)), started(prioPod("m1.2", "machine1", midPrio, medium), day(3)),
				started(prioPod("m2.1", "machine2", midPrio, medium), day(7)), started(prioPod("m2.2", "machine2", lowPrio, medium), day(2)),
				started(prioPod("m3.1", "machine3", lowPrio, medium), day(4)), started(prioPod("m3.2", "machine3", midPrio, medium), day(6))},
			prioPod("machine1", "", highPrio, veryLarge), []string{"machine2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cands, _ := dryRun(t, tc.nodes, tc.pods, tc.pod, nil)
			if len(cands) == 0 {
				t.Fatal("no candidates")
			}
			if got := pickOneNodeForPreemption(cands, day(10)).node; !slices.Contains(tc.want, got) {
				t.Errorf("picked %s, want one of %v", got, tc.want)
			}
		})
	}
}

// TestPreemptionBudgets: a victim whose PodDisruptionBudget allows no
// disruption is reprieved first, and a node needing no budget violation
// is preferred (filterPodsWithPDBViolation, pickOneNodeForPreemption's
// first rule).
func TestPreemptionBudgets(t *testing.T) {
	// The guarded pod has the lower priority: without the budget rule its
	// node would be picked.
	guarded := prioPod("guarded", "machine1", negPrio, large)
	guarded.Labels = map[string]string{"app": "db"}
	pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "db"},
		Spec:   api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "db"}}},
		Status: api.PodDisruptionBudgetStatus{DisruptionsAllowed: 0}}
	pods := []*api.Pod{guarded, prioPod("free", "machine2", lowPrio, large)}
	cands, _ := dryRun(t, machines("machine1", "machine2"), pods, prioPod("p", "", highPrio, large), []*api.PodDisruptionBudget{pdb})
	if len(cands) != 2 || cands[0].node != "machine2" || cands[0].pdbViolations != 0 || cands[1].pdbViolations != 1 {
		t.Fatalf("candidates %+v, want machine2 without violation first, machine1 with one", cands)
	}
	if got := pickOneNodeForPreemption([]candidate{cands[1], cands[0]}, day(10)).node; got != "machine2" {
		t.Errorf("picked %s, want machine2 (no budget violated)", got)
	}
}

// TestPostFilter ports the rows of k/k defaultpreemption's TestPostFilter
// (default_preemption_test.go at 008b3652) that need neither extenders,
// the test plugin nor pod groups: the node preemption nominates, or the
// PostFilter message when it finds none. Upstream hands the plugin the
// filter statuses; here the scheduler's own filters give them (a node
// upstream marks UnschedulableAndUnresolvable is tainted), except in the
// rows whose nodes are too small for the pod altogether: NodeResourcesFit
// finds those UnschedulableAndUnresolvable itself (since 1.34), where
// upstream's table hands them in as Unschedulable, so handedIn puts every
// untainted node among the potential ones, as the table does.
func TestPostFilter(t *testing.T) {
	onePod := func(name string) *api.Node { return testNode(name, rl("pods", "1")) }
	nodeRes := func(name string) *api.Node { return testNode(name, rl("cpu", "200m", "memory", "400", "pods", "32")) }
	unresolvable := func(n *api.Node) *api.Node {
		n.Spec.Taints = []api.Taint{taint("dedicated", "x", api.TaintEffectNoSchedule)}
		return n
	}
	largeRes := rl("cpu", "300m", "memory", "300")
	pdbLabel := func(p *api.Pod, v string) *api.Pod {
		p.Labels = map[string]string{"test.kubernetes.io/is-violating-pdb": v}
		return p
	}
	pdb := func(name, v string, allowed int32) *api.PodDisruptionBudget {
		return &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name},
			Spec:   api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"test.kubernetes.io/is-violating-pdb": v}}},
			Status: api.PodDisruptionBudgetStatus{DisruptionsAllowed: allowed}}
	}
	tests := []struct {
		name      string
		pod       *api.Pod
		pods      []*api.Pod
		pdbs      []*api.PodDisruptionBudget
		nodes     []*api.Node
		nominated string
		msg       string
		handedIn  bool
	}{
		{name: "pod with higher priority can be made schedulable", pod: prioPod("p", "", highPrio),
			pods: []*api.Pod{prioPod("p1", "node1", lowPrio)}, nodes: []*api.Node{onePod("node1")}, nominated: "node1"},
		{name: "pod with tied priority is still unschedulable", pod: prioPod("p", "", lowPrio),
			pods: []*api.Pod{prioPod("p1", "node1", lowPrio)}, nodes: []*api.Node{onePod("node1")},
			msg: "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."},
		{name: "preemption should respect filteredNodesStatuses", pod: prioPod("p", "", highPrio),
			pods: []*api.Pod{prioPod("p1", "node1", lowPrio)}, nodes: []*api.Node{unresolvable(onePod("node1"))},
			msg: "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."},
		{name: "pod can be made schedulable on one node", pod: prioPod("p", "", midPrio),
			pods: []*api.Pod{prioPod("p1", "node1", highPrio), prioPod("p2", "node2", lowPrio)}, nodes: []*api.Node{onePod("node1"), onePod("node2")},
			nominated: "node2"},
		{name: "pod can be made schedulable on minHighestPriority node", pod: prioPod("p", "", veryHighPrio),
			pods: []*api.Pod{pdbLabel(prioPod("p1", "node1", highPrio), "non-violating"), pdbLabel(prioPod("p2", "node1", lowPrio), "violating"),
				pdbLabel(prioPod("p3", "node2", midPrio), "violating")},
			pdbs:  []*api.PodDisruptionBudget{pdb("violating-pdb", "violating", 0), pdb("non-violating-pdb", "non-violating", math.MaxInt32)},
			nodes: []*api.Node{onePod("node1"), onePod("node2")}, nominated: "node2"},
		{name: "no candidate nodes found, no enough resource after removing low priority pods", pod: prioPod("p", "", highPrio, largeRes),
			pods: []*api.Pod{prioPod("p1", "node1", lowPrio), prioPod("p2", "node2", lowPrio)}, nodes: []*api.Node{nodeRes("node1"), nodeRes("node2")},
			msg: "preemption: 0/2 nodes are available: 2 Insufficient cpu.", handedIn: true},
		{name: "no candidate nodes found with mixed reasons, no lower priority pod and no enough CPU resource", pod: prioPod("p", "", highPrio, largeRes),
			pods:  []*api.Pod{prioPod("p1", "node1", highPrio), prioPod("p2", "node2", lowPrio), prioPod("p3", "node3", highPrio)},
			nodes: []*api.Node{onePod("node1"), nodeRes("node2"), onePod("node3")},
			msg:   "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No preemption victims found for incoming pod.", handedIn: true},
		{name: "no candidate nodes found with mixed reason, 2 UnschedulableAndUnresolvable nodes and 2 nodes don't have enough CPU resource",
			pod:      prioPod("p", "", highPrio, largeRes),
			pods:     []*api.Pod{prioPod("p1", "node1", lowPrio), prioPod("p2", "node2", lowPrio)},
			nodes:    []*api.Node{nodeRes("node1"), nodeRes("node2"), unresolvable(nodeRes("node3")), unresolvable(nodeRes("node4"))},
			msg:      "preemption: 0/4 nodes are available: 2 Insufficient cpu, 2 Preemption is not helpful for scheduling.",
			handedIn: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &scheduler{cache: newTestCache(tc.nodes, tc.pods...), rng: rand.New(rand.NewPCG(1, 2)), prng: rand.New(rand.NewPCG(3, 4))}
			if node, err := s.schedule(tc.pod, ""); err == nil {
				t.Fatalf("pod fits %s without preemption", node)
			}
			if tc.handedIn {
				s.potential = s.potential[:0]
				for _, n := range tc.nodes {
					if len(n.Spec.Taints) == 0 {
						s.potential = append(s.potential, s.cache.info(n.Name))
					}
				}
			}
			cands, statuses, checked, err := s.findCandidates(tc.pod, func() ([]*api.PodDisruptionBudget, error) { return tc.pdbs, nil }, day(10))
			if err != nil {
				t.Fatal(err)
			}
			nominated, msg := "", ""
			if len(cands) > 0 {
				nominated = pickOneNodeForPreemption(cands, day(10)).node
			} else {
				msg = noCandidatesMsg(len(tc.nodes), statuses, checked)
			}
			if nominated != tc.nominated || msg != tc.msg {
				t.Errorf("nominated %q, message %q; want %q, %q", nominated, msg, tc.nominated, tc.msg)
			}
		})
	}
}

// TestDryRunPreemptionBudgets ports the budget rows of k/k
// defaultpreemption's TestDryRunPreemption (default_preemption_test.go at
// 008b3652): the victims on node1 and how many of them violate the
// budget, with the pods the budget has already seen evicted
// (status.disruptedPods) not counted against it.
func TestDryRunPreemptionBudgets(t *testing.T) {
	app := func(p *api.Pod) *api.Pod { p.Labels = map[string]string{"app": "foo"}; return p }
	pdb := func(disrupted ...string) *api.PodDisruptionBudget {
		b := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "pdb"},
			Spec:   api.PodDisruptionBudgetSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "foo"}}},
			Status: api.PodDisruptionBudgetStatus{DisruptionsAllowed: 1}}
		if len(disrupted) > 0 {
			b.Status.DisruptedPods = map[string]api.Time{}
			for _, n := range disrupted {
				b.Status.DisruptedPods[n] = api.NewTime(day(1))
			}
		}
		return b
	}
	two := func() []*api.Pod {
		return []*api.Pod{app(prioPod("p1.1", "node1", midPrio, medium)), app(prioPod("p1.2", "node1", midPrio, medium))}
	}
	tests := []struct {
		name       string
		pods       []*api.Pod
		pdb        *api.PodDisruptionBudget
		victims    []string
		violations int
	}{
		{"preemption with violation of same pdb", two(), pdb(), []string{"p1.1", "p1.2"}, 1},
		{"preemption with violation of the pdb with pod whose eviction was processed, the victim doesn't belong to DisruptedPods",
			two(), pdb("p2"), []string{"p1.1", "p1.2"}, 1},
		{"preemption with violation of the pdb with pod whose eviction was processed, the victim belongs to DisruptedPods",
			two(), pdb("p1.2"), []string{"p1.1", "p1.2"}, 0},
		{"preemption with violation of the pdb with pod whose eviction was processed, the victim which belongs to DisruptedPods is treated as 'nonViolating'",
			append(two(), app(prioPod("p1.3", "node1", midPrio, medium))), pdb("p1.3"), []string{"p1.1", "p1.2", "p1.3"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cands, _ := dryRun(t, machines("node1"), tc.pods, prioPod("p", "", highPrio, veryLarge), []*api.PodDisruptionBudget{tc.pdb})
			if len(cands) != 1 {
				t.Fatalf("candidates %+v, want node1", cands)
			}
			if got := victimNames(cands[0]); !slices.Equal(got, tc.victims) || cands[0].pdbViolations != tc.violations {
				t.Errorf("victims %v with %d violations, want %v with %d", got, cands[0].pdbViolations, tc.victims, tc.violations)
			}
		})
	}
}

// TestFitUnresolvable: a node whose allocatable (not its free room) is
// smaller than what the pod asks for is not a preemption candidate:
// NodeResourcesFit's status for it is UnschedulableAndUnresolvable
// (fit.go, InsufficientResource.Unresolvable; kubernetes PR #131345, in
// 1.34). A node short only of free room, or at its pod limit, is.
func TestFitUnresolvable(t *testing.T) {
	node := func(kv ...string) *api.Node { return testNode("n", rl(kv...)) }
	for _, tc := range []struct {
		name      string
		node      *api.Node
		bound     []*api.Pod
		pod       *api.Pod
		potential bool
	}{
		{"cpu over allocatable", node("cpu", "1", "memory", "1Gi", "pods", "10"), nil, testPod("p", rl("cpu", "2")), false},
		{"cpu over what is free", node("cpu", "2", "memory", "1Gi", "pods", "10"), []*api.Pod{prioPod("a", "n", lowPrio, rl("cpu", "1500m"))}, testPod("p", rl("cpu", "1")), true},
		{"memory over allocatable", node("cpu", "2", "memory", "1Gi", "pods", "10"), nil, testPod("p", rl("memory", "2Gi")), false},
		{"memory over what is free", node("cpu", "2", "memory", "1Gi", "pods", "10"), []*api.Pod{prioPod("a", "n", lowPrio, rl("memory", "800Mi"))}, testPod("p", rl("memory", "512Mi")), true},
		{"ephemeral storage over allocatable", node("cpu", "2", "ephemeral-storage", "1Gi", "pods", "10"), nil, testPod("p", rl("ephemeral-storage", "2Gi")), false},
		{"extended resource over allocatable", node("cpu", "2", "example.com/gpu", "1", "pods", "10"), nil, testPod("p", rl("example.com/gpu", "2")), false},
		{"extended resource the node lacks", node("cpu", "2", "pods", "10"), nil, testPod("p", rl("example.com/gpu", "1")), false},
		{"at its pod limit", node("cpu", "2", "pods", "1"), []*api.Pod{prioPod("a", "n", lowPrio)}, testPod("p"), true},
		{"at its pod limit and cpu over allocatable", node("cpu", "2", "pods", "1"), []*api.Pod{prioPod("a", "n", lowPrio)}, testPod("p", rl("cpu", "4")), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &scheduler{cache: newTestCache([]*api.Node{tc.node}, tc.bound...), rng: rand.New(rand.NewPCG(1, 2)), prng: rand.New(rand.NewPCG(3, 4))}
			if node, err := s.schedule(tc.pod, ""); err == nil {
				t.Fatalf("pod fits %s", node)
			}
			if got := len(s.potential) == 1; got != tc.potential {
				t.Errorf("a preemption candidate: %v, want %v (reasons %v)", got, tc.potential, s.reasons)
			}
		})
	}
}
