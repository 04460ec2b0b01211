package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// MarkdownTable renders rows as a GitHub-flavoured Markdown table.
func MarkdownTable(w io.Writer, header []string, rows [][]string) error {
	t := tablewriter.NewTable(w, tablewriter.WithRenderer(renderer.NewMarkdown()), tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header(header)
	for _, r := range rows {
		for i, c := range r {
			r[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		if err := t.Append(r); err != nil {
			return err
		}
	}
	return t.Render()
}

// ScenarioMarkdown writes a scenario run as a Markdown document, for pull
// requests, issues and wikis: the timeline (each step's output in a code
// block), the expectations table, the measurement findings and the cost.
func ScenarioMarkdown(w io.Writer, r *runner.Result) error {
	fmt.Fprintf(w, "# Scenario %s, seed %d, %v of virtual time\n", r.Scenario, r.Seed, r.Duration)
	if len(r.Entries) > 0 {
		fmt.Fprintf(w, "\n## Timeline\n")
	}
	for _, run := range entryRuns(r.Entries) {
		e := &run[0]
		fmt.Fprintf(w, "\n**%s** `%s`\n\n```\n", clock(e.At), e.Command)
		for _, l := range foldLines(e.Lines) {
			fmt.Fprintln(w, l)
		}
		if e.Err != "" {
			fmt.Fprintln(w, e.Err)
		}
		if e.Snapshot != nil {
			if err := snapshot(w, e.Snapshot); err != nil {
				return err
			}
		}
		if len(run) > 1 {
			fmt.Fprintln(w, foldedEntryLine(run))
		}
		fmt.Fprintf(w, "```\n")
	}
	if len(r.Expectations) > 0 {
		fmt.Fprintf(w, "\n## Expectations\n\n")
		if err := MarkdownTable(w, []string{"Result", "Expectation", "Detail"}, expectationRows(r)); err != nil {
			return err
		}
	}
	m := measure.Analyze(r, measure.Options{})
	if findings := m.Summary(); len(findings) > 0 {
		fmt.Fprintf(w, "\n## Findings\n\n")
		for _, f := range findings {
			fmt.Fprintf(w, "- %s\n", f)
		}
	}
	if err := gapsMarkdown(w, &m.Gaps); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s, trace `%s`\n", costLine(r), r.TraceHash[:16])
	return nil
}

// SeedsMarkdown writes a multi-seed summary as a Markdown document.
func SeedsMarkdown(w io.Writer, s *SeedsSummary) error {
	fmt.Fprintf(w, "# Scenario %s: %d seeds (%d to %d), %d failed\n\n", s.Scenario, len(s.Seeds), first(s.Seeds), last(s.Seeds), len(s.Failed))
	if err := MarkdownTable(w, seedsHeader, seedsRows(s)); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n## Convergence\n\n")
	if err := MarkdownTable(w, convergenceSeedsHeader, convergenceSeedsRows(s)); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", incidentLine(s))
	return nil
}
