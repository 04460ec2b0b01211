package example_test

import (
	"testing"
	"testing/synctest"

	"github.com/clustersim/clustersim/crt/example"
	"github.com/clustersim/clustersim/harness"
)

// The operator's code reads the wall clock (meta.SetStatusCondition
// stamps lastTransitionTime with time.Now), so every run goes inside a
// testing/synctest bubble, whose clock stands still at 2000-01-01 00:00
// UTC: the same seed writes the same bytes.

// TestSwarm: the operator meets every verdict on 500 seeds with a lossy
// network and crashes (-clustersim.seeds changes the count).
func TestSwarm(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		harness.Test(t, "testdata/app.yaml", example.Config(500, "lossy", "crashes"))
	})
}

// TestDeterminism: two runs of a seed give the same trace hash.
func TestDeterminism(t *testing.T) {
	s, err := harness.Load("testdata/app.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hashes []string
	for range 2 {
		synctest.Test(t, func(t *testing.T) {
			v, err := harness.Run(s, 7, example.Config(1, "lossy", "crashes"))
			if err != nil {
				t.Fatal(err)
			}
			if !v.Passed() {
				t.Fatalf("seed 7 failed: %v", v.Failures)
			}
			hashes = append(hashes, v.TraceHash)
		})
	}
	if hashes[0] != hashes[1] {
		t.Errorf("seed 7: traces %s and %s", hashes[0], hashes[1])
	}
}

// TestPlantedBug: the harness finds the operator with a Service created
// without an owner reference (deleting the App leaks it), replays the
// failing seed to the same trace, and shrinks its schedule.
func TestPlantedBug(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := harness.Load("testdata/app-orphans.yaml")
		if err != nil {
			t.Fatal(err)
		}
		cfg := example.Config(50, "lossy", "crashes")
		cfg.FailFast = true
		vs, err := harness.Swarm(s, cfg)
		if err != nil {
			t.Fatal(err)
		}
		bad := vs[len(vs)-1]
		if bad.Passed() {
			t.Fatalf("no failure in %d seeds", len(vs))
		}
		want := `eventually "web's Deployment and Service are gone with web": at the end (2:00.0): Service default/web outlives its App`
		if bad.Failures[0] != want {
			t.Errorf("seed %d failed with %q; want %q", bad.Seed, bad.Failures, want)
		}
		again, err := harness.Run(s, bad.Seed, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if again.TraceHash != bad.TraceHash {
			t.Errorf("replay of seed %d: trace %s; the swarm saw %s", bad.Seed, again.TraceHash, bad.TraceHash)
		}
		sh, err := harness.Shrink(s, bad, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(sh.Faults) > 3 || sh.Verdict.Passed() {
			t.Errorf("shrunk to %d faults (passed=%v)", len(sh.Faults), sh.Verdict.Passed())
		}
		t.Logf("seed %d fails; %d faults shrunk to %d in %d runs", bad.Seed, len(bad.Faults), len(sh.Faults), sh.Runs)
	})
}
