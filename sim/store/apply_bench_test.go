package store

import (
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// longListDeployment is a Deployment named web whose pod template has the
// containers c-<from> to c-<to-1>, each with image and one env var.
func longListDeployment(from, to int, image string) *api.Deployment {
	d := deploymentFor(1, image, nil)
	cs := make([]api.Container, 0, to-from)
	for i := from; i < to; i++ {
		cs = append(cs, api.Container{Name: fmt.Sprintf("c-%d", i), Image: image,
			Env: []api.EnvVar{{Name: "MODE", Value: image}}})
	}
	d.Spec.Template.Spec.Containers = cs
	return d
}

// BenchmarkApplyLongList is server-side apply of a Deployment with a long
// container list, as the API server does it (PlanApply, then the update
// with the configuration as Op.Applied). A creator owns the first half
// of the containers (their names, so every apply checks them for
// conflicts); each iteration is two forced applies by another manager:
// all n containers with a new image (the second half added), then the
// first half only with another (the second half removed, as fields the
// applier no longer applies and nobody else owns). Run with -benchtime
// 1x for the large sizes on slow code.
func BenchmarkApplyLongList(b *testing.B) {
	for _, n := range []int{1000, 4000, 8000} {
		b.Run(fmt.Sprintf("containers=%d", n), func(b *testing.B) {
			s := New(kernel.New(1))
			live, err := s.Create(Op{Actor: "creator"}, longListDeployment(0, n/2, "v0"))
			if err != nil {
				b.Fatal(err)
			}
			apply := func(cfg *api.Deployment) {
				merged, _, err := s.PlanApply(live, cfg, "applier")
				if err != nil {
					b.Fatal(err)
				}
				if live, err = s.Update(Op{Actor: "applier", FieldManager: "applier", Applied: cfg}, merged, ""); err != nil {
					b.Fatal(err)
				}
			}
			for b.Loop() {
				apply(longListDeployment(0, n, "v1"))
				apply(longListDeployment(0, n/2, "v2"))
			}
			if got := len(live.(*api.Deployment).Spec.Template.Spec.Containers); got != n/2 {
				b.Fatalf("%d containers after the applies, want %d", got, n/2)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(2*b.N), "ns/apply")
		})
	}
}
