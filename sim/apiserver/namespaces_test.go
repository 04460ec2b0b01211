package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestImmortalNamespaces: NamespaceLifecycle refuses deleting default,
// kube-system and kube-public with upstream's Forbidden message; other
// namespaces are deleted.
func TestImmortalNamespaces(t *testing.T) {
	for _, tc := range []struct {
		name, want string
	}{
		{"default", `namespaces "default" is forbidden: this namespace may not be deleted`},
		{"kube-system", `namespaces "kube-system" is forbidden: this namespace may not be deleted`},
		{"kube-public", `namespaces "kube-public" is forbidden: this namespace may not be deleted`},
		{"kube-node-lease", ""},
		{"team", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			if tc.name != "default" {
				f.must(t, &Request{Verb: Create, Kind: api.KindNamespace, Actor: controller, Object: &api.Namespace{ObjectMeta: api.ObjectMeta{Name: tc.name}}})
			}
			resp := f.do(&Request{Verb: Delete, Kind: api.KindNamespace, Name: tc.name, Actor: user})
			got := ""
			if resp.Err != nil {
				got = resp.Err.Error()
			}
			if got != tc.want {
				t.Fatalf("delete namespace %s: %q, want %q", tc.name, got, tc.want)
			}
			if _, err := f.srv.Store().Get(api.KindNamespace, api.Key{Name: tc.name}); (err == nil) != (tc.want != "") {
				t.Errorf("namespace %s still there: %v, want %v", tc.name, err == nil, tc.want != "")
			}
		})
	}
}
