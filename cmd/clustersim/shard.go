package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/report"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// shardFormat names the format of a shard's output.
const shardFormat = "clustersim-shard/v1"

// shardSpec is --shard I/N: this process runs the units (seeds, or grid
// point x seed pairs) whose index is I modulo N. The zero value runs
// everything.
type shardSpec struct{ I, N int }

func parseShard(s string) (shardSpec, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return shardSpec{}, fmt.Errorf("--shard %q: want I/N with 0 <= I < N (a Kubernetes Indexed Job's completion index and completions)", s)
	}
	return shardSpec{I: i, N: n}, nil
}

func (s shardSpec) on() bool { return s.N > 0 }

// owns reports whether this shard runs unit i.
func (s shardSpec) owns(i int) bool { return !s.on() || i%s.N == s.I }

// shardFile is what a shard prints: the command line (without --shard)
// and each of its units' results, enough for merge to print what one
// process running every unit prints.
type shardFile struct {
	Format string     `json:"format"`
	Args   []string   `json:"args"`
	Shard  int        `json:"shard"`
	Of     int        `json:"of"`
	Units  int        `json:"units"`
	Runs   []shardRun `json:"runs"`
}

// shardRun is one unit's result as the summaries read it: a run's
// result and figures, or for lesson a run's measures.
type shardRun struct {
	Unit     int            `json:"unit"`
	Result   *runner.Result `json:"result,omitempty"`
	Figures  report.Figures `json:"figures"`
	Measures []float64      `json:"measures,omitempty"`
}

// withoutShard returns args without --shard and its value.
func withoutShard(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--shard" {
			i++
			continue
		}
		if strings.HasPrefix(a, "--shard=") {
			continue
		}
		out = append(out, a)
	}
	return out
}

// writeShard prints this shard's results as JSON.
func writeShard(w io.Writer, cmd string, args []string, sh shardSpec, units int, results []*runner.Result, figs []report.Figures) error {
	f := shardFile{Format: shardFormat, Args: append([]string{cmd}, withoutShard(args)...), Shard: sh.I, Of: sh.N, Units: units}
	for i := range units {
		if sh.owns(i) {
			f.Runs = append(f.Runs, shardRun{Unit: i, Result: results[i], Figures: figs[i]})
		}
	}
	enc := json.NewEncoder(w)
	return enc.Encode(&f)
}

// writeLessonShard prints this shard's lesson measures as JSON; units
// are every (lesson, design, seed) in order, measures[k] nil for the
// units of other shards.
func writeLessonShard(w io.Writer, args []string, sh shardSpec, measures [][]float64) error {
	f := shardFile{Format: shardFormat, Args: append([]string{"lesson"}, withoutShard(args)...), Shard: sh.I, Of: sh.N, Units: len(measures)}
	for k, m := range measures {
		if sh.owns(k) {
			f.Runs = append(f.Runs, shardRun{Unit: k, Measures: m})
		}
	}
	return json.NewEncoder(w).Encode(&f)
}

// merged are the units of every shard, by index, for a command re-run
// by merge instead of running anything.
type merged struct {
	results  []*runner.Result
	figs     []report.Figures
	measures [][]float64
	file     string // the first shard's, for messages
}

// wrongUnits reports (on stderr) that the shards hold another number of
// units than the n runs of the command they name; a nil m (no merge)
// holds any number.
func (m *merged) wrongUnits(n int, stderr io.Writer) bool {
	if m == nil || len(m.results) == n {
		return false
	}
	fmt.Fprintf(stderr, "clustersim merge: %s: \"units\": %d, but the command makes %d runs\n", m.file, len(m.results), n)
	return true
}

// check refuses a shard file whose header cannot be true, before merge
// allocates or loops by it: a command, 0 <= shard < of, and 0 <= units
// <= maxRuns.
func (f *shardFile) check() error {
	switch {
	case len(f.Args) == 0:
		return errors.New(`"args": empty, no command to merge`)
	case f.Of < 1:
		return fmt.Errorf(`"of": %d, want at least 1 shard`, f.Of)
	case f.Shard < 0 || f.Shard >= f.Of:
		return fmt.Errorf(`"shard": %d, want 0 to %d ("of": %d)`, f.Shard, f.Of-1, f.Of)
	case f.Units < 0 || f.Units > maxRuns:
		return fmt.Errorf(`"units": %d, want 0 to %d`, f.Units, maxRuns)
	}
	return nil
}

// merge reads the outputs of every shard of one command and prints what
// that command prints when one process runs every unit.
func merge(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("clustersim merge", stderr)
	if c, done := parse(fs, args); done {
		return c
	}
	if fs.NArg() == 0 {
		return usageError(fs, "name the shards' output files")
	}
	var first *shardFile
	seen := map[int]string{}
	var files []*shardFile
	runs := 0
	for _, path := range fs.Args() {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "clustersim merge: %v\n", err)
			return exitBadInput
		}
		f := &shardFile{}
		if err := json.Unmarshal(data, f); err != nil || f.Format != shardFormat {
			fmt.Fprintf(stderr, "clustersim merge: %s: not the output of a --shard run (%s)\n", path, shardFormat)
			return exitBadInput
		}
		if err := f.check(); err != nil {
			fmt.Fprintf(stderr, "clustersim merge: %s: %v\n", path, err)
			return exitBadInput
		}
		if first == nil {
			first = f
		} else if !slices.Equal(f.Args, first.Args) || f.Of != first.Of || f.Units != first.Units {
			fmt.Fprintf(stderr, "clustersim merge: %s is a shard of another command (clustersim %s, %d shards) than %s (clustersim %s, %d shards)\n",
				path, strings.Join(f.Args, " "), f.Of, fs.Arg(0), strings.Join(first.Args, " "), first.Of)
			return exitBadInput
		}
		if prev, dup := seen[f.Shard]; dup {
			fmt.Fprintf(stderr, "clustersim merge: %s and %s are both shard %d/%d\n", prev, path, f.Shard, f.Of)
			return exitBadInput
		}
		seen[f.Shard] = path
		files = append(files, f)
		runs += len(f.Runs)
	}
	// Named up to ten: "of" may be far more than the files given.
	var missing []string
	for i := 0; i < first.Of && len(missing) < 10; i++ {
		if _, ok := seen[i]; !ok {
			missing = append(missing, fmt.Sprintf("%d/%d", i, first.Of))
		}
	}
	if len(missing) > 0 {
		more := ""
		if n := first.Of - len(seen) - len(missing); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		fmt.Fprintf(stderr, "clustersim merge: missing shard(s) %s%s\n", strings.Join(missing, ", "), more)
		return exitBadInput
	}
	// Every unit is in exactly one shard: allocate by what the files hold.
	if runs != first.Units {
		fmt.Fprintf(stderr, "clustersim merge: %s: \"units\": %d, but the shards hold %d runs\n", fs.Arg(0), first.Units, runs)
		return exitBadInput
	}
	m := merged{results: make([]*runner.Result, runs), figs: make([]report.Figures, runs), measures: make([][]float64, runs), file: fs.Arg(0)}
	have := make([]bool, runs)
	isLesson := first.Args[0] == "lesson"
	for k, f := range files {
		for _, r := range f.Runs {
			if r.Unit < 0 || r.Unit >= f.Units || r.Unit%f.Of != f.Shard || (!isLesson && r.Result == nil) || have[r.Unit] {
				fmt.Fprintf(stderr, "clustersim merge: %s: unit %d does not belong to shard %d/%d\n", fs.Arg(k), r.Unit, f.Shard, f.Of)
				return exitBadInput
			}
			m.results[r.Unit], m.figs[r.Unit], m.measures[r.Unit] = r.Result, r.Figures, r.Measures
			have[r.Unit] = true
		}
	}
	switch first.Args[0] {
	case "lesson":
		return lessonCommand(first.Args[1:], stdout, stderr, &m)
	case "run":
		return runCommand(first.Args[1:], stdout, stderr, &m)
	case "sweep":
		return sweepCommand(first.Args[1:], stdout, stderr, &m)
	}
	fmt.Fprintf(stderr, "clustersim merge: shards of %q cannot be merged\n", first.Args[0])
	return exitBadInput
}

// seedsShard is how run --seeds shares its work: the shard to run, or
// the merged results of every shard, and the command line.
type seedsShard struct {
	spec shardSpec
	mg   *merged
	args []string
}

// units is how many runs this process makes of n.
func (s seedsShard) units(n int) int {
	if s.mg != nil {
		return 0
	}
	if !s.spec.on() {
		return n
	}
	c := 0
	for i := range n {
		if s.spec.owns(i) {
			c++
		}
	}
	return c
}
