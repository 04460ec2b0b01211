package job

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// The tests of this file port rows of upstream's TestControllerSyncJob
// (k/k pkg/controller/job/job_controller_test.go, the table as read at
// commits 003e8629 and de00a3c8; the controller's syncJob, manageJob,
// activePodsForRemoval and trackJobStatusAndRemoveFinalizers read at
// 6ae037f1, indexed_job_utils.go at 78fc8e44). Upstream's table carries
// rows for feature gates that were still off at those commits;
// JobPodReplacementPolicy (GA in 1.34) and JobManagedBy (GA in 1.35) are
// locked on in v1.37, so every row here expects what the gated rows
// expect: status.terminating always set, pods deleted this sync counted
// as terminating, and a finished Job first SuccessCriteriaMet or
// FailureTarget, then Complete or Failed once no pod is terminating.
//
// Rows not ported: the suspend rows (suspend is not simulated), "too few
// active pods, with controller error" and "only new failed pod with
// controller error" (they expect a finished pod not to count while its
// tracking finalizer cannot be removed; pod tracking with finalizers is
// not simulated).

// testFinishedAt is upstream's: one second after the zero time, so no
// failure back-off applies.
var testFinishedAt = api.NewTime(time.Time{}.Add(time.Second))

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time                  { return c.t }
func (c *fakeClock) Since(t time.Time) time.Duration { return c.t.Sub(t) }

// fakeClient records the pods created and deleted and the status
// written; createLimit > 0 fails the creations past it (upstream's
// FakePodControl.CreateLimit), deleteErr fails every deletion.
type fakeClient struct {
	client.Client
	created     []*api.Pod
	attempts    int
	deleted     []string
	status      *api.JobStatus
	createLimit int
	deleteErr   error
}

func (c *fakeClient) Create(_ context.Context, o api.Object) (api.Object, error) {
	p := o.(*api.Pod)
	c.attempts++
	if c.createLimit > 0 && len(c.created) >= c.createLimit {
		return nil, errors.New("fake error: create limit reached")
	}
	p = p.DeepCopy()
	p.Name = fmt.Sprintf("%s%d", p.GenerateName, len(c.created))
	c.created = append(c.created, p)
	return p, nil
}

func (c *fakeClient) Delete(_ context.Context, _ api.Kind, k api.Key, _ ...client.DeleteOption) error {
	if c.deleteErr != nil {
		return c.deleteErr
	}
	c.deleted = append(c.deleted, k.Name)
	return nil
}

func (c *fakeClient) UpdateStatus(_ context.Context, o api.Object) (api.Object, error) {
	st := o.(*api.Job).Status
	c.status = &st
	return o, nil
}

type events []string

func (e *events) Eventf(_ api.Object, typ, reason, format string, args ...any) {
	*e = append(*e, typ+" "+reason+" "+fmt.Sprintf(format, args...))
}

// newJob is upstream's: completions or parallelism -1 leaves it unset.
func newJob(parallelism, completions, backoffLimit int32, mode string) *api.Job {
	j := &api.Job{TypeMeta: api.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: api.ObjectMeta{Name: "foobar", Namespace: "default", UID: "job-uid"},
		Spec: api.JobSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"foo": "bar"}}, BackoffLimit: &backoffLimit,
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"foo": "bar"}},
				Spec: api.PodSpec{RestartPolicy: api.RestartPolicyNever, Containers: []api.Container{{Name: "c", Image: "foo/bar"}}}}}}
	if mode != "" {
		j.Spec.CompletionMode = &mode
	}
	if completions >= 0 {
		j.Spec.Completions = &completions
	}
	if parallelism >= 0 {
		j.Spec.Parallelism = &parallelism
	}
	return j
}

// podSet builds a Job's pods as upstream's setPodsStatuses and
// setPodsStatusesWithIndexes do.
type podSet struct {
	j    *api.Job
	pods informer.Static
}

func (s *podSet) add(phase api.PodPhase, index string) *api.Pod {
	n := len(s.pods)
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%d", n), Namespace: "default", UID: api.UID(fmt.Sprintf("pod-uid-%d", n)),
		Labels: map[string]string{"foo": "bar"}, CreationTimestamp: api.NewTime(t0.Add(time.Duration(n) * time.Second)),
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(s.j)}}, Status: api.PodStatus{Phase: phase}}
	if phase == api.PodSucceeded || phase == api.PodFailed {
		p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "c", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{FinishedAt: testFinishedAt}}}}
	}
	if index != "" {
		p.Annotations = map[string]string{api.JobCompletionIndexAnnotation: index}
	}
	s.pods = append(s.pods, p)
	return p
}

func (s *podSet) addN(n int, phase api.PodPhase, f func(p *api.Pod)) {
	for range n {
		p := s.add(phase, "")
		if f != nil {
			f(p)
		}
	}
}

func ready(p *api.Pod) {
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
}

// cond is a condition as the table gives it: type, reason, message.
type cond struct{ typ, reason, msg string }

var (
	successMet = cond{api.JobSuccessCriteriaMet, ReasonCompletionsReached, MsgCompletionsReached}
	completed  = cond{api.JobComplete, ReasonCompletionsReached, MsgCompletionsReached}
	failTarget = cond{api.JobFailureTarget, ReasonBackoffLimitExceeded, MsgBackoffLimitExceeded}
	failedCond = cond{api.JobFailed, ReasonBackoffLimitExceeded, MsgBackoffLimitExceeded}
)

type indexPhase struct {
	index string
	phase api.PodPhase
}

func TestControllerSyncJob(t *testing.T) {
	const indexed = api.IndexedCompletion
	tests := map[string]struct {
		parallelism, completions, backoffLimit int32
		mode                                   string
		replaceFailed                          bool // podReplacementPolicy Failed
		podFailurePolicy                       *api.PodFailurePolicy
		deleting                               bool
		initialActive, initialFailed           int32
		createLimit                            int
		deleteErr                              error
		expectCreations                        int // fakeExpectationAtCreation > 0
		pending, active, ready, succeeded      int
		failed, terminating                    int
		failedNow                              int // failed pods finishing now (upstream's backoffRecord)
		withIndexes                            []indexPhase

		wantCreations, wantDeletions         int
		wantCreateAttempts                   int // when not wantCreations
		wantActive, wantReady, wantSucceeded int32
		wantFailed, wantTerminating          int32
		wantCompletedIndexes                 string
		wantCreatedIndexes                   []string
		wantConditions                       []cond
		wantRequeue                          time.Duration
	}{
		"job start":                 {parallelism: 2, completions: 5, backoffLimit: 6, wantCreations: 2, wantActive: 2},
		"WQ job start":              {parallelism: 2, completions: -1, backoffLimit: 6, wantCreations: 2, wantActive: 2},
		"pending pods":              {parallelism: 2, completions: 5, backoffLimit: 6, pending: 2, wantActive: 2},
		"correct # of pods":         {parallelism: 3, completions: 5, backoffLimit: 6, active: 3, ready: 2, wantActive: 3, wantReady: 2},
		"WQ job: correct # of pods": {parallelism: 2, completions: -1, backoffLimit: 6, active: 2, wantActive: 2},
		"too few active pods":       {parallelism: 2, completions: 5, backoffLimit: 6, active: 1, succeeded: 1, wantCreations: 1, wantActive: 2, wantSucceeded: 1},
		// Upstream's in-memory back-off record (one failure, now) is a
		// pod that failed now here, and so counts as failed.
		"too few active pods and active back-off": {parallelism: 1, completions: 1, backoffLimit: 6, failedNow: 1, wantFailed: 1, wantRequeue: DefaultJobPodFailureBackOff},
		"WQ job: recreate pods when terminating or failed": {parallelism: 1, completions: -1, backoffLimit: 6, active: 1, failed: 1, terminating: 1,
			wantActive: 1, wantFailed: 2, wantTerminating: 1},
		"WQ job: turn on PodReplacementPolicy but not set PodReplacementPolicy": {parallelism: 1, completions: 1, backoffLimit: 6, active: 1, failed: 1, terminating: 1,
			wantActive: 1, wantFailed: 2, wantTerminating: 1},
		"WQ job: recreate pods when failed": {parallelism: 1, completions: -1, backoffLimit: 6, replaceFailed: true, active: 1, failed: 1, terminating: 1,
			wantActive: 1, wantFailed: 1, wantTerminating: 1},
		"more terminating pods than parallelism": {parallelism: 1, completions: 1, backoffLimit: 6, replaceFailed: true, active: 2, terminating: 4,
			wantActive: 1, wantDeletions: 1, wantTerminating: 5},
		"more terminating pods than parallelism; PodFailurePolicy used": {parallelism: 1, completions: 1, backoffLimit: 6, podFailurePolicy: &api.PodFailurePolicy{},
			active: 2, terminating: 4, wantActive: 1, wantDeletions: 1, wantTerminating: 5},
		"indexed job with some pods deleted, podReplacementPolicy Failed": {parallelism: 2, completions: 5, backoffLimit: 6, mode: indexed, replaceFailed: true,
			terminating: 1, wantCreations: 1, wantActive: 1, wantCreatedIndexes: []string{"0"}, wantTerminating: 1},
		"indexed job with some pods deleted, podReplacementPolicy TerminatingOrFailed": {parallelism: 2, completions: 5, backoffLimit: 6, mode: indexed,
			terminating: 1, wantCreations: 2, wantActive: 2, wantCreatedIndexes: []string{"0", "1"}, wantTerminating: 1},
		"too few active pods and no back-offs":   {parallelism: 1, completions: 1, backoffLimit: 6, wantCreations: 1, wantActive: 1},
		"too few active pods with a dynamic job": {parallelism: 2, completions: -1, backoffLimit: 6, active: 1, wantCreations: 1, wantActive: 2},
		"too many active pods; PodReplacementPolicy enabled": {parallelism: 2, completions: 5, backoffLimit: 6, active: 3,
			wantDeletions: 1, wantActive: 2, wantTerminating: 1},
		"too many active pods, with controller error": {parallelism: 2, completions: 5, backoffLimit: 6, active: 3, deleteErr: errors.New("fake error"), wantActive: 3},
		"count ready pods when too many active pods": {parallelism: 2, completions: 5, backoffLimit: 6, active: 3, ready: 3,
			wantDeletions: 1, wantActive: 2, wantReady: 2, wantTerminating: 1},
		// Not upstream's rows: manageJob's order of the pods to delete
		// (controller.ActivePods: pending before running), and a work
		// queue Job that saw a success keeps its active pods (wantActive =
		// active).
		"too many active pods: the pending one goes first": {parallelism: 2, completions: 5, backoffLimit: 6, pending: 1, active: 2, ready: 2,
			wantDeletions: 1, wantActive: 2, wantReady: 2, wantTerminating: 1},
		"WQ job finishing with more active pods than parallelism": {parallelism: 1, completions: -1, backoffLimit: 6, active: 2, succeeded: 1,
			wantActive: 2, wantSucceeded: 1},
		"failed + succeed pods: reset backoff delay": {parallelism: 2, completions: 5, backoffLimit: 6, active: 1, succeeded: 1, failed: 1,
			wantCreations: 1, wantActive: 2, wantSucceeded: 1, wantFailed: 1},
		"new failed pod": {parallelism: 2, completions: 5, backoffLimit: 6, active: 1, failed: 1, wantCreations: 1, wantActive: 2, wantFailed: 1},
		"no new pod; possible finalizer update of failed pod": {parallelism: 1, completions: 1, backoffLimit: 6, initialActive: 1, initialFailed: 1, active: 1,
			wantActive: 1, wantFailed: 1},
		"job finish":          {parallelism: 2, completions: 5, backoffLimit: 6, succeeded: 5, wantSucceeded: 5, wantConditions: []cond{successMet, completed}},
		"WQ job finishing":    {parallelism: 2, completions: -1, backoffLimit: 6, active: 1, succeeded: 1, wantActive: 1, wantSucceeded: 1},
		"WQ job all finished": {parallelism: 2, completions: -1, backoffLimit: 6, succeeded: 2, wantSucceeded: 2, wantConditions: []cond{successMet, completed}},
		"WQ job all finished despite one failure": {parallelism: 2, completions: -1, backoffLimit: 6, succeeded: 1, failed: 1,
			wantSucceeded: 1, wantFailed: 1, wantConditions: []cond{successMet, completed}},
		"more active pods than parallelism": {parallelism: 2, completions: 5, backoffLimit: 6, active: 10, wantDeletions: 8, wantActive: 2, wantTerminating: 8},
		"more active pods than remaining completions": {parallelism: 3, completions: 4, backoffLimit: 6, active: 3, succeeded: 2,
			wantDeletions: 1, wantActive: 2, wantSucceeded: 2, wantTerminating: 1},
		"status change": {parallelism: 2, completions: 5, backoffLimit: 6, active: 2, succeeded: 2, wantActive: 2, wantSucceeded: 2},
		"deleting job": {parallelism: 2, completions: 5, backoffLimit: 6, deleting: true, pending: 1, active: 1, succeeded: 1,
			wantActive: 2, wantSucceeded: 1},
		// Slow start: batches of 1, 2, 4 and 8 pods, the last one failing
		// after its third pod; no batch after it.
		"limited pods": {parallelism: 100, completions: 200, backoffLimit: 6, createLimit: 10, wantCreations: 10, wantCreateAttempts: 15, wantActive: 10},
		"too many job failures": {parallelism: 2, completions: 5, deleting: true, failed: 1, wantFailed: 1,
			wantConditions: []cond{failTarget, failedCond}},
		"job failures, unsatisfied expectations": {parallelism: 2, completions: 5, deleting: true, failed: 1, expectCreations: 1, wantFailed: 1},
		"indexed job start": {parallelism: 2, completions: 5, backoffLimit: 6, mode: indexed, wantCreations: 2, wantActive: 2,
			wantCreatedIndexes: []string{"0", "1"}},
		"indexed job completed": {parallelism: 2, completions: 3, backoffLimit: 6, mode: indexed,
			withIndexes:   []indexPhase{{"0", api.PodSucceeded}, {"1", api.PodFailed}, {"1", api.PodSucceeded}, {"2", api.PodSucceeded}},
			wantSucceeded: 3, wantFailed: 1, wantCompletedIndexes: "0-2", wantConditions: []cond{successMet, completed}},
		"count terminating pods when indexed job fails and PodReplacementPolicy enabled": {parallelism: 2, completions: 3, backoffLimit: 0, mode: indexed,
			withIndexes:   []indexPhase{{"0", api.PodSucceeded}, {"1", api.PodFailed}, {"2", api.PodRunning}},
			wantSucceeded: 1, wantFailed: 2, wantCompletedIndexes: "0", wantConditions: []cond{failTarget}, wantDeletions: 1, wantTerminating: 1},
		"count ready pods when job fails": {parallelism: 2, completions: 3, backoffLimit: 0, active: 2, ready: 2, failed: 1,
			wantFailed: 3, wantConditions: []cond{failTarget}, wantDeletions: 2, wantTerminating: 2},
		"indexed job repeated completed index": {parallelism: 2, completions: 3, backoffLimit: 6, mode: indexed,
			withIndexes:   []indexPhase{{"0", api.PodSucceeded}, {"1", api.PodSucceeded}, {"1", api.PodSucceeded}},
			wantCreations: 1, wantActive: 1, wantSucceeded: 2, wantCompletedIndexes: "0,1", wantCreatedIndexes: []string{"2"}},
		"indexed job some running and completed pods": {parallelism: 8, completions: 20, backoffLimit: 6, mode: indexed,
			withIndexes: []indexPhase{{"0", api.PodRunning}, {"2", api.PodSucceeded}, {"3", api.PodPending}, {"4", api.PodSucceeded},
				{"5", api.PodSucceeded}, {"7", api.PodSucceeded}, {"8", api.PodSucceeded}, {"9", api.PodSucceeded}},
			wantCreations: 6, wantActive: 8, wantSucceeded: 6, wantCompletedIndexes: "2,4,5,7-9",
			wantCreatedIndexes: []string{"1", "6", "10", "11", "12", "13"}},
		"indexed job some failed pods": {parallelism: 3, completions: 4, backoffLimit: 6, mode: indexed,
			withIndexes:   []indexPhase{{"0", api.PodFailed}, {"1", api.PodPending}, {"2", api.PodFailed}},
			wantCreations: 2, wantActive: 3, wantFailed: 2, wantCreatedIndexes: []string{"0", "2"}},
		"indexed job some pods without index": {parallelism: 2, completions: 5, backoffLimit: 6, mode: indexed, active: 1, succeeded: 1, failed: 1,
			withIndexes: []indexPhase{{"invalid", api.PodRunning}, {"invalid", api.PodSucceeded}, {"invalid", api.PodFailed}, {"invalid", api.PodPending},
				{"0", api.PodSucceeded}, {"1", api.PodRunning}, {"2", api.PodRunning}},
			wantDeletions: 3, wantActive: 2, wantSucceeded: 1, wantCompletedIndexes: "0", wantTerminating: 3},
		"indexed job repeated indexes": {parallelism: 5, completions: 5, backoffLimit: 6, mode: indexed, succeeded: 1, failed: 1,
			withIndexes:   []indexPhase{{"invalid", api.PodRunning}, {"0", api.PodSucceeded}, {"1", api.PodRunning}, {"2", api.PodRunning}, {"2", api.PodPending}},
			wantDeletions: 2, wantActive: 2, wantSucceeded: 1, wantCompletedIndexes: "0", wantTerminating: 2},
		"indexed job with indexes outside of range": {parallelism: 2, completions: 5, backoffLimit: 6, mode: indexed,
			withIndexes:   []indexPhase{{"0", api.PodSucceeded}, {"5", api.PodRunning}, {"6", api.PodSucceeded}, {"7", api.PodPending}, {"8", api.PodFailed}},
			wantSucceeded: 1, wantDeletions: 2, wantCompletedIndexes: "0", wantTerminating: 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			j := newJob(tc.parallelism, tc.completions, tc.backoffLimit, tc.mode)
			if tc.replaceFailed {
				failed := "Failed"
				j.Spec.PodReplacementPolicy = &failed
			}
			j.Spec.PodFailurePolicy = tc.podFailurePolicy
			if tc.deleting {
				ts := api.NewTime(t0)
				j.DeletionTimestamp = &ts
			}
			j.Status.Active, j.Status.Failed = tc.initialActive, tc.initialFailed
			s := &podSet{j: j}
			s.addN(tc.pending, api.PodPending, nil)
			n := 0
			s.addN(tc.active, api.PodRunning, func(p *api.Pod) {
				if n < tc.ready {
					ready(p)
				}
				n++
			})
			s.addN(tc.succeeded, api.PodSucceeded, nil)
			s.addN(tc.failed, api.PodFailed, nil)
			s.addN(tc.failedNow, api.PodFailed, func(p *api.Pod) {
				p.Status.ContainerStatuses[0].State.Terminated.FinishedAt = api.NewTime(t0)
			})
			s.addN(tc.terminating, api.PodRunning, func(p *api.Pod) { ts := api.NewTime(t0); p.DeletionTimestamp = &ts })
			for _, ip := range tc.withIndexes {
				s.add(ip.phase, ip.index)
			}
			c := &fakeClient{createLimit: tc.createLimit, deleteErr: tc.deleteErr}
			clock := &fakeClock{t0}
			r := newTestReconciler(c, clock, informer.Static{j}, s.pods)
			if tc.expectCreations > 0 {
				r.exp.ExpectCreations(j.Key().String(), tc.expectCreations)
			}
			res, _ := r.Reconcile(context.Background(), requestFor(j))

			if tc.wantCreateAttempts == 0 {
				tc.wantCreateAttempts = tc.wantCreations
			}
			if c.attempts != tc.wantCreateAttempts {
				t.Errorf("%d creations tried, want %d", c.attempts, tc.wantCreateAttempts)
			}
			if len(c.created) != tc.wantCreations || len(c.deleted) != tc.wantDeletions {
				t.Errorf("created %d, deleted %d; want %d and %d", len(c.created), len(c.deleted), tc.wantCreations, tc.wantDeletions)
			}
			var idx []string
			for _, p := range c.created {
				if i, ok := p.Annotations[api.JobCompletionIndexAnnotation]; ok {
					idx = append(idx, i)
				}
			}
			if !slices.Equal(idx, tc.wantCreatedIndexes) {
				t.Errorf("created indexes %v, want %v", idx, tc.wantCreatedIndexes)
			}
			st := j.Status
			if c.status != nil {
				st = *c.status
			}
			got := fmt.Sprintf("active %d ready %d succeeded %d failed %d terminating %d completedIndexes %q", st.Active, deref(st.Ready), st.Succeeded, st.Failed, deref(st.Terminating), st.CompletedIndexes)
			want := fmt.Sprintf("active %d ready %d succeeded %d failed %d terminating %d completedIndexes %q", tc.wantActive, tc.wantReady, tc.wantSucceeded, tc.wantFailed, tc.wantTerminating, tc.wantCompletedIndexes)
			if got != want {
				t.Errorf("status %s\nwant   %s", got, want)
			}
			var conds []cond
			for _, c := range st.Conditions {
				if c.Status != api.ConditionTrue {
					t.Errorf("condition %s is %s", c.Type, c.Status)
				}
				conds = append(conds, cond{c.Type, c.Reason, c.Message})
			}
			if !slices.Equal(conds, tc.wantConditions) {
				t.Errorf("conditions %v, want %v", conds, tc.wantConditions)
			}
			if res.RequeueAfter != tc.wantRequeue {
				t.Errorf("requeue after %v, want %v", res.RequeueAfter, tc.wantRequeue)
			}
		})
	}
}

func deref(p *int32) int32 {
	if p == nil {
		return -1
	}
	return *p
}

func requestFor(j *api.Job) controller.Request { return controller.Request{Key: j.Key()} }

// TestSyncJobPastDeadline ports the rows of upstream's table of the same
// name (job_controller_test.go at de00a3c8) but the suspend row, with
// v1.37's JobManagedBy and JobPodReplacementPolicy on (its "...;
// JobManagedBy enabled" rows): a Job whose pods are deleted for the
// deadline is FailureTarget until they are gone; one without pods to wait
// for is Failed at once.
func TestSyncJobPastDeadline(t *testing.T) {
	deadline := cond{api.JobFailureTarget, ReasonDeadlineExceeded, MsgDeadlineExceeded}
	tests := map[string]struct {
		parallelism, completions, backoffLimit int32
		activeDeadlineSeconds, startedAgo      int64
		active, succeeded, failed              int
		wantDeletions                          int
		wantSucceeded, wantFailed              int32
		wantConditions                         []cond
	}{
		"activeDeadlineSeconds less than single pod execution": {parallelism: 1, completions: 1, backoffLimit: 6, activeDeadlineSeconds: 10, startedAgo: 15,
			active: 1, wantDeletions: 1, wantFailed: 1, wantConditions: []cond{deadline}},
		"activeDeadlineSeconds bigger than single pod execution": {parallelism: 1, completions: 2, backoffLimit: 6, activeDeadlineSeconds: 10, startedAgo: 15,
			active: 1, succeeded: 1, wantDeletions: 1, wantSucceeded: 1, wantFailed: 1, wantConditions: []cond{deadline}},
		"activeDeadlineSeconds times-out before any pod starts": {parallelism: 1, completions: 1, backoffLimit: 6, activeDeadlineSeconds: 10, startedAgo: 10,
			wantConditions: []cond{deadline, {api.JobFailed, ReasonDeadlineExceeded, MsgDeadlineExceeded}}},
		"activeDeadlineSeconds with backofflimit reach": {parallelism: 1, completions: 1, activeDeadlineSeconds: 1, startedAgo: 10, failed: 1,
			wantFailed: 1, wantConditions: []cond{failTarget, failedCond}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			j := newJob(tc.parallelism, tc.completions, tc.backoffLimit, "")
			j.Spec.ActiveDeadlineSeconds = &tc.activeDeadlineSeconds
			start := api.NewTime(t0.Add(-time.Duration(tc.startedAgo) * time.Second))
			j.Status.StartTime = &start
			s := &podSet{j: j}
			s.addN(tc.active, api.PodRunning, nil)
			s.addN(tc.succeeded, api.PodSucceeded, nil)
			s.addN(tc.failed, api.PodFailed, nil)
			c := &fakeClient{}
			clock := &fakeClock{t0}
			r := newTestReconciler(c, clock, informer.Static{j}, s.pods)
			if _, err := r.Reconcile(context.Background(), requestFor(j)); err != nil {
				t.Fatal(err)
			}
			if len(c.created) != 0 || len(c.deleted) != tc.wantDeletions {
				t.Errorf("created %d, deleted %d; want 0 and %d", len(c.created), len(c.deleted), tc.wantDeletions)
			}
			st := c.status
			if st == nil || st.Active != 0 || st.Succeeded != tc.wantSucceeded || st.Failed != tc.wantFailed || st.StartTime == nil {
				t.Fatalf("status %+v, want 0 active, %d succeeded, %d failed, a start time", st, tc.wantSucceeded, tc.wantFailed)
			}
			var conds []cond
			for _, c := range st.Conditions {
				conds = append(conds, cond{c.Type, c.Reason, c.Message})
			}
			if !slices.Equal(conds, tc.wantConditions) {
				t.Errorf("conditions %v, want %v", conds, tc.wantConditions)
			}
		})
	}
}

// TestSyncJobRequeuesAtDeadline: a Job with activeDeadlineSeconds not
// yet past is synced again exactly when the deadline passes (upstream's
// syncJob: queue.AddAfter(key, activeDeadlineSeconds - time since the
// start)), not later.
func TestSyncJobRequeuesAtDeadline(t *testing.T) {
	tests := []struct {
		name       string
		startedAgo time.Duration
		want       time.Duration
	}{
		{"9s of 10s gone", 9 * time.Second, time.Second},
		{"9.5s of 10s gone", 9500 * time.Millisecond, 500 * time.Millisecond},
		{"just started", 0, 10 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := newJob(1, 1, 6, "")
			ads := int64(10)
			j.Spec.ActiveDeadlineSeconds = &ads
			start := api.NewTime(t0.Add(-tc.startedAgo))
			j.Status.StartTime = &start
			s := &podSet{j: j}
			s.addN(1, api.PodRunning, nil)
			r := newTestReconciler(&fakeClient{}, &fakeClock{t0}, informer.Static{j}, s.pods)
			res, err := r.Reconcile(context.Background(), requestFor(j))
			if err != nil {
				t.Fatal(err)
			}
			if res.RequeueAfter != tc.want {
				t.Errorf("requeue after %v, want %v", res.RequeueAfter, tc.want)
			}
		})
	}
}

// TestSingleJobFailedCondition, TestSyncJobComplete and TestSyncJobDeleted
// are upstream's tests of the same names (job_controller_test.go at
// de00a3c8): a Failed=False condition is turned True, not doubled; a
// Complete Job is left as it is; a Job gone from the cache syncs without
// creating or deleting anything.
func TestSingleJobFailedCondition(t *testing.T) {
	j := newJob(1, 1, 6, "")
	ads := int64(10)
	j.Spec.ActiveDeadlineSeconds = &ads
	start := api.NewTime(t0.Add(-15 * time.Second))
	j.Status.StartTime = &start
	j.Status.Conditions = []api.JobCondition{{Type: api.JobFailed, Status: api.ConditionFalse, Reason: ReasonDeadlineExceeded, Message: MsgDeadlineExceeded}}
	c := &fakeClient{}
	clock := &fakeClock{t0}
	r := newTestReconciler(c, clock, informer.Static{j}, informer.Static{})
	if _, err := r.Reconcile(context.Background(), requestFor(j)); err != nil {
		t.Fatal(err)
	}
	if len(c.deleted) != 0 || c.status == nil {
		t.Fatalf("deleted %v, status %v; want no deletion and a status written", c.deleted, c.status)
	}
	var failed []api.JobCondition
	for _, x := range c.status.Conditions {
		if x.Type == api.JobFailed {
			failed = append(failed, x)
		}
	}
	if len(failed) != 1 || failed[0].Status != api.ConditionTrue {
		t.Errorf("Failed conditions %+v, want one, True", failed)
	}
}

func TestSyncJobComplete(t *testing.T) {
	j := newJob(1, 1, 6, "")
	j.Status.Conditions = []api.JobCondition{{Type: api.JobComplete, Status: api.ConditionTrue}}
	c := &fakeClient{}
	clock := &fakeClock{t0}
	r := newTestReconciler(c, clock, informer.Static{j}, informer.Static{})
	if _, err := r.Reconcile(context.Background(), requestFor(j)); err != nil || c.status != nil || len(j.Status.Conditions) != 1 {
		t.Errorf("Reconcile = %v, status written %v, conditions %v; want nothing done", err, c.status, j.Status.Conditions)
	}
}

func TestSyncJobDeleted(t *testing.T) {
	j := newJob(2, 2, 6, "")
	c := &fakeClient{}
	clock := &fakeClock{t0}
	r := newTestReconciler(c, clock, informer.Static{}, informer.Static{})
	if _, err := r.Reconcile(context.Background(), requestFor(j)); err != nil || c.attempts != 0 || len(c.deleted) != 0 {
		t.Errorf("Reconcile = %v, %d creations, %d deletions; want none", err, c.attempts, len(c.deleted))
	}
}

// TestSyncJobWithJobPodFailurePolicy ports upstream's table of the same
// name (job_controller_test.go at de00a3c8), every row, with v1.37's
// gates: the pods are named mypod-<i> with no creation time, and the
// table's podReplacementPolicy is Failed (the default with a pod failure
// policy). "fail job with multiple pods" deletes its running pod, so it is
// FailureTarget with one pod terminating rather than Failed at once.
func TestSyncJobWithJobPodFailurePolicy(t *testing.T) {
	onExitCodes := func(action, op string, values ...int32) api.PodFailurePolicyRule {
		return api.PodFailurePolicyRule{Action: action, OnExitCodes: &api.PodFailurePolicyOnExitCodesRequirement{Operator: op, Values: values}}
	}
	onCondition := func(action, condition string) api.PodFailurePolicyRule {
		return api.PodFailurePolicyRule{Action: action, OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: condition, Status: api.ConditionTrue}}}
	}
	onExitCodeRules := []api.PodFailurePolicyRule{onExitCodes("Ignore", "In", 1, 2, 3), onExitCodes("FailJob", "In", 5, 6, 7)}
	main := "main-container"
	inMain := func(action string, values ...int32) api.PodFailurePolicyRule {
		r := onExitCodes(action, "In", values...)
		r.OnExitCodes.ContainerName = &main
		return r
	}
	exit := func(name string, code int32, finished bool) api.ContainerStatus {
		term := &api.ContainerStateTerminated{ExitCode: code}
		if finished {
			term.FinishedAt = testFinishedAt
		}
		return api.ContainerStatus{Name: name, State: api.ContainerState{Terminated: term}}
	}
	failedPod := func(cs ...api.ContainerStatus) api.Pod {
		return api.Pod{Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: cs}}
	}
	withConditions := func(p api.Pod, types ...string) api.Pod {
		for _, c := range types {
			p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodConditionType(c), Status: api.ConditionTrue})
		}
		return p
	}
	now := api.NewTime(t0)
	ft := func(msg string) cond { return cond{api.JobFailureTarget, ReasonPodFailurePolicy, msg} }
	fl := func(msg string) cond { return cond{api.JobFailed, ReasonPodFailurePolicy, msg} }
	exit5 := "Container main-container for pod default/mypod-0 failed with exit code 5 matching FailJob rule at index 1"
	tests := map[string]struct {
		parallelism, completions, backoffLimit int32
		mode                                   string
		rules                                  []api.PodFailurePolicyRule
		conditions                             []api.JobCondition
		pods                                   []api.Pod
		wantConditions                         []cond
		wantActive, wantFailed                 int32
		wantTerminating                        int32
	}{
		"default handling for pod failure if the container matching the exit codes does not match the containerName restriction": {1, 1, 6, "",
			[]api.PodFailurePolicyRule{inMain("Ignore", 1, 2, 3), inMain("FailJob", 5, 6, 7)}, nil,
			[]api.Pod{failedPod(exit("monitoring-container", 5, false), exit(main, 42, true))}, nil, 1, 1, 0},
		"running pod should not result in job fail based on OnExitCodes": {1, 1, 6, "", onExitCodeRules, nil,
			[]api.Pod{{Status: api.PodStatus{Phase: api.PodRunning, ContainerStatuses: []api.ContainerStatus{exit(main, 5, false)}}}}, nil, 1, 0, 0},
		"fail job based on OnExitCodes": {1, 1, 6, "", onExitCodeRules, nil, []api.Pod{failedPod(exit(main, 5, false))},
			[]cond{ft(exit5), fl(exit5)}, 0, 1, 0},
		"job marked already as failure target with failed pod": {1, 1, 6, "", onExitCodeRules,
			[]api.JobCondition{{Type: api.JobFailureTarget, Status: api.ConditionTrue, Reason: ReasonPodFailurePolicy, Message: exit5}},
			[]api.Pod{failedPod(exit(main, 5, false))}, []cond{ft(exit5), fl(exit5)}, 0, 1, 0},
		"job marked already as failure target with failed pod, message based on already deleted pod": {1, 1, 6, "", onExitCodeRules,
			[]api.JobCondition{{Type: api.JobFailureTarget, Status: api.ConditionTrue, Reason: ReasonPodFailurePolicy,
				Message: "Container main-container for pod default/already-deleted-pod failed with exit code 5 matching FailJob rule at index 1"}},
			[]api.Pod{failedPod(exit(main, 5, false))},
			[]cond{ft("Container main-container for pod default/already-deleted-pod failed with exit code 5 matching FailJob rule at index 1"),
				fl("Container main-container for pod default/already-deleted-pod failed with exit code 5 matching FailJob rule at index 1")}, 0, 1, 0},
		"fail job with multiple pods": {2, 2, 6, "", onExitCodeRules, nil,
			[]api.Pod{{Status: api.PodStatus{Phase: api.PodRunning}}, failedPod(exit(main, 5, false))},
			[]cond{ft("Container main-container for pod default/mypod-1 failed with exit code 5 matching FailJob rule at index 1")}, 0, 2, 1},
		"fail indexed job based on OnExitCodes": {1, 1, 6, api.IndexedCompletion, onExitCodeRules, nil, []api.Pod{failedPod(exit(main, 5, false))},
			[]cond{ft(exit5), fl(exit5)}, 0, 1, 0},
		"fail job based on OnExitCodes with NotIn operator": {1, 1, 6, "", []api.PodFailurePolicyRule{onExitCodes("FailJob", "NotIn", 5, 6, 7)}, nil,
			[]api.Pod{failedPod(exit(main, 42, false))},
			[]cond{ft("Container main-container for pod default/mypod-0 failed with exit code 42 matching FailJob rule at index 0"),
				fl("Container main-container for pod default/mypod-0 failed with exit code 42 matching FailJob rule at index 0")}, 0, 1, 0},
		"default handling job based on OnExitCodes with NotIn operator": {1, 1, 6, "", []api.PodFailurePolicyRule{onExitCodes("FailJob", "NotIn", 5, 6, 7)}, nil,
			[]api.Pod{failedPod(exit(main, 5, true))}, nil, 1, 1, 0},
		"fail job based on OnExitCodes for InitContainer": {1, 1, 6, "", onExitCodeRules, nil,
			[]api.Pod{{Status: api.PodStatus{Phase: api.PodFailed, InitContainerStatuses: []api.ContainerStatus{exit("init-container", 5, false)},
				ContainerStatuses: []api.ContainerStatus{exit(main, 143, false)}}}},
			[]cond{ft("Container init-container for pod default/mypod-0 failed with exit code 5 matching FailJob rule at index 1"),
				fl("Container init-container for pod default/mypod-0 failed with exit code 5 matching FailJob rule at index 1")}, 0, 1, 0},
		"ignore pod failure; both rules are matching, the first is executed only": {1, 1, 0, "", onExitCodeRules, nil,
			[]api.Pod{failedPod(exit("container1", 2, false), exit("container2", 6, false))}, nil, 1, 0, 0},
		"ignore pod failure based on OnExitCodes": {1, 1, 0, "", onExitCodeRules, nil, []api.Pod{failedPod(exit("", 1, false))}, nil, 1, 0, 0},
		"default job based on OnExitCodes": {1, 1, 0, "", onExitCodeRules, nil, []api.Pod{failedPod(exit("", 10, false))},
			[]cond{failTarget, failedCond}, 0, 1, 0},
		"count pod failure based on OnExitCodes; both rules are matching, the first is executed only": {1, 1, 6, "",
			[]api.PodFailurePolicyRule{onExitCodes("Count", "In", 1, 2), onExitCodes("Ignore", "In", 2, 3)}, nil,
			[]api.Pod{failedPod(exit("", 2, true))}, nil, 1, 1, 0},
		"count pod failure based on OnPodConditions; both rules are matching, the first is executed only": {1, 1, 6, "",
			[]api.PodFailurePolicyRule{onCondition("Count", "ResourceLimitExceeded"), onCondition("Ignore", "DisruptionTarget")}, nil,
			[]api.Pod{withConditions(failedPod(exit("", 0, true)), "ResourceLimitExceeded", "DisruptionTarget")}, nil, 1, 1, 0},
		"ignore pod failure based on OnPodConditions": {1, 1, 0, "", []api.PodFailurePolicyRule{onCondition("Ignore", "DisruptionTarget")}, nil,
			[]api.Pod{withConditions(failedPod(), "DisruptionTarget")}, nil, 1, 0, 0},
		"ignore pod failure based on OnPodConditions, ignored failures delays pod recreation": {1, 1, 0, "",
			[]api.PodFailurePolicyRule{onCondition("Ignore", "DisruptionTarget")}, nil,
			[]api.Pod{func() api.Pod {
				p := withConditions(failedPod(), "DisruptionTarget")
				p.DeletionTimestamp = &now
				return p
			}()}, nil, 0, 0, 0},
		"fail job based on OnPodConditions": {1, 1, 6, "", []api.PodFailurePolicyRule{onCondition("FailJob", "DisruptionTarget")}, nil,
			[]api.Pod{withConditions(failedPod(), "DisruptionTarget")},
			[]cond{ft("Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0"),
				fl("Pod default/mypod-0 has condition DisruptionTarget matching FailJob rule at index 0")}, 0, 1, 0},
		"terminating Pod not considered failed when JobPodFailurePolicy is enabled and used": {1, -1, 0, "",
			[]api.PodFailurePolicyRule{onCondition("Count", "DisruptionTarget")}, nil,
			[]api.Pod{{ObjectMeta: api.ObjectMeta{DeletionTimestamp: &now}}}, nil, 0, 0, 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			j := newJob(tc.parallelism, tc.completions, tc.backoffLimit, tc.mode)
			j.Spec.PodFailurePolicy = &api.PodFailurePolicy{Rules: tc.rules}
			failed := "Failed"
			j.Spec.PodReplacementPolicy = &failed
			j.Status.Conditions = tc.conditions
			var pods informer.Static
			for i := range tc.pods {
				p := tc.pods[i].DeepCopy()
				p.Name, p.Namespace, p.UID = fmt.Sprintf("mypod-%d", i), "default", api.UID(fmt.Sprintf("mypod-uid-%d", i))
				p.OwnerReferences = []api.OwnerReference{api.NewControllerRef(j)}
				if tc.mode == api.IndexedCompletion {
					p.Annotations = map[string]string{api.JobCompletionIndexAnnotation: fmt.Sprint(i)}
				}
				pods = append(pods, p)
			}
			c := &fakeClient{}
			clock := &fakeClock{t0}
			r := newTestReconciler(c, clock, informer.Static{j}, pods)
			if _, err := r.Reconcile(context.Background(), requestFor(j)); err != nil {
				t.Fatal(err)
			}
			st := j.Status
			if c.status != nil {
				st = *c.status
			}
			var conds []cond
			for _, x := range st.Conditions {
				conds = append(conds, cond{x.Type, x.Reason, x.Message})
			}
			if !slices.Equal(conds, tc.wantConditions) {
				t.Errorf("conditions %v\nwant       %v", conds, tc.wantConditions)
			}
			if st.Active != tc.wantActive || st.Failed != tc.wantFailed || st.Succeeded != 0 || deref(st.Terminating) != tc.wantTerminating {
				t.Errorf("active %d failed %d succeeded %d terminating %d; want %d %d 0 %d", st.Active, st.Failed, st.Succeeded, deref(st.Terminating), tc.wantActive, tc.wantFailed, tc.wantTerminating)
			}
		})
	}
}

// TestSurplusPodsNeverCountAsFailed: a pod the controller deletes as
// surplus is not counted as failed when it then terminates, Failed (the
// kubelet's phase for a killed pod); upstream removes its tracking
// finalizer before deleting it. A pod deleted by someone else counts as
// soon as it is terminating (isPodFailed, TerminatingOrFailed).
func TestSurplusPodsNeverCountAsFailed(t *testing.T) {
	j := newJob(2, 5, 6, "")
	s := &podSet{j: j}
	s.addN(3, api.PodRunning, nil)
	c := &fakeClient{}
	clock := &fakeClock{t0}
	r := newTestReconciler(c, clock, informer.Static{j}, s.pods)
	if _, err := r.Reconcile(context.Background(), requestFor(j)); err != nil || len(c.deleted) != 1 {
		t.Fatalf("first sync: %v, deleted %v; want one surplus pod deleted", err, c.deleted)
	}
	for _, o := range s.pods {
		p := o.(*api.Pod)
		ts := api.NewTime(t0)
		switch p.Name {
		case c.deleted[0]:
			p.DeletionTimestamp, p.Status.Phase = &ts, api.PodFailed
		case "pod-0":
			p.DeletionTimestamp = &ts // deleted by hand
		}
	}
	j.Status = *c.status
	r.exp = replicaset.NewExpectations(clock)
	if _, err := r.Reconcile(context.Background(), requestFor(j)); err != nil {
		t.Fatal(err)
	}
	if c.status.Failed != 1 {
		t.Errorf("failed %d, want 1: the pod deleted by hand, not the surplus one", c.status.Failed)
	}
}

// TestJobBackoffForOnFailure ports upstream's table of the same name
// (job_controller_test.go at de00a3c8) with v1.37's gates: a Job with
// restartPolicy OnFailure fails once its running or pending pods'
// container restarts reach backoffLimit; its pods are then deleted and
// counted failed, the Job FailureTarget until they are gone. The gated
// rows ("...; JobPodReplacementPolicy enabled", "...; JobManagedBy
// enabled") are what v1.37 does, so the rows without the gates are
// ported with the gated rows' expectations ("backoffLimit 1 with
// restartCount 1 and podRunning", "too many job failures ...": FailureTarget
// where the ungated rows expect Failed; "finished job": SuccessCriteriaMet
// and Complete). Not ported: "suspending a job" (suspend is not
// simulated); "finished job" is ported without its suspend: true, which
// upstream ignores once every completion succeeded. The stored table
// expects that row's conditions without a reason or message, from before
// JobSuccessPolicy (GA in 1.33) made newSuccessCondition give them
// CompletionsReached and its message; they are expected with them here, as
// in TestControllerSyncJob.
func TestJobBackoffForOnFailure(t *testing.T) {
	tests := map[string]struct {
		parallelism, completions, backoffLimit int32
		restartCounts                          []int32
		phase                                  api.PodPhase
		wantActive, wantSucceeded, wantFailed  int32
		wantConditions                         []cond
	}{
		"backoffLimit 0 should have 1 pod active": {parallelism: 1, completions: 1, backoffLimit: 0,
			restartCounts: []int32{0}, phase: api.PodRunning, wantActive: 1},
		"backoffLimit 1 with restartCount 0 should have 1 pod active": {parallelism: 1, completions: 1, backoffLimit: 1,
			restartCounts: []int32{0}, phase: api.PodRunning, wantActive: 1},
		"backoffLimit 1 with restartCount 1 and podRunning should have 0 pod active": {parallelism: 1, completions: 1, backoffLimit: 1,
			restartCounts: []int32{1}, phase: api.PodRunning, wantFailed: 1, wantConditions: []cond{failTarget}},
		"backoffLimit 1 with restartCount 1 and podPending should have 0 pod active": {parallelism: 1, completions: 1, backoffLimit: 1,
			restartCounts: []int32{1}, phase: api.PodPending, wantFailed: 1, wantConditions: []cond{failTarget}},
		"too many job failures with podRunning - single pod": {parallelism: 1, completions: 5, backoffLimit: 2,
			restartCounts: []int32{2}, phase: api.PodRunning, wantFailed: 1, wantConditions: []cond{failTarget}},
		"too many job failures with podPending - single pod": {parallelism: 1, completions: 5, backoffLimit: 2,
			restartCounts: []int32{2}, phase: api.PodPending, wantFailed: 1, wantConditions: []cond{failTarget}},
		"too many job failures with podRunning - multiple pods": {parallelism: 2, completions: 5, backoffLimit: 2,
			restartCounts: []int32{1, 1}, phase: api.PodRunning, wantFailed: 2, wantConditions: []cond{failTarget}},
		"too many job failures with podPending - multiple pods": {parallelism: 2, completions: 5, backoffLimit: 2,
			restartCounts: []int32{1, 1}, phase: api.PodPending, wantFailed: 2, wantConditions: []cond{failTarget}},
		"not enough failures": {parallelism: 2, completions: 5, backoffLimit: 3,
			restartCounts: []int32{1, 1}, phase: api.PodRunning, wantActive: 2},
		// Not upstream's row: pastBackoffLimitOnFailure counts the restarts
		// of Running and Pending pods only.
		"restarts of a pod in phase Unknown do not count": {parallelism: 1, completions: 1, backoffLimit: 1,
			restartCounts: []int32{1}, phase: api.PodUnknown, wantActive: 1},
		"finished job": {parallelism: 2, completions: 4, backoffLimit: 6,
			restartCounts: []int32{1, 1, 2, 0}, phase: api.PodSucceeded, wantSucceeded: 4,
			wantConditions: []cond{successMet, completed}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			j := newJob(tc.parallelism, tc.completions, tc.backoffLimit, "")
			j.Spec.Template.Spec.RestartPolicy = api.RestartPolicyOnFailure
			s := &podSet{j: j}
			for _, rc := range tc.restartCounts {
				p := s.add(tc.phase, "")
				// upstream's row sets the container statuses to the
				// restart count alone, dropping newPodList's state.
				p.Status.ContainerStatuses = []api.ContainerStatus{{RestartCount: rc}}
			}
			checkStatus(t, syncOnce(t, j, s.pods), tc.wantActive, tc.wantSucceeded, tc.wantFailed, tc.wantConditions)
		})
	}
}

// TestJobBackoffOnRestartPolicyNever ports upstream's table of the same
// name (job_controller_test.go at de00a3c8), every row: with restartPolicy
// Never the failed pods count against backoffLimit, and a Job past it with
// no pod left to delete is FailureTarget and Failed in one sync.
func TestJobBackoffOnRestartPolicyNever(t *testing.T) {
	tests := map[string]struct {
		parallelism, completions, backoffLimit int32
		activePhase                            api.PodPhase
		active, failed                         int
		wantActive, wantSucceeded, wantFailed  int32
		wantConditions                         []cond
	}{
		"not enough failures with backoffLimit 0 - single pod": {parallelism: 1, completions: 1, backoffLimit: 0,
			activePhase: api.PodRunning, active: 1, wantActive: 1},
		"not enough failures with backoffLimit 1 - single pod": {parallelism: 1, completions: 1, backoffLimit: 1,
			failed: 1, wantActive: 1, wantFailed: 1},
		"too many failures with backoffLimit 1 - single pod": {parallelism: 1, completions: 1, backoffLimit: 1,
			failed: 2, wantFailed: 2, wantConditions: []cond{failTarget, failedCond}},
		"not enough failures with backoffLimit 6 - multiple pods": {parallelism: 2, completions: 2, backoffLimit: 6,
			activePhase: api.PodRunning, active: 1, failed: 6, wantActive: 2, wantFailed: 6},
		"too many failures with backoffLimit 6 - multiple pods": {parallelism: 2, completions: 2, backoffLimit: 6,
			failed: 7, wantFailed: 7, wantConditions: []cond{failTarget, failedCond}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			j := newJob(tc.parallelism, tc.completions, tc.backoffLimit, "")
			s := &podSet{j: j}
			s.addN(tc.failed, api.PodFailed, nil)
			s.addN(tc.active, tc.activePhase, nil)
			checkStatus(t, syncOnce(t, j, s.pods), tc.wantActive, tc.wantSucceeded, tc.wantFailed, tc.wantConditions)
		})
	}
}

// newTestReconciler is a reconciler over c and clock with jobs and pods
// in its caches.
func newTestReconciler(c *fakeClient, clock *fakeClock, jobs, pods informer.Static) *reconciler {
	return &reconciler{client: c, recorder: &events{}, clock: clock, jobs: jobs, pods: pods, exp: replicaset.NewExpectations(clock)}
}

// syncOnce syncs j once with pods in the cache and returns the status
// written.
func syncOnce(t *testing.T, j *api.Job, pods informer.Static) *api.JobStatus {
	t.Helper()
	c := &fakeClient{}
	clock := &fakeClock{t0}
	r := newTestReconciler(c, clock, informer.Static{j}, pods)
	if _, err := r.Reconcile(context.Background(), requestFor(j)); err != nil {
		t.Fatal(err)
	}
	return c.status
}

// checkStatus compares the status written with the counts and conditions
// (type, reason, message) a row expects.
func checkStatus(t *testing.T, st *api.JobStatus, active, succeeded, failed int32, want []cond) {
	t.Helper()
	if st == nil {
		t.Fatal("no status written")
	}
	if st.Active != active || st.Succeeded != succeeded || st.Failed != failed {
		t.Errorf("active %d succeeded %d failed %d, want %d, %d, %d", st.Active, st.Succeeded, st.Failed, active, succeeded, failed)
	}
	var conds []cond
	for _, c := range st.Conditions {
		conds = append(conds, cond{c.Type, c.Reason, c.Message})
	}
	if !slices.Equal(conds, want) {
		t.Errorf("conditions %v, want %v", conds, want)
	}
}

// TestIndexedJobKeepsCompletedIndexes: an index status.completedIndexes
// lists stays completed when its succeeded pod is gone, so no pod is
// created for it again (upstream's calculateSucceededIndexes starts from
// the status); the indexes of the pods seen are added to it.
func TestIndexedJobKeepsCompletedIndexes(t *testing.T) {
	tests := []struct {
		name        string
		prev        string
		succeeded   []string // indexes of succeeded pods still there
		wantIndexes []string // indexes of the pods created
		wantDone    string
	}{
		{"the pod of completed index 0 is gone", "0", nil, []string{"1", "2"}, "0"},
		{"index 1 succeeds, index 0 was completed before", "0", []string{"1"}, []string{"2"}, "0,1"},
		{"nothing completed before", "", []string{"1"}, []string{"0", "2"}, "1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := newJob(3, 3, 6, api.IndexedCompletion)
			j.Status.CompletedIndexes = tc.prev
			j.Status.Succeeded = int32(len(parseIndexes(tc.prev, 3)))
			s := &podSet{j: j}
			for _, ix := range tc.succeeded {
				s.add(api.PodSucceeded, ix)
			}
			c := &fakeClient{}
			r := newTestReconciler(c, &fakeClock{t0}, informer.Static{j}, s.pods)
			if _, err := r.Reconcile(context.Background(), requestFor(j)); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range c.created {
				got = append(got, p.Annotations[api.JobCompletionIndexAnnotation])
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.wantIndexes) {
				t.Errorf("created pods for indexes %v, want %v", got, tc.wantIndexes)
			}
			if c.status == nil || c.status.CompletedIndexes != tc.wantDone {
				t.Errorf("status %+v, want completedIndexes %q", c.status, tc.wantDone)
			}
		})
	}
}
