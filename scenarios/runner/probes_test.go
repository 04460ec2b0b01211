package runner_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// readinessRollout rolls 3 replicas of an nginx whose application
// answers its readiness probe (every 5s) readyAfter its start.
const readinessRollout = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: readiness-rollout}
spec:
  duration: 5m
  cluster:
    nodeGroups: [{name: node, count: 3, capacity: {cpu: "4", memory: 8Gi}}]
  registry:
    images: [{name: nginx, tags: ["1.26", "1.27"], readyAfter: %s}]
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 3
      selector: {matchLabels: {app: web}}
      strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers:
          - name: nginx
            image: nginx:1.26
            readinessProbe: {httpGet: {path: /healthz, port: 80}, periodSeconds: 5}
  timeline:
  - {at: 1m, setImage: {deployment: web, container: nginx, image: nginx:1.27}}
  expect:
  - rolloutComplete: {deployment: web, after: 61s, within: 5m}
`

// TestReadinessPacesRollingUpdate: with maxSurge 1 and maxUnavailable 0
// the Deployment controller creates the next new pod only once the one
// before is ready, so a readiness probe that succeeds 20s after the
// container starts (probes every 5s from the start: the one at 20s
// succeeds) makes each new pod ready 20s after its start and spaces the
// new pods by at least that: the rollout takes three times 20s and
// more. Without the delay each new pod is ready at its first probe.
// Planted: readiness at the container's start whatever the probe said
// (the old model without readyAfter) failed the 20s row.
func TestReadinessPacesRollingUpdate(t *testing.T) {
	for _, tc := range []struct {
		readyAfter string
		delay      time.Duration
	}{{"0s", 0}, {"20s", 20 * time.Second}} {
		t.Run(tc.readyAfter, func(t *testing.T) {
			res := runDoc(t, "readiness.yaml", fmt.Sprintf(readinessRollout, tc.readyAfter), runner.Options{})
			if !res.Passed() {
				t.Fatalf("the rollout did not complete: %+v", res.Expectations)
			}
			created := map[string]time.Duration{}
			started := map[string]time.Duration{}
			ready := map[string]time.Duration{}
			var names []string
			for _, r := range res.Audit {
				at := r.Time.Duration()
				if r.Kind != api.KindPod || at < time.Minute || !strings.HasPrefix(r.Key.Name, "web-") {
					continue
				}
				if r.Actor == replicaset.Actor && r.Verb == "create" {
					created[r.Key.Name] = at
					names = append(names, r.Key.Name)
				}
				for c := range r.EachChange() {
					switch {
					case c.Path == "status.containerStatuses[nginx].state.running.startedAt" && started[r.Key.Name] == 0:
						started[r.Key.Name] = at
					case c.Path == "status.containerStatuses[nginx].ready" && c.New == "true" && ready[r.Key.Name] == 0:
						ready[r.Key.Name] = at
					}
				}
			}
			if len(names) != 3 {
				t.Fatalf("%d new pods, want 3", len(names))
			}
			slices.SortFunc(names, func(a, b string) int { return int(created[a] - created[b]) })
			for i, n := range names {
				if got := ready[n] - started[n]; got != tc.delay {
					t.Errorf("%s ready %v after its start, want %v", n, got, tc.delay)
				}
				if i > 0 && created[n] < ready[names[i-1]] {
					t.Errorf("%s created at %v, before %s was ready (%v)", n, created[n], names[i-1], ready[names[i-1]])
				}
			}
			span := ready[names[2]] - time.Minute
			t.Logf("readyAfter %s: the last new pod ready %v after the rollout began", tc.readyAfter, span)
			if span < 3*tc.delay {
				t.Errorf("rollout took %v, less than three readiness delays", span)
			}
		})
	}
}
