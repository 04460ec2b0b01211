package report

import (
	"encoding/csv"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/gap"
)

// CSVHeader is the first row of the CSV report.
var CSVHeader = []string{"scenario", "seed", "expectation", "passed", "held_at_seconds", "detail", "trace"}

// CSV writes runs as CSV for spreadsheets and data frames: one row per
// expectation per seed, in seed order. held_at_seconds is empty when the
// expectation did not hold.
func CSV(w io.Writer, results []*runner.Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, r := range results {
		seed := strconv.FormatUint(r.Seed, 10)
		for _, o := range r.Expectations {
			held := ""
			if o.Passed {
				held = strconv.FormatFloat(o.HeldAt.Seconds(), 'f', -1, 64)
			}
			if err := cw.Write([]string{r.Scenario, seed, o.Name, strconv.FormatBool(o.Passed), held, o.Detail, r.TraceHash}); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// GapCSV writes one run's gaps sampled every step as CSV: a row per
// sample (seconds from the start, 0 to the run's end), a column per
// object whose gap ever opened ("Kind/namespace/name"), and the total of
// the judged ones. The values are each object's gap in force at that
// instant (the exact series is in the JSON report's gaps.series).
func GapCSV(w io.Writer, r *runner.Result, step time.Duration) error {
	cw := csv.NewWriter(w)
	var cols []*gap.Series
	var judged []bool
	if r.Gaps != nil {
		for i := range r.Gaps.Series {
			s := &r.Gaps.Series[i]
			if len(s.Intervals(r.Gaps.End)) == 0 {
				continue
			}
			cols = append(cols, s)
			judged = append(judged, !slices.Contains(r.Measure.Ignore, s.Kind))
		}
	}
	header := []string{"seconds"}
	samples := make([][]int, len(cols))
	for i, s := range cols {
		header = append(header, s.Object.String())
		samples[i] = s.Sample(step, r.Duration)
	}
	header = append(header, "total_judged")
	if err := cw.Write(header); err != nil {
		return err
	}
	if step > 0 {
		for k, t := 0, time.Duration(0); t <= r.Duration; k, t = k+1, t+step {
			row := []string{strconv.FormatFloat(t.Seconds(), 'f', -1, 64)}
			total := 0
			for i := range cols {
				v := samples[i][k]
				row = append(row, strconv.Itoa(v))
				if judged[i] {
					total += v
				}
			}
			row = append(row, strconv.Itoa(total))
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
