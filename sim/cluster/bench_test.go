package cluster

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
)

// BenchmarkRequest measures simulated API requests end to end: a client in
// a kernel process calls the API server across the simulated network
// (latency 1-5 ms of virtual time, no faults) and blocks until the reply;
// the server authorizes, defaults, admits, validates, stores, audits and
// notifies watchers. Target: at least 200,000 requests/s of wall time.
func BenchmarkRequest(b *testing.B) {
	for _, verb := range []string{"get", "update-status", "create"} {
		b.Run(verb, func(b *testing.B) {
			c, err := New(Config{Seed: 1, Link: netsim.LinkConfig{Latency: netsim.Latency{Base: time.Millisecond, Jitter: 4 * time.Millisecond}}})
			if err != nil {
				b.Fatal(err)
			}
			cm := &api.ConfigMap{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, ObjectMeta: api.ObjectMeta{Name: "bench", Namespace: "default"}, Data: map[string]string{"k": "v"}}
			pod := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "bench", Namespace: "default", Labels: map[string]string{"app": "web"}},
				Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "web", Image: "nginx:1.14.2"}}}}
			if err := c.Bootstrap(cm, pod); err != nil {
				b.Fatal(err)
			}
			cl := c.Client("user/bench", "system:bench")
			ctx := context.Background()
			key := api.Key{Namespace: "default", Name: "bench"}
			done := 0
			var failed error
			c.Go("bench", func(p *kernel.Process) {
				phases := []api.PodPhase{api.PodPending, api.PodRunning}
				var cur api.Object
				for i := 0; ; i++ {
					var err error
					switch verb {
					case "get":
						_, err = cl.Get(ctx, api.KindConfigMap, key)
					case "update-status":
						if cur == nil {
							cur, err = cl.Get(ctx, api.KindPod, key)
						}
						if err == nil {
							upd := cur.(*api.Pod)
							upd.Status.Phase = phases[i&1]
							cur, err = cl.UpdateStatus(ctx, upd)
						}
					case "create":
						_, err = cl.Create(ctx, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("cm-", i), Namespace: "default"}})
					}
					if err != nil && failed == nil {
						failed = err
					}
					done++
				}
			})
			b.ReportAllocs()
			b.ResetTimer()
			start := done
			for b.Loop() {
				for target := done + 1; done < target; {
					c.K.Run(kernel.Limits{MaxEvents: 1})
				}
			}
			if failed != nil {
				b.Fatal(failed)
			}
			b.ReportMetric(float64(done-start)/b.Elapsed().Seconds(), "requests/s")
		})
	}
}
