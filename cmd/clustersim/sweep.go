package main

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/clustersim/clustersim/report"
	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/kernel"
)

// sweepFormats are the values clustersim sweep's -o accepts.
var sweepFormats = []string{"table", "csv", "json", "markdown"}

// maxGridPoints caps a sweep's grid: each point is a scenario to load
// and a row to print.
const maxGridPoints = 10000

// sweepAxis is one --set: a path and the values it takes.
type sweepAxis struct {
	path   string
	values []string
}

// parseSet parses PATH=V1,V2,... or PATH=A..B (integers, inclusive).
func parseSet(s string) (sweepAxis, error) {
	path, vals, ok := cutOutsideBrackets(s)
	if !ok || path == "" || vals == "" {
		return sweepAxis{}, fmt.Errorf("--set %q: want PATH=V1,V2,... or PATH=A..B", s)
	}
	if err := scenarios.CheckSetPath(path); err != nil {
		return sweepAxis{}, fmt.Errorf("--set %q: %v", s, err)
	}
	if a, b, ok := strings.Cut(vals, ".."); ok {
		lo, err1 := strconv.Atoi(a)
		hi, err2 := strconv.Atoi(b)
		if err1 != nil || err2 != nil || hi < lo {
			return sweepAxis{}, fmt.Errorf("--set %q: a range is A..B with integers A <= B", s)
		}
		// hi-lo in uint64 is exact for every lo <= hi (it overflows
		// int), and counting up to it never steps past hi.
		span := uint64(hi) - uint64(lo)
		if span >= maxGridPoints {
			count := new(big.Int).SetUint64(span)
			return sweepAxis{}, fmt.Errorf("--set %q: %s values, at most %d", s, count.Add(count, big.NewInt(1)), maxGridPoints)
		}
		ax := sweepAxis{path: path, values: make([]string, span+1)}
		for i := range ax.values {
			ax.values[i] = strconv.Itoa(lo + i)
		}
		return ax, nil
	}
	ax := sweepAxis{path: path}
	for _, v := range splitValues(vals) {
		if v = strings.TrimSpace(v); v == "" {
			return sweepAxis{}, fmt.Errorf("--set %q: an empty value", s)
		}
		ax.values = append(ax.values, v)
	}
	return ax, nil
}

// splitValues splits a --set value list at the commas outside { }, [ ]
// and quotes, so that {cpu: "4", memory: 16Gi} is one value.
func splitValues(s string) []string {
	var out []string
	depth, quote, start := 0, byte(0), 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// cutOutsideBrackets splits s at its first "=" that is not inside [ ]
// (a list selector such as [name=zone-a] holds one).
func cutOutsideBrackets(s string) (before, after string, ok bool) {
	depth := 0
	for i, c := range s {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
		case '=':
			if depth == 0 {
				return s[:i], s[i+1:], true
			}
		}
	}
	return s, "", false
}

// grid returns every combination of the axes' values, the first axis
// varying slowest.
func grid(axes []sweepAxis) [][]scenarios.Assignment {
	out := [][]scenarios.Assignment{nil}
	for _, ax := range axes {
		var next [][]scenarios.Assignment
		for _, prefix := range out {
			for _, v := range ax.values {
				next = append(next, append(slices.Clip(prefix), scenarios.Assignment{Path: ax.path, Value: v}))
			}
		}
		out = next
	}
	return out
}

// sweepRun is what one (grid point, seed) run leaves for the summary.
type sweepRun struct {
	res  *runner.Result
	figs report.Figures
	err  error
}

func sweep(args []string, stdout, stderr io.Writer) int {
	return sweepCommand(args, stdout, stderr, nil)
}

// sweepCommand is clustersim sweep; with mg (from merge) the runs'
// results are the shards' instead of runs.
func sweepCommand(args []string, stdout, stderr io.Writer, mg *merged) (code int) {
	fs := newFlags("clustersim sweep", stderr)
	var sets []string
	fs.StringArrayVar(&sets, "set", nil, "PATH=V1,V2,... or PATH=A..B: a field of the scenario and the values it takes (repeatable; the grid is every combination). PATH is dotted from the document's root; a list's items are selected by index ([0]), by a field's value ([name=zone-a], [metadata.name=web]) or all at once ([*]), e.g. spec.cluster.nodeGroups[*].count; a value in { } or [ ] is a YAML flow collection ({cpu: \"4\", memory: 16Gi})")
	seeds := fs.Int("seeds", 10, fmt.Sprintf("seeds per grid point (--seed and the ones after it; the same seeds at every point; at most %d, and %d runs in all)", maxSeeds, maxRuns))
	seed := fs.Uint64("seed", 0, "first seed (default: the scenario's spec.seed, else 1)")
	jobs := fs.Int("jobs", runtime.NumCPU(), fmt.Sprintf("how many runs at once (results do not depend on it; at most %d a CPU)", jobsPerCPU))
	output := fs.StringP("output", "o", "table", "output format: "+strings.Join(sweepFormats, ", "))
	plotDir := fs.String("plot", "", "write PNG and SVG charts of the pass rate and of the p50/p90 of each seed's longest convergence against the swept values into this directory")
	findMin := fs.String("find-min", "", "one of the --set paths: print the smallest value whose pass rate's Wilson 95% lower bound reaches --share, with the evidence (per combination of the other paths)")
	share := fs.Float64("share", 0.95, "with --find-min: the share of seeds that must pass, between 0 and 1")
	stall := fs.Duration("stall", defaultStall, "end a run when the simulation makes no progress for this much wall-clock time")
	shardFlag := fs.String("shard", "", "run only the runs I, I+N, ... of the grid x seeds (I/N, e.g. a Kubernetes Indexed Job's completion index over its completions) and print them for clustersim merge")
	lopts := loadFlags(fs)
	if c, done := parse(fs, args); done {
		return c
	}
	var sh shardSpec
	if *shardFlag != "" {
		var err error
		if sh, err = parseShard(*shardFlag); err != nil {
			return usageError(fs, "%v", err)
		}
	}
	if fs.NArg() != 1 {
		return usageError(fs, "one scenario (a file or a built-in name); got %d arguments", fs.NArg())
	}
	if *stall <= 0 {
		return usageError(fs, "--stall %v: must be positive", *stall)
	}
	if len(sets) == 0 {
		return usageError(fs, "at least one --set PATH=VALUES")
	}
	if err := checkSeeds(*seeds); err != nil {
		return usageError(fs, "%v", err)
	}
	if err := checkJobs(*jobs); err != nil {
		return usageError(fs, "%v", err)
	}
	if !slices.Contains(sweepFormats, *output) {
		return usageError(fs, "-o %q: want one of %s", *output, strings.Join(sweepFormats, ", "))
	}
	if !(*share > 0 && *share <= 1) { // NaN too
		return usageError(fs, "--share %v: must be in (0, 1]", *share)
	}
	var axes []sweepAxis
	points := 1
	for _, s := range sets {
		ax, err := parseSet(s)
		if err != nil {
			return usageError(fs, "%v", err)
		}
		for _, o := range axes {
			if o.path == ax.path {
				return usageError(fs, "--set %s is given twice", ax.path)
			}
		}
		axes = append(axes, ax)
		points *= len(ax.values)
		if points > maxGridPoints {
			return usageError(fs, "the grid has more than %d points", maxGridPoints)
		}
	}
	if err := checkRuns(fmt.Sprintf("%d grid points x --seeds %d", points, *seeds), points**seeds); err != nil {
		return usageError(fs, "%v", err)
	}
	if *plotDir != "" && !sh.on() {
		if err := checkOutputDir(*plotDir, true); err != nil {
			return usageError(fs, "--plot %s: %v", *plotDir, err)
		}
	}
	paths := make([]string, len(axes))
	for i, ax := range axes {
		paths[i] = ax.path
	}
	if *findMin != "" && !slices.Contains(paths, *findMin) {
		return usageError(fs, "--find-min %s: not one of the --set paths (%s)", *findMin, strings.Join(paths, ", "))
	}
	name := fs.Arg(0)
	src, err := openSource(name, *lopts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	if name == "-" {
		name = stdinName
	}
	g := grid(axes)
	// Every point loads before anything runs: a value the scenario
	// refuses is bad input, named with its point.
	pointSrc := make([]*scenarios.Source, len(g))
	var base uint64
	opts := runner.Options{Detect: measure.Detect, MaxEvents: lopts.Limits.WithDefaults().Events}
	if fs.Changed("seed") {
		opts.Seed = seed
	}
	for i, sets := range g {
		ps, err := src.Apply(sets...)
		if err == nil {
			var s *scenarios.Scenario
			if s, err = ps.With(); err == nil && i == 0 {
				printWarnings(stderr, s)
				base = runner.RootSeed(s, opts)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "clustersim sweep %s at %s: %v\n", name, pointLabel(sets), err)
			return exitBadInput
		}
		pointSrc[i] = ps
	}
	if err := checkSeedRange(base, *seeds); err != nil {
		return usageError(fs, "%v", err)
	}
	n := len(g) * *seeds
	if mg.wrongUnits(n, stderr) {
		return exitBadInput
	}
	runs := make([]sweepRun, n)
	ss := seedsShard{spec: sh, mg: mg, args: args}
	if mg != nil {
		for i := range runs {
			runs[i].res, runs[i].figs = mg.results[i], mg.figs[i]
		}
	}
	bar := newSweepProgress(stderr, ss.units(n), name)
	parallel(n, *jobs, func(i int) {
		if mg != nil || !sh.owns(i) {
			return
		}
		p, k := i / *seeds, i%*seeds
		res, err := watch(*stall, func(pr *kernel.Progress) (*runner.Result, error) {
			o := opts
			o.Progress = pr
			r, f, err := runSweepSeed(pointSrc[p], base+uint64(k), o)
			runs[i].figs = f
			return r, err
		})
		runs[i].res, runs[i].err = res, err
		bar.add()
	})
	bar.done()
	if sh.on() {
		for i := range runs {
			if sh.owns(i) && runs[i].err != nil {
				fmt.Fprintf(stderr, "clustersim sweep %s (run %d): %v\n", name, i, runs[i].err)
				return exitBadInput
			}
		}
		results := make([]*runner.Result, n)
		figs := make([]report.Figures, n)
		for i := range runs {
			results[i], figs[i] = runs[i].res, runs[i].figs
		}
		if err := writeShard(stdout, "sweep", args, sh, n, results, figs); err != nil {
			fmt.Fprintf(stderr, "clustersim sweep: %v\n", err)
			return exitInternal
		}
		return exitOK
	}
	sw := &report.Sweep{Scenario: name, Paths: paths, Seeds: *seeds, FirstSeed: base}
	for p, sets := range g {
		pt := report.SweepPoint{}
		for _, a := range sets {
			pt.Values = append(pt.Values, a.Value)
		}
		for k := range *seeds {
			r := runs[p**seeds+k]
			if r.err != nil {
				var stalled *stallError
				var internal internalError
				switch {
				case errors.As(r.err, &stalled):
					fmt.Fprintf(stderr, "FAIL %s at %s (seed %d): %v\n", name, pointLabel(sets), base+uint64(k), r.err)
					return exitFailed
				case errors.As(r.err, &internal):
					fmt.Fprintf(stderr, "clustersim: internal error running %s at %s (seed %d): %v\n", name, pointLabel(sets), base+uint64(k), r.err)
					return exitInternal
				}
				fmt.Fprintf(stderr, "clustersim sweep %s at %s (seed %d): %v\n", name, pointLabel(sets), base+uint64(k), r.err)
				return exitBadInput
			}
			pt.AddRun(r.res, r.figs)
		}
		pt.Finish()
		sw.Points = append(sw.Points, pt)
	}
	return printSweep(sw, *output, *plotDir, *findMin, *share, stdout, stderr)
}

// printSweep prints the sweep in format output, its charts and the
// --find-min answers; it exits 1 when --find-min found no answer for
// some combination.
func printSweep(sw *report.Sweep, output, plotDir, findMin string, share float64, stdout, stderr io.Writer) int {
	var err error
	if output == "table" {
		var done func()
		stdout, done = fitted(stdout)
		defer done()
	}
	switch output {
	case "csv":
		err = report.SweepCSV(stdout, sw)
	case "json":
		err = report.SweepJSON(stdout, sw)
	case "markdown":
		err = report.SweepMarkdown(stdout, sw)
	default:
		err = report.SweepTable(stdout, sw)
	}
	if err != nil {
		fmt.Fprintf(stderr, "clustersim sweep: %v\n", err)
		return exitInternal
	}
	if plotDir != "" {
		rate, converged, ok := report.SweepCharts(sw)
		if !ok {
			fmt.Fprintf(stderr, "clustersim sweep: --plot: too many grid points to chart\n")
			return exitBadInput
		}
		for _, c := range []struct {
			suffix string
			p      plot
		}{{"-sweep-pass-rate", rate}, {"-sweep-converged", converged}} {
			if err := writePlot(plotDir, filepath.Base(sw.Scenario)+c.suffix, c.p, stderr); err != nil {
				fmt.Fprintf(stderr, "clustersim sweep: --plot: %v\n", err)
				return exitBadInput
			}
		}
	}
	if findMin == "" {
		return exitOK
	}
	answers, err := report.FindMin(sw, findMin, share)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	w := stdout
	if output == "csv" || output == "json" {
		w = stderr
	}
	fmt.Fprintln(w)
	report.MinAnswers(w, findMin, share, answers, slices.Index(sw.Paths, findMin))
	for _, a := range answers {
		if a.At == nil {
			return exitFailed
		}
	}
	return exitOK
}

// pointLabel names a grid point in messages: "path=v, path=v".
func pointLabel(sets []scenarios.Assignment) string {
	parts := make([]string, len(sets))
	for i, a := range sets {
		parts[i] = a.Path + "=" + a.Value
	}
	return strings.Join(parts, ", ")
}

// runSweepSeed runs one grid point's scenario on one seed, loading it
// afresh (as run --seeds does per seed), and keeps what the summary
// reads.
func runSweepSeed(src *scenarios.Source, seed uint64, opts runner.Options) (res *runner.Result, figs report.Figures, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, internalError{r}
		}
	}()
	s, err := src.With()
	if err != nil {
		return nil, figs, err
	}
	opts.Seed = &seed
	res, err = runScenario(s, opts)
	if err != nil {
		return nil, figs, err
	}
	figs = report.FiguresOf(res)
	return &runner.Result{Scenario: res.Scenario, Seed: res.Seed, Expectations: res.Expectations}, figs, nil
}

// sweepProgress is the progress bar on a terminal, and otherwise a plain
// line at every tenth of the runs.
type sweepProgress struct {
	*progress
	mu          sync.Mutex
	w           io.Writer
	n, finished int
	next        int // the tenth of n whose end prints the next line (0: none)
	what        string
}

func newSweepProgress(stderr io.Writer, n int, what string) *sweepProgress {
	p := &sweepProgress{progress: newProgress(stderr, n, what), w: stderr, n: n, what: what}
	if p.bar == nil && n >= 10 {
		p.next = 1 // the first tenth
	}
	return p
}

func (p *sweepProgress) add() {
	p.progress.add()
	if p.next == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished++
	if p.next <= 10 && p.finished >= p.next*p.n/10 {
		fmt.Fprintf(p.w, "%s: %d/%d runs\n", p.what, p.finished, p.n)
		p.next++
	}
}
