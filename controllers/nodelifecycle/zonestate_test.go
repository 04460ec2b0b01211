package nodelifecycle

import (
	"maps"
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
