package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// SeedsSummary aggregates the runs of one scenario over many seeds: for
// each expectation, the share of seeds that passed, the failing seeds,
// and the distribution of when it held.
type SeedsSummary struct {
	// APIVersion is SchemaVersion; Kind is "SeedsSummary".
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Scenario   string `json:"scenario"`
	// Seeds are the seeds run, in order; Failed the seeds where some
	// expectation failed.
	Seeds  []uint64 `json:"seeds"`
	Failed []uint64 `json:"failedSeeds"`
	// Expectations are per expectation, in spec.expect order.
	Expectations []ExpectationSummary `json:"expectations"`
	// Convergence is, per cause (the start and each timeline action),
	// how long the cluster took to converge across the seeds.
	Convergence []ConvergenceSummary `json:"convergence"`
	// Incidents counts the gaps open longer than the scenario's SLO.
	Incidents IncidentSummary `json:"incidents"`
	// Detectors are the detectors' figures (fights, flaps, hot loops,
	// no-op writes) and the run's costs per seed, and their distributions
	// across the seeds.
	Detectors DetectorSummary `json:"detectors"`
}

// DetectorSummary is the detectors' figures over all seeds.
type DetectorSummary struct {
	// PerSeed are each seed's figures, in seed order.
	PerSeed []Figures `json:"perSeed"`
	// Totals are, per figure ("fights", "flaps", "hot loops", "no-op
	// writes", ...), the sum over the seeds, the seeds with any, and the
	// distribution per seed; in the order of countMetrics.
	Totals []FigureSummary `json:"totals"`
}

// FigureSummary is one figure across seeds.
type FigureSummary struct {
	Figure string `json:"figure"`
	Total  int    `json:"total"`
	// Seeds are the seeds where the figure was not zero, ascending.
	Seeds   []uint64     `json:"seeds"`
	PerSeed Distribution `json:"perSeed"`
}

// ConvergenceSummary is one cause's convergence over all seeds.
type ConvergenceSummary struct {
	// AtSeconds is the cause's virtual time; Cause names it.
	AtSeconds float64 `json:"atSeconds"`
	Cause     string  `json:"cause"`
	// Converged counts the seeds that converged within the run, Runs
	// the seeds with this cause; NeverSeeds are the others, ascending.
	Converged  int      `json:"converged"`
	Runs       int      `json:"runs"`
	NeverSeeds []uint64 `json:"neverSeeds"`
	// After is the distribution of convergence times (seconds) over the
	// seeds that converged.
	After Distribution `json:"afterSeconds"`
	// Values are the convergence times (seconds) behind After, in seed
	// order, for plots.
	Values []float64 `json:"-"`
}

// IncidentSummary counts incidents across seeds.
type IncidentSummary struct {
	// SLOSeconds is the gap duration beyond which a gap is an incident.
	SLOSeconds float64 `json:"sloSeconds"`
	// Seeds are the seeds with at least one incident, ascending.
	Seeds []uint64 `json:"seeds"`
	// PerSeed is the distribution of the number of incidents per seed.
	PerSeed Distribution `json:"perSeed"`
}

// ExpectationSummary is one expectation over all seeds.
type ExpectationSummary struct {
	Name   string   `json:"name"`
	Passed int      `json:"passed"`
	Runs   int      `json:"runs"`
	Failed []uint64 `json:"failedSeeds"`
	// HeldAt is the distribution, over passing seeds, of the virtual time
	// (seconds) at which the check held.
	HeldAt Distribution `json:"heldAtSeconds"`
}

// Distribution summarises a sample: mean, standard deviation, median,
// 90th and 99th percentiles, min and max, and a 95% bootstrap confidence
// interval for the mean. Empty samples have N 0 and zeros elsewhere.
type Distribution struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"stdDev"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
	P99    float64 `json:"p99"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	CILow  float64 `json:"meanCI95Low"`
	CIHigh float64 `json:"meanCI95High"`
}

// bootstrapResamples is how many resamples the mean's confidence interval
// uses.
const bootstrapResamples = 1000

// Describe computes a Distribution with gonum/stat. The bootstrap draws
// from a fixed-seed generator, so the same sample always gives the same
// interval.
func Describe(xs []float64) Distribution {
	if len(xs) == 0 {
		return Distribution{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	d := Distribution{
		N:      len(s),
		Mean:   stat.Mean(s, nil),
		Median: stat.Quantile(0.5, stat.Empirical, s, nil),
		P90:    stat.Quantile(0.9, stat.Empirical, s, nil),
		P99:    stat.Quantile(0.99, stat.Empirical, s, nil),
		Min:    s[0],
		Max:    s[len(s)-1],
	}
	if len(s) > 1 {
		d.StdDev = stat.StdDev(s, nil)
	}
	// Bootstrap: resample with replacement, take the 2.5% and 97.5%
	// quantiles of the resampled means. A fixed xorshift generator keeps
	// it deterministic and free of any global random source.
	means := make([]float64, bootstrapResamples)
	state := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 {
		state ^= state << 13
		state ^= state >> 7
		state ^= state << 17
		return state
	}
	for i := range means {
		sum := 0.0
		for range s {
			sum += s[next()%uint64(len(s))]
		}
		means[i] = sum / float64(len(s))
	}
	slices.Sort(means)
	d.CILow = stat.Quantile(0.025, stat.Empirical, means, nil)
	d.CIHigh = stat.Quantile(0.975, stat.Empirical, means, nil)
	for _, f := range []*float64{&d.Mean, &d.StdDev, &d.Median, &d.P90, &d.P99, &d.Min, &d.Max, &d.CILow, &d.CIHigh} {
		*f = round6(*f)
	}
	return d
}

// round6 rounds to six decimal places: far finer than the virtual clock's
// resolution that matters here, and coarse enough that a platform which
// fuses multiply-adds prints the same digits.
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }

// Summarize aggregates results of one scenario, one per seed, in seed
// order, with each seed's figures (figs[i] is results[i]'s; nil measures
// the results, which must then still carry their audit logs).
func Summarize(results []*runner.Result, figs []Figures) *SeedsSummary {
	sum := &SeedsSummary{APIVersion: SchemaVersion, Kind: "SeedsSummary", Seeds: []uint64{}, Failed: []uint64{}, Expectations: []ExpectationSummary{},
		Convergence: []ConvergenceSummary{}, Incidents: IncidentSummary{Seeds: []uint64{}}, Detectors: DetectorSummary{PerSeed: []Figures{}, Totals: []FigureSummary{}}}
	if len(results) == 0 {
		return sum
	}
	if figs == nil {
		figs = make([]Figures, len(results))
		for i, r := range results {
			figs[i] = FiguresOf(r)
		}
	}
	summarizeFigures(sum, figs)
	summarizeGaps(sum, results)
	sum.Scenario = results[0].Scenario
	held := make([][]float64, len(results[0].Expectations))
	for _, o := range results[0].Expectations {
		sum.Expectations = append(sum.Expectations, ExpectationSummary{Name: o.Name, Failed: []uint64{}})
	}
	for _, r := range results {
		sum.Seeds = append(sum.Seeds, r.Seed)
		if !r.Passed() {
			sum.Failed = append(sum.Failed, r.Seed)
		}
		for i, o := range r.Expectations {
			if i >= len(sum.Expectations) {
				break
			}
			e := &sum.Expectations[i]
			e.Runs++
			if o.Passed {
				e.Passed++
				held[i] = append(held[i], o.HeldAt.Seconds())
			} else {
				e.Failed = append(e.Failed, r.Seed)
			}
		}
	}
	for i := range sum.Expectations {
		sum.Expectations[i].HeldAt = Describe(held[i])
	}
	return sum
}

// summarizeFigures aggregates the seeds' figures.
func summarizeFigures(sum *SeedsSummary, figs []Figures) {
	sum.Detectors.PerSeed = figs
	for _, m := range countMetrics {
		fs := FigureSummary{Figure: m.name, Seeds: []uint64{}}
		xs := make([]float64, len(figs))
		for i := range figs {
			xs[i] = m.of(&figs[i])
			fs.Total += int(xs[i])
			if xs[i] != 0 {
				fs.Seeds = append(fs.Seeds, figs[i].Seed)
			}
		}
		fs.PerSeed = Describe(xs)
		sum.Detectors.Totals = append(sum.Detectors.Totals, fs)
	}
}

// summarizeGaps aggregates the runs' convergence and incidents.
func summarizeGaps(sum *SeedsSummary, results []*runner.Result) {
	type cause struct {
		at    time.Duration
		cause string
	}
	index := map[cause]int{}
	var incidents []float64
	for _, r := range results {
		g := measure.AnalyzeGaps(r)
		sum.Incidents.SLOSeconds = g.SLO.Seconds()
		incidents = append(incidents, float64(len(g.Incidents)))
		if len(g.Incidents) > 0 {
			sum.Incidents.Seeds = append(sum.Incidents.Seeds, r.Seed)
		}
		for _, c := range g.Convergence {
			k := cause{c.At, c.Cause}
			i, ok := index[k]
			if !ok {
				i = len(sum.Convergence)
				index[k] = i
				sum.Convergence = append(sum.Convergence, ConvergenceSummary{AtSeconds: round6(c.At.Seconds()), Cause: c.Cause, NeverSeeds: []uint64{}, Values: []float64{}})
			}
			cs := &sum.Convergence[i]
			cs.Runs++
			if c.Settled {
				cs.Converged++
				cs.Values = append(cs.Values, c.After.Seconds())
			} else {
				cs.NeverSeeds = append(cs.NeverSeeds, r.Seed)
			}
		}
	}
	// Causes in time order; at one time, in the order first seen.
	slices.SortStableFunc(sum.Convergence, func(a, b ConvergenceSummary) int { return cmp.Compare(a.AtSeconds, b.AtSeconds) })
	for i := range sum.Convergence {
		sum.Convergence[i].After = Describe(sum.Convergence[i].Values)
	}
	sum.Incidents.PerSeed = Describe(incidents)
}

// seedsHeader heads the multi-seed summary table.
var seedsHeader = []string{"EXPECTATION", "PASSED", "HELD AT (s): MEAN ± SD [95% CI]", "MEDIAN", "P90", "P99", "MIN", "MAX", "FAILING SEEDS"}

// seedsRows are the summary table's rows, one per expectation.
func seedsRows(s *SeedsSummary) [][]string {
	rows := make([][]string, 0, len(s.Expectations))
	for _, e := range s.Expectations {
		d := e.HeldAt
		row := []string{e.Name, fmt.Sprintf("%d/%d (%.1f%%)", e.Passed, e.Runs, 100*float64(e.Passed)/math.Max(1, float64(e.Runs))),
			fmt.Sprintf("%.1f ± %.1f [%.1f, %.1f]", d.Mean, d.StdDev, d.CILow, d.CIHigh), f1(d.Median), f1(d.P90), f1(d.P99), f1(d.Min), f1(d.Max), seedList(e.Failed, 10)}
		if d.N == 0 {
			row[2], row[3], row[4], row[5], row[6], row[7] = "-", "-", "-", "-", "-", "-"
		}
		rows = append(rows, row)
	}
	return rows
}

// Seeds writes a multi-seed summary for a terminal.
func Seeds(w io.Writer, s *SeedsSummary) error {
	fmt.Fprintf(w, "scenario %s, %d seeds (%d to %d), %d failed\n\n", s.Scenario, len(s.Seeds), first(s.Seeds), last(s.Seeds), len(s.Failed))
	if err := PlainTable(w, seedsHeader, seedsRows(s)); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nConvergence (every gap closed and staying closed):\n")
	if err := PlainTable(w, convergenceSeedsHeader, convergenceSeedsRows(s)); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", incidentLine(s))
	if len(s.Detectors.Totals) > 0 {
		fmt.Fprintf(w, "\nDetectors and costs per seed:\n")
		if err := PlainTable(w, figuresHeader, figuresRows(s)); err != nil {
			return err
		}
	}
	return nil
}

// figuresHeader heads the multi-seed detectors table.
var figuresHeader = []string{"FIGURE", "TOTAL", "SEEDS WITH ANY", "PER SEED: MEAN ± SD", "MEDIAN", "P90", "MAX", "SEEDS"}

// figuresRows are one row per figure.
func figuresRows(s *SeedsSummary) [][]string {
	rows := make([][]string, 0, len(s.Detectors.Totals))
	for _, f := range s.Detectors.Totals {
		d := f.PerSeed
		rows = append(rows, []string{f.Figure, strconv.Itoa(f.Total), fmt.Sprintf("%d/%d", len(f.Seeds), d.N),
			fmt.Sprintf("%.1f ± %.1f", d.Mean, d.StdDev), f1(d.Median), f1(d.P90), f1(d.Max), seedList(f.Seeds, 10)})
	}
	return rows
}

// convergenceSeedsHeader heads the multi-seed convergence table.
var convergenceSeedsHeader = []string{"AT", "CAUSE", "CONVERGED", "AFTER (s): MEAN ± SD [95% CI]", "MEDIAN", "P90", "P99", "MIN", "MAX", "NEVER (SEEDS)"}

// convergenceSeedsRows are one row per cause.
func convergenceSeedsRows(s *SeedsSummary) [][]string {
	rows := make([][]string, 0, len(s.Convergence))
	for _, c := range s.Convergence {
		d := c.After
		row := []string{clock(time.Duration(c.AtSeconds * float64(time.Second))), c.Cause,
			fmt.Sprintf("%d/%d (%.1f%%)", c.Converged, c.Runs, 100*float64(c.Converged)/math.Max(1, float64(c.Runs))),
			fmt.Sprintf("%.1f ± %.1f [%.1f, %.1f]", d.Mean, d.StdDev, d.CILow, d.CIHigh), f1(d.Median), f1(d.P90), f1(d.P99), f1(d.Min), f1(d.Max), seedList(c.NeverSeeds, 10)}
		if d.N == 0 {
			row[3], row[4], row[5], row[6], row[7], row[8] = "-", "-", "-", "-", "-", "-"
		}
		rows = append(rows, row)
	}
	return rows
}

// incidentLine sums up the incidents across seeds.
func incidentLine(s *SeedsSummary) string {
	in := s.Incidents
	slo := time.Duration(in.SLOSeconds * float64(time.Second))
	if len(in.Seeds) == 0 {
		return fmt.Sprintf("Incidents (a gap open longer than %s): none in %d seeds", slo, len(s.Seeds))
	}
	return fmt.Sprintf("Incidents (a gap open longer than %s): %d of %d seeds had some (%.2f per seed, at most %.0f); seeds: %s",
		slo, len(in.Seeds), len(s.Seeds), in.PerSeed.Mean, in.PerSeed.Max, seedList(in.Seeds, 10))
}

// SeedsJSON writes a multi-seed summary as indented JSON.
func SeedsJSON(w io.Writer, s *SeedsSummary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

func first(s []uint64) uint64 {
	if len(s) == 0 {
		return 0
	}
	return s[0]
}

func last(s []uint64) uint64 {
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1]
}

// seedList lists at most n seeds, then how many more.
func seedList(seeds []uint64, n int) string {
	if len(seeds) == 0 {
		return "-"
	}
	parts := make([]string, 0, n+1)
	for i, s := range seeds {
		if i == n {
			parts = append(parts, fmt.Sprintf("(+%d more)", len(seeds)-n))
			break
		}
		parts = append(parts, strconv.FormatUint(s, 10))
	}
	return strings.Join(parts, " ")
}
