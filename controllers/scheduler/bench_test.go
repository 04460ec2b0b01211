package scheduler

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkScheduleCycle measures one scheduling cycle (filter, score,
// select, assume) on a 5,000-node cluster across 3 zones, where the
// adaptive percentageOfNodesToScore searches 10% of the nodes: the
// scheduler's own cost per pod, without the API round trips.
func BenchmarkScheduleCycle(b *testing.B) {
	c := newCache()
	for i := range 5000 {
		n := testNode(fmt.Sprintf("node-%04d", i), rl("cpu", "64", "memory", "256Gi", "pods", "110"))
		n.Labels[labelZone] = fmt.Sprintf("zone-%d", i%3)
		c.setNode(n)
	}
	s := &scheduler{cache: c, rng: rand.New(rand.NewPCG(1, 1))}
	s.opts.defaults()
	pod := testPod("p", rl("cpu", "100m", "memory", "128Mi"))
	i := 0
	start := time.Now()
	for b.Loop() {
		p := pod.DeepCopyObject().(*api.Pod)
		p.Name = fmt.Sprintf("p-%d", i)
		p.UID = api.UID(p.Name)
		i++
		node, err := s.schedule(p, "")
		if err != nil {
			b.Fatal(err)
		}
		s.cache.assume(p, node)
	}
	b.ReportMetric(float64(i)/time.Since(start).Seconds(), "pods/s")
}
