package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/clustersim/clustersim/scenarios"
)

// BenchmarkScaleRun runs the whole scale probe (`clustersim generate scale
// --nodes N`, then `clustersim run` on it, report included) for one
// virtual hour at each size. `make bench` runs it; it is too slow for
// `make test`. The figures and the machine are in docs/PERFORMANCE.md.
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
