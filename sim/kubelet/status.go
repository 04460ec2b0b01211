package kubelet

import (
	"errors"
	"fmt"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
)

// The pod conditions the kubelet owns, in the order it reports them.
const (
	condReadyToStart = iota
	condInitialized
	condReady
	condContainersReady
	condScheduled
	nConds
)

var condTypes = [nConds]api.PodConditionType{
	api.PodReadyToStartContainers, api.PodInitialized, api.PodReady, api.ContainersReady, api.PodScheduled,
}

// condState remembers a condition's status and since when it holds, for
// lastTransitionTime.
type condState struct {
	status api.ConditionStatus
	since  kernel.Time
}

// Shared pointees for ContainerStatus.Started: request bodies are copied
// by the server before it keeps them, so sharing is safe.
var startedTrue, startedFalse = true, false

// markDirty notes a change of the pod's status. The conditions'
// transition times are taken now; the write itself goes out with every
// other change of the same instant, from a flush event queued behind them.
func (k *Kubelet) markDirty(ps *podState) {
	ps.version++
	k.noteTransitions(ps)
	if ps.inflight || ps.queued || k.slot(ps.slot) != ps {
		return
	}
	ps.queued = true
	ps.stTok = k.next()
	k.at(0, tFlush, noContainer, ps.slot, ps.stTok)
}

// noteTransitions stamps the conditions whose status changed. The first
// time, a condition the API already shows with the same status keeps its
// lastTransitionTime (the scheduler's PodScheduled), as the status
// manager's updateLastTransitionTime does.
func (k *Kubelet) noteTransitions(ps *podState) {
	now := k.now()
	st := k.condStatuses(ps, k.phase(ps))
	for i := range st {
		cs := &ps.conds[i]
		if cs.status == st[i] {
			continue
		}
		since := now
		if cs.status == "" {
			for _, c := range ps.pod.Status.Conditions {
				if c.Type == condTypes[i] && c.Status == st[i] && !c.LastTransitionTime.IsZero() {
					since = min(now, kernel.FromWall(c.LastTransitionTime.Time))
				}
			}
		}
		*cs = condState{status: st[i], since: since}
	}
}

// readyPod is the object of a status write that reports the pod Ready,
// with room for its conditions: the version of the pod the store then
// keeps for as long as the pod stays ready, most of the pod's life.
//
// The versions before it (the ReplicaSet's create, the binding, the
// kubelet's first status writes) are replaced within seconds. Go's
// allocator gives objects of one size class the same spans, so the
// versions that last, allocated among the short-lived ones of every
// other pod starting at the time, left the spans of api.Pod's class and
// of the conditions' a fifth full once a cluster settled: late in the
// 5,000-node probe, 542 to 859 MiB of the heap's spans unused
// (CLUSTERSIM_MEMCLASSES), which the memory limit counts against the
// heap, so that the collector ran every 5 s instead of every 7 to 8
// (GODEBUG=gctrace=1; docs/PERFORMANCE.md, twenty-third pass). A readyPod
// is of a size class of its own (TestReadyPodSizeClass), one allocation
// where there were two, and its spans fill with pods that stay.
type readyPod struct {
	pod   api.Pod
	conds [nConds]api.PodCondition
}

// newStatusPod returns the object of ps's next status write, and room
// for its conditions when it has some: a readyPod when the pod is Ready.
func newStatusPod(ps *podState) (*api.Pod, []api.PodCondition) {
	if ps.conds[condReady].status == api.ConditionTrue {
		w := new(readyPod)
		return &w.pod, w.conds[:0]
	}
	return new(api.Pod), nil
}

// sendStatus writes the pod's status subresource, unconditionally (no
// resourceVersion) but only to this pod (its uid). A status that reports
// the pod Ready is written in a readyPod.
func (k *Kubelet) sendStatus(ps *podState) {
	if ps.deleted {
		return
	}
	p, conds := newStatusPod(ps)
	*p = *ps.pod // a shallow copy: only ResourceVersion and Status change
	p.ResourceVersion = ""
	p.Status = k.buildStatus(ps, conds)
	ps.inflight = true
	ps.sent = ps.version
	ps.stTok = k.next()
	k.call(&apiserver.Request{Verb: apiserver.Update, Kind: api.KindPod, Namespace: p.Namespace, Name: p.Name,
		Subresource: "status", Object: p}, opPodStatus, noContainer, ps.slot, ps.stTok)
}

func (k *Kubelet) statusDone(ps *podState, err error) {
	ps.inflight = false
	switch {
	case err == nil:
		k.stats.PodStatusWrites++
		ps.acked = ps.sent
		if ps.version > ps.acked {
			ps.queued = true
			ps.stTok = k.next()
			k.at(0, tFlush, noContainer, ps.slot, ps.stTok)
			return
		}
		if ps.final && ps.terminating {
			k.maybeDelete(ps)
		}
	case errors.Is(err, apierr.ErrNotFound), errors.Is(err, apierr.ErrConflict):
		// Gone, or another pod of the same name: the watch will say.
		k.stats.PodStatusFailures++
	default:
		// Timed out (written or not) or refused: write again later.
		k.stats.PodStatusFailures++
		ps.queued = true
		ps.stTok = k.next()
		k.at(k.t.StatusRetry, tStatusRetry, noContainer, ps.slot, ps.stTok)
	}
}

// view is how a container shows in its status.
type view uint8

const (
	vWaiting    view = iota // waiting, never ran (or no trace of it)
	vRestarting             // waiting with a reason, after it ran: lastState shows the exit
	vRunning                // running
	vTerminated             // its latest exit is its state
)

func (c *cstate) view() view {
	switch {
	case c.phase == cRunning:
		return vRunning
	case c.reason != "":
		if c.term != nil {
			return vRestarting
		}
		return vWaiting
	case c.term != nil:
		return vTerminated
	}
	return vWaiting
}

// isReady is the container's ready field: running and ready, or an init
// container that completed.
func (c *cstate) isReady() bool {
	if c.view() == vTerminated {
		return c.init && !c.sidecar && c.term.ExitCode == 0
	}
	return c.phase == cRunning && c.ready
}

// initComplete reports whether an init container counts as initialized
// (k/k status.isInitContainerInitialized): a sidecar that runs and
// started (its startup probe succeeded, or it has none), or an init
// container that exited 0.
func (c *cstate) initComplete() bool {
	if c.sidecar {
		return c.phase == cRunning && c.started
	}
	return c.view() == vTerminated && c.term.ExitCode == 0
}

// buildStatus is the pod status the kubelet reports (generateAPIPodStatus).
//
// conds, when it has the capacity, holds the conditions (sendStatus's
// readyPod); otherwise they get a slice of their own.
func (k *Kubelet) buildStatus(ps *podState, conds []api.PodCondition) api.PodStatus {
	rep := &ps.reported
	if rep.start == nil || rep.startedAt != ps.startTime {
		rep.start, rep.startedAt = ptrTime(wallTime(ps.startTime)), ps.startTime
	}
	if len(k.hostIPs) != 1 || k.hostIPs[0].IP != k.cfg.InternalIP {
		k.hostIPs = []api.HostIP{{IP: k.cfg.InternalIP}}
	}
	// The start time and the IP lists are shared with earlier statuses
	// (and, for the host's, the node's other pods): stored objects are
	// never changed in place.
	st := api.PodStatus{
		QOSClass:  ps.qos,
		StartTime: rep.start,
		HostIP:    k.cfg.InternalIP,
		HostIPs:   k.hostIPs,
	}
	st.Phase = k.phase(ps)
	st.Conditions = k.conditions(ps, st.Phase, conds)
	if ps.rejectReason != "" {
		st.Reason, st.Message = ps.rejectReason, ps.rejectMessage
		return st
	}
	if ps.ipStr != "" {
		st.PodIP = ps.ipStr
		if len(rep.podIPs) != 1 || rep.podIPs[0].IP != ps.ipStr {
			rep.podIPs = []api.PodIP{{IP: ps.ipStr}}
		}
		st.PodIPs = rep.podIPs
	}
	if ps.nInit > 0 {
		st.InitContainerStatuses = make([]api.ContainerStatus, 0, ps.nInit)
	}
	st.ContainerStatuses = make([]api.ContainerStatus, 0, len(ps.cs)-ps.nInit)
	for i := range ps.cs {
		c := &ps.cs[i]
		if c.init {
			st.InitContainerStatuses = append(st.InitContainerStatuses, k.containerStatus(ps, c))
		} else {
			st.ContainerStatuses = append(st.ContainerStatuses, k.containerStatus(ps, c))
		}
	}
	return st
}

func ptrTime(t api.Time) *api.Time { return &t }

// containerStatus renders one container.
func (k *Kubelet) containerStatus(ps *podState, c *cstate) api.ContainerStatus {
	cs := api.ContainerStatus{
		Name:         c.spec.Name,
		Image:        c.spec.Image,
		RestartCount: c.restarts,
		Ready:        c.isReady(),
		Started:      &startedFalse,
	}
	if c.everStarted && c.res != nil {
		cs.Image, cs.ImageID = c.res.name, c.res.id
	}
	switch c.view() {
	case vRunning:
		cs.State.Running = &api.ContainerStateRunning{StartedAt: wallTime(c.startedAt)}
		cs.ContainerID = c.id
		if c.started {
			cs.Started = &startedTrue
		}
		// The termination states are shared, not copied: the kubelet
		// replaces them and never changes one in place (cstate.term), and
		// stored objects are immutable.
		cs.LastTerminationState.Terminated = c.term
	case vRestarting:
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: c.reason, Message: c.message}
		cs.LastTerminationState.Terminated = c.term
	case vTerminated:
		cs.State.Terminated = c.term
		cs.ContainerID = c.term.ContainerID
		cs.LastTerminationState.Terminated = c.prevTerm
	default:
		reason, msg := c.reason, c.message
		if reason == "" {
			reason = ReasonContainerCreating
			if ps.nInit > 0 && (!c.init || ps.sandbox) {
				reason = ReasonPodInitializing
			}
		}
		cs.State.Waiting = &api.ContainerStateWaiting{Reason: reason, Message: msg}
	}
	return cs
}

// phase is the kubelet's getPhase (k/k pkg/kubelet/kubelet_pods.go):
// Pending while a regular init container has yet to complete, while a
// sidecar has yet to start and no regular container has run (upstream's
// podHasInitialized), or while a container waits for its first start;
// Running while any runs (sidecars included) or restarts; Succeeded or
// Failed once all stopped for good. A sidecar that stopped or waits to
// restart does not count. A regular init container that failed fails the
// pod when the restart policy is Never. A pod that stopped for good
// (final: upstream's podIsTerminal) is Succeeded only if every regular
// container exited 0.
func (k *Kubelet) phase(ps *podState) api.PodPhase {
	if ps.rejectReason != "" {
		return api.PodFailed
	}
	policy := ps.pod.Spec.RestartPolicy
	pendingInit, pendingSidecar, failedInit, initialized := false, false, false, false
	var waiting, running, stopped, succeeded int
	for i := range ps.cs {
		c := &ps.cs[i]
		v := c.view()
		switch {
		case c.sidecar:
			switch v {
			case vRunning:
				if !c.started {
					pendingSidecar = true
				}
				running++
			case vWaiting:
				pendingSidecar = true
				waiting++
			}
		case c.init:
			switch v {
			case vTerminated, vRestarting:
				if c.term.ExitCode != 0 {
					failedInit = true
				}
			default:
				pendingInit = true
			}
		default:
			if c.everStarted {
				initialized = true
			}
			switch v {
			case vRunning:
				running++
			case vTerminated:
				stopped++
				if c.term.ExitCode == 0 {
					succeeded++
				}
			case vRestarting:
				stopped++
			default:
				waiting++
			}
		}
	}
	phase := api.PodPending
	switch {
	case failedInit && policy == api.RestartPolicyNever:
		return api.PodFailed
	case pendingInit || pendingSidecar && !initialized, waiting > 0:
	case running > 0:
		phase = api.PodRunning
	case stopped > 0:
		switch {
		case ps.final:
			phase = api.PodFailed
			if stopped == succeeded {
				phase = api.PodSucceeded
			}
		case policy == api.RestartPolicyAlways:
			phase = api.PodRunning // everything is restarting
		case stopped == succeeded:
			phase = api.PodSucceeded
		case policy == api.RestartPolicyNever:
			phase = api.PodFailed
		default:
			phase = api.PodRunning
		}
	}
	if ps.final && phase != api.PodSucceeded {
		// Stopped for good with containers that never ran.
		return api.PodFailed
	}
	return phase
}

// condStatuses computes the statuses of the kubelet's conditions.
func (k *Kubelet) condStatuses(ps *podState, phase api.PodPhase) [nConds]api.ConditionStatus {
	b := func(v bool) api.ConditionStatus {
		if v {
			return api.ConditionTrue
		}
		return api.ConditionFalse
	}
	// Initialized once every init container is, or once a regular
	// container ran (k/k HasAnyRegularContainerStarted: a sidecar
	// restarting does not take it back); a pod Succeeded is initialized.
	initialized, ready := true, ps.rejectReason == "" && phase != api.PodSucceeded && phase != api.PodFailed
	regularRan := false
	if phase != api.PodSucceeded {
		for i := range ps.cs {
			c := &ps.cs[i]
			if c.init && !c.initComplete() {
				initialized = false
			}
			if (!c.init || c.sidecar) && !c.isReady() {
				ready = false
			}
			if v := c.view(); !c.init && (v == vRunning || v == vTerminated) {
				regularRan = true
			}
		}
	}
	initialized = initialized || regularRan
	gated := false
	if ready {
		if g, _ := k.gateUnready(ps); g != "" {
			gated = true
		}
	}
	var st [nConds]api.ConditionStatus
	st[condReadyToStart] = b(ps.sandbox)
	st[condInitialized] = b(initialized)
	st[condContainersReady] = b(ready)
	st[condReady] = b(ready && !gated)
	st[condScheduled] = api.ConditionTrue
	return st
}

// conditions renders the kubelet's conditions, with the reasons and
// messages upstream gives, and keeps the others the pod carries
// (DisruptionTarget, readiness gates' conditions, ...).
//
// into is where to put them if it has room (its capacity; see readyPod).
func (k *Kubelet) conditions(ps *podState, phase api.PodPhase, into []api.PodCondition) []api.PodCondition {
	// Sized exactly: the slice is the stored pod's conditions from the
	// status write on (a cluster holds one per pod), and a capacity
	// beyond its length would let an append to a copy of the stored pod
	// write into the stored pod's array.
	n := len(ps.conds)
	for _, c := range ps.pod.Status.Conditions {
		if !owned(c.Type) {
			n++
		}
	}
	var conds []api.PodCondition
	if cap(into) >= n {
		conds = into[:0:n]
	} else {
		conds = make([]api.PodCondition, 0, n)
	}
	for i := range ps.conds {
		c := api.PodCondition{Type: condTypes[i], Status: ps.conds[i].status, LastTransitionTime: wallTime(ps.conds[i].since)}
		switch {
		case c.Status == api.ConditionTrue:
			// Every init container known and the pod Succeeded: k/k
			// GeneratePodInitializedCondition's PodCompleted, with init
			// containers or without.
			if i == condInitialized && phase == api.PodSucceeded {
				c.Reason = "PodCompleted"
			}
		case i == condInitialized:
			c.Reason = "ContainersNotInitialized"
			c.Message = "containers with incomplete status: [" + k.names(ps, func(c *cstate) bool { return c.init && !c.initComplete() }) + "]"
		case i == condReady || i == condContainersReady:
			unready := k.names(ps, func(c *cstate) bool { return (!c.init || c.sidecar) && !c.isReady() })
			switch {
			case ps.rejectReason != "" || phase == api.PodSucceeded:
				c.Reason = "PodCompleted"
			case phase == api.PodFailed:
				// k/k generateContainersReadyConditionForTerminalPhase
				// (PR #110256, 1.25): False, PodFailed, no message, as
				// the containers may still be terminating.
				c.Reason = "PodFailed"
			case unready != "":
				c.Reason, c.Message = "ContainersNotReady", ps.unreadyMessage(unready)
			case i == condReady:
				_, why := k.gateUnready(ps)
				c.Reason, c.Message = "ReadinessGatesNotReady", why
			}
		}
		conds = append(conds, c)
	}
	for _, c := range ps.pod.Status.Conditions {
		if !owned(c.Type) {
			conds = append(conds, c)
		}
	}
	return conds
}

// names joins the names of the containers f selects, with spaces. One
// container selected, most pods' case, is its name as it is.
func (k *Kubelet) names(ps *podState, f func(c *cstate) bool) string {
	var b strings.Builder
	first, n := "", 0
	for i := range ps.cs {
		if c := &ps.cs[i]; f(c) {
			switch n++; n {
			case 1:
				first = c.spec.Name
				continue
			case 2:
				b.WriteString(first)
			}
			b.WriteByte(' ')
			b.WriteString(c.spec.Name)
		}
	}
	if n < 2 {
		return first
	}
	return b.String()
}

// unreadyMessage is the message of the Ready and ContainersReady
// conditions naming the unready containers, kept while the same ones
// are unready: both conditions of every status write before a pod is
// ready carry it.
func (ps *podState) unreadyMessage(names string) string {
	m := &ps.reported
	if m.unreadyMessage == "" || m.unreadyNames != names {
		m.unreadyNames, m.unreadyMessage = names, "containers with unready status: ["+names+"]"
	}
	return m.unreadyMessage
}

func owned(t api.PodConditionType) bool {
	for _, o := range condTypes {
		if o == t {
			return true
		}
	}
	return false
}

// gateUnready returns the first readiness gate whose condition is not
// True, and why: every such gate's message, joined with ", " (k/k
// status.GeneratePodReadyCondition). A gate's condition is the first of
// its type (podutil.GetPodConditionFromList).
func (k *Kubelet) gateUnready(ps *podState) (string, string) {
	first, why := "", ""
	for _, g := range ps.pod.Spec.ReadinessGates {
		var cond *api.PodCondition
		for i := range ps.pod.Status.Conditions {
			if ps.pod.Status.Conditions[i].Type == g.ConditionType {
				cond = &ps.pod.Status.Conditions[i]
				break
			}
		}
		msg := ""
		switch {
		case cond == nil:
			msg = fmt.Sprintf("corresponding condition of pod readiness gate %q does not exist.", g.ConditionType)
		case cond.Status != api.ConditionTrue:
			msg = fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but %v", g.ConditionType, cond.Status)
		default:
			continue
		}
		if first == "" {
			first, why = string(g.ConditionType), msg
		} else {
			why += ", " + msg
		}
	}
	return first, why
}
