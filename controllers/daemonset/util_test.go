package daemonset

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// nameTerm is one node selector term selecting nodes by name
// (matchFields metadata.name op values).
func nameTerm(op api.NodeSelectorOperator, values ...string) api.NodeSelectorTerm {
	return api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: op, Values: values}}}
}

func requiredTerms(terms ...api.NodeSelectorTerm) *api.Affinity {
	return &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: terms}}}
}

// TestReplaceDaemonSetPodNodeNameNodeAffinity ports upstream's rows of
// that name (k/k pkg/controller/daemon/util/daemonset_util_test.go, all 8
// rows, by index): whatever required node affinity the template has, the
// daemon pod's is one term selecting host_1 by name; preferred terms stay.
func TestReplaceDaemonSetPodNodeNameNodeAffinity(t *testing.T) {
	host1 := requiredTerms(nameTerm(api.NodeSelectorOpIn, "host_1"))
	hostnameIn := api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: api.NodeSelectorOpIn, Values: []string{"host_1"}}}}
	pref := []api.PreferredSchedulingTerm{{Preference: hostnameIn}}
	cases := []struct {
		affinity, expected *api.Affinity
	}{
		{nil, host1},
		{requiredTerms(hostnameIn), host1},
		{&api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: pref}},
			&api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: pref,
				RequiredDuringSchedulingIgnoredDuringExecution: host1.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution}}},
		{requiredTerms(nameTerm(api.NodeSelectorOpIn, "host_1", "host_2")), host1},
		{nil, host1},
		{requiredTerms(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "hostname", Operator: api.NodeSelectorOpIn, Values: []string{"host_1"}}}},
			nameTerm(api.NodeSelectorOpIn, "host_2")), host1},
		{requiredTerms(nameTerm(api.NodeSelectorOpNotIn, "host_2")), host1},
		{requiredTerms(api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.foo", Operator: api.NodeSelectorOpIn, Values: []string{"bar"}}}}), host1},
	}
	for i, tc := range cases {
		if got := nodeAffinityFor(tc.affinity, "host_1"); !reflect.DeepEqual(got, tc.expected) {
			t.Errorf("case %d: got %+v, want %+v", i, got.NodeAffinity, tc.expected.NodeAffinity)
		}
	}
}

// TestGetTargetNodeName ports upstream's rows of that name: spec.nodeName,
// else a single metadata.name In value; two values or neither is an
// error upstream, "" here (the pod is then not counted on any node).
func TestGetTargetNodeName(t *testing.T) {
	cases := []struct {
		pod  *api.Pod
		want string
	}{
		{&api.Pod{ObjectMeta: api.ObjectMeta{Name: "pod1"}, Spec: api.PodSpec{NodeName: "node-1"}}, "node-1"},
		{&api.Pod{ObjectMeta: api.ObjectMeta{Name: "pod2"}, Spec: api.PodSpec{Affinity: requiredTerms(nameTerm(api.NodeSelectorOpIn, "node-1"))}}, "node-1"},
		{&api.Pod{ObjectMeta: api.ObjectMeta{Name: "pod3"}, Spec: api.PodSpec{Affinity: requiredTerms(nameTerm(api.NodeSelectorOpIn, "node-1", "node-2"))}}, ""},
		{&api.Pod{ObjectMeta: api.ObjectMeta{Name: "pod4"}}, ""},
	}
	for _, tc := range cases {
		if got := TargetNode(tc.pod); got != tc.want {
			t.Errorf("%s: TargetNode = %q, want %q", tc.pod.Name, got, tc.want)
		}
	}
}

// TestCreatePodTemplate ports upstream's rows of that name as far as
// they apply: the hash label is set only for a non-empty hash. The
// pod-template-generation label upstream also checks is not simulated
// (the API server keeps no deprecated.daemonset.template.generation
// annotation here), nor, therefore, TestIsPodUpdated's
// templateGeneration rows: a pod is of the current template when its
// controller-revision-hash label is the hash.
func TestCreatePodTemplate(t *testing.T) {
	for _, tc := range []struct {
		hash        string
		expectLabel bool
	}{{"", false}, {"3242341807", true}} {
		got := createPodTemplate(&api.PodTemplateSpec{}, tc.hash)
		val, ok := got.Labels[api.LabelControllerRevisionHash]
		if ok != tc.expectLabel || val != tc.hash {
			t.Errorf("hash %q: label %q (present %v), want present %v", tc.hash, val, ok, tc.expectLabel)
		}
	}
}

// TestGetUnavailableNumbers ports upstream's rows of that name (k/k
// pkg/controller/daemon/update_test.go) onto updatedDesiredNodeCounts:
// the surge and unavailability budgets and the desired count. Upstream's
// emptyNodes column counts the desired nodes without pods, which its
// function adds to the map; here replaceWithoutSurge counts such a node
// unavailable itself (TestRollingUpdateBudget's row "a node without its
// pod counts as unavailable").
func TestGetUnavailableNumbers(t *testing.T) {
	unavailable := func(v api.IntOrString) api.DaemonSetUpdateStrategy {
		return api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType, RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: &v}}
	}
	surge := func(v api.IntOrString) api.DaemonSetUpdateStrategy {
		zero := api.FromInt32(0)
		return api.DaemonSetUpdateStrategy{Type: api.RollingUpdateDaemonSetStrategyType, RollingUpdate: &api.RollingUpdateDaemonSet{MaxUnavailable: &zero, MaxSurge: &v}}
	}
	cases := []struct {
		name                            string
		nodes                           int
		strategy                        api.DaemonSetUpdateStrategy
		maxSurge, maxUnavailable, wantN int
	}{
		{"No nodes", 0, unavailable(api.FromInt32(0)), 0, 0, 0},
		{"Two nodes with ready pods", 2, unavailable(api.FromInt32(1)), 0, 1, 2},
		{"Two nodes, one node without pods", 2, unavailable(api.FromInt32(0)), 0, 1, 2},
		{"Two nodes, one node without pods, surge", 2, surge(api.FromInt32(0)), 0, 1, 2},
		{"Two nodes with pods, MaxUnavailable in percents", 2, unavailable(api.FromString("50%")), 0, 1, 2},
		{"Two nodes with pods, MaxUnavailable in percents, surge", 2, surge(api.FromString("50%")), 1, 0, 2},
		{"Two nodes with pods, MaxUnavailable is 100%, surge", 2, surge(api.FromString("100%")), 2, 0, 2},
		{"Two nodes with pods, MaxUnavailable in percents, pod terminating", 3, unavailable(api.FromString("50%")), 0, 2, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var nodes []*api.Node
			for i := range tc.nodes {
				nodes = append(nodes, newNode(fmt.Sprintf("node-%d", i), nil))
			}
			ds := newDaemonSet(api.PodSpec{})
			ds.Spec.UpdateStrategy = tc.strategy
			s, u, d := updatedDesiredNodeCounts(ds, nodes, NodeShouldRunDaemonPod)
			if s != tc.maxSurge || u != tc.maxUnavailable || d != tc.wantN {
				t.Errorf("maxSurge %d, maxUnavailable %d, desired %d; want %d, %d, %d", s, u, d, tc.maxSurge, tc.maxUnavailable, tc.wantN)
			}
		})
	}
}

// fakeLister serves a fixed list of objects.
type fakeLister []api.Object

func (l fakeLister) Get(api.Key) (api.Object, bool)         { return nil, false }
func (l fakeLister) List(api.Selector, string) []api.Object { return l }
func (l fakeLister) ByIndex(string, string) []api.Object    { return nil }

// TestUpdateNode ports upstream's rows of that name (daemon_controller_test.go):
// a node update resyncs the DaemonSets when the node's labels or taints
// changed, not when only its allocatable did.
func TestUpdateNode(t *testing.T) {
	simpleNodeLabel := map[string]string{"color": "blue"}
	withSelector := newDaemonSet(api.PodSpec{NodeSelector: simpleNodeLabel})
	tainted := newNode("node1", nil)
	tainted.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "user1", Effect: api.TaintEffectNoSchedule}}
	allocatable := newNode("node1", nil)
	allocatable.Status.Allocatable = api.ResourceList{"memory": api.MustParseQuantity("200M"), "cpu": api.MustParseQuantity("200m")}
	cases := []struct {
		test             string
		oldNode, newNode *api.Node
		ds               *api.DaemonSet
		shouldEnqueue    bool
	}{
		{"Nothing changed, should not enqueue", newNode("node1", nil), newNode("node1", nil), withSelector, false},
		{"Node labels changed", newNode("node1", nil), newNode("node1", simpleNodeLabel), withSelector, true},
		{"Node taints changed", tainted, newNode("node1", nil), newDaemonSet(api.PodSpec{}), true},
		{"Node Allocatable changed", newNode("node1", nil), allocatable, newDaemonSet(api.PodSpec{}), false},
	}
	for _, tc := range cases {
		t.Run(tc.test, func(t *testing.T) {
			enqueued := false
			r := &reconciler{dss: fakeLister{tc.ds}, enqueue: func(api.Key) { enqueued = true }}
			r.updateNode(tc.oldNode, tc.newNode)
			if enqueued != tc.shouldEnqueue {
				t.Errorf("enqueued %v, want %v", enqueued, tc.shouldEnqueue)
			}
		})
	}
}
