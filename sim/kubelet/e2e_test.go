package kubelet_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

type kernelProcess = kernel.Process

var clientGrace = client.GracePeriodSeconds

// TestPodRunsAndIsReady: a pod bound to the node becomes Running and
// Ready with an IP from the node's CIDR, through the events a kubelet
// records.
func TestPodRunsAndIsReady(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	e.addNode("node-1", 1, nil)
	e.run(2 * time.Second)
	e.create(boundPod("web", "node-1", "nginx:1.14.2"))
	e.run(time.Second)
	p := e.pod("web")
	if p.Status.Phase != api.PodPending || len(p.Status.ContainerStatuses) != 1 ||
		p.Status.ContainerStatuses[0].State.Waiting == nil || p.Status.ContainerStatuses[0].State.Waiting.Reason != "ContainerCreating" {
		t.Fatalf("after 1s: phase %s statuses %+v, want Pending/ContainerCreating", p.Status.Phase, p.Status.ContainerStatuses)
	}
	e.run(10 * time.Second)
	p = e.pod("web")
	cs := p.Status.ContainerStatuses[0]
	if p.Status.Phase != api.PodRunning || cs.State.Running == nil || !cs.Ready {
		t.Fatalf("phase %s, container %+v; want Running and ready", p.Status.Phase, cs)
	}
	if p.Status.PodIP != "10.244.1.2" || len(p.Status.PodIPs) != 1 || p.Status.HostIP != "10.240.244.1" || p.Status.StartTime == nil {
		t.Errorf("podIP %q podIPs %v hostIP %q startTime %v", p.Status.PodIP, p.Status.PodIPs, p.Status.HostIP, p.Status.StartTime)
	}
	if cs.Image != "docker.io/library/nginx:1.14.2" || cs.ImageID == "" || cs.ContainerID == "" || cs.RestartCount != 0 {
		t.Errorf("container status %+v", cs)
	}
	for _, typ := range []api.PodConditionType{api.PodReadyToStartContainers, api.PodInitialized, api.PodReady, api.ContainersReady, api.PodScheduled} {
		if c := cond(p, typ); c == nil || c.Status != api.ConditionTrue {
			t.Errorf("condition %s = %+v, want True", typ, c)
		}
	}
	for _, want := range []struct{ reason, msg string }{
		{"Pulling", `Pulling image "nginx:1.14.2"`},
		{"Pulled", `Successfully pulled image "nginx:1.14.2" in 3s (3s including waiting). Image size: 46137344 bytes.`},
		{"Created", "Container created"},
		{"Started", "Container started"},
	} {
		ev := e.findEvent("web", want.reason, want.msg)
		if ev == nil {
			t.Errorf("no %s event %q; have %v", want.reason, want.msg, e.events("web", ""))
			continue
		}
		if ev.Source.Component != "kubelet" || ev.Source.Host != "node-1" || ev.InvolvedObject.FieldPath != "spec.containers{app}" {
			t.Errorf("event %s: source %+v fieldPath %q", want.reason, ev.Source, ev.InvolvedObject.FieldPath)
		}
	}
}

// TestUnknownImage: a tag the registry does not have goes ErrImagePull,
// then ImagePullBackOff, with upstream's messages and events, pulls
// spaced by the growing back-off.
func TestUnknownImage(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	kl := e.addNode("node-1", 1, nil)
	e.create(boundPod("bad", "node-1", "nginx:1.99"))
	const pullErr = `rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.99": failed to resolve reference "docker.io/library/nginx:1.99": docker.io/library/nginx:1.99: not found`
	waiting := func() *api.ContainerStateWaiting {
		p := e.pod("bad")
		if p == nil || len(p.Status.ContainerStatuses) != 1 {
			t.Fatalf("no container status: %+v", p)
		}
		return p.Status.ContainerStatuses[0].State.Waiting
	}
	e.run(3 * time.Second) // sandbox 1s, failed pull 0.5s
	if w := waiting(); w == nil || w.Reason != "ErrImagePull" || w.Message != pullErr {
		t.Fatalf("after the first pull: waiting %+v", w)
	}
	if e.findEvent("bad", "Failed", `Failed to pull image "nginx:1.99": `+pullErr) == nil ||
		e.findEvent("bad", "Failed", "Error: ErrImagePull") == nil {
		t.Errorf("missing Failed events: %v", e.events("bad", "Failed"))
	}
	// The pod worker looks again after 10s: 10s have passed since the
	// failure, so it pulls again (and fails, backing off 20s); 10s later
	// it is backing off.
	e.run(20 * time.Second)
	if w := waiting(); w == nil || w.Reason != "ImagePullBackOff" || w.Message != `Back-off pulling image "nginx:1.99": ErrImagePull: `+pullErr {
		t.Fatalf("later: waiting %+v, want ImagePullBackOff", w)
	}
	if ev := e.findEvent("bad", "BackOff", `Back-off pulling image "nginx:1.99"`); ev == nil || ev.Type != "Normal" {
		t.Errorf("BackOff event %+v", ev)
	}
	if p := e.pod("bad"); p.Status.Phase != api.PodPending {
		t.Errorf("phase %s, want Pending", p.Status.Phase)
	}
	// A failed pull takes 0.5s and the pod worker looks every 10s, so the
	// failures come at 1.5s, then 10.5, 20.5, 40.5, 80.5, 160.5 and 300.5s
	// apart: 1.5, 12, 32.5, 73, 153.5, 314 and 614.5s. (The Failed Event's
	// count lags: the kubelet's events about the pod pass client-go's spam
	// filter, 25 at once and then one every 5 minutes, and these come
	// faster; the kubelet's own count is the one to read.)
	if n := kl.Stats().PullFailures; n != 2 {
		t.Errorf("%d failed pulls by 23s, want 2 (1.5s and 12s)", n)
	}
	var failed []time.Duration
	for now := 23 * time.Second; now < 10*time.Minute+23*time.Second; now += 500 * time.Millisecond {
		n := kl.Stats().PullFailures
		e.run(500 * time.Millisecond)
		if kl.Stats().PullFailures > n {
			failed = append(failed, now+500*time.Millisecond)
		}
	}
	want := []time.Duration{32500 * time.Millisecond, 73 * time.Second, 153500 * time.Millisecond, 314 * time.Second, 614500 * time.Millisecond}
	if !slices.Equal(failed, want) {
		t.Errorf("failed pulls after the first two at %v, want %v", failed, want)
	}
	if pulls := e.findEvent("bad", "Failed", `Failed to pull image "nginx:1.99": `+pullErr); pulls == nil || pulls.Count < 2 || pulls.Count > 7 {
		// Each failure counted up to the last write the filter let by.
		t.Errorf("the failed pulls' Event: %+v, want a count of 2 to 7", pulls)
	}
	// The tag is pushed: the next pull succeeds and the pod runs.
	if err := e.registry.Add("nginx:1.99", kubelet.Image{PullTime: time.Second}); err != nil {
		t.Fatal(err)
	}
	e.run(5 * time.Minute)
	if p := e.pod("bad"); p.Status.Phase != api.PodRunning {
		t.Errorf("after the push: phase %s", p.Status.Phase)
	}
}

// TestCrashLoop: an image that exits with 1 after 5s crash-loops; the
// waiting message shows the growing back-off and restartCount counts the
// restarts.
func TestCrashLoop(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	e.addNode("node-1", 1, nil)
	e.create(boundPod("crashy", "node-1", "example.com/crash:v1"))
	var messages []string
	var last string
	for range 600 {
		e.run(time.Second)
		p := e.pod("crashy")
		if len(p.Status.ContainerStatuses) == 0 {
			continue
		}
		cs := p.Status.ContainerStatuses[0]
		if w := cs.State.Waiting; w != nil && w.Reason == "CrashLoopBackOff" && w.Message != last {
			last = w.Message
			messages = append(messages, w.Message)
			if cs.Ready || cs.LastTerminationState.Terminated == nil || cs.LastTerminationState.Terminated.ExitCode != 1 ||
				cs.LastTerminationState.Terminated.Reason != "Error" {
				t.Errorf("in back-off: %+v", cs)
			}
			if c := cond(p, api.PodReady); c == nil || c.Status != api.ConditionFalse {
				t.Errorf("pod Ready while down: %+v", c)
			}
		}
	}
	p := e.pod("crashy")
	desc := "crashy_default(" + string(p.UID) + ")"
	want := []string{}
	for _, d := range []string{"10s", "20s", "40s", "1m20s", "2m40s", "5m0s"} {
		want = append(want, "back-off "+d+" restarting failed container=app pod="+desc)
	}
	if len(messages) < len(want) {
		t.Fatalf("messages %q, want at least %q", messages, want)
	}
	for i := range want {
		if messages[i] != want[i] {
			t.Errorf("message %d = %q, want %q", i, messages[i], want[i])
		}
	}
	if p.Status.Phase != api.PodRunning {
		t.Errorf("phase %s, want Running (restarting)", p.Status.Phase)
	}
	if rc := p.Status.ContainerStatuses[0].RestartCount; rc < 6 || rc > 8 {
		t.Errorf("restartCount %d after 10 minutes, want about 7", rc)
	}
	ev := e.findEvent("crashy", "BackOff", "Back-off restarting failed container app in pod "+desc)
	if ev == nil || ev.Type != "Warning" || ev.Count < 6 {
		t.Errorf("BackOff event %+v", ev)
	}
}

// TestGracefulDeletion: a deleted pod's containers run until the grace
// period ends (the image ignores SIGTERM), then the kubelet writes the
// terminal status and deletes the pod; its IP is freed.
func TestGracefulDeletion(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	k := e.addNode("node-1", 1, nil)
	pod := boundPod("web", "node-1", "busybox:1.36")
	grace := int64(20)
	pod.Spec.TerminationGracePeriodSeconds = &grace
	graceful := boundPod("quick", "node-1", "example.com/graceful:v1")
	e.create(pod, graceful)
	e.run(15 * time.Second)
	if k.IPs() != 2 {
		t.Fatalf("IPs in use %d, want 2", k.IPs())
	}
	deleted := e.c.K.Now()
	e.c.Go("user", func(p *kernelProcess) {
		cl := e.c.Client("user/alice", "alice")
		for _, n := range []string{"web", "quick"} {
			if err := cl.Delete(context.Background(), api.KindPod, api.Key{Namespace: "default", Name: n}); err != nil {
				t.Errorf("delete %s: %v", n, err)
			}
		}
	})
	e.run(5 * time.Second)
	if e.pod("quick") != nil {
		t.Error("the pod whose image stops in 2s is still there after 5s")
	}
	p := e.pod("web")
	if p == nil || p.DeletionTimestamp == nil || p.Status.Phase != api.PodRunning {
		t.Fatalf("web 5s after delete: %+v", p)
	}
	if e.findEvent("web", "Killing", "Stopping container app") == nil {
		t.Error("no Killing event")
	}
	e.run(20 * time.Second)
	if e.pod("web") != nil {
		t.Fatal("web still exists 25s after a 20s grace period")
	}
	// The kubelet's last writes: the terminal status (phase Failed, the
	// container killed with 137), then the delete that removes the pod.
	var gone time.Duration
	var finalPhase, exitCode string
	for _, r := range e.c.Store.Audit().Records() {
		if r.Key.Name != "web" {
			continue
		}
		if r.Removed {
			gone = r.Time.Sub(deleted)
		}
		for c := range r.EachChange() {
			switch c.Path {
			case "status.phase":
				finalPhase = c.New
			case "status.containerStatuses[app].state.terminated.exitCode":
				exitCode = c.New
			}
		}
	}
	if gone < 20*time.Second || gone > 21*time.Second {
		t.Errorf("removed %v after the delete, want just after the 20s grace period", gone)
	}
	if finalPhase != "Failed" || exitCode != "137" {
		t.Errorf("final status: phase %s, exit code %s; want Failed and 137", finalPhase, exitCode)
	}
	// The deletion changed nothing the kubelet reports until the
	// containers stopped: its status manager writes nothing for it (an
	// equal status is dropped), so no write of the pods' is a no-op.
	for _, r := range e.c.Store.Audit().Records() {
		if r.Kind == api.KindPod && r.NoOp {
			t.Errorf("no-op write of pod %s by %s at %v", r.Key.Name, r.Actor, r.Time.Sub(deleted))
		}
	}
	if k.IPs() != 0 {
		t.Errorf("IPs in use %d after both pods went, want 0", k.IPs())
	}
}

// renewals returns the virtual times of the node's Lease writes.
func (e *env) renewals(node string) []time.Duration {
	var out []time.Duration
	for _, r := range e.c.Store.Audit().Records() {
		if r.Kind == api.KindLease && r.Key.Name == node && !r.NoOp {
			out = append(out, r.Time.Duration())
		}
	}
	return out
}

// TestLeaseRenewal: the Lease is created at start and renewed every 10s
// (jittered by up to 4%) with holderIdentity and a 40s duration; a stopped
// kubelet stops renewing and a recovered one starts again.
func TestLeaseRenewal(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	k := e.addNode("node-1", 1, nil)
	e.run(time.Minute)
	times := e.renewals("node-1")
	if len(times) != 6 || times[0] != 0 {
		t.Fatalf("lease writes in the first minute at %v, want 6 starting at 0", times)
	}
	for i := 1; i < len(times); i++ {
		if d := times[i] - times[i-1]; d < 10*time.Second || d > 10400*time.Millisecond {
			t.Errorf("renewal %d came %v after the one before, want 10s to 10.4s", i, d)
		}
	}
	o, _ := e.c.Store.Get(api.KindLease, api.Key{Namespace: "kube-node-lease", Name: "node-1"})
	l := o.(*api.Lease)
	if *l.Spec.HolderIdentity != "node-1" || *l.Spec.LeaseDurationSeconds != 40 ||
		kernel.FromWall(l.Spec.RenewTime.Time).Duration() != times[len(times)-1] {
		t.Errorf("lease spec %+v", l.Spec)
	}
	n, _ := e.c.Store.Get(api.KindNode, api.Key{Name: "node-1"})
	if len(l.OwnerReferences) != 1 || l.OwnerReferences[0].UID != n.GetObjectMeta().UID {
		t.Errorf("lease owner references %+v", l.OwnerReferences)
	}

	k.Stop()
	stopped := e.c.K.Now().Duration()
	e.run(2 * time.Minute)
	for _, at := range e.renewals("node-1") {
		if at > stopped {
			t.Fatalf("renewed at %v after the kubelet stopped at %v", at, stopped)
		}
	}
	k.Recover()
	back := e.c.K.Now().Duration()
	e.run(32 * time.Second)
	var after []time.Duration
	for _, at := range e.renewals("node-1") {
		if at >= back {
			after = append(after, at-back)
		}
	}
	if len(after) != 4 || after[0] != 0 {
		t.Errorf("renewals %v after recovery, want one at once and every 10s", after)
	}
}

// TestNodeRegistrationAndStatus: the Node is registered with the
// kubelet's conditions, capacity, labels, taints and addresses; its status
// is posted again every 5 minutes with a new heartbeat.
func TestNodeRegistrationAndStatus(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	e.addNode("node-1", 3, func(c *kubelet.Config) {
		c.Taints = []api.Taint{{Key: "dedicated", Value: "infra", Effect: api.TaintEffectNoSchedule}}
	})
	e.run(11 * time.Minute)
	o, err := e.c.Store.Get(api.KindNode, api.Key{Name: "node-1"})
	if err != nil {
		t.Fatal(err)
	}
	n := o.(*api.Node)
	if n.Labels["kubernetes.io/hostname"] != "node-1" || n.Labels["topology.kubernetes.io/zone"] != "zone-a" ||
		len(n.Spec.Taints) != 1 || n.Spec.PodCIDR != "10.244.3.0/24" {
		t.Errorf("node meta/spec: %+v %+v", n.Labels, n.Spec)
	}
	if q := n.Status.Allocatable[api.ResourceCPU]; q.MilliValue() != 4000 {
		t.Errorf("allocatable %v", n.Status.Allocatable)
	}
	var ready *api.NodeCondition
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == api.NodeReady {
			ready = &n.Status.Conditions[i]
		}
	}
	if ready == nil || ready.Status != api.ConditionTrue || ready.Reason != "KubeletReady" || ready.Message != "kubelet is posting ready status" {
		t.Fatalf("Ready condition %+v", ready)
	}
	if hb := kernel.FromWall(ready.LastHeartbeatTime.Time).Duration(); hb != 10*time.Minute {
		t.Errorf("last heartbeat at %v, want 10m (posted every 5 minutes)", hb)
	}
	if len(n.Status.Addresses) != 2 || n.Status.Addresses[0].Address != "10.240.244.3" {
		t.Errorf("addresses %+v", n.Status.Addresses)
	}
	if e.findEvent("node-1", "NodeReady", "Node node-1 status is now: NodeReady") == nil || e.findEvent("node-1", "Starting", "Starting kubelet.") == nil {
		t.Errorf("node events %v", e.events("node-1", ""))
	}
}

// TestAdmissionRejects: a pod bound to a node without room for it is
// rejected by the kubelet: Failed, reason OutOfcpu.
func TestAdmissionRejects(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	e.addNode("node-1", 1, func(c *kubelet.Config) { c.Capacity = quantities("cpu", "1", "memory", "1Gi", "pods", "110") })
	small := boundPod("small", "node-1", "nginx:1.14.2")
	small.Spec.Containers[0].Resources.Requests = quantities("cpu", "600m")
	big := boundPod("big", "node-1", "nginx:1.14.2")
	big.Spec.Containers[0].Resources.Requests = quantities("cpu", "500m")
	e.create(small)
	e.run(time.Second)
	e.create(big)
	e.run(10 * time.Second)
	p := e.pod("big")
	const msg = "Node didn't have enough resource: cpu, requested: 500, used: 600, capacity: 1000"
	if p.Status.Phase != api.PodFailed || p.Status.Reason != "OutOfcpu" || p.Status.Message != "Pod was rejected: "+msg {
		t.Errorf("big: phase %s reason %q message %q", p.Status.Phase, p.Status.Reason, p.Status.Message)
	}
	if e.findEvent("big", "OutOfcpu", msg) == nil {
		t.Errorf("no OutOfcpu event: %v", e.events("big", ""))
	}
	if e.pod("small").Status.Phase != api.PodRunning {
		t.Errorf("small: %s", e.pod("small").Status.Phase)
	}
}

// TestRunToCompletion: with restartPolicy Never a container that exits 0
// leaves the pod Succeeded, its IP freed; with OnFailure and exit 1 it
// restarts.
func TestRunToCompletion(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	k := e.addNode("node-1", 1, nil)
	job := boundPod("job", "node-1", "example.com/job:v1")
	job.Spec.RestartPolicy = api.RestartPolicyNever
	retry := boundPod("retry", "node-1", "example.com/crash:v1")
	retry.Spec.RestartPolicy = api.RestartPolicyOnFailure
	never := boundPod("never", "node-1", "example.com/crash:v1")
	never.Spec.RestartPolicy = api.RestartPolicyNever
	e.create(job, retry, never)
	e.run(time.Minute)
	p := e.pod("job")
	cs := p.Status.ContainerStatuses[0]
	if p.Status.Phase != api.PodSucceeded || cs.State.Terminated == nil || cs.State.Terminated.Reason != "Completed" {
		t.Errorf("job: phase %s container %+v", p.Status.Phase, cs)
	}
	if c := cond(p, api.PodReady); c == nil || c.Status != api.ConditionFalse || c.Reason != "PodCompleted" {
		t.Errorf("job Ready condition %+v", c)
	}
	if p := e.pod("never"); p.Status.Phase != api.PodFailed {
		t.Errorf("never: phase %s", p.Status.Phase)
	}
	if p := e.pod("retry"); p.Status.Phase != api.PodRunning || p.Status.ContainerStatuses[0].RestartCount < 2 {
		t.Errorf("retry: phase %s restarts %d", p.Status.Phase, p.Status.ContainerStatuses[0].RestartCount)
	}
	if k.IPs() != 1 {
		t.Errorf("IPs in use %d, want 1 (only the restarting pod)", k.IPs())
	}
}

// TestInitContainers: init containers run one after the other before the
// app container; meanwhile the pod is Pending with PodInitializing.
func TestInitContainers(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	e.addNode("node-1", 1, nil)
	p := boundPod("init", "node-1", "nginx:1.14.2")
	p.Spec.InitContainers = []api.Container{{Name: "setup", Image: "example.com/job:v1"}, {Name: "migrate", Image: "busybox:1.36"}}
	e.create(p)
	e.run(4 * time.Second) // sandbox, setup pulled, running
	got := e.pod("init")
	if got.Status.Phase != api.PodPending {
		t.Fatalf("phase %s", got.Status.Phase)
	}
	if c := cond(got, api.PodInitialized); c == nil || c.Status != api.ConditionFalse || c.Message != "containers with incomplete status: [setup migrate]" {
		t.Errorf("Initialized %+v", c)
	}
	if w := got.Status.ContainerStatuses[0].State.Waiting; w == nil || w.Reason != "PodInitializing" {
		t.Errorf("app container %+v", got.Status.ContainerStatuses[0].State)
	}
	e.run(30 * time.Second)
	got = e.pod("init")
	if got.Status.Phase != api.PodRunning {
		t.Fatalf("phase %s after 34s", got.Status.Phase)
	}
	for _, s := range got.Status.InitContainerStatuses {
		if s.State.Terminated == nil || s.State.Terminated.ExitCode != 0 || !s.Ready {
			t.Errorf("init container %s: %+v", s.Name, s)
		}
	}
	started := map[string]time.Time{}
	for _, n := range []string{"setup", "migrate", "app"} {
		for _, ev := range e.events("init", "Started") {
			if ev.Message == "Container started" && strings.HasSuffix(ev.InvolvedObject.FieldPath, "{"+n+"}") {
				started[n] = ev.FirstTimestamp.Time
			}
		}
	}
	if !started["setup"].Before(started["migrate"]) || !started["migrate"].Before(started["app"]) {
		t.Errorf("start order %v", started)
	}
}

// TestSerialPulls: two pods wanting different images on one node pull one
// after the other; the second Pulled event counts the wait.
func TestSerialPulls(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	e.addNode("node-1", 1, nil)
	e.create(boundPod("a", "node-1", "nginx:1.14.2"), boundPod("b", "node-1", "httpd:2.4"))
	e.run(20 * time.Second)
	if e.findEvent("a", "Pulled", `Successfully pulled image "nginx:1.14.2" in 3s (3s including waiting). Image size: 46137344 bytes.`) == nil {
		t.Errorf("a: %v", e.events("a", "Pulled"))
	}
	if e.findEvent("b", "Pulled", `Successfully pulled image "httpd:2.4" in 3s (6s including waiting). Image size: 57671680 bytes.`) == nil {
		t.Errorf("b: %v", e.events("b", "Pulled"))
	}
	// A third pod with the image present and IfNotPresent does not pull.
	e.create(boundPod("c", "node-1", "nginx:1.14.2"))
	e.run(5 * time.Second)
	if e.findEvent("c", "Pulled", `Container image "nginx:1.14.2" already present on machine and can be accessed by the pod`) == nil || len(e.events("c", "Pulling")) != 0 {
		t.Errorf("c: %v", e.events("c", ""))
	}
	// imagePullPolicy Always pulls again, quickly.
	d := boundPod("d", "node-1", "nginx:1.14.2")
	d.Spec.Containers[0].ImagePullPolicy = api.PullAlways
	e.create(d)
	e.run(5 * time.Second)
	if e.findEvent("d", "Pulled", `Successfully pulled image "nginx:1.14.2" in 200ms (200ms including waiting). Image size: 46137344 bytes.`) == nil {
		t.Errorf("d: %v", e.events("d", "Pulled"))
	}
}

// TestNodeCrashAndRecovery: the node's runtime is lost; when it comes back
// the kubelet relists, starts the pod again in a new sandbox (new IP) with
// its restart count continued and the lost container reported as Unknown.
func TestNodeCrashAndRecovery(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	k := e.addNode("node-1", 1, nil)
	e.create(boundPod("web", "node-1", "nginx:1.14.2"))
	e.run(10 * time.Second)
	before := e.pod("web")
	k.Crash()
	if k.IPs() != 0 {
		t.Errorf("IPs in use after a crash: %d", k.IPs())
	}
	e.run(30 * time.Second)
	if p := e.pod("web"); p.ResourceVersion != before.ResourceVersion {
		t.Error("a crashed kubelet wrote the pod")
	}
	k.Recover()
	e.run(10 * time.Second)
	p := e.pod("web")
	cs := p.Status.ContainerStatuses[0]
	if p.Status.Phase != api.PodRunning || !cs.Ready || cs.RestartCount != 1 {
		t.Fatalf("after recovery: phase %s container %+v", p.Status.Phase, cs)
	}
	if last := cs.LastTerminationState.Terminated; last == nil || last.Reason != "Unknown" || last.ExitCode != 255 {
		t.Errorf("last state %+v, want the lost container as Unknown/255", cs.LastTerminationState)
	}
	if p.Status.PodIP == before.Status.PodIP || p.Status.PodIP != "10.244.1.3" {
		t.Errorf("pod IP %s (before %s), want a new one, 10.244.1.3", p.Status.PodIP, before.Status.PodIP)
	}
}

// TestHungKubelet: a stopped kubelet's containers keep running; a pod
// deleted meanwhile stays terminating until the kubelet comes back, which
// then finishes it.
func TestHungKubelet(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	k := e.addNode("node-1", 1, nil)
	e.create(boundPod("a", "node-1", "nginx:1.14.2"), boundPod("b", "node-1", "nginx:1.14.2"))
	e.run(10 * time.Second)
	k.Stop()
	e.c.Go("user", func(p *kernelProcess) {
		grace := int64(5)
		cl := e.c.Client("user/alice", "alice")
		if err := cl.Delete(context.Background(), api.KindPod, api.Key{Namespace: "default", Name: "a"}, clientGrace(grace)); err != nil {
			t.Error(err)
		}
	})
	e.run(time.Minute)
	if p := e.pod("a"); p == nil || p.DeletionTimestamp == nil {
		t.Fatalf("a: %+v, want still there, terminating", p)
	}
	k.Recover()
	e.run(10 * time.Second)
	if e.pod("a") != nil {
		t.Error("a not deleted after the kubelet came back")
	}
	if p := e.pod("b"); p.Status.Phase != api.PodRunning || p.Status.ContainerStatuses[0].RestartCount != 0 {
		t.Errorf("b: phase %s, container %+v; want still running, never restarted", p.Status.Phase, p.Status.ContainerStatuses[0])
	}
}

// TestLossyNetwork runs kubelets over a network that drops, duplicates
// and reorders requests and breaks watch streams: every pod ends Running
// and Ready, every deleted pod disappears, and a seed always gives the
// same trace.
func TestLossyNetwork(t *testing.T) {
	link := netsim.LinkConfig{
		Latency: netsim.Latency{Base: time.Millisecond, Jitter: 4 * time.Millisecond},
		Drop:    0.05, Duplicate: 0.03, Reorder: 0.05, ReorderDelay: 20 * time.Millisecond,
		StreamBreak: 0.02,
	}
	run := func(seed uint64) string {
		e := newEnv(t, cluster.Config{Seed: seed, Link: link})
		for n := range 3 {
			e.addNode(fmt.Sprintf("node-%d", n), n, nil)
		}
		for i := range 15 {
			e.create(boundPod(fmt.Sprintf("p-%02d", i), fmt.Sprintf("node-%d", i%3), "nginx:1.14.2"))
		}
		e.run(3 * time.Minute)
		for i := range 15 {
			p := e.pod(fmt.Sprintf("p-%02d", i))
			if c := cond(p, api.PodReady); p.Status.Phase != api.PodRunning || c == nil || c.Status != api.ConditionTrue || p.Status.PodIP == "" {
				t.Errorf("seed %d: %s phase %s Ready %+v ip %q", seed, p.Name, p.Status.Phase, c, p.Status.PodIP)
			}
		}
		e.c.Go("user", func(p *kernelProcess) {
			cl := e.c.Client("user/alice", "alice")
			for i := range 5 {
				key := api.Key{Namespace: "default", Name: fmt.Sprintf("p-%02d", i)}
				for {
					err := cl.Delete(context.Background(), api.KindPod, key, clientGrace(1))
					if err == nil || errors.Is(err, apierr.ErrNotFound) {
						break
					}
				}
			}
		})
		e.run(3 * time.Minute)
		for i := range 15 {
			if p := e.pod(fmt.Sprintf("p-%02d", i)); (p == nil) != (i < 5) {
				t.Errorf("seed %d: p-%02d present=%v after deletes", seed, i, p != nil)
			}
		}
		return e.c.TraceHash()
	}
	for seed := uint64(1); seed <= 4; seed++ {
		if a, b := run(seed), run(seed); a != b {
			t.Errorf("seed %d: two runs differ", seed)
		}
	}
}

// TestChaos drives kubelets through stops, crashes and recoveries over a
// lossy network while pods come and go, and then lets things settle: every
// pod left runs and is Ready, every deleted pod is gone, no two pods of a
// node share an IP, and each node hands out exactly one IP per pod.
func TestChaos(t *testing.T) {
	link := netsim.LinkConfig{
		Latency: netsim.Latency{Base: time.Millisecond, Jitter: 4 * time.Millisecond},
		Drop:    0.05, Duplicate: 0.03, Reorder: 0.05, ReorderDelay: 20 * time.Millisecond, StreamBreak: 0.02,
	}
	for seed := uint64(1); seed <= 6; seed++ {
		e := newEnv(t, cluster.Config{Seed: seed, Link: link})
		var nodes []*kubelet.Kubelet
		for n := range 3 {
			nodes = append(nodes, e.addNode(fmt.Sprintf("node-%d", n), n, nil))
		}
		rng := e.c.K.Rand("test/chaos")
		images := []string{"nginx:1.14.2", "httpd:2.4", "example.com/graceful:v1", "busybox:1.36"}
		deleted := map[string]bool{}
		cl := e.c.Client("user/chaos", "chaos")
		e.c.Go("chaos", func(p *kernelProcess) {
			ctx := context.Background()
			for i := range 40 {
				p.Sleep(time.Duration(1+rng.IntN(5)) * time.Second)
				name := fmt.Sprintf("p-%02d", i)
				pod := boundPod(name, fmt.Sprintf("node-%d", rng.IntN(3)), images[rng.IntN(len(images))])
				grace := int64(rng.IntN(10))
				pod.Spec.TerminationGracePeriodSeconds = &grace
				for {
					_, err := cl.Create(ctx, pod)
					if err == nil || errors.Is(err, apierr.ErrAlreadyExists) {
						break
					}
				}
				switch rng.IntN(6) {
				case 0:
					k := nodes[rng.IntN(3)]
					k.Stop()
					p.Sleep(time.Duration(rng.IntN(30)) * time.Second)
					k.Recover()
				case 1:
					k := nodes[rng.IntN(3)]
					k.Crash()
					p.Sleep(time.Duration(rng.IntN(30)) * time.Second)
					k.Start()
				case 2, 3:
					victim := fmt.Sprintf("p-%02d", rng.IntN(i+1))
					deleted[victim] = true
					for {
						err := cl.Delete(ctx, api.KindPod, api.Key{Namespace: "default", Name: victim})
						if err == nil || errors.Is(err, apierr.ErrNotFound) {
							break
						}
					}
				}
			}
		})
		e.run(10 * time.Minute)
		perNode := map[string]int{}
		ips := map[string]string{}
		for i := range 40 {
			name := fmt.Sprintf("p-%02d", i)
			p := e.pod(name)
			if deleted[name] {
				if p != nil {
					t.Errorf("seed %d: %s deleted but still there: %+v", seed, name, p.Status)
				}
				continue
			}
			if p == nil {
				t.Errorf("seed %d: %s missing", seed, name)
				continue
			}
			if c := cond(p, api.PodReady); p.Status.Phase != api.PodRunning || c == nil || c.Status != api.ConditionTrue {
				t.Errorf("seed %d: %s phase %s Ready %+v", seed, name, p.Status.Phase, c)
			}
			key := p.Spec.NodeName + "/" + p.Status.PodIP
			if other, dup := ips[key]; dup {
				t.Errorf("seed %d: %s and %s share %s", seed, name, other, key)
			}
			ips[key] = name
			perNode[p.Spec.NodeName]++
		}
		for _, k := range nodes {
			if testing.Verbose() {
				t.Logf("seed %d %s: %+v", seed, k.Name(), k.Stats())
			}
			if k.IPs() != perNode[k.Name()] {
				t.Errorf("seed %d: %s hands out %d IPs for %d pods", seed, k.Name(), k.IPs(), perNode[k.Name()])
			}
		}
	}
}

// TestImageEdgeCases: a reference that does not parse waits as
// InvalidImageName; pull policy Never without the image waits as
// ErrImageNeverPull and runs once the image is there.
func TestImageEdgeCases(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	e.addNode("node-1", 1, nil)
	never := boundPod("never", "node-1", "httpd:2.4")
	never.Spec.Containers[0].ImagePullPolicy = api.PullNever
	e.create(boundPod("invalid", "node-1", "Nginx:1.0"), never)
	e.run(5 * time.Second)
	w := e.pod("invalid").Status.ContainerStatuses[0].State.Waiting
	const invalid = `Failed to apply default image tag "Nginx:1.0": couldn't parse image name "Nginx:1.0": invalid reference format`
	if w == nil || w.Reason != "InvalidImageName" || w.Message != invalid {
		t.Errorf("invalid: waiting %+v", w)
	}
	if e.findEvent("invalid", "InspectFailed", invalid) == nil || e.findEvent("invalid", "Failed", "Error: InvalidImageName") == nil {
		t.Errorf("invalid: events %v", e.events("invalid", ""))
	}
	w = e.pod("never").Status.ContainerStatuses[0].State.Waiting
	const neverMsg = `Container image "httpd:2.4" is not present with pull policy of Never`
	if w == nil || w.Reason != "ErrImageNeverPull" || w.Message != neverMsg {
		t.Errorf("never: waiting %+v", w)
	}
	// Another pod brings the image onto the node: the Never pod starts at
	// its next sync.
	e.create(boundPod("puller", "node-1", "httpd:2.4"))
	e.run(20 * time.Second)
	if p := e.pod("never"); p.Status.Phase != api.PodRunning {
		t.Errorf("never: phase %s after the image arrived", p.Status.Phase)
	}
}

// TestStatusRepostedWhenStoredDiffers: when the stored Node no longer says
// what the kubelet sees (the node lifecycle controller marked it Unknown
// while the kubelet was cut off), the kubelet posts its status again
// within one StatusUpdateFrequency, not at the next 5-minute report.
func TestStatusRepostedWhenStoredDiffers(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	e.addNode("n1", 1, nil)
	e.c.RunFor(time.Minute)
	o, err := e.c.Store.Get(api.KindNode, api.Key{Name: "n1"})
	if err != nil {
		t.Fatal(err)
	}
	n := o.DeepCopyObject().(*api.Node)
	for i := range n.Status.Conditions {
		n.Status.Conditions[i].Status = api.ConditionUnknown
		n.Status.Conditions[i].Reason = "NodeStatusUnknown"
	}
	if _, err := e.c.Store.Update(store.Op{Actor: "system:serviceaccount:kube-system:node-controller"}, n, "status"); err != nil {
		t.Fatal(err)
	}
	e.c.RunFor(11 * time.Second)
	o, _ = e.c.Store.Get(api.KindNode, api.Key{Name: "n1"})
	for _, c := range o.(*api.Node).Status.Conditions {
		if c.Type == api.NodeReady && c.Status != api.ConditionTrue {
			t.Errorf("11s after the stored status went Unknown, Ready is %s", c.Status)
		}
	}
}

// TestNodeStatusFromLister: the node status loop reads the kubelet's node
// lister, as upstream's has since kubernetes/kubernetes#123977, not the
// API server: no GET of the Node while all is well; a condition another
// writer changes (Ready Unknown, as the node lifecycle controller sets
// it) reaches the kubelet by its watch and is put right at the next tick;
// and a try that fails is followed by up to four more at once, each from
// a GET (upstream's nodeStatusUpdateRetry). Each write is a patch.
func TestNodeStatusFromLister(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	e.addNode("node-1", 1, nil)
	counts := func() map[string]uint64 {
		out := map[string]uint64{}
		for _, s := range e.c.API.Stats() {
			if s.Actor == kubelet.Actor("node-1") && s.Kind == api.KindNode {
				out[fmt.Sprintf("%v %s", s.Verb, s.Outcome)] += s.Count
			}
		}
		return out
	}
	ready := func() api.ConditionStatus {
		t.Helper()
		o, err := e.c.Store.Get(api.KindNode, api.Key{Name: "node-1"})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range o.(*api.Node).Status.Conditions {
			if c.Type == api.NodeReady {
				return c.Status
			}
		}
		return ""
	}
	markUnknown := func() {
		t.Helper()
		o, _ := e.c.Store.Get(api.KindNode, api.Key{Name: "node-1"})
		n := o.DeepCopyObject().(*api.Node)
		for i := range n.Status.Conditions {
			if n.Status.Conditions[i].Type == api.NodeReady {
				n.Status.Conditions[i].Status = api.ConditionUnknown
			}
		}
		if _, err := e.c.Store.Update(store.Op{Actor: "system:serviceaccount:kube-system:node-controller"}, n, "status"); err != nil {
			t.Fatal(err)
		}
	}

	e.run(11 * time.Minute)
	c := counts()
	if c[fmt.Sprintf("%v ok", apiserver.Get)] != 0 || c[fmt.Sprintf("%v ok", apiserver.List)] != 1 || c[fmt.Sprintf("%v ok", apiserver.Patch)] != 2 {
		t.Errorf("in 11 quiet minutes the kubelet's Node requests were %v; want no get, one list, two status patches (at 5 and 10 minutes)", c)
	}

	markUnknown()
	e.run(11 * time.Second)
	if got := ready(); got != api.ConditionTrue {
		t.Errorf("Ready %s 11s after another writer set it Unknown; want True again", got)
	}
	if got := counts()[fmt.Sprintf("%v ok", apiserver.Get)]; got != 0 {
		t.Errorf("%d GETs of the Node to see another writer's change; want none (the watch brings it)", got)
	}

	markUnknown()
	e.run(100 * time.Millisecond)
	e.c.API.SetAvailable(false)
	e.run(25 * time.Second)
	e.c.API.SetAvailable(true)
	e.run(11 * time.Second)
	c = counts()
	failed := c[fmt.Sprintf("%v %s", apiserver.Patch, apiserver.Unavailable)]
	gets := c[fmt.Sprintf("%v %s", apiserver.Get, apiserver.Unavailable)]
	if failed == 0 || gets != 4*failed {
		t.Errorf("while the server refused: %d failed status patches and %d failed GETs; want some writes, each followed by four GETs (%v)", failed, gets, c)
	}
	if got := ready(); got != api.ConditionTrue {
		t.Errorf("Ready %s after the server came back; want True", got)
	}
}

// TestStatsCountPodReflector: the kubelet's Stats count its pod source's
// lists and watches, as many as the API server accepted from it, and not
// the node lister's, which lists and watches its Node beside them.
func TestStatsCountPodReflector(t *testing.T) {
	e := newEnv(t, cluster.Config{Seed: 1})
	k := e.addNode("node-1", 1, nil)
	e.run(11 * time.Minute)
	server := map[string]uint64{}
	for _, s := range e.c.API.Stats() {
		if s.Actor == kubelet.Actor("node-1") && s.Outcome == apiserver.OK {
			server[fmt.Sprintf("%s %v", s.Kind.Name, s.Verb)] += s.Count
		}
	}
	st := k.Stats()
	pods := fmt.Sprintf("%s %v", api.KindPod.Name, apiserver.List)
	podWatches := fmt.Sprintf("%s %v", api.KindPod.Name, apiserver.Watch)
	nodes := fmt.Sprintf("%s %v", api.KindNode.Name, apiserver.List)
	nodeWatches := fmt.Sprintf("%s %v", api.KindNode.Name, apiserver.Watch)
	if server[pods] == 0 || server[podWatches] == 0 || server[nodes] == 0 || server[nodeWatches] == 0 {
		t.Fatalf("the server's counts of the kubelet's requests %v: want pod and node lists and watches", server)
	}
	if st.Lists != server[pods] || st.Watches != server[podWatches] {
		t.Errorf("Stats: %d lists, %d watches; the server accepted %d pod lists and %d pod watches (and %d node lists, %d node watches, not counted)",
			st.Lists, st.Watches, server[pods], server[podWatches], server[nodes], server[nodeWatches])
	}
}
