package endpointslice

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
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

// BenchmarkReconcileOnePodChanged is a sync of the controller as a
// Service of 1000 pods has them while its pods change one at a time: each
// sync follows one pod's replacement (its readiness flipped), as the
// informer delivers it, and finds the slices (ten of 100) as the sync
// before left them, so that its plan is the one update of the changed
// pod's slice. "fresh" plans from every pod (Reconcile), "memo" through
// the Service's memo.
func BenchmarkReconcileOnePodChanged(b *testing.B) {
	for _, way := range []string{"fresh", "memo"} {
		b.Run(way, func(b *testing.B) {
			svc := newService()
			ps := pods(1000)
			var existing []*api.EndpointSlice
			for i := range 10 {
				existing = append(existing, existingSlice(i, svc, ps[i*100:(i+1)*100]))
			}
			m := informer.MemoOf(&(&reconciler{}).memos, svc.Key())
			i := 0
			for b.Loop() {
				j := i % len(ps)
				i++
				changed := *ps[j]
				status := api.ConditionTrue
				if api.IsPodReady(ps[j]) {
					status = api.ConditionFalse
				}
				changed.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: status}}
				ps[j] = &changed
				var p Plan
				if way == "fresh" {
					p = Reconcile(svc, ps, nodes, existing, 100)
				} else {
					p = m.reconcile(svc, ps, nodes, existing, 100)
				}
				if len(p.Update) != 1 || len(p.Create)+len(p.Delete) != 0 {
					b.Fatalf("%d creates, %d updates, %d deletes; want 1 update", len(p.Create), len(p.Update), len(p.Delete))
				}
				existing[j/100] = p.Update[0]
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ps)), "ns/pod")
		})
	}
}
