package lessons

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/report"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// DefaultSeeds is how many seeds a lesson's figures cover unless it says
// otherwise.
const DefaultSeeds = 100

// Lesson is one lesson of desired state: the built-in scenarios that
// teach it, what to measure on every run of them, and the directions the
// lesson claims.
type Lesson struct {
	// Number orders the lessons (1 to 16); Slug names the lesson on the
	// command line; Title is its heading.
	Number int
	Slug   string
	Title  string
	// Designs are the built-in scenarios the lesson runs on the same
	// seeds: one, or the contrasted designs side by side (the one the
	// lesson warns against first).
	Designs []Design
	// Figures are measured on every run of every design.
	Figures []Figure
	// Seeds is how many seeds the figures cover (DefaultSeeds if 0).
	Seeds int
	// Claims are what the lesson asserts about the figures; a test checks
	// each over the lesson's seeds.
	Claims []Claim
	// Picture names the figures whose distributions make the lesson's
	// point in the HTML report (default: the first figure that is not a
	// yes/no share).
	Picture []string
}

// Design is one scenario a lesson runs.
type Design struct {
	// Scenario is the built-in scenario's name; Label what the column
	// says about it ("compares with ==").
	Scenario string
	Label    string
}

// Claim is a statement about a lesson's figures and the check of it.
type Claim struct {
	Text  string
	Holds func(t *Table) bool
}

// SeedCount is the number of seeds the lesson's figures cover.
func (l *Lesson) SeedCount() int {
	if l.Seeds > 0 {
		return l.Seeds
	}
	return DefaultSeeds
}

// Measure computes the lesson's figures on one run of one of its designs.
func (l *Lesson) Measure(res *runner.Result) []float64 {
	r := &Run{Result: res}
	out := make([]float64, len(l.Figures))
	for i, f := range l.Figures {
		out[i] = f.Of(r)
	}
	return out
}

// Table is a lesson's figures over its seeds.
type Table struct {
	Lesson *Lesson
	// Seeds are the seeds run, in order.
	Seeds []uint64
	// Values[d][f] are figure f's values on design d, one per seed in
	// seed order (NaN where it did not apply).
	Values [][][]float64
	// read, when set, is told the name of every figure a claim looks up
	// (the test that checks claims against their figures' units).
	read func(figure string)
}

// NewTable builds a lesson's table from per-run figures: runs[d][i] are
// Measure's figures for design d on Seeds[i].
func NewTable(l *Lesson, seeds []uint64, runs [][][]float64) *Table {
	t := &Table{Lesson: l, Seeds: seeds, Values: make([][][]float64, len(l.Designs))}
	for d := range l.Designs {
		t.Values[d] = make([][]float64, len(l.Figures))
		for f := range l.Figures {
			col := make([]float64, len(seeds))
			for i := range seeds {
				col[i] = math.NaN()
				if d < len(runs) && i < len(runs[d]) && f < len(runs[d][i]) {
					col[i] = runs[d][i][f]
				}
			}
			t.Values[d][f] = col
		}
	}
	return t
}

// figure returns the index of the figure named name (panics on a typo in
// the registry, which the registry's test catches).
func (t *Table) figure(name string) int {
	if t.read != nil {
		t.read(name)
	}
	for i, f := range t.Lesson.Figures {
		if f.Name == name {
			return i
		}
	}
	panic(fmt.Sprintf("lesson %d has no figure %q", t.Lesson.Number, name))
}

// Sample returns design d's values of a figure, NaNs left out.
func (t *Table) Sample(d int, figure string) []float64 {
	var out []float64
	for _, v := range t.Values[d][t.figure(figure)] {
		if !math.IsNaN(v) {
			out = append(out, v)
		}
	}
	return out
}

// All reports whether every seed of design d has a value of figure and
// ok holds for each.
func (t *Table) All(d int, figure string, ok func(float64) bool) bool {
	for _, v := range t.Values[d][t.figure(figure)] {
		if math.IsNaN(v) || !ok(v) {
			return false
		}
	}
	return true
}

// Mean is the mean of design d's values of figure (NaN if none).
func (t *Table) Mean(d int, figure string) float64 {
	s := t.Sample(d, figure)
	if len(s) == 0 {
		return math.NaN()
	}
	return report.Describe(s).Mean
}

// Write prints the table for a terminal: a row per figure, a column per
// design, then the claims with a verdict.
func Write(w io.Writer, t *Table) error {
	l := t.Lesson
	fmt.Fprintf(w, "Lesson %d: %s\n", l.Number, l.Title)
	fmt.Fprintf(w, "%s\n\n", seedLine(t))
	rows, notes := rows(t)
	if err := report.PlainTable(w, header(t), rows); err != nil {
		return err
	}
	for i, n := range notes {
		fmt.Fprintf(w, "  [%d] %s\n", i+1, n)
	}
	for _, c := range l.Claims {
		fmt.Fprintf(w, "  %s %s\n", verdict(c.Holds(t)), c.Text)
	}
	return nil
}

// WriteMarkdown prints the table as a Markdown section.
func WriteMarkdown(w io.Writer, t *Table) error {
	l := t.Lesson
	fmt.Fprintf(w, "## %d. %s\n\n", l.Number, l.Title)
	for _, d := range l.Designs {
		summary := ""
		if sc, err := scenarios.Builtin(d.Scenario); err == nil {
			summary = ": " + sc.Metadata.Summary
		}
		fmt.Fprintf(w, "- `%s`%s\n", d.Scenario, summary)
	}
	fmt.Fprintf(w, "\n%s; `clustersim explain %d` tells the lesson and what to look at.\n\n", seedLine(t), l.Number)
	rows, notes := rows(t)
	if err := report.MarkdownTable(w, header(t), rows); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for i, n := range notes {
		fmt.Fprintf(w, "[%d] %s  \n", i+1, n)
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
	}
	for _, c := range l.Claims {
		fmt.Fprintf(w, "- %s %s\n", verdict(c.Holds(t)), c.Text)
	}
	fmt.Fprintln(w)
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "[holds]"
	}
	return "[FAILS]"
}

// seedLine says what ran.
func seedLine(t *Table) string {
	var names []string
	for _, d := range t.Lesson.Designs {
		names = append(names, d.Scenario)
	}
	first, last := uint64(0), uint64(0)
	if n := len(t.Seeds); n > 0 {
		first, last = t.Seeds[0], t.Seeds[n-1]
	}
	return fmt.Sprintf("%s over %d seeds (%d to %d)", strings.Join(names, " and "), len(t.Seeds), first, last)
}

func header(t *Table) []string {
	h := []string{"figure"}
	for _, d := range t.Lesson.Designs {
		h = append(h, d.Scenario+": "+d.Label)
	}
	return h
}

// rows are one row per figure: each design's distribution; notes are
// the footnotes the rows refer to as [1], [2]...: a figure's own note on
// its name, and what "n/a" means on a cell that has runs without a value.
func rows(t *Table) (out [][]string, notes []string) {
	out = make([][]string, 0, len(t.Lesson.Figures))
	mark := func(note string) string {
		notes = append(notes, note)
		return fmt.Sprintf(" [%d]", len(notes))
	}
	for f, fig := range t.Lesson.Figures {
		name := fig.Name + unitSuffix(fig.Unit)
		if fig.Note != "" {
			name += mark(fig.Note)
		}
		row := []string{name}
		na := ""
		for d := range t.Lesson.Designs {
			c := cell(fig.Unit, t.Values[d][f])
			if strings.Contains(c, "n/a in") {
				if na == "" {
					na = mark("n/a: " + cmp.Or(fig.NA, "the figure does not apply to that run"))
				}
				c += na
			}
			row = append(row, c)
		}
		out = append(out, row)
	}
	return out, notes
}

func unitSuffix(u Unit) string {
	switch u {
	case Seconds:
		return " (s)"
	case Rate:
		return " (/s)"
	}
	return ""
}

// cell renders one design's values of one figure: a share as a
// percentage with its count; a number as mean ± sd and the median, range;
// the runs where it did not apply, if any.
func cell(u Unit, vals []float64) string {
	var s []float64
	for _, v := range vals {
		if !math.IsNaN(v) {
			s = append(s, v)
		}
	}
	missing := len(vals) - len(s)
	var out string
	switch {
	case len(s) == 0:
		out = "-"
	case u == Share:
		n := 0
		for _, v := range s {
			if v != 0 {
				n++
			}
		}
		out = fmt.Sprintf("%.1f%% (%d of %d)", 100*float64(n)/float64(len(s)), n, len(s))
	default:
		d := report.Describe(s)
		if num(d.Min) == num(d.Max) {
			// Equal at the precision printed: one number, not "30.0 ±
			// 0.003 (30.0–30.0)".
			out = num(d.Mean)
		} else {
			out = fmt.Sprintf("%s ± %s (median %s, %s–%s)", num(d.Mean), num(d.StdDev), num(d.Median), num(d.Min), num(d.Max))
		}
	}
	if missing > 0 {
		out += fmt.Sprintf("; n/a in %d", missing)
	}
	return out
}

// num prints a figure with the precision it deserves: integers as such,
// others with one decimal (three below 1).
func num(x float64) string {
	switch {
	case x == math.Trunc(x) && math.Abs(x) < 1e15:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case math.Abs(x) < 1:
		return strconv.FormatFloat(x, 'f', 3, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// DocHeader opens docs/lessons.md.
const DocHeader = `# Lessons of desired state, with their numbers

This file is generated: ` + "`make lessons`" + ` runs
` + "`clustersim lesson --all -o markdown > docs/lessons.md`" + `, which runs every
lesson's scenarios on the same seeds and measures them. Do not edit it by
hand: ` + "`make lessons-check`" + ` (which CI runs) runs the same command and fails
when this file and a fresh run disagree. ` + "`clustersim explain NAME`" + ` prints a
lesson's text and what to look at; ` + "`clustersim lesson NAME`" + ` prints its
table; ` + "`clustersim run NAME`" + ` runs one seed of a design.

Each table shows, per figure and design, the mean ± standard deviation
(median, min–max) over the seeds, or for yes/no figures the share of seeds.
Every figure in seconds is a duration, measured from the moment its name
gives ("after the hang"), never a time of day. A number in brackets points
at a footnote under the table: what a cell could be misread as, and what
"n/a" means for it. "[holds]" marks each claim the lesson makes that the
figures bear out.

`

// Find returns the lesson named by its number, slug or one of its
// designs' scenario names.
func Find(name string) (*Lesson, bool) {
	for _, l := range All() {
		if strconv.Itoa(l.Number) == name || l.Slug == name {
			return l, true
		}
	}
	for _, l := range All() {
		if slices.ContainsFunc(l.Designs, func(d Design) bool { return d.Scenario == name }) {
			return l, true
		}
	}
	return nil, false
}
