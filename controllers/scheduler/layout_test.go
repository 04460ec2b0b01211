package scheduler

import (
	"reflect"
	"testing"
)

// TestNodeInfoLayout holds the layout nodeInfo's comment promises: every
// field the filters and scorers read for each node a pod visits (ready
// through fit) within its first 128 bytes, two cache lines, and its size
// a multiple of 64 bytes, so that in packedList's array (one allocation,
// aligned to its page when large) those two lines are each node's first
// two. A field added to the hot part past 128 bytes, or one that makes
// the size uneven, fails it: the scheduler's search would read a third
// line per node (PERFORMANCE.md, twenty-seventh pass). Planted, each
// fails: fit moved behind taints; a bool added at the end.
func TestNodeInfoLayout(t *testing.T) {
	typ := reflect.TypeFor[nodeInfo]()
	hot := []string{"ready", "unschedulable", "hardTaints", "softTaints", "fitSet", "pods", "allowedPods", "allocatable", "requested", "nonZero", "fit"}
	for _, name := range hot {
		f, ok := typ.FieldByName(name)
		if !ok {
			t.Fatalf("nodeInfo has no field %s", name)
		}
		if end := f.Offset + f.Type.Size(); end > 128 {
			t.Errorf("nodeInfo.%s ends at byte %d, past the first 128", name, end)
		}
	}
	if size := typ.Size(); size%64 != 0 {
		t.Errorf("nodeInfo is %d bytes, not a multiple of 64: its hot fields straddle a third cache line in packedList's array", size)
	}
	if s := reflect.TypeFor[resources]().Size(); s != 24 {
		t.Errorf("resources is %d bytes, want 24 (cpu, memory, and the rare rest behind a pointer)", s)
	}
}
