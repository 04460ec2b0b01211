package endpointslice

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestTrackerStale: the cache is stale while it holds a slice older than
// the controller's write of it or one it is deleting, or lacks one it
// wrote; a deletion the controller made is its own, another's is not.
func TestTrackerStale(t *testing.T) {
	svc := api.Key{Namespace: "default", Name: "web"}
	slice := func(uid string, gen int64) *api.EndpointSlice {
		return &api.EndpointSlice{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web-" + uid, UID: api.UID(uid), Generation: gen,
			Labels: map[string]string{api.LabelServiceName: "web", api.LabelManagedBy: ManagedBy}}}
	}
	var tr tracker
	if tr.stale(svc, nil) || !tr.shouldSync(slice("a", 1)) {
		t.Fatal("an empty tracker: stale, or no sync for an untracked slice")
	}
	tr.update(slice("a", 2))
	tr.update(slice("b", 1))
	for _, tc := range []struct {
		name   string
		cached []*api.EndpointSlice
		stale  bool
	}{
		{"caught up", []*api.EndpointSlice{slice("a", 2), slice("b", 1)}, false},
		{"ahead (someone else wrote)", []*api.EndpointSlice{slice("a", 3), slice("b", 1)}, false},
		{"behind the controller's write", []*api.EndpointSlice{slice("a", 1), slice("b", 1)}, true},
		{"a written slice missing", []*api.EndpointSlice{slice("a", 2)}, true},
		{"an untracked slice besides", []*api.EndpointSlice{slice("a", 2), slice("b", 1), slice("c", 1)}, false},
	} {
		if got := tr.stale(svc, tc.cached); got != tc.stale {
			t.Errorf("%s: stale %v, want %v", tc.name, got, tc.stale)
		}
	}
	if tr.shouldSync(slice("a", 2)) || !tr.shouldSync(slice("a", 3)) {
		t.Error("shouldSync: the controller's own generation syncs, or a later one does not")
	}
	tr.expectDeletion(slice("b", 1))
	if !tr.stale(svc, []*api.EndpointSlice{slice("a", 2), slice("b", 1)}) || tr.stale(svc, []*api.EndpointSlice{slice("a", 2)}) {
		t.Error("a slice being deleted: stale while cached, not once gone")
	}
	if !tr.handleDeletion(slice("b", 1)) || tr.handleDeletion(slice("a", 2)) {
		t.Error("handleDeletion: the controller's deletion taken for another's, or the reverse")
	}
	tr.deleteService(svc)
	if tr.has(slice("a", 2)) || tr.stale(svc, nil) {
		t.Error("deleteService left the Service's slices tracked")
	}
}
