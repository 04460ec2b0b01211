package cluster

import (
	"runtime"
	"testing"
	"time"
)

// TestDemoIsDeterministic runs the demo (many processes, a lossy network,
// retries, a controller crash) twice per GOMAXPROCS setting and requires
// the same trace hash every time. `make test` also runs it under -race.
func TestDemoIsDeterministic(t *testing.T) {
	prev := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(prev)
	var hashes []string
	for _, procs := range []int{1, 2, 1, 2} {
		runtime.GOMAXPROCS(procs)
		res, err := RunDemo(DemoConfig{Seed: 7, Duration: 5 * time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, res.TraceHash)
	}
	for i, h := range hashes[1:] {
		if h != hashes[0] {
			t.Fatalf("run %d hash %s differs from run 0 hash %s", i+1, h, hashes[0])
		}
	}
	other, err := RunDemo(DemoConfig{Seed: 8, Duration: 5 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if other.TraceHash == hashes[0] {
		t.Fatalf("seeds 7 and 8 gave the same trace")
	}
}

// TestDemoConverges checks the point of the demo: despite drops,
// duplicates, lost watch events and a crash, the level-triggered publisher
// ends with every namespace holding a correct ConfigMap, and the faults
// really happened.
func TestDemoConverges(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		res, err := RunDemo(DemoConfig{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if res.Published != res.Namespaces {
			t.Errorf("seed %d: %d of %d namespaces hold kube-root-ca.crt", seed, res.Published, res.Namespaces)
		}
		if res.Namespaces < 8 {
			t.Errorf("seed %d: only %d namespaces: users did not create any", seed, res.Namespaces)
		}
		if res.Network.Dropped() == 0 || res.Timeouts == 0 {
			t.Errorf("seed %d: no faults exercised (dropped %d, timeouts %d)", seed, res.Network.Dropped(), res.Timeouts)
		}
		if res.CounterGot < res.CounterWant {
			t.Errorf("seed %d: counter %d below the %d increments users saw succeed: a lost update", seed, res.CounterGot, res.CounterWant)
		}
	}
}
