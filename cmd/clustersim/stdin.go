package main

import (
	"io"
	"os"
	"sync"

	"github.com/clustersim/clustersim/scenarios"
)

// stdinName is the file name "-" stands for in messages.
const stdinName = "<stdin>"

// stdin is what "-" reads, once: --seeds loads the scenario once per
// seed, from the same bytes. Tests replace r and clear read.
var stdin = struct {
	sync.Mutex
	r    io.Reader
	read bool
	data []byte
	err  error
}{r: os.Stdin}

// stdinData is standard input's bytes under lim's file-bytes cap, read on
// first use (every later call gets the first one's bytes or error).
func stdinData(lim scenarios.Limits) ([]byte, error) {
	stdin.Lock()
	defer stdin.Unlock()
	if !stdin.read {
		stdin.data, stdin.err = scenarios.ReadAll(stdinName, stdin.r, lim)
		stdin.read = true
	}
	return stdin.data, stdin.err
}

// readInput reads a file, or standard input for "-", under lim's
// file-bytes cap.
func readInput(path string, lim scenarios.Limits) ([]byte, error) {
	if path == "-" {
		return stdinData(lim)
	}
	return scenarios.ReadFile(path, lim)
}

// loadScenarioFile loads a scenario file, or one from standard input for
// "-": its relative file references are resolved against the current
// directory and stay inside it (or inside opts.Root, which must hold it).
func loadScenarioFile(path string, opts scenarios.Options) (*scenarios.Scenario, error) {
	if path != "-" {
		return scenarios.LoadFileWith(path, opts)
	}
	src, err := openSource(path, opts)
	if err != nil {
		return nil, err
	}
	return src.With()
}

// inputName names a path in messages.
func inputName(path string) string {
	if path == "-" {
		return stdinName
	}
	return path
}

// openSource opens a scenario's text for a sweep: a file, a built-in, or
// standard input for "-", whose relative file references resolve against
// the current directory as loadScenarioFile's do.
func openSource(arg string, opts scenarios.Options) (*scenarios.Source, error) {
	if arg != "-" {
		return scenarios.OpenSource(arg, opts)
	}
	data, err := readInput(arg, opts.Limits)
	if err != nil {
		return nil, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return scenarios.OpenSourceData(stdinName, data, wd, opts)
}
