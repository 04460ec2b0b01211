package statefulset

import (
	"context"
	"errors"
	"slices"
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

// runForAll runs fn over pods: in order, stopping at the first that
// blocks (monotonic), or over all of them, stopping at the first error
// (upstream's slowStartBatch runs them in growing parallel batches; here
// they run in order, which the batches' results do not distinguish).
func runForAll(pods []*api.Pod, fn func(i int) (bool, error), monotonic bool) (bool, error) {
	for i := range pods {
		exit, err := fn(i)
		if err != nil {
			return true, err
		}
		if exit && monotonic {
			return true, nil
		}
	}
	return false, nil
}

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
