package hpa

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkResourceReplicas runs the replica calculation over 100 pods
// with samples, the work of one autoscaler's sync.
func BenchmarkResourceReplicas(b *testing.B) {
	levels := make([]int64, 100)
	for i := range levels {
		levels[i] = int64(100 + i%50)
	}
	tc := calcCase{current: 100, requests: ones(100), levels: levels}
	pods := tc.pods()
	for b.Loop() {
		if _, _, _, err := testCalc.resourceReplicas(pods, tc.metrics(), 100, 50, api.ResourceCPU, tolerances{0.1, 0.1}, testNow); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pods)), "ns/pod")
}
