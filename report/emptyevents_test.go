package report

import (
	"bytes"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// TestEmptyEventListings: with no events, `kubectl events` names the
// namespace it looked in, and `kubectl get events` answers as get does
// for any empty namespaced list.
func TestEmptyEventListings(t *testing.T) {
	now := time.Unix(0, 0)
	for _, tc := range []struct {
		name string
		snap runner.Snapshot
		want string
	}{
		{"events -n team", runner.Snapshot{What: "events", Kind: api.KindEvent, Namespace: "team", Now: now}, "No events found in team namespace.\n"},
		{"events", runner.Snapshot{What: "events", Kind: api.KindEvent, Namespace: "default", Now: now}, "No events found in default namespace.\n"},
		{"get events -n team", runner.Snapshot{What: "get", Kind: api.KindEvent, Namespace: "team", Now: now}, "No resources found in team namespace.\n"},
		{"get events -A", runner.Snapshot{What: "get", Kind: api.KindEvent, AllNamespaces: true, Now: now}, "No resources found\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := snapshot(&b, &tc.snap); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got %q, want %q", b.String(), tc.want)
			}
		})
	}
}
