//go:build linux

package main

import (
	"runtime/metrics"
	"syscall"
	"time"
)

// Backing the heap before the simulation touches it. The kernel backs a
// page of the heap with memory, and zeroes it, the first time the
// process writes to it; in a run whose heap grows to gigabytes that first
// write is the simulation's own, so its one thread waits while the
// kernel zeroes: about 1.7 ms per megabyte on this project's virtual
// machines, some 6 s of the 3,000-node probe's 45 s (perf:
// clear_page_erms under the runtime's allocations). The other processor
// meanwhile idles most of the run (55 s of CPU in 47.5 s of wall time on
// two). So a goroutine keeps the part of the reserve (see
// hugePageAdviser.reserve) just above what the heap has used backed
// ahead of it (madvise MADV_POPULATE_WRITE, Linux 5.14): the zeroing
// moves to the idle processor and the simulation finds its memory ready
// (docs/PERFORMANCE.md, fourteenth pass).
//
// Where the heap will grow next is estimated, not read: the runtime hands
// out the lowest free pages first, so the heap's bytes in spans, counted
// from when the reserve was let go, measure how far into the reserve it
// reaches (after a collection it reuses what it reached before: nothing
// new to back). The estimate errs upward by the free space below the
// reserve (a few megabytes); what is backed ahead of need is at most
// prefaultAhead plus that, the most this adds to a run's resident set,
// and nothing in a run whose heap stays small. Backing is never undone
// and never repeated: if the runtime gives some of it back (its
// scavenger, near the memory limit), the heap faults it in again as it
// would have without this.
//
// Memory is backed, never written: what a run computes does not change
// (TestHugePagesKeepTraces runs with it). It runs with the huge-page
// advice and CLUSTERSIM_HUGEPAGES=0 turns both off; a kernel that refuses
// MADV_POPULATE_WRITE (before 5.14) stops it at its first try.
const (
	prefaultFrom      = 64 << 20 // the heap's growth before backing starts: a small run backs nothing
	prefaultAhead     = 32 << 20
	prefaultScan      = time.Millisecond
	madvPopulateWrite = 23 // MADV_POPULATE_WRITE, Linux 5.14
)

// prefaulter tracks how much of the reserve [base, end) is backed; end
// is the reserve's last whole huge page's end.
type prefaulter struct {
	base, end uintptr
	// backed is where the backed part of the reserve ends.
	backed uintptr
	// start is the heap's bytes in spans when the reserve was let go.
	start uint64
}

// newPrefaulter starts at the reserve [base, base+n) with the heap's
// bytes in spans now.
func newPrefaulter(base uintptr, n int, inSpans uint64) *prefaulter {
	end := max(base, (base+uintptr(n))&^(hugePageBytes-1))
	return &prefaulter{base: base, end: end, backed: base, start: inSpans}
}

// next takes the heap's bytes in spans now and returns the range to back
// next: from the heap's estimated reach, or where the backed part ends
// if that is further, up to prefaultAhead beyond the reach, in whole
// huge pages, within the reserve. The range is empty (from == to) when
// the backed part reaches far enough or the heap has grown less than
// prefaultFrom (the few megabytes of a small run are not worth a
// thread's work, nor prefaultAhead more of resident memory). What lies
// below from the heap has reached: run counts it as backed.
func (p *prefaulter) next(inSpans uint64) (from, to uintptr) {
	reach := uintptr(min(max(inSpans, p.start)-p.start, uint64(p.end-p.base)))
	if reach < prefaultFrom {
		return p.backed, p.backed
	}
	from = max(p.backed, (p.base+reach)&^(hugePageBytes-1))
	to = min((p.base+reach+prefaultAhead)&^(hugePageBytes-1), p.end)
	return from, max(from, to)
}

// heapInSpans is the runtime's bytes in spans in use: objects and the
// unused space of their spans.
type heapInSpans []metrics.Sample

func newHeapInSpans() heapInSpans {
	return heapInSpans{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
}

func (h heapInSpans) read() uint64 {
	metrics.Read(h)
	var n uint64
	for _, s := range h {
		if s.Value.Kind() == metrics.KindUint64 {
			n += s.Value.Uint64()
		}
	}
	return n
}

// run backs the reserve ahead of the heap (inSpans reads its bytes in
// spans) until done closes, the reserve is all backed or populate
// fails. It looks every prefaultScan while the heap grows and ever less
// often, up to every hugePageIdle, while it does not (a server waiting
// for kubectl wakes four times a second). It backs at most one huge page
// per call, so that a stop waits for at most one.
func (p *prefaulter) run(done <-chan struct{}, inSpans func() uint64, populate func(from, n uintptr) bool) {
	if p.backed >= p.end {
		return
	}
	pollBackingOff(done, prefaultScan, func() (progressed, more bool) {
		from, to := p.next(inSpans())
		p.backed = from
		for p.backed < to {
			select {
			case <-done:
				return false, false
			default:
			}
			next := min((p.backed+hugePageBytes)&^(hugePageBytes-1), to)
			if !populate(p.backed, next-p.backed) {
				return false, false
			}
			p.backed = next
		}
		return from < to, p.backed < p.end
	})
}

// populateWrite backs [from, from+n) as a write would; false if the
// kernel refuses (older than 5.14, or the range is not mapped). A signal
// (the profiler's) interrupts it; it then goes on where it stopped.
func populateWrite(from, n uintptr) bool {
	for {
		_, _, errno := syscall.Syscall(syscall.SYS_MADVISE, from, n, madvPopulateWrite)
		if errno != syscall.EINTR {
			return errno == 0
		}
	}
}
