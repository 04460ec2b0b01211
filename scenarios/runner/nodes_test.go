package runner

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/clustersim/clustersim/scenarios"
)

// TestRegistryPullTime checks that spec.registry.pullTime is the pull time
// of every image, the built-in registry's when no image is listed, and
// that an image's own pullTime wins.
func TestRegistryPullTime(t *testing.T) {
	tests := []struct {
		name     string
		registry string
		ref      string
		want     time.Duration
	}{
		{"built-in images, registry pull time", "{pullTime: 7s}", "nginx:1.14.2", 7 * time.Second},
		{"built-in images, another one", "{pullTime: 7s}", "registry.k8s.io/pause:3.10", 7 * time.Second},
		{"listed image, registry pull time", "{pullTime: 7s, images: [{name: nginx, tags: [\"1.14.2\"]}]}", "nginx:1.14.2", 7 * time.Second},
		{"listed image, its own pull time", "{pullTime: 7s, images: [{name: nginx, tags: [\"1.14.2\"], pullTime: 4s}]}", "nginx:1.14.2", 4 * time.Second},
		{"listed image, default pull time", "{images: [{name: nginx, tags: [\"1.14.2\"]}]}", "nginx:1.14.2", scenarios.DefaultPullTime},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := "apiVersion: clustersim.dev/v1alpha1\nkind: Scenario\nmetadata: {name: pull}\nspec:\n  duration: 1m\n  registry: " + tc.registry + "\n"
			s, err := scenarios.Load("pull.yaml", ".", fstest.MapFS{}, []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			reg, err := s.ImageRegistry()
			if err != nil {
				t.Fatal(err)
			}
			img, err := reg.Resolve(tc.ref)
			if err != nil {
				t.Fatal(err)
			}
			if img.PullTime != tc.want {
				t.Errorf("%s pulls in %v, want %v", tc.ref, img.PullTime, tc.want)
			}
		})
	}
}
