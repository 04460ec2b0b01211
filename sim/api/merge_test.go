package api

import (
	"encoding/json"
	"testing"
)

func TestMergePatch(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		patch     string
		strategic bool
		want      string
	}{
		{"rfc7386 replace and add", `{"a":"b","c":{"d":"e"}}`, `{"a":"z","c":{"f":"g"}}`, false, `{"a":"z","c":{"d":"e","f":"g"}}`},
		{"rfc7386 null deletes", `{"a":"b","c":"d"}`, `{"a":null}`, false, `{"c":"d"}`},
		{"rfc7386 lists are replaced", `{"l":[1,2,3]}`, `{"l":[4]}`, false, `{"l":[4]}`},
		{"merge patch replaces containers", `{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y"}]}`, `{"containers":[{"name":"b","image":"z"}]}`, false,
			`{"containers":[{"image":"z","name":"b"}]}`},
		{"strategic merges containers by name", `{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y"}]}`, `{"containers":[{"name":"b","image":"z"}]}`, true,
			`{"containers":[{"image":"x","name":"a"},{"image":"z","name":"b"}]}`},
		{"strategic appends a new container", `{"containers":[{"name":"a"}]}`, `{"containers":[{"name":"c"}]}`, true, `{"containers":[{"name":"a"},{"name":"c"}]}`},
		{"service ports merge by port", `{"ports":[{"port":80,"targetPort":8080},{"port":81,"targetPort":8081}]}`, `{"ports":[{"port":81,"targetPort":9091}]}`, true,
			`{"ports":[{"port":80,"targetPort":8080},{"port":81,"targetPort":9091}]}`},
		{"container ports merge by containerPort", `{"ports":[{"containerPort":80,"name":"http"}]}`, `{"ports":[{"containerPort":80,"name":"web"}]}`, true,
			`{"ports":[{"containerPort":80,"name":"web"}]}`},
		{"unkeyed lists are replaced", `{"args":["a","b"]}`, `{"args":["c"]}`, true, `{"args":["c"]}`},
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
			got, _ := json.Marshal(MergePatch(doc, patch, "", tc.strategic))
			if string(got) != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if after, _ := json.Marshal(doc); string(after) != string(before) {
				t.Errorf("MergePatch changed its input: %s -> %s", before, after)
			}
		})
	}
}
