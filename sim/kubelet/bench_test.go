package kubelet_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/store"
)

var storeAll = store.ListOptions{}

// fleet is the scale scenario: nodes kubelets with pods pods each, bound
// at the start.
type fleet struct {
	c     *cluster.Cluster
	nodes []*kubelet.Kubelet
}

func newFleet(tb testing.TB, nodes, pods int) *fleet {
	tb.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	f := &fleet{c: c}
	reg := kubelet.DefaultRegistry()
	for n := range nodes {
		name := fmt.Sprintf("node-%03d", n)
		k, err := kubelet.New(c.Net, c.APIEndpoint.Addr(), kubelet.Config{
			NodeName: name,
			Capacity: quantities("cpu", "8", "memory", "32Gi", "pods", "110"),
			PodCIDR:  fmt.Sprintf("10.%d.%d.0/24", 100+n/256, n%256),
			Registry: reg,
			NoEvents: true,
		})
		if err != nil {
			tb.Fatal(err)
		}
		k.Start()
		f.nodes = append(f.nodes, k)
		for i := range pods {
			p := boundPod(fmt.Sprintf("%s-pod-%d", name, i), name, "nginx:1.14.2")
			if err := c.Bootstrap(p); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return f
}

func (f *fleet) renewals() uint64 {
	var n uint64
	for _, k := range f.nodes {
		n += k.Stats().Renewals
	}
	return n
}

// TestFleetHour runs 200 kubelets with 10 pods each for an hour of
// virtual time: every pod runs, every node renews its lease every 10s,
// and the hour takes a small fraction of a wall-clock minute.
func TestFleetHour(t *testing.T) {
	if testing.Short() {
		t.Skip("scale run")
	}
	start := time.Now()
	f := newFleet(t, 200, 10)
	f.c.RunFor(time.Hour)
	wall := time.Since(start)
	pods, _, _ := f.c.Store.List(api.KindPod, storeAll)
	running := 0
	for _, o := range pods {
		if o.(*api.Pod).Status.Phase == api.PodRunning {
			running++
		}
	}
	if running != 2000 {
		t.Errorf("%d of 2000 pods running", running)
	}
	// 3600s / ~10.2s per renewal, plus the first: about 353 each.
	for _, k := range f.nodes {
		if r := k.Stats().Renewals; r < 340 || r > 361 {
			t.Errorf("%s renewed %d times in an hour", k.Name(), r)
		}
	}
	t.Logf("200 kubelets x 10 pods, 1h virtual in %v wall (%.0f virtual s per wall s)", wall, 3600/wall.Seconds())
}

// BenchmarkFleetHour measures the scale scenario: virtual seconds per
// wall second, and the allocations of the steady state per lease
// renewal (everything included: the network, the API server, the store).
func BenchmarkFleetHour(b *testing.B) {
	var wall time.Duration
	var allocs, renewals uint64
	for b.Loop() {
		f := newFleet(b, 200, 10)
		f.c.RunFor(5 * time.Minute) // start-up: registrations, pulls, pod starts
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r0 := f.renewals()
		t0 := time.Now()
		f.c.RunFor(time.Hour)
		wall += time.Since(t0)
		runtime.ReadMemStats(&after)
		allocs += after.Mallocs - before.Mallocs
		renewals += f.renewals() - r0
	}
	b.ReportMetric(float64(b.N)*3600/wall.Seconds(), "virtual-s/wall-s")
	b.ReportMetric(float64(allocs)/float64(renewals), "allocs/renewal")
}
