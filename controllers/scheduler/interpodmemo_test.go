package scheduler

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestInterPodMemoMatchesDirect changes random clusters one pod at a
// time (randomCluster.change, the pods made from a few workloads'
// templates of namespace, labels and random pod affinity and
// anti-affinity) and after every change
// runs InterPodAffinity's PreFilter and score for a pod drawn from a
// small pool (so that consecutive pods share terms, as a Deployment's
// do). Both must give, twice in a row (the second run reads what the
// first remembered), the states and scores upstream's pod-by-pod loops
// give (newInterPodFilterPodByPod, interPodScorePodByPod); so must a
// PreFilter over the nodes with a preemption trial, a copy of one node
// with a pod removed, in its place, and the node's own memo must be
// untouched by the trial.
func TestInterPodMemoMatchesDirect(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 13))
	namespaces := []string{"default", "other"}
	randTerm := func() api.PodAffinityTerm {
		t := api.PodAffinityTerm{TopologyKey: randomKeys[rng.IntN(len(randomKeys))], LabelSelector: randomSelector(rng)}
		switch rng.IntN(5) {
		case 0:
			t.NamespaceSelector = &api.LabelSelector{}
		case 1:
			t.Namespaces = []string{namespaces[rng.IntN(2)]}
		case 2:
			t.Namespaces = namespaces
		}
		if rng.IntN(4) == 0 {
			t.MatchLabelKeys = []string{"pod-template-hash"}
		}
		return t
	}
	randTerms := func() []api.PodAffinityTerm {
		var ts []api.PodAffinityTerm
		for range rng.IntN(3) {
			ts = append(ts, randTerm())
		}
		return ts
	}
	randWeighted := func() []api.WeightedPodAffinityTerm {
		var ts []api.WeightedPodAffinityTerm
		for range rng.IntN(3) {
			ts = append(ts, api.WeightedPodAffinityTerm{Weight: 1 + int32(rng.IntN(100)), PodAffinityTerm: randTerm()})
		}
		return ts
	}
	randAffinity := func() *api.Affinity {
		if rng.IntN(3) == 0 {
			return nil
		}
		a := &api.Affinity{}
		if rng.IntN(2) == 0 {
			a.PodAffinity = &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: randTerms(),
				PreferredDuringSchedulingIgnoredDuringExecution: randWeighted()}
		}
		if rng.IntN(3) > 0 {
			a.PodAntiAffinity = &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: randTerms(),
				PreferredDuringSchedulingIgnoredDuringExecution: randWeighted()}
		}
		return a
	}
	// template is what the pods of one workload share: namespace,
	// labels, affinity.
	type template struct {
		ns       string
		labels   map[string]string
		affinity *api.Affinity
	}
	randTemplate := func() template {
		return template{ns: namespaces[rng.IntN(2)], labels: randomLabels(rng), affinity: randAffinity()}
	}
	steps, compared, scored := 0, 0, 0
	for cluster := range 150 {
		var pool []template
		for range 4 {
			pool = append(pool, randTemplate())
		}
		serial := 0
		fromTemplate := func(tp template) *api.Pod {
			serial++
			p := testPod(fmt.Sprintf("p%d", serial))
			p.Namespace = tp.ns
			p.Labels = maps.Clone(tp.labels)
			p.Spec.Affinity = tp.affinity
			return p
		}
		rc := newRandomCluster(rng, func() *api.Pod { return fromTemplate(pool[rng.IntN(len(pool))]) })
		c := rc.c
		for range 60 {
			steps++
			rc.change()
			if rng.IntN(6) == 0 {
				pool[rng.IntN(len(pool))] = randTemplate()
			}
			pi := newPodInfo(fromTemplate(pool[rng.IntN(len(pool))]))
			all := c.list()
			feasible := slices.DeleteFunc(slices.Clone(all), func(*nodeInfo) bool { return rng.IntN(4) == 0 })
			for range 2 {
				where := fmt.Sprintf("cluster %d step %d", cluster, steps)
				checkInterPodFilter(t, where, pi, all, c)
				checkIndexedFilter(t, where, pi, all, c)
				want := make([]int64, len(feasible))
				okWant := interPodScorePodByPod(pi, all, feasible, c.withAffinity, want)
				indexed := make([]int64, len(feasible))
				if _, ok := c.interPodScoreIndexed(pi, feasible, indexed, nil); ok != okWant || !slices.Equal(indexed, want) {
					t.Fatalf("%s: indexed scores %v (%v), pod by pod %v (%v)", where, indexed, ok, want, okWant)
				}
				compared++
				if okWant {
					scored++
				}
			}
			ni := all[rng.IntN(len(all))]
			if len(ni.entries) > 0 {
				tr := newTrial(ni)
				tr.remove(tr.entries[rng.IntN(len(tr.entries))])
				at := slices.Index(all, ni)
				withTrial := slices.Clone(all)
				withTrial[at] = &tr.nodeInfo
				checkInterPodFilter(t, fmt.Sprintf("cluster %d step %d, trial of %s", cluster, steps, ni.name), pi, withTrial, c)
				checkInterPodFilter(t, fmt.Sprintf("cluster %d step %d, after a trial of %s", cluster, steps, ni.name), pi, all, c)
			}
		}
	}
	t.Logf("%d steps, %d states and scores compared, %d of them with scores", steps, compared, scored)
}

// checkInterPodFilter fails t unless newInterPodFilter's state over
// nodes is the pod-by-pod one.
func checkInterPodFilter(t *testing.T, where string, pi *podInfo, nodes []*nodeInfo, c *cache) {
	t.Helper()
	got, want := newInterPodFilter(pi, nodes, c), newInterPodFilterPodByPod(pi, nodes, c.withAffinity)
	if want == nil && got != nil {
		t.Fatalf("%s: filter state %v, pod by pod none", where, got)
	}
	if want == nil {
		return
	}
	if got == nil {
		// Skipped (no required terms anywhere): the pod-by-pod state
		// must reject nothing.
		got = &interPodFilter{affinity: map[topologyPair]int{}, anti: map[topologyPair]int{}, existing: map[topologyPair]int{}}
	}
	if !reflect.DeepEqual(got.affinity, want.affinity) || !reflect.DeepEqual(got.anti, want.anti) || !reflect.DeepEqual(got.existing, want.existing) {
		t.Fatalf("%s: filter state affinity %v anti %v existing %v, pod by pod %v %v %v", where,
			got.affinity, got.anti, got.existing, want.affinity, want.anti, want.existing)
	}
}

// TestInterPodMemoCountsOnce: a node's memo serves the pods of one
// workload scheduled one after another without reading the node's pods
// again, and reads them again once they change.
func TestInterPodMemoCountsOnce(t *testing.T) {
	c := newCache()
	c.setNode(zoneNode("n1", "z1"))
	// A preferred and a required anti-affinity to the workload's own
	// pods: one class. The memo's held terms are the required ones (the
	// filter's); the score reads the cache's counts.
	term := api.PodAffinityTerm{TopologyKey: labelHostname, LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}}
	anti := &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 100, PodAffinityTerm: term}},
		RequiredDuringSchedulingIgnoredDuringExecution:  []api.PodAffinityTerm{term}}}
	for i := range 5 {
		c.setPod(withAffinity(labelled(fmt.Sprintf("e%d", i), "n1", "app", "a"), anti))
	}
	ni := c.nodes["n1"]
	pod := withAffinity(labelled("p", "", "app", "a"), anti)
	pt := compileTerms(pod, &c.classes)
	k := pt.preferredAntiAffinity[0].class
	if got := ni.classCount(k); got != 5 {
		t.Fatalf("count %d, want 5", got)
	}
	held := ni.heldTerms(&c.classes)
	if len(held) != 1 || held[0].n != 5 || held[0].kind != heldAntiAffinity || held[0].class != k {
		t.Fatalf("held %+v, want one required anti-affinity term of the class held 5 times", held)
	}
	// Another pod of the workload compiles to the same class.
	if pt2 := compileTerms(withAffinity(labelled("q", "", "app", "a"), anti), &c.classes); pt2.preferredAntiAffinity[0].class != k {
		t.Fatal("a second pod of the workload has another class")
	}
	// Counted from the memo: the node's pods are not read. A pod that
	// matches nothing put in their place shows whether they were.
	saved := ni.entries
	ni.entries = []*podEntry{newEntry(labelled("x", "n1"), "n1")}
	if got := ni.classCount(k); got != 5 {
		t.Errorf("count at the same generation %d, want 5 from the memo", got)
	}
	if held := ni.heldTerms(&c.classes); len(held) != 1 || held[0].n != 5 {
		t.Errorf("held at the same generation %+v, want the memo's", held)
	}
	ni.entries = saved
	// A status write (a newer object, same labels) leaves the memo; a
	// relabel does not.
	e0 := c.pods[api.Key{Namespace: "default", Name: "e0"}]
	gen := ni.gen
	p := e0.pod.DeepCopyObject().(*api.Pod)
	p.Status.Phase = api.PodRunning
	c.setPod(p)
	if ni.gen != gen {
		t.Error("a status write moved the node's generation")
	}
	p = p.DeepCopyObject().(*api.Pod)
	p.Labels = map[string]string{"app": "b"}
	c.setPod(p)
	if ni.gen == gen {
		t.Error("a relabel left the node's generation")
	}
	if got := ni.classCount(k); got != 4 {
		t.Errorf("count after a relabel %d, want 4", got)
	}
}

// checkIndexedFilter fails t unless the filter from the cache's counts
// by domain (interPodFilterIndexed) gives each node of all the reason
// the pod-by-pod state gives.
func checkIndexedFilter(t *testing.T, where string, pi *podInfo, all []*nodeInfo, c *cache) {
	t.Helper()
	got, want := c.interPodFilterIndexed(pi), newInterPodFilterPodByPod(pi, all, c.withAffinity)
	for _, ni := range all {
		var g, w string
		if got != nil {
			g = got.filter(pi.pod, ni)
		}
		if want != nil {
			w = want.filter(pi.pod, &nodeInfo{node: ni.node})
		}
		if g != w {
			t.Fatalf("%s: node %s: indexed filter %q, pod by pod %q", where, ni.name, g, w)
		}
	}
}
