package scheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// zoneNode is a node with zone and hostname labels and room for plenty.
func zoneNode(name, zone string) *api.Node {
	n := testNode(name, rl("cpu", "100", "memory", "100Gi", "pods", "110"))
	n.Labels[labelHostname] = name
	if zone != "" {
		n.Labels[labelZone] = zone
	}
	return n
}

// labelled is a request-less pod with labels, bound to node when given.
func labelled(name, node string, labels ...string) *api.Pod {
	p := testPod(name)
	p.Labels = map[string]string{}
	for i := 0; i+1 < len(labels); i += 2 {
		p.Labels[labels[i]] = labels[i+1]
	}
	p.Spec.NodeName = node
	return p
}

func spread(key string, maxSkew int32, action api.UnsatisfiableConstraintAction, sel *api.LabelSelector) api.TopologySpreadConstraint {
	return api.TopologySpreadConstraint{MaxSkew: maxSkew, TopologyKey: key, WhenUnsatisfiable: action, LabelSelector: sel}
}

var selFooExists = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "foo", Operator: api.LabelSelectorOpExists}}}

// filterAll runs the filters (with the placement PreFilters) for pod on
// every node and returns, per node name, the reasons joined.
func filterAll(pod *api.Pod, nodes []*api.Node, pods []*api.Pod) map[string]string {
	c := newTestCache(nodes, pods...)
	all := c.list()
	pi := newPodInfo(pod)
	pi.spread = newSpreadFilter(pi, all)
	pi.interPod = newInterPodFilter(pi, all, c)
	out := map[string]string{}
	for _, ni := range all {
		r := filter(pi, ni, nil)
		if len(r) > 0 {
			out[ni.name] = r[0]
		}
	}
	return out
}

// fourNodes are upstream's node-a, node-b (zone1), node-x, node-y (zone2).
func fourNodes() []*api.Node {
	return []*api.Node{zoneNode("node-a", "zone1"), zoneNode("node-b", "zone1"), zoneNode("node-x", "zone2"), zoneNode("node-y", "zone2")}
}

// podsOn puts n pods labelled foo on each node, in order.
func podsOn(nodes []string, n ...int) []*api.Pod {
	var out []*api.Pod
	for i, node := range nodes {
		for j := range n[i] {
			out = append(out, labelled(node+"-p"+string(rune('0'+j)), node, "foo", ""))
		}
	}
	return out
}

// TestPodTopologySpreadFilter ports rows of k/k podtopologyspread's
// TestSingleConstraint (filtering_test.go, read at 01c2588b); the names
// are upstream's, on node-a and node-b in zone1, node-x and node-y in
// zone2, with the zone and hostname labels for upstream's "zone" and
// "node".
func TestPodTopologySpreadFilter(t *testing.T) {
	names := []string{"node-a", "node-b", "node-x", "node-y"}
	honor, ignore := api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore
	three := int32(3)
	tests := []struct {
		name   string
		pod    func(p *api.Pod)
		nodes  []*api.Node
		pods   []*api.Pod
		failed []string // nodes failing with ReasonTopologySpread
	}{
		{"no existing pods", func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(labelZone, 1, api.DoNotSchedule, selFooExists)}
		}, fourNodes(), nil, nil},
		{"pods spread across zones as 3/3, all nodes fit", func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(labelZone, 1, api.DoNotSchedule, selFooExists)}
		}, fourNodes(), podsOn(names, 1, 2, 1, 2), nil},
		{"pods spread across nodes as 2/1/0/3, only node-x fits", func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(labelHostname, 1, api.DoNotSchedule, selFooExists)}
		}, fourNodes(), podsOn(names, 2, 1, 0, 3), []string{"node-a", "node-b", "node-y"}},
		{"pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit", func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(labelHostname, 2, api.DoNotSchedule, selFooExists)}
		}, fourNodes(), podsOn(names, 2, 1, 0, 3), []string{"node-a", "node-y"}},
		{"pods spread across nodes as 2/1/0/3, but pod doesn't match itself", func(p *api.Pod) {
			delete(p.Labels, "foo")
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(labelHostname, 1, api.DoNotSchedule, selFooExists)}
		}, fourNodes(), podsOn(names, 2, 1, 0, 3), []string{"node-a", "node-y"}},
		{"pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the min match number is 0", func(p *api.Pod) {
			c := spread(labelZone, 2, api.DoNotSchedule, selFooExists)
			c.MinDomains = &three
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c}
		}, fourNodes(), podsOn(names, 1, 1, 1, 0), []string{"node-a", "node-b"}},
		{"pods spread across zone as 2/1, maxSkew is 2 and minDomains is met", func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(labelZone, 2, api.DoNotSchedule, selFooExists)}
		}, fourNodes(), podsOn(names, 1, 1, 1, 0), nil},
		{"NodeTaintsPolicy honored, the tainted node's domain is not counted", func(p *api.Pod) {
			c := spread(labelHostname, 1, api.DoNotSchedule, selFooExists)
			c.NodeTaintsPolicy = &honor
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c}
		}, taintedX(), podsOn(names[:3], 1, 1, 0), nil},
		{"NodeTaintsPolicy ignored, the tainted node's empty domain is the minimum", func(p *api.Pod) {
			c := spread(labelHostname, 1, api.DoNotSchedule, selFooExists)
			c.NodeTaintsPolicy = &ignore
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c}
		}, taintedX(), podsOn(names[:3], 1, 1, 0), []string{"node-a", "node-b"}},
		{"NodeAffinityPolicy ignored, the excluded nodes' empty domains are the minimum", func(p *api.Pod) {
			c := spread(labelHostname, 1, api.DoNotSchedule, selFooExists)
			c.NodeAffinityPolicy = &ignore
			p.Spec.NodeSelector = map[string]string{labelZone: "zone1"}
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c}
		}, fourNodes(), podsOn(names, 1, 1, 0, 0), []string{"node-a", "node-b"}},
		{"NodeAffinityPolicy honored with nodeSelector", func(p *api.Pod) {
			p.Spec.NodeSelector = map[string]string{labelZone: "zone1"}
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(labelHostname, 1, api.DoNotSchedule, selFooExists)}
		}, fourNodes(), podsOn(names, 1, 1, 0, 0), nil},
		{"matchLabelKeys narrows the selector to the pod's own version", func(p *api.Pod) {
			p.Labels["version"] = "v2"
			c := spread(labelHostname, 1, api.DoNotSchedule, selFooExists)
			c.MatchLabelKeys = []string{"version"}
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c}
		}, fourNodes(), versioned(podsOn(names, 2, 0, 0, 0), "v1"), nil},
		{"without matchLabelKeys every version counts", func(p *api.Pod) {
			p.Labels["version"] = "v2"
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(labelHostname, 1, api.DoNotSchedule, selFooExists)}
		}, fourNodes(), versioned(podsOn(names, 2, 0, 0, 0), "v1"), []string{"node-a"}},
		{"ScheduleAnyway constraints do not filter", func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(labelHostname, 1, api.ScheduleAnyway, selFooExists)}
		}, fourNodes(), podsOn(names, 2, 1, 0, 3), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := labelled("p", "", "foo", "")
			tc.pod(pod)
			got := filterAll(pod, tc.nodes, tc.pods)
			var failed []string
			for name, r := range got {
				if r == ReasonUntoleratedTaint || r == ReasonNodeAffinity {
					continue
				}
				if r != ReasonTopologySpread {
					t.Errorf("%s: reason %q", name, r)
				}
				failed = append(failed, name)
			}
			slices.Sort(failed)
			if !slices.Equal(failed, tc.failed) {
				t.Errorf("failed nodes %v, want %v", failed, tc.failed)
			}
		})
	}
}

func taintedX() []*api.Node {
	x := zoneNode("node-x", "zone2")
	x.Spec.Taints = []api.Taint{{Key: "dedicated", Value: "x", Effect: api.TaintEffectNoSchedule}}
	return []*api.Node{zoneNode("node-a", "zone1"), zoneNode("node-b", "zone1"), x}
}

func versioned(pods []*api.Pod, v string) []*api.Pod {
	for _, p := range pods {
		p.Labels["version"] = v
	}
	return pods
}

// TestPodTopologySpreadMissingLabel: a node without the topology key fails
// with upstream's "(missing required label)" reason.
func TestPodTopologySpreadMissingLabel(t *testing.T) {
	pod := labelled("p", "", "foo", "")
	pod.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(labelZone, 1, api.DoNotSchedule, selFooExists)}
	got := filterAll(pod, []*api.Node{zoneNode("node-a", "zone1"), zoneNode("node-b", "")}, nil)
	if got["node-b"] != ReasonTopologySpreadLabel || got["node-a"] != "" {
		t.Fatalf("got %v", got)
	}
}

func term(key string, sel map[string]string, ns ...string) api.PodAffinityTerm {
	return api.PodAffinityTerm{TopologyKey: key, LabelSelector: &api.LabelSelector{MatchLabels: sel}, Namespaces: ns}
}

// TestInterPodAffinityFilter ports rows of k/k interpodaffinity's
// TestRequiredAffinitySingleNode and TestRequiredAffinityMultipleNodes
// (filtering_test.go, read at 007f7ae7, whose statuses also carry the
// "node(s) didn't match pod affinity/anti-affinity" reason that later
// releases dropped; the reasons here are those of filtering.go in 1.35
// and later), with their reasons.
func TestInterPodAffinityFilter(t *testing.T) {
	sec := map[string]string{"service": "securityscan"}
	affinity := func(terms ...api.PodAffinityTerm) *api.Affinity {
		return &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms}}
	}
	anti := func(terms ...api.PodAffinityTerm) *api.Affinity {
		return &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: terms}}
	}
	tests := []struct {
		name     string
		labels   []string
		affinity *api.Affinity
		existing []*api.Pod
		want     map[string]string
	}{
		{"A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods",
			nil, nil, nil, map[string]string{}},
		{"satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod",
			nil, affinity(term(labelZone, sec)), []*api.Pod{labelled("e", "node-a", "service", "securityscan")},
			map[string]string{"node-x": ReasonPodAffinity, "node-y": ReasonPodAffinity}},
		{"Does not satisfy the PodAffinity with labelSelector because of diff Namespace",
			nil, affinity(term(labelZone, sec, "DiffNameSpace")), []*api.Pod{labelled("e", "node-a", "service", "securityscan")},
			map[string]string{"node-a": ReasonPodAffinity, "node-b": ReasonPodAffinity, "node-x": ReasonPodAffinity, "node-y": ReasonPodAffinity}},
		{"the first pod of a group with affinity to itself schedules anywhere",
			[]string{"service", "securityscan"}, affinity(term(labelZone, sec)), nil, map[string]string{}},
		{"satisfies the PodAntiAffinity when the existing pod is in another domain",
			nil, anti(term(labelHostname, sec)), []*api.Pod{labelled("e", "node-a", "service", "securityscan")},
			map[string]string{"node-a": ReasonPodAntiAffinity}},
		{"anti-affinity per zone rules out the whole zone",
			nil, anti(term(labelZone, sec)), []*api.Pod{labelled("e", "node-a", "service", "securityscan")},
			map[string]string{"node-a": ReasonPodAntiAffinity, "node-b": ReasonPodAntiAffinity}},
		{"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints",
			[]string{"service", "securityscan"}, nil, []*api.Pod{withAffinity(labelled("e", "node-x", "app", "db"), anti(term(labelZone, sec)))},
			map[string]string{"node-x": ReasonExistingAntiAffinity, "node-y": ReasonExistingAntiAffinity}},
		{"existing pod's anti-affinity in another namespace does not select the pod",
			[]string{"service", "securityscan"}, nil, []*api.Pod{inNamespace(withAffinity(labelled("e", "node-x", "app", "db"), anti(term(labelZone, sec))), "other")},
			map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := labelled("p", "", tc.labels...)
			pod.Spec.Affinity = tc.affinity
			got := filterAll(pod, fourNodes(), tc.existing)
			if !mapsEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func withAffinity(p *api.Pod, a *api.Affinity) *api.Pod { p.Spec.Affinity = a; return p }

func inNamespace(p *api.Pod, ns string) *api.Pod { p.Namespace = ns; return p }

// TestPlacementFitError: four replicas with required anti-affinity per
// host on three nodes; the fourth fits nowhere, with upstream's message.
func TestPlacementFitError(t *testing.T) {
	nodes := []*api.Node{zoneNode("n1", "z1"), zoneNode("n2", "z2"), zoneNode("n3", "z3")}
	a := &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
		term(labelHostname, map[string]string{"app": "web"})}}}
	s := &scheduler{cache: newTestCache(nodes), rng: rand.New(rand.NewPCG(1, 2))}
	for i := range 4 {
		pod := withAffinity(labelled("web-"+string(rune('0'+i)), "", "app", "web"), a)
		node, err := s.schedule(pod, "")
		if i < 3 {
			if err != nil {
				t.Fatalf("replica %d: %v", i, err)
			}
			s.cache.setPod(bindTo(pod, node))
			continue
		}
		const want = "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules."
		if err == nil || err.Error() != want {
			t.Fatalf("fourth replica: %v, want %q", err, want)
		}
	}
}

var selBarExists = &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "bar", Operator: api.LabelSelectorOpExists}}}

// spreadScores runs PodTopologySpread's score for pod over the feasible
// nodes, in a cluster of feasible and failed nodes with pods bound.
func spreadScores(pod *api.Pod, feasible, failed []*api.Node, pods []*api.Pod) []int64 {
	c := newTestCache(append(slices.Clone(feasible), failed...), pods...)
	var fs []*nodeInfo
	for _, n := range feasible {
		fs = append(fs, c.nodes[n.Name])
	}
	out := make([]int64, len(fs))
	if !spreadScore(newPodInfo(pod), c.list(), fs, out) {
		return nil
	}
	return out
}

// on puts pods labelled kv on node, one per count, named node-pN.
func on(node string, n int, kv ...string) []*api.Pod {
	var out []*api.Pod
	for i := range n {
		out = append(out, labelled(fmt.Sprintf("%s-%s-p%d", node, strings.Join(kv, ""), i), node, kv...))
	}
	return out
}

// TestPodTopologySpreadScore ports rows of k/k podtopologyspread's
// TestPodTopologySpreadScore (scoring_test.go at 008b3652), with
// upstream's names and expected normalized scores; the nodes are
// upstream's nodes (the candidates) and failedNodes.
func TestPodTopologySpreadScore(t *testing.T) {
	const host = labelHostname
	sa := api.ScheduleAnyway
	honor, ignore := api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore
	hosts := func(names ...string) []*api.Node {
		var out []*api.Node
		for _, n := range names {
			out = append(out, labelledNode(n, host, n))
		}
		return out
	}
	zoned := func(name, zone string, withHost bool) *api.Node {
		if withHost {
			return labelledNode(name, "zone", zone, host, name)
		}
		return labelledNode(name, "zone", zone)
	}
	byNode := func(names ...string) []*api.Node {
		var out []*api.Node
		for _, n := range names {
			out = append(out, labelledNode(n, "node", n))
		}
		return out
	}
	cat := func(groups ...[]*api.Pod) []*api.Pod { return slices.Concat(groups...) }
	foo := []string{"foo", ""}
	fooBar := []string{"foo", "", "bar", ""}
	bar := []string{"bar", ""}
	type row struct {
		name          string
		pod           func(p *api.Pod)
		nodes, failed []*api.Node
		existing      []*api.Pod
		want          []int64
	}
	one := func(key string, maxSkew int32, sel *api.LabelSelector) func(p *api.Pod) {
		return func(p *api.Pod) {
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(key, maxSkew, sa, sel)}
		}
	}
	two := func(c1, c2 api.TopologySpreadConstraint) func(p *api.Pod) {
		return func(p *api.Pod) {
			p.Labels["bar"] = ""
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c1, c2}
		}
	}
	policy := func(affinity, taints *api.NodeInclusionPolicy, sel map[string]string, nodeAffinity bool) func(p *api.Pod) {
		return func(p *api.Pod) {
			c := spread("node", 1, sa, selFooExists)
			c.NodeAffinityPolicy, c.NodeTaintsPolicy = affinity, taints
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c}
			if nodeAffinity {
				p.Spec.Affinity = required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr("foo", api.NodeSelectorOpIn, "")}})
			} else {
				p.Spec.NodeSelector = sel
			}
		}
	}
	fooNodes := func() []*api.Node {
		ns := byNode("node-a", "node-b", "node-c")
		ns[0].Labels["foo"], ns[1].Labels["foo"] = "", ""
		return ns
	}
	abc := cat(on("node-a", 2, foo...), on("node-b", 1, foo...), on("node-c", 1, foo...))
	tainted := func() []*api.Node {
		ns := byNode("node-a", "node-b", "node-c")
		ns[2].Spec.Taints = []api.Taint{taint("foo", "", api.TaintEffectNoSchedule)}
		return ns
	}
	terminating := labelled("p-a", "node-a", foo...)
	terminating.DeletionTimestamp = &api.Time{}
	three := int32(10)
	tests := []row{
		{"one constraint on node, no existing pods", one(host, 1, selFooExists), hosts("node-a", "node-b"), nil, nil, []int64{100, 100}},
		{"one constraint on node, only one node is candidate", one(host, 1, selFooExists), hosts("node-a"), hosts("node-b"),
			cat(on("node-a", 2, foo...), on("node-b", 1, foo...)), []int64{100}},
		{"one constraint on node, all nodes have the same number of matching pods", one(host, 1, selFooExists), hosts("node-a", "node-b"), nil,
			cat(on("node-a", 1, foo...), on("node-b", 1, foo...)), []int64{100, 100}},
		{"one constraint on node, all 4 nodes are candidates", one(host, 1, selFooExists), hosts("node-a", "node-b", "node-c", "node-d"), nil,
			cat(on("node-a", 2, foo...), on("node-b", 1, foo...), on("node-d", 3, foo...)), []int64{20, 60, 100, 0}},
		{"one constraint on node, null selector", one(host, 1, nil), hosts("node-a", "node-b", "node-c", "node-d"), nil,
			cat(on("node-a", 2, foo...), on("node-b", 1, foo...), on("node-d", 3, foo...)), []int64{100, 100, 100, 100}},
		{"one constraint on node, all 4 nodes are candidates, maxSkew=2", one(host, 2, selFooExists), hosts("node-a", "node-b", "node-c", "node-d"), nil,
			cat(on("node-a", 2, foo...), on("node-b", 1, foo...), on("node-d", 3, foo...)), []int64{33, 66, 100, 16}},
		{"one constraint on node, all 4 nodes are candidates, maxSkew=3", one(host, 3, selFooExists), hosts("node-a", "node-b", "node-c", "node-d"), nil,
			cat(on("node-a", 4, foo...), on("node-b", 3, foo...), on("node-c", 2, foo...), on("node-d", 1, foo...)), []int64{44, 66, 77, 100}},
		{"one constraint on node, 3 out of 4 nodes are candidates", one(host, 1, selFooExists), hosts("node-a", "node-b", "node-x"), hosts("node-y"),
			cat(on("node-a", 4, foo...), on("node-b", 2, foo...), on("node-x", 1, foo...), on("node-y", 3, foo...)), []int64{33, 83, 100}},
		{"one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key", one(host, 1, selFooExists),
			[]*api.Node{labelledNode("node-a", host, "node-a"), labelledNode("node-b", "n", "node-b"), labelledNode("node-x", host, "node-x")}, hosts("node-y"),
			cat(on("node-a", 4, foo...), on("node-b", 2, foo...), on("node-x", 1, foo...), on("node-y", 3, foo...)), []int64{16, 0, 100}},
		{"one constraint on zone, 3 out of 4 nodes are candidates", one("zone", 1, selFooExists),
			[]*api.Node{zoned("node-a", "zone1", true), zoned("node-b", "zone1", true), zoned("node-x", "zone2", true)}, []*api.Node{zoned("node-y", "zone2", true)},
			cat(on("node-a", 4, foo...), on("node-b", 2, foo...), on("node-x", 1, foo...), on("node-y", 3, foo...)), []int64{75, 75, 100}},
		{"two Constraints on zone and node, 2 out of 4 nodes are candidates", two(spread("zone", 1, sa, selFooExists), spread(host, 1, sa, selFooExists)),
			[]*api.Node{zoned("node-a", "zone1", true), zoned("node-x", "zone2", true)}, []*api.Node{zoned("node-b", "zone1", true), zoned("node-y", "zone2", true)},
			cat(on("node-a", 2, foo...), on("node-b", 1, foo...), on("node-x", 2, foo...), on("node-y", 4, foo...)), []int64{100, 63}},
		{"two Constraints on zone, 2 out of 4 nodes are candidates", two(spread("zone", 1, sa, selFooExists), spread("zone", 1, sa, selBarExists)),
			[]*api.Node{zoned("node-a", "zone1", false), zoned("node-x", "zone2", false)}, []*api.Node{zoned("node-b", "zone1", false), zoned("node-y", "zone2", false)},
			cat(on("node-a", 1, fooBar...), on("node-a", 1, foo...), on("node-b", 1, fooBar...), on("node-y", 2, foo...), on("node-y", 1, fooBar...)),
			[]int64{85, 100}},
		{"two Constraints on zone and node, with different labelSelectors", two(spread("zone", 1, sa, selFooExists), spread(host, 1, sa, selBarExists)),
			[]*api.Node{zoned("node-a", "zone1", true), zoned("node-b", "zone1", true), zoned("node-x", "zone2", true), zoned("node-y", "zone2", true)}, nil,
			cat(on("node-a", 1, foo...), on("node-b", 1, fooBar...), on("node-y", 1, foo...), on("node-y", 1, bar...)), []int64{60, 20, 100, 60}},
		{"two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods", two(spread("zone", 1, sa, selFooExists), spread(host, 1, sa, selBarExists)),
			[]*api.Node{zoned("node-a", "zone1", true), zoned("node-b", "zone1", true), zoned("node-x", "zone2", true), zoned("node-y", "zone2", true)}, nil,
			cat(on("node-b", 1, bar...), on("node-x", 1, foo...), on("node-y", 1, fooBar...)), []int64{100, 60, 40, 0}},
		{"two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates", two(spread("zone", 1, sa, selFooExists), spread(host, 1, sa, selBarExists)),
			[]*api.Node{zoned("node-a", "zone1", true), zoned("node-b", "zone1", true), zoned("node-x", "zone2", true)}, []*api.Node{zoned("node-y", "zone2", true)},
			cat(on("node-a", 1, foo...), on("node-b", 1, fooBar...), on("node-y", 1, foo...), on("node-y", 1, bar...)), []int64{50, 25, 100}},
		{"existing pods in a different namespace do not count", one(host, 1, selFooExists), hosts("node-a", "node-b"), nil,
			cat([]*api.Pod{inNamespace(labelled("p-a1", "node-a", foo...), "ns1")}, on("node-a", 1, foo...), on("node-b", 2, foo...)), []int64{100, 33}},
		{"terminating Pods should be excluded", one(host, 1, selFooExists), hosts("node-a", "node-b"), nil,
			[]*api.Pod{terminating, labelled("p-b", "node-b", foo...)}, []int64{100, 0}},
		{"minDomains has no effect when ScheduleAnyway", func(p *api.Pod) {
			c := spread("node", 2, sa, selFooExists)
			c.MinDomains = &three
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c}
		}, byNode("node-a", "node-b", "node-c"), nil,
			cat(on("node-a", 2, foo...), on("node-b", 2, foo...), on("node-c", 1, foo...)), []int64{75, 75, 100}},
		{"NodeAffinityPolicy honoed with labelSelectors", policy(nil, nil, map[string]string{"foo": ""}, false), fooNodes(), nil, abc, []int64{0, 33, 100}},
		{"NodeAffinityPolicy ignored with labelSelectors", policy(&ignore, nil, map[string]string{"foo": ""}, false), fooNodes(), nil, abc, []int64{66, 100, 100}},
		{"NodeAffinityPolicy honoed with nodeAffinity", policy(nil, nil, nil, true), fooNodes(), nil, abc, []int64{0, 33, 100}},
		{"NodeAffinityPolicy ignored with nodeAffinity", policy(&ignore, nil, nil, true), fooNodes(), nil, abc, []int64{66, 100, 100}},
		{"NodeTaintsPolicy honored", policy(nil, &honor, nil, false), tainted(), nil, abc, []int64{0, 33, 100}},
		{"NodeTaintsPolicy ignored", policy(nil, nil, nil, false), tainted(), nil, abc, []int64{66, 100, 100}},
		{"matchLabelKeys ANDed with LabelSelector when LabelSelector is empty", func(p *api.Pod) {
			p.Labels["bar"] = ""
			c1, c2 := spread("zone", 1, sa, &api.LabelSelector{}), spread(host, 1, sa, &api.LabelSelector{})
			c1.MatchLabelKeys, c2.MatchLabelKeys = []string{"foo"}, []string{"bar"}
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{c1, c2}
		}, []*api.Node{zoned("node-a", "zone1", true), zoned("node-b", "zone1", true), zoned("node-c", "zone2", true), zoned("node-d", "zone2", true)}, nil,
			cat(on("node-a", 1, foo...), on("node-b", 1, fooBar...), on("node-c", 1, foo...), on("node-c", 1, bar...)), []int64{60, 20, 60, 100}},
		{"matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty", func(p *api.Pod) {
			p.Labels["bar"], p.Labels["baz"] = "", ""
			c2 := spread(host, 1, sa, selBarExists)
			c2.MatchLabelKeys = []string{"baz"}
			p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread("zone", 1, sa, selFooExists), c2}
		}, []*api.Node{zoned("node-a", "zone1", true), zoned("node-b", "zone1", true), zoned("node-c", "zone2", true), zoned("node-d", "zone2", true)}, nil,
			cat(on("node-a", 1, foo...), on("node-b", 1, "foo", "", "bar", "", "baz", ""), on("node-c", 1, foo...), on("node-c", 1, bar...), on("node-c", 1, "bar", "", "baz", "")),
			[]int64{60, 20, 60, 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := labelled("p", "", foo...)
			tc.pod(pod)
			if got := spreadScores(pod, tc.nodes, tc.failed, tc.existing); !slices.Equal(got, tc.want) {
				t.Errorf("scores %v, want %v", got, tc.want)
			}
		})
	}
}

// TestInterPodAffinityScore ports rows of k/k interpodaffinity's
// TestPreferredAffinity (scoring_test.go at 030880a5), with upstream's
// names and normalized scores; the rows with namespaceSelector terms
// (not modelled) and with invalid selectors (the API server rejects them)
// are left out. A nil result is upstream's Skip.
func TestInterPodAffinityScore(t *testing.T) {
	china, india := []string{"region", "China"}, []string{"region", "India"}
	az1, az2 := []string{"az", "az1"}, []string{"az", "az2"}
	chinaAz1 := []string{"region", "China", "az", "az1"}
	s1, s2 := []string{"security", "S1"}, []string{"security", "S2"}
	in := func(v ...string) *api.LabelSelector {
		return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "security", Operator: api.LabelSelectorOpIn, Values: v}}}
	}
	weighted := func(w int32, key string, sel *api.LabelSelector) api.WeightedPodAffinityTerm {
		return api.WeightedPodAffinityTerm{Weight: w, PodAffinityTerm: api.PodAffinityTerm{LabelSelector: sel, TopologyKey: key}}
	}
	prefer := func(terms ...api.WeightedPodAffinityTerm) *api.Affinity {
		return &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: terms}}
	}
	avoid := func(terms ...api.WeightedPodAffinityTerm) *api.Affinity {
		return &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: terms}}
	}
	stayWithS1InRegion := prefer(weighted(5, "region", in("S1")))
	stayWithS2InRegion := prefer(weighted(6, "region", in("S2")))
	affinity3 := prefer(
		weighted(8, "region", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "security", Operator: api.LabelSelectorOpNotIn, Values: []string{"S1"}}, {Key: "security", Operator: api.LabelSelectorOpIn, Values: []string{"S2"}}}}),
		weighted(2, "region", &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "security", Operator: api.LabelSelectorOpExists}, {Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist}}}))
	hardAffinity := &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
		{LabelSelector: in("S1", "value2"), TopologyKey: "region"},
		{LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "security", Operator: api.LabelSelectorOpExists}, {Key: "wrongkey", Operator: api.LabelSelectorOpDoesNotExist}}}, TopologyKey: "region"},
	}}}
	awayFromS1InAz := avoid(weighted(5, "az", in("S1")))
	awayFromS2InAz := avoid(weighted(5, "az", in("S2")))
	stayWithS1InRegionAwayFromS2InAz := &api.Affinity{PodAffinity: prefer(weighted(8, "region", in("S1"))).PodAffinity,
		PodAntiAffinity: avoid(weighted(5, "az", in("S2"))).PodAntiAffinity}
	node := func(name string, labels []string) *api.Node { return labelledNode(name, labels...) }
	n := 0
	on := func(node string, labels []string, a *api.Affinity) *api.Pod {
		n++
		return withAffinity(labelled(fmt.Sprintf("e%d", n), node, labels...), a)
	}
	tests := []struct {
		name     string
		pod      *api.Pod
		existing []*api.Pod
		nodes    []*api.Node
		want     []int64
	}{
		{"all nodes are same priority as Affinity is nil", labelled("p", "", s1...), nil,
			[]*api.Node{node("node1", china), node("node2", india), node("node3", az1)}, nil},
		{"Affinity: pod that matches topology key & pods in nodes will get high score comparing to otherswhich doesn't match either pods in nodes or in topology key",
			withAffinity(labelled("p", "", s1...), stayWithS1InRegion),
			[]*api.Pod{on("node1", s1, nil), on("node2", s2, nil), on("node3", s1, nil)},
			[]*api.Node{node("node1", china), node("node2", india), node("node3", az1)}, []int64{100, 0, 0}},
		{"All the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules, have the same score",
			withAffinity(labelled("p", ""), stayWithS1InRegion), []*api.Pod{on("node1", s1, nil)},
			[]*api.Node{node("node1", china), node("node2", chinaAz1), node("node3", india)}, []int64{100, 100, 0}},
		{"Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more matches will get high score",
			withAffinity(labelled("p", "", s1...), stayWithS2InRegion),
			[]*api.Pod{on("node1", s2, nil), on("node1", s2, nil), on("node2", s2, nil), on("node3", s2, nil), on("node4", s2, nil), on("node5", s2, nil)},
			[]*api.Node{node("node1", china), node("node2", india), node("node3", china), node("node4", china), node("node5", india)},
			[]int64{100, 0, 100, 100, 0}},
		{"Affinity: different Label operators and values for pod affinity scheduling preference, including some match failures ",
			withAffinity(labelled("p", "", s1...), affinity3),
			[]*api.Pod{on("node1", s1, nil), on("node2", s2, nil), on("node3", s1, nil)},
			[]*api.Node{node("node1", china), node("node2", india), node("node3", az1)}, []int64{20, 100, 0}},
		{"Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
			labelled("p", "", s2...), []*api.Pod{on("node1", s1, stayWithS1InRegion), on("node2", s2, stayWithS2InRegion)},
			[]*api.Node{node("node1", china), node("node2", india), node("node3", az1)}, []int64{0, 100, 0}},
		{"Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry",
			labelled("p", "", s1...), []*api.Pod{on("node1", s1, hardAffinity), on("node2", s2, hardAffinity)},
			[]*api.Node{node("node1", china), node("node2", india), node("node3", az1)}, []int64{100, 100, 0}},
		{"Anti Affinity: pod that does not match existing pods in node will get high score ",
			withAffinity(labelled("p", "", s1...), awayFromS1InAz), []*api.Pod{on("node1", s1, nil), on("node2", s2, nil)},
			[]*api.Node{node("node1", az1), node("node2", china)}, []int64{0, 100}},
		{"Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others ",
			withAffinity(labelled("p", "", s1...), awayFromS1InAz), []*api.Pod{on("node1", s1, nil), on("node2", s1, nil)},
			[]*api.Node{node("node1", az1), node("node2", china)}, []int64{0, 100}},
		{"Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches will get high score",
			withAffinity(labelled("p", "", s1...), awayFromS1InAz), []*api.Pod{on("node1", s1, nil), on("node1", s1, nil), on("node2", s2, nil)},
			[]*api.Node{node("node1", az1), node("node2", india)}, []int64{0, 100}},
		{"Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score",
			labelled("p", "", s2...), []*api.Pod{on("node1", s1, awayFromS2InAz), on("node2", s2, awayFromS1InAz)},
			[]*api.Node{node("node1", az1), node("node2", az2)}, []int64{0, 100}},
		{"Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity",
			withAffinity(labelled("p", "", s1...), stayWithS1InRegionAwayFromS2InAz), []*api.Pod{on("node1", s1, nil), on("node2", s1, nil)},
			[]*api.Node{node("node1", china), node("node2", az1)}, []int64{100, 0}},
		{"Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels",
			withAffinity(labelled("p", "", s1...), stayWithS1InRegionAwayFromS2InAz),
			[]*api.Pod{on("node1", s1, nil), on("node1", s1, nil), on("node2", s1, nil), on("node3", s1, nil), on("node3", s1, nil), on("node4", s1, nil), on("node5", s1, nil)},
			[]*api.Node{node("node1", chinaAz1), node("node2", india), node("node3", china), node("node4", china), node("node5", india)},
			[]int64{100, 0, 100, 100, 0}},
		{"Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry",
			withAffinity(labelled("p", "", s1...), stayWithS1InRegionAwayFromS2InAz),
			[]*api.Pod{on("node1", s1, nil), on("node2", s2, nil), on("node3", nil, stayWithS1InRegionAwayFromS2InAz), on("node4", nil, awayFromS1InAz)},
			[]*api.Node{node("node1", china), node("node2", az1), node("node3", india), node("node4", az2)}, []int64{100, 0, 100, 0}},
		{"Avoid panic when partial nodes in a topology don't have pods with affinity",
			labelled("p", "", s1...), []*api.Pod{on("node1", s1, nil), on("node2", nil, stayWithS1InRegionAwayFromS2InAz)},
			[]*api.Node{node("node1", china), node("node2", china)}, []int64{0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestCache(tc.nodes, tc.existing...)
			var fs []*nodeInfo
			for _, n := range tc.nodes {
				fs = append(fs, c.nodes[n.Name])
			}
			out := make([]int64, len(fs))
			var got []int64
			if _, ok := c.interPodScoreIndexed(newPodInfo(tc.pod), fs, out, nil); ok {
				got = out
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("scores %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPodTopologySpreadFilterStatuses ports more rows of k/k
// podtopologyspread's TestSingleConstraint and the first seven of
// TestMultipleConstraints (filtering_test.go at 01c2588b), with the reason of each node that fails PodTopologySpread
// (upstream's Unschedulable is ReasonTopologySpread, its
// UnschedulableAndUnresolvable the missing-label reason). Upstream runs
// the plugin alone; here a node that NodeAffinity or TaintToleration
// rejects first is left out of the comparison, as upstream's comments
// ("in real case, it's false") say.
func TestPodTopologySpreadFilterStatuses(t *testing.T) {
	const skew, label = ReasonTopologySpread, ReasonTopologySpreadLabel
	node := func(name string, kv ...string) *api.Node { return labelledNode(name, kv...) }
	four := func() []*api.Node {
		return []*api.Node{node("node-a", "zone", "zone1", "node", "node-a"), node("node-b", "zone", "zone1", "node", "node-b"),
			node("node-x", "zone", "zone2", "node", "node-x"), node("node-y", "zone", "zone2", "node", "node-y")}
	}
	foo := []string{"foo", ""}
	cat := func(groups ...[]*api.Pod) []*api.Pod { return slices.Concat(groups...) }
	c := func(key string, maxSkew int32, sel *api.LabelSelector) api.TopologySpreadConstraint {
		return spread(key, maxSkew, api.DoNotSchedule, sel)
	}
	minDomains := func(tc api.TopologySpreadConstraint, n int32) api.TopologySpreadConstraint {
		tc.MinDomains = &n
		return tc
	}
	terminating := labelled("p-a", "node-a", foo...)
	terminating.DeletionTimestamp = &api.Time{}
	notIn := func(key string, v ...string) *api.Affinity {
		return required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr(key, api.NodeSelectorOpNotIn, v...)}})
	}
	inAff := func(key string, v ...string) *api.Affinity {
		return required(api.NodeSelectorTerm{MatchExpressions: []api.NodeSelectorRequirement{expr(key, api.NodeSelectorOpIn, v...)}})
	}
	tests := []struct {
		name     string
		labels   []string
		cs       []api.TopologySpreadConstraint
		affinity *api.Affinity
		nodes    []*api.Node
		existing []*api.Pod
		want     map[string]string
	}{
		{"no existing pods, incoming pod doesn't match itself", foo, []api.TopologySpreadConstraint{c("zone", 1, selBarExists)}, nil, four(), nil,
			map[string]string{}},
		{"existing pods in a different namespace do not count", foo, []api.TopologySpreadConstraint{c("zone", 1, selFooExists)}, nil, four(),
			cat([]*api.Pod{inNamespace(labelled("p-a1", "node-a", foo...), "ns1"), inNamespace(labelled("p-b1", "node-a", foo...), "ns2")},
				on("node-x", 1, foo...), on("node-y", 1, foo...)),
			map[string]string{"node-x": skew, "node-y": skew}},
		{"existing pods do not match null selector", foo, []api.TopologySpreadConstraint{c("zone", 1, nil)}, nil, four(),
			cat(on("node-x", 1, foo...), on("node-y", 1, foo...)), map[string]string{}},
		{"pods spread across zones as 1/2 due to absence of label 'zone' on node-b", foo, []api.TopologySpreadConstraint{c("zone", 1, selFooExists)}, nil,
			[]*api.Node{node("node-a", "zone", "zone1", "node", "node-a"), node("node-b", "zon", "zone1", "node", "node-b"),
				node("node-x", "zone", "zone2", "node", "node-x"), node("node-y", "zone", "zone2", "node", "node-y")},
			cat(on("node-a", 1, foo...), on("node-b", 1, foo...), on("node-x", 1, foo...), on("node-y", 1, foo...)),
			map[string]string{"node-b": label, "node-x": skew, "node-y": skew}},
		{"pod cannot be scheduled as all nodes don't have label 'rack'", foo, []api.TopologySpreadConstraint{c("rack", 1, selFooExists)}, nil,
			[]*api.Node{node("node-a", "zone", "zone1", "node", "node-a"), node("node-x", "zone", "zone2", "node", "node-x")}, nil,
			map[string]string{"node-a": label, "node-x": label}},
		{"pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit", foo, []api.TopologySpreadConstraint{c("node", 2, selFooExists)}, nil, four(),
			cat(on("node-a", 2, foo...), on("node-b", 1, foo...), on("node-y", 3, foo...)), map[string]string{"node-a": skew, "node-y": skew}},
		{"pods spread across nodes as 2/1/0/3, but pod doesn't match itself", []string{"bar", ""}, []api.TopologySpreadConstraint{c("node", 1, selFooExists)}, nil, four(),
			cat(on("node-a", 2, foo...), on("node-b", 1, foo...), on("node-y", 3, foo...)), map[string]string{"node-a": skew, "node-y": skew}},
		{"incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits", foo, []api.TopologySpreadConstraint{c("node", 1, selFooExists)},
			inAff("node", "node-a", "node-y"), four(), cat(on("node-a", 2, foo...), on("node-b", 1, foo...), on("node-y", 3, foo...)),
			map[string]string{"node-y": skew}},
		{"terminating Pods should be excluded", foo, []api.TopologySpreadConstraint{c("node", 1, selFooExists)}, nil,
			[]*api.Node{node("node-a", "node", "node-a"), node("node-b", "node", "node-b")}, []*api.Pod{terminating, labelled("p-b", "node-b", foo...)},
			map[string]string{"node-b": skew}},
		{"incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits", foo, []api.TopologySpreadConstraint{c("zone", 1, selFooExists)},
			notIn("node", "node-b"), four(), cat(on("node-b", 2, foo...), on("node-y", 1, foo...)), map[string]string{"node-x": skew, "node-y": skew}},
		{"pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits", foo,
			[]api.TopologySpreadConstraint{minDomains(c("node", 2, selFooExists), 4)}, nil,
			[]*api.Node{node("node-a", "node", "node-a"), node("node-b", "node", "node-b"), node("node-c", "node", "node-c")},
			cat(on("node-a", 2, foo...), on("node-b", 2, foo...), on("node-c", 1, foo...)), map[string]string{"node-a": skew, "node-b": skew}},
		{"pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit", foo,
			[]api.TopologySpreadConstraint{minDomains(c("node", 2, selFooExists), 2)}, nil,
			[]*api.Node{node("node-a", "node", "node-a"), node("node-b", "node", "node-b"), node("node-c", "node", "node-c")},
			cat(on("node-a", 2, foo...), on("node-b", 2, foo...), on("node-c", 1, foo...)), map[string]string{}},
		{"pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit", foo,
			[]api.TopologySpreadConstraint{minDomains(c("zone", 2, selFooExists), 1)}, nil, four(),
			cat(on("node-a", 1, foo...), on("node-b", 1, foo...), on("node-y", 1, foo...)), map[string]string{}},
		// TestMultipleConstraints.
		{"two Constraints on zone and node, spreads = [3/3, 2/1/0/3]", foo,
			[]api.TopologySpreadConstraint{c("zone", 1, selFooExists), c("node", 1, selFooExists)}, nil, four(),
			cat(on("node-a", 2, foo...), on("node-b", 1, foo...), on("node-y", 3, foo...)),
			map[string]string{"node-a": skew, "node-b": skew, "node-y": skew}},
		{"two Constraints on zone and node, spreads = [3/4, 2/1/0/4]", foo,
			[]api.TopologySpreadConstraint{c("zone", 1, selFooExists), c("node", 1, selFooExists)}, nil, four(),
			cat(on("node-a", 2, foo...), on("node-b", 1, foo...), on("node-y", 4, foo...)),
			map[string]string{"node-a": skew, "node-b": skew, "node-x": skew, "node-y": skew}},
		{"Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]", []string{"foo", "", "bar", ""},
			[]api.TopologySpreadConstraint{c("zone", 1, selFooExists), c("node", 1, selBarExists)}, nil, four(),
			cat(on("node-a", 1, foo...), on("node-y", 1, "bar", "")), map[string]string{"node-a": skew, "node-b": skew, "node-y": skew}},
		{"Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]", []string{"foo", "", "bar", ""},
			[]api.TopologySpreadConstraint{c("zone", 1, selFooExists), c("node", 1, selBarExists)}, nil, four(),
			cat(on("node-a", 1, foo...), on("node-x", 1, "bar", ""), on("node-y", 1, "bar", "")),
			map[string]string{"node-a": skew, "node-b": skew, "node-x": skew, "node-y": skew}},
		{"Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]", []string{"foo", "", "bar", ""},
			[]api.TopologySpreadConstraint{c("zone", 1, selFooExists), c("node", 1, selBarExists)}, nil, four(),
			cat(on("node-a", 1, foo...), on("node-a", 1, "foo", "", "bar", ""), on("node-y", 2, foo...), on("node-y", 1, "foo", "", "bar", "")),
			map[string]string{"node-a": skew, "node-x": skew, "node-y": skew}},
		{"Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint", []string{"bar", ""},
			[]api.TopologySpreadConstraint{c("zone", 1, selFooExists), c("node", 1, selBarExists)}, nil, four(),
			cat(on("node-a", 1, foo...), on("node-x", 1, "bar", ""), on("node-y", 1, "bar", "")), map[string]string{"node-x": skew, "node-y": skew}},
		{"two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]", foo,
			[]api.TopologySpreadConstraint{c("zone", 1, selFooExists), c("node", 1, selFooExists)}, nil,
			[]*api.Node{node("node-a", "zone", "zone1", "node", "node-a"), node("node-b", "zone", "zone1", "node", "node-b"),
				node("node-x", "zone", "zone2"), node("node-y", "zone", "zone2", "node", "node-y")},
			cat(on("node-a", 1, foo...), on("node-y", 1, foo...)), map[string]string{"node-a": skew, "node-x": label, "node-y": skew}},
		{"NodeAffinityPolicy honored with nodeAffinity", foo, []api.TopologySpreadConstraint{c("node", 1, selFooExists)}, inAff("foo", ""),
			[]*api.Node{node("node-a", "node", "node-a", "foo", ""), node("node-b", "node", "node-b", "foo", ""), node("node-x", "node", "node-x", "foo", ""), node("node-y", "node", "node-y")},
			cat(on("node-a", 1, foo...), on("node-b", 1, foo...), on("node-y", 1, foo...)), map[string]string{"node-a": skew, "node-b": skew}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := labelled("p", "", tc.labels...)
			pod.Spec.TopologySpreadConstraints = tc.cs
			pod.Spec.Affinity = tc.affinity
			got := filterAll(pod, tc.nodes, tc.existing)
			for n, r := range got {
				if r == ReasonNodeAffinity || r == ReasonUntoleratedTaint {
					delete(got, n)
				}
			}
			if !mapsEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestInterPodAffinityFilterSingleNode ports more rows of k/k
// interpodaffinity's TestRequiredAffinitySingleNode (filtering_test.go
// read at 007f7ae7) on its node machine1 (region r1, zone z11): the
// reason the pod fails there, "" when it fits.
func TestInterPodAffinityFilterSingleNode(t *testing.T) {
	sel := func(reqs ...api.LabelSelectorRequirement) *api.LabelSelector {
		return &api.LabelSelector{MatchExpressions: reqs}
	}
	req := func(key string, op api.LabelSelectorOperator, v ...string) api.LabelSelectorRequirement {
		return api.LabelSelectorRequirement{Key: key, Operator: op, Values: v}
	}
	in, notIn, exists, dne := api.LabelSelectorOpIn, api.LabelSelectorOpNotIn, api.LabelSelectorOpExists, api.LabelSelectorOpDoesNotExist
	tm := func(key string, s *api.LabelSelector) api.PodAffinityTerm {
		return api.PodAffinityTerm{LabelSelector: s, TopologyKey: key}
	}
	both := func(aff, anti []api.PodAffinityTerm) *api.Affinity {
		return &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: aff},
			PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: anti}}
	}
	scan := []string{"service", "securityscan"}
	s1 := []string{"security", "S1"}
	inScan := sel(req("service", in, "securityscan", "value2"))
	inAnti := sel(req("service", in, "antivirusscan", "value2"))
	tests := []struct {
		name     string
		labels   []string
		affinity *api.Affinity
		existing []*api.Pod
		want     string
	}{
		{"satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod",
			s1, both([]api.PodAffinityTerm{tm("region", sel(req("service", notIn, "securityscan3", "value3")))}, nil),
			[]*api.Pod{labelled("e", "machine1", scan...)}, ""},
		{"Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
			scan, both([]api.PodAffinityTerm{tm("region", sel(req("service", in, "antivirusscan", "value2")))}, nil),
			[]*api.Pod{labelled("e", "machine1", scan...)}, ReasonPodAffinity},
		{"satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution ",
			s1, both([]api.PodAffinityTerm{tm("region", sel(req("service", exists), req("wrongkey", dne))),
				tm("region", sel(req("service", in, "securityscan"), req("service", notIn, "WrongValue")))}, nil),
			[]*api.Pod{labelled("e", "machine1", scan...)}, ""},
		{"The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
			s1, both([]api.PodAffinityTerm{tm("region", sel(req("service", exists), req("wrongkey", dne))),
				tm("region", sel(req("service", in, "securityscan2"), req("service", notIn, "WrongValue")))}, nil),
			[]*api.Pod{labelled("e", "machine1", scan...)}, ReasonPodAffinity},
		{"satisfies the PodAffinity and PodAntiAffinity with the existing pod",
			s1, both([]api.PodAffinityTerm{tm("region", inScan)}, []api.PodAffinityTerm{tm("node", inAnti)}),
			[]*api.Pod{labelled("e", "machine1", scan...)}, ""},
		{"satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod",
			s1, both([]api.PodAffinityTerm{tm("region", inScan)}, []api.PodAffinityTerm{tm("node", inAnti)}),
			[]*api.Pod{withAffinity(labelled("e", "machine1", scan...), both(nil, []api.PodAffinityTerm{tm("node", inAnti)}))}, ""},
		{"satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod",
			s1, both([]api.PodAffinityTerm{tm("region", inScan)}, []api.PodAffinityTerm{tm("zone", inScan)}),
			[]*api.Pod{labelled("e", "machine1", scan...)}, ReasonPodAntiAffinity},
		{"satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
			scan, both([]api.PodAffinityTerm{tm("region", inScan)}, []api.PodAffinityTerm{tm("node", inAnti)}),
			[]*api.Pod{withAffinity(labelled("e", "machine1", scan...), both(nil, []api.PodAffinityTerm{tm("zone", inScan)}))}, ReasonExistingAntiAffinity},
		{"pod matches its own Label in PodAffinity and that matches the existing pod Labels",
			scan, both([]api.PodAffinityTerm{tm("region", sel(req("service", notIn, "securityscan", "value2")))}, nil),
			[]*api.Pod{labelled("e", "machine2", scan...)}, ReasonPodAffinity},
		{"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod",
			scan, nil, []*api.Pod{withAffinity(labelled("e", "machine1", scan...), both(nil, []api.PodAffinityTerm{tm("zone", sel(req("service", notIn, "securityscan", "value2")))}))}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := withAffinity(labelled("p", "", tc.labels...), tc.affinity)
			got := filterAll(pod, []*api.Node{labelledNode("machine1", "region", "r1", "zone", "z11")}, tc.existing)["machine1"]
			if got != tc.want {
				t.Errorf("reason %q, want %q", got, tc.want)
			}
		})
	}
}
