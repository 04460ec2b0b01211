package scheduler

import (
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// exists is a label selector requirement "key exists".
func exists(key string) api.LabelSelectorRequirement {
	return api.LabelSelectorRequirement{Key: key, Operator: api.LabelSelectorOpExists}
}

// inValues is a label selector requirement "key in (values)".
func inValues(key string, values ...string) api.LabelSelectorRequirement {
	return api.LabelSelectorRequirement{Key: key, Operator: api.LabelSelectorOpIn, Values: values}
}

// reqTerm is a required pod (anti-)affinity term on key with the
// selector's requirements.
func reqTerm(key string, reqs ...api.LabelSelectorRequirement) api.PodAffinityTerm {
	return api.PodAffinityTerm{TopologyKey: key, LabelSelector: &api.LabelSelector{MatchExpressions: reqs}}
}

// podAffinity is upstream's createPodWithAffinityTerms: required
// affinity and anti-affinity terms (either may be nil).
func podAffinity(affinity, anti []api.PodAffinityTerm) *api.Affinity {
	return &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: affinity},
		PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: anti}}
}

func terms(t ...api.PodAffinityTerm) []api.PodAffinityTerm { return t }

// TestInterPodAffinityFilterMultipleNodes ports the rows of k/k
// interpodaffinity's TestRequiredAffinityMultipleNodes and the rows of
// TestRequiredAffinitySingleNode that TestInterPodAffinityFilterSingleNode
// does not hold (filtering_test.go in its st.MakePod form, whose Filter
// checks affinity, then the pod's anti-affinity, then existing pods'
// anti-affinity, as filtering.go does since 1.19: the older copy read at
// 007f7ae7 expected existing pods' anti-affinity first in the symmetry
// rows b1 and b2): the reason InterPodAffinity gives on each node, ""
// when the pod fits. The rows "PodAffinity fails PreFilter with an
// invalid affinity label syntax" and "PodAntiAffinity fails PreFilter
// with an invalid antiaffinity label syntax" cannot apply: the API
// server rejects such selectors on create. Upstream's Unschedulable anti-affinity reasons are
// ReasonPodAntiAffinity and ReasonExistingAntiAffinity here, its
// UnschedulableAndUnresolvable affinity reason ReasonPodAffinity.
func TestInterPodAffinityFilterMultipleNodes(t *testing.T) {
	rgChina := []string{"region", "China"}
	rgChinaAz1 := []string{"region", "China", "az", "az1"}
	rgIndia := []string{"region", "India"}
	node := func(name string, kv ...string) *api.Node { return labelledNode(name, kv...) }
	host := func(name, region, zone string) *api.Node {
		return labelledNode(name, "region", region, "zone", zone, "hostname", name)
	}
	r1z1 := []string{"region", "r1", "zone", "z11"}
	machine1 := func() []*api.Node { return []*api.Node{node("machine1", r1z1...)} }
	scan := []string{"service", "securityscan"}
	s1 := []string{"security", "S1"}
	const aff, anti, existing = ReasonPodAffinity, ReasonPodAntiAffinity, ReasonExistingAntiAffinity
	tests := []struct {
		name     string
		ns       string // the incoming pod's namespace; "" is default
		labels   []string
		affinity *api.Affinity
		existing []*api.Pod
		nodes    []*api.Node
		want     []string // per node
	}{
		// TestRequiredAffinitySingleNode, on machine1 (region r1, zone z11).
		{name: "satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
			labels:   scan,
			affinity: podAffinity(nil, terms(reqTerm("region", exists("service")), reqTerm("region", exists("security")))),
			existing: []*api.Pod{withAffinity(labelled("e", "machine1", s1...), podAffinity(nil, terms(reqTerm("zone", exists("security")))))},
			nodes:    machine1(), want: []string{anti}},
		{name: "PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms",
			labels:   scan,
			affinity: podAffinity(nil, terms(reqTerm("zone", exists("service")), reqTerm("zone", exists("security")))),
			existing: []*api.Pod{withAffinity(labelled("e", "machine1", s1...), podAffinity(nil, terms(reqTerm("zone", exists("security")))))},
			nodes:    machine1(), want: []string{anti}},
		{name: "PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms",
			labels:   s1,
			affinity: podAffinity(nil, terms(reqTerm("zone", exists("security")))),
			existing: []*api.Pod{withAffinity(labelled("e", "machine1", scan...),
				podAffinity(nil, terms(reqTerm("zone", exists("service")), reqTerm("zone", exists("security")))))},
			nodes: machine1(), want: []string{existing}},
		{name: "PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms",
			labels:   []string{"abc", "", "xyz", ""},
			affinity: podAffinity(nil, terms(reqTerm("zone", exists("abc")), reqTerm("zone", exists("def")))),
			existing: []*api.Pod{withAffinity(labelled("e", "machine1", "def", "", "xyz", ""),
				podAffinity(nil, terms(reqTerm("zone", exists("abc")), reqTerm("zone", exists("def")))))},
			nodes: machine1(), want: []string{anti}},
		{name: "PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms",
			labels:   []string{"def", "", "xyz", ""},
			affinity: podAffinity(nil, terms(reqTerm("zone", exists("abc")), reqTerm("zone", exists("def")))),
			existing: []*api.Pod{withAffinity(labelled("e", "machine1", "abc", "", "xyz", ""),
				podAffinity(nil, terms(reqTerm("zone", exists("abc")), reqTerm("zone", exists("def")))))},
			nodes: machine1(), want: []string{anti}},
		{name: "verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
			labels:   scan,
			existing: []*api.Pod{withAffinity(labelled("e", "machine1", scan...), podAffinity(nil, terms(reqTerm("zone", inValues("service", "securityscan", "value2")))))},
			nodes:    machine1(), want: []string{existing}},
		// The term has no topology key: no node has the label "".
		{name: "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod",
			labels:   scan,
			affinity: podAffinity(terms(reqTerm("", inValues("service", "antivirusscan", "value2"))), nil),
			existing: []*api.Pod{labelled("e", "machine1", scan...)},
			nodes:    machine1(), want: []string{aff}},
		// namespaceSelector {} selects every namespace; the rows whose
		// namespaceSelector selects namespaces by their labels ("affinity
		// with NamespaceSelector", "affinity with non-matching
		// NamespaceSelector", "anti-affinity with matching
		// NamespaceSelector", "anti-affinity with non-matching
		// NamespaceSelector") cannot apply: namespace labels are not
		// modelled (UnmodelledFields warns of such terms).
		{name: "anti-affinity with matching all NamespaceSelector", ns: "subteam1.team1", labels: s1,
			affinity: podAffinity(nil, terms(api.PodAffinityTerm{TopologyKey: "zone", NamespaceSelector: &api.LabelSelector{},
				LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{inValues("service", "securityscan", "value2")}}})),
			existing: []*api.Pod{inNamespace(labelled("e", "machine1", scan...), "subteam2.team1")},
			nodes:    machine1(), want: []string{anti}},
		// TestRequiredAffinityMultipleNodes.
		{name: "A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules",
			affinity: podAffinity(terms(reqTerm("region", inValues("foo", "bar"))), nil),
			existing: []*api.Pod{labelled("p1", "machine1", "foo", "bar")},
			nodes:    []*api.Node{node("machine1", rgChina...), node("machine2", rgChinaAz1...), node("machine3", rgIndia...)},
			want:     []string{"", "", aff}},
		{name: "The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection " +
			"should not be blocked from being scheduled onto any node, even there's no existing pod that matches the rule anywhere.",
			labels:   []string{"foo", "bar", "service", "securityscan"},
			affinity: podAffinity(terms(reqTerm("zone", inValues("foo", "bar")), reqTerm("zone", inValues("service", "securityscan"))), nil),
			existing: []*api.Pod{labelled("p1", "nodeA", "foo", "bar")},
			nodes:    []*api.Node{node("nodeA", "zone", "az1", "hostname", "h1"), node("nodeB", "zone", "az2", "hostname", "h2")},
			want:     []string{"", ""}},
		{name: "The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys",
			labels:   []string{"foo", "bar", "service", "securityscan"},
			affinity: podAffinity(terms(reqTerm("zone", inValues("foo", "bar")), reqTerm("zone", inValues("service", "securityscan"))), nil),
			existing: []*api.Pod{labelled("p1", "nodeA", "foo", "bar")},
			nodes:    []*api.Node{node("nodeA", "zoneLabel", "az1", "hostname", "h1"), node("nodeB", "zoneLabel", "az2", "hostname", "h2")},
			want:     []string{aff, aff}},
		{name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.",
			affinity: podAffinity(nil, terms(reqTerm("region", inValues("foo", "abc")))),
			existing: []*api.Pod{labelled("p1", "nodeA", "foo", "abc")},
			nodes:    []*api.Node{node("nodeA", "region", "r1", "hostname", "nodeA"), node("nodeB", "region", "r1", "hostname", "nodeB")},
			want:     []string{anti, anti}},
		{name: "This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.",
			affinity: podAffinity(nil, terms(reqTerm("region", inValues("foo", "abc")), reqTerm("zone", inValues("service", "securityscan")))),
			existing: []*api.Pod{labelled("p1", "nodeA", "foo", "abc", "service", "securityscan")},
			nodes:    []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z2")},
			want:     []string{anti, anti}},
		{name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC",
			affinity: podAffinity(nil, terms(reqTerm("region", inValues("foo", "abc")))),
			existing: []*api.Pod{labelled("p1", "nodeA", "foo", "abc")},
			nodes:    []*api.Node{node("nodeA", rgChina...), node("nodeB", rgChinaAz1...), node("nodeC", rgIndia...)},
			want:     []string{anti, anti, ""}},
		{name: "NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different namespace)",
			ns: "NS1", labels: []string{"foo", "123"},
			affinity: podAffinity(nil, terms(reqTerm("region", inValues("foo", "bar")))),
			existing: []*api.Pod{inNamespace(labelled("p1", "nodeA", "foo", "bar"), "NS1"),
				inNamespace(withAffinity(labelled("p2", "nodeC"), podAffinity(nil, terms(reqTerm("region", inValues("foo", "123"))))), "NS2")},
			nodes: []*api.Node{node("nodeA", rgChina...), node("nodeB", rgChinaAz1...), node("nodeC", rgIndia...)},
			want:  []string{anti, anti, ""}},
		{name: "Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also checked",
			labels:   []string{"foo", ""},
			existing: []*api.Pod{withAffinity(labelled("p1", "nodeA"), podAffinity(nil, terms(reqTerm("invalid-node-label", exists("foo")))))},
			nodes:    []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z1")},
			want:     []string{"", ""}},
		{name: "Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
			affinity: podAffinity(nil, terms(reqTerm("invalid-node-label", exists("foo")))),
			existing: []*api.Pod{labelled("p1", "nodeA", "foo", "")},
			nodes:    []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z1")},
			want:     []string{"", ""}},
		{name: "Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's terms on all nodes",
			labels: []string{"foo", "", "bar", ""},
			existing: []*api.Pod{withAffinity(labelled("p1", "nodeA"), podAffinity(nil, terms(reqTerm("zone", exists("foo"))))),
				withAffinity(labelled("p2", "nodeA"), podAffinity(nil, terms(reqTerm("region", exists("bar")))))},
			nodes: []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z2")},
			want:  []string{existing, existing}},
		{name: "Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one anti-affinity rule of existingPod",
			affinity: podAffinity(nil, terms(reqTerm("zone", exists("foo")), reqTerm("region", exists("bar")))),
			existing: []*api.Pod{labelled("p1", "nodeA", "foo", ""), labelled("p2", "nodeB", "bar", "")},
			nodes:    []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z2")},
			want:     []string{anti, anti}},
		{name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
			labels: []string{"foo", "", "bar", ""},
			existing: []*api.Pod{withAffinity(labelled("p1", "nodeA"),
				podAffinity(nil, terms(reqTerm("invalid-node-label", exists("foo")), reqTerm("zone", exists("bar")))))},
			nodes: []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z2")},
			want:  []string{existing, ""}},
		{name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
			affinity: podAffinity(nil, terms(reqTerm("invalid-node-label", exists("foo")), reqTerm("zone", exists("bar")))),
			existing: []*api.Pod{labelled("podA", "nodeA", "foo", "", "bar", "")},
			nodes:    []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z2")},
			want:     []string{anti, ""}},
		{name: "Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
			labels: []string{"foo", "", "bar", ""},
			existing: []*api.Pod{withAffinity(labelled("p1", "nodeA"),
				podAffinity(nil, terms(reqTerm("region", exists("foo")), reqTerm("zone", exists("bar")))))},
			nodes: []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z2")},
			want:  []string{existing, existing}},
		{name: "Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
			affinity: podAffinity(nil, terms(reqTerm("region", exists("foo")), reqTerm("zone", exists("bar")))),
			existing: []*api.Pod{labelled("p1", "nodeA", "foo", "", "bar", "")},
			nodes:    []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z2")},
			want:     []string{anti, anti}},
		{name: "Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
			labels: []string{"foo", "", "bar", ""},
			existing: []*api.Pod{withAffinity(labelled("p1", "nodeA"), podAffinity(nil, terms(reqTerm("zone", exists("foo")), reqTerm("zone", exists("labelA"))))),
				withAffinity(labelled("p2", "nodeB"), podAffinity(nil, terms(reqTerm("zone", exists("bar")), reqTerm("zone", exists("labelB")))))},
			nodes: []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z2"), host("nodeC", "r1", "z3")},
			want:  []string{existing, existing, ""}},
		{name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match",
			affinity: podAffinity(terms(reqTerm("region", exists("foo")), reqTerm("zone", exists("bar"))), nil),
			existing: []*api.Pod{labelled("pod1", "nodeA", "foo", "", "bar", "")},
			nodes:    []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z1")},
			want:     []string{"", ""}},
		{name: "Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match, and the match logic should be satisfied on the same pod",
			affinity: podAffinity(terms(reqTerm("region", exists("foo")), reqTerm("zone", exists("bar"))), nil),
			existing: []*api.Pod{labelled("pod1", "nodeA", "foo", ""), labelled("pod2", "nodeB", "bar", "")},
			nodes:    []*api.Node{host("nodeA", "r1", "z1"), host("nodeB", "r1", "z2")},
			want:     []string{aff, aff}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := withAffinity(labelled("p", "", tc.labels...), tc.affinity)
			if tc.ns != "" {
				pod.Namespace = tc.ns
			}
			got := filterAll(pod, tc.nodes, tc.existing)
			for i, n := range tc.nodes {
				if got[n.Name] != tc.want[i] {
					t.Errorf("%s: reason %q, want %q", n.Name, got[n.Name], tc.want[i])
				}
			}
		})
	}
}

// interPodScores runs InterPodAffinity's score over every node; nil is
// upstream's Skip.
func interPodScores(pod *api.Pod, nodes []*api.Node, pods []*api.Pod) []int64 {
	c := newTestCache(nodes, pods...)
	var fs []*nodeInfo
	for _, n := range nodes {
		fs = append(fs, c.nodes[n.Name])
	}
	out := make([]int64, len(fs))
	if _, ok := c.interPodScoreIndexed(newPodInfo(pod), fs, out, nil); !ok {
		return nil
	}
	return out
}

// TestInterPodAffinityScoreExistingTerms ports the rows of k/k
// interpodaffinity's TestPreferredAffinity (scoring_test.go at 030880a5)
// and TestPreferredAffinityWithHardPodAffinitySymmetricWeight that
// TestInterPodAffinityScore does not hold and the default profile can
// meet (hardPodAffinityWeight 1, ignorePreferredTermsOfExistingPods
// false). Rows that cannot apply: "Ignore preferred terms of existing
// pods" and "with zero weight" (plugin arguments the default profile
// does not set), "Affinity with pods matching NamespaceSelector", "Affinity
// with pods matching both NamespaceSelector and Namespaces fields" and
// "with matching NamespaceSelector" (namespace labels are not modelled),
// "invalid Affinity fails PreScore" and "invalid AntiAffinity fails
// PreScore" (the API server rejects such selectors), "No nodes to score"
// (the scheduler scores only when two or more nodes fit).
func TestInterPodAffinityScoreExistingTerms(t *testing.T) {
	china, india, az1 := []string{"region", "China"}, []string{"region", "India"}, []string{"az", "az1"}
	secIn := func(v string) *api.LabelSelector {
		return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{inValues("security", v)}}
	}
	weighted := func(w int32, key string, sel *api.LabelSelector) api.WeightedPodAffinityTerm {
		return api.WeightedPodAffinityTerm{Weight: w, PodAffinityTerm: api.PodAffinityTerm{LabelSelector: sel, TopologyKey: key}}
	}
	stayWithS2InRegion := &api.Affinity{PodAffinity: &api.PodAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{weighted(6, "region", secIn("S2"))}}}
	stayWithS1InRegionAwayFromS2InAz := &api.Affinity{
		PodAffinity:     &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{weighted(8, "region", secIn("S1"))}},
		PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{weighted(5, "az", secIn("S2"))}},
	}
	// hardPodAffinity's namespaceSelector (team in (team1)) selects by
	// namespace labels, which are not modelled: only its namespaces
	// list ("" and subteam2.team2) counts, which is what the rows ported
	// here exercise.
	hardPodAffinity := &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{
		LabelSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{inValues("service", "S1")}},
		Namespaces:    []string{"", "subteam2.team2"},
		NamespaceSelector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "team", Operator: api.LabelSelectorOpIn, Values: []string{"team1"}}}},
		TopologyKey: "region",
	}}}}
	ns := func(p *api.Pod, n string) *api.Pod { p.Namespace = n; return p }
	three := func() []*api.Node {
		return []*api.Node{labelledNode("node1", china...), labelledNode("node2", india...), labelledNode("node3", az1...)}
	}
	hardPods := func() []*api.Pod {
		return []*api.Pod{ns(withAffinity(labelled("e1", "node1"), hardPodAffinity), ""), ns(withAffinity(labelled("e2", "node2"), hardPodAffinity), "")}
	}
	tests := []struct {
		name     string
		pod      *api.Pod
		existing []*api.Pod
		nodes    []*api.Node
		want     []int64
	}{
		{"Do not ignore preferred terms of existing pods", labelled("p", "", "security", "S2"),
			[]*api.Pod{withAffinity(labelled("e1", "node1", "security", "S1"), stayWithS1InRegionAwayFromS2InAz),
				withAffinity(labelled("e2", "node2", "security", "S2"), stayWithS2InRegion)},
			[]*api.Node{labelledNode("node1", china...), labelledNode("node2", india...)}, []int64{0, 100}},
		// TestPreferredAffinityWithHardPodAffinitySymmetricWeight; upstream's
		// pods are in namespace "".
		{"with default weight", ns(labelled("p", "", "service", "S1"), ""), hardPods(), three(), []int64{100, 100, 0}},
		{"with no matching namespace", ns(labelled("p", "", "service", "S1"), "subteam1.team2"), hardPods(), three(), nil},
		{"with matching Namespaces", ns(labelled("p", "", "service", "S1"), "subteam2.team2"), hardPods(), three(), []int64{100, 100, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := interPodScores(tc.pod, tc.nodes, tc.existing); !slices.Equal(got, tc.want) {
				t.Errorf("scores %v, want %v", got, tc.want)
			}
		})
	}
}
