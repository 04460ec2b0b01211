package endpoints

import (
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkSubsets computes the Endpoints of a service over 1000 pods,
// one in ten not ready: the work of one sync.
func BenchmarkSubsets(b *testing.B) {
	svc := service(func(s *api.Service) { s.Spec.Ports[0].TargetPort = api.FromString("http") })
	pods := make([]*api.Pod, 1000)
	for i := range pods {
		pods[i] = testPod(fmt.Sprintf("p%04d", i), fmt.Sprintf("10.%d.%d.%d", 244+i/65536, i/256%256, i%256), i%10 != 0)
	}
	for b.Loop() {
		Subsets(svc, pods)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(pods)), "ns/pod")
}
