package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestAlternateScript runs docs/alternate.sh, the script docs/PERFORMANCE.md
// compares builds with, on two stand-in binaries: each run gets its line
// in alternation, round by round (a run whose expectation failed, exit
// 1, among them: that is a verdict, not a broken run), and the script
// says whether the binaries printed the same report, exiting 1 when they
// did not (a change meant to be invisible that is not, or a run that
// differs from the one before it) or when a run broke. Planted, each
// fails: the reports' comparison made to pass always; only the last
// round's reports compared; exit status 1 taken for a broken run.
func TestAlternateScript(t *testing.T) {
	script := docsScript(t, "alternate.sh")
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe.yaml")
	if err := os.WriteFile(probe, []byte("kind: Scenario\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// fake writes a stand-in for clustersim that prints report for `run
	// PROBE` and exits with status.
	fake := func(name, report string, status int) string {
		p := filepath.Join(dir, name)
		body := "#!/bin/sh\n[ \"$1\" = run ] && [ \"$2\" = " + probe + " ] || exit 9\nprintf '%s\\n' '" + report + "'\nexit " + strconv.Itoa(status) + "\n"
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old, same, other := fake("old", "report A", 0), fake("new", "report A", 0), fake("changed", "report B", 0)
	// A failed expectation (exit 1) is a verdict, timed like any run; a
	// simulator that broke (exit 3) ends the comparison.
	failOld, failNew, broken := fake("fail-old", "report F", 1), fake("fail-new", "report F", 1), fake("broken", "report A", 3)
	// drifting prints report A, then report B: a simulation whose runs differ.
	drifting := filepath.Join(dir, "drifting")
	drift := "#!/bin/sh\nif [ -e " + dir + "/drifted ]; then echo 'report B'; else touch " + dir + "/drifted; echo 'report A'; fi\n"
	if err := os.WriteFile(drifting, []byte(drift), 0o755); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		name       string
		bins       []string
		wantExit   int
		wantRuns   []string // the binaries in the order of the run lines
		wantLast   string
		wantFail   int    // run lines that say "verdict: fail"
		wantDiffer string // what standard error says of a report that differs
	}{
		{"same reports", []string{old, same}, 0, []string{old, same, old, same}, "every binary printed the same report (1 lines)", 0, ""},
		{"a report differs", []string{old, other}, 1, []string{old, other, old, other}, "", 0,
			"the report of " + other + " in round 1 differs from the report of " + old + " in round 1"},
		{"a run differs from its binary's last", []string{old, drifting}, 1, []string{old, drifting, old, drifting}, "", 0,
			"the report of " + drifting + " in round 2 differs from the report of " + old + " in round 1"},
		{"failed expectations are timed", []string{failOld, failNew}, 0, []string{failOld, failNew, failOld, failNew}, "every binary printed the same report (1 lines)", 4, ""},
		{"a broken run stops it", []string{old, broken}, 1, []string{old}, "", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr := runScript(t, tc.wantExit, append([]string{script, "-n", "2", probe}, tc.bins...)...)
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			var runs []string
			fails := 0
			for _, l := range lines {
				if bin, rest, ok := strings.Cut(l, ": "); ok && strings.Contains(rest, " s wall, ") && strings.Contains(rest, " KB (round ") {
					runs = append(runs, bin)
					if strings.HasSuffix(rest, ", verdict: fail)") {
						fails++
					}
				}
			}
			if fails != tc.wantFail {
				t.Errorf("%d runs say the verdict failed, want %d; stdout:\n%s", fails, tc.wantFail, out)
			}
			if strings.Join(runs, ",") != strings.Join(tc.wantRuns, ",") {
				t.Errorf("runs in the order %q, want %q; stdout:\n%s", runs, tc.wantRuns, out)
			}
			if tc.wantLast != "" && lines[len(lines)-1] != tc.wantLast {
				t.Errorf("last line %q, want %q", lines[len(lines)-1], tc.wantLast)
			}
			if tc.wantDiffer != "" && !strings.Contains(stderr, tc.wantDiffer) {
				t.Errorf("stderr does not name the run whose report differs (%q):\n%s", tc.wantDiffer, stderr)
			}
			if tc.bins[len(tc.bins)-1] == broken && !strings.Contains(stderr, broken+": the run ended with exit status 3") {
				t.Errorf("stderr does not name the broken run and its status:\n%s", stderr)
			}
		})
	}

	t.Run("bad arguments", func(t *testing.T) {
		for _, args := range [][]string{{probe}, {"-n", "0", probe, old}, {filepath.Join(dir, "missing.yaml"), old}, {probe, filepath.Join(dir, "missing")}} {
			cmd := exec.Command("bash", append([]string{script}, args...)...)
			err := cmd.Run()
			if e, ok := err.(*exec.ExitError); !ok || e.ExitCode() != 2 {
				t.Errorf("alternate.sh %q: %v, want exit status 2", args, err)
			}
		}
	})
}

// docsScript returns the absolute path of the script name in docs/, for
// the tests that run one (it is run from a temporary directory's
// stand-ins, so a relative path would not do). It reads the script too:
// go test's cache knows the files a test opens, not those a shell it
// starts reads, and without this an edited script would pass on the
// cached result of the one before it.
// runScript runs bash with args, fails the test unless it exits with
// wantExit, and returns its standard output and error.
func runScript(t *testing.T, wantExit int, args ...string) (stdout []byte, stderr string) {
	t.Helper()
	cmd := exec.Command("bash", args...)
	var errs strings.Builder
	cmd.Stderr = &errs
	out, err := cmd.Output()
	exit := 0
	if e, ok := err.(*exec.ExitError); ok {
		exit = e.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if exit != wantExit {
		t.Fatalf("exit %d, want %d; stdout:\n%s\nstderr:\n%s", exit, wantExit, out, errs.String())
	}
	return out, errs.String()
}

func docsScript(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFuzzTargetScript runs docs/fuzz-target.sh, which make fuzz runs
// each target through, with a stand-in for go that prints what go test
// prints in each case: a target that passes; Go 1.26's coordinator race
// (golang/go#75804: the target's FAIL and a bare "context deadline
// exceeded", nothing written), which alone passes, named; a crash that
// wrote its input; the race's message beside a written input; a failing
// assertion beside the message; another target's race. Planted, each
// fails: the signature's check left out (every failure passes); the
// "Failing input written" check left out; the target's name not checked.
func TestFuzzTargetScript(t *testing.T) {
	script := docsScript(t, "fuzz-target.sh")
	race := "fuzz: elapsed: 8s, execs: 155025 (23077/sec), new interesting: 19 (total: 527)\n--- FAIL: FuzzX (8.16s)\n    context deadline exceeded\nFAIL\nexit status 1\nFAIL\tpkg\t8.180s\n"
	for _, tc := range []struct {
		name     string
		out      string
		status   int
		wantExit int
		wantSays string
	}{
		{"a pass", "fuzz: elapsed: 8s, execs: 155025\nPASS\nok\tpkg\t8.1s\n", 0, 0, "ok\tpkg"},
		{"the coordinator's race", race, 1, 0, "golang/go#75804"},
		{"a crash", "--- FAIL: FuzzX (0.16s)\n    --- FAIL: FuzzX (0.00s)\n        x_test.go:12: boom\n\n    Failing input written to testdata/fuzz/FuzzX/abc\nFAIL\n", 1, 1, "Failing input written"},
		{"the message beside a written input", "--- FAIL: FuzzX (8.16s)\n    context deadline exceeded\n    Failing input written to testdata/fuzz/FuzzX/abc\nFAIL\n", 1, 1, "Failing input written"},
		{"the message beside a failed assertion", "--- FAIL: FuzzX (8.16s)\n    x_test.go:40: context deadline exceeded from the target's own call\n    context deadline exceeded\nFAIL\n", 1, 1, "x_test.go:40"},
		{"another target's race", strings.ReplaceAll(race, "FuzzX", "FuzzY"), 1, 1, "FuzzY"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			outFile := filepath.Join(dir, "out")
			if err := os.WriteFile(outFile, []byte(tc.out), 0o644); err != nil {
				t.Fatal(err)
			}
			fakeGo := filepath.Join(dir, "go")
			body := "#!/bin/sh\n[ \"$1\" = test ] && [ \"$3\" = '-fuzz=^FuzzX$' ] && [ \"$4\" = -fuzztime=8s ] && [ \"$5\" = ./pkg/ ] || exit 9\ncat " + outFile + "\nexit " + strconv.Itoa(tc.status) + "\n"
			if err := os.WriteFile(fakeGo, []byte(body), 0o755); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("bash", script, "FuzzX", "./pkg/", "8s")
			cmd.Env = append(os.Environ(), "GO="+fakeGo)
			out, _ := cmd.CombinedOutput()
			if got := cmd.ProcessState.ExitCode(); got != tc.wantExit {
				t.Errorf("exit %d, want %d; output:\n%s", got, tc.wantExit, out)
			}
			if !strings.Contains(string(out), tc.wantSays) {
				t.Errorf("output does not say %q:\n%s", tc.wantSays, out)
			}
		})
	}
}

// TestLoopGroupsScript runs docs/loop-groups.sh, with which
// docs/PERFORMANCE.md's forty-sixth pass summed the event loop's samples
// by group, on a listing of pprof -top's shape: its header lines are not
// functions; a function two patterns match (maps.typedmemmove,
// markBitsForIndex) counts in its first group only; "(inline)" does not
// keep a name from matching ($ anchored); a flat of 0 has no unit; the
// scheduler's figure is its cumulative one; every figure is per run.
// Planted, each fails: a function counted in every group it matches; the
// scheduler's flat figure taken; the runs not divided by.
func TestLoopGroupsScript(t *testing.T) {
	script := docsScript(t, "loop-groups.sh")
	listing := `File: clustersim
Type: cpu
Active filters:
   focus=Kernel\).Run$|corostart
Showing nodes accounting for 1000ms, 50.00% of 2000ms total
      flat  flat%   sum%        cum   cum%
     400ms 20.00% 20.00%      400ms 20.00%  runtime.mapaccess2
     100ms  5.00% 25.00%      100ms  5.00%  internal/runtime/maps.typedmemmove
      60ms  3.00% 28.00%       60ms  3.00%  type:.hash.github.com/clustersim/clustersim/sim/api.Key
     200ms 10.00% 38.00%      200ms 10.00%  runtime.bulkBarrierPreWrite
      40ms  2.00% 40.00%       40ms  2.00%  runtime.(*mspan).markBitsForIndex (inline)
     120ms  6.00% 46.00%      120ms  6.00%  runtime.mallocgcSmallScanNoHeader
      20ms  1.00% 47.00%      900ms 45.00%  github.com/clustersim/clustersim/controllers/scheduler.(*scheduler).Reconcile
         0     0% 47.00%      600ms 30.00%  github.com/clustersim/clustersim/controllers/scheduler.(*scheduler).schedule
      60ms  3.00% 50.00%      100ms  5.00%  github.com/clustersim/clustersim/sim/kubelet.(*timers).Fire
`
	cmd := exec.Command("bash", script, "2")
	cmd.Stdin = strings.NewReader(listing)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "loop        500\nscheduler   450\nhash maps   280\ncollector   120\nallocation  60\n"
	if string(out) != want {
		t.Errorf("output\n%s\nwant\n%s", out, want)
	}
	for _, tc := range []struct {
		args  []string
		stdin string
	}{{[]string{"0"}, listing}, {[]string{"two"}, listing}, {nil, listing}, {[]string{"1"}, "no listing here\n"}} {
		cmd := exec.Command("bash", append([]string{script}, tc.args...)...)
		cmd.Stdin = strings.NewReader(tc.stdin)
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Errorf("%v on %.20q: exit 0, want an error:\n%s", tc.args, tc.stdin, out)
		}
	}
}

// TestScaleRatioScript runs docs/scale-ratio.sh, the script that measures
// issue 11's 300 to 3,000 nodes ratio, on stand-in binaries whose "small"
// runs take 0.1 and 0.2 s by turns and "large" ones 0.45, 0.6 and 0.3 s
// (ratios near 3, 4 and 2): each round runs the small probe twice and
// the large once, each round's ratio is its large run's wall
// time over the mean of its small ones (recomputed here from the run
// lines), and the last line gives the ratios, their median and how many
// are within -max. A report that changes between rounds, and a run that
// broke (not exit 1, the probe's verdict), end it with exit 1; bad
// arguments exit 2. Planted, each fails: the ratio over the first small
// run alone; the median of the rounds as run, not sorted; exit 1 taken
// for a broken run.
func TestScaleRatioScript(t *testing.T) {
	script := docsScript(t, "scale-ratio.sh")
	// fake writes a stand-in for clustersim: `generate scale --nodes N`
	// prints "nodes N"; `run FILE` sleeps as above (counting its runs of
	// each size in a file), prints the report of its size (a drifting
	// one another report once it has run the large probe) and exits
	// with status.
	fake := func(dir, name string, status int, drift bool) string {
		p := filepath.Join(dir, name)
		report := `echo "report $n"`
		if drift {
			report = `if [ -e "` + dir + `/drifted" ]; then echo "report $n, drifted"; else [ "$n" -gt 100 ] && touch "` + dir + `/drifted"; echo "report $n"; fi`
		}
		body := "#!/bin/sh\n" +
			"if [ \"$1\" = generate ]; then [ \"$2\" = scale ] && [ \"$3\" = --nodes ] || exit 9; echo \"nodes $4\"; exit 0; fi\n" +
			"[ \"$1\" = run ] || exit 9\n" +
			"read -r _ n < \"$2\"\n" +
			"c=" + dir + "/count-$n; k=$(cat $c 2>/dev/null || echo 0); echo $((k+1)) > $c\n" +
			"if [ \"$n\" -gt 100 ]; then case $((k % 3)) in 0) s=0.45;; 1) s=1.0;; *) s=0.3;; esac\n" +
			"else case $((k % 2)) in 0) s=0.1;; *) s=0.2;; esac; fi\n" +
			"sleep $s\n" +
			report + "\nexit " + strconv.Itoa(status) + "\n"
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	usual := []string{"30", "3000"} // the sizes most cases give
	for _, tc := range []struct {
		name       string
		status     int  // the stand-in's exit status: 1 the probe's verdict, 3 a broken run
		drift      bool // the stand-in's reports change once it has run the large probe
		opts       []string
		sizes      []string // after the binary
		wantExit   int
		wantRounds int    // round lines
		wantWithin string // the last line's "at most MAX in K of N rounds"
		wantErr    string // what standard error says
	}{
		{"three rounds, over", 0, false, []string{"-n", "3", "-max", "1.2"}, usual, 0, 3, "at most 1.2 in 0 of 3 rounds", ""},
		{"two rounds, within", 0, false, []string{"-n", "2", "-max", "12"}, usual, 0, 2, "at most 12 in 2 of 2 rounds", ""},
		{"three rounds, some within", 0, false, []string{"-n", "3", "-max", "4.5"}, usual, 0, 3, "at most 4.5 in 2 of 3 rounds", ""},
		{"a failed expectation is timed", 1, false, []string{"-n", "2", "-max", "12"}, usual, 0, 2, "at most 12 in 2 of 2 rounds", ""},
		{"a report differs", 0, true, []string{"-n", "2"}, usual, 1, 1, "", "the 30-node report of round 2 differs from round 1's"},
		{"a broken run stops it", 3, false, []string{"-n", "2"}, usual, 1, 0, "", "the 30-node run ended with exit status 3"},
		{"rounds not a number", 0, false, []string{"-n", "x"}, nil, 2, 0, "", "-n wants a positive number of rounds"},
		{"a size not a number", 0, false, nil, []string{"30", "many"}, 2, 0, "", "a size is a positive number of nodes"},
		{"one size only", 0, false, nil, []string{"30"}, 2, 0, "", "usage:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // the stand-ins sleep: the cases wait side by side
			bin := fake(t.TempDir(), "clustersim", tc.status, tc.drift)
			args := append(append(append([]string{script}, tc.opts...), bin), tc.sizes...)
			out, stderr := runScript(t, tc.wantExit, args...)
			if tc.wantErr != "" && !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("stderr does not say %q:\n%s", tc.wantErr, stderr)
			}
			var walls []float64 // the runs' wall times since the last round line
			var ratios []float64
			var ran []string // the runs' sizes
			for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if size, rest, ok := strings.Cut(l, " nodes: "); ok {
					w, _, _ := strings.Cut(rest, " s wall")
					v, err := strconv.ParseFloat(w, 64)
					if err != nil {
						t.Fatalf("run line %q: %v", l, err)
					}
					walls, ran = append(walls, v), append(ran, size)
					continue
				}
				if strings.HasPrefix(l, "round ") {
					if len(walls) != 3 {
						t.Fatalf("round line %q after %d runs, want 3", l, len(walls))
					}
					want := walls[2] / ((walls[0] + walls[1]) / 2)
					_, r, _ := strings.Cut(l, "s: ")
					got, err := strconv.ParseFloat(strings.TrimSuffix(r, " times"), 64)
					if err != nil {
						t.Fatalf("round line %q: %v", l, err)
					}
					if d := got - want; d > 0.006 || d < -0.006 {
						t.Errorf("round line %q: ratio %.2f, want %.2f from its runs %v", l, got, want, walls)
					}
					ratios, walls = append(ratios, got), nil
				}
			}
			if len(ratios) != tc.wantRounds {
				t.Fatalf("%d round lines, want %d; stdout:\n%s", len(ratios), tc.wantRounds, out)
			}
			for i, s := range ran {
				if want := []string{"30", "30", "3000"}[i%3]; s != want {
					t.Errorf("run %d at %s nodes, want %s (small, small, large a round); stdout:\n%s", i, s, want, out)
				}
			}
			if tc.wantWithin == "" {
				return
			}
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			last := lines[len(lines)-1]
			sorted := slices.Clone(ratios)
			slices.Sort(sorted)
			median := sorted[len(sorted)/2]
			if len(sorted)%2 == 0 {
				median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
			}
			var listed []string
			for _, r := range ratios {
				listed = append(listed, strconv.FormatFloat(r, 'f', 2, 64))
			}
			if want := "ratios: " + strings.Join(listed, " ") + "; median " + strconv.FormatFloat(median, 'f', 2, 64) + "; " + tc.wantWithin; last != want {
				t.Errorf("last line %q, want %q", last, want)
			}
		})
	}
}
