package scheduler

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// runFilter filters pod against node (with the given pods on it) and
// returns the reasons.
func runFilter(t *testing.T, pod *api.Pod, node *api.Node, existing ...*api.Pod) []string {
	t.Helper()
	var bound []*api.Pod
	for _, p := range existing {
		bound = append(bound, bindTo(p, node.Name))
	}
	c := newTestCache([]*api.Node{node}, bound...)
	return filter(newPodInfo(pod), c.nodes[node.Name], nil)
}

func tol(key string, op api.TolerationOperator, value string, effect api.TaintEffect) api.Toleration {
	return api.Toleration{Key: key, Operator: op, Value: value, Effect: effect}
}

func taint(key, value string, effect api.TaintEffect) api.Taint {
	return api.Taint{Key: key, Value: value, Effect: effect}
}

// TestTaintTolerationFilter ports the rows of k/k tainttoleration's
// TestTaintTolerationFilter and TestTaintTolerationFilterWithFeatureGate
// (taint_toleration_test.go at 04c0d74f) with the gate
// TaintTolerationComparisonOperators off, as it is in 1.37 (alpha since
// 1.35, kube_features.go), and a row of our own on several taints.
func TestTaintTolerationFilter(t *testing.T) {
	const ns, pns, ne = api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute
	tests := []struct {
		name   string
		tols   []api.Toleration
		taints []api.Taint
		want   []string
	}{
		{"no tolerations, tainted node", nil, []api.Taint{taint("dedicated", "user1", ns)},
			[]string{ReasonUntoleratedTaint}},
		{"tolerates the dedicated node of user1", []api.Toleration{tol("dedicated", api.TolerationOpEqual, "user1", ns)},
			[]api.Taint{taint("dedicated", "user1", ns)}, nil},
		{"toleration for user2 on a node for user1", []api.Toleration{tol("dedicated", api.TolerationOpEqual, "user2", ns)},
			[]api.Taint{taint("dedicated", "user1", ns)}, []string{ReasonUntoleratedTaint}},
		{"Exists tolerates any value", []api.Toleration{tol("foo", api.TolerationOpExists, "", ns)},
			[]api.Taint{taint("foo", "bar", ns)}, nil},
		{"several tolerations, several taints, all tolerated",
			[]api.Toleration{tol("dedicated", api.TolerationOpEqual, "user2", ns), tol("foo", api.TolerationOpExists, "", ns)},
			[]api.Taint{taint("dedicated", "user2", ns), taint("foo", "bar", ns)}, nil},
		{"key and value match but the effect does not", []api.Toleration{tol("foo", api.TolerationOpEqual, "bar", pns)},
			[]api.Taint{taint("foo", "bar", ns)}, []string{ReasonUntoleratedTaint}},
		{"empty toleration effect matches NoSchedule", []api.Toleration{tol("foo", api.TolerationOpEqual, "bar", "")},
			[]api.Taint{taint("foo", "bar", ns)}, nil},
		{"PreferNoSchedule taints do not filter", []api.Toleration{tol("dedicated", api.TolerationOpEqual, "user2", ns)},
			[]api.Taint{taint("dedicated", "user1", pns)}, nil},
		{"no toleration, PreferNoSchedule taint", nil, []api.Taint{taint("dedicated", "user1", pns)}, nil},
		{"NoExecute filters too", nil, []api.Taint{taint("node.kubernetes.io/unreachable", "", ne)},
			[]string{ReasonUntoleratedTaint}},
		{"one of several taints untolerated: the reason names none", []api.Toleration{tol("a", api.TolerationOpExists, "", "")},
			[]api.Taint{taint("a", "1", ns), taint("b", "2", ns), taint("c", "3", ns)},
			[]string{ReasonUntoleratedTaint}},
		// TaintTolerationComparisonOperators is alpha and off in 1.37: Gt
		// and Lt tolerate nothing (the API server rejects them; the
		// filter is checked on its own here).
		{"Pod with Gt toleration cannot be scheduled when feature gate is disabled", []api.Toleration{tol("node.kubernetes.io/sla", "Gt", "750", ns)},
			[]api.Taint{taint("node.kubernetes.io/sla", "950", ns)}, []string{ReasonUntoleratedTaint}},
		{"Pod with Lt toleration cannot be scheduled when feature gate is disabled", []api.Toleration{tol("node.kubernetes.io/sla", "Lt", "950", ns)},
			[]api.Taint{taint("node.kubernetes.io/sla", "800", ns)}, []string{ReasonUntoleratedTaint}},
		{"Pod with mixed tolerations (Equal and Gt) when feature gate is disabled - only Equal is honored",
			[]api.Toleration{tol("dedicated", api.TolerationOpEqual, "user1", ns), tol("node.kubernetes.io/sla", "Gt", "750", ns)},
			[]api.Taint{taint("dedicated", "user1", ns)}, nil},
		{"Pod with mixed tolerations, Gt toleration needed but filtered out when feature gate is disabled",
			[]api.Toleration{tol("dedicated", api.TolerationOpEqual, "user1", ns), tol("node.kubernetes.io/sla", "Gt", "750", ns)},
			[]api.Taint{taint("dedicated", "user1", ns), taint("node.kubernetes.io/sla", "950", ns)}, []string{ReasonUntoleratedTaint}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod("p", nil)
			pod.Spec.Tolerations = tc.tols
			node := testNode("n", rl("cpu", "1", "memory", "1Gi", "pods", "10"))
			node.Spec.Taints = tc.taints
			if got := runFilter(t, pod, node); !slices.Equal(got, tc.want) {
				t.Errorf("reasons = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNodeUnschedulableAndReady covers NodeUnschedulable (the three rows
// of k/k nodeunschedulable's TestNodeUnschedulable,
// node_unschedulable_test.go at 00a12c78) and readiness: without a
// node lifecycle controller the scheduler rejects a node that is not
// Ready itself; with one (lifecycle) it relies on the NoSchedule taints
// that controller gives such nodes, as upstream's TaintToleration does,
// so a node not tainted yet is still a candidate.
func TestNodeUnschedulableAndReady(t *testing.T) {
	unschedTol := tol(api.TaintNodeUnschedulable, api.TolerationOpExists, "", api.TaintEffectNoSchedule)
	unreachable := []api.Taint{taint(api.TaintNodeUnreachable, "", api.TaintEffectNoSchedule)}
	notReady := []api.Taint{taint(api.TaintNodeNotReady, "", api.TaintEffectNoSchedule)}
	tests := []struct {
		name          string
		lifecycle     bool // the node lifecycle controller runs
		unschedulable bool
		ready         api.ConditionStatus // "" means no Ready condition
		taints        []api.Taint
		tols          []api.Toleration
		want          []string
	}{
		{"schedulable ready node", false, false, api.ConditionTrue, nil, nil, nil},
		{"cordoned node", false, true, api.ConditionTrue, nil, nil, []string{ReasonUnschedulable}},
		{"cordoned node, pod tolerates unschedulable", false, true, api.ConditionTrue, nil, []api.Toleration{unschedTol}, nil},
		{"Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)", false, true, api.ConditionTrue, nil,
			[]api.Toleration{{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}}, nil},
		{"not ready", false, false, api.ConditionFalse, nil, nil, []string{ReasonNotReady}},
		{"unknown", false, false, api.ConditionUnknown, nil, nil, []string{ReasonNotReady}},
		{"never reported", false, false, "", nil, nil, []string{ReasonNotReady}},
		{"not ready wins over cordoned", false, true, api.ConditionFalse, nil, nil, []string{ReasonNotReady}},
		{"lifecycle: ready node", true, false, api.ConditionTrue, nil, nil, nil},
		{"lifecycle: unknown, not tainted yet", true, false, api.ConditionUnknown, nil, nil, nil},
		{"lifecycle: unknown, tainted unreachable", true, false, api.ConditionUnknown, unreachable, nil, []string{ReasonUntoleratedTaint}},
		{"lifecycle: not ready, tainted not-ready", true, false, api.ConditionFalse, notReady, nil, []string{ReasonUntoleratedTaint}},
		{"lifecycle: the pod tolerates the taint", true, false, api.ConditionUnknown, unreachable,
			[]api.Toleration{tol(api.TaintNodeUnreachable, api.TolerationOpExists, "", api.TaintEffectNoSchedule)}, nil},
		{"lifecycle: a NoExecute toleration does not tolerate NoSchedule", true, false, api.ConditionUnknown, unreachable,
			[]api.Toleration{tol(api.TaintNodeUnreachable, api.TolerationOpExists, "", api.TaintEffectNoExecute)}, []string{ReasonUntoleratedTaint}},
		{"lifecycle: cordoned wins over the taint", true, true, api.ConditionUnknown, unreachable, nil, []string{ReasonUnschedulable}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := testNode("n", rl("cpu", "1", "memory", "1Gi", "pods", "10"))
			node.Spec.Unschedulable = tc.unschedulable
			node.Spec.Taints = tc.taints
			node.Status.Conditions = nil
			if tc.ready != "" {
				node.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: tc.ready}}
			}
			pod := testPod("p", nil)
			pod.Spec.Tolerations = tc.tols
			c := newCache()
			c.readyCheck = !tc.lifecycle
			c.setNode(node)
			if got := filter(newPodInfo(pod), c.nodes[node.Name], nil); !slices.Equal(got, tc.want) {
				t.Errorf("reasons = %q, want %q", got, tc.want)
			}
		})
	}
}

func expr(key string, op api.NodeSelectorOperator, values ...string) api.NodeSelectorRequirement {
	return api.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

func required(terms ...api.NodeSelectorTerm) *api.Affinity {
	return &api.Affinity{NodeAffinity: &api.NodeAffinity{
		RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: terms},
	}}
}

// TestNodeAffinityFilter ports the Filter rows of k/k nodeaffinity's
// TestNodeAffinity (node_affinity_test.go at 022462cc): nodeSelector,
// required terms, matchFields and invalid values; the rows with the
// plugin's addedAffinity argument ("Matches added affinity and Pod's
// node affinity", "Matches added affinity but not Pod's node affinity",
// "Doesn't match added affinity") cannot apply (the default profile sets
// none), and the PreFilter results are TestNodeAffinityPreFilter's.
func TestNodeAffinityFilter(t *testing.T) {
	in, notIn, exists, gt := api.NodeSelectorOpIn, api.NodeSelectorOpNotIn, api.NodeSelectorOpExists, api.NodeSelectorOpGt
	name := func(op api.NodeSelectorOperator, v string) api.NodeSelectorRequirement {
		return api.NodeSelectorRequirement{Key: "metadata.name", Operator: op, Values: []string{v}}
	}
	tests := []struct {
		name     string
		selector map[string]string
		affinity *api.Affinity
		labels   map[string]string
		nodeName string
		match    bool
	}{
		{"no selector", nil, nil, map[string]string{"foo": "bar"}, "", true},
		{"missing labels", map[string]string{"foo": "bar"}, nil, nil, "", false},
		{"same labels", map[string]string{"foo": "bar"}, nil, map[string]string{"foo": "bar"}, "", true},
		{"node labels are superset", map[string]string{"foo": "bar"}, nil, map[string]string{"foo": "bar", "baz": "blah"}, "", true},
		{"node labels are subset", map[string]string{"foo": "bar", "baz": "blah"}, nil, map[string]string{"foo": "bar"}, "", false},
		{"In matches", nil, required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", in, "bar", "value2")}}),
			map[string]string{"foo": "bar"}, "", true},
		{"Gt matches", nil, required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("kernel-version", gt, "0204")}}),
			map[string]string{"kernel-version": "0206"}, "", true},
		{"NotIn matches", nil, required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("mem-type", notIn, "DDR", "DDR2")}}),
			map[string]string{"mem-type": "DDR3"}, "", true},
		{"Exists matches", nil, required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("GPU", exists)}}),
			map[string]string{"GPU": "NVIDIA-GRID-K1"}, "", true},
		{"In does not match", nil, required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", in, "value1", "value2")}}),
			map[string]string{"foo": "bar"}, "", false},
		{"empty term matches nothing", nil, required(api.NodeSelectorTerm{}), map[string]string{"foo": "bar"}, "", false},
		{"affinity without node selector", nil, &api.Affinity{NodeAffinity: &api.NodeAffinity{}}, map[string]string{"foo": "bar"}, "", true},
		{"ANDed expressions match", nil, required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
			expr("GPU", exists), expr("GPU", notIn, "AMD", "INTER")}}), map[string]string{"GPU": "NVIDIA-GRID-K1"}, "", true},
		{"ANDed expressions do not match", nil, required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
			expr("GPU", exists), expr("GPU", in, "AMD", "INTER")}}), map[string]string{"GPU": "NVIDIA-GRID-K1"}, "", false},
		{"ORed terms, one matches", nil, required(
			api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", in, "bar", "value2")}},
			api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("diffkey", in, "wrong", "value2")}}),
			map[string]string{"foo": "bar"}, "", true},
		{"nodeSelector and affinity both satisfied", map[string]string{"foo": "bar"},
			required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", exists)}}),
			map[string]string{"foo": "bar"}, "", true},
		{"affinity satisfied, nodeSelector not", map[string]string{"foo": "bar"},
			required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", exists)}}),
			map[string]string{"foo": "barrrrrr"}, "", false},
		{"matchFields In matches", nil, required(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{name(in, "node_1")}}),
			nil, "node_1", true},
		{"matchFields In does not match", nil, required(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{name(in, "node_1")}}),
			nil, "node_2", false},
		{"two terms: fields do not match, expressions do", nil, required(
			api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{name(in, "node_1")}},
			api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", in, "bar")}}),
			map[string]string{"foo": "bar"}, "node_2", true},
		{"one term: fields do not match, expressions do", nil, required(api.NodeSelectorTerm{
			MatchFields:      []api.NodeSelectorRequirement{name(in, "node_1")},
			MatchExpressions: []api.NodeSelectorRequirement{expr("foo", in, "bar")}}),
			map[string]string{"foo": "bar"}, "node_2", false},
		{"one term: both match", nil, required(api.NodeSelectorTerm{
			MatchFields:      []api.NodeSelectorRequirement{name(in, "node_1")},
			MatchExpressions: []api.NodeSelectorRequirement{expr("foo", in, "bar")}}),
			map[string]string{"foo": "bar"}, "node_1", true},
		{"Pod with an invalid value in Affinity term won't be scheduled onto the node", nil,
			required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", notIn, "invalid value: ___@#$%^")}}),
			map[string]string{"foo": "bar"}, "", false},
		{"an invalid value fails its term even beside a matching one", nil,
			required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", in, "bar", "not/a/value")}}),
			map[string]string{"foo": "bar"}, "", false},
		{"an invalid term leaves the others to match", nil, required(
			api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", notIn, "-x")}},
			api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", in, "bar")}}),
			map[string]string{"foo": "bar"}, "", true},
		// Our filter needs no PreFilter state: these two rows are the
		// same checks as "node labels are superset" and "ANDed
		// expressions match".
		{"Matches node selector correctly even if PreFilter is not called", map[string]string{"foo": "bar"}, nil,
			map[string]string{"foo": "bar", "baz": "blah"}, "", true},
		{"Matches node affinity correctly even if PreFilter is not called", nil, required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
			expr("GPU", exists), expr("GPU", notIn, "AMD", "INTER")}}), map[string]string{"GPU": "NVIDIA-GRID-K1"}, "", true},
		{"Pod with multiple matchExpressions ANDed that doesn't match the existing node", nil, required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{
			expr("GPU", exists), expr("GPU", in, "AMD", "INTER")}}), map[string]string{"GPU": "NVIDIA-GRID-K1"}, "", false},
		{"two terms: neither matches", nil, required(
			api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{name(in, "node_1")}},
			api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", in, "not-match-to-bar")}}),
			map[string]string{"foo": "bar"}, "node_2", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := testPod("p", nil)
			pod.Spec.NodeSelector = tc.selector
			pod.Spec.Affinity = tc.affinity
			n := tc.nodeName
			if n == "" {
				n = "machine1"
			}
			node := testNode(n, rl("cpu", "1", "memory", "1Gi", "pods", "10"))
			node.Labels = tc.labels
			got := runFilter(t, pod, node)
			if tc.match != (len(got) == 0) {
				t.Errorf("reasons = %q, want match = %v", got, tc.match)
			}
			if !tc.match && !slices.Equal(got, []string{ReasonNodeAffinity}) {
				t.Errorf("reasons = %q, want %q", got, ReasonNodeAffinity)
			}
		})
	}
}

// TestNodeResourcesFit ports the rows of k/k noderesources'
// TestEnoughRequests, TestNotEnoughRequests and TestStorageRequests
// (fit_test.go at 007f7ae7; the row with ignoredResources, a plugin
// argument the default profile does not set, is left out): a node with
// 10m CPU, 20 bytes of memory, 5 example.com/aaa, 20 bytes of
// ephemeral storage, 5 hugepages-2Mi and room for 32 pods, already
// running one pod.
func TestNodeResourcesFit(t *testing.T) {
	r := func(cpuMilli, mem string) api.ResourceList { return rl("cpu", cpuMilli, "memory", mem) }
	with := func(l api.ResourceList, kv ...string) api.ResourceList {
		for k, v := range rl(kv...) {
			l[k] = v
		}
		return l
	}
	aaa := func(n int) api.ResourceList { return rl("example.com/aaa", strconv.Itoa(n)) }
	overhead := func(p *api.Pod, l api.ResourceList) *api.Pod { p.Spec.Overhead = l; return p }
	onePod := rl("cpu", "10m", "memory", "20", "pods", "1")
	tests := []struct {
		name     string
		pod      *api.Pod
		existing *api.Pod
		alloc    api.ResourceList
		want     []string
	}{
		{"no resources requested always fits", testPod("p", nil), testPod("e", r("10m", "20")), nil, nil},
		{"too many resources fails", testPod("p", r("1m", "1")), testPod("e", r("10m", "20")), nil,
			[]string{"Insufficient cpu", "Insufficient memory"}},
		{"init container cpu does not fit", withInit(testPod("p", r("1m", "1")), r("3m", "1")), testPod("e", r("8m", "19")), nil,
			[]string{"Insufficient cpu"}},
		{"highest init container cpu does not fit", withInit(testPod("p", r("1m", "1")), r("3m", "1"), r("2m", "1")), testPod("e", r("8m", "19")), nil,
			[]string{"Insufficient cpu"}},
		{"init container memory does not fit", withInit(testPod("p", r("1m", "1")), r("1m", "3")), testPod("e", r("9m", "19")), nil,
			[]string{"Insufficient memory"}},
		{"init containers count by max, not sum", withInit(testPod("p", r("1m", "1")), r("1m", "1")), testPod("e", r("9m", "19")), nil, nil},
		{"both resources fit", testPod("p", r("1m", "1")), testPod("e", r("5m", "5")), nil, nil},
		{"memory fits, cpu does not", testPod("p", r("2m", "1")), testPod("e", r("9m", "5")), nil, []string{"Insufficient cpu"}},
		{"cpu fits, memory does not", testPod("p", r("1m", "2")), testPod("e", r("5m", "19")), nil, []string{"Insufficient memory"}},
		{"equal edge case", testPod("p", r("5m", "1")), testPod("e", r("5m", "19")), nil, nil},
		{"equal edge case for init container", withInit(testPod("p", r("4m", "1")), r("5m", "1")), testPod("e", r("5m", "19")), nil, nil},
		{"too many pods", testPod("p", nil), testPod("e", nil), rl("cpu", "10m", "memory", "20", "pods", "1"), []string{"Too many pods"}},
		{"too many pods and too much cpu", testPod("p", r("1m", "0")), testPod("e", r("10m", "0")), rl("cpu", "10m", "memory", "20", "pods", "1"),
			[]string{"Too many pods", "Insufficient cpu"}},
		{"extended resource missing on the node", testPod("p", rl("example.com/gpu", "1")), testPod("e", nil), nil,
			[]string{"Insufficient example.com/gpu"}},
		{"extended resource fits", testPod("p", rl("example.com/gpu", "1")), testPod("e", nil),
			rl("cpu", "10m", "memory", "20", "pods", "32", "example.com/gpu", "1"), nil},
		{"ephemeral storage", testPod("p", rl("ephemeral-storage", "10")), testPod("e", rl("ephemeral-storage", "15")),
			rl("cpu", "10m", "memory", "20", "pods", "32", "ephemeral-storage", "20"), []string{"Insufficient ephemeral-storage"}},
		{"multiple init containers fit because it's the max, not sum, of containers and init containers",
			withInit(testPod("p", r("1m", "1")), r("1m", "1"), r("1m", "1")), testPod("e", r("9m", "19")), nil, nil},
		{"extended resource fits", testPod("p", aaa(1)), testPod("e"), nil, nil},
		{"extended resource fits for init container", withInit(testPod("p"), aaa(1)), testPod("e"), nil, nil},
		{"extended resource capacity enforced", testPod("p", with(r("1m", "1"), "example.com/aaa", "10")), testPod("e", aaa(0)), nil,
			[]string{"Insufficient example.com/aaa"}},
		{"extended resource capacity enforced for init container", withInit(testPod("p"), with(r("1m", "1"), "example.com/aaa", "10")),
			testPod("e", aaa(0)), nil, []string{"Insufficient example.com/aaa"}},
		{"extended resource allocatable enforced", testPod("p", with(r("1m", "1"), "example.com/aaa", "1")), testPod("e", aaa(5)), nil,
			[]string{"Insufficient example.com/aaa"}},
		{"extended resource allocatable enforced for init container", withInit(testPod("p"), with(r("1m", "1"), "example.com/aaa", "1")),
			testPod("e", aaa(5)), nil, []string{"Insufficient example.com/aaa"}},
		{"extended resource allocatable enforced for multiple containers",
			testPod("p", with(r("1m", "1"), "example.com/aaa", "3"), with(r("1m", "1"), "example.com/aaa", "3")), testPod("e", aaa(2)), nil,
			[]string{"Insufficient example.com/aaa"}},
		{"extended resource allocatable admits multiple init containers",
			withInit(testPod("p"), with(r("1m", "1"), "example.com/aaa", "3"), with(r("1m", "1"), "example.com/aaa", "3")), testPod("e", aaa(2)), nil, nil},
		{"extended resource allocatable enforced for multiple init containers",
			withInit(testPod("p"), with(r("1m", "1"), "example.com/aaa", "6"), with(r("1m", "1"), "example.com/aaa", "3")), testPod("e", aaa(2)), nil,
			[]string{"Insufficient example.com/aaa"}},
		{"extended resource allocatable enforced for unknown resource", testPod("p", with(r("1m", "1"), "example.com/bbb", "1")),
			testPod("e", r("0", "0")), nil, []string{"Insufficient example.com/bbb"}},
		{"extended resource allocatable enforced for unknown resource for init container",
			withInit(testPod("p"), with(r("1m", "1"), "example.com/bbb", "1")), testPod("e", r("0", "0")), nil, []string{"Insufficient example.com/bbb"}},
		{"kubernetes.io resource capacity enforced", testPod("p", with(r("1m", "1"), "kubernetes.io/something", "10")),
			testPod("e", r("0", "0")), nil, []string{"Insufficient kubernetes.io/something"}},
		{"kubernetes.io resource capacity enforced for init container",
			withInit(testPod("p"), with(r("1m", "1"), "subdomain.kubernetes.io/something", "10")), testPod("e", r("0", "0")), nil,
			[]string{"Insufficient subdomain.kubernetes.io/something"}},
		{"hugepages resource capacity enforced", testPod("p", with(r("1m", "1"), "hugepages-2Mi", "10")),
			testPod("e", rl("hugepages-2Mi", "0")), nil, []string{"Insufficient hugepages-2Mi"}},
		{"hugepages resource capacity enforced for init container", withInit(testPod("p"), with(r("1m", "1"), "hugepages-2Mi", "10")),
			testPod("e", rl("hugepages-2Mi", "0")), nil, []string{"Insufficient hugepages-2Mi"}},
		{"hugepages resource allocatable enforced for multiple containers",
			testPod("p", with(r("1m", "1"), "hugepages-2Mi", "3"), with(r("1m", "1"), "hugepages-2Mi", "3")), testPod("e", rl("hugepages-2Mi", "2")), nil,
			[]string{"Insufficient hugepages-2Mi"}},
		{"resources + pod overhead fits", overhead(testPod("p", r("1m", "1")), r("3m", "13")), testPod("e", r("5m", "5")), nil, nil},
		{"requests + overhead does not fit for memory", overhead(testPod("p", r("1m", "1")), r("1m", "15")), testPod("e", r("5m", "5")), nil,
			[]string{"Insufficient memory"}},
		// TestStorageRequests.
		{"due to container scratch disk", testPod("p", r("1m", "1")), testPod("e", r("10m", "10")), nil, []string{"Insufficient cpu"}},
		{"pod fit", testPod("p", r("1m", "1")), testPod("e", r("2m", "10")), nil, nil},
		{"storage ephemeral local storage request exceeds allocatable", testPod("p", rl("ephemeral-storage", "25")), testPod("e", r("2m", "2")), nil,
			[]string{"Insufficient ephemeral-storage"}},
		{"pod fits", testPod("p", rl("ephemeral-storage", "10")), testPod("e", r("2m", "2")), nil, nil},
		// TestNotEnoughRequests: room for one pod, taken.
		{"even without specified resources predicate fails when there's no space for additional pod", testPod("p"), testPod("e", r("10m", "20")),
			onePod, []string{"Too many pods"}},
		{"even if both resources fit predicate fails when there's no space for additional pod", testPod("p", r("1m", "1")), testPod("e", r("5m", "5")),
			onePod, []string{"Too many pods"}},
		{"even for equal edge case predicate fails when there's no space for additional pod", testPod("p", r("5m", "1")), testPod("e", r("5m", "19")),
			onePod, []string{"Too many pods"}},
		{"even for equal edge case predicate fails when there's no space for additional pod due to init container",
			withInit(testPod("p", r("5m", "1")), r("5m", "1")), testPod("e", r("5m", "19")), onePod, []string{"Too many pods"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			alloc := tc.alloc
			if alloc == nil {
				alloc = rl("cpu", "10m", "memory", "20", "pods", "32", "example.com/aaa", "5", "ephemeral-storage", "20", "hugepages-2Mi", "5")
			}
			node := testNode("n", alloc)
			if got := runFilter(t, tc.pod, node, tc.existing); !slices.Equal(got, tc.want) {
				t.Errorf("reasons = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestRestartableInitContainers ports the rows of k/k noderesources'
// TestRestartableInitContainers (fit_test.go, its ktesting form) with
// the SidecarContainers gate on, as it is locked in 1.37: a pod with a
// sidecar needs the sum of its regular and sidecar containers' requests,
// on a node of 2m CPU and room for one pod. The rows with the gate off
// ("allow pod without restartable init containers if sidecar containers
// is disabled", "not allow pod with restartable init containers if
// sidecar containers is disabled") cannot apply. Upstream's last row
// expects UnschedulableAndUnresolvable (1m + 2m exceeds the node's 2m
// allocatable); only its reason is compared here.
func TestRestartableInitContainers(t *testing.T) {
	cpu := func(m string) api.ResourceList { return rl("cpu", m) }
	tests := []struct {
		name string
		pod  *api.Pod
		want []string
	}{
		{"allow pod without restartable init containers if sidecar containers is enabled", testPod("p", nil), nil},
		{"allow pod with restartable init containers if sidecar containers is enabled", withSidecar(testPod("p", nil), nil), nil},
		{"allow pod if the total requested resources do not exceed the node's allocatable resources",
			withSidecar(testPod("p", cpu("1m")), cpu("1m")), nil},
		{"not allow pod if the total requested resources do exceed the node's allocatable resources",
			withSidecar(testPod("p", cpu("1m")), cpu("2m")), []string{"Insufficient cpu"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := testNode("n", rl("cpu", "2m", "memory", "0", "pods", "1"))
			if got := runFilter(t, tc.pod, node); !slices.Equal(got, tc.want) {
				t.Errorf("reasons = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNodePorts ports the rows of k/k nodeports' TestNodePorts
// (node_ports_test.go at 008b3652; "skip filter" is a pod without host
// ports, which every row here but the first covers) and two more on an
// existing pod's sidecar.
func TestNodePorts(t *testing.T) {
	withPorts := func(name string, ports ...api.ContainerPort) *api.Pod {
		p := testPod(name, nil)
		p.Spec.Containers[0].Ports = ports
		return p
	}
	port := func(proto api.Protocol, ip string, hostPort int32) api.ContainerPort {
		return api.ContainerPort{Protocol: proto, HostIP: ip, HostPort: hostPort, ContainerPort: hostPort}
	}
	always := api.ContainerRestartPolicyAlways
	initPorts := func(sidecar bool, ports ...api.ContainerPort) *api.Pod {
		p := withInit(testPod("i", nil), nil)
		p.Spec.InitContainers[0].Ports = ports
		if sidecar {
			p.Spec.InitContainers[0].RestartPolicy = &always
		}
		return p
	}
	tests := []struct {
		name     string
		pod      *api.Pod
		existing *api.Pod
		fits     bool
	}{
		{"nothing running", withPorts("p", port("UDP", "127.0.0.1", 8080)), testPod("e", nil), true},
		{"other port", withPorts("p", port("UDP", "127.0.0.1", 8080)), withPorts("e", port("UDP", "127.0.0.1", 9090)), true},
		{"same udp port", withPorts("p", port("UDP", "127.0.0.1", 8080)), withPorts("e", port("UDP", "127.0.0.1", 8080)), false},
		{"same tcp port", withPorts("p", port("TCP", "127.0.0.1", 8080)), withPorts("e", port("TCP", "127.0.0.1", 8080)), false},
		{"different host ip", withPorts("p", port("TCP", "127.0.0.1", 8080)), withPorts("e", port("TCP", "127.0.0.2", 8080)), true},
		{"different protocol", withPorts("p", port("UDP", "127.0.0.1", 8080)), withPorts("e", port("TCP", "127.0.0.1", 8080)), true},
		{"wildcard existing", withPorts("p", port("TCP", "127.0.0.1", 8001)), withPorts("e", port("TCP", "", 8001)), false},
		{"wildcard wanted", withPorts("p", port("TCP", "", 8001)), withPorts("e", port("TCP", "127.0.0.1", 8001)), false},
		{"second udp port conflict", withPorts("p", port("UDP", "127.0.0.1", 8000), port("UDP", "127.0.0.1", 8080)),
			withPorts("e", port("UDP", "127.0.0.1", 8080)), false},
		{"first tcp port conflict", withPorts("p", port("TCP", "127.0.0.1", 8001), port("UDP", "127.0.0.1", 8080)),
			withPorts("e", port("TCP", "127.0.0.1", 8001), port("UDP", "127.0.0.1", 8081)), false},
		{"first tcp port conflict due to 0.0.0.0 hostIP", withPorts("p", port("TCP", "0.0.0.0", 8001)),
			withPorts("e", port("TCP", "127.0.0.1", 8001)), false},
		{"TCP hostPort conflict due to 0.0.0.0 hostIP", withPorts("p", port("TCP", "10.0.10.10", 8001), port("TCP", "0.0.0.0", 8001)),
			withPorts("e", port("TCP", "127.0.0.1", 8001)), false},
		{"second tcp port conflict to 0.0.0.0 hostIP", withPorts("p", port("TCP", "127.0.0.1", 8001)),
			withPorts("e", port("TCP", "0.0.0.0", 8001)), false},
		{"second different protocol", withPorts("p", port("UDP", "127.0.0.1", 8001)), withPorts("e", port("TCP", "0.0.0.0", 8001)), true},
		{"UDP hostPort conflict due to 0.0.0.0 hostIP", withPorts("p", port("UDP", "127.0.0.1", 8001)),
			withPorts("e", port("TCP", "0.0.0.0", 8001), port("UDP", "0.0.0.0", 8001)), false},
		{"non-sidecar initContainer using hostPort", initPorts(false, port("TCP", "", 8001)), withPorts("e", port("TCP", "0.0.0.0", 8001)), true},
		{"TCP hostPort conflict from sidecar initContainer", initPorts(true, port("TCP", "", 8001)), withPorts("e", port("TCP", "0.0.0.0", 8001)), false},
		{"an existing pod's sidecar holds its port", withPorts("p", port("TCP", "", 8001)), initPorts(true, port("TCP", "", 8001)), false},
		{"an existing pod's init container does not", withPorts("p", port("TCP", "", 8001)), initPorts(false, port("TCP", "", 8001)), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			node := testNode("n", rl("cpu", "1", "memory", "1Gi", "pods", "10"))
			got := runFilter(t, tc.pod, node, tc.existing)
			if tc.fits != (len(got) == 0) {
				t.Errorf("reasons = %q, want fits = %v", got, tc.fits)
			}
			if !tc.fits && !slices.Equal(got, []string{ReasonNodePorts}) {
				t.Errorf("reasons = %q, want %q", got, ReasonNodePorts)
			}
		})
	}
}

// TestFilterOrder checks that the first failing plugin ends the check, in
// upstream's plugin order.
func TestFilterOrder(t *testing.T) {
	node := testNode("n", rl("cpu", "1", "memory", "1Gi", "pods", "10"))
	node.Spec.Unschedulable = true
	node.Spec.Taints = []api.Taint{taint("foo", "bar", api.TaintEffectNoSchedule)}
	node.Labels = map[string]string{"zone": "a"}
	pod := testPod("p", rl("cpu", "2"))
	pod.Spec.NodeSelector = map[string]string{"zone": "b"}
	steps := []struct {
		fix  func()
		want string
	}{
		{func() {}, ReasonUnschedulable},
		{func() { node.Spec.Unschedulable = false }, ReasonUntoleratedTaint},
		{func() { node.Spec.Taints = nil }, ReasonNodeAffinity},
		{func() { pod.Spec.NodeSelector = nil }, "Insufficient cpu"},
	}
	for i, s := range steps {
		s.fix()
		if got := runFilter(t, pod, node); !slices.Equal(got, []string{s.want}) {
			t.Errorf("step %d: reasons = %q, want [%q]", i, got, s.want)
		}
	}
}

// TestPodRequests covers the request arithmetic: containers summed, init
// containers by max, sidecars added, overhead, and the non-zero defaults.
func TestPodRequests(t *testing.T) {
	always := api.ContainerRestartPolicyAlways
	sidecar := func(p *api.Pod, r api.ResourceList) *api.Pod {
		p.Spec.InitContainers = append(p.Spec.InitContainers, api.Container{Name: "sc", Image: "pause",
			RestartPolicy: &always, Resources: api.ResourceRequirements{Requests: r}})
		return p
	}
	tests := []struct {
		name               string
		pod                *api.Pod
		cpu, mem, nzC, nzM int64
		overhead           api.ResourceList
	}{
		{name: "no containers", pod: &api.Pod{}},
		{name: "request-less container", pod: testPod("p", nil), nzC: 100, nzM: 200 << 20},
		{name: "explicit zero stays zero", pod: testPod("p", rl("cpu", "0", "memory", "0"))},
		{name: "two containers", pod: testPod("p", rl("cpu", "100m", "memory", "1Ki"), rl("cpu", "200m")),
			cpu: 300, mem: 1024, nzC: 300, nzM: 1024 + 200<<20},
		{name: "init max wins", pod: withInit(testPod("p", rl("cpu", "100m")), rl("cpu", "500m"), rl("cpu", "300m")),
			cpu: 500, nzC: 500, nzM: 200 << 20},
		{name: "sidecar adds to containers", pod: sidecar(testPod("p", rl("cpu", "100m")), rl("cpu", "50m")),
			cpu: 150, nzC: 150, nzM: 2 * 200 << 20},
		{name: "overhead", pod: testPod("p", rl("cpu", "100m")), overhead: rl("cpu", "10m", "memory", "1"),
			cpu: 110, mem: 1, nzC: 110, nzM: 1 + 200<<20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.pod.Spec.Overhead = tc.overhead
			req, nz := podRequests(tc.pod)
			if req.milliCPU != tc.cpu || req.memory != tc.mem || nz.milliCPU != tc.nzC || nz.memory != tc.nzM {
				t.Errorf("requests = %d/%d nonzero = %d/%d, want %d/%d and %d/%d",
					req.milliCPU, req.memory, nz.milliCPU, nz.memory, tc.cpu, tc.mem, tc.nzC, tc.nzM)
			}
		})
	}
}

// nameField is a matchFields requirement on metadata.name.
func nameField(op api.NodeSelectorOperator, values ...string) api.NodeSelectorRequirement {
	return api.NodeSelectorRequirement{Key: "metadata.name", Operator: op, Values: values}
}

// TestNodeAffinityPreFilter ports the PreFilter expectations of k/k
// nodeaffinity's TestNodeAffinity (wantPreFilterResult and
// wantPreFilterStatus, node_affinity_test.go at 022462cc, node_affinity.go
// at 00d37505): the nodes a pod's terms name, and the conflict.
func TestNodeAffinityPreFilter(t *testing.T) {
	in := api.NodeSelectorOpIn
	term := func(fields []api.NodeSelectorRequirement, exprs ...api.NodeSelectorRequirement) api.NodeSelectorTerm {
		return api.NodeSelectorTerm{MatchFields: fields, MatchExpressions: exprs}
	}
	fields := func(r ...api.NodeSelectorRequirement) []api.NodeSelectorRequirement { return r }
	tests := []struct {
		name       string
		affinity   *api.Affinity
		names      []string
		restricted bool
	}{
		{"Pod with no Affinity will schedule onto a node", nil, nil, false},
		{"Pod with matchExpressions using In operator that matches the existing node",
			required(term(nil, expr("foo", in, "bar", "value2"))), nil, false},
		{"Pod with matchFields using In operator that matches the existing node",
			required(term(fields(nameField(in, "node1")))), []string{"node1"}, true},
		{"Pod with two terms: matchFields does not match, but matchExpressions matches",
			required(term(fields(nameField(in, "node1"), nameField(in, "node2"))), term(nil, expr("foo", in, "bar"))), nil, false},
		{"Pod with one term: matchFields does not match, but matchExpressions matches",
			required(term(fields(nameField(in, "node1")), expr("foo", in, "bar"))), []string{"node1"}, true},
		{"Pod with two terms of node.Name affinity",
			required(term(fields(nameField(in, "node1"))), term(fields(nameField(in, "node2")))), []string{"node1", "node2"}, true},
		{"Pod with two conflicting mach field requirements",
			required(term(fields(nameField(in, "node1"), nameField(in, "node2")))), nil, true},
		{"terms naming the same node count it once",
			required(term(fields(nameField(in, "node1", "node2"), nameField(in, "node2", "node1"))), term(fields(nameField(in, "node2")))),
			[]string{"node1", "node2"}, true},
		{"NotIn names no node", required(term(fields(nameField(api.NodeSelectorOpNotIn, "node1")))), nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pi := newPodInfo(withAffinity(testPod("p"), tc.affinity))
			names, restricted := affinityNodeNames(pi.required, nil)
			if restricted != tc.restricted || !slices.Equal(names, tc.names) {
				t.Errorf("names %q restricted %v, want %q %v", names, restricted, tc.names, tc.restricted)
			}
		})
	}
}

// TestNodeAffinityPreFilterMessage: a pod whose terms name its nodes is
// filtered on those only; the others count as "node(s) didn't satisfy
// plugin(s) [NodeAffinity]" (k/k schedule_one.go findNodesThatFitPod, the
// message of a DaemonSet pod that does not fit its node), and terms
// naming no common node fail in PreFilter.
func TestNodeAffinityPreFilterMessage(t *testing.T) {
	in := api.NodeSelectorOpIn
	nodes := []*api.Node{}
	for _, n := range []string{"node1", "node2", "node3"} {
		nodes = append(nodes, testNode(n, rl("cpu", "1", "memory", "1Gi", "pods", "110")))
	}
	pinned := func(cpu string, fields ...api.NodeSelectorRequirement) *api.Pod {
		return withAffinity(testPod("p", rl("cpu", cpu)), required(api.NodeSelectorTerm{MatchFields: fields}))
	}
	tests := []struct {
		name string
		pod  *api.Pod
		node string
		want string
	}{
		{"the named node fits", pinned("500m", nameField(in, "node2")), "node2", ""},
		{"the named node does not fit", pinned("2", nameField(in, "node2")), "",
			"0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't satisfy plugin(s) [NodeAffinity]."},
		{"the named node does not exist", pinned("500m", nameField(in, "gone")), "",
			"0/3 nodes are available: 3 node(s) didn't satisfy plugin(s) [NodeAffinity]."},
		{"Pod with two conflicting mach field requirements", pinned("500m", nameField(in, "node1"), nameField(in, "node2")), "",
			"0/3 nodes are available: pod affinity terms conflict."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := &scheduler{cache: newTestCache(nodes), rng: rand.New(rand.NewPCG(1, 2))}
			s.opts.defaults()
			node, err := s.schedule(tc.pod, "")
			got := ""
			if err != nil {
				got = err.Error()
			}
			if node != tc.node || got != tc.want {
				t.Errorf("node %q, err %q; want %q, %q", node, got, tc.node, tc.want)
			}
		})
	}
}
