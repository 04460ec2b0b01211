package report

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
)

func TestDescribe(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want Distribution
	}{
		{"empty", nil, Distribution{}},
		{"one", []float64{7}, Distribution{N: 1, Mean: 7, Median: 7, P90: 7, P99: 7, Min: 7, Max: 7, CILow: 7, CIHigh: 7}},
		{"constant", []float64{3, 3, 3}, Distribution{N: 3, Mean: 3, Median: 3, P90: 3, P99: 3, Min: 3, Max: 3, CILow: 3, CIHigh: 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Describe(tc.xs); got != tc.want {
				t.Errorf("Describe(%v) = %+v, want %+v", tc.xs, got, tc.want)
			}
		})
	}
}

func TestDescribeSpread(t *testing.T) {
	xs := make([]float64, 100)
	for i := range xs {
		xs[i] = float64(100 - i) // 100..1, unsorted on purpose
	}
	d := Describe(xs)
	if d.N != 100 || d.Mean != 50.5 || d.Min != 1 || d.Max != 100 {
		t.Errorf("got %+v", d)
	}
	if d.Median != 50 || d.P90 != 90 || d.P99 != 99 {
		t.Errorf("empirical quantiles: median %v p90 %v p99 %v, want 50 90 99", d.Median, d.P90, d.P99)
	}
	// Sample standard deviation of 1..100 is sqrt(841.666...) = 29.011492.
	if d.StdDev != 29.011492 {
		t.Errorf("stdDev %v, want 29.011492", d.StdDev)
	}
	// The bootstrap interval brackets the mean, and is about ±1.96·sd/√n
	// (±5.7) wide.
	if !(d.CILow < d.Mean && d.Mean < d.CIHigh) || d.CIHigh-d.CILow < 8 || d.CIHigh-d.CILow > 15 {
		t.Errorf("95%% interval [%v, %v] around %v", d.CILow, d.CIHigh, d.Mean)
	}
	if again := Describe(xs); again != d {
		t.Errorf("second Describe differs: %+v", again)
	}
	if xs[0] != 100 {
		t.Errorf("Describe sorted its input")
	}
}

func TestSummarize(t *testing.T) {
	res := func(seed uint64, ok bool, at time.Duration) *runner.Result {
		return &runner.Result{Scenario: "s", Seed: seed, Expectations: []runner.Outcome{{Name: "e", Passed: ok, HeldAt: at}}}
	}
	s := Summarize([]*runner.Result{res(1, true, time.Second), res(2, false, 0), res(3, true, 3*time.Second)}, nil)
	if len(s.Seeds) != 3 || len(s.Failed) != 1 || s.Failed[0] != 2 {
		t.Fatalf("seeds %v failed %v", s.Seeds, s.Failed)
	}
	e := s.Expectations[0]
	if e.Passed != 2 || e.Runs != 3 || len(e.Failed) != 1 || e.HeldAt.N != 2 || e.HeldAt.Mean != 2 {
		t.Errorf("expectation summary %+v", e)
	}
}
