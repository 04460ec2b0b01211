package runner_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// recreate is a Recreate rollout of three pods at 1m: the Deployment
// controller scales the old ReplicaSet to zero and creates the new pods
// only once no old pod runs.
const recreate = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: recreate}
spec:
  duration: 3m
  cluster:
    nodeGroups: [{name: node, count: 2, capacity: {cpu: "4", memory: 8Gi}}]
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 3
      strategy: {type: Recreate}
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: %s}]}
  timeline:
  - {at: 1m, setImage: {deployment: web, container: web, image: %s}}
  expect:
  - pods: {selector: app=web, phase: Running, ready: true, equals: 3, at: 3m}
`

// TestRecreateWaitsForTermination: a Recreate rollout waits for the old
// pods to stop, and that takes as long as their image takes to exit on
// SIGTERM: nginx exits at once (100ms), so the new pods are created about
// a second after the rollout starts; busybox (sleep as PID 1) ignores
// SIGTERM and is killed when its 30s grace period ends. Planted: every
// image ignoring SIGTERM (today's behaviour before images reacted) made
// the nginx row wait 30s and fail.
func TestRecreateWaitsForTermination(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		min, max time.Duration
	}{
		{"nginx:1.14.2", "nginx:1.16.1", 100 * time.Millisecond, 2 * time.Second},
		{"busybox:1.36", "busybox:1.37", 30 * time.Second, 32 * time.Second},
	} {
		t.Run(tc.from, func(t *testing.T) {
			s, err := scenarios.Load("recreate.yaml", ".", nil, fmt.Appendf(nil, recreate, tc.from, tc.to))
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(s, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Passed() {
				t.Fatalf("the rollout did not finish: %+v", res.Expectations)
			}
			var firstNew time.Duration
			for _, r := range res.Audit {
				if at := r.Time.Duration(); r.Actor == replicaset.Actor && r.Kind == api.KindPod && r.Verb == "create" && at > time.Minute {
					firstNew = at
					break
				}
			}
			wait := firstNew - time.Minute
			t.Logf("%s -> %s: first new pod %v after the rollout began", tc.from, tc.to, wait)
			if wait < tc.min || wait > tc.max {
				t.Errorf("first new pod created %v after the rollout began, want between %v and %v", wait, tc.min, tc.max)
			}
		})
	}
}
