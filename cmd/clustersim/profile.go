package main

import (
	"fmt"
	"io"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"runtime/trace"
	"strings"
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
// collector's phases; large, a few hundred MB a minute);
// CLUSTERSIM_MEMCLASSES=FILE writes the runtime's memory classes as CSV,
// a row each second of wall time and one at the end (memClassColumns:
// what the heap's live objects, its half-empty spans and its free spans
// take, against the collector's goal and the memory limit that counts
// them all); CLUSTERSIM_PROFILE_WINDOW=DURATION labels the CPU
// profile's samples of the simulations' own work (every command that
// runs one: runScenario, serve) with the window
// of virtual time they were taken in (label "virtual", each window's
// start as hh:mm:ss: `go tool pprof -tags bin/clustersim FILE` shows
// what each part of the run's virtual time cost, -tagfocus=virtual=...
// where one part's time went). Environment variables rather than
// flags so that every command (run, sweep, lesson, ...) can be profiled
// without a flag of its own; they change nothing a run computes.
const (
	cpuProfileEnv = "CLUSTERSIM_CPUPROFILE"
	memProfileEnv = "CLUSTERSIM_MEMPROFILE"
	execTraceEnv  = "CLUSTERSIM_EXECTRACE"
	memClassesEnv = "CLUSTERSIM_MEMCLASSES"
	windowEnv     = "CLUSTERSIM_PROFILE_WINDOW"
)

// profileWindowSet is CLUSTERSIM_PROFILE_WINDOW as startProfiles read it
// when the process started (0: unset or refused); read-only after.
var profileWindowSet time.Duration

// minProfileWindow is the shortest window CLUSTERSIM_PROFILE_WINDOW
// takes: the label changes as the clock enters a window, and a window of
// a few events would make a label, and its allocation, an event.
const minProfileWindow = time.Second

// profileWindow reads CLUSTERSIM_PROFILE_WINDOW: the span of virtual time
// by which the CPU profile's samples are labelled, 0 when it is unset. A
// value that is no duration of at least minProfileWindow is reported on
// stderr and the run goes on unlabelled, as a profile file that cannot be
// made does; so is a window without CLUSTERSIM_CPUPROFILE, whose samples
// are all it labels.
func profileWindow(stderr io.Writer) time.Duration {
	v := os.Getenv(windowEnv)
	if v == "" {
		return 0
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < minProfileWindow {
		fmt.Fprintf(stderr, "clustersim: %s=%q: want a duration of at least %v, such as 5m; the profile is not labelled\n", windowEnv, v, minProfileWindow)
		return 0
	}
	if os.Getenv(cpuProfileEnv) == "" {
		fmt.Fprintf(stderr, "clustersim: %s=%s labels the samples of a CPU profile, and %s asks for none; nothing is labelled\n", windowEnv, v, cpuProfileEnv)
		return 0
	}
	return d
}

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
	stopClasses := startMemClasses()
	profileWindowSet = profileWindow(os.Stderr)
	return func() {
		stopCPU()
		stopTrace()
		stopClasses()
		if heap != nil {
			close(heap.done)
			<-heap.stopped
		}
	}
}

// memClassColumns are the CSV's columns after the seconds since the
// command started: runtime/metrics samples, those in bytes given in MiB. heap/unused is the free room in spans that hold live
// objects, which the memory limit counts against the heap (the
// twenty-third pass of docs/PERFORMANCE.md).
var memClassColumns = []struct{ header, metric string }{
	{"heap_objects_mib", "/memory/classes/heap/objects:bytes"},
	{"heap_unused_mib", "/memory/classes/heap/unused:bytes"},
	{"heap_free_mib", "/memory/classes/heap/free:bytes"},
	{"heap_released_mib", "/memory/classes/heap/released:bytes"},
	{"total_mib", "/memory/classes/total:bytes"},
	{"gc_goal_mib", "/gc/heap/goal:bytes"},
	{"gc_live_mib", "/gc/heap/live:bytes"},
	{"gc_cycles", "/gc/cycles/total:gc-cycles"},
}

// startMemClasses writes the memory classes to the file
// CLUSTERSIM_MEMCLASSES names, if it names one, until the returned
// function is called; a file that cannot be made is reported and the
// command runs all the same.
func startMemClasses() (stop func()) {
	path := os.Getenv(memClassesEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", memClassesEnv, err)
		return func() {}
	}
	samples := make([]metrics.Sample, len(memClassColumns))
	header := "seconds"
	for i, c := range memClassColumns {
		samples[i].Name = c.metric
		header += "," + c.header
	}
	fmt.Fprintln(f, header)
	start := time.Now()
	row := func() {
		metrics.Read(samples)
		line := fmt.Sprintf("%.1f", time.Since(start).Seconds())
		for i, s := range samples {
			v := s.Value.Uint64()
			if strings.HasSuffix(memClassColumns[i].metric, ":bytes") {
				v >>= 20
			}
			line += fmt.Sprintf(",%d", v)
		}
		fmt.Fprintln(f, line)
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				row()
				return
			case <-tick.C:
				row()
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", memClassesEnv, err)
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
