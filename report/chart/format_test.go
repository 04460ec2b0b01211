package chart

import (
	"errors"
	"strings"
	"testing"
)

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in   string
		want Format
		bad  bool
	}{
		{in: "png", want: PNG},
		{in: "PNG", want: PNG},
		{in: ".svg", want: SVG},
		{in: "Svg", want: SVG},
		{in: "gif", bad: true},
		{in: "", bad: true},
		{in: "png ", bad: true},
	}
	for _, tt := range tests {
		got, err := ParseFormat(tt.in)
		if tt.bad {
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `"`+tt.in+`"`) {
				t.Errorf("ParseFormat(%q) error = %v, want ErrFormat naming the value", tt.in, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseFormat(%q) = %q, %v, want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestFormatFromPath(t *testing.T) {
	tests := []struct {
		path string
		want Format
		bad  string // text the error must contain
	}{
		{path: "out/gap.png", want: PNG},
		{path: "out/gap.PNG", want: PNG},
		{path: "dist.Svg", want: SVG},
		{path: "a.b/dist.svg", want: SVG},
		{path: "gap.jpeg", bad: `".jpeg"`},
		{path: "gap", bad: `"gap"`},
		{path: "png", bad: `"png"`},
		{path: "dir.svg/gap", bad: `"dir.svg/gap"`},
	}
	for _, tt := range tests {
		got, err := FormatFromPath(tt.path)
		if tt.bad != "" {
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.bad) {
				t.Errorf("FormatFromPath(%q) error = %v, want ErrFormat containing %s", tt.path, err, tt.bad)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("FormatFromPath(%q) = %q, %v, want %q", tt.path, got, err, tt.want)
		}
	}
}

func TestFormatString(t *testing.T) {
	if PNG.String() != "png" || SVG.String() != "svg" {
		t.Errorf("String() = %q, %q", PNG.String(), SVG.String())
	}
}
