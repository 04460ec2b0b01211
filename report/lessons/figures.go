package lessons

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// Unit says how a figure's values read.
type Unit int

// The units.
const (
	// Count is a number of things: writes, requests, replicas.
	Count Unit = iota
	// Seconds is a duration of virtual time.
	Seconds
	// Share is 1 or 0 per run: its mean is the share of runs where it
	// held, printed as a percentage.
	Share
	// Rate is a number per second of virtual time.
	Rate
)

// Run is what a figure reads: one finished run, and its measurements
// (computed on first use: most figures read the result alone).
type Run struct {
	Result *runner.Result
	m      *measure.Report
}

// Measure returns the run's measurements (report/measure).
func (r *Run) Measure() *measure.Report {
	if r.m == nil {
		r.m = measure.Analyze(r.Result, measure.Options{})
	}
	return r.m
}

// Figure is one number measured on every run of a design.
type Figure struct {
	// Name says what is measured, for the row of the table.
	Name string
	Unit Unit
	// Of computes the figure; NaN means "does not apply to this run"
	// (a convergence that never happened), left out of the statistics
	// and counted as missing.
	Of func(r *Run) float64
	// Note, when set, is a footnote to the figure's row: what a reader
	// could misread in it.
	Note string
	// NA says what "n/a" means for this figure, footnoted on a cell
	// where some runs have no value ("never converged within the run").
	NA string
}

// share turns a condition into a Share value.
func share(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// Passed is 1 when every expectation of the run held.
func Passed() Figure {
	return Figure{Name: "every expectation held", Unit: Share, Of: func(r *Run) float64 { return share(r.Result.Passed()) }}
}

// FinalField is the value a field last had in the audit log, as a
// number (NaN if never set or not numeric).
func FinalField(name string, kind api.Kind, objName, path string) Figure {
	return Figure{Name: name, Unit: Count, Of: func(r *Run) float64 {
		v, ok := finalValue(r.Result, kind, objName, path)
		if !ok {
			return math.NaN()
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}, NA: "the field was never written (every write to it was lost)"}
}

// finalValue is the last value the audit log shows for a field of the
// named object (any namespace), and whether it was set.
func finalValue(res *runner.Result, kind api.Kind, objName, path string) (string, bool) {
	v, set := "", false
	for i := range res.Audit {
		a := &res.Audit[i]
		if a.Kind != kind || a.Key.Name != objName {
			continue
		}
		if a.Removed {
			v, set = "", false
			continue
		}
		for c := range a.EachChange() {
			if c.Path == path {
				v, set = c.New, c.NewSet
			}
		}
	}
	return v, set
}

// FinalFieldIs is 1 when the field's last value satisfies ok.
func FinalFieldIs(name string, kind api.Kind, objName, path string, ok func(v string, set bool) bool) Figure {
	return Figure{Name: name, Unit: Share, Of: func(r *Run) float64 {
		v, set := finalValue(r.Result, kind, objName, path)
		return share(ok(v, set))
	}}
}

// Writes counts an actor's accepted writes that changed something (no-op
// writes left out); an actor ending in ":" matches every actor with that
// prefix.
func Writes(name, actor string) Figure {
	return Figure{Name: name, Unit: Count, Of: func(r *Run) float64 {
		n := 0
		for i := range r.Result.Audit {
			a := &r.Result.Audit[i]
			if !a.NoOp && actorMatches(actor, a.Actor) {
				n++
			}
		}
		return float64(n)
	}}
}

// NoOpWrites counts an actor's accepted writes that changed nothing.
func NoOpWrites(name, actor string) Figure {
	return Figure{Name: name, Unit: Count, Of: func(r *Run) float64 {
		n := 0
		for i := range r.Result.Audit {
			a := &r.Result.Audit[i]
			if a.NoOp && actorMatches(actor, a.Actor) {
				n++
			}
		}
		return float64(n)
	}}
}

func actorMatches(pattern, actor string) bool {
	if strings.HasSuffix(pattern, ":") {
		return strings.HasPrefix(actor, pattern)
	}
	return actor == pattern
}

// Requests counts an actor's API requests with one of the outcomes (all
// outcomes when none is given).
func Requests(name, actor string, outcomes ...string) Figure {
	return Figure{Name: name, Unit: Count, Of: func(r *Run) float64 {
		var n uint64
		for _, s := range r.Result.Requests {
			if !actorMatches(actor, s.Actor) {
				continue
			}
			if len(outcomes) > 0 && !slices.Contains(outcomes, s.Outcome) {
				continue
			}
			n += s.Count
		}
		return float64(n)
	}}
}

// Reversals counts the value reversals (A→B→A) of every flapping field.
func Reversals(name string) Figure {
	return Figure{Name: name, Unit: Count, Of: func(r *Run) float64 {
		n := 0
		for _, f := range r.Measure().Flaps {
			n += f.Reversals
		}
		return float64(n)
	}}
}

// Alternations counts the alternations of every fight on a field path.
func Alternations(name, path string) Figure {
	return Figure{Name: name, Unit: Count, Of: func(r *Run) float64 {
		n := 0
		for _, f := range r.Measure().Fights {
			if f.Path == path {
				n += f.Alternations
			}
		}
		return float64(n)
	}}
}

// Incidents counts the gaps open longer than the scenario's SLO.
func Incidents(name string) Figure {
	return Figure{Name: name, Unit: Count, Of: func(r *Run) float64 { return float64(len(r.Measure().Gaps.Incidents)) }}
}

// ConvergedAfter is the convergence time after the first cause whose
// command contains substr ("start" for the start of the run); NaN when
// it never converged.
func ConvergedAfter(name, substr string) Figure {
	return Figure{Name: name, Unit: Seconds, Of: func(r *Run) float64 {
		for _, c := range r.Measure().Gaps.Convergence {
			if strings.Contains(c.Cause, substr) {
				if !c.Settled {
					return math.NaN()
				}
				return c.After.Seconds()
			}
		}
		return math.NaN()
	}, NA: "never converged within the run"}
}

// Converged is 1 when the cluster converged after the first cause whose
// command contains substr.
func Converged(name, substr string) Figure {
	return Figure{Name: name, Unit: Share, Of: func(r *Run) float64 {
		for _, c := range r.Measure().Gaps.Convergence {
			if strings.Contains(c.Cause, substr) {
				return share(c.Settled)
			}
		}
		return 0
	}}
}

// HeldAfter is how long (seconds) after the first timeline action whose
// command contains cause the expectation whose name contains substr held:
// a duration from a named moment, never a time of day, so that it reads
// like the convergence times beside it. NaN when the expectation failed
// or the action never ran.
func HeldAfter(name, substr, cause string) Figure {
	return Figure{Name: name, Unit: Seconds, Of: func(r *Run) float64 {
		since, ok := actionAt(r.Result, cause)
		if !ok {
			return math.NaN()
		}
		for _, o := range r.Result.Expectations {
			if strings.Contains(o.Name, substr) {
				if !o.Passed {
					return math.NaN()
				}
				return (o.HeldAt - since).Seconds()
			}
		}
		return math.NaN()
	}, NA: "the expectation failed"}
}

// actionAt is the virtual time of the first timeline action whose command
// contains substr.
func actionAt(res *runner.Result, substr string) (time.Duration, bool) {
	for _, e := range res.Entries {
		if !e.Observation && strings.Contains(e.Command, substr) {
			return e.At, true
		}
	}
	return 0, false
}

// Held is 1 when the expectation whose name contains substr held.
func Held(name, substr string) Figure {
	return Figure{Name: name, Unit: Share, Of: func(r *Run) float64 {
		for _, o := range r.Result.Expectations {
			if strings.Contains(o.Name, substr) {
				return share(o.Passed)
			}
		}
		return 0
	}}
}

// Drift is how long (seconds) a field kept the value an actor wrote
// before someone else changed it (to the end of the run if nobody did);
// NaN when the actor never wrote it.
func Drift(name string, kind api.Kind, objName, path, actor string) Figure {
	return Figure{Name: name, Unit: Seconds, Of: func(r *Run) float64 {
		var since time.Duration = -1
		for i := range r.Result.Audit {
			a := &r.Result.Audit[i]
			if a.Kind != kind || a.Key.Name != objName {
				continue
			}
			for c := range a.EachChange() {
				if c.Path != path {
					continue
				}
				switch {
				case actorMatches(actor, a.Actor) && since < 0:
					since = a.Time.Duration()
				case !actorMatches(actor, a.Actor) && since >= 0:
					return (a.Time.Duration() - since).Seconds()
				}
			}
		}
		if since < 0 {
			return math.NaN()
		}
		return (r.Result.Duration - since).Seconds()
	}, NA: "the actor never wrote the field"}
}

// Custom wraps any computation as a figure.
func Custom(name string, unit Unit, of func(r *Run) float64) Figure {
	return Figure{Name: name, Unit: unit, Of: of}
}
