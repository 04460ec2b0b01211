package chart

import (
	"fmt"
	"io"
	"math"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Bars describes a grouped bar chart: one bar per group in each
// category, side by side (the final replica counts of two designs: how
// many seeds ended at 2, 3, 4...).
type Bars struct {
	// Title heads the chart; cut with "…" to the canvas width.
	Title string
	// Subtitle, when set, is a line under the title.
	Subtitle string
	// XLabel and YLabel label the axes ("final spec.replicas", "seeds").
	XLabel, YLabel string
	// Categories label the x axis, left to right; at most MaxBins.
	Categories []string
	// Groups are the bars of each category, each in its own colour; at
	// most MaxSeries, each with one non-negative value per category.
	Groups []BarGroup
}

// BarGroup is one group's bars: a name for the legend, a value per
// category.
type BarGroup struct {
	Name   string
	Values []float64
}

// Render draws the chart in format f and writes it to w. It returns an
// error wrapping ErrFormat or ErrData for bad input, and draws an empty
// plot with a note when there is nothing to draw.
func (b Bars) Render(w io.Writer, f Format) error {
	if !f.valid() {
		return fmt.Errorf("%w %q (want png or svg)", ErrFormat, string(f))
	}
	if err := b.validate(); err != nil {
		return err
	}
	return b.page().render(w, f)
}

// validate reports the first reason b cannot be plotted.
func (b Bars) validate() error {
	switch {
	case len(b.Categories) > MaxBins:
		return fmt.Errorf("%w: %d categories, at most %d", ErrData, len(b.Categories), MaxBins)
	case len(b.Groups) > MaxSeries:
		return fmt.Errorf("%w: %d groups, at most %d", ErrData, len(b.Groups), MaxSeries)
	}
	for i, g := range b.Groups {
		if len(g.Values) != len(b.Categories) {
			return fmt.Errorf("%w: group %d (%q) has %d values for %d categories", ErrData, i, g.Name, len(g.Values), len(b.Categories))
		}
		for j, v := range g.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > MaxValue {
				return fmt.Errorf("%w: group %d (%q) value %d: %v is not a finite value in [0, %g]", ErrData, i, g.Name, j, v, float64(MaxValue))
			}
		}
	}
	return nil
}

// page lays b out; b has been validated.
func (b Bars) page() *page {
	p := newPlot(b.XLabel, b.YLabel)
	pg := &page{title: clean(b.Title), subtitle: clean(b.Subtitle), plot: p}
	if len(b.Categories) == 0 || len(b.Groups) == 0 {
		pg.note = "no data"
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
		return pg
	}
	labels := make([]string, len(b.Categories))
	for i, c := range b.Categories {
		labels[i] = cut(clean(c), markRunes)
	}
	p.NominalX(labels...)
	p.X.Tick.Label = style(9, black, draw.XCenter, draw.YTop)
	ymax, integer := 0.0, true
	for _, g := range b.Groups {
		for _, v := range g.Values {
			ymax = max(ymax, v)
			integer = integer && v == math.Trunc(v)
		}
	}
	if ymax == 0 {
		ymax = 1
	}
	p.Y.Min, p.Y.Max = 0, headroom(ymax)
	p.Y.Tick.Marker = ticker{target: 5, integer: integer}
	p.Add(grid())
	// The bars of a category share 80% of its slot, centred on its tick.
	slot := vg.Length(WidthInch) * vg.Inch * 0.7 / vg.Length(len(b.Categories))
	barWidth := slot * 0.8 / vg.Length(len(b.Groups))
	// The groups' middle, rounded by its conversion: no fused
	// multiply-add (docs/fma-check.sh).
	mid := vg.Length(float64(len(b.Groups)-1) / 2)
	for i, g := range b.Groups {
		bc, err := plotter.NewBarChart(plotter.Values(g.Values), barWidth)
		if err != nil { // only for bad values, which validate refused
			pg.note = err.Error()
			return pg
		}
		bc.Color = palette[i%len(palette)]
		bc.LineStyle.Width = 0
		bc.Offset = barWidth * (vg.Length(i) - mid)
		p.Add(bc)
		pg.legend.Add(cut(clean(g.Name), legendRunes), bc)
	}
	pg.legend.TextStyle = p.Legend.TextStyle
	pg.legend.ThumbnailWidth = 12
	pg.legend.Padding = 2
	return pg
}
