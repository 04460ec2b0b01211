package scheduler

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

type scoreCase struct {
	name     string
	pod      *api.Pod
	nodes    []*api.Node
	existing []*api.Pod // bound already
	want     []int64
}

func cm(cpu, mem string) api.ResourceList { return rl("cpu", cpu, "memory", mem) }

func nodesCM(spec ...string) []*api.Node {
	var out []*api.Node
	for i := 0; i+1 < len(spec); i += 2 {
		out = append(out, testNode(fmt.Sprintf("node%d", i/2+1), rl("cpu", spec[i], "memory", spec[i+1], "pods", "110")))
	}
	return out
}

func runScores(t *testing.T, tc scoreCase, f func(pi *podInfo, ni *nodeInfo) int64) {
	t.Helper()
	c := newTestCache(tc.nodes, tc.existing...)
	pi := newPodInfo(tc.pod)
	var got []int64
	for _, n := range tc.nodes {
		got = append(got, f(pi, c.nodes[n.Name]))
	}
	if !slices.Equal(got, tc.want) {
		t.Errorf("scores = %v, want %v", got, tc.want)
	}
}

// TestLeastAllocated ports the rows of k/k noderesources'
// TestLeastAllocatedScoringStrategy (least_allocated_test.go at 008b3652)
// with the default cpu:memory weights 1:1; the rows with other weights,
// invalid weights or extended resources configure the plugin, which the
// default profile does not.
func TestLeastAllocated(t *testing.T) {
	twoReqs := func() *api.Pod { return testPod("p", cm("1000", "2000"), cm("2000", "3000")) }
	tests := []scoreCase{
		{"nothing scheduled, nothing requested", &api.Pod{}, nodesCM("4000", "10000", "4000", "10000"), nil, []int64{100, 100}},
		{"nothing scheduled, resources requested, differently sized nodes", twoReqs(),
			nodesCM("4000", "10000", "6000", "10000"), nil, []int64{37, 50}},
		{"no resources requested, pods scheduled", &api.Pod{}, nodesCM("4000", "10000", "4000", "10000"),
			[]*api.Pod{bindTo(&api.Pod{}, "node1"), bindTo(&api.Pod{}, "node1"), bindTo(&api.Pod{}, "node2")}, []int64{100, 100}},
		{"no resources requested, pods scheduled with resources", &api.Pod{}, nodesCM("10000", "20000", "10000", "20000"),
			[]*api.Pod{
				bindTo(testPod("a", cm("3000", "0")), "node1"), bindTo(testPod("b", cm("3000", "0")), "node1"),
				bindTo(testPod("c", cm("3000", "0")), "node2"), bindTo(testPod("d", cm("3000", "5000")), "node2"),
			}, []int64{70, 57}},
		{"resources requested, pods scheduled with resources", twoReqs(), nodesCM("10000", "20000", "10000", "20000"),
			[]*api.Pod{bindTo(testPod("a", cm("3000", "0")), "node1"), bindTo(testPod("b", cm("3000", "5000")), "node2")},
			[]int64{57, 45}},
		{"resources requested, pods scheduled with resources, differently sized nodes", twoReqs(),
			nodesCM("10000", "20000", "10000", "50000"),
			[]*api.Pod{bindTo(testPod("a", cm("3000", "0")), "node1"), bindTo(testPod("b", cm("3000", "5000")), "node2")},
			[]int64{57, 60}},
		{"requested resources exceed node capacity", testPod("p", cm("3000", "0")), nodesCM("4000", "10000", "4000", "10000"),
			[]*api.Pod{bindTo(testPod("a", cm("3000", "0")), "node1"), bindTo(testPod("b", cm("3000", "5000")), "node2")},
			[]int64{50, 25}},
		{"zero node resources, pods scheduled with resources", &api.Pod{},
			[]*api.Node{testNode("node1", nil), testNode("node2", nil)},
			[]*api.Pod{bindTo(testPod("a", cm("3000", "0")), "node1"), bindTo(testPod("b", cm("3000", "5000")), "node2")},
			[]int64{0, 0}},
		{"request-less pod counts 100m and 200Mi", testPod("p", nil), nodesCM("1", "400Mi"), nil, []int64{(90 + 50) / 2}},
		// TestFitScore (fit_test.go, its ktesting form, 1.36 or later):
		// the LeastAllocated rows with the default resources; the
		// MostAllocated, RequestedToCapacityRatio and DRA extended
		// resource rows configure the plugin otherwise. Our score needs
		// no PreScore, so its "if PreScore is not called" row is the same.
		{"test case for ScoringStrategy LeastAllocated", testPod("p", cm("1000", "2000")),
			nodesCM("4000", "10000", "6000", "10000"),
			[]*api.Pod{bindTo(testPod("a", cm("2000", "4000")), "node1"), bindTo(testPod("b", cm("1000", "2000")), "node2")},
			[]int64{32, 63}},
		{"test case for ScoringStrategy LeastAllocated if PreScore is not called", testPod("p", cm("1000", "2000")),
			nodesCM("4000", "10000", "6000", "10000"),
			[]*api.Pod{bindTo(testPod("a", cm("2000", "4000")), "node1"), bindTo(testPod("b", cm("1000", "2000")), "node2")},
			[]int64{32, 63}},
		{"test case for ScoringStrategy LeastAllocated with sidecar container", testPod("p", cm("1000", "2000")),
			nodesCM("4000", "10000", "4000", "10000"),
			[]*api.Pod{bindTo(withSidecar(testPod("a", cm("1000", "2000")), cm("1000", "2000")), "node1"), bindTo(testPod("b", cm("1000", "2000")), "node2")},
			[]int64{32, 55}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runScores(t, tc, leastAllocated) })
	}
}

// withSidecar adds a restartable init container (a sidecar) with the
// given requests, as upstream's st.MakePod().SidecarReq does.
func withSidecar(p *api.Pod, r api.ResourceList) *api.Pod {
	always := api.ContainerRestartPolicyAlways
	p.Spec.InitContainers = append(p.Spec.InitContainers, api.Container{Name: "sidecar", Image: "pause",
		RestartPolicy: &always, Resources: api.ResourceRequirements{Requests: r}})
	return p
}

// TestBalancedAllocation ports the rows of k/k noderesources'
// TestNodeResourcesBalancedAllocation (balanced_allocation_test.go at
// 00fdb4ff) with the default resources, cpu and memory; the scalar and
// DRA rows configure other resources.
func TestBalancedAllocation(t *testing.T) {
	twoReqs := func() *api.Pod { return testPod("p", cm("1000", "2000"), cm("2000", "3000")) }
	score := func(pi *podInfo, ni *nodeInfo) int64 {
		if !balancedAllocationApplies(pi) {
			return -1
		}
		_, balanced := fitScores(pi, ni)
		return balanced
	}
	tests := []scoreCase{
		{"best-effort pod skips the plugin", testPod("p", nil), nodesCM("4000", "10000"), nil, []int64{-1}},
		{"nothing scheduled, resources requested, differently sized nodes", twoReqs(),
			nodesCM("4000", "10000", "6000", "10000"), nil, []int64{87, 100}},
		{"resources requested, pods scheduled with resources", twoReqs(), nodesCM("10000", "20000", "10000", "20000"),
			[]*api.Pod{bindTo(testPod("a", cm("3000", "0")), "node1"), bindTo(testPod("b", cm("3000", "5000")), "node2")},
			[]int64{82, 95}},
		{"resources requested, pods scheduled with resources, differently sized nodes", twoReqs(),
			nodesCM("10000", "20000", "10000", "50000"),
			[]*api.Pod{bindTo(testPod("a", cm("3000", "0")), "node1"), bindTo(testPod("b", cm("3000", "5000")), "node2")},
			[]int64{82, 80}},
		{"requested resources exceed node capacity", testPod("p", cm("3000", "0")), nodesCM("4000", "10000", "4000", "10000"),
			[]*api.Pod{bindTo(testPod("a", cm("3000", "0")), "node1"), bindTo(testPod("b", cm("3000", "5000")), "node2")},
			[]int64{50, 75}},
		{"requested resources at node capacity", testPod("p", cm("1000", "0"), cm("2000", "0")), nodesCM("6000", "10000", "6000", "10000"),
			[]*api.Pod{bindTo(testPod("a", cm("1000", "0"), cm("2000", "0")), "node1"), bindTo(testPod("b", cm("1000", "2000"), cm("2000", "3000")), "node2")},
			[]int64{50, 75}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { runScores(t, tc, score) })
	}
}

// normalized runs a raw per-node scorer over nodes and normalizes.
func normalized(pod *api.Pod, nodes []*api.Node, reverse bool, raw func(*api.Pod, *api.Node) int64) []int64 {
	var s []int64
	for _, n := range nodes {
		s = append(s, raw(pod, n))
	}
	normalize(s, reverse)
	return s
}

// TestTaintTolerationScore ports the rows of k/k tainttoleration's
// TestTaintTolerationScore (taint_toleration_test.go at 04c0d74f) but
// those with Gt and Lt tolerations, which need the alpha gate
// TaintTolerationComparisonOperators (off in 1.37).
func TestTaintTolerationScore(t *testing.T) {
	const pns, ns = api.TaintEffectPreferNoSchedule, api.TaintEffectNoSchedule
	node := func(name string, taints ...api.Taint) *api.Node {
		n := testNode(name, nil)
		n.Spec.Taints = taints
		return n
	}
	tests := []struct {
		name  string
		tols  []api.Toleration
		nodes []*api.Node
		want  []int64
	}{
		{"tolerated taints score higher than intolerable ones",
			[]api.Toleration{tol("foo", api.TolerationOpEqual, "bar", pns)},
			[]*api.Node{node("nodeA", taint("foo", "bar", pns)), node("nodeB", taint("foo", "blah", pns))},
			[]int64{100, 0}},
		{"all taints tolerated: same score however many",
			[]api.Toleration{tol("cpu-type", api.TolerationOpEqual, "arm64", pns), tol("disk-type", api.TolerationOpEqual, "ssd", pns)},
			[]*api.Node{node("nodeA"), node("nodeB", taint("cpu-type", "arm64", pns)),
				node("nodeC", taint("cpu-type", "arm64", pns), taint("disk-type", "ssd", pns))},
			[]int64{100, 100, 100}},
		{"more intolerable taints, lower score",
			[]api.Toleration{tol("foo", api.TolerationOpEqual, "bar", pns)},
			[]*api.Node{node("nodeA"), node("nodeB", taint("cpu-type", "arm64", pns)),
				node("nodeC", taint("cpu-type", "arm64", pns), taint("disk-type", "ssd", pns))},
			[]int64{100, 50, 0}},
		{"only PreferNoSchedule taints and tolerations count",
			[]api.Toleration{tol("cpu-type", api.TolerationOpEqual, "arm64", ns), tol("disk-type", api.TolerationOpEqual, "ssd", ns)},
			[]*api.Node{node("nodeA"), node("nodeB", taint("cpu-type", "arm64", ns)),
				node("nodeC", taint("cpu-type", "arm64", pns), taint("disk-type", "ssd", pns))},
			[]int64{100, 100, 0}},
		{"no tolerations lands on the untainted node", nil,
			[]*api.Node{node("nodeA"), node("nodeB", taint("cpu-type", "arm64", pns))},
			[]int64{100, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod("p", nil)
			pod.Spec.Tolerations = tc.tols
			got := normalized(pod, tc.nodes, true, func(p *api.Pod, n *api.Node) int64 {
				return intolerablePreferNoSchedule(n.Spec.Taints, p.Spec.Tolerations)
			})
			if !slices.Equal(got, tc.want) {
				t.Errorf("scores = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNodeAffinityScore ports the rows of k/k nodeaffinity's
// TestNodeAffinityPriority (node_affinity_test.go at 022462cc) without
// the plugin's addedAffinity argument, which the default profile does
// not set.
func TestNodeAffinityScore(t *testing.T) {
	label1 := map[string]string{"foo": "bar"}
	label2 := map[string]string{"key": "value"}
	label3 := map[string]string{"az": "az1"}
	label4 := map[string]string{"abc": "az11", "def": "az22"}
	label5 := map[string]string{"foo": "bar", "key": "value", "az": "az1"}
	pref := func(w int32, reqs ...api.NodeSelectorRequirement) api.PreferredSchedulingTerm {
		return api.PreferredSchedulingTerm{Weight: w, Preference: api.NodeSelectorTerm{MatchExpressions: reqs}}
	}
	in := api.NodeSelectorOpIn
	affinity1 := &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{
		pref(2, expr("foo", in, "bar")),
	}}}
	affinity2 := &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{
		pref(2, expr("foo", in, "bar")),
		pref(4, expr("key", in, "value")),
		pref(5, expr("foo", in, "bar"), expr("key", in, "value"), expr("az", in, "az1")),
	}}}
	node := func(name string, labels map[string]string) *api.Node {
		n := testNode(name, nil)
		n.Labels = labels
		return n
	}
	tests := []struct {
		name     string
		affinity *api.Affinity
		nodes    []*api.Node
		want     []int64
	}{
		{"no affinity: all equal", nil, []*api.Node{node("m1", label1), node("m2", label2), node("m3", label3)}, []int64{0, 0, 0}},
		{"no node matches", affinity1, []*api.Node{node("m1", label4), node("m2", label2), node("m3", label3)}, []int64{0, 0, 0}},
		{"only m1 matches", affinity1, []*api.Node{node("m1", label1), node("m2", label2), node("m3", label3)}, []int64{100, 0, 0}},
		{"all match with different weights", affinity2, []*api.Node{node("m1", label1), node("m5", label5), node("m2", label2)}, []int64{18, 100, 36}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod("p", nil)
			pod.Spec.Affinity = tc.affinity
			if got := normalized(pod, tc.nodes, false, preferredAffinity); !slices.Equal(got, tc.want) {
				t.Errorf("scores = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestFitErrorMessage checks upstream's message format (FitError.Error in
// pkg/scheduler/framework/types.go at 00fdf757): counts per reason,
// sorted as strings, joined by ", ", with a final period; PostFilter's
// message follows after a space, with no period added.
func TestFitErrorMessage(t *testing.T) {
	tests := []struct {
		name    string
		all     int
		reasons map[string]int
		want    string
	}{
		{"one reason", 3, map[string]int{"Insufficient cpu": 3}, "0/3 nodes are available: 3 Insufficient cpu."},
		{"several reasons, sorted", 4, map[string]int{
			ReasonUnschedulable: 1, "Insufficient cpu": 2, ReasonUntoleratedTaint: 1,
		}, "0/4 nodes are available: 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 2 Insufficient cpu."},
		{"sorting is lexical, as upstream's", 12, map[string]int{"Insufficient memory": 2, "Insufficient cpu": 10},
			"0/12 nodes are available: 10 Insufficient cpu, 2 Insufficient memory."},
		{"a node may count for two reasons", 2, map[string]int{"Insufficient cpu": 2, "Insufficient memory": 1},
			"0/2 nodes are available: 1 Insufficient memory, 2 Insufficient cpu."},
		{"no reasons", 0, nil, "0/0 nodes are available:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := (&FitError{NumAllNodes: tc.all, Reasons: tc.reasons}).Error(); got != tc.want {
				t.Errorf("message = %q, want %q", got, tc.want)
			}
		})
	}
	if got, want := ErrNoNodesAvailable.Error(), "no nodes available to schedule pods"; got != want {
		t.Errorf("ErrNoNodesAvailable = %q, want %q", got, want)
	}
}

// TestScheduleFitError runs a whole scheduling cycle against a cache and
// checks the FitError it produces.
func TestScheduleFitError(t *testing.T) {
	small := func(name string) *api.Node { return testNode(name, rl("cpu", "1", "memory", "1Gi", "pods", "110")) }
	cordoned := small("cordoned")
	cordoned.Spec.Unschedulable = true
	tainted := small("tainted")
	tainted.Spec.Taints = []api.Taint{taint("dedicated", "infra", api.TaintEffectNoSchedule)}
	full := small("full")
	nodes := []*api.Node{small("a"), small("b"), cordoned, tainted, full}
	s := &scheduler{cache: newTestCache(nodes, bindTo(testPod("hog", rl("cpu", "1", "memory", "2Gi")), "full")),
		rng: rand.New(rand.NewPCG(1, 2))}
	s.opts.defaults()
	_, err := s.schedule(testPod("big", rl("cpu", "2", "memory", "512Mi")), "")
	var fe *FitError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v, want a FitError", err)
	}
	// The full node fails for memory as well as cpu: NodeResourcesFit
	// reports every resource that does not fit.
	want := "0/5 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint(s), 1 node(s) were unschedulable, 3 Insufficient cpu."
	if fe.Error() != want {
		t.Errorf("message = %q\nwant      %q", fe.Error(), want)
	}
	_, err = (&scheduler{cache: newCache()}).schedule(testPod("p", nil), "")
	if !errors.Is(err, ErrNoNodesAvailable) {
		t.Errorf("empty cluster: err = %v, want ErrNoNodesAvailable", err)
	}
	node, err := s.schedule(testPod("small", rl("cpu", "500m")), "")
	if err != nil || (node != "a" && node != "b") {
		t.Errorf("small pod: node = %q, err = %v; want a or b", node, err)
	}
}

// TestSelectHost checks the tie-breaking: the top score always wins, ties
// are shared out evenly, and a seed always gives the same choices.
func TestSelectHost(t *testing.T) {
	if got := selectHost(nil, rand.New(rand.NewPCG(1, 1))); got != -1 {
		t.Errorf("no nodes: %d, want -1", got)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for range 100 {
		if got := selectHost([]int64{10, 90, 50, 89}, rng); got != 1 {
			t.Fatalf("unique top: %d, want 1", got)
		}
	}
	choose := func(seed uint64, n int) []int {
		rng := rand.New(rand.NewPCG(seed, seed))
		out := make([]int, n)
		for i := range out {
			out[i] = selectHost([]int64{5, 80, 80, 3, 80}, rng)
		}
		return out
	}
	a, b := choose(42, 3000), choose(42, 3000)
	if !slices.Equal(a, b) {
		t.Fatal("same seed gave different choices")
	}
	if slices.Equal(a, choose(43, 3000)) {
		t.Error("different seeds gave the same 3000 choices")
	}
	counts := map[int]int{}
	for _, i := range a {
		counts[i]++
	}
	if len(counts) != 3 || counts[0]+counts[3] != 0 {
		t.Fatalf("choices %v, want only 1, 2 and 4", counts)
	}
	// Each tied node is chosen with probability 1/3: 1000 expected, a
	// standard deviation of about 26; allow 5 of them.
	for _, i := range []int{1, 2, 4} {
		if c := counts[i]; c < 870 || c > 1130 {
			t.Errorf("node %d chosen %d times of 3000, want about 1000", i, c)
		}
	}
}

// TestNumFeasibleNodesToFind ports k/k's TestNumFeasibleNodesToFind.
func TestNumFeasibleNodesToFind(t *testing.T) {
	tests := []struct {
		name       string
		percentage int32
		nodes      int
		want       int
	}{
		{"unset, few nodes", 0, 10, 10},
		{"set, few nodes", 40, 10, 10},
		{"unset, 1000 nodes", 0, 1000, 420},
		{"set, 1000 nodes", 40, 1000, 400},
		{"unset, 6000 nodes", 0, 6000, 300},
		{"set, 6000 nodes", 40, 6000, 2400},
		{"never fewer than 100", 1, 1000, 100},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := numFeasibleNodesToFind(tc.percentage, tc.nodes); got != tc.want {
				t.Errorf("got %d, want %d", got, tc.want)
			}
		})
	}
}

// TestNodeTreeOrder checks that nodes are listed one zone at a time, as
// upstream's node tree does, and that a partial search moves on.
func TestNodeTreeOrder(t *testing.T) {
	var nodes []*api.Node
	for _, z := range []struct {
		zone string
		n    int
	}{{"b", 2}, {"a", 3}, {"c", 1}} {
		for i := range z.n {
			n := testNode(fmt.Sprintf("%s-%d", z.zone, i), rl("cpu", "1", "memory", "1Gi", "pods", "10"))
			n.Labels[labelZone] = z.zone
			nodes = append(nodes, n)
		}
	}
	c := newTestCache(nodes)
	var got []string
	for _, ni := range c.list() {
		got = append(got, ni.name)
	}
	want := []string{"a-0", "b-0", "c-0", "a-1", "b-1", "a-2"}
	if !slices.Equal(got, want) {
		t.Errorf("order = %v, want %v", got, want)
	}
	c.removeNode("b-0")
	got = got[:0]
	for _, ni := range c.list() {
		got = append(got, ni.name)
	}
	if want := []string{"a-0", "b-1", "c-0", "a-1", "a-2"}; !slices.Equal(got, want) {
		t.Errorf("after removing b-0: order = %v, want %v", got, want)
	}
}

// TestCacheAssume checks the accounting around a binding: assume counts
// the pod at once, the informer's confirmation keeps it counted, forget
// gives back only what is still assumed, and finished pods free their node.
func TestCacheAssume(t *testing.T) {
	node := testNode("n", rl("cpu", "1", "memory", "1Gi", "pods", "10"))
	c := newTestCache([]*api.Node{node})
	pod := testPod("p", rl("cpu", "600m"))
	used := func() int64 { return c.nodes["n"].requested.milliCPU }

	c.assume(pod, "n")
	if used() != 600 || !c.isAssumed(pod) {
		t.Fatalf("after assume: used %d, assumed %v", used(), c.isAssumed(pod))
	}
	if c.setPod(pod) || used() != 600 {
		t.Fatalf("an unbound informer view must not drop the assumed pod: used %d", used())
	}
	c.forget(pod.Key(), pod.UID)
	if used() != 0 || c.isAssumed(pod) {
		t.Fatalf("after forget: used %d", used())
	}

	c.assume(pod, "n")
	bound := bindTo(pod, "n")
	c.setPod(bound) // the informer confirms
	c.forget(pod.Key(), pod.UID)
	if used() != 600 || c.isAssumed(pod) {
		t.Fatalf("forget after confirmation must keep the pod: used %d assumed %v", used(), c.isAssumed(pod))
	}
	done := bound.DeepCopyObject().(*api.Pod)
	done.Status.Phase = api.PodSucceeded
	if !c.setPod(done) || used() != 0 || c.nodes["n"].pods != 0 {
		t.Fatalf("a finished pod must free its node: used %d pods %d", used(), c.nodes["n"].pods)
	}
	// Pods arriving before their node keep a placeholder that is not a
	// candidate.
	c.setPod(bindTo(testPod("early", rl("cpu", "1")), "later"))
	for _, ni := range c.list() {
		if ni.name == "later" {
			t.Error("a node without a Node object is listed")
		}
	}
	c.setNode(testNode("later", rl("cpu", "2", "memory", "1Gi", "pods", "10")))
	if ni := c.nodes["later"]; ni.requested.milliCPU != 1000 || ni.pods != 1 {
		t.Errorf("placeholder accounting lost: %+v", ni.requested)
	}
}

// TestDefaultNormalizeScore ports k/k helper's TestDefaultNormalizeScore
// (pkg/scheduler/framework/plugins/helper/normalize_score_test.go at
// 0c3d8b97): every row.
func TestDefaultNormalizeScore(t *testing.T) {
	tests := []struct {
		reverse      bool
		scores, want []int64
	}{
		{false, []int64{1, 2, 3, 4}, []int64{25, 50, 75, 100}},
		{true, []int64{1, 2, 3, 4}, []int64{75, 50, 25, 0}},
		{false, []int64{1000, 10, 20, 30}, []int64{100, 1, 2, 3}},
		{true, []int64{1000, 10, 20, 30}, []int64{0, 99, 98, 97}},
		{false, []int64{1, 1, 1, 1}, []int64{100, 100, 100, 100}},
		{false, []int64{1000, 1, 1, 1}, []int64{100, 0, 0, 0}},
		{true, []int64{0, 1, 1, 1}, []int64{100, 0, 0, 0}},
		// Not upstream's rows: all zero gives 0, or MaxNodeScore reversed.
		{false, []int64{0, 0}, []int64{0, 0}},
		{true, []int64{0, 0}, []int64{100, 100}},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprintf("case_%d", i), func(t *testing.T) {
			got := slices.Clone(tc.scores)
			normalize(got, tc.reverse)
			if !slices.Equal(got, tc.want) {
				t.Errorf("normalize(%v, %v) = %v, want %v", tc.scores, tc.reverse, got, tc.want)
			}
		})
	}
}

// TestFitScoresMemo: the memo on a node gives what leastAllocated and
// balancedScore compute, as the node's pods, its allocatable and the
// pod scored change in turn, and on a copy of the node whose requests
// differ (nominated pods' room, preemption's trials).
func TestFitScoresMemo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	ni := &nodeInfo{}
	pods := []*podInfo{
		{req: resources{milliCPU: 100, memory: 256 << 20}, nonZero: resources{milliCPU: 100, memory: 256 << 20}},
		{req: resources{milliCPU: 0, memory: 0}, nonZero: resources{milliCPU: 100, memory: 200 << 20}},
		{req: resources{milliCPU: 500, memory: 0}, nonZero: resources{milliCPU: 500, memory: 200 << 20}},
	}
	for step := range 5000 {
		switch r.IntN(6) {
		case 0:
			ni.setAllocatable(resources{milliCPU: int64(r.IntN(3)) * 4000, memory: int64(r.IntN(3)) << 34})
		case 1, 2:
			d := int64(r.IntN(3) - 1)
			ni.requested.milliCPU += 100 * d
			ni.nonZero.milliCPU += 100 * d
		case 3:
			ni.requested.memory += int64(r.IntN(3)-1) << 28
		case 4:
			ni.requested.milliCPU += 100 * int64(r.IntN(3)-1)
		}
		pi := pods[r.IntN(len(pods))]
		at := ni
		if r.IntN(4) == 0 {
			cp := *ni // a copy carrying the memo, with more requested
			switch r.IntN(4) {
			case 0:
				cp.requested.milliCPU += 300
			case 1:
				cp.requested.memory += 1 << 28
			case 2:
				cp.nonZero.milliCPU += 300
			case 3:
				cp.nonZero.memory += 1 << 28
			}
			at = &cp
		}
		least, balanced := fitScores(pi, at)
		if wl, wb := leastAllocated(pi, at), balancedScore(pi, at); least != wl || balanced != wb {
			t.Fatalf("step %d: fitScores = %d, %d; computed %d, %d", step, least, balanced, wl, wb)
		}
	}
}
