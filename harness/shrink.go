package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/clustersim/clustersim/scenarios"
)

// Shrunk is a failing run's fault schedule cut down to a minimal one that
// still fails.
type Shrunk struct {
	// Faults is the minimal schedule: removing any one of them makes the
	// run pass (or the shrink ran out of runs: see Complete).
	Faults []Fault
	// Verdict is the run under Faults alone.
	Verdict *Verdict
	// Runs is how many runs the shrink took; Complete is false when it
	// stopped at Config.ShrinkRuns before reaching a 1-minimal schedule.
	Runs     int
	Complete bool
}

// Shrink delta-debugs v's fault schedule (Zeller's ddmin): it reruns s
// with v.Seed and ever smaller subsets of the faults, given explicitly in
// place of the profiles, and keeps a subset whenever the run still fails.
// The seed stays the same, so everything but the faults draws as before.
func Shrink(s *scenarios.Scenario, v *Verdict, cfg Config) (*Shrunk, error) {
	limit := cfg.ShrinkRuns
	if limit <= 0 {
		limit = 64
	}
	sh := &Shrunk{Faults: slices.Clone(v.Faults), Verdict: v, Complete: true}
	fails := func(fs []Fault) (*Verdict, bool, error) {
		if sh.Runs >= limit {
			sh.Complete = false
			return nil, false, nil
		}
		sh.Runs++
		f := &scenarios.Faults{Target: v.Target, Schedule: slices.Clone(fs)}
		if s.Spec.Faults != nil {
			f.Window = s.Spec.Faults.Window
		}
		w, err := judge(s, v.Seed, cfg, f)
		if err != nil {
			return nil, false, err
		}
		return w, !w.Passed(), nil
	}
	// A run that fails without any fault shrinks to nothing.
	w, bad, err := fails(nil)
	if err != nil {
		return nil, err
	}
	if bad {
		sh.Faults, sh.Verdict = nil, w
		return sh, nil
	}
	cur := sh.Faults
	n := 2
	for len(cur) >= 2 && sh.Complete {
		chunks := split(cur, n)
		reduced := false
		for i := range chunks {
			w, bad, err := fails(chunks[i])
			if err != nil {
				return nil, err
			}
			if bad {
				cur, sh.Verdict, n, reduced = chunks[i], w, 2, true
				break
			}
		}
		// With two chunks each complement is the other chunk: tried.
		for i := 0; !reduced && n > 2 && i < len(chunks); i++ {
			comp := complement(chunks, i)
			w, bad, err := fails(comp)
			if err != nil {
				return nil, err
			}
			if bad {
				cur, sh.Verdict, n, reduced = comp, w, max(n-1, 2), true
			}
		}
		if !reduced {
			if n >= len(cur) {
				break
			}
			n = min(2*n, len(cur))
		}
	}
	sh.Faults = cur
	return sh, nil
}

func split(fs []Fault, n int) [][]Fault {
	out := make([][]Fault, 0, n)
	for i := range n {
		lo, hi := i*len(fs)/n, (i+1)*len(fs)/n
		if hi > lo {
			out = append(out, fs[lo:hi])
		}
	}
	return out
}

func complement(chunks [][]Fault, skip int) []Fault {
	var out []Fault
	for i, c := range chunks {
		if i != skip {
			out = append(out, c...)
		}
	}
	return out
}

// WriteShrunk writes s with seed and the shrunk schedule as a scenario
// file in dir, named <scenario>-seed-<seed>-shrunk.yaml, and returns its
// path. The file reproduces the failing run: with Replay (a test's
// -clustersim.scenario=FILE), or with clustersim run given a binary that
// registers the controllers it names.
func WriteShrunk(s *scenarios.Scenario, dir string, seed uint64, target string, faults []Fault) (string, error) {
	name := fmt.Sprintf("%s-seed-%d-shrunk", s.Metadata.Name, seed)
	data, err := s.WithSchedule(name, seed, target, faults)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	p := filepath.Join(dir, name+".yaml")
	return p, os.WriteFile(p, data, 0o644)
}
