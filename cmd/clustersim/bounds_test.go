package main

import (
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestParseSetRange: a range A..B expands to its integers without
// overflowing at the ends of int, and a range of more than maxGridPoints
// values is refused before anything is allocated, however far apart its
// ends are.
func TestParseSetRange(t *testing.T) {
	tests := []struct {
		set  string
		want []string // nil: refused
		err  string
	}{
		{"spec.seed=1..3", []string{"1", "2", "3"}, ""},
		{"spec.seed=-2..-1", []string{"-2", "-1"}, ""},
		{"spec.seed=9223372036854775806..9223372036854775807", []string{"9223372036854775806", "9223372036854775807"}, ""},
		{"spec.seed=-9223372036854775808..-9223372036854775807", []string{"-9223372036854775808", "-9223372036854775807"}, ""},
		{"spec.seed=1..10000", nil, ""},
		{"spec.seed=1..10001", nil, "10001 values, at most 10000"},
		{"spec.seed=-4611686018427387904..4611686018427387904", nil, "9223372036854775809 values, at most 10000"},
		{"spec.seed=-9223372036854775808..9223372036854775807", nil, "18446744073709551616 values, at most 10000"},
		{"spec.seed=3..1", nil, "a range is A..B with integers A <= B"},
		{"spec.nosuch=1..3", nil, `spec has no field "nosuch"`},
	}
	for _, tt := range tests {
		t.Run(tt.set, func(t *testing.T) {
			ax, err := parseSet(tt.set)
			switch {
			case tt.err != "":
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("err = %v, want %q (%d values)", err, tt.err, len(ax.values))
				}
			case err != nil:
				t.Errorf("err = %v", err)
			case tt.want != nil && !slices.Equal(ax.values, tt.want):
				t.Errorf("values = %v, want %v", ax.values, tt.want)
			case tt.want == nil && len(ax.values) != maxGridPoints:
				t.Errorf("%d values, want %d", len(ax.values), maxGridPoints)
			}
		})
	}
}

// TestMergeForgedShards: a shard file whose header cannot be true (a
// negative, huge or inconsistent unit count, a shard outside its count,
// no command) is refused, naming the file and the field, before merge
// allocates anything by it or runs the command.
func TestMergeForgedShards(t *testing.T) {
	const head = `{"format":"clustersim-shard/v1","args":["run","rolling-update","--seeds","4"],`
	tests := []struct {
		name  string
		files []string
		want  string
	}{
		{"negative units", []string{head + `"shard":0,"of":1,"units":-5,"runs":[]}`}, `"units": -5`},
		{"huge units", []string{head + `"shard":0,"of":1,"units":100000000000,"runs":[]}`}, `"units": 100000000000`},
		{"huge of", []string{head + `"shard":0,"of":1000000000000,"units":4,"runs":[]}`}, "missing shard(s) 1/1000000000000, 2/1000000000000"},
		{"zero of", []string{head + `"shard":0,"of":0,"units":4,"runs":[]}`}, `"of": 0`},
		{"shard past of", []string{head + `"shard":3,"of":2,"units":4,"runs":[]}`}, `"shard": 3`},
		{"negative shard", []string{head + `"shard":-1,"of":2,"units":4,"runs":[]}`}, `"shard": -1`},
		{"no command", []string{`{"format":"clustersim-shard/v1","args":[],"shard":0,"of":1,"units":0,"runs":[]}`}, `"args"`},
		{"units without runs", []string{head + `"shard":0,"of":1,"units":4,"runs":[]}`}, `"units": 4, but the shards hold 0 runs`},
		{"units against --seeds", []string{head + `"shard":0,"of":1,"units":1,"runs":[{"unit":0,"result":{}}]}`}, `"units": 1, but the command makes 4 runs`},
		{"run without --seeds", []string{`{"format":"clustersim-shard/v1","args":["run","rolling-update"],"shard":0,"of":1,"units":1,"runs":[{"unit":0,"result":{}}]}`}, `"args": run without --seeds`},
		{"lesson units", []string{`{"format":"clustersim-shard/v1","args":["lesson","3","--seeds","2"],"shard":0,"of":1,"units":1,"runs":[{"unit":0,"measures":[1]}]}`}, `"units": 1, but the command makes 2 runs`},
		{"sweep units", []string{`{"format":"clustersim-shard/v1","args":["sweep","` + autoscaleScenario + `","--set","spec.cluster.nodeGroups[0].count=1","--seeds","2"],"shard":0,"of":1,"units":1,"runs":[{"unit":0,"result":{}}]}`}, `"units": 1, but the command makes 2 runs`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var paths []string
			for i, f := range tt.files {
				p := filepath.Join(dir, "shard-"+string(rune('0'+i))+".json")
				if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
					t.Fatal(err)
				}
				paths = append(paths, p)
			}
			code, out, errOut := runMain(append([]string{"merge"}, paths...)...)
			if code != exitBadInput || !strings.Contains(errOut, tt.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tt.want)
			}
			if tt.want[0] == '"' && !strings.Contains(errOut, paths[0]) {
				t.Errorf("stderr %q does not name the file %s", errOut, paths[0])
			}
		})
	}
}

// TestCommandLineBounds: flags asking for more than a run can give
// (seeds past the cap or past the largest seed, a gap series of too many
// rows, a pace that is not a number) and output files that cannot be
// written are refused with exit 2, naming the flag, before anything runs
// or prints.
func TestCommandLineBounds(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "afile")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	kc := filepath.Join(dir, "kubeconfig")
	const maxSeed = "18446744073709551615"
	count := "--set=spec.cluster.nodeGroups[0].count=1"
	maxSize := "spec.cluster.nodeGroups[0].autoscaling.maxSize"
	jobs := strconv.Itoa(16*runtime.NumCPU() + 1)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "rolling-update", "--seeds", "10000000000"}, "--seeds 10000000000: at most 100000"},
		{[]string{"list", "extra"}, `unexpected argument "extra"`},
		{[]string{"run", "rolling-update", "--seeds", "2", "--jobs", jobs}, "--jobs " + jobs + ": want 1 to"},
		{[]string{"compare", "rolling-update", "rolling-update", "--seeds", "2", "--jobs", jobs}, "--jobs " + jobs + ": want 1 to"},
		{[]string{"sweep", autoscaleScenario, count, "--seeds", "2", "--jobs", jobs}, "--jobs " + jobs + ": want 1 to"},
		{[]string{"lesson", "3", "--seeds", "2", "--jobs", jobs}, "--jobs " + jobs + ": want 1 to"},
		{[]string{"compare", "rolling-update", "rolling-update", "--seeds", "10000000000"}, "--seeds 10000000000: at most 100000"},
		{[]string{"sweep", autoscaleScenario, count, "--seeds", "10000000000"}, "--seeds 10000000000: at most 100000"},
		{[]string{"lesson", "1", "--seeds", "100000000000"}, "--seeds 100000000000: at most 100000"},
		{[]string{"lesson", "--all", "--seeds", "100000"}, "runs, at most 1000000"},
		{[]string{"sweep", autoscaleScenario, "--set", "spec.cluster.nodeGroups[0].count=1..1000", "--seeds", "10000"}, "1000 grid points x --seeds 10000 are 10000000 runs, at most 1000000"},
		{[]string{"run", "rolling-update", "--seed", maxSeed, "--seeds", "3"}, "--seed " + maxSeed + " --seeds 3: seeds past the largest"},
		{[]string{"compare", "rolling-update", "rolling-update", "--seed", maxSeed, "--seeds", "3"}, "--seed " + maxSeed + " --seeds 3: seeds past the largest"},
		{[]string{"sweep", autoscaleScenario, count, "--seed", maxSeed, "--seeds", "3"}, "--seed " + maxSeed + " --seeds 3: seeds past the largest"},
		{[]string{"lesson", "3", "--seed", maxSeed, "--seeds", "3"}, "--seed " + maxSeed + " --seeds 3: seeds past the largest"},
		{[]string{"run", "rolling-update", "-o", "gaps", "--sample", "1ns"}, "--sample 1ns: -o gaps would print 300000000001 rows"},
		{[]string{"run", "rolling-update", "-o", "gaps", "--until", "1s", "--sample", "1us"}, "--sample 1µs: -o gaps would print 1000001 rows"},
		{[]string{"serve", "rolling-update", "--speed", "NaN", "--kubeconfig", kc}, "--speed NaN"},
		{[]string{"serve", "rolling-update", "--speed", "Inf", "--kubeconfig", kc}, "--speed +Inf"},
		{[]string{"serve", "rolling-update", "--speed", "1e308", "--kubeconfig", kc}, "--speed 1e+308"},
		{[]string{"serve", "rolling-update", "--speed", "-1", "--kubeconfig", kc}, "--speed -1"},
		{[]string{"serve", "rolling-update", "--record", "/nonexistent/x.yaml", "--for", "1s", "--speed", "100", "--kubeconfig", kc}, "--record /nonexistent/x.yaml"},
		{[]string{"serve", "rolling-update", "--record", dir, "--for", "1s", "--speed", "100", "--kubeconfig", kc}, "is a directory"},
		{[]string{"sweep", autoscaleScenario, "--set", maxSize + "=1,2", "--seeds", "1", "--find-min", maxSize, "--share", "NaN"}, "--share NaN"},
		{[]string{"sweep", autoscaleScenario, "--set", maxSize + "=1,2", "--seeds", "1", "--find-min", maxSize, "--share", "Inf"}, "--share +Inf"},
		{[]string{"run", "rolling-update", "-q", "--html", "/nonexistent/dir/x.html"}, "--html /nonexistent/dir/x.html: directory /nonexistent/dir does not exist"},
		{[]string{"run", "rolling-update", "-q", "--html", "-"}, "--html -: give a file name"},
		{[]string{"run", "rolling-update", "-q", "--html", dir, "--seeds", "1"}, "is a directory"},
		{[]string{"run", "rolling-update", "-q", "--plot", file}, "--plot " + file + ": " + file + " is not a directory"},
		{[]string{"run", "rolling-update", "-q", "--plot", filepath.Join(file, "sub"), "--seeds", "1"}, "--plot " + filepath.Join(file, "sub") + ": " + file + " is not a directory"},
		{[]string{"run", "rolling-update", "-q", "--html", filepath.Join(file, "x.html")}, "--html " + filepath.Join(file, "x.html") + ": " + file + " is not a directory"},
		{[]string{"sweep", autoscaleScenario, count, "--seeds", "1", "--plot", file}, "--plot " + file},
		{[]string{"lesson", "2", "--seeds", "1", "--html", "/nonexistent/x.html"}, "--html /nonexistent/x.html: directory /nonexistent does not exist"},
		{[]string{"generate", "scale", "--nodes", "100000000000"}, "--nodes 100000000000: at most 1000000"},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(strings.Join(tt.args, " "), dir, "DIR"), func(t *testing.T) {
			code, out, errOut := runMain(tt.args...)
			if code != exitBadInput || !strings.Contains(errOut, tt.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, nothing printed, and %q", code, out, errOut, tt.want)
			}
		})
	}
	// A device is written as before, not opened to try it.
	if code, _, errOut := runMain("run", "rolling-update", "-q", "--html", os.DevNull); code != exitOK {
		t.Errorf("--html %s: exit %d, %q", os.DevNull, code, errOut)
	}
	if _, err := os.Stat(kc); err == nil {
		t.Errorf("serve wrote %s though it refused its flags", kc)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the checks left files behind in %s: %v", dir, entries)
	}
}

// TestPaceTarget: the pace's target virtual time grows with the wall
// clock at its speed, and saturates instead of wrapping to a negative
// time when wall time times speed passes what a Duration holds.
func TestPaceTarget(t *testing.T) {
	wall0 := time.Unix(0, 0)
	tests := []struct {
		speed   float64
		elapsed time.Duration
		virt0   time.Duration
		want    time.Duration
	}{
		{1, time.Second, 0, time.Second},
		{20, time.Second, time.Minute, time.Minute + 20*time.Second},
		{0.5, time.Second, 0, 500 * time.Millisecond},
		{maxSpeed, time.Second, 0, 1e6 * time.Second},
		{maxSpeed, 3 * time.Hour, 0, math.MaxInt64},
		{maxSpeed, time.Hour, math.MaxInt64 - time.Second, math.MaxInt64},
	}
	for _, tt := range tests {
		p := &pace{speed: tt.speed, wall0: wall0, virt0: tt.virt0}
		if got := p.target(wall0.Add(tt.elapsed)); got != tt.want {
			t.Errorf("speed %g from virtual %v, %v of wall time later: target %v, want %v", tt.speed, tt.virt0, tt.elapsed, got, tt.want)
		}
	}
}

// TestServeSpeedControl: POST /clustersim/speed takes the same speeds as
// --speed (above 0 here, since pause has its own request) and refuses
// the rest without changing the pace.
func TestServeSpeedControl(t *testing.T) {
	tests := []struct {
		x    string
		code int
	}{
		{"20", http.StatusOK},
		{"1000000", http.StatusOK},
		{"0", http.StatusBadRequest},
		{"-1", http.StatusBadRequest},
		{"NaN", http.StatusBadRequest},
		{"Inf", http.StatusBadRequest},
		{"1e308", http.StatusBadRequest},
		{"x", http.StatusBadRequest},
	}
	for _, tt := range tests {
		p := &pace{speed: 1}
		h := control("t", p, &loop{done: make(chan struct{})}, nil)
		req := httptest.NewRequest(http.MethodPost, "/clustersim/speed?x="+tt.x, nil)
		req.Header.Set("Authorization", "Bearer t")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.code {
			t.Errorf("?x=%s: status %d, want %d (%s)", tt.x, rec.Code, tt.code, rec.Body)
		}
		if tt.code != http.StatusOK && p.speed != 1 {
			t.Errorf("?x=%s changed the speed to %v", tt.x, p.speed)
		}
	}
}
