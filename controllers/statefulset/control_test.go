package statefulset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

var t0 = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// fakeCluster is the podControl of the tests (upstream's
// fakeObjectManager): pods and claims in maps, a log of operations.
type fakeCluster struct {
	set    *api.StatefulSet
	revs   map[string]*api.PodTemplateSpec
	pods   map[string]*api.Pod
	claims map[string]*api.PersistentVolumeClaim
	log    []string
	uid    int
	now    time.Time
	// create, delete and update are upstream's request trackers: a
	// request count and an error returned once, by the request that finds
	// after requests made before it.
	create, delete, update tracker
}

// tracker is upstream's requestTracker.
type tracker struct {
	requests, after int
	err             error
}

// fail counts a request and returns the error it is to fail with.
func (r *tracker) fail() error {
	defer func() { r.requests++ }()
	if r.err != nil && r.requests >= r.after {
		err := r.err
		r.err = nil
		return err
	}
	return nil
}

func newFakeCluster(set *api.StatefulSet) *fakeCluster {
	return &fakeCluster{set: set, revs: map[string]*api.PodTemplateSpec{}, pods: map[string]*api.Pod{}, claims: map[string]*api.PersistentVolumeClaim{}, now: t0}
}

func (f *fakeCluster) createPod(_ context.Context, set *api.StatefulSet, p *api.Pod) error {
	if err := f.create.fail(); err != nil {
		return err
	}
	for _, c := range getPersistentVolumeClaims(set, p) {
		if _, ok := f.claims[c.Name]; !ok {
			f.claims[c.Name] = c
			f.log = append(f.log, "create claim "+c.Name)
		}
	}
	if _, ok := f.pods[p.Name]; ok {
		return fmt.Errorf("pod %s already exists", p.Name)
	}
	p = p.DeepCopy()
	f.uid++
	p.UID = api.UID(fmt.Sprint("uid-", f.uid))
	p.Status.Phase = api.PodPending
	f.pods[p.Name] = p
	f.log = append(f.log, "create "+p.Name)
	return nil
}

func (f *fakeCluster) deletePod(_ context.Context, _ *api.StatefulSet, p *api.Pod) error {
	if err := f.delete.fail(); err != nil {
		return err
	}
	cur, ok := f.pods[p.Name]
	if !ok {
		return fmt.Errorf("pod %s not found", p.Name)
	}
	ts := api.NewTime(f.now)
	cur.DeletionTimestamp = &ts
	f.log = append(f.log, "delete "+p.Name)
	return nil
}

func (f *fakeCluster) updatePod(_ context.Context, set *api.StatefulSet, p *api.Pod) error {
	if err := f.update.fail(); err != nil {
		return err
	}
	updateIdentity(set, p)
	updateStorage(set, p)
	f.pods[p.Name] = p
	for _, c := range getPersistentVolumeClaims(set, p) {
		if cur, ok := f.claims[c.Name]; ok {
			updateClaimOwnerRefForSetAndPod(cur, set, p)
		}
	}
	f.log = append(f.log, "update "+p.Name)
	return nil
}

func (f *fakeCluster) createMissingClaims(_ context.Context, set *api.StatefulSet, p *api.Pod) error {
	for _, c := range getPersistentVolumeClaims(set, p) {
		if _, ok := f.claims[c.Name]; !ok {
			f.claims[c.Name] = c
			f.log = append(f.log, "create claim "+c.Name)
		}
	}
	return nil
}

func (f *fakeCluster) claimsMatchRetentionPolicy(set *api.StatefulSet, p *api.Pod) bool {
	for _, c := range getPersistentVolumeClaims(set, p) {
		if cur, ok := f.claims[c.Name]; ok && !isClaimOwnerUpToDate(cur, set, p) {
			return false
		}
	}
	return true
}

func (f *fakeCluster) updateClaimsForRetentionPolicy(_ context.Context, set *api.StatefulSet, p *api.Pod) error {
	for _, c := range getPersistentVolumeClaims(set, p) {
		if cur, ok := f.claims[c.Name]; ok {
			updateClaimOwnerRefForSetAndPod(cur, set, p)
		}
	}
	return nil
}

func (f *fakeCluster) claimIsStale(*api.StatefulSet, *api.Pod) bool { return false }

func (f *fakeCluster) podList() []*api.Pod {
	var out []*api.Pod
	for _, p := range f.pods {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b *api.Pod) int { return getOrdinal(a) - getOrdinal(b) })
	return out
}

// sync runs one pass and stores the status, as the controller does.
func (f *fakeCluster) sync(t *testing.T) {
	t.Helper()
	if err := f.trySync(); err != nil {
		t.Fatalf("sync: %v", err)
	}
}

// trySync runs one pass and stores the status it returns, error or not.
func (f *fakeCluster) trySync() error {
	st, err := syncSet(context.Background(), f.set, f.podList(), f.revs, f, f.now)
	if st != nil {
		f.set.Status = *st
	}
	return err
}

// kubelet moves the world one step: terminating pods go away, pending
// ones run and become ready.
func (f *fakeCluster) kubelet() {
	f.now = f.now.Add(time.Second)
	for name, p := range f.pods {
		switch {
		case p.DeletionTimestamp != nil:
			delete(f.pods, name)
		case p.Status.Phase == api.PodPending:
			p.Status.Phase = api.PodRunning
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(f.now)}}
		}
	}
}

// unhealthy counts pods not running and ready or terminating.
func (f *fakeCluster) unhealthy() int {
	n := 0
	for _, p := range f.pods {
		if !isHealthy(p) {
			n++
		}
	}
	return n
}

// converge syncs and steps until the set's pods are as specified, checking
// upstream's assertMonotonicInvariants after each sync for OrderedReady
// sets: at most one unhealthy pod (maxUnavailable during an update), and every pod's predecessors exist.
func (f *fakeCluster) converge(t *testing.T) {
	t.Helper()
	for i := 0; i < 100; i++ {
		f.sync(t)
		if !allowsBurst(f.set) {
			allowed := 1
			if ru := f.set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
				allowed, _ = getStatefulSetMaxUnavailable(ru.MaxUnavailable, replicasOf(f.set))
			}
			if n := f.unhealthy(); n > allowed {
				t.Fatalf("monotonic: %d unhealthy pods at once", n)
			}
			for _, p := range f.pods {
				if f.set.Status.CurrentRevision != f.set.Status.UpdateRevision {
					break // a rolling update replaces pods highest first, maxUnavailable at once
				}
				for o := getStartOrdinal(f.set); o < getOrdinal(p) && o <= getEndOrdinal(f.set); o++ {
					if _, ok := f.pods[getPodName(f.set, o)]; !ok {
						t.Fatalf("monotonic: %s exists before its predecessor %s", p.Name, getPodName(f.set, o))
					}
				}
			}
		}
		st := f.set.Status
		want := int32(replicasOf(f.set))
		if int32(len(f.pods)) == want && st.ReadyReplicas == want && st.UpdatedReplicas == want && f.unhealthy() == 0 {
			return
		}
		f.kubelet()
	}
	t.Fatalf("no convergence: status %+v, pods %d", f.set.Status, len(f.pods))
}

func newStatefulSet(replicas int32) *api.StatefulSet {
	s := &api.StatefulSet{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: api.ObjectMeta{Name: "foo", Namespace: "default", UID: "test", Generation: 1},
		Spec: api.StatefulSetSpec{
			Replicas: &replicas,
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"foo": "bar"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"foo": "bar"}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}}},
			VolumeClaimTemplates: []api.PersistentVolumeClaim{{ObjectMeta: api.ObjectMeta{Name: "datadir"}}},
			ServiceName:          "governingsvc",
		},
	}
	api.SetDefaultsStatefulSet(s)
	return s
}

func burst(s *api.StatefulSet) *api.StatefulSet {
	s.Spec.PodManagementPolicy = api.ParallelPodManagement
	return s
}

func images(f *fakeCluster) []string {
	var out []string
	for _, p := range f.podList() {
		out = append(out, p.Spec.Containers[0].Image)
	}
	return out
}

// TestStatefulSetControl ports upstream's table of the same name (k/k
// pkg/controller/statefulset/stateful_set_control_test.go): each scenario
// for OrderedReady (assertMonotonicInvariants) and Parallel
// (assertBurstInvariants).
func TestStatefulSetControl(t *testing.T) {
	tests := []clusterTest{
		{"CreatesPods", func(t *testing.T, f *fakeCluster) {
			f.converge(t)
			if len(f.pods) != 3 || len(f.claims) != 3 {
				t.Fatalf("pods %d claims %d, want 3 and 3", len(f.pods), len(f.claims))
			}
			for i := 0; i < 3; i++ {
				p := f.pods[fmt.Sprint("foo-", i)]
				if p == nil || !identityMatches(f.set, p) || !storageMatches(f.set, p) {
					t.Fatalf("pod foo-%d missing or without identity and storage: %+v", i, p)
				}
				if p.Spec.Hostname != p.Name || p.Spec.Subdomain != "governingsvc" {
					t.Errorf("pod %s hostname %q subdomain %q", p.Name, p.Spec.Hostname, p.Spec.Subdomain)
				}
			}
			if st := f.set.Status; st.Replicas != 3 || st.ReadyReplicas != 3 || st.CurrentReplicas != 3 || st.UpdatedReplicas != 3 || st.AvailableReplicas != 3 {
				t.Errorf("status %+v", st)
			}
		}},
		{"ScalesUp", func(t *testing.T, f *fakeCluster) {
			f.converge(t)
			*f.set.Spec.Replicas = 4
			f.converge(t)
			if f.set.Status.Replicas != 4 || f.pods["foo-3"] == nil {
				t.Fatalf("status %+v", f.set.Status)
			}
		}},
		{"ScalesDown", func(t *testing.T, f *fakeCluster) {
			f.converge(t)
			*f.set.Spec.Replicas = 0
			f.converge(t)
			if len(f.pods) != 0 || f.set.Status.Replicas != 0 {
				t.Fatalf("pods %d status %+v", len(f.pods), f.set.Status)
			}
			if len(f.claims) != 3 {
				t.Errorf("claims %d, want 3 retained", len(f.claims))
			}
		}},
		{"ReplacesPods", func(t *testing.T, f *fakeCluster) {
			f.converge(t)
			delete(f.pods, "foo-0")
			delete(f.pods, "foo-2")
			f.converge(t)
			if len(f.pods) != 3 {
				t.Fatalf("pods %d", len(f.pods))
			}
		}},
		{"RecreatesFailedPod", func(t *testing.T, f *fakeCluster) {
			f.converge(t)
			uid := f.pods["foo-0"].UID
			f.pods["foo-0"].Status.Phase = api.PodFailed
			f.converge(t)
			if f.pods["foo-0"].UID == uid {
				t.Fatal("failed pod not recreated")
			}
		}},
		{"RecreatesSucceededPod", func(t *testing.T, f *fakeCluster) {
			f.converge(t)
			uid := f.pods["foo-0"].UID
			f.pods["foo-0"].Status.Phase = api.PodSucceeded
			f.converge(t)
			if f.pods["foo-0"].UID == uid {
				t.Fatal("succeeded pod not recreated")
			}
		}},
	}
	runForEachPolicy(t, tests)
}

// clusterTest is a named check run on a fake cluster of a 3-replica set.
type clusterTest struct {
	name string
	run  func(t *testing.T, f *fakeCluster)
}

// runForEachPolicy runs each test once per pod management policy, each
// on a fresh fake cluster of newStatefulSet(3).
func runForEachPolicy(t *testing.T, tests []clusterTest) {
	for _, tc := range tests {
		for _, policy := range []string{api.OrderedReadyPodManagement, api.ParallelPodManagement} {
			t.Run(tc.name+"/"+policy, func(t *testing.T) {
				set := newStatefulSet(3)
				set.Spec.PodManagementPolicy = policy
				tc.run(t, newFakeCluster(set))
			})
		}
	}
}

// TestOrderedReadyCreatesOneAtATime: OrderedReady creates foo-1 only
// once foo-0 is running and ready; Parallel creates all three at once.
func TestOrderedReadyCreatesOneAtATime(t *testing.T) {
	f := newFakeCluster(newStatefulSet(3))
	f.sync(t)
	f.sync(t)
	if got := fmt.Sprint(f.log); got != "[create claim datadir-foo-0 create foo-0]" {
		t.Fatalf("OrderedReady first syncs: %s", got)
	}
	f.kubelet()
	f.sync(t)
	if got := fmt.Sprint(f.log[2:]); got != "[create claim datadir-foo-1 create foo-1]" {
		t.Fatalf("after foo-0 is ready: %s", got)
	}
	b := newFakeCluster(burst(newStatefulSet(3)))
	b.sync(t)
	if len(b.pods) != 3 {
		t.Fatalf("Parallel first sync created %d pods, want 3", len(b.pods))
	}
}

// TestStatefulSetControlRollingUpdateWithPartition ports upstream's table
// of the same name: with partition 2, pods below it keep the original
// image, the others get the new one.
func TestStatefulSetControlRollingUpdateWithPartition(t *testing.T) {
	tests := []struct {
		name     string
		initial  func() *api.StatefulSet
		replicas int32
	}{
		{"monotonic image update", func() *api.StatefulSet { return newStatefulSet(3) }, 3},
		{"monotonic image update and scale up", func() *api.StatefulSet { return newStatefulSet(3) }, 5},
		{"burst image update", func() *api.StatefulSet { return burst(newStatefulSet(3)) }, 3},
		{"burst image update and scale up", func() *api.StatefulSet { return burst(newStatefulSet(3)) }, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set := tc.initial()
			two := int32(2)
			set.Spec.UpdateStrategy.RollingUpdate.Partition = &two
			f := newFakeCluster(set)
			f.converge(t)
			set.Spec.Replicas = &tc.replicas
			set.Spec.Template.Spec.Containers[0].Image = "foo"
			set.Generation++
			for i := 0; i < 40; i++ {
				f.sync(t)
				f.kubelet()
			}
			for i, img := range images(f) {
				want := "foo"
				if i < 2 {
					want = "nginx"
				}
				if img != want {
					t.Errorf("pod foo-%d image %s, want %s (all: %v)", i, img, want, images(f))
				}
			}
			if st := f.set.Status; st.CurrentRevision == st.UpdateRevision || st.UpdatedReplicas != tc.replicas-2 || st.CurrentReplicas != 2 {
				t.Errorf("status %+v", st)
			}
		})
	}
}

// imageUpdateRows are the rows upstream's TestStatefulSetControlRollingUpdate,
// TestStatefulSetControlOnDeleteUpdate and TestStatefulSetControlRollback
// share: an image update of a set of initial pods, scaled to target,
// OrderedReady or Parallel (burst).
var imageUpdateRows = []imageUpdateRow{
	{"monotonic image update", 3, 3, false},
	{"monotonic image update and scale up", 3, 5, false},
	{"monotonic image update and scale down", 5, 3, false},
	{"burst image update", 3, 3, true},
	{"burst image update and scale up", 3, 5, true},
	{"burst image update and scale down", 5, 3, true},
}

type imageUpdateRow struct {
	name            string
	initial, target int32
	burst           bool
}

// newSet returns the row's set before the update.
func (r imageUpdateRow) newSet() *api.StatefulSet {
	set := newStatefulSet(r.initial)
	if r.burst {
		burst(set)
	}
	return set
}

// start returns the row's set with its pods created, running and ready.
func (r imageUpdateRow) start(t *testing.T) (*api.StatefulSet, *fakeCluster) {
	t.Helper()
	set := r.newSet()
	f := newFakeCluster(set)
	f.converge(t)
	return set, f
}

// update scales set to the row's target and sets the image foo.
func (r imageUpdateRow) update(set *api.StatefulSet) {
	set.Spec.Replicas = &r.target
	set.Spec.Template.Spec.Containers[0].Image = "foo"
}

// TestStatefulSetControlRollingUpdate ports the rows of upstream's
// TestStatefulSetControlRollingUpdate that map (image update, with scale
// up and down): every pod ends at the new image and the update revision
// becomes the current one.
func TestStatefulSetControlRollingUpdate(t *testing.T) {
	for _, tc := range imageUpdateRows {
		t.Run(tc.name, func(t *testing.T) {
			set, f := tc.start(t)
			old := f.set.Status.CurrentRevision
			tc.update(set)
			set.Generation++
			f.converge(t)
			for _, img := range images(f) {
				if img != "foo" {
					t.Fatalf("images %v", images(f))
				}
			}
			if st := f.set.Status; st.CurrentRevision != st.UpdateRevision || st.CurrentRevision == old || st.CurrentReplicas != tc.target {
				t.Errorf("status %+v (old revision %s)", st, old)
			}
		})
	}
}

// TestStatefulSetControlRollingUpdateWithMaxUnavailable after upstream's
// test of the same name: maxUnavailable 2 deletes two pods at a time,
// highest ordinals first.
func TestStatefulSetControlRollingUpdateWithMaxUnavailable(t *testing.T) {
	set := newStatefulSet(5)
	mu := api.FromInt32(2)
	set.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = &mu
	f := newFakeCluster(set)
	f.converge(t)
	f.log = nil
	set.Spec.Template.Spec.Containers[0].Image = "foo"
	f.sync(t)
	if got := fmt.Sprint(f.log); got != "[delete foo-4 delete foo-3]" {
		t.Fatalf("first update sync: %s", got)
	}
	f.converge(t)
	for _, img := range images(f) {
		if img != "foo" {
			t.Fatalf("images %v", images(f))
		}
	}
}

// TestScaleDownOrder: OrderedReady deletes the highest ordinal first, one
// at a time.
func TestScaleDownOrder(t *testing.T) {
	f := newFakeCluster(newStatefulSet(3))
	f.converge(t)
	f.log = nil
	*f.set.Spec.Replicas = 1
	f.converge(t)
	if got := fmt.Sprint(f.log); got != "[delete foo-2 delete foo-1]" {
		t.Fatalf("scale down: %s", got)
	}
}

// TestRetentionPolicyOwnerRefs: whenDeleted Delete gives each claim the
// set as owner; whenScaled Delete gives a scaled-down pod's claim the pod.
func TestRetentionPolicyOwnerRefs(t *testing.T) {
	set := newStatefulSet(2)
	set.Spec.PersistentVolumeClaimRetentionPolicy = &api.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Delete", WhenScaled: "Delete"}
	f := newFakeCluster(set)
	f.converge(t)
	for name, c := range f.claims {
		if len(c.OwnerReferences) != 1 || c.OwnerReferences[0].Kind != "StatefulSet" {
			t.Fatalf("claim %s owners %+v, want the set", name, c.OwnerReferences)
		}
	}
	*set.Spec.Replicas = 1
	f.sync(t)
	c := f.claims["datadir-foo-1"]
	if len(c.OwnerReferences) != 1 || c.OwnerReferences[0].Kind != "Pod" || c.OwnerReferences[0].Name != "foo-1" {
		t.Fatalf("scaled-down claim owners %+v, want pod foo-1", c.OwnerReferences)
	}
}

// errAPI is upstream's apierrors.NewInternalError(errors.New("API server failed")).
var errAPI = &apierr.StatusError{Code: 500, Reason: apierr.InternalError, Message: "Internal error occurred: API server failed"}

// TestStatefulSetControlFailures ports the failure scenarios of upstream's
// TestStatefulSetControl (stateful_set_control_test.go as stored by the
// index without a commit, with TestStatefulSetControlWithStartOrdinal):
// RecreatesFailedPodWithDeleteFailure, RecreatesSucceededPodWithDeleteFailure,
// CreatePodFailure, UpdatePodFailure, NewRevisionDeletePodFailure and
// RecreatesPVCForPendingPod, each for OrderedReady and Parallel, and
// TestStatefulSetControlScaleDownDeleteError. Not ported:
// UpdateSetStatusFailure (the status write is the reconciler's, outside
// syncSet) and the runs over the five retention policies (the policies'
// claim references are held by the utils tests).
func TestStatefulSetControlFailures(t *testing.T) {
	recreates := func(phase api.PodPhase, deleteFailure bool) func(t *testing.T, f *fakeCluster) {
		return func(t *testing.T, f *fakeCluster) {
			f.sync(t)
			if f.delete.requests != 0 {
				t.Fatalf("%d deletions after the first sync", f.delete.requests)
			}
			first := f.podList()[0]
			first.Status.Phase = phase
			wantDeletes := 0
			if deleteFailure {
				f.delete.err = errAPI
				wantDeletes++
				if err := f.trySync(); apierr.ReasonOf(err) != apierr.InternalError {
					t.Errorf("sync with a failing deletion: %v, want the InternalError", err)
				}
				if f.delete.requests != wantDeletes {
					t.Errorf("%d deletions, want %d", f.delete.requests, wantDeletes)
				}
			}
			wantDeletes++
			f.sync(t)
			if f.delete.requests != wantDeletes || f.pods[first.Name].DeletionTimestamp == nil {
				t.Fatalf("%d deletions, want %d; %s deleting: %v", f.delete.requests, wantDeletes, first.Name, f.pods[first.Name].DeletionTimestamp)
			}
			delete(f.pods, first.Name) // upstream's fake removes it at once
			f.sync(t)
			if f.delete.requests != wantDeletes {
				t.Errorf("%d deletions after the recreation, want %d", f.delete.requests, wantDeletes)
			}
			if p := f.pods[first.Name]; p == nil || p.UID == first.UID {
				t.Fatalf("%s not recreated", first.Name)
			}
			wantCreates := 2
			if allowsBurst(f.set) {
				wantCreates = replicasOf(f.set) + 1
			}
			if f.create.requests != wantCreates {
				t.Errorf("%d creations, want %d", f.create.requests, wantCreates)
			}
		}
	}
	tests := []clusterTest{
		{"RecreatesFailedPodWithDeleteFailure", recreates(api.PodFailed, true)},
		{"RecreatesSucceededPodWithDeleteFailure", recreates(api.PodSucceeded, true)},
		{"CreatePodFailure", func(t *testing.T, f *fakeCluster) {
			f.create = tracker{after: 2, err: errAPI}
			var err error
			for i := 0; i < 20 && err == nil; i++ {
				err = f.trySync()
				f.kubelet()
			}
			if apierr.ReasonOf(err) != apierr.InternalError {
				t.Errorf("scale up with a failing creation: %v, want the InternalError", err)
			}
			f.converge(t)
			if st := f.set.Status; st.Replicas != 3 || st.ReadyReplicas != 3 || st.UpdatedReplicas != 3 {
				t.Errorf("status %+v, want 3 replicas, ready and updated", st)
			}
		}},
		{"UpdatePodFailure", func(t *testing.T, f *fakeCluster) {
			f.converge(t)
			if st := f.set.Status; st.Replicas != 3 || st.ReadyReplicas != 3 || st.UpdatedReplicas != 3 {
				t.Fatalf("status %+v", st)
			}
			f.update.err = errAPI
			delete(f.pods["foo-0"].Labels, api.StatefulSetPodNameLabel) // its identity broken
			if err := f.trySync(); apierr.ReasonOf(err) != apierr.InternalError {
				t.Errorf("sync with a failing pod update: %v, want the InternalError", err)
			}
		}},
		{"NewRevisionDeletePodFailure", func(t *testing.T, f *fakeCluster) {
			f.converge(t)
			f.set.Spec.Template.Spec.Containers[0].Image = "nginx-new"
			f.delete.err = errAPI
			if err := f.trySync(); err == nil {
				t.Error("no error from a sync whose deletion failed")
			}
			if st := f.set.Status; st.CurrentReplicas != 3 || st.CurrentRevision == st.UpdateRevision {
				t.Errorf("status %+v: a failed deletion must leave currentReplicas 3, with a new update revision", st)
			}
			if err := f.trySync(); err != nil {
				t.Fatal(err)
			}
			if st := f.set.Status; st.CurrentReplicas != 2 {
				t.Errorf("currentReplicas %d after the deletion, want 2", st.CurrentReplicas)
			}
		}},
		{"RecreatesPVCForPendingPod", func(t *testing.T, f *fakeCluster) {
			f.sync(t)
			p := f.podList()[0]
			for _, c := range getPersistentVolumeClaims(f.set, p) {
				delete(f.claims, c.Name)
			}
			p.Status.Phase = api.PodPending
			f.sync(t)
			for _, c := range getPersistentVolumeClaims(f.set, p) {
				if f.claims[c.Name] == nil {
					t.Errorf("claim %s of pending pod %s not recreated", c.Name, p.Name)
				}
			}
		}},
	}
	runForEachPolicy(t, tests)
}

// TestStatefulSetControlScaleDownDeleteError is upstream's test of the
// same name: a deletion failing during a scale-down to 0 fails the sync,
// and the next ones finish it.
func TestStatefulSetControlScaleDownDeleteError(t *testing.T) {
	f := newFakeCluster(newStatefulSet(3))
	f.converge(t)
	*f.set.Spec.Replicas = 0
	f.delete = tracker{after: 2, err: errAPI}
	var err error
	for i := 0; i < 20 && err == nil; i++ {
		err = f.trySync()
		f.kubelet()
	}
	if apierr.ReasonOf(err) != apierr.InternalError {
		t.Errorf("scale down with a failing deletion: %v, want the InternalError", err)
	}
	f.converge(t)
	if st := f.set.Status; st.Replicas != 0 || st.ReadyReplicas != 0 || st.UpdatedReplicas != 0 {
		t.Errorf("status %+v, want 0 replicas", st)
	}
}

// TestStatefulSetControlWithStartOrdinal is upstream's test of the same
// name: with ordinals.start 2 the pods are foo-2, foo-3 and foo-4.
func TestStatefulSetControlWithStartOrdinal(t *testing.T) {
	set := newStatefulSet(3)
	set.Spec.Ordinals = &api.StatefulSetOrdinals{Start: 2}
	f := newFakeCluster(set)
	f.converge(t)
	if st := f.set.Status; st.Replicas != 3 || st.ReadyReplicas != 3 || st.UpdatedReplicas != 3 {
		t.Errorf("status %+v", st)
	}
	for i, p := range f.podList() {
		if getOrdinal(p) != 2+i {
			t.Errorf("pod %s has ordinal %d, want %d", p.Name, getOrdinal(p), 2+i)
		}
	}
}

// TestStatefulSetControlRollingUpdateWithMaxUnavailableInOrderedModeVerifyInvariant
// ports upstream's table of the same name (stateful_set_control_test.go
// at 0004b149), all ten rows: six pods, partition 3, maxUnavailable 2;
// with the pods at the row's ordinals terminating, the update pass
// (rollingUpdate, upstream's updateStatefulSetAfterInvariantEstablished,
// called with an update revision no pod has) deletes 2 less the
// terminating pods, wherever they are, even below the partition.
func TestStatefulSetControlRollingUpdateWithMaxUnavailableInOrderedModeVerifyInvariant(t *testing.T) {
	for _, terminating := range [][]int{{}, {5}, {3}, {4}, {5, 4}, {5, 3}, {4, 3}, {5, 4, 3}, {2}, {1}} {
		t.Run(fmt.Sprintf("terminating pod at ordinal %v", terminating), func(t *testing.T) {
			set := newStatefulSet(6)
			partition, mu := int32(3), api.FromInt32(2)
			set.Spec.UpdateStrategy = api.StatefulSetUpdateStrategy{Type: api.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &api.RollingUpdateStatefulSetStrategy{Partition: &partition, MaxUnavailable: &mu}}
			f := newFakeCluster(set)
			f.converge(t)
			for _, o := range terminating {
				ts := api.NewTime(f.now)
				f.pods[getPodName(set, o)].DeletionTimestamp = &ts
			}
			f.log = nil
			set.Spec.Template.Spec.Containers[0].Image = "foo"
			c := &control{pc: f, now: f.now}
			if _, err := c.rollingUpdate(context.Background(), set, f.podList(), "", &api.StatefulSetStatus{Replicas: 6}); err != nil {
				t.Fatal(err)
			}
			want := max(0, 2-len(terminating))
			if len(f.log) != want {
				t.Errorf("%v, want %d deletions", f.log, want)
			}
		})
	}
}

// TestStatefulSetControlOnDeleteUpdate ports upstream's table of the same
// name (stateful_set_control_test.go at 0004b149), its six rows with no
// retention policy (the runs over the others check claim references, held
// by the utils tests): with updateStrategy OnDelete, changing the image
// leaves the pods there as they are and gives new pods (scale up) the new
// image; after scaling to 0 and back, every pod has it.
func TestStatefulSetControlOnDeleteUpdate(t *testing.T) {
	for _, tc := range imageUpdateRows {
		t.Run(tc.name, func(t *testing.T) {
			set := tc.newSet()
			set.Spec.UpdateStrategy = api.StatefulSetUpdateStrategy{Type: api.OnDeleteStatefulSetStrategyType}
			f := newFakeCluster(set)
			f.converge(t)
			tc.update(set)
			set.Generation++
			for range 40 {
				f.sync(t)
				f.kubelet()
			}
			got := images(f)
			if len(got) != int(tc.target) {
				t.Fatalf("images %v, want %d pods", got, tc.target)
			}
			for i, img := range got {
				want := "nginx"
				if i >= int(tc.initial) {
					want = "foo"
				}
				if img != want {
					t.Errorf("after the update, pod foo-%d image %s, want %s (all: %v)", i, img, want, got)
				}
			}
			zero := int32(0)
			set.Spec.Replicas = &zero
			f.converge(t)
			set.Spec.Replicas = &tc.target
			f.converge(t)
			for _, img := range images(f) {
				if img != "foo" {
					t.Fatalf("after scaling to 0 and back, images %v, want foo", images(f))
				}
			}
		})
	}
}

// TestStatefulSetControlRollback ports upstream's table of the same name
// (stateful_set_control_test.go at 0004b149), its six rows: after an
// image update (with a scale up or down), going back to the first
// revision's template (upstream's ApplyRevision of the oldest
// ControllerRevision; here the template is set back) brings every pod
// back to the original image.
func TestStatefulSetControlRollback(t *testing.T) {
	for _, tc := range imageUpdateRows {
		t.Run(tc.name, func(t *testing.T) {
			set, f := tc.start(t)
			original := set.Spec.Template.DeepCopy()
			tc.update(set)
			f.converge(t)
			for _, img := range images(f) {
				if img != "foo" {
					t.Fatalf("after the update, images %v", images(f))
				}
			}
			set.Spec.Template = *original
			f.converge(t)
			for _, img := range images(f) {
				if img != "nginx" {
					t.Fatalf("after the rollback, images %v", images(f))
				}
			}
			if st := f.set.Status; st.CurrentRevision != st.UpdateRevision || st.UpdatedReplicas != tc.target {
				t.Errorf("status %+v", st)
			}
		})
	}
}

// TestStatefulSetAvailability ports upstream's table of the same name
// (stateful_set_control_test.go at 0004b149), both rows: with
// minReadySeconds 3600, a pod ready for 120 minutes is available, one
// ready for 30 is not.
func TestStatefulSetAvailability(t *testing.T) {
	for _, tc := range []struct {
		name          string
		readyFor      time.Duration
		wantAvailable int32
	}{
		{"replicas running for required time, when minReadySeconds is enabled", 120 * time.Minute, 1},
		{"replicas not running for required time, when minReadySeconds is enabled", 30 * time.Minute, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := newStatefulSet(1)
			set.Spec.MinReadySeconds = 3600
			f := newFakeCluster(burst(set))
			f.converge(t)
			f.pods["foo-0"].Status.Conditions[0].LastTransitionTime = api.NewTime(f.now.Add(-tc.readyFor))
			f.sync(t)
			if got := f.set.Status.AvailableReplicas; got != tc.wantAvailable {
				t.Errorf("available replicas %d, want %d", got, tc.wantAvailable)
			}
		})
	}
}

// TestStatefulSetStatusUpdate ports upstream's table of the same name
// (stateful_set_control_test.go at 0004b149), its four rows, on the
// reconciler: the status is written once whether the sync failed or not,
// and the sync's error is returned before the status write's.
func TestStatefulSetStatusUpdate(t *testing.T) {
	syncErr, statusErr := errors.New("sync error"), errors.New("status error")
	for _, tc := range []struct {
		desc                     string
		hasSyncErr, hasStatusErr bool
		wantErr                  error
	}{
		{"no error", false, false, nil},
		{"sync error", true, false, syncErr},
		{"status error", false, true, statusErr},
		{"sync and status error", true, true, syncErr},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			set := newStatefulSet(3)
			pc, c, _ := newPodControl()
			r := pc.r
			r.clock, r.sets, r.pods = &fixedClock{t0}, informer.Static{set}, informer.Static{}
			r.revisions = map[api.UID]map[string]*api.PodTemplateSpec{}
			if tc.hasSyncErr {
				c.createPodErr = syncErr
			}
			if tc.hasStatusErr {
				c.statusErr = statusErr
			}
			_, err := r.Reconcile(context.Background(), controller.Request{Key: set.Key()})
			if c.statusWrites != 1 {
				t.Errorf("%d status writes, want 1", c.statusWrites)
			}
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("error %v, want %v", err, tc.wantErr)
			}
		})
	}
}

type fixedClock struct{ t time.Time }

func (c *fixedClock) Now() time.Time                  { return c.t }
func (c *fixedClock) Since(t time.Time) time.Duration { return c.t.Sub(t) }

// The MinReadySeconds tests port upstream's tests of the same names
// (stateful_set_control_test.go at 0004b149): pods ready for less than
// minReadySeconds are not available, and an OrderedReady set waits for
// them before a rolling update or a scale down. Upstream puts running
// and ready pods in the cache by hand; here the set converges, then its
// pods' Ready conditions are dated readyFor before now. Where upstream's
// comment says the update or scale down is blocked and its test checks
// only the available count, no deletion is checked too.
func minReadyCluster(t *testing.T, set *api.StatefulSet, minReady int32, readyFor time.Duration) *fakeCluster {
	t.Helper()
	set.Spec.MinReadySeconds = minReady
	f := newFakeCluster(set)
	f.converge(t)
	setReadyFor(f, readyFor)
	f.log = nil
	return f
}

func setReadyFor(f *fakeCluster, d time.Duration) {
	for _, p := range f.pods {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(f.now.Add(-d))}}
	}
}

func TestStatefulSetRollingUpdateRespectsMinReadySeconds(t *testing.T) {
	f := minReadyCluster(t, newStatefulSet(2), 30, 10*time.Second)
	f.set.Spec.Template.Spec.Containers[0].Image = "updated-image"
	f.sync(t)
	if f.set.Status.AvailableReplicas != 0 || len(f.log) != 0 {
		t.Errorf("pods ready 10s of 30: available %d, operations %v; want 0 and none", f.set.Status.AvailableReplicas, f.log)
	}
	setReadyFor(f, 60*time.Second)
	f.sync(t)
	if f.set.Status.AvailableReplicas != 2 || fmt.Sprint(f.log) != "[delete foo-1]" {
		t.Errorf("pods ready 60s of 30: available %d, operations %v; want 2 and foo-1 deleted", f.set.Status.AvailableReplicas, f.log)
	}
}

func TestStatefulSetScaleDownRespectsMinReadySeconds(t *testing.T) {
	f := minReadyCluster(t, newStatefulSet(3), 30, 10*time.Second)
	one := int32(1)
	f.set.Spec.Replicas = &one
	f.sync(t)
	if f.set.Status.AvailableReplicas != 0 || len(f.log) != 0 {
		t.Errorf("available %d, operations %v; want 0 and no scale down", f.set.Status.AvailableReplicas, f.log)
	}
}

func TestStatefulSetOnDeleteStrategyIgnoresMinReadySeconds(t *testing.T) {
	set := newStatefulSet(2)
	set.Spec.UpdateStrategy = api.StatefulSetUpdateStrategy{Type: api.OnDeleteStatefulSetStrategyType}
	f := minReadyCluster(t, set, 30, 10*time.Second)
	old := f.set.Status.UpdateRevision
	f.set.Spec.Template.Spec.Containers[0].Image = "updated-image"
	f.sync(t)
	if st := f.set.Status; st.AvailableReplicas != 0 || st.UpdateRevision == "" || st.UpdateRevision == old {
		t.Errorf("status %+v; want 0 available and a new update revision", st)
	}
}

func TestStatefulSetZeroMinReadySeconds(t *testing.T) {
	f := minReadyCluster(t, newStatefulSet(2), 0, 0)
	f.sync(t)
	if got := f.set.Status.AvailableReplicas; got != 2 {
		t.Errorf("available %d, want 2", got)
	}
}

func TestStatefulSetPartitionRollingUpdateWithMinReadySeconds(t *testing.T) {
	set := newStatefulSet(4)
	two := int32(2)
	set.Spec.UpdateStrategy.RollingUpdate = &api.RollingUpdateStatefulSetStrategy{Partition: &two}
	f := minReadyCluster(t, set, 30, 10*time.Second)
	f.set.Spec.Template.Spec.Containers[0].Image = "updated-image"
	f.sync(t)
	if f.set.Status.AvailableReplicas != 0 || len(f.log) != 0 {
		t.Errorf("available %d, operations %v; want 0 and none", f.set.Status.AvailableReplicas, f.log)
	}
}

// TestParallelScale ports upstream's table of the same name
// (stateful_set_control_test.go at 0004b149), its four rows, without the
// count of requests made in parallel (here a sync's creations and
// deletions run in order): a Parallel set scales from replicas to
// desiredReplicas within two syncs (the pods deleted by the first gone
// before the second), as upstream's two loops (batches of up to 500
// there, all at once here).
func TestParallelScale(t *testing.T) {
	for _, tc := range []struct {
		desc                      string
		replicas, desiredReplicas int32
	}{
		{"scale up from 3 to 30", 3, 30},
		{"scale down from 10 to 1", 10, 1},
		{"scale down to 0", 501, 0},
		{"scale up from 0", 0, 1000},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			set := burst(newStatefulSet(tc.replicas))
			set.Spec.VolumeClaimTemplates[0].Labels = map[string]string{"test": "test"}
			f := newFakeCluster(set)
			f.converge(t)
			set.Spec.Replicas = &tc.desiredReplicas
			for range 2 {
				f.sync(t)
				if f.set.Status.Replicas == tc.desiredReplicas && len(f.pods) == int(tc.desiredReplicas) {
					break
				}
				f.kubelet()
			}
			if got := f.set.Status.Replicas; got != tc.desiredReplicas || len(f.pods) != int(tc.desiredReplicas) {
				t.Errorf("status replicas %d, pods %d; want %d", got, len(f.pods), tc.desiredReplicas)
			}
		})
	}
}

// TestRunForAll checks runForAll against upstream's runForAll and
// slowStartBatch (stateful_set_control.go): monotonic mode stops at the
// first pod that blocks or fails; burst mode ignores blocking, runs every
// call of a batch (1, 2, 4, ...) even after a failure in it, starts no
// batch after a failed one, and returns the batch's errors aggregated.
func TestRunForAll(t *testing.T) {
	errA, errB := errors.New("a"), errors.New("b")
	tests := []struct {
		name      string
		pods      int
		monotonic bool
		blocks    map[int]bool
		fails     map[int]error
		wantCalls int
		wantExit  bool
		wantErr   string
	}{
		{name: "monotonic: all pass", pods: 5, monotonic: true, wantCalls: 5},
		{name: "monotonic: stops at the first blocking pod", pods: 5, monotonic: true, blocks: map[int]bool{2: true}, wantCalls: 3, wantExit: true},
		{name: "monotonic: stops at the first failing pod", pods: 5, monotonic: true, fails: map[int]error{1: errA}, wantCalls: 2, wantExit: true, wantErr: "a"},
		{name: "burst: blocking is ignored", pods: 5, blocks: map[int]bool{0: true, 2: true}, wantCalls: 5},
		{name: "burst: no pods", pods: 0, wantCalls: 0},
		// Batches [0], [1 2]: pod 2 runs although pod 1 failed; [3 4 5 6] does not start.
		{name: "burst: the failing pod's batch finishes, no batch follows", pods: 7, fails: map[int]error{1: errA}, wantCalls: 3, wantExit: true, wantErr: "a"},
		{name: "burst: a failure in the first batch", pods: 7, fails: map[int]error{0: errA}, wantCalls: 1, wantExit: true, wantErr: "a"},
		// Batches [0], [1 2], [3 4 5 6]: two failures in the third.
		{name: "burst: two errors of a batch are aggregated", pods: 10, fails: map[int]error{4: errA, 6: errB}, wantCalls: 7, wantExit: true, wantErr: "[a, b]"},
		{name: "burst: one message twice is printed once", pods: 10, fails: map[int]error{3: errA, 5: errA}, wantCalls: 7, wantExit: true, wantErr: "a"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			exit, err := runForAll(make([]*api.Pod, tc.pods), func(i int) (bool, error) {
				calls++
				return tc.blocks[i], tc.fails[i]
			}, tc.monotonic)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if calls != tc.wantCalls || exit != tc.wantExit || gotErr != tc.wantErr {
				t.Errorf("runForAll = %v, %q after %d calls; want %v, %q after %d", exit, gotErr, calls, tc.wantExit, tc.wantErr, tc.wantCalls)
			}
			for _, e := range tc.fails {
				if err != nil && !errors.Is(err, e) {
					t.Errorf("error %v does not wrap %v", err, e)
				}
			}
		})
	}
}
