package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The collector's memory limit follows a large run's live heap.
//
// gcMemoryLimit keeps the 5,000-node probe under 4 GiB (its live heap
// peaks at some 2,080 MiB, 58% of the limit), but a larger cluster's live
// heap does not fit under it: at 10,000 nodes it reaches 3,530 MiB, the heap
// can no longer grow past what is live, and the collector runs without
// pause. The run then never ends: `clustersim run` of the 10,000-node
// probe was stopped after 400 s, on both processors all along, where
// with GOMEMLIMIT=12GiB it took 143.59 s (docs/PERFORMANCE.md,
// forty-ninth pass). So while a run's simulation goes on, a governor
// reads the live heap after each collection and, once it passes
// raiseAtPercent of the limit, raises the limit to raiseToLive times the
// live heap, never above the machine's ceiling (memoryCeiling: a share
// of its memory, or of its cgroup's limit), and says so on standard
// error. A run that fits, as every probe up to 5,000 nodes does, keeps
// gcMemoryLimit and its memory; a run that does not uses memory in
// proportion to its cluster rather than never ending. At the ceiling the
// governor says that the collector will run more and more often.
//
// It changes when memory is collected, never what a run computes. A
// GOMEMLIMIT in the environment turns it off (tuneGC), as does a limit
// someone else set (it only ever replaces its own); a run's end stops
// it (endSimulation, from endOfRun), since what follows the simulation
// is short and bounded by endHeadroom.
const (
	raiseAtPercent = 70
	raiseToLive    = 2
	ceilingPercent = 75
	governorPoll   = 50 * time.Millisecond
)

// raisedLimit returns the memory limit a live heap of live bytes calls
// for under limit, at most ceiling: limit itself while live is at most
// raiseAtPercent of it (or limit is at the ceiling already), else
// raiseToLive times live, capped.
func raisedLimit(live, limit, ceiling int64) int64 {
	if live*100 <= limit*raiseAtPercent || limit >= ceiling {
		return limit
	}
	return min(ceiling, max(limit, raiseToLive*live))
}

// heapGovernor raises the collector's memory limit as a run's live heap
// grows (see the comment above raiseAtPercent).
type heapGovernor struct {
	mu sync.Mutex
	// base is the limit every run starts from; ceiling the most it
	// raises the limit to (0: never raises).
	base, ceiling int64
	// limit is the limit it set last (base, or a raise).
	limit int64
	// told: the live heap neared the ceiling and out was told once.
	told bool
	// raises counts the raises since the governor began (raisesSoFar).
	raises int
	// from is the runtime's count of collections when start began to
	// watch: observe hears of later ones only.
	from uint64
	// shared is set while forRuns has several simulations share the
	// limit: one's end then neither adds headroom nor resets it under
	// the others (forRuns' restore does, once they are all done).
	shared bool
	out    io.Writer

	stop, stopped chan struct{}
}

// governor is the process's running heapGovernor (tuneGC starts it),
// nil when there is none.
var governor atomic.Pointer[heapGovernor]

// newHeapGovernor returns a governor of the limit base, which it sets,
// raising it up to ceiling and telling out. Its watch starts with start.
func newHeapGovernor(base, ceiling int64, out io.Writer) *heapGovernor {
	debug.SetMemoryLimit(base)
	return &heapGovernor{base: base, ceiling: ceiling, limit: base, out: out}
}

// start watches the runtime's count of collections every governorPoll
// and calls observe with the live heap after each new one, until close:
// after each one from now on, not the last one before (whose live heap
// was someone else's: the huge-page reserve's, say).
func (g *heapGovernor) start() {
	g.stop, g.stopped = make(chan struct{}), make(chan struct{})
	samples := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(samples)
	if samples[0].Value.Kind() == metrics.KindUint64 {
		g.from = samples[0].Value.Uint64()
	}
	go func() {
		defer close(g.stopped)
		seen := g.from
		tick := time.NewTicker(governorPoll)
		defer tick.Stop()
		for {
			select {
			case <-g.stop:
				return
			case <-tick.C:
			}
			metrics.Read(samples)
			if samples[0].Value.Kind() != metrics.KindUint64 || samples[1].Value.Kind() != metrics.KindUint64 {
				return // a runtime without these metrics: nothing to govern by
			}
			if cycles := samples[0].Value.Uint64(); cycles != seen {
				seen = cycles
				g.observe(int64(samples[1].Value.Uint64()))
			}
		}
	}()
}

// close stops the watch started by start and waits for it.
func (g *heapGovernor) close() {
	if g.stop != nil {
		close(g.stop)
		<-g.stopped
		g.stop = nil
	}
}

// observe takes the live heap after a collection and raises the limit if
// raisedLimit calls for it and the limit is still the governor's own.
func (g *heapGovernor) observe(live int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if debug.SetMemoryLimit(-1) != g.limit {
		return
	}
	if next := raisedLimit(live, g.limit, g.ceiling); next != g.limit {
		fmt.Fprintf(g.out, "clustersim: the simulation's live heap is %s, near the collector's memory limit of %s: raised to %s (at most %s on this machine; GOMEMLIMIT fixes the limit)\n",
			gib(live), gib(g.limit), gib(next), gib(g.ceiling))
		debug.SetMemoryLimit(next)
		g.limit = next
		g.raises++
		return
	}
	if g.ceiling > 0 && g.limit >= g.ceiling && live*100 > g.ceiling*raiseAtPercent && !g.told {
		g.told = true
		fmt.Fprintf(g.out, "clustersim: the simulation's live heap is %s, near the %s this machine allows a run (%d%% of its memory): from here the collector runs more and more often, and the run slows down; a smaller cluster, or a machine with more memory, runs it\n",
			gib(live), gib(g.ceiling), ceilingPercent)
	}
}

// endSimulation adds endHeadroom to the limit when it is still the
// governor's own: a run's simulation has ended, and what follows is short
// and bounded by the headroom. The limit is then no longer the one the
// governor set (limit), so observe raises it no more until reset.
func (g *heapGovernor) endSimulation() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.shared && debug.SetMemoryLimit(-1) == g.limit {
		debug.SetMemoryLimit(g.limit + endHeadroom)
	}
}

// reset puts the limit back to base, if it is still the governor's own
// (or that plus endSimulation's headroom), and lets raises begin again:
// the next run in the process starts where the first did.
func (g *heapGovernor) reset() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.shared {
		g.resetLocked()
	}
}

// resetLocked is reset's work, under g.mu.
func (g *heapGovernor) resetLocked() {
	if cur := debug.SetMemoryLimit(-1); cur == g.limit || cur == g.limit+endHeadroom {
		debug.SetMemoryLimit(g.base)
	}
	g.limit, g.told = g.base, false
}

// forRuns makes the governor's base limit runs times the base it had, at
// most its ceiling (never less than that base), while runs simulations
// go on at once (parallel: --seeds with --jobs, compare, sweep, lesson),
// and returns what puts the base back, and the limit with it when it is
// still the governor's own (raised or not). Meanwhile one simulation's
// end (endSimulation, reset) leaves the limit to the others. gcMemoryLimit is one simulation's
// budget, and with every processor running a simulation the collector
// has none to itself: two 3,000-node seeds at once took 147.21 s under
// one simulation's limit, 58.67 s under GOMEMLIMIT=8GiB, and 58.94 s one
// after the other (docs/PERFORMANCE.md, forty-ninth pass). A limit that
// is not the governor's own is left alone.
func (g *heapGovernor) forRuns(runs int) (restore func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	base := g.base
	if runs <= 1 {
		return func() {}
	}
	scaled := max(base, min(g.ceiling, base*int64(runs)))
	g.base, g.shared = scaled, true
	if cur := debug.SetMemoryLimit(-1); cur == g.limit && g.limit < scaled {
		debug.SetMemoryLimit(scaled)
		g.limit = scaled
	}
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.base, g.shared = base, false
		g.resetLocked()
	}
}

// raisesSoFar returns how many times the governor has raised the limit
// (BenchmarkScaleRun reports it: a probe that fits has none).
func (g *heapGovernor) raisesSoFar() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.raises
}

// gib renders n bytes in GiB, two decimals.
func gib(n int64) string { return strconv.FormatFloat(float64(n)/(1<<30), 'f', 2, 64) + " GiB" }

// memoryCeiling returns the most the governor raises the limit to:
// ceilingPercent of the machine's memory (/proc/meminfo's MemTotal), or
// of its cgroup's limit (cgroup v2's memory.max) when that is lower; 0
// where neither can be read (the governor then never raises).
func memoryCeiling() int64 {
	return int64(machineMemory() / 100 * ceilingPercent)
}

// machineMemory is the memory this process may use: the machine's
// (/proc/meminfo's MemTotal), or its cgroup's limit (cgroup v2's
// memory.max) when that is lower; 0 where neither can be read.
func machineMemory() uint64 {
	meminfo, _ := os.ReadFile("/proc/meminfo")
	memoryMax, _ := os.ReadFile("/sys/fs/cgroup/memory.max")
	return usableMemory(meminfo, memoryMax)
}

// usableMemory is machineMemory from the texts of /proc/meminfo and
// memory.max.
func usableMemory(meminfo, memoryMax []byte) uint64 {
	total := memTotal(meminfo)
	if cg := cgroupMax(memoryMax); cg > 0 && (total == 0 || cg < total) {
		total = cg
	}
	return total
}

// memTotal reads MemTotal (in bytes) from the text of /proc/meminfo; 0
// if it is not there.
func memTotal(meminfo []byte) uint64 {
	for line := range bytes.Lines(meminfo) {
		rest, ok := bytes.CutPrefix(line, []byte("MemTotal:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0
		}
		kb, err := strconv.ParseUint(string(f[0]), 10, 64)
		if err != nil || kb > 1<<50 {
			return 0
		}
		return kb << 10
	}
	return 0
}

// cgroupMax returns the bytes of a cgroup v2 memory.max's text, 0 for
// "max" (no limit) or what does not parse.
func cgroupMax(data []byte) uint64 {
	n, err := strconv.ParseUint(string(bytes.TrimSpace(data)), 10, 64)
	if err != nil || n > 1<<60 {
		return 0
	}
	return n
}
