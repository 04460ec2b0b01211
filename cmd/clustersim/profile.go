package main

import (
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"time"
)

// Profiling a whole command: CLUSTERSIM_CPUPROFILE=FILE writes a CPU
// profile of the command to FILE, CLUSTERSIM_MEMPROFILE=FILE a heap
// profile (allocations included) taken when the live heap was largest
// (checked every half second: what a run holds before it ends, not after
// it has let go); read them with `go tool pprof -top bin/clustersim
// FILE` (`-sample_index=inuse_space` for what was live);
// CLUSTERSIM_EXECTRACE=FILE writes Go's execution trace of the command
// (`go tool trace FILE`: which goroutine held which processor, the
// collector's phases; large, a few hundred MB a minute). Environment variables rather than
// flags so that every command (run, sweep, lesson, ...) can be profiled
// without a flag of its own; they change nothing a run computes.
const (
	cpuProfileEnv = "CLUSTERSIM_CPUPROFILE"
	memProfileEnv = "CLUSTERSIM_MEMPROFILE"
	execTraceEnv  = "CLUSTERSIM_EXECTRACE"
)

// startProfiles starts the profiles the environment asks for and returns
// the function that finishes them.
func startProfiles() (stop func()) {
	stopCPU := startToFile(cpuProfileEnv, pprof.StartCPUProfile, pprof.StopCPUProfile)
	stopTrace := startToFile(execTraceEnv, trace.Start, trace.Stop)
	var heap *peakHeap
	if path := os.Getenv(memProfileEnv); path != "" {
		heap = &peakHeap{path: path, done: make(chan struct{}), stopped: make(chan struct{})}
		go heap.watch()
	}
	return func() {
		stopCPU()
		stopTrace()
		if heap != nil {
			close(heap.done)
			<-heap.stopped
		}
	}
}

// startToFile starts a recording (the CPU profile, the execution trace)
// into the file the environment variable env names, if it names one, and
// returns what ends it and closes the file. A file that cannot be made or
// a recording that cannot start is reported; the command runs all the
// same.
func startToFile(env string, start func(io.Writer) error, stop func()) (end func()) {
	path := os.Getenv(env)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		if err = start(f); err != nil {
			f.Close()
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", env, err)
		return func() {}
	}
	return func() {
		stop()
		f.Close()
	}
}

// peakHeap writes a heap profile to path whenever the live heap has grown
// a tenth past the largest it has written one at.
type peakHeap struct {
	path          string
	done, stopped chan struct{}
}

func (h *peakHeap) watch() {
	defer close(h.stopped)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var written uint64
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-h.done:
			if written == 0 {
				h.write()
			}
			return
		case <-tick.C:
		}
		metrics.Read(sample)
		if live := sample[0].Value.Uint64(); live > written+written/10 {
			if h.write() {
				written = live
			}
		}
	}
}

func (h *peakHeap) write() bool {
	f, err := os.Create(h.path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", memProfileEnv, err)
		return false
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", memProfileEnv, err)
		return false
	}
	return true
}
