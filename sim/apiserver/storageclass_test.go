package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestDefaultStorageClass: a claim created without a class gets the
// default class's name at admission, as the DefaultStorageClass plugin
// sets it (so the quota charges <class>.storageclass.storage.k8s.io/...
// at once); an explicit "" stays classless. Before, the class was only
// assigned later by the persistent volume controller.
func TestDefaultStorageClass(t *testing.T) {
	str := func(s string) *string { return &s }
	class := func(name string, def bool) *api.StorageClass {
		c := &api.StorageClass{ObjectMeta: api.ObjectMeta{Name: name}, Provisioner: "ebs.csi.aws.com"}
		if def {
			c.Annotations = map[string]string{api.AnnDefaultStorageClass: "true"}
		}
		return c
	}
	tests := []struct {
		name    string
		classes []*api.StorageClass
		claim   *string
		want    string // "" for none
	}{
		{"no class named: the default", []*api.StorageClass{class("standard", false), class("fast", true)}, nil, "fast"},
		{"a class named stays", []*api.StorageClass{class("fast", true)}, str("standard"), "standard"},
		{"an explicit empty class stays empty", []*api.StorageClass{class("fast", true)}, str(""), ""},
		{"no default class", []*api.StorageClass{class("standard", false)}, nil, ""},
		{"two defaults created together: the first by name", []*api.StorageClass{class("zeta", true), class("alpha", true)}, nil, "alpha"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			for _, c := range tc.classes {
				f.must(t, &Request{Verb: Create, Kind: api.KindStorageClass, Actor: user, Object: c})
			}
			c := &api.PersistentVolumeClaim{ObjectMeta: api.ObjectMeta{Name: "data", Namespace: "default"}, Spec: api.PersistentVolumeClaimSpec{
				StorageClassName: tc.claim, AccessModes: []string{api.ReadWriteOnce},
				Resources: api.VolumeResourceRequirements{Requests: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("1Gi")}}}}
			got := f.must(t, &Request{Verb: Create, Kind: api.KindPersistentVolumeClaim, Actor: user, Object: c}).(*api.PersistentVolumeClaim)
			g := ""
			if got.Spec.StorageClassName != nil {
				g = *got.Spec.StorageClassName
			}
			if g != tc.want {
				t.Errorf("storageClassName = %q, want %q", g, tc.want)
			}
		})
	}
}
