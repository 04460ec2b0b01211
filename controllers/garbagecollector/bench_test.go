package garbagecollector_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/garbagecollector"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/store"
)

// BenchmarkCascade measures the collector alone deleting the 500 pods of
// a ReplicaSet deleted in the background, on a perfect network: from the
// informers' first list to the last pod gone, in pods per second of wall
// time.
func BenchmarkCascade(b *testing.B) {
	const pods = 500
	for b.Loop() {
		c, err := cluster.New(cluster.Config{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		rs := loadFrontend(b)
		if err := c.Bootstrap(rs); err != nil {
			b.Fatal(err)
		}
		stored, _ := c.Store.Get(api.KindReplicaSet, rsKey)
		ref := api.NewControllerRef(stored)
		for i := range pods {
			p := &api.Pod{
				TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
				ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("frontend-%03d", i), Namespace: "default",
					Labels: map[string]string{"tier": "frontend"}, OwnerReferences: []api.OwnerReference{ref}},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "nginx", Image: "nginx"}}},
			}
			if err := c.Bootstrap(p); err != nil {
				b.Fatal(err)
			}
		}
		if _, _, err := c.Store.Delete(rsDeleteOp, api.KindReplicaSet, rsKey, rsDeleteOpts); err != nil {
			b.Fatal(err)
		}
		m := c.AddManager("kube-controller-manager/garbage-collector", garbagecollector.Actor, func(m *controller.Manager) error {
			return garbagecollector.Setup(m, garbagecollector.Options{})
		})
		if err := m.Start(); err != nil {
			b.Fatal(err)
		}
		c.RunFor(time.Minute)
		if n := c.Store.Len(api.KindPod); n != 0 {
			b.Fatalf("%d pods left", n)
		}
	}
	b.ReportMetric(float64(pods*b.N)/b.Elapsed().Seconds(), "pods/s")
}

var (
	rsDeleteOp   = store.Op{Actor: "admin"}
	rsDeleteOpts = store.DeleteOptions{Propagation: store.PropagateBackground}
)
