package runner

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/controllers/naive"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/store"
)

// TestEveryControlPlaneControllerHoldsALease runs every built-in
// controller of controllerSpecs at once and requires that each is either
// an application operator of controllers/naive (no component of the
// control plane) or holds its Lease in kube-system after 10 s: the
// scheduler kube-scheduler, each controller of kube-controller-manager
// kube-controller-manager-<name>. A controller added to controllerSpecs
// that elects no leader fails it. Planted: leaseName without the
// service-account case (only the scheduler elected) failed it for all 14
// controllers of kube-controller-manager, and a leaseName that skipped
// "statefulset" failed it for that one.
func TestEveryControlPlaneControllerHoldsALease(t *testing.T) {
	names := slices.Sorted(maps.Keys(controllerSpecs))
	var doc strings.Builder
	doc.WriteString("apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: leases}\nspec:\n  duration: 10s\n  controllers:\n")
	for _, n := range names {
		doc.WriteString("    " + n + ": {}\n")
	}
	s, err := scenarios.Load("leases.yaml", ".", nil, []byte(doc.String()))
	if err != nil {
		t.Fatal(err)
	}
	var c *cluster.Cluster
	if _, err := Run(s, Options{OnStart: func(cl *cluster.Cluster) { c = cl }}); err != nil {
		t.Fatal(err)
	}
	objs, _, err := c.Store.List(api.KindLease, store.ListOptions{Namespace: controller.LeaseNamespace})
	if err != nil {
		t.Fatal(err)
	}
	held := map[string]string{}
	for _, o := range objs {
		l := o.(*api.Lease)
		if h := l.Spec.HolderIdentity; h != nil && *h != "" {
			held[l.Name] = *h
		}
	}
	for _, n := range names {
		spec := controllerSpecs[n]
		want := "kube-controller-manager-" + n
		if n == "scheduler" {
			want = "kube-scheduler"
		}
		switch _, ok := held[want]; {
		case spec.actor == naive.Actor:
			if ok {
				t.Errorf("%s, an application operator, holds lease %s", n, want)
			}
		case !ok:
			t.Errorf("%s (%s) holds no lease kube-system/%s after 10s; leases held: %v", n, spec.actor, want, held)
		}
	}
}

// TestControllerManagerMembership: the two rules that say which built-in
// controllers are kube-controller-manager's agree. The runner's lease
// rule (leaseName: a kube-system service account) and the scenario
// format's (scenarios.InControllerManager: the members of the one
// process, the loader's refusals, the default pacing) are kept apart,
// so a controller added to one must be added to the other. Planted: a
// lease rule that took the scheduler for one of them fails it.
func TestControllerManagerMembership(t *testing.T) {
	for _, name := range slices.Sorted(maps.Keys(controllerSpecs)) {
		lease, elects := leaseName(name, controllerSpecs[name].actor)
		byLease := elects && strings.HasPrefix(lease, scenarios.ControllerManagerProcess+"-")
		if got := scenarios.InControllerManager(name); got != byLease {
			t.Errorf("%s: InControllerManager %v, but its lease is %q (elects %v)", name, got, lease, elects)
		}
	}
}
