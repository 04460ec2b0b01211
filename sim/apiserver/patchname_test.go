package apiserver_test

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// TestPatchKeepsNameAndNamespace: a patch that would change the object's
// name or namespace is refused with upstream's messages (handlers/patch.go
// checkName); kubectl patch --type merge -p '{"metadata":{"name":"other"}}'
// was answered "patched (no change)".
func TestPatchKeepsNameAndNamespace(t *testing.T) {
	k := kernel.New(1)
	srv := apiserver.New(k, store.New(k))
	for _, o := range []api.Object{
		&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}},
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}, Data: map[string]string{"a": "b"}},
	} {
		if resp := srv.Handle(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindOf(o), Actor: "system:admin", Namespace: o.GetObjectMeta().Namespace, Object: o}); resp.Err != nil {
			t.Fatal(resp.Err)
		}
	}
	for _, tc := range []struct {
		name  string
		typ   apiserver.PatchType
		patch string
		want  string
	}{
		{"merge: name", apiserver.MergePatch, `{"metadata":{"name":"other"}}`, "the name of the object (other) does not match the name on the URL (c)"},
		{"strategic: namespace", apiserver.StrategicMergePatch, `{"metadata":{"namespace":"kube-system"}}`, "the namespace of the object (kube-system) does not match the namespace on the URL (default)"},
		{"json: name", apiserver.JSONPatch, `[{"op":"replace","path":"/metadata/name","value":"x"}]`, "the name of the object (x) does not match the name on the URL (c)"},
		{"merge: data", apiserver.MergePatch, `{"data":{"a":"c"}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := srv.Handle(&apiserver.Request{Verb: apiserver.Patch, Kind: api.KindConfigMap, Actor: "system:admin", Namespace: "default", Name: "c", PatchType: tc.typ, Patch: []byte(tc.patch)})
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
