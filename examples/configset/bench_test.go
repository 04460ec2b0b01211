package configset_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/clustersim/clustersim/examples/configset"
	"github.com/clustersim/clustersim/harness"
)

// benchConfig judges the benchmark's runs as the tests judge theirs.
func benchConfig(seeds int) harness.Config {
	return harness.Config{
		Seeds:      seeds,
		Invariants: []harness.Invariant{configset.OneConfigMapPerConfigSet},
		Eventually: []harness.Invariant{configset.InSync},
		Stable:     30 * time.Second,
	}
}

// BenchmarkSeed is one seed of testdata/bench.yaml (one operator, one
// ConfigMap, three faults, two virtual minutes), judged: the time per
// seed on one core.
func BenchmarkSeed(b *testing.B) {
	s, err := harness.Load("testdata/bench.yaml")
	if err != nil {
		b.Fatal(err)
	}
	cfg := benchConfig(1)
	seed := uint64(0)
	for b.Loop() {
		seed++
		v, err := harness.Run(s, seed, cfg)
		if err != nil || !v.Passed() {
			b.Fatalf("seed %d: %v %v", seed, err, v.Failures)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/seed")
}

// BenchmarkSwarm1000 is a swarm of 1,000 seeds of testdata/bench.yaml on
// every core (GOMAXPROCS workers): the wall time of 1,000 seeds.
func BenchmarkSwarm1000(b *testing.B) {
	s, err := harness.Load("testdata/bench.yaml")
	if err != nil {
		b.Fatal(err)
	}
	cfg := benchConfig(1000)
	for b.Loop() {
		vs, err := harness.Swarm(s, cfg)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range vs {
			if !v.Passed() {
				b.Fatalf("seed %d: %v", v.Seed, v.Failures)
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/1000seeds")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "workers")
}
