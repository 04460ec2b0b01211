package replicaset

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// PodDeletionCostAnnotation ranks the pods of one ReplicaSet for scale
// down: pods with a lower cost are deleted first (an int32; absent means
// 0). It is core.PodDeletionCost upstream.
const PodDeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"

// ErrInvalidDeletionCost is returned (wrapped) by DeletionCost for an
// annotation that is not a canonical int32.
var ErrInvalidDeletionCost = errors.New("invalid pod deletion cost")

// IsPodActive reports whether p counts towards its controller's replicas:
// not Succeeded, not Failed and not being deleted (k/k controller_utils.go
// IsPodActive). Terminating pods are not active, so a ReplicaSet replaces
// them at once.
func IsPodActive(p *api.Pod) bool {
	return p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed && p.DeletionTimestamp == nil
}

// IsPodTerminating reports whether p is being deleted and has not
// finished: it has a deletionTimestamp and is neither Succeeded nor Failed
// (the pods status.terminatingReplicas counts; k/k FilterTerminatingPods).
func IsPodTerminating(p *api.Pod) bool {
	return p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed
}

// FilterActivePods returns the pods of pods that IsPodActive, in order.
func FilterActivePods(pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// FilterTerminatingPods returns the pods of pods that IsPodTerminating, in
// order.
func FilterTerminatingPods(pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if IsPodTerminating(p) {
			out = append(out, p)
		}
	}
	return out
}

// readyCondition returns the pod's Ready condition, or nil.
func readyCondition(s *api.PodStatus) *api.PodCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == api.PodReady {
			return &s.Conditions[i]
		}
	}
	return nil
}

// IsPodAvailable reports whether p is ready and has been ready for at
// least minReadySeconds at now, judged by the lastTransitionTime of its
// Ready condition: available from lastTransitionTime + minReadySeconds
// on, that instant included (k/k pkg/api/v1/pod/util.go IsPodAvailable
// as the ReplicaSet controller uses it since kubernetes/kubernetes PR
// #132121, in 1.34, which schedules the availability check at exactly
// that instant; kubectl's own copy, pkg/util/podutils, still compares
// strictly). With minReadySeconds 0 every ready pod is available; a ready
// pod without a transition time is never available otherwise.
func IsPodAvailable(p *api.Pod, minReadySeconds int32, now time.Time) bool {
	if !api.IsPodReady(p) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	c := readyCondition(&p.Status)
	return !c.LastTransitionTime.IsZero() &&
		!c.LastTransitionTime.Add(time.Duration(minReadySeconds)*time.Second).After(now)
}

// nextAvailabilityCheck is upstream's nextPodAvailabilityCheck (k/k
// pkg/controller/controller_utils.go): how long after now a ready pod
// becomes available, or false when it is not ready, has no transition
// time, or is available already.
func nextAvailabilityCheck(p *api.Pod, minReadySeconds int32, now time.Time) (time.Duration, bool) {
	if minReadySeconds <= 0 || !api.IsPodReady(p) {
		return 0, false
	}
	c := readyCondition(&p.Status)
	if c.LastTransitionTime.IsZero() {
		return 0, false
	}
	next := c.LastTransitionTime.Add(time.Duration(minReadySeconds) * time.Second).Sub(now)
	return next, next > 0
}

// NextAvailabilityCheck is upstream's FindMinNextPodAvailabilityCheck:
// when the earliest of pods (judged at evaluated, when the owner's status
// was computed) becomes available, counted from the clock's now; 0 when
// that pod is available by now already; false when no pod is waiting.
func NextAvailabilityCheck(pods []*api.Pod, minReadySeconds int32, evaluated, now time.Time) (time.Duration, bool) {
	var first *api.Pod
	var soonest time.Duration
	for _, p := range pods {
		if d, ok := nextAvailabilityCheck(p, minReadySeconds, evaluated); ok && (first == nil || d < soonest) {
			first, soonest = p, d
		}
	}
	if first == nil {
		return 0, false
	}
	d, ok := nextAvailabilityCheck(first, minReadySeconds, now)
	if !ok {
		return 0, true
	}
	return d, true
}

// podReadyTime is the time p last became ready, or the zero time.
func podReadyTime(p *api.Pod) time.Time {
	if c := readyCondition(&p.Status); c != nil && c.Status == api.ConditionTrue {
		return c.LastTransitionTime.Time
	}
	return time.Time{}
}

// DeletionCost returns the pod deletion cost in annotations: 0 when the
// annotation is absent or invalid (then with an error wrapping
// ErrInvalidDeletionCost). Like upstream, a leading "+" or leading zeros
// are invalid.
func DeletionCost(annotations map[string]string) (int32, error) {
	v, ok := annotations[PodDeletionCostAnnotation]
	if !ok {
		return 0, nil
	}
	if v == "" || !(v[0] == '-' || v == "0" || (v[0] >= '1' && v[0] <= '9')) {
		return 0, fmt.Errorf("%w: %q", ErrInvalidDeletionCost, v)
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%w: %q: %v", ErrInvalidDeletionCost, v, err)
	}
	return int32(n), nil
}

// phaseOrdinal orders phases for scale down: Pending before Unknown before
// Running (any other phase counts as Pending).
func phaseOrdinal(p api.PodPhase) int {
	switch p {
	case api.PodUnknown:
		return 1
	case api.PodRunning:
		return 2
	}
	return 0
}

// ActivePodsWithRanks sorts pods so that those to delete first come first
// (k/k controller_utils.go ActivePodsWithRanks, with PodDeletionCost and
// LogarithmicScaleDown on, their default). Pod i is deleted before pod j
// when, in this order of precedence:
//
//  1. i is not bound to a node and j is;
//  2. i's phase is earlier: Pending < Unknown < Running;
//  3. i is not ready and j is;
//  4. i has a lower pod-deletion-cost annotation;
//  5. i has a higher Rank (more related pods on its node);
//  6. both are ready and i became ready more recently (times compared on a
//     log2 scale of their age at Now; ties on that scale go by UID);
//  7. i has more container restarts (regular containers, then sidecars);
//  8. i was created more recently (log2 scale, then UID, as in 6).
//
// A zero time counts as the most recent. With a zero Now, times are
// compared exactly.
type ActivePodsWithRanks struct {
	// Pods are the pods to sort.
	Pods []*api.Pod
	// Rank is a rank per pod, typically the number of active related pods
	// on the same node; same length as Pods.
	Rank []int
	// Now is the reference instant for the logarithmic comparisons.
	Now time.Time
}

// Len returns the number of pods.
func (s ActivePodsWithRanks) Len() int { return len(s.Pods) }

// Swap swaps pods i and j and their ranks.
func (s ActivePodsWithRanks) Swap(i, j int) {
	s.Pods[i], s.Pods[j] = s.Pods[j], s.Pods[i]
	s.Rank[i], s.Rank[j] = s.Rank[j], s.Rank[i]
}

// Less reports whether pod i should be deleted before pod j.
func (s ActivePodsWithRanks) Less(i, j int) bool {
	return lessActive(s.Pods[i], s.Pods[j], true, s.Rank[i], s.Rank[j], s.Now)
}

// ActivePods sorts pods least advanced first, in upstream's
// controller.ActivePods order (k/k controller_utils.go): the order of
// ActivePodsWithRanks without its steps 4 and 5 (deletion cost and rank),
// ready and creation times compared exactly. The Job controller deletes
// its surplus pods in this order.
type ActivePods []*api.Pod

// Len returns the number of pods.
func (s ActivePods) Len() int { return len(s) }

// Swap swaps pods i and j.
func (s ActivePods) Swap(i, j int) { s[i], s[j] = s[j], s[i] }

// Less reports whether pod i is less advanced than pod j.
func (s ActivePods) Less(i, j int) bool { return lessActive(s[i], s[j], false, 0, 0, time.Time{}) }

// lessActive is the comparison of ActivePodsWithRanks (ranked) and of
// ActivePods (not ranked: no deletion cost, no rank, and a zero now).
func lessActive(pi, pj *api.Pod, ranked bool, ranki, rankj int, now time.Time) bool {
	// 1. Unassigned < assigned.
	if pi.Spec.NodeName != pj.Spec.NodeName && (pi.Spec.NodeName == "" || pj.Spec.NodeName == "") {
		return pi.Spec.NodeName == ""
	}
	// 2. Pending < Unknown < Running.
	if oi, oj := phaseOrdinal(pi.Status.Phase), phaseOrdinal(pj.Status.Phase); oi != oj {
		return oi < oj
	}
	// 3. Not ready < ready.
	ri, rj := api.IsPodReady(pi), api.IsPodReady(pj)
	if ri != rj {
		return !ri
	}
	if ranked {
		// 4. Lower pod-deletion-cost < higher.
		ci, _ := DeletionCost(pi.Annotations)
		cj, _ := DeletionCost(pj.Annotations)
		if ci != cj {
			return ci < cj
		}
		// 5. Doubled up < not doubled up.
		if ranki != rankj {
			return ranki > rankj
		}
	}
	// 6. Ready for a shorter time < longer.
	if ri && rj {
		ti, tj := podReadyTime(pi), podReadyTime(pj)
		if !ti.Equal(tj) {
			return newerFirst(now, pi, pj, ti, tj)
		}
	}
	// 7. More restarts < fewer.
	if more, ok := compareRestarts(pi, pj); ok {
		return more
	}
	// 8. Newer < older.
	ti, tj := pi.CreationTimestamp.Time, pj.CreationTimestamp.Time
	if !ti.Equal(tj) {
		return newerFirst(now, pi, pj, ti, tj)
	}
	return false
}

// newerFirst orders two different instants for steps 6 and 8: on a log2
// scale of their age at now, ties by UID; exactly with a zero now.
func newerFirst(now time.Time, pi, pj *api.Pod, ti, tj time.Time) bool {
	if now.IsZero() || ti.IsZero() || tj.IsZero() {
		return afterOrZero(ti, tj)
	}
	if d := logRankDiff(ti, tj, now); d != 0 {
		return d < 0
	}
	return pi.UID < pj.UID
}

// afterOrZero reports whether t1 is after t2, a zero time being after
// every other.
func afterOrZero(t1, t2 time.Time) bool {
	if t1.IsZero() || t2.IsZero() {
		return t1.IsZero()
	}
	return t1.After(t2)
}

// logRankDiff compares the base-2 logarithms of the ages of t1 and t2 at
// now (in nanoseconds, truncated); a time not in the past ranks -1.
func logRankDiff(t1, t2, now time.Time) int64 {
	rank := func(t time.Time) int64 {
		if d := now.Sub(t); d > 0 {
			return int64(math.Log2(float64(d)))
		}
		return -1
	}
	return rank(t1) - rank(t2)
}

// maxRestarts returns the highest restart count of p's regular containers
// and of its sidecars (init containers with restartPolicy Always).
func maxRestarts(p *api.Pod) (regular, sidecar int32) {
	for _, c := range p.Status.ContainerStatuses {
		regular = max(regular, c.RestartCount)
	}
	sidecars := map[string]bool{}
	for _, c := range p.Spec.InitContainers {
		if c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways {
			sidecars[c.Name] = true
		}
	}
	for _, c := range p.Status.InitContainerStatuses {
		if sidecars[c.Name] {
			sidecar = max(sidecar, c.RestartCount)
		}
	}
	return regular, sidecar
}

// compareRestarts reports whether pi has more restarts than pj, and false
// as its second result when they have as many.
func compareRestarts(pi, pj *api.Pod) (more, differ bool) {
	ri, si := maxRestarts(pi)
	rj, sj := maxRestarts(pj)
	if ri != rj {
		return ri > rj, true
	}
	if si != sj {
		return si > sj, true
	}
	return false, false
}

// podKey is the expectations key of a pod, "namespace/name".
func podKey(p *api.Pod) string { return p.Namespace + "/" + p.Name }

// podKeys returns the keys of pods, in order.
func podKeys(pods []*api.Pod) []string {
	out := make([]string, 0, len(pods))
	for _, p := range pods {
		out = append(out, podKey(p))
	}
	return out
}
