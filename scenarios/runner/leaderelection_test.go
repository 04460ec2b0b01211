package runner_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// oneWayOutage sets a new image at 1m while the Deployment controller's
// requests to the API server are lost (its watches still arrive), until
// the heal.
const oneWayOutage = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: one-way}
spec:
  duration: %s
  cluster:
    nodeGroups: [{name: node, count: 3, capacity: {cpu: "4", memory: 8Gi}}]
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 3
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx:1.14.2}]}
  timeline:
  - {at: 1m, setImage: {deployment: web, container: web, image: nginx:1.16.1}}
  - {at: 1m, partition: {name: cut, a: [controller/deployment], b: [apiserver], oneWay: true}}
  - {at: %s, heal: cut}
  expect:
  - rolloutComplete: {deployment: web, after: %s, within: %s}
`

// TestOneWayOutageRecoversThroughLeaseLoss: during a one-way outage of
// 10 or 20 minutes from the Deployment controller to the API server the
// controller's work queue gives up on the Deployment (15 failures), so
// nothing of that incarnation would ever finish the rollout; but its
// lease renewals fail too, so 10s (renewDeadline) after the outage began
// it loses its lease and restarts, and after the heal the new
// incarnation acquires the lease once the old one expired (15s after it
// read it) and finishes the rollout from fresh caches. Planted: without
// leader election the rollout stayed stuck after both heals and the
// test failed.
func TestOneWayOutageRecoversThroughLeaseLoss(t *testing.T) {
	for _, outage := range []time.Duration{10 * time.Minute, 20 * time.Minute} {
		t.Run(outage.String(), func(t *testing.T) {
			heal := time.Minute + outage
			d := func(x time.Duration) string { return x.String() }
			src := fmt.Sprintf(oneWayOutage, d(heal+4*time.Minute), d(heal), d(heal), d(heal+2*time.Minute))
			res := runDoc(t, "one-way.yaml", src, runner.Options{})
			if !res.Passed() {
				t.Errorf("the rollout did not complete after the heal: %+v", res.Expectations)
			}
			var lost, acquired []time.Duration
			for _, e := range res.Entries {
				switch {
				case e.System && strings.Contains(e.Command, "deployment (control-plane_1) could not renew lease kube-system/kube-controller-manager-deployment"):
					lost = append(lost, e.At)
				case e.System && strings.Contains(e.Command, "deployment acquired lease kube-system/kube-controller-manager-deployment as control-plane_2"):
					acquired = append(acquired, e.At)
				}
			}
			if len(lost) != 1 || lost[0] < time.Minute || lost[0] > time.Minute+12*time.Second {
				t.Errorf("lease lost at %v, want once within renewDeadline (10s) and a retry of the outage's start", lost)
			}
			if len(acquired) != 1 || acquired[0] < heal+15*time.Second || acquired[0] > heal+40*time.Second {
				t.Errorf("lease acquired again at %v, want once, 15s to 40s after the heal at %v", acquired, heal)
			}
			// No write of the Deployment controller lands during the
			// outage, and the new incarnation writes after it took the
			// lease.
			var first time.Duration
			for _, r := range res.Audit {
				at := r.Time.Duration()
				if r.Actor != deployment.Actor || at < time.Minute {
					continue
				}
				if at < heal {
					t.Errorf("a Deployment controller write at %v, during the outage: %s %s", at, r.Verb, r.Key)
				}
				if first == 0 && r.Kind == api.KindReplicaSet {
					first = at
				}
			}
			if len(acquired) == 1 && first < acquired[0] {
				t.Errorf("first ReplicaSet write after the heal at %v, before the lease was acquired (%v)", first, acquired)
			}
		})
	}
}
