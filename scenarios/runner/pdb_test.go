package runner_test

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/store"
)

// TestDrainsRespectBudget runs the built-in drain-blocked-by-budget on
// several seeds: two drains start at the same instant on two of the three
// nodes of an application under the Kubernetes docs' zk-pdb (minAvailable
// 2). After every write to a pod, the ready, non-terminating pods the
// budget selects must number at least 2 once all 3 have been ready; at
// least one eviction must have been refused with kubectl's message, and
// both drains must finish. (Planted: an eviction subresource that ignores
// disruptionsAllowed takes the application down to 1 ready pod.)
func TestDrainsRespectBudget(t *testing.T) {
	s, err := scenarios.Builtin("drain-blocked-by-budget")
	if err != nil {
		t.Fatal(err)
	}
	sel, _ := api.ParseSelector("app.kubernetes.io/name=zookeeper")
	refusedRuns := 0
	for seed := uint64(1); seed <= 4; seed++ {
		var c *cluster.Cluster
		armed, fewest := false, 3
		ready := func() int {
			objs, _, _ := c.Store.List(api.KindPod, store.ListOptions{Namespace: "default", Labels: &sel})
			n := 0
			for _, o := range objs {
				if p := o.(*api.Pod); p.DeletionTimestamp == nil && api.IsPodReady(p) {
					n++
				}
			}
			return n
		}
		res, err := runner.Run(s, runner.Options{Seed: &seed, OnStart: func(cl *cluster.Cluster) {
			c = cl
			if _, err := c.Store.Watch(api.KindPod, 0, store.ListOptions{}, store.SinkFunc(func(store.Event) {
				n := ready()
				if n == 3 {
					armed = true
				}
				if armed {
					fewest = min(fewest, n)
				}
			})); err != nil {
				t.Fatal(err)
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		if !armed {
			t.Fatalf("seed %d: the three pods were never ready together", seed)
		}
		if fewest < 2 {
			t.Errorf("seed %d: %d budgeted pods ready at one point, below zk-pdb's minAvailable 2", seed, fewest)
		}
		drained, refused := 0, false
		for _, e := range res.Entries {
			if !strings.HasPrefix(e.Command, "kubectl drain") {
				continue
			}
			out := strings.Join(e.Lines, "\n")
			if e.Err == "" && strings.HasSuffix(out, "drained") {
				drained++
			}
			if strings.Contains(out, `(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`) {
				refused = true
			}
		}
		if drained != 2 {
			t.Errorf("seed %d: %d drains finished, want 2", seed, drained)
		}
		if refused {
			refusedRuns++
		}
	}
	if refusedRuns == 0 {
		t.Error("no run refused an eviction: the budget was never in the way")
	}
}

// TestDrainStillRunning: a drain a budget blocks for good (minAvailable
// 3 of 3) keeps retrying, as kubectl without --timeout does, and the run's
// end prints what it printed so far; with drainTimeout it gives up with
// kubectl's "global timeout reached".
func TestDrainStillRunning(t *testing.T) {
	base := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: blocked}
spec:
  duration: 2m
  cluster:
    nodeGroups:
    - {name: worker, count: 2, capacity: {cpu: "2", memory: 4Gi, pods: "110"}}
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
  - apiVersion: policy/v1
    kind: PodDisruptionBudget
    metadata: {name: all}
    spec: {minAvailable: 3, selector: {matchLabels: {app: web}}}
  timeline:
  - at: 1m
    drain: worker-1
`
	for _, tc := range []struct {
		name, extra, wantErr string
	}{
		{"no timeout", "", "(still running when the run ended at 2:00)"},
		{"timeout", "    drainTimeout: 20s\n", `error: error when evicting pods/`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scenarios.Load("blocked.yaml", ".", nil, []byte(base+tc.extra))
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(s, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range res.Entries {
				if !strings.HasPrefix(e.Command, "kubectl drain") {
					continue
				}
				out := strings.Join(e.Lines, "\n")
				if !strings.HasPrefix(e.Err, tc.wantErr) || !strings.Contains(out, "(will retry after 5s): Cannot evict pod") {
					t.Errorf("%s\n%s\nwant the 429 retries and %q", out, e.Err, tc.wantErr)
				}
				if tc.extra != "" && !strings.Contains(e.Err, "global timeout reached: 20s") {
					t.Errorf("error %q, want kubectl's global timeout", e.Err)
				}
				return
			}
			t.Error("no drain entry")
		})
	}
}
