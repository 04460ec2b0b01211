package crt_test

import (
	"context"
	"strings"
	"testing"

	appsv1beta1 "k8s.io/api/apps/v1beta1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/clustersim/clustersim/crt"
	"github.com/clustersim/clustersim/harness"
)

func init() {
	crt.MustRegister(crt.Operator{Name: "crt-oldversion", Scheme: builtinScheme(), Setup: func(mgr *crt.Manager) error {
		return crt.NewControllerManagedBy(mgr).For(&appsv1beta1.Deployment{}).Complete(reconcile.Func(func(context.Context, reconcile.Request) (reconcile.Result, error) {
			return reconcile.Result{}, nil
		}))
	}})
}

// TestUnservedVersion: a kind the API serves, asked for at a version it
// does not serve (an operator's Go type and the definition disagree, or a
// version Kubernetes removed), is refused as controller-runtime's REST
// mapper refuses it, by reads and by watches; the adapter read and
// watched the kind at whatever version it was given.
func TestUnservedVersion(t *testing.T) {
	const want = `no matches for kind "Deployment" in version "apps/v1beta1"`
	runScript(t, func(ctx context.Context, c client.Client) []string {
		var out []string
		if err := c.Get(ctx, types.NamespacedName{Namespace: "default", Name: "x"}, &appsv1beta1.Deployment{}); err == nil || err.Error() != want {
			out = append(out, "Get: "+errString(err)+"; want "+want)
		}
		if err := c.List(ctx, &appsv1beta1.DeploymentList{}); err == nil || err.Error() != want {
			out = append(out, "List: "+errString(err)+"; want "+want)
		}
		return out
	})
	s, err := harness.Load("testdata/oldversion.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = harness.Run(s, 1, harness.Config{Profiles: []string{}})
	if err == nil || !strings.HasSuffix(err.Error(), "setup: "+want) {
		t.Errorf("run: %v; want the setup to fail with %q", err, want)
	}
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}
