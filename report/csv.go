package report

import (
	"encoding/csv"
	"io"
	"strconv"

	"github.com/clustersim/clustersim/scenarios/runner"
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
