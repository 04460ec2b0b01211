package resourcequota

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// benchPods is the namespace of the 300-node scale probe: 9,000 pods of
// 100m CPU and 256Mi.
func benchPods(n int) []api.Object {
	pods := make([]api.Object, n)
	for i := range pods {
		pods[i] = benchPod(i)
	}
	return pods
}

func benchPod(i int) *api.Pod {
	res := api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustParseQuantity("100m"), "memory": api.MustParseQuantity("256Mi")}}
	p := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Resources: res}}}}
	p.Name, p.Namespace = fmt.Sprintf("pod-%05d", i), "default"
	return p
}

// BenchmarkRecountOnePodChanged recounts a quota of pods, CPU and memory
// over 9,000 pods, one of them replaced before each recount (a pod's
// status written, as each replenishment follows one): through the tally
// and, as before it, every pod's usage afresh.
func BenchmarkRecountOnePodChanged(b *testing.B) {
	q := &api.ResourceQuota{Spec: api.ResourceQuotaSpec{Hard: api.ResourceList{"pods": api.MustParseQuantity("100000"), "requests.cpu": api.MustParseQuantity("1k"), "requests.memory": api.MustParseQuantity("10Ti")}}}
	q.Name, q.Namespace, q.UID, q.Generation = "compute", "default", "uid-1", 1
	key := api.Key{Namespace: "default", Name: "compute"}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, via := range []string{"tally", "recount"} {
		b.Run(via, func(b *testing.B) {
			pods := benchPods(9000)
			r := &Reconciler{Kinds: []api.Kind{api.KindPod}}
			i := 0
			for b.Loop() {
				i = (i + 7919) % len(pods)
				pods[i] = benchPod(i)
				lists := [][]api.Object{pods}
				if via == "tally" {
					r.tallyOf(key, q).used(q, lists, r.usage, now)
				} else {
					recount(r, q, lists, now)
				}
			}
			b.ReportMetric(float64(len(pods))*float64(b.N)/b.Elapsed().Seconds(), "pods/s")
		})
	}
}
