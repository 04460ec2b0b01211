package deployment

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkComputeHash hashes upstream's test template.
func BenchmarkComputeHash(b *testing.B) {
	tmpl := catsTemplate(b, 0)
	collisions := int32(1)
	n := 0
	for b.Loop() {
		ComputeHash(tmpl, &collisions)
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "hashes/s")
}

// BenchmarkRollingUpdate simulates a 30-replica Deployment rolling a new
// image out (25% surge and unavailability) from creation to completion,
// with the stand-in ReplicaSet controller and the fake kubelet.
func BenchmarkRollingUpdate(b *testing.B) {
	var syncs, writes float64
	runs := 0
	for b.Loop() {
		d := nginxDeployment(b)
		d.Spec.Replicas = int32p(30)
		e := newEnv(b, envOptions{seed: 1}, d)
		e.run(30 * time.Second)
		e.update(nginx, setImage("nginx:1.16.1"))
		e.run(2 * time.Minute)
		got := e.deployment(nginx)
		if !DeploymentComplete(got, &got.Status) || got.Status.UpdatedReplicas != 30 {
			b.Fatalf("not complete: %+v", got.Status)
		}
		for _, c := range e.dm.Controllers() {
			syncs += float64(c.Metrics().Reconciles)
		}
		for _, r := range e.c.Store.Audit().Records() {
			if r.Actor == Actor && r.Kind != api.KindEvent {
				writes++
			}
		}
		runs++
	}
	b.ReportMetric(syncs/float64(runs), "syncs/op")
	b.ReportMetric(writes/float64(runs), "controller-writes/op")
}
