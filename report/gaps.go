package report

import (
	"fmt"
	"io"
	"slices"
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
			kinds[i] = k.Name
		}
		s += "; not judged: " + strings.Join(kinds, ", ")
	}
	return s
}

var gapObjectsHeader = []string{"object", "opened", "open in all", "longest", "peak", "at the peak"}

// gapObjectRows are one row per object whose gap ever opened, the
// objects of a kind folded into one row when there are at least
// foldObjects of them (in one namespace, judged or not).
func gapObjectRows(g *measure.Gaps) [][]string {
	rows := make([][]string, 0, len(g.Objects))
	for i := 0; i < len(g.Objects); {
		a := &g.Objects[i]
		j := i + 1
		for j < len(g.Objects) {
			b := &g.Objects[j]
			if b.Object.Kind != a.Object.Kind || b.Object.Key.Namespace != a.Object.Key.Namespace || b.Ignored != a.Ignored {
				break
			}
			j++
		}
		if j-i >= foldObjects {
			rows = append(rows, foldedGapRow(g.Objects[i:j]))
		} else {
			for k := i; k < j; k++ {
				rows = append(rows, gapRow(&g.Objects[k]))
			}
		}
		i = j
	}
	return rows
}

var convergenceHeader = []string{"at", "cause", "converged after"}

// convergenceRows are one row per cause, alike causes at one instant
// folded (foldConvergence).
func convergenceRows(g *measure.Gaps) [][]string { return foldConvergence(g.Convergence) }

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
// default upper-cases the header). Written to a Fitted writer, the table
// wraps its cells to fit the width.
func Table(w io.Writer, header []string, rows [][]string) error {
	return render(w, header, rows, true)
}

// PlainTable is Table with the header printed as given: headers that
// carry units or names ("AFTER (s)", a scenario's name) keep their case.
func PlainTable(w io.Writer, header []string, rows [][]string) error {
	return render(w, header, rows, false)
}

func render(w io.Writer, header []string, rows [][]string, upper bool) error {
	opts := []tablewriter.Option{}
	if !upper {
		opts = append(opts, tablewriter.WithHeaderAutoFormat(tw.Off))
	}
	if f, ok := w.(*Fitted); ok {
		header, rows = fitCells(header, rows, f.Width())
		opts = append(opts, tablewriter.WithRowAutoWrap(tw.WrapNone), tablewriter.WithHeaderAutoWrap(tw.WrapNone))
	}
	t := tablewriter.NewTable(w, opts...)
	t.Header(header)
	for _, r := range rows {
		if err := t.Append(r); err != nil {
			return err
		}
	}
	return t.Render()
}

// fitCells wraps the cells of a table so that, drawn with a border and
// one space of padding on each side of a cell, it is at most width
// columns wide: the widest columns give up room first, down to the width
// of the narrower ones, and each cell is wrapped at spaces (a word longer
// than its column breaks after a "/", "-" or "." where it can).
func fitCells(header []string, rows [][]string, width int) ([]string, [][]string) {
	n := len(header)
	natural := make([]int, n)
	for _, r := range append([][]string{header}, rows...) {
		for i := 0; i < n && i < len(r); i++ {
			natural[i] = max(natural[i], widest(r[i]))
		}
	}
	room := width - (3*n + 1)
	total := 0
	for _, c := range natural {
		total += c
	}
	if total <= room || room < n {
		return header, rows
	}
	// Water-fill: the cap that makes the columns, each min(natural, cap),
	// sum to the room.
	limit := slices.Clone(natural)
	for cap := slices.Max(natural); cap > 1; cap-- {
		sum := 0
		for i, c := range natural {
			limit[i] = min(c, cap)
			sum += limit[i]
		}
		if sum <= room {
			break
		}
	}
	wrapRow := func(r []string) []string {
		out := slices.Clone(r)
		for i := range out {
			if i < n {
				out[i] = strings.Join(wrapCell(out[i], limit[i]), "\n")
			}
		}
		return out
	}
	fitted := make([][]string, len(rows))
	for i, r := range rows {
		fitted[i] = wrapRow(r)
	}
	return wrapRow(header), fitted
}

// wrapCell breaks a cell's text into lines at most width columns wide.
func wrapCell(s string, width int) []string {
	var out []string
	for para := range strings.SplitSeq(s, "\n") {
		line := ""
		for _, word := range strings.Fields(para) {
			for columns(word) > width {
				// Break the word after the last separator that fits,
				// or hard at the width.
				head := cut(word, width+1)
				head = strings.TrimSuffix(head, "…")
				if i := strings.LastIndexAny(head, "/-.,=:"); i > 0 {
					head = head[:i+1]
				}
				if line != "" {
					out = append(out, line)
					line = ""
				}
				out = append(out, head)
				word = word[len(head):]
			}
			switch {
			case line == "":
				line = word
			case columns(line)+1+columns(word) <= width:
				line += " " + word
			default:
				out = append(out, line)
				line = word
			}
		}
		out = append(out, line)
	}
	return out
}

// widest is the display width of the widest line of s.
func widest(s string) int {
	n := 0
	for l := range strings.SplitSeq(s, "\n") {
		n = max(n, columns(l))
	}
	return n
}
