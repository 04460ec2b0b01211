package main

import (
	"os"
	"runtime/debug"
	"sync"
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

// What is left of `clustersim run` once its simulation has ended
// (gathering the result, the detectors, the report) allocates a few
// hundred megabytes (some 500 MB at 5,000 nodes, most of it the audit
// log gathered into one slice) while the heap still holds the cluster
// the run has just finished with, which only a collection after this
// point frees. A large run ends at the memory limit with a collection
// under way that marks that cluster, so every one of those allocations
// helps mark it (an assist) on the command's one busy thread: the
// 5,000-node probe's end took 8.7 and 18.0 s. endOfRun raises the limit
// by endHeadroom there, so that the marking finishes on the other
// processor while the report is made: the end took 3.3 to 3.4 s with
// 512 MiB of headroom, as with 1 GiB, and 5.6 to 7.0 s with 256 MiB.
// The report's memory comes mostly from what the collection under way
// frees; the headroom bounds it where it does not. Peak resident set of
// the probe: at most 4,054,308 KB with 512 MiB, 4,119,820 KB with 1 GiB,
// against 4 GiB asked (docs/PERFORMANCE.md, twenty-first pass).
const endHeadroom = 512 << 20

// tuneGC applies gcPercent and gcMemoryLimit unless GOGC or GOMEMLIMIT
// is set, starts the governor that raises the limit for a run whose live
// heap outgrows it (memlimit.go) when the limit is tuneGC's, and returns
// the function that stops the governor and puts back what was there (for
// a benchmark that runs the command in its own process). It changes when
// memory is collected, never what a run computes.
func tuneGC() (restore func()) {
	percent, limit := gcSettings()
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	var g *heapGovernor
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		g = newHeapGovernor(gcMemoryLimit, memoryCeiling(), noteWriter{os.Stderr})
		g.start()
		governor.Store(g)
	}
	return func() {
		if g != nil {
			governor.CompareAndSwap(g, nil)
			g.close()
		}
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// endOfRun eases the collector for what is left of one `clustersim
// run` once its simulation has ended (simulated, given to the runner as
// runner.Options.Simulated) and puts the setting back when the command
// is done with the run (done): BenchmarkScaleRun runs the command many
// times in one process. Both go through the process's heapGovernor
// (endSimulation, reset); without one (GOMEMLIMIT set, or no tuneGC)
// they leave the limit alone.
type endOfRun struct {
	mu sync.Mutex
	// over is set by done: a run the watchdog gave up on (--stall) may
	// still reach its end later, and must not raise the limit then.
	over bool
}

// simulated has the governor stop raising the limit and add endHeadroom
// to it, when the limit is still the governor's own.
func (e *endOfRun) simulated() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if g := governor.Load(); g != nil && !e.over {
		g.endSimulation()
	}
}

// done puts the governor's base limit back (the next run in the process
// starts afresh), and keeps a later call of simulated from raising it.
func (e *endOfRun) done() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.over = true
	if g := governor.Load(); g != nil {
		g.reset()
	}
}

// gcSettings returns the collector's GOGC and memory limit as they are
// now (the runtime reads them only by setting them).
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}
