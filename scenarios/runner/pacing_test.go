package runner_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kubelet"
)

// zoneLoss runs replicas pods on the ten nodes of zone-a (zone-b
// cordoned), then at 5m (the paced start-up done) uncordons zone-b and crashes
// zone-a: 340 s later
// (grace period and toleration) the pods are evicted, the ReplicaSet
// controller replaces them all and the scheduler binds the replacements
// in zone-b, each at its client's pace. controllers is spec.controllers'
// body ("" for the defaults).
func zoneLoss(replicas int, controllers string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: zone-loss-paced}
spec:
  duration: 17m
  measure: {ignore: [Node]}
`)
	if controllers != "" {
		fmt.Fprintf(&b, "  controllers:\n    %s\n", controllers)
	}
	fmt.Fprintf(&b, `  cluster:
    nodeGroups:
    - {name: zone-a, count: 10, capacity: {cpu: "8", memory: 32Gi, pods: "110"}}
    - {name: zone-b, count: 10, capacity: {cpu: "8", memory: 32Gi, pods: "110"}, unschedulable: true}
%s  timeline:
`, webObjects(replicas))
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "  - {at: 5m, uncordon: zone-b-%d}\n", i)
	}
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "  - {at: 5m, crashNode: zone-a-%d}\n", i)
	}
	fmt.Fprintf(&b, "  expect:\n  - pods: {selector: app=web, phase: Running, ready: true, equals: %d, at: 17m}\n", replicas)
	return b.String()
}

// webObjects is spec.objects of a Deployment "web" of replicas small
// pods (10m CPU, 16Mi), labelled app=web.
func webObjects(replicas int) string {
	return fmt.Sprintf(`  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: %d
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx:1.25, resources: {requests: {cpu: 10m, memory: 16Mi}}}]}
`, replicas)
}

// TestPacedZoneLoss checks that the recovery from a lost zone takes the
// time the paced client's QPS budget implies: a token bucket of burst B
// refilled at Q a second lets R requests through in (R - B) / Q seconds,
// no faster. The paced actor is the bottleneck of each case: the
// ReplicaSet controller at kube-controller-manager's defaults (20 QPS,
// burst 30) replacing 1,000 pods, the same at a lower QPS, and the
// scheduler paced below the ReplicaSet controller. R is every write the
// actor made from its first replacement (a create, a bind) to its last
// (the creates or binds, its status writes and events: all take tokens);
// the test computes the expected span from the scenario's configured
// (or default) QPS and burst and compares it with the span measured.
func TestPacedZoneLoss(t *testing.T) {
	tests := []struct {
		name        string
		replicas    int
		controllers string
		controller  string // whose pacing decides
		actor, verb string // its replacement writes (on Pods)
		subresource string // ... of this subresource of the Pod ("": none)
		stretches   bool   // judge by the throttled stretches only
	}{
		{name: "kube-controller-manager defaults", replicas: 1000, controller: "replicaset", actor: replicaset.Actor, verb: "create"},
		// The scheduler binds (a create of pods/binding) through its API
		// client and sends the Scheduled events through its event client,
		// each with a bucket of its own; it makes requests the audit log
		// does not count as its writes (its
		// FailedScheduling status writes while the zone is down are
		// rejected or no-ops), so its case judges the throttled
		// stretches, not the audit log.
		{name: "scheduler at 1.5 QPS, burst 10", replicas: 200, controllers: "scheduler: {qps: 1.5, burst: 10}", controller: "scheduler", actor: scheduler.Actor, verb: "create", subresource: "binding", stretches: true},
		{name: "replicaset at 2 QPS, burst 5", replicas: 200, controllers: "replicaset: {qps: 2, burst: 5}", controller: "replicaset", actor: replicaset.Actor, verb: "create"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := scenarios.Load("zone-loss.yaml", ".", nil, []byte(zoneLoss(tt.replicas, tt.controllers)))
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
			pacing := s.Spec.Controllers[tt.controller].Pacing(tt.controller)
			if pacing.Unpaced() {
				t.Fatalf("%s is unpaced", tt.controller)
			}
			qps, burst := pacing.QPS, float64(pacing.Burst)
			var first, last time.Duration
			replaced := 0
			for _, r := range res.Audit {
				if at := r.Time.Duration(); r.Actor == tt.actor && r.Kind == api.KindPod && r.Verb == tt.verb && r.Subresource == tt.subresource && at > 5*time.Minute {
					if replaced == 0 {
						first = at
					}
					last = at
					replaced++
				}
			}
			if replaced != tt.replicas {
				t.Fatalf("%d replacement pods (%s %s by %s) after the zone failed, want %d", replaced, tt.verb, tt.subresource, tt.actor, tt.replicas)
			}
			// Every stretch of waiting requests lasts as long as the
			// bucket takes to refill a token for each: the first waited
			// for the part of a token the bucket lacked, each later one a
			// whole token.
			var th *runner.ActorThrottling
			for i := range res.Throttling {
				if res.Throttling[i].Actor == tt.actor {
					th = &res.Throttling[i]
				}
			}
			if th == nil {
				t.Fatalf("%s never waited for a token: %+v", tt.actor, res.Throttling)
			}
			if th.Pacing != pacing {
				t.Errorf("%s throttled at %v, want %v", tt.actor, th.Pacing, pacing)
			}
			window := uint64(0)
			for _, st := range th.Stretches {
				d := st.Duration().Seconds()
				if lo, hi := float64(st.Waited-1)/qps-1e-6, float64(st.Waited)/qps+1e-6; d < lo || d > hi {
					t.Errorf("%s: a stretch of %d waiting requests from %v lasted %.3f s, want %.3f to %.3f s at %v", tt.actor, st.Waited, st.Start, d, lo, hi, pacing)
				}
				if st.End > first && st.Start < last {
					window += st.Waited
				}
			}
			if tt.stretches {
				span := (last - first).Seconds()
				want := float64(window) / qps
				// The binds alone draw on the API client's bucket: the
				// Scheduled events go through kube-scheduler's event
				// client, a bucket of its own at the same pacing.
				floor := (float64(tt.replicas) - burst) / qps
				t.Logf("%d replacements by %s from %v to %v: %.2f s; %d requests waited meanwhile: %.2f s; binds alone %.2f s", replaced, tt.actor, first, last, span, window, want, floor)
				// A token of slack: the first bind took its token
				// before the span began.
				if span < floor-1/qps {
					t.Errorf("the replacements took %.2f s, faster than %v allows for %d binds (%.2f s)", span, pacing, tt.replicas, floor)
				}
				// At most a token period a bind: were the events drawing
				// on the binds' bucket, 2×replicas requests would take
				// twice as long.
				if ceil := float64(tt.replicas+1) / qps; span > ceil {
					t.Errorf("the replacements took %.2f s, longer than %d binds alone at %v QPS (%.2f s): the events share the binds' bucket", span, tt.replicas, qps, ceil)
				}
				if window > uint64(tt.replicas) {
					t.Errorf("%d requests waited while %d binds went out: the events share the binds' bucket", window, tt.replicas)
				}
				// The events follow their binds at the binds' pace, so
				// the event client, at the same pacing, never waits: it
				// has no throttling entry.
				for _, a := range res.Throttling {
					if a.Actor == tt.actor+" (event client)" {
						t.Errorf("%s's event client waited: %+v", tt.actor, a)
					}
				}
				return
			}
			writes := 0
			for _, r := range res.Audit {
				// Lease renewals go through the leader election's own
				// client, unpaced (kube-controller-manager's and
				// kube-scheduler's leader-election clients).
				if at := r.Time.Duration(); r.Actor == tt.actor && r.Kind != api.KindLease && at >= first && at <= last {
					writes++
				}
			}
			span := (last - first).Seconds()
			// The first request of the window took the first token of a
			// full bucket, the last the writes-th: writes-1 tokens after
			// the first, burst-1 of them there already.
			want := (float64(writes) - burst) / qps
			floor := (float64(tt.replicas) - burst) / qps
			t.Logf("%d replacements (%d writes by %s) from %v to %v: %.2f s; budget %.2f s; replacements alone %.2f s", replaced, writes, tt.actor, first, last, span, want, floor)
			if span < floor-1/qps {
				t.Errorf("the replacements took %.2f s, faster than %v allows for %d of them (%.2f s)", span, pacing, tt.replicas, floor)
			}
			if math.Abs(span-want) > 1 {
				t.Errorf("the replacements took %.2f s, want %.2f s ± 1 s: (%d writes − burst %v) / %v QPS", span, want, writes, burst, qps)
			}
		})
	}
}

// TestKubeletPacing checks that every kubelet's API client keeps to
// spec.cluster.kubelet's budget: 40 pods start on two nodes whose
// kubelets may send 1 request a second after a burst of 5, so no node's
// pod status writes and deletes, at any stretch of time T, number more
// than 5 + T seconds' worth (with a little slack for the network's
// jitter between sending and the store's write), and the run's throttling
// counts the kubelets' waits under one folded actor.
func TestKubeletPacing(t *testing.T) {
	const src = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: kubelet-paced}
spec:
  duration: 3m
  cluster:
    kubelet: {kubeAPIQPS: 1, kubeAPIBurst: 5}
    nodeGroups:
    - {name: worker, count: 2, capacity: {cpu: "8", memory: 32Gi, pods: "110"}}
  network:
    default: {latency: 1ms, jitter: 2ms}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 40
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx:1.25, resources: {requests: {cpu: 10m, memory: 16Mi}}}]}
  expect:
  - pods: {selector: app=web, phase: Running, ready: true, equals: 40, at: 3m}
`
	s, err := scenarios.Load("kubelet-paced.yaml", ".", nil, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	apiPacing, _ := scenarios.KubeletPacing(s)
	if apiPacing != (scenarios.Pacing{QPS: 1, Burst: 5}) {
		t.Fatalf("kubelets paced at %v, want 1 QPS, burst 5", apiPacing)
	}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Passed() {
		t.Fatalf("the pods did not all start: %+v", res.Expectations)
	}
	for _, node := range []string{"worker-1", "worker-2"} {
		var at []time.Duration
		for _, r := range res.Audit {
			if r.Actor == kubelet.Actor(node) && r.Kind == api.KindPod && (r.Subresource == "status" || r.Verb == "delete") {
				at = append(at, r.Time.Duration())
			}
		}
		if len(at) < 20 {
			t.Fatalf("%s wrote %d pod statuses, want at least 20", node, len(at))
		}
		// The i-th to j-th writes need j-i+1 tokens: burst of them at
		// once, the rest refilled at QPS over the stretch (plus the
		// jitter the earliest's send could have had over the latest's).
		const slack = 5 * time.Millisecond
		worst := 0.0
		for i := range at {
			for j := i; j < len(at); j++ {
				over := float64(j-i+1) - float64(apiPacing.Burst) - apiPacing.QPS*(at[j]-at[i]+slack).Seconds()
				worst = max(worst, over)
			}
		}
		if worst > 1e-9 {
			t.Errorf("%s: %d pod status writes exceed %v by %.2f requests in some stretch", node, len(at), apiPacing, worst)
		}
		t.Logf("%s: %d pod status writes from %v to %v", node, len(at), at[0], at[len(at)-1])
	}
	var folded *runner.ActorThrottling
	for i := range res.Throttling {
		if res.Throttling[i].Actor == runner.KubeletsActor {
			folded = &res.Throttling[i]
		}
	}
	if folded == nil || folded.Waited == 0 || folded.Pacing != apiPacing {
		t.Errorf("no folded kubelet throttling %q at %v in %+v", runner.KubeletsActor, apiPacing, res.Throttling)
	}
}
