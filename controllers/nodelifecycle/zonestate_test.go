package nodelifecycle

import (
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
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
		mon, err = setup(m, Options{})
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
