package scheduler

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestCountMemoMatchesDirect changes random clusters one pod at a time
// (randomCluster.change: a pod added in a random namespace, removed,
// moved, relabelled, replaced by a status write, made terminating or
// not, finished, assumed and forgotten or confirmed) and after
// every change schedules a random pod with random spread constraints,
// both actions, drawn from a small pool so that consecutive pods share
// selectors as a Deployment's do. Every node's memoized count must equal
// countMatching's; newSpreadFilter's state and spreadScore's scores must
// equal those computed over copies of the nodes (which count directly);
// a preemption trial copy whose pods are removed and added must count
// its own pods; and two selectors with one identity must match the same
// pods.
func TestCountMemoMatchesDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	namespaces := []string{"default", "other"}
	randPod := func() *api.Pod {
		p := testPod("incoming", rl("cpu", "100m"))
		p.Namespace = namespaces[rng.IntN(2)]
		p.Labels = randomLabels(rng)
		for range 1 + rng.IntN(3) {
			c := api.TopologySpreadConstraint{
				MaxSkew: 1 + int32(rng.IntN(2)), TopologyKey: randomKeys[rng.IntN(len(randomKeys))],
				WhenUnsatisfiable: api.ScheduleAnyway, LabelSelector: randomSelector(rng),
			}
			if rng.IntN(2) == 0 {
				c.WhenUnsatisfiable = api.DoNotSchedule
			}
			if rng.IntN(3) == 0 {
				c.MatchLabelKeys = []string{"pod-template-hash"}
			}
			if rng.IntN(10) == 0 {
				honor := api.NodeInclusionPolicyHonor
				c.NodeTaintsPolicy = &honor
			}
			p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, c)
		}
		if rng.IntN(10) == 0 {
			p.Spec.NodeSelector = map[string]string{labelZone: "z1"}
		}
		return p
	}
	steps, checked, indexedChecked, indexedSkipped := 0, 0, 0, 0
	for cluster := range 150 {
		serial := 0
		rc := newRandomCluster(rng, func() *api.Pod {
			serial++
			p := testPod(fmt.Sprintf("p%d", serial))
			p.Namespace = namespaces[rng.IntN(2)]
			p.Labels = randomLabels(rng)
			return p
		})
		c := rc.c
		var pool []*api.Pod
		for range 3 {
			pool = append(pool, randPod())
		}
		for range 60 {
			steps++
			rc.change()
			if rng.IntN(5) == 0 {
				pool[rng.IntN(len(pool))] = randPod()
			}
			pod := pool[rng.IntN(len(pool))]
			pi := newPodInfo(pod)
			all := c.list()
			copies := make([]*nodeInfo, len(all))
			for i, ni := range all {
				cp := *ni
				copies[i] = &cp
			}
			cs := append(compileSpread(pod, api.ScheduleAnyway), compileSpread(pod, api.DoNotSchedule)...)
			// Twice: the second pass reads what the first remembered.
			for range 2 {
				for _, ni := range all {
					for i := range cs {
						got, want := ni.countCached(&cs[i], pod.Namespace), countMatching(ni, cs[i].sel, pod.Namespace)
						if got != want {
							t.Fatalf("cluster %d step %d: node %s, selector %q in %s: memo %d, direct %d", cluster, steps, ni.name, cs[i].selID, pod.Namespace, got, want)
						}
						checked++
					}
				}
			}
			if got, want := newSpreadFilter(pi, all), newSpreadFilter(pi, copies); !reflect.DeepEqual(got, want) {
				t.Fatalf("cluster %d step %d: spread filter %+v, direct %+v", cluster, steps, got, want)
			}
			// From the cache's counts by domain, twice (the second reads
			// what the first kept): each node's reason.
			for range 2 {
				fi, ok := c.spreadFilterIndexed(pi)
				if !ok {
					indexedSkipped++
					break
				}
				want := newSpreadFilter(pi, copies)
				if (fi == nil) != (want == nil) {
					t.Fatalf("cluster %d step %d: indexed spread filter %+v, direct %+v", cluster, steps, fi, want)
				}
				for _, ni := range all {
					if fi == nil {
						break
					}
					if g, w := fi.filter(ni), want.filter(&nodeInfo{node: ni.node}); g != w {
						t.Fatalf("cluster %d step %d: node %s: indexed spread filter %q (min %v), direct %q (min %v)", cluster, steps, ni.name, g, fi.min, w, want.min)
					}
				}
				indexedChecked++
			}
			feasible := slices.DeleteFunc(slices.Clone(all), func(*nodeInfo) bool { return rng.IntN(4) == 0 })
			var feasibleCopies []*nodeInfo
			for _, ni := range feasible {
				feasibleCopies = append(feasibleCopies, copies[slices.Index(all, ni)])
			}
			got, want := make([]int64, len(feasible)), make([]int64, len(feasible))
			okGot, okWant := spreadScore(pi, all, feasible, got), spreadScore(pi, copies, feasibleCopies, want)
			if okGot != okWant || !slices.Equal(got, want) {
				t.Fatalf("cluster %d step %d: spread scores %v, direct %v", cluster, steps, got, want)
			}
			indexed := make([]int64, len(feasible))
			if okIdx, ok := c.spreadScoreIndexed(pi, feasible, indexed); ok && (okIdx != okWant || !slices.Equal(indexed, want)) {
				t.Fatalf("cluster %d step %d: indexed spread scores %v (%v), direct %v (%v)", cluster, steps, indexed, okIdx, want, okWant)
			}
			// A preemption trial shares its node's memo pointer; it must
			// count its own pods, and leave the node's counts alone.
			ni := all[rng.IntN(len(all))]
			if len(ni.entries) > 0 {
				tr := newTrial(ni)
				e := tr.entries[rng.IntN(len(tr.entries))]
				tr.remove(e)
				for i := range cs {
					if got, want := tr.countCached(&cs[i], pod.Namespace), countMatching(&tr.nodeInfo, cs[i].sel, pod.Namespace); got != want {
						t.Fatalf("cluster %d step %d: trial of %s: memo %d, direct %d", cluster, steps, ni.name, got, want)
					}
				}
				tr.add(e)
				for i := range cs {
					if got, want := ni.countCached(&cs[i], pod.Namespace), countMatching(ni, cs[i].sel, pod.Namespace); got != want {
						t.Fatalf("cluster %d step %d: node %s after a trial: memo %d, direct %d", cluster, steps, ni.name, got, want)
					}
				}
			}
		}
	}
	t.Logf("%d steps, %d counts compared, %d indexed filter states (%d pods counted node by node)", steps, checked, indexedChecked, indexedSkipped)
}

// TestSelectorID: Everything and Nothing both print "", but only
// Nothing is left out of the memos; selectors matching different labels
// have different identities.
func TestSelectorID(t *testing.T) {
	sel := func(ls *api.LabelSelector) api.Selector {
		s, err := api.LabelSelectorAsSelector(ls)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ids := map[string]string{}
	for name, s := range map[string]api.Selector{
		"everything": api.Everything(),
		"app=a":      sel(&api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}),
		"app=b":      sel(&api.LabelSelector{MatchLabels: map[string]string{"app": "b"}}),
		"app,tier":   sel(&api.LabelSelector{MatchLabels: map[string]string{"app": "a", "tier": "x"}}),
		"in":         sel(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"a", "b"}}}}),
		"notin":      sel(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpNotIn, Values: []string{"a", "b"}}}}),
		"exists":     sel(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpExists}}}),
		"!exists":    sel(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpDoesNotExist}}}),
	} {
		id := selectorID(s)
		if id == "" {
			t.Errorf("%s: empty identity", name)
		}
		if other, ok := ids[id]; ok {
			t.Errorf("%s and %s share identity %q", name, other, id)
		}
		ids[id] = name
	}
	// One selector written two ways (values repeated and in another
	// order, requirements in another order) is one identity: the counts
	// it remembers are shared.
	a := sel(&api.LabelSelector{MatchLabels: map[string]string{"tier": "x"}, MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"b", "a"}}, {Key: "tier", Operator: api.LabelSelectorOpExists}}})
	b := sel(&api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpExists}, {Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"a", "b", "a"}}}, MatchLabels: map[string]string{"tier": "x"}})
	if selectorID(a) != selectorID(b) {
		t.Errorf("one selector written two ways: identities %q and %q", selectorID(a), selectorID(b))
	}
	if id := selectorID(api.Nothing()); id != "" {
		t.Errorf("Nothing: identity %q, want \"\"", id)
	}
}

// TestCountMemoHoldsTenSelectors checks that a node remembers the counts
// of ten selectors used in turn, as the pods of ten Deployments started
// together reach the scheduler: after one round of counts, a pod added
// to the node without telling the memo (no touch) leaves every count of
// a second round as the memo has it; a count made again would see it.
func TestCountMemoHoldsTenSelectors(t *testing.T) {
	c := newCache()
	n := testNode("n1", rl("cpu", "64", "pods", "110"))
	n.Labels[labelHostname] = n.Name
	c.setNode(n)
	for i := range 10 {
		p := testPod(fmt.Sprintf("p%d", i))
		p.Labels = map[string]string{"app": fmt.Sprintf("app-%d", i)}
		p.Spec.NodeName = n.Name
		c.setPod(p)
	}
	ni := c.nodes[n.Name]
	cs := make([]spreadConstraint, 10)
	for i := range cs {
		cs[i].sel = api.SelectorFromSet(map[string]string{"app": fmt.Sprintf("app-%d", i)})
		cs[i].selID = selectorID(cs[i].sel)
	}
	for i := range cs {
		if got := ni.countCached(&cs[i], "default"); got != 1 {
			t.Fatalf("selector %s: %d pods, want 1", cs[i].selID, got)
		}
	}
	// A pod of every app, behind the memo's back.
	hidden := testPod("hidden")
	hidden.Labels = map[string]string{"app": "app-0"}
	hidden.Spec.NodeName = n.Name
	for i := range cs {
		hidden.Labels["app"] = fmt.Sprintf("app-%d", i)
		ni.entries = append(ni.entries, &podEntry{pod: hidden.DeepCopyObject().(*api.Pod)})
	}
	for i := range cs {
		if got := ni.countCached(&cs[i], "default"); got != 1 {
			t.Errorf("selector %s: counted again (%d pods): the memo did not hold ten selectors", cs[i].selID, got)
		}
	}
}
