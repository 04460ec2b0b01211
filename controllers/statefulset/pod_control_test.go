package statefulset

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/informer"
)

// The tests of this file port upstream's stateful_pod_control_test.go (as
// stored by the index, no commit given) on clientControl, the podControl
// of the running controller: a fake client stands for upstream's fake
// clientset and its reactors, a claim cache for its claim lister. Not
// ported: TestStatefulPodControlCreatePodPvcGetFailure (a cache read here
// cannot fail), TestStatefulPodControlUpdatePodConflictSuccess (upstream's
// retry on conflict re-reads the pod from its lister; here the conflict
// is returned and the sync retried). TestPodClaimIsStale's owner
// references carry apiVersion v1 and kind Pod, as upstream's current
// hasStaleOwnerRef (stateful_set_utils.go) requires to match.

// claimCache is a claim lister the fake client's writes go to.
type claimCache struct{ informer.Static }

func (c *claimCache) put(claim *api.PersistentVolumeClaim) {
	for i, o := range c.Static {
		if o.GetObjectMeta().Key() == claim.Key() {
			c.Static[i] = claim
			return
		}
	}
	c.Static = append(c.Static, claim)
}

// podClient is the fake client: errors to return by kind and verb, the
// pods updated, a count of calls.
type podClient struct {
	client.Client
	claims                                             *claimCache
	createClaimErr, createPodErr, updateErr, deleteErr error
	updated                                            *api.Pod
	calls                                              int
	// statusErr fails the status writes, statusWrites counts them.
	statusErr    error
	statusWrites int
}

func (c *podClient) UpdateStatus(_ context.Context, o api.Object) (api.Object, error) {
	c.statusWrites++
	if c.statusErr != nil {
		return nil, c.statusErr
	}
	return o, nil
}

func (c *podClient) Create(_ context.Context, o api.Object) (api.Object, error) {
	c.calls++
	switch o := o.(type) {
	case *api.PersistentVolumeClaim:
		if c.createClaimErr != nil {
			return nil, c.createClaimErr
		}
		c.claims.put(o.DeepCopy())
	case *api.Pod:
		if c.createPodErr != nil {
			return nil, c.createPodErr
		}
	}
	return o, nil
}

func (c *podClient) Update(_ context.Context, o api.Object) (api.Object, error) {
	c.calls++
	if c.updateErr != nil {
		return nil, c.updateErr
	}
	switch o := o.(type) {
	case *api.PersistentVolumeClaim:
		c.claims.put(o.DeepCopy())
	case *api.Pod:
		c.updated = o.DeepCopy()
	}
	return o, nil
}

func (c *podClient) Delete(context.Context, api.Kind, api.Key, ...client.DeleteOption) error {
	c.calls++
	return c.deleteErr
}

type eventLog []string

func (e *eventLog) Eventf(_ api.Object, typ, reason, format string, args ...any) {
	*e = append(*e, typ+" "+reason+" "+fmt.Sprintf(format, args...))
}

// types returns the events' types, in order.
func (e eventLog) types() string {
	var out []string
	for _, x := range e {
		out = append(out, strings.Fields(x)[0])
	}
	return strings.Join(out, ",")
}

func newPodControl(claims ...*api.PersistentVolumeClaim) (*clientControl, *podClient, *eventLog) {
	cache := &claimCache{}
	for _, c := range claims {
		cache.put(c)
	}
	c := &podClient{claims: cache}
	ev := &eventLog{}
	return &clientControl{r: &reconciler{client: c, recorder: ev, claims: cache}}, c, ev
}

var errDown = &apierr.StatusError{Code: 500, Reason: apierr.InternalError, Message: "Internal error occurred: API server down"}

func TestStatefulPodControl(t *testing.T) {
	const normal, warning = client.EventTypeNormal, client.EventTypeWarning
	ctx := context.Background()
	t.Run("CreatesPods", func(t *testing.T) {
		set := newStatefulSet(3)
		pc, _, ev := newPodControl()
		if err := pc.createPod(ctx, set, newStatefulSetPod(set, 0)); err != nil {
			t.Fatal(err)
		}
		if ev.types() != normal+","+normal {
			t.Errorf("events %q, want two Normal (claim, pod)", *ev)
		}
	})
	// Not upstream's: with whenDeleted Delete the claims get the set's
	// reference when the pod is created (upstream's CreateStatefulPod
	// calls UpdatePodClaimForRetentionPolicy), not once it is ready.
	t.Run("CreatesPods sets the claims' references", func(t *testing.T) {
		set := newStatefulSet(3)
		set.Spec.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Delete", WhenScaled: "Retain"}
		p := newStatefulSetPod(set, 0)
		pc, c, _ := newPodControl()
		if err := pc.createPod(ctx, set, p); err != nil {
			t.Fatal(err)
		}
		for _, claim := range getPersistentVolumeClaims(set, p) {
			got, ok := c.claims.Get(claim.Key())
			if !ok || !hasOwnerRef(got.(*api.PersistentVolumeClaim), &set.ObjectMeta) {
				t.Errorf("claim %s has no reference to the set after the pod's creation", claim.Name)
			}
		}
	})
	t.Run("CreatePodExists", func(t *testing.T) {
		set := newStatefulSet(3)
		p := newStatefulSetPod(set, 0)
		pc, c, ev := newPodControl(getPersistentVolumeClaims(set, p)...)
		c.createPodErr = apierr.NewAlreadyExists("pods", p.Name)
		if err := pc.createPod(ctx, set, p); !errors.Is(err, apierr.ErrAlreadyExists) || len(*ev) != 0 {
			t.Errorf("create: %v, events %q; want AlreadyExists and none", err, *ev)
		}
	})
	t.Run("CreatePodPvcCreateFailure", func(t *testing.T) {
		set := newStatefulSet(3)
		pc, c, ev := newPodControl()
		c.createClaimErr = errDown
		if err := pc.createPod(ctx, set, newStatefulSetPod(set, 0)); err == nil || ev.types() != warning+","+warning {
			t.Errorf("create: %v, events %q; want an error and two Warning (claim, pod)", err, *ev)
		}
	})
	t.Run("CreatePodPVCDeleting", func(t *testing.T) {
		set := newStatefulSet(3)
		p := newStatefulSetPod(set, 0)
		claims := getPersistentVolumeClaims(set, p)
		for _, claim := range claims {
			ts := api.NewTime(t0)
			claim.DeletionTimestamp = &ts
		}
		pc, _, ev := newPodControl(claims...)
		if err := pc.createPod(ctx, set, p); err == nil || ev.types() != warning {
			t.Errorf("create: %v, events %q; want an error and one Warning", err, *ev)
		}
	})
	t.Run("CreatePodFailed", func(t *testing.T) {
		set := newStatefulSet(3)
		pc, c, ev := newPodControl()
		c.createPodErr = errDown
		if err := pc.createPod(ctx, set, newStatefulSetPod(set, 0)); err == nil || ev.types() != normal+","+warning {
			t.Errorf("create: %v, events %q; want an error, a Normal (claim) then a Warning (pod)", err, *ev)
		}
	})
	t.Run("NoOpUpdate", func(t *testing.T) {
		set := newStatefulSet(3)
		p := newStatefulSetPod(set, 0)
		pc, c, ev := newPodControl(getPersistentVolumeClaims(set, p)...)
		if err := pc.updatePod(ctx, set, p); err != nil || c.calls != 0 || len(*ev) != 0 {
			t.Errorf("update: %v, %d calls, events %q; want none", err, c.calls, *ev)
		}
	})
	t.Run("UpdatesIdentity", func(t *testing.T) {
		set := newStatefulSet(3)
		p := newStatefulSetPod(set, 0)
		pc, c, ev := newPodControl(getPersistentVolumeClaims(set, p)...)
		p.Name = "goo-0"
		if err := pc.updatePod(ctx, set, p); err != nil || ev.types() != normal || c.updated == nil || !identityMatches(set, c.updated) {
			t.Errorf("update: %v, events %q, updated %v; want one Normal and the identity restored", err, *ev, c.updated)
		}
	})
	t.Run("UpdateIdentityFailure", func(t *testing.T) {
		set := newStatefulSet(3)
		p := newStatefulSetPod(set, 0)
		pc, c, ev := newPodControl(getPersistentVolumeClaims(set, p)...)
		c.updateErr = errDown
		p.Name = "goo-0"
		if err := pc.updatePod(ctx, set, p); err == nil || ev.types() != warning {
			t.Errorf("update: %v, events %q; want an error and one Warning", err, *ev)
		}
	})
	withoutClaimVolumes := func(set *api.StatefulSet, p *api.Pod) {
		var vols []api.Volume
		for _, v := range p.Spec.Volumes {
			if claimNameOf(&v) == "" {
				vols = append(vols, v)
			}
		}
		p.Spec.Volumes = vols
	}
	t.Run("UpdatesPodStorage", func(t *testing.T) {
		set := newStatefulSet(3)
		p := newStatefulSetPod(set, 0)
		withoutClaimVolumes(set, p)
		pc, c, ev := newPodControl()
		if err := pc.updatePod(ctx, set, p); err != nil || ev.types() != normal+","+normal || c.updated == nil || !storageMatches(set, c.updated) {
			t.Errorf("update: %v, events %q; want two Normal (claim, pod) and the storage restored", err, *ev)
		}
	})
	t.Run("UpdatePodStorageFailure", func(t *testing.T) {
		set := newStatefulSet(3)
		p := newStatefulSetPod(set, 0)
		withoutClaimVolumes(set, p)
		pc, c, ev := newPodControl()
		c.createClaimErr = errDown
		if err := pc.updatePod(ctx, set, p); err == nil || ev.types() != warning+","+warning {
			t.Errorf("update: %v, events %q; want an error and two Warning", err, *ev)
		}
	})
	t.Run("DeletesStatefulPod", func(t *testing.T) {
		set := newStatefulSet(3)
		pc, _, ev := newPodControl()
		if err := pc.deletePod(ctx, set, newStatefulSetPod(set, 0)); err != nil || ev.types() != normal {
			t.Errorf("delete: %v, events %q; want one Normal", err, *ev)
		}
	})
	t.Run("DeleteFailure", func(t *testing.T) {
		set := newStatefulSet(3)
		pc, c, ev := newPodControl()
		c.deleteErr = errDown
		if err := pc.deletePod(ctx, set, newStatefulSetPod(set, 0)); err == nil || ev.types() != warning {
			t.Errorf("delete: %v, events %q; want an error and one Warning", err, *ev)
		}
	})
	t.Run("ClaimsMatchDeletionPolcy", func(t *testing.T) {
		set := newStatefulSet(3)
		p := newStatefulSetPod(set, 0)
		pc, _, _ := newPodControl(getPersistentVolumeClaims(set, p)...)
		set.Spec.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Retain", WhenScaled: "Retain"}
		if !pc.claimsMatchRetentionPolicy(set, p) {
			t.Error("no match for Retain")
		}
		set.Spec.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Delete", WhenScaled: "Retain"}
		if pc.claimsMatchRetentionPolicy(set, p) {
			t.Error("a match for a set deletion policy without the set's references")
		}
	})
	t.Run("UpdatePodClaimForRetentionPolicy", func(t *testing.T) {
		set := newStatefulSet(3)
		set.UID = "set-123"
		p := newStatefulSetPod(set, 0)
		pc, c, _ := newPodControl(getPersistentVolumeClaims(set, p)...)
		set.Spec.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Delete", WhenScaled: "Retain"}
		if err := pc.updateClaimsForRetentionPolicy(ctx, set, p); err != nil {
			t.Fatal(err)
		}
		for _, claim := range getPersistentVolumeClaims(set, p) {
			got, ok := c.claims.Get(claim.Key())
			if !ok || !hasOwnerRef(got.(*api.PersistentVolumeClaim), &set.ObjectMeta) {
				t.Errorf("claim %s has no reference to the set", claim.Name)
			}
		}
	})
	t.Run("RetainDeletionPolicyUpdate", func(t *testing.T) {
		set := newStatefulSet(1)
		set.Spec.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Retain", WhenScaled: "Retain"}
		p := newStatefulSetPod(set, 0)
		claims := getPersistentVolumeClaims(set, p)
		for _, claim := range claims {
			claim.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "StatefulSet", Name: set.Name, UID: set.UID}}
		}
		pc, c, ev := newPodControl(claims...)
		if err := pc.updatePod(ctx, set, p); err != nil {
			t.Fatal(err)
		}
		for _, claim := range claims {
			got, _ := c.claims.Get(claim.Key())
			if hasOwnerRef(got.(*api.PersistentVolumeClaim), &set.ObjectMeta) {
				t.Errorf("claim %s keeps its reference to the set", claim.Name)
			}
		}
		if len(*ev) != 1 {
			t.Errorf("events %q, want one", *ev)
		}
	})
}

func TestPodClaimIsStale(t *testing.T) {
	const missing, exists, stale, withRef = "missing", "exists", "stale", "with-ref"
	for _, tc := range []struct {
		name       string
		states     []string
		skipPodUID bool
		want       bool
	}{
		{"all missing", []string{missing, missing}, false, false},
		{"no claims", nil, false, false},
		{"exists", []string{missing, exists}, false, false},
		{"all refs", []string{withRef, withRef}, false, false},
		{"stale & exists", []string{stale, exists}, false, true},
		{"stale & missing", []string{stale, missing}, false, true},
		{"withRef & stale", []string{withRef, stale}, false, true},
		{"withRef, no UID", []string{withRef}, true, true},
	} {
		set := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "set", Namespace: "default"}, Spec: api.StatefulSetSpec{
			PersistentVolumeClaimRetentionPolicy: &api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Retain", WhenScaled: "Delete"},
			Selector:                             &api.LabelSelector{MatchLabels: map[string]string{"key": "value"}}}}
		var claims []*api.PersistentVolumeClaim
		for i, state := range tc.states {
			set.Spec.VolumeClaimTemplates = append(set.Spec.VolumeClaimTemplates, api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("claim-%d", i)}})
			claim := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("claim-%d-set-3", i), Namespace: "default"}}
			ref := func(uid api.UID) []api.OwnerReference {
				return []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "set-3", UID: uid}}
			}
			switch state {
			case missing:
				continue
			case stale:
				claim.OwnerReferences = ref("stale")
			case withRef:
				claim.OwnerReferences = ref("123")
			}
			claims = append(claims, claim)
		}
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "set-3", UID: "123"}}
		if tc.skipPodUID {
			p.UID = ""
		}
		pc, _, _ := newPodControl(claims...)
		if got := pc.claimIsStale(set, p); got != tc.want {
			t.Errorf("%s: stale %v, want %v", tc.name, got, tc.want)
		}
	}
}
