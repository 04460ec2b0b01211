package kubectl_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/clustersim/clustersim/report/kubectl"
	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkGetPods prints a 1000-pod `kubectl get pods -o wide`.
func BenchmarkGetPods(b *testing.B) {
	base := statusPods()
	objs := make([]api.Object, 0, 1000)
	for i := range 1000 {
		p := base[i%len(base)].DeepCopyObject().(*api.Pod)
		p.Name = fmt.Sprintf("%s-%04d", p.Name, i)
		objs = append(objs, p)
	}
	for b.Loop() {
		if err := kubectl.Get(io.Discard, api.KindPod, objs, now, kubectl.GetOptions{Wide: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(objs))/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkDescribePod describes the richest pod fixture.
func BenchmarkDescribePod(b *testing.B) {
	p, events := richPod()
	for b.Loop() {
		if err := kubectl.Describe(io.Discard, p, kubectl.Related{Events: events}, now); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "describes/s")
}
