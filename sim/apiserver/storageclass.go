package apiserver

import (
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/store"
)

// DefaultStorageClass is the DefaultStorageClass admission plugin (k/k
// plugin/pkg/admission/storage/storageclass/setdefault): a claim created
// without spec.storageClassName gets the default class's name (the class
// annotated storageclass.kubernetes.io/is-default-class: "true"; of
// several, the newest, then the first by name: GetDefaultClass in
// pkg/volume/util). An explicit "" keeps the claim classless; without a
// default class the claim is left alone (the persistent volume
// controller assigns one later, if one appears).
type DefaultStorageClass struct{}

// Name returns "DefaultStorageClass".
func (DefaultStorageClass) Name() string { return "DefaultStorageClass" }

// Admit sets a new claim's class.
func (DefaultStorageClass) Admit(a *Attributes) error {
	c, ok := a.Object.(*api.PersistentVolumeClaim)
	if !ok || a.Verb != Create || a.Subresource != "" || c.Spec.StorageClassName != nil {
		return nil
	}
	if name := defaultStorageClass(a.Store); name != "" {
		c.Spec.StorageClassName = &name
	}
	return nil
}

// defaultStorageClass is GetDefaultClass: the default class's name, or "".
func defaultStorageClass(st *store.Store) string {
	classes, _, err := st.List(api.KindStorageClass, store.ListOptions{})
	if err != nil {
		return ""
	}
	return api.DefaultStorageClass(classes)
}
