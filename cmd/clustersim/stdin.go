package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
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
}{r: os.Stdin}

// stdinData is standard input's bytes, read on first use.
func stdinData() ([]byte, error) {
	stdin.Lock()
	defer stdin.Unlock()
	if !stdin.read {
		data, err := io.ReadAll(stdin.r)
		if err != nil {
			return nil, err
		}
		stdin.data, stdin.read = data, true
	}
	return stdin.data, nil
}

// readInput reads a file, or standard input for "-".
func readInput(path string) ([]byte, error) {
	if path == "-" {
		return stdinData()
	}
	return os.ReadFile(path)
}

// loadScenarioFile loads a scenario file, or one from standard input for
// "-" (its relative file references resolved against the current
// directory).
func loadScenarioFile(path string) (*scenarios.Scenario, error) {
	if path != "-" {
		return scenarios.LoadFile(path)
	}
	data, err := stdinData()
	if err != nil {
		return nil, err
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	return scenarios.Load(stdinName, strings.TrimPrefix(filepath.ToSlash(wd), "/"), os.DirFS("/"), data)
}

// inputName names a path in messages.
func inputName(path string) string {
	if path == "-" {
		return stdinName
	}
	return path
}
