package main

import (
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
