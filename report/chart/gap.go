package chart

import (
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Point is one sample of a step series: Value holds from At until the next
// point.
type Point struct {
	// At is the virtual time of the sample, from the start of the run.
	At time.Duration
	// Value is the gap from At on (replicas, pods or nodes).
	Value float64
}

// Series is one line: a name for the legend and its points in time order.
type Series struct {
	// Name labels the series in the legend; cut to 32 runes.
	Name string
	// Points are the samples in non-decreasing order of At.
	Points []Point
}

// Mark is a vertical line at a time with a short label (a timeline
// action: "apply", "crash node worker-1").
type Mark struct {
	// At is the virtual time of the action.
	At time.Duration
	// Label names the action; cut to 24 runes.
	Label string
}

// GapChart describes the gap-over-time plot of one run: the x axis is
// virtual time in minutes, the y axis the gap between declared and actual
// state.
type GapChart struct {
	// Title heads the chart, e.g. "rolling-update seed 1: gap between
	// declared and actual"; cut with "…" to the canvas width.
	Title string
	// Series are drawn as step lines, each in its own colour and dash
	// pattern; at most MaxSeries, MaxPoints points in all.
	Series []Series
	// Marks are drawn as grey dashed vertical lines with rotated labels
	// near the top; at most MaxMarks. A mark after End widens the x axis.
	Marks []Mark
	// End is the run's end: each series holds its last value until End,
	// or until the latest point of any series when that is later (so 0
	// means unknown).
	End time.Duration
	// SLO, when positive, is stated in the subtitle ("SLO: gap open > 5m0s
	// is an incident"); nothing is drawn for it.
	SLO time.Duration
	// YLabel labels the y axis; empty means the gap's label, so the same
	// chart draws any step series over virtual time (pods by phase,
	// writes per actor).
	YLabel string
	// Spans are stretches of time shaded behind the series (fights,
	// flapping fields); at most MaxMarks. SpanLegend names them in the
	// legend ("fights and flaps").
	Spans      []Span
	SpanLegend string
}

// Span is a stretch of virtual time to highlight.
type Span struct {
	From, To time.Duration
}

// gapLabel is the y axis label of a GapChart.
const gapLabel = "gap (replicas/pods/nodes)"

// palette gives each series a colour; dashes gives it a dash pattern, so
// that with 10 colours and 4 patterns the first 20 series all differ.
var palette = []color.Color{
	color.RGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff}, // blue
	color.RGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0xff}, // vermillion
	color.RGBA{R: 0x00, G: 0x9e, B: 0x73, A: 0xff}, // bluish green
	color.RGBA{R: 0xcc, G: 0x79, B: 0xa7, A: 0xff}, // reddish purple
	color.RGBA{R: 0xe6, G: 0x9f, B: 0x00, A: 0xff}, // orange
	color.RGBA{R: 0x56, G: 0xb4, B: 0xe9, A: 0xff}, // sky blue
	color.RGBA{R: 0x00, G: 0x00, B: 0x00, A: 0xff}, // black
	color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff}, // brown
	color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, // violet
	color.RGBA{R: 0xbc, G: 0xbd, B: 0x22, A: 0xff}, // olive
}

var dashes = [][]vg.Length{nil, {6, 3}, {2, 2}, {8, 3, 2, 3}}

// lineStyle returns the style of the i-th series.
func lineStyle(i int) draw.LineStyle {
	return draw.LineStyle{
		Color:  palette[i%len(palette)],
		Width:  1.5,
		Dashes: dashes[i%len(dashes)],
	}
}

// Render draws the chart in format f and writes it to w. It returns an
// error wrapping ErrFormat or ErrData for bad input, and draws an empty
// plot with a note when there is nothing to draw.
func (g GapChart) Render(w io.Writer, f Format) error {
	if !f.valid() {
		return fmt.Errorf("%w %q (want png or svg)", ErrFormat, string(f))
	}
	if err := g.validate(); err != nil {
		return err
	}
	pg := g.page()
	return pg.render(w, f)
}

// validate reports the first reason g cannot be plotted.
func (g GapChart) validate() error {
	switch {
	case g.End < 0:
		return fmt.Errorf("%w: end %v is negative", ErrData, g.End)
	case g.SLO < 0:
		return fmt.Errorf("%w: slo %v is negative", ErrData, g.SLO)
	case len(g.Series) > MaxSeries:
		return fmt.Errorf("%w: %d series, at most %d", ErrData, len(g.Series), MaxSeries)
	case len(g.Marks) > MaxMarks:
		return fmt.Errorf("%w: %d marks, at most %d", ErrData, len(g.Marks), MaxMarks)
	case len(g.Spans) > MaxMarks:
		return fmt.Errorf("%w: %d spans, at most %d", ErrData, len(g.Spans), MaxMarks)
	}
	for i, sp := range g.Spans {
		if sp.From < 0 || sp.To < sp.From {
			return fmt.Errorf("%w: span %d: from %v to %v", ErrData, i, sp.From, sp.To)
		}
	}
	total := 0
	for i, s := range g.Series {
		total += len(s.Points)
		for j, p := range s.Points {
			switch {
			case p.At < 0:
				return fmt.Errorf("%w: series %d (%q) point %d: time %v is negative", ErrData, i, s.Name, j, p.At)
			case math.IsNaN(p.Value) || math.IsInf(p.Value, 0):
				return fmt.Errorf("%w: series %d (%q) point %d: value %v is not finite", ErrData, i, s.Name, j, p.Value)
			case math.Abs(p.Value) > MaxValue:
				return fmt.Errorf("%w: series %d (%q) point %d: value %g is beyond ±%g", ErrData, i, s.Name, j, p.Value, float64(MaxValue))
			case j > 0 && p.At < s.Points[j-1].At:
				return fmt.Errorf("%w: series %d (%q) point %d: time %v is before the previous point's %v", ErrData, i, s.Name, j, p.At, s.Points[j-1].At)
			}
		}
	}
	if total > MaxPoints {
		return fmt.Errorf("%w: %d points, at most %d", ErrData, total, MaxPoints)
	}
	for i, m := range g.Marks {
		if m.At < 0 {
			return fmt.Errorf("%w: mark %d (%q): time %v is negative", ErrData, i, m.Label, m.At)
		}
	}
	return nil
}

// minutes converts a virtual time to the x axis unit.
func minutes(d time.Duration) float64 { return d.Minutes() }

// steps returns the polyline of a step series: from each point a
// horizontal segment to the next point's time, then a vertical jump to the
// next value; the last value holds until end, or until the last point when
// end is earlier. A point that repeats the current value adds no vertex.
func steps(pts []Point, end time.Duration) plotter.XYs {
	if len(pts) == 0 {
		return nil
	}
	xys := make(plotter.XYs, 0, 2*len(pts)+1)
	for i, p := range pts {
		x := minutes(p.At)
		if i > 0 {
			y := xys[len(xys)-1].Y
			if p.Value == y {
				continue // the horizontal segment goes on
			}
			xys = append(xys, plotter.XY{X: x, Y: y})
		}
		xys = append(xys, plotter.XY{X: x, Y: p.Value})
	}
	last := xys[len(xys)-1]
	if stop := minutes(max(end, pts[len(pts)-1].At)); stop > last.X {
		xys = append(xys, plotter.XY{X: stop, Y: last.Y})
	}
	return xys
}

// page lays g out; g has been validated.
func (g GapChart) page() *page {
	p := newPlot("virtual time (min)", cmp.Or(g.YLabel, gapLabel))
	pg := &page{title: clean(g.Title), plot: p}
	if g.SLO > 0 {
		pg.subtitle = fmt.Sprintf("SLO: gap open > %v is an incident", g.SLO)
	}

	// A series holds its last value until the run's end, or until the
	// latest point of any series when End is unknown (0) or earlier.
	end := g.End
	ymin, ymax := 0.0, 0.0
	npts, integer := 0, true
	for _, s := range g.Series {
		npts += len(s.Points)
		for _, pt := range s.Points {
			end = max(end, pt.At)
			ymin, ymax = min(ymin, pt.Value), max(ymax, pt.Value)
			integer = integer && pt.Value == math.Trunc(pt.Value)
		}
	}
	xmax := minutes(end)
	for _, m := range g.Marks {
		xmax = max(xmax, minutes(m.At))
	}
	if xmax <= 0 {
		xmax = 1
	}
	if ymax == ymin { // all zero
		ymax = 1
	}
	p.X.Min, p.X.Max = 0, xmax
	p.Y.Min, p.Y.Max = headroom(ymin), headroom(ymax)
	p.X.Tick.Marker = ticker{target: 10}
	p.Y.Tick.Marker = ticker{target: 5, integer: integer}
	p.Add(grid()) // first, so it lies under everything else
	if len(g.Spans) > 0 {
		sp := spanLayer(g.Spans)
		p.Add(sp)
		pg.legend.Add(cmp.Or(g.SpanLegend, "highlighted"), sp)
	}

	marks := markLayer{marks: slices.Clone(g.Marks)}
	slices.SortStableFunc(marks.marks, func(a, b Mark) int { return cmp.Compare(a.At, b.At) })
	p.Add(markLines(marks))

	for i, s := range g.Series {
		name := cut(clean(s.Name), legendRunes)
		if name == "" {
			name = fmt.Sprintf("series %d", i+1)
		}
		sty := lineStyle(i)
		if len(s.Points) == 0 {
			pg.legend.Add(cut(name, legendRunes-10)+" (no data)", &plotter.Line{LineStyle: sty})
			continue
		}
		l := &plotter.Line{XYs: steps(s.Points, end), LineStyle: sty}
		p.Add(l)
		pg.legend.Add(name, l)
	}
	p.Add(marks)

	pg.legend.TextStyle = p.Legend.TextStyle
	pg.legend.ThumbnailWidth = 24
	pg.legend.Padding = 2
	switch {
	case len(g.Series) == 0:
		pg.note = "no series"
	case npts == 0:
		pg.note = "no data points"
	}
	return pg
}

// headroom moves an axis limit 10% away from zero so that a line at the
// limit does not lie on the frame.
func headroom(v float64) float64 {
	if w := v * 1.1; !math.IsInf(w, 0) {
		return w
	}
	return v
}

// spanLayer shades stretches of time across the data area.
type spanLayer []Span

var spanColor = color.NRGBA{R: 0xd5, G: 0x5e, B: 0x00, A: 0x40}

// Plot implements plot.Plotter.
func (s spanLayer) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, sp := range s {
		x0, x1 := trX(minutes(sp.From)), trX(minutes(sp.To))
		if x1-x0 < 2 { // a single instant still shows
			x0, x1 = x0-1, x1+1
		}
		c.FillPolygon(spanColor, []vg.Point{{X: x0, Y: c.Min.Y}, {X: x1, Y: c.Min.Y}, {X: x1, Y: c.Max.Y}, {X: x0, Y: c.Max.Y}})
	}
}

// Thumbnail implements plot.Thumbnailer.
func (spanLayer) Thumbnail(c *draw.Canvas) {
	c.FillPolygon(spanColor, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
}

// markLayer draws the labels of marks (sorted by time) rotated a quarter
// turn near the top of the data area, each beside its line on a light
// background, laid out by layout so that no two overlap.
type markLayer struct {
	marks []Mark
}

// markLines draws the dashed vertical lines of a markLayer, under the
// series.
type markLines markLayer

var markStyle = draw.LineStyle{Color: color.Gray{Y: 0x80}, Width: 0.75, Dashes: []vg.Length{3, 3}}

// Plot implements plot.Plotter.
func (m markLines) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	for _, mk := range m.marks {
		x := trX(minutes(mk.At))
		c.StrokeLine2(markStyle, x, c.Min.Y, x, c.Max.Y)
	}
}

// Plot implements plot.Plotter.
func (m markLayer) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	sty := style(8, color.Gray{Y: 0x30}, draw.XRight, draw.YTop)
	sty.Rotation = math.Pi / 2
	ext := sty.FontExtents()
	thick := ext.Ascent + ext.Descent
	const pad = 1.5
	top := c.Max.Y - 2
	for _, s := range layout(m.marks, trX, thick, pad, c.Min.X, c.Max.X) {
		label := s.label
		if s.more > 0 {
			more := fmt.Sprintf(" +%d", s.more)
			label = cut(label, markRunes-len(more)) + more
		}
		long := sty.Width(label)
		bg := []vg.Point{
			{X: s.x - 0.5, Y: top + 1}, {X: s.x + thick + 0.5, Y: top + 1},
			{X: s.x + thick + 0.5, Y: top - long - 1}, {X: s.x - 0.5, Y: top - long - 1},
		}
		c.FillPolygon(color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xc8}, bg)
		c.FillText(sty, vg.Point{X: s.x, Y: top}, label)
	}
}

// slot is a placed mark label: its left edge, its text and how many
// later labels were folded into it for lack of room.
type slot struct {
	x     vg.Length
	label string
	more  int
}

// layout places the labels of marks (sorted by time) in bands thick wide:
// each right of its line, pushed right past the previous label when they
// would overlap, left of its line at the right edge. A label that would
// land more than three bands from its line is folded into the previous
// label as "+N" instead, so that no label strays from its line.
func layout(marks []Mark, trX func(float64) vg.Length, thick, pad, left, right vg.Length) []slot {
	var out []slot
	free := left - thick - pad
	for _, mk := range marks {
		label := cut(clean(mk.Label), markRunes)
		if label == "" {
			continue
		}
		x := trX(minutes(mk.At))
		lx := max(x+pad, free)
		if lx+thick > right {
			lx = min(x-pad, right) - thick
		}
		if n := len(out); n > 0 && (lx-x > 3*thick || lx < out[n-1].x+thick) {
			out[n-1].more++
			continue
		}
		out = append(out, slot{x: lx, label: label})
		free = lx + thick + pad
	}
	return out
}
