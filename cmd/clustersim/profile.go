package main

import (
	"fmt"
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
	var cpu *os.File
	if path := os.Getenv(cpuProfileEnv); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", cpuProfileEnv, err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", cpuProfileEnv, err)
			f.Close()
		} else {
			cpu = f
		}
	}
	var exec *os.File
	if path := os.Getenv(execTraceEnv); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", execTraceEnv, err)
		} else if err := trace.Start(f); err != nil {
			fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", execTraceEnv, err)
			f.Close()
		} else {
			exec = f
		}
	}
	var heap *peakHeap
	if path := os.Getenv(memProfileEnv); path != "" {
		heap = &peakHeap{path: path, done: make(chan struct{}), stopped: make(chan struct{})}
		go heap.watch()
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if exec != nil {
			trace.Stop()
			exec.Close()
		}
		if heap != nil {
			close(heap.done)
			<-heap.stopped
		}
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
