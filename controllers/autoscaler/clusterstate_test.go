package autoscaler

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// fakeCloud is a CloudProvider of fixed groups and target sizes whose
// machines are the names given; it refuses every DecreaseTargetSize.
type fakeCloud struct {
	groups    []NodeGroup
	target    map[string]int
	machines  map[string][]string
	decreased []string
	deleted   []string
}

func (f *fakeCloud) NodeGroups() []NodeGroup             { return f.groups }
func (f *fakeCloud) NodeGroupForNode(n *api.Node) string { return n.Labels["group"] }
func (f *fakeCloud) TargetSize(group string) int         { return f.target[group] }
func (f *fakeCloud) Nodes(group string) []string         { return f.machines[group] }
func (f *fakeCloud) IncreaseSize(group string, delta int) error {
	f.target[group] += delta
	return nil
}

func (f *fakeCloud) DecreaseTargetSize(group string, delta int) error {
	f.decreased = append(f.decreased, group)
	return errors.New("attempt to delete existing nodes")
}

func (f *fakeCloud) DeleteNode(name string) error {
	f.deleted = append(f.deleted, name)
	return nil
}

// testNode is a registered node of a group, ready or not, registered age
// before the scan.
type testNode struct {
	name, group string
	ready       bool
	age         time.Duration
}

// testAutoscaler is an autoscaler on cloud with the given unready
// limits and provision time, and the state of nodes at now.
func testAutoscaler(cloud *fakeCloud, okCount int, maxPercent float64, nodes []testNode, now time.Time) (*autoscaler, *state) {
	opts := Options{Provider: cloud, OkTotalUnreadyCount: &okCount, MaxTotalUnreadyPercentage: &maxPercent, MaxNodeProvisionTime: time.Minute}
	opts.defaults()
	a := &autoscaler{opts: opts, scaleUps: map[string]*scaleUpRequest{}, unregisteredSince: map[string]time.Time{},
		backoff: newBackoff(opts.InitialNodeGroupBackoffDuration, opts.MaxNodeGroupBackoffDuration, opts.NodeGroupBackoffResetTimeout)}
	s := &state{byName: map[string]*nodeState{}}
	for _, n := range nodes {
		node := &api.Node{ObjectMeta: api.ObjectMeta{Name: n.name, Labels: map[string]string{"group": n.group},
			CreationTimestamp: api.Time{Time: now.Add(-n.age)}}}
		ns := newNodeState(node, n.group, n.ready)
		s.nodes = append(s.nodes, ns)
		s.byName[n.name] = ns
	}
	return a, s
}

func groupsOf(targets map[string]int) []NodeGroup {
	var out []NodeGroup
	for _, g := range sortedKeys(targets) {
		out = append(out, NodeGroup{Name: g, MaxSize: 10})
	}
	return out
}

// TestHealth ports the health rows of cluster-autoscaler's
// clusterstate/clusterstate_test.go (TestOKWithScaleUp, TestEmptyOK,
// TestOKOneUnreadyNode, TestMissingNodes, TestTooManyUnready, all with
// MaxTotalUnreadyPercentage 10 and OkTotalUnreadyCount 1; their nodes
// registered long ago), then rows of ours at the defaults (45%, 3).
func TestHealth(t *testing.T) {
	old := time.Hour
	for _, tc := range []struct {
		name           string
		okCount        int
		maxPercent     float64
		targets        map[string]int
		nodes          []testNode
		scaleUp        int // nodes asked of ng1, under way
		cluster, group bool
	}{
		{name: "TestOKWithScaleUp", okCount: 1, maxPercent: 10, targets: map[string]int{"ng1": 5, "ng2": 1}, scaleUp: 4,
			nodes:   []testNode{{"ng1-1", "ng1", true, old}, {"ng2-1", "ng2", true, old}},
			cluster: true, group: true},
		{name: "TestEmptyOK", okCount: 1, maxPercent: 10, targets: map[string]int{"ng1": 0}, cluster: true, group: true},
		{name: "TestEmptyOK after a scale-up of 3", okCount: 1, maxPercent: 10, targets: map[string]int{"ng1": 3}, scaleUp: 3, cluster: true, group: true},
		{name: "TestOKOneUnreadyNode", okCount: 1, maxPercent: 10, targets: map[string]int{"ng1": 1, "ng2": 1},
			nodes:   []testNode{{"ng1-1", "ng1", true, old}, {"ng2-1", "ng2", false, old}},
			cluster: true, group: true},
		{name: "TestMissingNodes", okCount: 1, maxPercent: 10, targets: map[string]int{"ng1": 5, "ng2": 1},
			nodes:   []testNode{{"ng1-1", "ng1", true, old}, {"ng2-1", "ng2", true, old}},
			cluster: true, group: false},
		{name: "TestTooManyUnready", okCount: 1, maxPercent: 10, targets: map[string]int{"ng1": 1, "ng2": 1},
			nodes:   []testNode{{"ng1-1", "ng1", false, old}, {"ng2-1", "ng2", false, old}},
			cluster: false, group: true},
		{name: "not started nodes are not unready", okCount: 1, maxPercent: 10, targets: map[string]int{"ng1": 1, "ng2": 1},
			nodes:   []testNode{{"ng1-1", "ng1", false, time.Minute}, {"ng2-1", "ng2", false, 14 * time.Minute}},
			cluster: true, group: true},
		{name: "defaults: 4 of 6 unready", okCount: 3, maxPercent: 45, targets: map[string]int{"ng1": 6},
			nodes:   nodesOf(6, 4),
			cluster: false, group: false},
		{name: "defaults: 3 of 6 unready, the ok count", okCount: 3, maxPercent: 45, targets: map[string]int{"ng1": 6},
			nodes:   nodesOf(6, 3),
			cluster: true, group: true},
		{name: "defaults: 4 of 9 unready, under 45%", okCount: 3, maxPercent: 45, targets: map[string]int{"ng1": 9},
			nodes:   nodesOf(9, 4),
			cluster: true, group: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
			cloud := &fakeCloud{groups: groupsOf(tc.targets), target: tc.targets}
			a, s := testAutoscaler(cloud, tc.okCount, tc.maxPercent, tc.nodes, now)
			if tc.scaleUp > 0 {
				a.registerScaleUp("ng1", tc.scaleUp, now.Add(-3*time.Second))
			}
			cs := a.updateClusterState(s, now)
			if got := a.clusterHealthy(cs); got != tc.cluster {
				t.Errorf("cluster healthy: %v, want %v", got, tc.cluster)
			}
			if got := a.nodeGroupHealthy(cs, "ng1"); got != tc.group {
				t.Errorf("ng1 healthy: %v, want %v", got, tc.group)
			}
		})
	}
}

// nodesOf are n nodes of ng1 registered an hour ago, the first unready
// of them unready.
func nodesOf(n, unready int) []testNode {
	var out []testNode
	for i := range n {
		out = append(out, testNode{name: fmt.Sprintf("ng1-%d", i+1), group: "ng1", ready: i >= unready, age: time.Hour})
	}
	return out
}

// TestExpiredScaleUp after clusterstate_test.go's TestExpiredScaleUp and
// TestExpiredScaleUpRevertsTargetSize: a scale-up of 4 asked 3m before
// the scan, with a 1m max node provision time, has failed: the request is
// gone, the group is backed off (5m) and unhealthy (4 nodes missing),
// the cloud was asked to take the 4 back (and refused), and its upcoming
// nodes no longer count for a scale-up. A machine unregistered since a
// scan 2m before is long unregistered and deleted; one first seen now
// is not.
func TestExpiredScaleUp(t *testing.T) {
	now := time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
	cloud := &fakeCloud{groups: groupsOf(map[string]int{"ng1": 5}), target: map[string]int{"ng1": 5},
		machines: map[string][]string{"ng1": {"ng1-1", "ng1-2", "ng1-3"}}}
	a, s := testAutoscaler(cloud, 1, 10, []testNode{{"ng1-1", "ng1", true, time.Hour}}, now)
	a.registerScaleUp("ng1", 4, now.Add(-3*time.Minute))
	a.unregisteredSince["ng1-2"] = now.Add(-2 * time.Minute)
	cs := a.updateClusterState(s, now)
	if _, ok := a.scaleUps["ng1"]; ok {
		t.Error("the expired scale-up is still under way")
	}
	if !a.backoff.backedOff("ng1", now.Add(5*time.Minute)) || a.backoff.backedOff("ng1", now.Add(5*time.Minute+time.Nanosecond)) {
		t.Error("ng1 not backed off for 5m")
	}
	if a.nodeGroupHealthy(cs, "ng1") {
		t.Error("ng1 healthy with 4 of its 5 nodes missing")
	}
	if !slices.Equal(cloud.decreased, []string{"ng1"}) {
		t.Errorf("target sizes decreased: %q, want ng1's", cloud.decreased)
	}
	if n := a.upcomingForScaleUp(cs, "ng1", now); n != 0 {
		t.Errorf("%d upcoming nodes of a failed, backed-off group count for a scale-up, want 0", n)
	}
	a.removeOldUnregistered(cs)
	if !slices.Equal(cloud.deleted, []string{"ng1-2"}) {
		t.Errorf("deleted %q, want ng1-2, unregistered for 2m", cloud.deleted)
	}
}
