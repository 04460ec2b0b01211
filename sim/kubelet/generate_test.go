package kubelet

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// The status generate_test.go helpers of k/k's pkg/kubelet/status, as
// rowPod takes them.
func getReadyStatus(name string) rowStatus {
	return rowStatus{name: name, readyOnly: true, readyFlag: true}
}
func getNotReadyStatus(name string) rowStatus { return rowStatus{name: name, readyOnly: true} }
func getStartedStatus(name string) rowStatus  { return startedState(name) }
func getNotStartedStatus(name string) rowStatus {
	return rowStatus{name: name, running: true, started: &startedFalse}
}

// condRow is a row of the Generate*Condition tables: the pod's spec, its
// conditions (readiness gates'), its containers' statuses and its phase,
// and the condition wanted.
type condRow struct {
	name       string
	spec       api.PodSpec
	conditions []api.PodCondition
	statuses   []rowStatus
	phase      api.PodPhase
	want       api.PodCondition
}

// generated renders the row's pod's conditions as the status writer
// does (condStatuses, then conditions), for the row's phase, and returns
// the one of type typ.
func generated(r condRow, typ api.PodConditionType) api.PodCondition {
	ps := rowPod(r.spec, false, r.statuses...)
	ps.pod.Status.Conditions = r.conditions
	k := &Kubelet{}
	st := k.condStatuses(ps, r.phase)
	for i := range st {
		ps.conds[i].status = st[i]
	}
	for _, c := range k.conditions(ps, r.phase, nil) {
		if c.Type == typ {
			return api.PodCondition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message}
		}
	}
	return api.PodCondition{}
}

func podCondition(typ api.PodConditionType, status api.ConditionStatus, reason, message string) api.PodCondition {
	return api.PodCondition{Type: typ, Status: status, Reason: reason, Message: message}
}

func runCondRows(t *testing.T, typ api.PodConditionType, rows []condRow, reasonOnly bool) {
	t.Helper()
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			got := generated(r, typ)
			if reasonOnly {
				got.Message = ""
			}
			if got != r.want {
				t.Fatalf("got %+v\nwant %+v", got, r.want)
			}
		})
	}
}

func two(a, b string) api.PodSpec {
	return api.PodSpec{Containers: []api.Container{{Name: a}, {Name: b}}}
}

func one(a string) api.PodSpec { return api.PodSpec{Containers: []api.Container{{Name: a}}} }

// The rows of k/k's pkg/kubelet/status/generate_test.go, upstream's
// unnamed rows named here by their index there ("row 3"). The rows that
// give a container no status at all, or no statuses (nil), cannot
// apply: the simulated kubelet, like upstream's
// convertToAPIContainerStatuses, reports a status for every container of
// the spec, so its conditions never say UnknownContainerStatuses or
// "containers with unknown status: [...]". Those are
// TestGenerateContainersReadyCondition rows 0, 2, 4, 7 and 9,
// TestGeneratePodReadyCondition rows 0, 2 and 4, and
// TestGeneratePodInitializedCondition row 0 (rows 2 and 4 there check
// the reason only, ContainersNotInitialized, which a container that
// never ran gives here too: they are ported).
//
// Three rows are not upstream's but follow its generate.go: a Failed
// pod's Ready and ContainersReady conditions with reason PodFailed and no
// message (generateContainersReadyConditionForTerminalPhase, k/k PR
// #110256), and Initialized's PodCompleted for any Succeeded pod, with
// init containers or without.
//
// Planted: the former status code (only the first unready readiness
// gate's message; a sidecar initialized while running before it
// started; no regular container that ran keeping the pod initialized)
// fails three rows: "two gates unready", and
// TestGeneratePodInitializedCondition's rows 7 and 10.
func TestGenerateContainersReadyCondition(t *testing.T) {
	sidecars := func(names ...string) api.PodSpec {
		s := one("regular-1")
		for _, n := range names {
			s.InitContainers = append(s.InitContainers, api.Container{Name: n, RestartPolicy: &containerRestartPolicyAlways})
		}
		return s
	}
	runCondRows(t, api.ContainersReady, []condRow{
		{name: "row 1", spec: api.PodSpec{}, phase: api.PodRunning, want: podCondition(api.ContainersReady, api.ConditionTrue, "", "")},
		{name: "row 3", spec: two("1234", "5678"), statuses: st(getReadyStatus("1234"), getReadyStatus("5678")), phase: api.PodRunning,
			want: podCondition(api.ContainersReady, api.ConditionTrue, "", "")},
		{name: "row 5", spec: two("1234", "5678"), statuses: st(getReadyStatus("1234"), getNotReadyStatus("5678")), phase: api.PodRunning,
			want: podCondition(api.ContainersReady, api.ConditionFalse, "ContainersNotReady", "containers with unready status: [5678]")},
		{name: "row 6", spec: one("1234"), statuses: st(getNotReadyStatus("1234")), phase: api.PodSucceeded,
			want: podCondition(api.ContainersReady, api.ConditionFalse, "PodCompleted", "")},
		{name: "row 8", spec: sidecars("restartable-init-1", "restartable-init-2"),
			statuses: st(getReadyStatus("restartable-init-1"), getReadyStatus("restartable-init-2"), getReadyStatus("regular-1")), phase: api.PodRunning,
			want: podCondition(api.ContainersReady, api.ConditionTrue, "", "")},
		{name: "row 10", spec: sidecars("restartable-init-1", "restartable-init-2"),
			statuses: st(getReadyStatus("restartable-init-1"), getNotReadyStatus("restartable-init-2"), getReadyStatus("regular-1")), phase: api.PodRunning,
			want: podCondition(api.ContainersReady, api.ConditionFalse, "ContainersNotReady", "containers with unready status: [restartable-init-2]")},
		// Not an upstream row: generateContainersReadyConditionForTerminalPhase
		// (k/k PR #110256), its containers' readiness notwithstanding.
		{name: "Failed phase", spec: one("1234"), statuses: st(getNotReadyStatus("1234")), phase: api.PodFailed,
			want: podCondition(api.ContainersReady, api.ConditionFalse, "PodFailed", "")},
	}, false)
}

func TestGeneratePodReadyCondition(t *testing.T) {
	gates := func(spec api.PodSpec, names ...string) api.PodSpec {
		for _, n := range names {
			spec.ReadinessGates = append(spec.ReadinessGates, api.PodReadinessGate{ConditionType: api.PodConditionType(n)})
		}
		return spec
	}
	gate := func(name string, s api.ConditionStatus) api.PodCondition {
		return podCondition(api.PodConditionType(name), s, "", "")
	}
	conds := func(c ...api.PodCondition) []api.PodCondition { return c }
	runCondRows(t, api.PodReady, []condRow{
		{name: "row 1", spec: api.PodSpec{}, phase: api.PodRunning, want: podCondition(api.PodReady, api.ConditionTrue, "", "")},
		{name: "row 3", spec: two("1234", "5678"), statuses: st(getReadyStatus("1234"), getReadyStatus("5678")), phase: api.PodRunning,
			want: podCondition(api.PodReady, api.ConditionTrue, "", "")},
		{name: "row 5", spec: two("1234", "5678"), statuses: st(getReadyStatus("1234"), getNotReadyStatus("5678")), phase: api.PodRunning,
			want: podCondition(api.PodReady, api.ConditionFalse, "ContainersNotReady", "containers with unready status: [5678]")},
		{name: "row 6", spec: one("1234"), statuses: st(getNotReadyStatus("1234")), phase: api.PodSucceeded,
			want: podCondition(api.PodReady, api.ConditionFalse, "PodCompleted", "")},
		{name: "row 7", spec: gates(api.PodSpec{}, "gate1"), phase: api.PodRunning,
			want: podCondition(api.PodReady, api.ConditionFalse, "ReadinessGatesNotReady", `corresponding condition of pod readiness gate "gate1" does not exist.`)},
		{name: "row 8", spec: gates(api.PodSpec{}, "gate1"), conditions: conds(gate("gate1", api.ConditionFalse)), phase: api.PodRunning,
			want: podCondition(api.PodReady, api.ConditionFalse, "ReadinessGatesNotReady", `the status of pod readiness gate "gate1" is not "True", but False`)},
		{name: "row 9", spec: gates(api.PodSpec{}, "gate1"), conditions: conds(gate("gate1", api.ConditionTrue)), phase: api.PodRunning,
			want: podCondition(api.PodReady, api.ConditionTrue, "", "")},
		{name: "row 10", spec: gates(api.PodSpec{}, "gate1", "gate2"), conditions: conds(gate("gate1", api.ConditionTrue)), phase: api.PodRunning,
			want: podCondition(api.PodReady, api.ConditionFalse, "ReadinessGatesNotReady", `corresponding condition of pod readiness gate "gate2" does not exist.`)},
		{name: "row 11", spec: gates(api.PodSpec{}, "gate1", "gate2"), conditions: conds(gate("gate1", api.ConditionTrue), gate("gate2", api.ConditionFalse)), phase: api.PodRunning,
			want: podCondition(api.PodReady, api.ConditionFalse, "ReadinessGatesNotReady", `the status of pod readiness gate "gate2" is not "True", but False`)},
		{name: "row 12", spec: gates(api.PodSpec{}, "gate1", "gate2"), conditions: conds(gate("gate1", api.ConditionTrue), gate("gate2", api.ConditionTrue)), phase: api.PodRunning,
			want: podCondition(api.PodReady, api.ConditionTrue, "", "")},
		{name: "row 13", spec: gates(one("1234"), "gate1"), conditions: conds(gate("gate1", api.ConditionTrue)), statuses: st(getNotReadyStatus("1234")), phase: api.PodRunning,
			want: podCondition(api.PodReady, api.ConditionFalse, "ContainersNotReady", "containers with unready status: [1234]")},
		// Not upstream rows: every unready gate's message, joined as
		// GeneratePodReadyCondition joins them, and a Failed pod
		// (generatePodReadyConditionForTerminalPhase, k/k PR #110256).
		{name: "two gates unready", spec: gates(api.PodSpec{}, "gate1", "gate2"), conditions: conds(gate("gate2", api.ConditionFalse)), phase: api.PodRunning,
			want: podCondition(api.PodReady, api.ConditionFalse, "ReadinessGatesNotReady",
				`corresponding condition of pod readiness gate "gate1" does not exist., the status of pod readiness gate "gate2" is not "True", but False`)},
		{name: "Failed phase", spec: one("1234"), statuses: st(getNotReadyStatus("1234")), phase: api.PodFailed,
			want: podCondition(api.PodReady, api.ConditionFalse, "PodFailed", "")},
	}, false)
}

// TestGeneratePodInitializedCondition checks, as upstream's, the status
// and the reason.
func TestGeneratePodInitializedCondition(t *testing.T) {
	noInit := one("regular")
	oneInit := api.PodSpec{InitContainers: []api.Container{{Name: "1234"}}, Containers: []api.Container{{Name: "regular"}}}
	twoInit := api.PodSpec{InitContainers: []api.Container{{Name: "1234"}, {Name: "5678"}}, Containers: []api.Container{{Name: "regular"}}}
	oneSidecar := api.PodSpec{InitContainers: []api.Container{{Name: "1234", RestartPolicy: &containerRestartPolicyAlways}},
		Containers: []api.Container{{Name: "regular"}}}
	cond := func(s api.ConditionStatus, reason string) api.PodCondition {
		return podCondition(api.PodInitialized, s, reason, "")
	}
	runCondRows(t, api.PodInitialized, []condRow{
		{name: "row 1", spec: noInit, phase: api.PodRunning, want: cond(api.ConditionTrue, "")},
		{name: "row 2", spec: oneInit, phase: api.PodRunning, want: cond(api.ConditionFalse, "ContainersNotInitialized")},
		{name: "row 3", spec: twoInit, statuses: st(getReadyStatus("1234"), getReadyStatus("5678")), phase: api.PodRunning, want: cond(api.ConditionTrue, "")},
		{name: "row 4", spec: twoInit, statuses: st(getReadyStatus("1234")), phase: api.PodRunning, want: cond(api.ConditionFalse, "ContainersNotInitialized")},
		{name: "row 5", spec: twoInit, statuses: st(getReadyStatus("1234"), getNotReadyStatus("5678")), phase: api.PodRunning, want: cond(api.ConditionFalse, "ContainersNotInitialized")},
		{name: "row 6", spec: oneInit, statuses: st(getReadyStatus("1234")), phase: api.PodSucceeded, want: cond(api.ConditionTrue, "PodCompleted")},
		{name: "row 7", spec: oneSidecar, statuses: st(getNotStartedStatus("1234")), phase: api.PodPending, want: cond(api.ConditionFalse, "ContainersNotInitialized")},
		{name: "row 8", spec: oneSidecar, statuses: st(getStartedStatus("1234")), phase: api.PodRunning, want: cond(api.ConditionTrue, "")},
		{name: "row 9", spec: oneSidecar, statuses: st(getNotStartedStatus("1234"), runningState("regular")), phase: api.PodRunning, want: cond(api.ConditionTrue, "")},
		{name: "row 10", spec: oneInit, statuses: st(waitingState("1234"), stoppedState("regular")), phase: api.PodRunning, want: cond(api.ConditionTrue, "")},
		// Not an upstream row: GeneratePodInitializedCondition gives a
		// Succeeded pod PodCompleted whether or not it has init containers.
		{name: "Succeeded, no init containers", spec: noInit, statuses: st(succeededState("regular")), phase: api.PodSucceeded, want: cond(api.ConditionTrue, "PodCompleted")},
	}, true)
}
