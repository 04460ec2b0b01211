package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// A report of a large cluster must not grow with it: a thousand crashed
// nodes are one step, one gap row and one convergence row, with counts,
// not a thousand of each. Folding only starts at foldSteps alike steps
// (or foldObjects objects of one kind), so the reports of small
// scenarios list everything as before.
const (
	// foldSteps is the fewest consecutive timeline steps (or convergence
	// causes) at one instant, alike but for one name, that are folded.
	foldSteps = 4
	// foldObjects is the fewest gap-table rows of one kind (and
	// namespace, and judged or not) that are folded into one.
	foldObjects = 25
	// foldNames is how many names a folded line lists.
	foldNames = 3
)

// splitName splits a step's command into what all alike steps share and
// the name it acts on (its last word): "crash node" and "zone-a-1".
func splitName(command string) (shape, name string) {
	i := strings.LastIndexByte(command, ' ')
	if i < 0 {
		return "", command
	}
	return command[:i], command[i+1:]
}

// alikeEntries reports whether b is a's step for another name, printing
// the same output but for that name.
func alikeEntries(a, b *runner.Entry) bool {
	if a.At != b.At || a.Err != "" || b.Err != "" || a.Snapshot != nil || b.Snapshot != nil || len(a.Lines) != len(b.Lines) {
		return false
	}
	shapeA, nameA := splitName(a.Command)
	shapeB, nameB := splitName(b.Command)
	if shapeA == "" || shapeA != shapeB || nameA == nameB {
		return false
	}
	for i := range a.Lines {
		if strings.ReplaceAll(b.Lines[i], nameB, nameA) != a.Lines[i] {
			return false
		}
	}
	return true
}

// foldedNames lists the names of a folded run: the first foldNames and
// how many more.
func foldedNames(names []string) string {
	if len(names) <= foldNames+1 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:foldNames], ", ") + fmt.Sprintf(", … %s (%d more)", names[len(names)-1], len(names)-foldNames)
}

// differingWord returns the index of the one space-separated word in
// which lines a and b differ, or -1 when they differ in none or in more
// than one.
func differingWord(a, b string) int {
	wa, wb := strings.Fields(a), strings.Fields(b)
	if len(wa) != len(wb) || strings.Count(a, " ") != strings.Count(b, " ") {
		return -1
	}
	at := -1
	for i := range wa {
		if wa[i] != wb[i] {
			if at >= 0 {
				return -1
			}
			at = i
		}
	}
	return at
}

// foldLines folds a step's output: a run of at least foldObjects lines
// alike but for one word in the same place (a selector that crashed a
// zone's nodes prints "node/zone-a-1 stopped: ..." for each) is its first
// line and one line naming the others.
func foldLines(lines []string) []string {
	if len(lines) < foldObjects {
		return lines
	}
	var out []string
	for i := 0; i < len(lines); {
		at, j := -1, i+1
		for ; j < len(lines); j++ {
			d := differingWord(lines[i], lines[j])
			if d < 0 || (at >= 0 && d != at) {
				break
			}
			at = d
		}
		if j-i < foldObjects {
			out = append(out, lines[i])
			i++
			continue
		}
		names := make([]string, 0, j-i-1)
		for _, l := range lines[i+1 : j] {
			names = append(names, strings.Fields(l)[at])
		}
		out = append(out, lines[i], fmt.Sprintf("(the same for %d more: %s)", len(names), foldedNames(names)))
		i = j
	}
	return out
}

// entryRuns groups r's timeline entries: runs of at least foldSteps
// alike entries (alikeEntries) are one group, every other entry its own.
func entryRuns(entries []runner.Entry) [][]runner.Entry {
	var out [][]runner.Entry
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && alikeEntries(&entries[i], &entries[j]) {
			j++
		}
		if j-i < foldSteps {
			j = i + 1
		}
		out = append(out, entries[i:j])
		i = j
	}
	return out
}

// foldedEntryLine is the line a folded run of steps ends with: the other
// names it was done for.
func foldedEntryLine(run []runner.Entry) string {
	names := make([]string, 0, len(run)-1)
	for _, e := range run[1:] {
		_, name := splitName(e.Command)
		names = append(names, name)
	}
	shape, _ := splitName(run[0].Command)
	return fmt.Sprintf("(the same for %d more at %s: %s %s)", len(names), clock(run[0].At), shape, foldedNames(names))
}

// foldConvergence folds runs of at least foldSteps causes at one instant,
// alike but for one name and converged after the same time, into one
// row.
func foldConvergence(cs []measure.Convergence) [][]string {
	var rows [][]string
	for i := 0; i < len(cs); {
		shape, _ := splitName(cs[i].Cause)
		j := i + 1
		for j < len(cs) && shape != "" && cs[j].At == cs[i].At && cs[j].Settled == cs[i].Settled && cs[j].After == cs[i].After {
			if s, _ := splitName(cs[j].Cause); s != shape {
				break
			}
			j++
		}
		if j-i < foldSteps {
			rows = append(rows, []string{clock(cs[i].At), cs[i].Cause, convergedAfter(cs[i])})
			i++
			continue
		}
		names := make([]string, 0, j-i)
		for _, c := range cs[i:j] {
			_, name := splitName(c.Cause)
			names = append(names, name)
		}
		rows = append(rows, []string{clock(cs[i].At), fmt.Sprintf("%s %s (%d steps)", shape, foldedNames(names), j-i), convergedAfter(cs[i])})
		i = j
	}
	return rows
}

// gapRow is one row of the gap table.
func gapRow(o *measure.GapObject) []string {
	name := o.Object.String()
	if o.Ignored {
		name += " (not judged)"
	}
	longest := measure.Seconds(o.Longest)
	if o.OpenAtEnd {
		longest += " (still open)"
	}
	return []string{name, strconv.Itoa(o.Opened), measure.Seconds(o.OpenTotal), longest, strconv.Itoa(o.Peak), o.PeakDetail}
}

// foldedGapRow sums a run of one kind's objects into one row: the times
// opened and open added up, the longest stretch and the peak the
// largest of any (its detail the first object's to reach it).
func foldedGapRow(objs []measure.GapObject) []string {
	var (
		opened        int
		total, longst time.Duration
		stillOpen     int
		peak          = -1
		detail        string
	)
	names := make([]string, len(objs))
	for i := range objs {
		o := &objs[i]
		names[i] = o.Object.Key.Name
		opened += o.Opened
		total += o.OpenTotal
		longst = max(longst, o.Longest)
		if o.OpenAtEnd {
			stillOpen++
		}
		if o.Peak > peak {
			peak, detail = o.Peak, o.PeakDetail
		}
	}
	o := &objs[0]
	name := fmt.Sprintf("%d %s objects", len(objs), o.Object.Kind.Name)
	if ns := o.Object.Key.Namespace; ns != "" {
		name += " in " + ns
	}
	if o.Ignored {
		name += " (not judged)"
	}
	name += ": " + foldedNames(names)
	longest := measure.Seconds(longst)
	if stillOpen > 0 {
		longest += fmt.Sprintf(" (%d still open)", stillOpen)
	}
	return []string{name, strconv.Itoa(opened), measure.Seconds(total), longest, strconv.Itoa(peak), detail}
}
