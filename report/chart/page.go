package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Canvas geometry: every chart has the same size so reports line up and
// golden files stay comparable.
const (
	// WidthInch is the width of every chart in inches.
	WidthInch = 8.0
	// HeightInch is the height of every chart in inches.
	HeightInch = 4.5
	// DPI is the resolution of PNG output in dots per inch: a PNG is
	// WidthInch*DPI x HeightInch*DPI pixels (768 x 432).
	DPI = 96
)

// Limits on input, so that a runaway caller gets an error instead of an
// unreadable picture or an enormous file.
const (
	// MaxSeries is the largest number of series a GapChart draws.
	MaxSeries = 20
	// MaxMarks is the largest number of marks a GapChart draws.
	MaxMarks = 50
	// MaxPoints is the largest total number of points over all series of
	// a GapChart.
	MaxPoints = 100000
	// MaxBins is the largest bin count a Distribution accepts in Bins.
	MaxBins = 1000
	// MaxValue is the largest magnitude of a GapChart value; a gap of
	// more than 10^15 objects is a bug upstream, and the limit keeps axis
	// arithmetic finite.
	MaxValue = 1e15
)

// Text limits in runes; longer text is cut and ends in "…".
const (
	markRunes   = 24
	legendRunes = 32
)

const (
	width  = vg.Length(WidthInch) * vg.Inch
	height = vg.Length(HeightInch) * vg.Inch
	margin = vg.Length(8)
)

// fonts is private to this package: plot.DefaultTextHandler and
// font.DefaultCache are globals other code may change.
var fonts = font.NewCache(liberation.Collection())

var handler text.Handler = text.Plain{Fonts: fonts}

// sans is the typeface of every text in a chart.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// bold is golang.org/x/image/font.WeightBold (+3, CSS font-weight 700),
// written as a number so the package imports gonum/plot only.
const bold = 3

var (
	black = color.Gray{Y: 0}
	grey  = color.Gray{Y: 0x60}
	light = color.Gray{Y: 0xe0}
)

// style returns a text style in the chart's typeface.
func style(size vg.Length, clr color.Color, xa text.XAlignment, ya text.YAlignment) text.Style {
	return text.Style{
		Color:   clr,
		Font:    font.From(sans, size),
		XAlign:  xa,
		YAlign:  ya,
		Handler: handler,
	}
}

// newPlot returns a plot whose every text uses the package's fonts, with
// the given axis labels and a light grid.
func newPlot(xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.TextHandler = handler
	p.Title.TextStyle = style(12, black, draw.XCenter, draw.YTop)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle = style(10, black, draw.XCenter, draw.YBottom)
		lbl := a.Tick.Label
		a.Tick.Label = style(9, black, lbl.XAlign, lbl.YAlign)
	}
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	p.Legend = plot.NewLegend()
	p.Legend.TextStyle = style(9, black, draw.XLeft, draw.YBottom)
	return p
}

// page is one chart: a title and subtitle across the whole canvas, a plot,
// a legend outside the plot on the right and an optional note in the
// middle of the data area (for empty plots).
type page struct {
	title, subtitle string
	plot            *plot.Plot
	legend          plot.Legend
	note            string
}

// render draws the page on a canvas of format f and writes it to w.
func (pg *page) render(w io.Writer, f Format) error {
	var cw vg.CanvasWriterTo
	switch f {
	case PNG:
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))}
	case SVG:
		cw = vgsvg.New(width, height)
	default:
		return fmt.Errorf("%w %q (want png or svg)", ErrFormat, string(f))
	}
	pg.draw(draw.New(cw))
	var buf bytes.Buffer
	if _, err := cw.WriteTo(&buf); err != nil {
		return fmt.Errorf("chart: encode %s: %w", f, err)
	}
	out := buf.Bytes()
	if f == SVG {
		// vgsvg names the font without a fallback; Arial is metric-compatible
		// with Liberation Sans, so text keeps the width it was laid out with.
		out = bytes.ReplaceAll(out, []byte("font-family:Liberation Sans;"), []byte(svgFamily))
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("chart: write %s: %w", f, err)
	}
	return nil
}

// svgFamily is the font-family of SVG text, with fallbacks for viewers
// that do not have the Liberation fonts.
const svgFamily = "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;"

func (pg *page) draw(c draw.Canvas) {
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	c = draw.Crop(c, margin, -margin, margin, -margin)

	avail := c.Max.X - c.Min.X
	top := c.Max.Y
	if pg.title != "" {
		sty := style(12, black, draw.XCenter, draw.YTop)
		sty.Font.Weight = bold
		t := fit(sty, pg.title, avail)
		c.FillText(sty, vg.Point{X: c.Center().X, Y: top}, t)
		top -= sty.Height(t) + 2
	}
	if pg.subtitle != "" {
		sty := style(9, grey, draw.XCenter, draw.YTop)
		t := fit(sty, pg.subtitle, avail)
		c.FillText(sty, vg.Point{X: c.Center().X, Y: top}, t)
		top -= sty.Height(t)
	}
	c.Max.Y = top - 6

	area := c
	lg := pg.legend
	if r := lg.Rectangle(c); r.Size().X > 0 {
		const gap = 10
		area = draw.Crop(c, 0, -(r.Size().X + gap), 0, 0)
		data := pg.plot.DataCanvas(area)
		lc := c
		lc.Min.X = area.Max.X + gap
		lc.Max.Y = data.Max.Y
		lg.Top, lg.Left = true, true
		lg.Draw(lc)
	}
	pg.plot.Draw(area)
	if pg.note != "" {
		data := pg.plot.DataCanvas(area)
		sty := style(11, grey, draw.XCenter, draw.YCenter)
		c.FillText(sty, data.Center(), fit(sty, pg.note, data.Max.X-data.Min.X))
	}
}

// clean makes s safe to draw on one line: invalid UTF-8 and control
// characters (newlines, tabs) become spaces, and runs of space collapse.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// cut shortens s to at most n runes, ending in "…" when it was cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimRight(string(r[:n-1]), " ") + "…"
}

// fit shortens s with "…" until it is at most w wide in sty.
func fit(sty text.Style, s string, w vg.Length) string {
	if sty.Width(s) <= w {
		return s
	}
	r := []rune(s)
	lo, hi := 0, len(r) // the longest prefix that fits has lo runes
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if sty.Width(string(r[:mid])+"…") <= w {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return strings.TrimRight(string(r[:lo]), " ") + "…"
}

// ticker places labelled ticks at 1, 2 or 5 times a power of ten, aiming
// at about target labels; when integer is set it never labels fractions
// (counts of replicas or runs).
type ticker struct {
	target  int
	integer bool
}

// Ticks implements plot.Ticker.
func (t ticker) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	span := hi - lo
	if math.IsInf(span, 0) {
		span = math.MaxFloat64
	}
	step := niceCeil(span / float64(max(t.target, 1)))
	if t.integer && step < 1 {
		step = 1
	}
	prec := 0
	if step < 1 {
		prec = int(math.Ceil(float64(-math.Log10(step)) - 1e-9)) // rounded apart: no fused multiply-add (docs/fma-check.sh)
	}
	first := math.Ceil(lo/step - 1e-9)
	n := min(math.Floor(hi/step+1e-9)-first, 200) // bounded even if rounding misbehaves
	var ticks []plot.Tick
	for k := 0; k <= int(n); k++ { // an integer counter: first+k may not change for huge first
		v := (first + float64(k)) * step
		if v == 0 {
			v = 0 // never "-0"
		}
		label := strconv.FormatFloat(v, 'f', prec, 64)
		if math.Abs(lo) >= 1e6 || math.Abs(hi) >= 1e6 {
			label = strconv.FormatFloat(v, 'g', 3, 64) // "2e+09", not ten digits
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
		if minor := v + float64(step/2); minor <= hi && !(t.integer && step == 1) {
			ticks = append(ticks, plot.Tick{Value: minor})
		}
	}
	return ticks
}

// niceCeil returns the smallest number of the form 1, 2 or 5 times a power
// of ten that is at least x (x > 0); 1 for anything else.
func niceCeil(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	base := math.Pow(10, math.Floor(math.Log10(x)))
	switch f := x / base; {
	case f <= 1+1e-9:
		return base
	case f <= 2+1e-9:
		return 2 * base
	case f <= 5+1e-9:
		return 5 * base
	default:
		return 10 * base
	}
}

// blank is a legend thumbnail that draws nothing, for text-only entries.
type blank struct{}

// Thumbnail implements plot.Thumbnailer.
func (blank) Thumbnail(*draw.Canvas) {}

// grid returns light grey grid lines at the major ticks.
func grid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical = draw.LineStyle{Color: light, Width: 0.5}
	g.Horizontal = draw.LineStyle{Color: light, Width: 0.5}
	return g
}
