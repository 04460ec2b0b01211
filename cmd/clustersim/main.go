// Command clustersim runs the discrete-event simulator of a Kubernetes-like
// control plane.
//
//	clustersim run [SCENARIO] [--seed N] [--seeds N] [--until D] [--plot DIR] [-o table|json|junit|csv|markdown|timeline|gaps]
//	clustersim validate FILE...
//	clustersim list
//	clustersim explain NAME
//	clustersim lesson NAME|--all [--seeds N] [--seed S] [--jobs J] [-o table|markdown]
//	clustersim sweep SCENARIO --set PATH=V1,V2,...|A..B ... [--seeds N] [--find-min PATH] [--plot DIR] [-o table|csv|json|markdown]
//	clustersim compare BASELINE CANDIDATE [--seeds N] [--seed S] [--until D] [--alpha A] [--fail-on FIGURE,...] [--jobs J] [-o table|json]
//	clustersim demo [--seed N] [--duration D] [-o table|json]
//	clustersim generate scale --nodes N [--pods-per-node P] [--crash-percent C] [--unpaced | --qps Q --burst B --scheduler-qps Q --scheduler-burst B] [--percentage-of-nodes-to-score P]
//	clustersim version
//	clustersim completion bash|zsh|fish
//
// SCENARIO is a scenario file or the name of a built-in scenario (default:
// the built-in default). Exit codes: 0 every expectation held, 1 some
// failed (each is named with its reason), 2 bad input or usage, 3 an
// internal invariant of the simulator broke (a bug: the scenario and seed
// to replay it are printed).
package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	// The example operator and its broken variants, registered by name so
	// that its scenarios and shrunk failing cases run from the CLI
	// (docs/testing-your-controller.md).
	_ "github.com/clustersim/clustersim/examples/configset"
	"github.com/clustersim/clustersim/report"
	"github.com/clustersim/clustersim/report/chart"
	"github.com/clustersim/clustersim/report/lessons"
	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/manifest"
)

// Exit codes.
const (
	exitOK       = 0
	exitFailed   = 1
	exitBadInput = 2
	exitInternal = 3
)

const usage = `clustersim simulates a Kubernetes-like control plane on a virtual clock.

Usage:
  clustersim run [SCENARIO] [flags]   run a scenario file or a built-in scenario (default: ` + scenarios.Default + `)
  clustersim validate FILE...         check scenario files and Kubernetes manifests strictly
  clustersim list                     list the built-in scenarios
  clustersim explain NAME             describe a built-in scenario and what to look at
  clustersim lesson NAME|--all        run a lesson's designs on the same seeds, figures side by side
  clustersim compare A B [flags]      run two scenarios on the same seeds and test each figure for a difference
  clustersim serve [SCENARIO] [flags] run a scenario at a wall-clock pace behind a Kubernetes API that kubectl can use
  clustersim sweep FILE --set P=V,... run a grid of field values x seeds: pass rate (Wilson 95%), convergence, --find-min
  clustersim merge SHARD-OUTPUT...    print what one process prints from the outputs of run --seeds or sweep --shard I/N
  clustersim demo [flags]             run the controller-runtime demo
  clustersim generate scale [flags]   print the scale probe scenario (N nodes, 30 pods a node, an hour)
  clustersim version                  print the version (also --version)
  clustersim completion bash|zsh|fish print a shell completion script
  clustersim help                     show this help

A FILE or SCENARIO of "-" is read from standard input.

Run "clustersim COMMAND --help" for a command's flags.
Exit codes: 0 every expectation held, 1 an expectation failed, 2 bad input, 3 internal error.
`

func main() {
	undo := setUpProcess()
	stop := startProfiles()
	code := Main(os.Args[1:], os.Stdout, os.Stderr)
	stop()
	undo()
	os.Exit(code)
}

// setUpProcess gives the process the memory settings a run wants (the
// collector's, gc.go; huge pages and the heap backed ahead,
// hugepages_linux.go) and returns what undoes them. main and
// BenchmarkScaleRun both call it, so the benchmark measures the process
// `clustersim run` is. The huge pages come first: their reserve is one
// live block of gigabytes until it is given back, and the collector's
// governor, started after, never takes it for a simulation's live heap
// (started before, it raised the limit to twice the reserve whenever its
// poll fell between the reserve's collections: a 5,000-node run could
// then pass 4 GiB; TestSetUpProcessKeepsTheLimit).
func setUpProcess() (undo func()) {
	unadvise := adviseHugePages()
	restore := tuneGC()
	return func() {
		restore()
		unadvise()
	}
}

// Main runs the command line args and returns the exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return run(nil, stdout, stderr)
	}
	switch args[0] {
	case "run":
		return run(args[1:], stdout, stderr)
	case "merge":
		return merge(args[1:], stdout, stderr)
	case "validate":
		return validate(args[1:], stdout, stderr)
	case "list":
		return list(args[1:], stdout, stderr)
	case "explain":
		return explain(args[1:], stdout, stderr)
	case "lesson", "lessons":
		return lesson(args[1:], stdout, stderr)
	case "demo":
		return demo(args[1:], stdout, stderr)
	case "generate":
		return generate(args[1:], stdout, stderr)
	case "compare":
		return compare(args[1:], stdout, stderr)
	case "serve":
		return serveCommand(args[1:], stdout, stderr)
	case "sweep":
		return sweep(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	case "version", "--version":
		return version(args[1:], stdout, stderr)
	case "completion":
		return completion(args[1:], stdout, stderr)
	case "__complete":
		return complete(args[1:], stdout)
	}
	fmt.Fprintf(stderr, "clustersim: unknown command %q\n\n%s", args[0], usage)
	return exitBadInput
}

// usageLines are each command's synopsis, printed with its flags after a
// usage error and by --help.
var usageLines = map[string]string{
	"clustersim run":            "clustersim run [SCENARIO] [flags]",
	"clustersim validate":       "clustersim validate FILE... [flags]",
	"clustersim list":           "clustersim list",
	"clustersim explain":        "clustersim explain NAME",
	"clustersim lesson":         "clustersim lesson NAME|--all [flags]",
	"clustersim demo":           "clustersim demo [flags]",
	"clustersim sweep":          "clustersim sweep SCENARIO --set PATH=V1,V2,...|A..B [--set ...] [flags]",
	"clustersim compare":        "clustersim compare BASELINE CANDIDATE [flags]",
	"clustersim merge":          "clustersim merge SHARD-OUTPUT...",
	"clustersim generate scale": "clustersim generate scale [flags]",
	"clustersim version":        "clustersim version",
	"clustersim completion":     "clustersim completion bash|zsh|fish",
}

// newFlags returns a command's flag set; its usage (synopsis and flags)
// goes to stderr.
func newFlags(name string, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s\n", usageLines[name])
		if f := fs.FlagUsages(); f != "" {
			fmt.Fprintf(stderr, "\nFlags:\n%s", f)
		}
	}
	return fs
}

// usageError prints what was wrong with the command line and the
// command's usage, and returns exit code 2.
func usageError(fs *pflag.FlagSet, format string, args ...any) int {
	fmt.Fprintf(fs.Output(), "%s: %s\n\n", fs.Name(), fmt.Sprintf(format, args...))
	fs.Usage()
	return exitBadInput
}

// parse parses a command's flags; done reports that Main should return
// code (help printed, or a usage error printed with the usage).
func parse(fs *pflag.FlagSet, args []string) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK, true
		}
		return usageError(fs, "%v", err), true
	}
	return 0, false
}

// limitFlag is --limit NAME=N, repeatable: it raises one of the caps a
// scenario loads and runs under.
type limitFlag struct {
	lim  *scenarios.Limits
	seen []string
}

func (f *limitFlag) String() string { return strings.Join(f.seen, ",") }
func (f *limitFlag) Type() string   { return "NAME=N" }
func (f *limitFlag) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want NAME=N, one of %s", strings.Join(scenarios.LimitNames, ", "))
	}
	if err := f.lim.Set(name, value); err != nil {
		return err
	}
	f.seen = append(f.seen, v)
	return nil
}

// loadFlags adds --limit and --root to fs; the result is filled when fs
// is parsed.
func loadFlags(fs *pflag.FlagSet) *scenarios.Options {
	opts := &scenarios.Options{}
	d := scenarios.DefaultLimits
	fs.Var(&limitFlag{lim: &opts.Limits}, "limit", fmt.Sprintf("raise a cap on what a scenario may ask for (repeatable): file-bytes=%d, ref-bytes=%d, nodes=%d, pods=%d, objects=%d, timeline=%d, duration=%v, events=%d are the defaults",
		d.FileBytes, d.RefBytes, d.Nodes, d.Pods, d.Objects, d.Timeline, d.Duration, d.Events))
	fs.StringVar(&opts.Root, "root", "", "let the scenario's file references reach this directory's tree (default: the scenario's own directory)")
	return opts
}

// loadScenario loads a scenario by file path ("-": standard input) or
// built-in name.
func loadScenario(arg string, opts scenarios.Options) (*scenarios.Scenario, error) {
	if _, err := os.Stat(arg); err == nil || arg == "-" {
		return loadScenarioFile(arg, opts)
	}
	if scenarios.IsBuiltin(arg) {
		return scenarios.Builtin(arg)
	}
	return nil, fmt.Errorf("%s: no such file, and no built-in scenario of that name (clustersim list shows them)", arg)
}

// runScenario runs one scenario for every command that does (run, its
// seeds, compare, sweep, lesson): runner.Run with the simulation labelled
// by CLUSTERSIM_PROFILE_WINDOW's window (profileWindowSet), replaced by
// the test of exit code 3 with a run that breaks an invariant.
var runScenario = func(s *scenarios.Scenario, opts runner.Options) (*runner.Result, error) {
	opts.ProfileWindow = profileWindowSet
	return runner.Run(s, opts)
}

// outputFormats are the values clustersim run's -o accepts.
var outputFormats = []string{"table", "wide", "json", "junit", "csv", "markdown", "timeline", "gaps"}

func run(args []string, stdout, stderr io.Writer) int {
	return runCommand(args, stdout, stderr, nil)
}

// runCommand is clustersim run; with mg (from merge) the seeds' results
// are the shards' instead of runs.
func runCommand(args []string, stdout, stderr io.Writer, mg *merged) (code int) {
	fs := newFlags("clustersim run", stderr)
	seed := fs.Uint64("seed", 0, "root seed of the run (default: the scenario's spec.seed)")
	until := fs.Duration("until", 0, "stop the run at this virtual time (default: the scenario's spec.duration)")
	output := fs.StringP("output", "o", "table", "output format: table (fitted to the terminal's width, or $COLUMNS), wide (the table at full width), json, junit (JUnit XML, one test case per expectation per seed), csv (one row per expectation per seed), markdown, timeline (one seed: every action, write and gap change in time order), or gaps (one seed: each object's gap sampled every --sample, as CSV)")
	seeds := fs.Int("seeds", 0, fmt.Sprintf("run this many seeds (--seed, or spec.seed, and the ones after it; at most %d) and print a summary across them", maxSeeds))
	jobs := fs.Int("jobs", runtime.NumCPU(), fmt.Sprintf("with --seeds: how many runs at once (results do not depend on it; at most %d a CPU)", jobsPerCPU))
	sample := fs.Duration("sample", 5*time.Second, fmt.Sprintf("with -o gaps: the sampling step of the gap series (at most %d rows: the run's duration over it, plus one)", maxGapRows))
	faults := fs.String("faults", "", "fault profiles, comma-separated, replacing spec.faults.profiles ("+strings.Join(scenarios.ProfileNames(), ", ")+"); the seed draws their schedule")
	plotDir := fs.String("plot", "", "write PNG and SVG plots into this directory (created if missing): the run's gap over time, or with --seeds the distribution of convergence times after each action")
	stall := fs.Duration("stall", defaultStall, "end the run when the simulation makes no progress for this much wall-clock time (a reconciler that never yields)")
	lopts := loadFlags(fs)
	htmlPath := fs.String("html", "", "also write the report as one self-contained HTML file (charts inline, nothing loaded from anywhere)")
	quiet := fs.BoolP("quiet", "q", false, "print only the verdict: one line (the exit code says it too)")
	shardFlag := fs.String("shard", "", "with --seeds: run only seeds I, I+N, ... of them (I/N, e.g. a Kubernetes Indexed Job's completion index over its completions) and print them for clustersim merge")
	if c, done := parse(fs, args); done {
		return c
	}
	var sh shardSpec
	if *shardFlag != "" {
		var err error
		if sh, err = parseShard(*shardFlag); err != nil {
			return usageError(fs, "%v", err)
		}
		if *seeds < 1 {
			return usageError(fs, "--shard splits the seeds of --seeds")
		}
	}
	if *quiet {
		if fs.Changed("output") {
			return usageError(fs, "--quiet prints only the verdict; it does not go with -o")
		}
		*output = "quiet"
	}
	if mg != nil && *seeds < 1 {
		fmt.Fprintf(stderr, "clustersim merge: %s: \"args\": run without --seeds, nothing to merge\n", mg.file)
		return exitBadInput
	}
	if fs.Changed("seeds") {
		if err := checkSeeds(*seeds); err != nil {
			return usageError(fs, "%v", err)
		}
	}
	if err := checkJobs(*jobs); err != nil {
		return usageError(fs, "%v", err)
	}
	if fs.NArg() > 1 {
		return usageError(fs, "one scenario at a time; got %d arguments", fs.NArg())
	}
	if mg.wrongUnits(*seeds, stderr) {
		return exitBadInput
	}
	if !slices.Contains(outputFormats, *output) && *output != "quiet" {
		return usageError(fs, "-o %q: want one of %s", *output, strings.Join(outputFormats, ", "))
	}
	if *until < 0 {
		return usageError(fs, "--until %v: must not be negative", *until)
	}
	name := scenarios.Default
	if fs.NArg() == 1 {
		name = fs.Arg(0)
	}
	s, err := loadScenario(name, *lopts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	if *until > s.Spec.Duration.Duration {
		return usageError(fs, "--until %v is beyond the scenario's spec.duration (%v)", *until, s.Spec.Duration.Duration)
	}
	printWarnings(stderr, s)
	opts := runner.Options{Until: *until, Detect: measure.Detect, MaxEvents: lopts.Limits.WithDefaults().Events}
	if fs.Changed("seed") {
		opts.Seed = seed
	}
	if fs.Changed("faults") {
		f := scenarios.Faults{}
		if s.Spec.Faults != nil {
			f = *s.Spec.Faults
		}
		f.Profiles = nil
		for _, p := range strings.Split(*faults, ",") {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			if _, ok := scenarios.LookupProfile(p); !ok {
				return usageError(fs, "--faults: unknown profile %q (known: %s)", p, strings.Join(scenarios.ProfileNames(), ", "))
			}
			f.Profiles = append(f.Profiles, p)
		}
		if _, err := scenarios.FaultTarget(&scenarios.Scenario{Spec: scenarios.Spec{Controllers: s.Spec.Controllers, Faults: &f}}); err != nil && len(f.Profiles) > 0 {
			return usageError(fs, "--faults: %v", err)
		}
		opts.Faults = &f
	}
	if *seeds > 0 && (*output == "timeline" || *output == "gaps") {
		return usageError(fs, "-o %s shows one seed's run; it does not go with --seeds", *output)
	}
	if *sample <= 0 {
		return usageError(fs, "--sample %v: must be positive", *sample)
	}
	if *stall <= 0 {
		return usageError(fs, "--stall %v: must be positive", *stall)
	}
	if *output == "gaps" {
		end := s.Spec.Duration.Duration
		if *until > 0 {
			end = *until
		}
		if rows := end / *sample; rows >= maxGapRows {
			return usageError(fs, "--sample %v: -o gaps would print %d rows (%v / %v, plus one), at most %d", *sample, uint64(rows)+1, end, *sample, maxGapRows)
		}
	}
	if *seeds > 0 {
		if err := checkSeedRange(runner.RootSeed(s, opts), *seeds); err != nil {
			return usageError(fs, "%v", err)
		}
	}
	if !sh.on() {
		if *htmlPath != "" {
			if err := checkHTML(*htmlPath); err != nil {
				return usageError(fs, "--html %s: %v", *htmlPath, err)
			}
		}
		if *plotDir != "" {
			if err := checkOutputDir(*plotDir, true); err != nil {
				return usageError(fs, "--plot %s: %v", *plotDir, err)
			}
		}
	}
	if *seeds > 0 {
		return runSeeds(name, *lopts, *stall, s, opts, *seeds, *jobs, *output, *plotDir, *htmlPath, stdout, stderr, seedsShard{sh, mg, args})
	}
	if *output == "table" {
		var done func()
		stdout, done = fitted(stdout)
		defer done()
	}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "clustersim: internal error running %s (seed flag %d): %v\n", name, *seed, r)
			code = exitInternal
		}
	}()
	var end endOfRun
	defer end.done()
	res, err := watch(*stall, func(p *kernel.Progress) (*runner.Result, error) {
		o := opts
		o.Progress = p
		o.Simulated = end.simulated
		return runScenario(s, o)
	})
	var stalled *stallError
	if errors.As(err, &stalled) {
		fmt.Fprintf(stderr, "FAIL %s: %v\n", name, err)
		return exitFailed
	}
	if err != nil {
		fmt.Fprintf(stderr, "clustersim run %s: %v\n", name, err)
		return exitBadInput
	}
	switch *output {
	case "quiet":
		_, err = fmt.Fprintln(stdout, report.Verdict(res))
	case "json":
		err = report.ScenarioJSON(stdout, res)
	case "junit":
		err = report.JUnit(stdout, []*runner.Result{res})
	case "csv":
		err = report.CSV(stdout, []*runner.Result{res})
	case "markdown":
		err = report.ScenarioMarkdown(stdout, res)
	case "timeline":
		err = report.Timeline(stdout, res)
	case "gaps":
		err = report.GapCSV(stdout, res, *sample)
	default:
		err = report.Scenario(stdout, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "clustersim run: %v\n", err)
		return exitInternal
	}
	if *plotDir != "" {
		base := fmt.Sprintf("%s-seed%d-gap", res.Scenario, res.Seed)
		if err := writePlot(*plotDir, base, report.GapChart(res), stderr); err != nil {
			fmt.Fprintf(stderr, "clustersim run: --plot: %v\n", err)
			return exitBadInput
		}
	}
	if *htmlPath != "" {
		if err := writeHTML(*htmlPath, stderr, func(w io.Writer) error { return report.HTML(w, res) }); err != nil {
			fmt.Fprintf(stderr, "clustersim run: --html: %v\n", err)
			return exitBadInput
		}
	}
	if !res.Passed() {
		for _, o := range res.Expectations {
			if !o.Passed {
				fmt.Fprintf(stderr, "FAIL %s: %s\n", o.Name, o.Detail)
			}
		}
		return exitFailed
	}
	return exitOK
}

// runSeeds runs the scenario once per seed, from the run's root seed
// (--seed, else spec.seed, else 1) on, jobs at a time, and prints a summary
// across the seeds. Every run is independent and deterministic, so the
// summary is the same whatever jobs and GOMAXPROCS are. It exits 1 if any
// seed failed an expectation, and names those seeds.
func runSeeds(name string, lopts scenarios.Options, stall time.Duration, s *scenarios.Scenario, opts runner.Options, n, jobs int, output, plotDir, htmlPath string, stdout, stderr io.Writer, sh seedsShard) int {
	base := runner.RootSeed(s, opts)
	results := make([]*runner.Result, n)
	figs := make([]report.Figures, n)
	errs := make([]error, n)
	if sh.mg != nil {
		copy(results, sh.mg.results)
		copy(figs, sh.mg.figs)
	}
	bar := newProgress(stderr, sh.units(n), name)
	parallel(n, jobs, func(i int) {
		if sh.mg != nil || !sh.spec.owns(i) {
			return
		}
		results[i], errs[i] = watch(stall, func(p *kernel.Progress) (*runner.Result, error) {
			o := opts
			o.Progress = p
			res, f, err := runSeed(name, lopts, base+uint64(i), o)
			figs[i] = f
			return res, err
		})
		bar.add()
	})
	bar.done()
	for i, err := range errs {
		if err == nil {
			continue
		}
		var stalled *stallError
		if errors.As(err, &stalled) {
			fmt.Fprintf(stderr, "FAIL %s (seed %d; replay with clustersim run %s --seed %d): %v\n", name, base+uint64(i), name, base+uint64(i), err)
			return exitFailed
		}
		var internal internalError
		if errors.As(err, &internal) {
			fmt.Fprintf(stderr, "clustersim: internal error running %s (seed %d): %v\n", name, base+uint64(i), err)
			return exitInternal
		}
		fmt.Fprintf(stderr, "clustersim run %s (seed %d): %v\n", name, base+uint64(i), err)
		return exitBadInput
	}
	if sh.spec.on() {
		if err := writeShard(stdout, "run", sh.args, sh.spec, n, results, figs); err != nil {
			fmt.Fprintf(stderr, "clustersim run: %v\n", err)
			return exitInternal
		}
		return exitOK
	}
	sum := report.Summarize(results, figs)
	var err error
	if output == "table" {
		var done func()
		stdout, done = fitted(stdout)
		defer done()
	}
	switch output {
	case "quiet":
		_, err = fmt.Fprintln(stdout, report.SeedsVerdict(sum))
	case "json":
		err = report.SeedsJSON(stdout, sum)
	case "junit":
		err = report.JUnit(stdout, results)
	case "csv":
		err = report.CSV(stdout, results)
	case "markdown":
		err = report.SeedsMarkdown(stdout, sum)
	default:
		err = report.Seeds(stdout, sum)
	}
	if err != nil {
		fmt.Fprintf(stderr, "clustersim run: %v\n", err)
		return exitInternal
	}
	if plotDir != "" {
		for i, d := range report.ConvergenceCharts(sum) {
			base := fmt.Sprintf("%s-convergence-%d", sum.Scenario, i)
			if err := writePlot(plotDir, base, d, stderr); err != nil {
				fmt.Fprintf(stderr, "clustersim run: --plot: %v\n", err)
				return exitBadInput
			}
		}
	}
	if htmlPath != "" {
		if err := writeHTML(htmlPath, stderr, func(w io.Writer) error { return report.SeedsHTML(w, sum) }); err != nil {
			fmt.Fprintf(stderr, "clustersim run: --html: %v\n", err)
			return exitBadInput
		}
	}
	if len(sum.Failed) > 0 {
		for _, e := range sum.Expectations {
			if len(e.Failed) > 0 {
				fmt.Fprintf(stderr, "FAIL %s: failed on %d of %d seeds (first: seed %d; replay with clustersim run %s --seed %d)\n",
					e.Name, len(e.Failed), e.Runs, e.Failed[0], name, e.Failed[0])
			}
		}
		return exitFailed
	}
	return exitOK
}

// runMany runs scenario name on seeds base..base+n-1, jobs at a time, and
// returns the results (each stripped by runSeed) with their figures, or
// nil and the exit code after printing the first error.
func runMany(cmd, name string, lopts scenarios.Options, opts runner.Options, base uint64, n, jobs int, stderr io.Writer) ([]*runner.Result, []report.Figures, int) {
	results := make([]*runner.Result, n)
	figs := make([]report.Figures, n)
	errs := make([]error, n)
	parallel(n, jobs, func(i int) { results[i], figs[i], errs[i] = runSeed(name, lopts, base+uint64(i), opts) })
	for i, err := range errs {
		if err == nil {
			continue
		}
		var internal internalError
		if errors.As(err, &internal) {
			fmt.Fprintf(stderr, "clustersim: internal error running %s (seed %d): %v\n", name, base+uint64(i), err)
			return nil, nil, exitInternal
		}
		fmt.Fprintf(stderr, "clustersim %s %s (seed %d): %v\n", cmd, name, base+uint64(i), err)
		return nil, nil, exitBadInput
	}
	return results, figs, exitOK
}

// plot is a chart that renders itself in a format.
type plot interface {
	Render(w io.Writer, f chart.Format) error
}

// writePlot renders p as DIR/BASE.png and DIR/BASE.svg and names the
// files on stderr (reports never carry paths).
func writePlot(dir, base string, p plot, stderr io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []chart.Format{chart.PNG, chart.SVG} {
		var buf bytes.Buffer
		if err := p.Render(&buf, f); err != nil {
			return err
		}
		path := filepath.Join(dir, base+"."+string(f))
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s\n", path)
	}
	return nil
}

// internalError is a panic inside one seed's run, turned into an error.
type internalError struct{ cause any }

func (e internalError) Error() string { return fmt.Sprint(e.cause) }

// runSeed loads the scenario afresh (runs do not share a scenario value)
// and runs it with one seed; it returns the result stripped to what the
// summaries read, and the run's figures.
func runSeed(name string, lopts scenarios.Options, seed uint64, opts runner.Options) (res *runner.Result, figs report.Figures, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, internalError{r}
		}
	}()
	s, err := loadScenario(name, lopts)
	if err != nil {
		return nil, figs, err
	}
	opts.Seed = &seed
	res, err = runScenario(s, opts)
	if err != nil {
		return nil, figs, err
	}
	figs = report.FiguresOf(res)
	// Keep only what the summary reads (the expectations, the gap
	// timeline, the timeline's commands): a run's audit log, reconciles
	// and snapshots are megabytes, and a thousand seeds would hold them all.
	entries := make([]runner.Entry, len(res.Entries))
	for i, e := range res.Entries {
		entries[i] = runner.Entry{At: e.At, Command: e.Command, Observation: e.Observation}
	}
	return &runner.Result{Scenario: res.Scenario, Seed: res.Seed, Duration: res.Duration, Entries: entries,
		Expectations: res.Expectations, Writes: res.Writes, TraceHash: res.TraceHash, Gaps: res.Gaps, Measure: res.Measure}, figs, nil
}

// compareFormats are the values clustersim compare's -o accepts.
var compareFormats = []string{"table", "json"}

// compare runs two scenarios (a baseline and a candidate) on the same
// seeds and tests, per figure, whether the candidate differs; it exits 1
// when a --fail-on figure regressed.
func compare(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("clustersim compare", stderr)
	seed := fs.Uint64("seed", 0, "first seed (default: the baseline's spec.seed, else 1)")
	seeds := fs.Int("seeds", 100, fmt.Sprintf("how many seeds each scenario runs (the same seeds for both; at most %d)", maxSeeds))
	alpha := fs.Float64("alpha", 0.05, "significance level of the verdicts, between 0 and 1")
	failOn := fs.StringSlice("fail-on", nil, "exit 1 when one of these figures regressed: "+strings.Join(report.MetricNames(), ", "))
	jobs := fs.Int("jobs", runtime.NumCPU(), fmt.Sprintf("how many runs at once (results do not depend on it; at most %d a CPU)", jobsPerCPU))
	output := fs.StringP("output", "o", "table", "output format: table or json")
	lopts := loadFlags(fs)
	until := fs.Duration("until", 0, "stop both runs at this virtual time (default: each scenario's spec.duration)")
	if c, done := parse(fs, args); done {
		return c
	}
	if fs.NArg() != 2 {
		fmt.Fprintf(stderr, "clustersim compare: name a baseline and a candidate scenario; got %d arguments\n", fs.NArg())
		return exitBadInput
	}
	if err := checkSeeds(*seeds); err != nil {
		fmt.Fprintf(stderr, "clustersim compare: %v\n", err)
		return exitBadInput
	}
	if err := checkJobs(*jobs); err != nil {
		fmt.Fprintf(stderr, "clustersim compare: %v\n", err)
		return exitBadInput
	}
	switch {
	case !(*alpha > 0 && *alpha < 1):
		fmt.Fprintf(stderr, "clustersim compare: --alpha %v: must be between 0 and 1\n", *alpha)
		return exitBadInput
	case *until < 0:
		fmt.Fprintf(stderr, "clustersim compare: --until %v: must not be negative\n", *until)
		return exitBadInput
	case !slices.Contains(compareFormats, *output):
		fmt.Fprintf(stderr, "clustersim compare: -o %q: want one of %s\n", *output, strings.Join(compareFormats, ", "))
		return exitBadInput
	}
	for _, m := range *failOn {
		if !report.ValidMetric(m) {
			fmt.Fprintf(stderr, "clustersim compare: --fail-on %q: want some of %s\n", m, strings.Join(report.MetricNames(), ", "))
			return exitBadInput
		}
	}
	baseline, candidate := fs.Arg(0), fs.Arg(1)
	s, err := loadScenario(baseline, *lopts)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	if _, err := loadScenario(candidate, *lopts); err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadInput
	}
	opts := runner.Options{Detect: measure.Detect, MaxEvents: lopts.Limits.WithDefaults().Events, Until: *until}
	if fs.Changed("seed") {
		opts.Seed = seed
	}
	base := runner.RootSeed(s, opts)
	if err := checkSeedRange(base, *seeds); err != nil {
		fmt.Fprintf(stderr, "clustersim compare: %v\n", err)
		return exitBadInput
	}
	var figs [2][]report.Figures
	for i, name := range []string{baseline, candidate} {
		_, f, code := runMany("compare", name, *lopts, opts, base, *seeds, *jobs, stderr)
		if f == nil {
			return code
		}
		figs[i] = f
	}
	c := report.Compare(baseline, candidate, figs[0], figs[1], *alpha)
	if *output == "json" {
		err = report.CompareJSON(stdout, c)
	} else {
		err = report.CompareTable(stdout, c)
	}
	if err != nil {
		fmt.Fprintf(stderr, "clustersim compare: %v\n", err)
		return exitInternal
	}
	if reg := c.Regressions(*failOn); len(reg) > 0 {
		fmt.Fprintf(stderr, "FAIL %s regressed against %s: %s\n", candidate, baseline, strings.Join(reg, ", "))
		return exitFailed
	}
	return exitOK
}

// validate checks scenario files and manifests; it reports every bad file
// and exits 2 if any.
func validate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("clustersim validate", stderr)
	lopts := loadFlags(fs)
	if c, done := parse(fs, args); done {
		return c
	}
	if fs.NArg() == 0 {
		return usageError(fs, "name at least one file")
	}
	code := exitOK
	defs := scenarios.Definitions{} // a definition serves the custom resources of the files after it
	for _, path := range fs.Args() {
		msg, err := validateFile(path, *lopts, defs, stderr)
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = exitBadInput
			continue
		}
		fmt.Fprintf(stdout, "%s: %s\n", inputName(path), msg)
	}
	return code
}

// printWarnings prints the scenario's accepted-but-unmodelled fields.
func printWarnings(stderr io.Writer, s *scenarios.Scenario) {
	for _, w := range s.Warnings() {
		fmt.Fprintln(stderr, w)
	}
	for _, w := range s.ImageWarnings() {
		fmt.Fprintln(stderr, w)
	}
}

// validateFile checks one file: a scenario if its kind is Scenario (its
// warnings go to stderr), else manifests, with the same rules and messages
// as a run; custom resources need a definition in defs (from an earlier
// file) or earlier in the file.
func validateFile(path string, opts scenarios.Options, defs scenarios.Definitions, stderr io.Writer) (string, error) {
	data, err := readInput(path, opts.Limits)
	if err != nil {
		return "", err
	}
	if isScenario(data) {
		s, err := loadScenarioFile(path, opts)
		if err != nil {
			return "", err
		}
		printWarnings(stderr, s)
		return fmt.Sprintf("scenario %s valid (%d objects, %d steps, %d expectations)", s.Metadata.Name, len(s.Objects), len(s.Spec.Timeline), len(s.Spec.Expect)), nil
	}
	path = inputName(path)
	objs, warnings, err := scenarios.DecodeManifestsWarnings(path, data, defs)
	if err != nil {
		return "", err
	}
	if len(objs) == 0 {
		return "", &manifest.Error{File: path, Line: 1, Column: 1, Msg: "no object in the file (it is empty or holds only comments)"}
	}
	for _, w := range warnings {
		fmt.Fprintln(stderr, w)
	}
	return fmt.Sprintf("%d object(s) valid", len(objs)), nil
}

// isScenario reports whether a YAML file declares kind: Scenario at its
// top level, as clustersim run reads it (scenarios.IsScenario).
func isScenario(data []byte) bool { return scenarios.IsScenario(data) }

func list(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("clustersim list", stderr)
	if c, done := parse(fs, args); done {
		return c
	}
	if fs.NArg() > 0 {
		return usageError(fs, "unexpected argument %q (list takes none; clustersim explain NAME tells one)", fs.Arg(0))
	}
	names := scenarios.BuiltinNames()
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	fmt.Fprintln(stdout, "Lessons (clustersim explain NAME tells one; clustersim lesson NAME measures it over many seeds):")
	for _, l := range lessons.All() {
		var designs []string
		for _, d := range l.Designs {
			designs = append(designs, d.Scenario)
		}
		fmt.Fprintf(stdout, "%3d  %-50s  %s\n", l.Number, l.Title, strings.Join(designs, " vs "))
	}
	fmt.Fprintln(stdout, "\nBuilt-in scenarios (clustersim run NAME):")
	for _, n := range names {
		s, err := scenarios.Builtin(n)
		if err != nil {
			fmt.Fprintf(stderr, "clustersim list: %v\n", err)
			return exitInternal
		}
		fmt.Fprintf(stdout, "%-*s  %s\n", width, n, s.Metadata.Summary)
	}
	return exitOK
}

func explain(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("clustersim explain", stderr)
	if c, done := parse(fs, args); done {
		return c
	}
	if fs.NArg() != 1 {
		return usageError(fs, "name one built-in scenario or lesson (clustersim list shows them)")
	}
	name := fs.Arg(0)
	// A lesson by number or name explains each of its designs; a
	// scenario file or built-in explains itself.
	var todo []string
	if l, ok := lessons.Find(name); ok && !scenarios.IsBuiltin(name) {
		for _, d := range l.Designs {
			todo = append(todo, d.Scenario)
		}
	} else {
		todo = []string{name}
	}
	for i, n := range todo {
		s, err := loadScenario(n, scenarios.Options{})
		if err != nil {
			fmt.Fprintln(stderr, err)
			return exitBadInput
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if l, ok := lessons.Find(s.Metadata.Name); ok && scenarios.IsBuiltin(s.Metadata.Name) {
			fmt.Fprintf(stdout, "Lesson %d: %s (clustersim lesson %d measures it over %d seeds)\n\n", l.Number, l.Title, l.Number, l.SeedCount())
		}
		fmt.Fprintf(stdout, "%s: %s\n\n%s", s.Metadata.Name, s.Metadata.Summary, s.Metadata.Description)
	}
	return exitOK
}

// minDemoDuration is the shortest --duration the demo accepts; the help
// and the refusal both state it.
const minDemoDuration = 3 * time.Minute

// demo runs the built-in controller-runtime demo.
func demo(args []string, stdout, stderr io.Writer) (code int) {
	fs := newFlags("clustersim demo", stderr)
	seed := fs.Uint64("seed", 1, "root seed of the run's random streams")
	duration := fs.Duration("duration", 10*time.Minute, fmt.Sprintf("virtual time to simulate, at least %v", minDemoDuration))
	output := fs.StringP("output", "o", "table", "output format: table or json")
	if c, done := parse(fs, args); done {
		return c
	}
	if fs.NArg() > 0 {
		return usageError(fs, "unexpected argument %q", fs.Arg(0))
	}
	if *output != "table" && *output != "json" {
		return usageError(fs, "-o %q: want table or json", *output)
	}
	if *duration < minDemoDuration {
		return usageError(fs, "--duration %v: the demo needs at least %v", *duration, minDemoDuration)
	}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "clustersim: internal error (demo, seed %d): %v\n", *seed, r)
			code = exitInternal
		}
	}()
	res, err := cluster.RunDemo(cluster.DemoConfig{Seed: *seed, Duration: *duration})
	if err != nil {
		fmt.Fprintf(stderr, "clustersim demo: %v\n", err)
		return exitBadInput
	}
	if *output == "json" {
		err = report.DemoJSON(stdout, res)
	} else {
		err = report.Demo(stdout, res)
	}
	if err != nil {
		fmt.Fprintf(stderr, "clustersim demo: %v\n", err)
		return exitInternal
	}
	if res.Published != res.Namespaces {
		return exitFailed
	}
	return exitOK
}

// lesson runs one lesson (by number, slug or design scenario) or all of
// them, each design on the same seeds, and prints the figures side by
// side with the lesson's claims. It exits 1 when a claim does not hold.
func lesson(args []string, stdout, stderr io.Writer) int {
	return lessonCommand(args, stdout, stderr, nil)
}

// lessonCommand runs lessons, or with mg prints them from the measures
// merged from the outputs of lesson --shard I/N.
func lessonCommand(args []string, stdout, stderr io.Writer, mg *merged) int {
	fs := newFlags("clustersim lesson", stderr)
	all := fs.Bool("all", false, "run every lesson (with -o markdown: docs/lessons.md)")
	seeds := fs.Int("seeds", 0, fmt.Sprintf("seeds per design (default: the lesson's own, 100 for most; at most %d, and %d runs in all)", maxSeeds, maxRuns))
	seed := fs.Uint64("seed", 1, "first seed")
	jobs := fs.Int("jobs", runtime.NumCPU(), fmt.Sprintf("how many runs at once (results do not depend on it; at most %d a CPU)", jobsPerCPU))
	output := fs.StringP("output", "o", "table", "output format: table (fitted to the terminal's width, or $COLUMNS), wide (the table at full width) or markdown")
	htmlPath := fs.String("html", "", "also write the lessons as one self-contained HTML file: designs side by side, the picture that makes each lesson's point, figures and claims")
	shardFlag := fs.String("shard", "", "run only the runs I, I+N, ... of every (lesson, design, seed) (I/N, e.g. a Kubernetes Indexed Job's completion index over its completions) and print them for clustersim merge")
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
	if *output != "table" && *output != "wide" && *output != "markdown" {
		return usageError(fs, "-o %q: want table, wide or markdown", *output)
	}
	if fs.Changed("seeds") {
		if err := checkSeeds(*seeds); err != nil {
			return usageError(fs, "%v", err)
		}
	}
	if err := checkJobs(*jobs); err != nil {
		return usageError(fs, "%v", err)
	}
	var todo []*lessons.Lesson
	switch {
	case *all && fs.NArg() == 0:
		todo = lessons.All()
	case !*all && fs.NArg() == 1:
		l, ok := lessons.Find(fs.Arg(0))
		if !ok {
			return usageError(fs, "no lesson %q (give its number, its name or one of its scenarios; clustersim list shows them)", fs.Arg(0))
		}
		todo = []*lessons.Lesson{l}
	default:
		return usageError(fs, "name one lesson, or give --all")
	}
	seedsOf := func(l *lessons.Lesson) int {
		if *seeds > 0 {
			return *seeds
		}
		return l.SeedCount()
	}
	total := 0
	for _, l := range todo {
		if err := checkSeedRange(*seed, seedsOf(l)); err != nil {
			return usageError(fs, "%v", err)
		}
		total += len(l.Designs) * seedsOf(l)
	}
	if err := checkRuns(fmt.Sprintf("%d lesson(s)' designs x seeds", len(todo)), total); err != nil {
		return usageError(fs, "%v", err)
	}
	if mg.wrongUnits(total, stderr) {
		return exitBadInput
	}
	if *htmlPath != "" && !sh.on() {
		if err := checkHTML(*htmlPath); err != nil {
			return usageError(fs, "--html %s: %v", *htmlPath, err)
		}
	}
	if *output == "markdown" && *all && !sh.on() {
		fmt.Fprint(stdout, lessons.DocHeader)
	}
	if *output == "table" && !sh.on() {
		var done func()
		stdout, done = fitted(stdout)
		defer done()
	}
	code := exitOK
	var tables []*lessons.Table
	var shardMeasures [][]float64
	base := 0
	for i, l := range todo {
		n := seedsOf(l)
		units := len(l.Designs) * n
		b := base
		owns := func(k int) bool { return sh.owns(b + k) }
		var done func(k int) []float64
		if mg != nil {
			done = func(k int) []float64 { return mg.measures[b+k] }
		}
		base += units
		bar := newProgress(stderr, units, fmt.Sprintf("lesson %d", l.Number))
		t, ms, err := runLesson(l, *seed, n, *jobs, bar.add, owns, done)
		bar.done()
		if sh.on() && err == nil {
			shardMeasures = append(shardMeasures, ms...)
			continue
		}
		if err != nil {
			fmt.Fprintf(stderr, "clustersim lesson %d: %v\n", l.Number, err)
			var internal internalError
			if errors.As(err, &internal) {
				return exitInternal
			}
			return exitBadInput
		}
		if *output == "markdown" {
			err = lessons.WriteMarkdown(stdout, t)
		} else {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			err = lessons.Write(stdout, t)
		}
		if err != nil {
			fmt.Fprintf(stderr, "clustersim lesson: %v\n", err)
			return exitInternal
		}
		for _, c := range l.Claims {
			if !c.Holds(t) {
				fmt.Fprintf(stderr, "FAIL lesson %d: %s\n", l.Number, c.Text)
				code = exitFailed
			}
		}
		tables = append(tables, t)
	}
	if sh.on() {
		if err := writeLessonShard(stdout, args, sh, shardMeasures); err != nil {
			fmt.Fprintf(stderr, "clustersim lesson: %v\n", err)
			return exitInternal
		}
		return exitOK
	}
	if *htmlPath != "" {
		if err := writeHTML(*htmlPath, stderr, func(w io.Writer) error { return lessons.HTML(w, tables) }); err != nil {
			fmt.Fprintf(stderr, "clustersim lesson: --html: %v\n", err)
			return exitBadInput
		}
	}
	return code
}

// runLesson runs every design of a lesson on seeds first..first+n-1, jobs
// at a time, and measures each run; ran is called after each run. Run k
// (design k/n, seed k%n) is made only if owns(k), and taken from done(k)
// instead when done is set (the merged shards'). It returns the table
// (nil when some runs belong to other shards) and every run's measures.
func runLesson(l *lessons.Lesson, first uint64, n, jobs int, ran func(), owns func(int) bool, done func(int) []float64) (*lessons.Table, [][]float64, error) {
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = first + uint64(i)
	}
	runs := make([][][]float64, len(l.Designs))
	for d := range runs {
		runs[d] = make([][]float64, n)
	}
	errs := make([]error, len(l.Designs)*n)
	flat := make([][]float64, len(l.Designs)*n)
	complete := true
	for k := range flat {
		if done == nil && !owns(k) {
			complete = false
		}
	}
	parallel(len(l.Designs)*n, jobs, func(k int) {
		d, i := k/n, k%n
		if done != nil {
			runs[d][i], flat[k] = done(k), done(k)
			ran()
			return
		}
		if !owns(k) {
			return
		}
		res, err := runSeedFull(l.Designs[d].Scenario, seeds[i])
		if err != nil {
			errs[k] = fmt.Errorf("%s seed %d: %w", l.Designs[d].Scenario, seeds[i], err)
			return
		}
		runs[d][i] = l.Measure(res)
		flat[k] = runs[d][i]
		ran()
	})
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	if !complete {
		return nil, flat, nil
	}
	return lessons.NewTable(l, seeds, runs), flat, nil
}

// runSeedFull runs a built-in scenario with one seed and keeps the whole
// result; a panic becomes an internalError.
func runSeedFull(name string, seed uint64) (res *runner.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, internalError{r}
		}
	}()
	s, err := scenarios.Builtin(name)
	if err != nil {
		return nil, err
	}
	return runScenario(s, runner.Options{Seed: &seed, Detect: measure.Detect})
}

// parallel calls f(0..n-1), jobs at a time. Each call must write only its
// own results. While it runs, the collector's memory limit is that of as
// many simulations as run at once (heapGovernor.forRuns).
func parallel(n, jobs int, f func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	defer kernel.InlineSinksFor(min(jobs, n))()
	if g := governor.Load(); g != nil {
		defer g.forRuns(min(jobs, n))()
	}
	for range min(jobs, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// generate prints a generated scenario: `generate scale --nodes N` is the
// capacity-planning probe of scenarios.ScaleYAML.
func generate(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("clustersim generate scale", stderr)
	nodes := fs.Int("nodes", 300, fmt.Sprintf("nodes, in three zones of 8 CPU / 32Gi (at most %d)", maxScaleNodes))
	perNode := fs.Int("pods-per-node", 30, "pods per node, over ten Deployments")
	crash := fs.Int("crash-percent", 1, fmt.Sprintf("percent of the nodes that crash at 20 minutes, 1 to %d (at least one node)", scenarios.MaxCrashPercent))
	unpaced := fs.Bool("unpaced", false, "leave the controllers', the scheduler's and the kubelets' API clients unpaced (default: kube-controller-manager's 20 QPS, burst 30; kube-scheduler's and the kubelet's 50, 100)")
	qps := fs.Float64("qps", scenarios.ControllerManagerQPS, "each controller client's QPS (kube-controller-manager's --kube-api-qps; large clusters raise it)")
	burst := fs.Int("burst", scenarios.ControllerManagerBurst, "each controller client's burst (--kube-api-burst)")
	schedQPS := fs.Float64("scheduler-qps", scenarios.SchedulerQPS, "the scheduler's QPS, for its API client and its event client each (kube-scheduler's --kube-api-qps)")
	schedBurst := fs.Int("scheduler-burst", scenarios.SchedulerBurst, "the scheduler's burst (kube-scheduler's --kube-api-burst)")
	percentage := fs.Int32("percentage-of-nodes-to-score", 0, "the scheduler's percentageOfNodesToScore, 0 to 100 (KubeSchedulerConfiguration's; default 0: upstream's adaptive share, 50% less 1% for every 125 nodes, at least 5%)")
	services := fs.Bool("services", false, "put each Deployment behind a Service (the endpoints and EndpointSlice controllers then follow every pod)")
	cm := fs.String("controller-manager", scenarios.ControllerManagerOneProcess, fmt.Sprintf("how kube-controller-manager's controllers run (spec.cluster.controllerManager): %s, as upstream, sharing their informers; or %s, each a process of its own", scenarios.ControllerManagerOneProcess, scenarios.ControllerManagerPerController))
	spread := fs.Bool("spread", false, "give each Deployment's pods a zone topology spread constraint (maxSkew 1, DoNotSchedule)")
	anti := fs.String("anti-affinity", "", fmt.Sprintf("give each Deployment's pods a pod anti-affinity to its own by hostname: %s (weight 100) or %s (one a node: each Deployment's replicas must fit the nodes left after the crash)", scenarios.AntiAffinityPreferred, scenarios.AntiAffinityRequired))
	evictionRate := fs.Float64("node-eviction-rate", 0, fmt.Sprintf("nodes a second the node lifecycle controller taints NoExecute in a Normal zone (spec.cluster.nodeEvictionRate; kube-controller-manager's default 0.1; 0 to %d, 0: none)", scenarios.MaxNodeEvictionRate))
	secondaryRate := fs.Float64("secondary-node-eviction-rate", 0, fmt.Sprintf("the same in a partially disrupted zone of more than 50 nodes, as --crash-percent 19 and up makes zone-a (spec.cluster.secondaryNodeEvictionRate; default 0.01; 0 to %d, 0: none)", scenarios.MaxNodeEvictionRate))
	batch := fs.Duration("updates-batch-period", 0, "with --services: the endpoints and EndpointSlice controllers' batch period (kube-controller-manager's --endpoint-updates-batch-period, --endpointslice-updates-batch-period; default 0: a sync a pod change)")
	if c, done := parse(fs, args); done {
		return c
	}
	if fs.NArg() != 1 || fs.Arg(0) != "scale" {
		return usageError(fs, "want one generator: scale")
	}
	if *perNode < 1 {
		return usageError(fs, "--pods-per-node %d: want 1 to 100", *perNode)
	}
	if *crash < 1 || *crash > scenarios.MaxCrashPercent {
		// The whole range here, not only 0 (which ScaleProbe takes for
		// its default, 1: a node the user asked not to crash): the
		// library's message for the rest offers 0 as the default.
		return usageError(fs, "--crash-percent %d: want 1 to %d (the probe crashes at least one node at 20 minutes, all in zone-a)", *crash, scenarios.MaxCrashPercent)
	}
	if *nodes > maxScaleNodes {
		return usageError(fs, "--nodes %d: at most %d", *nodes, maxScaleNodes)
	}
	if *unpaced && (fs.Changed("qps") || fs.Changed("burst")) {
		return usageError(fs, "--unpaced with --qps or --burst: an unpaced client has no rate")
	}
	if *qps <= 0 || *burst < 1 {
		return usageError(fs, "--qps %v --burst %d: want a positive rate and a burst of at least 1", *qps, *burst)
	}
	sched := fs.Changed("scheduler-qps") || fs.Changed("scheduler-burst")
	if *unpaced && sched {
		return usageError(fs, "--unpaced with --scheduler-qps or --scheduler-burst: an unpaced client has no rate")
	}
	if *schedQPS <= 0 || *schedBurst < 1 {
		return usageError(fs, "--scheduler-qps %v --scheduler-burst %d: want a positive rate and a burst of at least 1", *schedQPS, *schedBurst)
	}
	if *cm != scenarios.ControllerManagerOneProcess && *cm != scenarios.ControllerManagerPerController {
		return usageError(fs, "--controller-manager %q: want %s or %s", *cm, scenarios.ControllerManagerOneProcess, scenarios.ControllerManagerPerController)
	}
	probe := scenarios.ScaleProbe{Nodes: *nodes, PodsPerNode: *perNode, CrashPercent: *crash, Unpaced: *unpaced, QPS: *qps, Burst: *burst, Services: *services, UpdatesBatchPeriod: *batch,
		PerController: *cm == scenarios.ControllerManagerPerController, Spread: *spread, AntiAffinity: *anti}
	if sched {
		probe.SchedulerQPS, probe.SchedulerBurst = *schedQPS, *schedBurst
	}
	if fs.Changed("percentage-of-nodes-to-score") {
		probe.PercentageOfNodesToScore = percentage
	}
	if fs.Changed("node-eviction-rate") {
		probe.NodeEvictionRate = evictionRate
	}
	if fs.Changed("secondary-node-eviction-rate") {
		probe.SecondaryNodeEvictionRate = secondaryRate
	}
	data, err := scenarios.ScaleYAML(probe)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	for _, n := range scenarios.ScaleNotes(probe) {
		fmt.Fprintf(stderr, "clustersim generate scale: note: %s\n", n)
	}
	stdout.Write(data)
	return exitOK
}
