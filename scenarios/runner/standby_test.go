package runner_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// standbyTakeover cuts the Deployment controller off the API server from
// 1m to 4m, with one standby replica of it running elsewhere, and sets a
// new image at 1m5s.
const standbyTakeover = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: standby}
spec:
  duration: 5m
  cluster:
    nodeGroups: [{name: node, count: 3, capacity: {cpu: "4", memory: 8Gi}}]
  network:
    default: {latency: 1ms}
  controllers:
    deployment: {standbys: %d}
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
  timeline:
  - {at: 1m, partition: {name: cut, a: [controller/deployment], b: [apiserver]}}
  - {at: 1m5s, setImage: {deployment: web, container: web, image: nginx:1.16.1}}
  - {at: 4m, heal: cut}
  expect:
  - rolloutComplete: {deployment: web, after: 1m6s, within: 2m}
`

// TestStandbyTakesOver: with a standby replica, the Deployment
// controller cut off at 1m loses its lease (renewDeadline) and the
// standby, which saw the lease stop changing, acquires it leaseDuration
// (15s) later and finishes the rollout during the partition; the
// takeover is a line of the run's output. Without a standby the rollout
// waits for the heal. Planted: a standby with the leader's own identity
// (control-plane_1) took the lease for its own, never took it over, and
// failed the test. A standby of a controller that elects no leader is an
// error, and so is a count over scenarios.MaxStandbys.
func TestStandbyTakesOver(t *testing.T) {
	for _, tc := range []struct{ settings, err string }{
		{"app-operator: {standbys: 1}", "spec.controllers.app-operator.standbys: app-operator elects no leader"},
		{"deployment: {standbys: 5}", "spec.controllers.deployment.standbys: must be between 0 and 4"},
	} {
		src := strings.Replace(standbyTakeover, "deployment: {standbys: %d}", tc.settings, 1)
		s, err := scenarios.Load("standby.yaml", ".", nil, []byte(src))
		if err == nil {
			_, err = runner.Run(s, runner.Options{})
		}
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.settings, err, tc.err)
		}
	}
	for _, standbys := range []int{0, 1} {
		src := strings.Replace(standbyTakeover, "%d", string(rune('0'+standbys)), 1)
		res := runDoc(t, "standby.yaml", src, runner.Options{})
		var took []time.Duration
		for _, e := range res.Entries {
			if e.System && strings.Contains(e.Command, "deployment/standby-1 acquired lease kube-system/kube-controller-manager-deployment as control-plane-2_1: the standby leads now") {
				took = append(took, e.At)
			}
		}
		if standbys == 0 {
			if res.Passed() || len(took) > 0 {
				t.Errorf("without a standby the rollout completed during the partition (%v) or a standby took over (%v)", res.Expectations, took)
			}
			continue
		}
		if !res.Passed() {
			t.Errorf("with a standby the rollout did not complete during the partition: %+v", res.Expectations)
		}
		// The leader renewed last just before 1m; the standby polls every
		// 2 to 4.4s, so it has seen the last renewal by 1m5s and takes
		// over 15s after it saw it change, at its next poll.
		if len(took) != 1 || took[0] < time.Minute+13*time.Second || took[0] > time.Minute+25*time.Second {
			t.Errorf("the standby took the lease over at %v, want once, 13s to 25s after the cut at 1m", took)
		}
	}
}
