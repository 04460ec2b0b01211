package runner_test

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// minReady is a Deployment of two pods with minReadySeconds 10.
const minReady = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: min-ready}
spec:
  duration: 1m
  cluster:
    nodeGroups:
    - {name: worker, count: 2, capacity: {cpu: "4", memory: 8Gi}}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 2
      minReadySeconds: 10
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers: [{name: nginx, image: "nginx:1.14.2"}]
`

// TestAvailableAfterMinReadySeconds runs a Deployment with
// minReadySeconds 10 and checks when its ReplicaSet counts each pod
// available: at the pod's Ready lastTransitionTime (its Ready write, to
// the second) + 10s, the status written then (within the write's network
// round trip), and never before.
func TestAvailableAfterMinReadySeconds(t *testing.T) {
	res := runDoc(t, "min-ready.yaml", minReady, runner.Options{})
	var readyAt []time.Time // each pod's lastTransitionTime, in write order
	var availableAt []kernel.Time
	for _, a := range res.Audit {
		switch {
		case a.Kind == api.KindPod:
			for c := range a.EachChange() {
				if c.Path == "status.conditions[Ready].status" && c.New == "True" {
					readyAt = append(readyAt, a.Time.Wall().Truncate(time.Second))
				}
			}
		case a.Kind == api.KindReplicaSet && a.Actor == replicaset.Actor:
			for c := range a.EachChange() {
				if c.Path == "status.availableReplicas" && c.Old == "0" {
					availableAt = append(availableAt, a.Time)
				}
			}
		}
	}
	if len(readyAt) != 2 {
		t.Fatalf("%d Ready writes, want 2", len(readyAt))
	}
	// The pods may turn Ready on the same second and become available in
	// one write (they do here: Ready at 0:04.5, both available at 0:14).
	if len(availableAt) == 0 {
		t.Fatal("the ReplicaSet never counted a pod available")
	}
	first := readyAt[0].Add(10 * time.Second)
	if d := availableAt[0].Wall().Sub(first); d < 0 || d > 50*time.Millisecond {
		t.Errorf("first pod available at %v, %v after its lastTransitionTime + 10s (%v), want within a status write's round trip",
			availableAt[0].Wall(), d, first)
	}
}
