package nodelifecycle

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkCheckHealth checks one silent node per iteration, the work of
// the health pass per node (without the status write).
func BenchmarkCheckHealth(b *testing.B) {
	n := readyNode(at(100), api.ConditionTrue)
	l := lease(at(120))
	for b.Loop() {
		cp := n.DeepCopy()
		checkHealth(cp, renewTimeOf(l), time.Time{}, at(200), 40*time.Second, 60*time.Second)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/node")
}

// BenchmarkEvictionTime decides the eviction time of a pod with the
// default tolerations on an unreachable node.
func BenchmarkEvictionTime(b *testing.B) {
	added := api.NewTime(at(100))
	taints := []api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute, TimeAdded: &added},
		{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoSchedule}}
	s := int64(300)
	tols := []api.Toleration{
		{Key: api.TaintNodeNotReady, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &s},
		{Key: api.TaintNodeUnreachable, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &s},
	}
	nx := noExecuteTaints(taints)
	for b.Loop() {
		EvictionTime(tols, nx, at(150))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/pod")
}
