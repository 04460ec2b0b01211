package apiserver

import (
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// BenchmarkApplyLongContainerList is one server-side apply (the PATCH of
// application/apply-patch+yaml, decoded) of a Deployment with 8,000
// containers through the API server: merge, conflict check, defaulting,
// admission, validation and the store's write with its field ownership.
// Each iteration changes every container's image. The body of such a
// request fits the API's 3 MiB limit (about 60 bytes a container), so
// its cost is what one client can make the event loop pay.
func BenchmarkApplyLongContainerList(b *testing.B) {
	const n = 8000
	k := kernel.New(1)
	srv := New(k, store.New(k))
	ns := &Request{Verb: Create, Kind: api.KindNamespace, Actor: controller, Object: &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}}
	if err := srv.Handle(ns).Err; err != nil {
		b.Fatal(err)
	}
	apply := func(image string) {
		d := deployment("web", 1)
		cs := make([]api.Container, n)
		for i := range cs {
			cs[i] = api.Container{Name: fmt.Sprintf("c-%d", i), Image: image}
		}
		d.Spec.Template.Spec.Containers = cs
		if err := srv.Handle(&Request{Verb: Apply, Kind: api.KindDeployment, Actor: user, Object: d, FieldManager: "kubectl"}).Err; err != nil {
			b.Fatal(err)
		}
	}
	apply("busybox:1.36") // create on apply
	i := 0
	for b.Loop() {
		i++
		apply(fmt.Sprintf("busybox:1.%d", i%2))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/apply")
}
