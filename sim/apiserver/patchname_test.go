package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestPatchKeepsNameAndNamespace: a patch that would change the object's
// name or namespace is refused with upstream's messages (handlers/patch.go
// checkName); kubectl patch --type merge -p '{"metadata":{"name":"other"}}'
// was answered "patched (no change)".
func TestPatchKeepsNameAndNamespace(t *testing.T) {
	f := newFixture(t)
	f.must(t, &Request{Verb: Create, Kind: api.KindConfigMap, Actor: controller, Namespace: "default",
		Object: &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"a": "b"}}})
	for _, tc := range []struct {
		name  string
		typ   PatchType
		patch string
		want  string
	}{
		{"merge: name", MergePatch, `{"metadata":{"name":"other"}}`, "the name of the object (other) does not match the name on the URL (c)"},
		{"strategic: namespace", StrategicMergePatch, `{"metadata":{"namespace":"kube-system"}}`, "the namespace of the object (kube-system) does not match the namespace on the URL (default)"},
		{"json: name", JSONPatch, `[{"op":"replace","path":"/metadata/name","value":"x"}]`, "the name of the object (x) does not match the name on the URL (c)"},
		{"merge: data", MergePatch, `{"data":{"a":"c"}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.do(&Request{Verb: Patch, Kind: api.KindConfigMap, Actor: controller, Namespace: "default", Name: "c", PatchType: tc.typ, Patch: []byte(tc.patch)})
			got := ""
			if resp.Err != nil {
				got = resp.Err.Error()
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
