package scheduler

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

var queueEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func qkey(name string) api.Key { return api.Key{Namespace: "default", Name: name} }

// names lists the keys' names of qs in order.
func names(qs []*queued) []string {
	out := make([]string, 0, len(qs))
	for _, q := range qs {
		out = append(out, q.key.Name)
	}
	return out
}

// scanMoveOrder is the full scan moveAll did before the index: every
// tracked pod that is parked, but except, higher priority first, then the
// longest parked, then by key.
func scanMoveOrder(pq *podQueue, except api.Key) []string {
	type parked struct {
		key api.Key
		q   *queued
	}
	var ps []parked
	for k, q := range pq.pods {
		if q.parked && k != except {
			ps = append(ps, parked{k, q})
		}
	}
	slices.SortFunc(ps, func(a, b parked) int {
		return cmp.Or(cmp.Compare(b.q.priority, a.q.priority), a.q.parkedAt.Compare(b.q.parkedAt),
			strings.Compare(a.key.Namespace, b.key.Namespace), strings.Compare(a.key.Name, b.key.Name))
	})
	out := []string{}
	for _, p := range ps {
		out = append(out, p.key.Name)
	}
	return out
}

// scanPlacement is the full scan wakePlacement did before the index.
func scanPlacement(pq *podQueue) []string {
	var keys []api.Key
	for k, q := range pq.pods {
		if q.parked && q.placement {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b api.Key) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	out := []string{}
	for _, k := range keys {
		out = append(out, k.Name)
	}
	return out
}

func TestPodQueueOrder(t *testing.T) {
	type pod struct {
		name      string
		priority  int32
		parkedAt  time.Duration // after queueEpoch; <0: not parked
		placement bool
	}
	tests := []struct {
		name          string
		pods          []pod
		remove        []string
		except        string
		wantMove      []string
		wantPlacement []string
	}{
		{
			name:          "empty",
			wantMove:      []string{},
			wantPlacement: []string{},
		},
		{
			name: "priority, then longest parked, then key",
			pods: []pod{
				{"c", 0, 2 * time.Second, false},
				{"b", 0, 2 * time.Second, true},
				{"a", 0, 3 * time.Second, true},
				{"d", 10, 5 * time.Second, false},
				{"e", 0, 1 * time.Second, false},
			},
			wantMove:      []string{"d", "e", "b", "c", "a"},
			wantPlacement: []string{"a", "b"},
		},
		{
			name: "unparked pods stay",
			pods: []pod{
				{"a", 0, -1, true},
				{"b", 0, time.Second, true},
				{"c", 0, -1, false},
			},
			wantMove:      []string{"b"},
			wantPlacement: []string{"b"},
		},
		{
			name: "except is left parked",
			pods: []pod{
				{"a", 0, time.Second, false},
				{"b", 0, time.Second, false},
			},
			except:        "a",
			wantMove:      []string{"b"},
			wantPlacement: []string{},
		},
		{
			name: "removed pods are forgotten",
			pods: []pod{
				{"a", 0, time.Second, true},
				{"b", 0, time.Second, true},
			},
			remove:        []string{"a"},
			wantMove:      []string{"b"},
			wantPlacement: []string{"b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pq := newPodQueue()
			for _, p := range tt.pods {
				q := &queued{priority: p.priority}
				pq.add(qkey(p.name), q)
				pq.setPlacement(q, p.placement)
				if p.parkedAt >= 0 {
					pq.park(q, queueEpoch.Add(p.parkedAt))
				}
			}
			for _, n := range tt.remove {
				pq.remove(qkey(n))
			}
			except := api.Key{}
			if tt.except != "" {
				except = qkey(tt.except)
			}
			if got := names(pq.parkedInMoveOrder(except)); !slices.Equal(got, tt.wantMove) {
				t.Errorf("parkedInMoveOrder = %v, want %v", got, tt.wantMove)
			}
			if got := names(pq.parkedWithPlacement()); !slices.Equal(got, tt.wantPlacement) {
				t.Errorf("parkedWithPlacement = %v, want %v", got, tt.wantPlacement)
			}
		})
	}
}

// TestPodQueueMatchesScan drives the queue with random operations, as the
// scheduler does (a pod tracked, parked, unparked, its rules changed,
// forgotten, re-added, parked after it was forgotten), and checks after
// each that the indexed views equal the full scans they replace.
func TestPodQueueMatchesScan(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 11))
		pq := newPodQueue()
		var orphans []*queued
		for step := range 400 {
			key := qkey(string(rune('a' + rng.IntN(26))))
			q := pq.get(key)
			switch op := rng.IntN(7); {
			case op == 0 || q == nil:
				if q != nil {
					orphans = append(orphans, q)
				}
				pq.add(key, &queued{priority: int32(rng.IntN(3))})
			case op == 1:
				pq.park(q, queueEpoch.Add(time.Duration(rng.IntN(5))*time.Second))
			case op == 2:
				pq.unpark(q)
			case op == 3:
				pq.setPlacement(q, rng.IntN(2) == 0)
			case op == 4:
				pq.remove(key)
				orphans = append(orphans, q)
			case op == 5 && len(orphans) > 0:
				// An attempt that outlived its pod parks it.
				o := orphans[rng.IntN(len(orphans))]
				pq.park(o, queueEpoch)
				pq.setPlacement(o, true)
			default:
				q.priority = int32(rng.IntN(3))
			}
			except := api.Key{}
			if rng.IntN(2) == 0 {
				except = qkey(string(rune('a' + rng.IntN(26))))
			}
			if got, want := names(pq.parkedInMoveOrder(except)), scanMoveOrder(pq, except); !slices.Equal(got, want) {
				t.Fatalf("seed %d step %d: parkedInMoveOrder(%v) = %v, full scan %v", seed, step, except, got, want)
			}
			if got, want := names(pq.parkedWithPlacement()), scanPlacement(pq); !slices.Equal(got, want) {
				t.Fatalf("seed %d step %d: parkedWithPlacement = %v, full scan %v", seed, step, got, want)
			}
			pq.release()
		}
	}
}
