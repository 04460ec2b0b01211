package nodelifecycle_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/nodelifecycle"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/store"
)

// The rows below are upstream's
// pkg/controller/tainteviction/taint_eviction_test.go tables, by name,
// run against the taint eviction controller alone in a cluster without
// kubelets: upstream's testutil.NewPod and NewNode, its
// createNoExecuteTaint(i) (key testTaint<i>, value test<i>, NoExecute,
// timeAdded now) and addToleration(pod, i, seconds) (the matching
// toleration, forever for negative seconds).

// change is when a row's update lands: before a 1-second toleration
// counted from the start would run out.
const change = 500 * time.Millisecond

func evPod(name, node string, tols ...api.Toleration) *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name},
		Spec:       api.PodSpec{NodeName: node, Tolerations: tols, Containers: []api.Container{{Name: "c", Image: "pause"}}},
	}
}

// tol is upstream's addToleration: index's taint tolerated for secs
// seconds, forever when secs is negative.
func tol(index int, secs int64) api.Toleration {
	t := api.Toleration{Key: fmt.Sprintf("testTaint%d", index), Value: fmt.Sprintf("test%d", index), Effect: api.TaintEffectNoExecute}
	if secs >= 0 {
		t.TolerationSeconds = &secs
	}
	return t
}

// noExecute is upstream's createNoExecuteTaint for each index, added at
// added.
func noExecute(added time.Time, indices ...int) []api.Taint {
	var out []api.Taint
	for _, i := range indices {
		ts := api.NewTime(added)
		out = append(out, api.Taint{Key: fmt.Sprintf("testTaint%d", i), Value: fmt.Sprintf("test%d", i), Effect: api.TaintEffectNoExecute, TimeAdded: &ts})
	}
	return out
}

func evNode(taints []api.Taint) *api.Node {
	return &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "node1"}, Spec: api.NodeSpec{Taints: taints}}
}

// evictionRow is one upstream row: the node's NoExecute taint indices
// before (nil: no node) and after the change (nil: unchanged; empty:
// untainted), the pods before, the pods updated at the change and those
// created then, and, per pod name, how long after the change it must be
// deleted (with the DisruptionTarget condition, upstream's patch); pods
// not listed must survive the window.
type evictionRow struct {
	name      string
	oldTaints []int
	newTaints []int
	pods      []*api.Pod
	updated   []*api.Pod
	created   []*api.Pod
	deleted   map[string]time.Duration
	window    time.Duration
	// more are further taint sets, one a second after the change.
	more [][]int
	// deleteNode deletes the node at the change.
	deleteNode bool
	wantEvents []string
}

func runEvictionRow(t *testing.T, row evictionRow) {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := c.K.Now().Wall()
	if row.oldTaints != nil {
		if err := c.Bootstrap(evNode(noExecute(start, row.oldTaints...))); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range row.pods {
		if err := c.Bootstrap(p); err != nil {
			t.Fatal(err)
		}
	}
	m := c.AddManager("taint-eviction", nodelifecycle.EvictionActor, func(m *controller.Manager) error {
		return nodelifecycle.SetupEviction(m, nodelifecycle.EvictionOptions{})
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	setTaints := func(at time.Duration, indices []int) {
		o, err := c.Store.Get(api.KindNode, api.Key{Name: "node1"})
		if err != nil {
			t.Error(err)
			return
		}
		n := o.(*api.Node).DeepCopy()
		n.Spec.Taints = noExecute(start.Add(at), indices...)
		if _, err := c.Store.Update(store.Op{Actor: "admin"}, n, ""); err != nil {
			t.Error(err)
		}
	}
	for i, indices := range row.more {
		at := change + time.Duration(i+1)*time.Second
		c.At(at, func() { setTaints(at, indices) })
	}
	c.At(change, func() {
		if row.deleteNode {
			if _, _, err := c.Store.Delete(store.Op{Actor: "admin"}, api.KindNode, api.Key{Name: "node1"}, store.DeleteOptions{}); err != nil {
				t.Error(err)
			}
		}
		if row.newTaints != nil {
			taints := noExecute(start.Add(change), row.newTaints...)
			if row.oldTaints == nil {
				if err := c.Bootstrap(evNode(taints)); err != nil {
					t.Error(err)
				}
			} else {
				setTaints(change, row.newTaints)
			}
		}
		for _, p := range row.updated {
			o, err := c.Store.Get(api.KindPod, p.Key())
			if err != nil {
				t.Error(err)
				return
			}
			cur := o.(*api.Pod).DeepCopy()
			cur.Spec.NodeName, cur.Spec.Tolerations = p.Spec.NodeName, p.Spec.Tolerations
			if _, err := c.Store.Update(store.Op{Actor: "admin"}, cur, ""); err != nil {
				t.Error(err)
			}
		}
		for _, p := range row.created {
			if err := c.Bootstrap(p); err != nil {
				t.Error(err)
			}
		}
	})
	window := row.window
	if window == 0 {
		window = 5 * time.Second // upstream's verifyPodActions polls for 5s
	}
	c.RunFor(change + window)

	deleted, patched := map[string]time.Duration{}, map[string]bool{}
	for _, r := range c.Store.Audit().Records() {
		if r.Actor != nodelifecycle.EvictionActor || r.Kind != api.KindPod {
			continue
		}
		switch {
		case r.Verb == "delete":
			if _, ok := deleted[r.Key.Name]; !ok {
				deleted[r.Key.Name] = r.Time.Duration() - change
			}
		case r.Subresource == "status":
			patched[r.Key.Name] = true
		}
	}
	for name, want := range row.deleted {
		got, ok := deleted[name]
		switch {
		case !ok:
			t.Errorf("pod %s not deleted, want %v after the change", name, want)
		case got < want || got > want+500*time.Millisecond:
			t.Errorf("pod %s deleted %v after the change, want %v", name, got, want)
		}
		if !patched[name] {
			t.Errorf("pod %s deleted without the DisruptionTarget condition", name)
		}
	}
	for name, got := range deleted {
		if _, ok := row.deleted[name]; !ok {
			t.Errorf("pod %s deleted %v after the change, want it kept", name, got)
		}
	}
	if row.wantEvents != nil {
		var events []string
		objs, _, _ := c.Store.List(api.KindEvent, store.ListOptions{})
		for _, o := range objs {
			if ev := o.(*api.Event); ev.Reason == nodelifecycle.ReasonTaintManagerEviction {
				events = append(events, ev.Message)
			}
		}
		slices.Sort(events)
		if strings.Join(events, "; ") != strings.Join(row.wantEvents, "; ") {
			t.Errorf("events %q, want %q", events, row.wantEvents)
		}
	}
}

func TestTaintEvictionCreatePod(t *testing.T) {
	for _, row := range []evictionRow{
		{name: "not scheduled - ignore", oldTaints: []int{}, created: []*api.Pod{evPod("pod1", "")}},
		{name: "scheduled on untainted Node", oldTaints: []int{}, created: []*api.Pod{evPod("pod1", "node1")}},
		{name: "schedule on tainted Node", oldTaints: []int{1}, created: []*api.Pod{evPod("pod1", "node1")}, deleted: map[string]time.Duration{"pod1": 0}},
		{name: "schedule on tainted Node with finite toleration", oldTaints: []int{1}, created: []*api.Pod{evPod("pod1", "node1", tol(1, 100))}},
		{name: "schedule on tainted Node with infinite toleration", oldTaints: []int{1}, created: []*api.Pod{evPod("pod1", "node1", tol(1, -1))}},
		{name: "schedule on tainted Node with infinite invalid toleration", oldTaints: []int{1}, created: []*api.Pod{evPod("pod1", "node1", tol(2, -1))}, deleted: map[string]time.Duration{"pod1": 0}},
	} {
		t.Run(row.name, func(t *testing.T) { runEvictionRow(t, row) })
	}
}

func TestTaintEvictionUpdatePod(t *testing.T) {
	for _, row := range []evictionRow{
		{name: "scheduling onto tainted Node", oldTaints: []int{1}, pods: []*api.Pod{evPod("pod1", "")},
			updated: []*api.Pod{evPod("pod1", "node1")}, deleted: map[string]time.Duration{"pod1": 0}},
		{name: "scheduling onto tainted Node with toleration", oldTaints: []int{1}, pods: []*api.Pod{evPod("pod1", "", tol(1, -1))},
			updated: []*api.Pod{evPod("pod1", "node1", tol(1, -1))}},
		// The pending deletion (100s) is called off, with its event, and
		// the pod goes at once.
		{name: "removing toleration", oldTaints: []int{1}, pods: []*api.Pod{evPod("pod1", "node1", tol(1, 100))},
			updated: []*api.Pod{evPod("pod1", "node1")}, deleted: map[string]time.Duration{"pod1": 0},
			wantEvents: []string{"Cancelling deletion of Pod default/pod1", "Marking for deletion Pod default/pod1"}},
		// The deletion scheduled for 1s after the taint keeps its time:
		// the pod goes 0.5s after the change, not 100s after the taint.
		{name: "lengthening toleration shouldn't work", oldTaints: []int{1}, pods: []*api.Pod{evPod("pod1", "node1", tol(1, 1))},
			updated: []*api.Pod{evPod("pod1", "node1", tol(1, 100))}, deleted: map[string]time.Duration{"pod1": time.Second - change}},
	} {
		t.Run(row.name, func(t *testing.T) { runEvictionRow(t, row) })
	}
}

func TestTaintEvictionCreateNode(t *testing.T) {
	for _, row := range []evictionRow{
		{name: "Creating Node matching already assigned Pod", pods: []*api.Pod{evPod("pod1", "node1")}, newTaints: []int{}},
		{name: "Creating tainted Node matching already assigned Pod", pods: []*api.Pod{evPod("pod1", "node1")}, newTaints: []int{1},
			deleted: map[string]time.Duration{"pod1": 0}},
		{name: "Creating tainted Node matching already assigned tolerating Pod", pods: []*api.Pod{evPod("pod1", "node1", tol(1, -1))}, newTaints: []int{1}},
	} {
		t.Run(row.name, func(t *testing.T) { runEvictionRow(t, row) })
	}
}

func TestTaintEvictionUpdateNode(t *testing.T) {
	multi := evPod("pod1", "node1", tol(1, 1), tol(2, 100))
	for _, row := range []evictionRow{
		{name: "Added taint, expect node patched and deleted", oldTaints: []int{}, newTaints: []int{1}, pods: []*api.Pod{evPod("pod1", "node1")},
			deleted: map[string]time.Duration{"pod1": 0}},
		{name: "Added tolerated taint", oldTaints: []int{}, newTaints: []int{1}, pods: []*api.Pod{evPod("pod1", "node1", tol(1, 100))}},
		{name: "Only one added taint tolerated", oldTaints: []int{}, newTaints: []int{1, 2}, pods: []*api.Pod{evPod("pod1", "node1", tol(1, 100))},
			deleted: map[string]time.Duration{"pod1": 0}},
		// Upstream's controller sees only the untainted node; here the
		// 1s deletion the old taint scheduled is pending and called off,
		// and the pod survives past the 1.5s upstream sleeps.
		{name: "Taint removed", oldTaints: []int{1}, newTaints: []int{}, pods: []*api.Pod{evPod("pod1", "node1", tol(1, 1))},
			window: 1500 * time.Millisecond, wantEvents: []string{"Cancelling deletion of Pod default/pod1"}},
		{name: "Pod with multiple tolerations are evicted when first one runs out", oldTaints: []int{}, newTaints: []int{1, 2},
			pods: []*api.Pod{multi}, deleted: map[string]time.Duration{"pod1": time.Second}},
	} {
		t.Run(row.name, func(t *testing.T) { runEvictionRow(t, row) })
	}
}

func TestTaintEvictionUpdateNodeWithMultiplePods(t *testing.T) {
	pods := func() []*api.Pod {
		return []*api.Pod{evPod("pod1", "node1"), evPod("pod2", "node1", tol(1, 1)), evPod("pod3", "node1", tol(1, -1))}
	}
	for _, row := range []evictionRow{
		{name: "Pods with different toleration times are evicted appropriately", oldTaints: []int{}, newTaints: []int{1}, pods: pods(),
			deleted: map[string]time.Duration{"pod1": 0, "pod2": time.Second}},
		{name: "Evict all pods not matching all taints instantly", oldTaints: []int{}, newTaints: []int{1, 2}, pods: pods(),
			deleted: map[string]time.Duration{"pod1": 0, "pod2": 0, "pod3": 0}},
	} {
		t.Run(row.name, func(t *testing.T) { runEvictionRow(t, row) })
	}
}

// TestTaintEvictionEventualConsistency is upstream's
// TestEventualConsistency: pod1 goes with the taint; pod2, bound or
// created after it, is handled as it arrives (upstream only sleeps after
// pod2's update; here pod2 goes at once unless it tolerates the taint).
func TestTaintEvictionEventualConsistency(t *testing.T) {
	for _, row := range []evictionRow{
		{name: "existing pod2 scheduled onto tainted Node", oldTaints: []int{}, newTaints: []int{1},
			pods: []*api.Pod{evPod("pod1", "node1"), evPod("pod2", "")}, updated: []*api.Pod{evPod("pod2", "node1")},
			deleted: map[string]time.Duration{"pod1": 0, "pod2": 0}},
		{name: "existing pod2 with taint toleration scheduled onto tainted Node", oldTaints: []int{}, newTaints: []int{1},
			pods: []*api.Pod{evPod("pod1", "node1"), evPod("pod2", "", tol(1, 100))}, updated: []*api.Pod{evPod("pod2", "node1", tol(1, 100))},
			deleted: map[string]time.Duration{"pod1": 0}},
		{name: "new pod2 created on tainted Node", oldTaints: []int{}, newTaints: []int{1},
			pods: []*api.Pod{evPod("pod1", "node1")}, created: []*api.Pod{evPod("pod2", "node1")},
			deleted: map[string]time.Duration{"pod1": 0, "pod2": 0}},
		{name: "new pod2 with tait toleration created on tainted Node", oldTaints: []int{}, newTaints: []int{1},
			pods: []*api.Pod{evPod("pod1", "node1")}, created: []*api.Pod{evPod("pod2", "node1", tol(1, 100))},
			deleted: map[string]time.Duration{"pod1": 0}},
	} {
		t.Run(row.name, func(t *testing.T) { runEvictionRow(t, row) })
	}
}

// TestTaintEvictionUpdateNodeWithMultipleTaints is upstream's
// TestUpdateNodeWithMultipleTaints: untainted, then a taint tolerated
// forever (nothing scheduled), then a second taint tolerated for 60s
// (scheduled), then the first alone again (called off, which the
// cancellation event shows); nothing is deleted.
func TestTaintEvictionUpdateNodeWithMultipleTaints(t *testing.T) {
	minute := int64(60)
	pod := evPod("pod1", "node1",
		api.Toleration{Key: "testTaint1", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute},
		api.Toleration{Key: "testTaint2", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &minute})
	runEvictionRow(t, evictionRow{oldTaints: []int{}, newTaints: []int{1}, more: [][]int{{1, 2}, {1}}, pods: []*api.Pod{pod},
		wantEvents: []string{"Cancelling deletion of Pod default/pod1"}})
}

// TestTaintEvictionDeleteNode follows upstream's TestDeleteNode, which
// checks only that the deleted node's taints are forgotten: its
// handleNodeUpdate cancels nothing then, so a deletion already
// scheduled for a pod of the node still fires (here 1s after the taint,
// 0.5s after the node's deletion), with no cancellation event.
func TestTaintEvictionDeleteNode(t *testing.T) {
	runEvictionRow(t, evictionRow{oldTaints: []int{1}, deleteNode: true, pods: []*api.Pod{evPod("pod1", "node1", tol(1, 1))},
		deleted: map[string]time.Duration{"pod1": time.Second - change}, wantEvents: []string{"Marking for deletion Pod default/pod1"}})
}
