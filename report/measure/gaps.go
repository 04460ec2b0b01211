package measure

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/gap"
)

// Gaps is what a run's gap timeline says: how long each object's gap
// stayed open, which gaps were incidents, how long the cluster took to
// converge after each action, and when a status claimed success for a
// stale generation.
type Gaps struct {
	// SLO, Settle and Ignore are the judgement used (the scenario's
	// spec.measure with defaults).
	SLO, Settle time.Duration
	Ignore      []api.Kind
	// Objects summarise each object whose gap ever opened, sorted by
	// kind and key.
	Objects []GapObject
	// Incidents are the gaps open longer than SLO (ignored kinds left
	// out), in opening order.
	Incidents []gap.Interval
	// Convergence is one entry for the start of the run, one per
	// timeline action or fault and one per scheduled change, in time
	// order.
	Convergence []Convergence
	// StaleSuccess are the stretches during which a status read as
	// success for an older generation than its spec's.
	StaleSuccess []gap.StaleSuccess
	// EmptySelectors are the stretches, at least Settle long, during
	// which a Service's selector matched no pod.
	EmptySelectors []gap.EmptySelector
}

// GapObject sums up one object's gap over the run.
type GapObject struct {
	gap.Object
	// Opened counts the times the gap opened.
	Opened int
	// OpenTotal is the time it was open in all; Longest its longest
	// stretch.
	OpenTotal, Longest time.Duration
	// Peak is the largest gap and PeakDetail what was compared then.
	Peak       int
	PeakDetail string
	// OpenAtEnd reports that it was still open when the run ended.
	OpenAtEnd bool
	// Ignored reports that its kind is in Gaps.Ignore.
	Ignored bool
}

// Convergence is how long the cluster took to settle after one cause.
type Convergence struct {
	// At is the cause's virtual time; Cause names it ("start", or the
	// timeline step's command).
	At    time.Duration
	Cause string
	// Settled reports that every gap closed and stayed closed for the
	// settle window within the run; After is then the time from At to
	// the moment they closed (0 if nothing opened).
	Settled bool
	After   time.Duration
}

// StartCause names the start of the run as a convergence cause.
const StartCause = "start"

// AnalyzeGaps judges a run's gap timeline with the run's Measure
// settings.
func AnalyzeGaps(res *runner.Result) Gaps {
	m := res.Measure
	g := Gaps{SLO: m.GapSLO, Settle: m.Settle, Ignore: m.Ignore}
	if g.SLO <= 0 {
		g.SLO = gap.DefaultSLO
	}
	if g.Settle <= 0 {
		g.Settle = gap.DefaultSettle
	}
	tl := res.Gaps
	if tl == nil {
		return g
	}
	for i := range tl.Series {
		s := &tl.Series[i]
		var o *GapObject
		for _, iv := range tl.Series[i].Intervals(tl.End) {
			if o == nil {
				g.Objects = append(g.Objects, GapObject{Object: s.Object, Ignored: slices.Contains(m.Ignore, s.Kind)})
				o = &g.Objects[len(g.Objects)-1]
			}
			o.Opened++
			o.OpenTotal += iv.Duration()
			o.Longest = max(o.Longest, iv.Duration())
			if iv.Peak > o.Peak {
				o.Peak, o.PeakDetail = iv.Peak, iv.PeakDetail
			}
			o.OpenAtEnd = o.OpenAtEnd || iv.Open
		}
	}
	judged := tl.Without(m.Ignore)
	g.Incidents = judged.Incidents(g.SLO)
	g.StaleSuccess = judged.StaleSuccess
	for _, e := range judged.EmptySelectors {
		if e.To-e.From >= g.Settle {
			g.EmptySelectors = append(g.EmptySelectors, e)
		}
	}
	causes := Causes(res)
	for i, c := range causes {
		var next time.Duration
		for _, d := range causes[i+1:] {
			if d.At > c.At {
				next = d.At
				break
			}
		}
		at, ok := judged.Settled(c.At, g.Settle, next)
		c.Settled = ok
		if ok {
			c.After = at - c.At
		}
		g.Convergence = append(g.Convergence, c)
	}
	return g
}

// Causes are the moments convergence is measured from: the start of the
// run, every timeline step that acted (observations do not) and every
// change the scenario schedules (load steps, Git commits, IaC runs), in
// time order (at one instant, timeline steps first).
func Causes(res *runner.Result) []Convergence {
	out := []Convergence{{Cause: StartCause}}
	for _, e := range res.Entries {
		if !e.Observation {
			out = append(out, Convergence{At: e.At, Cause: e.Command})
		}
	}
	for _, c := range res.Changes {
		out = append(out, Convergence{At: c.At, Cause: c.What})
	}
	slices.SortStableFunc(out, func(a, b Convergence) int { return cmp.Compare(a.At, b.At) })
	return out
}

// Findings are one line per incident, per stale success and per selector
// that matched nothing, for a report's findings.
func (g *Gaps) Findings() []string {
	var out []string
	for _, ivs := range g.IncidentGroups() {
		out = append(out, g.IncidentLine(ivs).Text)
	}
	for i, s := range g.StaleSuccess {
		if i == maxStaleLines {
			out = append(out, fmt.Sprintf("stale success: %d more stretches", len(g.StaleSuccess)-maxStaleLines))
			break
		}
		out = append(out, fmt.Sprintf("stale success: %s status read as complete for generation %d while generation %d was declared, for %s from %s",
			objectName(s.Object), s.Observed, s.Generation, Seconds(s.To-s.From), clock(s.From)))
	}
	for _, e := range g.EmptySelectors {
		until := "until " + clock(e.To)
		if e.Open {
			until = "still at the end"
		}
		out = append(out, fmt.Sprintf("empty selector: %s selector %s matched no pod for %s from %s, %s",
			objectName(e.Object), e.Selector, Seconds(e.To-e.From), clock(e.From), until))
	}
	return out
}

// IncidentGroups are the incidents as Findings prints them: more than
// FoldAbove incidents of one kind and namespace that peaked alike (every
// node of a lost zone Ready=Unknown) are one group, where the first of
// them was, so that a lost zone of a thousand nodes is a line, not a
// thousand; every other incident is a group of its own.
func (g *Gaps) IncidentGroups() [][]gap.Interval {
	return foldGroups(g.Incidents, func(iv gap.Interval) (string, bool) {
		return iv.Kind.Group + "\x00" + iv.Kind.Name + "\x00" + iv.Key.Namespace + "\x00" + iv.PeakDetail, true
	})
}

// IncidentLine is the line Findings prints for one of IncidentGroups:
// the incident, or the group folded with counts, at its first opening.
func (g *Gaps) IncidentLine(ivs []gap.Interval) Line {
	if len(ivs) == 1 {
		iv := ivs[0]
		until := "until " + clock(iv.To)
		if iv.Open {
			until = "still open at the end"
		}
		return Line{fmt.Sprintf("incident: %s gap open %s (longer than the %s SLO) from %s, %s; peak %d (%s)",
			objectName(iv.Object), Seconds(iv.Duration()), g.SLO, clock(iv.From), until, iv.Peak, iv.PeakDetail), iv.From, true}
	}
	first := ivs[0]
	shortest, longest := first.Duration(), first.Duration()
	from, lastFrom, closedBy := first.From, first.From, time.Duration(0)
	open, peak := 0, first.Peak
	keys := make([]string, len(ivs))
	for i, iv := range ivs {
		keys[i] = iv.Key.String()
		shortest, longest = min(shortest, iv.Duration()), max(longest, iv.Duration())
		from, lastFrom = min(from, iv.From), max(lastFrom, iv.From)
		peak = max(peak, iv.Peak)
		if iv.Open {
			open++
		} else {
			closedBy = max(closedBy, iv.To)
		}
	}
	// Ranges as printed: two times that print alike are one.
	span := Seconds(shortest)
	if s := Seconds(longest); s != span {
		span += " to " + s
	}
	opened := "from " + clock(from)
	if c := clock(lastFrom); c != clock(from) {
		opened += " to " + c
	}
	var until string
	switch open {
	case len(ivs):
		until = "all still open at the end"
	case 0:
		until = "all closed by " + clock(closedBy)
	default:
		until = fmt.Sprintf("%d still open at the end, the rest closed by %s", open, clock(closedBy))
	}
	return Line{fmt.Sprintf("incident: %d %s objects (%s) gaps open %s (longer than the %s SLO) opened %s, %s; peak %d (%s)",
		len(ivs), strings.ToLower(first.Kind.Name), names(keys), span, g.SLO, opened, until, peak, first.PeakDetail), from, true}
}

// maxStaleLines caps the stale-success lines of Findings.
const maxStaleLines = 5

// objectName renders an object as kubectl names it: "deployment
// default/web", "node worker-1".
func objectName(o gap.Object) string {
	return strings.ToLower(o.Kind.Name) + " " + o.Key.String()
}

// Seconds renders a duration for people: milliseconds below a second,
// tenths of seconds below a minute, then minutes and seconds.
func Seconds(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}
