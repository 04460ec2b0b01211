package hpa

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// The tables below port upstream's replica_calculator_test.go: pods have
// two containers, each requesting the pod's request, and a pod's sample is
// the sum of its two containers' levels; the testing CPU initialization
// period is 2m and the initial readiness delay 10s.

var testNow = time.Date(2026, time.January, 1, 1, 0, 0, 0, time.UTC)

const containersPerPod = 2

var testCalc = calculator{cpuInitializationPeriod: 2 * time.Minute, initialReadinessDelay: 10 * time.Second}

func hot() time.Time  { return testNow }
func cool() time.Time { return testNow.Add(-3 * time.Minute) }

type calcCase struct {
	name             string
	current          int32
	expectedReplicas int32
	expectedErr      string

	requests []string // per pod; "" means no request
	levels   []int64  // per pod with a sample, per container
	podNames []string // sample names, when not the pods'

	readiness []api.ConditionStatus
	start     []time.Time
	phase     []api.PodPhase
	deleting  []bool

	target              int32
	expectedUtilization int32
	expectedValue       int64
}

func (tc *calcCase) pods() []*api.Pod {
	n := int(tc.current)
	n = max(n, len(tc.phase))
	var pods []*api.Pod
	for i := range n {
		ready := api.ConditionTrue
		if i < len(tc.readiness) {
			ready = tc.readiness[i]
		}
		start := api.Time{}
		if tc.start != nil {
			start = api.NewTime(tc.start[i])
		}
		phase := api.PodRunning
		if tc.phase != nil {
			phase = tc.phase[i]
		}
		p := &api.Pod{
			ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("test-pod-%d", i), Namespace: "test-namespace"},
			Spec:       api.PodSpec{Containers: []api.Container{{Name: "container1"}, {Name: "container2"}}},
			Status: api.PodStatus{
				Phase:      phase,
				StartTime:  &start,
				Conditions: []api.PodCondition{{Type: api.PodReady, Status: ready}},
			},
		}
		if tc.deleting != nil && tc.deleting[i] {
			t := api.NewTime(testNow)
			p.DeletionTimestamp = &t
		}
		if i < len(tc.requests) && tc.requests[i] != "" {
			q := api.MustParseQuantity(tc.requests[i])
			for c := range p.Spec.Containers {
				p.Spec.Containers[c].Resources.Requests = api.ResourceList{api.ResourceCPU: q}
			}
		}
		pods = append(pods, p)
	}
	return pods
}

func (tc *calcCase) metrics() podMetrics {
	m := podMetrics{}
	for i, level := range tc.levels {
		name := fmt.Sprintf("test-pod-%d", i)
		if i < len(tc.podNames) {
			name = tc.podNames[i]
		}
		m[name] = podMetric{timestamp: time.Time{}, window: time.Minute, value: containersPerPod * level}
	}
	return m
}

func ones(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "1.0"
	}
	return out
}

func TestResourceReplicas(t *testing.T) {
	T, F := api.ConditionTrue, api.ConditionFalse
	R, P, Fail := api.PodRunning, api.PodPending, api.PodFailed
	cases := []calcCase{
		{name: "disjoint metrics", current: 1, requests: ones(1), levels: []int64{100}, podNames: []string{"an-older-pod-name"}, target: 100,
			expectedErr: "no metrics returned matched known pods"},
		{name: "scale up", current: 3, expectedReplicas: 5, requests: ones(3), levels: []int64{300, 500, 700}, target: 30,
			expectedUtilization: 50, expectedValue: containersPerPod * 500},
		{name: "scale up, unready pod: less scale", current: 3, expectedReplicas: 4, readiness: []api.ConditionStatus{F, T, T},
			requests: ones(3), levels: []int64{300, 500, 700}, target: 30, expectedUtilization: 60, expectedValue: containersPerPod * 600},
		{name: "scale up, hot cpu: less scale", current: 3, expectedReplicas: 4, start: []time.Time{hot(), cool(), cool()},
			requests: ones(3), levels: []int64{300, 500, 700}, target: 30, expectedUtilization: 60, expectedValue: containersPerPod * 600},
		{name: "scale up, unready pods: no scale", current: 3, expectedReplicas: 3, readiness: []api.ConditionStatus{T, F, F},
			requests: ones(3), levels: []int64{400, 500, 700}, target: 30, expectedUtilization: 40, expectedValue: containersPerPod * 400},
		{name: "hot cpu: no scale", current: 3, expectedReplicas: 3, readiness: []api.ConditionStatus{T, F, F}, start: []time.Time{cool(), hot(), hot()},
			requests: ones(3), levels: []int64{400, 500, 700}, target: 30, expectedUtilization: 40, expectedValue: containersPerPod * 400},
		{name: "scale up ignores failed pods", current: 2, expectedReplicas: 4, readiness: []api.ConditionStatus{T, T, F, F}, phase: []api.PodPhase{R, R, Fail, Fail},
			requests: ones(4), levels: []int64{500, 700}, target: 30, expectedUtilization: 60, expectedValue: containersPerPod * 600},
		{name: "scale up ignores deleted pods", current: 2, expectedReplicas: 4, readiness: []api.ConditionStatus{T, T, F, F}, phase: []api.PodPhase{R, R, R, R},
			deleting: []bool{false, false, true, true}, requests: ones(4), levels: []int64{500, 700}, target: 30, expectedUtilization: 60, expectedValue: containersPerPod * 600},
		{name: "scale down", current: 5, expectedReplicas: 3, requests: ones(5), levels: []int64{100, 300, 500, 250, 250}, target: 50,
			expectedUtilization: 28, expectedValue: containersPerPod * 280},
		{name: "scale down excludes unready pods", current: 5, expectedReplicas: 2, readiness: []api.ConditionStatus{T, T, T, F, F},
			requests: ones(5), levels: []int64{100, 300, 500, 250, 250}, target: 50, expectedUtilization: 30, expectedValue: containersPerPod * 300},
		{name: "scale down excludes unscheduled pods", current: 5, expectedReplicas: 1, readiness: []api.ConditionStatus{T, F, F, F, F}, phase: []api.PodPhase{R, P, P, P, P},
			requests: ones(5), levels: []int64{100}, target: 50, expectedUtilization: 10, expectedValue: containersPerPod * 100},
		{name: "scale down ignores hot cpu pods", current: 5, expectedReplicas: 2, start: []time.Time{cool(), cool(), cool(), hot(), hot()},
			requests: ones(5), levels: []int64{100, 300, 500, 250, 250}, target: 50, expectedUtilization: 30, expectedValue: containersPerPod * 300},
		{name: "scale down ignores failed pods", current: 5, expectedReplicas: 3, readiness: []api.ConditionStatus{T, T, T, T, T, F, F}, phase: []api.PodPhase{R, R, R, R, R, Fail, Fail},
			requests: ones(7), levels: []int64{100, 300, 500, 250, 250}, target: 50, expectedUtilization: 28, expectedValue: containersPerPod * 280},
		{name: "scale down ignores deleted pods", current: 5, expectedReplicas: 3, readiness: []api.ConditionStatus{T, T, T, T, T, F, F}, phase: []api.PodPhase{R, R, R, R, R, R, R},
			deleting: []bool{false, false, false, false, false, true, true}, requests: ones(7), levels: []int64{100, 300, 500, 250, 250}, target: 50,
			expectedUtilization: 28, expectedValue: containersPerPod * 280},
		{name: "tolerance", current: 3, expectedReplicas: 3, requests: []string{"0.9", "1.0", "1.1"}, levels: []int64{1010, 1030, 1020}, target: 100,
			expectedUtilization: 102, expectedValue: containersPerPod * 1020},
		{name: "superfluous metrics", current: 4, expectedReplicas: 24, requests: ones(4), levels: []int64{4000, 9500, 3000, 7000, 3200, 2000}, target: 100,
			expectedUtilization: 587, expectedValue: containersPerPod * 5875},
		{name: "missing metrics", current: 4, expectedReplicas: 3, requests: ones(4), levels: []int64{400, 95}, target: 100,
			expectedUtilization: 24, expectedValue: 495},
		{name: "empty cpu request", current: 1, requests: nil, levels: []int64{200}, target: 100, expectedErr: "missing request for"},
		{name: "missing metrics, no change (equal)", current: 2, expectedReplicas: 2, requests: ones(2), levels: []int64{1000}, target: 100,
			expectedUtilization: 100, expectedValue: containersPerPod * 1000},
		{name: "missing metrics, no change (greater)", current: 2, expectedReplicas: 2, requests: ones(2), levels: []int64{1900}, target: 100,
			expectedUtilization: 190, expectedValue: containersPerPod * 1900},
		{name: "missing metrics, no change (less)", current: 2, expectedReplicas: 2, requests: ones(2), levels: []int64{600}, target: 100,
			expectedUtilization: 60, expectedValue: containersPerPod * 600},
		{name: "missing metrics, unready: no change", current: 3, expectedReplicas: 3, readiness: []api.ConditionStatus{F, T, T},
			requests: ones(3), levels: []int64{100, 450}, target: 50, expectedUtilization: 45, expectedValue: containersPerPod * 450},
		{name: "missing metrics, hot cpu: no change", current: 3, expectedReplicas: 3, start: []time.Time{hot(), cool(), cool()},
			requests: ones(3), levels: []int64{100, 450}, target: 50, expectedUtilization: 45, expectedValue: containersPerPod * 450},
		{name: "missing metrics, unready: scale up", current: 3, expectedReplicas: 4, readiness: []api.ConditionStatus{F, T, T},
			requests: ones(3), levels: []int64{100, 2000}, target: 50, expectedUtilization: 200, expectedValue: containersPerPod * 2000},
		{name: "missing metrics, hot cpu: scale up", current: 3, expectedReplicas: 4, readiness: []api.ConditionStatus{F, T, T}, start: []time.Time{hot(), cool(), cool()},
			requests: ones(3), levels: []int64{100, 2000}, target: 50, expectedUtilization: 200, expectedValue: containersPerPod * 2000},
		{name: "missing metrics, unready: scale down", current: 4, expectedReplicas: 3, readiness: []api.ConditionStatus{F, T, T, T},
			requests: ones(4), levels: []int64{100, 100, 100}, target: 50, expectedUtilization: 10, expectedValue: containersPerPod * 100},
		{name: "missing metrics, scale down, target over 100", current: 4, expectedReplicas: 2, readiness: []api.ConditionStatus{F, T, T, T},
			requests: []string{"1.0", "1.0", "2.0", "2.0"}, levels: []int64{200, 100, 100}, target: 300, expectedUtilization: 6, expectedValue: containersPerPod * 100},
		{name: "rolling update with max surge", current: 2, expectedReplicas: 2, phase: []api.PodPhase{R, R, R},
			requests: ones(3), levels: []int64{100, 100}, target: 50, expectedUtilization: 10, expectedValue: containersPerPod * 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tol := tolerances{down: 0.1, up: 0.1}
			replicas, util, raw, err := testCalc.resourceReplicas(tc.pods(), tc.metrics(), tc.current, tc.target, api.ResourceCPU, tol, testNow)
			if tc.expectedErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.expectedErr) {
					t.Fatalf("err = %v, want %q", err, tc.expectedErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if replicas != tc.expectedReplicas || util != tc.expectedUtilization || raw != tc.expectedValue {
				t.Errorf("got %d replicas, %d%%, %dm; want %d, %d%%, %dm", replicas, util, raw, tc.expectedReplicas, tc.expectedUtilization, tc.expectedValue)
			}
		})
	}
}

// TestComputedTolerance ports upstream's
// TestReplicaCalcComputedToleranceAlgImplementation: a target just past
// the tolerance scales down; one just inside it does not.
func TestComputedTolerance(t *testing.T) {
	const startPods = 10
	used := int64(startPods * 150)
	requested := int32(2 * used)
	requestedToUsed := float64(requested / int32(used))
	perPod := requested / startPods
	levels := make([]int64, startPods)
	for i := range levels {
		levels[i] = used / 10
	}
	reqs := []string{}
	for _, d := range []int32{100, -100, 10, -10, 2, -2, 1, -1, 0, 0} {
		reqs = append(reqs, fmt.Sprintf("%dm", perPod+d))
	}
	for _, tc := range []struct {
		margin float64
		scale  bool
	}{{0.01, true}, {0.004, false}} {
		target := math.Abs(1/(requestedToUsed*(1-0.1))) + tc.margin
		pct := int32(target * 100)
		want := int32(startPods)
		if tc.scale {
			want = int32(math.Ceil(float64(used) / (float64(requested) * target) * startPods))
		}
		c := calcCase{current: startPods, requests: reqs, levels: levels}
		got, util, _, err := testCalc.resourceReplicas(c.pods(), c.metrics(), startPods, pct, api.ResourceCPU, tolerances{0.1, 0.1}, testNow)
		if err != nil {
			t.Fatal(err)
		}
		if got != want || util != int32(used*100)/requested {
			t.Errorf("margin %v: %d replicas at %d%%, want %d at %d%%", tc.margin, got, util, want, int32(used*100)/requested)
		}
	}
}

func TestPlainReplicas(t *testing.T) {
	cases := []struct {
		name     string
		current  int32
		levels   []int64
		target   int64
		want     int32
		wantUse  int64
		phases   int
		readyArr []api.ConditionStatus
	}{
		{name: "scale up", current: 3, levels: []int64{20000, 10000, 30000}, target: 15000, want: 4, wantUse: 20000},
		{name: "scale down", current: 5, levels: []int64{12000, 12000, 12000, 12000, 12000}, target: 20000, want: 3, wantUse: 12000},
		{name: "tolerance", current: 3, levels: []int64{20000, 21000, 21000}, target: 20000, want: 3, wantUse: 20666},
		{name: "missing metrics, no change", current: 5, levels: []int64{20000, 19000, 21000}, target: 20000, want: 5, wantUse: 20000},
		{name: "rolling update with max surge", current: 2, levels: []int64{10000, 10000}, target: 17000, want: 2, wantUse: 10000, phases: 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := calcCase{current: tc.current, requests: ones(int(tc.current))}
			if tc.phases > 0 {
				for range tc.phases {
					c.phase = append(c.phase, api.PodRunning)
				}
			}
			m := podMetrics{}
			for i, l := range tc.levels {
				m[fmt.Sprintf("test-pod-%d", i)] = podMetric{window: time.Minute, value: l}
			}
			got, use, err := testCalc.plainReplicas(c.pods(), m, tc.current, tc.target, "qps", tolerances{0.1, 0.1}, testNow)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want || use != tc.wantUse {
				t.Errorf("got %d replicas, usage %d; want %d, %d", got, use, tc.want, tc.wantUse)
			}
		})
	}
}

// TestGroupPods ports upstream's TestGroupPods.
func TestGroupPods(t *testing.T) {
	podAt := func(name string, phase api.PodPhase, start *time.Time, ready *api.PodCondition) *api.Pod {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name}, Status: api.PodStatus{Phase: phase}}
		if start != nil {
			s := api.NewTime(*start)
			p.Status.StartTime = &s
		}
		if ready != nil {
			p.Status.Conditions = []api.PodCondition{*ready}
		}
		return p
	}
	ago := func(d time.Duration) *time.Time { t := testNow.Add(-d); return &t }
	cond := func(s api.ConditionStatus, d time.Duration) *api.PodCondition {
		return &api.PodCondition{Type: api.PodReady, Status: s, LastTransitionTime: api.NewTime(testNow.Add(-d))}
	}
	del := podAt("deleted", api.PodRunning, ago(time.Minute), nil)
	dt := api.NewTime(testNow)
	del.DeletionTimestamp = &dt
	cases := []struct {
		name                      string
		pods                      []*api.Pod
		metrics                   podMetrics
		resource                  api.ResourceName
		ready                     int
		unready, missing, ignored []string
	}{
		{name: "void", resource: api.ResourceCPU, metrics: podMetrics{}},
		{name: "count in a ready pod - memory", resource: api.ResourceMemory,
			pods:    []*api.Pod{podAt("bentham", api.PodSucceeded, nil, nil)},
			metrics: podMetrics{"bentham": {value: 1, timestamp: testNow, window: time.Minute}}, ready: 1},
		{name: "unready a pod without ready condition - CPU", resource: api.ResourceCPU,
			pods:    []*api.Pod{podAt("lucretius", api.PodSucceeded, &testNow, nil)},
			metrics: podMetrics{"lucretius": {value: 1}}, unready: []string{"lucretius"}},
		{name: "count in a ready pod with fresh metrics during initialization period - CPU", resource: api.ResourceCPU,
			pods:    []*api.Pod{podAt("bentham", api.PodSucceeded, ago(time.Minute), cond(api.ConditionTrue, 30*time.Second))},
			metrics: podMetrics{"bentham": {value: 1, timestamp: testNow, window: 30 * time.Second}}, ready: 1},
		{name: "unready a ready pod without fresh metrics during initialization period - CPU", resource: api.ResourceCPU,
			pods:    []*api.Pod{podAt("bentham", api.PodSucceeded, ago(time.Minute), cond(api.ConditionTrue, 30*time.Second))},
			metrics: podMetrics{"bentham": {value: 1, timestamp: testNow, window: 60 * time.Second}}, unready: []string{"bentham"}},
		{name: "unready an unready pod during initialization period - CPU", resource: api.ResourceCPU,
			pods:    []*api.Pod{podAt("lucretius", api.PodSucceeded, ago(10*time.Minute), cond(api.ConditionFalse, 9*time.Minute+54*time.Second))},
			metrics: podMetrics{"lucretius": {value: 1}}, unready: []string{"lucretius"}},
		{name: "count in a ready pod without fresh metrics after initialization period - CPU", resource: api.ResourceCPU,
			pods:    []*api.Pod{podAt("bentham", api.PodSucceeded, ago(3*time.Minute), cond(api.ConditionTrue, 3*time.Minute))},
			metrics: podMetrics{"bentham": {value: 1, timestamp: testNow.Add(-2 * time.Minute), window: time.Minute}}, ready: 1},
		{name: "count in an unready pod that was ready after initialization period - CPU", resource: api.ResourceCPU,
			pods:    []*api.Pod{podAt("lucretius", api.PodSucceeded, ago(10*time.Minute), cond(api.ConditionFalse, 9*time.Minute))},
			metrics: podMetrics{"lucretius": {value: 1}}, ready: 1},
		{name: "unready pod that has never been ready after initialization period - CPU", resource: api.ResourceCPU,
			pods:    []*api.Pod{podAt("lucretius", api.PodSucceeded, ago(10*time.Minute), cond(api.ConditionFalse, 9*time.Minute+50*time.Second))},
			metrics: podMetrics{"lucretius": {value: 1}}, ready: 1},
		{name: "a missing pod", resource: api.ResourceCPU,
			pods:    []*api.Pod{podAt("epicurus", api.PodSucceeded, ago(3*time.Minute), nil)},
			metrics: podMetrics{}, missing: []string{"epicurus"}},
		{name: "several pods", resource: api.ResourceCPU,
			pods: []*api.Pod{
				podAt("lucretius", api.PodSucceeded, &testNow, nil),
				podAt("niccolo", api.PodSucceeded, ago(3*time.Minute), cond(api.ConditionTrue, 3*time.Minute)),
				podAt("epicurus", api.PodSucceeded, ago(3*time.Minute), nil),
			},
			metrics: podMetrics{"lucretius": {value: 1}, "niccolo": {value: 1}},
			ready:   1, unready: []string{"lucretius"}, missing: []string{"epicurus"}},
		{name: "pending pods are unready", resource: api.ResourceCPU,
			pods: []*api.Pod{podAt("unscheduled", api.PodPending, nil, nil)}, metrics: podMetrics{}, unready: []string{"unscheduled"}},
		{name: "ignore pods with deletion timestamps and failed pods", resource: api.ResourceCPU,
			pods:    []*api.Pod{del, podAt("failed", api.PodFailed, ago(time.Minute), nil)},
			metrics: podMetrics{"deleted": {value: 10}, "failed": {value: 10}}, ignored: []string{"deleted", "failed"}},
	}
	setOf := func(names []string) nameSet {
		s := nameSet{}
		for _, n := range names {
			s[n] = true
		}
		return s
	}
	eq := func(a, b nameSet) bool {
		if len(a) != len(b) {
			return false
		}
		for k := range a {
			if !b[k] {
				return false
			}
		}
		return true
	}
	calc := calculator{cpuInitializationPeriod: 2 * time.Minute, initialReadinessDelay: 10 * time.Second}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ready, unready, missing, ignored := calc.groupPods(tc.pods, tc.metrics, tc.resource, testNow)
			if ready != tc.ready || !eq(unready, setOf(tc.unready)) || !eq(missing, setOf(tc.missing)) || !eq(ignored, setOf(tc.ignored)) {
				t.Errorf("ready %d unready %v missing %v ignored %v; want %d %v %v %v", ready, unready, missing, ignored, tc.ready, tc.unready, tc.missing, tc.ignored)
			}
		})
	}
}

func TestPodRequest(t *testing.T) {
	always := api.ContainerRestartPolicyAlways
	cpu := func(v string) api.ResourceRequirements {
		return api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity(v)}}
	}
	cases := []struct {
		name string
		pod  api.Pod
		want int64
		err  bool
	}{
		{"containers summed", api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "a", Resources: cpu("100m")}, {Name: "b", Resources: cpu("200m")}}}}, 300, false},
		{"sidecar counted, plain init container not", api.Pod{Spec: api.PodSpec{
			InitContainers: []api.Container{{Name: "side", RestartPolicy: &always, Resources: cpu("50m")}, {Name: "init"}},
			Containers:     []api.Container{{Name: "a", Resources: cpu("100m")}}}}, 150, false},
		{"pod-level request wins", api.Pod{Spec: api.PodSpec{Resources: &api.ResourceRequirements{Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("1")}},
			Containers: []api.Container{{Name: "a"}}}}, 1000, false},
		{"missing request", api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}, Spec: api.PodSpec{Containers: []api.Container{{Name: "a"}}}}, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := podRequest(&tc.pod, api.ResourceCPU)
			var mr *MissingRequestError
			if tc.err {
				if !errors.As(err, &mr) || err.Error() != "missing request for cpu in container a of Pod p" {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

// TestDefaultTolerance runs the replica calculation with the tolerance a
// controller built with zero Options uses, on an autoscaler without a
// behavior of its own: upstream's --horizontal-pod-autoscaler-tolerance
// default (k/k pkg/controller/podautoscaler/config/v1alpha1/defaults.go),
// under which a usage ratio more than 10% from 1 scales and one within
// does not.
func TestDefaultTolerance(t *testing.T) {
	var o Options
	o.defaults()
	tol := (&reconciler{opts: o}).tolerances(&api.HorizontalPodAutoscaler{})
	const pods, target = 10, 50
	for _, tc := range []struct {
		level int64 // per container, of a 1-CPU request: utilization level/10 %
		want  int32
	}{
		{575, 12}, // 57%: ratio 1.14, outside: ceil(11.4)
		{545, 10}, // 54%: ratio 1.08, inside
		{470, 10}, // 47%: ratio 0.94, inside
		{440, 9},  // 44%: ratio 0.88, outside: ceil(8.8)
	} {
		levels := make([]int64, pods)
		for i := range levels {
			levels[i] = tc.level
		}
		c := calcCase{current: pods, requests: ones(pods), levels: levels}
		got, util, _, err := testCalc.resourceReplicas(c.pods(), c.metrics(), pods, target, api.ResourceCPU, tol, testNow)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			t.Errorf("%d pods at %d%% of a %d%% target: %d replicas, want %d", pods, util, target, got, tc.want)
		}
	}
}
