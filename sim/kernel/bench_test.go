package kernel

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// holder reschedules itself on every firing: the classic hold model, which
// keeps the number of pending events constant.
type holder struct {
	delays []time.Duration
	i      int
}

func (h *holder) Fire(k *Kernel, arg uint64) {
	h.i++
	k.After(h.delays[h.i&1023], h, arg)
}

// holderOf returns a holder whose delays are base plus up to spread,
// drawn from r.
func holderOf(r interface{ Int64N(int64) int64 }, base, spread time.Duration) *holder {
	h := &holder{delays: make([]time.Duration, 1024)}
	for i := range h.delays {
		h.delays[i] = base + time.Duration(r.Int64N(int64(spread)))
	}
	return h
}

// fireBatches runs k in batches of 10,000 events for the benchmark
// (every handler or process reschedules itself, so the batches never run
// dry) and reports the nanoseconds per event as ns/unit.
func fireBatches(b *testing.B, k *Kernel, unit string) {
	const batch = 10_000
	b.ReportAllocs()
	b.ResetTimer()
	events := 0
	for b.Loop() {
		k.Run(Limits{MaxEvents: batch})
		events += batch
	}
	if unit == "event" {
		b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(events), "ns/"+unit)
}

// BenchmarkEvents measures the event loop under the hold model with 1,000
// and 100,000 pending events. Targets: 5M events/s at 1k, 3M at 100k, zero
// allocations per event.
func BenchmarkEvents(b *testing.B) {
	for _, pending := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("pending=%d", pending), func(b *testing.B) {
			k := New(1)
			h := holderOf(k.Rand("bench"), 1, time.Millisecond)
			for i := range pending {
				k.After(h.delays[i&1023], h, uint64(i))
			}
			fireBatches(b, k, "event")
		})
	}
}

// BenchmarkBlockResume measures one block/resume cycle of a process (a
// Sleep that parks, an event that resumes it) with 1,000 processes sleeping
// at once. Target: at most 300 ns per block.
func BenchmarkBlockResume(b *testing.B) {
	for _, procs := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("procs=%d", procs), func(b *testing.B) {
			k := New(1)
			for i := range procs {
				d := time.Duration(i%97+1) * time.Microsecond
				k.Spawn("p", func(p *Process) {
					for {
						p.Sleep(d)
					}
				})
			}
			k.Run(Limits{MaxEvents: uint64(procs)}) // start them all
			fireBatches(b, k, "block")
		})
	}
}

// BenchmarkEventsMixed measures the event loop under the mix of a large
// run: many timers seconds ahead (a node's lease renewal every 10 s,
// say) and a few thousand events milliseconds ahead that come and go
// fast (network deliveries), which are most of the events fired.
func BenchmarkEventsMixed(b *testing.B) {
	for _, timers := range []int{10_000, 150_000} {
		b.Run(fmt.Sprintf("timers=%d,near=2000", timers), func(b *testing.B) {
			k := New(1)
			r := k.Rand("bench")
			near := holderOf(r, time.Millisecond, 4*time.Millisecond)
			far := holderOf(r, 10*time.Second, time.Millisecond)
			for i := range timers {
				k.After(time.Duration(r.Int64N(int64(10*time.Second))), far, uint64(i))
			}
			for i := range 2_000 {
				k.After(near.delays[i&1023], near, uint64(i))
			}
			fireBatches(b, k, "event")
		})
	}
}

// BenchmarkStreamsColdDraw draws once from each of 1,048,576 named
// streams (32 MiB of them at least) in a shuffled order, as a large
// cluster's links and kubelets draw: each stream is out of the
// processor's caches when it is drawn from again.
func BenchmarkStreamsColdDraw(b *testing.B) {
	const n = 1 << 20
	s := NewStreams(1)
	streams := make([]*rand.Rand, n)
	for i := range streams {
		streams[i] = s.Get(fmt.Sprintf("net/link/a->node-%d", i))
	}
	order := rand.New(rand.NewPCG(1, 2)).Perm(n)
	b.ResetTimer()
	var sum uint64
	for i := 0; i < b.N; i++ {
		sum += streams[order[i%n]].Uint64()
	}
	if sum == 1 {
		b.Log(sum)
	}
}

// coldHandler is a large actor (a kubelet is some 1.5 KB) whose firing
// reads fields across its first cache lines and reschedules itself.
type coldHandler struct {
	hot   [4]uint64
	_     [20]uint64
	fired uint64
	delay time.Duration
	_     [96]uint64
}

func (h *coldHandler) Fire(k *Kernel, arg uint64) {
	h.fired += h.hot[0] + h.hot[3] + 1
	k.After(h.delay, h, arg)
}

// BenchmarkEventsColdHandlers measures the loop when each event's
// handler is one of 200,000 large actors, out of the processor's caches
// when it fires (a large cluster's kubelets and their timers), with the
// next event's handler prefetched (prefetch=on, the kernel's way) and
// not (off).
func BenchmarkEventsColdHandlers(b *testing.B) {
	for _, on := range []bool{true, false} {
		b.Run(fmt.Sprintf("prefetch=%v", on), func(b *testing.B) {
			k := New(1)
			k.noPrefetch = !on
			r := k.Rand("bench")
			hs := make([]coldHandler, 200_000)
			for i := range hs {
				hs[i].delay = 10*time.Second + time.Duration(r.Int64N(int64(time.Second)))
				k.After(time.Duration(r.Int64N(int64(10*time.Second))), &hs[i], uint64(i))
			}
			fireBatches(b, k, "event")
		})
	}
}

// BenchmarkWallSecond: the second an API timestamp carries, by
// WallSecond and by the Truncate it stands for.
func BenchmarkWallSecond(b *testing.B) {
	var sink time.Time
	b.Run("WallSecond", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink = Time(i * 7919 * int(time.Microsecond)).WallSecond()
		}
	})
	b.Run("Truncate", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink = Time(i * 7919 * int(time.Microsecond)).Wall().Truncate(time.Second)
		}
	})
	_ = sink
}
