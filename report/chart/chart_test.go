package chart

import (
	"bytes"
	"errors"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

const (
	second = time.Second
	minute = time.Minute
)

// chart adapts both chart types to one signature for table tests.
type chart func(f Format) ([]byte, error)

func gapOf(g GapChart) chart {
	return func(f Format) ([]byte, error) {
		var b bytes.Buffer
		err := g.Render(&b, f)
		return b.Bytes(), err
	}
}

func distOf(d Distribution) chart {
	return func(f Format) ([]byte, error) {
		var b bytes.Buffer
		err := d.Render(&b, f)
		return b.Bytes(), err
	}
}

func rolling() GapChart {
	return GapChart{
		Title: "rolling-update seed 1: gap between declared and actual",
		Series: []Series{
			{Name: "Deployment/web available", Points: []Point{{0, 3}, {10 * second, 2}, {40 * second, 1}, {90 * second, 0}, {5 * minute, 2}, {6 * minute, 0}}},
			{Name: "ReplicaSet/web-7d9f updated", Points: []Point{{0, 0}, {2 * minute, 3}, {3 * minute, 1}, {4 * minute, 0}}},
			{Name: "nodes Ready", Points: []Point{{0, 0}, {5 * minute, 1}, {7 * minute, 0}}},
		},
		Marks: []Mark{
			{0, "apply"},
			{2 * minute, "set image web=nginx:1.27"},
			{5 * minute, "crash node worker-1 and never bring it back"},
			{5*minute + 5*second, "scale web --replicas=5"},
		},
		End: 10 * minute,
		SLO: 5 * minute,
	}
}

// seeds returns n deterministic convergence times between 20s and 2m.
func seeds(n int) []time.Duration {
	out := make([]time.Duration, n)
	x := uint64(12345)
	for i := range out {
		x = x*6364136223846793005 + 1442695040888963407
		out[i] = 20*second + time.Duration(x>>33%100_000)*time.Millisecond
	}
	return out
}

func nodeFailure() Distribution {
	return Distribution{
		Title:  "node-failure: convergence after crash node worker-1 (200 seeds)",
		Values: seeds(188),
		Never:  12,
	}
}

// goldens are compared with testdata/<name>.svg.
var goldens = []struct {
	name  string
	chart chart
}{
	{"gap-rolling-update", gapOf(rolling())},
	{"gap-no-series", gapOf(GapChart{Title: "empty run", End: 5 * minute})},
	{"gap-edges", gapOf(GapChart{
		Title: "all zero, end 0, mark beyond the last point",
		Series: []Series{
			{Name: "zero", Points: []Point{{0, 0}, {30 * second, 0}}},
			{Name: "no points"},
		},
		Marks: []Mark{{2 * minute, "late action"}},
	})},
	{"dist-node-failure", distOf(nodeFailure())},
	{"dist-single", distOf(Distribution{Title: "one run", Values: []time.Duration{42 * second}})},
	{"dist-never-only", distOf(Distribution{Title: "nothing converged", Never: 12})},
}

func TestGolden(t *testing.T) {
	for _, tt := range goldens {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.chart(SVG)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tt.name+".svg")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if runtime.GOARCH != "amd64" {
				// The contract is per architecture: fused multiply-adds may
				// move a coordinate's last digit. TestDeterministic still runs.
				t.Skipf("golden files are generated on amd64, this is %s", runtime.GOARCH)
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./report/chart -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the rendering (%d bytes, want %d); run go test ./report/chart -update and read the diff", path, len(got), len(want))
			}
		})
	}
}

// TestDeterministic renders every golden case in both formats, twice and
// interleaved with the other cases, and wants the same bytes each time.
func TestDeterministic(t *testing.T) {
	for _, f := range []Format{SVG, PNG} {
		first := make([][]byte, len(goldens))
		for i, tt := range goldens {
			b, err := tt.chart(f)
			if err != nil {
				t.Fatalf("%s %s: %v", tt.name, f, err)
			}
			first[i] = b
		}
		for i := len(goldens) - 1; i >= 0; i-- {
			b, err := goldens[i].chart(f)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, first[i]) {
				t.Errorf("%s %s: second rendering differs", goldens[i].name, f)
			}
		}
	}
}

func TestSVGText(t *testing.T) {
	long := rolling()
	long.Title = strings.Repeat("a very long title that goes on ", 10)
	tests := []struct {
		name  string
		chart chart
		want  []string
		not   []string
	}{
		{"gap", gapOf(rolling()), []string{
			"rolling-update seed 1: gap between declared and actual",
			"SLO: gap open &gt; 5m0s is an incident",
			"gap (replicas/pods/nodes)", "virtual time (min)",
			"Deployment/web available", "nodes Ready",
			"crash node worker-1 and…", // 24 runes
			"scale web --replicas=5",
			"font-family:'Liberation Sans',Arial",
		}, []string{"font-family:Liberation Sans;", "never bring it back"}},
		{"no slo", gapOf(GapChart{Series: rolling().Series}), []string{"Deployment/web available"}, []string{"SLO"}},
		{"no series", gapOf(GapChart{}), []string{">no series<"}, nil},
		{"no points", gapOf(GapChart{Series: []Series{{Name: "web"}}}), []string{">no data points<", "web (no data)"}, nil},
		{"unnamed", gapOf(GapChart{Series: []Series{{Points: []Point{{0, 1}}}}}), []string{"series 1"}, nil},
		{"control characters", gapOf(GapChart{Title: "a\nb\tc\x00d", Marks: []Mark{{0, "x\ny"}}}), []string{">a b c d<", ">x y<"}, nil},
		{"long title", gapOf(long), []string{"a very long title", "…</text>"}, nil},
		{"dist", distOf(nodeFailure()), []string{
			"188 converged", "12 never converged (not shown)", "never converged: 12",
			"converged runs: 188", "median ", "p90 ", "convergence time (s)", ">runs<",
		}, nil},
		{"never only", distOf(Distribution{Never: 3}), []string{"0 converged · 3 never converged", "no run converged"}, nil},
		{"no runs", distOf(Distribution{}), []string{">no runs<"}, []string{"never"}},
		{"single", distOf(Distribution{Values: []time.Duration{1500 * time.Millisecond}}), []string{"median 1.5s", "p90 1.5s", "max 1.5s"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.chart(SVG)
			if err != nil {
				t.Fatal(err)
			}
			s := string(b)
			for _, w := range tt.want {
				if !strings.Contains(s, w) {
					t.Errorf("SVG lacks %q", w)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(s, w) {
					t.Errorf("SVG has %q", w)
				}
			}
		})
	}
}

// near reports whether c is within tol of want in every channel.
func near(c color.Color, want color.RGBA, tol int) bool {
	r, g, b, _ := c.RGBA()
	d := func(x uint32, y uint8) bool { return math.Abs(float64(int(x>>8)-int(y))) <= float64(tol) }
	return d(r, want.R) && d(g, want.G) && d(b, want.B)
}

func decode(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("png.Decode: %v", err)
	}
	if got := img.Bounds().Size(); got != (image.Point{X: 768, Y: 432}) {
		t.Fatalf("PNG is %v, want 768x432", got)
	}
	return img
}

// count returns how many pixels of img are near want.
func count(img image.Image, want color.RGBA) int {
	n := 0
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if near(img.At(x, y), want, 24) {
				n++
			}
		}
	}
	return n
}

func TestPNG(t *testing.T) {
	blue := palette[0].(color.RGBA)
	fill := color.RGBA{R: 0x9e, G: 0xc4, B: 0xe0}
	white := color.RGBA{R: 0xff, G: 0xff, B: 0xff}
	tests := []struct {
		name      string
		chart     chart
		colour    color.RGBA
		minPixels int // at least this many pixels near colour; 0: none at all
	}{
		{"gap draws the first series", gapOf(rolling()), blue, 200},
		{"no series draws no series colour", gapOf(GapChart{Title: "empty"}), blue, 0},
		{"histogram bars are filled", distOf(nodeFailure()), fill, 20000},
		{"never only draws no bars", distOf(Distribution{Never: 4}), fill, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := tt.chart(PNG)
			if err != nil {
				t.Fatal(err)
			}
			img := decode(t, b)
			if w := count(img, white); w == 768*432 || w < 768*432/2 {
				t.Errorf("%d white pixels of %d: want a white page with something drawn", w, 768*432)
			}
			n := count(img, tt.colour)
			if tt.minPixels == 0 && n != 0 {
				t.Errorf("%d pixels near %v, want none", n, tt.colour)
			}
			if n < tt.minPixels {
				t.Errorf("%d pixels near %v, want at least %d", n, tt.colour, tt.minPixels)
			}
		})
	}
}

// TestEdges renders awkward but valid input in both formats: each must give
// a decodable image (or an ErrData error) and never panic.
func TestEdges(t *testing.T) {
	tests := []struct {
		name  string
		chart chart
	}{
		{"gap zero value", gapOf(GapChart{})},
		{"gap series without points", gapOf(GapChart{Series: []Series{{Name: "a"}, {Name: "b"}}})},
		{"gap all zero", gapOf(GapChart{Series: []Series{{Name: "a", Points: []Point{{0, 0}, {minute, 0}}}}, End: 2 * minute})},
		{"gap end zero", gapOf(GapChart{Series: []Series{{Name: "a", Points: []Point{{0, 2}, {minute, 1}}}}})},
		{"gap end before points", gapOf(GapChart{Series: []Series{{Name: "a", Points: []Point{{0, 2}, {minute, 1}}}}, End: second})},
		{"gap single point at zero", gapOf(GapChart{Series: []Series{{Name: "a", Points: []Point{{0, 5}}}}})},
		{"gap marks beyond end", gapOf(GapChart{Series: rolling().Series, Marks: []Mark{{time.Hour, "after the end"}}, End: 10 * minute})},
		{"gap marks only", gapOf(GapChart{Marks: []Mark{{0, "a"}, {0, "b"}, {0, "c"}, {0, ""}}})},
		{"gap many marks at once", gapOf(GapChart{Series: rolling().Series, Marks: repeatMarks(MaxMarks), End: 10 * minute})},
		{"gap negative values", gapOf(GapChart{Series: []Series{{Name: "surge", Points: []Point{{0, -1}, {minute, 0}}}}})},
		{"gap fractional values", gapOf(GapChart{Series: []Series{{Name: "f", Points: []Point{{0, 0.25}, {minute, 0.75}}}}})},
		{"gap same time twice", gapOf(GapChart{Series: []Series{{Name: "a", Points: []Point{{minute, 1}, {minute, 3}, {minute, 0}}}}})},
		{"gap huge time", gapOf(GapChart{Series: []Series{{Name: "a", Points: []Point{{0, 1}, {time.Duration(math.MaxInt64), 0}}}}})},
		{"gap largest values", gapOf(GapChart{Series: []Series{{Name: "a", Points: []Point{{0, MaxValue}, {minute, -MaxValue}}}}})},
		{"gap max series", gapOf(GapChart{Series: manySeries(MaxSeries), End: 10 * minute})},
		{"gap invalid utf-8", gapOf(GapChart{Title: "bad \xff", Series: []Series{{Name: "\xfe", Points: []Point{{0, 1}}}}})},
		{"dist zero value", distOf(Distribution{})},
		{"dist single value", distOf(Distribution{Values: []time.Duration{42 * second}})},
		{"dist single zero", distOf(Distribution{Values: []time.Duration{0}})},
		{"dist all equal", distOf(Distribution{Values: []time.Duration{second, second, second}, Never: 1})},
		{"dist never only", distOf(Distribution{Never: 12})},
		{"dist two values", distOf(Distribution{Values: []time.Duration{second, 2 * minute}})},
		{"dist nanoseconds", distOf(Distribution{Values: []time.Duration{1, 2, 3}})},
		{"dist huge", distOf(Distribution{Values: []time.Duration{0, time.Duration(math.MaxInt64)}})},
		{"dist explicit bins", distOf(Distribution{Values: seeds(50), Bins: 7})},
		{"dist max bins", distOf(Distribution{Values: seeds(50), Bins: MaxBins})},
		{"dist one bin", distOf(Distribution{Values: seeds(50), Bins: 1})},
		{"dist outlier", distOf(Distribution{Values: append(seeds(100), 10*time.Hour)})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []Format{PNG, SVG} {
				b, err := tt.chart(f)
				if err != nil {
					if !errors.Is(err, ErrData) {
						t.Fatalf("%s: error %v does not wrap ErrData", f, err)
					}
					continue
				}
				if f == PNG {
					decode(t, b)
				} else if !bytes.HasPrefix(b, []byte("<?xml")) || !bytes.HasSuffix(b, []byte("</svg>\n")) {
					t.Errorf("SVG is not a whole document: %.40q…", b)
				}
			}
		})
	}
}

func repeatMarks(n int) []Mark {
	out := make([]Mark, n)
	for i := range out {
		out[i] = Mark{At: time.Duration(i%5) * 2 * minute, Label: "action number " + strings.Repeat("x", i)}
	}
	return out
}

func manySeries(n int) []Series {
	out := make([]Series, n)
	for i := range out {
		out[i] = Series{Name: strings.Repeat("s", i+1), Points: []Point{{0, float64(i)}, {time.Duration(i) * second * 20, 0}}}
	}
	return out
}

// TestErrors wants an error wrapping the given sentinel, naming the
// problem, and nothing written.
func TestErrors(t *testing.T) {
	tests := []struct {
		name  string
		chart func(f Format, w *bytes.Buffer) error
		f     Format
		is    error
		text  string
	}{
		{"gap bad format", gapRender(rolling()), "gif", ErrFormat, `"gif"`},
		{"dist bad format", distRender(nodeFailure()), "", ErrFormat, `""`},
		{"nan", gapRender(GapChart{Series: []Series{{Name: "a", Points: []Point{{0, math.NaN()}}}}}), SVG, ErrData, "NaN is not finite"},
		{"inf", gapRender(GapChart{Series: []Series{{Name: "a", Points: []Point{{0, 1}, {second, math.Inf(1)}}}}}), PNG, ErrData, "point 1: value +Inf"},
		{"too large", gapRender(GapChart{Series: []Series{{Name: "a", Points: []Point{{0, -math.MaxFloat64}}}}}), SVG, ErrData, "beyond ±1e+15"},
		{"negative at", gapRender(GapChart{Series: []Series{{Name: "a", Points: []Point{{-second, 1}}}}}), SVG, ErrData, "-1s is negative"},
		{"out of order", gapRender(GapChart{Series: []Series{{Name: "a", Points: []Point{{minute, 1}, {second, 2}}}}}), SVG, ErrData, "before the previous"},
		{"negative end", gapRender(GapChart{End: -second}), SVG, ErrData, "end -1s"},
		{"negative slo", gapRender(GapChart{SLO: -second}), SVG, ErrData, "slo -1s"},
		{"negative mark", gapRender(GapChart{Marks: []Mark{{-second, "x"}}}), SVG, ErrData, `mark 0 ("x")`},
		{"too many series", gapRender(GapChart{Series: manySeries(MaxSeries + 1)}), SVG, ErrData, "21 series"},
		{"too many marks", gapRender(GapChart{Marks: repeatMarks(MaxMarks + 1)}), SVG, ErrData, "51 marks"},
		{"too many points", gapRender(GapChart{Series: []Series{{Name: "a", Points: make([]Point, MaxPoints+1)}}}), SVG, ErrData, "100001 points"},
		{"negative never", distRender(Distribution{Never: -1}), SVG, ErrData, "never -1"},
		{"negative bins", distRender(Distribution{Bins: -1}), SVG, ErrData, "bins -1"},
		{"too many bins", distRender(Distribution{Bins: MaxBins + 1}), SVG, ErrData, "1001 bins"},
		{"negative value", distRender(Distribution{Values: []time.Duration{second, -second}}), SVG, ErrData, "value 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			err := tt.chart(tt.f, &b)
			if !errors.Is(err, tt.is) || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("error = %v, want %v containing %q", err, tt.is, tt.text)
			}
			if b.Len() != 0 {
				t.Errorf("%d bytes written on error", b.Len())
			}
		})
	}
}

func gapRender(g GapChart) func(Format, *bytes.Buffer) error {
	return func(f Format, w *bytes.Buffer) error { return g.Render(w, f) }
}

func distRender(d Distribution) func(Format, *bytes.Buffer) error {
	return func(f Format, w *bytes.Buffer) error { return d.Render(w, f) }
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	for _, f := range []Format{PNG, SVG} {
		if err := rolling().Render(failWriter{}, f); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Errorf("%s: error = %v, want the writer's error", f, err)
		}
	}
}

func TestInputUnchanged(t *testing.T) {
	d := Distribution{Values: []time.Duration{3 * second, second, 2 * second}}
	g := GapChart{Marks: []Mark{{2 * minute, "b"}, {minute, "a"}}}
	if _, err := distOf(d)(SVG); err != nil {
		t.Fatal(err)
	}
	if _, err := gapOf(g)(SVG); err != nil {
		t.Fatal(err)
	}
	if d.Values[0] != 3*second || d.Values[1] != second || g.Marks[0].Label != "b" {
		t.Errorf("Render reordered its input: %v %v", d.Values, g.Marks)
	}
}
