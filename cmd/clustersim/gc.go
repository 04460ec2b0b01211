package main

import (
	"os"
	"runtime/debug"
)

// The garbage collector's settings when the environment leaves them
// alone: a simulation keeps its whole cluster live (the store, every
// informer's cache, the audit log) and allocates a copy per write, so
// Go's default (collect when the heap has doubled) spends a fifth of a
// large run's CPU collecting. gcPercent lets the heap grow to five times
// what is live before a collection; gcMemoryLimit makes the collector
// work harder instead as the memory nears 3600 MiB, so that a run that
// fits in memory does not stop fitting because of the first setting.
// The limit leaves room under 4 GiB for what is not the Go heap: at
// 3 GiB, the 5,000-node probe's live heap filled the limit and the
// collector ran without pause (8 min 16 s, 4.60 GB peak RSS); at 3600
// MiB it took 6 min 15 s and 4.46 GB (docs/PERFORMANCE.md).
const (
	gcPercent     = 400
	gcMemoryLimit = 3600 << 20
)

// tuneGC applies gcPercent and gcMemoryLimit unless GOGC or GOMEMLIMIT
// is set, and returns the function that puts back what was there (for a
// benchmark that runs the command in its own process). It changes when
// memory is collected, never what a run computes.
func tuneGC() (restore func()) {
	percent, limit := gcSettings()
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(gcMemoryLimit)
	}
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// gcSettings returns the collector's GOGC and memory limit as they are
// now (the runtime reads them only by setting them).
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}
