package deployment

import (
	"fmt"
	"sort"

	"github.com/clustersim/clustersim/sim/api"
)

// This file follows k/k pkg/controller/deployment/rolling.go.

// rolloutRolling makes one step of a rolling update: scale the new
// ReplicaSet up as far as maxSurge allows, or else scale old ReplicaSets
// down as far as maxUnavailable allows; a complete rollout cleans up old
// ReplicaSets. Either way the status is refreshed.
func (p *pass) rolloutRolling(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := p.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := withNew(oldRSs, newRS)

	scaledUp, err := p.reconcileNewReplicaSet(allRSs, newRS, d)
	if err != nil {
		return err
	}
	if scaledUp {
		return p.syncRolloutStatus(allRSs, newRS, d)
	}

	scaledDown, err := p.reconcileOldReplicaSets(allRSs, FilterActiveReplicaSets(oldRSs), newRS, d)
	if err != nil {
		return err
	}
	if scaledDown {
		return p.syncRolloutStatus(allRSs, newRS, d)
	}

	if DeploymentComplete(d, &d.Status) {
		if err := p.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return p.syncRolloutStatus(allRSs, newRS, d)
}

// reconcileNewReplicaSet scales the new ReplicaSet towards spec.replicas:
// down at once if it is larger, up by what NewRSNewReplicas allows. It
// reports whether it scaled.
func (p *pass) reconcileNewReplicaSet(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	if rsReplicas(newRS) == specReplicas(d) {
		return false, nil
	}
	if rsReplicas(newRS) > specReplicas(d) {
		scaled, _, err := p.scaleReplicaSetAndRecordEvent(newRS, specReplicas(d), d)
		return scaled, err
	}
	n, err := NewRSNewReplicas(d, allRSs, newRS)
	if err != nil {
		return false, err
	}
	scaled, _, err := p.scaleReplicaSetAndRecordEvent(newRS, n, d)
	return scaled, err
}

// reconcileOldReplicaSets scales old ReplicaSets down without going below
// minAvailable: first their unhealthy replicas, then healthy ones as the
// available count allows. It reports whether it scaled.
//
// At most allPods − minAvailable − newRSUnavailable replicas can go: the
// unavailable pods of the new ReplicaSet must not make old ones scale down
// further. With 10 replicas, maxUnavailable 2 and maxSurge 3, a new
// ReplicaSet of 5 crash-looping pods next to 8 old ones gives 13 − 8 − 5 = 0:
// nothing more is removed, even if an old pod fails. After a rollback to
// the old template, the unhealthy ReplicaSet is the old one and 4 of its
// pods go at once.
func (p *pass) reconcileOldReplicaSets(allRSs, oldRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	if GetReplicaCountForReplicaSets(oldRSs) == 0 {
		return false, nil // nothing left to scale down
	}
	allPodsCount := GetReplicaCountForReplicaSets(allRSs)
	minAvailable := specReplicas(d) - MaxUnavailable(d)
	newRSUnavailablePodCount := rsReplicas(newRS) - newRS.Status.AvailableReplicas
	maxScaledDown := allPodsCount - minAvailable - newRSUnavailablePodCount
	if maxScaledDown <= 0 {
		return false, nil
	}

	// Unhealthy replicas go first: they cost no availability, and left in
	// place they would block the rollout until it times out
	// (kubernetes#16737).
	//
	// A failed ReplicaSet update is dropped here, as upstream drops it
	// (return false, nil): the rollout goes on to its status update, and
	// the ReplicaSet's next event or the next resync tries again, with no
	// back-off of the Deployment's key.
	oldRSs, cleanupCount, err := p.cleanupUnhealthyReplicas(oldRSs, d, maxScaledDown)
	if err != nil {
		return false, nil
	}

	scaledDownCount, err := p.scaleDownOldReplicaSetsForRollingUpdate(withNew(oldRSs, newRS), oldRSs, d)
	if err != nil {
		return false, nil
	}
	return cleanupCount+scaledDownCount > 0, nil
}

// cleanupUnhealthyReplicas scales old ReplicaSets (oldest first) down by
// their unavailable replicas, at most maxCleanupCount in all. The
// ReplicaSet controller deletes not-ready, unscheduled and pending pods
// first, so no available pod goes. It returns the ReplicaSets as updated
// and the count removed.
func (p *pass) cleanupUnhealthyReplicas(oldRSs []*api.ReplicaSet, d *api.Deployment, maxCleanupCount int32) ([]*api.ReplicaSet, int32, error) {
	sort.Sort(ReplicaSetsByCreationTimestamp(oldRSs))
	total := int32(0)
	for i, rs := range oldRSs {
		if total >= maxCleanupCount {
			break
		}
		if rsReplicas(rs) == 0 || rsReplicas(rs) == rs.Status.AvailableReplicas {
			continue // nothing to scale, or no unhealthy replica
		}
		count := min(maxCleanupCount-total, rsReplicas(rs)-rs.Status.AvailableReplicas)
		newReplicas := rsReplicas(rs) - count
		if newReplicas > rsReplicas(rs) {
			return nil, 0, fmt.Errorf("when cleaning up unhealthy replicas, got invalid request to scale down %s/%s %d -> %d", rs.Namespace, rs.Name, rsReplicas(rs), newReplicas)
		}
		_, updated, err := p.scaleReplicaSetAndRecordEvent(rs, newReplicas, d)
		if err != nil {
			return nil, total, err
		}
		total += count
		oldRSs[i] = updated
	}
	return oldRSs, total, nil
}

// scaleDownOldReplicaSetsForRollingUpdate scales old ReplicaSets (oldest
// first) down by as many pods as are available beyond minAvailable, and
// returns that count.
func (p *pass) scaleDownOldReplicaSetsForRollingUpdate(allRSs, oldRSs []*api.ReplicaSet, d *api.Deployment) (int32, error) {
	minAvailable := specReplicas(d) - MaxUnavailable(d)
	available := GetAvailableReplicaCountForReplicaSets(allRSs)
	if available <= minAvailable {
		return 0, nil
	}
	sort.Sort(ReplicaSetsByCreationTimestamp(oldRSs))
	total := int32(0)
	totalToScaleDown := available - minAvailable
	for _, rs := range oldRSs {
		if total >= totalToScaleDown {
			break
		}
		if rsReplicas(rs) == 0 {
			continue
		}
		count := min(rsReplicas(rs), totalToScaleDown-total)
		newReplicas := rsReplicas(rs) - count
		if newReplicas > rsReplicas(rs) {
			return 0, fmt.Errorf("when scaling down old RS, got invalid request to scale down %s/%s %d -> %d", rs.Namespace, rs.Name, rsReplicas(rs), newReplicas)
		}
		if _, _, err := p.scaleReplicaSetAndRecordEvent(rs, newReplicas, d); err != nil {
			return total, err
		}
		total += count
	}
	return total, nil
}
