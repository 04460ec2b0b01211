package runner_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/endpoints"
	"github.com/clustersim/clustersim/controllers/endpointslice"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// batchedService is a Service of 40 pods whose Deployment starts them
// at once, then replaces them all with a new image at 1m.
const batchedService = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: batched}
spec:
  duration: 4m
  cluster:
    nodeGroups: [{name: node, count: 4, capacity: {cpu: "8", memory: 32Gi}}]
  network:
    default: {latency: 1ms, jitter: 4ms}
CONTROLLERS  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 40
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx:1.14.2, ports: [{containerPort: 80}]}]}
  - apiVersion: v1
    kind: Service
    metadata: {name: web}
    spec:
      selector: {app: web}
      ports: [{port: 80}]
  timeline:
  - {at: 1m, setImage: {deployment: web, container: web, image: nginx:1.16.1}}
  expect:
  - rolloutComplete: {deployment: web, after: 1m, within: 2m}
  - converged: {after: 1m, within: 2m30s}
`

// TestUpdatesBatchPeriod: with kube-controller-manager's
// --endpoint-updates-batch-period and --endpointslice-updates-batch-period
// (spec.controllers' updatesBatchPeriod) a Service's syncs after pod
// changes come at least the period apart, the pod changes in between
// batched into them: far fewer syncs than one a pod change, the same
// end (every expectation holds, the Service's gap closes). Without it
// each pod change is its own sync.
func TestUpdatesBatchPeriod(t *testing.T) {
	const period = 2 * time.Second
	svc := api.Key{Namespace: "default", Name: "web"}
	syncs := map[string]map[string][]time.Duration{}
	for _, tc := range []struct{ name, controllers string }{
		{"unbatched", ""},
		{"batched", "  controllers:\n    endpoints: {updatesBatchPeriod: 2s}\n    endpointslice: {updatesBatchPeriod: 2s}\n"},
	} {
		res := runDoc(t, "batched.yaml", strings.Replace(batchedService, "CONTROLLERS", tc.controllers, 1), runner.Options{})
		for _, o := range res.Expectations {
			if !o.Passed {
				t.Errorf("%s: %+v failed", tc.name, o)
			}
		}
		syncs[tc.name] = map[string][]time.Duration{}
		for _, r := range res.Reconciles {
			if r.Key == svc && (r.Controller == endpoints.Name || r.Controller == endpointslice.Name) {
				syncs[tc.name][r.Controller] = append(syncs[tc.name][r.Controller], r.Start)
			}
		}
	}
	for _, c := range []string{endpoints.Name, endpointslice.Name} {
		un, b := syncs["unbatched"][c], syncs["batched"][c]
		t.Logf("%s: %d syncs unbatched, %d batched", c, len(un), len(b))
		if len(b) == 0 || 3*len(b) > len(un) {
			t.Errorf("%s: %d syncs batched against %d unbatched: the batch period did not batch", c, len(b), len(un))
		}
		// The rollout's pod changes span more than a period: at least
		// two syncs follow the Service's own, so that the spacing below
		// is checked at all.
		if len(b) < 3 {
			t.Errorf("%s: %d syncs batched: fewer than the rollout's pod changes over more than one period need", c, len(b))
		}
		// The first sync is the Service's own (queued at once); every
		// later one follows pod changes.
		for i := 2; i < len(b); i++ {
			if gap := b[i] - b[i-1]; gap < period {
				t.Errorf("%s: syncs at %v and %v, %v apart: less than the batch period %v", c, b[i-1], b[i], gap, period)
			}
		}
	}
}
