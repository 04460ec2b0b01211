package chart

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// Distribution describes the distribution of convergence times across
// seeds: a histogram with the x axis in seconds and the y axis counting
// runs, with the median and 90th percentile marked.
type Distribution struct {
	// Title heads the chart, e.g. "node-failure: convergence after crash
	// node worker-1 (200 seeds)"; cut with "…" to the canvas width.
	Title string
	// Values are the convergence times of the runs that converged, in any
	// order; none may be negative.
	Values []time.Duration
	// Never counts the runs that never converged within the run; they are
	// stated in the subtitle and the legend ("12 never converged").
	Never int
	// Bins is the number of equal bins from the least to the greatest
	// value; 0 chooses a count by the Freedman–Diaconis rule (the square
	// root of the number of values when the interquartile range is 0),
	// clamped to [5, 40], then rounds the width to 1, 2, 2.5 or 5 times a
	// power of ten seconds with edges at its multiples, which may leave a
	// few bins fewer. Bins are half-open except the last. At most MaxBins.
	Bins int
}

// Render draws the histogram in format f and writes it to w. It returns an
// error wrapping ErrFormat or ErrData for bad input, and draws an empty
// plot with a note when no run converged.
func (d Distribution) Render(w io.Writer, f Format) error {
	if !f.valid() {
		return fmt.Errorf("%w %q (want png or svg)", ErrFormat, string(f))
	}
	if err := d.validate(); err != nil {
		return err
	}
	pg := d.page()
	return pg.render(w, f)
}

// validate reports the first reason d cannot be plotted.
func (d Distribution) validate() error {
	switch {
	case d.Never < 0:
		return fmt.Errorf("%w: never %d is negative", ErrData, d.Never)
	case d.Bins < 0:
		return fmt.Errorf("%w: bins %d is negative", ErrData, d.Bins)
	case d.Bins > MaxBins:
		return fmt.Errorf("%w: %d bins, at most %d", ErrData, d.Bins, MaxBins)
	}
	for i, v := range d.Values {
		if v < 0 {
			return fmt.Errorf("%w: value %d: convergence time %v is negative", ErrData, i, v)
		}
	}
	return nil
}

// quantile returns the q-quantile of sorted (non-empty) by the
// nearest-rank method: the smallest value with at least q of the values at
// or below it.
func quantile(sorted []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// short prints a duration rounded for a label: to the millisecond below a
// second, to 100ms below a minute, else to the second.
func short(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// bins returns the histogram bins of sorted (non-empty, in seconds).
func bins(sorted []float64, n int) ([]plotter.HistogramBin, float64) {
	lo, hi := sorted[0], sorted[len(sorted)-1]
	span := hi - lo
	var start, w float64
	switch {
	case span == 0:
		// One distinct value: one round bin that holds it.
		w = niceCeil(max(lo/10, 1))
		start = math.Floor(lo/w) * w
		n = max(n, 1)
	case n > 0:
		start, w = lo, span/float64(n)
	default:
		k := math.Ceil(math.Sqrt(float64(len(sorted))))
		if iqr := fquantile(sorted, 0.75) - fquantile(sorted, 0.25); iqr > 0 {
			k = math.Ceil(span / (2 * iqr / math.Cbrt(float64(len(sorted)))))
		}
		k = min(max(k, 5), 40)
		w = nice(span / k)
		start, n = cover(lo, hi, w)
		for n > 40 { // rounding w down added bins: take the next round width
			w = niceCeil(w * 1.01)
			start, n = cover(lo, hi, w)
		}
	}
	out := make([]plotter.HistogramBin, n)
	for i := range out {
		// Each product rounded apart: no fused multiply-add (docs/fma-check.sh).
		out[i].Min = start + float64(float64(i)*w)
		out[i].Max = start + float64(float64(i+1)*w)
	}
	for _, v := range sorted {
		i := int(math.Floor((v - start) / w))
		out[min(max(i, 0), n-1)].Weight++
	}
	return out, w
}

// cover returns the first edge (a multiple of w) and the number of bins of
// width w that cover [lo, hi]; like numpy, the last bin is closed, so a
// greatest value on an edge does not open a bin of its own.
func cover(lo, hi, w float64) (start float64, n int) {
	start = float64(math.Floor(lo/w) * w) // rounded apart: no fused multiply-add (docs/fma-check.sh)
	n = int(math.Ceil((hi - start) / w))
	return start, max(n, 1)
}

// nice returns the number of the form 1, 2, 2.5 or 5 times a power of ten
// nearest to x (x > 0) on a log scale, so bin widths are round seconds.
func nice(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	base := math.Pow(10, math.Floor(math.Log10(x)))
	best := base
	for _, m := range []float64{2, 2.5, 5, 10} {
		if math.Abs(math.Log(m*base/x)) < math.Abs(math.Log(best/x)) {
			best = m * base
		}
	}
	return best
}

// fquantile is quantile over float64 seconds.
func fquantile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// page lays d out; d has been validated.
func (d Distribution) page() *page {
	p := newPlot("convergence time (s)", "runs")
	pg := &page{title: clean(d.Title), plot: p}
	p.Y.Tick.Marker = ticker{target: 5, integer: true}
	p.X.Tick.Marker = ticker{target: 10}
	p.Add(grid())
	pg.legend.TextStyle = p.Legend.TextStyle
	pg.legend.ThumbnailWidth = 24
	pg.legend.Padding = 2

	sorted := slices.Clone(d.Values)
	slices.Sort(sorted)
	var sub []string
	sub = append(sub, fmt.Sprintf("%d converged", len(sorted)))
	if len(sorted) == 0 {
		if d.Never > 0 {
			sub = append(sub, fmt.Sprintf("%d never converged", d.Never))
			pg.note = "no run converged"
			pg.legend.Add(fmt.Sprintf("never converged: %d", d.Never), blank{})
		} else {
			pg.note = "no runs"
		}
		pg.subtitle = strings.Join(sub, " · ")
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
		return pg
	}

	secs := make([]float64, len(sorted))
	for i, v := range sorted {
		secs[i] = v.Seconds()
	}
	hb, w := bins(secs, d.Bins)
	h := &plotter.Histogram{
		Bins:      hb,
		Width:     w,
		FillColor: color.RGBA{R: 0x9e, G: 0xc4, B: 0xe0, A: 0xff},
		LineStyle: draw.LineStyle{Color: color.RGBA{R: 0x00, G: 0x48, B: 0x78, A: 0xff}, Width: 0.75},
	}
	p.Add(h)
	top := 0.0
	for _, b := range hb {
		top = max(top, b.Weight)
	}
	p.X.Min, p.X.Max = hb[0].Min, hb[len(hb)-1].Max
	p.Y.Min, p.Y.Max = 0, headroom(top)

	med, p90 := quantile(sorted, 0.5), quantile(sorted, 0.9)
	medLine := vline{x: med.Seconds(), style: draw.LineStyle{Color: palette[1], Width: 1.5, Dashes: dashes[1]}}
	p90Line := vline{x: p90.Seconds(), style: draw.LineStyle{Color: palette[3], Width: 1.5, Dashes: dashes[2]}}
	p.Add(medLine, p90Line)

	sub = append(sub, "median "+short(med), "p90 "+short(p90), "max "+short(sorted[len(sorted)-1]))
	pg.legend.Add(fmt.Sprintf("converged runs: %d", len(sorted)), h)
	pg.legend.Add("median "+short(med), medLine)
	pg.legend.Add("p90 "+short(p90), p90Line)
	if d.Never > 0 {
		sub = append(sub, fmt.Sprintf("%d never converged (not shown)", d.Never))
		pg.legend.Add(fmt.Sprintf("never converged: %d", d.Never), blank{})
	}
	pg.subtitle = strings.Join(sub, " · ")
	return pg
}

// vline is a vertical line across the data area at x, with a legend
// thumbnail.
type vline struct {
	x     float64
	style draw.LineStyle
}

// Plot implements plot.Plotter.
func (v vline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, _ := p.Transforms(&c)
	x := trX(v.x)
	c.StrokeLine2(v.style, x, c.Min.Y, x, c.Max.Y)
}

// Thumbnail implements plot.Thumbnailer.
func (v vline) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(v.style, c.Min.X, y, c.Max.X, y)
}
