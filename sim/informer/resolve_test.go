package informer

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// fakeGetter is a cache of objects by key.
type fakeGetter map[api.Key]api.Object

func (f fakeGetter) Get(k api.Key) (api.Object, bool) { o, ok := f[k]; return o, ok }

func TestResolveControllerRef(t *testing.T) {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Namespace: "ns", Name: "web", UID: "u1"}}
	cache := fakeGetter{{Namespace: "ns", Name: "web"}: d}
	tests := []struct {
		name string
		ns   string
		ref  *api.OwnerReference
		want bool
	}{
		{"match", "ns", &api.OwnerReference{Kind: "Deployment", Name: "web", UID: "u1"}, true},
		{"nil ref", "ns", nil, false},
		{"other kind", "ns", &api.OwnerReference{Kind: "ReplicaSet", Name: "web", UID: "u1"}, false},
		{"recreated under the same name", "ns", &api.OwnerReference{Kind: "Deployment", Name: "web", UID: "u0"}, false},
		{"other namespace", "other", &api.OwnerReference{Kind: "Deployment", Name: "web", UID: "u1"}, false},
		{"absent", "ns", &api.OwnerReference{Kind: "Deployment", Name: "api", UID: "u1"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ResolveControllerRef[*api.Deployment](cache, api.KindDeployment, tc.ns, tc.ref)
			if ok != tc.want || (ok && got != d) || (!ok && got != nil) {
				t.Errorf("got %v, %v; want found %v", got, ok, tc.want)
			}
		})
	}
}
