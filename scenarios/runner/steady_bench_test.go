package runner_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
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
		stopProfiles := startSteadyProfiles(b)
		runtime.ReadMemStats(&before)
		b.StartTimer()
		if err := ses.Advance(60 * time.Minute); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.ReadMemStats(&after)
		stopProfiles()
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

// steadyProfilesEnv names a directory where BenchmarkNodesSteadyState
// writes profiles of its timed minutes alone (go test's -cpuprofile and
// -memprofile also cover the setup): cpu.prof, and allocs-before.prof
// and allocs-after.prof, whose difference is what those minutes
// allocated (go tool pprof -sample_index=alloc_space -diff_base
// DIR/allocs-before.prof DIR/allocs-after.prof). The last iteration's
// overwrite the others'.
const steadyProfilesEnv = "CLUSTERSIM_STEADY_PROFILES"

// startSteadyProfiles starts the profiles steadyProfilesEnv asks for and
// returns the function that ends them; both do nothing when it is unset.
func startSteadyProfiles(b *testing.B) (stop func()) {
	dir := os.Getenv(steadyProfilesEnv)
	if dir == "" {
		return func() {}
	}
	create := func(name string) *os.File {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			b.Fatal(err)
		}
		return f
	}
	allocs := func(name string) {
		f := create(name)
		defer f.Close()
		runtime.GC() // the allocation profile is as of the last collection
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
	}
	allocs("allocs-before.prof")
	cpu := create("cpu.prof")
	if err := pprof.StartCPUProfile(cpu); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := cpu.Close(); err != nil {
			b.Fatal(err)
		}
		allocs("allocs-after.prof")
	}
}
