package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios"
)

// TestGenerateScale checks that `generate scale` prints a scenario that
// validates.
func TestGenerateScale(t *testing.T) {
	code, out, errOut := runMain("generate", "scale", "--nodes", "30")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	file := filepath.Join(t.TempDir(), "scale.yaml")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runMain("validate", file); code != exitOK {
		t.Fatalf("validate: exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "name: scale-30") || strings.Count(out, "crashNode:") != 1 {
		t.Errorf("unexpected scenario:\n%s", out)
	}
}

// BenchmarkScaleRun runs the whole scale probe (`clustersim generate scale
// --nodes N`, then `clustersim run` on it, report included) for one
// virtual hour at each size. `make bench-scale` runs it (SCALE=300 for
// one size); `make bench` and `make test` leave it out, it is slow. The
// figures and the machine are in docs/PERFORMANCE.md.
func BenchmarkScaleRun(b *testing.B) {
	for _, nodes := range []int{300, 1000, 5000} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			data, err := scenarios.ScaleYAML(scenarios.ScaleProbe{Nodes: nodes})
			if err != nil {
				b.Fatal(err)
			}
			file := filepath.Join(b.TempDir(), "scale.yaml")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if code := Main([]string{"run", file}, io.Discard, io.Discard); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric(float64(nodes*30), "pods")
		})
	}
}
