package report

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/gap"
)

// crashes returns n crash steps at 20:00, as the runner records them.
func crashes(n int) []runner.Entry {
	var es []runner.Entry
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("zone-a-%d", i)
		es = append(es, runner.Entry{At: 20 * time.Minute, Command: "crash node " + name,
			Lines: []string{"node/" + name + " stopped: no lease renewals, no status, no pod work"}})
	}
	return es
}

// TestFoldEntries checks that alike steps at one instant fold into one
// group from foldSteps of them, and that steps differing in anything but
// the name (time, output, kind of step) stay apart.
func TestFoldEntries(t *testing.T) {
	other := runner.Entry{At: 20 * time.Minute, Command: "crash node zone-b-1", Lines: []string{"something else"}}
	later := crashes(1)[0]
	later.At = 21 * time.Minute
	for _, tc := range []struct {
		name    string
		entries []runner.Entry
		want    []int // group sizes
	}{
		{"three are listed", crashes(3), []int{1, 1, 1}},
		{"four fold", crashes(4), []int{4}},
		{"fifty fold", crashes(50), []int{50}},
		{"other output apart", append(crashes(5), other), []int{5, 1}},
		{"other time apart", append(crashes(4), later), []int{4, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []int
			for _, run := range entryRuns(tc.entries) {
				got = append(got, len(run))
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("groups %v, want %v", got, tc.want)
			}
		})
	}
	if got, want := foldedEntryLine(crashes(50)), "(the same for 49 more at 20:00: crash node zone-a-2, zone-a-3, zone-a-4, … zone-a-50 (46 more))"; got != want {
		t.Errorf("folded line\n%s\nwant\n%s", got, want)
	}
}

// TestFoldGaps checks that the gap table and the convergence table of
// fifty crashed nodes have one row for the nodes, with their counts, and
// that ten objects of a kind are still listed one by one.
func TestFoldGaps(t *testing.T) {
	g := &measure.Gaps{}
	for i := 1; i <= 10; i++ {
		g.Objects = append(g.Objects, measure.GapObject{Object: gap.Object{Kind: api.KindDeployment, Key: api.Key{Namespace: "default", Name: fmt.Sprintf("app-%02d", i)}}, Opened: 1, Peak: 9})
	}
	for i := 1; i <= 50; i++ {
		g.Objects = append(g.Objects, measure.GapObject{Object: gap.Object{Kind: api.KindNode, Key: api.Key{Name: fmt.Sprintf("zone-a-%02d", i)}},
			Opened: 1, OpenTotal: time.Minute, Longest: time.Duration(i) * time.Second, Peak: 1, PeakDetail: "Ready=Unknown", OpenAtEnd: i%2 == 0, Ignored: true})
	}
	g.Convergence = append(g.Convergence, measure.Convergence{Cause: measure.StartCause, Settled: true, After: 9 * time.Minute})
	for i := 1; i <= 50; i++ {
		g.Convergence = append(g.Convergence, measure.Convergence{At: 20 * time.Minute, Cause: fmt.Sprintf("crash node zone-a-%02d", i), Settled: true, After: 6 * time.Minute})
	}
	rows := gapObjectRows(g)
	if len(rows) != 11 {
		t.Fatalf("%d gap rows, want 11 (ten Deployments, one for the nodes): %q", len(rows), rows)
	}
	if got, want := strings.Join(rows[10], " | "), "50 Node objects (not judged): zone-a-01, zone-a-02, zone-a-03, … zone-a-50 (47 more) | 50 | 50m0s | 50s (25 still open) | 1 | Ready=Unknown"; got != want {
		t.Errorf("folded row\n%s\nwant\n%s", got, want)
	}
	conv := convergenceRows(g)
	if len(conv) != 2 {
		t.Fatalf("%d convergence rows, want 2: %q", len(conv), conv)
	}
	if got, want := strings.Join(conv[1], " | "), "20:00 | crash node zone-a-01, zone-a-02, zone-a-03, … zone-a-50 (47 more) (50 steps) | 6m0s"; got != want {
		t.Errorf("folded convergence row\n%s\nwant\n%s", got, want)
	}
	// A different convergence time is its own row.
	g.Convergence[3].After = time.Minute
	if n := len(convergenceRows(g)); n != 5 {
		t.Errorf("%d convergence rows with one cause converging sooner, want 5 (start, two listed, the sooner one, 47 folded)", n)
	}
}

// TestFoldLines checks that a step's output folds a run of at least
// foldObjects lines alike but for one word in one place (a zone's nodes
// crashed by one selector) and leaves every other line as it was.
func TestFoldLines(t *testing.T) {
	stopped := func(from, to int) []string {
		var out []string
		for i := from; i <= to; i++ {
			out = append(out, fmt.Sprintf("node/zone-a-%d stopped: no lease renewals, no status, no pod work", i))
		}
		return out
	}
	aligned := make([]string, 30)
	for i := range aligned {
		aligned[i] = fmt.Sprintf("web-%d%s 1/1 Running", i, strings.Repeat(" ", 3-len(fmt.Sprint(i))))
	}
	twoWords := make([]string, 30)
	for i := range twoWords {
		twoWords[i] = fmt.Sprintf("node/n-%d stopped at %d", i, i)
	}
	// After 26 lines alike in their second word, a line that differs
	// from the first in its first word ends the run.
	var moving []string
	for i := 1; i <= 26; i++ {
		moving = append(moving, fmt.Sprintf("a %d c", i))
	}
	moving = append(moving, "b 1 c")
	for _, tc := range []struct {
		name  string
		lines []string
		want  []string
	}{
		{"fewer than foldObjects are listed", stopped(1, foldObjects-1), stopped(1, foldObjects-1)},
		{"foldObjects fold", stopped(1, foldObjects), []string{stopped(1, 1)[0],
			fmt.Sprintf("(the same for %d more: node/zone-a-2, node/zone-a-3, node/zone-a-4, … node/zone-a-%d (%d more))", foldObjects-1, foldObjects, foldObjects-1-foldNames)}},
		{"other lines kept around a run", append(append([]string{"first"}, stopped(1, 30)...), "last"), []string{"first", stopped(1, 1)[0],
			"(the same for 29 more: node/zone-a-2, node/zone-a-3, node/zone-a-4, … node/zone-a-30 (26 more))", "last"}},
		{"aligned columns are not folded", aligned, aligned},
		{"lines differing in two words are not folded", twoWords, twoWords},
		{"a run ends where another word differs", moving, []string{"a 1 c", "(the same for 25 more: 2, 3, 4, … 26 (22 more))", "b 1 c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := foldLines(tc.lines); !slices.Equal(got, tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}
