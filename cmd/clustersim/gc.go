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
// work harder instead as the heap nears 3 GiB, so that a run that fits
// in memory does not stop fitting because of the first setting.
const (
	gcPercent     = 400
	gcMemoryLimit = 3 << 30
)

// tuneGC applies gcPercent and gcMemoryLimit unless GOGC or GOMEMLIMIT
// is set. It changes when memory is collected, never what a run
// computes.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(gcMemoryLimit)
	}
}
