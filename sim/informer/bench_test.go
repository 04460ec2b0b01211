package informer_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// BenchmarkFanOut measures one write delivered to N informers watching the
// same kind through the Direct transport: each iteration updates one
// ConfigMap, and every informer applies the event to its cache and calls
// its (counting) handler.
func BenchmarkFanOut(b *testing.B) {
	const n = 1000
	k := kernel.New(1)
	st := store.New(k)
	srv := apiserver.New(k, st)
	tr := client.NewDirect(srv)
	handle := func(req *apiserver.Request) {
		req.Actor = system
		if resp := srv.Handle(req); resp.Err != nil {
			b.Fatal(resp.Err)
		}
	}
	handle(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindNamespace, Object: &api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}})
	handle(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindConfigMap, Object: configMap("default", "hot", nil)})
	delivered := 0
	count := informer.HandlerFuncs{UpdateFunc: func(_, _ api.Object) { delivered++ }}
	infs := make([]*informer.Informer, n)
	for i := range infs {
		inf, err := informer.New(k, tr, informer.Config{Name: fmt.Sprintf("node-%04d", i), Actor: system}, api.KindConfigMap, informer.Options{})
		if err != nil {
			b.Fatal(err)
		}
		inf.AddEventHandler(count)
		inf.Start()
		infs[i] = inf
	}
	k.Run(kernel.Limits{Until: kernel.Time(time.Second)})
	for _, inf := range infs {
		if !inf.HasSynced() {
			b.Fatal("informer not synced")
		}
	}
	cur, _ := st.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "hot"})
	i := 0
	for b.Loop() {
		cm := cur.DeepCopyObject().(*api.ConfigMap)
		cm.Data = map[string]string{"v": fmt.Sprint(i)}
		i++
		resp := srv.Handle(&apiserver.Request{Verb: apiserver.Update, Kind: api.KindConfigMap, Actor: system, Object: cm})
		if resp.Err != nil {
			b.Fatal(resp.Err)
		}
		cur = resp.Object
	}
	if delivered != i*n {
		b.Fatalf("%d deliveries, want %d", delivered, i*n)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(delivered), "ns/event")
	b.ReportMetric(float64(n), "informers")
}
