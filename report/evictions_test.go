package report

import (
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
)

// TestEvictionLine checks a zone's eviction pacing line: each phase's
// rate and the setting behind it, the taints, and what the last rate
// leaves of the not-Ready nodes.
func TestEvictionLine(t *testing.T) {
	min := func(m int) time.Duration { return time.Duration(m) * time.Minute }
	tests := []struct {
		name string
		e    runner.ZoneEvictions
		want string
	}{
		{"a partially disrupted large zone", runner.ZoneEvictions{Zone: "zone-a", Size: 1000,
			Phases:  []runner.ZonePhase{{From: min(20) + 40*time.Second, State: "Normal", NotReady: 2, Rate: 0.1, Large: true}, {From: min(25) + 54*time.Second, State: "PartialDisruption", NotReady: 990, Rate: 0.01, Large: true}},
			Tainted: 21, First: min(25) + 54*time.Second, Last: min(59) + 14*time.Second, NotReadyAtEnd: 990},
			"zone-a, 1000 nodes: 20:40 Normal, 2 not Ready: NoExecute taints at 0.1 nodes/s, one every 10s (--node-eviction-rate); " +
				"25:54 PartialDisruption, 990 not Ready: NoExecute taints at 0.01 nodes/s, one every 1m40s (--secondary-node-eviction-rate: a partially disrupted zone of more than --large-cluster-size-threshold nodes); " +
				"21 nodes tainted, 25:54 to 59:14; 990 not Ready at the end, the other 969 some 26h55m0s more at that rate"},
		{"a small one", runner.ZoneEvictions{Zone: "zone-a", Size: 10,
			Phases:  []runner.ZonePhase{{From: min(2) + 45*time.Second, State: "PartialDisruption", NotReady: 8}},
			Tainted: 0, NotReadyAtEnd: 8},
			"zone-a, 10 nodes: 2:45 PartialDisruption, 8 not Ready: no NoExecute taints (a partially disrupted zone of at most --large-cluster-size-threshold nodes); no node tainted; 8 not Ready at the end, 8 of them not tainted at that rate"},
		{"a large one at --secondary-node-eviction-rate 0", runner.ZoneEvictions{Zone: "zone-a", Size: 60,
			Phases:        []runner.ZonePhase{{From: min(2) + 45*time.Second, State: "PartialDisruption", NotReady: 40, Large: true}},
			NotReadyAtEnd: 40},
			"zone-a, 60 nodes: 2:45 PartialDisruption, 40 not Ready: no NoExecute taints (--secondary-node-eviction-rate 0); no node tainted; 40 not Ready at the end, 40 of them not tainted at that rate"},
		{"every zone down", runner.ZoneEvictions{Zone: "", Size: 3,
			Phases:        []runner.ZonePhase{{From: min(2) + 45*time.Second, State: "FullDisruption", NotReady: 3, AllDisrupted: true}},
			NotReadyAtEnd: 3},
			"nodes without a zone label, 3 nodes: 2:45 FullDisruption, 3 not Ready: no NoExecute taints (every zone fully disrupted: the control plane, not the nodes, is presumed at fault); no node tainted; 3 not Ready at the end, 3 of them not tainted at that rate"},
		{"all tainted", runner.ZoneEvictions{Zone: "zone-a", Size: 1,
			Phases:  []runner.ZonePhase{{From: min(2) + 45*time.Second, State: "FullDisruption", NotReady: 1, Rate: 0.1}},
			Tainted: 1, First: min(2) + 50*time.Second, Last: min(2) + 50*time.Second, NotReadyAtEnd: 1},
			"zone-a, 1 node: 2:45 FullDisruption, 1 not Ready: NoExecute taints at 0.1 nodes/s, one every 10s (--node-eviction-rate); 1 node tainted at 2:50; 1 not Ready at the end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := evictionLine(&tt.e); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	// More than nine zones: eight lines and a sum.
	var es []runner.ZoneEvictions
	for i := range 12 {
		es = append(es, runner.ZoneEvictions{Zone: string(rune('a' + i)), Size: 5, Tainted: 1, NotReadyAtEnd: 2,
			Phases: []runner.ZonePhase{{State: "Normal", NotReady: 2, Rate: 0.1}}})
	}
	var b strings.Builder
	evictionsText(&b, es, 300)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 10 || lines[9] != "  and 4 more zones: 4 nodes tainted, 8 not Ready at the end" {
		t.Errorf("%d lines, the last %q", len(lines), lines[len(lines)-1])
	}
}
