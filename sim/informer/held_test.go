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

// TestHeld checks the double buffer of a memo's entries: Keep makes the
// entries the array given; the next Next hands back the array the sync
// before filled, empty and cleared (it keeps no pod alive), when it is
// large enough, and a new one otherwise; the zero Held holds nothing.
func TestHeld(t *testing.T) {
	pod := func(name string) *api.Pod { return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}} }
	var h Held[*api.Pod]
	if h.Entries() != nil {
		t.Fatalf("zero Held holds %v", h.Entries())
	}
	first := append(h.Next(2), pod("a"), pod("b"))
	h.Keep(first)
	second := append(h.Next(2), pod("c"))
	h.Keep(second)
	if got := h.Entries(); len(got) != 1 || got[0].Name != "c" {
		t.Fatalf("entries %v, want [c]", got)
	}
	third := h.Next(2)
	if len(third) != 0 || cap(third) < 2 || &third[:1][0] != &first[0] {
		t.Errorf("Next(2) is not the first sync's array (len %d, cap %d)", len(third), cap(third))
	}
	for i, p := range first {
		if p != nil {
			t.Errorf("the spare still holds pod %s at %d", p.Name, i)
		}
	}
	if big := h.Next(cap(first) + 1); cap(big) <= cap(first) || len(big) != 0 {
		t.Errorf("Next(%d) gave len %d cap %d", cap(first)+1, len(big), cap(big))
	}
}

// TestMemoOf: the first use of a key makes its memo (and the map), later
// uses of it find the same one, and another key has its own.
func TestMemoOf(t *testing.T) {
	var memos map[api.Key]*[]int
	a := api.Key{Namespace: "default", Name: "a"}
	m := MemoOf(&memos, a)
	*m = append(*m, 1)
	if again := MemoOf(&memos, a); again != m || len(*again) != 1 {
		t.Errorf("a's memo again is %p %v, want %p [1]", again, *again, m)
	}
	if b := MemoOf(&memos, api.Key{Namespace: "default", Name: "b"}); b == m || len(memos) != 2 {
		t.Errorf("b shares a's memo, or the map holds %d", len(memos))
	}
}
