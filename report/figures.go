package report

import (
	"fmt"
	"math"
	"time"

	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// Figures are what one seed's run measured: the numbers a --seeds summary
// aggregates and a comparison tests.
type Figures struct {
	Seed uint64 `json:"seed"`
	// Writes are the accepted writes (audit records); NoOpWrites those
	// that changed nothing (the no-op detector's count).
	Writes     int `json:"writes"`
	NoOpWrites int `json:"noOpWrites"`
	// Reconciles are every controller's reconciles; Conflicts the
	// requests the API server answered with a conflict.
	Reconciles int `json:"reconciles"`
	Conflicts  int `json:"conflicts"`
	// Fights, Flaps and HotLoops are the detectors' findings: fields two
	// actors kept setting differently, fields whose value reversed,
	// stretches of fast reconciles that changed nothing.
	Fights   int `json:"fights"`
	Flaps    int `json:"flaps"`
	HotLoops int `json:"hotLoops"`
	// Incidents are the gaps open longer than the scenario's SLO.
	Incidents int `json:"incidents"`
	// Convergence is, per cause in time order (the start, then each
	// action and scheduled change), how long the cluster took to
	// converge.
	Convergence []CauseFigure `json:"convergence"`
}

// CauseFigure is one cause's convergence in one run.
type CauseFigure struct {
	Cause     string  `json:"cause"`
	AtSeconds float64 `json:"atSeconds"`
	// AfterSeconds is nil when the cluster never converged within the
	// run.
	AfterSeconds *float64 `json:"afterSeconds,omitempty"`
}

// FiguresOf measures a finished run (its audit log and reconciles must
// still be there).
func FiguresOf(res *runner.Result) Figures {
	rep := measure.Analyze(res, measure.Options{})
	f := Figures{Seed: res.Seed, Writes: rep.Cost.Writes, Fights: len(rep.Fights), Flaps: len(rep.Flaps), HotLoops: len(rep.HotLoops),
		Incidents: len(rep.Gaps.Incidents), Convergence: []CauseFigure{}}
	for _, n := range rep.NoOpWrites {
		f.NoOpWrites += n.Count
	}
	for _, c := range rep.Cost.Controllers {
		f.Reconciles += c.Reconciles
	}
	for _, a := range rep.Cost.Actors {
		f.Conflicts += int(a.Conflict)
	}
	for _, c := range rep.Gaps.Convergence {
		cf := CauseFigure{Cause: c.Cause, AtSeconds: round6(c.At.Seconds())}
		if c.Settled {
			after := round6(c.After.Seconds())
			cf.AfterSeconds = &after
		}
		f.Convergence = append(f.Convergence, cf)
	}
	return f
}

// metric is one per-seed figure that comparisons and summaries read.
type metric struct {
	name string
	of   func(f *Figures) float64
}

// countMetrics are the per-seed counts, in the order they are printed.
var countMetrics = []metric{
	{"writes", func(f *Figures) float64 { return float64(f.Writes) }},
	{"no-op writes", func(f *Figures) float64 { return float64(f.NoOpWrites) }},
	{"reconciles", func(f *Figures) float64 { return float64(f.Reconciles) }},
	{"conflicts", func(f *Figures) float64 { return float64(f.Conflicts) }},
	{"fights", func(f *Figures) float64 { return float64(f.Fights) }},
	{"flaps", func(f *Figures) float64 { return float64(f.Flaps) }},
	{"hot loops", func(f *Figures) float64 { return float64(f.HotLoops) }},
	{"incidents", func(f *Figures) float64 { return float64(f.Incidents) }},
}

// convergenceOf returns run i's convergence after its n-th cause, +Inf
// when it never converged, and false when the run has no such cause.
func convergenceOf(f *Figures, n int) (float64, bool) {
	if n >= len(f.Convergence) {
		return 0, false
	}
	if a := f.Convergence[n].AfterSeconds; a != nil {
		return *a, true
	}
	return math.Inf(1), true
}

// convergenceName names the metric of the n-th cause.
func convergenceName(cause string, at float64) string {
	return fmt.Sprintf("convergence after %s (at %s)", cause, clockSeconds(at))
}

func clockSeconds(s float64) string {
	return clock(time.Duration(math.Round(s * float64(time.Second))))
}
