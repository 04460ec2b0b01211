package runner_test

import (
	"os"
	"strings"
	"testing"
	"time"
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
