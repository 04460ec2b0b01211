package replicaset

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// TestActivePodsWithRanks ports upstream's TestSortingActivePodsWithRanks
// (k/k controller_utils_test.go), with PodDeletionCost and
// LogarithmicScaleDown on (their defaults; the cases upstream runs with a
// gate off are left out).
func TestActivePodsWithRanks(t *testing.T) {
	now := testEpoch.Add(400 * 24 * time.Hour)
	then1Month := now.AddDate(0, -1, 0)
	then2Hours := now.Add(-2 * time.Hour)
	then5Hours := now.Add(-5 * time.Hour)
	then8Hours := now.Add(-8 * time.Hour)
	var zero time.Time
	pod := func(name, node string, phase api.PodPhase, ready bool, restarts int32, readySince, created time.Time, annotations map[string]string) *api.Pod {
		p := &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: name, UID: api.UID("uid-" + name), CreationTimestamp: api.NewTime(created), Annotations: annotations},
			Spec:       api.PodSpec{NodeName: node},
			Status:     api.PodStatus{Phase: phase},
		}
		if created.IsZero() {
			p.CreationTimestamp = api.Time{}
		}
		if ready {
			c := api.PodCondition{Type: api.PodReady, Status: api.ConditionTrue}
			if !readySince.IsZero() {
				c.LastTransitionTime = api.NewTime(readySince)
			}
			p.Status.Conditions = []api.PodCondition{c}
			p.Status.ContainerStatuses = []api.ContainerStatus{{RestartCount: restarts}}
		}
		return p
	}
	cost := func(v string) map[string]string { return map[string]string{PodDeletionCostAnnotation: v} }
	var (
		unscheduled         = pod("unscheduled", "", api.PodPending, false, 0, zero, zero, nil)
		scheduledPending    = pod("pending", "node", api.PodPending, false, 0, zero, zero, nil)
		unknownPhase        = pod("unknown-phase", "node", api.PodUnknown, false, 0, zero, zero, nil)
		runningNotReady     = pod("not-ready", "node", api.PodRunning, false, 0, zero, zero, nil)
		readyNoTransition   = pod("ready-no-last-transition-time", "node", api.PodRunning, true, 0, zero, zero, nil)
		readyNow            = pod("ready-now", "node", api.PodRunning, true, 0, now, now, nil)
		readyThen           = pod("ready-then", "node", api.PodRunning, true, 0, then1Month, then1Month, nil)
		readyNowHighRestart = pod("ready-high-restarts", "node", api.PodRunning, true, 9001, now, now, nil)
		readyNowCreatedThen = pod("ready-now-created-then", "node", api.PodRunning, true, 0, now, then1Month, nil)
		lowCost             = pod("low-deletion-cost", "node", api.PodRunning, true, 0, now, then1Month, cost("10"))
		highCost            = pod("high-deletion-cost", "node", api.PodRunning, true, 0, now, then1Month, cost("100"))
		unscheduled5Hours   = pod("unscheduled-5-hours", "", api.PodPending, false, 0, then5Hours, then5Hours, nil)
		unscheduled8Hours   = pod("unscheduled-10-hours", "", api.PodPending, false, 0, then8Hours, then8Hours, nil)
		ready2Hours         = pod("ready-2-hours", "", api.PodRunning, true, 0, then2Hours, then1Month, nil)
		ready5Hours         = pod("ready-5-hours", "", api.PodRunning, true, 0, then5Hours, then1Month, nil)
		ready8Hours         = pod("ready-10-hours", "", api.PodRunning, true, 0, then8Hours, then1Month, nil)
	)
	equal := []struct{ p1, p2 *api.Pod }{
		{p1: unscheduled},
		{p1: scheduledPending},
		{p1: unknownPhase},
		{p1: runningNotReady},
		{p1: readyNowCreatedThen},
		{p1: readyNow},
		{p1: readyThen},
		{p1: readyNowHighRestart},
		// 5h and 8h ago are both 2^44 ns ago on a log2 scale; pending pods
		// compare creation times, and these two have no UID order
		// between them once we give them the same UID below.
		{p1: unscheduled5Hours, p2: unscheduled8Hours},
		{p1: ready5Hours, p2: ready8Hours},
	}
	for i, tc := range equal {
		t.Run(fmt.Sprintf("equal/%d", i), func(t *testing.T) {
			p1, p2 := tc.p1, tc.p2
			if p2 == nil {
				p2 = p1
			} else {
				// Upstream's pods have no UIDs: equal log ranks tie.
				p1, p2 = p1.DeepCopy(), p2.DeepCopy()
				p1.UID, p2.UID = "", ""
			}
			s := ActivePodsWithRanks{Pods: []*api.Pod{p1, p2}, Rank: []int{1, 1}, Now: now}
			if s.Less(0, 1) || s.Less(1, 0) {
				t.Errorf("expected %q and %q to rank equal", p1.Name, p2.Name)
			}
		})
	}
	type ranked struct {
		pod  *api.Pod
		rank int
	}
	less := []struct{ lesser, greater ranked }{
		{ranked{unscheduled, 1}, ranked{scheduledPending, 2}},
		{ranked{unscheduled, 2}, ranked{scheduledPending, 1}},
		{ranked{scheduledPending, 1}, ranked{unknownPhase, 2}},
		{ranked{unknownPhase, 1}, ranked{runningNotReady, 2}},
		{ranked{runningNotReady, 1}, ranked{readyNoTransition, 1}},
		{ranked{readyNoTransition, 1}, ranked{readyNow, 1}},
		{ranked{readyNow, 2}, ranked{readyNoTransition, 1}},
		{ranked{readyNow, 1}, ranked{readyThen, 1}},
		{ranked{readyNow, 2}, ranked{readyThen, 1}},
		{ranked{readyNowHighRestart, 1}, ranked{readyNow, 1}},
		{ranked{readyNow, 2}, ranked{readyNowHighRestart, 1}},
		{ranked{readyNow, 1}, ranked{readyNowCreatedThen, 1}},
		{ranked{readyNowCreatedThen, 2}, ranked{readyNow, 1}},
		{ranked{lowCost, 2}, ranked{highCost, 1}},
		{ranked{ready2Hours, 1}, ranked{ready5Hours, 1}},
	}
	for i, tc := range less {
		t.Run(fmt.Sprintf("less/%d/%s<%s", i, tc.lesser.pod.Name, tc.greater.pod.Name), func(t *testing.T) {
			s := ActivePodsWithRanks{Pods: []*api.Pod{tc.lesser.pod, tc.greater.pod}, Rank: []int{tc.lesser.rank, tc.greater.rank}, Now: now}
			if !s.Less(0, 1) {
				t.Errorf("expected %q (rank %d) before %q (rank %d)", tc.lesser.pod.Name, tc.lesser.rank, tc.greater.pod.Name, tc.greater.rank)
			}
			if s.Less(1, 0) {
				t.Errorf("expected %q (rank %d) not before %q (rank %d)", tc.greater.pod.Name, tc.greater.rank, tc.lesser.pod.Name, tc.lesser.rank)
			}
		})
	}
}

// TestSortingActivePods ports upstream's TestSortingActivePods: the pods
// sorted by ActivePods from many shuffles of the input, so that the order
// does not depend on where pods start. ActivePodsWithRanks without ranks
// gives the same order.
func TestSortingActivePods(t *testing.T) {
	now := testEpoch.Add(400 * 24 * time.Hour)
	then := now.AddDate(0, -1, 0)
	ready := func(at time.Time, restarts ...int32) api.PodStatus {
		st := api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}}
		if !at.IsZero() {
			st.Conditions[0].LastTransitionTime = api.NewTime(at)
		}
		for _, r := range restarts {
			st.ContainerStatuses = append(st.ContainerStatuses, api.ContainerStatus{RestartCount: r})
		}
		return st
	}
	pods := []*api.Pod{
		{ObjectMeta: api.ObjectMeta{Name: "unscheduled"}, Status: api.PodStatus{Phase: api.PodPending}},
		{ObjectMeta: api.ObjectMeta{Name: "scheduledButPending"}, Spec: api.PodSpec{NodeName: "bar"}, Status: api.PodStatus{Phase: api.PodPending}},
		{ObjectMeta: api.ObjectMeta{Name: "unknownPhase"}, Spec: api.PodSpec{NodeName: "foo"}, Status: api.PodStatus{Phase: api.PodUnknown}},
		{ObjectMeta: api.ObjectMeta{Name: "runningButNotReady"}, Spec: api.PodSpec{NodeName: "foo"}, Status: api.PodStatus{Phase: api.PodRunning}},
		{ObjectMeta: api.ObjectMeta{Name: "runningNoLastTransitionTime"}, Spec: api.PodSpec{NodeName: "foo"}, Status: ready(time.Time{}, 3, 0)},
		{ObjectMeta: api.ObjectMeta{Name: "runningWithLastTransitionTime"}, Spec: api.PodSpec{NodeName: "foo"}, Status: ready(now, 3, 0)},
		{ObjectMeta: api.ObjectMeta{Name: "runningLongerTime"}, Spec: api.PodSpec{NodeName: "foo"}, Status: ready(then, 3, 0)},
		{ObjectMeta: api.ObjectMeta{Name: "lowerContainerRestartCount", CreationTimestamp: api.NewTime(now)}, Spec: api.PodSpec{NodeName: "foo"}, Status: ready(then, 2, 1)},
		{ObjectMeta: api.ObjectMeta{Name: "oldest", CreationTimestamp: api.NewTime(then)}, Spec: api.PodSpec{NodeName: "foo"}, Status: ready(then, 2, 1)},
	}
	var want []string
	for _, p := range pods {
		want = append(want, p.Name)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		shuffled := slices.Clone(pods)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		ranked := slices.Clone(shuffled)
		sort.Sort(ActivePods(shuffled))
		if got := names(shuffled); !slices.Equal(got, want) {
			t.Fatalf("ActivePods order\n got %v\nwant %v", got, want)
		}
		sort.Sort(ActivePodsWithRanks{Pods: ranked, Rank: make([]int, len(ranked)), Now: now})
		if got := names(ranked); !slices.Equal(got, want) {
			t.Fatalf("ActivePodsWithRanks order\n got %v\nwant %v", got, want)
		}
	}
}

func TestDeletionCost(t *testing.T) {
	tests := []struct {
		value   string
		absent  bool
		want    int32
		invalid bool
	}{
		{absent: true, want: 0},
		{value: "0", want: 0},
		{value: "10", want: 10},
		{value: "-7", want: -7},
		{value: "2147483647", want: 2147483647},
		{value: "-2147483648", want: -2147483648},
		{value: "+10", invalid: true},
		{value: "008", invalid: true},
		{value: "", invalid: true},
		{value: "ten", invalid: true},
		{value: "2147483648", invalid: true},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			var ann map[string]string
			if !tc.absent {
				ann = map[string]string{PodDeletionCostAnnotation: tc.value}
			}
			got, err := DeletionCost(ann)
			if tc.invalid != (err != nil) || (err != nil && !errors.Is(err, ErrInvalidDeletionCost)) {
				t.Fatalf("DeletionCost(%q) error %v, want invalid=%v", tc.value, err, tc.invalid)
			}
			if got != tc.want {
				t.Errorf("DeletionCost(%q) = %d, want %d", tc.value, got, tc.want)
			}
		})
	}
}

func TestIsPodAvailable(t *testing.T) {
	now := testEpoch.Add(time.Hour)
	readyAt := func(at time.Time) *api.Pod {
		p := &api.Pod{Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}}}
		if !at.IsZero() {
			p.Status.Conditions[0].LastTransitionTime = api.NewTime(at)
		}
		return p
	}
	notReady := &api.Pod{Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}}}
	tests := []struct {
		name     string
		pod      *api.Pod
		minReady int32
		want     bool
	}{
		{"not ready", notReady, 0, false},
		{"no conditions", &api.Pod{}, 0, false},
		{"ready, minReadySeconds 0", readyAt(now), 0, true},
		{"ready without transition time, minReadySeconds 1", readyAt(time.Time{}), 1, false},
		{"ready for exactly minReadySeconds", readyAt(now.Add(-10 * time.Second)), 10, true},
		{"ready for a nanosecond less than minReadySeconds", readyAt(now.Add(-10*time.Second + time.Nanosecond)), 10, false},
		{"ready for longer than minReadySeconds", readyAt(now.Add(-11 * time.Second)), 10, true},
		{"ready for less", readyAt(now.Add(-9 * time.Second)), 10, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsPodAvailable(tc.pod, tc.minReady, now); got != tc.want {
				t.Errorf("IsPodAvailable = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNextAvailabilityCheck checks when the ReplicaSet controller looks
// again for availability (upstream's FindMinNextPodAvailabilityCheck):
// at the earliest waiting pod's lastTransitionTime + minReadySeconds,
// counted from the clock's now; at once when that pod became available
// since the status was computed; never when no pod waits.
func TestNextAvailabilityCheck(t *testing.T) {
	evaluated := testEpoch.Add(time.Hour)
	readyAt := func(name string, at time.Time) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.PodStatus{Phase: api.PodRunning,
			Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.NewTime(at)}}}}
	}
	notReady := &api.Pod{Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionFalse}}}}
	tests := []struct {
		name     string
		pods     []*api.Pod
		minReady int32
		now      time.Time
		want     time.Duration
		wantOK   bool
	}{
		{"no pods", nil, 10, evaluated, 0, false},
		{"minReadySeconds 0", []*api.Pod{readyAt("a", evaluated)}, 0, evaluated, 0, false},
		{"not ready", []*api.Pod{notReady}, 10, evaluated, 0, false},
		{"ready just now", []*api.Pod{readyAt("a", evaluated)}, 10, evaluated, 10 * time.Second, true},
		{"the earliest of two", []*api.Pod{readyAt("a", evaluated), readyAt("b", evaluated.Add(-4*time.Second))}, 10, evaluated, 6 * time.Second, true},
		{"available already", []*api.Pod{readyAt("a", evaluated.Add(-10*time.Second))}, 10, evaluated, 0, false},
		{"counted from the clock's now", []*api.Pod{readyAt("a", evaluated)}, 10, evaluated.Add(250 * time.Millisecond), 9750 * time.Millisecond, true},
		{"available since the evaluation: at once", []*api.Pod{readyAt("a", evaluated.Add(-9*time.Second))}, 10, evaluated.Add(2 * time.Second), 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := NextAvailabilityCheck(tc.pods, tc.minReady, evaluated, tc.now)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("NextAvailabilityCheck = %v, %v; want %v, %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

// TestActiveAndTerminatingPods ports upstream's TestActivePodFiltering and
// TestCountTerminatingPods.
func TestActiveAndTerminatingPods(t *testing.T) {
	deleting := api.NewTime(testEpoch)
	pods := []*api.Pod{
		{ObjectMeta: api.ObjectMeta{Name: "succeeded"}, Status: api.PodStatus{Phase: api.PodSucceeded}},
		{ObjectMeta: api.ObjectMeta{Name: "failed"}, Status: api.PodStatus{Phase: api.PodFailed}},
		{ObjectMeta: api.ObjectMeta{Name: "pending-deleting", DeletionTimestamp: &deleting}, Status: api.PodStatus{Phase: api.PodPending}},
		{ObjectMeta: api.ObjectMeta{Name: "running-deleting", DeletionTimestamp: &deleting}, Status: api.PodStatus{Phase: api.PodRunning}},
		{ObjectMeta: api.ObjectMeta{Name: "failed-deleting", DeletionTimestamp: &deleting}, Status: api.PodStatus{Phase: api.PodFailed}},
		{ObjectMeta: api.ObjectMeta{Name: "running"}, Status: api.PodStatus{Phase: api.PodRunning}},
		{ObjectMeta: api.ObjectMeta{Name: "no-phase"}},
	}
	names := func(ps []*api.Pod) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return out
	}
	if got, want := names(FilterActivePods(pods)), []string{"running", "no-phase"}; !slices.Equal(got, want) {
		t.Errorf("active %v, want %v", got, want)
	}
	if got, want := names(FilterTerminatingPods(pods)), []string{"pending-deleting", "running-deleting"}; !slices.Equal(got, want) {
		t.Errorf("terminating %v, want %v", got, want)
	}
}

// TestGetPodsToDelete ports upstream's TestGetPodsToDelete
// (replica_set_test.go): unscheduled, then scheduled pending, then
// running not ready, then ready pods on crowded nodes go first.
func TestGetPodsToDelete(t *testing.T) {
	rs := newReplicaSet(1, map[string]string{"name": "foo"})
	withNode := func(p *api.Pod, node string, ready *api.ConditionStatus) *api.Pod {
		p.Spec.NodeName = node
		if ready != nil {
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: *ready}}
		}
		return p
	}
	f, tr := api.ConditionFalse, api.ConditionTrue
	unscheduledPending := newPod("unscheduled-pending-pod", rs, api.PodPending, nil, true)
	scheduledPending := withNode(newPod("scheduled-pending-pod", rs, api.PodPending, nil, true), "fake-node", nil)
	notReady := withNode(newPod("scheduled-running-not-ready-pod", rs, api.PodRunning, nil, true), "fake-node", &f)
	readyNode1 := withNode(newPod("scheduled-running-ready-pod-on-node-1", rs, api.PodRunning, nil, true), "fake-node-1", &tr)
	readyNode2 := withNode(newPod("scheduled-running-ready-pod-on-node-2", rs, api.PodRunning, nil, true), "fake-node-2", &tr)
	tests := []struct {
		name    string
		pods    []*api.Pod
		related []*api.Pod // nil means pods
		diff    int
		want    []*api.Pod
	}{
		{name: "len(pods) = 0 (i.e., diff = 0 too)", pods: []*api.Pod{}, diff: 0, want: []*api.Pod{}},
		{name: "diff = len(pods)", pods: []*api.Pod{notReady, readyNode1}, diff: 2, want: []*api.Pod{notReady, readyNode1}},
		{name: "diff < len(pods)", pods: []*api.Pod{readyNode1, notReady}, diff: 1, want: []*api.Pod{notReady}},
		{
			name: "various pod phases and conditions, diff = len(pods)",
			pods: []*api.Pod{readyNode1, readyNode1, readyNode2, notReady, scheduledPending, unscheduledPending},
			diff: 6,
			want: []*api.Pod{readyNode1, readyNode1, readyNode2, notReady, scheduledPending, unscheduledPending},
		},
		{
			name:    "various pod phases and conditions, diff = len(pods), relatedPods empty",
			pods:    []*api.Pod{readyNode1, readyNode1, readyNode2, notReady, scheduledPending, unscheduledPending},
			related: []*api.Pod{},
			diff:    6,
			want:    []*api.Pod{readyNode1, readyNode1, readyNode2, notReady, scheduledPending, unscheduledPending},
		},
		{name: "scheduled vs unscheduled, diff < len(pods)", pods: []*api.Pod{scheduledPending, unscheduledPending}, diff: 1, want: []*api.Pod{unscheduledPending}},
		{name: "ready vs not-ready, diff < len(pods)", pods: []*api.Pod{readyNode1, notReady, notReady}, diff: 2, want: []*api.Pod{notReady, notReady}},
		{
			name:    "ready and colocated with another ready pod vs not colocated, diff < len(pods)",
			pods:    []*api.Pod{readyNode1, readyNode2},
			related: []*api.Pod{readyNode1, readyNode2, readyNode2},
			diff:    1,
			want:    []*api.Pod{readyNode2},
		},
		{name: "pending vs running, diff < len(pods)", pods: []*api.Pod{scheduledPending, notReady}, diff: 1, want: []*api.Pod{scheduledPending}},
		{
			name: "various pod phases and conditions, diff < len(pods)",
			pods: []*api.Pod{readyNode1, readyNode2, notReady, scheduledPending, unscheduledPending},
			diff: 3,
			want: []*api.Pod{unscheduledPending, scheduledPending, notReady},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			related := tc.related
			if related == nil {
				related = tc.pods
			}
			in := slices.Clone(tc.pods)
			got := getPodsToDelete(tc.pods, related, tc.diff, testEpoch)
			if !slices.Equal(names(got), names(tc.want)) {
				t.Errorf("got %v, want %v", names(got), names(tc.want))
			}
			if !slices.Equal(in, tc.pods) {
				t.Errorf("getPodsToDelete reordered its input")
			}
		})
	}
}

func names(ps []*api.Pod) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// TestGetPodKeys ports upstream's TestGetPodKeys (replica_set_test.go):
// the expectations keys of the pods to delete, "namespace/name", in order.
func TestGetPodKeys(t *testing.T) {
	rs := newReplicaSet(1, map[string]string{"name": "foo"})
	pod1 := newPod("pod1", rs, api.PodRunning, nil, true)
	pod2 := newPod("pod2", rs, api.PodRunning, nil, true)
	tests := []struct {
		name string
		pods []*api.Pod
		want []string
	}{
		{"len(pods) = 0 (i.e., pods = nil)", []*api.Pod{}, []string{}},
		{"len(pods) > 0", []*api.Pod{pod1, pod2}, []string{"default/pod1", "default/pod2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := podKeys(tc.pods); !slices.Equal(got, tc.want) {
				t.Errorf("podKeys = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestActivePodsIgnoresDeletionCostAndRank: upstream's ActivePods (the
// Job controller's order) has neither ActivePodsWithRanks' deletion cost
// nor its rank; of two ready pods, the newer goes first whatever their
// costs, while ActivePodsWithRanks puts the lower cost first.
func TestActivePodsIgnoresDeletionCostAndRank(t *testing.T) {
	now := testEpoch.Add(400 * 24 * time.Hour)
	readyPod := func(name string, created time.Time, cost string) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, UID: api.UID(name), CreationTimestamp: api.NewTime(created)},
			Spec: api.PodSpec{NodeName: "node"},
			Status: api.PodStatus{Phase: api.PodRunning, Conditions: []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue,
				LastTransitionTime: api.NewTime(created)}}}}
		if cost != "" {
			p.Annotations = map[string]string{PodDeletionCostAnnotation: cost}
		}
		return p
	}
	newer := readyPod("newer", now.Add(-time.Hour), "")
	tests := []struct {
		name  string
		older *api.Pod
		ranks []int // of older, newer
	}{
		{"deletion cost", readyPod("older", now.AddDate(0, -1, 0), "-100"), []int{1, 1}},
		{"rank", readyPod("older", now.AddDate(0, -1, 0), ""), []int{5, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pods := []*api.Pod{tc.older, newer}
			sort.Sort(ActivePods(pods))
			if got, want := names(pods), []string{"newer", "older"}; !slices.Equal(got, want) {
				t.Errorf("ActivePods order %v, want %v", got, want)
			}
			ranked := ActivePodsWithRanks{Pods: []*api.Pod{tc.older, newer}, Rank: tc.ranks, Now: now}
			if !ranked.Less(0, 1) || ranked.Less(1, 0) {
				t.Errorf("ActivePodsWithRanks: the older pod should go first by its %s", tc.name)
			}
		})
	}
}
