package workqueue

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// BenchmarkAddGetDone pushes items through one worker process that gets
// each item and calls Done at once. Modes:
//
//   - handoff: one Add per op, so the worker parks and is woken every item
//     (Add, wake-up event, Get, Done, park);
//   - batch=64: 64 Adds per op drained without parking in between;
//   - addafter: one AddAfter(1ms) per op (timer event, Add, wake-up, Get,
//     Done);
//   - ratelimited: the worker fails every item once (AddRateLimited), then
//     Forgets it on the retry.
//
// Target: zero allocations per item in steady state.
func BenchmarkAddGetDone(b *testing.B) {
	const keys = 1024
	tests := []struct {
		name  string
		batch int
		add   func(q *Queue[int], key int)
		fail  bool
	}{
		{"handoff", 1, (*Queue[int]).Add, false},
		{"batch=64", 64, (*Queue[int]).Add, false},
		{"addafter", 1, func(q *Queue[int], key int) { q.AddAfter(key, time.Millisecond) }, false},
		{"ratelimited", 1, (*Queue[int]).Add, true},
	}
	for _, tc := range tests {
		b.Run(tc.name, func(b *testing.B) {
			k := kernel.New(1)
			q := New[int](k, nil)
			failed := make([]bool, keys)
			k.Spawn("worker", func(p *kernel.Process) {
				for {
					key, down := q.Get(p)
					if down {
						return
					}
					if tc.fail && !failed[key] {
						failed[key] = true
						q.AddRateLimited(key)
					} else {
						failed[key] = false
						q.Forget(key)
					}
					q.Done(key)
				}
			})
			next := 0
			op := func() {
				for range tc.batch {
					tc.add(q, next)
					next = (next + 1) % keys
				}
				k.Run(kernel.Limits{})
			}
			for range 2 * keys { // warm up: grow the maps, rings and heaps
				op()
			}
			gets := q.Metrics().Gets
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				op()
			}
			items := float64(q.Metrics().Gets - gets)
			b.ReportMetric(items/b.Elapsed().Seconds(), "items/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/items, "ns/item")
		})
	}
}
