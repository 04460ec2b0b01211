package metrics

import (
	"fmt"
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
