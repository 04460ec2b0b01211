package main

import (
	"io"
	"os"
	"runtime/debug"
	"testing"
)

// TestTuneGC: without GOGC and GOMEMLIMIT in the environment, tuneGC sets
// gcPercent and gcMemoryLimit, and what it returns puts back what was
// there before (BenchmarkScaleRun relies on it); with them set, it leaves
// the setting they made alone.
func TestTuneGC(t *testing.T) {
	percent, limit := gcSettings()
	defer func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) }()

	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Setenv(env, "")
		os.Unsetenv(env)
	}
	debug.SetGCPercent(123)
	debug.SetMemoryLimit(1 << 40)
	restore := tuneGC()
	if p, l := gcSettings(); p != gcPercent || l != gcMemoryLimit {
		t.Errorf("after tuneGC: GOGC %d, memory limit %d; want %d, %d", p, l, gcPercent, gcMemoryLimit)
	}
	restore()
	if p, l := gcSettings(); p != 123 || l != 1<<40 {
		t.Errorf("after restore: GOGC %d, memory limit %d; want 123, %d", p, l, int64(1<<40))
	}

	t.Setenv("GOGC", "123")
	t.Setenv("GOMEMLIMIT", "1TiB")
	debug.SetGCPercent(123)
	debug.SetMemoryLimit(1 << 40)
	restore = tuneGC()
	if p, l := gcSettings(); p != 123 || l != 1<<40 {
		t.Errorf("with GOGC and GOMEMLIMIT set, tuneGC changed them: %d, %d", p, l)
	}
	restore()
}

// TestEndOfRun: once a run's simulation has ended, endOfRun raises the
// memory limit tuneGC's governor set (its base, or a raise) by
// endHeadroom, and puts the base back when the command is done with the
// run; a GOMEMLIMIT from the environment (no governor), or a limit
// someone else set, it leaves alone.
func TestEndOfRun(t *testing.T) {
	percent, limit := gcSettings()
	defer func() { debug.SetGCPercent(percent); debug.SetMemoryLimit(limit) }()
	for _, tt := range []struct {
		name                    string
		env                     string // GOMEMLIMIT; "" unset
		limit                   int64
		doneFirst               bool  // the watchdog gave up on the run before it ended
		governed                int64 // a governor runs and raised the limit to this (0: no governor)
		wantSimulated, wantDone int64
	}{
		{name: "tuneGC's limit", governed: gcMemoryLimit, wantSimulated: gcMemoryLimit + endHeadroom, wantDone: gcMemoryLimit},
		{name: "GOMEMLIMIT set", env: "3600MiB", limit: gcMemoryLimit, wantSimulated: gcMemoryLimit, wantDone: gcMemoryLimit},
		{name: "another limit", limit: 123 << 20, wantSimulated: 123 << 20, wantDone: 123 << 20},
		{name: "ended after done", governed: gcMemoryLimit, doneFirst: true, wantSimulated: gcMemoryLimit, wantDone: gcMemoryLimit},
		{name: "governed, not raised", governed: gcMemoryLimit, wantSimulated: gcMemoryLimit + endHeadroom, wantDone: gcMemoryLimit},
		{name: "governed and raised", governed: 2 * gcMemoryLimit, wantSimulated: 2*gcMemoryLimit + endHeadroom, wantDone: gcMemoryLimit},
		{name: "governed, another limit", governed: 2 * gcMemoryLimit, limit: 123 << 20, wantSimulated: 123 << 20, wantDone: 123 << 20},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOMEMLIMIT", tt.env)
			if tt.env == "" {
				os.Unsetenv("GOMEMLIMIT")
			}
			if tt.governed != 0 {
				g := newHeapGovernor(gcMemoryLimit, 1<<40, io.Discard)
				g.observe(tt.governed / raiseToLive)
				if _, l := gcSettings(); l != tt.governed {
					t.Fatalf("the governor raised the limit to %d, want %d", l, tt.governed)
				}
				governor.Store(g)
				defer governor.Store(nil)
			}
			if tt.limit != 0 {
				debug.SetMemoryLimit(tt.limit)
			}
			var end endOfRun
			if tt.doneFirst {
				end.done()
			}
			end.simulated()
			if _, l := gcSettings(); l != tt.wantSimulated {
				t.Errorf("after simulated: memory limit %d, want %d", l, tt.wantSimulated)
			}
			end.done()
			if _, l := gcSettings(); l != tt.wantDone {
				t.Errorf("after done: memory limit %d, want %d", l, tt.wantDone)
			}
		})
	}
}
