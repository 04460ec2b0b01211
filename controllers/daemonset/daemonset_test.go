package daemonset

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// Labels of upstream's daemon_controller_test.go.
var (
	simpleDaemonSetLabel  = map[string]string{"name": "simple-daemon", "type": "production"}
	simpleDaemonSetLabel2 = map[string]string{"name": "simple-daemon", "type": "test"}
)

func newNode(name string, labels map[string]string) *api.Node {
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: labels},
		Status:     api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}},
	}
}

func newDaemonSet(spec api.PodSpec) *api.DaemonSet {
	ds := &api.DaemonSet{
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "foo", UID: "ds-uid"},
		Spec: api.DaemonSetSpec{
			Selector: &api.LabelSelector{MatchLabels: simpleDaemonSetLabel},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: simpleDaemonSetLabel}, Spec: spec},
		},
	}
	api.SetDefaultsDaemonSet(ds)
	return ds
}

func resourcePodSpec(node, mem, cpu string) api.PodSpec {
	return api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "c", Image: "pause",
		Resources: api.ResourceRequirements{Requests: api.ResourceList{"memory": api.MustParseQuantity(mem), "cpu": api.MustParseQuantity(cpu)}}}}}
}

func affinityIn(key string, values ...string) *api.Affinity {
	return &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: api.NodeSelectorOpIn, Values: values}}}},
	}}}
}

// TestNodeShouldRunDaemonPod ports upstream's TestNodeShouldRunDaemonPod
// (k/k pkg/controller/daemon/daemon_controller_test.go) row by row:
// resources and host ports no longer matter (the scheduler decides), the
// template's nodeName, nodeSelector and node affinity do, and an
// unschedulable node runs daemon pods. Rows after the upstream ones cover
// taints (upstream's TestTaintedNode*/TestNoExecuteTainted* tests).
func TestNodeShouldRunDaemonPod(t *testing.T) {
	withAffinity := func(a *api.Affinity) api.PodSpec { s := resourcePodSpec("", "50M", "0.5"); s.Affinity = a; return s }
	withSelector := func(sel map[string]string) api.PodSpec { return api.PodSpec{NodeSelector: sel} }
	withTols := func(tols ...api.Toleration) api.PodSpec {
		s := resourcePodSpec("", "50M", "0.5")
		s.Tolerations = tols
		return s
	}
	hostPort := api.PodSpec{Containers: []api.Container{{Name: "c", Ports: []api.ContainerPort{{HostPort: 666, ContainerPort: 666}}}}}
	noSchedule := []api.Taint{{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}}
	noExecute := []api.Taint{{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoExecute}}
	tests := []struct {
		name                          string
		spec                          api.PodSpec
		unschedulable                 bool
		taints                        []api.Taint
		shouldRun, shouldContinueRuns bool
	}{
		{"ShouldRunDaemonPod", resourcePodSpec("", "50M", "0.5"), false, nil, true, true},
		{"InsufficientResourceError", resourcePodSpec("", "200M", "0.5"), false, nil, true, true},
		{"ErrPodNotMatchHostName", resourcePodSpec("other-node", "50M", "0.5"), false, nil, false, false},
		{"ErrPodNotFitsHostPorts", hostPort, false, nil, true, true},
		// Upstream's next two rows put a pod with host port 666 and
		// 50M/0.5 on the node first; NodeShouldRunDaemonPod reads no
		// pods (the scheduler decides fit), so they are the template's.
		{"InsufficientResourceError (a pod on the node)", resourcePodSpec("", "100M", "0.5"), false, nil, true, true},
		{"ShouldRunDaemonPod (a pod on the node)", resourcePodSpec("", "50M", "0.5"), false, nil, true, true},
		{"ErrNodeSelectorNotMatch", withSelector(simpleDaemonSetLabel2), false, nil, false, false},
		{"ShouldRunDaemonPod (nodeSelector)", withSelector(simpleDaemonSetLabel), false, nil, true, true},
		{"ErrPodAffinityNotMatch", withAffinity(affinityIn("type", "test")), false, nil, false, false},
		{"ShouldRunDaemonPod (node affinity)", withAffinity(affinityIn("type", "production")), false, nil, true, true},
		{"ShouldRunDaemonPodOnUnschedulableNode", resourcePodSpec("", "50M", "0.5"), true, nil, true, true},
		// Taints.
		{"NoSchedule taint not tolerated: no new pod, a running one stays", resourcePodSpec("", "50M", "0.5"), false, noSchedule, false, true},
		{"NoExecute taint not tolerated: evicted", resourcePodSpec("", "50M", "0.5"), false, noExecute, false, false},
		{"NoSchedule taint tolerated", withTols(api.Toleration{Key: "dedicated", Operator: api.TolerationOpEqual, Value: "gpu", Effect: api.TaintEffectNoSchedule}), false, noSchedule, true, true},
		{"not-ready NoExecute tolerated by default", resourcePodSpec("", "50M", "0.5"), false, []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}}, true, true},
		{"unreachable NoExecute tolerated by default", resourcePodSpec("", "50M", "0.5"), false, []api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}}, true, true},
		{"memory-pressure NoSchedule tolerated by default", resourcePodSpec("", "50M", "0.5"), false, []api.Taint{{Key: api.TaintNodeMemoryPressure, Effect: api.TaintEffectNoSchedule}}, true, true},
		{"not-ready NoSchedule not tolerated", resourcePodSpec("", "50M", "0.5"), false, []api.Taint{{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoSchedule}}, false, true},
		{"network-unavailable not tolerated without hostNetwork", resourcePodSpec("", "50M", "0.5"), false, []api.Taint{{Key: api.TaintNodeNetworkUnavailable, Effect: api.TaintEffectNoSchedule}}, false, true},
	}
	for _, tt := range tests {
		for _, strategy := range []api.DaemonSetUpdateStrategyType{api.RollingUpdateDaemonSetStrategyType, api.OnDeleteDaemonSetStrategyType} {
			t.Run(fmt.Sprintf("%s/%s", tt.name, strategy), func(t *testing.T) {
				node := newNode("test-node", simpleDaemonSetLabel)
				node.Spec.Unschedulable = tt.unschedulable
				node.Spec.Taints = tt.taints
				ds := newDaemonSet(tt.spec)
				ds.Spec.UpdateStrategy.Type = strategy
				run, cont := NodeShouldRunDaemonPod(node, ds)
				if run != tt.shouldRun || cont != tt.shouldContinueRuns {
					t.Errorf("NodeShouldRunDaemonPod = (%v, %v), want (%v, %v)", run, cont, tt.shouldRun, tt.shouldContinueRuns)
				}
			})
		}
	}
}

// TestDaemonTolerations ports upstream's daemonset_util_test.go
// expectations of AddOrUpdateDaemonPodTolerations: six tolerations, a
// seventh for hostNetwork, and an existing toleration of the same key and
// effect replaced rather than duplicated.
func TestDaemonTolerations(t *testing.T) {
	key := func(tols []api.Toleration) []string {
		var out []string
		for _, tl := range tols {
			out = append(out, fmt.Sprintf("%s:%s:%s", tl.Key, tl.Operator, tl.Effect))
		}
		return out
	}
	want := []string{
		"node.kubernetes.io/not-ready:Exists:NoExecute",
		"node.kubernetes.io/unreachable:Exists:NoExecute",
		"node.kubernetes.io/disk-pressure:Exists:NoSchedule",
		"node.kubernetes.io/memory-pressure:Exists:NoSchedule",
		"node.kubernetes.io/pid-pressure:Exists:NoSchedule",
		"node.kubernetes.io/unschedulable:Exists:NoSchedule",
	}
	var spec api.PodSpec
	AddDaemonTolerations(&spec)
	if got := key(spec.Tolerations); !slices.Equal(got, want) {
		t.Errorf("tolerations = %v, want %v", got, want)
	}
	// A not-ready toleration with tolerationSeconds (as the admission
	// plugin adds to every pod) becomes an unbounded one.
	secs := int64(300)
	spec = api.PodSpec{HostNetwork: true, Tolerations: []api.Toleration{{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &secs}}}
	AddDaemonTolerations(&spec)
	if got := key(spec.Tolerations); !slices.Equal(got, append(want, "node.kubernetes.io/network-unavailable:Exists:NoSchedule")) {
		t.Errorf("hostNetwork tolerations = %v", got)
	}
	if spec.Tolerations[0].TolerationSeconds != nil {
		t.Errorf("not-ready toleration keeps tolerationSeconds %d; upstream replaces it", *spec.Tolerations[0].TolerationSeconds)
	}
}

// TestNodeAffinityForDaemonPod ports upstream's
// TestReplaceDaemonSetPodNodeNameNodeAffinity cases: the required node
// affinity of a daemon pod becomes one term selecting its node by name
// (preferred terms are kept), and TargetNode reads it back.
func TestNodeAffinityForDaemonPod(t *testing.T) {
	pref := []api.PreferredSchedulingTerm{{Weight: 1, Preference: api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{{Key: "a", Operator: api.NodeSelectorOpExists}}}}}
	tests := []struct {
		name string
		in   *api.Affinity
	}{
		{"nil affinity", nil},
		{"no node affinity", &api.Affinity{}},
		{"no required terms", &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: pref}}},
		{"required terms replaced", affinityIn("type", "production")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := nodeAffinityFor(tt.in, "node-1")
			terms := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
			if len(terms) != 1 || len(terms[0].MatchExpressions) != 0 || len(terms[0].MatchFields) != 1 {
				t.Fatalf("terms = %+v", terms)
			}
			p := &api.Pod{Spec: api.PodSpec{Affinity: a}}
			if got := TargetNode(p); got != "node-1" {
				t.Errorf("TargetNode = %q", got)
			}
			if tt.in != nil && tt.in.NodeAffinity != nil && len(tt.in.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) != len(a.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution) {
				t.Error("preferred terms lost")
			}
		})
	}
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// daemonPod is a pod of ds on node with the template hash, ready or not.
func daemonPod(name, node, hash string, ready bool) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{api.LabelControllerRevisionHash: hash},
		CreationTimestamp: api.NewTime(epoch)}}
	p.Spec.NodeName = node
	p.Status.Phase = api.PodRunning
	st := api.ConditionFalse
	if ready {
		st = api.ConditionTrue
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: st, LastTransitionTime: api.NewTime(epoch)}}
	return p
}

// TestRollingUpdateBudget ports the decisions of upstream's update_test.go
// (TestDaemonSetUpdatesPods, TestDaemonSetUpdatesWhenNewPodIsNotReady,
// TestDaemonSetUpdatesAllOldPodsNotReady, TestGetUnavailableNumbers): how
// many old pods one rolling-update pass deletes.
func TestRollingUpdateBudget(t *testing.T) {
	nodes := func(n int) []*api.Node {
		out := make([]*api.Node, n)
		for i := range out {
			out[i] = newNode(fmt.Sprintf("node-%d", i), simpleDaemonSetLabel)
		}
		return out
	}
	type podState struct {
		hash  string // "" for no pod
		ready bool
	}
	tests := []struct {
		name           string
		maxUnavailable api.IntOrString
		pods           []podState
		wantDeleted    int
	}{
		{"5 old ready pods, maxUnavailable 2: two go", api.FromInt32(2), []podState{{"old", true}, {"old", true}, {"old", true}, {"old", true}, {"old", true}}, 2},
		{"one new pod not ready uses the budget of 2: one more goes", api.FromInt32(2), []podState{{"new", false}, {"old", true}, {"old", true}, {"old", true}, {"old", true}}, 1},
		{"two new pods not ready: none goes", api.FromInt32(2), []podState{{"new", false}, {"new", false}, {"old", true}, {"old", true}, {"old", true}}, 0},
		{"all old pods not ready: all go whatever the budget", api.FromInt32(1), []podState{{"old", false}, {"old", false}, {"old", false}}, 3},
		{"a node without its pod counts as unavailable", api.FromInt32(1), []podState{{"", false}, {"old", true}, {"old", true}}, 0},
		{"50% of 5 rounds up to 3", api.FromString("50%"), []podState{{"old", true}, {"old", true}, {"old", true}, {"old", true}, {"old", true}}, 3},
		{"0 means 1", api.FromInt32(0), []podState{{"old", true}, {"old", true}}, 1},
		{"everything updated: nothing to do", api.FromInt32(1), []podState{{"new", true}, {"new", true}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ns := nodes(len(tt.pods))
			byNode := map[string][]*api.Pod{}
			for i, ps := range tt.pods {
				if ps.hash != "" {
					byNode[ns[i].Name] = []*api.Pod{daemonPod(fmt.Sprintf("p-%d", i), ns[i].Name, ps.hash, ps.ready)}
				}
			}
			ds := newDaemonSet(resourcePodSpec("", "50M", "0.5"))
			mu := tt.maxUnavailable
			ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &mu
			got, create := podsToReplace(ds, ns, byNode, "new", epoch.Add(time.Hour), NodeShouldRunDaemonPod)
			if len(create) != 0 {
				t.Errorf("created %v without surge", create)
			}
			if len(got) != tt.wantDeleted {
				t.Errorf("deleted %d pods, want %d", len(got), tt.wantDeleted)
			}
			for _, p := range got {
				if p.Labels[api.LabelControllerRevisionHash] == "new" {
					t.Errorf("deleted a pod of the current template: %s", p.Name)
				}
			}
		})
	}
}

// TestRollingUpdateSurge ports the decisions of upstream's
// TestDaemonSetUpdatesPodsWithMaxSurge and TestDaemonSetUpdatesSomeOldPodsNotReady
// (update_test.go) with maxSurge: new pods are created beside old ones,
// at most maxSurge waiting to become available at a time, at once where
// the old pod is not available; an old pod goes when the new one beside
// it is available.
func TestRollingUpdateSurge(t *testing.T) {
	type podState struct {
		old, oldReady bool
		new, newReady bool
	}
	old := podState{old: true, oldReady: true}
	oldNotReady := podState{old: true}
	surging := podState{old: true, oldReady: true, new: true}
	surged := podState{old: true, oldReady: true, new: true, newReady: true}
	tests := []struct {
		name        string
		maxSurge    api.IntOrString
		nodes       []podState
		wantDeleted int
		wantCreated int
	}{
		{"5 old ready pods, maxSurge 2: two new pods", api.FromInt32(2), []podState{old, old, old, old, old}, 0, 2},
		{"two new pods not available yet: nothing more", api.FromInt32(2), []podState{surging, surging, old, old, old}, 0, 0},
		{"two new pods available: their old pods go, two more new pods", api.FromInt32(2), []podState{surged, surged, old, old, old}, 2, 2},
		{"old pods not ready get new pods at once whatever maxSurge", api.FromInt32(1), []podState{oldNotReady, oldNotReady, oldNotReady}, 0, 3},
		{"50% of 5 rounds up to 3", api.FromString("50%"), []podState{old, old, old, old, old}, 0, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			byNode := map[string][]*api.Pod{}
			var ns []*api.Node
			for i, ps := range tt.nodes {
				n := newNode(fmt.Sprintf("node-%d", i), simpleDaemonSetLabel)
				ns = append(ns, n)
				if ps.old {
					byNode[n.Name] = append(byNode[n.Name], daemonPod(fmt.Sprintf("old-%d", i), n.Name, "old", ps.oldReady))
				}
				if ps.new {
					byNode[n.Name] = append(byNode[n.Name], daemonPod(fmt.Sprintf("new-%d", i), n.Name, "new", ps.newReady))
				}
			}
			ds := newDaemonSet(resourcePodSpec("", "50M", "0.5"))
			zero, ms := api.FromInt32(0), tt.maxSurge
			ds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &zero
			ds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = &ms
			del, create := podsToReplace(ds, ns, byNode, "new", epoch.Add(time.Hour), NodeShouldRunDaemonPod)
			if len(del) != tt.wantDeleted || len(create) != tt.wantCreated {
				t.Errorf("deleted %d, created %d; want %d and %d", len(del), len(create), tt.wantDeleted, tt.wantCreated)
			}
			for _, p := range del {
				if p.Labels[api.LabelControllerRevisionHash] == "new" {
					t.Errorf("deleted a pod of the current template: %s", p.Name)
				}
			}
		})
	}
}
