package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/report/lessons"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/golden/<name> at the module root, or
// rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/clustersim -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; run with -update and read the diff\ngot:\n%s", name, got)
	}
}

func runMain(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = Main(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestDemoGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		golden string
	}{
		{"table", []string{"demo", "--seed", "1"}, "demo-seed1.txt"},
		{"json", []string{"demo", "--seed", "1", "-o", "json"}, "demo-seed1.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runMain(tc.args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, errOut)
			}
			golden(t, tc.golden, []byte(out))
			// The same seed again gives the same bytes.
			if _, again, _ := runMain(tc.args...); again != out {
				t.Errorf("second run differs")
			}
		})
	}
}

func TestValidateBrokenManifests(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("..", "..", "testdata", "broken-manifests", "*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no broken manifests found: %v", err)
	}
	var all strings.Builder
	for _, p := range paths {
		code, out, errOut := runMain("validate", p)
		if code != exitBadInput {
			t.Errorf("%s: exit %d, want %d", p, code, exitBadInput)
		}
		if out != "" {
			t.Errorf("%s: printed %q on stdout", p, out)
		}
		if !strings.HasPrefix(errOut, p+":") {
			t.Errorf("%s: error does not start with the file name: %q", p, errOut)
		}
		all.WriteString(strings.ReplaceAll(errOut, filepath.Join("..", "..")+string(filepath.Separator), ""))
	}
	golden(t, "validate-broken-manifests.txt", []byte(all.String()))
}

func TestValidateExamples(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "kubernetes-docs", "*.yaml"))
	if len(paths) < 7 {
		t.Fatalf("found %d example manifests, want the 7 from the Kubernetes docs", len(paths))
	}
	code, out, errOut := runMain(append([]string{"validate"}, paths...)...)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if got := strings.Count(out, "valid\n"); got != len(paths) {
		t.Errorf("%d files reported valid, want %d:\n%s", got, len(paths), out)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"frobnicate"}, exitBadInput},
		{[]string{"run", "--seed", "x"}, exitBadInput},
		{[]string{"run", "-o", "yaml"}, exitBadInput},
		{[]string{"run", "-o", "xml"}, exitBadInput},
		{[]string{"run", "a", "b"}, exitBadInput},
		{[]string{"run", "no-such-scenario"}, exitBadInput},
		{[]string{"run", "--until", "-1s"}, exitBadInput},
		{[]string{"run", "--seeds", "0"}, exitBadInput},
		{[]string{"run", "--seeds", "-3"}, exitBadInput},
		{[]string{"run", "--seeds", "2", "--jobs", "0"}, exitBadInput},
		{[]string{"run", "--seeds", "2", "-o", "timeline"}, exitBadInput},
		{[]string{"run", "--seeds", "2", "-o", "gaps"}, exitBadInput},
		{[]string{"run", "-o", "gaps", "--sample", "0s"}, exitBadInput},
		{[]string{"lesson"}, exitBadInput},
		{[]string{"lesson", "99"}, exitBadInput},
		{[]string{"lesson", "--all", "3"}, exitBadInput},
		{[]string{"lesson", "3", "-o", "json"}, exitBadInput},
		{[]string{"lesson", "3", "--seeds", "0"}, exitBadInput},
		{[]string{"demo", "extra"}, exitBadInput},
		{[]string{"demo", "--duration", "1m"}, exitBadInput},
		{[]string{"explain"}, exitBadInput},
		{[]string{"explain", "no-such-scenario"}, exitBadInput},
		{[]string{"validate"}, exitBadInput},
		{[]string{"validate", "no/such/file.yaml"}, exitBadInput},
		{[]string{"generate"}, exitBadInput},
		{[]string{"generate", "nope"}, exitBadInput},
		{[]string{"generate", "scale", "--nodes", "2"}, exitBadInput},
		{[]string{"generate", "scale", "--pods-per-node", "0"}, exitBadInput},
		{[]string{"generate", "scale", "--scheduler-qps", "0"}, exitBadInput},
		{[]string{"generate", "scale", "--percentage-of-nodes-to-score", "101"}, exitBadInput},
		{[]string{"generate", "scale", "--percentage-of-nodes-to-score", "x"}, exitBadInput},
		{[]string{"generate", "scale", "--unpaced", "--scheduler-burst", "5"}, exitBadInput},
		{[]string{"run", "--bogus"}, exitBadInput},
		{[]string{"run", "--seeds", "abc"}, exitBadInput},
		{[]string{"run", "--seed", "-1"}, exitBadInput},
		{[]string{"run", "-f", "x"}, exitBadInput},
		{[]string{"run", "--until", "1h"}, exitBadInput},
		{[]string{"run", "--limit", "nodes"}, exitBadInput},
		{[]string{"run", "--limit", "widgets=3"}, exitBadInput},
		{[]string{"validate", "--bogus", "x.yaml"}, exitBadInput},
		{[]string{"list", "--bogus"}, exitBadInput},
		{[]string{"version", "x"}, exitBadInput},
		{[]string{"completion"}, exitBadInput},
		{[]string{"run", "--quiet", "-o", "json"}, exitBadInput},
		{[]string{"compare", "a", "b", "--bogus"}, exitBadInput},
		{[]string{"compare", "a", "b", "--seeds", "abc"}, exitBadInput},
		{[]string{"help"}, exitOK},
	}
	for _, tc := range tests {
		code, _, errOut := runMain(tc.args...)
		if code != tc.want {
			t.Errorf("%v: exit %d, want %d", tc.args, code, tc.want)
		}
		// Every usage error says what was wrong, and a flag or argument
		// error shows the command's usage too.
		if code == exitBadInput && strings.Count(strings.TrimSpace(errOut), "\n") == 0 && !strings.Contains(errOut, ":") {
			t.Errorf("%v: stderr does not say what was wrong: %q", tc.args, errOut)
		}
		if code == exitBadInput && tc.args[0] != "frobnicate" && !strings.Contains(errOut, "no such file") && !strings.Contains(errOut, "no built-in") && !strings.Contains(errOut, "Usage: clustersim "+tc.args[0]) {
			t.Errorf("%v: stderr does not show the usage:\n%s", tc.args, errOut)
		}
	}
}

// TestHelpShowsSynopsis: every command's --help starts with its synopsis
// (usageLines), then its flags; a flag set made without newFlags printed
// pflag's bare "Usage of clustersim compare:" instead.
func TestHelpShowsSynopsis(t *testing.T) {
	for name, synopsis := range usageLines {
		args := append(strings.Fields(strings.TrimPrefix(name, "clustersim ")), "--help")
		t.Run(strings.Join(args[:len(args)-1], " "), func(t *testing.T) {
			code, out, errOut := runMain(args...)
			if code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, errOut)
			}
			if help := out + errOut; !strings.HasPrefix(help, "Usage: "+synopsis+"\n") {
				t.Errorf("--help starts %q, want the synopsis %q", firstLine(help), synopsis)
			}
		})
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestDemoDurationHelp checks that the demo's help states the shortest
// --duration it accepts, and that it refuses anything shorter and says
// the same minimum.
func TestDemoDurationHelp(t *testing.T) {
	_, _, help := runMain("demo", "--help")
	m := regexp.MustCompile(`--duration duration +[^\n]*at least ([0-9a-z.]+)`).FindStringSubmatch(help)
	if m == nil {
		t.Fatalf("demo --help states no minimum --duration:\n%s", help)
	}
	least, err := time.ParseDuration(m[1])
	if err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runMain("demo", "--duration", (least - time.Second).String())
	if code != exitBadInput || !strings.Contains(errOut, "at least "+m[1]) {
		t.Errorf("demo --duration %v: exit %d, %q; want %d naming the minimum %s", least-time.Second, code, errOut, exitBadInput, m[1])
	}
}

// TestBuiltinScenarios runs every built-in scenario end to end: its
// expectations must hold (exit 0), its output must match its golden file,
// and a second run must print the same bytes.
func TestBuiltinScenarios(t *testing.T) {
	t.Parallel()
	for _, name := range scenarios.BuiltinNames() {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runMain("run", name)
			if code != exitOK {
				t.Fatalf("exit %d\n%s\n%s", code, errOut, out)
			}
			golden(t, filepath.Join("scenarios", name+".txt"), []byte(out))
			if _, again, _ := runMain("run", name); again != out {
				t.Errorf("second run printed different output")
			}
		})
	}
}

func TestRunJSON(t *testing.T) {
	code, out, errOut := runMain("run", scenarios.Default, "-o", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, filepath.Join("scenarios", scenarios.Default+".json"), []byte(out))
}

func TestListAndExplain(t *testing.T) {
	code, out, _ := runMain("list")
	if code != exitOK {
		t.Fatalf("list exit %d", code)
	}
	for _, name := range scenarios.BuiltinNames() {
		if !strings.Contains(out, name+" ") {
			t.Errorf("list does not show %s:\n%s", name, out)
		}
	}
	for n := 1; n <= 16; n++ {
		if !strings.Contains(out, fmt.Sprintf("\n%3d  ", n)) {
			t.Errorf("list does not show lesson %d", n)
		}
	}
	code, out, _ = runMain("explain", scenarios.Default)
	if code != exitOK || !strings.Contains(out, scenarios.Default+": ") {
		t.Errorf("explain: exit %d, %q", code, out)
	}
	// A lesson by number explains each of its designs, with the lesson's
	// heading and what to look at.
	code, out, _ = runMain("explain", "8")
	if code != exitOK || strings.Count(out, "Lesson 8: The defaults trap") != 2 || strings.Count(out, "What to look at") != 2 {
		t.Errorf("explain 8: exit %d\n%s", code, out)
	}
	if code, _, _ := runMain("explain", "17"); code != exitBadInput {
		t.Errorf("explain 17: exit %d, want %d", code, exitBadInput)
	}
}

// TestValidateBrokenScenarios: every broken scenario is rejected with exit
// 2 and a file:line:column error.
func TestValidateBrokenScenarios(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "broken-scenarios", "*.yaml"))
	if len(paths) < 10 {
		t.Fatalf("found %d broken scenarios", len(paths))
	}
	for _, p := range paths {
		code, out, errOut := runMain("validate", p)
		if code != exitBadInput || out != "" {
			t.Errorf("%s: exit %d, stdout %q", p, code, out)
		}
		if !strings.HasPrefix(errOut, p+":") || strings.Count(strings.SplitN(errOut, " ", 2)[0], ":") < 3 {
			t.Errorf("%s: error lacks file:line:column: %q", p, errOut)
		}
	}
}

// TestReadmeScenario runs the README's first scenario as a newcomer would:
// saved in the repository root and run by file name.
func TestReadmeScenario(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "## Your first scenario")
	if !ok {
		t.Fatal("README has no first-scenario section")
	}
	_, body, ok := strings.Cut(after, "```yaml\n")
	if !ok {
		t.Fatal("README's first scenario has no yaml block")
	}
	body, _, _ = strings.Cut(body, "```")
	path := filepath.Join("..", "..", "readme-first-scenario-test.yaml")
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(path)
	if code, out, errOut := runMain("run", path); code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, errOut, out)
	}
}

// TestReadmeExcerpts checks that the output the README quotes under
// "What make run shows" is what the default scenario prints, line for
// line (each quoted line is a whole line of the output, not a part of
// one), so the README cannot drift from the code.
func TestReadmeExcerpts(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "## What `make run` shows")
	if !ok {
		t.Fatal("README has no make-run section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	code, out, _ := runMain("run")
	if code != exitOK {
		t.Fatalf("run: exit %d", code)
	}
	printed := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		printed[line] = true
	}
	blocks := 0
	parts := strings.Split(section, "```")
	for i := 1; i < len(parts); i += 2 { // the insides of the fences
		body, isText := strings.CutPrefix(parts[i], "\n")
		if !isText {
			continue // a fence opening with a language (sh): commands, not output
		}
		blocks++
		for _, line := range strings.Split(strings.TrimRight(body, "\n"), "\n") {
			if line != "" && !printed[line] {
				t.Errorf("README quotes a line make run does not print:\n%s", line)
			}
		}
	}
	if blocks < 2 {
		t.Errorf("found %d quoted output blocks in the README's make-run section, want 2", blocks)
	}
}

// TestRunSeeds runs a scenario across seeds: the table matches its golden
// file, and the JSON summary of 100 seeds is the same bytes with
// GOMAXPROCS 1 and 2 and whatever the number of parallel runs.
func TestRunSeeds(t *testing.T) {
	code, out, errOut := runMain("run", "node-failure", "--seeds", "6", "--seed", "3")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, errOut, out)
	}
	golden(t, "seeds-node-failure.txt", []byte(out))

	var first string
	for _, tc := range []struct{ procs, jobs int }{{1, 1}, {2, 2}, {2, 5}} {
		prev := runtime.GOMAXPROCS(tc.procs)
		code, out, errOut := runMain("run", "rolling-update", "--seeds", "100", "--jobs", strconv.Itoa(tc.jobs), "-o", "json")
		runtime.GOMAXPROCS(prev)
		if code != exitOK {
			t.Fatalf("GOMAXPROCS %d, jobs %d: exit %d: %s", tc.procs, tc.jobs, code, errOut)
		}
		if first == "" {
			first = out
			golden(t, "seeds-rolling-update.json", []byte(out))
		} else if out != first {
			t.Errorf("GOMAXPROCS %d, jobs %d: summary differs from the one-at-a-time run", tc.procs, tc.jobs)
		}
	}
}

// TestRunSeedsFailure checks that a seed whose expectation fails makes the
// whole run exit 1 and names a seed to replay.
func TestRunSeedsFailure(t *testing.T) {
	// commands-vs-declaration expects the retried commands to overshoot,
	// which seed 8 does and seeds 9 and 10 do not.
	code, out, errOut := runMain("run", "commands-vs-declaration", "--seeds", "3", "--seed", "8")
	if code != exitFailed {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitFailed, errOut, out)
	}
	if !strings.Contains(errOut, "failed on 2 of 3 seeds (first: seed 9; replay with clustersim run commands-vs-declaration --seed 9)") {
		t.Errorf("stderr does not name the failing seeds:\n%s", errOut)
	}
	if !strings.Contains(out, "1/3") || !strings.Contains(out, "9 10") {
		t.Errorf("summary does not count 1 of 3 seeds passing, failing seeds 9 and 10:\n%s", out)
	}
}

// TestRunJUnit checks the JUnit XML report: one test suite per seed, one
// test case per expectation, failures carrying the detail; it parses back
// with the counts CI systems read.
func TestRunJUnit(t *testing.T) {
	code, out, errOut := runMain("run", "commands-vs-declaration", "--seeds", "2", "-o", "junit")
	if code != exitFailed {
		t.Fatalf("exit %d, want %d: %s", code, exitFailed, errOut)
	}
	golden(t, "seeds-commands-vs-declaration.junit.xml", []byte(out))
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not XML: %v", err)
	}
	if doc.Tests != 4 || doc.Failures != 1 || len(doc.Suites) != 2 || doc.Suites[1].Name != "commands-vs-declaration seed 9" {
		t.Fatalf("got %d tests, %d failures, suites %+v", doc.Tests, doc.Failures, doc.Suites)
	}
	if doc.Suites[1].Cases[1].Failure == nil || doc.Suites[0].Cases[1].Failure != nil {
		t.Errorf("the overshoot expectation should fail on seed 9 only: %+v", doc.Suites)
	}

	code, out, _ = runMain("run", "-o", "junit")
	if code != exitOK || !strings.Contains(out, `<testsuites name="clustersim" tests="6" failures="0">`) {
		t.Errorf("single run: exit %d\n%s", code, out)
	}
}

// TestRunLivelock checks that a scenario whose actors answer each other in
// zero virtual time (the defaults-trap fight on a network without latency)
// stops with a clear finding and exit 1 (the controllers misbehave; the
// input is fine) instead of running forever.
func TestRunLivelock(t *testing.T) {
	t.Parallel()
	s, err := os.ReadFile(filepath.Join("..", "..", "scenarios", "builtin", "defaults-trap.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(s), "default: {latency: 2ms, jitter: 3ms}", "default: {latency: 0s}", 1)
	// The Deployment controller's client, paced (20 QPS by default),
	// would spread the fight over virtual time: unpaced, it answers the
	// operator at once.
	src = strings.Replace(src, "naive-app-operator: {}", "naive-app-operator: {}\n    deployment: {unpaced: true}", 1)
	if !strings.Contains(src, "default: {latency: 0s}") || !strings.Contains(src, "deployment: {unpaced: true}") {
		t.Fatal("defaults-trap no longer sets a network latency or lists naive-app-operator; update this test")
	}
	path := filepath.Join(t.TempDir(), "livelock.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runMain("run", path)
	if code != exitFailed || !strings.Contains(errOut, "FAIL virtual time kept advancing: virtual time stopped advancing at 0:00") {
		t.Errorf("exit %d, want %d with a livelock finding; stderr:\n%s", code, exitFailed, errOut)
	}
}

// TestRunCSV checks the CSV report: a header and one row per expectation
// per seed, which encoding/csv reads back.
func TestRunCSV(t *testing.T) {
	code, out, errOut := runMain("run", "commands-vs-declaration", "--seeds", "2", "-o", "csv")
	if code != exitFailed {
		t.Fatalf("exit %d, want %d: %s", code, exitFailed, errOut)
	}
	golden(t, "seeds-commands-vs-declaration.csv", []byte(out))
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	if len(rows) != 5 || rows[0][0] != "scenario" {
		t.Fatalf("got %d rows, want a header and 4", len(rows))
	}
	if last := rows[4]; last[1] != "9" || last[3] != "false" || last[4] != "" {
		t.Errorf("seed 9's overshoot row = %q, want it failed with no held time", last)
	}
}

// TestRunMarkdown checks the Markdown reports of a single run and of a
// multi-seed summary against their golden files.
func TestRunMarkdown(t *testing.T) {
	tests := []struct {
		args   []string
		golden string
	}{
		{[]string{"run", "ssa-conflict", "-o", "markdown"}, "ssa-conflict.md"},
		{[]string{"run", "node-failure", "--seeds", "3", "-o", "markdown"}, "seeds-node-failure.md"},
	}
	for _, tc := range tests {
		t.Run(tc.golden, func(t *testing.T) {
			code, out, errOut := runMain(tc.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tc.golden, []byte(out))
			if !strings.HasPrefix(out, "# Scenario ") || !strings.Contains(out, "|:---") {
				t.Errorf("not a Markdown document with a table:\n%s", out)
			}
		})
	}
}

// TestRunTimeline checks one run's text timeline against its golden
// file: actions, writes by actor and gap changes, in time order.
func TestRunTimeline(t *testing.T) {
	code, out, errOut := runMain("run", "node-failure", "-o", "timeline")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "timeline-node-failure.txt", []byte(out))
	for _, want := range []string{
		"2:00.000  timeline",
		"$ kubelet on worker-1 hangs",
		"gap opens Node/worker-1: 0 → 1 (Ready=Unknown (NodeStatusUnknown))",
		"7:50.000  node-controller",
		"delete Pod default/nginx-deployment-5b86644d85-",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("timeline lacks %q", want)
		}
	}
}

// TestRunPlot checks --plot: one run writes its gap chart, a multi-seed
// run one convergence chart per cause, each as a PNG that decodes and an
// SVG, and a second run writes the same bytes.
func TestRunPlot(t *testing.T) {
	tests := []struct {
		args  []string
		files []string
	}{
		{[]string{"run", "node-failure"}, []string{"node-failure-seed1-gap"}},
		{[]string{"run", "rolling-update", "--seeds", "4"}, []string{"rolling-update-convergence-0", "rolling-update-convergence-1"}},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var first map[string][]byte
			for range 2 {
				dir := t.TempDir()
				code, _, errOut := runMain(append(tc.args, "--plot", dir)...)
				if code != exitOK {
					t.Fatalf("exit %d: %s", code, errOut)
				}
				got := map[string][]byte{}
				for _, base := range tc.files {
					for _, ext := range []string{".png", ".svg"} {
						b, err := os.ReadFile(filepath.Join(dir, base+ext))
						if err != nil {
							t.Fatal(err)
						}
						if !strings.Contains(errOut, base+ext) {
							t.Errorf("stderr does not name %s: %s", base+ext, errOut)
						}
						got[base+ext] = b
					}
					img, err := png.Decode(bytes.NewReader(got[base+".png"]))
					if err != nil || img.Bounds().Dx() < 400 {
						t.Errorf("%s.png: %v", base, err)
					}
					if !bytes.Contains(got[base+".svg"], []byte("<svg")) {
						t.Errorf("%s.svg is not SVG", base)
					}
				}
				if first == nil {
					first = got
					continue
				}
				for name, b := range got {
					if !bytes.Equal(b, first[name]) {
						t.Errorf("%s differs between two runs", name)
					}
				}
			}
		})
	}
	if code, _, _ := runMain("run", "rolling-update", "--plot", "/dev/null/x"); code != exitBadInput {
		t.Errorf("an unwritable plot directory: exit %d, want %d", code, exitBadInput)
	}
}

// TestLesson runs one lesson by each of its names on a few seeds: its
// table names both designs and every claim gets a verdict; stderr, not a
// terminal, gets nothing.
func TestLesson(t *testing.T) {
	var first string
	for _, name := range []string{"14", "optimistic-concurrency", "lost-updates"} {
		code, out, errOut := runMain("lesson", name, "--seeds", "3")
		if code != exitOK || errOut != "" {
			t.Fatalf("lesson %s: exit %d, stderr %q (no progress bar when stderr is no terminal)", name, code, errOut)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Errorf("lesson %s printed a different table than lesson 14", name)
		}
	}
	for _, want := range []string{"Lesson 14: Optimistic concurrency", "lost-updates and optimistic-concurrency over 3 seeds (1 to 3)", "lost updates", "[holds]"} {
		if !strings.Contains(first, want) {
			t.Errorf("lesson 14 lacks %q:\n%s", want, first)
		}
	}
}

// BenchmarkLessonCommands runs lesson 1 (commands vs declarations) on its
// 1,000 seeds with every core, as `clustersim lesson 1` does.
func BenchmarkLessonCommands(b *testing.B) {
	l, ok := lessons.Find("1")
	if !ok {
		b.Fatal("no lesson 1")
	}
	for b.Loop() {
		if _, _, err := runLesson(l, 1, l.SeedCount(), runtime.NumCPU(), func() {}, func(int) bool { return true }, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(l.SeedCount()*b.N)/b.Elapsed().Seconds(), "seeds/s")
}

// TestRunGapCSV checks the sampled gap series of one run against its
// golden file, and that encoding/csv reads it back as a rectangle.
func TestRunGapCSV(t *testing.T) {
	code, out, errOut := runMain("run", "node-failure", "-o", "gaps", "--sample", "15s")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "gaps-node-failure.csv", []byte(out))
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// 12 virtual minutes every 15 s: 49 samples and the header.
	if len(rows) != 50 || rows[0][0] != "seconds" || rows[0][len(rows[0])-1] != "total_judged" || rows[49][0] != "720" {
		t.Errorf("%d rows, header %v, last %v", len(rows), rows[0], rows[len(rows)-1])
	}
}

// TestReportSchema checks the JSON reports against docs/report-schema.md
// in both directions: every field the JSON holds is documented with its
// JSON type, and every documented field not marked optional is present.
func TestReportSchema(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "report-schema.md"))
	if err != nil {
		t.Fatal(err)
	}
	schemas := parseSchemaDoc(t, string(doc))
	tests := []struct {
		kind string
		runs [][]string
	}{
		// commands-vs-declaration has steps that print an error.
		// The others fill the findings and gaps: fights and flaps,
		// generation growth, hot loops, incidents and ignored kinds.
		{"Run", [][]string{{"run", "rolling-update", "-o", "json"}, {"run", "commands-vs-declaration", "-o", "json"},
			{"run", "gitops-hpa-fight", "-o", "json"}, {"run", "defaults-trap", "-o", "json"}, {"run", "no-backoff", "-o", "json"}, {"run", "node-failure", "-o", "json"}}},
		// seed 9 of commands-vs-declaration fails an expectation.
		// deployment-bad-image stopped before its rollback never converges.
		{"SeedsSummary", [][]string{{"run", "node-failure", "--seeds", "3", "-o", "json"}, {"run", "commands-vs-declaration", "--seeds", "2", "-o", "json"},
			{"run", "deployment-bad-image", "--seeds", "2", "--until", "11m", "-o", "json"}}},
		// defaults-trap never converges (baselineNever); the fixed one does.
		{"Comparison", [][]string{{"compare", "defaults-trap", "defaults-trap-fixed", "--seeds", "2", "-o", "json"}}},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			schema, ok := schemas[tc.kind]
			if !ok {
				t.Fatalf("docs/report-schema.md has no section for kind %s", tc.kind)
			}
			seen := map[string]string{}
			for _, args := range tc.runs {
				_, out, _ := runMain(args...)
				var v any
				if err := json.Unmarshal([]byte(out), &v); err != nil {
					t.Fatalf("%v: not JSON: %v", args, err)
				}
				if k := v.(map[string]any)["kind"]; k != tc.kind {
					t.Fatalf("%v: kind %v, want %s", args, k, tc.kind)
				}
				jsonPaths("", v, seen)
			}
			for _, p := range slices.Sorted(maps.Keys(seen)) {
				f, ok := schema[p]
				if !ok {
					t.Errorf("%s: field %s (%s) is not documented", tc.kind, p, seen[p])
				} else if f.typ != seen[p] {
					t.Errorf("%s: field %s is %s, documented as %s", tc.kind, p, seen[p], f.typ)
				}
			}
			for _, p := range slices.Sorted(maps.Keys(schema)) {
				if _, ok := seen[p]; !ok && !schema[p].optional {
					t.Errorf("%s: documented field %s is missing from the report", tc.kind, p)
				}
			}
		})
	}
}

type schemaField struct {
	typ      string
	optional bool
}

// parseSchemaDoc reads the "## kind: K" tables of docs/report-schema.md.
func parseSchemaDoc(t *testing.T, doc string) map[string]map[string]schemaField {
	schemas := map[string]map[string]schemaField{}
	var cur map[string]schemaField
	for _, line := range strings.Split(doc, "\n") {
		if k, ok := strings.CutPrefix(line, "## kind: "); ok {
			cur = map[string]schemaField{}
			schemas[strings.TrimSpace(k)] = cur
			continue
		}
		if strings.HasPrefix(line, "## ") {
			cur = nil
			continue
		}
		if cur == nil || !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			t.Fatalf("schema row %q: want | path | type | meaning |", line)
		}
		path := strings.Trim(strings.TrimSpace(cells[1]), "`")
		meaning := strings.TrimSpace(cells[3])
		cur[path] = schemaField{typ: strings.TrimSpace(cells[2]), optional: strings.HasPrefix(meaning, "optional")}
	}
	return schemas
}

// jsonPaths records the JSON type of every path in v; array elements are
// "path[]".
func jsonPaths(prefix string, v any, out map[string]string) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch x := v.(type) {
	case map[string]any:
		if prefix != "" {
			out[prefix] = "object"
		}
		for k, e := range x {
			jsonPaths(join(k), e, out)
		}
	case []any:
		out[prefix] = "array"
		for _, e := range x {
			jsonPaths(prefix+"[]", e, out)
		}
	case string:
		out[prefix] = "string"
	case float64:
		out[prefix] = "number"
	case bool:
		out[prefix] = "boolean"
	case nil:
		out[prefix] = "null"
	}
}

// TestInternalErrorExit3 checks that a run that breaks one of the
// simulator's invariants (a panic outside any reconciler) exits 3 and
// names the scenario and seed to replay, one run or many.
func TestInternalErrorExit3(t *testing.T) {
	saved := runScenario
	defer func() { runScenario = saved }()
	runScenario = func(*scenarios.Scenario, runner.Options) (*runner.Result, error) {
		panic("kernel invariant one-runner: planted by the test")
	}
	for _, args := range [][]string{{"run", "rolling-update", "--seed", "4"}, {"run", "rolling-update", "--seeds", "2", "--seed", "4"}} {
		code, _, errOut := runMain(args...)
		if code != exitInternal {
			t.Errorf("%v: exit %d, want %d; stderr:\n%s", args, code, exitInternal, errOut)
		}
		if !strings.Contains(errOut, "internal error running rolling-update") || !strings.Contains(errOut, "seed") || !strings.Contains(errOut, "planted by the test") {
			t.Errorf("%v: stderr does not name the scenario, the seed and the cause:\n%s", args, errOut)
		}
	}
}
