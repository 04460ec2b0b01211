package example_test

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/clustersim/clustersim/crt"
	"github.com/clustersim/clustersim/crt/example"
	"github.com/clustersim/clustersim/harness"
)

// The operator's code reads the wall clock (meta.SetStatusCondition
// stamps lastTransitionTime with time.Now), so every run goes inside a
// testing/synctest bubble, whose clock stands still at 2000-01-01 00:00
// UTC: the same seed writes the same bytes.

// TestMain sets the garbage collector's target to 400% unless GOGC is
// set: a swarm's live heap is small (a run per worker), and at the
// default 100% the collector took about a fifth of the CPU of TestSwarm
// (docs/PERFORMANCE.md gives the figures: less CPU for about 40 MB more).
func TestMain(m *testing.M) {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	os.Exit(m.Run())
}

// TestSwarm: the operator meets every verdict on 500 seeds with a lossy
// network, crashes, and a crash right after its k-th write in seed k
// (-clustersim.seeds changes the count).
func TestSwarm(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		harness.Test(t, "testdata/app.yaml", example.Config(500, "crash-after-writes", "lossy", "crashes"))
	})
}

// TestDeterminism: two runs of a seed give the same trace hash
// (crt.CheckDeterminism names the first write they disagree on when not).
func TestDeterminism(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hash, err := crt.CheckDeterminism("testdata/app.yaml", 7, example.Config(1, "crash-after-writes", "lossy", "crashes"))
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf("seed 7: trace %s in both runs", hash)
		t.Log(line)
		docShows(t, line)
	})
}

// guide is the page that shows what TestDeterminism and TestPlantedBug
// print (section 8, "controller-runtime operators").
const guide = "../../docs/testing-your-controller.md"

// docShows fails the test unless the guide quotes line: the page says its
// outputs are what the commands print, so a change that moves a trace
// hash on purpose must carry the page along.
func docShows(t *testing.T, line string) {
	t.Helper()
	b, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), line) {
		t.Errorf("%s does not show what the test printed; it should quote:\n%s", guide, line)
	}
}

// TestPlantedBug: the harness finds the operator that creates its Service
// without an owner reference and adds one by a second write, which a
// fault can prevent (deleting the App then leaks the Service), replays the
// failing seed to the same trace, shrinks its schedule to a 1-minimal one
// (removing any fault makes the run pass) of at most three faults, and
// the shrunk schedule written out as a scenario replays to the shrunk
// run's trace.
func TestPlantedBug(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := harness.Load("testdata/app-orphans.yaml")
		if err != nil {
			t.Fatal(err)
		}
		cfg := example.Config(50, "crash-after-writes", "lossy", "crashes")
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
		if again.TraceHash != bad.TraceHash || again.Passed() {
			t.Errorf("replay of seed %d: trace %s passed=%v; the swarm saw %s failing", bad.Seed, again.TraceHash, again.Passed(), bad.TraceHash)
		}
		sh, err := harness.Shrink(s, bad, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(sh.Faults) > 3 || !sh.Complete || sh.Verdict.Passed() || sh.Verdict.Failures[0] != want {
			t.Errorf("shrunk to %d faults (1-minimal: %v), failing with %q", len(sh.Faults), sh.Complete, sh.Verdict.Failures)
		}
		// The shrunk schedule, written out as a scenario, replays the
		// shrunk run to the same trace.
		p, err := harness.WriteShrunk(s, t.TempDir(), bad.Seed, bad.Target, sh.Faults)
		if err != nil {
			t.Fatal(err)
		}
		written, err := harness.Load(p)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Profiles = nil
		w, err := harness.Run(written, bad.Seed, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if w.Passed() || w.TraceHash != sh.Verdict.TraceHash {
			t.Errorf("the written scenario %s: trace %s passed=%v; the shrunk run was %s", p, w.TraceHash, w.Passed(), sh.Verdict.TraceHash)
		}
		line := fmt.Sprintf("seed %d fails (trace %s); %d faults shrunk to %d in %d runs: %v (trace %s)", bad.Seed, bad.TraceHash, len(bad.Faults), len(sh.Faults), sh.Runs, sh.Faults, sh.Verdict.TraceHash)
		t.Log(line)
		docShows(t, line)
	})
}
