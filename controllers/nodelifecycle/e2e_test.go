package nodelifecycle_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/controllers/nodelifecycle"
	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

const (
	grace       = nodelifecycle.DefaultGracePeriod
	period      = nodelifecycle.DefaultMonitorPeriod
	toleration  = 300 * time.Second
	renewJitter = 10*time.Second + 400*time.Millisecond // the kubelet's renew interval, jittered by up to 4%
)

type env struct {
	t        *testing.T
	c        *cluster.Cluster
	kubelets map[string]*kubelet.Kubelet
	managers map[string]*controller.Manager
}

// newEnv runs the Kubernetes documentation's nginx Deployment (3
// replicas) on three nodes with real kubelets, the scheduler, the
// ReplicaSet and Deployment controllers, the node lifecycle controller and
// the taint eviction controller, each in its own manager.
func newEnv(t *testing.T, link netsim.LinkConfig) *env {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1, Link: link})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, c: c, kubelets: map[string]*kubelet.Kubelet{}, managers: map[string]*controller.Manager{}}
	for i := 1; i <= 3; i++ {
		name := fmt.Sprintf("node-%d", i)
		k, err := kubelet.New(c.Net, c.APIEndpoint.Addr(), kubelet.Config{
			NodeName: name,
			Capacity: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4"), api.ResourceMemory: api.MustParseQuantity("16Gi")},
			PodCIDR:  fmt.Sprintf("10.244.%d.0/24", i),
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Bootstrap(k.Node()); err != nil {
			t.Fatal(err)
		}
		k.Start()
		e.kubelets[name] = k
	}
	objs, err := manifest.DecodeFile("../../testdata/kubernetes-docs/nginx-deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name, actor string
		setup       func(*controller.Manager) error
	}{
		{"kube-scheduler", scheduler.Actor, func(m *controller.Manager) error { return scheduler.Setup(m, scheduler.Options{}) }},
		{"replicaset", replicaset.Actor, func(m *controller.Manager) error { return replicaset.Setup(m, replicaset.Options{}) }},
		{"deployment", deployment.Actor, func(m *controller.Manager) error { return deployment.Setup(m, deployment.Options{}) }},
		{"node-lifecycle", nodelifecycle.Actor, func(m *controller.Manager) error { return nodelifecycle.Setup(m, nodelifecycle.Options{}) }},
		{"taint-eviction", nodelifecycle.EvictionActor, func(m *controller.Manager) error {
			return nodelifecycle.SetupEviction(m, nodelifecycle.EvictionOptions{})
		}},
	} {
		mgr := c.AddManager(m.name, m.actor, m.setup)
		if err := mgr.Start(); err != nil {
			t.Fatal(err)
		}
		e.managers[m.name] = mgr
	}
	return e
}

func (e *env) now() time.Duration { return e.c.K.Now().Duration() }

func (e *env) node(name string) *api.Node {
	o, err := e.c.Store.Get(api.KindNode, api.Key{Name: name})
	if err != nil {
		e.t.Fatal(err)
	}
	return o.(*api.Node)
}

func (e *env) pods() []*api.Pod {
	sel := api.SelectorFromSet(map[string]string{"app.kubernetes.io/name": "nginx"})
	objs, _, err := e.c.Store.List(api.KindPod, store.ListOptions{Namespace: "default", Labels: &sel})
	if err != nil {
		e.t.Fatal(err)
	}
	out := make([]*api.Pod, len(objs))
	for i, o := range objs {
		out[i] = o.(*api.Pod)
	}
	return out
}

func ready(p *api.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

func readyCondition(n *api.Node) *api.NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == api.NodeReady {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

func findTaint(n *api.Node, key string, effect api.TaintEffect) *api.Taint {
	for i := range n.Spec.Taints {
		if n.Spec.Taints[i].Key == key && n.Spec.Taints[i].Effect == effect {
			return &n.Spec.Taints[i]
		}
	}
	return nil
}

// unknownAt returns when the node lifecycle controller set the node's
// Ready condition to Unknown.
func (e *env) unknownAt(node string) time.Duration {
	return e.changedAt(node, 0, func(ch store.Change) bool {
		return ch.Path == "status.conditions[Ready].status" && ch.New == "Unknown"
	})
}

// changedAt returns when the node lifecycle controller first wrote the
// node, at from or later, with a change match accepts; -1 if it never did.
func (e *env) changedAt(node string, from time.Duration, match func(store.Change) bool) time.Duration {
	for _, r := range e.c.Store.Audit().Records() {
		if r.Actor != nodelifecycle.Actor || r.Kind != api.KindNode || r.Key.Name != node || r.Time.Duration() < from {
			continue
		}
		for ch := range r.EachChange() {
			if match(ch) {
				return r.Time.Duration()
			}
		}
	}
	return -1
}

// evictedAt returns when the taint eviction controller deleted each pod.
func (e *env) evictedAt() map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, r := range e.c.Store.Audit().Records() {
		if r.Actor == nodelifecycle.EvictionActor && r.Kind == api.KindPod && r.Verb == "delete" {
			if _, ok := out[r.Key.Name]; !ok {
				out[r.Key.Name] = r.Time.Duration()
			}
		}
	}
	return out
}

func (e *env) events(reason string) []*api.Event {
	objs, _, _ := e.c.Store.List(api.KindEvent, store.ListOptions{})
	var out []*api.Event
	for _, o := range objs {
		if ev := o.(*api.Event); ev.Reason == reason {
			out = append(out, ev)
		}
	}
	return out
}

// TestNodeCrashEvictsAndRecovers is the scenario: a node's
// kubelet crashes; the node goes Unknown one grace period after its last
// heartbeat and is tainted unreachable; its pods, which tolerate that
// taint for the default 300s, are deleted 300s after the taint; their
// replacements (new names, new IPs) run on the other nodes; when the
// kubelet comes back the node is Ready again and untainted, and the
// deleted pods' deletion completes.
func TestNodeCrashEvictsAndRecovers(t *testing.T) {
	e := newEnv(t, netsim.LinkConfig{})
	e.c.RunFor(time.Minute)
	pods := e.pods()
	if len(pods) != 3 {
		t.Fatalf("%d pods after a minute, want 3", len(pods))
	}
	victim := pods[0].Spec.NodeName
	var doomed []*api.Pod
	for _, p := range pods {
		if !ready(p) {
			t.Fatalf("pod %s not ready after a minute", p.Name)
		}
		if len(p.Spec.Tolerations) != 2 || *p.Spec.Tolerations[1].TolerationSeconds != 300 {
			t.Fatalf("pod %s tolerations %+v, want the DefaultTolerationSeconds ones", p.Name, p.Spec.Tolerations)
		}
		if p.Spec.NodeName == victim {
			doomed = append(doomed, p)
		}
	}

	crash := e.now()
	leaseObj, err := e.c.Store.Get(api.KindLease, api.Key{Namespace: nodelifecycle.LeaseNamespace, Name: victim})
	if err != nil {
		t.Fatal(err)
	}
	lastRenew := leaseObj.(*api.Lease).Spec.RenewTime.Time.Sub(e.c.K.Now().Wall()) + crash
	e.kubelets[victim].Crash()
	e.kubelets[victim].Endpoint().SetDown(true)

	e.c.RunFor(grace + toleration + 2*time.Minute)

	// Unknown one grace period after the last heartbeat, at the first
	// health pass after that (a period at most).
	unknown := e.unknownAt(victim)
	if unknown <= lastRenew+grace || unknown > lastRenew+grace+period {
		t.Errorf("node Unknown at %v; last lease renewal at %v, want within (%v, %v]", unknown, lastRenew, lastRenew+grace, lastRenew+grace+period)
	}
	if unknown < crash+grace-renewJitter || unknown > crash+grace+period {
		t.Errorf("node Unknown at %v, crash at %v: want within [crash+grace-renew interval, crash+grace+period]", unknown, crash)
	}
	n := e.node(victim)
	rc := readyCondition(n)
	if rc == nil || rc.Status != api.ConditionUnknown || rc.Reason != "NodeStatusUnknown" || rc.Message != "Kubelet stopped posting node status." {
		t.Fatalf("Ready = %+v", rc)
	}
	for _, c := range n.Status.Conditions {
		if c.Status != api.ConditionUnknown {
			t.Errorf("condition %s = %s, want Unknown", c.Type, c.Status)
		}
	}
	// Tainted unreachable at the next pass (upstream taints from the
	// observed, already Unknown, condition), with the NoSchedule twin.
	ne := findTaint(n, api.TaintNodeUnreachable, api.TaintEffectNoExecute)
	if ne == nil || ne.TimeAdded == nil || findTaint(n, api.TaintNodeUnreachable, api.TaintEffectNoSchedule) == nil {
		t.Fatalf("taints %+v, want unreachable NoExecute (with timeAdded) and NoSchedule", n.Spec.Taints)
	}
	tainted := ne.TimeAdded.Time.Sub(e.c.K.Now().Wall()) + e.now()
	if tainted < unknown.Truncate(time.Second) || tainted > unknown+period+time.Second {
		t.Errorf("tainted at %v, Unknown at %v: want within one monitor period", tainted, unknown)
	}

	// Evicted 300s after the taint.
	evicted := e.evictedAt()
	if len(evicted) != len(doomed) {
		t.Fatalf("evicted %v, want the %d pods of %s", evicted, len(doomed), victim)
	}
	doomedNames := map[string]bool{}
	for _, p := range doomed {
		doomedNames[p.Name] = true
		at, ok := evicted[p.Name]
		if !ok {
			t.Fatalf("pod %s of %s not evicted", p.Name, victim)
		}
		if at < tainted+toleration || at > tainted+toleration+time.Second {
			t.Errorf("pod %s evicted at %v, tainted at %v: want 300s later", p.Name, at, tainted)
		}
		if at < crash+grace+toleration-renewJitter || at > crash+grace+toleration+2*period+time.Second {
			t.Errorf("pod %s evicted at %v, crash at %v: want about crash+grace+300s", p.Name, at, crash)
		}
	}
	var msgs []string
	for _, ev := range e.events(nodelifecycle.ReasonTaintManagerEviction) {
		msgs = append(msgs, ev.Message)
		if ev.Source.Component != nodelifecycle.EvictionName || ev.Type != api.EventTypeNormal {
			t.Errorf("eviction event %+v", ev)
		}
	}
	for _, p := range doomed {
		if want := "Marking for deletion Pod default/" + p.Name; !slices.Contains(msgs, want) {
			t.Errorf("no event %q in %q", want, msgs)
		}
	}
	if evs := e.events("NodeNotReady"); len(evs) == 0 {
		t.Error("no NodeNotReady events")
	}

	// The deleted pods wait, terminating, for their kubelet; their
	// replacements run elsewhere.
	var running []*api.Pod
	for _, p := range e.pods() {
		if doomedNames[p.Name] {
			if p.DeletionTimestamp == nil || ready(p) {
				t.Errorf("evicted pod %s: deletionTimestamp %v, ready %v; want terminating and not ready", p.Name, p.DeletionTimestamp, ready(p))
			}
			var dt bool
			for _, c := range p.Status.Conditions {
				dt = dt || (c.Type == api.DisruptionTarget && c.Reason == nodelifecycle.ReasonDeletionByTaintManager)
			}
			if !dt {
				t.Errorf("evicted pod %s has no DisruptionTarget condition", p.Name)
			}
			continue
		}
		running = append(running, p)
	}
	if len(running) != 3 {
		t.Fatalf("%d pods besides the evicted ones, want 3 replacements and survivors", len(running))
	}
	for _, p := range running {
		if p.Spec.NodeName == victim || !ready(p) || p.Status.PodIP == "" {
			t.Errorf("pod %s on %s ready %v ip %q: want running elsewhere", p.Name, p.Spec.NodeName, ready(p), p.Status.PodIP)
		}
		for _, d := range doomed {
			if p.Status.PodIP == d.Status.PodIP {
				t.Errorf("replacement %s reuses the evicted pod's IP %s", p.Name, p.Status.PodIP)
			}
		}
	}

	// The kubelet comes back: Ready, untainted, the evicted pods gone.
	back := e.now()
	e.kubelets[victim].Endpoint().SetDown(false)
	e.kubelets[victim].Recover()
	e.c.RunFor(time.Minute)
	n = e.node(victim)
	if rc := readyCondition(n); rc == nil || rc.Status != api.ConditionTrue {
		t.Errorf("Ready after recovery = %+v, want True", rc)
	}
	for _, tn := range n.Spec.Taints {
		if tn.Key == api.TaintNodeUnreachable || tn.Key == api.TaintNodeNotReady {
			t.Errorf("taint %s:%s remains after recovery", tn.Key, tn.Effect)
		}
	}
	for _, p := range e.pods() {
		if doomedNames[p.Name] {
			t.Errorf("evicted pod %s still stored %v after the kubelet came back at %v", p.Name, e.now()-back, back)
		}
	}
}

// TestNodeLifecycleLossyDeterministic: the same crash over a network that
// drops, duplicates and delays messages still ends with the pods
// replaced, and two runs of one seed leave the same trace.
func TestNodeLifecycleLossyDeterministic(t *testing.T) {
	link := netsim.LinkConfig{Latency: netsim.Latency{Base: time.Millisecond, Jitter: 5 * time.Millisecond}, Drop: 0.03, Duplicate: 0.03}
	var hashes []string
	for range 2 {
		e := newEnv(t, link)
		// A lost list costs its 60s timeout: give the informers time.
		e.c.RunFor(3 * time.Minute)
		victim := ""
		for _, p := range e.pods() {
			if ready(p) {
				victim = p.Spec.NodeName
				break
			}
		}
		if victim == "" {
			t.Fatal("no pod ready after 3 minutes")
		}
		e.kubelets[victim].Crash()
		e.kubelets[victim].Endpoint().SetDown(true)
		e.c.RunFor(grace + toleration + 2*time.Minute)
		live := 0
		for _, p := range e.pods() {
			if p.DeletionTimestamp == nil && ready(p) && p.Spec.NodeName != victim {
				live++
			}
		}
		if live != 3 {
			var s []string
			for _, p := range e.pods() {
				s = append(s, fmt.Sprintf("%s@%s ready=%v deleting=%v", p.Name, p.Spec.NodeName, ready(p), p.DeletionTimestamp != nil))
			}
			t.Errorf("%d live pods off %s, want 3: %s", live, victim, strings.Join(s, "; "))
		}
		hashes = append(hashes, e.c.TraceHash())
	}
	if hashes[0] != hashes[1] {
		t.Errorf("two runs of one seed differ: %s vs %s", hashes[0], hashes[1])
	}
}

// TestRestartRetaints: a node lifecycle controller restarted while a node
// is tainted untaints every node it registers and taints the silent one
// again, with a new timeAdded, as upstream's does; the pods are then
// evicted 300s after the new taint.
func TestRestartRetaints(t *testing.T) {
	e := newEnv(t, netsim.LinkConfig{})
	e.c.RunFor(time.Minute)
	victim := e.pods()[0].Spec.NodeName
	e.kubelets[victim].Crash()
	e.kubelets[victim].Endpoint().SetDown(true)
	e.c.RunFor(2 * time.Minute)
	first := findTaint(e.node(victim), api.TaintNodeUnreachable, api.TaintEffectNoExecute)
	if first == nil {
		t.Fatal("not tainted 2 minutes after the crash")
	}
	restart := e.now()
	if err := e.managers["node-lifecycle"].Restart(); err != nil {
		t.Fatal(err)
	}
	e.c.RunFor(30 * time.Second)
	again := findTaint(e.node(victim), api.TaintNodeUnreachable, api.TaintEffectNoExecute)
	if again == nil || !again.TimeAdded.Time.After(first.TimeAdded.Time) {
		t.Fatalf("taint after restart %+v, first %+v: want a new timeAdded", again, first)
	}
	retainted := again.TimeAdded.Time.Sub(e.c.K.Now().Wall()) + e.now()
	if retainted < restart || retainted > restart+2*period+time.Second {
		t.Errorf("re-tainted at %v, restart at %v", retainted, restart)
	}
	e.c.RunFor(toleration)
	for name, at := range e.evictedAt() {
		if at < retainted+toleration || at > retainted+toleration+time.Second {
			t.Errorf("pod %s evicted at %v, want 300s after the new taint at %v", name, at, retainted)
		}
	}
	if len(e.evictedAt()) == 0 {
		t.Error("nothing evicted")
	}
	var cancelled bool
	for _, ev := range e.events(nodelifecycle.ReasonTaintManagerEviction) {
		cancelled = cancelled || strings.HasPrefix(ev.Message, "Cancelling deletion of Pod ")
	}
	if !cancelled {
		t.Error("the untainting did not cancel the pending deletions")
	}
}

// TestNodeRemovedThenOthersWatched deletes a node in the middle of the
// list, then crashes the node after it: the controller forgets the
// deleted node (RemovingNode) and still marks the crashed one Unknown,
// though every node after the deleted one moved up a place in the list
// the health pass walks.
func TestNodeRemovedThenOthersWatched(t *testing.T) {
	e := newEnv(t, netsim.LinkConfig{})
	e.c.RunFor(time.Minute)
	e.kubelets["node-2"].Crash()
	e.kubelets["node-2"].Endpoint().SetDown(true)
	if _, _, err := e.c.Store.Delete(store.Op{Actor: "admin"}, api.KindNode, api.Key{Name: "node-2"}, store.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.c.RunFor(2 * period)
	objs, _, err := e.c.Store.List(api.KindEvent, store.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	removed := 0
	for _, o := range objs {
		if ev := o.(*api.Event); ev.Reason == "RemovingNode" {
			removed++
			if ev.InvolvedObject.Name != "node-2" {
				t.Errorf("RemovingNode for %s", ev.InvolvedObject.Name)
			}
		}
	}
	if removed != 1 {
		t.Errorf("%d RemovingNode events, want 1 (node-2)", removed)
	}
	e.kubelets["node-3"].Crash()
	e.kubelets["node-3"].Endpoint().SetDown(true)
	e.c.RunFor(grace + 2*period)
	if rc := readyCondition(e.node("node-3")); rc == nil || rc.Status != api.ConditionUnknown {
		t.Errorf("node-3 Ready = %+v, want Unknown", rc)
	}
	if rc := readyCondition(e.node("node-1")); rc == nil || rc.Status != api.ConditionTrue {
		t.Errorf("node-1 Ready = %+v, want True", rc)
	}
}

// TestReadyConditionReadAfresh: a node whose Ready condition turns
// False while its lease keeps being renewed is seen so by the next health
// pass, which taints it not-ready NoExecute; when the kubelet posts its
// Ready condition again (within its 10 s status check) the next pass
// takes the taint off. The health pass keeps each node's Ready condition
// per node object; it must read every new object's, not hold on to the
// first it saw.
func TestReadyConditionReadAfresh(t *testing.T) {
	e := newEnv(t, netsim.LinkConfig{})
	e.c.RunFor(time.Minute)
	const victim = "node-2"
	n := e.node(victim).DeepCopy()
	rc := readyCondition(n)
	rc.Status, rc.Reason = api.ConditionFalse, "KubeletNotReady"
	if _, err := e.c.Store.Update(store.Op{Actor: "system:node:" + victim}, n, "status"); err != nil {
		t.Fatal(err)
	}
	posted := e.now()
	e.c.RunFor(30 * time.Second)
	tainted := e.changedAt(victim, posted, func(ch store.Change) bool {
		return strings.HasPrefix(ch.Path, "spec.taints[") && strings.HasSuffix(ch.Path, "].effect") && ch.New == string(api.TaintEffectNoExecute)
	})
	if tainted < 0 || tainted > posted+period {
		t.Errorf("Ready False posted at %v: tainted NoExecute at %v, want by the next pass (%v)", posted, tainted, posted+period)
	}
	got := e.node(victim)
	if rc := readyCondition(got); rc.Status != api.ConditionTrue {
		t.Fatalf("Ready %s 30s later, want the kubelet's True again", rc.Status)
	}
	if findTaint(got, api.TaintNodeNotReady, api.TaintEffectNoExecute) != nil {
		t.Errorf("not-ready NoExecute taint left 30s later, Ready again: taints %v", got.Spec.Taints)
	}
}
