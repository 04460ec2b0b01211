package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/report"
)

const autoscaleScenario = "../../scenarios/runner/testdata/autoscale.yaml"

// TestSweepFindMin: the autoscale scenario needs the group to reach 3
// nodes for its 3 pods; with maxSize 1 or 2 every seed fails, with 3 or 4
// every seed passes, and --find-min answers 3 with the evidence of 2. The
// result does not depend on --jobs.
func TestSweepFindMin(t *testing.T) {
	t.Parallel()
	const path = "spec.cluster.nodeGroups[name=pool].autoscaling.maxSize"
	args := []string{"sweep", autoscaleScenario, "--set", path + "=1..4", "--seeds", "3", "--find-min", path, "--share", "0.4"}
	code, out, errOut := runMain(append(args, "--jobs", "1")...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"fewest " + path + ": 3 (" + path + " = 3: 3/3 seeds passed, Wilson 95% interval 43.9% to 100.0%",
		"next smaller value: " + path + " = 2: 0/3 seeds passed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	_, out2, _ := runMain(append(args, "--jobs", "3")...)
	if out2 != out {
		t.Errorf("--jobs 3 printed another result:\n%s\nwant\n%s", out2, out)
	}
}

// TestSweepJSON: the JSON carries every grid point in grid order, the
// first --set varying slowest.
func TestSweepJSON(t *testing.T) {
	code, out, errOut := runMain("sweep", autoscaleScenario, "--set", "spec.cluster.nodeGroups[0].autoscaling.maxSize=1,3",
		"--set", "spec.cluster.nodeGroups[0].autoscaling.provisioningDelay=3m,6m", "--seeds", "2", "-o", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var sw report.Sweep
	if err := json.Unmarshal([]byte(out), &sw); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range sw.Points {
		got = append(got, strings.Join(p.Values, "/")+":"+string(rune('0'+p.Passed)))
	}
	// A 6m provisioning delay misses the 6m expectation.
	want := "1/3m:0 1/6m:0 3/3m:2 3/6m:0"
	if strings.Join(got, " ") != want {
		t.Errorf("points = %v, want %s", got, want)
	}
}

// TestSweepBadInput: usage errors and values the scenario refuses exit 2
// naming the grid point.
func TestSweepBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"sweep", autoscaleScenario}, "at least one --set"},
		{[]string{"sweep", autoscaleScenario, "--set", "spec.duration"}, "want PATH=V1,V2,... or PATH=A..B"},
		{[]string{"sweep", autoscaleScenario, "--set", "spec.seed=5..1"}, "a range is A..B with integers A <= B"},
		{[]string{"sweep", autoscaleScenario, "--set", "spec.cluster.nodeGroups[0].count=1", "--find-min", "spec.seed"}, "not one of the --set paths"},
		{[]string{"sweep", autoscaleScenario, "--set", "spec.cluster.nodeGroups[0].count=1,-1", "--seeds", "1"}, "at spec.cluster.nodeGroups[0].count=-1"},
		{[]string{"sweep", autoscaleScenario, "--set", "spec.cluster.nodeGroups[3].count=1"}, "has no element [3]"},
		{[]string{"sweep", autoscaleScenario, "--set", "spec.cluster.nodeGroups[0].count=1", "--stall", "0s"}, "--stall 0s: must be positive"},
		{[]string{"sweep", autoscaleScenario, "--set", "spec.cluster.nodeGroups[0].count=1", "--stall", "-1s"}, "--stall -1s: must be positive"},
	}
	for _, tt := range tests {
		code, _, errOut := runMain(tt.args...)
		if code != exitBadInput || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tt.args, code, errOut, tt.want)
		}
	}
}
