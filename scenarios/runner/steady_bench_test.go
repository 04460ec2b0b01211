package runner_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// BenchmarkNodesSteadyState runs the scale probe with one pod a node
// (`clustersim generate scale --nodes N --pods-per-node 1`) at 300 and
// 3,000 nodes from 10 to 60 virtual minutes, after its pods have
// settled (its 1% of nodes crash at 20 minutes): what is left is
// the nodes' upkeep (lease renewals, node status, the node lifecycle
// controller's passes): a quarter to a third of the large probes' runs
// (docs/PERFORMANCE.md, twenty-first pass), and nearly all of their last
// 45 minutes. Besides the time and allocations per run it
// reports them per lease renewal (the audit log's count of the hour's
// renewals), the figures docs/PERFORMANCE.md compares builds by: a
// renewal's allocations are what the collector has to keep up with once
// a large cluster has settled. The first 10 minutes are set up outside
// the timer.
func BenchmarkNodesSteadyState(b *testing.B) {
	// At 3,000 nodes a settled minute of the full probe costs 1.7 times
	// as much a node as at 300 (docs/PERFORMANCE.md, twenty-ninth
	// pass): a change to what a renewal reads is measured there.
	for _, nodes := range []int{300, 3000} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) { benchmarkSteadyState(b, nodes) })
	}
}

func benchmarkSteadyState(b *testing.B, nodes int) {
	data, err := scenarios.ScaleYAML(scenarios.ScaleProbe{Nodes: nodes, PodsPerNode: 1})
	if err != nil {
		b.Fatal(err)
	}
	var renewals int
	var before, after runtime.MemStats
	var mallocs, bytes uint64
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s, err := scenarios.Load("scale.yaml", ".", nil, data)
		if err != nil {
			b.Fatal(err)
		}
		ses, err := runner.Start(s, runner.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := ses.Advance(10 * time.Minute); err != nil {
			b.Fatal(err)
		}
		audit := ses.Cluster().Store.Audit()
		from := audit.Heartbeats().LeaseRenewals
		runtime.ReadMemStats(&before)
		b.StartTimer()
		if err := ses.Advance(60 * time.Minute); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.ReadMemStats(&after)
		renewals += audit.Heartbeats().LeaseRenewals - from
		mallocs += after.Mallocs - before.Mallocs
		bytes += after.TotalAlloc - before.TotalAlloc
		ses.Close()
		b.StartTimer()
	}
	if renewals == 0 {
		b.Fatal("no lease renewals counted")
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(renewals), "ns/renewal")
	b.ReportMetric(float64(mallocs)/float64(renewals), "allocs/renewal")
	b.ReportMetric(float64(bytes)/float64(renewals), "B/renewal")
}
