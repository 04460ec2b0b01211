package kubelet

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/netip"
	"reflect"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/eventcorrelator"
	"github.com/clustersim/clustersim/sim/kernel"
)

// Container waiting reasons (k/k pkg/kubelet/images and
// pkg/kubelet/container).
const (
	// ReasonContainerCreating: the sandbox or the container is being
	// created (or its image pulled for the first time).
	ReasonContainerCreating = "ContainerCreating"
	// ReasonPodInitializing: waiting for the pod's init containers.
	ReasonPodInitializing = "PodInitializing"
	// ReasonErrImagePull: the last pull of the image failed; the message
	// is the runtime's error.
	ReasonErrImagePull = "ErrImagePull"
	// ReasonImagePullBackOff: pulls of the image are backing off; the
	// message is `Back-off pulling image "<image>"`.
	ReasonImagePullBackOff = "ImagePullBackOff"
	// ReasonErrImageNeverPull: imagePullPolicy Never and the node does not
	// have the image.
	ReasonErrImageNeverPull = "ErrImageNeverPull"
	// ReasonInvalidImageName: the image reference does not parse.
	ReasonInvalidImageName = "InvalidImageName"
	// ReasonCrashLoopBackOff: the container died and its restart is
	// backing off; the message is "back-off <d> restarting failed
	// container=<c> pod=<name>_<namespace>(<uid>)".
	ReasonCrashLoopBackOff = "CrashLoopBackOff"
)

// cphase is where a container is in its life.
type cphase uint8

const (
	cWaiting    cphase = iota // not running: never started, or waiting to be (re)started
	cPulling                  // its image pull is queued or running
	cCreating                 // image ready, being created and started
	cRunning                  // running
	cTerminated               // exited; done says whether it will run again
)

// cstate is one container of a pod, as the simulated runtime has it.
type cstate struct {
	spec    *api.Container
	init    bool // an init container
	sidecar bool // a restartable init container
	// tok is the container's current token: timers and pulls carrying
	// another are stale.
	tok   uint32
	phase cphase
	// busy: a timer or pull will move the container on.
	busy bool
	// done: terminated for good (completed init container, restart
	// policy says no, or the pod is terminating).
	done bool
	// reason and message are the waiting reason shown, "" for the
	// default one (or the last termination, once it ran).
	reason, message string
	// res is the image resolved (Registry.resolveShared), nil until it
	// resolved.
	res       *resolved
	queuedAt  kernel.Time
	startedAt kernel.Time
	// stopFrom is when the kubelet asked the running container to stop.
	stopFrom kernel.Time
	// killing: the container failed its liveness or startup probe and
	// is being stopped, to start again.
	killing bool
	// started: its startup probe succeeded (or it has none); the other
	// probes run only then (ContainerStatus.Started).
	started     bool
	probes      [nProbes]probeRun
	ready       bool
	everStarted bool
	restarts    int32
	id          string
	stopCode    int32
	// term is the latest dead container, prevTerm the one before; nil
	// until there is one. They are out of line, replaced and never
	// changed in place: most containers never die, and inline they were
	// 208 of a container's 480 bytes (150,000 of them at 5,000 nodes).
	// So the pod statuses the kubelet writes share them, and a restarted
	// kubelet shares its stored pod's.
	term, prevTerm *api.ContainerStateTerminated
}

// podState is a pod bound to this node, as the kubelet runs it.
type podState struct {
	// events is what the event correlator keeps of the pod's events
	// (client-go's caches, kept with the pod: see eventcorrelator.Object).
	events eventcorrelator.Object
	slot   uint16
	tok    uint32 // pod-level timers
	key    api.Key
	uid    api.UID
	pod    *api.Pod // latest seen; shared, never mutated
	// ackedRV is the resourceVersion of the kubelet's last accepted
	// status write: watch events older than it are stale.
	ackedRV uint64
	cs      []cstate // init containers first
	nInit   int
	qos     api.PodQOSClass
	cpu     int64 // requested milli-CPU, for admission
	mem     int64 // requested memory bytes

	ip        netip.Addr
	ipStr     string
	startTime kernel.Time
	sandbox   bool
	// reported holds parts of the last status buildStatus made (the
	// pod's IPs, its start time, the Ready conditions' message), reused
	// while they do not change: one status write after the other carries
	// the same slice, pointer and string (as a status write keeps the
	// pod's spec), instead of new ones on every write of every pod.
	reported struct {
		podIPs    []api.PodIP
		start     *api.Time
		startedAt kernel.Time
		// unreadyMessage is the Ready conditions' message for the
		// containers named unreadyNames.
		unreadyNames, unreadyMessage string
	}

	rejectReason, rejectMessage string

	terminating bool
	killAt      kernel.Time
	final       bool // every container stopped for good: the status is terminal

	// The status manager: version counts local changes, sent and acked
	// the versions written and confirmed.
	version, sent, acked uint64
	stTok                uint32
	inflight             bool
	queued               bool
	delTok               uint32
	deleting             bool
	deleted              bool
	conds                [nConds]condState
}

// describe returns the pod as upstream's format.Pod writes it in
// messages: "name_namespace(uid)". Only a crash back-off's messages need
// it, so it is made then rather than kept for every pod.
func (ps *podState) describe() string {
	return ps.key.Name + "_" + ps.key.Namespace + "(" + string(ps.uid) + ")"
}

// slot returns the pod in slot s, or nil.
func (k *Kubelet) slot(s uint16) *podState {
	if int(s) < len(k.slots) {
		return k.slots[s]
	}
	return nil
}

// fieldPath returns the container's field path, the involvedObject's
// fieldPath of its events.
func (k *Kubelet) fieldPath(c *cstate) string {
	return k.ev.fieldPath(c.init, c.spec.Name)
}

// podRef is the involvedObject of a pod's events.
func podRef(p *api.Pod) api.ObjectReference {
	return api.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: p.Namespace, Name: p.Name, UID: p.UID, ResourceVersion: p.ResourceVersion}
}

func (k *Kubelet) event(ps *podState, c *cstate, typ, reason, msg string) {
	fp := ""
	if c != nil {
		fp = k.fieldPath(c)
	}
	k.ev.emit(&ps.events, podRef(ps.pod), fp, typ, reason, msg)
}

// podChanged handles a pod seen in a list or watch event; hint and
// prev are a watch event's (store.Event.Hint), 0 and nil for a list's.
func (k *Kubelet) podChanged(p *api.Pod, hint uint32, prev api.Object) {
	ps, hinted := k.lookup(p, hint, prev)
	if ps != nil && ps.uid != p.UID {
		// Deleted and created again under the same name.
		k.drop(ps)
		ps = nil
	}
	if p.Spec.NodeName != k.cfg.NodeName {
		if ps != nil {
			k.drop(ps)
		}
		return
	}
	if ps == nil {
		k.admit(p, hint)
		return
	}
	ps.pod = p
	if !hinted && hint != 0 {
		k.hints[ps.slot] = hint
	}
	if p.DeletionTimestamp != nil {
		k.terminate(ps)
		return
	}
	if checkOwnStatus != nil {
		checkOwnStatus(k, p, ps)
	}
	if !ps.inflight && !ps.queued && ps.sent == ps.version && resourceVersion(p) >= ps.ackedRV && k.ownStatusDiffers(&p.Status, ps) {
		// Someone else changed the status (the node lifecycle controller
		// marked the pod not ready while the node looked dead): the
		// kubelet's status manager writes its own view back. An event
		// older than the kubelet's own last accepted write is stale, not
		// a change.
		k.markDirty(ps)
	}
}

// lookup returns the state of pod p, nil when the kubelet has none, and
// whether it was found by hint: the state in the slot whose hint is the
// event's, if it holds prev itself (the stored object the event changed:
// Event.Hint's check), else the one filed under p's name. The two agree:
// each state is filed under its pod's name for as long as it has a slot.
func (k *Kubelet) lookup(p *api.Pod, hint uint32, prev api.Object) (*podState, bool) {
	if hint != 0 && prev != nil {
		if i := slices.Index(k.hints, hint); i >= 0 {
			if ps := k.slots[i]; ps != nil && api.Object(ps.pod) == prev {
				return ps, true
			}
		}
	}
	return k.byKey[p.Key()], false
}

// ownStatusDiffers reports whether a stored pod status disagrees with
// the kubelet's own on the phase or on the status of any condition
// buildStatus renders (ps's own, then those of ps's pod the kubelet does
// not own, as they are; the first of a type decides), without building
// the status (some 1 µs and three allocations, once for every watch
// event about each of the node's pods). The package's tests hold it to
// the same comparison over a built status (crosscheck_test.go).
func (k *Kubelet) ownStatusDiffers(stored *api.PodStatus, ps *podState) bool {
	if stored.Phase != k.phase(ps) {
		return true
	}
	for i := range ps.conds {
		if !conditionIs(stored, condTypes[i], ps.conds[i].status) {
			return true
		}
	}
	for _, c := range ps.pod.Status.Conditions {
		if !owned(c.Type) && !conditionIs(stored, c.Type, c.Status) {
			return true
		}
	}
	return false
}

// checkOwnStatus, nil but in the package's tests (crosscheck_test.go),
// is called by podChanged on every pod it is given, once the pod's state
// holds it: the tests hold ownStatusDiffers there to the comparison with
// a built status.
var checkOwnStatus func(k *Kubelet, p *api.Pod, ps *podState)

// conditionIs reports whether the first of status's conditions of type
// typ has status st (statusDiffers' test of one condition).
func conditionIs(status *api.PodStatus, typ api.PodConditionType, st api.ConditionStatus) bool {
	for _, sc := range status.Conditions {
		if sc.Type == typ {
			return sc.Status == st
		}
	}
	return false
}

// admit takes a pod on: checks that it fits, posts its first status and
// starts its sandbox. Pods that finished before (Succeeded, Failed) are
// left alone, but for those being deleted: the kubelet deletes them, as
// the status manager does for a finished pod with a deletion timestamp
// (a kubelet that crashed between the terminal status and the delete).
func (k *Kubelet) admit(p *api.Pod, hint uint32) {
	if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		if p.DeletionTimestamp != nil {
			k.deleteFinished(p)
		}
		return
	}
	s, ok := k.allocSlot()
	if !ok {
		return // 65536 pods on one node: nothing sensible to do
	}
	now := k.now()
	ps := &podState{
		slot:      s,
		tok:       k.next(),
		key:       p.Key(),
		uid:       p.UID,
		pod:       p,
		nInit:     len(p.Spec.InitContainers),
		qos:       api.ComputePodQOS(p),
		startTime: now,
	}
	ps.cs = make([]cstate, 0, len(p.Spec.InitContainers)+len(p.Spec.Containers))
	for i := range p.Spec.InitContainers {
		c := &p.Spec.InitContainers[i]
		ps.cs = append(ps.cs, cstate{spec: c, init: true,
			sidecar: c.RestartPolicy != nil && *c.RestartPolicy == api.ContainerRestartPolicyAlways})
	}
	for i := range p.Spec.Containers {
		ps.cs = append(ps.cs, cstate{spec: &p.Spec.Containers[i]})
	}
	for i := range ps.cs {
		ps.cs[i].tok = k.next()
		k.carryOver(ps, &ps.cs[i], now)
	}
	ps.cpu, ps.mem = podRequests(p)
	k.slots[s] = ps
	k.hints[s] = hint
	k.byKey[ps.key] = ps

	if p.DeletionTimestamp != nil {
		// Deleted before it ever ran here: nothing to stop.
		k.terminate(ps)
		return
	}
	if reason, msg, ok := k.fits(ps); !ok {
		k.stats.Rejected++
		ps.rejectReason, ps.rejectMessage = reason, "Pod was rejected: "+msg
		ps.final = true
		k.event(ps, nil, api.EventTypeWarning, reason, msg)
		k.markDirty(ps)
		return
	}
	k.markDirty(ps)
	k.at(k.t.SandboxStart, tSandbox, noContainer, ps.slot, ps.tok)
}

// deleteFinished deletes a finished pod that is being deleted, after a
// restart of the kubelet: it keeps the pod's status as it is.
func (k *Kubelet) deleteFinished(p *api.Pod) {
	s, ok := k.allocSlot()
	if !ok {
		return
	}
	ps := &podState{slot: s, tok: k.next(), key: p.Key(), uid: p.UID, pod: p, final: true, terminating: true}
	k.slots[s] = ps
	k.byKey[ps.key] = ps
	k.sendDelete(ps)
}

// carryOver continues a container's restart count from what the API
// shows, for a pod that ran here before the node crashed: the container
// that was running is gone, reported as terminated with reason Unknown.
func (k *Kubelet) carryOver(ps *podState, c *cstate, now kernel.Time) {
	statuses := ps.pod.Status.ContainerStatuses
	if c.init {
		statuses = ps.pod.Status.InitContainerStatuses
	}
	for i := range statuses {
		s := &statuses[i]
		if s.Name != c.spec.Name {
			continue
		}
		c.restarts = s.RestartCount
		if c.init && !c.sidecar {
			// A new sandbox runs the init containers again.
			return
		}
		switch {
		case s.State.Running != nil:
			c.everStarted = true
			c.term = &api.ContainerStateTerminated{ExitCode: 255, Reason: "Unknown",
				StartedAt: s.State.Running.StartedAt, FinishedAt: wallTime(now), ContainerID: s.ContainerID}
		case s.State.Terminated != nil:
			// Shared with the stored pod: neither changes in place.
			c.everStarted = true
			c.term = s.State.Terminated
		case s.LastTerminationState.Terminated != nil:
			c.everStarted = true
			c.term = s.LastTerminationState.Terminated
		}
		return
	}
}

func (k *Kubelet) allocSlot() (uint16, bool) {
	if n := len(k.free); n > 0 {
		s := k.free[n-1]
		k.free = k.free[:n-1]
		return s, true
	}
	if len(k.slots) > 0xfffe {
		return 0, false
	}
	k.slots = append(k.slots, nil)
	k.hints = append(k.hints, 0)
	return uint16(len(k.slots) - 1), true
}

// drop forgets a pod: its containers are gone (it was deleted, or the
// node lost its runtime), its IP is freed.
func (k *Kubelet) drop(ps *podState) {
	if ps.ip.IsValid() {
		k.ipam.Release(ps.ip)
	}
	k.slots[ps.slot] = nil
	k.hints[ps.slot] = 0
	k.free = append(k.free, ps.slot)
	if k.byKey[ps.key] == ps {
		delete(k.byKey, ps.key)
	}
	ps.tok, ps.stTok, ps.delTok = 0, 0, 0
	if len(k.free) == len(k.slots) {
		// Idle node: a good moment to let go of old back-off entries.
		k.imageBackoff.GC(k.now())
		k.crashBackoff.GC(k.now())
		clear(k.prevPullErr) // no pod is left to back off
	}
}

// podResources sums what pod requests, as the kubelet's admission does:
// containers added up, init containers by their maximum.
func podRequests(p *api.Pod) (cpu, mem int64) {
	for i := range p.Spec.Containers {
		r := p.Spec.Containers[i].Resources.Requests
		cpu += r.Cpu().MilliValue()
		mem += r.Memory().Value()
	}
	for i := range p.Spec.InitContainers {
		r := p.Spec.InitContainers[i].Resources.Requests
		cpu = max(cpu, r.Cpu().MilliValue())
		mem = max(mem, r.Memory().Value())
	}
	if p.Spec.Overhead != nil {
		cpu += p.Spec.Overhead.Cpu().MilliValue()
		mem += p.Spec.Overhead.Memory().Value()
	}
	return cpu, mem
}

// fits is the kubelet's resource admission (lifecycle's predicate admit
// handler): the pod must fit next to the pods already admitted, or it is
// rejected with reason OutOf<resource>.
func (k *Kubelet) fits(ps *podState) (reason, msg string, ok bool) {
	var cpu, mem, pods int64
	for _, o := range k.slots {
		if o != nil && o != ps && !o.final && o.rejectReason == "" {
			cpu += o.cpu
			mem += o.mem
			pods++
		}
	}
	insufficient := func(res string, req, used, capacity int64) (string, string, bool) {
		return "OutOf" + res, fmt.Sprintf("Node didn't have enough resource: %s, requested: %d, used: %d, capacity: %d", res, req, used, capacity), false
	}
	if allowed := k.cfg.Allocatable.Pods().Value(); pods+1 > allowed {
		return insufficient("pods", 1, pods, allowed)
	}
	if c := k.cfg.Allocatable.Cpu().MilliValue(); ps.cpu > 0 && cpu+ps.cpu > c {
		return insufficient("cpu", ps.cpu, cpu, c)
	}
	if m := k.cfg.Allocatable.Memory().Value(); ps.mem > 0 && mem+ps.mem > m {
		return insufficient("memory", ps.mem, mem, m)
	}
	return "", "", true
}

// podTimer handles a pod-level timer.
func (k *Kubelet) podTimer(ps *podState, kd kind, token uint32) {
	switch kd {
	case tSandbox:
		if token == ps.tok {
			k.sandboxReady(ps)
		}
	case tFlush, tStatusRetry:
		if token == ps.stTok && ps.queued {
			ps.queued = false
			k.sendStatus(ps)
		}
	case tDeleteRetry:
		if token == ps.delTok {
			k.sendDelete(ps)
		}
	}
}

// sandboxReady gives the pod its IP and starts its containers. A full
// pod CIDR fails the sandbox, which is retried after the sync back-off.
func (k *Kubelet) sandboxReady(ps *podState) {
	if ps.terminating || ps.final {
		return
	}
	if ps.pod.Spec.HostNetwork {
		ps.ipStr = k.cfg.InternalIP
	} else {
		ip, err := k.ipam.Allocate()
		if err != nil {
			k.event(ps, nil, api.EventTypeWarning, "FailedCreatePodSandBox",
				fmt.Sprintf("Failed to create pod sandbox: plugin type=\"host-local\" failed (add): failed to allocate for range 0: %v", err))
			k.at(k.t.SyncBackoff, tSandbox, noContainer, ps.slot, ps.tok)
			return
		}
		ps.ip, ps.ipStr = ip, ip.String()
	}
	ps.sandbox = true
	k.markDirty(ps)
	k.syncPod(ps)
}

// syncPod starts what may start: init containers one at a time, each
// after the one before completed (sidecars once started), then every
// regular container.
func (k *Kubelet) syncPod(ps *podState) {
	if ps.final || ps.terminating || !ps.sandbox {
		return
	}
	for i := range ps.cs {
		c := &ps.cs[i]
		switch {
		case c.sidecar:
			k.syncContainer(ps, i)
			if c.phase != cRunning {
				return
			}
		case c.init:
			if c.initComplete() {
				continue
			}
			k.syncContainer(ps, i)
			return
		default:
			k.syncContainer(ps, i)
		}
	}
}

// syncContainer moves an idle container on: a waiting one gets its image,
// a dead one is restarted (or backs off).
func (k *Kubelet) syncContainer(ps *podState, i int) {
	c := &ps.cs[i]
	if c.busy || c.done {
		return
	}
	switch c.phase {
	case cWaiting:
		if c.reason == ReasonCrashLoopBackOff {
			k.restart(ps, i)
			return
		}
		if c.reason == ReasonInvalidImageName {
			return
		}
		k.ensureImage(ps, i)
	case cTerminated:
		k.restart(ps, i)
	}
}

// waitSync looks at a stuck container again after the sync back-off.
func (k *Kubelet) waitSync(ps *podState, i int) {
	c := &ps.cs[i]
	c.busy = true
	k.at(k.t.SyncBackoff, tSync, uint8(i), ps.slot, c.tok)
}

func (k *Kubelet) setWaiting(ps *podState, c *cstate, reason, msg string) {
	c.phase = cWaiting
	if c.reason != reason || c.message != msg {
		c.reason, c.message = reason, msg
		k.markDirty(ps)
	}
}

// ensureImage is the image manager's EnsureImageExists: use the image if
// the policy allows and the node has it, back off after failed pulls, else
// queue a pull.
func (k *Kubelet) ensureImage(ps *podState, i int) {
	c := &ps.cs[i]
	image := c.spec.Image
	res, err := k.cfg.Registry.resolveShared(image)
	if errors.Is(err, ErrInvalidReference) {
		msg := fmt.Sprintf("Failed to apply default image tag %q: %v", image, err)
		k.event(ps, c, api.EventTypeWarning, "InspectFailed", msg)
		k.event(ps, c, api.EventTypeWarning, "Failed", "Error: "+ReasonInvalidImageName)
		k.setWaiting(ps, c, ReasonInvalidImageName, msg)
		return
	}
	c.res = res
	present := err == nil && k.images[res.name]
	policy := c.spec.ImagePullPolicy
	if policy == "" {
		policy = api.DefaultImagePullPolicy(image)
	}
	switch {
	case policy == api.PullNever && !present:
		msg := fmt.Sprintf("Container image %q is not present with pull policy of Never", image)
		k.event(ps, c, api.EventTypeWarning, ReasonErrImageNeverPull, msg)
		k.event(ps, c, api.EventTypeWarning, "Failed", "Error: "+ReasonErrImageNeverPull)
		k.setWaiting(ps, c, ReasonErrImageNeverPull, msg)
		k.waitSync(ps, i)
		return
	case policy != api.PullAlways && present:
		k.event(ps, c, api.EventTypeNormal, "Pulled", k.ev.presentMessage(image))
		k.create(ps, i)
		return
	}
	key := string(ps.uid) + "_" + image
	if k.imageBackoff.IsInBackOffSinceUpdate(key, k.now()) {
		msg := fmt.Sprintf("Back-off pulling image %q", image)
		k.event(ps, c, api.EventTypeNormal, "BackOff", msg)
		k.event(ps, c, api.EventTypeWarning, "Failed", "Error: "+ReasonImagePullBackOff)
		// The waiting message wraps the last pull's error (image_manager.go
		// pullImage: prevPullErrMsg, "%s: %s" of ErrImagePull and its text).
		if prev, ok := k.prevPullErr[key]; ok {
			msg += ": " + prev
		}
		k.setWaiting(ps, c, ReasonImagePullBackOff, msg)
		k.waitSync(ps, i)
		return
	}
	delete(k.prevPullErr, key)
	k.event(ps, c, api.EventTypeNormal, "Pulling", fmt.Sprintf("Pulling image %q", image))
	c.phase, c.busy, c.queuedAt = cPulling, true, k.now()
	k.pulls = append(k.pulls, pullRequest{slot: ps.slot, cidx: uint8(i), tok: c.tok})
	k.nextPull()
}

// pullRequest is a queued pull. The kubelet pulls one image at a time
// (serializeImagePulls, the default).
type pullRequest struct {
	slot     uint16
	cidx     uint8
	tok      uint32
	duration time.Duration
}

// nextPull starts the pull at the head of the queue, skipping requests of
// containers that moved on (their pod was deleted or stopped).
func (k *Kubelet) nextPull() {
	for !k.pulling && k.pullHead < len(k.pulls) {
		r := &k.pulls[k.pullHead]
		ps := k.slot(r.slot)
		if ps == nil || int(r.cidx) >= len(ps.cs) || ps.cs[r.cidx].tok != r.tok {
			k.popPull()
			continue
		}
		c := &ps.cs[r.cidx]
		switch {
		case c.res == nil:
			r.duration = k.t.FailedPull
		case k.images[c.res.name]:
			r.duration = k.t.PresentPull
		default:
			r.duration = c.res.image.PullTime
		}
		k.pulling = true
		k.pullTok = k.next()
		k.at(r.duration, tPull, noContainer, 0, k.pullTok)
	}
}

func (k *Kubelet) popPull() {
	k.pulls[k.pullHead] = pullRequest{}
	k.pullHead++
	if k.pullHead == len(k.pulls) {
		k.pulls, k.pullHead = k.pulls[:0], 0
	}
}

// pullDone finishes the pull at the head of the queue.
func (k *Kubelet) pullDone() {
	r := k.pulls[k.pullHead]
	k.popPull()
	k.pulling = false
	defer k.nextPull()
	ps := k.slot(r.slot)
	if ps == nil || int(r.cidx) >= len(ps.cs) || ps.cs[r.cidx].tok != r.tok {
		return
	}
	i := int(r.cidx)
	c := &ps.cs[i]
	c.busy = false
	k.stats.Pulls++
	image := c.spec.Image
	if c.res == nil {
		k.stats.PullFailures++
		_, err := k.cfg.Registry.resolve(image)
		if err == nil {
			// Pushed while it was being pulled: try again at once.
			k.ensureImage(ps, i)
			return
		}
		k.event(ps, c, api.EventTypeWarning, "Failed", fmt.Sprintf("Failed to pull image %q: %v", image, err))
		key := string(ps.uid) + "_" + image
		k.imageBackoff.Next(key, k.now(), k.now())
		k.prevPullErr[key] = ReasonErrImagePull + ": " + err.Error()
		k.event(ps, c, api.EventTypeWarning, "Failed", "Error: "+ReasonErrImagePull)
		k.setWaiting(ps, c, ReasonErrImagePull, err.Error())
		k.waitSync(ps, i)
		return
	}
	k.images[c.res.name] = true
	total := k.now().Sub(c.queuedAt)
	k.event(ps, c, api.EventTypeNormal, "Pulled", fmt.Sprintf("Successfully pulled image %q in %v (%v including waiting). Image size: %v bytes.",
		image, r.duration.Truncate(time.Millisecond), total.Truncate(time.Millisecond), c.res.image.Size))
	k.create(ps, i)
}

// create creates and starts the container after the runtime's latency.
func (k *Kubelet) create(ps *podState, i int) {
	c := &ps.cs[i]
	c.phase, c.busy = cCreating, true
	k.at(k.t.ContainerStart, tCreated, uint8(i), ps.slot, c.tok)
}

// containerTimer handles a container's timer.
func (k *Kubelet) containerTimer(ps *podState, i int, kd kind) {
	c := &ps.cs[i]
	switch kd {
	case tSync:
		c.busy = false
		if !ps.terminating {
			k.syncContainer(ps, i)
		}
	case tCreated:
		c.busy = false
		k.started(ps, i)
	case tExit:
		if c.phase == cRunning && !ps.terminating {
			k.exited(ps, i, c.exitCode())
		}
	case tStop:
		switch {
		case c.phase != cRunning:
		case c.killing && !ps.terminating:
			k.probeKilled(ps, i)
		default:
			k.stopped(ps, i)
		}
	case tProbeStartup, tProbeReadiness, tProbeLiveness:
		k.probeTick(ps, i, probeType(kd-tProbeStartup))
	case tProbeDoneStartup, tProbeDoneReadiness, tProbeDoneLiveness:
		k.probeResult(ps, i, probeType(kd-tProbeDoneStartup), oHung)
	}
}

// started: the container runs.
func (k *Kubelet) started(ps *podState, i int) {
	c := &ps.cs[i]
	now := k.now()
	if c.everStarted {
		c.restarts++
		k.stats.Restarts++
	}
	k.stats.Starts++
	// Since 1.35 (kubernetes/kubernetes PR #134043) the messages no longer
	// name the container; the event's fieldPath does
	// (kuberuntime_container.go startContainer).
	k.event(ps, c, api.EventTypeNormal, "Created", "Container created")
	k.event(ps, c, api.EventTypeNormal, "Started", "Container started")
	c.phase = cRunning
	c.reason, c.message = "", ""
	c.everStarted = true
	c.startedAt = now
	c.id = containerID(k.rng)
	c.resetProbes()
	c.killing = false
	k.scheduleRunning(ps, i)
	k.markDirty(ps)
	if c.init {
		k.syncPod(ps) // a started sidecar lets the next container start
	}
}

// scheduleRunning arms a running container's timers: its probes
// (armProbes: init containers have none and are ready only once they
// completed) and its exit, if its image exits by itself.
func (k *Kubelet) scheduleRunning(ps *podState, i int) {
	c := &ps.cs[i]
	now := k.now()
	if !c.init || c.sidecar {
		k.armProbes(ps, i)
	} else {
		c.started = true
	}
	switch {
	case c.res != nil && c.res.image.Exit != nil:
		at := c.startedAt.Add(c.res.image.Exit.After)
		k.at(max(0, at.Sub(now)), tExit, uint8(i), ps.slot, c.tok)
	case c.init && !c.sidecar:
		// An init container whose image never exits would hold the pod
		// forever; the simulation lets it complete after a second.
		k.at(max(0, c.startedAt.Add(time.Second).Sub(now)), tExit, uint8(i), ps.slot, c.tok)
	}
}

// exitCode is the code a running container exits with by itself.
func (c *cstate) exitCode() int32 {
	if c.res != nil && c.res.image.Exit != nil {
		return c.res.image.Exit.Code
	}
	return 0
}

// terminated records the end of the running container.
func (c *cstate) terminated(code int32, now kernel.Time) {
	reason := "Completed"
	if code != 0 {
		reason = "Error"
	}
	c.prevTerm = c.term
	c.term = &api.ContainerStateTerminated{ExitCode: code, Reason: reason,
		StartedAt: wallTime(c.startedAt), FinishedAt: wallTime(now), ContainerID: c.id}
	c.phase = cTerminated
	c.ready = false
	c.reason, c.message = "", ""
}

// exited: the container stopped by itself with code. Whether it runs
// again is the restart policy's call (sidecars always restart; an init
// container that succeeded is done).
func (k *Kubelet) exited(ps *podState, i int, code int32) {
	c := &ps.cs[i]
	c.terminated(code, k.now())
	c.tok = k.next()
	k.markDirty(ps)
	restart := false
	switch policy := ps.pod.Spec.RestartPolicy; {
	case c.sidecar:
		restart = true
	case c.init:
		restart = code != 0 && policy != api.RestartPolicyNever
	case policy == api.RestartPolicyNever:
	case policy == api.RestartPolicyOnFailure:
		restart = code != 0
	default:
		restart = true
	}
	if !restart {
		c.done = true
		if c.init && code == 0 {
			k.syncPod(ps)
		}
		k.maybeComplete(ps)
		return
	}
	k.restart(ps, i)
}

// restart is the runtime manager's doBackOff: a container that died less
// than its back-off ago waits in CrashLoopBackOff (looked at again every
// sync back-off), otherwise its back-off grows and it starts again.
func (k *Kubelet) restart(ps *podState, i int) {
	c := &ps.cs[i]
	finished := k.now()
	if c.term != nil {
		finished = kernel.FromWall(c.term.FinishedAt.Time)
	}
	k.restartSince(ps, i, finished)
}

// restartSince restarts the container, or has it wait in
// CrashLoopBackOff, judging the back-off from finished: when the
// container that died last finished.
func (k *Kubelet) restartSince(ps *podState, i int, finished kernel.Time) {
	c := &ps.cs[i]
	now := k.now()
	key := string(ps.uid) + "/" + c.spec.Name
	if k.crashBackoff.IsInBackOffSince(key, finished, now) {
		k.event(ps, c, api.EventTypeWarning, "BackOff",
			fmt.Sprintf("Back-off restarting failed container %s in pod %s", c.spec.Name, ps.describe()))
		k.setWaiting(ps, c, ReasonCrashLoopBackOff,
			fmt.Sprintf("back-off %s restarting failed container=%s pod=%s", k.crashBackoff.Get(key), c.spec.Name, ps.describe()))
		k.waitSync(ps, i)
		return
	}
	k.crashBackoff.Next(key, finished, now)
	c.phase = cWaiting
	if c.reason == ReasonCrashLoopBackOff {
		c.reason, c.message = "", ""
		k.markDirty(ps)
	}
	k.ensureImage(ps, i)
}

// maybeComplete makes a pod whose containers are all done terminal
// (restart policy Never or OnFailure, or an init container that failed
// for good); sidecars still running are stopped first.
func (k *Kubelet) maybeComplete(ps *podState) {
	if ps.final || ps.terminating {
		return
	}
	failedInit := false
	for i := range ps.cs {
		c := &ps.cs[i]
		if c.init && !c.sidecar && c.done && c.term != nil && c.term.ExitCode != 0 {
			failedInit = true
			break
		}
	}
	if !failedInit {
		for i := range ps.cs {
			if c := &ps.cs[i]; !c.sidecar && !c.done {
				return
			}
		}
	}
	now := k.now()
	for i := range ps.cs {
		if c := &ps.cs[i]; c.phase == cRunning {
			c.terminated(0, now)
			c.done = true
			c.tok = k.next()
		}
	}
	k.finish(ps)
}

// terminate starts a graceful deletion: running containers are asked to
// stop and are killed when the grace period ends (deletionTimestamp);
// containers that are not running are given up. A shorter grace period
// from a second delete brings the kill forward.
func (k *Kubelet) terminate(ps *podState) {
	now := k.now()
	deadline := now
	if dt := ps.pod.DeletionTimestamp; dt != nil {
		deadline = max(now, kernel.FromWall(dt.Time))
	}
	if g := ps.pod.DeletionGracePeriodSeconds; g != nil && api.SecondsDuration(*g) == math.MaxInt64 {
		// A grace period past what a Duration holds: the API server's
		// deletionTimestamp wrapped (as upstream's does), and the kubelet
		// waits the seconds themselves (upstream hands them to the
		// runtime), which no run outlasts.
		deadline = kernel.Forever
	}
	if ps.terminating {
		if deadline < ps.killAt {
			ps.killAt = deadline
			for i := range ps.cs {
				if ps.cs[i].phase == cRunning {
					k.scheduleStop(ps, i)
				}
			}
		}
		return
	}
	ps.terminating = true
	ps.killAt = deadline
	ps.tok = k.next() // no sandbox start any more
	for i := range ps.cs {
		c := &ps.cs[i]
		c.tok = k.next()
		c.busy = false
		c.done = true
		switch c.phase {
		case cRunning:
			k.event(ps, c, api.EventTypeNormal, "Killing", fmt.Sprintf("Stopping container %s", c.spec.Name))
			c.stopFrom = now
			k.scheduleStop(ps, i)
		case cPulling, cCreating:
			c.phase = cWaiting
		}
		if c.reason == ReasonCrashLoopBackOff && c.term != nil {
			c.phase = cTerminated
			c.reason, c.message = "", ""
		}
	}
	// The status manager drops a status equal to the one it last set
	// (updateStatusInternal: "Ignoring same status for pod"): a deletion
	// that changes nothing the kubelet reports (its containers run on
	// until they stop) writes nothing yet.
	if ps.inflight || ps.queued || ps.sent != ps.version || resourceVersion(ps.pod) < ps.ackedRV ||
		!reflect.DeepEqual(k.buildStatus(ps, nil), ps.pod.Status) {
		k.markDirty(ps)
	}
	k.maybeFinish(ps)
}

// scheduleStop arms a running container's stop (stopPlan): from when it
// was asked to stop, with the grace period left until the pod's kill time.
func (k *Kubelet) scheduleStop(ps *podState, i int) {
	c := &ps.cs[i]
	c.tok = k.next()
	at, code := c.stopPlan(c.stopFrom, ps.killAt.Sub(c.stopFrom))
	c.stopCode = code
	k.at(max(0, at.Sub(k.now())), tStop, uint8(i), ps.slot, c.tok)
}

// stopped: a container of a terminating pod exited.
func (k *Kubelet) stopped(ps *podState, i int) {
	c := &ps.cs[i]
	c.terminated(c.stopCode, k.now())
	c.done = true
	c.tok = k.next()
	k.markDirty(ps)
	k.maybeFinish(ps)
}

// maybeFinish finishes a terminating pod once nothing runs.
func (k *Kubelet) maybeFinish(ps *podState) {
	if ps.final {
		if ps.terminating {
			k.maybeDelete(ps)
		}
		return
	}
	for i := range ps.cs {
		if ps.cs[i].phase == cRunning {
			return
		}
	}
	k.finish(ps)
}

// finish makes the pod terminal: its sandbox goes (and its IP with it; the
// status keeps showing it), containers that never ran here are reported as
// upstream does for containers it cannot find, and the terminal status is
// written. A terminating pod is then deleted.
func (k *Kubelet) finish(ps *podState) {
	ps.final = true
	ps.sandbox = false
	ps.tok = k.next()
	if ps.ip.IsValid() {
		k.ipam.Release(ps.ip)
		ps.ip = netip.Addr{}
	}
	now := wallTime(k.now())
	for i := range ps.cs {
		c := &ps.cs[i]
		c.done = true
		c.busy = false
		if c.phase == cTerminated || !ps.terminating {
			continue
		}
		c.phase = cTerminated
		c.reason, c.message = "", ""
		if c.term != nil {
			continue // it ran before: its last exit is its final state
		}
		c.term = &api.ContainerStateTerminated{ExitCode: 137, Reason: "ContainerStatusUnknown",
			Message: "The container could not be located when the pod was terminated", FinishedAt: now}
	}
	k.markDirty(ps)
	if ps.terminating {
		k.maybeDelete(ps)
	}
}

// maybeDelete deletes a finished terminating pod once its terminal status
// is written, with grace period 0 and its uid as precondition: the store
// then removes it.
func (k *Kubelet) maybeDelete(ps *podState) {
	if ps.deleting || ps.deleted || ps.inflight || ps.queued || ps.acked != ps.version {
		return
	}
	k.sendDelete(ps)
}

func (k *Kubelet) sendDelete(ps *podState) {
	ps.deleting = true
	ps.delTok = k.next()
	zero := int64(0)
	req := &apiserver.Request{Verb: apiserver.Delete, Kind: api.KindPod, Namespace: ps.key.Namespace, Name: ps.key.Name}
	req.DeleteOptions.GracePeriodSeconds = &zero
	req.DeleteOptions.PreconditionUID = ps.uid
	k.call(req, opPodDelete, noContainer, ps.slot, ps.delTok)
}

func (k *Kubelet) deleteDone(ps *podState, err error) {
	switch {
	case err == nil, errors.Is(err, apierr.ErrNotFound), errors.Is(err, apierr.ErrConflict):
		// Deleted, or gone already, or another pod holds the name now.
		if err == nil {
			k.stats.Deletes++
		}
		ps.deleted = true
		k.drop(ps)
	default:
		ps.delTok = k.next()
		k.at(k.t.StatusRetry, tDeleteRetry, noContainer, ps.slot, ps.delTok)
	}
}

// resume picks a pod up again after the kubelet was stopped: every timer
// armed before is stale; what was in progress starts over and the status
// is written afresh.
func (k *Kubelet) resume(ps *podState) {
	ps.tok = k.next()
	ps.stTok = 0
	ps.inflight, ps.queued = false, false
	ps.sent = ps.acked
	if ps.deleting && !ps.deleted {
		ps.deleting = false
	}
	for i := range ps.cs {
		c := &ps.cs[i]
		c.tok = k.next()
		c.busy = false
		switch c.phase {
		case cPulling, cCreating:
			c.phase = cWaiting
		case cRunning:
			if ps.terminating {
				k.scheduleStop(ps, i)
			} else {
				k.scheduleRunning(ps, i)
			}
		}
	}
	k.markDirty(ps)
	switch {
	case ps.final:
		if ps.terminating {
			k.maybeDelete(ps)
		}
	case ps.terminating:
		k.maybeFinish(ps)
	case !ps.sandbox:
		k.at(k.t.SandboxStart, tSandbox, noContainer, ps.slot, ps.tok)
	default:
		k.syncPod(ps)
	}
}

// containerID is a new container's ID: "containerd://" and four draws
// of the kubelet's source as 64 hexadecimal digits.
func containerID(rng *rand.Rand) string {
	var buf [64]byte
	b := buf[:0]
	for range 4 {
		b = api.AppendHex16(b, rng.Uint64())
	}
	return "containerd://" + string(b)
}
