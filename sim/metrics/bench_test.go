package metrics

import (
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// BenchmarkScrape samples a model of 1000 pods, one scrape per iteration.
func BenchmarkScrape(b *testing.B) {
	k := kernel.New(1)
	st := store.New(k)
	web := map[string]string{"app": "web"}
	for i := range 1000 {
		p := pod(fmt.Sprintf("web-%04d", i), web, api.PodRunning, i%10 != 0, "")
		o, err := st.Create(store.Op{Actor: "bench"}, p.DeepCopyObject())
		if err != nil {
			b.Fatal(err)
		}
		cp := o.(*api.Pod).DeepCopy()
		cp.Status = p.Status
		if _, err := st.Update(store.Op{Actor: "bench"}, cp, "status"); err != nil {
			b.Fatal(err)
		}
	}
	src := NewSource(k, st, Options{})
	src.AddModel(Model{Namespace: "default", Selector: api.SelectorFromSet(web), Load: Constant(700), BaseMilli: 5, PerRequestMilli: 1})
	for b.Loop() {
		src.scrape(k.Now())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000, "ns/pod")
}

// BenchmarkScrapeTenModels samples ten models (an HPA for each of ten
// Deployments, as in the scale probe with HPAs) of 900 pods each in one
// namespace, one scrape per iteration.
func BenchmarkScrapeTenModels(b *testing.B) {
	k := kernel.New(1)
	st := store.New(k)
	src := NewSource(k, st, Options{})
	for d := range 10 {
		labels := map[string]string{"app": fmt.Sprintf("app-%d", d), "tier": "scale"}
		for i := range 900 {
			p := pod(fmt.Sprintf("app-%d-%04d", d, i), labels, api.PodRunning, true, "")
			if _, err := st.Create(store.Op{Actor: "bench"}, p); err != nil {
				b.Fatal(err)
			}
		}
		src.AddModel(Model{Namespace: "default", Selector: api.SelectorFromSet(map[string]string{"app": labels["app"]}), Load: Constant(700), BaseMilli: 5, PerRequestMilli: 1})
	}
	for b.Loop() {
		src.scrape(k.Now())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/9000, "ns/pod")
}
