package strategicpatch

import (
	"encoding/json"
	"testing"
)

// TestApplyBuiltinLists: the lists of the kinds clustersim serves merge
// as their patchStrategy and patchMergeKey tags in k8s.io/api say, and
// the directives act on them as upstream's StrategicMergeMapPatch does.
// (These rows checked the API server's own merge, api.MergePatch, before
// the server applied strategic patches with Apply.)
func TestApplyBuiltinLists(t *testing.T) {
	for _, tc := range []struct {
		name, doc, patch, want string
	}{
		{"containers merge by name", `{"containers":[{"name":"a","image":"x"},{"name":"b","image":"y"}]}`, `{"containers":[{"name":"b","image":"z"}]}`,
			`{"containers":[{"image":"x","name":"a"},{"image":"z","name":"b"}]}`},
		// Upstream's mergeSlice orders the result (normalizeElementOrder):
		// the patch's elements first in its order, each old one before
		// the first patch element that stood after it, so a new
		// element, which stood nowhere, comes before the old ones.
		{"a new container comes first", `{"containers":[{"name":"a"}]}`, `{"containers":[{"name":"c"}]}`, `{"containers":[{"name":"c"},{"name":"a"}]}`},
		{"the patch's containers keep the patch's order", `{"containers":[{"name":"a"},{"name":"b"},{"name":"c"}]}`, `{"containers":[{"name":"c"},{"name":"a"}]}`,
			`{"containers":[{"name":"b"},{"name":"c"},{"name":"a"}]}`},
		{"a Service's ports merge by port", `{"spec":{"ports":[{"port":80,"targetPort":8080},{"port":81,"targetPort":8081}]}}`, `{"spec":{"ports":[{"port":81,"targetPort":9091}]}}`,
			`{"spec":{"ports":[{"port":80,"targetPort":8080},{"port":81,"targetPort":9091}]}}`},
		{"container ports merge by containerPort", `{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"http"}]}]}`, `{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"web"}]}]}`,
			`{"containers":[{"name":"a","ports":[{"containerPort":80,"name":"web"}]}]}`},
		{"lists without a strategy are replaced", `{"args":["a","b"]}`, `{"args":["c"]}`, `{"args":["c"]}`},
		// ObjectMeta.Finalizers is patchStrategy merge: a set.
		{"metadata.finalizers merge as a set", `{"metadata":{"finalizers":["a","b"]}}`, `{"metadata":{"finalizers":["c","a"]}}`,
			`{"metadata":{"finalizers":["c","a","b"]}}`},
		{"a finalizer held twice is merged once", `{"metadata":{"finalizers":["a","a","b"]}}`, `{"metadata":{"finalizers":["b","c"]}}`,
			`{"metadata":{"finalizers":["a","b","c"]}}`},
		// NamespaceSpec.Finalizers has no patch strategy: replaced.
		{"spec.finalizers is replaced", `{"spec":{"finalizers":["kubernetes"]}}`, `{"spec":{"finalizers":["x"]}}`, `{"spec":{"finalizers":["x"]}}`},
		{"volumeDevices merge by devicePath", `{"volumeDevices":[{"devicePath":"/a","name":"x"},{"devicePath":"/b","name":"y"}]}`, `{"volumeDevices":[{"devicePath":"/b","name":"z"}]}`,
			`{"volumeDevices":[{"devicePath":"/a","name":"x"},{"devicePath":"/b","name":"z"}]}`},
		{"schedulingGates merge by name", `{"schedulingGates":[{"name":"a"}]}`, `{"schedulingGates":[{"name":"b"}]}`, `{"schedulingGates":[{"name":"b"},{"name":"a"}]}`},
		{"$setElementOrder keeps the listed order",
			`{"containers":[{"name":"a","image":"1"},{"name":"b","image":"1"}]}`,
			`{"$setElementOrder/containers":[{"name":"b"},{"name":"a"}],"containers":[{"name":"a","image":"2"}]}`,
			`{"containers":[{"image":"1","name":"b"},{"image":"2","name":"a"}]}`},
		// Upstream orders by the patch without its deletions: an element
		// deleted and added again goes where it is added.
		{"an element deleted and added again takes its added place",
			`{"containers":[{"name":"a","image":"1"},{"name":"b"}]}`,
			`{"containers":[{"name":"a","$patch":"delete"},{"name":"c"},{"name":"a","image":"2"}]}`,
			`{"containers":[{"name":"c"},{"image":"2","name":"a"},{"name":"b"}]}`},
		{"$patch delete removes a list element", `{"containers":[{"name":"a"},{"name":"b"}]}`, `{"containers":[{"name":"a","$patch":"delete"}]}`,
			`{"containers":[{"name":"b"}]}`},
		{"$patch replace replaces a map", `{"spec":{"a":1,"b":2}}`, `{"spec":{"$patch":"replace","c":3}}`, `{"spec":{"c":3}}`},
		{"$retainKeys drops the others",
			`{"spec":{"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}}}}`,
			`{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}`,
			`{"spec":{"strategy":{"type":"Recreate"}}}`},
		{"$deleteFromPrimitiveList", `{"metadata":{"finalizers":["a","b","c"]}}`, `{"metadata":{"$deleteFromPrimitiveList/finalizers":["b"]}}`,
			`{"metadata":{"finalizers":["a","c"]}}`},
		// kubectl apply's patch of metadata: what it adds merges into
		// the finalizers the server holds, what it drops leaves.
		{"metadata.finalizers added and deleted in one patch",
			`{"metadata":{"finalizers":["a","b","server"]}}`,
			`{"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"finalizers":["c"]}}`,
			`{"metadata":{"finalizers":["c","b","server"]}}`},
		{"$setElementOrder places the server's other elements among the named ones",
			`{"conditions":[{"type":"A"},{"type":"B"},{"type":"C"}]}`,
			`{"$setElementOrder/conditions":[{"type":"C"},{"type":"A"}]}`,
			`{"conditions":[{"type":"B"},{"type":"C"},{"type":"A"}]}`},
		{"$setElementOrder keeps a server-only element ahead of those after it",
			`{"conditions":[{"type":"A"},{"type":"X"},{"type":"B"}]}`,
			`{"$setElementOrder/conditions":[{"type":"A"},{"type":"B"}],"conditions":[{"type":"B","status":"True"}]}`,
			`{"conditions":[{"type":"A"},{"type":"X"},{"status":"True","type":"B"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d, p map[string]any
			if err := json.Unmarshal([]byte(tc.doc), &d); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.patch), &p); err != nil {
				t.Fatal(err)
			}
			before, _ := json.Marshal(d)
			got, err := Apply(d, p)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := json.Marshal(got); string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
			if after, _ := json.Marshal(d); string(after) != string(before) {
				t.Errorf("Apply changed its document: %s -> %s", before, after)
			}
		})
	}
}
