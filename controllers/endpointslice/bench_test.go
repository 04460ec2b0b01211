package endpointslice

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkReconcile is one sync of a Service of 1000 pods whose slices
// (ten of 100) hold every endpoint but one pod's, which turned ready:
// the work of a sync after one pod change.
func BenchmarkReconcile(b *testing.B) {
	svc := newService()
	ps := pods(1000)
	var existing []*api.EndpointSlice
	for i := range 10 {
		existing = append(existing, existingSlice(i, svc, ps[i*100:(i+1)*100]))
	}
	changed := *ps[3]
	changed.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue}}
	ps[3] = &changed
	for b.Loop() {
		if p := Reconcile(svc, ps, nodes, existing, 100); len(p.Update) != 1 {
			b.Fatalf("%d updates, want 1", len(p.Update))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ps)), "ns/pod")
}
