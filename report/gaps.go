package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/clustersim/clustersim/report/measure"
)

// gapHeading says how the gaps were judged.
func gapHeading(g *measure.Gaps) string {
	s := fmt.Sprintf("Gap between declared and actual state (an incident: a gap open longer than %s; converged: every gap closed for %s)", g.SLO, g.Settle)
	if len(g.Ignore) > 0 {
		kinds := make([]string, len(g.Ignore))
		for i, k := range g.Ignore {
			kinds[i] = string(k)
		}
		s += "; not judged: " + strings.Join(kinds, ", ")
	}
	return s
}

var gapObjectsHeader = []string{"object", "opened", "open in all", "longest", "peak", "at the peak"}

// gapObjectRows are one row per object whose gap ever opened.
func gapObjectRows(g *measure.Gaps) [][]string {
	rows := make([][]string, 0, len(g.Objects))
	for _, o := range g.Objects {
		name := o.Object.String()
		if o.Ignored {
			name += " (not judged)"
		}
		longest := measure.Seconds(o.Longest)
		if o.OpenAtEnd {
			longest += " (still open)"
		}
		rows = append(rows, []string{name, strconv.Itoa(o.Opened), measure.Seconds(o.OpenTotal), longest, strconv.Itoa(o.Peak), o.PeakDetail})
	}
	return rows
}

var convergenceHeader = []string{"at", "cause", "converged after"}

// convergenceRows are one row per cause.
func convergenceRows(g *measure.Gaps) [][]string {
	rows := make([][]string, 0, len(g.Convergence))
	for _, c := range g.Convergence {
		rows = append(rows, []string{clock(c.At), c.Cause, convergedAfter(c)})
	}
	return rows
}

// convergedAfter renders a convergence time, or that there was none.
func convergedAfter(c measure.Convergence) string {
	if !c.Settled {
		return "never (within the run)"
	}
	return measure.Seconds(c.After)
}

// gapsText writes the gap section of the terminal report.
func gapsText(w io.Writer, g *measure.Gaps) error {
	fmt.Fprintf(w, "\n%s:\n", gapHeading(g))
	if len(g.Objects) == 0 {
		fmt.Fprintln(w, "  no gap opened")
	} else if err := Table(w, gapObjectsHeader, gapObjectRows(g)); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nConvergence:\n")
	if err := Table(w, convergenceHeader, convergenceRows(g)); err != nil {
		return err
	}
	findings := g.Findings()
	if len(g.Incidents) == 0 {
		findings = append([]string{"no incident"}, findings...)
	}
	for _, f := range findings {
		fmt.Fprintf(w, "  %s\n", f)
	}
	return nil
}

// gapsMarkdown writes the gap section of the Markdown report.
func gapsMarkdown(w io.Writer, g *measure.Gaps) error {
	fmt.Fprintf(w, "\n## Gaps\n\n%s.\n\n", gapHeading(g))
	if len(g.Objects) == 0 {
		fmt.Fprintln(w, "No gap opened.")
	} else if err := MarkdownTable(w, gapObjectsHeader, gapObjectRows(g)); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n### Convergence\n\n")
	if err := MarkdownTable(w, convergenceHeader, convergenceRows(g)); err != nil {
		return err
	}
	findings := g.Findings()
	if len(g.Incidents) == 0 {
		findings = append([]string{"no incident"}, findings...)
	}
	fmt.Fprintln(w)
	for _, f := range findings {
		fmt.Fprintf(w, "- %s\n", f)
	}
	return nil
}

// Table renders rows with a header for a terminal (tablewriter, whose
// default upper-cases the header).
func Table(w io.Writer, header []string, rows [][]string) error {
	return render(tablewriter.NewWriter(w), header, rows)
}

// PlainTable is Table with the header printed as given: headers that
// carry units or names ("AFTER (s)", a scenario's name) keep their case.
func PlainTable(w io.Writer, header []string, rows [][]string) error {
	return render(tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off)), header, rows)
}

func render(t *tablewriter.Table, header []string, rows [][]string) error {
	t.Header(header)
	for _, r := range rows {
		if err := t.Append(r); err != nil {
			return err
		}
	}
	return t.Render()
}
