package deployment

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/controller"
)

// The cases of this file come from k/k
// pkg/controller/deployment/deployment_controller_test.go.

func reconcile(t *testing.T, f *fixture, d *api.Deployment) (controller.Result, error) {
	t.Helper()
	return f.r.Reconcile(context.Background(), controller.Request{Key: d.Key()})
}

func TestSyncDeploymentCreatesReplicaSet(t *testing.T) {
	d := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	f := newFixture(t, d)
	if _, err := reconcile(t, f, d); err != nil {
		t.Fatal(err)
	}
	rsName := "foo-" + ComputeHash(&d.Spec.Template, nil)
	want := []string{"create ReplicaSet " + rsName, "update-status Deployment foo", "update-status Deployment foo"}
	if got := f.client.verbs(); !slices.Equal(got, want) {
		t.Errorf("writes = %v, want %v", got, want)
	}
}

func TestSyncDeploymentDontDoAnythingDuringDeletion(t *testing.T) {
	d := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	now := api.NewTime(testTime)
	d.DeletionTimestamp = &now
	f := newFixture(t, d)
	if _, err := reconcile(t, f, d); err != nil {
		t.Fatal(err)
	}
	if got, want := f.client.verbs(), []string{"update-status Deployment foo"}; !slices.Equal(got, want) {
		t.Errorf("writes = %v, want %v", got, want)
	}
}

func TestDontSyncDeploymentsWithEmptyPodSelector(t *testing.T) {
	tests := []struct {
		name       string
		generation int64
		observed   int64
		writes     []string
	}{
		{"generation observed: no write", 1, 1, nil},
		{"new generation: observedGeneration written", 2, 1, []string{"update-status Deployment foo"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
			d.Spec.Selector = &api.LabelSelector{}
			d.Generation, d.Status.ObservedGeneration = tt.generation, tt.observed
			f := newFixture(t, d)
			if _, err := reconcile(t, f, d); err != nil {
				t.Fatal(err)
			}
			if got := f.client.verbs(); !slices.Equal(got, tt.writes) {
				t.Errorf("writes = %v, want %v", got, tt.writes)
			}
			want := []event{{object: "foo", typ: "Warning", reason: SelectingAllReason, message: "This deployment is selecting all pods. A non-empty selector is required."}}
			if !slices.Equal(f.recorder.events, want) {
				t.Errorf("events = %+v, want %+v", f.recorder.events, want)
			}
		})
	}
}

func TestReentrantRollback(t *testing.T) {
	d := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	d.Annotations = map[string]string{RevisionAnnotation: "2"}
	setRollbackTo(d, 0)

	rs1 := newReplicaSet(d, "deploymentrs-old", 0)
	rs1.Annotations = map[string]string{RevisionAnnotation: "1"}
	one := int64(1)
	rs1.Spec.Template.Spec.TerminationGracePeriodSeconds = &one
	rs1.Spec.Selector.MatchLabels = cloneAndAddLabel(rs1.Spec.Selector.MatchLabels, DefaultDeploymentUniqueLabelKey, "hash")

	rs2 := newReplicaSet(d, "deploymentrs-new", 1)
	rs2.Annotations = map[string]string{RevisionAnnotation: "2"}
	rs2.Spec.Selector.MatchLabels = cloneAndAddLabel(rs2.Spec.Selector.MatchLabels, DefaultDeploymentUniqueLabelKey, "hash")

	f := newFixture(t, d, rs1, rs2)
	if _, err := reconcile(t, f, d); err != nil {
		t.Fatal(err)
	}
	// The rollback happens here; no ReplicaSet is touched.
	if got, want := f.client.verbs(), []string{"update Deployment foo"}; !slices.Equal(got, want) {
		t.Fatalf("writes = %v, want %v", got, want)
	}
	upd := f.client.writes()[0].obj.(*api.Deployment)
	if getRollbackTo(upd) != nil {
		t.Errorf("rollback request not cleared: %v", upd.Annotations)
	}
	if !EqualIgnoreHash(&upd.Spec.Template, &rs1.Spec.Template) {
		t.Errorf("template not rolled back to revision 1")
	}
	want := []event{{object: "foo", typ: "Normal", reason: RollbackDone, message: `Rolled back deployment "foo" to revision 1`}}
	if !slices.Equal(f.recorder.events, want) {
		t.Errorf("events = %+v, want %+v", f.recorder.events, want)
	}
}

func TestRollbackToUnknownRevision(t *testing.T) {
	d := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	setRollbackTo(d, 7)
	cur := newReplicaSet(d, "foo-cur", 1)
	cur.Annotations = map[string]string{RevisionAnnotation: "1"}
	f := newFixture(t, d, cur)
	if _, err := reconcile(t, f, d); err != nil {
		t.Fatal(err)
	}
	if got := f.recorder.reasons(); !slices.Equal(got, []string{RollbackRevisionNotFound}) {
		t.Errorf("events = %v", got)
	}
	last := f.client.writes()[len(f.client.writes())-1]
	if last.verb != "update" || getRollbackTo(last.obj.(*api.Deployment)) != nil {
		t.Errorf("last write %v does not clear the request", last)
	}
}

func TestSyncPausedDeployment(t *testing.T) {
	d := newDeployment("foo", 3, nil, nil, nil, map[string]string{"foo": "bar"})
	d.Spec.Paused = true
	d.Spec.ProgressDeadlineSeconds = int32p(600)
	cur := newReplicaSet(d, "foo-cur", 2)
	cur.Annotations = map[string]string{RevisionAnnotation: "1"}
	f := newFixture(t, d, cur)
	if _, err := reconcile(t, f, d); err != nil {
		t.Fatal(err)
	}
	// Paused: Unknown DeploymentPaused first; then a paused Deployment is
	// scaled (here its only ReplicaSet to 3) but not rolled.
	// (The second status write copies the revision to the Deployment.)
	want := []string{"update-status Deployment foo", "update-status Deployment foo", "update ReplicaSet foo-cur", "update-status Deployment foo"}
	if got := f.client.verbs(); !slices.Equal(got, want) {
		t.Fatalf("writes = %v, want %v", got, want)
	}
	writes := f.client.writes()
	c := GetDeploymentCondition(writes[0].obj.(*api.Deployment).Status, api.DeploymentProgressing)
	if c == nil || c.Status != api.ConditionUnknown || c.Reason != PausedDeployReason || c.Message != "Deployment is paused" {
		t.Errorf("Progressing = %+v, want Unknown DeploymentPaused", c)
	}
	if got := *writes[2].obj.(*api.ReplicaSet).Spec.Replicas; got != 3 {
		t.Errorf("scaled to %d, want 3", got)
	}

	// Resumed: Unknown DeploymentResumed.
	resumed := writes[0].obj.(*api.Deployment).DeepCopy()
	resumed.Spec.Paused = false
	f = newFixture(t, resumed, cur)
	if _, err := reconcile(t, f, resumed); err != nil {
		t.Fatal(err)
	}
	c = GetDeploymentCondition(f.client.writes()[0].obj.(*api.Deployment).Status, api.DeploymentProgressing)
	if c == nil || c.Status != api.ConditionUnknown || c.Reason != ResumedDeployReason || c.Message != "Deployment is resumed" {
		t.Errorf("Progressing = %+v, want Unknown DeploymentResumed", c)
	}
}

func TestReconcileDropsAfterMaxRetries(t *testing.T) {
	d := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	f := newFixture(t, d)
	f.client.fail = func(action) error { return apierr.NewTimeout("create", "replicasets.apps", "x", nil) }
	for i := range DefaultMaxRetries {
		_, err := reconcile(t, f, d)
		if !errors.Is(err, apierr.ErrTimeout) || errors.Is(err, controller.ErrTerminal) {
			t.Fatalf("attempt %d: error %v, want a retried Timeout", i+1, err)
		}
	}
	if _, err := reconcile(t, f, d); !errors.Is(err, controller.ErrTerminal) || !errors.Is(err, apierr.ErrTimeout) {
		t.Fatalf("attempt %d: error %v, want a terminal Timeout", DefaultMaxRetries+1, err)
	}
	// The count starts again afterwards, and success resets it.
	if _, err := reconcile(t, f, d); errors.Is(err, controller.ErrTerminal) {
		t.Fatalf("the count did not start again: %v", err)
	}
	f.client.fail = nil
	if _, err := reconcile(t, f, d); err != nil {
		t.Fatal(err)
	}
	if n := f.r.failures[d.Key()]; n != 0 {
		t.Errorf("failures = %d after a success, want 0", n)
	}
}

func TestReconcileNamespaceTerminating(t *testing.T) {
	d := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	f := newFixture(t, d)
	f.client.fail = func(a action) error {
		if a.verb == "create" {
			return apierr.NewForbidden("replicasets.apps", a.key.Name, "unable to create new content in namespace default because it is being terminated")
		}
		return nil
	}
	if res, err := reconcile(t, f, d); err != nil || !res.IsZero() {
		t.Fatalf("got (%+v, %v), want no retry", res, err)
	}
	if len(f.recorder.events) != 0 {
		t.Errorf("events = %+v, want none", f.recorder.events)
	}
}

func TestReconcileDeletedDeployment(t *testing.T) {
	f := newFixture(t)
	res, err := f.r.Reconcile(context.Background(), controller.Request{Key: api.Key{Namespace: "default", Name: "gone"}})
	if err != nil || !res.IsZero() || len(f.client.actions) != 0 {
		t.Errorf("got (%+v, %v) with actions %v", res, err, f.client.actions)
	}
}

func TestGetReplicaSetsForDeployment(t *testing.T) {
	// Two Deployments with the same labels; ControllerRefs decide.
	d1 := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	d2 := newDeployment("bar", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	rs1 := newReplicaSet(d1, "rs1", 1)
	rs2 := newReplicaSet(d2, "rs2", 1)
	f := newFixture(t, d1, d2, rs1, rs2)
	for _, tt := range []struct {
		d    *api.Deployment
		want []string
	}{{d1, []string{"rs1"}}, {d2, []string{"rs2"}}} {
		got, err := f.pass().getReplicaSetsForDeployment(tt.d)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(names(got), tt.want) {
			t.Errorf("%s: got %v, want %v", tt.d.Name, names(got), tt.want)
		}
	}
	if len(f.client.writes()) != 0 {
		t.Errorf("writes = %v, want none", f.client.verbs())
	}
}

func TestGetReplicaSetsForDeploymentAdoptRelease(t *testing.T) {
	d := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	// Matching labels, orphaned: adopted and returned.
	rsAdopt := newReplicaSet(d, "rsAdopt", 1)
	rsAdopt.OwnerReferences = nil
	// Matching controller ref, wrong labels: released.
	rsRelease := newReplicaSet(d, "rsRelease", 1)
	rsRelease.Labels = map[string]string{"foo": "notbar"}
	// Someone else's: ignored.
	other := newDeployment("other", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	rsOther := newReplicaSet(other, "rsOther", 1)
	f := newFixture(t, d, rsAdopt, rsRelease, rsOther)
	got, err := f.pass().getReplicaSetsForDeployment(d)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names(got), []string{"rsAdopt"}) {
		t.Errorf("got %v, want [rsAdopt]", names(got))
	}
	want := []string{"update ReplicaSet rsAdopt", "update ReplicaSet rsRelease"}
	if got := f.client.verbs(); !slices.Equal(got, want) {
		t.Fatalf("writes = %v, want %v", got, want)
	}
	adopted := f.client.writes()[0].obj.(*api.ReplicaSet)
	if !api.IsControlledBy(adopted, d) {
		t.Errorf("adopted ReplicaSet has owners %+v", adopted.OwnerReferences)
	}
	released := f.client.writes()[1].obj.(*api.ReplicaSet)
	if len(released.OwnerReferences) != 0 {
		t.Errorf("released ReplicaSet keeps owners %+v", released.OwnerReferences)
	}
	// The adoption was checked once with a live read.
	gets := 0
	for _, a := range f.client.actions {
		if a.verb == "get" {
			gets++
		}
	}
	if gets != 1 {
		t.Errorf("%d live reads, want 1", gets)
	}
}

func TestAdoptionRefused(t *testing.T) {
	d := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	orphan := newReplicaSet(d, "orphan", 1)
	orphan.OwnerReferences = nil
	tests := []struct {
		name  string
		fresh func() *api.Deployment
	}{
		{"deployment replaced", func() *api.Deployment { x := d.DeepCopy(); x.UID = "another"; return x }},
		{"deployment being deleted", func() *api.Deployment {
			x := d.DeepCopy()
			ts := api.NewTime(testTime)
			x.DeletionTimestamp = &ts
			return x
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, d, orphan)
			f.client.put(tt.fresh())
			got, err := f.pass().getReplicaSetsForDeployment(d)
			if !errors.Is(err, ErrCannotAdopt) || len(got) != 0 || len(f.client.writes()) != 0 {
				t.Errorf("got %v, %v with writes %v; want ErrCannotAdopt and nothing", names(got), err, f.client.verbs())
			}
		})
	}
}

func TestGetPodMapForReplicaSets(t *testing.T) {
	d := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	rs1 := newReplicaSet(d, "rs1", 1)
	rs2 := newReplicaSet(d, "rs2", 1)
	pod1, pod2 := podOf(rs1), podOf(rs2)
	// Matching labels, no controller ref: not counted.
	pod3 := podOf(rs1)
	pod3.Name, pod3.OwnerReferences = "pod3", nil
	// Matching labels and controller ref, inactive: counted (Recreate
	// must see it).
	pod4 := podOf(rs1)
	pod4.Name = "pod4"
	pod4.Status.Phase = api.PodFailed
	f := newFixture(t, d, rs1, rs2, pod1, pod2, pod3, pod4)
	podMap, err := f.r.getPodMapForDeployment(d, []*api.ReplicaSet{rs1, rs2})
	if err != nil {
		t.Fatal(err)
	}
	podNames := func(ps []*api.Pod) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return out
	}
	if got := podNames(podMap[rs1.UID]); !slices.Equal(got, []string{"pod4", "rs1-pod"}) {
		t.Errorf("rs1 pods = %v", got)
	}
	if got := podNames(podMap[rs2.UID]); !slices.Equal(got, []string{"rs2-pod"}) {
		t.Errorf("rs2 pods = %v", got)
	}
	if len(podMap) != 2 {
		t.Errorf("%d entries, want 2", len(podMap))
	}
}

func TestReplicaSetHandlers(t *testing.T) {
	d1 := newDeployment("d1", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	d2 := newDeployment("d2", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	d3 := newDeployment("d3", 1, nil, nil, nil, map[string]string{"foo": "notbar"})
	rs1 := newReplicaSet(d1, "rs1", 1)
	orphan := newReplicaSet(d1, "orphan", 1)
	orphan.OwnerReferences = nil
	bump := func(r *api.ReplicaSet) *api.ReplicaSet {
		x := r.DeepCopy()
		x.ResourceVersion += "0"
		return x
	}
	tests := []struct {
		name string
		run  func(r *reconciler)
		want []string
	}{
		{"add: the controller", func(r *reconciler) { r.addReplicaSet(rs1) }, []string{"d1"}},
		{"add orphan: every matching Deployment", func(r *reconciler) { r.addReplicaSet(orphan) }, []string{"d1", "d2"}},
		{"add being deleted: like a delete", func(r *reconciler) {
			x := rs1.DeepCopy()
			ts := api.NewTime(testTime)
			x.DeletionTimestamp = &ts
			r.addReplicaSet(x)
		}, []string{"d1"}},
		{"add with a controller ref to a replaced Deployment", func(r *reconciler) {
			x := rs1.DeepCopy()
			x.OwnerReferences[0].UID = "stale"
			r.addReplicaSet(x)
		}, nil},
		{"update: the controller", func(r *reconciler) { r.updateReplicaSet(rs1, bump(rs1)) }, []string{"d1"}},
		{"update: resync ignored", func(r *reconciler) { r.updateReplicaSet(rs1, rs1) }, nil},
		{"update orphan with new labels: every matching Deployment", func(r *reconciler) {
			prev := orphan.DeepCopy()
			prev.Labels = map[string]string{"foo": "notbar"}
			r.updateReplicaSet(prev, bump(orphan))
		}, []string{"d1", "d2"}},
		{"update orphan, labels unchanged: nobody", func(r *reconciler) { r.updateReplicaSet(orphan, bump(orphan)) }, nil},
		{"update changing the controller ref: both", func(r *reconciler) {
			prev := rs1.DeepCopy()
			prev.OwnerReferences = []api.OwnerReference{api.NewControllerRef(d2)}
			r.updateReplicaSet(prev, bump(rs1))
		}, []string{"d2", "d1"}},
		{"update releasing: old controller and matching Deployments", func(r *reconciler) {
			next := bump(rs1)
			next.OwnerReferences = nil
			r.updateReplicaSet(rs1, next)
		}, []string{"d1", "d1", "d2"}},
		{"delete: the controller", func(r *reconciler) { r.deleteReplicaSet(rs1) }, []string{"d1"}},
		{"delete orphan: nobody", func(r *reconciler) { r.deleteReplicaSet(orphan) }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, d1, d2, d3)
			tt.run(f.r)
			var got []string
			for _, k := range f.enqueued {
				got = append(got, k.Name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("enqueued %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPodDeletionEnqueuesRecreateDeployment: a pod deletion enqueues a
// Recreate Deployment only once it has no pods left.
func TestPodDeletionEnqueuesRecreateDeployment(t *testing.T) {
	foo := newDeployment("foo", 1, nil, nil, nil, map[string]string{"foo": "bar"})
	foo.Spec.Strategy.Type = api.RecreateDeploymentStrategyType
	r := newReplicaSet(foo, "foo-1", 1)
	pod := podOf(r)
	other := podOf(r)
	other.Name = "other"
	rolling := newDeployment("rolling", 1, nil, nil, nil, map[string]string{"app": "rolling"})
	rollingRS := newReplicaSet(rolling, "rolling-1", 1)
	tests := []struct {
		name string
		objs []api.Object
		pod  *api.Pod
		want []string
	}{
		{"last pod gone", []api.Object{foo, r}, pod, []string{"foo"}},
		{"other pods left", []api.Object{foo, r, other}, pod, nil},
		{"rolling deployment", []api.Object{rolling, rollingRS}, podOf(rollingRS), nil},
		{"pod without a controller", []api.Object{foo, r}, func() *api.Pod { p := podOf(r); p.OwnerReferences = nil; return p }(), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, tt.objs...)
			f.r.deletePod(tt.pod)
			var got []string
			for _, k := range f.enqueued {
				got = append(got, k.Name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("enqueued %v, want %v", got, tt.want)
			}
		})
	}
}
