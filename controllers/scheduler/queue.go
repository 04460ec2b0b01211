package scheduler

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// podQueue is the scheduler's record of the pending pods it tracks, by
// key, with two indexes over it: the parked pods (upstream's
// unschedulable pool) and the parked pods with placement rules. Moving
// the pool back to the queue after a cluster event then costs what it
// moves, not the number of pods tracked: while thousands of pods wait to
// be scheduled, each binding's informer event would otherwise scan them
// all.
//
// A queued's parked and placement fields are changed only through
// park, unpark and setPlacement, which keep the indexes in step.
type podQueue struct {
	pods map[api.Key]*queued
	// parked holds the pods with parked set; placement those of them
	// with placement set too.
	parked    map[api.Key]*queued
	placement map[api.Key]*queued
	// buf is reused by the sorted views; their result is valid until
	// the next call of either.
	buf []*queued
}

func newPodQueue() *podQueue {
	return &podQueue{pods: map[api.Key]*queued{}, parked: map[api.Key]*queued{}, placement: map[api.Key]*queued{}}
}

// get returns the pod tracked under key, nil if none.
func (pq *podQueue) get(key api.Key) *queued { return pq.pods[key] }

// add tracks a new, unparked q under key.
func (pq *podQueue) add(key api.Key, q *queued) {
	pq.remove(key)
	q.key = key
	q.parked = false
	pq.pods[key] = q
}

// remove forgets the pod tracked under key, if any.
func (pq *podQueue) remove(key api.Key) {
	if _, ok := pq.pods[key]; !ok {
		return
	}
	delete(pq.pods, key)
	delete(pq.parked, key)
	delete(pq.placement, key)
}

// tracked reports whether q is the pod tracked under its key: a
// scheduling attempt blocks in its API calls, and the pod may be deleted
// (and forgotten) meanwhile.
func (pq *podQueue) tracked(q *queued) bool { return pq.pods[q.key] == q }

// park puts q in the unschedulable pool at now; a q no longer tracked is
// marked but not indexed, as nothing moves it any more.
func (pq *podQueue) park(q *queued, now time.Time) {
	q.parked, q.parkedAt = true, now
	if !pq.tracked(q) {
		return
	}
	pq.parked[q.key] = q
	if q.placement {
		pq.placement[q.key] = q
	}
}

// unpark takes q out of the unschedulable pool.
func (pq *podQueue) unpark(q *queued) {
	q.parked = false
	if !pq.tracked(q) {
		return
	}
	delete(pq.parked, q.key)
	delete(pq.placement, q.key)
}

// setPlacement records whether q's pod has placement rules.
func (pq *podQueue) setPlacement(q *queued, placement bool) {
	q.placement = placement
	if !pq.tracked(q) {
		return
	}
	if q.parked && placement {
		pq.placement[q.key] = q
	} else {
		delete(pq.placement, q.key)
	}
}

// parkedInMoveOrder returns the parked pods but except (the zero key:
// none) in the order MoveAllToActiveOrBackoffQueue moves them: higher
// priority first, then the longest parked, then by key. The slice is
// reused by the next call.
func (pq *podQueue) parkedInMoveOrder(except api.Key) []*queued {
	ps := pq.buf[:0]
	for k, q := range pq.parked {
		if k != except {
			ps = append(ps, q)
		}
	}
	slices.SortFunc(ps, compareMoveOrder)
	pq.buf = ps
	return ps
}

// parkedWithPlacement returns the parked pods with placement rules by
// key. The slice is reused by the next call.
func (pq *podQueue) parkedWithPlacement() []*queued {
	ps := pq.buf[:0]
	for _, q := range pq.placement {
		ps = append(ps, q)
	}
	slices.SortFunc(ps, compareKey)
	pq.buf = ps
	return ps
}

// release drops the pointers a sorted view left in the reused buffer, so
// that forgotten pods are not kept alive by it.
func (pq *podQueue) release() {
	clear(pq.buf)
	pq.buf = pq.buf[:0]
}

func compareMoveOrder(a, b *queued) int {
	return cmp.Or(cmp.Compare(b.priority, a.priority), a.parkedAt.Compare(b.parkedAt), compareKey(a, b))
}

func compareKey(a, b *queued) int {
	return cmp.Or(strings.Compare(a.key.Namespace, b.key.Namespace), strings.Compare(a.key.Name, b.key.Name))
}
