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

// BenchmarkSubsetsOnePodChanged is a sync of the endpoints controller as
// a Service of 1000 pods (one in ten not ready) has them while its pods
// change one at a time: each sync follows one pod's replacement (its
// readiness flipped), as the informer delivers it. "fresh" computes the
// subsets from every pod (Subsets), "memo" through the Service's memo.
func BenchmarkSubsetsOnePodChanged(b *testing.B) {
	svc := service(func(s *api.Service) { s.Spec.Ports[0].TargetPort = api.FromString("http") })
	pods := make([]*api.Pod, 1000)
	ip := func(i int) string { return fmt.Sprintf("10.%d.%d.%d", 244+i/65536, i/256%256, i%256) }
	for i := range pods {
		pods[i] = testPod(fmt.Sprintf("p%04d", i), ip(i), i%10 != 0)
	}
	key := api.Key{Namespace: "default", Name: "web"}
	for _, way := range []string{"fresh", "memo"} {
		b.Run(way, func(b *testing.B) {
			r := &reconciler{}
			i := 0
			for b.Loop() {
				j := i % len(pods)
				pods[j] = testPod(pods[j].Name, ip(j), !api.IsPodReady(pods[j]))
				i++
				if way == "fresh" {
					Subsets(svc, pods)
				} else {
					r.subsets(key, svc, pods)
				}
			}
		})
	}
}
