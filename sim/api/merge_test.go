package api

import (
	"encoding/json"
	"testing"
)

// TestMergePatch: RFC 7386 JSON merge patch (strategic merge patch is
// sim/strategicpatch's, whose TestApplyBuiltinLists holds the rows that
// were here with strategic set).
func TestMergePatch(t *testing.T) {
	tests := []struct {
		name  string
		doc   string
		patch string
		want  string
	}{
		{"rfc7386 replace and add", `{"a":"b","c":{"d":"e"}}`, `{"a":"z","c":{"f":"g"}}`, `{"a":"z","c":{"d":"e","f":"g"}}`},
		{"rfc7386 null deletes", `{"a":"b","c":"d"}`, `{"a":null}`, `{"c":"d"}`},
		{"rfc7386 lists are replaced", `{"l":[1,2,3]}`, `{"l":[4]}`, `{"l":[4]}`},
		{"merge patch replaces containers", `{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y"}]}`, `{"containers":[{"name":"b","image":"z"}]}`,
			`{"containers":[{"image":"z","name":"b"}]}`},
		{"merge patch replaces metadata.finalizers", `{"metadata":{"finalizers":["a","b"]}}`, `{"metadata":{"finalizers":["c"]}}`,
			`{"metadata":{"finalizers":["c"]}}`},
		// RFC 7386's own examples (appendix A).
		{"rfc7386: a scalar replaced by an object", `{"a":"b"}`, `{"a":{"b":"c"}}`, `{"a":{"b":"c"}}`},
		{"rfc7386: nulls in an added object are dropped", `{"e":null}`, `{"a":{"bb":{"ccc":null}}}`, `{"a":{"bb":{}},"e":null}`},
		{"rfc7386: a patch that is not an object replaces", `{"a":"foo"}`, `["c"]`, `["c"]`},
		{"rfc7386: an object replaces a list", `["a","b"]`, `{"a":"b","c":null}`, `{"a":"b"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var doc, patch any
			if err := json.Unmarshal([]byte(tc.doc), &doc); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.patch), &patch); err != nil {
				t.Fatal(err)
			}
			before, _ := json.Marshal(doc)
			got, _ := json.Marshal(MergePatch(doc, patch))
			if string(got) != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if after, _ := json.Marshal(doc); string(after) != string(before) {
				t.Errorf("MergePatch changed its input: %s -> %s", before, after)
			}
		})
	}
}
