package runner_test

import (
	"math"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// zoneLoss runs 1,000 pods on the ten nodes of zone-a (zone-b cordoned), then at 2m
// uncordons zone-b and crashes zone-a: 340 s later (grace period and
// toleration) the pods are evicted and the ReplicaSet controller,
// paced at qps and burst, replaces all 1,000 in zone-b.
const zoneLoss = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: zone-loss-paced}
spec:
  duration: 14m
  measure: {ignore: [Node]}
  controllers:
    replicaset: {qps: 20, burst: 30}
  cluster:
    nodeGroups:
    - {name: zone-a, count: 10, capacity: {cpu: "8", memory: 32Gi, pods: "110"}}
    - {name: zone-b, count: 10, capacity: {cpu: "8", memory: 32Gi, pods: "110"}, unschedulable: true}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 1000
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx:1.25, resources: {requests: {cpu: 10m, memory: 16Mi}}}]}
  timeline:
  - {at: 2m, uncordon: zone-b-1}
  - {at: 2m, uncordon: zone-b-2}
  - {at: 2m, uncordon: zone-b-3}
  - {at: 2m, uncordon: zone-b-4}
  - {at: 2m, uncordon: zone-b-5}
  - {at: 2m, uncordon: zone-b-6}
  - {at: 2m, uncordon: zone-b-7}
  - {at: 2m, uncordon: zone-b-8}
  - {at: 2m, uncordon: zone-b-9}
  - {at: 2m, uncordon: zone-b-10}
  - {at: 2m, crashNode: zone-a-1}
  - {at: 2m, crashNode: zone-a-2}
  - {at: 2m, crashNode: zone-a-3}
  - {at: 2m, crashNode: zone-a-4}
  - {at: 2m, crashNode: zone-a-5}
  - {at: 2m, crashNode: zone-a-6}
  - {at: 2m, crashNode: zone-a-7}
  - {at: 2m, crashNode: zone-a-8}
  - {at: 2m, crashNode: zone-a-9}
  - {at: 2m, crashNode: zone-a-10}
  expect:
  - pods: {selector: app=web, phase: Running, ready: true, equals: 1000, at: 14m}
`

// TestPacedZoneLoss checks that the recovery from a lost zone of 1,000
// pods takes the time the ReplicaSet controller's QPS budget implies: a
// token bucket of burst B refilled at Q a second lets R requests through
// in (R - B) / Q seconds, no faster. R is every write the controller
// made while it replaced the pods (the 1,000 creates, its status updates
// and events); the test computes the expected time from the configured
// QPS and burst and compares it with the span of the creates.
func TestPacedZoneLoss(t *testing.T) {
	s, err := scenarios.Load("zone-loss.yaml", ".", nil, []byte(zoneLoss))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() {
		t.Fatalf("the pods did not all come back: %+v", res.Expectations)
	}
	settings := s.Spec.Controllers["replicaset"]
	qps, burst := settings.QPS, float64(settings.Burst)
	var first, last time.Duration
	creates := 0
	for _, r := range res.Audit {
		if at := r.Time.Duration(); r.Actor == replicaset.Actor && r.Kind == api.KindPod && r.Verb == "create" && at > 2*time.Minute {
			if creates == 0 {
				first = at
			}
			last = at
			creates++
		}
	}
	if creates != 1000 {
		t.Fatalf("%d replacement pods created after the zone failed, want 1000", creates)
	}
	writes := 0
	for _, r := range res.Audit {
		// Lease renewals go through the leader election's own client,
		// unpaced (kube-controller-manager's leader-election client).
		if at := r.Time.Duration(); r.Actor == replicaset.Actor && r.Kind != api.KindLease && at >= first && at <= last {
			writes++
		}
	}
	span := (last - first).Seconds()
	// The first request of the window took the first token of a full
	// bucket, the last the writes-th: writes-1 tokens after the first,
	// burst-1 of them there already.
	want := (float64(writes) - burst) / qps
	floor := (1000 - burst) / qps
	t.Logf("1000 creates (%d writes) from %v to %v: %.2f s; budget %.2f s; creates alone %.2f s", writes, first, last, span, want, floor)
	if span < floor-1/qps {
		t.Errorf("the creates took %.2f s, faster than %v QPS with burst %v allows for 1000 of them (%.2f s)", span, qps, burst, floor)
	}
	if math.Abs(span-want) > 1 {
		t.Errorf("the creates took %.2f s, want %.2f s ± 1 s: (%d writes − burst %v) / %v QPS", span, want, writes, burst, qps)
	}
}
