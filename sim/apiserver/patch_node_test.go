package apiserver

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/strategicpatch"
)

func testNode() *api.Node {
	t0 := api.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	cond := func(typ api.NodeConditionType, status api.ConditionStatus, reason, msg string) api.NodeCondition {
		return api.NodeCondition{Type: typ, Status: status, LastHeartbeatTime: t0, LastTransitionTime: t0, Reason: reason, Message: msg}
	}
	return &api.Node{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: api.ObjectMeta{Name: "n1", UID: "u1", ResourceVersion: "7", Labels: map[string]string{"a": "b"}},
		Status: api.NodeStatus{
			Capacity: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4")},
			Conditions: []api.NodeCondition{
				cond("MemoryPressure", api.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
				cond("DiskPressure", api.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
				cond("PIDPressure", api.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
				cond(api.NodeReady, api.ConditionTrue, "KubeletReady", "kubelet is posting ready status"),
			},
			Addresses: []api.NodeAddress{{Type: api.NodeInternalIP, Address: "10.0.0.1"}},
		},
	}
}

// TestNodeConditionsPatchMatches holds applyPatch's typed path for node
// conditions to the general path through JSON: for patches made as the
// kubelet makes them (strategicpatch.TwoWay of random changes to the
// conditions: statuses, reasons, times, conditions added, removed and
// moved) and for hand-made ones at the edges, the typed path either
// declines or gives the object the general path gives, and it takes the
// kubelet's patches.
func TestNodeConditionsPatchMatches(t *testing.T) {
	old := testNode()
	rng := rand.New(rand.NewPCG(1, 2))
	var patches [][]byte
	for range 300 {
		cur := append([]api.NodeCondition(nil), old.Status.Conditions...)
		for range 1 + rng.IntN(3) {
			i := rng.IntN(len(cur))
			c := &cur[i]
			switch rng.IntN(8) {
			case 0:
				c.Status = []api.ConditionStatus{api.ConditionTrue, api.ConditionFalse, api.ConditionUnknown}[rng.IntN(3)]
			case 1:
				c.Reason = fmt.Sprint("Reason", rng.IntN(3))
			case 2:
				c.Message = fmt.Sprint("message ", rng.IntN(3))
			case 3:
				c.LastHeartbeatTime = api.NewTime(c.LastHeartbeatTime.Add(time.Duration(rng.IntN(600)) * time.Second))
			case 4:
				c.LastTransitionTime = api.NewTime(c.LastTransitionTime.Add(time.Duration(rng.IntN(600)) * time.Second))
			case 5:
				cur = append(cur, api.NodeCondition{Type: api.NodeConditionType(fmt.Sprint("Custom", rng.IntN(2))), Status: api.ConditionTrue,
					LastHeartbeatTime: c.LastHeartbeatTime, LastTransitionTime: c.LastTransitionTime, Reason: "R"})
			case 6:
				if len(cur) > 1 {
					cur = append(cur[:i:i], cur[i+1:]...)
				}
			case 7:
				j := rng.IntN(len(cur))
				cur[i], cur[j] = cur[j], cur[i]
			}
		}
		var docs [2]map[string]any
		for k, conds := range [][]api.NodeCondition{old.Status.Conditions, cur} {
			b, _ := json.Marshal(map[string]any{"status": api.NodeStatus{Conditions: conds}})
			json.Unmarshal(b, &docs[k])
		}
		p, err := strategicpatch.TwoWay(docs[0], docs[1])
		if err != nil {
			t.Fatal(err)
		}
		if len(p) == 0 {
			continue
		}
		b, _ := json.Marshal(p)
		patches = append(patches, b)
	}
	kubelets := len(patches)
	patches = append(patches, [][]byte{
		[]byte(`{"status":{"conditions":[{"type":"Ready","status":"Unknown"},{"type":"Ready","reason":"Twice"}]}}`),
		[]byte(`{"status":{"conditions":[{"type":"Gone","$patch":"delete"}]}}`),
		[]byte(`{"status":{"$setElementOrder/conditions":[{"type":"Nope"},{"type":"Ready"}]}}`),
		// An element order that names none of them: the order the
		// patch's own list gave the conditions decides where the new one
		// goes among those the Node had.
		[]byte(`{"status":{"$setElementOrder/conditions":[{"type":"Nope"}],"conditions":[{"type":"New","status":"True"}]}}`),
		[]byte(`{"status":{"conditions":[{"type":"Ready","message":null}]}}`),
		[]byte(`{"status":{"conditions":[{"type":"Ready","$patch":"replace"}]}}`),
		[]byte(`{"status":{"conditions":[{"type":"Ready","status":"False"}],"phase":"Running"}}`),
		[]byte(`{"metadata":{"labels":{"x":"y"}},"status":{"conditions":[{"type":"Ready","status":"False"}]}}`),
		[]byte(`{"status":{"conditions":[{"status":"False"}]}}`),
		[]byte(`{"status":{"conditions":[{"type":"Ready","lastHeartbeatTime":"not a time"}]}}`),
		[]byte(`{"status":{}}`),
		[]byte(`{}`),
		[]byte(`{"status":{"conditions":[]}} {"trailing":1}`),
		[]byte(`{"status":{"conditions":[{"type":"Ready","$retainKeys":["type"]}]}}`),
		[]byte(`{"status":{"conditions":[{"type":"Ready","status":false}]}}`),
	}...)
	typed := 0
	for i, p := range patches {
		fast, ok := nodeConditionsPatch(old, p)
		if i < kubelets && !ok {
			t.Errorf("the typed path declined the kubelet-made patch %s", p)
		}
		if !ok {
			continue
		}
		typed++
		slow, err := applyPatchJSON(old, p, StrategicMergePatch)
		if err != nil {
			t.Errorf("patch %s: typed path took it, general path refused it: %v", p, err)
			continue
		}
		fj, _ := json.Marshal(fast)
		sj, _ := json.Marshal(slow)
		if string(fj) != string(sj) {
			t.Errorf("patch %s:\ntyped   %s\ngeneral %s", p, fj, sj)
		}
	}
	if typed < kubelets {
		t.Errorf("typed path took %d of %d patches, want at least the kubelet's %d", typed, len(patches), kubelets)
	}
	if got, _ := json.Marshal(old); string(got) != string(mustJSON(t, testNode())) {
		t.Errorf("the old node changed: %s", got)
	}
}

// TestNodeConditionsPatchDeclines: shapes the typed path does not model
// go to the general path, even where the general path would give the
// same Node (an unknown key it drops, an element order entry with more
// than a type), so that the typed path's scope stays what its comment
// says.
func TestNodeConditionsPatchDeclines(t *testing.T) {
	old := testNode()
	for _, p := range []string{
		`{"status":{"conditions":[{"type":"Ready","stAtus":"False"}]}}`,
		`{"status":{"conditions":[{"type":"Ready","probeTime":"2026-01-01T00:00:00Z"}]}}`,
		`{"status":{"conditions":[{"type":"Ready","$retainKeys":["type"]}]}}`,
		`{"status":{"$setElementOrder/conditions":[{"type":"Ready","status":"True"}]}}`,
		`{"status":{"conditions":[{"type":"Ready","status":false}]}}`,
		`{"status":{"conditions":[{"type":"","status":"False"}]}}`,
		`{"status":{"conditions":[{"type":"Ready","$patch":"merge"}]}}`,
		`{"status":{"conditions":{"type":"Ready"}}}`,
		`{"status":{"conditions":["Ready"]}}`,
		`{"Status":{"conditions":[{"type":"Ready","status":"False"}]}}`,
		// Conditions out of their element order: the merge refuses it.
		`{"status":{"$setElementOrder/conditions":[{"type":"Ready"}],"conditions":[{"type":"New","status":"True"}]}}`,
		// More conditions than a kubelet sends: the general path finds
		// them by key.
		manyConditions(fastConditions + 1),
	} {
		if _, ok := nodeConditionsPatch(old, []byte(p)); ok {
			t.Errorf("the typed path took %s", p)
		}
	}
}

// manyConditions is a node status patch of n conditions.
func manyConditions(n int) string {
	conds := make([]string, n)
	for i := range conds {
		conds[i] = fmt.Sprintf(`{"type":"C%d","status":"True"}`, i)
	}
	return `{"status":{"conditions":[` + strings.Join(conds, ",") + `]}}`
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzNodeConditionsPatch feeds arbitrary bytes, as a client's strategic
// merge patch of a Node, to the typed path for node conditions. Beyond
// not panicking it checks that the typed path never changes the stored
// Node, and that whatever it takes the general path through JSON takes
// too, with the same result.
func FuzzNodeConditionsPatch(f *testing.F) {
	for _, seed := range []string{
		`{"status":{"$setElementOrder/conditions":[{"type":"Ready"}],"conditions":[{"type":"Ready","lastHeartbeatTime":"2026-01-01T00:05:00Z"}]}}`,
		`{"status":{"conditions":[{"type":"Ready","status":"Unknown","reason":"NodeStatusUnknown"},{"type":"X","$patch":"delete"}]}}`,
		`{"status":{"conditions":[{"type":"New","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z"}]}}`,
		`{"status":{"$setElementOrder/conditions":[{"type":"Ready"},{"type":"MemoryPressure"}]}}`,
		`{"status":{"conditions":null}}`,
		`{}`,
	} {
		f.Add([]byte(seed))
	}
	want, err := json.Marshal(testNode())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, patch []byte) {
		old := testNode()
		fast, ok := nodeConditionsPatch(old, patch)
		if got := mustJSON(t, old); string(got) != string(want) {
			t.Fatalf("the typed path changed the stored Node: %s", got)
		}
		if !ok {
			return
		}
		slow, err := applyPatchJSON(old, patch, StrategicMergePatch)
		if err != nil {
			t.Fatalf("patch %q: the typed path took it, the general path refused it: %v", patch, err)
		}
		if fj, sj := mustJSON(t, fast), mustJSON(t, slow); string(fj) != string(sj) {
			t.Fatalf("patch %q:\ntyped   %s\ngeneral %s", patch, fj, sj)
		}
	})
}

// BenchmarkNodeStatusPatch applies a kubelet's heartbeat patch (every
// condition's lastHeartbeatTime) to a Node: through the typed path for
// node conditions and through JSON, the general path.
func BenchmarkNodeStatusPatch(b *testing.B) {
	old := testNode()
	patch := []byte(`{"status":{"$setElementOrder/conditions":[{"type":"MemoryPressure"},{"type":"DiskPressure"},{"type":"PIDPressure"},{"type":"Ready"}],` +
		`"conditions":[{"type":"MemoryPressure","lastHeartbeatTime":"2026-01-01T00:05:00Z"},{"type":"DiskPressure","lastHeartbeatTime":"2026-01-01T00:05:00Z"},` +
		`{"type":"PIDPressure","lastHeartbeatTime":"2026-01-01T00:05:00Z"},{"type":"Ready","lastHeartbeatTime":"2026-01-01T00:05:00Z"}]}}`)
	if _, ok := nodeConditionsPatch(old, patch); !ok {
		b.Fatal("the typed path declined the heartbeat patch")
	}
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			nodeConditionsPatch(old, patch)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := applyPatchJSON(old, patch, StrategicMergePatch); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestEmptyNodePatch: a strategic merge patch of nothing ({}, as each
// kubelet sends once), applied to a Node, gives the Node the general
// path gives through JSON, without it: the stored Node's own maps (the
// typed path's copy shares them; JSON's would not), its resourceVersion
// cleared for the latest state, the stored Node unchanged. A Node
// without conditions takes it too; a body other than {} (spaces around
// it aside) is the general path's.
func TestEmptyNodePatch(t *testing.T) {
	bare := testNode()
	bare.Status.Conditions = nil
	for _, old := range []*api.Node{testNode(), bare} {
		want := string(mustJSON(t, old))
		for _, body := range []string{`{}`, " {}\n", "\t{ }"} {
			fast, ok := nodeConditionsPatch(old, []byte(body))
			if body == "\t{ }" {
				// Not the bytes {}: the general path reads it.
				if ok {
					t.Errorf("patch %q took the typed path", body)
				}
				continue
			}
			if !ok {
				t.Fatalf("patch %q: the typed path declined it", body)
			}
			slow, err := applyPatchJSON(old, []byte(body), StrategicMergePatch)
			if err != nil {
				t.Fatal(err)
			}
			if fj, sj := mustJSON(t, fast), mustJSON(t, slow); string(fj) != string(sj) {
				t.Fatalf("patch %q:\ntyped   %s\ngeneral %s", body, fj, sj)
			}
			n := fast.(*api.Node)
			if n == old || n.ResourceVersion != "" || reflect.ValueOf(n.Labels).Pointer() != reflect.ValueOf(old.Labels).Pointer() {
				t.Errorf("patch %q: want a copy of the stored Node sharing its labels, resourceVersion cleared; got %+v", body, n)
			}
			if got := string(mustJSON(t, old)); got != want {
				t.Fatalf("the stored Node changed: %s", got)
			}
		}
	}
	if _, ok := nodeConditionsPatch(&api.Pod{}, []byte(`{}`)); ok {
		t.Error("a Pod took the Node's typed path")
	}
}
