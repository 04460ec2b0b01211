package controller_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
)

// BenchmarkReconcile measures reconciles through the work queue and worker
// processes: each iteration enqueues a batch of distinct keys and runs the
// kernel until every one has been reconciled by a no-op reconciler.
func BenchmarkReconcile(b *testing.B) {
	const batch = 100
	for _, workers := range []int{1, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			k := kernel.New(1)
			noop := controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
				return controller.Result{}, nil
			})
			c := controller.New(k, "bench", noop, controller.Options{Workers: workers})
			c.Start()
			reqs := make([]controller.Request, batch)
			for i := range reqs {
				reqs[i] = controller.Request{Key: api.Key{Namespace: "default", Name: fmt.Sprintf("obj-%03d", i)}}
			}
			k.Run(kernel.Limits{})
			n := 0
			for b.Loop() {
				for _, r := range reqs {
					c.Enqueue(r)
				}
				k.Run(kernel.Limits{})
				n += batch
			}
			if got := c.Metrics().Reconciles; got != uint64(n) {
				b.Fatalf("%d reconciles, want %d", got, n)
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "reconciles/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/reconcile")
		})
	}
}
