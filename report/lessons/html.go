package lessons

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"

	"github.com/clustersim/clustersim/report"
	"github.com/clustersim/clustersim/report/chart"
	"github.com/clustersim/clustersim/scenarios"
)

// pictureCategories is how many distinct integer values a picture draws
// one bar each for; wider ranges are binned.
const pictureCategories = 25

// pictureBins is how many bins a picture of a wide range has.
const pictureBins = 10

// Picture returns the chart that makes the lesson's point: the
// distribution over the seeds of its Picture figures (by default its
// first figure that is not a yes/no share), one group of bars per design
// and figure, side by side.
func Picture(t *Table) chart.Bars {
	l := t.Lesson
	names := l.Picture
	if len(names) == 0 {
		for _, f := range l.Figures {
			if f.Unit != Share {
				names = []string{f.Name}
				break
			}
		}
	}
	b := chart.Bars{
		Title:  fmt.Sprintf("Lesson %d: %s", l.Number, l.Title),
		YLabel: "seeds",
	}
	if len(names) == 0 {
		return b
	}
	type group struct {
		name   string
		values []float64
	}
	var groups []group
	missing := 0
	unit := Count
	for d, design := range l.Designs {
		for _, name := range names {
			unit = l.Figures[t.figure(name)].Unit
			g := group{name: name, values: t.Sample(d, name)}
			switch {
			case len(l.Designs) > 1 && len(names) > 1:
				g.name = design.Scenario + ": " + name
			case len(l.Designs) > 1:
				g.name = design.Scenario
			}
			missing += len(t.Seeds) - len(g.values)
			groups = append(groups, g)
		}
	}
	b.XLabel = names[0] + unitSuffix(unit)
	if len(names) > 1 {
		b.XLabel = "value" + unitSuffix(unit)
	}
	b.Subtitle = fmt.Sprintf("how many of the %d seeds ended at each value", len(t.Seeds))
	if missing > 0 {
		b.Subtitle += fmt.Sprintf(" (%d runs without a value left out)", missing)
	}
	lo, hi, integer := math.Inf(1), math.Inf(-1), true
	for _, g := range groups {
		for _, v := range g.values {
			lo, hi = min(lo, v), max(hi, v)
			integer = integer && v == math.Trunc(v)
		}
	}
	if math.IsInf(lo, 0) {
		return b
	}
	// Integers over a small range: one category per value, gaps included;
	// otherwise pictureBins equal bins.
	var edges []float64
	if integer && hi-lo < pictureCategories {
		for v := lo; v <= hi; v++ {
			b.Categories = append(b.Categories, num(v))
			edges = append(edges, v)
		}
	} else {
		width := (hi - lo) / pictureBins
		if width == 0 {
			width = 1
		}
		for i := range pictureBins {
			from := lo + float64(float64(i)*width) // rounded apart: no fused multiply-add (docs/fma-check.sh)
			b.Categories = append(b.Categories, num(from)+"–"+num(from+width))
			edges = append(edges, from)
		}
	}
	for _, g := range groups {
		counts := make([]float64, len(edges))
		for _, v := range g.values {
			i, _ := slices.BinarySearch(edges, v)
			if i == len(edges) || edges[i] > v {
				i--
			}
			counts[max(i, 0)]++
		}
		b.Groups = append(b.Groups, chart.BarGroup{Name: g.name, Values: counts})
	}
	return b
}

// htmlLesson is one lesson's section of the HTML page.
type htmlLesson struct {
	ID, Heading, Seeds string
	Designs            []htmlDesign
	Picture            template.HTML
	Header             []string
	Rows               [][]string
	Notes              []string
	Claims             []htmlClaim
}

type htmlDesign struct{ Scenario, Label, Summary string }

type htmlClaim struct {
	Holds bool
	Text  string
}

// HTML writes lessons as one self-contained page: for each, its designs
// side by side, the picture that makes its point (Picture), the table of
// figures with its footnotes, and the claims with their verdicts.
func HTML(w io.Writer, tables []*Table) error {
	var sections []htmlLesson
	for _, t := range tables {
		l := t.Lesson
		svg, err := report.InlineSVG(Picture(t))
		if err != nil {
			return fmt.Errorf("lesson %d picture: %w", l.Number, err)
		}
		rows, notes := rows(t)
		s := htmlLesson{
			ID: fmt.Sprintf("lesson-%d", l.Number), Heading: fmt.Sprintf("Lesson %d: %s", l.Number, l.Title),
			Seeds: seedLine(t), Picture: svg, Header: header(t), Rows: rows, Notes: notes,
		}
		for _, d := range l.Designs {
			hd := htmlDesign{Scenario: d.Scenario, Label: d.Label}
			if sc, err := scenarios.Builtin(d.Scenario); err == nil {
				hd.Summary = sc.Metadata.Summary
			}
			s.Designs = append(s.Designs, hd)
		}
		for _, c := range l.Claims {
			s.Claims = append(s.Claims, htmlClaim{c.Holds(t), c.Text})
		}
		sections = append(sections, s)
	}
	title := "clustersim: lessons of desired state"
	if len(tables) == 1 {
		title = "clustersim: " + sections[0].Heading
	}
	var body bytes.Buffer
	if err := lessonTmpl.Execute(&body, sections); err != nil {
		return err
	}
	return report.HTMLPage(w, title, template.HTML(body.String()))
}

var lessonTmpl = template.Must(template.New("lessons").Funcs(template.FuncMap{"inc": func(i int) int { return i + 1 }}).Parse(`{{range .}}
<section id="{{.ID}}">
<h1>{{.Heading}}</h1>
<p class="meta">{{.Seeds}}</p>
<div class="designs">
{{range .Designs}}<div class="design"><h3>{{.Scenario}}</h3><p>{{.Label}}</p><p class="note">{{.Summary}}</p></div>
{{end}}</div>
<figure class="picture">
{{.Picture}}
<figcaption>The distribution over the seeds of the figure that makes the lesson's point, design beside design.</figcaption>
</figure>
<h2>Figures</h2>
<table class="figures">
<tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{range $i, $n := .Notes}}<p class="note">[{{inc $i}}] {{$n}}</p>
{{end}}
<h2>Claims</h2>
<ul class="claims">
{{range .Claims}}<li><span class="{{if .Holds}}claim-holds{{else}}claim-fails{{end}}">{{if .Holds}}holds{{else}}FAILS{{end}}</span> {{.Text}}</li>
{{end}}</ul>
</section>
{{end}}`))
