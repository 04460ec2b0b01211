package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestClusterScopedNamespaceCleared: a cluster-scoped object sent with a
// namespace (one that does not even exist) is created and updated with
// its namespace cleared, as rest.BeforeCreate and BeforeUpdate do
// (EnsureObjectNamespaceMatchesRequestNamespace), not refused: a
// ClusterRole and a PriorityClass here, a cluster-scoped custom resource
// in testdata/hostile/crd-cluster-scoped-namespace.
func TestClusterScopedNamespaceCleared(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct {
		name string
		obj  api.Object
	}{
		{"clusterrole", &api.ClusterRole{TypeMeta: api.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole"}, ObjectMeta: api.ObjectMeta{Name: "r", Namespace: "nowhere"}}},
		{"priorityclass", &api.PriorityClass{TypeMeta: api.TypeMeta{APIVersion: "scheduling.k8s.io/v1", Kind: "PriorityClass"}, ObjectMeta: api.ObjectMeta{Name: "high", Namespace: "nowhere"}, Value: 1000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind := api.KindOf(tc.obj)
			for _, verb := range []Verb{Create, Update} {
				f.must(t, &Request{Verb: verb, Kind: kind, Actor: controller, Object: tc.obj.DeepCopyObject()})
				got, err := f.srv.Store().Get(kind, api.Key{Name: tc.obj.GetObjectMeta().Name})
				if err != nil {
					t.Fatalf("%v: %v", verb, err)
				}
				if ns := got.GetObjectMeta().Namespace; ns != "" {
					t.Errorf("%v: stored with namespace %q, want none", verb, ns)
				}
			}
		})
	}
}
