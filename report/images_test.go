package report_test

import (
	"bytes"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/clustersim/clustersim/report"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// TestAssumedImages: with no spec.registry, images no registry knows
// pull (the pods run) and the report names them once, sorted and
// normalized, however many pods pulled them; a listed registry assumes
// nothing and the report says nothing of it.
func TestAssumedImages(t *testing.T) {
	const doc = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: assumed}
spec:
  duration: 1m%s
  cluster:
    nodeGroups: [{name: worker, count: 2, capacity: {cpu: "4", memory: 16Gi}}]
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: shop}
    spec:
      replicas: 3
      selector: {matchLabels: {app: shop}}
      template:
        metadata: {labels: {app: shop}}
        spec: {containers: [{name: cart, image: "gcr.io/acme/cart:v1"}, {name: redis, image: "redis:alpine"}, {name: app, image: acme/app}]}
  timeline:
  - {at: 50s, get: {kind: pods}}
`
	tests := []struct {
		name, registry string
		line           string
		running        int
	}{
		{"no registry", "", "images assumed to exist (spec.registry lists none):\n  docker.io/acme/app:latest\n  gcr.io/acme/cart:v1\n", 3},
		{"registry listed", "\n  registry: {images: [{name: redis, tags: [alpine]}]}", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scenarios.Load("assumed.yaml", ".", fstest.MapFS{}, []byte(strings.Replace(doc, "%s", tc.registry, 1)))
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(s, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := report.Scenario(&out, res); err != nil {
				t.Fatal(err)
			}
			text := out.String()
			n := strings.Count(text, "images assumed")
			if tc.line == "" && n != 0 || tc.line != "" && (n != 1 || !strings.Contains(text, tc.line)) {
				t.Errorf("report says %d times which images were assumed, want line %q:\n%s", n, tc.line, text)
			}
			if got := strings.Count(text, "Running"); got != tc.running {
				t.Errorf("%d pods Running, want %d:\n%s", got, tc.running, text)
			}
		})
	}
}
