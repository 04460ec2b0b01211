package runner_test

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestAutoscalerScalesUpAndDown: one 2-CPU node, a Deployment of 1.5-CPU
// pods scaled from 1 to 3 at 1m. The autoscaler asks for two nodes at its
// next scan (1:10), they join after the group's 3m provisioning delay
// (4:10), and the pods stay Pending until then. Scaled back to 1 at 12m,
// the two nodes are empty within a second (nginx exits on SIGTERM in a
// tenth of a second) and are removed when they have been unneeded for the
// default 10m, at the autoscaler's next 10s scan: not before 22:00, and
// by 22:30.
func TestAutoscalerScalesUpAndDown(t *testing.T) {
	doc, err := os.ReadFile("testdata/autoscale.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res := runPlacement(t, string(doc))
	var up, joined time.Duration
	var downs []time.Duration
	for _, e := range res.Entries {
		switch {
		case strings.HasPrefix(e.Command, "cluster-autoscaler scale-up: pool 1->3 (max: 4)"):
			up = e.At
		case strings.HasPrefix(e.Command, "cloud: 2 machine(s) of pool provisioned after 3m0s"):
			joined = e.At
		case strings.HasPrefix(e.Command, "cluster-autoscaler scale-down: node pool-"):
			downs = append(downs, e.At)
			if !strings.Contains(e.Command, "unneeded for 10m0s") {
				t.Errorf("scale-down before the unneeded time: %s", e.Command)
			}
		}
	}
	if up < time.Minute || up > time.Minute+10*time.Second {
		t.Errorf("scale-up at %s, want within one 10s scan of 1m0s", up)
	}
	if joined != up+3*time.Minute {
		t.Errorf("nodes joined at %s, want the scale-up (%s) plus the 3m provisioning delay", joined, up)
	}
	if len(downs) != 2 || downs[0] < 22*time.Minute || downs[0] > 22*time.Minute+30*time.Second {
		t.Errorf("scale-downs at %v, want both idle nodes removed 10m after they emptied (22:00 to 22:30)", downs)
	}
}
