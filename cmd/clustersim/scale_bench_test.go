package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios"
)

// TestGenerateScale checks that `generate scale` prints a scenario that
// validates.
func TestGenerateScale(t *testing.T) {
	code, out, errOut := runMain("generate", "scale", "--nodes", "30")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	file := filepath.Join(t.TempDir(), "scale.yaml")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runMain("validate", file); code != exitOK {
		t.Fatalf("validate: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "name: scale-30") || strings.Count(out, "crashNode:") != 1 || !strings.Contains(out, "controllerManager: one-process\n") {
		t.Errorf("unexpected scenario:\n%s", out)
	}
}

// TestGenerateScaleRefuses checks that `generate scale` refuses what it
// cannot honour with exit 2 and one line that names the flag, the
// command named once.
func TestGenerateScaleRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--nodes", "2"}, "clustersim generate scale: --nodes 2: at least 3 (one per zone)\n"},
		{[]string{"--nodes", "30", "--crash-percent", "0"}, "clustersim generate scale: --crash-percent 0: want 1 to 33 (the probe crashes at least one node at 20 minutes, all in zone-a)\n"},
		{[]string{"--nodes", "30", "--crash-percent", "34"}, "clustersim generate scale: --crash-percent 34: want 1 to 33 (the probe crashes at least one node at 20 minutes, all in zone-a)\n"},
		{[]string{"--nodes", "30", "--updates-batch-period", "1s"}, "clustersim generate scale: --updates-batch-period needs --services: without Services the endpoints controllers have no pod changes to batch\n"},
		{[]string{"--nodes", "30", "--services", "--updates-batch-period", "-1s"}, "clustersim generate scale: --updates-batch-period -1s: must not be negative\n"},
		{[]string{"--nodes", "30", "--controller-manager", "one"}, "clustersim generate scale: --controller-manager \"one\": want one-process or per-controller\n"},
	} {
		code, out, errOut := runMain(append([]string{"generate", "scale"}, tc.args...)...)
		if code != exitBadInput || out != "" || !strings.HasPrefix(errOut, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q first", tc.args, code, out, errOut, exitBadInput, tc.want)
		}
	}
}

// TestGenerateScaleNotes: a probe whose pacing cannot get its pods
// through before its expectation is still printed (exit 0, the same
// document), with a note on standard error naming the flag to raise; a
// probe that can has none.
func TestGenerateScaleNotes(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "" for no note
	}{
		{[]string{"--nodes", "300"}, ""},
		{[]string{"--nodes", "3000"}, "clustersim generate scale: note: the ReplicaSet controller's client (20 QPS, burst 30) needs at least 1h14m59s to create the 90000 pods, past the expectation at 59m0s, which will fail; it needs --qps 26 at the least\n"},
		{[]string{"--nodes", "3000", "--qps", "200", "--burst", "300"}, ""},
	} {
		code, out, errOut := runMain(append([]string{"generate", "scale"}, tc.args...)...)
		if code != exitOK || errOut != tc.want || !strings.HasPrefix(out, "apiVersion: clustersim.dev/v1alpha1\n") {
			t.Errorf("%v: exit %d, stderr %q, stdout starting %.40q; want exit 0, stderr %q and the document", tc.args, code, errOut, out, tc.want)
		}
	}
}

// BenchmarkScaleRun runs the whole scale probe (`clustersim generate scale
// --nodes N`, then `clustersim run` on it, report included) for one
// virtual hour at each size. `make bench-scale` runs it (SCALE=300 for
// one size); `make bench` and `make test` leave it out, it is slow. It
// sets the process up as main does (setUpProcess), so that it measures
// what `clustersim run` does. The figures and the machine are in docs/PERFORMANCE.md.
//
// "nodes=5000,qps=200" is the 5,000-node probe with its controllers paced
// at 200 QPS, burst 300, and its scheduler at 300 QPS, burst 400
// (`generate scale --qps 200 --burst 300 --scheduler-qps 300
// --scheduler-burst 400`): at kube-controller-manager's 20 QPS the
// ReplicaSet controller cannot create all 150,000 pods within the hour,
// and at kube-scheduler's 50 the binds alone take 50 minutes. `make bench-scale
// SCALE=5000,qps=200` runs it; the default SCALE leaves it out.
// "nodes=300,services" puts each Deployment behind a Service (`generate
// scale --services`; `make bench-scale SCALE=300,services`), which the
// default SCALE leaves out too. "nodes=N,qps=200,spread,anti=preferred"
// (N 300 or 3000) gives the paced probe's Deployments placement rules
// (`generate scale --spread --anti-affinity preferred`; `make bench-scale
// SCALE=3000,qps=200,spread,anti=preferred`). "nodes=10000,qps=200" is
// the paced probe past run's caps (run with --limit nodes=10000 --limit
// pods=300000), whose live heap outgrows the collector's memory limit:
// its limit-raises/op is the governor's work (memlimit.go; `make
// bench-scale SCALE=10000,qps=200`, some 2.5 minutes).
func BenchmarkScaleRun(b *testing.B) {
	paced := scenarios.ScaleProbe{QPS: 200, Burst: 300, SchedulerQPS: 300, SchedulerBurst: 400}
	placed := paced
	placed.Spread, placed.AntiAffinity = true, scenarios.AntiAffinityPreferred
	sized := func(p scenarios.ScaleProbe, nodes int) scenarios.ScaleProbe { p.Nodes = nodes; return p }
	for _, probe := range []scenarios.ScaleProbe{{Nodes: 300}, {Nodes: 1000}, {Nodes: 5000}, sized(paced, 5000), sized(paced, 10000), {Nodes: 300, Services: true}, sized(placed, 300), sized(placed, 3000)} {
		nodes := probe.Nodes
		name := fmt.Sprintf("nodes=%d", nodes)
		if probe.QPS > 0 {
			name += fmt.Sprintf(",qps=%g", probe.QPS)
		}
		if probe.Services {
			name += ",services"
		}
		if probe.Spread {
			name += ",spread"
		}
		if probe.AntiAffinity != "" {
			name += ",anti=" + probe.AntiAffinity
		}
		b.Run(name, func(b *testing.B) {
			data, err := scenarios.ScaleYAML(probe)
			if err != nil {
				b.Fatal(err)
			}
			file := filepath.Join(b.TempDir(), "scale.yaml")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				b.Fatal(err)
			}
			defer setUpProcess()() // as `clustersim run` has it
			before := cpuClasses()
			raises := func() int {
				if g := governor.Load(); g != nil {
					return g.raisesSoFar()
				}
				return 0
			}
			raisedBefore := raises()
			// Past run's default caps, the --limit flags the generator's
			// note names.
			args := append([]string{"run", file}, scenarios.ScaleLimitArgs(probe)...)
			for b.Loop() {
				if code := Main(args, io.Discard, io.Discard); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
			after := cpuClasses()
			b.ReportMetric(float64(nodes*30), "pods")
			// Raises of the collector's memory limit (memlimit.go): 0
			// for a probe whose live heap fits under gcMemoryLimit, as
			// every one here does; the 4 GiB the 5,000-node probe is
			// held to assumes it.
			b.ReportMetric(float64(raises()-raisedBefore)/float64(b.N), "limit-raises/op")
			// The runtime's own split of the processors' time: Go code
			// (the mutator: the simulation, assists excluded) and the
			// collector's workers and assists. Which of the two a slow
			// run lost its time in (PERFORMANCE, thirteenth pass: in
			// runs of one binary both vary).
			for i, unit := range []string{"mutator-s/op", "gc-s/op"} {
				b.ReportMetric((after[i]-before[i])/float64(b.N), unit)
			}
		})
	}
}

// cpuClasses returns the CPU seconds the runtime has counted so far for
// Go code (the mutator) and for the garbage collector (its workers and
// the assists it put on goroutines).
func cpuClasses() [2]float64 {
	samples := []metrics.Sample{{Name: "/cpu/classes/user:cpu-seconds"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}}
	metrics.Read(samples)
	var out [2]float64
	for i, s := range samples {
		if s.Value.Kind() == metrics.KindFloat64 {
			out[i] = s.Value.Float64()
		}
	}
	return out
}

// TestScaleLimitArgs: the --limit arguments scenarios.ScaleLimitArgs
// gives a probe past run's caps are what lets it through (validate, as
// run, refuses it without them: exit 2), and a probe within the caps
// needs none. BenchmarkScaleRun runs its 10,000-node probe with them.
func TestScaleLimitArgs(t *testing.T) {
	for _, tt := range []struct {
		probe scenarios.ScaleProbe
		want  int // arguments
	}{
		{scenarios.ScaleProbe{Nodes: 5000}, 0},
		{scenarios.ScaleProbe{Nodes: 5000, PodsPerNode: 31}, 2},
		{scenarios.ScaleProbe{Nodes: 10000}, 4},
	} {
		data, err := scenarios.ScaleYAML(tt.probe)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "scale.yaml")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		args := scenarios.ScaleLimitArgs(tt.probe)
		if len(args) != tt.want {
			t.Errorf("%+v: %q, want %d arguments", tt.probe, args, tt.want)
		}
		if code, _, errOut := runMain(append([]string{"validate", file}, args...)...); code != exitOK {
			t.Errorf("%+v: validate with %q: exit %d: %s", tt.probe, args, code, errOut)
		}
		if tt.want > 0 {
			if code, _, _ := runMain("validate", file); code != exitBadInput {
				t.Errorf("%+v: validate without the limits: exit %d, want %d", tt.probe, code, exitBadInput)
			}
		}
	}
}
