package report

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/report/chart"
	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// The HTML reports are single files that need nothing else when opened:
// CSS in a style element, charts as inline SVG (gonum/plot's SVG back
// end, the same drawing as --plot), no script, no image, font or link to
// load, and a Content-Security-Policy that forbids loading anything, so
// a browser makes no network request and a page mailed or archived reads
// the same years later.

// htmlCSP forbids every load; inline style is the only thing allowed.
const htmlCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

// HTMLPage writes one self-contained page: title, then body.
func HTMLPage(w io.Writer, title string, body template.HTML) error {
	return pageTmpl.Execute(w, struct {
		Title string
		CSP   string
		Body  template.HTML
	}{title, htmlCSP, body})
}

var pageTmpl = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; margin: 1.5em auto; max-width: 72em; padding: 0 1em; color: #111; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; margin-top: 1.6em; }
.meta { color: #555; }
.verdict { font-size: 1.3em; font-weight: bold; padding: 0.4em 0.7em; border-radius: 4px; display: inline-block; margin: 0.6em 0; }
.pass { background: #e3f4e8; color: #0b6b2e; }
.fail { background: #fbe4e4; color: #a11; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.finding td { background: #fff4e5; }
tr.incident td { background: #fbe4e4; }
tr:target td { outline: 2px solid #0072b2; }
figure { margin: 1em 0; }
figure svg { width: 100%; max-width: 60em; height: auto; border: 1px solid #eee; }
figcaption { color: #444; font-size: 0.95em; }
pre { background: #f7f7f7; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
details summary { cursor: pointer; color: #0050a0; }
.designs { display: grid; grid-template-columns: repeat(auto-fit, minmax(20em, 1fr)); gap: 1em; }
.design { border: 1px solid #ddd; border-radius: 4px; padding: 0.5em 1em; }
.claim-holds { color: #0b6b2e; font-weight: bold; }
.claim-fails { color: #a11; font-weight: bold; }
.note { color: #444; font-size: 0.95em; }
</style>
</head>
<body>
{{.Body}}
</body>
</html>
`))

// Chart is a chart that renders itself (report/chart's types).
type Chart interface {
	Render(w io.Writer, f chart.Format) error
}

// InlineSVG renders c as SVG for inline use in HTML: without the XML
// prolog and the namespace attributes (HTML's parser puts svg in its
// namespace), so the page names no URL at all.
func InlineSVG(c Chart) (template.HTML, error) {
	var buf bytes.Buffer
	if err := c.Render(&buf, chart.SVG); err != nil {
		return "", err
	}
	svg := buf.String()
	if i := strings.Index(svg, "<svg"); i >= 0 {
		svg = svg[i:]
	}
	svg = svgNamespaces.ReplaceAllString(svg, "")
	return template.HTML(svg), nil // rendered by gonum/plot from escaped text
}

var svgNamespaces = regexp.MustCompile(`\s+xmlns(:xlink)?="[^"]*"`)

// htmlStaleLines caps the stale-success findings of a page.
const htmlStaleLines = 20

// htmlEvent is one row of a run's timeline: an action or fault, an
// observation, or a moment a detector or the gap judgement points at.
type htmlEvent struct {
	ID     string
	At     time.Duration
	Clock  string
	Kind   string
	Class  string
	Text   string
	Output string
}

// htmlFinding is a finding, linked to its row in the timeline when it
// happened at a moment.
type htmlFinding struct {
	Text string
	Link string
}

// HTML writes one run as a self-contained page: the verdict and the
// expectations, a timeline of actions, faults and findings, pods by phase,
// each object's gap and the writes of each actor over time (fights and
// flapping fields shaded), the findings linked to their moments, the
// convergence table, and the whole text report.
func HTML(w io.Writer, r *runner.Result) error {
	m := measure.Analyze(r, measure.Options{})
	var events []htmlEvent
	add := func(at time.Duration, kind, class, text, output string) string {
		id := fmt.Sprintf("ev-%d", len(events)+1)
		events = append(events, htmlEvent{ID: id, At: at, Clock: clock(at), Kind: kind, Class: class, Text: text, Output: output})
		return "#" + id
	}
	for _, e := range r.Entries {
		var b strings.Builder
		for _, l := range foldLines(e.Lines) {
			b.WriteString(l + "\n")
		}
		if e.Err != "" {
			b.WriteString(e.Err + "\n")
		}
		if e.Snapshot != nil {
			if err := snapshot(&b, e.Snapshot); err != nil {
				return err
			}
		}
		kind := "action"
		if e.Observation {
			kind = "look"
		}
		add(e.At, kind, "", "$ "+e.Command, b.String())
	}
	var findings []htmlFinding
	for _, l := range m.Lines() {
		f := htmlFinding{Text: l.Text}
		if l.Timed {
			f.Link = add(l.At, strings.SplitN(l.Text, ":", 2)[0], "finding", l.Text, "")
		}
		findings = append(findings, f)
	}
	for _, ivs := range m.Gaps.IncidentGroups() {
		if len(ivs) > 1 {
			l := m.Gaps.IncidentLine(ivs)
			findings = append(findings, htmlFinding{l.Text, add(l.At, "incident", "incident", l.Text, "")})
			continue
		}
		iv := ivs[0]
		text := fmt.Sprintf("incident: %s gap opened, open %s (longer than the %s SLO)", iv.Object, measure.Seconds(iv.Duration()), m.Gaps.SLO)
		findings = append(findings, htmlFinding{text, add(iv.From, "incident", "incident", text, "")})
	}
	for i, s := range m.Gaps.StaleSuccess {
		if i == htmlStaleLines {
			findings = append(findings, htmlFinding{Text: fmt.Sprintf("stale success: %d more stretches", len(m.Gaps.StaleSuccess)-i)})
			break
		}
		text := fmt.Sprintf("stale success: %s status read as complete for generation %d while generation %d was declared, for %s",
			s.Object, s.Observed, s.Generation, measure.Seconds(s.To-s.From))
		findings = append(findings, htmlFinding{text, add(s.From, "stale success", "finding", text, "")})
	}
	slices.SortStableFunc(events, func(a, b htmlEvent) int { return cmp.Compare(a.At, b.At) })

	var marks []chart.Mark
	for _, e := range r.Entries {
		if !e.Observation && len(marks) < chart.MaxMarks {
			marks = append(marks, chart.Mark{At: e.At, Label: e.Command})
		}
	}
	pods := podPhaseChart(r, marks)
	writes := writesChart(r, m, marks)
	charts := []struct {
		ID, Caption string
		Chart       Chart
	}{
		{"pods", "Pods by phase: how many pods were in each phase, over virtual time (dashed lines: the timeline's actions).", pods},
		{"gaps", "Each object's gap between declared and actual state over virtual time (a gap open longer than the SLO is an incident).", GapChart(r)},
		{"writes", "Accepted writes that changed something, per actor, over virtual time; shaded: the stretches in which the detectors found fights or flapping fields.", writes},
	}
	type figure struct {
		ID, Caption string
		SVG         template.HTML
	}
	var figures []figure
	for _, c := range charts {
		svg, err := InlineSVG(c.Chart)
		if err != nil {
			return fmt.Errorf("report: html %s chart: %w", c.ID, err)
		}
		figures = append(figures, figure{c.ID, c.Caption, svg})
	}
	var text bytes.Buffer
	if err := Scenario(&text, r); err != nil {
		return err
	}
	var body bytes.Buffer
	err := runTmpl.Execute(&body, map[string]any{
		"R": r, "Passed": r.Passed(), "Held": held(r), "Expectations": expectationRows(r),
		"Events": events, "Findings": findings, "Figures": figures,
		"GapHeading": gapHeading(&m.Gaps), "Convergence": convergenceRows(&m.Gaps),
		"Cost": costLine(r), "Text": text.String(),
	})
	if err != nil {
		return err
	}
	return HTMLPage(w, fmt.Sprintf("clustersim: %s, seed %d", r.Scenario, r.Seed), template.HTML(body.String()))
}

var runTmpl = template.Must(template.New("run").Parse(`
<h1>{{.R.Scenario}}</h1>
<p class="meta">seed {{.R.Seed}}, {{.R.Duration}} of virtual time, trace {{printf "%.16s" .R.TraceHash}}</p>
<div id="verdict" class="verdict {{if .Passed}}pass{{else}}fail{{end}}">{{if .Passed}}PASS{{else}}FAIL{{end}}: {{.Held}} of {{len .R.Expectations}} expectations held</div>

<h2 id="expectations">Expectations</h2>
<table>
<tr><th>result</th><th>expectation</th><th>detail</th></tr>
{{range .Expectations}}<tr><td>{{index . 0}}</td><td>{{index . 1}}</td><td>{{index . 2}}</td></tr>
{{end}}</table>

<h2 id="charts">Over time</h2>
{{range .Figures}}<figure id="{{.ID}}">
{{.SVG}}
<figcaption>{{.Caption}}</figcaption>
</figure>
{{end}}
<h2 id="findings">Findings</h2>
{{if .Findings}}<ul>
{{range .Findings}}<li>{{if .Link}}<a href="{{.Link}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</li>
{{end}}</ul>{{else}}<p>The detectors found nothing: no fight, no flapping field, no hot loop, no incident.</p>{{end}}

<h2 id="timeline">Timeline</h2>
<p class="note">Every action and fault of the scenario, what each observation showed, and the moments the findings point at.</p>
<table>
<tr><th>at</th><th>what</th><th></th></tr>
{{range .Events}}<tr id="{{.ID}}"{{if .Class}} class="{{.Class}}"{{end}}><td class="num">{{.Clock}}</td><td>{{.Kind}}</td><td>{{.Text}}{{if .Output}}<details><summary>output</summary><pre>{{.Output}}</pre></details>{{end}}</td></tr>
{{end}}</table>

<h2 id="convergence">Convergence</h2>
<p class="note">{{.GapHeading}}.</p>
<table>
<tr><th>at</th><th>cause</th><th>converged after</th></tr>
{{range .Convergence}}<tr><td class="num">{{index . 0}}</td><td>{{index . 1}}</td><td class="num">{{index . 2}}</td></tr>
{{end}}</table>
<p class="meta">{{.Cost}}</p>

<details id="text"><summary>The whole text report</summary><pre>{{.Text}}</pre></details>
`))

// podPhaseChart counts the pods in each phase over the run, from the
// audit log (a pod created without a phase counts as Pending), and, as
// kubectl's STATUS column does, a pod being deleted as Terminating.
func podPhaseChart(r *runner.Result, marks []chart.Mark) chart.GapChart {
	phases := []string{"Pending", "Running", "Terminating", "Succeeded", "Failed"}
	phase := map[api.Key]string{}
	counts := map[string]float64{}
	series := make([]chart.Series, len(phases))
	for i, p := range phases {
		series[i] = chart.Series{Name: p, Points: []chart.Point{{At: 0, Value: 0}}}
	}
	record := func(at time.Duration) {
		for i, p := range phases {
			pts := series[i].Points
			if pts[len(pts)-1].Value == counts[p] {
				continue
			}
			if pts[len(pts)-1].At == at {
				pts[len(pts)-1].Value = counts[p]
			} else {
				pts = append(pts, chart.Point{At: at, Value: counts[p]})
			}
			series[i].Points = pts
		}
	}
	for i := range r.Audit {
		a := &r.Audit[i]
		if a.Kind != api.KindPod || a.NoOp {
			continue
		}
		old, had := phase[a.Key]
		now := old
		if !had {
			now = "Pending"
		}
		for c := range a.EachChange() {
			if c.Path == "status.phase" && c.New != "" && now != "Terminating" {
				now = c.New
			}
			if c.Path == "metadata.deletionTimestamp" && c.NewSet {
				now = "Terminating"
			}
		}
		if had {
			counts[old]--
		}
		if a.Removed {
			delete(phase, a.Key)
		} else {
			phase[a.Key] = now
			counts[now]++
		}
		record(a.Time.Duration())
	}
	return chart.GapChart{
		Title:  fmt.Sprintf("%s seed %d: pods by phase", r.Scenario, r.Seed),
		Series: series, Marks: marks, End: r.Duration, YLabel: "pods",
	}
}

// writesSeries is how many actors the writes chart draws on their own.
const writesSeries = 8

// writesChart counts each actor's accepted writes that changed something
// in buckets of about a sixtieth of the run, and shades the fights and
// flapping fields.
func writesChart(r *runner.Result, m *measure.Report, marks []chart.Mark) chart.GapChart {
	bucket := writeBucket(r.Duration)
	n := int(r.Duration/bucket) + 1
	perActor := map[string][]float64{}
	total := map[string]int{}
	for i := range r.Audit {
		a := &r.Audit[i]
		if a.NoOp {
			continue
		}
		who := actorGroup(a.Actor)
		if perActor[who] == nil {
			perActor[who] = make([]float64, n)
		}
		perActor[who][min(int(a.Time.Duration()/bucket), n-1)]++
		total[who]++
	}
	actors := make([]string, 0, len(total))
	for a := range total {
		actors = append(actors, a)
	}
	slices.SortFunc(actors, func(a, b string) int { return cmp.Or(cmp.Compare(total[b], total[a]), strings.Compare(a, b)) })
	c := chart.GapChart{
		Title:  fmt.Sprintf("%s seed %d: writes per actor", r.Scenario, r.Seed),
		Marks:  marks,
		End:    r.Duration,
		YLabel: "writes per " + bucket.String(),
	}
	points := func(counts []float64) []chart.Point {
		pts := make([]chart.Point, n)
		for i, v := range counts {
			pts[i] = chart.Point{At: time.Duration(i) * bucket, Value: v}
		}
		return pts
	}
	rest := make([]float64, n)
	others := 0
	for i, a := range actors {
		if i < writesSeries {
			c.Series = append(c.Series, chart.Series{Name: a, Points: points(perActor[a])})
			continue
		}
		others++
		for j, v := range perActor[a] {
			rest[j] += v
		}
	}
	if others > 0 {
		c.Series = append(c.Series, chart.Series{Name: fmt.Sprintf("%d other actors", others), Points: points(rest)})
	}
	for _, f := range m.Fights {
		c.Spans = append(c.Spans, chart.Span{From: f.First, To: f.Last})
	}
	for _, f := range m.Flaps {
		c.Spans = append(c.Spans, chart.Span{From: f.First, To: f.Last})
	}
	if len(c.Spans) > chart.MaxMarks {
		c.Spans = c.Spans[:chart.MaxMarks]
	}
	c.SpanLegend = "fights and flaps"
	return c
}

// writeBucket is a round bucket of about a sixtieth of d, at least 1 s.
func writeBucket(d time.Duration) time.Duration {
	for _, b := range []time.Duration{time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second, time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute} {
		if d/b <= 60 {
			return b
		}
	}
	return time.Hour
}

// actorGroup names an actor for a legend: a service account by its name
// ("replicaset-controller"), every kubelet as one actor.
func actorGroup(actor string) string {
	switch {
	case strings.HasPrefix(actor, "system:node:"):
		return "kubelets"
	case strings.HasPrefix(actor, "system:serviceaccount:"):
		parts := strings.Split(actor, ":")
		if parts[2] == "kube-system" {
			return parts[len(parts)-1]
		}
		return parts[2] + "/" + parts[len(parts)-1]
	}
	return actor
}

// SeedsHTML writes a multi-seed summary as a self-contained page: the
// verdict, each expectation's pass rate and when it held, and per cause
// the distribution of convergence times as a histogram.
func SeedsHTML(w io.Writer, s *SeedsSummary) error {
	type figure struct {
		ID  string
		SVG template.HTML
	}
	var figures []figure
	for i, d := range ConvergenceCharts(s) {
		svg, err := InlineSVG(d)
		if err != nil {
			return fmt.Errorf("report: html convergence chart %d: %w", i, err)
		}
		figures = append(figures, figure{fmt.Sprintf("convergence-%d", i), svg})
	}
	var body bytes.Buffer
	err := seedsTmpl.Execute(&body, map[string]any{
		"S": s, "First": first(s.Seeds), "Last": last(s.Seeds),
		"Header": seedsHeader, "Rows": seedsRows(s),
		"ConvHeader": convergenceSeedsHeader, "ConvRows": convergenceSeedsRows(s),
		"Incidents": incidentLine(s), "Figures": figures,
	})
	if err != nil {
		return err
	}
	return HTMLPage(w, fmt.Sprintf("clustersim: %s, %d seeds", s.Scenario, len(s.Seeds)), template.HTML(body.String()))
}

var seedsTmpl = template.Must(template.New("seeds").Parse(`
<h1>{{.S.Scenario}}</h1>
<p class="meta">{{len .S.Seeds}} seeds ({{.First}} to {{.Last}})</p>
<div id="verdict" class="verdict {{if .S.Failed}}fail{{else}}pass{{end}}">{{if .S.Failed}}FAIL: {{len .S.Failed}} of {{len .S.Seeds}} seeds failed an expectation{{else}}PASS: every expectation held on every seed{{end}}</div>

<h2 id="expectations">Expectations</h2>
<table>
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>

<h2 id="convergence">Convergence</h2>
<p class="note">Every gap closed and staying closed, measured from each cause; durations in seconds.</p>
<table>
<tr>{{range .ConvHeader}}<th>{{.}}</th>{{end}}</tr>
{{range .ConvRows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{range .Figures}}<figure id="{{.ID}}">
{{.SVG}}
</figure>
{{end}}
<p>{{.Incidents}}</p>
`))
