package deployment

import (
	"strconv"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
)

// This file follows k/k pkg/controller/deployment/rollback.go. apps/v1 has
// no spec.rollbackTo; a rollback requested through the older API versions
// reaches the controller as the deprecated.deployment.rollback.to
// annotation. kubectl rollout undo does not use it: it copies the old
// template itself, and the controller then reuses the old ReplicaSet.

// rollback sets d's template back to the ReplicaSet of the requested
// revision (0: the previous one) and, in any case, removes the request.
func (p *pass) rollback(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, allOldRSs, err := p.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return err
	}
	allRSs := withNew(allOldRSs, newRS)
	revision := *getRollbackTo(d)
	if revision == 0 {
		if revision = LastRevision(allRSs); revision == 0 {
			p.recorder.Eventf(d, client.EventTypeWarning, RollbackRevisionNotFound, "Unable to find last revision.")
			return p.updateDeploymentAndClearRollbackTo(d)
		}
	}
	for _, rs := range allRSs {
		if rs == nil {
			continue
		}
		v, err := Revision(rs)
		if err != nil || v != revision {
			continue
		}
		// The revision is raised at the next sync, when this ReplicaSet
		// is found to be the new one.
		done, err := p.rollbackToTemplate(d, rs)
		if done && err == nil {
			p.recorder.Eventf(d, client.EventTypeNormal, RollbackDone, "Rolled back deployment %q to revision %d", d.Name, revision)
		}
		return err
	}
	p.recorder.Eventf(d, client.EventTypeWarning, RollbackRevisionNotFound, "Unable to find the revision to rollback to.")
	return p.updateDeploymentAndClearRollbackTo(d)
}

// rollbackToTemplate copies rs's template and annotations to d when its
// template differs, and clears the rollback request either way. Copying the
// annotations back keeps, say, a change-cause with the template it
// describes.
func (p *pass) rollbackToTemplate(d *api.Deployment, rs *api.ReplicaSet) (bool, error) {
	done := false
	if !EqualIgnoreHash(&d.Spec.Template, &rs.Spec.Template) {
		SetFromReplicaSetTemplate(d, rs.Spec.Template)
		p.forgetTemplate()
		SetDeploymentAnnotationsTo(d, rs)
		done = true
	} else {
		p.recorder.Eventf(d, client.EventTypeWarning, RollbackTemplateUnchanged, "The rollback revision contains the same template as current deployment %q", d.Name)
	}
	return done, p.updateDeploymentAndClearRollbackTo(d)
}

// updateDeploymentAndClearRollbackTo removes the rollback request and
// writes d (with whatever template the caller set).
func (p *pass) updateDeploymentAndClearRollbackTo(d *api.Deployment) error {
	delete(d.Annotations, DeprecatedRollbackToAnnotation)
	_, err := p.client.Update(p.ctx, d)
	return err
}

// getRollbackTo returns the revision a rollback is requested to, or nil;
// an unparsable request is ignored.
func getRollbackTo(d *api.Deployment) *int64 {
	s := d.Annotations[DeprecatedRollbackToAnnotation]
	if s == "" {
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil
	}
	return &v
}
