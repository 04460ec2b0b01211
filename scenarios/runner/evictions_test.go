package runner_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/nodelifecycle"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// evictionScenario runs a zone-a of a nodes and a zone-b of b nodes
// (one pod each), and crashes the first crashA of zone-a and the first
// crashB of zone-b at 2m; the run ends at end. settings are
// spec.cluster's eviction settings, in flow style ("" for none).
func evictionScenario(a, b, crashA, crashB int, end time.Duration, settings string) string {
	var s strings.Builder
	fmt.Fprintf(&s, `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: eviction-pacing}
spec:
  duration: %s
  measure: {ignore: [Node]}
  cluster:
    %s
    nodeGroups:
    - {name: zone-a, count: %d, capacity: {cpu: "8", memory: 32Gi}, labels: {topology.kubernetes.io/zone: zone-a}}
    - {name: zone-b, count: %d, capacity: {cpu: "8", memory: 32Gi}, labels: {topology.kubernetes.io/zone: zone-b}}
%s  timeline:
`, end, settings, a, b, webObjects(a+b))
	for i := 1; i <= crashA; i++ {
		fmt.Fprintf(&s, "  - {at: 2m, crashNode: zone-a-%d}\n", i)
	}
	for i := 1; i <= crashB; i++ {
		fmt.Fprintf(&s, "  - {at: 2m, crashNode: zone-b-%d}\n", i)
	}
	return s.String()
}

// TestEvictionPacing checks the report's account of how the node
// lifecycle controller paced the NoExecute taints of lost nodes, zone by
// zone, against upstream's rules (ComputeZoneState, setLimiterInZone):
// the state each zone entered and its rate, and the nodes tainted, whose
// number and spacing the test computes from that rate (a token bucket of
// burst 1: one node at once, then one every 1/rate seconds).
func TestEvictionPacing(t *testing.T) {
	const end = 12 * time.Minute
	tests := []struct {
		name                 string
		settings             string // spec.cluster's eviction settings
		a, b, crashA, crashB int
		state                string  // zone-a's state once its nodes are lost
		rate                 float64 // zone-a's tainting rate then
		all                  bool    // every zone fully disrupted
		reportedB            bool    // zone-b is reported too
	}{
		// 3 of 20 not Ready (15%, under --unhealthy-zone-threshold 0.55):
		// --node-eviction-rate.
		{name: "normal zone", a: 20, b: 5, crashA: 3, state: "Normal", rate: nodelifecycle.DefaultEvictionRate},
		// 40 of 60 (67%): partially disrupted, larger than
		// --large-cluster-size-threshold: --secondary-node-eviction-rate.
		{name: "large zone partially disrupted", a: 60, b: 5, crashA: 40, state: "PartialDisruption", rate: nodelifecycle.DefaultSecondaryEvictionRate},
		// 8 of 10: partially disrupted and small: no taints at all.
		{name: "small zone partially disrupted", a: 10, b: 5, crashA: 8, state: "PartialDisruption", rate: 0},
		// Every node of zone-a, not of zone-b: fully disrupted, at
		// --node-eviction-rate.
		{name: "zone fully disrupted", a: 4, b: 5, crashA: 4, state: "FullDisruption", rate: nodelifecycle.DefaultEvictionRate},
		// Every node of every zone: the control plane is presumed at
		// fault and nothing is tainted.
		{name: "every zone fully disrupted", a: 4, b: 3, crashA: 4, crashB: 3, state: "FullDisruption", rate: 0, all: true, reportedB: true},
		// spec.cluster's settings, as kube-controller-manager's flags.
		{name: "secondaryNodeEvictionRate 0.05", settings: "secondaryNodeEvictionRate: 0.05", a: 60, b: 5, crashA: 40, state: "PartialDisruption", rate: 0.05},
		{name: "largeClusterSizeThreshold 0", settings: "largeClusterSizeThreshold: 0", a: 10, b: 5, crashA: 8, state: "PartialDisruption", rate: nodelifecycle.DefaultSecondaryEvictionRate},
		{name: "unhealthyZoneThreshold 0.9", settings: "unhealthyZoneThreshold: 0.9", a: 10, b: 5, crashA: 8, state: "Normal", rate: nodelifecycle.DefaultEvictionRate},
		{name: "nodeEvictionRate 0.5", settings: "nodeEvictionRate: 0.5", a: 20, b: 5, crashA: 3, state: "Normal", rate: 0.5},
		{name: "nodeEvictionRate 0", settings: "nodeEvictionRate: 0", a: 20, b: 5, crashA: 3, state: "Normal", rate: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := scenarios.Load("eviction.yaml", ".", nil, []byte(evictionScenario(tt.a, tt.b, tt.crashA, tt.crashB, end, tt.settings)))
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(s, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			zones := map[string]runner.ZoneEvictions{}
			for _, e := range res.Evictions {
				zones[e.Zone] = e
			}
			if _, ok := zones["zone-b"]; ok != tt.reportedB {
				t.Errorf("zone-b reported: %v, want %v (%+v)", ok, tt.reportedB, res.Evictions)
			}
			z, ok := zones["zone-a"]
			if !ok {
				t.Fatalf("zone-a not reported: %+v", res.Evictions)
			}
			if z.Size != tt.a || z.NotReadyAtEnd != tt.crashA {
				t.Errorf("zone-a: %d nodes, %d not Ready at the end; want %d and %d", z.Size, z.NotReadyAtEnd, tt.a, tt.crashA)
			}
			if len(z.Phases) == 0 {
				t.Fatal("zone-a: no phase")
			}
			p := z.Phases[len(z.Phases)-1]
			if p.State != tt.state || p.Rate != tt.rate || p.AllDisrupted != tt.all {
				t.Fatalf("zone-a's last phase %+v, want %s at %v nodes/s (every zone disrupted: %v)", p, tt.state, tt.rate, tt.all)
			}
			// The nodes lost are Unknown the grace period (50 s) after
			// their last lease renewal (at most 10 s before the crash),
			// at a pass: the phase starts within a minute of that.
			lost := 2*time.Minute + nodelifecycle.DefaultGracePeriod - 10*time.Second
			if p.From < lost || p.From > lost+time.Minute {
				t.Errorf("zone-a entered %s at %v, want within a minute of the grace period's end", p.State, p.From)
			}
			if tt.rate == 0 {
				if z.Tainted != 0 {
					t.Errorf("%d nodes tainted at rate 0", z.Tainted)
				}
				return
			}
			// The first node at once, then one every 1/rate seconds until
			// the run's end or the lost nodes run out.
			every := time.Duration(float64(time.Second) / tt.rate)
			want := min(tt.crashA, 1+int((end-z.First)/every))
			if z.Tainted != want {
				t.Errorf("%d nodes tainted from %v to the end (%v) at %v nodes/s, want %d", z.Tainted, z.First, end, tt.rate, want)
			}
			// The first at the tainting pass after the one that found the
			// nodes lost: within a monitor period, or the rate's interval.
			if within := max(every, nodelifecycle.DefaultMonitorPeriod); z.First < p.From || z.First > p.From+within {
				t.Errorf("first taint at %v, want within %v of %v", z.First, within, p.From)
			}
			if got, want := z.Last-z.First, time.Duration(z.Tainted-1)*every; math.Abs(float64(got-want)) > float64(time.Second) {
				t.Errorf("%d taints over %v, want %v at %v nodes/s", z.Tainted, got, want, tt.rate)
			}
		})
	}
}
