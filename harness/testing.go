package harness

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// Flags of a test binary that uses Test (go test ... -args -clustersim.seed=17).
var (
	flagSeed     *uint64
	flagSeeds    *int
	flagOut      *string
	flagScenario *string
)

func init() {
	// Only a test binary gets the flags: a program importing harness
	// keeps its command line to itself.
	if testing.Testing() {
		flagSeed = flag.Uint64("clustersim.seed", 0, "run only this seed of each harness.Test swarm (a replay)")
		flagSeeds = flag.Int("clustersim.seeds", 0, "run this many seeds in each harness.Test swarm (overrides Config.Seeds)")
		flagOut = flag.String("clustersim.out", "", "write shrunk failing schedules into this directory (default "+filepath.Join(os.TempDir(), "clustersim")+")")
		flagScenario = flag.String("clustersim.scenario", "", "run this scenario file (a shrunk failing schedule harness.Test wrote) once, judged by the test's Config, instead of the test's swarm")
	}
}

// Test runs a swarm of the scenario at path (a file, or a built-in
// scenario's name) under cfg, and fails t for the first failing seed with
// its failures, its fault schedule, the commands that replay it, its trace
// hash and its schedule shrunk to a minimal one (also written out as a
// scenario file). With -clustersim.seed=N it runs seed N alone and logs its
// trace hash; -clustersim.seeds=N changes the swarm's size;
// -clustersim.scenario=FILE replays a written-out shrunk schedule instead
// (see Replay).
func Test(t testing.TB, path string, cfg Config) []*Verdict {
	t.Helper()
	if flagScenario != nil && *flagScenario != "" {
		v, err := Replay(*flagScenario, cfg)
		if err != nil {
			t.Fatal(err)
			return nil
		}
		t.Logf("%s, seed %d: trace %s", *flagScenario, v.Seed, v.TraceHash[:16])
		if !v.Passed() {
			t.Errorf("%s failed:\n  %s", *flagScenario, strings.Join(v.Failures, "\n  "))
		}
		return []*Verdict{v}
	}
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
		return nil
	}
	if flagSeeds != nil && *flagSeeds > 0 {
		cfg.Seeds = *flagSeeds
	}
	if flagSeed != nil && *flagSeed > 0 {
		cfg.FirstSeed, cfg.Seeds = *flagSeed, 1
	}
	vs, err := Swarm(s, cfg)
	if err != nil {
		t.Fatal(err)
		return nil
	}
	if len(vs) == 1 {
		t.Logf("seed %d: trace %s", vs[0].Seed, vs[0].TraceHash[:16])
	}
	var failed []uint64
	for _, v := range vs {
		if !v.Passed() {
			failed = append(failed, v.Seed)
		}
	}
	if len(failed) == 0 {
		t.Logf("%d seeds passed (%d to %d)", len(vs), vs[0].Seed, vs[len(vs)-1].Seed)
		return vs
	}
	var first *Verdict
	for _, v := range vs {
		if !v.Passed() {
			first = v
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d seeds failed (%s)\n", len(failed), len(vs), seedList(failed))
	b.WriteString(Explain(path, first, t.Name(), cfg))
	if !cfg.NoShrink && len(first.Faults) > 0 {
		sh, err := Shrink(s, first, cfg)
		if err != nil {
			t.Fatal(err)
			return vs
		}
		dir := cfg.OutDir
		if dir == "" && flagOut != nil {
			dir = *flagOut
		}
		if dir == "" {
			dir = filepath.Join(os.TempDir(), "clustersim")
		}
		p, werr := WriteShrunk(s, dir, first.Seed, first.Target, sh.Faults)
		b.WriteString(ExplainShrunk(sh, len(first.Faults), p, werr))
		if werr == nil {
			fmt.Fprintf(&b, "  %s -clustersim.scenario=%s\n", goTestCommand(t.Name()), p)
		}
	}
	t.Error(b.String())
	return vs
}

// Explain says why v failed and how to replay it: its failures, fault
// schedule, trace hash, and the go test and clustersim run command lines
// (testName is the test's name, path the scenario as the test named it).
func Explain(path string, v *Verdict, testName string, cfg Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d failed (trace %s):\n", v.Seed, v.TraceHash[:16])
	for _, f := range v.Failures {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	if len(v.Faults) > 0 {
		fmt.Fprintf(&b, "fault schedule of seed %d (%d faults, aimed at %s):\n", v.Seed, len(v.Faults), v.Target)
		for _, f := range v.Faults {
			fmt.Fprintf(&b, "  %s\n", f)
		}
	}
	scenario := path
	if root, rel, ok := moduleDir(); ok {
		if !filepath.IsAbs(path) && !scenarios.IsBuiltin(path) {
			if p, err := filepath.Rel(root, filepath.Join(root, rel, path)); err == nil {
				scenario = filepath.ToSlash(p)
			}
		}
		b.WriteString("replay (from the module root):\n")
	} else {
		b.WriteString("replay:\n")
	}
	fmt.Fprintf(&b, "  %s -clustersim.seed=%d\n", goTestCommand(testName), v.Seed)
	cmd := fmt.Sprintf("clustersim run %s --seed %d", scenario, v.Seed)
	if cfg.Profiles != nil {
		cmd += " --faults " + strings.Join(cfg.Profiles, ",")
	}
	fmt.Fprintf(&b, "  %s\n", cmd)
	return b.String()
}

// goTestCommand is the go test command line, from the module root (the
// package's directory when there is no go.mod above it), that runs the test
// named testName again with the flags it was given, up to -args and the
// flags of the harness's own to add.
func goTestCommand(testName string) string {
	pkg := "."
	if _, rel, ok := moduleDir(); ok && rel != "." {
		pkg = "./" + filepath.ToSlash(rel)
	}
	return fmt.Sprintf("go test %s -run '%s' -args%s", pkg, runPattern(testName), userFlags())
}

// Replay runs the scenario file at path once, with the seed and the fault
// schedule it holds (as WriteShrunk writes a shrunk failing run) and no
// profile, and judges it by cfg: what a test's -clustersim.scenario=FILE
// does. It reproduces the shrunk run's trace, and, unlike clustersim run,
// checks cfg's invariants; it needs no binary that registers the
// controller, only the test that does.
func Replay(path string, cfg Config) (*Verdict, error) {
	s, err := Load(path)
	if err != nil {
		return nil, err
	}
	cfg.Profiles, cfg.NoShrink = nil, true
	return Run(s, runner.RootSeed(s, runner.Options{}), cfg)
}

// ExplainShrunk describes a shrunk schedule written to path.
func ExplainShrunk(sh *Shrunk, from int, path string, werr error) string {
	var b strings.Builder
	note := ""
	if !sh.Complete {
		note = ", stopped at the run limit"
	}
	fmt.Fprintf(&b, "shrunk from %d to %d faults in %d runs%s; it still fails (trace %s):\n", from, len(sh.Faults), sh.Runs, note, sh.Verdict.TraceHash[:16])
	for _, f := range sh.Faults {
		fmt.Fprintf(&b, "  %s\n", f)
	}
	for _, f := range sh.Verdict.Failures {
		fmt.Fprintf(&b, "  -> %s\n", f)
	}
	if werr != nil {
		fmt.Fprintf(&b, "could not write the shrunk scenario: %v\n", werr)
	} else {
		fmt.Fprintf(&b, "written to %s:\n  clustersim run %s\n", path, path)
	}
	return b.String()
}

// moduleDir finds the module root above the working directory (a test
// runs in its package's directory) and the package's path from it.
func moduleDir() (root, rel string, ok bool) {
	wd, err := os.Getwd()
	if err != nil {
		return "", "", false
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			return dir, rel, err == nil
		}
		if filepath.Dir(dir) == dir {
			return "", "", false
		}
	}
}

// userFlags are the test binary's own flags the run was given (not go
// test's, not the harness's seed flags), for the replay command line.
func userFlags() string {
	var b strings.Builder
	flag.Visit(func(f *flag.Flag) {
		if strings.HasPrefix(f.Name, "test.") || f.Name == "clustersim.seed" || f.Name == "clustersim.seeds" || f.Name == "clustersim.scenario" {
			return
		}
		fmt.Fprintf(&b, " -%s=%s", f.Name, f.Value)
	})
	return b.String()
}

// runPattern turns a test name into a -run pattern matching it alone.
func runPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + p + "$"
	}
	return strings.Join(parts, "/")
}

func seedList(seeds []uint64) string {
	var parts []string
	for i, s := range seeds {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("and %d more", len(seeds)-10))
			break
		}
		parts = append(parts, fmt.Sprint(s))
	}
	return "seeds " + strings.Join(parts, ", ")
}
