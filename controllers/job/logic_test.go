package job

import (
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

var t0 = time.Date(2009, time.November, 10, 23, 0, 0, 0, time.UTC)

// TestGetRemainingBackoffTime is upstream's table of the same name
// (k/k pkg/controller/job/backoff_utils_test.go), row by row.
func TestGetRemainingBackoffTime(t *testing.T) {
	tests := []struct {
		name     string
		failures int32
		last     *time.Time
		now      time.Time
		want     time.Duration
	}{
		{"no failures", 0, nil, t0, 0},
		{"one failure; current time and failure time are same", 1, &t0, t0, 5 * time.Second},
		{"one failure; current time == 1 second + failure time", 1, &t0, t0.Add(time.Second), 4 * time.Second},
		{"one failure; current time == expected backoff time", 1, &t0, t0.Add(5 * time.Second), 0},
		{"one failure; current time == expected backoff time + 1 Second", 1, &t0, t0.Add(6 * time.Second), 0},
		{"three failures; current time and failure time are same", 3, &t0, t0, 20 * time.Second},
		{"eight failures; current time and failure time are same; backoff not exceeding maxBackoff", 8, &t0, t0, 640 * time.Second},
		{"nine failures; current time and failure time are same; backoff exceeding maxBackoff", 9, &t0, t0, 700 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := backoff{failuresAfterLastSuccess: tc.failures, lastFailureTime: tc.last}
			if got := b.remaining(tc.now, 5*time.Second, 700*time.Second); got != tc.want {
				t.Errorf("remaining %v, want %v", got, tc.want)
			}
		})
	}
	// With the controller's own constants: 10s, 20s, 40s, ... capped at 10m.
	for failures, want := range map[int32]time.Duration{1: 10 * time.Second, 2: 20 * time.Second, 3: 40 * time.Second, 7: 600 * time.Second, 20: 600 * time.Second} {
		b := backoff{failuresAfterLastSuccess: failures, lastFailureTime: &t0}
		if got := b.remaining(t0, DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff); got != want {
			t.Errorf("%d failures: back-off %v, want %v", failures, got, want)
		}
	}
}

func terminated(at time.Time, code int32) api.ContainerStatus {
	return api.ContainerStatus{Name: "main", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code, FinishedAt: api.NewTime(at)}}}
}

// TestGetFinishedTime follows upstream's TestGetFinishedTime
// (backoff_utils_test.go at e4348a12): the containers' latest finish
// (sidecars included), else the Ready=False transition, else the
// deletion time less the grace period, else the creation time. The row
// "Pod with init container and all containers terminated" gives its init
// container a name and restartPolicy Always in the pod's spec: the code
// read at 21da0b6d (getFinishTimeFromContainers) counts an init
// container's finish only for a sidecar, so a status alone, as the row at
// e4348a12 has it, would not count; the next row checks that.
func TestGetFinishedTime(t *testing.T) {
	grace := int64(30)
	del := api.NewTime(t0.Add(30 * time.Second))
	del0 := api.NewTime(t0)
	running := api.ContainerStatus{Name: "r", State: api.ContainerState{Running: &api.ContainerStateRunning{}}}
	always := api.ContainerRestartPolicyAlways
	sidecarDone := api.ContainerStatus{Name: "sidecar", State: api.ContainerState{Terminated: &api.ContainerStateTerminated{FinishedAt: api.NewTime(t0)}}}
	tests := []struct {
		name string
		pod  api.Pod
		want time.Time
	}{
		{"Pod with multiple containers and all containers terminated", api.Pod{Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{
			terminated(t0.Add(-1*time.Second), 0), terminated(t0, 0), terminated(t0.Add(-2*time.Second), 0)}}}, t0},
		{"Pod with multiple containers; two containers in terminated state and one in running state; fallback to deletionTimestamp", api.Pod{
			ObjectMeta: api.ObjectMeta{DeletionTimestamp: &del, DeletionGracePeriodSeconds: &grace},
			Status:     api.PodStatus{ContainerStatuses: []api.ContainerStatus{terminated(t0.Add(-1*time.Second), 0), {Name: "r", State: api.ContainerState{Running: &api.ContainerStateRunning{}}}}}}, t0},
		{"fallback to PodReady.LastTransitionTime when status of the condition is False", api.Pod{Status: api.PodStatus{
			ContainerStatuses: []api.ContainerStatus{{State: api.ContainerState{Terminated: &api.ContainerStateTerminated{}}}},
			Conditions:        []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse, LastTransitionTime: api.NewTime(t0)}}}}, t0},
		{"fallback to deletionTimestamp", api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: &del0},
			Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{running}}}, t0},
		{"fallback to deletionTimestamp, decremented by grace period", api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: &del0, DeletionGracePeriodSeconds: &grace},
			Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{running}}}, t0.Add(-30 * time.Second)},
		{"skip fallback to PodReady.LastTransitionTime when status of the condition is True", api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: &del0},
			Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{{State: api.ContainerState{Terminated: &api.ContainerStateTerminated{}}}},
				Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(t0.Add(-30 * time.Second))}}}}, t0},
		{"fallback to creationTimestamp", api.Pod{ObjectMeta: api.ObjectMeta{CreationTimestamp: api.NewTime(t0)},
			Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{{State: api.ContainerState{Terminated: &api.ContainerStateTerminated{}}}}}}, t0},
		{"Pod with init container and all containers terminated", api.Pod{
			Spec: api.PodSpec{InitContainers: []api.Container{{Name: "sidecar", RestartPolicy: &always}}},
			Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{terminated(t0.Add(-1*time.Second), 0)},
				InitContainerStatuses: []api.ContainerStatus{sidecarDone}}}, t0},
		{"Pod with a finished init container that is not a sidecar: the regular containers' finish", api.Pod{
			Spec: api.PodSpec{InitContainers: []api.Container{{Name: "sidecar"}}},
			Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{terminated(t0.Add(-1*time.Second), 0)},
				InitContainerStatuses: []api.ContainerStatus{sidecarDone}}}, t0.Add(-1 * time.Second)},
		{"Pod with a sidecar still running: fallback to deletionTimestamp", api.Pod{ObjectMeta: api.ObjectMeta{DeletionTimestamp: &del0},
			Spec: api.PodSpec{InitContainers: []api.Container{{Name: "sidecar", RestartPolicy: &always}}},
			Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{terminated(t0.Add(-1*time.Second), 0)},
				InitContainerStatuses: []api.ContainerStatus{{Name: "sidecar", State: api.ContainerState{Running: &api.ContainerStateRunning{}}}}}}, t0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := finishedTime(&tc.pod); !got.Equal(tc.want) {
				t.Errorf("finished %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNewBackoffRecord ports upstream's table of the same name
// (backoff_utils_test.go at e4348a12) onto newBackoff, which computes the
// record from a Job's whole history, as upstream's newBackoffRecord does
// from an empty store: every row but "Backoff store having failure count 2
// and one new failure", whose record carries failures counted in an
// earlier sync (no record is kept between syncs here).
func TestNewBackoffRecord(t *testing.T) {
	pod := func(at time.Duration) *api.Pod {
		return &api.Pod{Status: api.PodStatus{ContainerStatuses: []api.ContainerStatus{terminated(t0.Add(at), 0)}}}
	}
	pods := func(at ...time.Duration) []*api.Pod {
		var out []*api.Pod
		for _, d := range at {
			out = append(out, pod(d))
		}
		return out
	}
	ms := time.Millisecond
	tests := []struct {
		name              string
		succeeded, failed []*api.Pod
		wantFailures      int32
		wantLastFailureAt time.Duration
		wantNoLastFailure bool
	}{
		{"Empty backoff store and one new failure", nil, pods(0), 1, 0, false},
		{"Empty backoff store and two new failures", nil, pods(0, -1*ms), 2, 0, false},
		{"Empty backoff store, two failures followed by success", pods(0), pods(-2*ms, -1*ms), 0, 0, true},
		{"Empty backoff store, two failures, one success and two more failures", pods(-2 * ms), pods(0, -4*ms, -3*ms, -1*ms), 2, 0, false},
		{"Empty backoff store with success and failure at same timestamp", pods(0), pods(0), 0, 0, true},
		{"Empty backoff store with no success/failure", nil, nil, 0, 0, true},
		{"Empty backoff store with one success", pods(0), nil, 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBackoff(tc.succeeded, tc.failed)
			if b.failuresAfterLastSuccess != tc.wantFailures || (b.lastFailureTime == nil) != tc.wantNoLastFailure ||
				b.lastFailureTime != nil && !b.lastFailureTime.Equal(t0.Add(tc.wantLastFailureAt)) {
				t.Errorf("record %d failures, last %v; want %d at %v", b.failuresAfterLastSuccess, b.lastFailureTime, tc.wantFailures, tc.wantLastFailureAt)
			}
		})
	}
}

// TestMatchPodFailurePolicy ports upstream's table of the same name
// (k/k pkg/controller/job/pod_failure_policy_test.go at 14db6606), every
// row: rules apply in order, the first match with a known action decides;
// FailJob gives upstream's message, Ignore does not count the failure,
// Count, FailIndex and no match count it (the rows' wantCountFailed; the
// simulation does not tell a Count rule from no match). The row
// "expected matching rule returned" checks the action only: rule names
// are not simulated. Exit codes of regular containers are matched before
// those of init containers.
func TestMatchPodFailurePolicy(t *testing.T) {
	meta := api.ObjectMeta{Namespace: "default", Name: "mypod"}
	exited := func(name string, code int32) api.ContainerStatus {
		return api.ContainerStatus{Name: name, State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: code}}}
	}
	withExits := func(cs ...api.ContainerStatus) *api.Pod {
		return &api.Pod{ObjectMeta: meta, Status: api.PodStatus{Phase: api.PodFailed, ContainerStatuses: cs}}
	}
	withCondition := func(status api.ConditionStatus) *api.Pod {
		return &api.Pod{ObjectMeta: meta, Status: api.PodStatus{Phase: api.PodFailed,
			Conditions: []api.PodCondition{{Type: "DisruptionTarget", Status: status}}}}
	}
	exits := func(action, op string, values ...int32) api.PodFailurePolicyRule {
		return api.PodFailurePolicyRule{Action: action, OnExitCodes: &api.PodFailurePolicyOnExitCodesRequirement{Operator: op, Values: values}}
	}
	onCond := func(action, typ string, status api.ConditionStatus) api.PodFailurePolicyRule {
		return api.PodFailurePolicyRule{Action: action, OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: typ, Status: status}}}
	}
	rules := func(r ...api.PodFailurePolicyRule) *api.PodFailurePolicy { return &api.PodFailurePolicy{Rules: r} }
	const tr, fa, un = api.ConditionTrue, api.ConditionFalse, api.ConditionUnknown
	successfulSkipped := withExits(exited("main-container", 111), exited("suppport-container", 0))
	successfulSkipped.Status.InitContainerStatuses = []api.ContainerStatus{exited("init-container", 0)}
	tests := []struct {
		name   string
		policy *api.PodFailurePolicy
		pod    *api.Pod
		want   policyAction
		msg    string
	}{
		{"unknown action for rule matching by exit codes - skip rule with unknown action",
			rules(exits("UnknownAction", "In", 1, 2), exits("FailJob", "In", 2, 3)), withExits(exited("main-container", 2)), actionFailJob,
			"Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1"},
		{"unknown action for rule matching by pod conditions - skip rule with unknown action",
			rules(onCond("UnkonwnAction", "DisruptionTarget", tr), onCond("Ignore", "DisruptionTarget", tr)), withCondition(tr), actionIgnore, ""},
		{"unknown operator - rule with unknown action is skipped for onExitCodes",
			rules(exits("Ignore", "UnknownOperator", 1, 2), exits("FailJob", "In", 2, 3)), withExits(exited("main-container", 2)), actionFailJob,
			"Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1"},
		{"no policy rules", nil, withExits(exited("", 2)), actionCount, ""},
		{"ignore rule matched for exit codes", rules(exits("Ignore", "In", 1, 2, 3)), withExits(exited("", 2)), actionIgnore, ""},
		{"ignore rule matched on negative exit codes - needed for Windows support",
			rules(exits("Ignore", "In", -1073741676, -1073741510)), withExits(exited("", -1073741510)), actionIgnore, ""},
		{"FailJob rule matched for exit codes", rules(exits("FailJob", "In", 1, 2, 3)), withExits(exited("main-container", 2)), actionFailJob,
			"Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 0"},
		{"successful containers are skipped by the rules", rules(exits("FailJob", "NotIn", 111)), successfulSkipped, actionCount, ""},
		{"FailIndex rule matched for exit codes", rules(exits("FailIndex", "In", 1, 2, 3)), withExits(exited("", 2)), actionCount, ""},
		{"pod failure policy with NotIn operator and value 0", rules(exits("FailJob", "NotIn", 0)),
			withExits(exited("main-container", 1), exited("suppport-container", 0)), actionFailJob,
			"Container main-container for pod default/mypod failed with exit code 1 matching FailJob rule at index 0"},
		{"second jobfail rule matched for exit codes", rules(exits("Count", "In", 1, 2, 3), exits("FailJob", "In", 4, 5, 6)),
			withExits(exited("main-container", 6)), actionFailJob,
			"Container main-container for pod default/mypod failed with exit code 6 matching FailJob rule at index 1"},
		{"count rule matched for exit codes", rules(exits("Count", "In", 1, 2, 3)), withExits(api.ContainerStatus{Name: "foo"}, exited("bar", 2)), actionCount, ""},
		{"FailIndex rule matched for pod conditions", rules(onCond("FailIndex", "DisruptionTarget", tr)), withCondition(tr), actionCount, ""},
		{"ignore rule matched for pod conditions", rules(onCond("Ignore", "DisruptionTarget", tr)), withCondition(tr), actionIgnore, ""},
		{"ignore rule matches by the status=False", rules(onCond("Ignore", "DisruptionTarget", fa)), withCondition(fa), actionIgnore, ""},
		{"ignore rule matches by the status=Unknown", rules(onCond("Ignore", "DisruptionTarget", un)), withCondition(un), actionIgnore, ""},
		{"ignore rule does not match when status for pattern is False, but actual True", rules(onCond("Ignore", "DisruptionTarget", fa)), withCondition(tr), actionCount, ""},
		{"ignore rule does not match when status for pattern is True, but actual False", rules(onCond("Ignore", "DisruptionTarget", tr)), withCondition(fa), actionCount, ""},
		{"default - do not match condition with status=False", rules(onCond("Ignore", "DisruptionTarget", tr)), withCondition(fa), actionCount, ""},
		{"job fail rule matched for pod conditions", rules(onCond("FailJob", "DisruptionTarget", tr)), withCondition(tr), actionFailJob,
			"Pod default/mypod has condition DisruptionTarget matching FailJob rule at index 0"},
		{"count rule matched for pod conditions", rules(onCond("Count", "DisruptionTarget", tr)), withCondition(tr), actionCount, ""},
		{"no rule matched", rules(exits("Count", "NotIn", 8), exits("Ignore", "In", 1, 2, 3), exits("FailJob", "NotIn", 5, 6, 7),
			onCond("Count", "ResourceLimitExceeded", tr), onCond("Ignore", "DisruptionTarget", tr)), withExits(exited("", 32)), actionCount, ""},
		{"expected matching rule returned", rules(onCond("FailJob", "MaxFailedIndexesExceeded", tr), onCond("Ignore", "DisruptionTarget", tr)),
			withCondition(tr), actionIgnore, ""},
		// Not upstream's rows: which container or condition a FailJob
		// message names when several match.
		{"regular containers are matched before init containers", rules(exits("FailJob", "In", 1, 2)),
			func() *api.Pod {
				p := withExits(exited("main-container", 2))
				p.Status.InitContainerStatuses = []api.ContainerStatus{exited("sidecar", 1)}
				return p
			}(), actionFailJob, "Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 0"},
		{"the pod's first matching condition is named, not the first pattern", &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{{Action: "FailJob",
			OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget", Status: tr}, {Type: "ResourceLimitExceeded", Status: tr}}}}},
			&api.Pod{ObjectMeta: meta, Status: api.PodStatus{Phase: api.PodFailed, Conditions: []api.PodCondition{
				{Type: "ResourceLimitExceeded", Status: tr}, {Type: "DisruptionTarget", Status: tr}}}}, actionFailJob,
			"Pod default/mypod has condition ResourceLimitExceeded matching FailJob rule at index 0"},
		{"a pattern without a status matches True (the API's default)", &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{{Action: "Ignore",
			OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget"}}}}}, withCondition(tr), actionIgnore, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, msg := matchPodFailurePolicy(tc.policy, tc.pod)
			if got != tc.want || msg != tc.msg {
				t.Errorf("action %v %q, want %v %q", got, msg, tc.want, tc.msg)
			}
		})
	}
}

// TestSucceededIndexesString follows upstream's orderedIntervals.String
// (indexed_job_utils.go at 78fc8e44) for the completedIndexes format:
// sorted, a run of three or more as "first-last", a run of two as two
// indexes. The rows with runs of two were "6-7" and "5-6" before; upstream
// writes "6,7" and "5,6".
func TestSucceededIndexesString(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		want string
	}{
		{nil, ""},
		{[]int{0}, "0"},
		{[]int{2, 0, 1}, "0-2"},
		{[]int{0, 2, 3, 4, 6, 7, 9}, "0,2-4,6,7,9"},
		{[]int{5, 5, 6}, "5,6"},
	} {
		if got := formatIndexes(tc.in); got != tc.want {
			t.Errorf("formatIndexes(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestCalculateSucceededIndexes ports upstream's table of the same name
// (indexed_job_utils_test.go at commit 4a37f009), every row: the indexes
// the Job's status.completedIndexes lists (wantStatus: upstream's
// wantStatusIntervals) joined with the valid indexes of its succeeded
// pods (want: wantIntervals), each written as completedIndexes.
func TestCalculateSucceededIndexes(t *testing.T) {
	type ip struct {
		index string // "-" for no annotation
		phase api.PodPhase
	}
	tests := []struct {
		name        string
		prev        string
		pods        []ip
		completions int32
		wantStatus  string
		want        string
	}{
		{name: "one index", pods: []ip{{"1", api.PodSucceeded}}, completions: 2, want: "1"},
		{name: "two separate", pods: []ip{{"2", api.PodFailed}, {"5", api.PodSucceeded}, {"5", api.PodSucceeded}, {"10", api.PodFailed}, {"10", api.PodSucceeded}},
			completions: 11, want: "5,10"},
		{name: "two intervals", pods: []ip{{"0", api.PodRunning}, {"1", api.PodPending}, {"2", api.PodSucceeded}, {"3", api.PodSucceeded},
			{"5", api.PodSucceeded}, {"6", api.PodSucceeded}, {"7", api.PodSucceeded}}, completions: 8, want: "2,3,5-7"},
		{name: "one index and one interval", pods: []ip{{"0", api.PodSucceeded}, {"1", api.PodFailed}, {"2", api.PodSucceeded}, {"3", api.PodSucceeded},
			{"4", api.PodSucceeded}, {"5", api.PodSucceeded}, {"-", api.PodSucceeded}, {"-2", api.PodSucceeded}}, completions: 6, want: "0,2-5"},
		{name: "out of range", pods: []ip{{"0", api.PodSucceeded}, {"1", api.PodSucceeded}, {"2", api.PodSucceeded}, {"3", api.PodFailed},
			{"4", api.PodSucceeded}, {"5", api.PodSucceeded}, {"-", api.PodSucceeded}, {"-2", api.PodSucceeded}}, completions: 5, want: "0-2,4"},
		{name: "prev interval out of range", prev: "0-5,8-10", completions: 8, wantStatus: "0-5", want: "0-5"},
		{name: "prev interval partially out of range", prev: "0-5,8-10", completions: 10, wantStatus: "0-5,8,9", want: "0-5,8,9"},
		{name: "prev and new separate", prev: "0,4,5,10-12", pods: []ip{{"2", api.PodSucceeded}, {"7", api.PodSucceeded}, {"8", api.PodSucceeded}},
			completions: 13, wantStatus: "0,4,5,10-12", want: "0,2,4,5,7,8,10-12"},
		{name: "prev between new", prev: "3,4,6", pods: []ip{{"2", api.PodSucceeded}, {"7", api.PodSucceeded}, {"8", api.PodSucceeded}},
			completions: 9, wantStatus: "3,4,6", want: "2-4,6-8"},
		{name: "new between prev", prev: "2,7,8", pods: []ip{{"3", api.PodSucceeded}, {"4", api.PodSucceeded}, {"6", api.PodSucceeded}},
			completions: 9, wantStatus: "2,7,8", want: "2-4,6-8"},
		{name: "new within prev", prev: "2-7", pods: []ip{{"0", api.PodSucceeded}, {"3", api.PodSucceeded}, {"5", api.PodSucceeded}, {"9", api.PodSucceeded}},
			completions: 10, wantStatus: "2-7", want: "0,2-7,9"},
		{name: "corrupted interval", prev: "0,1-foo,bar", pods: []ip{{"3", api.PodSucceeded}}, completions: 4, wantStatus: "0", want: "0,3"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j := &api.Job{Spec: api.JobSpec{Completions: &tc.completions}, Status: api.JobStatus{CompletedIndexes: tc.prev}}
			var succeeded []*api.Pod
			for _, p := range tc.pods {
				pod := &api.Pod{Status: api.PodStatus{Phase: p.phase}}
				if p.index != "-" {
					pod.Annotations = map[string]string{api.JobCompletionIndexAnnotation: p.index}
				}
				if p.phase == api.PodSucceeded {
					succeeded = append(succeeded, pod)
				}
			}
			if got := formatIndexes(parseIndexes(tc.prev, int(tc.completions))); got != tc.wantStatus {
				t.Errorf("completedIndexes from the status %q, want %q", got, tc.wantStatus)
			}
			if got := formatIndexes(succeededIndexes(j, succeeded)); got != tc.want {
				t.Errorf("completedIndexes %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFinishedCondition is upstream's table of the same name (k/k
// pkg/controller/job/util/utils_test.go at 518f7b95), row by row, run on
// api.Job.Finished, the controllers' FinishedCondition; its last column is
// IsJobSucceeded's (TestIsJobSucceeded's rows are among these).
func TestFinishedCondition(t *testing.T) {
	c := func(typ string, st api.ConditionStatus) api.JobCondition {
		return api.JobCondition{Type: typ, Status: st}
	}
	for _, tc := range []struct {
		name       string
		conditions []api.JobCondition
		finished   bool
		condition  string
	}{
		{"Job doesn't have any conditions", nil, false, ""},
		{"Job is completed and condition is true", []api.JobCondition{c(api.JobComplete, api.ConditionTrue)}, true, api.JobComplete},
		{"Job is completed and condition is false", []api.JobCondition{c(api.JobComplete, api.ConditionFalse)}, false, ""},
		{"Job is completed and condition is unknown", []api.JobCondition{c(api.JobComplete, api.ConditionUnknown)}, false, ""},
		{"Job has multiple conditions, one of them being complete and condition true",
			[]api.JobCondition{c(api.JobSuspended, api.ConditionFalse), c(api.JobComplete, api.ConditionTrue), c(api.JobFailed, api.ConditionFalse)}, true, api.JobComplete},
		{"Job is failed and condition is true", []api.JobCondition{c(api.JobFailed, api.ConditionTrue)}, true, api.JobFailed},
		{"Job is failed and condition is false", []api.JobCondition{c(api.JobFailed, api.ConditionFalse)}, false, ""},
		{"Job is failed and condition is unknown", []api.JobCondition{c(api.JobFailed, api.ConditionUnknown)}, false, ""},
		{"Job has multiple conditions, none of them has condition true",
			[]api.JobCondition{c(api.JobSuspended, api.ConditionFalse), c(api.JobComplete, api.ConditionFalse), c(api.JobFailed, api.ConditionFalse)}, false, ""},
		{"job has Complete=False condition (TestIsJobSucceeded)", []api.JobCondition{c(api.JobFailed, api.ConditionTrue), c(api.JobComplete, api.ConditionFalse)}, true, api.JobFailed},
	} {
		j := &api.Job{Status: api.JobStatus{Conditions: tc.conditions}}
		if finished, cond := j.Finished(); finished != tc.finished || cond != tc.condition {
			t.Errorf("%s: finished %v %q, want %v %q", tc.name, finished, cond, tc.finished, tc.condition)
		}
	}
}

// TestFirstPendingIndexes, TestAppendDuplicatedIndexPodsForRemoval and
// TestPodGenerateNameWithIndex port upstream's tables of the same names
// (indexed_job_utils_test.go at commit 4a37f009) onto pendingIndexes,
// activePodsForRemoval (with nothing more to remove than the
// duplicates) and podGenerateNameWithIndex. TestFirstPendingIndexes'
// "with failed indexes" row is not ported: backoffLimitPerIndex is not
// simulated. The generateName rows failed before: an Indexed Job's pods
// were named "<job>-<index>-" whatever the Job's length, so the store cut
// the index off a long one's pod names (upstream cuts the Job's name).
func TestFirstPendingIndexes(t *testing.T) {
	tests := map[string]struct {
		cnt         int
		completions int32
		active      []indexPhase
		succeeded   []int
		want        []int
	}{
		"cnt greater than completions": {cnt: 5, completions: 3, want: []int{0, 1, 2}},
		"cnt less than completions":    {cnt: 2, completions: 5, want: []int{0, 1}},
		"first pods active": {active: []indexPhase{{"0", api.PodRunning}, {"1", api.PodPending}},
			cnt: 3, completions: 10, want: []int{2, 3, 4}},
		"last pods active or succeeded": {active: []indexPhase{{"6", api.PodPending}}, succeeded: []int{4, 5},
			cnt: 6, completions: 6, want: []int{0, 1, 2, 3}},
		"mixed": {active: []indexPhase{{"3", api.PodPending}, {"5", api.PodRunning}, {"8", api.PodPending}, {noIndex, api.PodRunning}, {"-3", api.PodRunning}},
			succeeded: []int{2, 3, 4, 9}, cnt: 5, completions: 20, want: []int{0, 1, 6, 7, 10}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := pendingIndexes(tc.completions, tc.succeeded, hollowPods(tc.active), tc.cnt); !slices.Equal(got, tc.want) {
				t.Errorf("pending indexes %v, want %v", got, tc.want)
			}
		})
	}
}

// noIndex is upstream's: a pod without the completion index annotation.
const noIndex = "-"

// hollowPods is upstream's hollowPodsWithIndexPhase.
func hollowPods(descs []indexPhase) []*api.Pod {
	var pods []*api.Pod
	for _, d := range descs {
		p := &api.Pod{Status: api.PodStatus{Phase: d.phase}}
		if d.index != noIndex {
			p.Annotations = map[string]string{api.JobCompletionIndexAnnotation: d.index}
		}
		pods = append(pods, p)
	}
	return pods
}

func TestAppendDuplicatedIndexPodsForRemoval(t *testing.T) {
	tests := map[string]struct {
		pods, wantRm []indexPhase
	}{
		"all unique": {
			pods:   []indexPhase{{noIndex, api.PodPending}, {"2", api.PodPending}, {"5", api.PodRunning}, {"6", api.PodRunning}},
			wantRm: []indexPhase{{noIndex, api.PodPending}, {"6", api.PodRunning}},
		},
		"all with index": {
			pods: []indexPhase{{"5", api.PodPending}, {"0", api.PodRunning}, {"3", api.PodPending}, {"0", api.PodRunning},
				{"3", api.PodRunning}, {"0", api.PodPending}, {"6", api.PodRunning}, {"6", api.PodPending}},
			wantRm: []indexPhase{{"0", api.PodPending}, {"0", api.PodRunning}, {"3", api.PodPending}, {"6", api.PodRunning}, {"6", api.PodPending}},
		},
		"mixed": {
			pods: []indexPhase{{noIndex, api.PodPending}, {"invalid", api.PodRunning}, {"-2", api.PodRunning}, {"0", api.PodPending},
				{"1", api.PodPending}, {"1", api.PodPending}, {"1", api.PodRunning}},
			wantRm: []indexPhase{{noIndex, api.PodPending}, {"invalid", api.PodRunning}, {"-2", api.PodRunning}, {"1", api.PodPending}, {"1", api.PodPending}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			j := newJob(1, 6, 1, api.IndexedCompletion)
			var got []indexPhase
			for _, p := range activePodsForRemoval(j, hollowPods(tc.pods), 0) {
				ix, ok := p.Annotations[api.JobCompletionIndexAnnotation]
				if !ok {
					ix = noIndex
				}
				got = append(got, indexPhase{ix, p.Status.Phase})
			}
			if !slices.Equal(got, tc.wantRm) {
				t.Errorf("removed %v, want %v", got, tc.wantRm)
			}
		})
	}
}

func TestPodGenerateNameWithIndex(t *testing.T) {
	tests := map[string]struct {
		job  string
		want string
	}{
		"short job name": {"indexed-job", "indexed-job-1-"},
		"job name exceeds MaxGeneneratedNameLength": {"hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooo",
			"hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-"},
		"job name with index suffix exceeds MaxGeneratedNameLength": {"hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhoo",
			"hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := podGenerateNameWithIndex(tc.job, 1); got != tc.want {
				t.Errorf("generateName %q, want %q", got, tc.want)
			}
		})
	}
}
