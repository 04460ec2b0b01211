package scheduler

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestPackedList: the schedule cycle's listing moves the listed
// nodeInfos into one array in the node tree's order, and the cache goes
// on counting pods on the moved ones: its map, its order and the count
// memos all point at them. The steps grow the cluster, bind pods before
// and after a move, and remove a node, which rebuilds the order.
func TestPackedList(t *testing.T) {
	alloc := api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4"), api.ResourceMemory: api.MustParseQuantity("8Gi")}
	zoned := func(name, zone string) *api.Node {
		n := testNode(name, alloc)
		n.Labels[api.LabelTopologyZone] = zone
		return n
	}
	c := newCache()
	// Not in the tree's order: zones round robin, names sorted within.
	for _, n := range []*api.Node{zoned("b-2", "b"), zoned("a-2", "a"), zoned("b-1", "b"), zoned("a-1", "a"), zoned("a-3", "a")} {
		c.setNode(n)
	}
	pod := testPod("p-1", api.ResourceList{api.ResourceCPU: api.MustParseQuantity("100m")})
	c.setPod(bindTo(pod, "a-1"))

	check := func(step string, wantNames []string, wantCPU map[string]int64) {
		t.Helper()
		// A step that added or removed a node rebuilds the order: its
		// nodeInfos move at the packAfter-th listing, not before.
		rebuilt := c.stale
		var order []*nodeInfo
		for i := range packAfter {
			order = c.packedList()
			if moved := c.packed; moved != (!rebuilt || i == packAfter-1) {
				t.Fatalf("%s: after %d listings, moved is %t", step, i+1, moved)
			}
		}
		var names []string
		for i, ni := range order {
			names = append(names, ni.name)
			if c.nodes[ni.name] != ni {
				t.Errorf("%s: the cache's map holds another nodeInfo for %s than its order", step, ni.name)
			}
			if ni.memo != nil && ni.memo.owner != ni {
				t.Errorf("%s: %s's count memo belongs to another nodeInfo", step, ni.name)
			}
			if i > 0 && reflect.ValueOf(ni).Pointer()-reflect.ValueOf(order[i-1]).Pointer() != reflect.TypeFor[nodeInfo]().Size() {
				t.Errorf("%s: %s is not next to %s in memory", step, ni.name, order[i-1].name)
			}
			if got := ni.requested.milliCPU; got != wantCPU[ni.name] {
				t.Errorf("%s: %s has %dm requested, want %dm", step, ni.name, got, wantCPU[ni.name])
			}
		}
		if fmt.Sprint(names) != fmt.Sprint(wantNames) {
			t.Errorf("%s: order %v, want %v", step, names, wantNames)
		}
	}
	check("first", []string{"a-1", "b-1", "a-2", "b-2", "a-3"}, map[string]int64{"a-1": 100})
	c.setPod(bindTo(testPod("p-2", api.ResourceList{api.ResourceCPU: api.MustParseQuantity("200m")}), "b-2"))
	check("a pod bound after the move", []string{"a-1", "b-1", "a-2", "b-2", "a-3"}, map[string]int64{"a-1": 100, "b-2": 200})
	c.setNode(zoned("b-3", "b"))
	c.setPod(bindTo(testPod("p-3", api.ResourceList{api.ResourceCPU: api.MustParseQuantity("300m")}), "b-3"))
	check("a node added", []string{"a-1", "b-1", "a-2", "b-2", "a-3", "b-3"}, map[string]int64{"a-1": 100, "b-2": 200, "b-3": 300})
	c.removeNode("a-2")
	c.setPod(bindTo(testPod("p-4", api.ResourceList{api.ResourceCPU: api.MustParseQuantity("400m")}), "a-3"))
	check("a node removed", []string{"a-1", "b-1", "a-3", "b-2", "b-3"}, map[string]int64{"a-1": 100, "b-2": 200, "b-3": 300, "a-3": 400})
}
