package chart

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func TestSteps(t *testing.T) {
	m := func(x float64) float64 { return x } // minutes, for readability
	tests := []struct {
		name string
		pts  []Point
		end  time.Duration
		want plotter.XYs
	}{
		{"empty", nil, time.Minute, nil},
		{"one point held to end", []Point{{0, 3}}, 2 * time.Minute, plotter.XYs{{X: 0, Y: 3}, {X: m(2), Y: 3}}},
		{"one point, end 0", []Point{{time.Minute, 3}}, 0, plotter.XYs{{X: m(1), Y: 3}}},
		{"step down then up", []Point{{0, 3}, {time.Minute, 1}, {2 * time.Minute, 2}}, 3 * time.Minute, plotter.XYs{
			{X: 0, Y: 3}, {X: m(1), Y: 3}, {X: m(1), Y: 1}, {X: m(2), Y: 1}, {X: m(2), Y: 2}, {X: m(3), Y: 2},
		}},
		{"repeated value adds no vertex but still reaches its time", []Point{{0, 1}, {time.Minute, 1}, {2 * time.Minute, 1}}, 0, plotter.XYs{
			{X: 0, Y: 1}, {X: m(2), Y: 1},
		}},
		{"end before last point", []Point{{0, 1}, {time.Minute, 0}}, 30 * time.Second, plotter.XYs{
			{X: 0, Y: 1}, {X: m(1), Y: 1}, {X: m(1), Y: 0},
		}},
		{"two values at one time", []Point{{0, 0}, {time.Minute, 5}, {time.Minute, 2}}, 2 * time.Minute, plotter.XYs{
			{X: 0, Y: 0}, {X: m(1), Y: 0}, {X: m(1), Y: 5}, {X: m(1), Y: 5}, {X: m(1), Y: 2}, {X: m(2), Y: 2},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := steps(tt.pts, tt.end)
			if !slices.Equal(got, tt.want) {
				t.Errorf("steps = %v, want %v", got, tt.want)
			}
			// Every segment is horizontal or vertical: a step line.
			for i := 1; i < len(got); i++ {
				if got[i].X != got[i-1].X && got[i].Y != got[i-1].Y {
					t.Errorf("segment %d is diagonal: %v -> %v", i, got[i-1], got[i])
				}
			}
		})
	}
}

func TestBins(t *testing.T) {
	tests := []struct {
		name   string
		values []float64 // seconds, sorted
		n      int
		count  int     // number of bins
		width  float64 // seconds
		start  float64
	}{
		{"single value", []float64{42}, 0, 1, 5, 40},
		{"single zero", []float64{0}, 0, 1, 1, 0},
		{"all equal, explicit bins", []float64{3, 3, 3}, 4, 4, 1, 3},
		{"explicit", []float64{10, 20, 30, 40}, 3, 3, 10, 10},
		{"auto, at least 5 bins, round width", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0, 5, 2, 0},
		{"auto, freedman-diaconis", []float64{20, 33, 47, 51, 62, 70, 88, 101}, 0, 5, 20, 20},
		{"auto, greatest value on an edge", seq(0, 100, 0.5), 0, 5, 20, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bins, w := bins(tt.values, tt.n)
			if len(bins) != tt.count || w != tt.width || bins[0].Min != tt.start {
				t.Fatalf("bins = %d of width %v from %v, want %d of %v from %v", len(bins), w, bins[0].Min, tt.count, tt.width, tt.start)
			}
			total := 0.0
			for _, b := range bins {
				total += b.Weight
			}
			if total != float64(len(tt.values)) {
				t.Errorf("bins hold %v values, want %d", total, len(tt.values))
			}
			last := bins[len(bins)-1]
			if tt.values[0] < bins[0].Min || tt.values[len(tt.values)-1] > last.Max {
				t.Errorf("bins [%v, %v] do not cover [%v, %v]", bins[0].Min, last.Max, tt.values[0], tt.values[len(tt.values)-1])
			}
		})
	}
}

func seq(lo, hi, step float64) []float64 {
	var out []float64
	for x := lo; x <= hi; x += step {
		out = append(out, x)
	}
	return out
}

func TestBinsAutoCount(t *testing.T) {
	for _, n := range []int{2, 3, 10, 100, 1000, 10000} {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(i*i%997) + 0.5
		}
		slices.Sort(vals)
		bins, _ := bins(vals, 0)
		if len(bins) < 3 || len(bins) > 40 {
			t.Errorf("n=%d: %d bins, want about 5..40", n, len(bins))
		}
	}
}

func TestQuantile(t *testing.T) {
	s := []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	tests := []struct {
		q    float64
		want time.Duration
	}{{0, 1}, {0.5, 5}, {0.9, 9}, {0.91, 10}, {1, 10}}
	for _, tt := range tests {
		if got := quantile(s, tt.q); got != tt.want {
			t.Errorf("quantile(%v) = %v, want %v", tt.q, got, tt.want)
		}
	}
	if got := quantile([]time.Duration{7}, 0.9); got != 7 {
		t.Errorf("quantile of one value = %v", got)
	}
}

func TestShort(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{1234567 * time.Nanosecond, "1ms"},
		{1540 * time.Millisecond, "1.5s"},
		{42*time.Second + 449*time.Millisecond, "42.4s"},
		{71*time.Second + 600*time.Millisecond, "1m12s"},
	}
	for _, tt := range tests {
		if got := short(tt.d); got != tt.want {
			t.Errorf("short(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestNice(t *testing.T) {
	tests := []struct{ x, ceil, near float64 }{
		{1, 1, 1},
		{1.1, 2, 1},
		{3, 5, 2.5},
		{0.3, 0.5, 0.25},
		{7, 10, 5},
		{8, 10, 10},
		{10.1, 20, 10},
		{0, 1, 1},
		{math.NaN(), 1, 1},
		{math.Inf(1), 1, 1},
	}
	for _, tt := range tests {
		if got := niceCeil(tt.x); math.Abs(got-tt.ceil) > 1e-12 {
			t.Errorf("niceCeil(%v) = %v, want %v", tt.x, got, tt.ceil)
		}
		if got := nice(tt.x); math.Abs(got-tt.near) > 1e-12 {
			t.Errorf("nice(%v) = %v, want %v", tt.x, got, tt.near)
		}
	}
}

func TestTicker(t *testing.T) {
	labels := func(tk ticker, lo, hi float64) string {
		var out []string
		for _, x := range tk.Ticks(lo, hi) {
			if x.Label != "" {
				out = append(out, x.Label)
			}
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		tk     ticker
		lo, hi float64
		want   string
	}{
		{ticker{target: 5, integer: true}, 0, 3.3, "0 1 2 3"},
		{ticker{target: 5, integer: true}, 0, 1.1, "0 1"},
		{ticker{target: 5}, 0, 1.1, "0.0 0.5 1.0"},
		{ticker{target: 10}, 0, 10, "0 1 2 3 4 5 6 7 8 9 10"},
		{ticker{target: 5, integer: true}, -1.1, 1.1, "-1 0 1"},
		{ticker{target: 5}, 0, 2e9, "0 5e+08 1e+09 1.5e+09 2e+09"},
		{ticker{target: 5}, 1, 1, ""},
		{ticker{target: 2}, -math.MaxFloat64, math.MaxFloat64, "-1e+308 0 1e+308"},
		// Degenerate (step below the values' precision) but finite.
		{ticker{target: 5}, 1e300, 1e300 * (1 + 1e-15), "1e+300 1e+300 1e+300 1e+300 1e+300 1e+300"},
		{ticker{target: 5}, 0, math.Inf(1), ""},
	}
	for _, tt := range tests {
		if got := labels(tt.tk, tt.lo, tt.hi); got != tt.want {
			t.Errorf("%+v.Ticks(%v, %v) = %q, want %q", tt.tk, tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	if got := clean(" a\n\tb\x00  c \xff"); got != "a b c \uFFFD" {
		t.Errorf("clean = %q", got)
	}
	if got := cut("crash node worker-1 and never bring it back", 24); got != "crash node worker-1 and…" || utf8.RuneCountInString(got) != 24 {
		t.Errorf("cut = %q", got)
	}
	if got := cut("apply", 24); got != "apply" {
		t.Errorf("cut = %q", got)
	}
	if got := cut("ääääääääää", 5); got != "ääää…" {
		t.Errorf("cut of runes = %q", got)
	}
	sty := style(12, black, 0, 0)
	long := strings.Repeat("wide text ", 50)
	w := vg.Length(200)
	got := fit(sty, long, w)
	if sty.Width(got) > w || !strings.HasSuffix(got, "…") || len(got) < 20 {
		t.Errorf("fit = %q (%v wide), want at most %v ending in …", got, sty.Width(got), w)
	}
	if got := fit(sty, "short", w); got != "short" {
		t.Errorf("fit of short text = %q", got)
	}
}

func TestLayout(t *testing.T) {
	trX := func(x float64) vg.Length { return vg.Length(x * 100) } // 100pt a minute
	marks := []Mark{
		{0, "a"}, {0, "b"}, {0, "c"}, {0, "d"}, {0, "e"}, // crowd at 0
		{time.Minute, "f"},
		{2 * time.Minute, ""},     // no label, no slot
		{3 * time.Minute, "edge"}, // at the right edge: left of its line
	}
	got := layout(marks, trX, 10, 1, 0, 300)
	want := []struct {
		x     vg.Length
		label string
		more  int
	}{{1, "a", 0}, {12, "b", 0}, {23, "c", 2}, {101, "f", 0}, {289, "edge", 0}}
	if len(got) != len(want) {
		t.Fatalf("layout = %+v, want %+v", got, want)
	}
	for i, s := range got {
		if s.x != want[i].x || s.label != want[i].label || s.more != want[i].more {
			t.Errorf("slot %d = %+v, want %+v", i, s, want[i])
		}
		if i > 0 && s.x < got[i-1].x+10 {
			t.Errorf("slot %d overlaps slot %d", i, i-1)
		}
	}
}

func TestBoldFont(t *testing.T) {
	f := sans
	f.Weight = bold
	if !fonts.Has(f) || !fonts.Has(sans) {
		t.Errorf("font cache lacks Liberation Sans regular or bold")
	}
}

// FuzzGapChart renders arbitrary step series and marks as SVG and checks,
// beyond "does not panic", that the result is either ErrData or a whole
// document.
func FuzzGapChart(f *testing.F) {
	f.Add([]byte{0, 3, 10, 2, 40, 1, 90, 0}, int64(600), "apply")
	f.Add([]byte{}, int64(0), "")
	f.Add([]byte{255, 255, 0, 0, 1}, int64(-1), "\xff\n")
	f.Fuzz(func(t *testing.T, data []byte, end int64, label string) {
		var pts []Point
		for i := 0; i+1 < len(data); i += 2 {
			pts = append(pts, Point{At: time.Duration(data[i]) * time.Second, Value: float64(int8(data[i+1]))})
		}
		g := GapChart{
			Title:  label,
			Series: []Series{{Name: label, Points: pts}},
			Marks:  []Mark{{At: time.Duration(end), Label: label}},
			End:    time.Duration(end) * time.Second,
		}
		var b strings.Builder
		err := g.Render(&b, SVG)
		if err != nil {
			if !strings.Contains(err.Error(), "chart:") {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if !strings.HasSuffix(b.String(), "</svg>\n") {
			t.Fatalf("incomplete SVG")
		}
	})
}

// FuzzDistribution renders arbitrary convergence times (negative ones,
// huge ones, any count of "never" and of bins) as SVG and checks, beyond
// "does not panic", that whatever renders without an error is a whole
// document (it ends with </svg>).
func FuzzDistribution(f *testing.F) {
	f.Add([]byte{1, 2, 3, 200}, 3, 0)
	f.Add([]byte{}, 0, 0)
	f.Add([]byte{7}, 1, 3)
	f.Fuzz(func(t *testing.T, data []byte, never, bins int) {
		var vals []time.Duration
		for i := 0; i+1 < len(data); i += 2 {
			vals = append(vals, time.Duration(int16(uint16(data[i])<<8|uint16(data[i+1])))*time.Millisecond*37)
		}
		d := Distribution{Values: vals, Never: never, Bins: bins % 2000}
		var b strings.Builder
		if err := d.Render(&b, SVG); err == nil && !strings.HasSuffix(b.String(), "</svg>\n") {
			t.Fatalf("incomplete SVG")
		}
	})
}
