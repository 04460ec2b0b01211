package deployment

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
)

// The tables of this file come from k/k
// pkg/controller/deployment/progress_test.go.

func newDeploymentStatus(replicas, updated, available int32) api.DeploymentStatus {
	return api.DeploymentStatus{Replicas: replicas, UpdatedReplicas: updated, AvailableReplicas: available}
}

// currentDeployment is a Recreate Deployment (maxUnavailable 0) whose
// generation is observed.
func currentDeployment(pds *int32, replicas, statusReplicas, updated, available int32, conditions []api.DeploymentCondition) *api.Deployment {
	d := &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "progress-test", Namespace: "default"},
		Spec: api.DeploymentSpec{
			ProgressDeadlineSeconds: pds,
			Replicas:                &replicas,
			Strategy:                api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType},
		},
		Status: newDeploymentStatus(statusReplicas, updated, available),
	}
	d.Status.Conditions = conditions
	return d
}

func newRSWithAvailable(name string, specReplicas, statusReplicas, available int32) *api.ReplicaSet {
	r := rs(name, specReplicas, nil, time.Time{})
	r.Status = api.ReplicaSetStatus{Replicas: statusReplicas, AvailableReplicas: available}
	return r
}

func TestRequeueStuckDeployment(t *testing.T) {
	pds := int32(60)
	infinite := int32(math.MaxInt32)
	failed := []api.DeploymentCondition{{Type: api.DeploymentProgressing, Status: api.ConditionFalse, Reason: TimedOutReason}}
	stuck := []api.DeploymentCondition{{Type: api.DeploymentProgressing, Status: api.ConditionTrue, LastUpdateTime: api.NewTime(time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC))}}
	at := func(sec, nsec int) time.Time { return time.Date(2017, 2, 15, 18, 49, sec, nsec, time.UTC) }

	tests := []struct {
		name   string
		d      *api.Deployment
		status api.DeploymentStatus
		now    time.Time
		want   time.Duration
		result controller.Result
		// rateLimited: the sync enqueued the Deployment rate-limited
		// (upstream's test: the queue holds it).
		rateLimited bool
	}{
		{"nil progressDeadlineSeconds specified", currentDeployment(nil, 4, 3, 3, 2, nil), newDeploymentStatus(3, 3, 2), testTime, -1, controller.Result{}, false},
		{"infinite progressDeadlineSeconds specified", currentDeployment(&infinite, 4, 3, 3, 2, nil), newDeploymentStatus(3, 3, 2), testTime, -1, controller.Result{}, false},
		{"no progressing condition found", currentDeployment(&pds, 4, 3, 3, 2, nil), newDeploymentStatus(3, 3, 2), testTime, -1, controller.Result{}, false},
		{"complete deployment does not need to be requeued", currentDeployment(&pds, 3, 3, 3, 3, nil), newDeploymentStatus(3, 3, 3), testTime, -1, controller.Result{}, false},
		{"already failed deployment does not need to be requeued", currentDeployment(&pds, 3, 3, 3, 0, failed), newDeploymentStatus(3, 3, 0), testTime, -1, controller.Result{}, false},
		{"stuck deployment - 30s", currentDeployment(&pds, 3, 3, 3, 1, stuck), newDeploymentStatus(3, 3, 1), at(30, 0), 30 * time.Second, controller.Result{RequeueAfter: 31 * time.Second}, false},
		{"stuck deployment - 1s", currentDeployment(&pds, 3, 3, 3, 1, stuck), newDeploymentStatus(3, 3, 1), at(59, 0), time.Second, controller.Result{RequeueAfter: 2 * time.Second}, false},
		{"failed deployment - less than a second => now", currentDeployment(&pds, 3, 3, 3, 1, stuck), newDeploymentStatus(3, 3, 1), at(59, 1), 0, controller.Result{}, true},
		{"failed deployment - now", currentDeployment(&pds, 3, 3, 3, 1, stuck), newDeploymentStatus(3, 3, 1), at(60, 0), 0, controller.Result{}, true},
		{"failed deployment - 1s after deadline", currentDeployment(&pds, 3, 3, 3, 1, stuck), newDeploymentStatus(3, 3, 1), at(61, 0), 0, controller.Result{}, true},
		{"failed deployment - 60s after deadline", currentDeployment(&pds, 3, 3, 3, 1, stuck), newDeploymentStatus(3, 3, 1), at(120, 0), 0, controller.Result{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.clock.t = tt.now
			p := f.pass()
			if got := p.requeueStuckDeployment(tt.d, tt.status); got != tt.want {
				t.Errorf("duration = %v, want %v", got, tt.want)
			}
			if got := p.result(); got != tt.result {
				t.Errorf("result = %+v, want %+v", got, tt.result)
			}
			var want []api.Key
			if tt.rateLimited {
				want = []api.Key{tt.d.Key()}
			}
			if !slices.Equal(f.rateLimited, want) {
				t.Errorf("enqueued rate-limited %v, want %v", f.rateLimited, want)
			}
		})
	}
}

func TestSyncRolloutStatus(t *testing.T) {
	pds := int32(60)
	testTime := api.NewTime(time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC))
	now := testTime.Add(30 * time.Second) // within the deadline
	failedTimedOut := api.DeploymentCondition{Type: api.DeploymentProgressing, Status: api.ConditionFalse, Reason: TimedOutReason}
	newRSAvailable := api.DeploymentCondition{Type: api.DeploymentProgressing, Status: api.ConditionTrue, Reason: NewRSAvailableReason, LastUpdateTime: testTime, LastTransitionTime: testTime}
	replicaSetUpdated := api.DeploymentCondition{Type: api.DeploymentProgressing, Status: api.ConditionTrue, Reason: ReplicaSetUpdatedReason, LastUpdateTime: testTime, LastTransitionTime: testTime}

	tests := []struct {
		name       string
		d          *api.Deployment
		allRSs     []*api.ReplicaSet
		newRS      *api.ReplicaSet
		now        time.Time
		status     api.ConditionStatus // "" means no Progressing condition
		reason     string
		message    string
		lastUpdate *api.Time // expected; nil means "now"
		lastTrans  *api.Time
	}{
		{
			name:   "General: remove Progressing condition and do not estimate progress if deployment has no Progress Deadline",
			d:      currentDeployment(nil, 3, 2, 2, 2, []api.DeploymentCondition{replicaSetUpdated}),
			allRSs: []*api.ReplicaSet{newRSWithAvailable("bar", 0, 1, 1)},
			newRS:  newRSWithAvailable("foo", 3, 2, 2),
			now:    now,
		},
		{
			name:   "General: do not estimate progress of deployment with only one active ReplicaSet",
			d:      currentDeployment(&pds, 3, 3, 3, 3, []api.DeploymentCondition{newRSAvailable}),
			allRSs: []*api.ReplicaSet{newRSWithAvailable("bar", 3, 3, 3)},
			now:    now, status: api.ConditionTrue, reason: NewRSAvailableReason, lastUpdate: &testTime, lastTrans: &testTime,
		},
		{
			name:   "DeploymentProgressing: dont update lastTransitionTime if deployment already has Progressing=True",
			d:      currentDeployment(&pds, 3, 2, 2, 2, []api.DeploymentCondition{replicaSetUpdated}),
			allRSs: []*api.ReplicaSet{newRSWithAvailable("bar", 0, 1, 1)},
			newRS:  newRSWithAvailable("foo", 3, 2, 2),
			now:    now, status: api.ConditionTrue, reason: ReplicaSetUpdatedReason, message: `ReplicaSet "foo" is progressing.`, lastTrans: &testTime,
		},
		{
			name:   "DeploymentProgressing: update everything if deployment has Progressing=False",
			d:      currentDeployment(&pds, 3, 2, 2, 2, []api.DeploymentCondition{failedTimedOut}),
			allRSs: []*api.ReplicaSet{newRSWithAvailable("bar", 0, 1, 1)},
			newRS:  newRSWithAvailable("foo", 3, 2, 2),
			now:    now, status: api.ConditionTrue, reason: ReplicaSetUpdatedReason,
		},
		{
			name:   "DeploymentProgressing: create Progressing condition if it does not exist",
			d:      currentDeployment(&pds, 3, 2, 2, 2, []api.DeploymentCondition{}),
			allRSs: []*api.ReplicaSet{newRSWithAvailable("bar", 0, 1, 1)},
			newRS:  newRSWithAvailable("foo", 3, 2, 2),
			now:    now, status: api.ConditionTrue, reason: ReplicaSetUpdatedReason,
		},
		{
			name:  "DeploymentComplete: dont update lastTransitionTime if deployment already has Progressing=True",
			d:     currentDeployment(&pds, 3, 3, 3, 3, []api.DeploymentCondition{replicaSetUpdated}),
			newRS: newRSWithAvailable("foo", 3, 3, 3),
			now:   now, status: api.ConditionTrue, reason: NewRSAvailableReason, message: `ReplicaSet "foo" has successfully progressed.`, lastTrans: &testTime,
		},
		{
			name:  "DeploymentComplete: update everything if deployment has Progressing=False",
			d:     currentDeployment(&pds, 3, 3, 3, 3, []api.DeploymentCondition{failedTimedOut}),
			newRS: newRSWithAvailable("foo", 3, 3, 3),
			now:   now, status: api.ConditionTrue, reason: NewRSAvailableReason,
		},
		{
			name:  "DeploymentComplete: create Progressing condition if it does not exist",
			d:     currentDeployment(&pds, 3, 3, 3, 3, []api.DeploymentCondition{}),
			newRS: newRSWithAvailable("foo", 3, 3, 3),
			now:   now, status: api.ConditionTrue, reason: NewRSAvailableReason,
		},
		{
			name:   "DeploymentComplete: defend against NPE when newRS=nil",
			d:      currentDeployment(&pds, 0, 3, 3, 3, []api.DeploymentCondition{replicaSetUpdated}),
			allRSs: []*api.ReplicaSet{newRSWithAvailable("foo", 0, 0, 0)},
			now:    now, status: api.ConditionTrue, reason: NewRSAvailableReason, message: `Deployment "progress-test" has successfully progressed.`, lastTrans: &testTime,
		},
		{
			name:  "DeploymentTimedOut: update status if rollout exceeds Progress Deadline",
			d:     currentDeployment(&pds, 3, 2, 2, 2, []api.DeploymentCondition{replicaSetUpdated}),
			newRS: newRSWithAvailable("foo", 3, 2, 2),
			now:   testTime.Add(61 * time.Second), status: api.ConditionFalse, reason: TimedOutReason, message: `ReplicaSet "foo" has timed out progressing.`,
		},
		{
			name:  "DeploymentTimedOut: not before the deadline",
			d:     currentDeployment(&pds, 3, 2, 2, 2, []api.DeploymentCondition{replicaSetUpdated}),
			newRS: newRSWithAvailable("foo", 3, 2, 2),
			now:   testTime.Add(60 * time.Second), status: api.ConditionTrue, reason: ReplicaSetUpdatedReason, lastUpdate: &testTime, lastTrans: &testTime,
		},
		{
			name:  "DeploymentTimedOut: do not update status if deployment has existing timedOut condition",
			d:     currentDeployment(&pds, 3, 2, 2, 2, []api.DeploymentCondition{failedTimedOut}),
			newRS: newRSWithAvailable("foo", 3, 2, 2),
			now:   now, status: api.ConditionFalse, reason: TimedOutReason, lastUpdate: &api.Time{}, lastTrans: &api.Time{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.clock.t = tt.now
			allRSs := tt.allRSs
			if tt.newRS != nil {
				allRSs = append(allRSs, tt.newRS)
			}
			if err := f.pass().syncRolloutStatus(allRSs, tt.newRS, tt.d); err != nil {
				t.Fatal(err)
			}
			c := GetDeploymentCondition(tt.d.Status, api.DeploymentProgressing)
			if tt.status == "" {
				if c != nil {
					t.Fatalf("Progressing = %+v, want none", c)
				}
				return
			}
			if c == nil || c.Status != tt.status || c.Reason != tt.reason {
				t.Fatalf("Progressing = %+v, want %s %s", c, tt.status, tt.reason)
			}
			if tt.message != "" && c.Message != tt.message {
				t.Errorf("message = %q, want %q", c.Message, tt.message)
			}
			nowT := api.NewTime(tt.now)
			wantUpdate, wantTrans := &nowT, &nowT
			if tt.lastUpdate != nil {
				wantUpdate = tt.lastUpdate
			}
			if tt.lastTrans != nil {
				wantTrans = tt.lastTrans
			}
			if !c.LastUpdateTime.Equal(wantUpdate) {
				t.Errorf("lastUpdateTime = %v, want %v", c.LastUpdateTime, *wantUpdate)
			}
			if !c.LastTransitionTime.Equal(wantTrans) {
				t.Errorf("lastTransitionTime = %v, want %v", c.LastTransitionTime, *wantTrans)
			}
		})
	}
}

func TestSyncRolloutStatusReplicaFailure(t *testing.T) {
	pds := int32(600)
	failure := func(msg string) api.ReplicaSetCondition {
		return api.ReplicaSetCondition{Type: api.ReplicaSetReplicaFailure, Status: api.ConditionTrue, Reason: "FailedCreate", Message: msg, LastTransitionTime: api.NewTime(testTime)}
	}
	newRS := newRSWithAvailable("new", 3, 1, 1)
	oldRS := newRSWithAvailable("old", 2, 2, 2)

	// The new ReplicaSet's failure wins over an old one's.
	newRS.Status.Conditions = []api.ReplicaSetCondition{failure("new failed")}
	oldRS.Status.Conditions = []api.ReplicaSetCondition{failure("old failed")}
	d := currentDeployment(&pds, 3, 3, 1, 3, nil)
	f := newFixture(t)
	if err := f.pass().syncRolloutStatus([]*api.ReplicaSet{oldRS, newRS}, newRS, d); err != nil {
		t.Fatal(err)
	}
	c := GetDeploymentCondition(d.Status, api.DeploymentReplicaFailure)
	if c == nil || c.Status != api.ConditionTrue || c.Reason != "FailedCreate" || c.Message != "new failed" || !c.LastUpdateTime.Equal(&c.LastTransitionTime) {
		t.Fatalf("ReplicaFailure = %+v", c)
	}

	// A condition of the same status and reason is not replaced, as
	// upstream: the message of the first failure stays.
	newRS.Status.Conditions = nil
	f = newFixture(t)
	if err := f.pass().syncRolloutStatus([]*api.ReplicaSet{oldRS, newRS}, newRS, d); err != nil {
		t.Fatal(err)
	}
	if c := GetDeploymentCondition(d.Status, api.DeploymentReplicaFailure); c == nil || c.Message != "new failed" {
		t.Fatalf("ReplicaFailure = %+v, want the first one kept", c)
	}

	// Only an old ReplicaSet fails: its failure is reported.
	d = currentDeployment(&pds, 3, 3, 1, 3, nil)
	f = newFixture(t)
	if err := f.pass().syncRolloutStatus([]*api.ReplicaSet{oldRS, newRS}, newRS, d); err != nil {
		t.Fatal(err)
	}
	if c := GetDeploymentCondition(d.Status, api.DeploymentReplicaFailure); c == nil || c.Message != "old failed" {
		t.Fatalf("ReplicaFailure = %+v, want the old one's", c)
	}

	// No failure left: the condition goes.
	oldRS.Status.Conditions = nil
	f = newFixture(t)
	if err := f.pass().syncRolloutStatus([]*api.ReplicaSet{oldRS, newRS}, newRS, d); err != nil {
		t.Fatal(err)
	}
	if c := GetDeploymentCondition(d.Status, api.DeploymentReplicaFailure); c != nil {
		t.Fatalf("ReplicaFailure = %+v, want none", c)
	}
}

func TestSyncRolloutStatusWritesOnlyChanges(t *testing.T) {
	pds := int32(600)
	newRS := newRSWithAvailable("new", 3, 3, 3)
	d := currentDeployment(&pds, 3, 3, 3, 3, nil)
	f := newFixture(t)
	if err := f.pass().syncRolloutStatus([]*api.ReplicaSet{newRS}, newRS, d); err != nil {
		t.Fatal(err)
	}
	if n := len(f.client.writes()); n != 1 {
		t.Fatalf("%d writes, want 1", n)
	}
	// Same inputs again, later: nothing changed, nothing written.
	f.clock.t = f.clock.t.Add(time.Hour)
	if err := f.pass().syncRolloutStatus([]*api.ReplicaSet{newRS}, newRS, d); err != nil {
		t.Fatal(err)
	}
	if n := len(f.client.writes()); n != 1 {
		t.Errorf("%d writes after an unchanged sync, want still 1", n)
	}
}
