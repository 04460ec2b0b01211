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
	}{
		{"rolling-update", false, false},
		{"gitops-hpa-truce", false, false},
		{"gitops-hpa-fight", true, true},
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
