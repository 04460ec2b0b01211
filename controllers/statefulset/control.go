package statefulset

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// podControl is what the control loop does to the cluster (upstream's
// StatefulPodControl): each call records its events. The controller's is
// the API client; the tests' an in-memory fake.
type podControl interface {
	// createPod creates the pod's missing claims, then the pod.
	createPod(ctx context.Context, set *api.StatefulSet, p *api.Pod) error
	// deletePod deletes the pod.
	deletePod(ctx context.Context, set *api.StatefulSet, p *api.Pod) error
	// updatePod restores the pod's identity and storage, creating missing
	// claims, and the claims' owner references.
	updatePod(ctx context.Context, set *api.StatefulSet, p *api.Pod) error
	// createMissingClaims creates the claims of a pending pod that are gone.
	createMissingClaims(ctx context.Context, set *api.StatefulSet, p *api.Pod) error
	// claimsMatchRetentionPolicy: every claim's owner references are as
	// set's retention policy wants (claims not found match).
	claimsMatchRetentionPolicy(set *api.StatefulSet, p *api.Pod) bool
	// updateClaimsForRetentionPolicy fixes the claims' owner references.
	updateClaimsForRetentionPolicy(ctx context.Context, set *api.StatefulSet, p *api.Pod) error
	// claimIsStale: a claim of the pod is being deleted (upstream's
	// PodClaimIsStale: it must be gone before the pod is created again).
	claimIsStale(set *api.StatefulSet, p *api.Pod) bool
}

// control is upstream's defaultStatefulSetControl.updateStatefulSet: one
// pass over a set's pods at its current and update revisions.
type control struct {
	pc  podControl
	now time.Time
}

// update brings pods towards set and returns the status to write
// (upstream's updateStatefulSet). currentSet and updateSet are set with
// the templates of the current and update revisions.
func (c *control) update(ctx context.Context, set, currentSet, updateSet *api.StatefulSet, currentRevision, updateRevision string, collisionCount int32, pods []*api.Pod) (*api.StatefulSetStatus, error) {
	minReady := set.Spec.MinReadySeconds
	st := &api.StatefulSetStatus{ObservedGeneration: set.Generation, CurrentRevision: currentRevision, UpdateRevision: updateRevision, CollisionCount: &collisionCount}
	c.updateStatus(st, minReady, currentRevision, updateRevision, pods)

	replicaCount := replicasOf(set)
	replicas := make([]*api.Pod, replicaCount)
	var condemned []*api.Pod
	start, end := getStartOrdinal(set), getEndOrdinal(set)
	for _, p := range pods {
		switch o := getOrdinal(p); {
		case podInOrdinalRange(p, set):
			replicas[o-start] = p
		case o >= 0:
			condemned = append(condemned, p)
		}
	}
	for ord := start; ord <= end; ord++ {
		if replicas[ord-start] == nil {
			replicas[ord-start] = newVersionedStatefulSetPod(currentSet, updateSet, currentRevision, updateRevision, ord)
		}
	}
	// Descending ordinals.
	slices.SortStableFunc(condemned, func(a, b *api.Pod) int { return getOrdinal(b) - getOrdinal(a) })

	var firstUnavailable *api.Pod
	for _, p := range replicas {
		if isUnavailable(p, minReady, c.now) && firstUnavailable == nil {
			firstUnavailable = p
		}
	}
	for i := len(condemned) - 1; i >= 0; i-- {
		if isUnavailable(condemned[i], minReady, c.now) && firstUnavailable == nil {
			firstUnavailable = condemned[i]
		}
	}
	if set.DeletionTimestamp != nil {
		return st, nil
	}
	monotonic := !allowsBurst(set)
	both := func() { c.updateStatus(st, minReady, currentRevision, updateRevision, replicas, condemned) }

	if exit, err := runForAll(replicas, func(i int) (bool, error) {
		return c.processReplica(ctx, set, updateSet, monotonic, replicas, i)
	}, monotonic); exit || err != nil {
		both()
		return st, err
	}
	if exit, err := runForAll(condemned, func(i int) (bool, error) {
		if !c.pc.claimsMatchRetentionPolicy(updateSet, condemned[i]) {
			if err := c.pc.updateClaimsForRetentionPolicy(ctx, updateSet, condemned[i]); err != nil {
				return true, err
			}
		}
		return false, nil
	}, monotonic); exit || err != nil {
		both()
		return st, err
	}
	if exit, err := runForAll(condemned, func(i int) (bool, error) {
		return c.processCondemned(ctx, set, firstUnavailable, monotonic, condemned, i)
	}, monotonic); exit || err != nil {
		both()
		return st, err
	}
	both()
	if set.Spec.UpdateStrategy.Type == api.OnDeleteStatefulSetStrategyType {
		return st, nil
	}
	return c.rollingUpdate(ctx, set, replicas, updateRevision, st)
}

// rollingUpdate deletes pods at another revision than the update one,
// highest ordinal first, down to the partition, at most maxUnavailable
// unavailable at once (upstream's updateStatefulSetAfterInvariantEstablished,
// MaxUnavailableStatefulSet being on by default since 1.35).
func (c *control) rollingUpdate(ctx context.Context, set *api.StatefulSet, replicas []*api.Pod, updateRevision string, st *api.StatefulSetStatus) (*api.StatefulSetStatus, error) {
	updateMin, maxUnavailable := 0, 1
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		if ru.Partition != nil {
			updateMin = int(*ru.Partition)
		}
		var err error
		if maxUnavailable, err = getStatefulSetMaxUnavailable(ru.MaxUnavailable, len(replicas)); err != nil {
			return st, err
		}
	}
	unavailable := 0
	for _, p := range replicas {
		if isUnavailable(p, set.Spec.MinReadySeconds, c.now) {
			unavailable++
		}
	}
	if unavailable > maxUnavailable {
		return st, nil
	}
	toDelete, deleted := maxUnavailable-unavailable, 0
	for target := len(replicas) - 1; target >= updateMin && deleted < toDelete; target-- {
		if getPodRevision(replicas[target]) != updateRevision && !isTerminating(replicas[target]) {
			if err := c.pc.deletePod(ctx, set, replicas[target]); err != nil && !errors.Is(err, apierr.ErrNotFound) {
				return st, err
			}
			deleted++
			st.CurrentReplicas--
		}
	}
	return st, nil
}

// MaxBatchSize caps a batch of runForAll in burst mode (upstream's
// MaxBatchSize).
const MaxBatchSize = 500

// runForAll runs fn over pods (upstream's runForAll). Monotonic: in
// order, stopping at the first that blocks or fails. Burst: in slow-start
// batches of 1, 2, 4, ... (at most MaxBatchSize) calls, ignoring whether a
// call blocks; every call of a batch runs even when one fails, and no
// batch starts after one with a failure (upstream's slowStartBatch, whose
// batches run in parallel goroutines; here their calls run in order, with
// the same calls made). A batch's errors come back as upstream's
// aggregate: the one error, or "[e1, e2]" for several.
func runForAll(pods []*api.Pod, fn func(i int) (bool, error), monotonic bool) (bool, error) {
	if monotonic {
		for i := range pods {
			if exit, err := fn(i); exit || err != nil {
				return true, err
			}
		}
		return false, nil
	}
	j := 0
	for batch, remaining := min(len(pods), 1), len(pods); batch > 0; batch = min(2*batch, remaining, MaxBatchSize) {
		var errs []error
		for range batch {
			if _, err := fn(j); err != nil {
				errs = append(errs, err)
			}
			j++
		}
		if len(errs) > 0 {
			return true, aggregate(errs)
		}
		remaining -= batch
	}
	return false, nil
}

// aggregate is utilerrors.NewAggregate's error for errs (not empty): the
// error itself when it is alone, else the distinct messages in brackets.
// A single error is returned as is, so errors.Is still sees through it.
func aggregate(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	var msgs []string
	for _, e := range errs {
		if m := e.Error(); !slices.Contains(msgs, m) {
			msgs = append(msgs, m)
		}
	}
	msg := msgs[0] // several errors of one message print it once
	if len(msgs) > 1 {
		msg = "[" + strings.Join(msgs, ", ") + "]"
	}
	return &aggregateError{errs: errs, msg: msg}
}

// aggregateError is several errors of one batch.
type aggregateError struct {
	errs []error
	msg  string
}

func (a *aggregateError) Error() string   { return a.msg }
func (a *aggregateError) Unwrap() []error { return a.errs }

// processReplica is upstream's processReplica: delete a finished pod,
// create a missing one, wait (monotonic) for it to be running, ready and
// available, then enforce its identity, storage and claim ownership.
func (c *control) processReplica(ctx context.Context, set, updateSet *api.StatefulSet, monotonic bool, replicas []*api.Pod, i int) (bool, error) {
	p := replicas[i]
	if isFailed(p) || isSucceeded(p) {
		if p.DeletionTimestamp == nil {
			if err := c.pc.deletePod(ctx, set, p); err != nil {
				return true, err
			}
		}
		return true, nil
	}
	if !isCreated(p) {
		if c.pc.claimIsStale(set, p) {
			return true, nil
		}
		if err := c.pc.createPod(ctx, set, p); err != nil {
			return true, err
		}
		if monotonic {
			return true, nil
		}
		return false, nil // the created pod is not in the cache yet
	}
	if isPending(p) {
		if err := c.pc.createMissingClaims(ctx, set, p); err != nil {
			return true, err
		}
	}
	if isTerminating(p) && monotonic {
		return true, nil
	}
	if !isRunningAndReady(p) && monotonic {
		return true, nil
	}
	if !isRunningAndAvailable(p, set.Spec.MinReadySeconds, c.now) && monotonic {
		return true, nil
	}
	if identityMatches(set, p) && storageMatches(set, p) && c.pc.claimsMatchRetentionPolicy(updateSet, p) {
		return false, nil
	}
	if err := c.pc.updatePod(ctx, updateSet, p.DeepCopy()); err != nil {
		return true, err
	}
	return false, nil
}

// processCondemned deletes a pod beyond the replicas: in monotonic mode
// one at a time, highest ordinal first, once its predecessors are healthy.
func (c *control) processCondemned(ctx context.Context, set *api.StatefulSet, firstUnhealthy *api.Pod, monotonic bool, condemned []*api.Pod, i int) (bool, error) {
	p := condemned[i]
	if isTerminating(p) {
		return monotonic, nil
	}
	if !isRunningAndReady(p) && monotonic && p != firstUnhealthy {
		return true, nil
	}
	if !isRunningAndAvailable(p, set.Spec.MinReadySeconds, c.now) && monotonic && p != firstUnhealthy {
		return true, nil
	}
	return true, c.pc.deletePod(ctx, set, p)
}

// updateStatus counts the pods' replicas (computeReplicaStatus).
func (c *control) updateStatus(st *api.StatefulSetStatus, minReady int32, currentRevision, updateRevision string, lists ...[]*api.Pod) {
	st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.UpdatedReplicas = 0, 0, 0, 0, 0
	for _, l := range lists {
		for _, p := range l {
			if isCreated(p) {
				st.Replicas++
			}
			if isRunningAndReady(p) {
				st.ReadyReplicas++
				if isRunningAndAvailable(p, minReady, c.now) {
					st.AvailableReplicas++
				}
			}
			if isCreated(p) && !isTerminating(p) {
				rev := getPodRevision(p)
				if rev == currentRevision {
					st.CurrentReplicas++
				}
				if rev == updateRevision {
					st.UpdatedReplicas++
				}
			}
		}
	}
}
