package informer

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestHeldEntry merges a memo's entries with a new list: pods kept (the
// same objects), replaced (same key, new object), added and removed,
// across namespaces; each step must return the kept pod's entry and nil
// for a new object, and pass the entries of pods gone.
func TestHeldEntry(t *testing.T) {
	pod := func(ns, name string) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}}
	}
	a, b, c, d := pod("x", "a"), pod("x", "b"), pod("x", "c"), pod("y", "a")
	b2, e := pod("x", "b"), pod("x", "e")
	type entry struct{ p *api.Pod }
	podOf := func(e *entry) *api.Pod { return e.p }
	for _, tc := range []struct {
		name string
		old  []*api.Pod
		list []*api.Pod
		held []bool // for each listed pod: its entry returned
	}{
		{"same", []*api.Pod{a, b, c, d}, []*api.Pod{a, b, c, d}, []bool{true, true, true, true}},
		{"replaced", []*api.Pod{a, b, c}, []*api.Pod{a, b2, c}, []bool{true, false, true}},
		{"removed", []*api.Pod{a, b, c, d}, []*api.Pod{a, d}, []bool{true, true}},
		{"added", []*api.Pod{a, c}, []*api.Pod{a, b, c, e, d}, []bool{true, false, true, false, false}},
		{"first and last gone", []*api.Pod{a, b, c, d}, []*api.Pod{b, c}, []bool{true, true}},
		{"empty memo", nil, []*api.Pod{a, b}, []bool{false, false}},
		{"all new", []*api.Pod{a, b}, []*api.Pod{e, d}, []bool{false, false}},
	} {
		old := make([]entry, len(tc.old))
		for i, p := range tc.old {
			old[i] = entry{p}
		}
		j := 0
		for i, p := range tc.list {
			got := HeldEntry(old, &j, p, podOf)
			if (got != nil) != tc.held[i] || (got != nil && got.p != p) {
				t.Errorf("%s: pod %d (%s/%s): entry %v, want held %v", tc.name, i, p.Namespace, p.Name, got, tc.held[i])
			}
		}
	}
}
