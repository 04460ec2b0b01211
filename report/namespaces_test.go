package report_test

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/clustersim/clustersim/report"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// teamScenario acts on a Deployment outside the default namespace with
// every step that names one object.
const teamScenario = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: team}
spec:
  duration: 2m
  cluster:
    nodeGroups: [{name: worker, count: 1, capacity: {cpu: "4", memory: 16Gi}}]
  objects:
  - {apiVersion: v1, kind: Namespace, metadata: {name: team}}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web, namespace: team}
    spec:
      replicas: 1
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: nginx, image: "nginx:1.14.2"}]}
  timeline:
  - {at: 10s, scale: {kind: deployment, namespace: team, name: web, replicas: 2}}
  - {at: 15s, setImage: {deployment: team/web, container: nginx, image: "nginx:1.16.1"}}
  - {at: 30s, get: {kind: pods, allNamespaces: true}}
  - {at: 30s, get: {kind: events, allNamespaces: true}}
  - {at: 31s, describe: {kind: deployment, namespace: team, name: web}}
  - {at: 32s, rolloutStatus: team/web}
  - {at: 33s, events: {for: {kind: deployment, namespace: team, name: web}}}
  - {at: 34s, edit: {kind: deployment, namespace: team, name: web, patch: {metadata: {labels: {tier: front}}}}}
  - {at: 35s, rolloutPause: team/web}
  - {at: 36s, rolloutResume: team/web}
  - {at: 37s, rolloutRestart: team/web}
  - {at: 50s, rolloutUndo: {deployment: team/web}}
  - {at: 60s, deletePod: {namespace: team, selector: app=web}}
  - {at: 70s, delete: {kind: deployment, namespace: team, name: web}}
`

// TestCommandsNameTheNamespace runs steps on objects in namespace team:
// every kubectl command line printed for them carries -n team, so that
// typed as shown it acts on the same object; get -A prints the NAMESPACE
// column, as kubectl get -A does.
func TestCommandsNameTheNamespace(t *testing.T) {
	s, err := scenarios.Load("team.yaml", ".", fstest.MapFS{}, []byte(teamScenario))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	kubectl, all := 0, 0
	for _, e := range res.Entries {
		if e.Err != "" {
			t.Errorf("%s: %s", e.Command, e.Err)
		}
		if strings.HasSuffix(e.Command, " -A") {
			all++
			continue
		}
		if !strings.HasPrefix(e.Command, "kubectl ") {
			continue
		}
		kubectl++
		cmd := e.Command
		if sub, ok := strings.CutPrefix(cmd, "kubectl delete pod $("); ok {
			// both the delete and the get inside it
			if strings.Count(sub, "-n team") != 2 && !strings.Contains(cmd, "kubectl -n team delete pod $(kubectl -n team get") {
				t.Errorf("%q does not name namespace team in both commands", cmd)
			}
			continue
		}
		if !regexp.MustCompile(`(^| )-n team( |$)`).MatchString(cmd) {
			t.Errorf("%q does not name namespace team: typed as shown it acts on default", cmd)
		}
	}
	if kubectl+all != len(res.Entries) || all != 2 {
		t.Errorf("%d kubectl commands of %d steps", kubectl, len(res.Entries))
	}
	var out bytes.Buffer
	if err := report.Scenario(&out, res); err != nil {
		t.Fatal(err)
	}
	for _, get := range []string{"pods", "events"} {
		_, rest, _ := strings.Cut(out.String(), "$ kubectl get "+get+" -A\n")
		block, _, _ := strings.Cut(rest, "\n\n")
		lines := strings.Split(block, "\n")
		if !regexp.MustCompile(`^NAMESPACE +[A-Z]`).MatchString(lines[0]) || !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "team ") }) {
			t.Errorf("kubectl get %s -A printed no NAMESPACE column:\n%s", get, block)
		}
	}
}
