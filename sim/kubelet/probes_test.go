package kubelet_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kubelet"
)

// probe returns an httpGet probe of port 80, path /healthz, with every
// field given (the API server's defaults are 1s, 10s, 1, 3).
func probe(delay, period, success, failure int32) *api.Probe {
	v := api.RawValue(`{"path":"/healthz","port":80}`)
	return &api.Probe{ProbeHandler: api.ProbeHandler{HTTPGet: &v}, InitialDelaySeconds: delay, TimeoutSeconds: 1,
		PeriodSeconds: period, SuccessThreshold: success, FailureThreshold: failure}
}

// fieldChanges returns when pod name's field path took each new value,
// from the audit log, relative to the start of the run.
func (e *env) fieldChanges(name, path string) (at []time.Duration, values []string) {
	for _, r := range e.c.Store.Audit().Records() {
		if r.Kind != api.KindPod || r.Key.Name != name {
			continue
		}
		for c := range r.EachChange() {
			if c.Path == path {
				at = append(at, r.Time.Duration())
				values = append(values, c.New)
			}
		}
	}
	return at, values
}

// startedAt is when the pod's container first started: when the status
// saying so was written (the status shows whole seconds).
func (e *env) startedAt(name string) time.Duration {
	at, _ := e.fieldChanges(name, "status.containerStatuses[app].state.running.startedAt")
	if len(at) == 0 {
		return -1
	}
	return at[0]
}

// TestReadinessProbe: a container turns ready at the first run of
// successThreshold successful probes, probes running at initialDelaySeconds
// after it starts and every periodSeconds; each failed probe is an
// Unhealthy event "Readiness probe failed: ..." with the HTTP client's
// error; an application that hangs turns unready after failureThreshold
// probes that each waited timeoutSeconds (worker.go doProbe; prober.go).
func TestReadinessProbe(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		readyAfter, unhealthy  time.Duration
		probe                  *api.Probe
		wantReady, wantUnready time.Duration // after the start; -1: never
		refused, hung          int32         // failed probes
	}{
		{"ready after 20s, period 10: probes at 0s, 10s fail", 20 * time.Second, 0, probe(0, 10, 1, 3), 20 * time.Second, -1, 2, 0},
		{"ready after 12s: the next tick, 20s", 12 * time.Second, 0, probe(0, 10, 1, 3), 20 * time.Second, -1, 2, 0},
		{"two successes needed, period 5", 20 * time.Second, 0, probe(0, 5, 2, 3), 25 * time.Second, -1, 4, 0},
		{"ready at once, initial delay 15s", 0, 0, probe(15, 10, 1, 3), 15 * time.Second, -1, 0, 0},
		{"hangs at 30s: three probes of 1s timeout, unready at 51s", 0, 30 * time.Second, probe(0, 10, 1, 3), 0, 51 * time.Second, 0, 3},
		{"hangs at 30s, failureThreshold 1: unready at 31s", 0, 30 * time.Second, probe(0, 10, 1, 1), 0, 31 * time.Second, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, cluster.Config{Seed: 1})
			if err := e.registry.Add("example.com/app:v1", kubelet.Image{PullTime: time.Second, ReadyAfter: tc.readyAfter, UnhealthyAfter: tc.unhealthy}); err != nil {
				t.Fatal(err)
			}
			e.addNode("node-1", 1, nil)
			pod := boundPod("web", "node-1", "example.com/app:v1")
			pod.Spec.Containers[0].ReadinessProbe = tc.probe
			e.create(pod)
			e.run(100 * time.Second)
			p := e.pod("web")
			start := e.startedAt("web")
			at, values := e.fieldChanges("web", "status.containerStatuses[app].ready")
			var ready, unready time.Duration = -1, -1
			for i, v := range values {
				switch {
				case v == "true" && ready < 0:
					ready = at[i] - start
				case v == "false" && ready >= 0 && unready < 0:
					unready = at[i] - start
				}
			}
			if ready != tc.wantReady || unready != tc.wantUnready {
				t.Errorf("ready %v, unready %v after the start; want %v and %v", ready, unready, tc.wantReady, tc.wantUnready)
			}
			addr := p.Status.PodIP + ":80"
			refused := fmt.Sprintf(`Readiness probe failed: Get "http://%s/healthz": dial tcp %s: connect: connection refused`, addr, addr)
			hung := fmt.Sprintf(`Readiness probe failed: Get "http://%s/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, addr)
			for _, want := range []struct {
				msg   string
				count int32
			}{{refused, tc.refused}, {hung, tc.hung}} {
				var got int32
				if ev := e.findEvent("web", "Unhealthy", want.msg); ev != nil {
					got = ev.Count
					if ev.Type != api.EventTypeWarning {
						t.Errorf("event type %s", ev.Type)
					}
				}
				if tc.unhealthy > 0 && want.msg == hung && tc.wantUnready > 0 {
					// A hung application keeps failing its probes: at
					// least the ones that made it unready.
					if got < want.count {
						t.Errorf("%q counted %d, want at least %d", want.msg, got, want.count)
					}
					continue
				}
				if got != want.count {
					t.Errorf("%q counted %d, want %d; events %v", want.msg, got, want.count, e.messages("web", "Unhealthy"))
				}
			}
		})
	}
}

func (e *env) messages(name, reason string) []string {
	var out []string
	for _, ev := range e.events(name, reason) {
		out = append(out, fmt.Sprintf("%s (x%d)", ev.Message, ev.Count))
	}
	return out
}

// TestStartupProbe: the startup probe gates the other probes: the
// container is not started (status Started false), so not ready, until
// the startup probe succeeds; a startup probe that fails failureThreshold
// times kills the container ("Container app failed startup probe, will
// be restarted").
func TestStartupProbe(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	for ref, after := range map[string]time.Duration{"example.com/slow:v1": 25 * time.Second, "example.com/never:v1": time.Hour} {
		if err := e.registry.Add(ref, kubelet.Image{PullTime: time.Second, ReadyAfter: after}); err != nil {
			t.Fatal(err)
		}
	}
	e.addNode("node-1", 1, nil)
	slow := boundPod("slow", "node-1", "example.com/slow:v1")
	slow.Spec.Containers[0].StartupProbe = probe(0, 10, 1, 5)
	slow.Spec.Containers[0].LivenessProbe = probe(0, 10, 1, 1)
	never := boundPod("never", "node-1", "example.com/never:v1")
	never.Spec.Containers[0].StartupProbe = probe(0, 10, 1, 3)
	e.create(slow, never)
	e.run(60 * time.Second)
	start := e.startedAt("slow")
	at, values := e.fieldChanges("slow", "status.containerStatuses[app].started")
	if len(at) == 0 || values[len(values)-1] != "true" || at[len(at)-1]-start != 30*time.Second {
		t.Errorf("started changes %v %v (start %v), want true at 30s after the start", at, values, start)
	}
	if ready, _ := e.fieldChanges("slow", "status.containerStatuses[app].ready"); len(ready) == 0 || ready[0]-start != 30*time.Second {
		t.Errorf("ready at %v, want at the startup probe's success, 30s after the start", ready)
	}
	if ev := e.events("slow", "Unhealthy"); len(ev) != 1 || ev[0].Count != 3 || ev[0].Message[:len("Startup probe failed: ")] != "Startup probe failed: " {
		t.Errorf("slow's Unhealthy events %v, want 3 startup probe failures and no liveness one (gated)", e.messages("slow", "Unhealthy"))
	}
	if e.findEvent("never", "Killing", "Container app failed startup probe, will be restarted") == nil {
		t.Errorf("no Killing event for the container that never starts; events %v", e.messages("never", ""))
	}
	if rc := e.pod("never").Status.ContainerStatuses[0].RestartCount; rc != 2 {
		t.Errorf("never restarted %d times in 60s, want 2 (killed at 20s and 40.6s, started again at once both times)", rc)
	}
}

// TestLivenessRestartsWithBackoff: a container whose application hangs
// 5s after it starts fails its liveness probe (period 5s, threshold 1,
// timeout 1s) at 6s and is killed ("Container app failed liveness probe,
// will be restarted"); it stops in 100ms and is started again. The
// kubelet judges the restart back-off on the container that died before
// (doBackOff reads the pod's status from before the kill), so the first
// two restarts are at once and then each waits in CrashLoopBackOff for
// the back-off: 10s, 20s, 40s, 80s, 160s, then 300s (10s doubling to 5
// minutes). Once capped, the container that died before this one died
// more than 300s ago, so every other restart is at once. Planted:
// judging the back-off on the container just killed made the ninth
// restart wait 300s and failed the test.
func TestLivenessRestartsWithBackoff(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	if err := e.registry.Add("example.com/hangs:v1", kubelet.Image{PullTime: time.Second, UnhealthyAfter: 5 * time.Second, StopTime: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	e.addNode("node-1", 1, nil)
	pod := boundPod("web", "node-1", "example.com/hangs:v1")
	pod.Spec.Containers[0].LivenessProbe = probe(0, 5, 1, 1)
	e.create(pod)
	e.run(20 * time.Minute)
	at, values := e.fieldChanges("web", "status.containerStatuses[app].restartCount")
	// One cycle: 6s to the failed probe, 100ms to stop, 500ms to create
	// and start the container again.
	const cycle = 6600 * time.Millisecond
	want := []time.Duration{0, 0, 10 * time.Second, 20 * time.Second, 40 * time.Second, 80 * time.Second, 160 * time.Second, 300 * time.Second, 0, 300 * time.Second}
	var waits []time.Duration
	prev := e.startedAt("web")
	for i := range at {
		waits = append(waits, (at[i] - prev - cycle).Round(time.Second))
		prev = at[i]
	}
	if len(waits) < len(want) || !slices.Equal(waits[:len(want)], want) {
		t.Errorf("waits before each restart %v (restart counts %v), want %v", waits, values, want)
	}
	// The Killing Event counts the kills up to the last write client-go's
	// spam filter let through (the kubelet's events about the pod pass
	// it 25 at once, then one every 5 minutes), never more than there were.
	if ev := e.findEvent("web", "Killing", "Container app failed liveness probe, will be restarted"); ev == nil || ev.Count < 2 || int(ev.Count) > len(at)+1 {
		t.Errorf("Killing events %v, want a count of 2 to %d", e.messages("web", "Killing"), len(at)+1)
	}
	addr := e.pod("web").Status.PodIP + ":80"
	if e.findEvent("web", "Unhealthy", fmt.Sprintf(`Liveness probe failed: Get "http://%s/healthz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, addr)) == nil {
		t.Errorf("no liveness failure event: %v", e.messages("web", "Unhealthy"))
	}
	if e.events("web", "BackOff") == nil {
		t.Error("no BackOff event")
	}
}
