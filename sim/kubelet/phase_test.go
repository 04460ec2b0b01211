package kubelet

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// The container statuses of k/k's pkg/kubelet/kubelet_pods_test.go
// helpers, as the simulated kubelet holds them (cstate): a status the
// row leaves out is a container that never ran (upstream's "unknown",
// which getPhase counts as waiting would be counted).
type rowStatus struct {
	name      string
	running   bool
	started   *bool
	term      *api.ContainerStateTerminated // its state, or with waiting its last termination
	waiting   bool
	readyFlag bool
	// readyOnly: upstream's status gives only the ready field (status
	// generate_test.go's getReadyStatus, getNotReadyStatus): here a
	// ready container runs and is ready, or, an init container, exited 0;
	// an unready one runs.
	readyOnly bool
}

func waitingState(name string) rowStatus { return rowStatus{name: name, waiting: true} }
func waitingStateWithLastTermination(name string) rowStatus {
	return rowStatus{name: name, waiting: true, term: &api.ContainerStateTerminated{ExitCode: 0}}
}
func waitingStateWithNonZeroTermination(name string) rowStatus {
	return rowStatus{name: name, waiting: true, term: &api.ContainerStateTerminated{ExitCode: -1}}
}
func runningState(name string) rowStatus { return rowStatus{name: name, running: true} }
func startedState(name string) rowStatus {
	return rowStatus{name: name, running: true, started: &startedTrue}
}
func stoppedState(name string) rowStatus {
	return rowStatus{name: name, term: &api.ContainerStateTerminated{}}
}
func succeededState(name string) rowStatus {
	return rowStatus{name: name, term: &api.ContainerStateTerminated{ExitCode: 0}}
}
func failedState(name string) rowStatus {
	return rowStatus{name: name, term: &api.ContainerStateTerminated{ExitCode: -1}}
}

// rowPod builds the pod state of a row: spec's containers, in the
// statuses given (init containers' and regular ones' alike), final when
// the row's pod is terminal (upstream's podIsTerminal).
func rowPod(spec api.PodSpec, terminal bool, statuses ...rowStatus) *podState {
	ps := &podState{pod: &api.Pod{Spec: spec}, nInit: len(spec.InitContainers), final: terminal}
	add := func(c *api.Container, init bool) {
		cs := cstate{spec: c, init: init,
			sidecar: init && c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways}
		for _, st := range statuses {
			if st.name != c.Name {
				continue
			}
			cs.ready = st.readyFlag
			switch {
			case st.readyOnly && init && !cs.sidecar && st.readyFlag:
				cs.phase, cs.everStarted, cs.done = cTerminated, true, true
				cs.term = &api.ContainerStateTerminated{ExitCode: 0, Reason: "Completed"}
				cs.ready = false
			case st.readyOnly:
				cs.phase, cs.everStarted, cs.started = cRunning, true, true
			case st.running:
				cs.phase, cs.everStarted = cRunning, true
				cs.started = st.started != nil && *st.started
				if init && !cs.sidecar {
					cs.started = true // as scheduleRunning has it
				}
			case st.waiting && st.term != nil:
				// Waiting after it ran: our kubelet shows that state only
				// with a reason (a crash back-off, or an image pull failing).
				cs.phase, cs.everStarted, cs.term, cs.reason = cWaiting, true, st.term, ReasonCrashLoopBackOff
			case st.waiting:
				cs.phase = cWaiting
			case st.term != nil:
				cs.phase, cs.everStarted, cs.term = cTerminated, true, st.term
				cs.done = !restarts(&cs, spec.RestartPolicy, st.term.ExitCode)
			}
		}
		ps.cs = append(ps.cs, cs)
	}
	for i := range spec.InitContainers {
		add(&spec.InitContainers[i], true)
	}
	for i := range spec.Containers {
		add(&spec.Containers[i], false)
	}
	return ps
}

// restarts is exited's rule: whether a container that exited with code
// runs again (else it is done).
func restarts(c *cstate, policy api.RestartPolicy, code int32) bool {
	switch {
	case c.sidecar:
		return true
	case c.init:
		return code != 0 && policy != api.RestartPolicyNever
	case policy == api.RestartPolicyNever:
		return false
	case policy == api.RestartPolicyOnFailure:
		return code != 0
	}
	return true
}

var containerRestartPolicyAlways = api.ContainerRestartPolicyAlways

type phaseRow struct {
	test     string
	terminal bool
	statuses []rowStatus
	want     api.PodPhase
}

func runPhaseRows(t *testing.T, spec api.PodSpec, rows []phaseRow) {
	t.Helper()
	k := &Kubelet{}
	for _, r := range rows {
		t.Run(r.test, func(t *testing.T) {
			if got := k.phase(rowPod(spec, r.terminal, r.statuses...)); got != r.want {
				t.Fatalf("phase = %s, want %s", got, r.want)
			}
		})
	}
}

func st(s ...rowStatus) []rowStatus { return s }

// The TestPodPhaseWith* tables of k/k's pkg/kubelet/kubelet_pods_test.go
// (getPhase), row by row: same names, specs, statuses and phases, a
// status given as the simulated kubelet holds it (rowPod). Upstream's
// podHasInitialized (a regular container ran in the pod's current
// sandbox) is, here, a regular container that ever started: the rows
// that pass it pass it as their statuses say.
//
// Planted: the former phase (a sidecar that stopped or waited to restart
// held the pod Pending, a running sidecar did not count as running, an
// init container waiting after a failure never failed the pod) fails
// nine rows: "restartable init container stopped, all regular
// containers running" and "backoff crashloop restartable init
// container, all regular containers running" (Pending, want Running);
// with restart policy Never, "init container waiting, terminated
// non-zero" (Pending, want Failed), "restartable init container
// started, main containers succeeded" and "restartable init container
// running, main containers succeeded" (Succeeded, want Running), "all
// containers succeeded", "restartable init container terminated
// non-zero, main containers succeeded", "backoff crashloop restartable
// init container, main containers succeeded" and "backoff crashloop
// with non-zero restartable init container, main containers succeeded"
// (Pending, want Succeeded).
func TestPodPhaseWithRestartAlways(t *testing.T) {
	spec := api.PodSpec{NodeName: "machine", Containers: []api.Container{{Name: "containerA"}, {Name: "containerB"}},
		RestartPolicy: api.RestartPolicyAlways}
	runPhaseRows(t, spec, []phaseRow{
		{"waiting", false, nil, api.PodPending},
		{"all running", false, st(runningState("containerA"), runningState("containerB")), api.PodRunning},
		{"all stopped with restart always", false, st(stoppedState("containerA"), stoppedState("containerB")), api.PodRunning},
		{"all succeeded with restart always, but the pod is terminal", true, st(succeededState("containerA"), succeededState("containerB")), api.PodSucceeded},
		{"all stopped with restart always, but the pod is terminal", true, st(succeededState("containerA"), failedState("containerB")), api.PodFailed},
		{"mixed state #1 with restart always", false, st(runningState("containerA"), stoppedState("containerB")), api.PodRunning},
		{"mixed state #2 with restart always", false, st(runningState("containerA")), api.PodPending},
		{"mixed state #3 with restart always", false, st(runningState("containerA"), waitingState("containerB")), api.PodPending},
		{"backoff crashloop container with restart always", false, st(runningState("containerA"), waitingStateWithLastTermination("containerB")), api.PodRunning},
	})
}

func TestPodPhaseWithRestartAlwaysInitContainers(t *testing.T) {
	spec := api.PodSpec{NodeName: "machine", InitContainers: []api.Container{{Name: "containerX"}},
		Containers: []api.Container{{Name: "containerA"}, {Name: "containerB"}}, RestartPolicy: api.RestartPolicyAlways}
	runPhaseRows(t, spec, []phaseRow{
		{"empty, waiting", false, nil, api.PodPending},
		{"init container running", false, st(runningState("containerX")), api.PodPending},
		{"init container terminated non-zero", false, st(failedState("containerX")), api.PodPending},
		{"init container waiting, terminated zero", false, st(waitingStateWithLastTermination("containerX")), api.PodPending},
		{"init container waiting, terminated non-zero", false, st(waitingStateWithNonZeroTermination("containerX")), api.PodPending},
		{"init container waiting, not terminated", false, st(waitingState("containerX")), api.PodPending},
		{"init container succeeded", false, st(succeededState("containerX"), runningState("containerA"), runningState("containerB")), api.PodRunning},
	})
}

func TestPodPhaseWithRestartAlwaysRestartableInitContainers(t *testing.T) {
	spec := api.PodSpec{NodeName: "machine", InitContainers: []api.Container{{Name: "containerX", RestartPolicy: &containerRestartPolicyAlways}},
		Containers: []api.Container{{Name: "containerA"}, {Name: "containerB"}}, RestartPolicy: api.RestartPolicyAlways}
	runPhaseRows(t, spec, []phaseRow{
		{"empty, waiting", false, nil, api.PodPending},
		{"restartable init container running", false, st(runningState("containerX")), api.PodPending},
		{"restartable init container stopped", false, st(stoppedState("containerX")), api.PodPending},
		{"restartable init container waiting, terminated zero", false, st(waitingStateWithLastTermination("containerX")), api.PodPending},
		{"restartable init container waiting, terminated non-zero", false, st(waitingStateWithNonZeroTermination("containerX")), api.PodPending},
		{"restartable init container waiting, not terminated", false, st(waitingState("containerX")), api.PodPending},
		{"restartable init container started, 1/2 regular container running", false, st(startedState("containerX"), runningState("containerA")), api.PodPending},
		{"restartable init container started, all regular containers running", false, st(startedState("containerX"), runningState("containerA"), runningState("containerB")), api.PodRunning},
		{"restartable init container running, all regular containers running", false, st(runningState("containerX"), runningState("containerA"), runningState("containerB")), api.PodRunning},
		{"restartable init container stopped, all regular containers running", false, st(stoppedState("containerX"), runningState("containerA"), runningState("containerB")), api.PodRunning},
		{"backoff crashloop restartable init container, all regular containers running", false, st(waitingStateWithLastTermination("containerX"), runningState("containerA"), runningState("containerB")), api.PodRunning},
		{"all regular containers succeeded and restartable init container failed with restart always, but the pod is terminal", true, st(failedState("containerX"), succeededState("containerA"), succeededState("containerB")), api.PodSucceeded},
		{"all regular containers succeeded and restartable init container succeeded with restart always, but the pod is terminal", true, st(succeededState("containerX"), succeededState("containerA"), succeededState("containerB")), api.PodSucceeded},
	})
}

func TestPodPhaseWithRestartAlwaysAndPodHasRun(t *testing.T) {
	spec := api.PodSpec{NodeName: "machine",
		InitContainers: []api.Container{{Name: "containerX"}, {Name: "containerY", RestartPolicy: &containerRestartPolicyAlways}},
		Containers:     []api.Container{{Name: "containerA"}}, RestartPolicy: api.RestartPolicyAlways}
	runPhaseRows(t, spec, []phaseRow{
		{"regular init containers, restartable init container and regular container are all running", false, st(runningState("containerX"), runningState("containerY"), runningState("containerA")), api.PodPending},
		{"regular containers is stopped, restartable init container and regular int container are both running", false, st(runningState("containerX"), runningState("containerY"), stoppedState("containerA")), api.PodPending},
		{"regular init container is succeeded, restartable init container is running, regular containers is stopped", false, st(succeededState("containerX"), runningState("containerY"), stoppedState("containerA")), api.PodRunning},
		{"regular init container is succeeded, restartable init container and regular containers are both running", false, st(succeededState("containerX"), runningState("containerY"), runningState("containerA")), api.PodRunning},
	})
}

func TestPodPhaseWithRestartNever(t *testing.T) {
	spec := api.PodSpec{NodeName: "machine", Containers: []api.Container{{Name: "containerA"}, {Name: "containerB"}},
		RestartPolicy: api.RestartPolicyNever}
	runPhaseRows(t, spec, []phaseRow{
		{"waiting", false, nil, api.PodPending},
		{"all running with restart never", false, st(runningState("containerA"), runningState("containerB")), api.PodRunning},
		{"all succeeded with restart never", false, st(succeededState("containerA"), succeededState("containerB")), api.PodSucceeded},
		{"all failed with restart never", false, st(failedState("containerA"), failedState("containerB")), api.PodFailed},
		{"mixed state #1 with restart never", false, st(runningState("containerA"), succeededState("containerB")), api.PodRunning},
		{"mixed state #2 with restart never", false, st(runningState("containerA")), api.PodPending},
		{"mixed state #3 with restart never", false, st(runningState("containerA"), waitingState("containerB")), api.PodPending},
	})
}

func TestPodPhaseWithRestartNeverInitContainers(t *testing.T) {
	spec := api.PodSpec{NodeName: "machine", InitContainers: []api.Container{{Name: "containerX"}},
		Containers: []api.Container{{Name: "containerA"}, {Name: "containerB"}}, RestartPolicy: api.RestartPolicyNever}
	runPhaseRows(t, spec, []phaseRow{
		{"empty, waiting", false, nil, api.PodPending},
		{"init container running", false, st(runningState("containerX")), api.PodPending},
		{"init container terminated non-zero", false, st(failedState("containerX")), api.PodFailed},
		{"init container waiting, terminated zero", false, st(waitingStateWithLastTermination("containerX")), api.PodPending},
		{"init container waiting, terminated non-zero", false, st(waitingStateWithNonZeroTermination("containerX")), api.PodFailed},
		{"init container waiting, not terminated", false, st(waitingState("containerX")), api.PodPending},
		{"init container succeeded", false, st(succeededState("containerX"), runningState("containerA"), runningState("containerB")), api.PodRunning},
	})
}

func TestPodPhaseWithRestartNeverRestartableInitContainers(t *testing.T) {
	spec := api.PodSpec{NodeName: "machine", InitContainers: []api.Container{{Name: "containerX", RestartPolicy: &containerRestartPolicyAlways}},
		Containers: []api.Container{{Name: "containerA"}, {Name: "containerB"}}, RestartPolicy: api.RestartPolicyNever}
	runPhaseRows(t, spec, []phaseRow{
		{"empty, waiting", false, nil, api.PodPending},
		{"restartable init container running", false, st(runningState("containerX")), api.PodPending},
		{"restartable init container stopped", false, st(stoppedState("containerX")), api.PodPending},
		{"restartable init container waiting, terminated zero", false, st(waitingStateWithLastTermination("containerX")), api.PodPending},
		{"restartable init container waiting, terminated non-zero", false, st(waitingStateWithNonZeroTermination("containerX")), api.PodPending},
		{"restartable init container waiting, not terminated", false, st(waitingState("containerX")), api.PodPending},
		{"restartable init container started, one main container running", false, st(startedState("containerX"), runningState("containerA")), api.PodPending},
		{"restartable init container started, main containers succeeded", false, st(startedState("containerX"), succeededState("containerA"), succeededState("containerB")), api.PodRunning},
		{"restartable init container running, main containers succeeded", false, st(runningState("containerX"), succeededState("containerA"), succeededState("containerB")), api.PodRunning},
		{"all containers succeeded", false, st(succeededState("containerX"), succeededState("containerA"), succeededState("containerB")), api.PodSucceeded},
		{"restartable init container terminated non-zero, main containers succeeded", false, st(failedState("containerX"), succeededState("containerA"), succeededState("containerB")), api.PodSucceeded},
		{"backoff crashloop restartable init container, main containers succeeded", false, st(waitingStateWithLastTermination("containerX"), succeededState("containerA"), succeededState("containerB")), api.PodSucceeded},
		{"backoff crashloop with non-zero restartable init container, main containers succeeded", false, st(waitingStateWithNonZeroTermination("containerX"), succeededState("containerA"), succeededState("containerB")), api.PodSucceeded},
	})
}

func TestPodPhaseWithRestartOnFailure(t *testing.T) {
	spec := api.PodSpec{NodeName: "machine", Containers: []api.Container{{Name: "containerA"}, {Name: "containerB"}},
		RestartPolicy: api.RestartPolicyOnFailure}
	runPhaseRows(t, spec, []phaseRow{
		{"waiting", false, nil, api.PodPending},
		{"all running with restart onfailure", false, st(runningState("containerA"), runningState("containerB")), api.PodRunning},
		{"all succeeded with restart onfailure", false, st(succeededState("containerA"), succeededState("containerB")), api.PodSucceeded},
		{"all failed with restart never", false, st(failedState("containerA"), failedState("containerB")), api.PodRunning},
		{"mixed state #1 with restart onfailure", false, st(runningState("containerA"), succeededState("containerB")), api.PodRunning},
		{"mixed state #2 with restart onfailure", false, st(runningState("containerA")), api.PodPending},
		{"mixed state #3 with restart onfailure", false, st(runningState("containerA"), waitingState("containerB")), api.PodPending},
		{"backoff crashloop container with restart onfailure", false, st(runningState("containerA"), waitingStateWithLastTermination("containerB")), api.PodRunning},
	})
}
