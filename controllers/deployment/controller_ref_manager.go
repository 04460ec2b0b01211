package deployment

import (
	"errors"
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
)

// This file follows k/k pkg/controller/controller_ref_manager.go
// (ReplicaSetControllerRefManager.ClaimReplicaSets).

// ErrCannotAdopt is returned (wrapped) when a Deployment may not adopt
// orphans: a fresh read shows it gone, replaced (another uid) or being
// deleted.
var ErrCannotAdopt = errors.New("cannot adopt")

// refManager claims ReplicaSets for one Deployment during one sync.
type refManager struct {
	p   *pass
	d   *api.Deployment
	sel api.Selector
	// The adoption check runs at most once per sync, on the first orphan.
	checked  bool
	checkErr error
}

// getReplicaSetsForDeployment returns the cached ReplicaSets d owns after
// adopting matching orphans and releasing owned ones its selector no longer
// matches. Some claims may fail; the others are still returned, with the
// failures joined into the error.
func (p *pass) getReplicaSetsForDeployment(d *api.Deployment) ([]*api.ReplicaSet, error) {
	// All ReplicaSets of the namespace: owned ones that no longer match
	// must be seen to be released.
	all := p.listReplicaSets(d.Namespace, api.Everything())
	sel, err := api.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("deployment %s/%s has invalid label selector: %w", d.Namespace, d.Name, err)
	}
	m := &refManager{p: p, d: d, sel: sel}
	var claimed []*api.ReplicaSet
	var errs []error
	for _, rs := range all {
		ok, err := m.claim(rs)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			claimed = append(claimed, rs)
		}
	}
	return claimed, errors.Join(errs...)
}

// claim reports whether d owns rs after adopting or releasing it as
// needed (ClaimObject). No adoption or release happens while d is being
// deleted.
func (m *refManager) claim(rs *api.ReplicaSet) (bool, error) {
	match := m.sel.Matches(rs.Labels)
	if ref := api.GetControllerOfNoCopy(&rs.ObjectMeta); ref != nil {
		if ref.UID != m.d.UID {
			return false, nil // someone else's
		}
		if match {
			return true, nil
		}
		if m.d.DeletionTimestamp != nil {
			return false, nil
		}
		if err := m.release(rs); err != nil && !errors.Is(err, apierr.ErrNotFound) {
			return false, err
		}
		return false, nil
	}
	// An orphan.
	if m.d.DeletionTimestamp != nil || !match || rs.DeletionTimestamp != nil || rs.Namespace != m.d.Namespace {
		return false, nil
	}
	if err := m.adopt(rs); err != nil {
		if errors.Is(err, apierr.ErrNotFound) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// canAdopt rechecks with a live read, once, that d still exists with its
// uid and is not being deleted (the cache may be stale; kubernetes#42639).
func (m *refManager) canAdopt() error {
	if m.checked {
		return m.checkErr
	}
	m.checked = true
	fresh, err := client.GetAs[*api.Deployment](m.p.ctx, m.p.client, m.d.Key())
	switch {
	case err != nil:
		m.checkErr = err
	case fresh.UID != m.d.UID:
		m.checkErr = fmt.Errorf("%w: original Deployment %v/%v is gone: got uid %v, wanted %v", ErrCannotAdopt, m.d.Namespace, m.d.Name, fresh.UID, m.d.UID)
	case fresh.DeletionTimestamp != nil:
		m.checkErr = fmt.Errorf("%w: %v/%v has just been deleted at %v", ErrCannotAdopt, m.d.Namespace, m.d.Name, fresh.DeletionTimestamp.Time)
	}
	return m.checkErr
}

// adopt gives rs a controller reference to d. Upstream patches with a uid
// precondition; an update carries the cached resourceVersion, which is
// stricter: a stale cache gives a Conflict and a retry.
func (m *refManager) adopt(rs *api.ReplicaSet) error {
	if err := m.canAdopt(); err != nil {
		return fmt.Errorf("can't adopt ReplicaSet %v/%v (%v): %w", rs.Namespace, rs.Name, rs.UID, err)
	}
	cp := rs.DeepCopy()
	cp.OwnerReferences = append(cp.OwnerReferences, api.NewControllerRef(m.d))
	_, err := m.p.client.Update(m.p.ctx, cp)
	return err
}

// release removes d's references from rs. A ReplicaSet gone or refused as
// invalid needs no release.
func (m *refManager) release(rs *api.ReplicaSet) error {
	cp := rs.DeepCopy()
	var refs []api.OwnerReference
	for _, r := range cp.OwnerReferences {
		if r.UID != m.d.UID {
			refs = append(refs, r)
		}
	}
	cp.OwnerReferences = refs
	_, err := m.p.client.Update(m.p.ctx, cp)
	if errors.Is(err, apierr.ErrNotFound) || errors.Is(err, apierr.ErrInvalid) {
		return nil
	}
	return err
}
