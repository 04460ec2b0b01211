package runner_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// daemonSetScenario: three 2-CPU nodes and one tainted node; an agent
// DaemonSet asking 500m CPU per node and a web Deployment of four 1-CPU
// pods; at 5m the agent's image changes, at 11m `get daemonsets`.
const daemonSetScenario = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: daemonset}
spec:
  seed: 1
  duration: 12m
  measure: {ignore: [Node]}
  cluster:
    nodeGroups:
    - {name: n, count: 3, capacity: {cpu: "2", memory: 8Gi}}
    - {name: gpu, count: 1, capacity: {cpu: "2", memory: 8Gi}, taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}
  objects:
  - apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec:
          containers:
          - name: agent
            image: nginx:1.14.2
            resources: {requests: {cpu: 500m, memory: 128Mi}}
%s
  timeline:
  - at: 5m
    edit: {kind: daemonset, name: agent, patch: {spec: {template: {spec: {containers: [{name: agent, image: "nginx:1.16.1", resources: {requests: {cpu: 500m, memory: 128Mi}}}]}}}}}
  - at: 11m
    get: {kind: daemonsets}
  expect:
%s
`

const webFourCPU = `  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 4
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers:
          - name: web
            image: nginx:1.14.2
            resources: {requests: {cpu: "1", memory: 64Mi}}`

// TestDaemonSetOnEveryNode: the agent runs once on each untainted node
// and never on the tainted one, its 500m counts against each node's 2
// CPUs so only three of the four 1-CPU web pods fit (without the agent all
// four would), and the image change rolls over every node.
func TestDaemonSetOnEveryNode(t *testing.T) {
	expect := `  - pods: {selector: app=agent, node: n-1, phase: Running, equals: 1, at: 4m}
  - pods: {selector: app=agent, node: n-2, phase: Running, equals: 1, at: 4m}
  - pods: {selector: app=agent, node: n-3, phase: Running, equals: 1, at: 4m}
  - pods: {selector: app=agent, node: gpu-1, equals: 0, at: 4m}
  - pods: {selector: app=web, phase: Running, equals: 3, at: 4m}
  - pods: {selector: app=web, phase: Pending, equals: 1, at: 4m}`
	runPlacement(t, strings.Replace(strings.Replace(daemonSetScenario, "%s", webFourCPU, 1), "%s", expect, 1))
	// Without the web pods competing for the agent's place, the rolling
	// update replaces every agent pod and the DaemonSet converges.
	res := runPlacement(t, strings.Replace(strings.Replace(daemonSetScenario, "%s", "", 1), "%s",
		`  - pods: {selector: app=agent, phase: Running, equals: 3, at: 10m}
  - converged: {within: 6m}`, 1))
	var ds *api.DaemonSet
	for _, e := range res.Entries {
		if e.Snapshot != nil && e.Snapshot.What == "get" && len(e.Snapshot.Objects) == 1 {
			ds, _ = e.Snapshot.Objects[0].(*api.DaemonSet)
		}
	}
	if ds == nil {
		t.Fatal("get daemonsets listed no DaemonSet")
	}
	want := api.DaemonSetStatus{CurrentNumberScheduled: 3, DesiredNumberScheduled: 3, NumberReady: 3, ObservedGeneration: 2,
		UpdatedNumberScheduled: 3, NumberAvailable: 3}
	if !reflect.DeepEqual(ds.Status, want) {
		t.Errorf("status at 11m = %+v, want %+v", ds.Status, want)
	}
}

// TestDaemonSetSurge: with maxSurge 1 (maxUnavailable 0) the image change
// starts the new agent pod beside the old one on one node at a time, the
// old pod going once the new one is available; the update completes.
func TestDaemonSetSurge(t *testing.T) {
	doc := strings.Replace(daemonSetScenario, "      selector: {matchLabels: {app: agent}}\n",
		"      selector: {matchLabels: {app: agent}}\n      updateStrategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}\n", 1)
	expect := `  - pods: {selector: app=agent, node: n-1, equals: 2, at: 5m2s}
  - pods: {selector: app=agent, node: n-2, equals: 1, at: 5m2s}
  - pods: {selector: app=agent, node: n-3, equals: 1, at: 5m2s}
  - pods: {selector: app=agent, phase: Running, equals: 3, at: 10m}
  - converged: {within: 6m}`
	runPlacement(t, strings.Replace(strings.Replace(doc, "%s", "", 1), "%s", expect, 1))
}
