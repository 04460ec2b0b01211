package kubelet

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// probeType is one of a container's three probes (k/k pkg/kubelet/prober).
type probeType uint8

const (
	pStartup probeType = iota
	pReadiness
	pLiveness
	nProbes
)

// String is the probe's name as its events write it ("Readiness probe
// failed: ...").
func (t probeType) String() string {
	return [...]string{"Startup", "Readiness", "Liveness"}[t]
}

// probeRun is one probe worker's state for the running container
// (worker.go: lastResult, resultRun, onHold).
type probeRun struct {
	// last is the last result (true: success); valid once a probe ran.
	last, valid bool
	// run counts the consecutive results equal to last.
	run int32
	// hold: a liveness or startup probe failed and the container is
	// being killed; nothing is probed until a new container runs.
	hold bool
}

// outcome is what the simulated application answers a probe with.
type outcome uint8

const (
	// oOK: the probe succeeds.
	oOK outcome = iota
	// oRefused: the application does not listen yet (before its image's
	// ReadyAfter): the probe fails at once.
	oRefused
	// oHung: the application hangs (from its image's UnhealthyAfter): the
	// probe fails after its timeoutSeconds.
	oHung
)

// probeSpec returns the container's probe of type t, or nil.
func (c *cstate) probeSpec(t probeType) *api.Probe {
	switch t {
	case pStartup:
		return c.spec.StartupProbe
	case pReadiness:
		return c.spec.ReadinessProbe
	}
	return c.spec.LivenessProbe
}

// image returns the container's image, or the zero image when it did not
// resolve.
func (c *cstate) image() Image {
	if c.res != nil && c.res.image != nil {
		return *c.res.image
	}
	return Image{}
}

// appState is how the application of the running container answers at
// t: refused before its image's ReadyAfter, hung from its UnhealthyAfter
// (when positive), else fine.
func (c *cstate) appState(t kernel.Time) outcome {
	img := c.image()
	up := t.Sub(c.startedAt)
	switch {
	case up < img.ReadyAfter:
		return oRefused
	case img.UnhealthyAfter > 0 && up >= img.UnhealthyAfter:
		return oHung
	}
	return oOK
}

// answer is what a probe of p's action gets from an application in
// state o: a tcpSocket probe of a hung application succeeds (the
// kernel accepts the connection), every other action fails.
func answer(p *api.Probe, o outcome) outcome {
	if o == oHung && p.TCPSocket != nil {
		return oOK
	}
	return o
}

// changesLater reports whether the application's answers can still
// change after t: it is not listening yet, or will hang.
func (c *cstate) changesLater(t kernel.Time) bool {
	img := c.image()
	up := t.Sub(c.startedAt)
	return up < img.ReadyAfter || (img.UnhealthyAfter > 0 && up < img.UnhealthyAfter)
}

// resetProbes starts the probe workers over for a new container: not
// started while a startup probe is there, not ready, nothing probed.
func (c *cstate) resetProbes() {
	c.probes = [nProbes]probeRun{}
	c.started = false
	c.ready = false
}

// armProbes arms the running container's probes (or settles what needs
// no probing): the startup probe until it succeeds, then the readiness
// and liveness probes. A container without a readiness probe is ready
// once started; a probe whose answers cannot change any more is not
// run again (it would only repeat its success).
func (k *Kubelet) armProbes(ps *podState, i int) {
	c := &ps.cs[i]
	now := k.now()
	if !c.started {
		if c.spec.StartupProbe != nil {
			k.armProbe(ps, i, pStartup, false)
			return
		}
		c.started = true
		k.markDirty(ps)
	}
	if c.spec.ReadinessProbe == nil {
		if !c.ready {
			c.ready = true
			k.markDirty(ps)
		}
	} else if !c.ready || c.changesLater(now) {
		k.armProbe(ps, i, pReadiness, false)
	}
	if c.spec.LivenessProbe != nil && !c.probes[pLiveness].hold && (c.changesLater(now) || c.appState(now) != oOK) {
		k.armProbe(ps, i, pLiveness, false)
	}
}

// armProbe schedules the next probe of type t at its worker's next tick
// from now (after now when strict: a probe just ran): the first at
// initialDelaySeconds after the container started, then every
// periodSeconds (a tick before the initial delay probes nothing,
// worker.go doProbe).
func (k *Kubelet) armProbe(ps *podState, i int, t probeType, strict bool) {
	c := &ps.cs[i]
	p := c.probeSpec(t)
	now := k.now()
	period := time.Duration(max(1, p.PeriodSeconds)) * time.Second
	at := c.startedAt.Add(time.Duration(p.InitialDelaySeconds) * time.Second)
	if at < now || (strict && at == now) {
		n := (now.Sub(at) + period - 1) / period
		if strict && at.Add(time.Duration(n)*period) == now {
			n++
		}
		at = at.Add(time.Duration(n) * period)
	}
	k.at(at.Sub(now), tProbeStartup+kind(t), uint8(i), ps.slot, c.tok)
}

// probeTick runs a probe: a hung application's answer comes after the
// probe's timeoutSeconds (tProbeDone*), any other at once.
func (k *Kubelet) probeTick(ps *podState, i int, t probeType) {
	c := &ps.cs[i]
	p := c.probeSpec(t)
	if c.phase != cRunning || ps.terminating || p == nil || c.probes[t].hold {
		return
	}
	o := answer(p, c.appState(k.now()))
	if o == oHung {
		k.at(time.Duration(max(1, p.TimeoutSeconds))*time.Second, tProbeDoneStartup+kind(t), uint8(i), ps.slot, c.tok)
		return
	}
	k.probeResult(ps, i, t, o)
}

// probeResult records a probe's result as the worker does: a failure is
// an Unhealthy event; the result counts once failureThreshold failures
// or successThreshold successes ran in a row. A counted readiness
// result sets the container's readiness; a counted startup success
// starts the other probes; a counted liveness or startup failure kills
// the container. The worker ticks on while its answers can change.
func (k *Kubelet) probeResult(ps *podState, i int, t probeType, o outcome) {
	c := &ps.cs[i]
	p := c.probeSpec(t)
	if c.phase != cRunning || ps.terminating || p == nil {
		return
	}
	ok := o == oOK
	pr := &c.probes[t]
	if pr.valid && pr.last == ok {
		pr.run++
	} else {
		pr.last, pr.valid, pr.run = ok, true, 1
	}
	if !ok {
		k.event(ps, c, api.EventTypeWarning, "Unhealthy", fmt.Sprintf("%s probe failed: %s", t, k.probeOutput(ps, c, p, o)))
	}
	counted := (ok && pr.run >= max(1, p.SuccessThreshold)) || (!ok && pr.run >= max(1, p.FailureThreshold))
	if counted {
		switch {
		case t == pReadiness && c.ready != ok:
			c.ready = ok
			k.markDirty(ps)
		case t == pStartup && ok:
			c.started = true
			k.markDirty(ps)
			k.armProbes(ps, i)
			return
		case t != pReadiness && !ok:
			pr.hold, pr.run = true, 0
			k.probeKill(ps, i, t)
			return
		}
	}
	now := k.now()
	strict := o != oHung // the probe ran now; a hung one ran a timeout ago
	switch t {
	case pStartup:
		k.armProbe(ps, i, t, strict)
	case pReadiness:
		if !c.ready || c.changesLater(now) || !counted {
			k.armProbe(ps, i, t, strict)
		}
	case pLiveness:
		if !ok || c.changesLater(now) {
			k.armProbe(ps, i, t, strict)
		}
	}
}

// probeKill kills a container that failed its liveness or startup probe
// (kuberuntime_manager.go computePodActions: "Container %s failed
// liveness probe, will be restarted"), with the probe's
// terminationGracePeriodSeconds or else the pod's.
func (k *Kubelet) probeKill(ps *podState, i int, t probeType) {
	c := &ps.cs[i]
	msg := fmt.Sprintf("Container %s failed %s probe", c.spec.Name, strings.ToLower(t.String()))
	if ps.pod.Spec.RestartPolicy != api.RestartPolicyNever {
		msg += ", will be restarted"
	}
	k.event(ps, c, api.EventTypeNormal, "Killing", msg)
	grace := int64(api.DefaultTerminationGracePeriodSeconds)
	if g := ps.pod.Spec.TerminationGracePeriodSeconds; g != nil {
		grace = *g
	}
	if g := c.probeSpec(t).TerminationGracePeriodSeconds; g != nil {
		grace = *g
	}
	now := k.now()
	c.killing = true
	c.stopFrom = now
	c.tok = k.next()
	at, code := c.stopPlan(now, api.SecondsDuration(grace))
	c.stopCode = code
	k.at(max(0, at.Sub(now)), tStop, uint8(i), ps.slot, c.tok)
}

// probeKilled: the container killed for its probe exited. It is started
// again unless the restart policy is Never, in the same sync as the kill:
// the back-off is judged on the container that died before this one
// (doBackOff looks at the pod's status from before the kill), so the
// first kill restarts at once and later ones wait in CrashLoopBackOff
// once the back-off (10s doubling to 300s) outgrows the time between
// kills.
func (k *Kubelet) probeKilled(ps *podState, i int) {
	c := &ps.cs[i]
	c.killing = false
	c.terminated(c.stopCode, k.now())
	c.tok = k.next()
	k.markDirty(ps)
	if ps.pod.Spec.RestartPolicy == api.RestartPolicyNever {
		c.done = true
		k.maybeComplete(ps)
		return
	}
	if c.prevTerm == nil {
		c.phase = cWaiting
		k.ensureImage(ps, i)
		return
	}
	k.restartSince(ps, i, kernel.FromWall(c.prevTerm.FinishedAt.Time))
}

// probeTarget is the part of a probe's action its messages show.
type probeTarget struct {
	Command []string        `json:"command"`
	Path    string          `json:"path"`
	Host    string          `json:"host"`
	Scheme  string          `json:"scheme"`
	Port    json.RawMessage `json:"port"`
	Service *string         `json:"service"`
}

// probeOutput is the failed probe's output as the kubelet's probers
// write it (k/k pkg/probe/http, tcp, exec, grpc): Go's HTTP client and
// dialer errors, the exec command's output (a command that fails prints
// nothing here), or its timeout.
func (k *Kubelet) probeOutput(ps *podState, c *cstate, p *api.Probe, o outcome) string {
	var raw *api.RawValue
	switch {
	case p.HTTPGet != nil:
		raw = p.HTTPGet
	case p.TCPSocket != nil:
		raw = p.TCPSocket
	case p.Exec != nil:
		raw = p.Exec
	case p.GRPC != nil:
		raw = p.GRPC
	}
	var tg probeTarget
	if raw != nil {
		_ = json.Unmarshal(*raw, &tg)
	}
	host := tg.Host
	if host == "" {
		host = ps.ipStr
	}
	addr := net.JoinHostPort(host, strconv.Itoa(probePort(c.spec, tg.Port)))
	timeout := time.Duration(max(1, p.TimeoutSeconds)) * time.Second
	switch {
	case p.HTTPGet != nil:
		scheme := strings.ToLower(tg.Scheme)
		if scheme == "" {
			scheme = "http"
		}
		u := (&url.URL{Scheme: scheme, Host: addr, Path: tg.Path}).String()
		if o == oHung {
			return fmt.Sprintf("Get %q: context deadline exceeded (Client.Timeout exceeded while awaiting headers)", u)
		}
		return fmt.Sprintf("Get %q: dial tcp %s: connect: connection refused", u, addr)
	case p.TCPSocket != nil:
		return fmt.Sprintf("dial tcp %s: connect: connection refused", addr)
	case p.Exec != nil:
		if o == oHung {
			return fmt.Sprintf("command %q timed out", strings.Join(tg.Command, " "))
		}
		return ""
	case p.GRPC != nil:
		if o == oHung {
			return fmt.Sprintf("timeout: health rpc did not complete within %v", timeout)
		}
		return fmt.Sprintf("timeout: failed to connect service %q within %v: context deadline exceeded", addr, timeout)
	}
	return ""
}

// probePort resolves a probe's port: a number, or the name of one of
// the container's ports (extractPort in k/k pkg/kubelet/prober).
func probePort(c *api.Container, raw json.RawMessage) int {
	var n int
	if json.Unmarshal(raw, &n) == nil {
		return n
	}
	var name string
	if json.Unmarshal(raw, &name) != nil {
		return 0
	}
	for _, p := range c.Ports {
		if p.Name == name {
			return int(p.ContainerPort)
		}
	}
	n, _ = strconv.Atoi(name)
	return n
}
