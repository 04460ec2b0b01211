package report

import (
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/report/kubectl"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/api"
)

// TestDescribeKindsFollowThePrinter holds scenarios.DescribeKinds, the
// kinds a scenario's describe step may name (kept by hand: the scenarios
// package may not import the printers), to kubectl.Describe: it prints
// every kind on the list and refuses every other built-in kind. A kind
// the list allowed and the printer refused would fail a run half-way,
// after part of its report.
func TestDescribeKindsFollowThePrinter(t *testing.T) {
	reg := api.Builtin()
	for _, k := range reg.Kinds() {
		versions := reg.APIVersions(k)
		if len(versions) == 0 {
			t.Fatalf("%s: no API version", k)
		}
		obj, err := reg.New(versions[0], k.Name)
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		err = kubectl.Describe(io.Discard, obj, kubectl.Related{}, time.Unix(0, 0))
		listed := slices.Contains(scenarios.DescribeKinds, k)
		switch {
		case listed && err != nil:
			t.Errorf("%s is in scenarios.DescribeKinds but Describe fails: %v", k, err)
		case !listed && err == nil:
			t.Errorf("Describe prints a %s: add it to scenarios.DescribeKinds", k)
		case !listed && !errors.Is(err, kubectl.ErrUnsupportedKind):
			t.Errorf("%s: Describe failed with %v, want ErrUnsupportedKind", k, err)
		}
	}
}
