package scheduler_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

func quantities(kv ...string) api.ResourceList {
	out := api.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[api.ResourceName(kv[i])] = api.MustParseQuantity(kv[i+1])
	}
	return out
}

// readyNode is a Node as a kubelet would have registered it.
func readyNode(name, cpu string) *api.Node {
	alloc := quantities("cpu", cpu, "memory", "4Gi", "pods", "110")
	return &api.Node{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: api.NodeStatus{
			Capacity: alloc, Allocatable: alloc,
			Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status"}},
		},
	}
}

func pendingPod(name, cpu string) *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.PodSpec{Containers: []api.Container{{
			Name: "app", Image: "nginx:1.14.2",
			Resources: api.ResourceRequirements{Requests: quantities("cpu", cpu)},
		}}},
	}
}

func newCluster(t *testing.T, cfg cluster.Config, objs ...api.Object) (*cluster.Cluster, *controller.Manager) {
	t.Helper()
	c, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	m := c.AddManager("kube-scheduler", scheduler.Actor, func(m *controller.Manager) error {
		return scheduler.Setup(m, scheduler.Options{})
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	return c, m
}

func getPod(t *testing.T, c *cluster.Cluster, name string) *api.Pod {
	t.Helper()
	o, err := c.Store.Get(api.KindPod, api.Key{Namespace: "default", Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return o.(*api.Pod)
}

func condition(p *api.Pod, typ api.PodConditionType) *api.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == typ {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// events returns the Events about pod with the given reason.
func events(c *cluster.Cluster, pod, reason string) []*api.Event {
	objs, _, _ := c.Store.List(api.KindEvent, store.ListOptions{Namespace: "default"})
	var out []*api.Event
	for _, o := range objs {
		e := o.(*api.Event)
		if e.InvolvedObject.Name == pod && e.Reason == reason {
			out = append(out, e)
		}
	}
	return out
}

// TestUnschedulableThenNodeAdded is the scenario: a pod asking for
// 2 CPUs on three 1-CPU nodes stays Pending with upstream's message, the
// FailedScheduling event repeating, until a 4-CPU node joins; then it is
// bound within seconds. No node could take the pod even empty, so
// preemption finds every node not helpful (NodeResourcesFit's
// UnschedulableAndUnresolvable, since 1.34).
func TestUnschedulableThenNodeAdded(t *testing.T) {
	c, _ := newCluster(t, cluster.Config{Seed: 1},
		readyNode("node-1", "1"), readyNode("node-2", "1"), readyNode("node-3", "1"), pendingPod("big", "2"))
	const msg = "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	for step := range 12 {
		c.RunFor(time.Minute)
		p := getPod(t, c, "big")
		cond := condition(p, api.PodScheduled)
		if p.Spec.NodeName != "" || cond == nil || cond.Status != api.ConditionFalse ||
			cond.Reason != api.PodReasonUnschedulable || cond.Message != msg {
			t.Fatalf("minute %d: nodeName %q, PodScheduled %+v; want Pending with %q", step+1, p.Spec.NodeName, cond, msg)
		}
	}
	evs := events(c, "big", scheduler.EventFailedScheduling)
	if len(evs) != 1 || evs[0].Type != "Warning" || evs[0].Message != msg || evs[0].Source.Component != "default-scheduler" {
		t.Fatalf("FailedScheduling events = %+v, want one aggregated Warning from default-scheduler", evs)
	}
	// Tried at once, then after 5 and 10 minutes in the unschedulable pool.
	if evs[0].Count != 3 {
		t.Errorf("FailedScheduling count = %d after 12 minutes, want 3", evs[0].Count)
	}

	added := c.K.Now()
	if err := c.Bootstrap(readyNode("node-4", "4")); err != nil {
		t.Fatal(err)
	}
	c.RunFor(5 * time.Second)
	p := getPod(t, c, "big")
	if p.Spec.NodeName != "node-4" {
		t.Fatalf("5s after node-4 joined: nodeName = %q, want node-4", p.Spec.NodeName)
	}
	if cond := condition(p, api.PodScheduled); cond == nil || cond.Status != api.ConditionTrue {
		t.Errorf("PodScheduled = %+v, want True", cond)
	}
	sched := events(c, "big", scheduler.EventScheduled)
	if len(sched) != 1 || sched[0].Message != "Successfully assigned default/big to node-4" {
		t.Fatalf("Scheduled events = %+v", sched)
	}
	var boundAt time.Duration
	for _, r := range c.Store.Audit().Records() {
		if r.Kind == api.KindPod && r.Key.Name == "big" && r.Actor == scheduler.Actor && r.Subresource == "binding" && r.Verb == "create" {
			boundAt = r.Time.Duration()
		}
	}
	if d := boundAt - added.Duration(); d < 0 || d > 2*time.Second {
		t.Errorf("bound %v after the node joined, want within seconds", d)
	}
}

// TestNoNodes checks upstream's message for an empty cluster.
func TestNoNodes(t *testing.T) {
	c, _ := newCluster(t, cluster.Config{Seed: 1}, pendingPod("lonely", "100m"))
	c.RunFor(10 * time.Second)
	cond := condition(getPod(t, c, "lonely"), api.PodScheduled)
	if cond == nil || cond.Reason != api.PodReasonUnschedulable || cond.Message != "no nodes available to schedule pods" {
		t.Fatalf("PodScheduled = %+v", cond)
	}
	c.Bootstrap(readyNode("late", "1"))
	c.RunFor(5 * time.Second)
	if n := getPod(t, c, "lonely").Spec.NodeName; n != "late" {
		t.Errorf("nodeName = %q after a node joined, want late", n)
	}
}

// TestSpreadAndCapacity schedules more pods than fit: LeastAllocated
// spreads them, nothing is over-committed, the rest stay Pending with
// the right counts.
func TestSpreadAndCapacity(t *testing.T) {
	objs := []api.Object{readyNode("a", "4"), readyNode("b", "4"), readyNode("c", "4")}
	for i := range 14 {
		objs = append(objs, pendingPod(fmt.Sprintf("p-%02d", i), "1"))
	}
	c, _ := newCluster(t, cluster.Config{Seed: 3}, objs...)
	c.RunFor(time.Minute)
	perNode := map[string]int{}
	var pending []string
	for i := range 14 {
		p := getPod(t, c, fmt.Sprintf("p-%02d", i))
		if p.Spec.NodeName == "" {
			pending = append(pending, p.Name)
			continue
		}
		perNode[p.Spec.NodeName]++
	}
	if perNode["a"] != 4 || perNode["b"] != 4 || perNode["c"] != 4 || len(pending) != 2 {
		t.Fatalf("per node %v, pending %v; want 4 each and 2 pending", perNode, pending)
	}
	for _, name := range pending {
		cond := condition(getPod(t, c, name), api.PodScheduled)
		if want := "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."; cond == nil || cond.Message != want {
			t.Errorf("%s: PodScheduled %+v, want message %q", name, cond, want)
		}
	}
}

// TestLossyNetwork schedules pods over a network that drops and
// duplicates messages: every pod ends bound, and a seed always gives the
// same run.
func TestLossyNetwork(t *testing.T) {
	link := netsim.LinkConfig{
		Latency: netsim.Latency{Base: time.Millisecond, Jitter: 4 * time.Millisecond},
		Drop:    0.05, Duplicate: 0.03, Reorder: 0.05, ReorderDelay: 20 * time.Millisecond,
	}
	run := func(seed uint64) (string, int) {
		objs := []api.Object{readyNode("a", "8"), readyNode("b", "8"), readyNode("c", "8")}
		for i := range 12 {
			objs = append(objs, pendingPod(fmt.Sprintf("p-%02d", i), "500m"))
		}
		c, _ := newCluster(t, cluster.Config{Seed: seed, Link: link, RequestTimeout: 2 * time.Second}, objs...)
		c.RunFor(3 * time.Minute)
		bound := 0
		for i := range 12 {
			p := getPod(t, c, fmt.Sprintf("p-%02d", i))
			if p.Spec.NodeName == "" {
				continue
			}
			bound++
			// A binding whose reply was lost still ends with the
			// condition written.
			if cond := condition(p, api.PodScheduled); cond == nil || cond.Status != api.ConditionTrue {
				t.Errorf("seed %d: %s bound to %s with PodScheduled %+v", seed, p.Name, p.Spec.NodeName, cond)
			}
		}
		return c.TraceHash(), bound
	}
	for seed := uint64(1); seed <= 5; seed++ {
		h1, bound := run(seed)
		if bound != 12 {
			t.Errorf("seed %d: %d of 12 pods bound", seed, bound)
		}
		if h2, _ := run(seed); h1 != h2 {
			t.Errorf("seed %d: two runs differ", seed)
		}
	}
}

// TestCrashRestart crashes the scheduler mid-run: the new incarnation
// rebuilds its cache from the informers and does not double-book a node.
func TestCrashRestart(t *testing.T) {
	objs := []api.Object{readyNode("a", "2")}
	for i := range 3 {
		objs = append(objs, pendingPod(fmt.Sprintf("p-%d", i), "1"))
	}
	c, m := newCluster(t, cluster.Config{Seed: 9}, objs...)
	c.RunFor(10 * time.Second)
	m.Crash()
	c.RunFor(10 * time.Second)
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	c.RunFor(30 * time.Second)
	bound := 0
	for i := range 3 {
		if getPod(t, c, fmt.Sprintf("p-%d", i)).Spec.NodeName == "a" {
			bound++
		}
	}
	if bound != 2 {
		t.Errorf("%d pods bound to the 2-CPU node, want 2", bound)
	}
}

// TestWithKubelets runs the scheduler with real kubelets: nodes register
// themselves, pods are bound and then run; a cordoned node gets none.
func TestWithKubelets(t *testing.T) {
	c, err := cluster.New(cluster.Config{Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	for n := range 3 {
		k, err := kubelet.New(c.Net, c.APIEndpoint.Addr(), kubelet.Config{
			NodeName: fmt.Sprintf("node-%d", n),
			Capacity: quantities("cpu", "2", "memory", "4Gi", "pods", "110"),
			PodCIDR:  fmt.Sprintf("10.244.%d.0/24", n),
		})
		if err != nil {
			t.Fatal(err)
		}
		k.Start()
	}
	m := c.AddManager("kube-scheduler", scheduler.Actor, func(m *controller.Manager) error {
		return scheduler.Setup(m, scheduler.Options{})
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	c.RunFor(5 * time.Second)
	var objs []api.Object
	for i := range 5 {
		objs = append(objs, pendingPod(fmt.Sprintf("web-%d", i), "700m"))
	}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	c.RunFor(time.Minute)
	perNode := map[string]int{}
	for i := range 5 {
		p := getPod(t, c, fmt.Sprintf("web-%d", i))
		if p.Status.Phase != api.PodRunning || p.Status.PodIP == "" {
			t.Errorf("%s: phase %s on %q ip %q", p.Name, p.Status.Phase, p.Spec.NodeName, p.Status.PodIP)
		}
		perNode[p.Spec.NodeName]++
	}
	// 700m each on 2-CPU nodes: at most 2 per node, spread 2/2/1.
	for n, k := range perNode {
		if k > 2 {
			t.Errorf("%s got %d pods", n, k)
		}
	}
	if len(perNode) != 3 {
		t.Errorf("pods per node %v, want all three used", perNode)
	}
}

func priorityClass(name string, value int32, policy api.PreemptionPolicy) *api.PriorityClass {
	return &api.PriorityClass{TypeMeta: api.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"},
		ObjectMeta: api.ObjectMeta{Name: name}, Value: value, PreemptionPolicy: &policy}
}

func classPod(name, cpu, class string) *api.Pod {
	p := pendingPod(name, cpu)
	p.Spec.PriorityClassName = class
	return p
}

// TestPreemptionEndToEnd: a full cluster of low-priority pods (two 2-CPU
// nodes, four 1-CPU pods) and a high-priority 1-CPU pod: the scheduler
// reports the failed attempt, preempts exactly one low-priority pod (the
// condition DisruptionTarget, the event "Preempted by pod <uid> on node
// <node>"), nominates the node, and binds the pod there once the victim
// is gone; a pod of the same priority with preemptionPolicy Never only
// waits, with upstream's message.
func TestPreemptionEndToEnd(t *testing.T) {
	c, err := cluster.New(cluster.Config{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for n := range 2 {
		k, err := kubelet.New(c.Net, c.APIEndpoint.Addr(), kubelet.Config{
			NodeName: fmt.Sprintf("node-%d", n),
			Capacity: quantities("cpu", "2", "memory", "4Gi", "pods", "110"),
			PodCIDR:  fmt.Sprintf("10.244.%d.0/24", n),
		})
		if err != nil {
			t.Fatal(err)
		}
		k.Start()
	}
	m := c.AddManager("kube-scheduler", scheduler.Actor, func(m *controller.Manager) error {
		return scheduler.Setup(m, scheduler.Options{})
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	objs := []api.Object{priorityClass("low", 10, api.PreemptLowerPriority), priorityClass("high", 1000, api.PreemptLowerPriority),
		priorityClass("high-never", 1000, api.PreemptNever)}
	for i := range 4 {
		objs = append(objs, classPod(fmt.Sprintf("low-%d", i), "1", "low"))
	}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	c.RunFor(30 * time.Second)
	if err := c.Bootstrap(classPod("patient", "1", "high-never")); err != nil {
		t.Fatal(err)
	}
	c.RunFor(10 * time.Second)
	if err := c.Bootstrap(classPod("urgent", "1", "high")); err != nil {
		t.Fatal(err)
	}
	c.RunFor(2 * time.Minute)
	// The scheduler nominated the victim's node (status.nominatedNodeName)
	// before the pod was bound there.
	var nominated string
	var nominatedAt, boundAt time.Duration
	for _, r := range c.Store.Audit().Records() {
		if r.Kind != api.KindPod || r.Key.Name != "urgent" || r.Actor != scheduler.Actor {
			continue
		}
		for ch := range r.EachChange() {
			switch {
			case ch.Path == "status.nominatedNodeName" && nominated == "":
				nominated, nominatedAt = ch.New, r.Time.Duration()
			case ch.Path == "spec.nodeName":
				boundAt = r.Time.Duration()
			}
		}
	}
	if nominated == "" || nominatedAt >= boundAt {
		t.Fatalf("urgent: nominated %q at %v, bound at %v; want a nomination before the binding", nominated, nominatedAt, boundAt)
	}

	urgent := getPod(t, c, "urgent")
	if urgent.Status.Phase != api.PodRunning || urgent.Spec.NodeName != nominated {
		t.Fatalf("urgent: phase %s on %q; want Running on its nominated node %s", urgent.Status.Phase, urgent.Spec.NodeName, nominated)
	}
	if *urgent.Spec.Priority != 1000 {
		t.Errorf("urgent priority = %d, want 1000", *urgent.Spec.Priority)
	}
	failed := events(c, "urgent", scheduler.EventFailedScheduling)
	if len(failed) != 1 || failed[0].Message != "0/2 nodes are available: 2 Insufficient cpu." {
		t.Errorf("urgent FailedScheduling = %+v, want one with the filter message only", failed)
	}
	var preempted []string
	for i := range 4 {
		name := fmt.Sprintf("low-%d", i)
		if _, err := c.Store.Get(api.KindPod, api.Key{Namespace: "default", Name: name}); err != nil {
			preempted = append(preempted, name)
			evs := events(c, name, scheduler.EventPreempted)
			want := fmt.Sprintf("Preempted by pod %v on node %v", urgent.UID, urgent.Spec.NodeName)
			if len(evs) != 1 || evs[0].Message != want || evs[0].Type != "Normal" {
				t.Errorf("%s: Preempted events %+v, want %q", name, evs, want)
			}
		}
	}
	if len(preempted) != 1 {
		t.Errorf("preempted %v, want exactly one low-priority pod", preempted)
	}
	patient := getPod(t, c, "patient")
	cond := condition(patient, api.PodScheduled)
	const never = "0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never."
	if patient.Spec.NodeName != "" || cond == nil || cond.Message != never {
		t.Errorf("patient: node %q, PodScheduled %+v; want Pending with %q", patient.Spec.NodeName, cond, never)
	}
}

// TestActiveQueueByPriority: two low-priority pods created before a
// high-priority one, in a cluster with room for one of them: the
// scheduler's active queue hands out the high-priority pod first
// (PrioritySort), so it is bound on its first attempt and nothing is
// preempted (the classes never preempt, so a FIFO queue would bind
// low-1 and leave urgent Pending).
func TestActiveQueueByPriority(t *testing.T) {
	c, _ := newCluster(t, cluster.Config{Seed: 3},
		priorityClass("low", 10, api.PreemptNever), priorityClass("high", 1000, api.PreemptNever),
		readyNode("node-1", "1"),
		classPod("low-1", "1", "low"), classPod("low-2", "1", "low"), classPod("urgent", "1", "high"))
	c.RunFor(30 * time.Second)
	if p := getPod(t, c, "urgent"); p.Spec.NodeName != "node-1" {
		t.Fatalf("urgent on %q, want node-1: the higher priority is scheduled first", p.Spec.NodeName)
	}
	if evs := events(c, "urgent", scheduler.EventFailedScheduling); len(evs) != 0 {
		t.Errorf("urgent FailedScheduling %+v, want none", evs)
	}
	for _, name := range []string{"low-1", "low-2"} {
		p := getPod(t, c, name)
		cond := condition(p, api.PodScheduled)
		if p.Spec.NodeName != "" || cond == nil || cond.Reason != api.PodReasonUnschedulable {
			t.Errorf("%s: node %q, PodScheduled %+v; want Pending, Unschedulable", name, p.Spec.NodeName, cond)
		}
	}
}

// TestPinnedPodMessage: a pod pinned to one node by matchFields
// metadata.name, as a DaemonSet's pods are, that does not fit that node:
// the other nodes count as NodeAffinity's PreFilter left them out, and
// preemption finds the others not helpful, and the pinned node too: the
// pod asks for more than its allocatable, so no victim could make room
// (NodeResourcesFit's UnschedulableAndUnresolvable, kubernetes PR #131345,
// in 1.34). A 1.3x cluster gave "1 No preemption victims found for
// incoming pod, 3 Preemption is not helpful for scheduling." for it.
func TestPinnedPodMessage(t *testing.T) {
	pod := pendingPod("pinned", "2")
	pod.Spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{
			{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{"node-2"}}}}}}}}
	c, _ := newCluster(t, cluster.Config{Seed: 1},
		readyNode("node-1", "1"), readyNode("node-2", "1"), readyNode("node-3", "1"), readyNode("node-4", "1"), pod)
	c.RunFor(time.Minute)
	const want = "0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. " +
		"preemption: 0/4 nodes are available: 4 Preemption is not helpful for scheduling."
	p := getPod(t, c, "pinned")
	if cond := condition(p, api.PodScheduled); p.Spec.NodeName != "" || cond == nil || cond.Message != want {
		t.Fatalf("node %q, PodScheduled %+v; want Pending with %q", p.Spec.NodeName, cond, want)
	}
	if evs := events(c, "pinned", scheduler.EventFailedScheduling); len(evs) == 0 || evs[0].Message != want {
		t.Errorf("FailedScheduling %+v, want %q", evs, want)
	}
}
