package crt_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/clustersim/clustersim/crt"
)

// seenUnstructured records what the crt-unstructured operator's map
// function and reconciler saw.
var seenUnstructured []string

// unstructuredOf returns an empty unstructured object of a core kind.
func unstructuredOf(kind string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(kind))
	return u
}

func init() {
	// An empty scheme: the operator has a Go type for nothing it reads.
	crt.MustRegister(crt.Operator{Name: "crt-unstructured", Scheme: runtime.NewScheme(), Setup: func(mgr *crt.Manager) error {
		err := mgr.GetFieldIndexer().IndexField(context.Background(), unstructuredOf("Secret"), "settings", func(o client.Object) []string {
			return []string{o.GetAnnotations()["settings"]}
		})
		if err != nil {
			return err
		}
		c := mgr.GetClient()
		return crt.NewControllerManagedBy(mgr).
			For(unstructuredOf("Secret")).
			Watches(unstructuredOf("ConfigMap"), handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
				seenUnstructured = append(seenUnstructured, fmt.Sprintf("map %T %s", o, o.GetName()))
				l := &unstructured.UnstructuredList{}
				l.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("SecretList"))
				if err := c.List(ctx, l, client.MatchingFields{"settings": o.GetName()}); err != nil {
					seenUnstructured = append(seenUnstructured, "list error: "+err.Error())
				}
				var reqs []reconcile.Request
				for _, s := range l.Items {
					reqs = append(reqs, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: s.GetNamespace(), Name: s.GetName()}})
				}
				return reqs
			})).
			Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
				s := unstructuredOf("Secret")
				if err := c.Get(ctx, req.NamespacedName, s); err != nil {
					return reconcile.Result{}, err
				}
				seenUnstructured = append(seenUnstructured, "reconcile "+s.GetName())
				return reconcile.Result{}, nil
			}))
	}})
}

// TestUnstructuredWatches: an operator that watches kinds its scheme has
// no Go type for, through unstructured objects (For, Watches, IndexField,
// List into an UnstructuredList), gets unstructured objects in its
// handlers, as controller-runtime's unstructured informers give them. The
// adapter converted every event into the scheme's type and panicked
// ("crt invariant cache-object-converts: no kind "Secret" is registered").
func TestUnstructuredWatches(t *testing.T) {
	seenUnstructured = nil
	runOnce(t, "testdata/unstructured.yaml")
	want := []string{
		"map *unstructured.Unstructured settings", // the first list
		"reconcile a",
		// The edit at 5s: EnqueueRequestsFromMapFunc maps the old and
		// the new object of an update.
		"map *unstructured.Unstructured settings",
		"map *unstructured.Unstructured settings",
		"reconcile a",
	}
	if !slices.Equal(seenUnstructured, want) {
		t.Errorf("saw %q\nwant %q", seenUnstructured, want)
	}
}
