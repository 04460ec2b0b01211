package measure

import (
	"testing"
	"time"

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
		// incident: some gap stays open longer than the scenario's SLO.
		incident bool
	}{
		{"rolling-update", false, false, false, false},
		{"gitops-hpa-truce", false, false, false, false},
		{"gitops-hpa-fight", true, true, false, false},
		{"no-backoff", false, false, true, false},
		// The pod on the dead node is not ready for the 50s grace plus
		// the 300s toleration: the Deployment's gap is an incident.
		{"node-failure", false, false, false, true},
		// The pod stays Pending for ten minutes.
		{"unschedulable-pod", false, false, false, true},
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
			if got := len(rep.Gaps.Incidents) > 0; got != tt.incident {
				t.Errorf("incidents = %+v, want incident %v", rep.Gaps.Incidents, tt.incident)
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

// TestConvergence checks the convergence times of built-in scenarios
// against what their timelines make them: a rolling update of three pods,
// one after the other, each pulled in 3s, settles in under a minute (not
// before the three starts, whatever the lossy network's draws add); a node failure only
// after the grace period, the 300s toleration and a new pod's start; a
// rollout of an image that does not exist never, until it is undone.
func TestConvergence(t *testing.T) {
	tests := []struct {
		scenario string
		until    time.Duration
		cause    string
		min, max time.Duration // bounds of the convergence time; max 0: never
	}{
		{"rolling-update", 0, "kubectl set image deployment/nginx-deployment nginx=nginx:1.16.1", 8 * time.Second, 60 * time.Second},
		// A pod status write the lossy network loses costs the kubelet's
		// 10s request timeout before its retry.
		{"rolling-update", 0, StartCause, time.Second, 25 * time.Second},
		{"node-failure", 0, "kubelet on worker-1 hangs", 350 * time.Second, 355 * time.Second},
		{"deployment-bad-image", 11 * time.Minute, "kubectl set image deployment/nginx-deployment nginx=nginx:1.161", 0, 0},
		{"unschedulable-pod", 0, StartCause, 10 * time.Minute, 11 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.scenario+"/"+tt.cause, func(t *testing.T) {
			s, err := scenarios.Builtin(tt.scenario)
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(s, runner.Options{Until: tt.until})
			if err != nil {
				t.Fatal(err)
			}
			g := AnalyzeGaps(res)
			var found *Convergence
			for i := range g.Convergence {
				if g.Convergence[i].Cause == tt.cause {
					found = &g.Convergence[i]
				}
			}
			if found == nil {
				t.Fatalf("no cause %q in %+v", tt.cause, g.Convergence)
			}
			if tt.max == 0 {
				if found.Settled {
					t.Errorf("converged after %v, want never", found.After)
				}
				return
			}
			if !found.Settled || found.After < tt.min || found.After > tt.max {
				t.Errorf("convergence %+v, want settled within [%v, %v]", *found, tt.min, tt.max)
			}
		})
	}
}
