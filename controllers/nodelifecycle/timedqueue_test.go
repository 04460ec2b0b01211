package nodelifecycle

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// refQueue is the tainting queue as it was before items were kept in
// order by binary search: the whole slice sorted (stably) at every add
// and retry, a value's item found by a scan. TestTimedQueueMatchesSorted
// holds timedQueue to it.
type refQueue struct {
	items []timedValue
	set   map[string]bool
	seq   uint64
}

func (q *refQueue) sort() {
	slices.SortStableFunc(q.items, func(a, b timedValue) int {
		if c := a.processAt.Compare(b.processAt); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
}

func (q *refQueue) add(value string, now time.Time) bool {
	if q.set[value] {
		return false
	}
	q.seq++
	q.items = append(q.items, timedValue{value: value, addedAt: now, processAt: now, seq: q.seq})
	q.set[value] = true
	q.sort()
	return true
}

func (q *refQueue) remove(value string) bool {
	if !q.set[value] {
		return false
	}
	delete(q.set, value)
	q.items = slices.DeleteFunc(q.items, func(v timedValue) bool { return v.value == value })
	return true
}

// TestTimedQueueMatchesSorted drives timedQueue and the reference with
// the same random adds, removes and tries (whose function finishes a
// value, asks for a retry after a wait, or removes and adds values back,
// as the health pass does between tries) and checks that both hold the
// same values in the same order, know the same values, and hand try's
// function the same heads.
func TestTimedQueueMatchesSorted(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		q := newTimedQueue(newTokenBucket(1000, 1000, t0))
		ref := &refQueue{set: map[string]bool{}}
		now := t0
		names := func() string { return fmt.Sprintf("n%d", r.IntN(12)) }
		for step := range 300 {
			now = now.Add(time.Duration(r.IntN(3)) * time.Second)
			switch op := r.IntN(4); op {
			case 0, 1:
				v := names()
				if got, want := q.add(v, "", now), ref.add(v, now); got != want {
					t.Fatalf("seed %d step %d: add(%s) = %v, want %v", seed, step, v, got, want)
				}
			case 2:
				v := names()
				if got, want := q.remove(v), ref.remove(v); got != want {
					t.Fatalf("seed %d step %d: remove(%s) = %v, want %v", seed, step, v, got, want)
				}
			case 3:
				// The reference's try, by hand: the same decisions from
				// the same draws.
				var heads []string
				decide := func(v timedValue) (bool, time.Duration, []string) {
					switch r.IntN(3) {
					case 0:
						return true, 0, nil
					case 1:
						return false, time.Duration(r.IntN(4)) * time.Second, nil
					}
					return true, 0, []string{v.value, names()}
				}
				type decision struct {
					done bool
					wait time.Duration
					back []string
				}
				var made []decision
				q.try(now, func(v timedValue) (bool, time.Duration) {
					heads = append(heads, v.value)
					done, wait, back := decide(v)
					made = append(made, decision{done, wait, back})
					for _, b := range back {
						q.remove(b)
						q.add(b, "", now)
					}
					return done, wait
				})
				var refHeads []string
				for i := 0; len(ref.items) > 0 && i < len(made); i++ {
					head := ref.items[0]
					if now.Before(head.processAt) {
						break
					}
					refHeads = append(refHeads, head.value)
					d := made[i]
					for _, b := range d.back {
						ref.remove(b)
						ref.add(b, now)
					}
					j := slices.IndexFunc(ref.items, func(v timedValue) bool { return v.value == head.value && v.seq == head.seq })
					if j < 0 {
						continue
					}
					if d.done {
						ref.items = slices.Delete(ref.items, j, j+1)
						continue
					}
					ref.items[j].processAt = now.Add(d.wait + 1)
					ref.sort()
				}
				if !slices.Equal(heads, refHeads) {
					t.Fatalf("seed %d step %d: try's heads %v, want %v", seed, step, heads, refHeads)
				}
			}
			got, want := queued(q), []string{}
			for _, v := range ref.items {
				want = append(want, v.value)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("seed %d step %d: queue %v, want %v", seed, step, got, want)
			}
			for i := range q.items {
				if q.items[i].seq != ref.items[i].seq || !q.items[i].processAt.Equal(ref.items[i].processAt) {
					t.Fatalf("seed %d step %d: item %d %+v, want %+v", seed, step, i, q.items[i], ref.items[i])
				}
			}
			for v := range ref.set {
				if !q.has(v) {
					t.Fatalf("seed %d step %d: %s not known", seed, step, v)
				}
			}
			if len(q.set) != len(ref.set) || len(q.at) != len(q.items) {
				t.Fatalf("seed %d step %d: %d known (want %d), %d keys for %d items", seed, step, len(q.set), len(ref.set), len(q.at), len(q.items))
			}
		}
	}
}
