package addrmemo

import (
	"fmt"
	"strings"
	"testing"
)

// TestMemoHitsOnlyTheStringPut: a Memo answers only for the very string
// put (same address, same length), and forgets a string whose slot
// another took; everything else misses, so that its callers, which look
// a miss up themselves, compute the same with it as without it.
func TestMemoHitsOnlyTheStringPut(t *testing.T) {
	name := strings.Repeat("system:node:zone-a-", 2)
	empty := ""
	tests := []struct {
		name  string
		slots int      // Grow(slots) first; 0: the zero Memo
		put   []string // in order, each with its index as value
		get   string
		want  int // the value, -1 for a miss
	}{
		{name: "zero memo misses", slots: 0, put: []string{name}, get: name, want: -1},
		{name: "the string put", slots: 64, put: []string{name}, get: name, want: 0},
		{name: "an equal copy elsewhere", slots: 64, put: []string{name}, get: strings.Clone(name), want: -1},
		{name: "a prefix at the same address", slots: 64, put: []string{name}, get: name[:6], want: -1},
		{name: "the empty string", slots: 64, put: []string{empty}, get: empty, want: 0},
		{name: "put again, new value", slots: 64, put: []string{name, "x", name}, get: name, want: 2},
		{name: "one slot: the last put evicts", slots: 1, put: []string{name, "other"}, get: name, want: -1},
		{name: "one slot: the last put stays", slots: 1, put: []string{name, "other"}, get: "other", want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m Memo[int]
			if tt.slots > 0 {
				m.Grow(tt.slots)
			}
			for i, s := range tt.put {
				m.Put(s, i)
			}
			v, ok := m.Get(tt.get)
			got := -1
			if ok {
				got = v
			}
			if got != tt.want {
				t.Errorf("Get = %d (ok %v), want %d", v, ok, tt.want)
			}
		})
	}
}

// TestMemoGrow: sizes are powers of two up to Max, a smaller Grow keeps
// the table, and a larger one forgets it.
func TestMemoGrow(t *testing.T) {
	var m Memo[int]
	s := "kept"
	for _, tt := range []struct{ grow, want int }{{0, 1}, {3, 4}, {4, 4}, {2, 4}, {100, 128}, {Max + 1, Max}} {
		m.Grow(tt.grow)
		if m.Len() != tt.want {
			t.Fatalf("Grow(%d): %d slots, want %d", tt.grow, m.Len(), tt.want)
		}
	}
	m.Put(s, 7)
	m.Grow(Max)
	if v, ok := m.Get(s); !ok || v != 7 {
		t.Errorf("Grow to the same size forgot: %d %v", v, ok)
	}
	var small Memo[int]
	small.Grow(8)
	small.Put(s, 7)
	small.Grow(16)
	if _, ok := small.Get(s); ok {
		t.Error("a table that grew still answers from its old slots")
	}
}

// TestMemoSpreadsAllocations: strings allocated one after another (a
// cluster's kubelet names) mostly get slots of their own, so that the
// memo finds them.
func TestMemoSpreadsAllocations(t *testing.T) {
	var m Memo[int]
	m.Grow(Max)
	names := make([]string, 3000)
	for i := range names {
		names[i] = fmt.Sprintf("system:node:zone-a-%d", i)
		m.Put(names[i], i)
	}
	hits := 0
	for i, n := range names {
		if v, ok := m.Get(n); ok && v == i {
			hits++
		}
	}
	// 3,000 addresses in 16,384 slots: about 9% would share one were
	// they random; allocation makes them less so (72.8% found at worst
	// in 300 runs). A hash that ignores most of the address finds few.
	if hits < len(names)/2 {
		t.Errorf("%d of %d names found, want at least half", hits, len(names))
	}
}

func ExampleMemo() {
	ids := map[string]int{}
	var memo Memo[int]
	memo.Grow(64)
	idOf := func(s string) int {
		if id, ok := memo.Get(s); ok {
			return id
		}
		id, ok := ids[s]
		if !ok {
			id = len(ids)
			ids[s] = id
		}
		memo.Put(s, id)
		return id
	}
	actor := "system:node:node-1"
	fmt.Println(idOf(actor), idOf("system:kube-scheduler"), idOf(actor), idOf(strings.Clone(actor)))
	// Output: 0 1 0 0
}

// TestSame: the very same string only; equal text elsewhere, or a
// prefix at the same address, is not the same.
func TestSame(t *testing.T) {
	s := strings.Repeat("metadata.labels.", 2)
	for _, tt := range []struct {
		name string
		a, b string
		want bool
	}{
		{"itself", s, s, true},
		{"a copy", s, strings.Clone(s), false},
		{"a prefix at its address", s, s[:8], false},
		{"a suffix", s[8:], s[8:], true},
	} {
		if got := Same(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: Same = %v, want %v", tt.name, got, tt.want)
		}
		if got := Addr(tt.a) == Addr(tt.b) && len(tt.a) == len(tt.b); got != tt.want {
			t.Errorf("%s: Addr and length agree %v, Same %v", tt.name, got, tt.want)
		}
	}
}
