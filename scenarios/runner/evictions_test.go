package runner_test

import (
	"fmt"
	"math"
	"slices"
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
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: %d
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx:1.25, resources: {requests: {cpu: 10m, memory: 16Mi}}}]}
  timeline:
`, end, settings, a, b, a+b)
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

// TestTaintingBesideHealthPass checks that the node lifecycle
// controller's NoExecute tainting goes on while its health pass is held
// up, as upstream's two loops do. Its client runs at 1 QPS, burst 1, and
// it taints at 0.02 nodes/s (one every 50 s). zone-a loses 5 nodes at 2m
// (10 pods each): the pass that finds them marks their pods not ready
// for some 100 s, the next queues them for tainting. It loses 5 more at
// 4m: the pass that finds those marks their 50 pods not ready, some 100 s
// again, while the first five's taints fall due. They must be written
// during that pass; a health pass that tainted at its end wrote none
// then.
func TestTaintingBesideHealthPass(t *testing.T) {
	var s strings.Builder
	s.WriteString(`apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: tainting-beside-health-pass}
spec:
  duration: 9m
  measure: {ignore: [Node]}
  controllers:
    node-lifecycle: {qps: 1, burst: 1}
  cluster:
    nodeEvictionRate: 0.02
    nodeGroups:
    - {name: zone-a, count: 30, capacity: {cpu: "8", memory: 32Gi}, labels: {topology.kubernetes.io/zone: zone-a}}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 300
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx:1.25, resources: {requests: {cpu: 10m, memory: 16Mi}}}]}
  timeline:
`)
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&s, "  - {at: 2m, crashNode: zone-a-%d}\n", i)
	}
	for i := 6; i <= 10; i++ {
		fmt.Fprintf(&s, "  - {at: 4m, crashNode: zone-a-%d}\n", i)
	}
	sc, err := scenarios.Load("tainting.yaml", ".", nil, []byte(s.String()))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(sc, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// When the second five were found lost (the first Ready condition
	// set Unknown after 4m), and when the first five were tainted.
	var lostAt time.Duration
	var taints []time.Duration
	for _, r := range res.Audit {
		if r.Actor != nodelifecycle.Actor || r.Kind.Name != "Node" {
			continue
		}
		for c := range r.EachChange() {
			switch {
			case strings.HasPrefix(c.Path, "spec.taints") && c.New == "NoExecute" && slices.Contains([]string{"zone-a-1", "zone-a-2", "zone-a-3", "zone-a-4", "zone-a-5"}, r.Key.Name):
				taints = append(taints, r.Time.Duration())
			case lostAt == 0 && r.Time.Duration() > 4*time.Minute && c.Path == "status.conditions[Ready].status" && c.New == "Unknown":
				lostAt = r.Time.Duration()
			}
		}
	}
	// The span of the pass that marks the second five's pods not ready.
	var marked []time.Duration
	for _, r := range res.Audit {
		if r.Actor == nodelifecycle.Actor && r.Kind.Name == "Pod" && r.Subresource == "status" && r.Time.Duration() >= lostAt {
			marked = append(marked, r.Time.Duration())
		}
	}
	if lostAt == 0 || len(marked) < 40 {
		t.Fatalf("second loss found at %v, %d pods marked after it: the scenario does not hold the health pass up", lostAt, len(marked))
	}
	if len(taints) != 5 {
		t.Errorf("%d of the first five lost nodes tainted NoExecute by the end (at %v), want all five, one every 50 s", len(taints), taints)
	}
	from, to := marked[0], marked[len(marked)-1]
	during := 0
	for _, at := range taints {
		if at > from && at < to {
			during++
		}
	}
	if during < 1 {
		t.Errorf("no NoExecute taint while the health pass marked pods not ready from %v to %v (taints at %v), want the tainting to go on beside it", from, to, taints)
	}
}
