package apiserver

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/clustersim/clustersim/sim/strategicpatch"
)

func decodeDoc(t *testing.T, s string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// TestTwoWayPatchesApplied checks the patch strategicpatch.TwoWay makes
// for each row (as upstream's CreateTwoWayMergePatch makes it), that the
// server's merge (strategicpatch.Apply, what applyPatch does through
// JSON) turns old into cur with it, and that applying it to a server's
// newer copy (row's server) keeps what the writer did not change.
func TestTwoWayPatchesApplied(t *testing.T) {
	tests := []struct {
		name, old, cur, want string
		// server, when set, is what the server holds (old is the
		// writer's stale copy); merged is the patch applied to it.
		server, merged string
	}{
		{name: "equal", old: `{"a":1,"b":{"c":[1,2]}}`, cur: `{"a":1,"b":{"c":[1,2]}}`, want: `{}`},
		{name: "scalar changed, key added, key removed",
			old: `{"a":1,"b":2}`, cur: `{"a":3,"c":4}`, want: `{"a":3,"b":null,"c":4}`},
		{name: "nested map: only its changed keys",
			old:  `{"status":{"capacity":{"cpu":"4","memory":"8Gi"},"phase":"x"}}`,
			cur:  `{"status":{"capacity":{"cpu":"8","memory":"8Gi"},"phase":"x"}}`,
			want: `{"status":{"capacity":{"cpu":"8"}}}`},
		{name: "list without a merge key: replaced whole",
			old:  `{"addresses":[{"type":"InternalIP","address":"a"}]}`,
			cur:  `{"addresses":[{"type":"InternalIP","address":"b"}]}`,
			want: `{"addresses":[{"type":"InternalIP","address":"b"}]}`},
		{name: "heartbeat only: each condition's changed field and its key, and the order",
			old:  `{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"t0"},{"type":"MemoryPressure","status":"False","lastHeartbeatTime":"t0"}]}`,
			cur:  `{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"t1"},{"type":"MemoryPressure","status":"False","lastHeartbeatTime":"t1"}]}`,
			want: `{"$setElementOrder/conditions":[{"type":"Ready"},{"type":"MemoryPressure"}],"conditions":[{"type":"Ready","lastHeartbeatTime":"t1"},{"type":"MemoryPressure","lastHeartbeatTime":"t1"}]}`,
			// The writer's copy is stale: the server has Ready Unknown.
			// The patch leaves that alone (upstream's kubelet patching
			// from its lister does the same).
			server: `{"conditions":[{"type":"Ready","status":"Unknown","lastHeartbeatTime":"t0"},{"type":"MemoryPressure","status":"False","lastHeartbeatTime":"t0"}]}`,
			merged: `{"conditions":[{"type":"Ready","status":"Unknown","lastHeartbeatTime":"t1"},{"type":"MemoryPressure","status":"False","lastHeartbeatTime":"t1"}]}`},
		{name: "element added, removed and moved",
			old:  `{"conditions":[{"type":"A","status":"1"},{"type":"B","status":"1"},{"type":"C","status":"1"}]}`,
			cur:  `{"conditions":[{"type":"C","status":"1"},{"type":"A","status":"1"},{"type":"D","status":"1"}]}`,
			want: `{"$setElementOrder/conditions":[{"type":"C"},{"type":"A"},{"type":"D"}],"conditions":[{"type":"D","status":"1"},{"type":"B","$patch":"delete"}]}`},
		{name: "elements moved, none changed: the order alone",
			old:  `{"conditions":[{"type":"A"},{"type":"B"}]}`,
			cur:  `{"conditions":[{"type":"B"},{"type":"A"}]}`,
			want: `{"$setElementOrder/conditions":[{"type":"B"},{"type":"A"}]}`},
		{name: "a list becomes a map", old: `{"a":[1]}`, cur: `{"a":{"b":1}}`, want: `{"a":{"b":1}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old, cur := decodeDoc(t, tt.old), decodeDoc(t, tt.cur)
			p, err := strategicpatch.TwoWay(old, cur)
			if err != nil {
				t.Fatal(err)
			}
			if want := decodeDoc(t, tt.want); !reflect.DeepEqual(p, want) {
				got, _ := json.Marshal(p)
				t.Errorf("patch %s, want %s", got, tt.want)
			}
			if len(p) == 0 {
				return
			}
			if got, err := strategicpatch.Apply(old, p); err != nil || !reflect.DeepEqual(got, cur) {
				g, _ := json.Marshal(got)
				t.Errorf("old patched by strategicpatch.Apply: %s (%v), want %s", g, err, tt.cur)
			}
			if tt.server != "" {
				got, err := strategicpatch.Apply(decodeDoc(t, tt.server), p)
				if want := decodeDoc(t, tt.merged); err != nil || !reflect.DeepEqual(got, want) {
					g, _ := json.Marshal(got)
					t.Errorf("server's copy patched: %s, want %s", g, tt.merged)
				}
			}
		})
	}
}
