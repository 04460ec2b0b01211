package runner_test

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// percentageDoc is 100 small nodes whose names sort before those of 100
// large ones, and one pod that fits either. The scheduler's first cycle
// searches the nodes of a zone in their names' order from the first, so
// where it stops decides where the pod goes: NodeResourcesFit's
// LeastAllocated scores a large node higher.
const percentageDoc = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: percentage}
spec:
  duration: 1m
  cluster:
    nodeGroups:
    - {name: a-small, count: 100, capacity: {cpu: "2", memory: 8Gi, pods: "110"}}
    - {name: b-large, count: 100, capacity: {cpu: "16", memory: 64Gi, pods: "110"}}
  controllers: %s
  objects:
  - apiVersion: v1
    kind: Pod
    metadata: {name: p}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`

// TestPercentageOfNodesToScore: spec.controllers.scheduler's
// percentageOfNodesToScore sets how many feasible nodes a scheduling
// cycle finds before it scores them. At 200 nodes upstream's adaptive
// default is 50 - 200/125 = 49%, 98 nodes, raised to its minimum of 100:
// the small ones alone, so the pod lands on one of them; so does 10%
// (20 nodes, raised to the same 100). At 75% (150 nodes) and 100% the
// search reaches the large ones, which score higher.
func TestPercentageOfNodesToScore(t *testing.T) {
	for _, tc := range []struct {
		settings string
		group    string
	}{
		{"{}", "a-small-"},
		{"{scheduler: {percentageOfNodesToScore: 0}}", "a-small-"},
		{"{scheduler: {percentageOfNodesToScore: 10}}", "a-small-"},
		{"{scheduler: {percentageOfNodesToScore: 75}}", "b-large-"},
		{"{scheduler: {percentageOfNodesToScore: 100}}", "b-large-"},
	} {
		t.Run(tc.settings, func(t *testing.T) {
			res := runDoc(t, "percentage.yaml", strings.Replace(percentageDoc, "%s", tc.settings, 1), runner.Options{})
			node := ""
			for _, a := range res.Audit {
				if a.Kind != api.KindPod || a.Key.Name != "p" {
					continue
				}
				for c := range a.EachChange() {
					if c.Path == "spec.nodeName" {
						node = c.New
					}
				}
			}
			if !strings.HasPrefix(node, tc.group) {
				t.Errorf("pod p bound to %q, want a node of %s", node, strings.TrimSuffix(tc.group, "-"))
			}
		})
	}
}
