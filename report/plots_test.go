package report

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/gap"
)

// TestGapChart checks what a run's gap chart draws: the objects whose gap
// opened, longest open first, the ninth and later summed into one line,
// the never-opened left out, and a mark per action (not per observation).
func TestGapChart(t *testing.T) {
	tl := &gap.Timeline{End: 10 * time.Minute}
	for i := range 10 {
		open := time.Duration(i+1) * time.Second
		tl.Series = append(tl.Series, gap.Series{Object: gap.Object{Kind: api.KindReplicaSet, Key: api.Key{Namespace: "default", Name: fmt.Sprintf("web-%d", i)}},
			Points: []gap.Point{{At: 0, Value: 1}, {At: open, Value: 0}}})
	}
	tl.Series = append(tl.Series, gap.Series{Object: gap.Object{Kind: api.KindNode, Key: api.Key{Name: "worker-1"}}, Points: []gap.Point{{At: 0, Value: 0}}})
	r := &runner.Result{Scenario: "s", Seed: 7, Duration: 10 * time.Minute, Gaps: tl, Measure: runner.Measure{GapSLO: time.Minute, Settle: time.Minute},
		Entries: []runner.Entry{{At: time.Minute, Command: "kubectl scale deployment/web --replicas=5"}, {At: 2 * time.Minute, Command: "kubectl get pods", Observation: true}}}
	c := GapChart(r)
	if c.Title != "s seed 7: gap between declared and actual" || c.End != 10*time.Minute || c.SLO != time.Minute {
		t.Errorf("chart %q end %v slo %v", c.Title, c.End, c.SLO)
	}
	if len(c.Marks) != 1 || c.Marks[0].Label != "kubectl scale deployment/web --replicas=5" {
		t.Errorf("marks %+v", c.Marks)
	}
	if len(c.Series) != plotSeries+1 {
		t.Fatalf("%d series, want %d", len(c.Series), plotSeries+1)
	}
	if c.Series[0].Name != "rs/web-9" || c.Series[plotSeries-1].Name != "rs/web-2" {
		t.Errorf("first %q, last alone %q: want the longest open first", c.Series[0].Name, c.Series[plotSeries-1].Name)
	}
	other := c.Series[plotSeries]
	if other.Name != "2 other objects" || len(other.Points) != 3 || other.Points[0].Value != 2 || other.Points[1].Value != 1 || other.Points[2].Value != 0 {
		t.Errorf("others %+v, want 2 then 1 then 0", other)
	}
}
