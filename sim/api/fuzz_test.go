package api

import (
	"encoding/json"
	"fmt"
	"testing"
)

// FuzzParseQuantity checks that parsing never panics, that the printed
// form of any accepted quantity parses back to the same value, and that
// JSON keeps its value and printed form.
func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"500m", "1.5Gi", "129e6", "+1", "-0.5Ki", "1e-20", "8Pi", "1.5.5", "5Zi", ".", "-"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		if err != nil {
			return
		}
		c := q.String()
		back, err := ParseQuantity(c)
		if err != nil || back.MilliValue() != q.MilliValue() {
			t.Fatalf("%q -> %q -> %v (%v)", s, c, back, err)
		}
		b, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		var j Quantity
		if err := json.Unmarshal(b, &j); err != nil || j.MilliValue() != q.MilliValue() || j.String() != q.String() {
			t.Fatalf("%q JSON %s -> %#v (%v)", s, b, j, err)
		}
	})
}

// FuzzParseSelector checks that parsing never panics and that the string
// form of any accepted selector parses back to the same string.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{"a=b,c!=d,e in (x,y),!f,g", "x in (a,,b)", "n>3", "a=(", "!a=b", "k8s.io/a notin ()"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			return
		}
		again, err := ParseSelector(sel.String())
		if err != nil || again.String() != sel.String() {
			t.Fatalf("%q -> %q -> %q (%v)", s, sel, again, err)
		}
	})
}

// FuzzMergePatch applies patches an API server receives, from any
// client, to a document: JSON merge patches and strategic merge patches
// with their directives. It checks that merging never panics, never
// changes its inputs, gives a document that encodes to JSON, and that a
// JSON merge patch applied twice changes nothing the second time (RFC
// 7386 patches are idempotent).
func FuzzMergePatch(f *testing.F) {
	doc := `{"metadata":{"name":"a","finalizers":["x","y"],"labels":{"k":"v"}},` +
		`"spec":{"containers":[{"name":"a","image":"1","ports":[{"containerPort":80}]},{"name":"b"}],"ports":[{"port":80}]},` +
		`"status":{"conditions":[{"type":"A","status":"True"},{"type":"B"},{"type":"C"}]}}`
	for _, p := range []string{
		`{"metadata":{"finalizers":["z","x"]}}`,
		`{"metadata":{"$deleteFromPrimitiveList/finalizers":["x"],"finalizers":["w"],"labels":{"k":null}}}`,
		`{"spec":{"$setElementOrder/containers":[{"name":"b"},{"name":"c"}],"containers":[{"name":"c","image":"2"},{"name":"a","$patch":"delete"}]}}`,
		`{"status":{"$setElementOrder/conditions":[{"type":"C"},{"type":"A"}],"conditions":[{"type":"D","status":"False"}]}}`,
		`{"spec":{"$patch":"replace","x":1}}`,
		`{"spec":{"$retainKeys":["ports"],"ports":[{"port":81}]}}`,
		`{"spec":{"containers":[1,"a",null]}}`,
		`{"spec":{"$setElementOrder/containers":[7,{"name":[]}]}}`,
	} {
		f.Add(doc, p, true)
		f.Add(doc, p, false)
	}
	f.Fuzz(func(t *testing.T, docJSON, patchJSON string, strategic bool) {
		var d, p any
		if json.Unmarshal([]byte(docJSON), &d) != nil || json.Unmarshal([]byte(patchJSON), &p) != nil {
			return
		}
		before := fmt.Sprint(d, p)
		out := MergePatch(d, p, "", strategic)
		if after := fmt.Sprint(d, p); after != before {
			t.Fatalf("MergePatch changed its inputs: %s, now %s", before, after)
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatalf("the result does not encode: %v", err)
		}
		if !strategic {
			if again, _ := json.Marshal(MergePatch(out, p, "", false)); string(again) != string(b) {
				t.Fatalf("a merge patch applied twice: %s, then %s", b, again)
			}
		}
	})
}
