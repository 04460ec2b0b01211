package apiserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// copyBomb is a JSON patch of n copies of the document's spec into
// itself.
func copyBomb(n int) string {
	ops := make([]string, n)
	for i := range ops {
		ops[i] = fmt.Sprintf(`{"op":"copy","from":"/spec","path":"/spec/c%d"}`, i)
	}
	return "[" + strings.Join(ops, ",") + "]"
}

func TestApplyJSONPatch(t *testing.T) {
	doc := `{"metadata":{"annotations":{"a":"1"}},"spec":{"list":[1,2,3],"template":{"image":"old"}}}`
	for _, tc := range []struct {
		name, patch, want, err string
	}{
		{"replace", `[{"op":"replace","path":"/spec/template","value":{"image":"new"}}]`,
			`{"metadata":{"annotations":{"a":"1"}},"spec":{"list":[1,2,3],"template":{"image":"new"}}}`, ""},
		{"add to a list", `[{"op":"add","path":"/spec/list/1","value":9}]`,
			`{"metadata":{"annotations":{"a":"1"}},"spec":{"list":[1,9,2,3],"template":{"image":"old"}}}`, ""},
		{"append", `[{"op":"add","path":"/spec/list/-","value":4}]`,
			`{"metadata":{"annotations":{"a":"1"}},"spec":{"list":[1,2,3,4],"template":{"image":"old"}}}`, ""},
		{"remove", `[{"op":"remove","path":"/spec/list/0"},{"op":"remove","path":"/metadata/annotations/a"}]`,
			`{"metadata":{"annotations":{}},"spec":{"list":[2,3],"template":{"image":"old"}}}`, ""},
		{"move", `[{"op":"move","from":"/spec/template/image","path":"/spec/image"}]`,
			`{"metadata":{"annotations":{"a":"1"}},"spec":{"image":"old","list":[1,2,3],"template":{}}}`, ""},
		{"test passes", `[{"op":"test","path":"/spec/list/2","value":3}]`, doc, ""},
		{"test fails", `[{"op":"test","path":"/spec/list/2","value":4}]`, "", "testing value /spec/list/2 failed"},
		{"replace of a missing key", `[{"op":"replace","path":"/spec/nope","value":1}]`, "", `unable to find /spec/nope: missing key "nope"`},
		{"copy", `[{"op":"copy","from":"/spec/template","path":"/spec/copy"}]`,
			`{"metadata":{"annotations":{"a":"1"}},"spec":{"copy":{"image":"old"},"list":[1,2,3],"template":{"image":"old"}}}`, ""},
		// Copies of the spec into itself double it each time, until the
		// 3 MiB of copies kube-apiserver allows run out.
		{"copies past 3 MiB", copyBomb(40), "", "Unable to complete the copy, the accumulated size increase of copy is 3211176, exceeding the limit 3145728"},
		{"too many operations", `[` + strings.Repeat(`{"op":"test","path":"/spec/list/0","value":1},`, 10000) + `{"op":"test","path":"/spec/list/0","value":1}]`, "",
			"Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"},
		{"escaped pointer", `[{"op":"add","path":"/metadata/annotations/a~1b","value":"2"}]`,
			`{"metadata":{"annotations":{"a":"1","a/b":"2"}},"spec":{"list":[1,2,3],"template":{"image":"old"}}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d any
			if err := decodeJSON([]byte(doc), &d); err != nil {
				t.Fatal(err)
			}
			got, err := applyJSONPatch(d, []byte(tc.patch))
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(got)
			if string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
			var again any
			decodeJSON([]byte(doc), &again)
			if b2, _ := json.Marshal(d); string(b2) != doc && tc.name != "test passes" {
				t.Errorf("the patch changed its input: %s", b2)
			}
		})
	}
}
