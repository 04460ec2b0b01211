package metrics

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// listed is what each model selected before selected: a store list by
// its namespace and selector.
func listed(t *testing.T, s *Source) [][]*api.Pod {
	out := make([][]*api.Pod, len(s.models))
	for i := range s.models {
		sel := s.models[i].Selector
		objs, _, err := s.st.List(api.KindPod, store.ListOptions{Namespace: s.models[i].Namespace, Labels: &sel})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range objs {
			out[i] = append(out[i], o.(*api.Pod))
		}
	}
	return out
}

// TestSelectedIsList compares selected with a store list a model over
// 200 random stores (pods of two namespaces labelled from small sets)
// and sets of models (one label's value, two labels, a set, an
// existence test, everything; in a namespace or all of them).
func TestSelectedIsList(t *testing.T) {
	selectors := []string{"app=a", "app=b", "app=a,tier=x", "tier=y", "app in (a,b)", "tier", "app!=a", "app in (c)", ""}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 3))
		k := kernel.New(1)
		st := store.New(k)
		for i := range rng.IntN(40) {
			labels := map[string]string{}
			if rng.IntN(4) > 0 {
				labels["app"] = []string{"a", "b", "c"}[rng.IntN(3)]
			}
			if rng.IntN(2) > 0 {
				labels["tier"] = []string{"x", "y"}[rng.IntN(2)]
			}
			p := pod(fmt.Sprintf("p-%02d", i), labels, api.PodRunning, true, "")
			p.Namespace = []string{"default", "kube-system"}[rng.IntN(2)]
			if _, err := st.Create(store.Op{Actor: "test"}, p); err != nil {
				t.Fatal(err)
			}
		}
		src := NewSource(k, st, Options{})
		for range 1 + rng.IntN(5) {
			sel, err := api.ParseSelector(selectors[rng.IntN(len(selectors))])
			if err != nil {
				t.Fatal(err)
			}
			ns := []string{"default", "kube-system", ""}[rng.IntN(3)]
			src.AddModel(Model{Namespace: ns, Selector: sel, Load: Constant(1)})
		}
		got, want := src.selected(), listed(t, src)
		for i := range want {
			if !slices.Equal(got[i], want[i]) {
				t.Fatalf("seed %d: model %d (%s in %q) selected %v, a list %v", seed, i, src.models[i].Selector, src.models[i].Namespace, names(got[i]), names(want[i]))
			}
		}
	}
}

func names(pods []*api.Pod) []string {
	var out []string
	for _, p := range pods {
		out = append(out, p.Namespace+"/"+p.Name)
	}
	return out
}

// TestPodCPUIndexIsScan compares PodCPU, which finds a selector's
// candidates under its exact-match label, with a scan of every sample,
// over 200 random scrapes (two namespaces, labels from small sets) and
// selectors of every shape, two scrapes apart so that a stale index
// would show.
func TestPodCPUIndexIsScan(t *testing.T) {
	selectors := []string{"app=a", "app=b,tier=x", "app in (a)", "app in (a,b)", "tier=x", "app=a,tier!=x", "!app", "app", "", "app==c"}
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 5))
		s := &Source{}
		for round := range 2 {
			s.begin(kernel.Time(round))
			for i := range 40 {
				labels := map[string]string{}
				if rng.IntN(5) > 0 {
					labels["app"] = []string{"a", "b", "c"}[rng.IntN(3)]
				}
				if rng.IntN(2) == 0 {
					labels["tier"] = "x"
				}
				ns := []string{"one", "two"}[rng.IntN(2)]
				s.samples = append(s.samples, Sample{Key: api.Key{Namespace: ns, Name: fmt.Sprintf("p%d", i)}, Milli: int64(rng.IntN(1000)), labels: labels})
			}
			for _, text := range selectors {
				sel, err := api.ParseSelector(text)
				if err != nil {
					t.Fatal(err)
				}
				for _, ns := range []string{"one", "two"} {
					got, _, err := s.PodCPU(nil, ns, sel)
					if err != nil {
						t.Fatal(err)
					}
					want := map[string]int64{}
					for _, smp := range s.samples {
						if smp.Key.Namespace == ns && sel.Matches(smp.labels) {
							want[smp.Key.Name] = smp.Milli
						}
					}
					if !maps.Equal(got, want) {
						t.Fatalf("seed %d round %d %q in %s: %v, want %v", seed, round, text, ns, got, want)
					}
				}
			}
		}
	}
}
