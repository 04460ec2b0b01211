package replicaset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
)

// ErrCannotAdopt is wrapped by the error of an adoption refused because
// the ReplicaSet is gone, re-created or being deleted, as a fresh read
// shows.
var ErrCannotAdopt = errors.New("cannot adopt")

// claimer decides, pod by pod, which pods a ReplicaSet owns (upstream's
// PodControllerRefManager): it keeps pods it controls that its selector
// matches, adopts matching orphans and releases controlled pods that no
// longer match. Pods controlled by another object are left alone.
type claimer struct {
	r   *reconciler
	rs  *api.ReplicaSet
	sel api.Selector
	// canAdopt is checked once per claim round, with a live read, before
	// the first adoption.
	checked    bool
	canAdoptEr error
	// dryRun counts the adoptions and releases the claim would make, in
	// writes, instead of making them (verify.go).
	dryRun bool
	writes int
}

// claimPods returns the pods of pods rs owns after adopting and releasing;
// the error joins every failed adoption or release.
func (r *reconciler) claimPods(ctx context.Context, rs *api.ReplicaSet, sel api.Selector, pods []*api.Pod) ([]*api.Pod, error) {
	return (&claimer{r: r, rs: rs, sel: sel}).claimAll(ctx, pods)
}

// claimAll claims each of pods in turn.
func (c *claimer) claimAll(ctx context.Context, pods []*api.Pod) ([]*api.Pod, error) {
	var claimed []*api.Pod
	var errs []error
	for _, p := range pods {
		ok, err := c.claim(ctx, p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			claimed = append(claimed, p)
		}
	}
	return claimed, errors.Join(errs...)
}

// claim is upstream's ClaimObject for one pod.
func (c *claimer) claim(ctx context.Context, p *api.Pod) (bool, error) {
	match := c.sel.Matches(p.Labels)
	if ref := api.GetControllerOfNoCopy(&p.ObjectMeta); ref != nil {
		if ref.UID != c.rs.UID {
			return false, nil // owned by someone else
		}
		if match {
			// Ours, and still selected: claimed even while the
			// ReplicaSet is being deleted, which takes no action.
			return true, nil
		}
		if c.rs.DeletionTimestamp != nil {
			return false, nil
		}
		if err := c.release(ctx, p); err != nil && !errors.Is(err, apierr.ErrNotFound) {
			return false, err
		}
		return false, nil
	}
	// An orphan.
	if c.rs.DeletionTimestamp != nil || !match || p.DeletionTimestamp != nil || p.Namespace != c.rs.Namespace {
		return false, nil
	}
	if err := c.adopt(ctx, p); err != nil {
		if errors.Is(err, apierr.ErrNotFound) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// canAdopt rechecks, with a live read once per round, that the ReplicaSet
// still exists with the same UID and is not being deleted (upstream's
// RecheckDeletionTimestamp): the cache may not know yet.
func (c *claimer) canAdopt(ctx context.Context) error {
	if c.checked {
		return c.canAdoptEr
	}
	c.checked = true
	fresh, err := client.GetAs[*api.ReplicaSet](ctx, c.r.client, c.rs.GetObjectMeta().Key())
	switch {
	case err != nil:
		c.canAdoptEr = fmt.Errorf("can't recheck DeletionTimestamp: %w", err)
	case fresh.UID != c.rs.UID:
		c.canAdoptEr = fmt.Errorf("%w: original ReplicaSet %s/%s is gone: got uid %s, wanted %s", ErrCannotAdopt, c.rs.Namespace, c.rs.Name, fresh.UID, c.rs.UID)
	case fresh.DeletionTimestamp != nil:
		c.canAdoptEr = fmt.Errorf("%w: %s/%s has just been deleted at %s", ErrCannotAdopt, fresh.Namespace, fresh.Name, fresh.DeletionTimestamp.Time)
	}
	return c.canAdoptEr
}

// metaPatch is the metadata part of a patch. UID and ResourceVersion are
// preconditions: the server refuses the patch with Conflict when the pod
// was re-created or changed since it was read.
type metaPatch struct {
	OwnerReferences []api.OwnerReference `json:"ownerReferences"`
	UID             api.UID              `json:"uid"`
	ResourceVersion string               `json:"resourceVersion,omitempty"`
}

type objectPatch struct {
	Metadata metaPatch `json:"metadata"`
}

// adopt adds a controller reference to the ReplicaSet to an orphan pod
// with a strategic merge patch (ownerReferences merge by uid). Upstream
// relies on the API server refusing a second controller reference; this
// simulator's server does not validate that, so the patch also carries
// the pod's resourceVersion: a pod adopted meanwhile by someone else makes
// the patch fail with Conflict instead.
func (c *claimer) adopt(ctx context.Context, p *api.Pod) error {
	if c.dryRun {
		c.writes++
		return nil
	}
	if err := c.canAdopt(ctx); err != nil {
		return fmt.Errorf("can't adopt Pod %s/%s (%s): %w", p.Namespace, p.Name, p.UID, err)
	}
	body, err := json.Marshal(objectPatch{Metadata: metaPatch{
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(c.rs)},
		UID:             p.UID,
		ResourceVersion: p.ResourceVersion,
	}})
	if err != nil {
		return err
	}
	_, err = c.r.client.Patch(ctx, api.KindPod, p.GetObjectMeta().Key(), client.StrategicMergePatch, body)
	return err
}

// release removes the ReplicaSet's reference from a pod it controls. The
// server has no strategic-merge delete directive, so this is a JSON merge
// patch of the whole remaining list, guarded by the pod's uid and
// resourceVersion.
func (c *claimer) release(ctx context.Context, p *api.Pod) error {
	if c.dryRun {
		c.writes++
		return nil
	}
	body, err := removeOwnerPatch(p, c.rs.UID)
	if err != nil {
		return err
	}
	_, err = c.r.client.Patch(ctx, api.KindPod, p.GetObjectMeta().Key(), client.MergePatch, body)
	return err
}

// removeOwnerPatch returns a JSON merge patch that sets obj's
// ownerReferences to those it has now minus the ones pointing at owners,
// with obj's uid and resourceVersion as preconditions (upstream's
// deleteOwnerRefJSONMergePatch): applied to a changed object, it fails
// with Conflict rather than dropping someone else's reference.
func removeOwnerPatch(obj api.Object, owners ...api.UID) ([]byte, error) {
	m := obj.GetObjectMeta()
	refs := []api.OwnerReference{}
	for _, ref := range m.OwnerReferences {
		drop := false
		for _, uid := range owners {
			if ref.UID == uid {
				drop = true
				break
			}
		}
		if !drop {
			refs = append(refs, ref)
		}
	}
	return json.Marshal(objectPatch{Metadata: metaPatch{OwnerReferences: refs, UID: m.UID, ResourceVersion: m.ResourceVersion}})
}
