package runner_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// TestFieldPathsAddressAnyKey: field checks and the writes observation
// address annotation and label keys holding dots and slashes, in
// brackets (the audit log's form), quoted, or with escaped dots as
// kubectl's JSONPath writes them. Planted: the old splitter, which cut
// bracketed keys at their dots, failed every bracketed row and the
// writes listing. The same key unescaped (five segments, the third a
// string) is refused when the scenario loads (TestValidateRejects).
func TestFieldPathsAddressAnyKey(t *testing.T) {
	rows := []struct {
		path, equals string
		pass         bool
	}{
		{"metadata.annotations[deployment.kubernetes.io/revision]", "2", true},
		{"metadata.annotations['deployment.kubernetes.io/revision']", "2", true},
		{`metadata.annotations.deployment\.kubernetes\.io/revision`, "2", true},
		{"metadata.labels[app.kubernetes.io/name]", "web", true},
		{"spec.template.metadata.labels[app.kubernetes.io/name]", "web", true},
		{"spec.template.spec.containers[web].image", "nginx:1.16.1", true},
		{"metadata.annotations[deployment.kubernetes.io/revision]", "1", false},
	}
	var expect strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&expect, "  - field: {kind: deployment, name: web, path: %q, equals: %q, at: 2m}\n", r.path, r.equals)
	}
	src := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: paths}
spec:
  duration: 2m
  cluster:
    nodeGroups: [{name: n, count: 2, capacity: {cpu: "4", memory: 8Gi}}]
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web, labels: {app.kubernetes.io/name: web}}
    spec:
      replicas: 2
      selector: {matchLabels: {app.kubernetes.io/name: web}}
      template:
        metadata: {labels: {app.kubernetes.io/name: web}}
        spec: {containers: [{name: web, image: "nginx:1.14.2"}]}
  timeline:
  - {at: 30s, setImage: {deployment: web, container: web, image: "nginx:1.16.1"}}
  - {at: 1m30s, writes: {kind: deployment, name: web, path: 'metadata.annotations.deployment\.kubernetes\.io/revision'}}
  expect:
` + expect.String()
	s, err := scenarios.Load("paths.yaml", ".", nil, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		o := res.Expectations[i]
		if o.Passed != r.pass {
			t.Errorf("%s == %q: passed %v, want %v (%s)", r.path, r.equals, o.Passed, r.pass, o.Detail)
		}
	}
	listed := ""
	for _, e := range res.Entries {
		if strings.HasPrefix(e.Command, "audit log: writes to") {
			listed = strings.Join(e.Lines, "\n")
		}
	}
	if !strings.Contains(listed, "deployment-controller") || !strings.Contains(listed, "1 -> 2") {
		t.Errorf("writes to the revision annotation:\n%s", listed)
	}
}
