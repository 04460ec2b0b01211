package job

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// Upstream's constants (k/k pkg/controller/job/job_controller.go).
const (
	// DefaultJobPodFailureBackOff is the first back-off after a failure.
	DefaultJobPodFailureBackOff = 10 * time.Second
	// MaxJobPodFailureBackOff caps the back-off.
	MaxJobPodFailureBackOff = 10 * time.Minute
	// MaxPodCreateDeletePerSync caps the pods created or deleted in one
	// sync.
	MaxPodCreateDeletePerSync = 500
)

// Condition reasons and messages (k/k pkg/controller/job/job_controller.go,
// k8s.io/api batch/v1 types.go).
const (
	ReasonBackoffLimitExceeded = "BackoffLimitExceeded"
	MsgBackoffLimitExceeded    = "Job has reached the specified backoff limit"
	ReasonDeadlineExceeded     = "DeadlineExceeded"
	MsgDeadlineExceeded        = "Job was active longer than specified deadline"
	ReasonPodFailurePolicy     = "PodFailurePolicy"
	ReasonCompletionsReached   = "CompletionsReached"
	MsgCompletionsReached      = "Reached expected number of succeeded pods"
)

// finishedTime is when a terminal pod finished (upstream's
// getFinishedTime): the latest finish time of its containers (regular
// ones, then sidecars: init containers with restartPolicy Always, which
// stop after the regular ones) when every one of them terminated, else
// the Ready=False condition's transition, else the deletion time less the
// grace period, else the creation time.
func finishedTime(p *api.Pod) time.Time {
	if t, ok := containersFinishTime(p); ok {
		return t
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			if c.Status == api.ConditionFalse && !c.LastTransitionTime.IsZero() {
				return c.LastTransitionTime.Time
			}
			break
		}
	}
	if p.DeletionTimestamp != nil {
		grace := int64(0)
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds
		}
		return p.DeletionTimestamp.Time.Add(-time.Duration(grace) * time.Second)
	}
	return p.CreationTimestamp.Time
}

// containersFinishTime is upstream's getFinishTimeFromContainers: the
// latest finish of the regular containers, then carried through the
// sidecars' statuses; a container of either list not terminated (or
// without a finish time) drops what was found so far, as upstream's
// latestFinishTime does, so that sidecars alone may still give a time.
func containersFinishTime(p *api.Pod) (time.Time, bool) {
	latest, ok := latestFinishTime(time.Time{}, false, p.Status.ContainerStatuses, nil)
	isSidecar := func(name string) bool {
		for i := range p.Spec.InitContainers {
			c := &p.Spec.InitContainers[i]
			if c.Name == name && c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways {
				return true
			}
		}
		return false
	}
	return latestFinishTime(latest, ok, p.Status.InitContainerStatuses, isSidecar)
}

// latestFinishTime is upstream's: the latest of prev (when ok) and the
// finish times of the statuses check accepts (all when check is nil), or
// false when one of those has not terminated.
func latestFinishTime(prev time.Time, ok bool, statuses []api.ContainerStatus, check func(name string) bool) (time.Time, bool) {
	for _, cs := range statuses {
		if check != nil && !check(cs.Name) {
			continue
		}
		t := cs.State.Terminated
		if t == nil || t.FinishedAt.IsZero() {
			return time.Time{}, false
		}
		if !ok || prev.Before(t.FinishedAt.Time) {
			prev, ok = t.FinishedAt.Time, true
		}
	}
	return prev, ok
}

// backoff is upstream's backoffRecord, computed from every finished pod
// at once (newBackoffRecord applied to the whole history): the failures
// that finished after the last success, and the last of them.
type backoff struct {
	failuresAfterLastSuccess int32
	lastFailureTime          *time.Time
}

// newBackoff computes the back-off record of a Job's finished pods.
func newBackoff(succeeded, failed []*api.Pod) backoff {
	var lastSuccess time.Time
	for _, p := range succeeded {
		if t := finishedTime(p); t.After(lastSuccess) {
			lastSuccess = t
		}
	}
	var b backoff
	for _, p := range failed {
		t := finishedTime(p)
		if len(succeeded) > 0 && !t.After(lastSuccess) {
			continue
		}
		b.failuresAfterLastSuccess++
		if b.lastFailureTime == nil || t.After(*b.lastFailureTime) {
			b.lastFailureTime = &t
		}
	}
	return b
}

// remaining is how long to wait before creating a replacement pod
// (upstream's getRemainingTimeForFailuresCount): base doubled per failure
// after the first, capped at max, less the time since the last failure.
func (b backoff) remaining(now time.Time, base, max time.Duration) time.Duration {
	if b.failuresAfterLastSuccess == 0 || b.lastFailureTime == nil {
		return 0
	}
	d := base
	for i := 1; i < int(b.failuresAfterLastSuccess); i++ {
		d *= 2
		if d >= max {
			d = max
			break
		}
	}
	elapsed := now.Sub(*b.lastFailureTime)
	if d < elapsed {
		return 0
	}
	return d - elapsed
}

// policyAction is what a pod failure policy decides for one failed pod.
type policyAction int

const (
	// actionCount counts the failure (no rule matched, or a Count rule).
	actionCount policyAction = iota
	// actionIgnore does not count it.
	actionIgnore
	// actionFailJob fails the Job.
	actionFailJob
)

// matchPodFailurePolicy evaluates policy's rules in order against a
// failed pod (upstream's matchPodFailurePolicy in pod_failure_policy.go):
// the first matching rule with a known action decides (a rule with an
// unknown action is skipped); a FailJob rule also gives the Job's failure
// message. FailIndex counts the failure, as upstream does; the index's
// own failure (backoffLimitPerIndex) is not simulated.
func matchPodFailurePolicy(policy *api.PodFailurePolicy, p *api.Pod) (policyAction, string) {
	if policy == nil {
		return actionCount, ""
	}
	for i, rule := range policy.Rules {
		if req := rule.OnExitCodes; req != nil {
			if cs := matchExitCodes(req, p); cs != nil {
				switch rule.Action {
				case "Ignore":
					return actionIgnore, ""
				case "FailJob":
					return actionFailJob, fmt.Sprintf("Container %s for pod %s/%s failed with exit code %v matching %v rule at index %d",
						cs.Name, p.Namespace, p.Name, cs.State.Terminated.ExitCode, rule.Action, i)
				case "Count", "FailIndex":
					return actionCount, ""
				}
				// An unknown action: the rule is skipped.
			}
			continue
		}
		if c := matchOnPodConditions(p, rule.OnPodConditions); c != nil {
			switch rule.Action {
			case "Ignore":
				return actionIgnore, ""
			case "FailJob":
				return actionFailJob, fmt.Sprintf("Pod %s/%s has condition %v matching %v rule at index %d",
					p.Namespace, p.Name, c.Type, rule.Action, i)
			case "Count", "FailIndex":
				return actionCount, ""
			}
		}
	}
	return actionCount, ""
}

// matchOnPodConditions returns the first of p's conditions (in the pod's
// order) that one of patterns matches by type and status (an empty
// status is True, the API's default), or nil (upstream's
// matchOnPodConditions).
func matchOnPodConditions(p *api.Pod, patterns []api.PodFailurePolicyOnPodConditionsPattern) *api.PodCondition {
	for i := range p.Status.Conditions {
		c := &p.Status.Conditions[i]
		for _, pat := range patterns {
			status := pat.Status
			if status == "" {
				status = api.ConditionTrue
			}
			if string(c.Type) == pat.Type && c.Status == status {
				return c
			}
		}
	}
	return nil
}

// matchExitCodes returns the first container of p that terminated with a
// non-zero code req matches, regular containers before init containers,
// or nil (upstream's matchOnExitCodes).
func matchExitCodes(req *api.PodFailurePolicyOnExitCodesRequirement, p *api.Pod) *api.ContainerStatus {
	for _, list := range [][]api.ContainerStatus{p.Status.ContainerStatuses, p.Status.InitContainerStatuses} {
		for i := range list {
			cs := &list[i]
			t := cs.State.Terminated
			if t == nil || t.ExitCode == 0 {
				continue
			}
			if req.ContainerName != nil && *req.ContainerName != cs.Name {
				continue
			}
			if exitCodeMatches(t.ExitCode, req) {
				return cs
			}
		}
	}
	return nil
}

// exitCodeMatches is upstream's isOnExitCodesOperatorMatching: In and
// NotIn; any other operator matches nothing.
func exitCodeMatches(code int32, req *api.PodFailurePolicyOnExitCodesRequirement) bool {
	switch req.Operator {
	case "In":
		return slices.Contains(req.Values, code)
	case "NotIn":
		return !slices.Contains(req.Values, code)
	}
	return false
}

// formatIndexes writes a set of indexes as upstream's completedIndexes
// (orderedIntervals.String): sorted, a run of three or more consecutive
// indexes as "first-last", a run of two as "first,last" ("0-2,4,5,7").
func formatIndexes(idx []int) string {
	slices.Sort(idx)
	idx = slices.Compact(idx)
	var parts []string
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		switch j - i {
		case 0:
			parts = append(parts, strconv.Itoa(idx[i]))
		case 1:
			parts = append(parts, strconv.Itoa(idx[i]), strconv.Itoa(idx[j]))
		default:
			parts = append(parts, strconv.Itoa(idx[i])+"-"+strconv.Itoa(idx[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// podIndex returns an Indexed Job pod's completion index, or -1.
func podIndex(p *api.Pod) int {
	v, ok := p.Annotations[api.JobCompletionIndexAnnotation]
	if !ok {
		return -1
	}
	i, err := strconv.Atoi(v)
	if err != nil || i < 0 {
		return -1
	}
	return i
}

// validIndex: p carries a completion index below the Job's completions.
func validIndex(j *api.Job, p *api.Pod) bool {
	i := podIndex(p)
	return i >= 0 && j.Spec.Completions != nil && i < int(*j.Spec.Completions)
}

// succeededIndexes returns the indexes an Indexed Job has completed,
// sorted and distinct (upstream's calculateSucceededIndexes): those its
// status.completedIndexes already lists, below completions, and the valid
// indexes of its succeeded pods. An index stays completed when its pod is
// gone.
func succeededIndexes(j *api.Job, succeeded []*api.Pod) []int {
	completions := 0
	if j.Spec.Completions != nil {
		completions = int(*j.Spec.Completions)
	}
	idx := parseIndexes(j.Status.CompletedIndexes, completions)
	for _, p := range succeeded {
		if validIndex(j, p) {
			idx = append(idx, podIndex(p))
		}
	}
	slices.Sort(idx)
	return slices.Compact(idx)
}

// parseIndexes reads a completedIndexes string ("0-2,4,5") into its
// indexes below completions, as upstream's parseIndexesFromString: an
// interval that does not parse is skipped, parsing stops at the first
// interval starting at or past completions, and an interval running past
// it is cut.
func parseIndexes(s string, completions int) []int {
	if s == "" {
		return nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		limits := strings.Split(part, "-")
		first, err := strconv.Atoi(limits[0])
		if err != nil {
			continue
		}
		if first >= completions {
			break
		}
		last := first
		if len(limits) > 1 {
			if last, err = strconv.Atoi(limits[1]); err != nil {
				continue
			}
			last = min(last, completions-1)
		}
		for i := first; i <= last; i++ {
			out = append(out, i)
		}
	}
	return out
}

// restartsOf sums the container restarts (init containers included) of
// the pods Running or Pending, as upstream's pastBackoffLimitOnFailure
// counts them for restartPolicy OnFailure: an active pod of another phase
// (Unknown, or none yet) does not count.
func restartsOf(pods []*api.Pod) int32 {
	var n int32
	for _, p := range pods {
		if p.Status.Phase != api.PodRunning && p.Status.Phase != api.PodPending {
			continue
		}
		for _, cs := range p.Status.InitContainerStatuses {
			n += cs.RestartCount
		}
		for _, cs := range p.Status.ContainerStatuses {
			n += cs.RestartCount
		}
	}
	return n
}
