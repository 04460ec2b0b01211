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

// FuzzMergePatch applies JSON merge patches an API server receives,
// from any client, to a document (strategic merge patches are
// sim/strategicpatch's FuzzApply). It checks that merging never panics,
// never changes its inputs, gives a document that encodes to JSON, and
// that a patch applied twice changes nothing the second time (RFC 7386
// patches are idempotent).
func FuzzMergePatch(f *testing.F) {
	doc := `{"metadata":{"name":"a","finalizers":["x","y"],"labels":{"k":"v"}},` +
		`"spec":{"containers":[{"name":"a","image":"1","ports":[{"containerPort":80}]},{"name":"b"}],"ports":[{"port":80}]},` +
		`"status":{"conditions":[{"type":"A","status":"True"},{"type":"B"},{"type":"C"}]}}`
	for _, p := range []string{
		`{"metadata":{"finalizers":["z","x"]}}`,
		`{"metadata":{"labels":{"k":null,"n":{"deep":null}}}}`,
		`{"spec":{"containers":[{"name":"c","image":"2"}]}}`,
		`{"spec":null,"status":{"conditions":7}}`,
		`{"spec":{"containers":[1,"a",null]}}`,
		`[1,2]`,
		`"text"`,
	} {
		f.Add(doc, p)
	}
	f.Fuzz(func(t *testing.T, docJSON, patchJSON string) {
		var d, p any
		if json.Unmarshal([]byte(docJSON), &d) != nil || json.Unmarshal([]byte(patchJSON), &p) != nil {
			return
		}
		before := fmt.Sprint(d, p)
		out := MergePatch(d, p)
		if after := fmt.Sprint(d, p); after != before {
			t.Fatalf("MergePatch changed its inputs: %s, now %s", before, after)
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatalf("the result does not encode: %v", err)
		}
		if again, _ := json.Marshal(MergePatch(out, p)); string(again) != string(b) {
			t.Fatalf("a merge patch applied twice: %s, then %s", b, again)
		}
	})
}
