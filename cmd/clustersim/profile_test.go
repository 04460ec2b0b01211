package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/cluster"
)

// TestProfilesFromEnvironment runs a command under each whole-command
// profile the environment can ask for and checks that the file holds
// what its reader expects (a gzipped pprof profile, an execution trace's
// header, the memory classes' CSV header), and that a path that cannot
// be created is reported while the command still runs.
func TestProfilesFromEnvironment(t *testing.T) {
	tests := []struct {
		env   string
		magic []byte
	}{
		{cpuProfileEnv, []byte{0x1f, 0x8b}},
		{execTraceEnv, []byte("go 1.")},
		{memClassesEnv, []byte("seconds,heap_objects_mib,heap_unused_mib,")},
	}
	for _, tc := range tests {
		t.Run(tc.env, func(t *testing.T) {
			got := profiledDemo(t, tc.env)
			if !bytes.HasPrefix(got, tc.magic) {
				t.Errorf("%s wrote %d bytes starting %q, want a file starting %q", tc.env, len(got), got[:min(len(got), 8)], tc.magic)
			}
		})
		t.Run(tc.env+"/bad-path", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "missing", "out")
			t.Setenv(tc.env, path)
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			saved := os.Stderr
			os.Stderr = w
			stop := startProfiles()
			os.Stderr = saved
			w.Close()
			var msg bytes.Buffer
			msg.ReadFrom(r)
			code, _, errOut := runMain("demo", "--seed", "1")
			stop()
			if code != exitOK {
				t.Fatalf("exit %d, stderr %s", code, errOut)
			}
			if !strings.Contains(msg.String(), tc.env) || !strings.Contains(msg.String(), "missing") {
				t.Errorf("stderr %q does not name %s and the path", msg.String(), tc.env)
			}
		})
	}
}

// TestMemClassesRows: the memory classes' CSV has a row at the end of a
// command however short, each row a number for every column, the
// collector's goal and the live heap among them in MiB.
func TestMemClassesRows(t *testing.T) {
	got := profiledDemo(t, memClassesEnv)
	lines := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(lines) < 2 {
		t.Fatalf("%d lines, want a header and at least one row:\n%s", len(lines), got)
	}
	for _, l := range lines[1:] {
		fields := strings.Split(l, ",")
		if len(fields) != len(memClassColumns)+1 {
			t.Fatalf("row %q has %d fields, want %d", l, len(fields), len(memClassColumns)+1)
		}
		for i, f := range fields {
			if _, err := strconv.ParseFloat(f, 64); err != nil {
				t.Fatalf("row %q, field %d: %v", l, i, err)
			}
		}
	}
	last := strings.Split(lines[len(lines)-1], ",")
	if last[6] == "0" || last[1] == "0" {
		t.Errorf("the last row gives no heap objects or no goal: %q", lines[len(lines)-1])
	}
	// In MiB: a goal in bytes is at least 4 MiB, 4,194,304.
	if goal, _ := strconv.Atoi(last[6]); goal >= 1<<20 {
		t.Errorf("the goal is %d: bytes, not MiB", goal)
	}
}

// profiledDemo runs `clustersim demo --seed 1` with env naming a file in
// a temporary directory, and returns what the command wrote to it.
func profiledDemo(t *testing.T, env string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out")
	t.Setenv(env, path)
	stop := startProfiles()
	code, _, errOut := runMain("demo", "--seed", "1")
	stop()
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestProfileWindowFromEnvironment reads CLUSTERSIM_PROFILE_WINDOW: a
// duration of at least a second, beside CLUSTERSIM_CPUPROFILE, is the
// window; unset is none; anything else, and a window without a CPU
// profile, is reported and is none, the run going on unlabelled.
func TestProfileWindowFromEnvironment(t *testing.T) {
	tests := []struct {
		value, cpuProfile string
		want              time.Duration
		reported          bool
	}{
		{"", "cpu.prof", 0, false},
		{"", "", 0, false},
		{"5m", "cpu.prof", 5 * time.Minute, false},
		{"90s", "cpu.prof", 90 * time.Second, false},
		{"1s", "cpu.prof", time.Second, false},
		{"999ms", "cpu.prof", 0, true},
		{"bogus", "cpu.prof", 0, true},
		{"0s", "cpu.prof", 0, true},
		{"-5m", "cpu.prof", 0, true},
		// A window without a CPU profile would label nothing anyone
		// reads: said, and not set.
		{"5m", "", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.value+","+tt.cpuProfile, func(t *testing.T) {
			t.Setenv(windowEnv, tt.value)
			t.Setenv(cpuProfileEnv, tt.cpuProfile)
			var stderr bytes.Buffer
			if got := profileWindow(&stderr); got != tt.want {
				t.Errorf("profileWindow = %v, want %v", got, tt.want)
			}
			if reported := strings.Contains(stderr.String(), windowEnv); reported != tt.reported {
				t.Errorf("stderr %q: reported %v, want %v", stderr.String(), reported, tt.reported)
			}
		})
	}
}

// TestRunScenarioTakesProfileWindow: every command's simulation, through
// runScenario, gets the window the environment gave at start-up, not
// only `clustersim run`'s (a sweep's or a lesson's profile would be
// unlabelled with no word said).
func TestRunScenarioTakesProfileWindow(t *testing.T) {
	saved := profileWindowSet
	defer func() { profileWindowSet = saved }()
	s, err := scenarios.Builtin("unschedulable-pod")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []time.Duration{0, 5 * time.Minute} {
		profileWindowSet = w
		var got time.Duration = -1
		if _, err := runScenario(s, runner.Options{OnStart: func(c *cluster.Cluster) { got = c.K.ProfileWindow() }}); err != nil {
			t.Fatal(err)
		}
		if got != w {
			t.Errorf("with the window %v set, the simulation's kernel had %v", w, got)
		}
	}
}
