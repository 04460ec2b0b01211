package runner_test

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/autoscaler"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// TestAutoscalerScalesUpAndDown: one 2-CPU node, a Deployment of 1.5-CPU
// pods scaled from 1 to 3 at 1m. The autoscaler asks for two nodes at its
// next scan (1:10), they join after the group's 3m provisioning delay
// (4:10), and the pods stay Pending until then. Scaled back to 1 at 12m,
// the two nodes are empty within a second (nginx exits on SIGTERM in a
// tenth of a second) and are removed when they have been unneeded for the
// default 10m, at the autoscaler's next 10s scan: not before 22:00, and
// by 22:30.
func TestAutoscalerScalesUpAndDown(t *testing.T) {
	doc, err := os.ReadFile("testdata/autoscale.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res := runPlacement(t, string(doc))
	var up, joined time.Duration
	var downs []time.Duration
	for _, e := range res.Entries {
		switch {
		case strings.HasPrefix(e.Command, "cluster-autoscaler scale-up: pool 1->3 (max: 4)"):
			up = e.At
		case strings.HasPrefix(e.Command, "cloud: 2 machine(s) of pool provisioned after 3m0s"):
			joined = e.At
		case strings.HasPrefix(e.Command, "cluster-autoscaler scale-down: node pool-"):
			downs = append(downs, e.At)
			if !strings.Contains(e.Command, "unneeded for 10m0s") {
				t.Errorf("scale-down before the unneeded time: %s", e.Command)
			}
		}
	}
	if up < time.Minute || up > time.Minute+10*time.Second {
		t.Errorf("scale-up at %s, want within one 10s scan of 1m0s", up)
	}
	if joined != up+3*time.Minute {
		t.Errorf("nodes joined at %s, want the scale-up (%s) plus the 3m provisioning delay", joined, up)
	}
	if len(downs) != 2 || downs[0] < 22*time.Minute || downs[0] > 22*time.Minute+30*time.Second {
		t.Errorf("scale-downs at %v, want both idle nodes removed 10m after they emptied (22:00 to 22:30)", downs)
	}
}

// TestAutoscalerHonoursAntiAffinity: three replicas with required
// anti-affinity per host, one node. Resources alone would put both
// pending pods on one new node; the scheduler's InterPodAffinity filter,
// run by the autoscaler on its template nodes, needs one node each, so
// the single scale-up asks for two nodes and every replica runs once they
// join.
func TestAutoscalerHonoursAntiAffinity(t *testing.T) {
	const doc = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: autoscale-anti}
spec:
  seed: 1
  duration: 8m
  measure: {ignore: [Node]}
  cluster:
    nodeGroups:
    - {name: pool, count: 1, capacity: {cpu: "4", memory: 8Gi}, autoscaling: {minSize: 1, maxSize: 4, provisioningDelay: 3m}}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 1
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          affinity:
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: web}}}
          containers:
          - name: web
            image: nginx:1.14.2
            resources: {requests: {cpu: 100m, memory: 64Mi}}
  timeline:
  - at: 1m
    scale: {kind: deployment, name: web, replicas: 3}
  expect:
  - pods: {selector: app=web, phase: Running, equals: 3, at: 7m}
`
	res := runPlacement(t, doc)
	var ups []string
	for _, e := range res.Entries {
		if strings.HasPrefix(e.Command, "cluster-autoscaler scale-up:") {
			ups = append(ups, e.Command)
		}
	}
	if len(ups) != 1 || !strings.HasPrefix(ups[0], "cluster-autoscaler scale-up: pool 1->3 (max: 4)") {
		t.Errorf("scale-ups %q, want one of pool 1->3", ups)
	}
}

// TestAutoscalerHonoursSpread: a zone spread (maxSkew 1, DoNotSchedule)
// over two autoscaled groups, one per zone, each node holding two
// replicas. Scaled from 4 to 6, the two pending replicas need a node in
// each zone: a new node of either group may take only one of them, so
// the first scale-up is for one pod, and the second grows the other zone.
func TestAutoscalerHonoursSpread(t *testing.T) {
	const doc = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: autoscale-spread}
spec:
  seed: 1
  duration: 12m
  measure: {ignore: [Node]}
  cluster:
    nodeGroups:
    - {name: a, count: 1, labels: {topology.kubernetes.io/zone: zone-a}, capacity: {cpu: "4", memory: 8Gi}, autoscaling: {minSize: 1, maxSize: 3, provisioningDelay: 3m}}
    - {name: b, count: 1, labels: {topology.kubernetes.io/zone: zone-b}, capacity: {cpu: "4", memory: 8Gi}, autoscaling: {minSize: 1, maxSize: 3, provisioningDelay: 3m}}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 4
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          topologySpreadConstraints:
          - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
          containers:
          - name: web
            image: nginx:1.14.2
            resources: {requests: {cpu: 1500m, memory: 64Mi}}
  timeline:
  - at: 1m
    scale: {kind: deployment, name: web, replicas: 6}
  expect:
  - pods: {selector: app=web, phase: Running, equals: 6, at: 11m}
`
	res := runPlacement(t, doc)
	var ups []string
	for _, e := range res.Entries {
		if strings.HasPrefix(e.Command, "cluster-autoscaler scale-up:") {
			ups = append(ups, strings.TrimPrefix(e.Command, "cluster-autoscaler scale-up: "))
		}
	}
	want := []string{"a 1->2 (max: 3) for 1 pending pod(s)", "b 1->2 (max: 3) for 1 pending pod(s)"}
	if len(ups) != 2 || !strings.HasPrefix(ups[0], want[0]) || !strings.HasPrefix(ups[1], want[1]) {
		t.Errorf("scale-ups %q, want %q", ups, want)
	}
}

// TestAutoscalerIgnoresExpendablePods: a pending pod of priority -100,
// below cluster-autoscaler's --expendable-pods-priority-cutoff (-10),
// triggers no scale-up; the same pod at priority 0 does.
func TestAutoscalerIgnoresExpendablePods(t *testing.T) {
	doc := func(value string) string {
		return `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: autoscale-expendable}
spec:
  seed: 1
  duration: 3m
  measure: {ignore: [Node]}
  cluster:
    nodeGroups:
    - {name: pool, count: 1, capacity: {cpu: "2", memory: 8Gi}, autoscaling: {minSize: 1, maxSize: 3, provisioningDelay: 1m}}
  objects:
  - {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: filler}, value: ` + value + `}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: filler}
    spec:
      replicas: 2
      selector: {matchLabels: {app: filler}}
      template:
        metadata: {labels: {app: filler}}
        spec:
          priorityClassName: filler
          containers:
          - name: filler
            image: nginx:1.14.2
            resources: {requests: {cpu: 1500m, memory: 64Mi}}
`
	}
	for _, tc := range []struct {
		value string
		ups   int
	}{{"-100", 0}, {"0", 1}} {
		res := runPlacement(t, doc(tc.value))
		ups := 0
		for _, e := range res.Entries {
			if strings.HasPrefix(e.Command, "cluster-autoscaler scale-up:") {
				ups++
			}
		}
		if ups != tc.ups {
			t.Errorf("priority %s: %d scale-ups, want %d", tc.value, ups, tc.ups)
		}
	}
}

// timelineLines returns the timeline's commands that start with prefix.
func timelineLines(res *runner.Result, prefix string) []string {
	var out []string
	for _, e := range res.Entries {
		if strings.HasPrefix(e.Command, prefix) {
			out = append(out, e.Command)
		}
	}
	return out
}

// podDeletes counts the audit log's pod deletions by actor.
func podDeletes(res *runner.Result, actor string) int {
	n := 0
	for _, a := range res.Audit {
		if a.Kind == api.KindPod && a.Verb == "delete" && a.Actor == actor {
			n++
		}
	}
	return n
}

// TestAutoscalerKeepsNodeOfBarePod: three idle nodes, one (pool-1)
// running a pod without a controller. cluster-autoscaler's Replicated
// rule (--skip-nodes-with-custom-controller-pods, default true) blocks
// pool-1, whose pod nothing would recreate; the two empty nodes are
// removed after the 10m unneeded time. Before the drainability rules the
// autoscaler removed pool-1 and pool-2 and deleted the bare pod for
// good.
func TestAutoscalerKeepsNodeOfBarePod(t *testing.T) {
	bare := "  - at: 0s\n    apply: {objects: [{apiVersion: v1, kind: Pod, metadata: {name: bare, labels: {app: bare}}, spec: {nodeName: pool-1, " +
		"containers: [{name: c, image: nginx:1.14.2, resources: {requests: {cpu: 100m, memory: 64Mi}}}]}}]}\n"
	doc := placementScenario(0, "", `    - {name: pool, count: 3, capacity: {cpu: "4", memory: 8Gi}, autoscaling: {minSize: 1, maxSize: 3}}`,
		bare, "  - pods: {selector: app=bare, phase: Running, equals: 1, at: 11m50s}")
	res := runPlacement(t, doc)
	kept := timelineLines(res, "cluster-autoscaler scale-down: node pool-1 ")
	want := "cluster-autoscaler scale-down: node pool-1 cannot be removed: default/bare is not replicated (NotReplicated)"
	if len(kept) != 1 || kept[0] != want {
		t.Errorf("pool-1's lines %q, want [%q]", kept, want)
	}
	deleted := timelineLines(res, "cloud: machine ")
	if !slices.Equal(deleted, []string{"cloud: machine pool-2 deleted", "cloud: machine pool-3 deleted"}) {
		t.Errorf("machines deleted %q, want pool-2 and pool-3", deleted)
	}
	if n := podDeletes(res, autoscaler.Actor); n != 0 {
		t.Errorf("the autoscaler deleted %d pods, want none", n)
	}
}

// preferPoolA makes the web pods prefer nodes labelled pool=a.
const preferPoolA = `          affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 100, preference: {matchExpressions: [{key: pool, operator: In, values: [a]}]}}]}}`

// budgetStep applies a PodDisruptionBudget of minAvailable over the web
// pods at the start.
func budgetStep(minAvailable int) string {
	return fmt.Sprintf("  - at: 0s\n    apply: {objects: [{apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: web}, "+
		"spec: {minAvailable: %d, selector: {matchLabels: {app: web}}}}]}\n", minAvailable)
}

// twoGroups: a-1, autoscaled down to 0 and preferred by the web pods,
// and b-1, not autoscaled, with room for them.
const twoGroups = `    - {name: a, count: 1, labels: {pool: a}, capacity: {cpu: "4", memory: 8Gi}, autoscaling: {minSize: 0, maxSize: 1}}
    - {name: b, count: 1, labels: {pool: b}, capacity: {cpu: "4", memory: 8Gi}}`

// TestAutoscalerKeepsNodeABudgetProtects: one web replica on a-1 under a
// PodDisruptionBudget of minAvailable 1, so disruptionsAllowed is 0. The
// PDB rule blocks a-1 (NotEnoughPdb) although its pod would fit on b-1;
// nothing is evicted. Before the rules the autoscaler removed a-1 and
// deleted the pod, budget or not.
func TestAutoscalerKeepsNodeABudgetProtects(t *testing.T) {
	res := runPlacement(t, placementScenario(1, preferPoolA, twoGroups, budgetStep(1), "  - pods: {selector: app=web, phase: Running, equals: 1, at: 11m50s}"))
	kept := timelineLines(res, "cluster-autoscaler scale-down: node a-1 ")
	if len(kept) != 1 || !strings.HasPrefix(kept[0], "cluster-autoscaler scale-down: node a-1 cannot be removed: not enough pod disruption budget to move default/web-") ||
		!strings.HasSuffix(kept[0], "(NotEnoughPdb)") {
		t.Errorf("a-1's lines %q, want one saying a budget blocks it", kept)
	}
	if d := timelineLines(res, "cloud: machine "); len(d) != 0 {
		t.Errorf("machines deleted: %q, want none", d)
	}
	if n := podDeletes(res, autoscaler.Actor); n != 0 {
		t.Errorf("the autoscaler deleted %d pods, want none", n)
	}
}

// TestAutoscalerRetriesRefusedEviction: two web replicas on a-1 under a
// budget of minAvailable 1 (one disruption allowed). Each pod alone may
// go, so a-1 is unneeded; its drain evicts the first pod, which takes
// the disruption, and the second is refused (429) until the first pod's
// replacement runs on b-1 and the disruption controller allows one
// again: the retry EvictionRetryTime (10s) later succeeds, and a-1 is
// deleted. The drain starts 5s after the taint and lasts at least one
// retry, well within --max-pod-eviction-time (2m).
func TestAutoscalerRetriesRefusedEviction(t *testing.T) {
	res := runPlacement(t, placementScenario(2, preferPoolA, twoGroups, budgetStep(1), "  - pods: {selector: app=web, phase: Running, equals: 2, at: 11m50s}"))
	var start, deleted time.Duration
	for _, e := range res.Entries {
		switch {
		case strings.HasPrefix(e.Command, "cluster-autoscaler scale-down: node a-1 of a"):
			start = e.At
		case e.Command == "cloud: machine a-1 deleted":
			deleted = e.At
		}
	}
	if start == 0 || deleted == 0 {
		t.Fatalf("drain started at %s, machine deleted at %s: want both", start, deleted)
	}
	if d := deleted - start; d < autoscaler.DefaultNodeDeleteDelayAfterTaint+autoscaler.EvictionRetryTime || d > autoscaler.DefaultMaxPodEvictionTime {
		t.Errorf("a-1 deleted %s after its drain started, want a retried eviction (at least 15s) within 2m", d)
	}
	refused := 0
	for _, s := range res.Requests {
		if s.Actor == autoscaler.Actor && s.Verb == "create" && s.Kind == "Pod" && s.Outcome == "too-many-requests" {
			refused += int(s.Count)
		}
	}
	if refused == 0 {
		t.Error("no eviction refused with 429 TooManyRequests")
	}
	if n := podDeletes(res, autoscaler.Actor); n != 2 {
		t.Errorf("the autoscaler's evictions deleted %d pods, want 2", n)
	}
}

// TestAutoscalerGivesNodeBackWhenDrainFails: as in
// TestAutoscalerRetriesRefusedEviction, but the web pods answer their
// readiness probe only 3m after they start (the first scan finds the
// budget without disruptions, NotEnoughPdb, and looks again after the 5m
// recheck timeout). The second eviction is refused until the first
// pod's replacement is ready, which takes longer than
// --max-pod-eviction-time (2m): the drain fails 5s + 2m after the taint,
// the node is given back (ToBeDeletedByClusterAutoscaler removed, the
// machine kept) with upstream's warning on the timeline.
func TestAutoscalerGivesNodeBackWhenDrainFails(t *testing.T) {
	doc := placementScenario(2, preferPoolA, twoGroups, budgetStep(1), "  - pods: {selector: app=web, phase: Running, equals: 2, at: 18m50s}")
	for _, r := range [][2]string{
		{"duration: 12m", "duration: 19m"},
		{"memory: 64Mi}}", "memory: 64Mi}}\n            readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 5}"},
		{"  objects:\n", "  registry:\n    images:\n    - {name: nginx, tags: [\"1.14.2\"], readyAfter: 3m}\n  objects:\n"},
	} {
		doc = strings.Replace(doc, r[0], r[1], 1)
	}
	res := runPlacement(t, doc)
	var start, failed time.Duration
	var failure string
	for _, e := range res.Entries {
		switch {
		case strings.HasPrefix(e.Command, "cluster-autoscaler scale-down: node a-1 of a"):
			start = e.At
		case strings.HasPrefix(e.Command, `cluster-autoscaler scale-down: couldn't delete node "a-1" with drain`):
			failed, failure = e.At, e.Command
		}
	}
	want := `cluster-autoscaler scale-down: couldn't delete node "a-1" with drain, prepareNodeForDeletion failed, status error: ` +
		`Failed to drain node /a-1, due to following errors: [failed to evict pod default/web-`
	if !strings.HasPrefix(failure, want) || !strings.HasSuffix(failure, " within allowed timeout (last error: Cannot evict pod as it would violate the pod's disruption budget.)]") {
		t.Errorf("failure line %q, want upstream's drain failure for a pod refused by its budget", failure)
	}
	if d := failed - start; d < autoscaler.DefaultNodeDeleteDelayAfterTaint+autoscaler.DefaultMaxPodEvictionTime || d > autoscaler.DefaultNodeDeleteDelayAfterTaint+autoscaler.DefaultMaxPodEvictionTime+5*time.Second {
		t.Errorf("drain failed %s after it started, want 5s + 2m", d)
	}
	if d := timelineLines(res, "cloud: machine "); len(d) != 0 {
		t.Errorf("machines deleted: %q, want none", d)
	}
	if keys := taintKeys(res, "a-1"); slices.Contains(keys, autoscaler.TaintToBeDeleted) {
		t.Errorf("a-1's taints at the end: %q", keys)
	}
}

// taintKeys are the keys of a node's taints after the audit log's last
// write to it.
func taintKeys(res *runner.Result, node string) []string {
	keys := map[string]string{}
	for _, a := range res.Audit {
		if a.Kind != api.KindNode || a.Key.Name != node {
			continue
		}
		for c := range a.EachChange() {
			if !strings.HasPrefix(c.Path, "spec.taints[") || !strings.HasSuffix(c.Path, "].key") {
				continue
			}
			if c.NewSet {
				keys[c.Path] = c.New
			} else {
				delete(keys, c.Path)
			}
		}
	}
	var out []string
	for _, path := range slices.Sorted(maps.Keys(keys)) {
		out = append(out, keys[path])
	}
	return out
}

// TestAutoscalerClientIsPaced: fifteen web replicas on a-1 (1.5 of its
// 4 CPUs, under the utilization threshold) fit on b-1, so a-1 is drained
// and its fifteen pods evicted at once. cluster-autoscaler's client has
// client-go's default pacing (--kube-client-qps 5, --kube-client-burst
// 10): the evictions beyond the burst wait for tokens, so they spread
// over seconds and the report's throttling names the autoscaler; at
// kubeClientQPS 1 and kubeClientBurst 2, over more than ten seconds;
// unpaced, all in one instant, and the autoscaler is not throttled.
func TestAutoscalerClientIsPaced(t *testing.T) {
	for _, tt := range []struct {
		name     string
		settings string
		// wantPacing is the bucket the report shows; zero: no row.
		wantPacing scenarios.Pacing
		// minSpread bounds below the time from the first eviction to the
		// last.
		minSpread time.Duration
	}{
		{"defaults", "", scenarios.Pacing{QPS: scenarios.AutoscalerQPS, Burst: scenarios.AutoscalerBurst}, time.Second},
		{"set", "    autoscaler: {kubeClientQPS: 1, kubeClientBurst: 2}\n", scenarios.Pacing{QPS: 1, Burst: 2}, 10 * time.Second},
		{"unpaced", "    autoscaler: {unpaced: true}\n", scenarios.Pacing{}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := placementScenario(15, preferPoolA, twoGroups, "", "  - pods: {selector: app=web, phase: Running, equals: 15, at: 11m50s}")
			doc = strings.Replace(doc, "    nodeGroups:\n", tt.settings+"    nodeGroups:\n", 1)
			res := runPlacement(t, doc)
			var first, last time.Duration
			n := 0
			for _, a := range res.Audit {
				if a.Kind == api.KindPod && a.Verb == "delete" && a.Actor == autoscaler.Actor {
					at := a.Time.Duration()
					if n == 0 {
						first = at
					}
					last = at
					n++
				}
			}
			if n != 15 {
				t.Fatalf("the autoscaler's evictions deleted %d pods, want 15", n)
			}
			if spread := last - first; spread < tt.minSpread || (tt.minSpread == 0 && spread > time.Second) {
				t.Errorf("evictions spread over %s, want at least %s", spread, tt.minSpread)
			}
			var th *runner.ActorThrottling
			for i := range res.Throttling {
				if res.Throttling[i].Actor == autoscaler.Actor {
					th = &res.Throttling[i]
				}
			}
			switch {
			case tt.wantPacing.Unpaced() && th != nil:
				t.Errorf("an unpaced autoscaler was throttled: %+v", *th)
			case !tt.wantPacing.Unpaced() && th == nil:
				t.Errorf("no throttling reported for %s", autoscaler.Actor)
			case th != nil && (th.Pacing != tt.wantPacing || th.Waited == 0):
				t.Errorf("throttling %+v, want bucket %v and waits", *th, tt.wantPacing)
			}
		})
	}
}
