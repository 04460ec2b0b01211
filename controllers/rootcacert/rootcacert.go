// Package rootcacert is Kubernetes' root CA certificate publisher
// (kube-controller-manager's "root-ca-cert-publisher", k/k
// pkg/controller/certificates/rootcacertpublisher): it keeps a ConfigMap
// named kube-root-ca.crt in every active namespace holding the cluster's
// CA bundle, creating it where it is missing and restoring its data where
// someone changed it.
//
// It is a small, complete level-triggered controller: it reads desired
// state from its informers, compares with the live ConfigMap, and writes
// only the difference. Deleting the ConfigMap or editing it is undone on
// the next reconcile.
//
// Imports: api, apierr and the controller runtime only.
package rootcacert

import (
	"context"
	"errors"
	"maps"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// ConfigMapName is the name of the published ConfigMap in every namespace.
const ConfigMapName = "kube-root-ca.crt"

// DataKey is the ConfigMap key holding the CA bundle.
const DataKey = "ca.crt"

// DescriptionAnnotation and Description are the annotation Kubernetes puts
// on the published ConfigMap.
const (
	DescriptionAnnotation = "kubernetes.io/description"
	Description           = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters."
)

// Actor is the identity Kubernetes runs this controller as.
const Actor = "system:serviceaccount:kube-system:root-ca-cert-publisher"

// Reconciler publishes the CA bundle into one namespace per request.
type Reconciler struct {
	Client     client.Client
	Namespaces informer.Lister
	ConfigMaps informer.Lister
	// RootCA is the bundle to publish.
	RootCA string
}

// Setup registers the controller with a manager: informers on Namespaces
// and ConfigMaps, a request per namespace (a ConfigMap event counts only
// for ConfigMaps named kube-root-ca.crt).
func Setup(m *controller.Manager, rootCA string, opts controller.Options) error {
	nsInf, err := m.Informer(api.KindNamespace, informer.Options{})
	if err != nil {
		return err
	}
	cmInf, err := m.Informer(api.KindConfigMap, informer.Options{})
	if err != nil {
		return err
	}
	r := &Reconciler{Client: m.Client(), Namespaces: nsInf.Lister(), ConfigMaps: cmInf.Lister(), RootCA: rootCA}
	c, err := m.NewController("root-ca-cert-publisher", opts, r)
	if err != nil {
		return err
	}
	c.Watch(nsInf, func(obj api.Object) []controller.Request {
		return []controller.Request{{Key: api.Key{Name: obj.GetObjectMeta().Name}}}
	})
	c.Watch(cmInf, func(obj api.Object) []controller.Request {
		if m := obj.GetObjectMeta(); m.Name == ConfigMapName {
			return []controller.Request{{Key: api.Key{Name: m.Namespace}}}
		}
		return nil
	})
	return nil
}

// Reconcile makes the namespace req.Name hold the published ConfigMap.
func (r *Reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	ns, ok := r.Namespaces.Get(api.Key{Name: req.Name})
	if !ok || ns.GetObjectMeta().DeletionTimestamp != nil {
		return controller.Result{}, nil // gone or terminating: nothing to publish
	}
	want := map[string]string{DataKey: r.RootCA}
	key := api.Key{Namespace: req.Name, Name: ConfigMapName}
	cur, ok := r.ConfigMaps.Get(key)
	if !ok {
		cm := &api.ConfigMap{
			TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: api.ObjectMeta{Name: ConfigMapName, Namespace: req.Name,
				Annotations: map[string]string{DescriptionAnnotation: Description}},
			Data: want,
		}
		_, err := r.Client.Create(ctx, cm)
		if errors.Is(err, apierr.ErrNotFound) || errors.Is(err, apierr.ErrForbidden) {
			// The namespace is gone or terminating: nothing to retry, as
			// upstream decides. An AlreadyExists means the cache is behind:
			// it is returned, so the request is retried with back-off
			// until the cache has caught up.
			return controller.Result{}, nil
		}
		return controller.Result{}, err
	}
	cm := cur.(*api.ConfigMap)
	if maps.Equal(cm.Data, want) && len(cm.BinaryData) == 0 && cm.Annotations[DescriptionAnnotation] == Description {
		return controller.Result{}, nil
	}
	upd := cm.DeepCopyObject().(*api.ConfigMap)
	upd.Data = want
	upd.BinaryData = nil
	if upd.Annotations == nil {
		upd.Annotations = map[string]string{}
	}
	upd.Annotations[DescriptionAnnotation] = Description
	_, err := r.Client.Update(ctx, upd)
	return controller.Result{}, err
}
