package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The verdicts of a comparison. Every compared figure is better lower
// (fewer writes, faster convergence), so a significantly larger candidate
// regressed.
const (
	Regressed     = "regressed"
	Improved      = "improved"
	NoSignificant = "no significant difference"
)

// Comparison sets a candidate's runs against a baseline's on the same
// seeds: per metric both distributions, the effect size, a two-sided
// Mann-Whitney U test and a verdict at Alpha.
type Comparison struct {
	// APIVersion is SchemaVersion; Kind is "Comparison".
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Baseline and Candidate name what was compared (scenarios).
	Baseline  string `json:"baseline"`
	Candidate string `json:"candidate"`
	// Seeds are the seeds both ran, in order.
	Seeds []uint64 `json:"seeds"`
	// Alpha is the significance level of the verdicts.
	Alpha float64 `json:"alpha"`
	// Metrics are the compared figures: the counts, then convergence
	// after each cause.
	Metrics []MetricComparison `json:"metrics"`
}

// MetricComparison is one figure of a comparison.
type MetricComparison struct {
	// Metric names the figure ("writes", "convergence after start (at
	// 0:00)").
	Metric string `json:"metric"`
	// Baseline and Candidate are the figure's distributions over the
	// seeds (convergence: over the seeds that converged).
	Baseline  Distribution `json:"baseline"`
	Candidate Distribution `json:"candidate"`
	// BaselineNever and CandidateNever count the seeds that never
	// converged (convergence metrics only; they rank above every
	// converged seed in the test).
	BaselineNever  int `json:"baselineNever,omitempty"`
	CandidateNever int `json:"candidateNever,omitempty"`
	// Effect is the rank-biserial correlation, from −1 (the candidate
	// always lower) to +1 (always higher); P the test's two-sided
	// p-value; U the baseline's U statistic.
	Effect float64 `json:"effect"`
	P      float64 `json:"p"`
	U      float64 `json:"u"`
	// Verdict is Regressed, Improved or NoSignificant.
	Verdict string `json:"verdict"`
}

// Compare compares candidate's figures with baseline's, seed by seed
// (both in the same seed order), at significance level alpha.
func Compare(baselineName, candidateName string, baseline, candidate []Figures, alpha float64) *Comparison {
	c := &Comparison{APIVersion: SchemaVersion, Kind: "Comparison", Baseline: baselineName, Candidate: candidateName, Seeds: []uint64{}, Alpha: alpha, Metrics: []MetricComparison{}}
	for _, f := range baseline {
		c.Seeds = append(c.Seeds, f.Seed)
	}
	for _, m := range countMetrics {
		a, b := collect(baseline, m.of), collect(candidate, m.of)
		c.Metrics = append(c.Metrics, compareSamples(m.name, a, b, alpha))
	}
	causes := 0
	for _, f := range baseline {
		causes = max(causes, len(f.Convergence))
	}
	for n := range causes {
		var a, b []float64
		name := ""
		for i := range baseline {
			if v, ok := convergenceOf(&baseline[i], n); ok {
				a = append(a, v)
				if name == "" {
					cf := baseline[i].Convergence[n]
					name = convergenceName(cf.Cause, cf.AtSeconds)
				}
			}
		}
		for i := range candidate {
			if v, ok := convergenceOf(&candidate[i], n); ok {
				b = append(b, v)
			}
		}
		c.Metrics = append(c.Metrics, compareSamples(name, a, b, alpha))
	}
	return c
}

func collect(fs []Figures, of func(*Figures) float64) []float64 {
	out := make([]float64, len(fs))
	for i := range fs {
		out[i] = of(&fs[i])
	}
	return out
}

// compareSamples tests b against a. Infinite values (never converged)
// take part in the test but not in the distributions.
func compareSamples(name string, a, b []float64, alpha float64) MetricComparison {
	finite := func(xs []float64) ([]float64, int) {
		out := make([]float64, 0, len(xs))
		for _, x := range xs {
			if !math.IsInf(x, 1) {
				out = append(out, x)
			}
		}
		return out, len(xs) - len(out)
	}
	fa, na := finite(a)
	fb, nb := finite(b)
	mw := MannWhitneyU(a, b)
	m := MetricComparison{Metric: name, Baseline: Describe(fa), Candidate: Describe(fb), BaselineNever: na, CandidateNever: nb,
		Effect: round6(mw.Effect), P: round6(mw.P), U: mw.UA, Verdict: NoSignificant}
	if mw.P < alpha {
		if mw.Effect > 0 {
			m.Verdict = Regressed
		} else {
			m.Verdict = Improved
		}
	}
	return m
}

// Regressions returns the metrics that regressed and whose name is in
// names ("convergence" stands for every convergence metric, "any" for
// every metric).
func (c *Comparison) Regressions(names []string) []string {
	var out []string
	for _, m := range c.Metrics {
		if m.Verdict != Regressed {
			continue
		}
		for _, n := range names {
			if n == "any" || n == m.Metric || n == "convergence" && strings.HasPrefix(m.Metric, "convergence after ") {
				out = append(out, m.Metric)
				break
			}
		}
	}
	return out
}

// MetricNames are the names --fail-on accepts.
func MetricNames() []string {
	out := []string{"any", "convergence"}
	for _, m := range countMetrics {
		out = append(out, m.name)
	}
	return out
}

// ValidMetric reports whether name is one of MetricNames.
func ValidMetric(name string) bool { return slices.Contains(MetricNames(), name) }

var compareHeader = []string{"METRIC", "BASELINE: MEAN ± SD", "MEDIAN", "CANDIDATE: MEAN ± SD", "MEDIAN", "EFFECT", "P", "VERDICT"}

// CompareTable writes a comparison for a terminal.
func CompareTable(w io.Writer, c *Comparison) error {
	fmt.Fprintf(w, "baseline %s, candidate %s: %d seeds (%d to %d), Mann-Whitney U two-sided, alpha %s\n\n",
		c.Baseline, c.Candidate, len(c.Seeds), first(c.Seeds), last(c.Seeds), strconv.FormatFloat(c.Alpha, 'g', -1, 64))
	rows := make([][]string, 0, len(c.Metrics))
	for _, m := range c.Metrics {
		rows = append(rows, []string{m.Metric, meanSD(m.Baseline, m.BaselineNever), median(m.Baseline),
			meanSD(m.Candidate, m.CandidateNever), median(m.Candidate),
			strconv.FormatFloat(m.Effect, 'f', 2, 64), pValue(m.P), m.Verdict})
	}
	if err := PlainTable(w, compareHeader, rows); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nEffect: rank-biserial correlation, -1 (candidate always lower) to +1 (always higher); every figure is better lower.")
	return nil
}

func meanSD(d Distribution, never int) string {
	s := "-"
	if d.N > 0 {
		s = fmt.Sprintf("%.1f ± %.1f", d.Mean, d.StdDev)
	}
	if never > 0 {
		s += fmt.Sprintf(" (%d never)", never)
	}
	return s
}

func median(d Distribution) string {
	if d.N == 0 {
		return "-"
	}
	return f1(d.Median)
}

func pValue(p float64) string {
	if p < 0.0001 {
		return "<0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// CompareJSON writes a comparison as indented JSON.
func CompareJSON(w io.Writer, c *Comparison) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}
