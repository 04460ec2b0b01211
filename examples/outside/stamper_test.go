package stamper_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"example.com/outside"
	"github.com/clustersim/clustersim/harness"
	"github.com/clustersim/clustersim/sim/api"
)

// stamped holds at the end: every labelled ConfigMap carries the right
// stamp.
var stamped = harness.Invariant{Name: "every labelled ConfigMap is stamped", Check: func(s harness.State) error {
	for _, o := range s.List(api.KindConfigMap, "") {
		cm := o.(*api.ConfigMap)
		if cm.Labels["stamp"] != "yes" {
			continue
		}
		if got, want := cm.Annotations[stamper.Annotation], strconv.Itoa(len(cm.Data)); got != want {
			return fmt.Errorf("configmap %s: stamp %q, want %q", cm.Name, got, want)
		}
	}
	return nil
}}

// TestStamper runs the scenario that names the controller, over a lossy
// network and through crashes.
func TestStamper(t *testing.T) {
	vs := harness.Test(t, "testdata/stamper.yaml", harness.Config{
		Seeds:      8,
		Profiles:   []string{"lossy", "crashes"},
		Eventually: []harness.Invariant{stamped},
		Stable:     20 * time.Second,
	})
	if len(vs) != 8 {
		t.Errorf("%d verdicts, want 8", len(vs))
	}
	for _, v := range vs {
		if len(v.Faults) != 5 {
			t.Errorf("seed %d: %d faults, want 5 (lossy's 2, crashes' 3)", v.Seed, len(v.Faults))
		}
	}
}
