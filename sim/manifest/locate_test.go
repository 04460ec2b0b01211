package manifest_test

import (
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/manifest"
)

// TestHasAndPosition: Has says whether a user wrote a field, zero values
// included; Position points at the deepest node a path reaches.
func TestHasAndPosition(t *testing.T) {
	const src = "spec:\n  burst: 0\n  list:\n  - {name: a, qps: 5}\n  empty: {}\n"
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(src), &root); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path      string
		has       bool
		line, col int
	}{
		{"spec.burst", true, 2, 10},
		{"spec.qps", false, 1, 1},
		{"spec.list[0].qps", true, 4, 20},
		{"spec.list[1].qps", false, 3, 3},
		{"spec.empty", true, 5, 3},
		{"spec.empty.burst", false, 5, 3},
		{"", true, 1, 1},
	} {
		if got := manifest.Has(&root, c.path); got != c.has {
			t.Errorf("Has(%q) = %v, want %v", c.path, got, c.has)
		}
		if line, col := manifest.Position(&root, c.path); line != c.line || col != c.col {
			t.Errorf("Position(%q) = %d:%d, want %d:%d", c.path, line, col, c.line, c.col)
		}
	}
}
