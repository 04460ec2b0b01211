package deployment

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
)

// This file follows k/k pkg/controller/deployment/sync.go.

// maxRevHistoryLengthInChars bounds the revision-history annotation (about
// 100 revisions).
const maxRevHistoryLengthInChars = 2000

// syncStatusOnly refreshes d's status and changes nothing else (a
// Deployment being deleted).
func (p *pass) syncStatusOnly(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := p.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	return p.syncDeploymentStatus(withNew(oldRSs, newRS), newRS, d)
}

// sync handles a scaling event or a paused Deployment: scale the
// ReplicaSets (proportionally when several are active), clean up old ones
// if paused, and refresh the status.
func (p *pass) sync(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := p.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	if err := p.scale(d, newRS, oldRSs); err != nil {
		// The Deployment is requeued; this sync stops here.
		return err
	}
	// A paused Deployment without a rollback in flight is cleaned up.
	if d.Spec.Paused && getRollbackTo(d) == nil {
		if err := p.cleanupDeployment(oldRSs, d); err != nil {
			return err
		}
	}
	return p.syncDeploymentStatus(withNew(oldRSs, newRS), newRS, d)
}

// checkPausedConditions sets Progressing Unknown DeploymentPaused or
// DeploymentResumed when d was paused or resumed, unless the rollout has
// already timed out. Without a progress deadline nothing is tracked.
func (p *pass) checkPausedConditions(d *api.Deployment) error {
	if !HasProgressDeadline(d) {
		return nil
	}
	cond := GetDeploymentCondition(d.Status, api.DeploymentProgressing)
	if cond != nil && cond.Reason == TimedOutReason {
		// A reported lack of progress is not overwritten.
		return nil
	}
	pausedCondExists := cond != nil && cond.Reason == PausedDeployReason
	switch {
	case d.Spec.Paused && !pausedCondExists:
		SetDeploymentCondition(&d.Status, *NewDeploymentCondition(api.DeploymentProgressing, api.ConditionUnknown, PausedDeployReason, "Deployment is paused", p.now()))
	case !d.Spec.Paused && pausedCondExists:
		SetDeploymentCondition(&d.Status, *NewDeploymentCondition(api.DeploymentProgressing, api.ConditionUnknown, ResumedDeployReason, "Deployment is resumed", p.now()))
	default:
		return nil
	}
	_, err := p.client.UpdateStatus(p.ctx, d)
	return err
}

// getAllReplicaSetsAndSyncRevision returns d's new ReplicaSet (nil when it
// does not exist and createIfNotExisted is false) and all its old ones,
// after bringing the new one's revision to the highest old revision + 1
// and copying it to d. Failed writes are retried at the next sync.
func (p *pass) getAllReplicaSetsAndSyncRevision(d *api.Deployment, rsList []*api.ReplicaSet, createIfNotExisted bool) (*api.ReplicaSet, []*api.ReplicaSet, error) {
	_, allOldRSs := oldReplicaSets(rsList, p.findNewReplicaSet(d, rsList))
	newRS, err := p.getNewReplicaSet(d, rsList, allOldRSs, createIfNotExisted)
	if err != nil {
		return nil, nil, err
	}
	return newRS, allOldRSs, nil
}

// getNewReplicaSet returns the ReplicaSet whose template is d's: an
// existing one gets d's annotations, the new revision and d's
// minReadySeconds; otherwise, if createIfNotExisted, one is created, named
// <deployment>-<hash>, sized by NewRSNewReplicas. A name already taken by a
// ReplicaSet that is not d's (a hash collision) bumps
// status.collisionCount, so that the next attempt hashes differently.
func (p *pass) getNewReplicaSet(d *api.Deployment, rsList, oldRSs []*api.ReplicaSet, createIfNotExisted bool) (*api.ReplicaSet, error) {
	existing := p.findNewReplicaSet(d, rsList)
	newRevision := strconv.FormatInt(MaxRevision(oldRSs)+1, 10)

	if existing != nil {
		// A copy whose annotations are its own: they and
		// spec.minReadySeconds are all this sync changes; the rest is
		// shared with the cache and only read (an update sends a copy).
		// Upstream deep-copies the ReplicaSet, on every sync of every
		// Deployment, mostly to find nothing to change.
		rsCopy := new(api.ReplicaSet)
		*rsCopy = *existing
		rsCopy.Annotations = maps.Clone(existing.Annotations)
		annotationsUpdated := SetNewReplicaSetAnnotations(d, rsCopy, newRevision, true, maxRevHistoryLengthInChars)
		minReadySecondsNeedsUpdate := rsCopy.Spec.MinReadySeconds != d.Spec.MinReadySeconds
		if annotationsUpdated || minReadySecondsNeedsUpdate {
			rsCopy.Spec.MinReadySeconds = d.Spec.MinReadySeconds
			return client.UpdateAs(p.ctx, p.client, rsCopy)
		}
		// The ReplicaSet's revision was set before: it is the one to copy.
		needsUpdate := SetDeploymentRevision(d, rsCopy.Annotations[RevisionAnnotation])
		// A Deployment without a Progressing condition starts its progress
		// estimate from the first time its new ReplicaSet is seen.
		if HasProgressDeadline(d) && GetDeploymentCondition(d.Status, api.DeploymentProgressing) == nil {
			msg := fmt.Sprintf("Found new replica set %q", rsCopy.Name)
			SetDeploymentCondition(&d.Status, *NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, FoundNewRSReason, msg, p.now()))
			needsUpdate = true
		}
		if needsUpdate {
			if _, err := p.client.UpdateStatus(p.ctx, d); err != nil {
				return nil, err
			}
		}
		return rsCopy, nil
	}

	if !createIfNotExisted {
		return nil, nil
	}

	template := d.Spec.Template.DeepCopy()
	hash := ComputeHash(template, d.Status.CollisionCount)
	template.Labels = cloneAndAddLabel(d.Spec.Template.Labels, DefaultDeploymentUniqueLabelKey, hash)
	newRS := &api.ReplicaSet{
		TypeMeta: api.TypeMeta{APIVersion: "apps/v1", Kind: api.KindReplicaSet.Name},
		ObjectMeta: api.ObjectMeta{
			// A deterministic name makes the create idempotent.
			Name:            d.Name + "-" + hash,
			Namespace:       d.Namespace,
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(d)},
			Labels:          maps.Clone(template.Labels),
		},
		Spec: api.ReplicaSetSpec{
			MinReadySeconds: d.Spec.MinReadySeconds,
			Selector:        cloneSelectorAndAddLabel(d.Spec.Selector, DefaultDeploymentUniqueLabelKey, hash),
			Template:        *template,
		},
	}
	setRSReplicas(newRS, 0)
	newReplicasCount, err := NewRSNewReplicas(d, withNew(oldRSs, newRS), newRS)
	if err != nil {
		return nil, err
	}
	setRSReplicas(newRS, newReplicasCount)
	SetNewReplicaSetAnnotations(d, newRS, newRevision, false, maxRevHistoryLengthInChars)

	alreadyExists := false
	createdRS, err := client.CreateAs(p.ctx, p.client, newRS)
	switch {
	case errors.Is(err, apierr.ErrAlreadyExists):
		// A slow cache or a fast resync of the Deployment.
		alreadyExists = true
		obj, ok := p.replicaSets.Get(newRS.Key())
		if !ok {
			return nil, apierr.NewNotFound("replicasets.apps", newRS.Name)
		}
		rs, ok := obj.(*api.ReplicaSet)
		if !ok {
			return nil, apierr.NewNotFound("replicasets.apps", newRS.Name)
		}
		// d's own ReplicaSet with d's template is the new ReplicaSet;
		// anything else is a hash collision.
		if ref := api.GetControllerOfNoCopy(&rs.ObjectMeta); ref != nil && ref.UID == d.UID && EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
			createdRS, err = rs, nil
			break
		}
		if d.Status.CollisionCount == nil {
			d.Status.CollisionCount = new(int32)
		}
		*d.Status.CollisionCount++
		// The Deployment is requeued by the original error; the outcome of
		// this write is seen at the next sync.
		_, _ = p.client.UpdateStatus(p.ctx, d)
		return nil, err
	case isNamespaceTerminating(err):
		// Every later create fails too: nothing to report.
		return nil, err
	case err != nil:
		msg := fmt.Sprintf("Failed to create new replica set %q: %v", newRS.Name, err)
		if HasProgressDeadline(d) {
			SetDeploymentCondition(&d.Status, *NewDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, FailedRSCreateReason, msg, p.now()))
			// The failure to report matters more than this write's.
			_, _ = p.client.UpdateStatus(p.ctx, d)
		}
		p.recorder.Eventf(d, client.EventTypeWarning, FailedRSCreateReason, "%s", msg)
		return nil, err
	}
	if !alreadyExists && newReplicasCount > 0 {
		p.recorder.Eventf(d, client.EventTypeNormal, ScalingReplicaSetReason, "Scaled up replica set %s from 0 to %d", createdRS.Name, newReplicasCount)
	}

	needsUpdate := SetDeploymentRevision(d, newRevision)
	if !alreadyExists && HasProgressDeadline(d) {
		msg := fmt.Sprintf("Created new replica set %q", createdRS.Name)
		SetDeploymentCondition(&d.Status, *NewDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, NewReplicaSetReason, msg, p.now()))
		needsUpdate = true
	}
	if needsUpdate {
		_, err = p.client.UpdateStatus(p.ctx, d)
	}
	return createdRS, err
}

// scale resizes d's ReplicaSets to spec.replicas: the only active (or the
// latest) ReplicaSet takes everything; a saturated new ReplicaSet leaves
// the old ones at 0; otherwise, for RollingUpdate, the difference to
// spec.replicas + maxSurge is spread over the active ReplicaSets in
// proportion to their size, leftovers going to the largest (newer first
// when adding, older first when removing). Scaling this way, not by
// rolling, keeps a bad template from spreading faster during a scale.
func (p *pass) scale(d *api.Deployment, newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet) error {
	if activeOrLatest := FindActiveOrLatest(newRS, oldRSs); activeOrLatest != nil {
		if rsReplicas(activeOrLatest) == specReplicas(d) {
			return nil
		}
		_, _, err := p.scaleReplicaSetAndRecordEvent(activeOrLatest, specReplicas(d), d)
		return err
	}

	// A saturated new ReplicaSet (say, after adoption) leaves nothing to
	// the old ones.
	if IsSaturated(d, newRS) {
		for _, old := range FilterActiveReplicaSets(oldRSs) {
			if _, _, err := p.scaleReplicaSetAndRecordEvent(old, 0, d); err != nil {
				return err
			}
		}
		return nil
	}

	if !IsRollingUpdate(d) {
		return nil
	}
	allRSs := FilterActiveReplicaSets(withNew(oldRSs, newRS))
	allRSsReplicas := GetReplicaCountForReplicaSets(allRSs)
	allowedSize := int32(0)
	if specReplicas(d) > 0 {
		allowedSize = specReplicas(d) + MaxSurge(d)
	}
	// What must be added (or, negative, removed) over all ReplicaSets.
	toAdd := allowedSize - allRSsReplicas
	var op string
	switch {
	case toAdd > 0:
		sort.Sort(replicaSetsBySizeNewer(allRSs))
		op = "up"
	case toAdd < 0:
		sort.Sort(replicaSetsBySizeOlder(allRSs))
		op = "down"
	}
	// Each ReplicaSet's share; the sum never exceeds toAdd in size.
	added := int32(0)
	sizes := make([]int32, len(allRSs))
	for i, rs := range allRSs {
		sizes[i] = rsReplicas(rs)
		if toAdd != 0 {
			proportion := GetProportion(rs, d, toAdd, added)
			sizes[i] += proportion
			added += proportion
		}
	}
	for i, rs := range allRSs {
		if i == 0 && toAdd != 0 {
			// Leftovers go to the largest ReplicaSet.
			sizes[0] = max(sizes[0]+toAdd-added, 0)
		}
		if _, _, err := p.scaleReplicaSet(rs, sizes[i], d, op); err != nil {
			// The Deployment is requeued at once.
			return err
		}
	}
	return nil
}

// scaleReplicaSetAndRecordEvent resizes rs to newScale (if it differs) and
// reports whether it did, with the updated ReplicaSet.
func (p *pass) scaleReplicaSetAndRecordEvent(rs *api.ReplicaSet, newScale int32, d *api.Deployment) (bool, *api.ReplicaSet, error) {
	if rsReplicas(rs) == newScale {
		return false, rs, nil
	}
	op := "down"
	if rsReplicas(rs) < newScale {
		op = "up"
	}
	return p.scaleReplicaSet(rs, newScale, d, op)
}

// scaleReplicaSet writes rs's size and replicas annotations when either
// differs, and records a ScalingReplicaSet event when the size changed.
func (p *pass) scaleReplicaSet(rs *api.ReplicaSet, newScale int32, d *api.Deployment, op string) (bool, *api.ReplicaSet, error) {
	sizeNeedsUpdate := rsReplicas(rs) != newScale
	maxReplicas := specReplicas(d) + MaxSurge(d)
	if !sizeNeedsUpdate && !ReplicasAnnotationsNeedUpdate(rs, specReplicas(d), maxReplicas) {
		return false, rs, nil
	}
	oldScale := rsReplicas(rs)
	rsCopy := rs.DeepCopy()
	setRSReplicas(rsCopy, newScale)
	SetReplicasAnnotations(rsCopy, specReplicas(d), maxReplicas)
	updated, err := client.UpdateAs(p.ctx, p.client, rsCopy)
	if err != nil {
		return false, nil, err
	}
	if !sizeNeedsUpdate {
		return false, updated, nil
	}
	p.recorder.Eventf(d, client.EventTypeNormal, ScalingReplicaSetReason, "Scaled %s replica set %s from %d to %d", op, updated.Name, oldScale, newScale)
	return true, updated, nil
}

// cleanupDeployment deletes the oldest (by revision) old ReplicaSets beyond
// revisionHistoryLimit; only those scaled to 0, with no pods left, their
// generation observed and not already being deleted.
func (p *pass) cleanupDeployment(oldRSs []*api.ReplicaSet, d *api.Deployment) error {
	if !HasRevisionHistoryLimit(d) {
		return nil
	}
	var cleanable []*api.ReplicaSet
	for _, rs := range oldRSs {
		if rs != nil && rs.DeletionTimestamp == nil {
			cleanable = append(cleanable, rs)
		}
	}
	diff := int32(len(cleanable)) - *d.Spec.RevisionHistoryLimit
	if diff <= 0 {
		return nil
	}
	sort.Sort(ReplicaSetsByRevision(cleanable))
	for _, rs := range cleanable[:diff] {
		if rs.Status.Replicas != 0 || rsReplicas(rs) != 0 || rs.Generation > rs.Status.ObservedGeneration || rs.DeletionTimestamp != nil {
			continue
		}
		// The first failure stops the cleanup rather than pressing on an
		// API server that may be overloaded.
		if err := p.client.Delete(p.ctx, api.KindReplicaSet, rs.Key()); err != nil && !errors.Is(err, apierr.ErrNotFound) {
			return err
		}
	}
	return nil
}

// syncDeploymentStatus writes d's status if it changed.
func (p *pass) syncDeploymentStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) error {
	newStatus := calculateStatus(allRSs, newRS, d, p.now())
	if api.SemanticEqual(d.Status, newStatus) {
		return nil
	}
	d.Status = newStatus
	_, err := p.client.UpdateStatus(p.ctx, d)
	return err
}

// calculateStatus computes d's status from its ReplicaSets at now:
// replica counts, observedGeneration, and the Available condition (True
// when at least spec.replicas − maxUnavailable pods are available). The
// other conditions are kept as they are.
func calculateStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment, now time.Time) api.DeploymentStatus {
	available := GetAvailableReplicaCountForReplicaSets(allRSs)
	total := GetReplicaCountForReplicaSets(allRSs)
	// More available than wanted (say, while scaling down) is not
	// negative unavailability.
	unavailable := max(total-available, 0)
	status := api.DeploymentStatus{
		ObservedGeneration:  d.Generation,
		Replicas:            GetActualReplicaCountForReplicaSets(allRSs),
		UpdatedReplicas:     GetActualReplicaCountForReplicaSets([]*api.ReplicaSet{newRS}),
		ReadyReplicas:       GetReadyReplicaCountForReplicaSets(allRSs),
		AvailableReplicas:   available,
		UnavailableReplicas: unavailable,
		TerminatingReplicas: GetTerminatingReplicaCountForReplicaSets(allRSs),
		CollisionCount:      d.Status.CollisionCount,
		// Copied one by one so that d's own conditions are not changed.
		Conditions: slices.Clone(d.Status.Conditions),
	}
	if available >= specReplicas(d)-MaxUnavailable(d) {
		SetDeploymentCondition(&status, *NewDeploymentCondition(api.DeploymentAvailable, api.ConditionTrue, MinimumReplicasAvailable, "Deployment has minimum availability.", now))
	} else {
		SetDeploymentCondition(&status, *NewDeploymentCondition(api.DeploymentAvailable, api.ConditionFalse, MinimumReplicasUnavailable, "Deployment does not have minimum availability.", now))
	}
	return status
}

// isScalingEvent reports whether d was scaled: an active ReplicaSet's
// desired-replicas annotation differs from spec.replicas. Like upstream, it
// syncs the new ReplicaSet's revision on the way.
func (p *pass) isScalingEvent(d *api.Deployment, rsList []*api.ReplicaSet) (bool, error) {
	newRS, oldRSs, err := p.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return false, err
	}
	for _, rs := range FilterActiveReplicaSets(withNew(oldRSs, newRS)) {
		desired, ok := GetDesiredReplicasAnnotation(rs)
		if ok && desired != specReplicas(d) {
			return true, nil
		}
	}
	return false, nil
}
