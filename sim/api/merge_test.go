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
		// Upstream's mergeSlice orders the result (normalizeElementOrder):
		// the patch's elements first in its order, each old one before
		// the first patch element that stood after it, so a new
		// element, which stood nowhere, comes before the old ones.
		{"strategic puts a new container first", `{"containers":[{"name":"a"}]}`, `{"containers":[{"name":"c"}]}`, true, `{"containers":[{"name":"c"},{"name":"a"}]}`},
		{"strategic orders the patch's containers as the patch does", `{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}`, `{"containers":[{"name":"c"},{"name":"a"}]}`, true,
			`{"containers":[{"name":"b"},{"name":"c"},{"name":"a"}]}`},
		{"service ports merge by port", `{"ports":[{"port":80,"targetPort":8080},{"port":81,"targetPort":8081}]}`, `{"ports":[{"port":81,"targetPort":9091}]}`, true,
			`{"ports":[{"port":80,"targetPort":8080},{"port":81,"targetPort":9091}]}`},
		{"container ports merge by containerPort", `{"ports":[{"containerPort":80,"name":"http"}]}`, `{"ports":[{"containerPort":80,"name":"web"}]}`, true,
			`{"ports":[{"containerPort":80,"name":"web"}]}`},
		{"unkeyed lists are replaced", `{"args":["a","b"]}`, `{"args":["c"]}`, true, `{"args":["c"]}`},
		// ObjectMeta.Finalizers is patchStrategy merge: a set.
		{"strategic adds to metadata.finalizers", `{"metadata":{"finalizers":["a","b"]}}`, `{"metadata":{"finalizers":["c","a"]}}`, true,
			`{"metadata":{"finalizers":["c","a","b"]}}`},
		{"a finalizer held twice is merged once", `{"metadata":{"finalizers":["a","a","b"]}}`, `{"metadata":{"finalizers":["b","c"]}}`, true,
			`{"metadata":{"finalizers":["a","b","c"]}}`},
		{"merge patch replaces metadata.finalizers", `{"metadata":{"finalizers":["a","b"]}}`, `{"metadata":{"finalizers":["c"]}}`, false,
			`{"metadata":{"finalizers":["c"]}}`},
		// NamespaceSpec.Finalizers has no patch strategy: replaced.
		{"strategic replaces spec.finalizers", `{"spec":{"finalizers":["kubernetes"]}}`, `{"spec":{"finalizers":["x"]}}`, true,
			`{"spec":{"finalizers":["x"]}}`},
		{"volumeDevices merge by devicePath", `{"volumeDevices":[{"devicePath":"/a","name":"x"},{"devicePath":"/b","name":"y"}]}`, `{"volumeDevices":[{"devicePath":"/b","name":"z"}]}`, true,
			`{"volumeDevices":[{"devicePath":"/a","name":"x"},{"devicePath":"/b","name":"z"}]}`},
		{"schedulingGates merge by name", `{"schedulingGates":[{"name":"a"}]}`, `{"schedulingGates":[{"name":"b"}]}`, true,
			`{"schedulingGates":[{"name":"b"},{"name":"a"}]}`},
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

func TestStrategicDirectives(t *testing.T) {
	for _, tc := range []struct {
		name, doc, patch, want string
	}{
		{"setElementOrder keeps the listed order",
			`{"containers":[{"name":"a","image":"1"},{"name":"b","image":"1"}]}`,
			`{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","image":"2"}]}`,
			`{"containers":[{"image":"1","name":"b"},{"image":"2","name":"a"}]}`},
		// Upstream orders by the patch without its deletions: an element
		// deleted and added again goes where it is added.
		{"an element deleted and added again takes its added place",
			`{"containers":[{"name":"a","image":"1"},{"name":"b"}]}`,
			`{"containers":[{"name":"a","$patch":"delete"},{"name":"c"},{"name":"a","image":"2"}]}`,
			`{"containers":[{"name":"c"},{"image":"2","name":"a"},{"name":"b"}]}`},
		{"$patch delete removes a list element",
			`{"containers":[{"name":"a"},{"name":"b"}]}`,
			`{"containers":[{"name":"a","$patch":"delete"}]}`,
			`{"containers":[{"name":"b"}]}`},
		{"$patch replace replaces a map",
			`{"spec":{"a":1,"b":2}}`,
			`{"spec":{"$patch":"replace","c":3}}`,
			`{"spec":{"c":3}}`},
		{"$retainKeys drops the others",
			`{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}`,
			`{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}`,
			`{"strategy":{"type":"Recreate"}}`},
		{"$deleteFromPrimitiveList",
			`{"finalizers":["a","b","c"]}`,
			`{"$deleteFromPrimitiveList/finalizers":["b"]}`,
			`{"finalizers":["a","c"]}`},
		// kubectl apply's patch of metadata: what it adds merges into
		// the finalizers the server holds, what it drops leaves.
		{"metadata.finalizers added and deleted in one patch",
			`{"metadata":{"finalizers":["a","b","server"]}}`,
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"finalizers":["c"]}}`,
			`{"metadata":{"finalizers":["c","b","server"]}}`},
		{"setElementOrder places the server's other elements among the named ones",
			`{"conditions":[{"type":"A"},{"type":"B"},{"type":"C"}]}`,
			`{"$setElementOrder/conditions":[{"type":"C"},{"type":"A"}]}`,
			`{"conditions":[{"type":"B"},{"type":"C"},{"type":"A"}]}`},
		{"setElementOrder keeps a server-only element ahead of those after it",
			`{"conditions":[{"type":"A"},{"type":"X"},{"type":"B"}]}`,
			`{"$setElementOrder/conditions":[{"type":"A"},{"type":"B"}],"conditions":[{"type":"B","status":"True"}]}`,
			`{"conditions":[{"type":"A"},{"type":"X"},{"status":"True","type":"B"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d, p any
			if err := json.Unmarshal([]byte(tc.doc), &d); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.patch), &p); err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(MergePatch(d, p, "", true))
			if string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
		})
	}
}
