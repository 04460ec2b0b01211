package crt_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/clustersim/clustersim/crt"
)

// reconciled records the crt-mapfunc operator's reconciles, "<name>".
var reconciled []string

type recordReconciler struct{}

func (recordReconciler) Reconcile(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
	reconciled = append(reconciled, req.Name)
	return reconcile.Result{}, nil
}

// secretsOf maps an object to the Secrets whose "settings" index names
// it, read from the cache as a controller-runtime map function does.
func secretsOf(c client.Client) handler.MapFunc {
	return func(ctx context.Context, o client.Object) []reconcile.Request {
		var l corev1.SecretList
		if err := c.List(ctx, &l, client.InNamespace(o.GetNamespace()), client.MatchingFields{"settings": o.GetName()}); err != nil {
			reconciled = append(reconciled, "list error: "+err.Error())
			return nil
		}
		var reqs []reconcile.Request
		for _, s := range l.Items {
			reqs = append(reqs, reconcile.Request{NamespacedName: types.NamespacedName{Namespace: s.Namespace, Name: s.Name}})
		}
		return reqs
	}
}

func init() {
	crt.MustRegister(crt.Operator{Name: "crt-mapfunc", Scheme: builtinScheme(), Setup: func(mgr *crt.Manager) error {
		err := mgr.GetFieldIndexer().IndexField(context.Background(), &corev1.Secret{}, "settings", func(o client.Object) []string {
			if v := o.GetAnnotations()["settings"]; v != "" {
				return []string{v}
			}
			return nil
		})
		if err != nil {
			return err
		}
		c := mgr.GetClient()
		return crt.NewControllerManagedBy(mgr).
			For(&corev1.Secret{}).
			// The first list of ConfigMaps may come before the Secrets'.
			Watches(&corev1.ConfigMap{}, handler.EnqueueRequestsFromMapFunc(secretsOf(c))).
			// A map function of Secrets reading Secrets, during their
			// own first list.
			Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, o client.Object) []reconcile.Request {
				var l corev1.SecretList
				if err := c.List(ctx, &l, client.InNamespace(o.GetNamespace())); err != nil {
					reconciled = append(reconciled, "list error: "+err.Error())
				}
				return nil
			})).
			Complete(recordReconciler{})
	}})
}

// TestMapFuncReadsCache: a map function that lists from the cache (here
// through a field index of the For kind, the usual way to find the
// objects that reference a watched one) runs from informer event
// handlers: during an informer's first list, possibly before the listed
// kind's cache has synced, and during its own first list. controller-
// runtime's cache waits for that one informer to sync; the adapter did
// the same by waiting for every informer of the manager, the handler's
// own included, so the operator never reconciled anything. Every Secret
// is reconciled, and a and b again when their ConfigMap changes.
func TestMapFuncReadsCache(t *testing.T) {
	reconciled = nil
	runOnce(t, "testdata/mapfunc.yaml")
	count := map[string]int{}
	for _, r := range reconciled {
		if strings.HasPrefix(r, "list error") {
			t.Error(r)
		}
		count[r]++
	}
	for _, w := range []struct {
		name string
		want int
	}{{"a", 2}, {"b", 2}, {"c", 1}} {
		if name, want := w.name, w.want; count[name] < want {
			t.Errorf("secret %s reconciled %d times, want at least %d (reconciles: %v)", name, count[name], want, reconciled)
		}
	}
	if slices.Contains(reconciled, "settings") {
		t.Errorf("the ConfigMap itself was reconciled: %v", reconciled)
	}
}
