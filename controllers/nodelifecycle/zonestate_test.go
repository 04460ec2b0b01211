package nodelifecycle

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// zoneNode is one node of an upstream TestMonitorNodeHealth row: its
// region and zone labels (stable and beta, as upstream sets both), its
// Ready condition at the start (none: "") and after the hour passes
// (none: ""), heartbeats at the row's fakeNow (the start) or, for the
// healthy new status, an hour later; excluded carries the
// node.kubernetes.io/exclude-disruption label.
type zoneNode struct {
	name, region, zone string
	initial, following api.ConditionStatus
	healthyLater       bool
	excluded           bool
}

// TestMonitorNodeHealthZoneStates ports upstream's TestMonitorNodeHealth
// (k/k pkg/controller/nodelifecycle/node_lifecycle_controller_test.go)
// by row name: the zone states after the first health pass, and after
// the nodes' statuses are replaced an hour later (upstream's
// updatedNodeStatuses: unhealthy is Unknown with the hour-old heartbeat,
// healthy is True with a fresh one). Here the controller runs its
// passes every 5 s through the hour in between, as it would.
func TestMonitorNodeHealthZoneStates(t *testing.T) {
	const T, U = api.ConditionTrue, api.ConditionUnknown
	z := func(region, zone string) string { return joinZone(region, zone) }
	cases := []struct {
		name      string
		nodes     []zoneNode
		initial   map[string]zoneState
		following map[string]zoneState
	}{
		{"No Disruption: Node created recently without failure domain labels (happens only at cluster startup)",
			[]zoneNode{{name: "node0", initial: T, following: T, healthyLater: true}},
			map[string]zoneState{"": stateNormal}, map[string]zoneState{"": stateNormal}},
		{"No Disruption: Initially both zones down, one comes back",
			[]zoneNode{{name: "node0", region: "region1", zone: "zone1", initial: U, following: U}, {name: "node1", region: "region1", zone: "zone2", initial: U, following: T, healthyLater: true}},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption, z("region1", "zone2"): stateFullDisruption},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption, z("region1", "zone2"): stateNormal}},
		{"Partial Disruption: Nodes created recently without status conditions (happens only at cluster startup)",
			[]zoneNode{
				{name: "node0", region: "region1", zone: "zone1", following: U}, {name: "node1", region: "region1", zone: "zone1", following: U},
				{name: "node2", region: "region1", zone: "zone1", following: U}, {name: "node3", region: "region1", zone: "zone1", following: T, healthyLater: true}},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption},
			map[string]zoneState{z("region1", "zone1"): statePartialDisruption}},
		{"Partial Disruption: one Node failed leading to the number of healthy Nodes to exceed the configured threshold",
			[]zoneNode{
				{name: "node0", region: "region1", zone: "zone1", initial: U, following: U}, {name: "node1", region: "region1", zone: "zone1", initial: U, following: U},
				{name: "node2", region: "region1", zone: "zone1", initial: T, following: U}, {name: "node3", region: "region1", zone: "zone1", initial: T, following: T, healthyLater: true},
				{name: "node4", region: "region1", zone: "zone1", initial: T, following: T, healthyLater: true}},
			map[string]zoneState{z("region1", "zone1"): stateNormal},
			map[string]zoneState{z("region1", "zone1"): statePartialDisruption}},
		{"Full Disruption: the zone has less than 2 Nodes down, the last healthy Node has failed",
			[]zoneNode{
				{name: "node0", region: "region1", zone: "zone1", initial: U, following: U}, {name: "node1", region: "region1", zone: "zone1", initial: U, following: U},
				{name: "node2", region: "region1", zone: "zone1", initial: T, following: U}},
			map[string]zoneState{z("region1", "zone1"): stateNormal},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption}},
		{"Full Disruption: all the Nodes in one zone are down",
			[]zoneNode{{name: "node0", region: "region1", zone: "zone1", initial: U, following: U}, {name: "node1", region: "region1", zone: "zone2", initial: T, following: T, healthyLater: true}},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption, z("region1", "zone2"): stateNormal},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption, z("region1", "zone2"): stateNormal}},
		{"Full Disruption: all the Nodes in both the zones are down",
			[]zoneNode{{name: "node0", region: "region1", zone: "zone1", initial: U, following: U}, {name: "node1", region: "region2", zone: "zone2", initial: U, following: U}},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption, z("region2", "zone2"): stateFullDisruption},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption, z("region2", "zone2"): stateFullDisruption}},
		{"Full Disruption: Ready condition removed from the Node",
			[]zoneNode{{name: "node0", region: "region1", zone: "zone1", initial: T, following: ""}},
			map[string]zoneState{z("region1", "zone1"): stateNormal},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption}},
		{"Full Disruption: the only available Node has the node.kubernetes.io/exclude-disruption label",
			[]zoneNode{{name: "node0", region: "region1", zone: "zone1", initial: U, following: U}, {name: "node-master", region: "region1", zone: "zone1", initial: T, following: T, healthyLater: true, excluded: true}},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption},
			map[string]zoneState{z("region1", "zone1"): stateFullDisruption}},
	}
	const hour = 60 * time.Minute
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := cluster.New(cluster.Config{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			fakeNow := c.K.Now().Wall()
			status := func(s api.ConditionStatus, hb time.Time) api.NodeStatus {
				if s == "" {
					return api.NodeStatus{}
				}
				return api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: s, LastHeartbeatTime: api.NewTime(hb), LastTransitionTime: api.NewTime(fakeNow)}}}
			}
			for _, zn := range tc.nodes {
				n := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: zn.name, Labels: map[string]string{}}}
				if zn.region != "" {
					n.Labels[LabelRegion], n.Labels[labelRegionBeta] = zn.region, zn.region
				}
				if zn.zone != "" {
					n.Labels[LabelZone], n.Labels[labelZoneBeta] = zn.zone, zn.zone
				}
				if zn.excluded {
					n.Labels[LabelExcludeDisruption] = ""
				}
				n.Status = status(zn.initial, fakeNow)
				if err := c.Bootstrap(n); err != nil {
					t.Fatal(err)
				}
			}
			var mon *monitor
			m := c.AddManager("node-lifecycle", Actor, func(m *controller.Manager) error {
				var err error
				mon, err = setup(m, Options{})
				return err
			})
			if err := m.Start(); err != nil {
				t.Fatal(err)
			}
			c.RunFor(time.Second)
			if mon.pass != 1 {
				t.Fatalf("%d health passes in the first second, want 1", mon.pass)
			}
			if !maps.Equal(mon.zoneStates, tc.initial) {
				t.Errorf("initial zone states %q, want %q", mon.zoneStates, tc.initial)
			}
			c.At(hour, func() {
				for _, zn := range tc.nodes {
					o, err := c.Store.Get(api.KindNode, api.Key{Name: zn.name})
					if err != nil {
						t.Error(err)
						return
					}
					n := o.(*api.Node).DeepCopy()
					hb := fakeNow
					if zn.healthyLater {
						hb = fakeNow.Add(hour)
					}
					n.Status.Conditions = status(zn.following, hb).Conditions
					if _, err := c.Store.Update(store.Op{Actor: "system:node:" + zn.name}, n, "status"); err != nil {
						t.Error(err)
					}
				}
			})
			c.RunFor(hour - time.Second + DefaultMonitorPeriod + time.Second)
			if !maps.Equal(mon.zoneStates, tc.following) {
				t.Errorf("following zone states %q, want %q", mon.zoneStates, tc.following)
			}
		})
	}
}

// startMonitor runs the node lifecycle controller alone (no kubelets) in
// a new cluster with nodes, for a second; it returns the cluster and the
// controller's state.
func startMonitor(t *testing.T, nodes ...*api.Node) (*cluster.Cluster, *monitor) {
	t.Helper()
	return startMonitorWith(t, Options{}, nodes...)
}

// startMonitorWith is startMonitor with opts.
func startMonitorWith(t *testing.T, opts Options, nodes ...*api.Node) (*cluster.Cluster, *monitor) {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	for _, n := range nodes {
		n.TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: "Node"}
		if err := c.Bootstrap(n); err != nil {
			t.Fatal(err)
		}
	}
	var mon *monitor
	m := c.AddManager("node-lifecycle", Actor, func(m *controller.Manager) error {
		var err error
		mon, err = setup(m, opts)
		return err
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	c.RunFor(time.Second)
	return c, mon
}

func storedNode(t *testing.T, c *cluster.Cluster, name string) *api.Node {
	t.Helper()
	o, err := c.Store.Get(api.KindNode, api.Key{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return o.(*api.Node)
}

// TestReconcileNodeLabels ports upstream's rows of that name: the beta
// OS and arch labels follow the stable ones.
func TestReconcileNodeLabels(t *testing.T) {
	cases := []struct {
		name   string
		labels map[string]string
		want   map[string]string
	}{
		{"No-op if node has no labels", nil, nil},
		{"No-op if no target labels present", map[string]string{LabelRegion: "region1"}, map[string]string{LabelRegion: "region1"}},
		{"Create OS/arch beta labels when they don't exist", map[string]string{LabelOSStable: "linux", LabelArchStable: "amd64"},
			map[string]string{labelOSBeta: "linux", labelArchBeta: "amd64", LabelOSStable: "linux", LabelArchStable: "amd64"}},
		{"Reconcile OS/arch beta labels to match stable labels", map[string]string{labelOSBeta: "windows", labelArchBeta: "arm", LabelOSStable: "linux", LabelArchStable: "amd64"},
			map[string]string{labelOSBeta: "linux", labelArchBeta: "amd64", LabelOSStable: "linux", LabelArchStable: "amd64"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := startMonitor(t, &api.Node{ObjectMeta: api.ObjectMeta{Name: "node0", Labels: tc.labels}})
			if got := storedNode(t, c, "node0").Labels; !maps.Equal(got, tc.want) {
				t.Errorf("labels %v, want %v", got, tc.want)
			}
		})
	}
}

// TestTaintsNodeByCondition ports upstream's rows of that name (its
// first row appears twice there, once here): the NoSchedule taints
// mirror the node's conditions, applied on the node's update.
func TestTaintsNodeByCondition(t *testing.T) {
	cond := func(typ api.NodeConditionType, s api.ConditionStatus) api.NodeCondition {
		return api.NodeCondition{Type: typ, Status: s}
	}
	cases := []struct {
		name  string
		conds []api.NodeCondition
		want  []string
	}{
		{"NetworkUnavailable is true", []api.NodeCondition{cond(api.NodeReady, api.ConditionTrue), cond(api.NodeNetworkUnavailable, api.ConditionTrue)},
			[]string{TaintNetworkUnavailable}},
		{"Ready is false", []api.NodeCondition{cond(api.NodeReady, api.ConditionFalse)}, []string{api.TaintNodeNotReady}},
		{"Ready is unknown", []api.NodeCondition{cond(api.NodeReady, api.ConditionUnknown)}, []string{api.TaintNodeUnreachable}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := startMonitor(t, &api.Node{ObjectMeta: api.ObjectMeta{Name: "node0", Labels: map[string]string{LabelRegion: "region1", LabelZone: "zone1"}}})
			n := storedNode(t, c, "node0").DeepCopy()
			now := api.NewTime(c.K.Now().Wall())
			for _, cd := range tc.conds {
				cd.LastHeartbeatTime, cd.LastTransitionTime = now, now
				n.Status.Conditions = append(n.Status.Conditions, cd)
			}
			if _, err := c.Store.Update(store.Op{Actor: "system:node:node0"}, n, "status"); err != nil {
				t.Fatal(err)
			}
			// Before the next health pass, which NoExecute-taints.
			c.RunFor(time.Second)
			var got []string
			for _, tn := range storedNode(t, c, "node0").Spec.Taints {
				if tn.Effect == api.TaintEffectNoSchedule {
					got = append(got, tn.Key)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("NoSchedule taints %v, want %v", got, tc.want)
			}
		})
	}
}

// TestNodeEventGeneration ports upstream's test of that name: the first
// health pass over a node long Unknown records one event, RegisteredNode,
// on the node (by its uid).
func TestNodeEventGeneration(t *testing.T) {
	c, err := cluster.New(cluster.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.RunFor(400 * 24 * time.Hour) // the node's heartbeat is from long before
	old := api.NewTime(c.K.Now().Wall().Add(-397 * 24 * time.Hour))
	n := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "node0"},
		Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionUnknown, LastHeartbeatTime: old, LastTransitionTime: old}}}}
	if err := c.Bootstrap(n); err != nil {
		t.Fatal(err)
	}
	m := c.AddManager("node-lifecycle", Actor, func(m *controller.Manager) error { return Setup(m, Options{}) })
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	c.RunFor(time.Second)
	uid := storedNode(t, c, "node0").UID
	objs, _, _ := c.Store.List(api.KindEvent, store.ListOptions{})
	var reasons []string
	for _, o := range objs {
		ev := o.(*api.Event)
		if ev.Source.Component != Component {
			continue
		}
		reasons = append(reasons, ev.Reason)
		if ev.InvolvedObject.UID != uid {
			t.Errorf("event %s on uid %q, want the node's %q", ev.Reason, ev.InvolvedObject.UID, uid)
		}
	}
	if !slices.Equal(reasons, []string{"RegisteredNode"}) {
		t.Errorf("events %v, want [RegisteredNode]", reasons)
	}
}

// testRateLimiterQPS is upstream's: tainting is not rate limited in its
// node lifecycle tests.
const testRateLimiterQPS = 100000

// zoneNodeAt is a node of region1/zone1 whose Ready condition has status s
// and was last heard at hb.
func zoneNodeAt(name string, s api.ConditionStatus, hb time.Time) *api.Node {
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{LabelRegion: "region1", LabelZone: "zone1", labelRegionBeta: "region1", labelZoneBeta: "zone1"}},
		Status:     api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: s, LastHeartbeatTime: api.NewTime(hb), LastTransitionTime: api.NewTime(hb)}}},
	}
}

func setReady(t *testing.T, c *cluster.Cluster, name string, s api.ConditionStatus, hb time.Time) {
	t.Helper()
	n := storedNode(t, c, name).DeepCopy()
	n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: s, LastHeartbeatTime: api.NewTime(hb), LastTransitionTime: api.NewTime(hb)}}
	if _, err := c.Store.Update(store.Op{Actor: "system:node:" + name}, n, "status"); err != nil {
		t.Fatal(err)
	}
}

func hasTaint(n *api.Node, t api.Taint) bool { return taintExists(n.Spec.Taints, &t) }

// The node lifecycle tests below start, as upstream's, from nodes whose
// Ready condition the controller sees for the first time. Upstream counts
// the grace period from that first sight (its local probe time), so a
// True or False condition with an old heartbeat keeps its status on the
// first pass; here heartbeats are the objects' (a documented deviation),
// so those nodes' heartbeats are now, and the Unknown ones' an hour ago.

// TestApplyNoExecuteTaints ports upstream's test of that name: an Unknown
// node gets the unreachable NoExecute taint, a False one the not-ready
// one, and the latter loses every taint once Ready again. Its last step
// (a queued node whose Ready condition vanishes before the tainting pass
// gets no taint) needs a status write between the health pass and the
// tainting pass, which here run in one reconcile: taintPass's branch for
// a node without Ready condition (retry in 50ms) is that step's code.
func TestApplyNoExecuteTaints(t *testing.T) {
	now := kernel.Epoch // virtual time 0, when startMonitorWith creates the nodes
	c, _ := startMonitorWith(t, Options{EvictionRate: testRateLimiterQPS, SecondaryEvictionRate: testRateLimiterQPS},
		zoneNodeAt("node0", api.ConditionUnknown, now.Add(-time.Hour)), zoneNodeAt("node1", api.ConditionTrue, now),
		zoneNodeAt("node2", api.ConditionFalse, now), zoneNodeAt("node3", api.ConditionTrue, now))
	if n := storedNode(t, c, "node0"); !hasTaint(n, unreachableNoExecute) {
		t.Errorf("node0 taints %v, want %v", n.Spec.Taints, unreachableNoExecute)
	}
	if n := storedNode(t, c, "node2"); !hasTaint(n, notReadyNoExecute) {
		t.Errorf("node2 taints %v, want %v", n.Spec.Taints, notReadyNoExecute)
	}
	setReady(t, c, "node2", api.ConditionTrue, c.K.Now().Wall())
	c.RunFor(DefaultMonitorPeriod + time.Second)
	if n := storedNode(t, c, "node2"); len(n.Spec.Taints) > 0 {
		t.Errorf("node2 taints %v once Ready, want none", n.Spec.Taints)
	}
}

// TestApplyNoExecuteTaintsToNodesEnqueueTwice ports upstream's test of
// that name: after two passes, node0 (queued, tainted) turns Ready and
// three nodes join; the next pass taints the new Unknown and False nodes,
// the queue's stale entry for node0 notwithstanding.
func TestApplyNoExecuteTaintsToNodesEnqueueTwice(t *testing.T) {
	now := kernel.Epoch // virtual time 0, when startMonitorWith creates the nodes
	c, _ := startMonitorWith(t, Options{EvictionRate: testRateLimiterQPS, SecondaryEvictionRate: testRateLimiterQPS},
		zoneNodeAt("node0", api.ConditionUnknown, now.Add(-time.Hour)), zoneNodeAt("node1", api.ConditionTrue, now),
		zoneNodeAt("node2", api.ConditionFalse, now))
	c.RunFor(DefaultMonitorPeriod) // the second pass
	later := c.K.Now().Wall()
	setReady(t, c, "node0", api.ConditionTrue, later)
	for _, n := range []*api.Node{zoneNodeAt("node3", api.ConditionUnknown, later.Add(-time.Hour)), zoneNodeAt("node4", api.ConditionTrue, later),
		zoneNodeAt("node5", api.ConditionFalse, later)} {
		n.TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: "Node"}
		if err := c.Bootstrap(n); err != nil {
			t.Fatal(err)
		}
	}
	c.RunFor(DefaultMonitorPeriod + time.Second)
	if n := storedNode(t, c, "node3"); !hasTaint(n, unreachableNoExecute) {
		t.Errorf("node3 taints %v, want %v", n.Spec.Taints, unreachableNoExecute)
	}
	if n := storedNode(t, c, "node5"); !hasTaint(n, notReadyNoExecute) {
		t.Errorf("node5 taints %v, want %v", n.Spec.Taints, notReadyNoExecute)
	}
}

// TestSwapUnreachableNotReadyTaints ports upstream's test of that name:
// an unreachable node that reports Ready False again has its unreachable
// NoExecute taint swapped for the not-ready one.
func TestSwapUnreachableNotReadyTaints(t *testing.T) {
	now := kernel.Epoch // virtual time 0, when startMonitorWith creates the nodes
	c, _ := startMonitorWith(t, Options{EvictionRate: testRateLimiterQPS, SecondaryEvictionRate: testRateLimiterQPS},
		zoneNodeAt("node0", api.ConditionUnknown, now.Add(-time.Hour)), zoneNodeAt("node1", api.ConditionTrue, now))
	if n := storedNode(t, c, "node0"); !hasTaint(n, unreachableNoExecute) {
		t.Fatalf("node0 taints %v, want %v", n.Spec.Taints, unreachableNoExecute)
	}
	later := c.K.Now().Wall()
	setReady(t, c, "node0", api.ConditionFalse, later)
	setReady(t, c, "node1", api.ConditionTrue, later)
	c.RunFor(DefaultMonitorPeriod + time.Second)
	n := storedNode(t, c, "node0")
	if !hasTaint(n, notReadyNoExecute) || hasTaint(n, unreachableNoExecute) {
		t.Errorf("node0 taints %v, want %v instead of %v", n.Spec.Taints, notReadyNoExecute, unreachableNoExecute)
	}
}

// podStatusWrites counts the node lifecycle controller's writes of pod
// statuses (marking pods not ready).
func podStatusWrites(c *cluster.Cluster) int {
	n := 0
	for _, r := range c.Store.Audit().Records() {
		if r.Actor == Actor && r.Kind == api.KindPod && r.Subresource == "status" && !r.NoOp {
			n++
		}
	}
	return n
}

// readyPod0 creates upstream's testutil.NewPod("pod0", "node0"): bound to
// node0, Ready.
func readyPod0(t *testing.T, c *cluster.Cluster) {
	t.Helper()
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "pod0"},
		Spec: api.PodSpec{NodeName: "node0", Containers: []api.Container{{Name: "c", Image: "pause"}}}}
	if err := c.Bootstrap(p); err != nil {
		t.Fatal(err)
	}
	o, err := c.Store.Get(api.KindPod, p.Key())
	if err != nil {
		t.Fatal(err)
	}
	p = o.(*api.Pod).DeepCopy()
	p.Status.Phase = api.PodRunning
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
	if _, err := c.Store.Update(store.Op{Actor: "system:node:node0"}, p, "status"); err != nil {
		t.Fatal(err)
	}
}

// TestMonitorNodeHealthMarkPodsNotReady ports upstream's rows of that
// name (three unnamed rows, named here by their comments) and the first
// row of TestMonitorNodeHealthMarkPodsNotReadyRetry: pods are marked not
// ready once, when their node's status goes stale. The Retry test's other
// two rows fail one pod status write or one pod list by a fake reactor,
// which the cluster here cannot inject into a single request.
func TestMonitorNodeHealthMarkPodsNotReady(t *testing.T) {
	fakeNow := kernel.Epoch
	cases := []struct {
		name string
		node *api.Node
		// passTo runs the controller this long (0: the first pass only);
		// then, if later is set, the node's Ready condition becomes it.
		passTo time.Duration
		later  api.ConditionStatus
		want   int
	}{
		{"Node created recently, without status", &api.Node{ObjectMeta: api.ObjectMeta{Name: "node0"}}, 0, "", 0},
		{"Node created long time ago, with status updated recently", zoneNodeAt("node0", api.ConditionTrue, fakeNow), 0, "", 0},
		{"Node created long time ago, with status updated by kubelet exceeds grace period", zoneNodeAt("node0", api.ConditionTrue, fakeNow), time.Minute, "", 1},
		{"successful pod status update, no retry required", zoneNodeAt("node0", api.ConditionTrue, fakeNow), time.Minute, api.ConditionFalse, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := cluster.New(cluster.Config{Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			readyPod0(t, c)
			tc.node.TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: "Node"}
			if err := c.Bootstrap(tc.node); err != nil {
				t.Fatal(err)
			}
			m := c.AddManager("node-lifecycle", Actor, func(m *controller.Manager) error { return Setup(m, Options{}) })
			if err := m.Start(); err != nil {
				t.Fatal(err)
			}
			c.RunFor(time.Second + tc.passTo)
			if tc.later != "" {
				setReady(t, c, "node0", tc.later, fakeNow.Add(2*time.Second))
				c.RunFor(DefaultMonitorPeriod + time.Second)
			}
			if got := podStatusWrites(c); got != tc.want {
				t.Errorf("%d pod status writes, want %d", got, tc.want)
			}
		})
	}
}
