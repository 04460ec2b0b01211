package deployment

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// The tables of this file come from k/k
// pkg/controller/deployment/sync_test.go (the mainline copy read at
// k/k@003e8629 has the same rows).
//
// Rows that cannot apply: a stored copy of that file for the alpha
// DeploymentPodReplacementPolicy gate (spec.podReplacementPolicy, with a
// second proportional-scaling algorithm, scaleV2, and the annotation
// deployment.kubernetes.io/replicaset-replicas-before-scale) adds TestScale
// rows run only with that gate on, such as "scaling event with terminating
// pods is not partial with empty policy:: 10 -> 14", "scaling event with
// terminating pods and TerminationComplete policy: 10 -> 12 (14)" and
// "proportional partial scaling with maxSurge, terminating and surge pods
// and TerminationComplete policy [part 3]: 100 -> 130 (130)", and a
// cleanupDeployment row ("Only delete the replica set with Spec.Replicas =
// Status.Replicas = Status.TerminatingReplicas = 0") run only with it on.
// clustersim does not simulate that field or algorithm; v1.37.0 ships the
// gate off.

func TestScale(t *testing.T) {
	newTimestamp := time.Date(2016, 5, 20, 2, 0, 0, 0, time.UTC)
	oldTimestamp := time.Date(2016, 5, 20, 1, 0, 0, 0, time.UTC)
	olderTimestamp := time.Date(2016, 5, 20, 0, 0, 0, 0, time.UTC)
	updatedTemplate := func(replicas int32) *api.Deployment {
		d := newDeployment("foo", replicas, nil, nil, nil, map[string]string{"foo": "bar"})
		d.Spec.Template.Labels = map[string]string{"foo": "bar", "another": "label"}
		return d
	}
	surge := func(n int32) *api.IntOrString { return intstrp(api.FromInt32(n)) }

	tests := []struct {
		name          string
		deployment    *api.Deployment
		oldDeployment *api.Deployment

		newRS  *api.ReplicaSet
		oldRSs []*api.ReplicaSet

		expectedNew  *api.ReplicaSet
		expectedOld  []*api.ReplicaSet
		wasntUpdated map[string]bool

		desiredReplicasAnnotations map[string]int32
	}{
		{
			name:          "normal scaling event: 10 -> 12",
			deployment:    newDeployment("foo", 12, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 10, nil, nil, nil, nil),
			newRS:         rs("foo-v1", 10, nil, newTimestamp),
			expectedNew:   rs("foo-v1", 12, nil, newTimestamp),
		},
		{
			name:          "normal scaling event: 10 -> 5",
			deployment:    newDeployment("foo", 5, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 10, nil, nil, nil, nil),
			newRS:         rs("foo-v1", 10, nil, newTimestamp),
			expectedNew:   rs("foo-v1", 5, nil, newTimestamp),
		},
		{
			name:          "proportional scaling: 5 -> 10",
			deployment:    newDeployment("foo", 10, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 5, nil, nil, nil, nil),
			newRS:         rs("foo-v2", 2, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v1", 3, nil, oldTimestamp)},
			expectedNew:   rs("foo-v2", 4, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v1", 6, nil, oldTimestamp)},
		},
		{
			name:          "proportional scaling: 5 -> 3",
			deployment:    newDeployment("foo", 3, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 5, nil, nil, nil, nil),
			newRS:         rs("foo-v2", 2, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v1", 3, nil, oldTimestamp)},
			expectedNew:   rs("foo-v2", 1, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v1", 2, nil, oldTimestamp)},
		},
		{
			name:          "proportional scaling: 9 -> 4",
			deployment:    newDeployment("foo", 4, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 9, nil, nil, nil, nil),
			newRS:         rs("foo-v2", 8, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v1", 1, nil, oldTimestamp)},
			expectedNew:   rs("foo-v2", 4, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v1", 0, nil, oldTimestamp)},
		},
		{
			name:          "proportional scaling: 7 -> 10",
			deployment:    newDeployment("foo", 10, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 7, nil, nil, nil, nil),
			newRS:         rs("foo-v3", 2, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v2", 3, nil, oldTimestamp), rs("foo-v1", 2, nil, olderTimestamp)},
			expectedNew:   rs("foo-v3", 3, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v2", 4, nil, oldTimestamp), rs("foo-v1", 3, nil, olderTimestamp)},
		},
		{
			name:          "proportional scaling: 13 -> 8",
			deployment:    newDeployment("foo", 8, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 13, nil, nil, nil, nil),
			newRS:         rs("foo-v3", 2, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v2", 8, nil, oldTimestamp), rs("foo-v1", 3, nil, olderTimestamp)},
			expectedNew:   rs("foo-v3", 1, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v2", 5, nil, oldTimestamp), rs("foo-v1", 2, nil, olderTimestamp)},
		},
		// Scales up the new replica set.
		{
			name:          "leftover distribution: 3 -> 4",
			deployment:    newDeployment("foo", 4, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 3, nil, nil, nil, nil),
			newRS:         rs("foo-v3", 1, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v2", 1, nil, oldTimestamp), rs("foo-v1", 1, nil, olderTimestamp)},
			expectedNew:   rs("foo-v3", 2, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v2", 1, nil, oldTimestamp), rs("foo-v1", 1, nil, olderTimestamp)},
		},
		// Scales down the older replica set.
		{
			name:          "leftover distribution: 3 -> 2",
			deployment:    newDeployment("foo", 2, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 3, nil, nil, nil, nil),
			newRS:         rs("foo-v3", 1, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v2", 1, nil, oldTimestamp), rs("foo-v1", 1, nil, olderTimestamp)},
			expectedNew:   rs("foo-v3", 1, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v2", 1, nil, oldTimestamp), rs("foo-v1", 0, nil, olderTimestamp)},
		},
		// Scales up the latest replica set first.
		{
			name:          "proportional scaling (no new rs): 4 -> 5",
			deployment:    newDeployment("foo", 5, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 4, nil, nil, nil, nil),
			oldRSs:        []*api.ReplicaSet{rs("foo-v2", 2, nil, oldTimestamp), rs("foo-v1", 2, nil, olderTimestamp)},
			expectedOld:   []*api.ReplicaSet{rs("foo-v2", 3, nil, oldTimestamp), rs("foo-v1", 2, nil, olderTimestamp)},
		},
		// Scales down to zero.
		{
			name:          "proportional scaling: 6 -> 0",
			deployment:    newDeployment("foo", 0, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 6, nil, nil, nil, nil),
			newRS:         rs("foo-v3", 3, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v2", 2, nil, oldTimestamp), rs("foo-v1", 1, nil, olderTimestamp)},
			expectedNew:   rs("foo-v3", 0, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v2", 0, nil, oldTimestamp), rs("foo-v1", 0, nil, olderTimestamp)},
		},
		// Scales up from zero.
		{
			name:          "proportional scaling: 0 -> 6",
			deployment:    newDeployment("foo", 6, nil, nil, nil, nil),
			oldDeployment: newDeployment("foo", 6, nil, nil, nil, nil),
			newRS:         rs("foo-v3", 0, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v2", 0, nil, oldTimestamp), rs("foo-v1", 0, nil, olderTimestamp)},
			expectedNew:   rs("foo-v3", 6, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v2", 0, nil, oldTimestamp), rs("foo-v1", 0, nil, olderTimestamp)},
			wasntUpdated:  map[string]bool{"foo-v2": true, "foo-v1": true},
		},
		// Scaled from 3 (1 each) to 5: foo-v3 and foo-v2 should grow by
		// one, but foo-v2's update "fails" (it is ignored below).
		{
			name:                       "failed rs update",
			deployment:                 newDeployment("foo", 5, nil, nil, nil, nil),
			oldDeployment:              newDeployment("foo", 5, nil, nil, nil, nil),
			newRS:                      rs("foo-v3", 2, nil, newTimestamp),
			oldRSs:                     []*api.ReplicaSet{rs("foo-v2", 1, nil, oldTimestamp), rs("foo-v1", 1, nil, olderTimestamp)},
			expectedNew:                rs("foo-v3", 2, nil, newTimestamp),
			expectedOld:                []*api.ReplicaSet{rs("foo-v2", 2, nil, oldTimestamp), rs("foo-v1", 1, nil, olderTimestamp)},
			wasntUpdated:               map[string]bool{"foo-v3": true, "foo-v1": true},
			desiredReplicasAnnotations: map[string]int32{"foo-v2": 3},
		},
		{
			name:          "deployment with surge pods",
			deployment:    newDeployment("foo", 20, nil, surge(2), nil, nil),
			oldDeployment: newDeployment("foo", 10, nil, surge(2), nil, nil),
			newRS:         rs("foo-v2", 6, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v1", 6, nil, oldTimestamp)},
			expectedNew:   rs("foo-v2", 11, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v1", 11, nil, oldTimestamp)},
		},
		{
			name:          "change both surge and size",
			deployment:    newDeployment("foo", 50, nil, surge(6), nil, nil),
			oldDeployment: newDeployment("foo", 10, nil, surge(3), nil, nil),
			newRS:         rs("foo-v2", 5, nil, newTimestamp),
			oldRSs:        []*api.ReplicaSet{rs("foo-v1", 8, nil, oldTimestamp)},
			expectedNew:   rs("foo-v2", 22, nil, newTimestamp),
			expectedOld:   []*api.ReplicaSet{rs("foo-v1", 34, nil, oldTimestamp)},
		},
		{
			name:          "change both size and template",
			deployment:    updatedTemplate(14),
			oldDeployment: newDeployment("foo", 10, nil, nil, nil, map[string]string{"foo": "bar"}),
			oldRSs:        []*api.ReplicaSet{rs("foo-v2", 7, nil, newTimestamp), rs("foo-v1", 3, nil, oldTimestamp)},
			expectedOld:   []*api.ReplicaSet{rs("foo-v2", 10, nil, newTimestamp), rs("foo-v1", 4, nil, oldTimestamp)},
		},
		{
			name:          "saturated but broken new replica set does not affect old pods",
			deployment:    newDeployment("foo", 2, nil, surge(1), intstrp(api.FromInt32(1)), nil),
			oldDeployment: newDeployment("foo", 2, nil, surge(1), intstrp(api.FromInt32(1)), nil),
			newRS: func() *api.ReplicaSet {
				r := rs("foo-v2", 2, nil, newTimestamp)
				r.Status.AvailableReplicas = 0
				return r
			}(),
			oldRSs:      []*api.ReplicaSet{rs("foo-v1", 1, nil, oldTimestamp)},
			expectedNew: rs("foo-v2", 2, nil, newTimestamp),
			expectedOld: []*api.ReplicaSet{rs("foo-v1", 1, nil, oldTimestamp)},
		},
		// Not upstream: a saturated, available new ReplicaSet takes every
		// pod from the old ones.
		{
			name:          "saturated and available new replica set scales old ones to 0",
			deployment:    newDeployment("foo", 2, nil, surge(1), intstrp(api.FromInt32(1)), nil),
			oldDeployment: newDeployment("foo", 2, nil, surge(1), intstrp(api.FromInt32(1)), nil),
			newRS: func() *api.ReplicaSet {
				r := rs("foo-v2", 2, nil, newTimestamp)
				r.Status.AvailableReplicas = 2
				return r
			}(),
			oldRSs:      []*api.ReplicaSet{rs("foo-v1", 1, nil, oldTimestamp)},
			expectedNew: rs("foo-v2", 2, nil, newTimestamp),
			expectedOld: []*api.ReplicaSet{rs("foo-v1", 0, nil, oldTimestamp)},
		},
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			annotate := func(r *api.ReplicaSet) {
				desired := *tt.oldDeployment.Spec.Replicas
				if v, ok := tt.desiredReplicasAnnotations[r.Name]; ok {
					desired = v
				}
				SetReplicasAnnotations(r, desired, desired+MaxSurge(tt.oldDeployment))
			}
			if tt.newRS != nil {
				annotate(tt.newRS)
			}
			for _, r := range tt.oldRSs {
				annotate(r)
			}
			if err := f.pass().scale(tt.deployment, tt.newRS, tt.oldRSs); err != nil {
				t.Fatal(err)
			}
			sizes := map[string]int32{}
			if tt.newRS != nil {
				sizes[tt.newRS.Name] = *tt.newRS.Spec.Replicas
			}
			for _, r := range tt.oldRSs {
				sizes[r.Name] = *r.Spec.Replicas
			}
			for _, a := range f.client.writes() {
				r := a.obj.(*api.ReplicaSet)
				if !tt.wasntUpdated[r.Name] {
					sizes[r.Name] = *r.Spec.Replicas
				}
				// Every write carries the new replicas annotations.
				if r.Annotations[DesiredReplicasAnnotation] != itoa(*tt.deployment.Spec.Replicas) {
					t.Errorf("%s written with desired-replicas %q, want %d", r.Name, r.Annotations[DesiredReplicasAnnotation], *tt.deployment.Spec.Replicas)
				}
			}
			if tt.expectedNew != nil && tt.newRS != nil && sizes[tt.newRS.Name] != *tt.expectedNew.Spec.Replicas {
				t.Errorf("new replicas = %d, want %d", sizes[tt.newRS.Name], *tt.expectedNew.Spec.Replicas)
			}
			if len(tt.expectedOld) != len(tt.oldRSs) {
				t.Fatalf("%d old ReplicaSets expected, %d given", len(tt.expectedOld), len(tt.oldRSs))
			}
			for i, r := range tt.oldRSs {
				if want := *tt.expectedOld[i].Spec.Replicas; sizes[r.Name] != want {
					t.Errorf("old %s replicas = %d, want %d", r.Name, sizes[r.Name], want)
				}
			}
		})
	}
}

func itoa(v int32) string { return deref(&v) }

func TestScaleEvents(t *testing.T) {
	d := newDeployment("foo", 10, nil, nil, nil, nil)
	old := newDeployment("foo", 5, nil, nil, nil, nil)
	newRS := rs("foo-v2", 2, nil, testTime)
	oldRS := rs("foo-v1", 3, nil, testTime.Add(-time.Minute))
	for _, r := range []*api.ReplicaSet{newRS, oldRS} {
		SetReplicasAnnotations(r, 5, 5+MaxSurge(old))
	}
	f := newFixture(t)
	if err := f.pass().scale(d, newRS, []*api.ReplicaSet{oldRS}); err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, e := range f.recorder.events {
		msgs = append(msgs, e.typ+" "+e.reason+" "+e.message)
	}
	want := []string{
		"Normal ScalingReplicaSet Scaled up replica set foo-v1 from 3 to 6",
		"Normal ScalingReplicaSet Scaled up replica set foo-v2 from 2 to 4",
	}
	if !slices.Equal(msgs, want) {
		t.Errorf("events = %q, want %q", msgs, want)
	}
}

func TestDeploymentController_cleanupDeployment(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	alreadyDeleted := newRSWithStatus("foo-1", 0, 0, selector)
	now := api.NewTime(testTime)
	alreadyDeleted.DeletionTimestamp = &now
	unobserved := newRSWithStatus("foo-2", 0, 0, selector)
	unobserved.Generation = 2
	unobserved.Status.ObservedGeneration = 1

	tests := []struct {
		name                 string
		oldRSs               []*api.ReplicaSet
		revisionHistoryLimit int32
		expectedDeletions    int
	}{
		{"three empty, keep one", []*api.ReplicaSet{newRSWithStatus("foo-1", 0, 0, selector), newRSWithStatus("foo-2", 0, 0, selector), newRSWithStatus("foo-3", 0, 0, selector)}, 1, 2},
		// Only ReplicaSets with spec.replicas = status.replicas = 0 go.
		{"only empty ones", []*api.ReplicaSet{newRSWithStatus("foo-1", 0, 0, selector), newRSWithStatus("foo-2", 0, 1, selector), newRSWithStatus("foo-3", 1, 0, selector), newRSWithStatus("foo-4", 1, 1, selector)}, 0, 1},
		{"keep none", []*api.ReplicaSet{newRSWithStatus("foo-1", 0, 0, selector), newRSWithStatus("foo-2", 0, 0, selector)}, 0, 2},
		{"none empty", []*api.ReplicaSet{newRSWithStatus("foo-1", 1, 1, selector), newRSWithStatus("foo-2", 1, 1, selector)}, 0, 0},
		{"already being deleted", []*api.ReplicaSet{alreadyDeleted}, 0, 0},
		{"generation not observed", []*api.ReplicaSet{unobserved}, 0, 0},
		{"unlimited history", []*api.ReplicaSet{newRSWithStatus("foo-1", 0, 0, selector), newRSWithStatus("foo-2", 0, 0, selector), newRSWithStatus("foo-3", 0, 0, selector)}, math.MaxInt32, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs := make([]api.Object, 0, len(tt.oldRSs))
			for _, r := range tt.oldRSs {
				objs = append(objs, r)
			}
			f := newFixture(t, objs...)
			d := newDeployment("foo", 1, &tt.revisionHistoryLimit, nil, nil, selector)
			if err := f.pass().cleanupDeployment(tt.oldRSs, d); err != nil {
				t.Fatal(err)
			}
			deletions := 0
			for _, a := range f.client.writes() {
				if a.verb == "delete" {
					deletions++
				}
			}
			if deletions != tt.expectedDeletions {
				t.Errorf("%d deletions, want %d", deletions, tt.expectedDeletions)
			}
		})
	}
}

func TestDeploymentController_cleanupDeploymentOrder(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	withRevision := func(n string, replicas int32, ts time.Time, revision string) *api.ReplicaSet {
		r := rs(n, replicas, selector, ts)
		if revision != "" {
			r.Annotations = map[string]string{RevisionAnnotation: revision}
		}
		r.Status = api.ReplicaSetStatus{Replicas: replicas}
		return r
	}
	now, m := testTime, time.Minute
	tests := []struct {
		name                 string
		oldRSs               []*api.ReplicaSet
		revisionHistoryLimit int32
		want                 []string
	}{
		{"revision order rs1 < rs2: delete rs1", []*api.ReplicaSet{withRevision("foo-1", 0, now.Add(-m), "1"), withRevision("foo-2", 0, now, "2")}, 1, []string{"foo-1"}},
		{"revision order rs2 < rs1: delete rs2", []*api.ReplicaSet{withRevision("foo-1", 0, now.Add(-m), "2"), withRevision("foo-2", 0, now, "1")}, 1, []string{"foo-2"}},
		{"rs2 without revision: delete rs2", []*api.ReplicaSet{withRevision("foo-1", 0, now.Add(-m), "1"), withRevision("foo-2", 0, now, "")}, 1, []string{"foo-2"}},
		{"rs1 without revision: delete rs1", []*api.ReplicaSet{withRevision("foo-1", 0, now.Add(-m), ""), withRevision("foo-2", 0, now, "2")}, 1, []string{"foo-1"}},
		{"rs1 has replicas: delete rs2", []*api.ReplicaSet{withRevision("foo-1", 1, now.Add(-m), "1"), withRevision("foo-2", 0, now, "2"), withRevision("foo-3", 0, now.Add(m), "3")}, 1, []string{"foo-2"}},
		{"rs1 and rs2 have replicas: delete nothing", []*api.ReplicaSet{withRevision("foo-1", 1, now.Add(-m), "1"), withRevision("foo-2", 1, now, "2"), withRevision("foo-3", 0, now.Add(m), "3")}, 1, nil},
		{"revision order rs2 < rs4 < rs1 < rs3: delete rs2 and rs4", []*api.ReplicaSet{withRevision("foo-1", 0, now.Add(-m), "3"), withRevision("foo-2", 0, now, "1"), withRevision("foo-3", 0, now.Add(m), "4"), withRevision("foo-4", 0, now.Add(2*m), "2")}, 2, []string{"foo-2", "foo-4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs := make([]api.Object, 0, len(tt.oldRSs))
			for _, r := range tt.oldRSs {
				objs = append(objs, r)
			}
			f := newFixture(t, objs...)
			d := newDeployment("foo", 1, &tt.revisionHistoryLimit, nil, nil, selector)
			if err := f.pass().cleanupDeployment(tt.oldRSs, d); err != nil {
				t.Fatal(err)
			}
			var deleted []string
			for _, a := range f.client.writes() {
				if a.verb == "delete" {
					deleted = append(deleted, a.key.Name)
				}
			}
			slices.Sort(deleted)
			if !slices.Equal(deleted, tt.want) {
				t.Errorf("deleted %v, want %v", deleted, tt.want)
			}
		})
	}
}

func TestCleanupDeploymentStopsAtFirstError(t *testing.T) {
	selector := map[string]string{"foo": "bar"}
	rss := []*api.ReplicaSet{newRSWithStatus("foo-1", 0, 0, selector), newRSWithStatus("foo-2", 0, 0, selector)}
	f := newFixture(t, rss[0], rss[1])
	f.client.fail = func(a action) error {
		if a.verb == "delete" {
			return apierr.NewServiceUnavailable("overloaded")
		}
		return nil
	}
	d := newDeployment("foo", 1, int32p(0), nil, nil, selector)
	if err := f.pass().cleanupDeployment(rss, d); !errors.Is(err, apierr.ErrServiceUnavailable) {
		t.Fatalf("error = %v, want ServiceUnavailable", err)
	}
	if n := len(f.client.writes()); n != 1 {
		t.Errorf("%d deletes attempted, want 1", n)
	}
}

func TestCalculateStatus(t *testing.T) {
	d := newDeployment("foo", 3, nil, intstrp(api.FromInt32(1)), intstrp(api.FromInt32(1)), map[string]string{"foo": "bar"})
	d.Generation = 4
	d.Status.CollisionCount = int32p(2)
	withStatus := func(r *api.ReplicaSet, replicas, ready, available int32, terminating *int32) *api.ReplicaSet {
		r.Status = api.ReplicaSetStatus{Replicas: replicas, ReadyReplicas: ready, AvailableReplicas: available, TerminatingReplicas: terminating, ObservedGeneration: 1}
		return r
	}
	newRS := withStatus(rs("new", 2, nil, testTime), 2, 2, 1, int32p(0))
	oldRS := withStatus(rs("old", 2, nil, testTime), 2, 2, 2, int32p(1))
	got := calculateStatus([]*api.ReplicaSet{oldRS, newRS}, newRS, d, testTime)
	want := api.DeploymentStatus{
		ObservedGeneration:  4,
		Replicas:            4,
		UpdatedReplicas:     2,
		ReadyReplicas:       4,
		AvailableReplicas:   3,
		UnavailableReplicas: 1,
		TerminatingReplicas: int32p(1),
		CollisionCount:      int32p(2),
		Conditions: []api.DeploymentCondition{{
			Type: api.DeploymentAvailable, Status: api.ConditionTrue, Reason: MinimumReplicasAvailable,
			Message: "Deployment has minimum availability.", LastUpdateTime: api.NewTime(testTime), LastTransitionTime: api.NewTime(testTime),
		}},
	}
	if !api.SemanticEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}

	// Below minimum availability (3 - 1 = 2).
	oldRS.Status.AvailableReplicas = 0
	got = calculateStatus([]*api.ReplicaSet{oldRS, newRS}, newRS, d, testTime)
	c := GetDeploymentCondition(got, api.DeploymentAvailable)
	if c == nil || c.Status != api.ConditionFalse || c.Reason != MinimumReplicasUnavailable || c.Message != "Deployment does not have minimum availability." {
		t.Errorf("Available = %+v, want False MinimumReplicasUnavailable", c)
	}
	if len(d.Status.Conditions) != 0 {
		t.Errorf("calculateStatus changed the Deployment's conditions")
	}
}

func TestGetNewReplicaSetCreates(t *testing.T) {
	d := newDeployment("foo", 3, nil, intstrp(api.FromInt32(1)), nil, map[string]string{"foo": "bar"})
	d.Annotations = map[string]string{"kubernetes.io/change-cause": "initial", LastAppliedConfigAnnotation: "{}"}
	d.Spec.MinReadySeconds = 5
	d.Spec.ProgressDeadlineSeconds = int32p(600)
	old := newReplicaSet(d, "foo-old", 2)
	old.Annotations = map[string]string{RevisionAnnotation: "4"}
	old.Spec.Template.Spec.Containers[0].Image = "foo/old"
	f := newFixture(t, d, old)
	p := f.pass()
	created, err := p.getNewReplicaSet(d, []*api.ReplicaSet{old}, []*api.ReplicaSet{old}, true)
	if err != nil {
		t.Fatal(err)
	}
	hash := ComputeHash(&d.Spec.Template, nil)
	if created.Name != "foo-"+hash {
		t.Errorf("name = %s, want foo-%s", created.Name, hash)
	}
	if got := created.Labels[DefaultDeploymentUniqueLabelKey]; got != hash {
		t.Errorf("label %s = %q, want %q", DefaultDeploymentUniqueLabelKey, got, hash)
	}
	if got := created.Spec.Template.Labels[DefaultDeploymentUniqueLabelKey]; got != hash {
		t.Errorf("template label = %q, want %q", got, hash)
	}
	if got := created.Spec.Selector.MatchLabels; got["foo"] != "bar" || got[DefaultDeploymentUniqueLabelKey] != hash {
		t.Errorf("selector = %v", got)
	}
	if _, ok := d.Spec.Template.Labels[DefaultDeploymentUniqueLabelKey]; ok {
		t.Errorf("the Deployment's own template got the hash label")
	}
	if ref := api.GetControllerOfNoCopy(&created.ObjectMeta); ref == nil || ref.UID != d.UID || ref.Kind != "Deployment" {
		t.Errorf("controller ref = %+v", ref)
	}
	// 3 + 1 surge − 2 old = 2.
	if *created.Spec.Replicas != 2 || created.Spec.MinReadySeconds != 5 {
		t.Errorf("replicas %d, minReadySeconds %d; want 2 and 5", *created.Spec.Replicas, created.Spec.MinReadySeconds)
	}
	wantAnn := map[string]string{
		"kubernetes.io/change-cause": "initial",
		RevisionAnnotation:           "5",
		DesiredReplicasAnnotation:    "3",
		MaxReplicasAnnotation:        "4",
	}
	if !api.SemanticEqual(created.Annotations, wantAnn) {
		t.Errorf("annotations = %v, want %v", created.Annotations, wantAnn)
	}
	// Revision copied to the Deployment, Progressing NewReplicaSetCreated.
	st := f.lastStatus()
	if st == nil || st.Annotations[RevisionAnnotation] != "5" {
		t.Fatalf("status update %v without revision 5", st)
	}
	c := GetDeploymentCondition(st.Status, api.DeploymentProgressing)
	if c == nil || c.Status != api.ConditionTrue || c.Reason != NewReplicaSetReason || c.Message != `Created new replica set "foo-`+hash+`"` {
		t.Errorf("Progressing = %+v", c)
	}
	want := []event{{object: "foo", typ: "Normal", reason: ScalingReplicaSetReason, message: "Scaled up replica set foo-" + hash + " from 0 to 2"}}
	if !slices.Equal(f.recorder.events, want) {
		t.Errorf("events = %+v, want %+v", f.recorder.events, want)
	}
}

func TestGetNewReplicaSetExisting(t *testing.T) {
	d := newDeployment("foo", 3, nil, nil, nil, map[string]string{"foo": "bar"})
	d.Spec.ProgressDeadlineSeconds = int32p(600)
	d.Spec.MinReadySeconds = 7
	cur := newReplicaSet(d, "foo-cur", 3)
	cur.Annotations = map[string]string{RevisionAnnotation: "2", DesiredReplicasAnnotation: "3", MaxReplicasAnnotation: "3"}
	cur.Spec.MinReadySeconds = 7
	old := newReplicaSet(d, "foo-old", 0)
	old.Annotations = map[string]string{RevisionAnnotation: "1"}
	old.Spec.Template.Spec.Containers[0].Image = "foo/old"

	t.Run("up to date: revision copied, FoundNewReplicaSet", func(t *testing.T) {
		f := newFixture(t, d, cur, old)
		got, err := f.pass().getNewReplicaSet(d.DeepCopy(), []*api.ReplicaSet{cur, old}, []*api.ReplicaSet{old}, false)
		if err != nil || got.Name != "foo-cur" {
			t.Fatalf("got %v, %v", name(got), err)
		}
		if v := f.client.verbs(); !slices.Equal(v, []string{"update-status Deployment foo"}) {
			t.Fatalf("writes = %v", v)
		}
		st := f.lastStatus()
		c := GetDeploymentCondition(st.Status, api.DeploymentProgressing)
		if st.Annotations[RevisionAnnotation] != "2" || c == nil || c.Reason != FoundNewRSReason || c.Message != `Found new replica set "foo-cur"` {
			t.Errorf("status write: revision %q, Progressing %+v", st.Annotations[RevisionAnnotation], c)
		}
	})
	t.Run("rollback: the old ReplicaSet gets the next revision and a history", func(t *testing.T) {
		back := d.DeepCopy()
		back.Spec.Template = *old.Spec.Template.DeepCopy()
		f := newFixture(t, back, cur, old)
		got, err := f.pass().getNewReplicaSet(back, []*api.ReplicaSet{cur, old}, []*api.ReplicaSet{cur}, false)
		if err != nil || got.Name != "foo-old" {
			t.Fatalf("got %v, %v", name(got), err)
		}
		if got.Annotations[RevisionAnnotation] != "3" || got.Annotations[RevisionHistoryAnnotation] != "1" || got.Spec.MinReadySeconds != 7 {
			t.Errorf("annotations %v, minReadySeconds %d", got.Annotations, got.Spec.MinReadySeconds)
		}
		if v := f.client.verbs(); !slices.Equal(v, []string{"update ReplicaSet foo-old"}) {
			t.Errorf("writes = %v", v)
		}
	})
}

func TestGetNewReplicaSetCollision(t *testing.T) {
	d := newDeployment("foo", 1, nil, intstrp(api.FromInt32(1)), nil, map[string]string{"foo": "bar"})
	hash := ComputeHash(&d.Spec.Template, nil)
	// Someone else's ReplicaSet holds the name.
	other := newDeployment("other", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	squatter := newReplicaSet(other, "foo-"+hash, 1)
	squatter.Spec.Template.Spec.Containers[0].Image = "else"
	f := newFixture(t, d, squatter)
	p := f.pass()
	_, err := p.getNewReplicaSet(d, nil, nil, true)
	if !errors.Is(err, apierr.ErrAlreadyExists) {
		t.Fatalf("error = %v, want AlreadyExists", err)
	}
	st := f.lastStatus()
	if st == nil || st.Status.CollisionCount == nil || *st.Status.CollisionCount != 1 {
		t.Fatalf("collisionCount not bumped: %+v", st)
	}
	// The next attempt hashes with the collision count: another name.
	d2 := st.DeepCopy()
	created, err := f.pass().getNewReplicaSet(d2, nil, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if want := "foo-" + ComputeHash(&d.Spec.Template, int32p(1)); created.Name != want || created.Name == "foo-"+hash {
		t.Errorf("created %s, want %s", created.Name, want)
	}
}

func TestGetNewReplicaSetAlreadyExistsIsOurs(t *testing.T) {
	d := newDeployment("foo", 1, nil, intstrp(api.FromInt32(1)), nil, map[string]string{"foo": "bar"})
	hash := ComputeHash(&d.Spec.Template, nil)
	mine := newReplicaSet(d, "foo-"+hash, 1)
	mine.Spec.Template.Labels = cloneAndAddLabel(mine.Spec.Template.Labels, DefaultDeploymentUniqueLabelKey, hash)
	// The cache saw it, the lister-less FindNewReplicaSet did not (rsList
	// is empty): the create says AlreadyExists and the cached one is used.
	f := newFixture(t, d, mine)
	got, err := f.pass().getNewReplicaSet(d, nil, nil, true)
	if err != nil || got.Name != mine.Name {
		t.Fatalf("got %v, %v", name(got), err)
	}
	if len(f.recorder.events) != 0 {
		t.Errorf("events = %+v, want none for an existing ReplicaSet", f.recorder.events)
	}
}

func TestGetNewReplicaSetCreateError(t *testing.T) {
	d := newDeployment("foo", 1, nil, intstrp(api.FromInt32(1)), nil, map[string]string{"foo": "bar"})
	d.Spec.ProgressDeadlineSeconds = int32p(600)
	f := newFixture(t, d)
	quota := apierr.NewForbidden("replicasets.apps", "", "exceeded quota: q")
	f.client.fail = func(a action) error {
		if a.verb == "create" {
			return quota
		}
		return nil
	}
	_, err := f.pass().getNewReplicaSet(d, nil, nil, true)
	if !errors.Is(err, apierr.ErrForbidden) {
		t.Fatalf("error = %v", err)
	}
	name := "foo-" + ComputeHash(&d.Spec.Template, nil)
	msg := `Failed to create new replica set "` + name + `": replicasets.apps is forbidden: exceeded quota: q`
	c := GetDeploymentCondition(f.lastStatus().Status, api.DeploymentProgressing)
	if c == nil || c.Status != api.ConditionFalse || c.Reason != FailedRSCreateReason || c.Message != msg {
		t.Errorf("Progressing = %+v, want False %s %q", c, FailedRSCreateReason, msg)
	}
	want := []event{{object: "foo", typ: "Warning", reason: FailedRSCreateReason, message: msg}}
	if !slices.Equal(f.recorder.events, want) {
		t.Errorf("events = %+v, want %+v", f.recorder.events, want)
	}
}

func TestIsScalingEvent(t *testing.T) {
	d := newDeployment("foo", 5, nil, nil, nil, map[string]string{"foo": "bar"})
	annotated := func(n string, replicas int32, desired string) *api.ReplicaSet {
		r := newReplicaSet(d, n, replicas)
		r.Annotations = map[string]string{RevisionAnnotation: "1"}
		if desired != "" {
			r.Annotations[DesiredReplicasAnnotation] = desired
		}
		return r
	}
	tests := []struct {
		name string
		rs   *api.ReplicaSet
		want bool
	}{
		{"same desired replicas", annotated("a", 5, "5"), false},
		{"other desired replicas", annotated("a", 5, "3"), true},
		{"inactive ReplicaSets do not count", annotated("a", 0, "3"), false},
		{"no annotation", annotated("a", 5, ""), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, d, tt.rs)
			got, err := f.pass().isScalingEvent(d.DeepCopy(), []*api.ReplicaSet{tt.rs})
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("scaling event = %v, want %v", got, tt.want)
			}
		})
	}
}
