package apiserver

import (
	"encoding/json"
	"testing"
)

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
