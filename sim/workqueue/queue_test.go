package workqueue

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// harness runs a queue of string keys on a fresh kernel and records what
// its workers see as lines "<time> <worker> <event>".
type harness struct {
	k   *kernel.Kernel
	q   *Queue[string]
	log []string
}

func newHarness() *harness {
	k := kernel.New(1)
	return &harness{k: k, q: New[string](k, nil)}
}

func (h *harness) logf(format string, args ...any) {
	h.log = append(h.log, h.k.Now().String()+" "+fmt.Sprintf(format, args...))
}

// worker spawns a process that gets items until shutdown, holds each for
// hold and then calls Done (deferred, so a killed worker still calls it).
func (h *harness) worker(name string, hold time.Duration) *kernel.Process {
	return h.k.Spawn(name, func(p *kernel.Process) {
		for {
			item, down := h.q.Get(p)
			if down {
				h.logf("%s shutdown", name)
				return
			}
			h.logf("%s got %s", name, item)
			func() {
				defer h.q.Done(item)
				if hold > 0 {
					p.Sleep(hold)
				}
			}()
		}
	})
}

// at runs f at virtual time d.
func (h *harness) at(d time.Duration, f func()) { h.k.At(kernel.Time(d), f) }

func (h *harness) run(t *testing.T) {
	t.Helper()
	if r := h.k.Run(kernel.Limits{Until: kernel.Time(time.Hour)}); r != kernel.TimeLimit && r != kernel.Quiescent {
		t.Fatalf("Run = %v", r)
	}
}

func checkLog(t *testing.T, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("log:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestAddDedupesAndKeepsFIFO(t *testing.T) {
	tests := []struct {
		name     string
		adds     []string
		want     []string
		wantAdds uint64
	}{
		{"distinct", []string{"a", "b", "c"}, []string{"a", "b", "c"}, 3},
		{"duplicates", []string{"a", "b", "a", "c", "b", "a"}, []string{"a", "b", "c"}, 3},
		{"one key", []string{"x", "x", "x", "x"}, []string{"x"}, 1},
		{"reverse", []string{"c", "b", "a", "c"}, []string{"c", "b", "a"}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness()
			for _, a := range tc.adds {
				h.q.Add(a)
			}
			if h.q.Len() != len(tc.want) {
				t.Errorf("Len = %d, want %d", h.q.Len(), len(tc.want))
			}
			var got []string
			h.k.Spawn("w", func(p *kernel.Process) {
				for range len(tc.want) {
					item, _ := h.q.Get(p)
					got = append(got, item)
					h.q.Done(item)
				}
			})
			h.run(t)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			if m := h.q.Metrics(); m.Adds != tc.wantAdds || m.Gets != uint64(len(tc.want)) || m.Depth != 0 {
				t.Errorf("metrics = %+v, want %d adds, %d gets, depth 0", m, tc.wantAdds, len(tc.want))
			}
		})
	}
}

// TestScenarios drives small scripted runs and compares what the workers
// saw, line by line.
func TestScenarios(t *testing.T) {
	s := time.Second
	tests := []struct {
		name   string
		script func(h *harness)
		want   []string
	}{
		{
			name: "get blocks until add",
			script: func(h *harness) {
				h.worker("w0", 0)
				h.at(5*s, func() { h.q.Add("a") })
			},
			want: []string{"t=5.000s w0 got a"},
		},
		{
			name: "waiters are woken in the order they began to wait",
			script: func(h *harness) {
				h.worker("w0", time.Hour)
				h.worker("w1", time.Hour)
				h.worker("w2", time.Hour)
				h.at(s, func() {
					h.q.Add("a")
					h.q.Add("b")
					h.q.Add("c")
				})
			},
			want: []string{"t=1.000s w0 got a", "t=1.000s w1 got b", "t=1.000s w2 got c"},
		},
		{
			name: "an item being processed is not handed to a second worker",
			script: func(h *harness) {
				h.q.Add("a")
				h.worker("w0", 2*s) // gets a at 0, Done at 2s
				h.worker("w1", 0)
				h.at(s, func() {
					h.q.Add("a") // dirty while processing: not queued
					if h.q.Len() != 0 {
						h.logf("Len = %d while a is processing", h.q.Len())
					}
					h.q.Add("b")
				})
			},
			want: []string{
				"t=0.000s w0 got a",
				"t=1.000s w1 got b",
				// Re-queued by w0's Done, which wakes w1; but w0 runs on
				// into Get and takes it first, as a goroutine would.
				"t=2.000s w0 got a",
			},
		},
		{
			name: "dirty item goes to the tail on done",
			script: func(h *harness) {
				h.q.Add("a")
				h.worker("w0", 2*s)
				h.at(s, func() {
					h.q.Add("a")
					h.q.Add("b")
					h.q.Add("c")
				})
			},
			want: []string{
				"t=0.000s w0 got a",
				"t=2.000s w0 got b",
				"t=4.000s w0 got c",
				"t=6.000s w0 got a",
			},
		},
		{
			name: "done without get is ignored",
			script: func(h *harness) {
				h.q.Add("a")
				h.q.Done("a") // misuse: must not queue a twice
				h.q.Done("zz")
				h.worker("w0", s)
			},
			want: []string{"t=0.000s w0 got a"},
		},
		{
			name: "shutdown wakes every waiter",
			script: func(h *harness) {
				h.worker("w0", 0)
				h.worker("w1", 0)
				h.worker("w2", 0)
				h.at(s, h.q.ShutDown)
			},
			want: []string{"t=1.000s w0 shutdown", "t=1.000s w1 shutdown", "t=1.000s w2 shutdown"},
		},
		{
			name: "shutdown still hands out queued items",
			script: func(h *harness) {
				h.q.Add("a")
				h.q.Add("b")
				h.q.ShutDown()
				h.q.Add("c") // ignored
				h.worker("w0", s)
			},
			want: []string{"t=0.000s w0 got a", "t=1.000s w0 got b", "t=2.000s w0 shutdown"},
		},
		{
			name: "shutdown drops delayed items and ignores later ones",
			script: func(h *harness) {
				h.q.AddAfter("a", 2*s)
				h.worker("w0", 0)
				h.at(s, func() {
					h.q.ShutDown()
					h.q.AddAfter("b", s)
					h.q.AddRateLimited("c")
				})
			},
			want: []string{"t=1.000s w0 shutdown"},
		},
		{
			name: "dirty item is re-queued by done after shutdown",
			script: func(h *harness) {
				h.q.Add("a")
				h.worker("w0", 2*s)
				h.at(s, func() {
					h.q.Add("a")
					h.q.ShutDown()
				})
			},
			want: []string{"t=0.000s w0 got a", "t=2.000s w0 got a", "t=4.000s w0 shutdown"},
		},
		{
			name: "shutdown with drain waits for done",
			script: func(h *harness) {
				h.q.Add("a")
				h.worker("w0", 3*s)
				h.k.Spawn("drainer", func(p *kernel.Process) {
					p.Sleep(s)
					h.q.ShutDownWithDrain(p)
					h.logf("drained")
				})
			},
			want: []string{"t=0.000s w0 got a", "t=3.000s w0 shutdown", "t=3.000s drained"},
		},
		{
			name: "shutdown ends a drain early",
			script: func(h *harness) {
				h.q.Add("a")
				h.worker("w0", 3*s)
				h.k.Spawn("drainer", func(p *kernel.Process) {
					p.Sleep(s)
					h.q.ShutDownWithDrain(p)
					h.logf("drain ended")
				})
				h.at(2*s, h.q.ShutDown)
			},
			want: []string{"t=0.000s w0 got a", "t=2.000s drain ended", "t=3.000s w0 shutdown"},
		},
		{
			name: "drain with nothing processing returns at once",
			script: func(h *harness) {
				h.worker("w0", 0)
				h.k.Spawn("drainer", func(p *kernel.Process) {
					p.Sleep(s)
					h.q.ShutDownWithDrain(p)
					h.logf("drained")
				})
			},
			want: []string{"t=1.000s drained", "t=1.000s w0 shutdown"},
		},
		{
			name: "a waiter killed while parked is skipped",
			script: func(h *harness) {
				w0 := h.worker("w0", 0)
				h.worker("w1", 0)
				h.at(s, w0.Kill)
				h.at(2*s, func() { h.q.Add("a") })
			},
			want: []string{"t=2.000s w1 got a"},
		},
		{
			name: "a waiter woken for an item and killed passes the wake-up on",
			script: func(h *harness) {
				w0 := h.worker("w0", 0)
				h.worker("w1", 0)
				h.worker("w2", 0)
				h.at(s, func() {
					h.q.Add("a") // wakes w0 ...
					w0.Kill()    // ... which dies before it runs
				})
			},
			want: []string{"t=1.000s w1 got a"},
		},
		{
			name: "an item whose only waiter died stays queued",
			script: func(h *harness) {
				w0 := h.worker("w0", 0)
				h.at(s, func() {
					h.q.Add("a")
					w0.Kill()
				})
				h.at(2*s, func() { h.logf("Len = %d", h.q.Len()) })
				h.at(3*s, func() { h.worker("w1", 0) })
			},
			want: []string{"t=2.000s Len = 1", "t=3.000s w1 got a"},
		},
		{
			name: "a worker killed while processing calls done in its defer",
			script: func(h *harness) {
				h.q.Add("a")
				w0 := h.worker("w0", time.Hour)
				h.worker("w1", 0)
				h.at(s, func() { h.q.Add("a") })
				h.at(2*s, w0.Kill)
			},
			want: []string{"t=0.000s w0 got a", "t=2.000s w1 got a"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness()
			tc.script(h)
			h.run(t)
			checkLog(t, h.log, tc.want)
			// Every surviving worker must notice a shutdown: one left
			// parked would be a lost wake-up.
			h.q.ShutDown()
			h.k.Run(kernel.Limits{})
			if n := h.k.Live(); n != 0 {
				t.Errorf("%d processes still live after shutdown", n)
			}
		})
	}
}

func TestAddAfter(t *testing.T) {
	type call struct {
		at   time.Duration // when AddAfter (or Add, if add) is called
		item string
		d    time.Duration
		add  bool
	}
	tests := []struct {
		name        string
		calls       []call
		start       time.Duration // when the worker starts
		want        []string
		wantDelayed int
	}{
		{
			name:  "ready time order",
			calls: []call{{0, "a", 3 * ms, false}, {0, "b", ms, false}, {0, "c", 2 * ms, false}},
			want:  []string{"t=0.001s got b", "t=0.002s got c", "t=0.003s got a"},
		},
		{
			name:  "ties in call order",
			calls: []call{{0, "c", ms, false}, {0, "a", ms, false}, {0, "b", ms, false}},
			want:  []string{"t=0.001s got c", "t=0.001s got a", "t=0.001s got b"},
		},
		{
			name:  "ties across call times",
			calls: []call{{0, "a", 5 * ms, false}, {2 * ms, "b", 3 * ms, false}, {4 * ms, "c", ms, false}},
			want:  []string{"t=0.005s got a", "t=0.005s got b", "t=0.005s got c"},
		},
		{
			name:  "duplicate moves earlier",
			calls: []call{{0, "a", 5 * ms, false}, {0, "a", 2 * ms, false}},
			want:  []string{"t=0.002s got a"},
		},
		{
			name:  "later duplicate is ignored",
			calls: []call{{0, "a", 2 * ms, false}, {ms, "a", 5 * ms, false}},
			want:  []string{"t=0.002s got a"},
		},
		{
			name:  "moved entry ties after earlier callers",
			calls: []call{{0, "a", 2 * ms, false}, {0, "b", ms, false}, {0, "a", ms, false}},
			want:  []string{"t=0.001s got b", "t=0.001s got a"},
		},
		{
			name:  "zero and negative delays add now",
			calls: []call{{ms, "a", 0, false}, {ms, "b", -ms, false}},
			want:  []string{"t=0.001s got a", "t=0.001s got b"},
		},
		{
			name:  "queued item is delayed again",
			calls: []call{{0, "a", 0, true}, {0, "a", ms, false}},
			want:  []string{"t=0.000s got a", "t=0.001s got a"},
		},
		{
			name:  "delayed item is added even if it ran meanwhile",
			calls: []call{{0, "a", ms, false}, {0, "b", 0, true}, {0, "a", 0, true}},
			want:  []string{"t=0.000s got b", "t=0.000s got a", "t=0.001s got a"},
		},
		{
			name:  "delayed item still queued is not duplicated",
			calls: []call{{0, "a", 0, true}, {0, "a", ms, false}},
			start: 2 * ms,
			want:  []string{"t=0.002s got a"},
		},
		{
			name:        "infinite delay never fires",
			calls:       []call{{0, "a", InfDuration, false}, {0, "b", time.Duration(kernel.Forever), false}, {0, "c", ms, false}},
			want:        []string{"t=0.001s got c"},
			wantDelayed: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness()
			for _, c := range tc.calls {
				h.at(c.at, func() {
					if c.add {
						h.q.Add(c.item)
					} else {
						h.q.AddAfter(c.item, c.d)
					}
				})
			}
			h.k.Spawn("w", func(p *kernel.Process) {
				p.Sleep(tc.start)
				for {
					item, down := h.q.Get(p)
					if down {
						return
					}
					h.logf("got %s", item)
					h.q.Done(item)
				}
			})
			h.run(t)
			checkLog(t, h.log, tc.want)
			if m := h.q.Metrics(); m.Delayed != tc.wantDelayed {
				t.Errorf("Delayed = %d, want %d", m.Delayed, tc.wantDelayed)
			}
		})
	}
}

func TestAddAfterKeepsOneTimerEvent(t *testing.T) {
	k := kernel.New(1)
	q := New[int](k, nil)
	for i := range 1000 {
		q.AddAfter(i, time.Duration(i+1)*time.Millisecond)
	}
	if n := k.Pending(); n != 1 {
		t.Fatalf("Pending = %d after 1000 AddAfter calls in time order, want 1", n)
	}
	k.RunFor(500 * time.Millisecond)
	if q.Len() != 500 || q.Metrics().Delayed != 500 {
		t.Fatalf("after 500ms Len = %d, Delayed = %d; want 500 and 500", q.Len(), q.Metrics().Delayed)
	}
	if n := k.Pending(); n != 1 {
		t.Fatalf("Pending = %d while items are delayed, want 1", n)
	}
}

func TestAddRateLimitedBacksOff(t *testing.T) {
	k := kernel.New(1)
	q := New[string](k, nil)
	var at []time.Duration
	var requeues []int
	q.Add("x")
	k.Spawn("w", func(p *kernel.Process) {
		for {
			item, down := q.Get(p)
			if down {
				return
			}
			at = append(at, p.Now().Duration())
			requeues = append(requeues, q.NumRequeues(item))
			if q.NumRequeues(item) < 15 {
				q.AddRateLimited(item) // the sync failed: retry later
			} else {
				q.Forget(item) // give up, as the Deployment controller does
			}
			q.Done(item)
		}
	})
	k.Run(kernel.Limits{})
	if len(at) != 16 {
		t.Fatalf("processed %d times, want 16", len(at))
	}
	var want time.Duration
	for i := range at {
		if i > 0 {
			want += DefaultBaseDelay << (i - 1)
		}
		if at[i] != want || requeues[i] != i {
			t.Errorf("attempt %d at %v with %d requeues, want %v and %d", i, at[i], requeues[i], want, i)
		}
	}
	if got := at[15] - at[14]; got != 81920*time.Millisecond {
		t.Errorf("last retry delay = %v, want 1m21.92s", got)
	}
	if q.NumRequeues("x") != 0 {
		t.Errorf("NumRequeues after Forget = %d, want 0", q.NumRequeues("x"))
	}
	if m := q.Metrics(); m.Retries != 15 || m.Gets != 16 || m.Dones != 16 {
		t.Errorf("metrics = %+v, want 15 retries, 16 gets and dones", m)
	}
}

func TestMetrics(t *testing.T) {
	s := time.Second
	h := newHarness()
	h.q.Add("a")
	h.q.Add("b")
	h.q.Add("a")
	h.at(s, func() { h.worker("w0", 2*s) }) // a waits 1s, b 3s
	h.at(2*s, func() {
		h.q.Add("a") // dirty while processing: waits until Get at 5s
		h.q.AddAfter("c", 10*s)
		h.q.AddRateLimited("d")
		m := h.q.Metrics()
		want := Metrics{Adds: 3, Gets: 1, Retries: 2, Depth: 1, Processing: 1, Delayed: 2, LongestWait: s, TotalWait: s}
		if m != want {
			t.Errorf("at 2s metrics = %+v, want %+v", m, want)
		}
	})
	h.at(20*s, h.q.ShutDown)
	h.run(t)
	m := h.q.Metrics()
	// Gets: a@1s (waited 1s), b@3s (3s), d@5s (ready at 2.005s: waited
	// 2.995s), a@7s (dirty since 2s, re-queued behind d at 3s: 5s), c@12s
	// (0s).
	want := Metrics{Adds: 5, Gets: 5, Dones: 5, Retries: 2, LongestWait: 5 * s, TotalWait: 1*s + 3*s + 2995*time.Millisecond + 5*s}
	if m != want {
		t.Errorf("final metrics = %+v, want %+v", m, want)
	}
}

func TestGetWithoutProcessPanicsOnlyWhenItMustBlock(t *testing.T) {
	k := kernel.New(1)
	q := New[string](k, nil)
	q.Add("a")
	if item, down := q.Get(nil); item != "a" || down {
		t.Fatalf("Get(nil) = %q, %v; want a, false", item, down)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "get-in-process") {
			t.Fatalf("recover = %v, want get-in-process invariant panic", r)
		}
	}()
	q.Get(nil)
}

// TestPriorityQueueOrder: a NewPriority queue hands out the highest
// priority first and equal priorities in the order they were queued; an
// item re-queued by Done goes behind the items of its priority already
// waiting; with every priority equal the order is the FIFO queue's.
func TestPriorityQueueOrder(t *testing.T) {
	prios := map[string]int64{"hi-1": 10, "hi-2": 10, "neg": -5}
	prio := func(s string) int64 { return prios[s] }
	cases := []struct {
		name string
		prio func(string) int64
		adds []string
		want []string
	}{
		{"fifo", nil, []string{"a", "hi-1", "neg", "b", "hi-2"}, []string{"a", "hi-1", "neg", "b", "hi-2"}},
		{"priority", prio, []string{"a", "hi-1", "neg", "b", "hi-2"}, []string{"hi-1", "hi-2", "a", "b", "neg"}},
		{"equal priorities keep arrival order", func(string) int64 { return 0 }, []string{"e", "d", "c", "b", "a", "f", "g", "h"}, []string{"e", "d", "c", "b", "a", "f", "g", "h"}},
		{"duplicate add keeps the first place", prio, []string{"a", "b", "a", "hi-1"}, []string{"hi-1", "a", "b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := kernel.New(1)
			q := NewPriority[string](k, nil, tc.prio)
			for _, a := range tc.adds {
				q.Add(a)
			}
			var got []string
			for q.Len() > 0 {
				item, _ := q.Get(nil)
				got = append(got, item)
				q.Done(item)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("order %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPriorityQueueRequeue: an item added while processing is queued again
// at Done with a fresh place behind waiting items of its priority.
func TestPriorityQueueRequeue(t *testing.T) {
	k := kernel.New(1)
	q := NewPriority[string](k, nil, func(s string) int64 { return int64(len(s)) })
	q.Add("aa")
	first, _ := q.Get(nil)
	q.Add("aa") // dirty while processing
	q.Add("bb")
	q.Add("c")
	q.Done(first)
	var got []string
	for q.Len() > 0 {
		item, _ := q.Get(nil)
		got = append(got, item)
		q.Done(item)
	}
	if want := []string{"bb", "aa", "c"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
