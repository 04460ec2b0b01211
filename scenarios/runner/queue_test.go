package runner_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
)

// queueLimits runs a ReplicaSet of two under a quota of one pod: its
// second create is refused for the whole run, so once its pod has
// settled each of its reconciles fails and the next is its work queue's
// retry (%s: spec.controllers).
const queueLimits = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: queue-limits}
spec:
  seed: 1
  duration: 10m
  cluster:
    nodeGroups:
    - {name: worker, count: 1, capacity: {cpu: "4", memory: 16Gi, pods: "110"}}
  controllers: %s
  objects:
  - {apiVersion: v1, kind: ResourceQuota, metadata: {name: q}, spec: {hard: {pods: "1"}}}
  - apiVersion: apps/v1
    kind: ReplicaSet
    metadata: {name: web}
    spec:
      replicas: 2
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: c, image: nginx}]}
`

// TestQueueLimits: spec.controllers.<name>.workqueue sets the retry
// delays of the controller's work queue, and the retries come when the
// limits say: a cap equal to the first delay retries at that interval; a
// bucket of 0.2 qps lets one retry through every 5 s whatever the item's
// own delay; without the setting, client-go's default (5ms doubling up to
// 1000s) spaces them further and further apart.
func TestQueueLimits(t *testing.T) {
	for _, tc := range []struct {
		name, controllers string
		want              func(gaps []time.Duration) bool
		says              string
	}{
		{"fixed interval", "{replicaset: {workqueue: {baseDelay: 7s, maxDelay: 7s}}}",
			func(g []time.Duration) bool { return allEqual(g, 7*time.Second) }, "every retry 7s after the failure"},
		{"overall bucket", "{replicaset: {workqueue: {baseDelay: 1ms, maxDelay: 1ms, qps: 0.2, burst: 1}}}",
			func(g []time.Duration) bool { return allEqual(g, 5*time.Second) }, "every retry 5s after the failure (a token each 5s)"},
		{"client-go's default", "{}",
			func(g []time.Duration) bool {
				for i := 1; i < len(g); i++ {
					if g[i] != 2*g[i-1] {
						return false
					}
				}
				return len(g) >= 2 && g[0] > 10*time.Second
			}, "each retry twice as late as the one before, past 10s from the start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runDoc(t, "queue.yaml", strings.Replace(queueLimits, "%s", tc.controllers, 1), runner.Options{})
			gaps := retryGaps(res, 20*time.Second)
			if len(gaps) < 2 || !tc.want(gaps) {
				t.Errorf("gaps between a failed reconcile of default/web and the next: %v; want %s", gaps, tc.says)
			}
		})
	}
}

// retryGaps returns, for each failed reconcile of the ReplicaSet
// default/web that ended after from, how long after its end the next
// reconcile of it started.
func retryGaps(res *runner.Result, from time.Duration) []time.Duration {
	var recs []runner.Reconcile
	for _, r := range res.Reconciles {
		if r.Controller == "replicaset-controller" && r.Key.Namespace == "default" && r.Key.Name == "web" {
			recs = append(recs, r)
		}
	}
	var gaps []time.Duration
	for i := 0; i+1 < len(recs); i++ {
		if recs[i].Err != "" && recs[i].End > from {
			gaps = append(gaps, recs[i+1].Start-recs[i].End)
		}
	}
	return gaps
}

func allEqual(g []time.Duration, d time.Duration) bool {
	for _, x := range g {
		if x != d {
			return false
		}
	}
	return true
}

// TestSlowStartSettings: spec.controllers.replicaset's
// slowStartInitialBatch and burstReplicas shape each sync's creates.
// Under a quota of no pods every create fails, so each sync makes one
// batch, its first, all of it refused: min(burstReplicas, the missing
// pods, slowStartInitialBatch) create calls a sync (upstream's default:
// one doomed create a sync).
func TestSlowStartSettings(t *testing.T) {
	for _, tc := range []struct {
		settings string
		perSync  int
	}{
		{"{}", 1},
		{"{replicaset: {slowStartInitialBatch: 4}}", 4},
		{"{replicaset: {slowStartInitialBatch: 50}}", 20},
		{"{replicaset: {slowStartInitialBatch: 8, burstReplicas: 3}}", 3},
	} {
		t.Run(tc.settings, func(t *testing.T) {
			doc := strings.Replace(queueLimits, "%s", tc.settings, 1)
			doc = strings.Replace(doc, `hard: {pods: "1"}`, `hard: {pods: "0"}`, 1)
			doc = strings.Replace(doc, "replicas: 2", "replicas: 20", 1)
			res := runDoc(t, "slowstart.yaml", doc, runner.Options{})
			creates := 0
			for _, s := range res.Requests {
				if s.Actor == "system:serviceaccount:kube-system:replicaset-controller" && s.Verb == "create" && s.Kind == "Pod" {
					creates += int(s.Count)
				}
			}
			syncs := 0
			for _, r := range res.Reconciles {
				if r.Controller == "replicaset-controller" && r.Key.Name == "web" && r.Err != "" {
					syncs++
				}
			}
			if syncs == 0 || creates != tc.perSync*syncs {
				t.Errorf("%d create calls in %d failed syncs, want %d each", creates, syncs, tc.perSync)
			}
		})
	}
}
