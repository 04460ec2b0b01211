package report

import (
	"bytes"
	"strings"
	"testing"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		line  string
		width int
		want  []string
	}{
		{"short", 10, []string{"short"}},
		{"no limit at all here", 0, []string{"no limit at all here"}},
		{"one two three four", 9, []string{"one two", "  three", "  four"}},
		{"  indented words wrap under it", 16, []string{"  indented words", "    wrap under", "    it"}},
		{"averyveryverylongword x", 8, []string{"averyve…", "  x"}},
	}
	for _, tc := range tests {
		got := Wrap(tc.line, tc.width)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tc.line, tc.width, got, tc.want)
		}
	}
}

// TestFittedTable: a table written to a Fitted writer is no wider than
// the width, and keeps every word of every cell; written elsewhere it is
// as wide as it needs.
func TestFittedTable(t *testing.T) {
	header := []string{"object", "detail"}
	rows := [][]string{
		{"ReplicaSet/default/nginx-deployment-75574d59dd", "replicas 0/1, ready 0/1, available 0/1, observedGeneration 0 of 1"},
		{"Deployment/default/web", "ok"},
	}
	for _, width := range []int{40, 60, 80} {
		var buf bytes.Buffer
		f := Fit(&buf, width)
		if err := Table(f, header, rows); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
		for _, l := range lines {
			// Every line of a whole table is as wide as its first (the
			// Fitted writer's own wrapping would break a table apart).
			if columns(l) > width || columns(l) != columns(lines[0]) {
				t.Errorf("width %d: line of %d columns: %q", width, columns(l), l)
			}
		}
		// The first column, read down, still holds each name whole.
		var col strings.Builder
		for l := range strings.SplitSeq(buf.String(), "\n") {
			if cells := strings.Split(l, "│"); len(cells) > 2 {
				col.WriteString(strings.TrimSpace(cells[1]))
			}
		}
		for _, r := range rows {
			if !strings.Contains(col.String(), r[0]) {
				t.Errorf("width %d: %q lost:\n%s", width, r[0], buf.String())
			}
		}
	}
	var buf bytes.Buffer
	if err := Table(&buf, header, rows); err != nil {
		t.Fatal(err)
	}
	if w := widest(buf.String()); w <= 80 {
		t.Errorf("unfitted table is %d columns wide; want its natural width", w)
	}
}
