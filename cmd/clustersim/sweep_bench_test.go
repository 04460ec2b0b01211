package main

import (
	"flag"
	"io"
	"strconv"
	"testing"
)

var sweepBenchSeeds = flag.Int("sweep.seeds", 100, "BenchmarkSweepOverhead: seeds per grid point (10 points; run --seeds runs 10x as many)")

// BenchmarkSweepOverhead compares the same runs made two ways on a
// 20-node scenario: a sweep of 10 values of a field that does not change
// the simulation (spec.measure.gapSLO) x N seeds, and run --seeds 10N
// (the sweep's points run the same seeds, the run --seeds its seeds
// 1..10N: the same amount of work). The sweep's own cost (loading and
// patching each point, the grid summary) is the difference. make
// bench-sweep runs it; docs/PERFORMANCE.md has the figures.
func BenchmarkSweepOverhead(b *testing.B) {
	const scenario = "testdata/sweep-20-nodes.yaml"
	n := *sweepBenchSeeds
	values := ""
	for i := 1; i <= 10; i++ {
		if i > 1 {
			values += ","
		}
		values += strconv.Itoa(i) + "m"
	}
	b.Run("run-seeds", func(b *testing.B) {
		for b.Loop() {
			if code := Main([]string{"run", scenario, "--seeds", strconv.Itoa(10 * n), "-o", "json"}, io.Discard, io.Discard); code > exitFailed {
				b.Fatalf("exit %d", code)
			}
		}
	})
	b.Run("sweep", func(b *testing.B) {
		for b.Loop() {
			if code := Main([]string{"sweep", scenario, "--set", "spec.measure.gapSLO=" + values, "--seeds", strconv.Itoa(n), "-o", "json"}, io.Discard, io.Discard); code > exitFailed {
				b.Fatalf("exit %d", code)
			}
		}
	})
}
