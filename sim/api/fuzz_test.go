package api

import (
	"encoding/json"
	"testing"
)

// FuzzParseQuantity checks that parsing never panics and that the
// canonical form of any accepted quantity parses back to the same value.
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
		if err := json.Unmarshal(b, &j); err != nil || j != q {
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
