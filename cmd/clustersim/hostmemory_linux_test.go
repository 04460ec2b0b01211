package main

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"
)

// BenchmarkHostMemoryLatency measures the host, not clustersim: how long
// one read takes when each read's address comes from the one before (a
// pointer chase, as the simulation's first reads of a record are) over a
// region of a given size, one read a cache line, in an order drawn at
// random. The region is advised for huge pages before it is touched, as
// the simulation's heap is (hugepages_linux.go). ns/op is nanoseconds a
// read.
//
// The scale probe's per-message cost grows with the cluster although its
// work per message does not (docs/PERFORMANCE.md, fifty-seventh pass):
// a 300-node run's heap spans some 400 MB, a 3,000-node run's some 3.4
// GB, and on a host where a read over the larger span costs more, every
// first read of a record does. This puts a figure on "costs more" for
// the host the other benchmarks ran on; record it beside them.
func BenchmarkHostMemoryLatency(b *testing.B) {
	for _, mib := range []int{4, 16, 64, 256, 1024, 2048} {
		// Built at the region's first call, not at every call the
		// benchmark makes to find its b.N, and dropped after it.
		var next []uint64
		b.Run(fmt.Sprintf("region=%dMiB", mib), func(b *testing.B) {
			if next == nil {
				next = chaseRing(b, mib<<20)
			}
			b.ResetTimer()
			i := uint64(0)
			for range b.N {
				i = next[i]
			}
			b.StopTimer()
			if i >= uint64(len(next)) {
				b.Fatalf("the chase left the ring at %d", i)
			}
		})
		next = nil
	}
}

// lineWords is the uint64 words in a 64-byte cache line: the ring uses
// the first word of each line.
const lineWords = 8

// chaseRing returns bytes of memory, advised for huge pages, in which the
// first word of each cache line holds the index of the next line's
// first word, all lines in one cycle (Sattolo's shuffle, from a fixed
// seed: the same order on every run).
func chaseRing(b *testing.B, bytes int) []uint64 {
	next := make([]uint64, bytes/8)
	if err := syscall.Madvise(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(next))), bytes), syscall.MADV_HUGEPAGE); err != nil {
		b.Logf("madvise(MADV_HUGEPAGE): %v (the region stays in small pages)", err)
	}
	lines := len(next) / lineWords
	order := make([]uint32, lines)
	for i := range order {
		order[i] = uint32(i)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := lines - 1; i > 0; i-- {
		j := r.IntN(i) // j < i: one cycle through every line
		order[i], order[j] = order[j], order[i]
	}
	// order is a cyclic permutation: line k's successor is order[k].
	for k, succ := range order {
		next[k*lineWords] = uint64(succ) * lineWords
	}
	return next
}
