package workqueue

import (
	"fmt"
	"hash/fnv"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// stressResult is what one randomised run reports.
type stressResult struct {
	trace   uint64 // FNV-1a of every "time worker key" line, in order
	gets    int
	kills   int
	metrics Metrics
}

// stress runs workers over a few keys with random Adds from a producer and
// from the workers themselves (while they process), rate-limited retries,
// and a chaos process that kills workers and spawns replacements. It checks
// after every step that no key is held by two workers and, at the end,
// that every Add was followed by a Get of its key.
func stress(t *testing.T, seed uint64) stressResult {
	t.Helper()
	const (
		keys    = 16
		workers = 6
		adds    = 1500
	)
	k := kernel.New(seed)
	q := New[int](k, nil)
	busy := make(map[int]string) // key -> worker holding it
	need := make(map[int]bool)   // key added and not yet got since
	h := fnv.New64a()
	var res stressResult
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("seed %d %v: "+format, append([]any{seed, k.Now()}, args...)...)
		k.Stop()
	}
	add := func(key int) {
		if !q.ShuttingDown() {
			need[key] = true
		}
		q.Add(key)
	}
	check := func() {
		if m := q.Metrics(); m.Processing != len(busy) {
			fail("queue has %d items processing, workers hold %d", m.Processing, len(busy))
		}
	}

	var live []*kernel.Process
	spawn := func(name string) {
		rng := k.Rand("test/worker/" + name)
		live = append(live, k.Spawn(name, func(p *kernel.Process) {
			for {
				key, down := q.Get(p)
				if down {
					return
				}
				if other, ok := busy[key]; ok {
					fail("key %d handed to %s while %s holds it", key, name, other)
					return
				}
				busy[key] = name
				need[key] = false
				res.gets++
				fmt.Fprintf(h, "%d %s %d\n", k.Now(), name, key)
				check()
				func() {
					defer q.Done(key)
					defer delete(busy, key) // runs first: the worker lets go, then Done
					p.Sleep(time.Duration(rng.IntN(20_000)) * time.Microsecond)
					switch r := rng.IntN(10); {
					case r < 2:
						add(key) // dirty while processing
					case r < 4:
						add(rng.IntN(keys))
					case r < 6:
						q.AddRateLimited(key) // failed: retry later
						return
					}
					q.Forget(key)
				}()
				check()
			}
		}))
	}
	for i := range workers {
		spawn(fmt.Sprintf("w%d", i))
	}

	k.Spawn("producer", func(p *kernel.Process) {
		rng := k.Rand("test/producer")
		for range adds {
			p.Sleep(time.Duration(rng.IntN(4000)) * time.Microsecond)
			if rng.IntN(8) == 0 {
				q.AddAfter(rng.IntN(keys), time.Duration(rng.IntN(50))*time.Millisecond)
			} else {
				add(rng.IntN(keys))
			}
		}
		// Wait until the work and its retries have died out, then stop.
		for {
			m := q.Metrics()
			if m.Depth == 0 && m.Delayed == 0 && m.Processing == 0 {
				break
			}
			p.Sleep(time.Second)
		}
		q.ShutDown()
	})

	k.Spawn("chaos", func(p *kernel.Process) {
		rng := k.Rand("test/chaos")
		for n := 0; !q.ShuttingDown(); n++ {
			p.Sleep(time.Duration(50+rng.IntN(200)) * time.Millisecond)
			i := rng.IntN(len(live))
			if !live[i].Done() {
				live[i].Kill()
				res.kills++
			}
			live[i] = live[len(live)-1]
			live = live[:len(live)-1]
			spawn(fmt.Sprintf("r%d", n))
		}
	})

	k.Run(kernel.Limits{Until: kernel.Time(time.Hour)})
	if n := k.Live(); n != 0 {
		t.Errorf("seed %d: %d processes live at the end, want 0", seed, n)
	}
	for key := range keys {
		if need[key] {
			t.Errorf("seed %d: key %d was added and never got afterwards", seed, key)
		}
	}
	res.metrics = q.Metrics()
	if m := res.metrics; m.Gets != m.Dones || m.Depth != 0 || m.Processing != 0 || m.Delayed != 0 || int(m.Gets) != res.gets {
		t.Errorf("seed %d: final metrics %+v inconsistent (%d gets seen)", seed, m, res.gets)
	}
	res.trace = h.Sum64()
	return res
}

func TestNoKeyHandedOutTwice(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			res := stress(t, seed)
			if res.gets < 1000 || res.kills == 0 {
				t.Errorf("weak run: %d gets, %d kills", res.gets, res.kills)
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	a, b := stress(t, 7), stress(t, 7)
	if a != b {
		t.Errorf("two runs of seed 7 differ: %+v vs %+v", a, b)
	}
	if c := stress(t, 8); c.trace == a.trace {
		t.Errorf("seeds 7 and 8 gave the same trace")
	}
}
