package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/report/chart"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// SweepPoint is one grid point of a sweep: the values its swept paths
// took, and what its seeds gave.
type SweepPoint struct {
	// Values are the swept values, one per path, in the order of
	// Sweep.Paths.
	Values []string `json:"values"`
	// Runs and Passed count the seeds and those whose expectations all
	// held.
	Runs   int `json:"runs"`
	Passed int `json:"passed"`
	// Low and High are the Wilson score 95% interval of the pass rate.
	Low  float64 `json:"wilsonLow"`
	High float64 `json:"wilsonHigh"`
	// Converged are, per seed that converged after every cause, the
	// longest convergence after any cause (the start, each action, each
	// scheduled change), sorted, in seconds. Never counts the seeds that
	// did not converge after some cause within the run.
	Converged []float64 `json:"convergedSeconds"`
	Never     int       `json:"never"`
	// FailedSeeds are the seeds whose expectations failed, ascending.
	FailedSeeds []uint64 `json:"failedSeeds,omitempty"`
}

// Sweep is a sweep's result: the swept paths and every grid point in grid
// order (the first path varies slowest).
type Sweep struct {
	Scenario  string       `json:"scenario"`
	Paths     []string     `json:"paths"`
	Seeds     int          `json:"seeds"`
	FirstSeed uint64       `json:"firstSeed"`
	Points    []SweepPoint `json:"points"`
}

// Wilson95 returns the Wilson score interval of k successes in n trials
// at 95% confidence (z = 1.959964): the interval a pass rate is reported
// with, which, unlike the normal approximation, stays inside [0, 1] and
// is meaningful at 0 and n successes.
func Wilson95(k, n int) (low, high float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nf := float64(n)
	// Each product and quotient rounded apart: no fused multiply-add
	// (docs/fma-check.sh).
	den := 1 + float64(z*z/nf)
	centre := p + float64(z*z/(2*nf))
	half := float64(z * math.Sqrt(float64(p*(1-p)/nf)+float64(z*z/(4*nf*nf))))
	return max(0, (centre-half)/den), min(1, (centre+half)/den)
}

// AddRun adds one seed's result to p.
func (p *SweepPoint) AddRun(res *runner.Result, figs Figures) {
	p.Runs++
	if res.Passed() {
		p.Passed++
	} else {
		p.FailedSeeds = append(p.FailedSeeds, res.Seed)
	}
	// The slowest convergence of the run; never if any cause never
	// converged.
	worst, never := 0.0, false
	for _, c := range figs.Convergence {
		if c.AfterSeconds == nil {
			never = true
			break
		}
		worst = max(worst, *c.AfterSeconds)
	}
	if never {
		p.Never++
	} else {
		p.Converged = append(p.Converged, worst)
	}
}

// Finish sorts what AddRun gathered and computes the interval; call it
// once every run is added.
func (p *SweepPoint) Finish() {
	slices.Sort(p.Converged)
	slices.Sort(p.FailedSeeds)
	p.Low, p.High = Wilson95(p.Passed, p.Runs)
}

// quantileS returns the q-quantile of sorted values (nearest rank).
func quantileS(sorted []float64, q float64) (float64, bool) {
	if len(sorted) == 0 {
		return 0, false
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(i, 0)], true
}

func secondsCell(v float64, ok bool) string {
	if !ok {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func pct(v float64) string { return strconv.FormatFloat(100*v, 'f', 1, 64) + "%" }

var sweepStats = []string{"runs", "passed", "pass rate", "wilson 95% low", "wilson 95% high", "converged p50 (s)", "converged p90 (s)", "converged max (s)", "never converged"}

func (s *Sweep) rows() (header []string, rows [][]string) {
	header = append(slices.Clone(s.Paths), sweepStats...)
	for _, p := range s.Points {
		p50, ok50 := quantileS(p.Converged, 0.5)
		p90, ok90 := quantileS(p.Converged, 0.9)
		pmax, okmax := quantileS(p.Converged, 1)
		rate := 0.0
		if p.Runs > 0 {
			rate = float64(p.Passed) / float64(p.Runs)
		}
		row := append(slices.Clone(p.Values), strconv.Itoa(p.Runs), strconv.Itoa(p.Passed), pct(rate), pct(p.Low), pct(p.High),
			secondsCell(p50, ok50), secondsCell(p90, ok90), secondsCell(pmax, okmax), strconv.Itoa(p.Never))
		rows = append(rows, row)
	}
	return header, rows
}

// SweepTable prints a sweep for a terminal: one row per grid point.
func SweepTable(w io.Writer, s *Sweep) error {
	fmt.Fprintf(w, "Sweep of %s: %d grid point(s) x %d seeds (%d to %d); pass rate with its Wilson 95%% interval; converged = per seed, the longest convergence after any cause\n",
		s.Scenario, len(s.Points), s.Seeds, s.FirstSeed, s.FirstSeed+uint64(s.Seeds)-1)
	h, r := s.rows()
	return PlainTable(w, h, r)
}

// SweepMarkdown prints a sweep as a Markdown table.
func SweepMarkdown(w io.Writer, s *Sweep) error {
	fmt.Fprintf(w, "# Sweep of %s: %d grid point(s) x %d seeds (%d to %d)\n\n", s.Scenario, len(s.Points), s.Seeds, s.FirstSeed, s.FirstSeed+uint64(s.Seeds)-1)
	h, r := s.rows()
	return MarkdownTable(w, h, r)
}

// SweepCSV prints a sweep as CSV, one row per grid point.
func SweepCSV(w io.Writer, s *Sweep) error {
	cw := csv.NewWriter(w)
	h, r := s.rows()
	if err := cw.Write(h); err != nil {
		return err
	}
	if err := cw.WriteAll(r); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// SweepJSON prints a sweep as indented JSON.
func SweepJSON(w io.Writer, s *Sweep) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

// label names a grid point on a chart's x axis.
func (s *Sweep) label(p SweepPoint) string {
	if len(s.Paths) == 1 {
		return p.Values[0]
	}
	parts := make([]string, len(p.Values))
	for i, v := range p.Values {
		path := s.Paths[i]
		if j := strings.LastIndexByte(path, '.'); j >= 0 {
			path = path[j+1:]
		}
		parts[i] = path + "=" + v
	}
	return strings.Join(parts, ",")
}

// SweepCharts draws the pass rate (with the Wilson bounds) and the p50
// and p90 of the seeds' longest convergence against the swept values; nil when there are
// more grid points than a chart has room for.
func SweepCharts(s *Sweep) (rate, converged chart.Bars, ok bool) {
	if len(s.Points) > chart.MaxBins {
		return rate, converged, false
	}
	x := strings.Join(s.Paths, ", ")
	rate = chart.Bars{Title: fmt.Sprintf("%s: pass rate over %d seeds", s.Scenario, s.Seeds), XLabel: x, YLabel: "% of seeds",
		Groups: []chart.BarGroup{{Name: "Wilson 95% low"}, {Name: "pass rate"}, {Name: "Wilson 95% high"}}}
	converged = chart.Bars{Title: fmt.Sprintf("%s: longest convergence after a cause, per seed", s.Scenario), XLabel: x, YLabel: "seconds",
		Groups: []chart.BarGroup{{Name: "p50"}, {Name: "p90"}}}
	for _, p := range s.Points {
		l := s.label(p)
		rate.Categories = append(rate.Categories, l)
		converged.Categories = append(converged.Categories, l)
		r := 0.0
		if p.Runs > 0 {
			r = float64(p.Passed) / float64(p.Runs)
		}
		rate.Groups[0].Values = append(rate.Groups[0].Values, 100*p.Low)
		rate.Groups[1].Values = append(rate.Groups[1].Values, 100*r)
		rate.Groups[2].Values = append(rate.Groups[2].Values, 100*p.High)
		p50, _ := quantileS(p.Converged, 0.5)
		p90, _ := quantileS(p.Converged, 0.9)
		converged.Groups[0].Values = append(converged.Groups[0].Values, p50)
		converged.Groups[1].Values = append(converged.Groups[1].Values, p90)
	}
	return rate, converged, true
}

// MinAnswer is --find-min's answer for one combination of the other
// swept paths.
type MinAnswer struct {
	// Others are the other paths' values ("" when only one path).
	Others string
	// Value is the smallest value of the path whose Wilson lower bound
	// reaches the share; "" when none does.
	Value string
	// At is that grid point, Below the point of the next smaller value
	// (nil when none): the evidence.
	At, Below *SweepPoint
}

// FindMin returns, per combination of the other paths' values, the
// smallest numeric value of path whose grid point has a Wilson 95% lower
// bound at or above share.
func FindMin(s *Sweep, path string, share float64) ([]MinAnswer, error) {
	col := slices.Index(s.Paths, path)
	if col < 0 {
		return nil, fmt.Errorf("--find-min %s: not one of the --set paths (%s)", path, strings.Join(s.Paths, ", "))
	}
	groups := map[string][]int{}
	var order []string
	for i, p := range s.Points {
		if _, err := strconv.ParseFloat(p.Values[col], 64); err != nil {
			return nil, fmt.Errorf("--find-min %s: value %q is not a number", path, p.Values[col])
		}
		var others []string
		for j, v := range p.Values {
			if j != col {
				others = append(others, s.Paths[j]+"="+v)
			}
		}
		k := strings.Join(others, ", ")
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], i)
	}
	var out []MinAnswer
	for _, k := range order {
		idx := groups[k]
		slices.SortFunc(idx, func(a, b int) int {
			x, _ := strconv.ParseFloat(s.Points[a].Values[col], 64)
			y, _ := strconv.ParseFloat(s.Points[b].Values[col], 64)
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0
		})
		a := MinAnswer{Others: k}
		for n, i := range idx {
			if s.Points[i].Low >= share {
				a.Value = s.Points[i].Values[col]
				a.At = &s.Points[i]
				if n > 0 {
					a.Below = &s.Points[idx[n-1]]
				}
				break
			}
		}
		if a.At == nil && len(idx) > 0 {
			a.Below = &s.Points[idx[len(idx)-1]]
		}
		out = append(out, a)
	}
	return out, nil
}

// MinAnswers prints --find-min's answers with their evidence.
func MinAnswers(w io.Writer, path string, share float64, answers []MinAnswer, col int) {
	evidence := func(p *SweepPoint) string {
		return fmt.Sprintf("%s = %s: %d/%d seeds passed, Wilson 95%% interval %s to %s", path, p.Values[col], p.Passed, p.Runs, pct(p.Low), pct(p.High))
	}
	for _, a := range answers {
		where := ""
		if a.Others != "" {
			where = " with " + a.Others
		}
		if a.At == nil {
			fmt.Fprintf(w, "fewest %s%s: none of the swept values reaches a Wilson 95%% lower bound of %s", path, where, pct(share))
			if a.Below != nil {
				fmt.Fprintf(w, " (largest: %s)", evidence(a.Below))
			}
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "fewest %s%s: %s (%s, lower bound at least %s)\n", path, where, a.Value, evidence(a.At), pct(share))
		if a.Below != nil {
			fmt.Fprintf(w, "  next smaller value: %s\n", evidence(a.Below))
		}
	}
}
