package main

import (
	"sync/atomic"
	"testing"

	"github.com/clustersim/clustersim/sim/kernel"
)

// TestParallelInlinesSinks: the worker pool runs a simulation on every
// processor, so the sinks its simulations make consume on their own
// goroutine (kernel.InlineSinks). One job alone leaves them beside the
// loop, and the pool leaves the setting as it found it.
func TestParallelInlinesSinks(t *testing.T) {
	sinkInline := func() bool { return kernel.NewSink(1, func(*[]int) {}, func(*[]int) {}).Inline() }
	for _, tc := range []struct {
		n, jobs int
		want    bool
	}{{4, 2, true}, {4, 1, false}, {1, 4, false}} {
		var inlined, besides atomic.Int32
		parallel(tc.n, tc.jobs, func(int) {
			if sinkInline() {
				inlined.Add(1)
			} else {
				besides.Add(1)
			}
		})
		if tc.want && (inlined.Load() != int32(tc.n) || besides.Load() != 0) || !tc.want && inlined.Load() != 0 {
			t.Errorf("parallel(%d, %d): %d sinks inline, %d beside the loop; want all inline: %t", tc.n, tc.jobs, inlined.Load(), besides.Load(), tc.want)
		}
	}
	if sinkInline() {
		t.Error("after the pool, sinks are still inline")
	}
}
