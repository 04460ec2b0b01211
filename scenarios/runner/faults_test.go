package runner_test

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/clustersim/clustersim/controllers/naive"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kernel"
)

// faultScenario: the app operator keeps one app's Deployment; the app
// changes at 20s.
const faultScenario = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: faults}
spec:
  duration: 1m30s
  network:
    default: {latency: 2ms}
  controllers:
    app-operator: {}
  objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: web, labels: {app.clustersim.dev/kind: App}}
    data: {image: "nginx:1.14.2", replicas: "2"}
  timeline:
  - at: 20s
    edit: {kind: configmap, name: web, patch: {data: {replicas: "4"}}}
`

func sec(s float64) api.Duration {
	return api.Duration{Duration: time.Duration(s * float64(time.Second))}
}

// TestFaults injects each fault type into the app operator and checks its
// effect on when the operator makes the change asked at 20s (its first
// write after 20s), and on what the run records.
func TestFaults(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault scenarios.Fault
		// write bounds the operator's first write after 20s.
		from, to time.Duration
		// entry must be among the run's entries; relists asks for a
		// relist of its informers.
		entry   string
		relists bool
	}{
		{name: "none", fault: scenarios.Fault{At: sec(80), For: sec(1), Type: scenarios.FaultCrash}, from: 20 * time.Second, to: 20500 * time.Millisecond},
		{name: "cache lag", fault: scenarios.Fault{At: sec(10), For: sec(30), Type: scenarios.FaultCacheLag, Delay: sec(5)}, from: 25 * time.Second, to: 26 * time.Second, entry: "fault: 10s cache of controller/app-operator lags by 5s for 30s"},
		{name: "partition", fault: scenarios.Fault{At: sec(15), For: sec(20), Type: scenarios.FaultPartition}, from: 35 * time.Second, to: 50 * time.Second, entry: "fault ends: partition"},
		{name: "slow API server", fault: scenarios.Fault{At: sec(15), For: sec(15), Type: scenarios.FaultSlowAPIServer, Delay: sec(2)}, from: 22 * time.Second, to: 30 * time.Second},
		{name: "everything lost", fault: scenarios.Fault{At: sec(15), For: sec(20), Type: scenarios.FaultLossy, Drop: 1}, from: 35 * time.Second, to: 60 * time.Second},
		{name: "broken watches", fault: scenarios.Fault{At: sec(15), For: sec(20), Type: scenarios.FaultBrokenWatch, StreamBreak: 1}, from: 20 * time.Second, to: 60 * time.Second, relists: true},
		{name: "crash", fault: scenarios.Fault{At: sec(15), For: sec(10), Type: scenarios.FaultCrash}, from: 25 * time.Second, to: 27 * time.Second, entry: "fault: restart controller app-operator"},
		{name: "crash after the first write", fault: scenarios.Fault{Type: scenarios.FaultCrashAfterWrites, Writes: 1, For: sec(2)}, from: 20 * time.Second, to: 20500 * time.Millisecond, entry: "fault: crash controller app-operator after its write #1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scenarios.Load("faults.yaml", ".", fstest.MapFS{}, []byte(faultScenario))
			if err != nil {
				t.Fatal(err)
			}
			var c *cluster.Cluster
			res, err := runner.Run(s, runner.Options{Faults: &scenarios.Faults{Schedule: []scenarios.Fault{tc.fault}}, OnStart: func(cl *cluster.Cluster) { c = cl }})
			if err != nil {
				t.Fatal(err)
			}
			first := time.Duration(-1)
			for _, a := range res.Audit {
				if a.Actor == naive.Actor && a.Time.Duration() > 20*time.Second {
					first = a.Time.Duration()
					break
				}
			}
			if first < tc.from || first > tc.to {
				t.Errorf("the operator's first write after 0:20 at %v; want within [%v, %v]", first, tc.from, tc.to)
			}
			if tc.entry != "" && !hasEntry(res, tc.entry) {
				t.Errorf("no entry %q among %v", tc.entry, res.Entries)
			}
			var relists uint64
			for _, m := range c.Managers() {
				if m.Name() == "app-operator" && m.Factory() != nil {
					for _, inf := range m.Factory().Informers() {
						relists += inf.Stats().Relists
					}
				}
			}
			if tc.relists != (relists > 0) {
				t.Errorf("%d relists (410 Expired); want some: %v", relists, tc.relists)
			}
			if len(res.Faults) != 1 || res.Faults[0].Target != "app-operator" {
				t.Errorf("faults %+v; want the one, aimed at the operator", res.Faults)
			}
		})
	}
}

func hasEntry(res *runner.Result, cmd string) bool {
	for _, e := range res.Entries {
		if strings.HasPrefix(e.Command, cmd) && e.Err == "" {
			return true
		}
	}
	return false
}

// TestRunMarksProgressFinished: a run publishes its progress while it
// simulates and marks it finished before gathering its results, which
// fire no event (a watchdog must not take them for a stall; at 5,000
// nodes they take seconds).
func TestRunMarksProgressFinished(t *testing.T) {
	s, err := scenarios.Load("faults.yaml", ".", fstest.MapFS{}, []byte(faultScenario))
	if err != nil {
		t.Fatal(err)
	}
	p := &kernel.Progress{}
	sawUnfinished := false
	opts := runner.Options{Progress: p, OnStart: func(c *cluster.Cluster) {
		c.K.At(kernel.Time(time.Second), func() { sawUnfinished = !p.Finished() })
	}}
	if _, err := runner.Run(s, opts); err != nil {
		t.Fatal(err)
	}
	if !sawUnfinished || p.Fired() == 0 || !p.Finished() {
		t.Fatalf("unfinished while simulating %v, events published %d, finished after the run %v", sawUnfinished, p.Fired(), p.Finished())
	}
}
