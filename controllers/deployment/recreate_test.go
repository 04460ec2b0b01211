package deployment

import (
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// The tables of this file come from k/k
// pkg/controller/deployment/recreate_test.go.
//
// Not ported, because it is not in v1.37.0: one stored copy of that file
// adds TestDeploymentController_rolloutRecreate (cases "old ReplicaSet
// scale-down failure", "old ReplicaSet scale-down failure without a new
// ReplicaSet" and "new ReplicaSet scale-up failure", each run as "rollout
// times out", "status is updated before the deadline" and "scaling and
// status update errors are returned"). The mainline copy k/k@003e8629 of
// this file has no such table; see rolling_test.go.

func TestScaleDownOldReplicaSets(t *testing.T) {
	tests := []struct {
		name       string
		oldRSSizes []int32
	}{
		{"one", []int32{3}},
		{"several, some empty", []int32{3, 0, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDeployment("foo", 3, nil, nil, nil, map[string]string{"foo": "bar"})
			d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
			var oldRSs []*api.ReplicaSet
			for i, size := range tt.oldRSSizes {
				oldRSs = append(oldRSs, newReplicaSet(d, "foo-"+itoa(int32(i)), size))
			}
			f := newFixture(t)
			scaled, err := f.pass().scaleDownOldReplicaSetsForRecreate(oldRSs, d)
			if err != nil || !scaled {
				t.Fatalf("got (%v, %v), want (true, nil)", scaled, err)
			}
			for _, r := range oldRSs {
				if *r.Spec.Replicas != 0 {
					t.Errorf("%s has %d replicas, want 0", r.Name, *r.Spec.Replicas)
				}
			}
			nonEmpty := 0
			for _, s := range tt.oldRSSizes {
				if s > 0 {
					nonEmpty++
				}
			}
			if n := len(f.client.writes()); n != nonEmpty {
				t.Errorf("%d writes, want %d", n, nonEmpty)
			}
		})
	}
}

func TestOldPodsRunning(t *testing.T) {
	pod := func(phase api.PodPhase) *api.Pod { return &api.Pod{Status: api.PodStatus{Phase: phase}} }
	rsWithUID := func(uid string) *api.ReplicaSet {
		r := rs("foo-"+uid, 0, nil, testTime)
		r.UID = api.UID(uid)
		return r
	}
	tests := []struct {
		name   string
		newRS  *api.ReplicaSet
		oldRSs []*api.ReplicaSet
		podMap map[api.UID][]*api.Pod
		want   bool
	}{
		{name: "no old RSs"},
		{name: "old RSs with running pods", oldRSs: []*api.ReplicaSet{rsWithUID("some-uid"), rsWithUID("other-uid")},
			podMap: map[api.UID][]*api.Pod{"some-uid": {pod(""), pod("")}, "other-uid": {pod(""), pod("")}}, want: true},
		{name: "old RSs without pods but with non-zero status replicas", oldRSs: []*api.ReplicaSet{newRSWithStatus("rs-1", 0, 1, nil)}, want: true},
		{name: "old RSs without pods or non-zero status replicas", oldRSs: []*api.ReplicaSet{newRSWithStatus("rs-1", 0, 0, nil)}},
		{name: "old RSs with zero status replicas but pods in terminal state are present", oldRSs: []*api.ReplicaSet{newRSWithStatus("rs-1", 0, 0, nil)},
			podMap: map[api.UID][]*api.Pod{"uid-1": {pod(api.PodFailed), pod(api.PodSucceeded)}}},
		{name: "old RSs with zero status replicas but pod in unknown phase present", oldRSs: []*api.ReplicaSet{newRSWithStatus("rs-1", 0, 0, nil)},
			podMap: map[api.UID][]*api.Pod{"uid-1": {pod(api.PodUnknown)}}, want: true},
		{name: "old RSs with zero status replicas with pending pod present", oldRSs: []*api.ReplicaSet{newRSWithStatus("rs-1", 0, 0, nil)},
			podMap: map[api.UID][]*api.Pod{"uid-1": {pod(api.PodPending)}}, want: true},
		{name: "old RSs with zero status replicas with running pod present", oldRSs: []*api.ReplicaSet{newRSWithStatus("rs-1", 0, 0, nil)},
			podMap: map[api.UID][]*api.Pod{"uid-1": {pod(api.PodRunning)}}, want: true},
		{name: "old RSs with zero status replicas but pods in terminal state and pending are present", oldRSs: []*api.ReplicaSet{newRSWithStatus("rs-1", 0, 0, nil)},
			podMap: map[api.UID][]*api.Pod{"uid-1": {pod(api.PodFailed), pod(api.PodSucceeded)}, "uid-2": {}, "uid-3": {pod(api.PodPending)}}, want: true},
		{name: "pods of the new ReplicaSet do not count", newRS: rsWithUID("new"),
			podMap: map[api.UID][]*api.Pod{"new": {pod(api.PodRunning)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := oldPodsRunning(tt.newRS, tt.oldRSs, tt.podMap); got != tt.want {
				t.Errorf("oldPodsRunning = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestRolloutRecreate walks a Recreate rollout through its three steps.
func TestRolloutRecreate(t *testing.T) {
	d := newDeployment("foo", 3, nil, nil, nil, map[string]string{"foo": "bar"})
	d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
	old := newReplicaSet(d, "foo-old", 3)
	old.Spec.Template.Spec.Containers[0].Image = "foo/old"
	old.Annotations = map[string]string{RevisionAnnotation: "1"}
	old.Status.Replicas = 3

	// Step 1: the old ReplicaSet is scaled to 0; nothing new yet.
	f := newFixture(t, d, old)
	if err := f.pass().rolloutRecreate(d.DeepCopy(), []*api.ReplicaSet{old}, map[api.UID][]*api.Pod{old.UID: {podOf(old)}}); err != nil {
		t.Fatal(err)
	}
	if got, want := f.client.verbs(), []string{"update ReplicaSet foo-old", "update-status Deployment foo"}; !slices.Equal(got, want) {
		t.Errorf("step 1 writes %v, want %v", got, want)
	}

	// Step 2: scaled to 0 but a pod still runs: wait.
	oldDown := old.DeepCopy()
	setRSReplicas(oldDown, 0)
	oldDown.Status.Replicas = 0
	f = newFixture(t, d, oldDown)
	running := podOf(oldDown)
	running.Status.Phase = api.PodRunning
	if err := f.pass().rolloutRecreate(d.DeepCopy(), []*api.ReplicaSet{oldDown}, map[api.UID][]*api.Pod{oldDown.UID: {running}}); err != nil {
		t.Fatal(err)
	}
	for _, a := range f.client.writes() {
		if a.verb == "create" {
			t.Errorf("step 2 created %s while an old pod runs", a.key.Name)
		}
	}

	// Step 3: every old pod gone: the new ReplicaSet is created at full
	// size at once.
	f = newFixture(t, d, oldDown)
	if err := f.pass().rolloutRecreate(d.DeepCopy(), []*api.ReplicaSet{oldDown}, map[api.UID][]*api.Pod{oldDown.UID: {}}); err != nil {
		t.Fatal(err)
	}
	var created *api.ReplicaSet
	for _, a := range f.client.writes() {
		if a.verb == "create" {
			created = a.obj.(*api.ReplicaSet)
		}
	}
	if created == nil || *created.Spec.Replicas != 3 || created.Annotations[RevisionAnnotation] != "2" {
		t.Fatalf("step 3 created %+v, want 3 replicas at revision 2", created)
	}
}
