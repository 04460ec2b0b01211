package runner_test

import (
	"testing"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// TestHeartbeatsCounted runs the node-failure built-in keeping the
// heartbeats and counting them: the run is the same (trace hash, write
// total, every record that is not a heartbeat), and counting keeps none
// of the heartbeats.
func TestHeartbeatsCounted(t *testing.T) {
	res := map[string]*runner.Result{}
	for _, policy := range []string{scenarios.HeartbeatsKeep, scenarios.HeartbeatsCount} {
		s, err := scenarios.Builtin("node-failure")
		if err != nil {
			t.Fatal(err)
		}
		s.Spec.Measure.Heartbeats = policy
		if res[policy], err = runner.Run(s, runner.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	keep, count := res[scenarios.HeartbeatsKeep], res[scenarios.HeartbeatsCount]
	if keep.TraceHash != count.TraceHash || keep.Writes != count.Writes {
		t.Errorf("counting changed the run: trace %s, %d writes; kept: trace %s, %d writes", count.TraceHash[:16], count.Writes, keep.TraceHash[:16], keep.Writes)
	}
	if keep.Heartbeats.Total() != 0 {
		t.Errorf("keeping, %+v heartbeats were counted", keep.Heartbeats)
	}
	h := count.Heartbeats
	if h.LeaseRenewals == 0 || h.NodeStatus == 0 || len(count.Audit)+h.Total() != len(keep.Audit) {
		t.Fatalf("counted %+v and kept %d records of %d", h, len(count.Audit), len(keep.Audit))
	}
	i := 0
	for _, r := range keep.Audit {
		if r.Heartbeat() {
			continue
		}
		if got := count.Audit[i].String(); got != r.String() {
			t.Fatalf("record %d: %s, kept: %s", i, got, r.String())
		}
		i++
	}
}
