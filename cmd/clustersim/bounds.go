package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// Caps on what a command line may ask for. Each is checked with the
// flags, before anything runs or prints: a run that cannot finish, or
// would not fit in memory, is refused rather than started.
const (
	// maxSeeds caps --seeds (run, compare, sweep, lesson). run --seeds
	// keeps every seed's result for its summary: about 25 KB a seed for a
	// two-node, two-minute scenario (RSS of 1,000 and 3,000 seeds), so the
	// cap is a few GB and, at a few ms a seed, hours of runs.
	maxSeeds = 100_000
	// maxRuns caps the runs of one command: a sweep's grid points times
	// its seeds, every lesson's designs times its seeds, and the units of
	// merged shards. A sweep or lesson run keeps only its figures.
	maxRuns = 1_000_000
	// maxGapRows caps the rows of -o gaps: the run's duration over
	// --sample, plus one.
	maxGapRows = 1_000_000
	// maxSpeed caps serve --speed and /clustersim/speed. The pacing loop
	// never advances more than serveMaxLag per step, so any speed the
	// simulation cannot keep up with runs it as fast as it can; the cap
	// only keeps wall time times speed a representable duration.
	maxSpeed = 1e6
	// maxScaleNodes caps generate scale --nodes: the probe lists every
	// node that crashes (up to a third of them), and 1,000 times the
	// 1,000-node probe is far past what a run can simulate.
	maxScaleNodes = 1_000_000
)

// checkSeeds refuses --seeds n outside 1..maxSeeds.
func checkSeeds(n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("--seeds %d: must be at least 1", n)
	case n > maxSeeds:
		return fmt.Errorf("--seeds %d: at most %d (each seed's result is kept for the summary)", n, maxSeeds)
	}
	return nil
}

// jobsPerCPU caps --jobs at this many runs at once a CPU: more only
// take turns, each holding its whole simulation in memory (1,000 at once
// of a two-node scenario peaked at 3.3 GB), and a run starved of CPU
// risks the wall-clock stall watchdog (--stall).
const jobsPerCPU = 16

// checkJobs refuses --jobs n outside 1..jobsPerCPU x the CPUs.
func checkJobs(n int) error {
	if most := jobsPerCPU * runtime.NumCPU(); n < 1 || n > most {
		return fmt.Errorf("--jobs %d: want 1 to %d (%d a CPU: more runs at once only take turns, each holding its simulation in memory)", n, most, jobsPerCPU)
	}
	return nil
}

// checkSeedRange refuses seeds first..first+n-1 when they would pass the
// largest seed and wrap around to 0.
func checkSeedRange(first uint64, n int) error {
	if n > 0 && first > math.MaxUint64-uint64(n-1) {
		return fmt.Errorf("--seed %d --seeds %d: seeds past the largest, %d (the first seed is --seed, else the scenario's spec.seed)", first, n, uint64(math.MaxUint64))
	}
	return nil
}

// checkRuns refuses a command of more than maxRuns runs.
func checkRuns(what string, runs int) error {
	if runs > maxRuns {
		return fmt.Errorf("%s are %d runs, at most %d", what, runs, maxRuns)
	}
	return nil
}

// validSpeed reports whether x is a pace serve accepts: 0 (paused) to
// maxSpeed virtual seconds per wall-clock second; NaN is not.
func validSpeed(x float64) bool { return x >= 0 && x <= maxSpeed }

// checkOutputFile says, before a run, why the file a flag names could
// not be written after it: a directory, a missing parent directory, or
// no permission. It leaves nothing behind.
func checkOutputFile(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case err == nil && !fi.Mode().IsRegular():
		// A device or a pipe (/dev/null, >(cmd)): opening it to try
		// could block, or end the reader's input before the report.
		return nil
	case err == nil:
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return f.Close()
	case !missing(err):
		return err
	}
	return checkOutputDir(filepath.Dir(path), false)
}

// checkOutputDir says, before a run, why files could not be created in
// dir after it: dir, or with mkdir (it is created if missing) its
// nearest existing ancestor, must be a directory this process may create
// files in. It leaves nothing behind.
func checkOutputDir(dir string, mkdir bool) error {
	for {
		fi, err := os.Stat(dir)
		switch {
		case err == nil && !fi.IsDir():
			return fmt.Errorf("%s is not a directory", dir)
		case err == nil:
			f, err := os.CreateTemp(dir, ".clustersim-check-*")
			if err != nil {
				return err
			}
			f.Close()
			return os.Remove(f.Name())
		case !missing(err) || filepath.Dir(dir) == dir:
			return err
		case !mkdir:
			return fmt.Errorf("directory %s does not exist", dir)
		}
		dir = filepath.Dir(dir)
	}
}

// missing reports whether a stat failed because the path is not there,
// including through a file that is not a directory (say afile/x: the
// walk up then names afile).
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// checkHTML is checkOutputFile for --html, which also refuses "-":
// standard output holds the text report.
func checkHTML(path string) error {
	if path == "-" {
		return errHTMLStdout
	}
	return checkOutputFile(path)
}

var errHTMLStdout = errors.New("give a file name: standard output holds the text report")
