package deployment

import (
	"slices"

	"github.com/clustersim/clustersim/sim/api"
)

// This file follows k/k pkg/controller/deployment/recreate.go (without the
// alpha podReplacementPolicy).

// rolloutRecreate makes one step of a Recreate rollout: scale every old
// ReplicaSet to 0, wait until no old pod runs, then create (if needed) and
// scale up the new ReplicaSet; a complete rollout cleans up old
// ReplicaSets.
func (p *pass) rolloutRecreate(d *api.Deployment, rsList []*api.ReplicaSet, podMap map[api.UID][]*api.Pod) error {
	// The new ReplicaSet is not created yet: nothing may scale up before
	// everything old is down.
	newRS, oldRSs, err := p.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	allRSs := withNew(oldRSs, newRS)
	activeOldRSs := FilterActiveReplicaSets(oldRSs)

	scaledDown, err := p.scaleDownOldReplicaSetsForRecreate(activeOldRSs, d)
	if err != nil {
		return err
	}
	if scaledDown {
		return p.syncRolloutStatus(allRSs, newRS, d)
	}

	if oldPodsRunning(newRS, oldRSs, podMap) {
		return p.syncRolloutStatus(allRSs, newRS, d)
	}

	if newRS == nil {
		newRS, oldRSs, err = p.getAllReplicaSetsAndSyncRevision(d, rsList, true)
		if err != nil {
			return err
		}
		allRSs = withNew(oldRSs, newRS)
	}

	if _, err := p.scaleUpNewReplicaSetForRecreate(newRS, d); err != nil {
		return err
	}

	if DeploymentComplete(d, &d.Status) {
		if err := p.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return p.syncRolloutStatus(allRSs, newRS, d)
}

// scaleDownOldReplicaSetsForRecreate scales every old ReplicaSet to 0 and
// reports whether any was scaled.
func (p *pass) scaleDownOldReplicaSetsForRecreate(oldRSs []*api.ReplicaSet, d *api.Deployment) (bool, error) {
	scaled := false
	for i, rs := range oldRSs {
		if rsReplicas(rs) == 0 {
			continue
		}
		done, updated, err := p.scaleReplicaSetAndRecordEvent(rs, 0, d)
		if err != nil {
			return false, err
		}
		if done {
			oldRSs[i] = updated
			scaled = true
		}
	}
	return scaled, nil
}

// oldPodsRunning reports whether an old ReplicaSet still reports pods, or
// an old pod is in any phase but Succeeded or Failed (Unknown counts: the
// pod may still run).
func oldPodsRunning(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet, podMap map[api.UID][]*api.Pod) bool {
	if GetActualReplicaCountForReplicaSets(oldRSs) > 0 {
		return true
	}
	uids := make([]api.UID, 0, len(podMap))
	for uid := range podMap {
		uids = append(uids, uid)
	}
	slices.Sort(uids)
	for _, uid := range uids {
		if newRS != nil && newRS.UID == uid {
			continue
		}
		for _, pod := range podMap[uid] {
			switch pod.Status.Phase {
			case api.PodFailed, api.PodSucceeded:
				// A pod in a terminal phase runs nothing.
			default:
				return true
			}
		}
	}
	return false
}

// scaleUpNewReplicaSetForRecreate scales the new ReplicaSet to
// spec.replicas.
func (p *pass) scaleUpNewReplicaSetForRecreate(newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	scaled, _, err := p.scaleReplicaSetAndRecordEvent(newRS, specReplicas(d), d)
	return scaled, err
}
