package deployment

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// This file follows k/k pkg/controller/deployment/progress.go.

// syncRolloutStatus writes d's status during a rollout: the counts and
// Available (calculateStatus), Progressing (complete, progressing with a
// refreshed lastUpdateTime, or timed out), and ReplicaFailure copied from
// the ReplicaSets. When nothing changed, a rollout that may get stuck is
// checked again at its deadline.
func (p *pass) syncRolloutStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) error {
	now := p.now()
	newStatus := calculateStatus(allRSs, newRS, d, now)

	if !HasProgressDeadline(d) {
		RemoveDeploymentCondition(&newStatus, api.DeploymentProgressing)
	}

	// A completed rollout is not estimated again: a resync after a scale
	// is no new rollout.
	currentCond := GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	isCompleteDeployment := newStatus.Replicas == newStatus.UpdatedReplicas && currentCond != nil && currentCond.Reason == NewRSAvailableReason
	if HasProgressDeadline(d) && !isCompleteDeployment {
		switch {
		case DeploymentComplete(d, &newStatus):
			msg := fmt.Sprintf("Deployment %q has successfully progressed.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has successfully progressed.", newRS.Name)
			}
			SetDeploymentCondition(&newStatus, *NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, NewRSAvailableReason, msg, now))

		case DeploymentProgressing(d, &newStatus):
			// Progress refreshes lastUpdateTime even with an unchanged
			// reason, which SetDeploymentCondition would not do; a
			// Progressing=True condition keeps its lastTransitionTime.
			msg := fmt.Sprintf("Deployment %q is progressing.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q is progressing.", newRS.Name)
			}
			cond := NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, ReplicaSetUpdatedReason, msg, now)
			if currentCond != nil {
				if currentCond.Status == api.ConditionTrue {
					cond.LastTransitionTime = currentCond.LastTransitionTime
				}
				RemoveDeploymentCondition(&newStatus, api.DeploymentProgressing)
			}
			SetDeploymentCondition(&newStatus, *cond)

		case DeploymentTimedOut(d, &newStatus, now):
			msg := fmt.Sprintf("Deployment %q has timed out progressing.", d.Name)
			if newRS != nil {
				msg = fmt.Sprintf("ReplicaSet %q has timed out progressing.", newRS.Name)
			}
			SetDeploymentCondition(&newStatus, *NewDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, TimedOutReason, msg, now))
		}
	}

	// One ReplicaFailure condition, the new ReplicaSet's first.
	if failures := getReplicaFailures(allRSs, newRS); len(failures) > 0 {
		SetDeploymentCondition(&newStatus, failures[0])
	} else {
		RemoveDeploymentCondition(&newStatus, api.DeploymentReplicaFailure)
	}

	if api.SemanticEqual(d.Status, newStatus) {
		p.requeueStuckDeployment(d, newStatus)
		return nil
	}
	d.Status = newStatus
	_, err := p.client.UpdateStatus(p.ctx, d)
	return err
}

// getReplicaFailures returns the ReplicaFailure conditions of the new
// ReplicaSet as Deployment conditions, or else those of all ReplicaSets.
func getReplicaFailures(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet) []api.DeploymentCondition {
	var conds []api.DeploymentCondition
	if newRS != nil {
		for _, c := range newRS.Status.Conditions {
			if c.Type == api.ReplicaSetReplicaFailure {
				conds = append(conds, ReplicaSetToDeploymentCondition(c))
			}
		}
	}
	if len(conds) > 0 {
		return conds
	}
	for _, rs := range allRSs {
		if rs == nil {
			continue
		}
		for _, c := range rs.Status.Conditions {
			if c.Type == api.ReplicaSetReplicaFailure {
				conds = append(conds, ReplicaSetToDeploymentCondition(c))
			}
		}
	}
	return conds
}

// requeueStuckDeployment asks for d to be synced again when its progress
// deadline passes without progress (otherwise only a resync would notice;
// kubernetes#34458): at lastUpdateTime + progressDeadlineSeconds − now,
// plus a second against clock skew, or at once (enqueued rate-limited)
// when less than a second is left. It returns the wait (0 for at once)
// or −1 when no check is needed: no deadline, no Progressing condition,
// a complete or already timed-out rollout.
func (p *pass) requeueStuckDeployment(d *api.Deployment, newStatus api.DeploymentStatus) time.Duration {
	cond := GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if !HasProgressDeadline(d) || cond == nil {
		return -1
	}
	if DeploymentComplete(d, &newStatus) || cond.Reason == TimedOutReason {
		return -1
	}
	after := cond.LastUpdateTime.Add(time.Duration(*d.Spec.ProgressDeadlineSeconds) * time.Second).Sub(p.now())
	if after < time.Second {
		// Rate-limited, and the sync's success then forgets the key
		// (Reconcile returns no error): the delay is the limiter's
		// first step or its shared bucket's, again and again, until the
		// rollout completes or times out, as upstream's.
		p.enqueueRateLimited(d.GetObjectMeta().Key())
		return 0
	}
	p.requeueAfter = after + time.Second
	return after
}
