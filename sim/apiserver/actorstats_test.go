package apiserver

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/addrmemo"
	"github.com/clustersim/clustersim/sim/api"
)

// TestCountsByActorName holds count to the map it caches: every actor's
// counts are the ones of its name, whether the name comes as the same
// string each time (a client's), built again at another address, or is
// one of thousands whose addresses share the cache's slots.
func TestCountsByActorName(t *testing.T) {
	tests := []struct {
		name    string
		actors  int  // distinct names
		rounds  int  // requests per name
		rebuilt bool // every request's name a fresh copy
	}{
		{name: "one actor", actors: 1, rounds: 5},
		{name: "empty name", actors: 0, rounds: 3},
		{name: "a kubelet a node, 5000 nodes", actors: 5000, rounds: 4},
		{name: "more actors than slots", actors: 3 * addrmemo.Max, rounds: 2},
		{name: "names built again", actors: 300, rounds: 3, rebuilt: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Server{stats: map[string]*actorStats{}}
			names := []string{""}
			if tt.actors > 0 {
				names = names[:0]
				for i := range tt.actors {
					names = append(names, fmt.Sprintf("system:node:node-%d", i))
				}
			}
			for range tt.rounds {
				for i, n := range names {
					if tt.rebuilt {
						n = strings.Clone(n)
					}
					// Actor i makes i%3+1 requests a round: a lease
					// renewal each, and an event create from the second on.
					s.count(n, Update, api.KindLease, OK)
					for range i % 3 {
						s.count(n, Create, api.KindEvent, OK)
					}

				}
			}
			got := map[string]uint64{}
			for _, st := range s.Stats() {
				got[fmt.Sprintf("%s %v %s", st.Actor, st.Verb, st.Kind.Name)] = st.Count
			}
			want := map[string]uint64{}
			for i, n := range names {
				want[fmt.Sprintf("%s %v Lease", n, Update)] = uint64(tt.rounds)
				if i%3 > 0 {
					want[fmt.Sprintf("%s %v Event", n, Create)] = uint64(tt.rounds * (i % 3))
				}
			}
			if len(got) != len(want) {
				t.Fatalf("%d counts, want %d", len(got), len(want))
			}
			for k, w := range want {
				if got[k] != w {
					t.Fatalf("%s: %d, want %d", k, got[k], w)
				}
			}
			if len(s.stats) != len(names) {
				t.Errorf("%d actors recorded, want %d", len(s.stats), len(names))
			}
		})
	}
}

// TestActorCacheHits checks that the cache in front of the map is used
// and grows with the actors: a name just counted is in its slot, with
// the record the map holds, and 3,000 actors grow the table to its
// largest. (How evenly the slots spread is addrmemo's
// TestMemoSpreadsAllocations.)
func TestActorCacheHits(t *testing.T) {
	s := &Server{stats: map[string]*actorStats{}}
	names := make([]string, 3000)
	for i := range names {
		names[i] = fmt.Sprintf("system:node:zone-a-%d", i)
	}
	for round := range 2 {
		for _, n := range names {
			s.count(n, Update, api.KindLease, OK)
			if a, ok := s.recent.Get(n); !ok || a != s.stats[n] {
				t.Fatalf("round %d: %s just counted: in its slot %v, the map's record %v", round, n, ok, a == s.stats[n])
			}
		}
	}
	if s.recent.Len() != addrmemo.Max {
		t.Errorf("table of %d slots for %d actors, want %d", s.recent.Len(), len(names), addrmemo.Max)
	}
	hits := 0
	for _, n := range names {
		if _, ok := s.recent.Get(n); ok {
			hits++
		}
	}
	if hits < len(names)/2 {
		t.Errorf("%d of %d names found in their slot, want at least half", hits, len(names))
	}
}

// TestStatsSeeEveryRequest: requests are counted beside the event loop
// (countLater, a kernel.Sink), in batches; Stats must see every request
// counted so far, whatever the batches' boundaries.
func TestStatsSeeEveryRequest(t *testing.T) {
	for _, n := range []int{1, countBatchRequests - 1, countBatchRequests, countBatchRequests + 1, 5*countBatchRequests + 7} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := &Server{stats: map[string]*actorStats{}}
			for i := range n {
				s.countLater(fmt.Sprintf("actor-%d", i%3), Update, api.KindLease, OK)
			}
			var total uint64
			for _, st := range s.Stats() {
				total += st.Count
			}
			if total != uint64(n) {
				t.Errorf("Stats counts %d requests, want %d", total, n)
			}
			s.countLater("actor-0", Get, api.KindLease, OK)
			if got, want := len(s.Stats()), min(n, 3)+1; got != want {
				t.Errorf("after one more request of a new verb, %d counts, want %d", got, want)
			}
		})
	}
}
