package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// Profiling a whole command: CLUSTERSIM_CPUPROFILE=FILE writes a CPU
// profile of the command to FILE, CLUSTERSIM_MEMPROFILE=FILE a heap
// profile (allocations included) when it ends; read them with `go tool
// pprof -top bin/clustersim FILE`. Environment variables rather than
// flags so that every command (run, sweep, lesson, ...) can be profiled
// without a flag of its own; they change nothing a run computes.
const (
	cpuProfileEnv = "CLUSTERSIM_CPUPROFILE"
	memProfileEnv = "CLUSTERSIM_MEMPROFILE"
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
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			cpu.Close()
		}
		if path := os.Getenv(memProfileEnv); path != "" {
			f, err := os.Create(path)
			if err != nil {
				fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", memProfileEnv, err)
				return
			}
			runtime.GC()
			if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
				fmt.Fprintf(os.Stderr, "clustersim: %s: %v\n", memProfileEnv, err)
			}
			f.Close()
		}
	}
}
