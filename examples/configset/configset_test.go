package configset_test

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/examples/configset"
	"github.com/clustersim/clustersim/harness"
)

var (
	variant = flag.String("variant", "", "with TestVariant: the broken variant to swarm (stale, dup or orphans)")
	profile = flag.String("profile", "lossy", "with TestVariant: the fault profile")
)

// TestVariant swarms a broken variant and fails, as the walkthrough in
// docs/testing-your-controller.md shows; without -variant it is skipped.
func TestVariant(t *testing.T) {
	if *variant == "" {
		t.Skip("give -args -variant=stale|dup|orphans [-profile=...] to watch the harness find a bug")
	}
	harness.Test(t, "testdata/configset-"+*variant+".yaml", configset.Config(200, *profile))
}

// TestCorrect: the correct operator meets every verdict under three
// profiles (a small swarm each; make soak runs 1,000 seeds per profile).
func TestCorrect(t *testing.T) {
	for _, p := range []string{"lossy", "lagging-cache", "crash-after-writes"} {
		t.Run(p, func(t *testing.T) {
			harness.Test(t, "testdata/configset.yaml", configset.Config(16, p))
		})
	}
}

// TestBrokenVariants: the harness finds each broken variant under the
// profile that exposes its bug within 200 seeds, replaying the failing
// seed gives the same trace, and its schedule shrinks to at most three
// faults, written out as a scenario that still fails the same way when a
// test replays it (harness.Replay, -clustersim.scenario).
func TestBrokenVariants(t *testing.T) {
	for _, tc := range []struct {
		file, profile string
		// failure is what the first failing seed must report.
		failure string
		// guide: docs/testing-your-controller.md walks through this
		// case and quotes its failing seed's and shrunk run's traces.
		guide bool
	}{
		{"testdata/configset-stale.yaml", "lagging-cache", "fights", false},
		{"testdata/configset-dup.yaml", "lossy", `invariant "at most one ConfigMap per ConfigSet" broken`, true},
		{"testdata/configset-dup.yaml", "crash-after-writes", `invariant "at most one ConfigMap per ConfigSet" broken`, false},
		// A missing ownerReference needs no fault: the schedule shrinks
		// to nothing.
		{"testdata/configset-orphans.yaml", "lossy", `eventually "no ConfigMap outlives its ConfigSet"`, false},
	} {
		t.Run(tc.file+"/"+tc.profile, func(t *testing.T) {
			s, err := harness.Load(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			cfg := configset.Config(200, tc.profile)
			cfg.FailFast = true
			vs, err := harness.Swarm(s, cfg)
			if err != nil {
				t.Fatal(err)
			}
			bad := vs[len(vs)-1]
			if bad.Passed() {
				t.Fatalf("no failure in %d seeds", len(vs))
			}
			if !strings.Contains(strings.Join(bad.Failures, "\n"), tc.failure) {
				t.Errorf("seed %d failed with %q; want %q", bad.Seed, bad.Failures, tc.failure)
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
			if len(sh.Faults) > 3 || sh.Verdict.Passed() {
				t.Errorf("shrunk to %d faults (passed=%v): %v", len(sh.Faults), sh.Verdict.Passed(), sh.Faults)
			}
			p, err := harness.WriteShrunk(s, t.TempDir(), bad.Seed, bad.Target, sh.Faults)
			if err != nil {
				t.Fatal(err)
			}
			// What go test -run ... -args -clustersim.scenario=<p> runs:
			// the file's seed and schedule, without cfg's profile.
			w, err := harness.Replay(p, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if w.Passed() || w.Seed != bad.Seed || w.TraceHash != sh.Verdict.TraceHash {
				t.Errorf("the written scenario %s: seed %d, trace %s, passed=%v; the shrunk run was seed %d, %s", p, w.Seed, w.TraceHash, w.Passed(), bad.Seed, sh.Verdict.TraceHash)
			}
			t.Logf("%s under %s: seed %d fails; %d faults shrunk to %d in %d runs", tc.file, tc.profile, bad.Seed, len(bad.Faults), len(sh.Faults), sh.Runs)
			if tc.guide {
				guideShows(t, fmt.Sprintf("seed %d failed (trace %s):", bad.Seed, bad.TraceHash[:16]))
				guideShows(t, fmt.Sprintf("shrunk from %d to %d faults in %d runs; it still fails (trace %s):", len(bad.Faults), len(sh.Faults), sh.Runs, sh.Verdict.TraceHash[:16]))
			}
		})
	}
}

// guide is the walkthrough that quotes what TestVariant prints for
// -variant=dup -profile=lossy (sections 4 and 5).
const guide = "../../docs/testing-your-controller.md"

// guideShows fails the test unless the guide quotes line: the page says
// its outputs are what the commands printed, so a change that moves the
// failing seed or a trace hash must carry the page along.
func guideShows(t *testing.T, line string) {
	t.Helper()
	b, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), line) {
		t.Errorf("%s does not show what the test found; it should quote:\n%s", guide, line)
	}
}
