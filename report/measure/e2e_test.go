package measure

import (
	"testing"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// TestScenarios runs built-in scenarios and checks that each detector
// fires where it must and stays quiet where it must not.
func TestScenarios(t *testing.T) {
	tests := []struct {
		name  string
		fight bool // the spec.replicas fight is reported
		flaps bool
		hot   bool // a hot loop is reported
	}{
		{"rolling-update", false, false, false},
		{"gitops-hpa-truce", false, false, false},
		{"gitops-hpa-fight", true, true, false},
		{"no-backoff", false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := scenarios.Builtin(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(s, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rep := Analyze(res, Options{})
			for _, l := range rep.Summary() {
				t.Log(l)
			}
			if got := len(rep.HotLoops) > 0; got != tt.hot {
				t.Errorf("hot loops = %+v, want hot %v", rep.HotLoops, tt.hot)
			}
			if got := len(rep.Flaps) > 0; got != tt.flaps {
				t.Errorf("flaps = %+v, want flapping %v", rep.Flaps, tt.flaps)
			}
			if !tt.fight {
				if len(rep.Fights) != 0 {
					t.Errorf("fights = %+v, want none", rep.Fights)
				}
				return
			}
			if len(rep.Fights) != 1 {
				t.Fatalf("fights = %+v, want one", rep.Fights)
			}
			f := rep.Fights[0]
			want := []string{argo, hpaActor}
			if f.Path != "spec.replicas" || f.Key.Name != "php-apache" || len(f.Actors) != 2 || f.Actors[0] != want[0] || f.Actors[1] != want[1] || f.Alternations < 10 {
				t.Errorf("fight = %+v", f)
			}
			if again := Analyze(res, Options{}); len(again.Summary()) != len(rep.Summary()) || again.Summary()[0] != rep.Summary()[0] {
				t.Error("Analyze is not deterministic")
			}
		})
	}
}

// TestDefaultsTrap checks the defaults-trap scenario: the operator that
// compares with reflect.DeepEqual fights the Deployment controller over
// the revision annotation, the annotation flaps, and the operator's
// updates that only restate defaults are no-op writes.
func TestDefaultsTrap(t *testing.T) {
	s, err := scenarios.Builtin("defaults-trap")
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := Analyze(res, Options{})
	const path = "metadata.annotations[deployment.kubernetes.io/revision]"
	const operator = "system:serviceaccount:apps:app-operator"
	if len(rep.Fights) != 1 {
		t.Fatalf("fights = %+v, want one", rep.Fights)
	}
	f := rep.Fights[0]
	if f.Path != path || f.Key.Name != "web" || len(f.Actors) != 2 || f.Actors[0] != operator || f.Alternations < 1000 {
		t.Errorf("fight = %+v", f)
	}
	if len(rep.Flaps) != 1 || rep.Flaps[0].Path != path {
		t.Errorf("flaps = %+v, want the revision annotation", rep.Flaps)
	}
	noop := false
	for _, n := range rep.NoOpWrites {
		if n.Actor == operator && n.Count > 100 {
			noop = true
		}
	}
	if !noop {
		t.Errorf("no-ops = %+v, want the operator's restated defaults", rep.NoOpWrites)
	}
}
