package runner_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/cluster"
)

// windowedDrop: every request of the Deployment controller to the API
// server is lost from 2m to 5m, and the Deployment's image changes at
// 2m30s, inside the window.
const windowedDrop = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: windowed-drop}
spec:
  duration: 9m
  cluster:
    nodeGroups:
    - {name: worker, count: 2, capacity: {cpu: "4", memory: 8Gi}}
  network:
    default: {latency: 1ms}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 3
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers: [{name: nginx, image: "nginx:1.14.2"}]
  timeline:
  - {at: 2m, network: {from: controller/deployment, to: apiserver, link: {drop: 1.0}, until: 5m}}
  - {at: 2m30s, setImage: {deployment: web, container: nginx, image: "nginx:1.16.1"}}
  expect:
  - rolloutComplete: {deployment: web, after: 2m31s, within: 9m}
`

// TestWindowedDrop checks a network step with an end: the Deployment
// controller writes nothing while its requests are lost, and writes (and
// completes the rollout) once the link is restored at 5m.
func TestWindowedDrop(t *testing.T) {
	var c *cluster.Cluster
	res := runDoc(t, "windowed-drop.yaml", windowedDrop, runner.Options{OnStart: func(cl *cluster.Cluster) { c = cl }})
	var in, after int
	for _, a := range res.Audit {
		if a.Actor != deployment.Actor {
			continue
		}
		switch at := a.Time.Duration(); {
		case at >= 2*time.Minute && at < 5*time.Minute:
			in++
		case at >= 5*time.Minute:
			after++
		}
	}
	if in != 0 {
		t.Errorf("%d writes by the Deployment controller from 2m to 5m, want none", in)
	}
	if after == 0 {
		t.Errorf("no write by the Deployment controller after 5m, want some")
	}
	for _, o := range res.Expectations {
		if !o.Passed {
			t.Errorf("%s: %s", o.Name, o.Detail)
		}
	}
	if got := c.Net.Link("controller/deployment", cluster.APIServerAddr).Drop; got != 0 {
		t.Errorf("drop after the window = %v, want 0", got)
	}
	if got := c.Net.Link(cluster.APIServerAddr, "controller/deployment").Drop; got != 0 {
		t.Errorf("drop of the reverse direction = %v, want 0 (not both)", got)
	}
	var cmds []string
	for _, e := range res.Entries {
		if strings.HasPrefix(e.Command, "network") {
			cmds = append(cmds, e.Command)
		}
	}
	want := []string{"network: controller/deployment -> apiserver: drop 1 until 5m0s", "network change ends: controller/deployment -> apiserver"}
	if !slices.Equal(cmds, want) {
		t.Errorf("timeline entries %q, want %q", cmds, want)
	}
}

// TestNetworkStepErrors checks what the loader refuses in a network step,
// at the offending field's line and column.
func TestNetworkStepErrors(t *testing.T) {
	for _, tc := range []struct{ step, want string }{
		{`{at: 2m, network: {from: controller/deploy, to: apiserver, link: {drop: 1}}}`, `windowed-drop.yaml:23:30: spec.timeline[0].network.from: "controller/deploy" matches no endpoint`},
		{`{at: 2m, network: {from: controller/deployment, to: kubelet/x*, link: {drop: 1}}}`, `windowed-drop.yaml:23:57: spec.timeline[0].network.to: "kubelet/x*" matches no endpoint`},
		{`{at: 2m, network: {from: apiserver, to: "kubelet/*", link: {drop: 2}}}`, `spec.timeline[0].network.link.drop: 2 is not a probability`},
		{`{at: 2m, network: {from: apiserver, to: "kubelet/*", link: {}}}`, `spec.timeline[0].network.link: name at least one link field`},
		{`{at: 2m, network: {from: apiserver, to: "kubelet/*", link: {dorp: 1}}}`, `dorp`},
		{`{at: 2m, network: {from: apiserver, to: "kubelet/*", link: {drop: 1}, until: 1m}}`, `spec.timeline[0].network.until: 1m0s is not after the step`},
		{`{at: 2m, network: {from: apiserver, link: {drop: 1}}}`, `spec.timeline[0].network.to: required`},
	} {
		src := strings.Replace(windowedDrop, "  - {at: 2m, network: {from: controller/deployment, to: apiserver, link: {drop: 1.0}, until: 5m}}", "  - "+tc.step, 1)
		_, err := scenarios.Load("windowed-drop.yaml", ".", nil, []byte(src))
		var se *scenarios.Error
		if err == nil || !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.step, err, tc.want)
		}
	}
}
