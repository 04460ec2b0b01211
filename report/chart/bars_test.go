package chart

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

func barsOf(b Bars) chart {
	return func(f Format) ([]byte, error) {
		var buf bytes.Buffer
		err := b.Render(&buf, f)
		return buf.Bytes(), err
	}
}

// replicas is lesson 1's picture: final replica counts of two designs.
func replicas() Bars {
	return Bars{
		Title: "Lesson 1: Commands vs declarations", Subtitle: "how many of the 100 seeds ended at each value",
		XLabel: "final spec.replicas", YLabel: "seeds",
		Categories: []string{"2", "3", "4", "5"},
		Groups: []BarGroup{
			{Name: "commands", Values: []float64{1, 77, 21, 1}},
			{Name: "declaration", Values: []float64{0, 100, 0, 0}},
		},
	}
}

// TestBars: the picture names its axes, categories and groups; a
// GapChart with a y label and spans draws them; bad input is refused
// with ErrData before anything is written.
func TestBars(t *testing.T) {
	spans := rolling()
	spans.YLabel, spans.SpanLegend = "writes per 5s", "fights and flaps"
	spans.Spans = []Span{{From: second, To: minute}, {From: 2 * minute, To: 2 * minute}}
	for _, tt := range []struct {
		name  string
		chart chart
		want  []string
	}{
		{"bars", barsOf(replicas()), []string{"Lesson 1: Commands vs declarations", "how many of the 100 seeds", "final spec.replicas", ">seeds<", ">commands<", ">declaration<", ">4<"}},
		{"empty bars", barsOf(Bars{Title: "t"}), []string{">no data<"}},
		{"spans", gapOf(spans), []string{"writes per 5s", "fights and flaps"}},
	} {
		b, err := tt.chart(SVG)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s: SVG lacks %q", tt.name, w)
			}
		}
		if _, err := tt.chart(PNG); err != nil {
			t.Errorf("%s png: %v", tt.name, err)
		}
	}
	bad := func(mod func(*Bars)) Bars { b := replicas(); mod(&b); return b }
	for _, tt := range []struct {
		name string
		c    chart
		text string
	}{
		{"short group", barsOf(bad(func(b *Bars) { b.Groups[0].Values = b.Groups[0].Values[:2] })), "2 values for 4 categories"},
		{"negative", barsOf(bad(func(b *Bars) { b.Groups[1].Values[0] = -1 })), "value 0: -1"},
		{"nan", barsOf(bad(func(b *Bars) { b.Groups[1].Values[2] = math.NaN() })), "value 2: NaN"},
		{"too many groups", barsOf(Bars{Groups: make([]BarGroup, MaxSeries+1)}), "21 groups"},
		{"backwards span", gapOf(GapChart{Spans: []Span{{From: minute, To: second}}}), "span 0"},
	} {
		out, err := tt.c(SVG)
		if !errors.Is(err, ErrData) || !strings.Contains(err.Error(), tt.text) || len(out) != 0 {
			t.Errorf("%s: %v (%d bytes); want ErrData with %q", tt.name, err, len(out), tt.text)
		}
	}
}
