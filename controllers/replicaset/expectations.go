package replicaset

import (
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/client"
)

// ExpectationsTimeout is how long a controller waits for the creates and
// deletes it expects before it syncs anyway (k/k controller_utils.go
// ExpectationsTimeout, 5 minutes): a lost watch event must not put a
// ReplicaSet to sleep forever.
const ExpectationsTimeout = 5 * time.Minute

// Expectations records, per controller key ("namespace/name"), how many
// pod creations and deletions a controller is still waiting to observe
// through its informer, and which pods it expects to see deleted
// (upstream's ControllerExpectations wrapped in
// UIDTrackingControllerExpectations). A controller acts on a key again
// only when its expectations are satisfied: both counts are at or below
// zero, or ExpectationsTimeout has passed since they were set.
//
// Expectations are plain memory of one controller incarnation: a crash
// forgets them, and the restarted controller, having none, syncs at once,
// as a restarted kube-controller-manager does. The zero value is not
// usable; build one with NewExpectations. Not safe for concurrent use,
// which the simulation never needs.
type Expectations struct {
	clock client.PassiveClock
	// counts holds the add/del counters per controller key.
	counts map[string]*expectation
	// deleting holds, per controller key, the pod keys whose deletion is
	// expected, so that a pod seen first with a deletionTimestamp and then
	// gone is counted once.
	deleting map[string]map[string]struct{}
}

// expectation is one controller's pending creates and deletes.
type expectation struct {
	add, del int64
	// at is when the expectation was set, for ExpectationsTimeout.
	at time.Time
}

// NewExpectations returns empty expectations that take time from clock.
func NewExpectations(clock client.PassiveClock) *Expectations {
	return &Expectations{clock: clock, counts: map[string]*expectation{}, deleting: map[string]map[string]struct{}{}}
}

// Get returns the pending creations and deletions of key, and whether key
// has expectations at all.
func (e *Expectations) Get(key string) (add, del int64, ok bool) {
	x, ok := e.counts[key]
	if !ok {
		return 0, 0, false
	}
	return x.add, x.del, true
}

// Satisfied reports whether the controller of key may act: it has no
// expectations, they are fulfilled (both counts ≤ 0), or they were set
// more than ExpectationsTimeout ago.
func (e *Expectations) Satisfied(key string) bool {
	x, ok := e.counts[key]
	if !ok {
		// A new controller, or one whose expectations were deleted: sync.
		return true
	}
	if x.add <= 0 && x.del <= 0 {
		return true
	}
	return e.clock.Since(x.at) > ExpectationsTimeout
}

// Set replaces the expectations of key with add creations and del
// deletions, timestamped now.
func (e *Expectations) Set(key string, add, del int) {
	e.counts[key] = &expectation{add: int64(add), del: int64(del), at: e.clock.Now()}
}

// ExpectCreations expects adds creations for key (and no deletions).
func (e *Expectations) ExpectCreations(key string, adds int) { e.Set(key, adds, 0) }

// ExpectDeletions expects the deletion of each pod in podKeys
// ("namespace/name") for key, replacing any deletions expected before.
func (e *Expectations) ExpectDeletions(key string, podKeys []string) {
	set := make(map[string]struct{}, len(podKeys))
	for _, k := range podKeys {
		set[k] = struct{}{}
	}
	e.deleting[key] = set
	e.Set(key, 0, len(set))
}

// Lower decrements the expectations of key, if it has any. Counts may go
// below zero: an extra observation (a duplicated create) satisfies them
// all the same.
func (e *Expectations) Lower(key string, add, del int) {
	if x, ok := e.counts[key]; ok {
		x.add -= int64(add)
		x.del -= int64(del)
	}
}

// Raise increments the expectations of key, if it has any.
func (e *Expectations) Raise(key string, add, del int) { e.Lower(key, -add, -del) }

// CreationObserved records one observed (or abandoned) creation for key.
func (e *Expectations) CreationObserved(key string) { e.Lower(key, 1, 0) }

// DeletionObserved records the deletion of pod podKey for key; it counts
// only once per pod, and only for pods whose deletion key expects.
func (e *Expectations) DeletionObserved(key, podKey string) {
	set := e.deleting[key]
	if _, ok := set[podKey]; !ok {
		return
	}
	delete(set, podKey)
	e.Lower(key, 0, 1)
}

// Deleting returns the pod keys whose deletion key still expects, sorted.
func (e *Expectations) Deleting(key string) []string {
	set, ok := e.deleting[key]
	if !ok {
		return nil
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Delete forgets every expectation of key, so that a controller re-created
// under the same name starts clean.
func (e *Expectations) Delete(key string) {
	delete(e.counts, key)
	delete(e.deleting, key)
}
