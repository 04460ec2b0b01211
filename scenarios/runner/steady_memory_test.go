package runner_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/store"
)

// TestMemoryFlatInSteadyState checks what issue 11 asks of a settled
// cluster: the memory a run holds stays flat over virtual time. The
// scale probe at 30 nodes and 300 pods (its one node crashed at 20
// minutes included) is measured at four hours, once its Node kind's
// watch history (store.DefaultHistory events) has filled, and at eight:
// over those four hours its nodes renew their leases and post their
// status (some 100,000 writes, counted and not kept), its informers
// reopen their watches every five to ten minutes, and the live heap must
// grow by no more than 2% and 1 MiB (what the audit log's consumer has
// in flight varies by a few hundred KB from run to run). What does grow
// is kept on purpose and small: the reconciles the hot-loop detector
// reads (the node lifecycle controller's check of the crashed node
// every 5 s) and the informers' activity the timeline lists, some 100
// KB an hour here. The API server must hold as many watches at eight
// hours as at four (each informer's reopened watch replaces the one it
// timed out), the audit log must keep no record over those hours (every
// write is a heartbeat), and the writes must have been made, so that
// the test cannot pass on a cluster that stopped.
//
// It fails when a timed-out watch stays registered at the server until
// its kind is next written (the API server's feed before
// Stream.OnClosed: 1,559 watches at four hours and 3,061 at eight,
// against 118; some 200 KB an hour), and when the audit log keeps the
// lease renewals (spec.measure.heartbeats: keep).
func TestMemoryFlatInSteadyState(t *testing.T) {
	data, err := scenarios.ScaleYAML(scenarios.ScaleProbe{Nodes: 30, PodsPerNode: 10})
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenarios.Load("scale.yaml", ".", nil, data)
	if err != nil {
		t.Fatal(err)
	}
	ses, err := runner.Start(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ses.Close()
	audit := ses.Cluster().Store.Audit()
	type sample struct {
		heap                   uint64
		writes, kept, watchers int
		heartbeats             store.Heartbeats
		at                     time.Duration
	}
	measure := func(at time.Duration) sample {
		if err := ses.Advance(at); err != nil {
			t.Fatal(err)
		}
		kept := audit.Len() // waits for the log's consumer
		st := ses.Cluster().Store
		watchers := 0
		for _, k := range st.Kinds().Kinds() {
			watchers += st.RegisteredWatchers(k)
		}
		runtime.GC()
		runtime.GC() // the first may leave finalized objects to the second
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return sample{heap: ms.HeapAlloc, writes: audit.Total(), kept: kept, heartbeats: audit.Heartbeats(), watchers: watchers, at: at}
	}
	settled := measure(4 * time.Hour)
	later := measure(8 * time.Hour)
	for _, m := range []sample{settled, later} {
		t.Logf("at %v: live heap %d B, %d watches registered, %d writes, %d records kept, %d lease renewals and %d node status writes counted", m.at, m.heap, m.watchers, m.writes, m.kept, m.heartbeats.LeaseRenewals, m.heartbeats.NodeStatus)
	}
	if n := later.writes - settled.writes; n < 4*60*6*29 {
		t.Fatalf("%d writes in four hours of 29 live nodes, fewer than their lease renewals alone: the cluster did not keep running", n)
	}
	if later.watchers != settled.watchers {
		t.Errorf("%d watches registered at the API server at %v, %d at %v: the informers reopen their watches, and each must replace the one before", settled.watchers, settled.at, later.watchers, later.at)
	}
	if later.kept != settled.kept {
		t.Errorf("the audit log kept %d records between %v and %v, where a settled cluster writes heartbeats alone", later.kept-settled.kept, settled.at, later.at)
	}
	if limit := settled.heap + settled.heap/50 + 1<<20; later.heap > limit {
		t.Errorf("the live heap grew from %d B at %v to %d B at %v (more than 2%% and 1 MiB): memory is not flat in a steady state", settled.heap, settled.at, later.heap, later.at)
	}
}
