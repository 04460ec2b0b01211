package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/report/chart"
	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/gap"
)

// plotSeries is how many objects a gap chart draws on their own; the
// others whose gap ever opened are summed into one line.
const plotSeries = 8

// shortKinds are kubectl's short names, for legends.
var shortKinds = map[api.Kind]string{
	api.KindDeployment: "deploy", api.KindReplicaSet: "rs", api.KindService: "svc",
	api.KindHorizontalPodAutoscaler: "hpa", api.KindNode: "node", api.KindPod: "pod",
}

// legendName names an object as kubectl would: "rs/web-5b86644d85", with
// its namespace when it is not default.
func legendName(o gap.Object) string {
	kind := cmp.Or(shortKinds[o.Kind], strings.ToLower(o.Kind.Name))
	if o.Key.Namespace != "" && o.Key.Namespace != "default" {
		return kind + "/" + o.Key.Namespace + "/" + o.Key.Name
	}
	return kind + "/" + o.Key.Name
}

// GapChart returns the gap-over-time chart of one run: one step line per
// object whose gap ever opened (the plotSeries longest open on their own,
// the rest summed), and a mark at every timeline action.
func GapChart(r *runner.Result) chart.GapChart {
	g := measure.AnalyzeGaps(r)
	c := chart.GapChart{
		Title: fmt.Sprintf("%s seed %d: gap between declared and actual", r.Scenario, r.Seed),
		End:   r.Duration,
		SLO:   g.SLO,
	}
	for _, e := range r.Entries {
		if !e.Observation {
			c.Marks = append(c.Marks, chart.Mark{At: e.At, Label: e.Command})
		}
	}
	if r.Gaps == nil {
		return c
	}
	objs := slices.Clone(g.Objects)
	slices.SortStableFunc(objs, func(a, b measure.GapObject) int { return cmp.Compare(b.OpenTotal, a.OpenTotal) })
	series := map[gap.Object]*gap.Series{}
	for i := range r.Gaps.Series {
		series[r.Gaps.Series[i].Object] = &r.Gaps.Series[i]
	}
	var rest []*gap.Series
	for i, o := range objs {
		s := series[o.Object]
		if s == nil {
			continue
		}
		if i >= plotSeries {
			rest = append(rest, s)
			continue
		}
		name := legendName(o.Object)
		if o.Ignored {
			name += " (not judged)"
		}
		c.Series = append(c.Series, chart.Series{Name: name, Points: chartPoints(s.Points)})
	}
	if len(rest) > 0 {
		c.Series = append(c.Series, chart.Series{Name: fmt.Sprintf("%d other objects", len(rest)), Points: chartPoints(gap.Sum(rest).Points)})
	}
	return c
}

func chartPoints(ps []gap.Point) []chart.Point {
	out := make([]chart.Point, len(ps))
	for i, p := range ps {
		out[i] = chart.Point{At: p.At, Value: float64(p.Value)}
	}
	return out
}

// ConvergenceCharts returns one chart per cause of a multi-seed summary:
// the distribution of its convergence times across the seeds.
func ConvergenceCharts(s *SeedsSummary) []chart.Distribution {
	out := make([]chart.Distribution, 0, len(s.Convergence))
	for _, c := range s.Convergence {
		d := chart.Distribution{
			Title: fmt.Sprintf("%s, %d seeds: convergence after %s (at %s)", s.Scenario, c.Runs, c.Cause, clock(time.Duration(c.AtSeconds*float64(time.Second)))),
			Never: len(c.NeverSeeds),
		}
		for _, v := range c.Values {
			d.Values = append(d.Values, time.Duration(v*float64(time.Second)).Round(time.Microsecond))
		}
		out = append(out, d)
	}
	return out
}
