package report

import (
	"math"
	"strings"
	"testing"
)

// TestWilson95 checks the interval against published values (Newcombe
// 1998, table I; and the closed forms at 0 and n successes).
func TestWilson95(t *testing.T) {
	tests := []struct {
		k, n      int
		low, high float64
	}{
		{0, 5, 0, 0.4345},
		{5, 5, 0.5655, 1},
		{50, 100, 0.4038, 0.5962},
		{100, 100, 0.9630, 1},
		{81, 263, 0.2553, 0.3662}, // Newcombe's example 81/263
		{15, 148, 0.0624, 0.1605}, // Newcombe's example 15/148
	}
	for _, tt := range tests {
		low, high := Wilson95(tt.k, tt.n)
		if math.Abs(low-tt.low) > 5e-5 || math.Abs(high-tt.high) > 5e-5 {
			t.Errorf("Wilson95(%d, %d) = (%.4f, %.4f), want (%.4f, %.4f)", tt.k, tt.n, low, high, tt.low, tt.high)
		}
	}
}

// TestFindMin: per value of the other path, the smallest value whose
// lower bound reaches the share, with the point below it as evidence; no
// answer when none does.
func TestFindMin(t *testing.T) {
	sw := &Sweep{Scenario: "s", Paths: []string{"size", "count"}, Seeds: 20}
	add := func(size, count string, passed int) {
		p := SweepPoint{Values: []string{size, count}, Runs: 20, Passed: passed}
		p.Finish()
		sw.Points = append(sw.Points, p)
	}
	// Values out of numeric order on purpose ("10" sorts before "9" as a
	// string).
	add("4", "10", 20)
	add("4", "9", 19)
	add("4", "8", 12)
	add("8", "10", 20)
	add("8", "9", 20)
	add("8", "8", 20)
	add("2", "10", 3)
	answers, err := FindMin(sw, "count", 0.8)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range answers {
		got[a.Others] = a.Value
	}
	// 20/20 has a lower bound of 83.9%, 19/20 of 76.4%.
	want := map[string]string{"size=4": "10", "size=8": "8", "size=2": ""}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("fewest count with %s = %q, want %q", k, got[k], v)
		}
	}
	var b strings.Builder
	MinAnswers(&b, "count", 0.8, answers, 1)
	if !strings.Contains(b.String(), "fewest count with size=4: 10 (count = 10: 20/20 seeds passed, Wilson 95% interval 83.9% to 100.0%") {
		t.Errorf("answer printed as:\n%s", b.String())
	}
	if _, err := FindMin(sw, "zone", 0.8); err == nil {
		t.Error("FindMin of a path not swept: no error")
	}
}
