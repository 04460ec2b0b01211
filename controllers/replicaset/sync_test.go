package replicaset

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/controller"
)

// These tests drive the reconciler directly over fakes, porting the cases
// of upstream's replica_set_test.go, replica_set_utils_test.go and
// controller_utils_test.go that apply.

var errFake = errors.New("fake error")

func TestSlowStartBatch(t *testing.T) {
	tests := []struct {
		name          string
		count, limit  int
		wantSuccesses int
		wantErr       error
		wantCalls     int
	}{
		// 1 call fails: no second batch.
		{name: "callLimit = 0 (all fail)", count: 10, limit: 0, wantSuccesses: 0, wantErr: errFake, wantCalls: 1},
		// Batches 1, 2, 4, 3.
		{name: "callLimit = count (all succeed)", count: 10, limit: 10, wantSuccesses: 10, wantCalls: 10},
		// Batches 1, 2, then 4 of which 2 fail: the batch finishes.
		{name: "callLimit < count (some succeed)", count: 10, limit: 5, wantSuccesses: 5, wantErr: errFake, wantCalls: 7},
		{name: "nothing to do", count: 0, limit: 0, wantSuccesses: 0, wantCalls: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			fn := func() error {
				calls++
				if calls > tc.limit {
					return errFake
				}
				return nil
			}
			got, err := slowStartBatch(tc.count, SlowStartInitialBatchSize, fn)
			if got != tc.wantSuccesses || !errors.Is(err, tc.wantErr) || (tc.wantErr == nil && err != nil) || calls != tc.wantCalls {
				t.Errorf("slowStartBatch = %d, %v after %d calls; want %d, %v after %d", got, err, calls, tc.wantSuccesses, tc.wantErr, tc.wantCalls)
			}
		})
	}
}

// TestExpectations ports TestControllerExpectations: counts may be passed
// (observed more than expected) and expire after ExpectationsTimeout.
func TestExpectations(t *testing.T) {
	clock := &fakeClock{now: testEpoch}
	e := NewExpectations(clock)
	key := "default/foobar"
	adds, dels := 10, 30
	e.Set(key, adds, dels)
	for range adds + 1 {
		e.CreationObserved(key)
	}
	if e.Satisfied(key) {
		t.Fatal("satisfied while deletions are still expected")
	}
	for range dels + 1 {
		e.Lower(key, 0, 1)
	}
	tests := []struct {
		name          string
		set           []int
		expire        bool
		wantAdd       int64
		wantDel       int64
		wantSatisfied bool
	}{
		{name: "expectations have been surpassed", wantAdd: -1, wantDel: -1, wantSatisfied: true},
		{name: "old expectations are cleared because of ttl", set: []int{1, 2}, expire: true, wantAdd: 1, wantDel: 2, wantSatisfied: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.set != nil {
				e.Set(key, tc.set[0], tc.set[1])
			}
			add, del, ok := e.Get(key)
			if !ok || add != tc.wantAdd || del != tc.wantDel {
				t.Fatalf("Get = %d, %d, %v; want %d, %d, true", add, del, ok, tc.wantAdd, tc.wantDel)
			}
			if got := e.Satisfied(key); got != tc.wantSatisfied {
				t.Fatalf("Satisfied = %v, want %v", got, tc.wantSatisfied)
			}
			if tc.expire {
				clock.step(ExpectationsTimeout)
				if e.Satisfied(key) {
					t.Fatal("satisfied at exactly the timeout; want only after it")
				}
				clock.step(time.Nanosecond)
				if !e.Satisfied(key) {
					t.Fatal("expectations did not expire")
				}
			}
		})
	}
	if !e.Satisfied("default/unknown") {
		t.Error("a key without expectations must be satisfied")
	}
}

// TestUIDExpectations ports TestUIDExpectations: each expected pod counts
// once, whether seen terminating or gone, and Delete forgets everything.
func TestUIDExpectations(t *testing.T) {
	e := NewExpectations(&fakeClock{now: testEpoch})
	for _, n := range []int{2, 1, 0, 5} {
		t.Run(fmt.Sprintf("%d replicas", n), func(t *testing.T) {
			key := fmt.Sprintf("default/rc-%d", n)
			var pods []string
			for i := range 5 {
				pods = append(pods, fmt.Sprintf("default/pod%d-rc-%d", i, n))
			}
			e.ExpectDeletions(key, pods)
			if e.Satisfied(key) {
				t.Fatal("satisfied before any deletion")
			}
			if got := e.Deleting(key); !slices.Equal(got, pods) {
				t.Fatalf("Deleting = %v, want %v", got, pods)
			}
			for _, p := range pods {
				e.DeletionObserved(key, p)
				e.DeletionObserved(key, p) // a second sighting must not count
			}
			if _, del, _ := e.Get(key); del != 0 {
				t.Fatalf("del = %d after observing each pod twice, want 0", del)
			}
			if !e.Satisfied(key) {
				t.Fatal("not satisfied after every deletion")
			}
			e.Delete(key)
			if e.Deleting(key) != nil {
				t.Fatal("Delete kept the pod keys")
			}
			if _, _, ok := e.Get(key); ok {
				t.Fatal("Delete kept the counts")
			}
		})
	}
}

// TestCalculateStatus ports upstream's TestCalculateStatus.
func TestCalculateStatus(t *testing.T) {
	labels := map[string]string{"name": "foo"}
	full := map[string]string{"name": "foo", "type": "production"}
	notFully := newReplicaSet(1, labels)
	fully := newReplicaSet(2, full)
	longMinReady := newReplicaSet(1, full)
	longMinReady.Spec.MinReadySeconds = 3600
	now := testEpoch.Add(time.Hour)
	readyLongAgo := testEpoch
	zero, two := int32(0), int32(2)
	tests := []struct {
		name string
		rs   *api.ReplicaSet
		pods []*api.Pod
		want api.ReplicaSetStatus
		// terminating are the pods being deleted (upstream's
		// terminatingPods).
		terminating []*api.Pod
	}{
		{"1 fully labelled pod", fully, []*api.Pod{newPod("pod1", fully, api.PodRunning, nil, true)},
			api.ReplicaSetStatus{Replicas: 1, FullyLabeledReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1, TerminatingReplicas: &zero}, nil},
		{"1 not fully labelled pod", notFully, []*api.Pod{newPod("pod1", notFully, api.PodRunning, nil, true)},
			api.ReplicaSetStatus{Replicas: 1, FullyLabeledReplicas: 0, ReadyReplicas: 1, AvailableReplicas: 1, TerminatingReplicas: &zero}, nil},
		{"2 fully labelled pods", fully, []*api.Pod{newPod("pod1", fully, api.PodRunning, nil, true), newPod("pod2", fully, api.PodRunning, nil, true)},
			api.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2, TerminatingReplicas: &zero}, nil},
		{"2 not fully labelled pods", notFully, []*api.Pod{newPod("pod1", notFully, api.PodRunning, nil, true), newPod("pod2", notFully, api.PodRunning, nil, true)},
			api.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 0, ReadyReplicas: 2, AvailableReplicas: 2, TerminatingReplicas: &zero}, nil},
		{"1 fully labelled pod, 1 not fully labelled pod", notFully, []*api.Pod{newPod("pod1", notFully, api.PodRunning, nil, true), newPod("pod2", fully, api.PodRunning, nil, true)},
			api.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 1, ReadyReplicas: 2, AvailableReplicas: 2, TerminatingReplicas: &zero}, nil},
		{"1 non-ready pod", fully, []*api.Pod{newPod("pod1", fully, api.PodPending, nil, true)},
			api.ReplicaSetStatus{Replicas: 1, FullyLabeledReplicas: 1, TerminatingReplicas: &zero}, nil},
		{"1 ready but non-available pod", longMinReady, []*api.Pod{newPod("pod1", longMinReady, api.PodRunning, nil, true)},
			api.ReplicaSetStatus{Replicas: 1, FullyLabeledReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 0, TerminatingReplicas: &zero}, nil},
		{"1 pod ready for exactly minReadySeconds", longMinReady, []*api.Pod{newPod("pod1", longMinReady, api.PodRunning, &readyLongAgo, true)},
			api.ReplicaSetStatus{Replicas: 1, FullyLabeledReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1, TerminatingReplicas: &zero}, nil},
		{name: "1 fully labelled pods and 2 terminating with DeploymentPodReplacementPolicy", rs: fully,
			pods:        []*api.Pod{newPod("pod1", fully, api.PodRunning, nil, true)},
			terminating: []*api.Pod{asTerminating(newPod("pod2", fully, api.PodRunning, nil, true)), asTerminating(newPod("pod3", fully, api.PodRunning, nil, true))},
			want:        api.ReplicaSetStatus{Replicas: 1, FullyLabeledReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1, TerminatingReplicas: &two}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := calculateStatus(tc.rs, tc.pods, tc.terminating, nil, now)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("status %+v, want %+v", got, tc.want)
			}
		})
	}
	// A nanosecond past minReadySeconds is available too.
	p := newPod("pod1", longMinReady, api.PodRunning, &readyLongAgo, true)
	if got := calculateStatus(longMinReady, []*api.Pod{p}, nil, nil, readyLongAgo.Add(time.Hour+time.Nanosecond)); got.AvailableReplicas != 1 {
		t.Errorf("available %d after minReadySeconds, want 1", got.AvailableReplicas)
	}
	terminating := []*api.Pod{newPod("t1", fully, api.PodRunning, nil, true), newPod("t2", fully, api.PodRunning, nil, true)}
	if got := calculateStatus(fully, nil, terminating, nil, now); got.TerminatingReplicas == nil || *got.TerminatingReplicas != 2 {
		t.Errorf("terminatingReplicas %v, want 2", got.TerminatingReplicas)
	}
}

// TestCalculateStatusConditions ports upstream's table: the condition is
// added with FailedCreate/FailedDelete only when absent, and removed after
// a clean sync.
func TestCalculateStatusConditions(t *testing.T) {
	labels := map[string]string{"name": "foo"}
	rs := newReplicaSet(2, labels)
	failing := newReplicaSet(10, labels)
	failing.Status.Conditions = []api.ReplicaSetCondition{{Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue}}
	now := testEpoch.Add(90 * time.Second)
	cond := func(reason, msg string) []api.ReplicaSetCondition {
		return []api.ReplicaSetCondition{{Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue, Reason: reason, Message: msg, LastTransitionTime: api.NewTime(now)}}
	}
	fakeErr := errors.New("fake manageReplicasErr")
	tests := []struct {
		name string
		rs   *api.ReplicaSet
		pods []*api.Pod
		err  error
		want []api.ReplicaSetCondition
	}{
		{"manageReplicasErr != nil && failureCond == nil, diff < 0", rs, []*api.Pod{newPod("pod1", rs, api.PodRunning, nil, true)}, fakeErr, cond("FailedCreate", "fake manageReplicasErr")},
		{"manageReplicasErr != nil && failureCond == nil, diff > 0", rs, newPods(3, "pod", rs, api.PodRunning), fakeErr, cond("FailedDelete", "fake manageReplicasErr")},
		{"manageReplicasErr == nil && failureCond != nil", failing, []*api.Pod{newPod("pod1", failing, api.PodRunning, nil, true)}, nil, nil},
		{"manageReplicasErr != nil && failureCond != nil", failing, []*api.Pod{newPod("pod1", failing, api.PodRunning, nil, true)}, fakeErr, []api.ReplicaSetCondition{{Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue}}},
		{"manageReplicasErr == nil && failureCond == nil", rs, []*api.Pod{newPod("pod1", rs, api.PodRunning, nil, true)}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := calculateStatus(tc.rs, tc.pods, nil, tc.err, now)
			if !reflect.DeepEqual(got.Conditions, tc.want) {
				t.Errorf("conditions %+v, want %+v", got.Conditions, tc.want)
			}
		})
	}
}

func reconcile(t *testing.T, h *harness, rs *api.ReplicaSet) (controller.Result, error) {
	t.Helper()
	res, err := h.r.Reconcile(context.Background(), controller.Request{Key: rs.GetObjectMeta().Key()})
	for _, msg := range takeVerifyFailures() {
		t.Error(msg)
	}
	return res, err
}

func TestSyncReplicaSetDoesNothing(t *testing.T) {
	h := newHarness(BurstReplicas)
	rs := newReplicaSet(2, map[string]string{"foo": "bar"})
	rs.Status = api.ReplicaSetStatus{Replicas: 2, FullyLabeledReplicas: 0, ReadyReplicas: 2, AvailableReplicas: 2, TerminatingReplicas: int32p(0), ObservedGeneration: 1}
	h.addRS(rs)
	h.addPods(newPods(2, "pod", rs, api.PodRunning)...)
	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatal(err)
	}
	if len(h.client.actions) != 0 {
		t.Errorf("a synced ReplicaSet made calls: %+v", h.client.actions)
	}
}

func TestSyncReplicaSetDeletes(t *testing.T) {
	h := newHarness(BurstReplicas)
	rs := newReplicaSet(1, map[string]string{"foo": "bar"})
	h.addRS(rs)
	h.addPods(newPods(2, "pod", rs, api.PodRunning)...)
	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatal(err)
	}
	if got := h.client.count("delete"); got != 1 {
		t.Fatalf("%d deletes, want 1", got)
	}
	// The informer has not seen the deletion yet: it is still expected.
	if _, del, _ := h.r.exp.Get("default/foobar"); del != 1 {
		t.Errorf("del expectation %d, want 1", del)
	}
}

func TestSyncReplicaSetCreateFailures(t *testing.T) {
	h := newHarness(BurstReplicas)
	h.client.createLimit = 10
	rs := newReplicaSet(100, map[string]string{"foo": "bar"})
	h.addRS(rs)
	_, err := reconcile(t, h, rs)
	if !errors.Is(err, apierr.ErrForbidden) {
		t.Fatalf("error %v, want Forbidden", err)
	}
	if got := h.client.creates - h.client.createLimit; got <= 0 {
		t.Fatalf("no create failed")
	}
	// Slow start: 1+2+4+8 = 15 creates, the fourth batch failing.
	if got := h.client.count("create"); got != 15 {
		t.Errorf("%d create calls, want 15 (batches 1, 2, 4, 8)", got)
	}
	// Skipped and failed creates are not expected any more: only the 10
	// that succeeded are.
	if add, _, _ := h.r.exp.Get("default/foobar"); add != 10 {
		t.Errorf("add expectation %d, want 10", add)
	}
	st := h.client.objs[api.KindReplicaSet][rs.GetObjectMeta().Key()].(*api.ReplicaSet).Status
	c := GetCondition(st, api.ReplicaSetReplicaFailure)
	if c == nil || c.Status != api.ConditionTrue || c.Reason != "FailedCreate" || c.Message != err.Error() {
		t.Errorf("condition %+v, want ReplicaFailure True FailedCreate %q", c, err)
	}
	var warnings int
	for _, e := range h.recorder.events {
		if strings.HasPrefix(e, "Warning FailedCreate Error creating: pods is forbidden: exceeded quota") {
			warnings++
		}
	}
	if warnings != 5 {
		t.Errorf("%d FailedCreate events, want 5: %v", warnings, h.recorder.events)
	}
}

func TestSyncReplicaSetBurst(t *testing.T) {
	for _, tc := range []struct {
		replicas, pods, burst int
		wantCreates           int
		wantDeletes           int
	}{
		{replicas: 12, pods: 0, burst: 5, wantCreates: 5},
		{replicas: 0, pods: 12, burst: 5, wantDeletes: 5},
		{replicas: 3, pods: 0, burst: 500, wantCreates: 3},
	} {
		t.Run(fmt.Sprintf("%d-of-%d-burst-%d", tc.pods, tc.replicas, tc.burst), func(t *testing.T) {
			h := newHarness(tc.burst)
			rs := newReplicaSet(int32(tc.replicas), map[string]string{"foo": "bar"})
			h.addRS(rs)
			h.addPods(newPods(tc.pods, "pod", rs, api.PodRunning)...)
			if _, err := reconcile(t, h, rs); err != nil {
				t.Fatal(err)
			}
			if c, d := h.client.count("create"), h.client.count("delete"); c != tc.wantCreates || d != tc.wantDeletes {
				t.Errorf("%d creates, %d deletes; want %d, %d", c, d, tc.wantCreates, tc.wantDeletes)
			}
		})
	}
}

// TestSyncReplicaSetDormancy ports the expectations part of upstream's
// TestSyncReplicaSetDormancy: after creating, the ReplicaSet waits for the
// creation to be observed; a failed create lowers the expectation at once.
func TestSyncReplicaSetDormancy(t *testing.T) {
	h := newHarness(BurstReplicas)
	rs := newReplicaSet(2, map[string]string{"foo": "bar"})
	h.addRS(rs)
	h.addPods(newPods(1, "pod", rs, api.PodRunning)...)
	key := "default/foobar"

	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatal(err)
	}
	if got := h.client.count("create"); got != 1 {
		t.Fatalf("%d creates, want 1", got)
	}
	// The create is not observed yet: no action, status only.
	h.client.actions = nil
	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatal(err)
	}
	if got := h.client.count("create"); got != 0 {
		t.Fatalf("%d creates while expecting one, want 0", got)
	}
	// Observed: the next sync creates again, and the create fails.
	h.r.exp.CreationObserved(key)
	h.client.actions = nil
	h.client.fail("create", 1, apierr.NewForbidden("pods", "", "nope"))
	if _, err := reconcile(t, h, rs); err == nil {
		t.Fatal("no error from a failed create")
	}
	if got := h.client.count("create"); got != 1 {
		t.Fatalf("%d creates, want 1", got)
	}
	// The failure lowered the expectation: the next sync acts at once.
	h.client.actions = nil
	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatal(err)
	}
	if got := h.client.count("create"); got != 1 {
		t.Fatalf("%d creates after a failed one, want 1", got)
	}
	// Without observations, expectations expire after 5 minutes.
	h.client.actions = nil
	h.clock.step(ExpectationsTimeout + time.Second)
	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatal(err)
	}
	if got := h.client.count("create"); got != 1 {
		t.Fatalf("%d creates after expiry, want 1", got)
	}
}

func TestSyncReplicaSetBeingDeleted(t *testing.T) {
	h := newHarness(BurstReplicas)
	rs := newReplicaSet(3, map[string]string{"foo": "bar"})
	ts := api.NewTime(testEpoch)
	rs.DeletionTimestamp = &ts
	rs.Finalizers = []string{api.FinalizerDeleteDependents}
	h.addRS(rs)
	h.addPods(newPods(1, "pod", rs, api.PodRunning)...)
	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatal(err)
	}
	if c := h.client.count("create"); c != 0 {
		t.Errorf("%d creates for a ReplicaSet being deleted, want 0", c)
	}
	if c := h.client.count("update-status"); c != 1 {
		t.Errorf("%d status updates, want 1: status is still reported", c)
	}
}

// TestDeletedPodsObserved: deleting a pod that is already gone counts as
// observed and is no failure (upstream's TestDeletePodsAllowsMissing and
// the NotFound branch of manageReplicas).
func TestDeletedPodsObserved(t *testing.T) {
	h := newHarness(BurstReplicas)
	rs := newReplicaSet(0, map[string]string{"foo": "bar"})
	h.addRS(rs)
	pods := newPods(2, "pod", rs, api.PodRunning)
	h.pods.add(pods[0])
	h.addPods(pods[1])
	// pods[0] is in the cache but not on the server.
	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatalf("error %v; a NotFound delete is not a failure", err)
	}
	if _, del, _ := h.r.exp.Get("default/foobar"); del != 1 {
		t.Errorf("del expectation %d, want 1 (the gone pod counted)", del)
	}
	if got := h.r.exp.Deleting("default/foobar"); !slices.Equal(got, []string{"default/pod1"}) {
		t.Errorf("still expecting %v, want [default/pod1]", got)
	}
	st := h.client.objs[api.KindReplicaSet][rs.GetObjectMeta().Key()].(*api.ReplicaSet).Status
	if GetCondition(st, api.ReplicaSetReplicaFailure) != nil {
		t.Error("ReplicaFailure set for an already deleted pod")
	}
}

func TestSyncReplicaSetDeleteFailure(t *testing.T) {
	h := newHarness(BurstReplicas)
	rs := newReplicaSet(0, map[string]string{"foo": "bar"})
	h.addRS(rs)
	h.addPods(newPods(1, "pod", rs, api.PodRunning)...)
	h.client.fail("delete", 1, apierr.NewForbidden("pods", "pod0", "no"))
	_, err := reconcile(t, h, rs)
	if !errors.Is(err, apierr.ErrForbidden) {
		t.Fatalf("error %v, want a wrapped Forbidden", err)
	}
	if want := `unable to delete pods: pods "pod0" is forbidden: no`; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if want := []string{`Warning FailedDelete Error deleting: pods "pod0" is forbidden: no`}; !slices.Equal(h.recorder.events, want) {
		t.Errorf("events %v, want %v", h.recorder.events, want)
	}
	if !h.r.exp.Satisfied("default/foobar") {
		t.Error("a failed delete must lower the expectations")
	}
	st := h.client.objs[api.KindReplicaSet][rs.GetObjectMeta().Key()].(*api.ReplicaSet).Status
	if c := GetCondition(st, api.ReplicaSetReplicaFailure); c == nil || c.Reason != "FailedDelete" {
		t.Errorf("condition %+v, want FailedDelete", c)
	}
}

// TestControllerUpdateStatusWithFailure: a failed status write is retried
// once after a fresh read, then the error is returned.
func TestControllerUpdateStatusWithFailure(t *testing.T) {
	for _, tc := range []struct {
		fails      int
		wantErr    bool
		wantWrites int
	}{
		{fails: 1, wantErr: false, wantWrites: 2},
		{fails: 2, wantErr: true, wantWrites: 2},
	} {
		t.Run(fmt.Sprintf("%d failures", tc.fails), func(t *testing.T) {
			h := newHarness(BurstReplicas)
			rs := newReplicaSet(1, map[string]string{"foo": "bar"})
			h.addRS(rs)
			h.addPods(newPods(1, "pod", rs, api.PodRunning)...)
			h.client.fail("update-status", tc.fails, apierr.NewConflict("replicasets.apps", "foobar", apierr.OptimisticLockErrorMsg))
			_, err := reconcile(t, h, rs)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error=%v", err, tc.wantErr)
			}
			if got := h.client.count("update-status"); got != tc.wantWrites {
				t.Errorf("%d status writes, want %d", got, tc.wantWrites)
			}
			if got := h.client.count("get"); got != 1 {
				t.Errorf("%d gets, want 1 (the re-read)", got)
			}
		})
	}
}

// TestStatusObservedGeneration: the status write carries the generation
// acted on, and a status without change is not written.
func TestStatusObservedGeneration(t *testing.T) {
	h := newHarness(BurstReplicas)
	rs := newReplicaSet(1, map[string]string{"foo": "bar"})
	rs.Generation = 4
	h.addRS(rs)
	h.addPods(newPods(1, "pod", rs, api.PodRunning)...)
	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatal(err)
	}
	got := h.client.objs[api.KindReplicaSet][rs.GetObjectMeta().Key()].(*api.ReplicaSet)
	if got.Status.ObservedGeneration != 4 || got.Status.Replicas != 1 {
		t.Fatalf("status %+v, want observedGeneration 4, replicas 1", got.Status)
	}
	h.rss.add(got)
	h.client.actions = nil
	if _, err := reconcile(t, h, got); err != nil {
		t.Fatal(err)
	}
	if n := len(h.client.actions); n != 0 {
		t.Errorf("%d calls for an unchanged status, want 0", n)
	}
}

func TestClaimPods(t *testing.T) {
	sel := map[string]string{"foo": "bar"}
	rs := newReplicaSet(2, sel)
	other := newReplicaSet(1, sel)
	other.Name, other.UID = "other", "other-uid"
	orphan := newPod("orphan", rs, api.PodRunning, nil, false)
	orphan.OwnerReferences = nil
	ours := newPod("ours", rs, api.PodRunning, nil, true)
	theirs := newPod("theirs", other, api.PodRunning, nil, true)
	stale := newPod("stale", rs, api.PodRunning, nil, true)
	stale.Labels = map[string]string{"foo": "baz"}
	orphanNoMatch := newPod("orphan-no-match", rs, api.PodRunning, nil, false)
	orphanNoMatch.OwnerReferences = nil
	orphanNoMatch.Labels = map[string]string{"foo": "baz"}
	ts := api.NewTime(testEpoch)
	orphanDeleting := newPod("orphan-deleting", rs, api.PodRunning, nil, false)
	orphanDeleting.OwnerReferences = nil
	orphanDeleting.DeletionTimestamp = &ts
	deletingRS := rs.DeepCopy()
	deletingRS.DeletionTimestamp = &ts
	tests := []struct {
		name        string
		rs          *api.ReplicaSet
		live        *api.ReplicaSet // what a fresh read returns
		pods        []*api.Pod
		wantClaimed []string
		wantPatches map[string]int // pod → number of owner refs after the patch
		wantErr     bool
	}{
		{name: "own, adopt orphan, ignore other's, release stale", rs: rs, live: rs,
			pods:        []*api.Pod{orphan, ours, theirs, stale, orphanNoMatch, orphanDeleting},
			wantClaimed: []string{"orphan", "ours"}, wantPatches: map[string]int{"orphan": 1, "stale": 0}},
		{name: "being deleted: keep own, adopt and release nothing", rs: deletingRS, live: deletingRS,
			pods:        []*api.Pod{orphan, ours, stale},
			wantClaimed: []string{"ours"}, wantPatches: map[string]int{}},
		{name: "deleted meanwhile: the live read refuses adoption", rs: rs, live: deletingRS,
			pods:        []*api.Pod{orphan, ours},
			wantClaimed: []string{"ours"}, wantPatches: map[string]int{}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(BurstReplicas)
			h.client.put(tc.live.DeepCopy())
			h.addPods(tc.pods...)
			sel, _ := api.LabelSelectorAsSelector(tc.rs.Spec.Selector)
			got, err := h.r.claimPods(context.Background(), tc.rs, sel, tc.pods)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want error=%v", err, tc.wantErr)
			}
			if tc.wantErr && !errors.Is(err, ErrCannotAdopt) {
				t.Errorf("error %v does not match ErrCannotAdopt", err)
			}
			if !slices.Equal(names(got), tc.wantClaimed) {
				t.Errorf("claimed %v, want %v", names(got), tc.wantClaimed)
			}
			patches := map[string]int{}
			for _, a := range h.client.actions {
				if a.verb != "patch" {
					continue
				}
				refs, err := patchOwners(a.body)
				if err != nil {
					t.Fatal(err)
				}
				patches[a.key.Name] = len(refs)
				if a.key.Name == "orphan" && (refs[0].UID != tc.rs.UID || refs[0].Controller == nil || !*refs[0].Controller) {
					t.Errorf("adoption patch %s", a.body)
				}
				if !strings.Contains(a.body, `"uid":"uid-`+a.key.Name+`"`) || !strings.Contains(a.body, `"resourceVersion":"1"`) {
					t.Errorf("patch %s lacks the pod's uid and resourceVersion preconditions", a.body)
				}
			}
			if !reflect.DeepEqual(patches, tc.wantPatches) {
				t.Errorf("patches %v, want %v", patches, tc.wantPatches)
			}
		})
	}
}

// TestPodControllerLookup ports upstream's table: orphans are offered to
// the ReplicaSets of their namespace whose selector matches.
func TestPodControllerLookup(t *testing.T) {
	sel := &api.LabelSelector{MatchLabels: map[string]string{"foo": "bar"}}
	tests := []struct {
		name string
		rss  []*api.ReplicaSet
		pod  *api.Pod
		want string
	}{
		{"pods without labels don't match any ReplicaSets",
			[]*api.ReplicaSet{{ObjectMeta: api.ObjectMeta{Name: "basic"}}},
			&api.Pod{ObjectMeta: api.ObjectMeta{Name: "foo1"}}, ""},
		{"matching labels, not namespace",
			[]*api.ReplicaSet{{ObjectMeta: api.ObjectMeta{Name: "foo"}, Spec: api.ReplicaSetSpec{Selector: sel}}},
			&api.Pod{ObjectMeta: api.ObjectMeta{Name: "foo2", Namespace: "ns", Labels: map[string]string{"foo": "bar"}}}, ""},
		{"matching ns and labels",
			[]*api.ReplicaSet{{ObjectMeta: api.ObjectMeta{Name: "bar", Namespace: "ns"}, Spec: api.ReplicaSetSpec{Selector: sel}}},
			&api.Pod{ObjectMeta: api.ObjectMeta{Name: "foo3", Namespace: "ns", Labels: map[string]string{"foo": "bar"}}}, "bar"},
		{"an empty selector matches nothing",
			[]*api.ReplicaSet{{ObjectMeta: api.ObjectMeta{Name: "all", Namespace: "ns"}, Spec: api.ReplicaSetSpec{Selector: &api.LabelSelector{}}}},
			&api.Pod{ObjectMeta: api.ObjectMeta{Name: "foo4", Namespace: "ns", Labels: map[string]string{"foo": "bar"}}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(BurstReplicas)
			for _, rs := range tc.rss {
				h.rss.add(rs)
			}
			got := h.r.podReplicaSets(tc.pod)
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("got %v, want none", got[0].Name)
			case tc.want != "" && (len(got) != 1 || got[0].Name != tc.want):
				t.Errorf("got %d ReplicaSets, want %s", len(got), tc.want)
			}
		})
	}
}

// TestPodEventHandlers checks what pod events enqueue and observe
// (upstream's TestUpdatePods, TestPodControllerLookup and the
// expectations tests of the handlers).
func TestPodEventHandlers(t *testing.T) {
	sel := map[string]string{"foo": "bar"}
	rs1 := newReplicaSet(1, sel)
	rs2 := newReplicaSet(1, map[string]string{"foo": "baz"})
	rs2.Name, rs2.UID = "rs2", "rs2-uid"
	rs2.Spec.MinReadySeconds = 10
	pending := newPod("pod", rs1, api.PodPending, nil, true)
	moved := pending.DeepCopy()
	moved.ResourceVersion = "2"
	moved.OwnerReferences = []api.OwnerReference{api.NewControllerRef(rs2)}
	moved.Labels = map[string]string{"foo": "baz"}
	readyIn2 := moved.DeepCopy()
	readyIn2.ResourceVersion = "3"
	readyIn2.Status = api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}}
	terminating := pending.DeepCopy()
	terminating.ResourceVersion = "2"
	ts := api.NewTime(testEpoch)
	terminating.DeletionTimestamp = &ts
	orphan := newPod("orphan", rs1, api.PodPending, nil, false)
	orphan.OwnerReferences = nil
	wrongUID := newPod("wrong-uid", rs1, api.PodPending, nil, true)
	wrongUID.OwnerReferences[0].UID = "someone-else"
	k1, k2 := rs1.GetObjectMeta().Key(), rs2.GetObjectMeta().Key()
	tests := []struct {
		name      string
		event     func(h *harness)
		wantQueue []api.Key
		wantAfter map[api.Key]time.Duration
		wantAdd   int64 // rs1's add expectation afterwards (starts at 1)
		wantDel   int64 // rs1's del expectation afterwards (starts at 1, pod "pod")
	}{
		{"add observes a creation", func(h *harness) { h.r.addPod(pending) }, []api.Key{k1}, nil, 0, 1},
		{"add of a terminating pod observes a deletion", func(h *harness) { h.r.addPod(terminating) }, []api.Key{k1}, nil, 1, 0},
		{"orphan add wakes matching ReplicaSets, observes nothing", func(h *harness) { h.r.addPod(orphan) }, []api.Key{k1}, nil, 1, 1},
		{"a reference to another uid is ignored", func(h *harness) { h.r.addPod(wrongUID) }, nil, nil, 1, 1},
		{"resync is ignored", func(h *harness) { h.r.updatePod(pending, pending) }, nil, nil, 1, 1},
		{"controller change wakes old and new", func(h *harness) { h.r.updatePod(pending, moved) }, []api.Key{k1, k2}, nil, 1, 1},
		{"becoming ready with minReadySeconds requeues later", func(h *harness) { h.r.updatePod(moved, readyIn2) }, []api.Key{k2}, map[api.Key]time.Duration{k2: 11 * time.Second}, 1, 1},
		{"graceful delete observes the deletion once", func(h *harness) { h.r.updatePod(pending, terminating); h.r.deletePod(terminating) }, []api.Key{k1, k1}, nil, 1, 0},
		{"orphan deletion is ignored", func(h *harness) { h.r.deletePod(orphan) }, nil, nil, 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(BurstReplicas)
			h.rss.add(rs1)
			h.rss.add(rs2)
			h.r.exp.ExpectDeletions(k1.String(), []string{"default/pod"})
			h.r.exp.Raise(k1.String(), 1, 0)
			tc.event(h)
			if !slices.Equal(h.queued, tc.wantQueue) {
				t.Errorf("queued %v, want %v", h.queued, tc.wantQueue)
			}
			if tc.wantAfter == nil {
				tc.wantAfter = map[api.Key]time.Duration{}
			}
			if !reflect.DeepEqual(h.after, tc.wantAfter) {
				t.Errorf("queued later %v, want %v", h.after, tc.wantAfter)
			}
			add, del, _ := h.r.exp.Get(k1.String())
			if add != tc.wantAdd || del != tc.wantDel {
				t.Errorf("expectations add %d del %d, want %d %d", add, del, tc.wantAdd, tc.wantDel)
			}
		})
	}
}

// TestReplicaSetEventHandlers: a ReplicaSet re-created under its name
// starts without the old one's expectations (upstream's
// TestExpectationsOnRecreate).
func TestReplicaSetEventHandlers(t *testing.T) {
	h := newHarness(BurstReplicas)
	rs := newReplicaSet(1, map[string]string{"foo": "bar"})
	key := rs.GetObjectMeta().Key()
	h.r.exp.ExpectCreations(key.String(), 3)
	recreated := rs.DeepCopy()
	recreated.UID = "new-uid"
	h.r.updateRS(rs, recreated)
	if _, _, ok := h.r.exp.Get(key.String()); ok {
		t.Error("expectations survived a re-create")
	}
	h.r.exp.ExpectCreations(key.String(), 3)
	h.r.deleteRS(recreated)
	if _, _, ok := h.r.exp.Get(key.String()); ok {
		t.Error("expectations survived a delete")
	}
	if want := []api.Key{key, key, key}; !slices.Equal(h.queued, want) {
		t.Errorf("queued %v, want %v", h.queued, want)
	}
	// A deleted ReplicaSet's sync just forgets it.
	h.r.exp.ExpectCreations(key.String(), 3)
	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := h.r.exp.Get(key.String()); ok {
		t.Error("sync of a missing ReplicaSet kept its expectations")
	}
}

func TestRequeueForAvailability(t *testing.T) {
	h := newHarness(BurstReplicas)
	rs := newReplicaSet(1, map[string]string{"foo": "bar"})
	rs.Spec.MinReadySeconds = 30
	h.addRS(rs)
	now := testEpoch
	h.addPods(newPod("pod0", rs, api.PodRunning, &now, true))
	res, err := reconcile(t, h, rs)
	if err != nil {
		t.Fatal(err)
	}
	if res.RequeueAfter != 30*time.Second {
		t.Errorf("RequeueAfter %v, want 30s", res.RequeueAfter)
	}
}

// TestAvailableAtMinReadySeconds follows a pod that turns Ready at t
// (its Ready condition's lastTransitionTime is t to the second, as the
// API stores it): the sync that sees it ready asks to look again exactly
// when lastTransitionTime + minReadySeconds comes, and the sync then
// counts the pod available and writes the status; a nanosecond earlier
// it is not available yet. A pod Ready on a whole second is thus
// available minReadySeconds later, not one requeue period later.
func TestAvailableAtMinReadySeconds(t *testing.T) {
	tests := []struct {
		name    string
		readyAt time.Duration // after testEpoch
	}{
		{"ready on a whole second", 5 * time.Second},
		{"ready within a second", 5*time.Second + 300*time.Millisecond},
	}
	const minReady = 10
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(BurstReplicas)
			rs := newReplicaSet(1, map[string]string{"foo": "bar"})
			rs.Spec.MinReadySeconds = minReady
			h.addRS(rs)
			ready := testEpoch.Add(tc.readyAt)
			transition := ready.Truncate(time.Second)
			h.addPods(newPod("pod0", rs, api.PodRunning, &transition, true))
			h.clock.now = ready
			available := func() int32 {
				t.Helper()
				o := h.client.objs[api.KindReplicaSet][rs.GetObjectMeta().Key()]
				return o.(*api.ReplicaSet).Status.AvailableReplicas
			}
			res, err := reconcile(t, h, rs)
			if err != nil {
				t.Fatal(err)
			}
			want := transition.Add(minReady * time.Second)
			if got := ready.Add(res.RequeueAfter); !got.Equal(want) {
				t.Fatalf("next look at %v, want lastTransitionTime + minReadySeconds = %v", got, want)
			}
			if n := available(); n != 0 {
				t.Fatalf("available %d at readiness, want 0", n)
			}
			h.clock.now = want.Add(-time.Nanosecond)
			if _, err := reconcile(t, h, rs); err != nil {
				t.Fatal(err)
			}
			if n := available(); n != 0 {
				t.Errorf("available %d a nanosecond before %v, want 0", n, want)
			}
			h.clock.now = want
			res, err = reconcile(t, h, rs)
			if err != nil {
				t.Fatal(err)
			}
			if n := available(); n != 1 {
				t.Errorf("available %d at %v, want 1 written then", n, want)
			}
			if !res.IsZero() {
				t.Errorf("result %+v once available, want no requeue", res)
			}
		})
	}
}

func TestPodFromTemplate(t *testing.T) {
	rs := newReplicaSet(1, map[string]string{"foo": "bar"})
	rs.Spec.Template.Annotations = map[string]string{"a": "b"}
	rs.Spec.Template.Finalizers = []string{"example.com/keep"}
	ref := api.NewControllerRef(rs)
	p := PodFromTemplate(&rs.Spec.Template, rs, &ref)
	if p.GenerateName != "foobar-" || p.Name != "" || p.Namespace != "default" {
		t.Errorf("name %q generateName %q namespace %q", p.Name, p.GenerateName, p.Namespace)
	}
	if !reflect.DeepEqual(p.Labels, rs.Spec.Template.Labels) || !reflect.DeepEqual(p.Annotations, rs.Spec.Template.Annotations) ||
		!slices.Equal(p.Finalizers, rs.Spec.Template.Finalizers) || !reflect.DeepEqual(p.Spec, rs.Spec.Template.Spec) {
		t.Errorf("pod %+v does not carry the template", p)
	}
	if len(p.OwnerReferences) != 1 || !*p.OwnerReferences[0].Controller || !*p.OwnerReferences[0].BlockOwnerDeletion ||
		p.OwnerReferences[0].Kind != "ReplicaSet" || p.OwnerReferences[0].APIVersion != "apps/v1" {
		t.Errorf("owner references %+v", p.OwnerReferences)
	}
	p.Labels["x"] = "y"
	if _, ok := rs.Spec.Template.Labels["x"]; ok {
		t.Error("the pod shares its labels with the template")
	}
}

func TestNamespaceTerminatingIsNotAFailure(t *testing.T) {
	h := newHarness(BurstReplicas)
	rs := newReplicaSet(2, map[string]string{"foo": "bar"})
	h.addRS(rs)
	h.client.fail("create", 10, apierr.NewForbidden("pods", "", "unable to create new content in namespace default because it is being terminated"))
	if _, err := reconcile(t, h, rs); err != nil {
		t.Fatalf("error %v; a terminating namespace is not a failure", err)
	}
	if len(h.recorder.events) != 0 {
		t.Errorf("events %v, want none", h.recorder.events)
	}
}

// The conditions of upstream's TestGetCondition, TestSetCondition and
// TestRemoveCondition (replica_set_test.go).
var (
	imagePullBackOff     api.ReplicaSetConditionType = "ImagePullBackOff"
	condImagePullBackOff                             = func() api.ReplicaSetCondition {
		return api.ReplicaSetCondition{Type: imagePullBackOff, Status: api.ConditionTrue, Reason: "NonExistentImage"}
	}
	condReplicaFailure = func() api.ReplicaSetCondition {
		return api.ReplicaSetCondition{Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue, Reason: "OtherFailure"}
	}
	condReplicaFailure2 = func() api.ReplicaSetCondition {
		return api.ReplicaSetCondition{Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue, Reason: "AnotherFailure"}
	}
	rsStatus = func() *api.ReplicaSetStatus {
		return &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure()}}
	}
)

// TestGetCondition ports upstream's table of the same name.
func TestGetCondition(t *testing.T) {
	tests := []struct {
		name     string
		status   api.ReplicaSetStatus
		condType api.ReplicaSetConditionType
		expected bool
	}{
		{"condition exists", *rsStatus(), api.ReplicaSetReplicaFailure, true},
		{"condition does not exist", *rsStatus(), imagePullBackOff, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := GetCondition(tc.status, tc.condType) != nil; got != tc.expected {
				t.Errorf("condition exists: %v, want %v", got, tc.expected)
			}
		})
	}
}

// TestSetCondition ports upstream's table of the same name, with a row of
// SetCondition's no-op: the same status and reason keep the condition as
// it was (its message and time).
func TestSetCondition(t *testing.T) {
	sameReason := condReplicaFailure()
	sameReason.Message = "a newer message"
	tests := []struct {
		name     string
		status   *api.ReplicaSetStatus
		cond     api.ReplicaSetCondition
		expected *api.ReplicaSetStatus
	}{
		{"set for the first time", &api.ReplicaSetStatus{}, condReplicaFailure(),
			&api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure()}}},
		{"simple set", &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condImagePullBackOff()}}, condReplicaFailure(),
			&api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condImagePullBackOff(), condReplicaFailure()}}},
		{"overwrite", &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure()}}, condReplicaFailure2(),
			&api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure2()}}},
		{"same status and reason: unchanged", rsStatus(), sameReason, rsStatus()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			SetCondition(tc.status, tc.cond)
			if !reflect.DeepEqual(tc.status, tc.expected) {
				t.Errorf("status %+v, want %+v", tc.status, tc.expected)
			}
		})
	}
}

// TestRemoveCondition ports upstream's table of the same name.
func TestRemoveCondition(t *testing.T) {
	tests := []struct {
		name     string
		status   *api.ReplicaSetStatus
		condType api.ReplicaSetConditionType
		expected *api.ReplicaSetStatus
	}{
		{"remove from empty status", &api.ReplicaSetStatus{}, api.ReplicaSetReplicaFailure, &api.ReplicaSetStatus{}},
		{"simple remove", &api.ReplicaSetStatus{Conditions: []api.ReplicaSetCondition{condReplicaFailure()}}, api.ReplicaSetReplicaFailure, &api.ReplicaSetStatus{}},
		{"doesn't remove anything", rsStatus(), imagePullBackOff, rsStatus()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			RemoveCondition(tc.status, tc.condType)
			if !reflect.DeepEqual(tc.status, tc.expected) {
				t.Errorf("status %+v, want %+v", tc.status, tc.expected)
			}
		})
	}
}

// asTerminating is upstream's: the pod with a deletionTimestamp.
func asTerminating(p *api.Pod) *api.Pod {
	deleting := api.NewTime(testEpoch)
	p.DeletionTimestamp = &deleting
	return p
}

// TestGetReplicaSetsWithSameController ports upstream's table of the same
// name onto relatedPods, which lists the pods of the ReplicaSets
// getReplicaSetsWithSameController finds (getIndirectlyRelatedPods): each
// ReplicaSet here has one pod, so the pods name the ReplicaSets found.
// Upstream's test ReplicaSets have a controller reference to UID "123";
// rs3 and rs4 are another controller's.
func TestGetReplicaSetsWithSameController(t *testing.T) {
	isController := true
	rsWith := func(name, sel, owner string) *api.ReplicaSet {
		rs := newReplicaSet(1, map[string]string{"foo": sel})
		rs.Name, rs.UID = name, api.UID(name+"-uid")
		rs.OwnerReferences = []api.OwnerReference{{UID: api.UID(owner), Controller: &isController}}
		return rs
	}
	someRS := rsWith("rs1", "bar", "123")
	relatedRS := rsWith("rs2", "baz", "123")
	unrelatedRS := rsWith("rs3", "quux", "456")
	pendingDeletionRS := rsWith("rs4", "xyzzy", "789")
	now := api.NewTime(testEpoch)
	pendingDeletionRS.DeletionTimestamp = &now
	tests := []struct {
		name string
		rss  []*api.ReplicaSet
		rs   *api.ReplicaSet
		want []string // the ReplicaSets whose pods are related
	}{
		{"expect to get back a ReplicaSet that is pending deletion", []*api.ReplicaSet{pendingDeletionRS, unrelatedRS}, pendingDeletionRS, []string{"rs4"}},
		{"expect to get back only the given ReplicaSet if there is no related ReplicaSet", []*api.ReplicaSet{someRS, unrelatedRS}, someRS, []string{"rs1"}},
		{"expect to get back the given ReplicaSet as well as any related ReplicaSet but not an unrelated ReplicaSet",
			[]*api.ReplicaSet{someRS, relatedRS, unrelatedRS}, someRS, []string{"rs1", "rs2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(BurstReplicas)
			for _, rs := range tc.rss {
				h.addRS(rs)
				h.addPods(newPod(rs.Name+"-pod", rs, api.PodRunning, nil, true))
			}
			var got []string
			for _, p := range h.r.relatedPods(tc.rs) {
				got = append(got, strings.TrimSuffix(p.Name, "-pod"))
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("pods of %v, want %v", got, tc.want)
			}
		})
	}
}
