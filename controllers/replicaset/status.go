package replicaset

import (
	"context"
	"reflect"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
)

// Condition reasons of ReplicaFailure, also the reasons of the Warning
// events for failed creates and deletes.
const (
	// ReasonFailedCreate: a pod could not be created (too few replicas).
	ReasonFailedCreate = "FailedCreate"
	// ReasonFailedDelete: a pod could not be deleted (too many replicas).
	ReasonFailedDelete = "FailedDelete"
	// ReasonSuccessfulCreate is the Normal event of a created pod.
	ReasonSuccessfulCreate = "SuccessfulCreate"
	// ReasonSuccessfulDelete is the Normal event of a deleted pod.
	ReasonSuccessfulDelete = "SuccessfulDelete"
)

// statusUpdateRetries is how many times a failed status update is retried
// after re-reading the ReplicaSet (upstream's statusUpdateRetries, 1).
const statusUpdateRetries = 1

// NewCondition returns a ReplicaSet condition with lastTransitionTime now,
// truncated to the second as the API stores it.
func NewCondition(t api.ReplicaSetConditionType, status api.ConditionStatus, reason, msg string, now time.Time) api.ReplicaSetCondition {
	return api.ReplicaSetCondition{
		Type:               t,
		Status:             status,
		LastTransitionTime: api.NewTime(now).Rfc3339Copy(),
		Reason:             reason,
		Message:            msg,
	}
}

// GetCondition returns a copy of the condition of type t in status, or nil.
func GetCondition(status api.ReplicaSetStatus, t api.ReplicaSetConditionType) *api.ReplicaSetCondition {
	for i := range status.Conditions {
		if status.Conditions[i].Type == t {
			c := status.Conditions[i]
			return &c
		}
	}
	return nil
}

// SetCondition adds c to status, replacing a condition of its type, unless
// one with the same status and reason is already there (then nothing
// changes, so lastTransitionTime and message stay as they were).
func SetCondition(status *api.ReplicaSetStatus, c api.ReplicaSetCondition) {
	if cur := GetCondition(*status, c.Type); cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	status.Conditions = append(filterOutCondition(status.Conditions, c.Type), c)
}

// RemoveCondition removes the condition of type t from status.
func RemoveCondition(status *api.ReplicaSetStatus, t api.ReplicaSetConditionType) {
	status.Conditions = filterOutCondition(status.Conditions, t)
}

// filterOutCondition returns a new slice without conditions of type t (nil
// when none is left).
func filterOutCondition(cs []api.ReplicaSetCondition, t api.ReplicaSetConditionType) []api.ReplicaSetCondition {
	var out []api.ReplicaSetCondition
	for _, c := range cs {
		if c.Type != t {
			out = append(out, c)
		}
	}
	return out
}

// replicasOf returns spec.replicas, 1 (the API default) when unset.
func replicasOf(rs *api.ReplicaSet) int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}

// calculateStatus computes the status of rs from its active and
// terminating pods and the outcome of manageReplicas (upstream's
// calculateStatus, with status.terminatingReplicas on as from 1.35). The
// ReplicaFailure condition is added on a failure only if it is absent, and
// removed after a sync without failure.
func calculateStatus(rs *api.ReplicaSet, active, terminating []*api.Pod, manageErr error, now time.Time) api.ReplicaSetStatus {
	return statusFromCounts(rs, countPods(rs, active, terminating, now), manageErr, now)
}

// statusFromCounts is calculateStatus from the pods' counts.
func statusFromCounts(rs *api.ReplicaSet, c podCounts, manageErr error, now time.Time) api.ReplicaSetStatus {
	st := *rs.Status.DeepCopy()
	failure := GetCondition(rs.Status, api.ReplicaSetReplicaFailure)
	switch {
	case manageErr != nil && failure == nil:
		var reason string
		switch diff := int(c.replicas) - int(replicasOf(rs)); {
		case diff < 0:
			reason = ReasonFailedCreate
		case diff > 0:
			reason = ReasonFailedDelete
		}
		SetCondition(&st, NewCondition(api.ReplicaSetReplicaFailure, api.ConditionTrue, reason, manageErr.Error(), now))
	case manageErr == nil && failure != nil:
		RemoveCondition(&st, api.ReplicaSetReplicaFailure)
	}
	terminating := c.terminating
	st.Replicas = c.replicas
	st.FullyLabeledReplicas = c.fullyLabeled
	st.ReadyReplicas = c.ready
	st.AvailableReplicas = c.available
	st.TerminatingReplicas = &terminating
	return st
}

// statusUnchanged reports whether writing st to rs would change nothing
// upstream cares about.
func statusUnchanged(rs *api.ReplicaSet, st *api.ReplicaSetStatus) bool {
	cur := &rs.Status
	return cur.Replicas == st.Replicas &&
		cur.FullyLabeledReplicas == st.FullyLabeledReplicas &&
		cur.ReadyReplicas == st.ReadyReplicas &&
		cur.AvailableReplicas == st.AvailableReplicas &&
		int32PtrEqual(cur.TerminatingReplicas, st.TerminatingReplicas) &&
		rs.Generation == cur.ObservedGeneration &&
		reflect.DeepEqual(cur.Conditions, st.Conditions)
}

func int32PtrEqual(a, b *int32) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// updateStatus writes st (with observedGeneration) as the status of rs,
// unless nothing changed; rs is the cache's, never modified. A failed
// write is retried once after re-reading the ReplicaSet, as upstream's
// updateReplicaSetStatus does; the error of the re-read wins over the
// update's. It returns the ReplicaSet as stored (rs itself when nothing
// changed: upstream deep-copies rs on every sync, this copies it only to
// write, as most syncs change nothing).
func (r *reconciler) updateStatus(ctx context.Context, rs *api.ReplicaSet, st api.ReplicaSetStatus) (*api.ReplicaSet, error) {
	if statusUnchanged(rs, &st) {
		return rs, nil
	}
	rs = rs.DeepCopy()
	// The generation acted on is saved now: a re-read below must not
	// claim a newer spec was observed.
	st.ObservedGeneration = rs.Generation
	var updateErr error
	for i := 0; ; i++ {
		rs.Status = st
		updated, err := client.UpdateStatusAs(ctx, r.client, rs)
		if err == nil {
			return updated, nil
		}
		updateErr = err
		if i >= statusUpdateRetries {
			break
		}
		fresh, err := client.GetAs[*api.ReplicaSet](ctx, r.client, rs.GetObjectMeta().Key())
		if err != nil {
			return nil, err
		}
		rs = fresh
	}
	return nil, updateErr
}
