package kubelet

import (
	"reflect"
	"strings"
	"testing"
)

// TestKubeletHotFieldsFirst checks that what a timer's firing and a
// lease renewal read lies in the Kubelet's first 128 bytes: the kernel
// prefetches the first cache lines of the next event's handler, and a
// field moved past them is read cold again at thousands of nodes.
func TestKubeletHotFieldsFirst(t *testing.T) {
	const limit = 128
	typ := reflect.TypeFor[Kubelet]()
	for _, path := range []string{
		"running", "leaseBusy", "seq", "regTok", "nodeTok", "leaseTok", "leaseOp", "pullTok", "pacedTok",
		"k", "net", "self", "server", "t", "rng", "lease", "cfg.NodeName",
	} {
		var end uintptr
		cur := typ
		for _, name := range strings.Split(path, ".") {
			f, ok := cur.FieldByName(name)
			if !ok {
				t.Fatalf("Kubelet has no field %s", path)
			}
			end += f.Offset
			cur = f.Type
		}
		if end += cur.Size(); end > limit {
			t.Errorf("Kubelet.%s ends at byte %d, past the %d prefetched", path, end, limit)
		}
	}
}
