package strategicpatch

import (
	"encoding/json"
	"fmt"
	"testing"
)

// FuzzApply applies strategic merge patches an API server receives, from
// any client, directives included, to a document shaped like a served
// object. It checks that Apply never panics, never changes its inputs,
// gives a document that encodes to JSON when it accepts the patch, and
// that every refusal is one StatusCode sorts (its answer is 400, 422 or
// 500, never a success).
func FuzzApply(f *testing.F) {
	doc := `{"metadata":{"name":"a","finalizers":["x","y"],"labels":{"k":"v"}},` +
		`"spec":{"containers":[{"name":"a","image":"1","ports":[{"containerPort":80}]},{"name":"b"}],"ports":[{"port":80}],` +
		`"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}},` +
		`"status":{"conditions":[{"type":"A","status":"True"},{"type":"B"},{"type":"C"}]}}`
	for _, p := range []string{
		`{"metadata":{"finalizers":["z","x"]}}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":["x"],"finalizers":["w"],"labels":{"k":null}}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"c"}],"containers":[{"name":"c","image":"2"},{"name":"a","$patch":"delete"}]}}`,
		`{"status":{"$setElementOrder/conditions":[{"type":"C"},{"type":"A"}],"conditions":[{"type":"D","status":"False"}]}}`,
		`{"spec":{"$patch":"replace","x":1}}`,
		`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
		`{"spec":{"containers":[1,"a",null]}}`,
		`{"spec":{"$setElementOrder/containers":[7,{"name":[]}]}}`,
		`{"spec":{"containers":[{"$patch":"frob","name":"a"}]}}`,
		`{"metadata":{"finalizers":[["a"]]}}`,
	} {
		f.Add(doc, p)
	}
	f.Fuzz(func(t *testing.T, docJSON, patchJSON string) {
		var d, p map[string]any
		if json.Unmarshal([]byte(docJSON), &d) != nil || json.Unmarshal([]byte(patchJSON), &p) != nil {
			return
		}
		before := fmt.Sprint(d, p)
		out, err := Apply(d, p)
		if after := fmt.Sprint(d, p); after != before {
			t.Fatalf("Apply changed its inputs: %s, now %s", before, after)
		}
		if err != nil {
			if c := StatusCode(err); c != 400 && c != 422 && c != 500 {
				t.Fatalf("refusal %q answered %d", err, c)
			}
			return
		}
		if _, err := json.Marshal(out); err != nil {
			t.Fatalf("the result does not encode: %v", err)
		}
	})
}
