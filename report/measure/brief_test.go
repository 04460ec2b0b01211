package measure

import (
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/store"
)

// TestBriefEvents checks that keeping Event writes brief
// (spec.measure.events: brief) changes neither the trace nor any finding
// or count of the report, only the Event changes kept: in a scenario
// with a hot loop, one with back-off events, a node failure and a fight.
func TestBriefEvents(t *testing.T) {
	for _, name := range []string{"no-backoff", "deployment-bad-image", "node-failure", "gitops-hpa-fight"} {
		t.Run(name, func(t *testing.T) {
			run := func(events string) *runner.Result {
				s, err := scenarios.Builtin(name)
				if err != nil {
					t.Fatal(err)
				}
				s.Spec.Measure.Events = events
				res, err := runner.Run(s, runner.Options{})
				if err != nil {
					t.Fatal(err)
				}
				return res
			}
			keep, brief := run(scenarios.EventsKeep), run(scenarios.EventsBrief)
			if keep.TraceHash != brief.TraceHash || keep.Writes != brief.Writes || len(keep.Audit) != len(brief.Audit) {
				t.Fatalf("trace %s / %s, writes %d / %d, records %d / %d: want the same", keep.TraceHash, brief.TraceHash, keep.Writes, brief.Writes, len(keep.Audit), len(brief.Audit))
			}
			events, kept := 0, 0
			for i := range brief.Audit {
				r := &brief.Audit[i]
				if r.Kind == api.KindEvent && !r.NoOp {
					events++
					if !r.Brief || r.NumChanges() != 0 {
						t.Errorf("record %d, an Event write, kept in full: %v", i, r)
					}
				} else if r.Brief {
					t.Errorf("record %d kept brief: %v", i, r)
				}
				kept += r.NumChanges()
			}
			if events == 0 {
				t.Fatal("no Event writes: the test shows nothing")
			}
			a, b := Analyze(keep, Options{}), Analyze(brief, Options{})
			if got, want := fmt.Sprint(b.Summary()), fmt.Sprint(a.Summary()); got != want {
				t.Errorf("findings with brief events\n%s\nwant\n%s", got, want)
			}
			if got, want := fmt.Sprintf("%+v", b.Cost), fmt.Sprintf("%+v", a.Cost); got != want {
				t.Errorf("cost with brief events %s, want %s", got, want)
			}
			if fmt.Sprintf("%+v", b.HotLoops) != fmt.Sprintf("%+v", a.HotLoops) {
				t.Errorf("hot loops %+v, want %+v", b.HotLoops, a.HotLoops)
			}
			t.Logf("%d Event writes kept brief; %d changes kept", events, kept)
		})
	}
}

// TestChangedBrief checks how a brief Event record counts as a change:
// not under the default options (which ignore every Event path, as they
// ignore the fields of a full one), but when the options measure Events.
func TestChangedBrief(t *testing.T) {
	brief := &store.AuditRecord{Kind: api.KindEvent, Verb: "create", Brief: true}
	full := new(store.AuditRecord{Kind: api.KindEvent, Verb: "create"}.WithChanges(store.Change{Path: "reason", New: "Killing", NewSet: true}))
	for _, tc := range []struct {
		name string
		o    Options
		want bool
	}{
		{"defaults", Options{}, false},
		{"events measured", Options{Ignore: []string{"status.*"}}, true},
	} {
		o := tc.o.withDefaults()
		if got := changed(brief, o); got != tc.want {
			t.Errorf("%s: changed(brief Event) = %v, want %v", tc.name, got, tc.want)
		}
		if got := changed(full, o); got != tc.want {
			t.Errorf("%s: changed(full Event) = %v: the test's premise is wrong", tc.name, got)
		}
	}
}
