package main

import (
	"bytes"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// TestRaisedLimit: the limit stays while the live heap is at most
// raiseAtPercent of it; past that it becomes raiseToLive times the live
// heap, never more than the ceiling, never less than it was; at or over
// the ceiling it stays.
func TestRaisedLimit(t *testing.T) {
	const mib = 1 << 20
	for _, tt := range []struct {
		name                 string
		live, limit, ceiling int64
		want                 int64
	}{
		{"small heap", 100 * mib, 3600 * mib, 18000 * mib, 3600 * mib},
		{"the 5,000-node probe's peak", 2130 * mib, 3600 * mib, 18000 * mib, 3600 * mib},
		{"at raiseAtPercent exactly", 2520 * mib, 3600 * mib, 18000 * mib, 3600 * mib},
		{"just past it", 2521 * mib, 3600 * mib, 18000 * mib, 5042 * mib},
		{"the 10,000-node probe", 3529 * mib, 3600 * mib, 18000 * mib, 7058 * mib},
		{"past the limit", 4000 * mib, 3600 * mib, 18000 * mib, 8000 * mib},
		{"capped by the ceiling", 9000 * mib, 10000 * mib, 12000 * mib, 12000 * mib},
		{"at the ceiling", 11000 * mib, 12000 * mib, 12000 * mib, 12000 * mib},
		{"ceiling below the limit", 3000 * mib, 3600 * mib, 2000 * mib, 3600 * mib},
		{"no ceiling known", 3000 * mib, 3600 * mib, 0, 3600 * mib},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := raisedLimit(tt.live, tt.limit, tt.ceiling); got != tt.want {
				t.Errorf("raisedLimit(%d MiB, %d MiB, %d MiB) = %d MiB, want %d MiB", tt.live/mib, tt.limit/mib, tt.ceiling/mib, got/mib, tt.want/mib)
			}
		})
	}
}

// keepLimit puts back the process's memory limit when the test ends.
func keepLimit(t *testing.T) {
	_, limit := gcSettings()
	t.Cleanup(func() { debug.SetMemoryLimit(limit) })
}

// TestHeapGovernorObserve walks a governor through a growing run: no
// raise while the live heap fits, a raise (said once on its writer) each
// time it nears the limit, the warning once at the ceiling; nothing
// while frozen (after endSimulation's headroom) or when someone else set
// the limit; reset back to base.
func TestHeapGovernorObserve(t *testing.T) {
	keepLimit(t)
	const mib = 1 << 20
	var out bytes.Buffer
	g := newHeapGovernor(100*mib, 1000*mib, &out)
	limit := func() int64 { _, l := gcSettings(); return l }
	steps := []struct {
		live      int64
		wantLimit int64
		wantOut   string // a substring of what the step printed; "" for nothing
	}{
		{50 * mib, 100 * mib, ""},
		{70 * mib, 100 * mib, ""},
		{80 * mib, 160 * mib, "live heap is 0.08 GiB, near the collector's memory limit of 0.10 GiB: raised to 0.16 GiB (at most 0.98 GiB on this machine"},
		{100 * mib, 160 * mib, ""},
		{300 * mib, 600 * mib, "raised to 0.59 GiB"},
		{600 * mib, 1000 * mib, "raised to 0.98 GiB"},
		{650 * mib, 1000 * mib, ""},
		{800 * mib, 1000 * mib, "near the 0.98 GiB this machine allows a run (75% of its memory)"},
		{900 * mib, 1000 * mib, ""}, // said once
	}
	for i, s := range steps {
		out.Reset()
		g.observe(s.live)
		if got := limit(); got != s.wantLimit {
			t.Errorf("step %d (live %d MiB): limit %d MiB, want %d MiB", i, s.live/mib, got/mib, s.wantLimit/mib)
		}
		if s.wantOut == "" && out.Len() > 0 || !strings.Contains(out.String(), s.wantOut) {
			t.Errorf("step %d (live %d MiB): printed %q, want %q", i, s.live/mib, out.String(), s.wantOut)
		}
	}

	if got := g.raisesSoFar(); got != 3 {
		t.Errorf("raisesSoFar() = %d, want 3", got)
	}
	g.reset()
	if got := limit(); got != 100*mib {
		t.Errorf("after reset: limit %d MiB, want the base, 100", got/mib)
	}
	g.endSimulation()
	if got := limit(); got != 100*mib+endHeadroom {
		t.Errorf("after endSimulation: limit %d MiB, want the base and endHeadroom, %d", got/mib, (100*mib+endHeadroom)/mib)
	}
	g.observe(900 * mib)
	if got := limit(); got != 100*mib+endHeadroom {
		t.Errorf("frozen: limit %d MiB, want %d (no raise)", got/mib, (100*mib+endHeadroom)/mib)
	}
	g.reset()
	debug.SetMemoryLimit(123 * mib)
	g.observe(900 * mib)
	if got := limit(); got != 123*mib {
		t.Errorf("another's limit: %d MiB, want 123 (left alone)", got/mib)
	}
	g.reset()
	if got := limit(); got != 123*mib {
		t.Errorf("reset over another's limit: %d MiB, want 123 (left alone)", got/mib)
	}
}

// TestHeapGovernorWatch: started, the governor raises the limit after a
// collection that finds the live heap past raiseAtPercent of it, and
// close stops it.
func TestHeapGovernorWatch(t *testing.T) {
	keepLimit(t)
	const mib = 1 << 20
	var out syncBuffer
	g := newHeapGovernor(64*mib, 1<<40, &out)
	g.start()
	defer g.close()
	live := make([]byte, 64*mib)
	for i := range live {
		live[i] = byte(i)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		if _, l := gcSettings(); l > 64*mib {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no raise within 10 s with %d MiB live under a 64 MiB limit", len(live)/mib)
		}
		time.Sleep(governorPoll)
	}
	runtime.KeepAlive(live)
	if !strings.Contains(out.String(), "raised to") {
		t.Errorf("raised without saying so: %q", out.String())
	}
}

// TestCgroupMax reads cgroup v2's memory.max.
func TestCgroupMax(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want uint64
	}{
		{"max\n", 0},
		{"4294967296\n", 4 << 30},
		{"", 0},
		{"-1", 0},
		{"12kB", 0},
		{"99999999999999999999", 0},
	} {
		if got := cgroupMax([]byte(tt.in)); got != tt.want {
			t.Errorf("cgroupMax(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// TestHeapGovernorForRuns: while several simulations run at once, the
// base (and the limit, when it is the governor's) is as many times one
// simulation's, at most the ceiling; what forRuns returns puts it back;
// a limit someone else set is left alone.
func TestHeapGovernorForRuns(t *testing.T) {
	keepLimit(t)
	const mib = 1 << 20
	limit := func() int64 { _, l := gcSettings(); return l }
	for _, tt := range []struct {
		name              string
		runs              int
		other             int64 // a limit someone else set first (0: none)
		wantDuring, after int64
	}{
		{name: "one run", runs: 1, wantDuring: 100 * mib, after: 100 * mib},
		{name: "two runs", runs: 2, wantDuring: 200 * mib, after: 100 * mib},
		{name: "capped by the ceiling", runs: 16, wantDuring: 1000 * mib, after: 100 * mib},
		{name: "another's limit", runs: 2, other: 123 * mib, wantDuring: 123 * mib, after: 123 * mib},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newHeapGovernor(100*mib, 1000*mib, io.Discard)
			if tt.other != 0 {
				debug.SetMemoryLimit(tt.other)
			}
			restore := g.forRuns(tt.runs)
			if got := limit(); got != tt.wantDuring {
				t.Errorf("during %d runs: limit %d MiB, want %d", tt.runs, got/mib, tt.wantDuring/mib)
			}
			restore()
			if got := limit(); got != tt.after {
				t.Errorf("after: limit %d MiB, want %d", got/mib, tt.after/mib)
			}
			if g.base != 100*mib {
				t.Errorf("after: base %d MiB, want 100", g.base/mib)
			}
		})
	}
}

// TestHeapGovernorShared: while forRuns has simulations share the limit,
// one simulation's end (endSimulation, then reset, as endOfRun calls
// them) leaves the limit, raised or not, to the others; the restore puts
// the base back, a raise made meanwhile included.
func TestHeapGovernorShared(t *testing.T) {
	keepLimit(t)
	const mib = 1 << 20
	limit := func() int64 { _, l := gcSettings(); return l }
	g := newHeapGovernor(100*mib, 1000*mib, io.Discard)
	restore := g.forRuns(2)
	g.observe(190 * mib) // past 70% of 200 MiB: raised to 380
	if got := limit(); got != 380*mib {
		t.Fatalf("raised while shared: limit %d MiB, want 380", got/mib)
	}
	g.endSimulation()
	g.reset()
	if got := limit(); got != 380*mib {
		t.Errorf("one simulation's end while shared: limit %d MiB, want 380 kept for the other", got/mib)
	}
	g.observe(300 * mib) // the other still grows: raised again
	if got := limit(); got != 600*mib {
		t.Errorf("raised after one simulation's end: limit %d MiB, want 600", got/mib)
	}
	restore()
	if got := limit(); got != 100*mib {
		t.Errorf("after the runs: limit %d MiB, want the base, 100", got/mib)
	}
	g.endSimulation() // a single run's end again adds the headroom
	if got := limit(); got != 100*mib+endHeadroom {
		t.Errorf("a single run's end: limit %d MiB, want %d", got/mib, (100*mib+endHeadroom)/mib)
	}
	g.reset()
	if got := limit(); got != 100*mib {
		t.Errorf("after a single run: limit %d MiB, want 100", got/mib)
	}
}
