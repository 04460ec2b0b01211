//go:build linux

package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// Transparent huge pages for the Go heap. A large run keeps gigabytes
// live (the store, every informer's cache, the audit log) and reaches
// them in no order a cache can predict, so on 4 KiB pages most of its
// memory reads also miss the TLB, and each page the heap grows into is a
// fault of its own. Where the kernel gives huge pages only to memory that
// asks for them (/sys/kernel/mm/transparent_hugepage/enabled set to
// madvise, as on this project's machines and Ubuntu's), Go's heap does
// not ask: the runtime stopped advising huge pages in Go 1.21.1. The
// 3,000-node probe took 67.91 and 77.86 s with the setting at madvise
// and 56.09 and 58.95 s at always (docs/PERFORMANCE.md, eleventh pass);
// adviseHugePages asks for the heap what "always" would give it, as the
// JVM's UseTransparentHugePages does for its heap.
//
// The advice (madvise MADV_HUGEPAGE) belongs to a mapping, and the
// runtime maps its heap a few megabytes at a time as it grows, touching
// each piece as soon as it is mapped: advice given afterwards finds the
// first pages already backed by small ones. So adviseHugePages first
// makes the runtime map hugePageReserve bytes of heap at once (one large
// allocation, never touched: fresh memory is already zero, so the
// runtime does not clear it), advises that mapping and lets the
// allocation go; the heap then grows into memory that was advised before
// its first touch. Beyond that, a goroutine advises what the runtime maps
// later (checked every hugePageScan while the runtime's mapped total
// grows, backing off to hugePageIdle while it does not) and collapses
// what was touched before (MADV_COLLAPSE), and another backs the reserve
// just ahead of the heap so that the simulation does not wait for the
// kernel to zero it (prefault_linux.go).
//
// The costs the Go team weighed when the runtime stopped advising
// (golang/go#61718, #64332) are the ones this accepts for a run that
// keeps its heap: on a machine whose memory is fragmented, a fault in
// advised memory may stall while the kernel compacts; and khugepaged may
// fill the holes the scavenger returned, so the resident set can grow
// past what the heap uses (the 5,000-node probe peaked at 3.84 GiB, under
// its 4 GiB budget).
//
// Memory is laid out, never computed on: what a run computes does not
// change (TestHugePagesKeepTraces). CLUSTERSIM_HUGEPAGES=0 turns it
// off; any value but 0 or 1 is named on standard error and turns it off
// too.
const (
	hugePagesEnv    = "CLUSTERSIM_HUGEPAGES"
	hugePageScan    = 2 * time.Millisecond
	hugePageIdle    = 256 * time.Millisecond
	hugePageBytes   = 2 << 20
	hugePageReserve = 3 << 30
	madvCollapse    = 25 // MADV_COLLAPSE, Linux 6.1; older kernels refuse it, which costs nothing
)

// adviseHugePages starts advising and returns the function that stops
// it. It does nothing when the environment turns it off, on a 32-bit
// build, or when the kernel has no transparent huge pages.
func adviseHugePages() (stop func()) {
	if !hugePagesWanted(os.Getenv(hugePagesEnv), os.Stderr) || strconv.IntSize < 64 {
		return func() {}
	}
	a := &hugePageAdviser{advised: map[mapping]bool{}}
	heap := newHeapInSpans()
	n := reserveBytes()
	base, ok := a.reserve(n)
	if !ok {
		return func() {}
	}
	pf := newPrefaulter(base, n, heap.read())
	done := make(chan struct{})
	var running sync.WaitGroup
	running.Go(func() { a.follow(done) })
	running.Go(func() {
		// A thread of its own at the lowest priority: the zeroing takes
		// a processor only when the simulation and the collector leave
		// one idle. (A locked thread ends with its goroutine.)
		runtime.LockOSThread()
		syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
		pf.run(done, heap.read, populateWrite)
	})
	return func() {
		close(done)
		running.Wait()
	}
}

// hugePagesWanted reads CLUSTERSIM_HUGEPAGES: "" or "1" advise, "0"
// does not; any other value is named on w and leaves the advice off
// rather than guessing what it meant.
func hugePagesWanted(v string, w io.Writer) bool {
	switch v {
	case "", "1":
		return true
	case "0":
		return false
	}
	fmt.Fprintf(w, "clustersim: %s=%q: want 0 (off) or 1 (on); huge pages stay off\n", hugePagesEnv, v)
	return false
}

// reserve has the runtime map n bytes of heap, advises them before
// anything touches them and gives them back to the heap; it returns
// where they start (0 when n is not positive) and false if the kernel
// refuses the advice.
func (a *hugePageAdviser) reserve(n int) (base uintptr, ok bool) {
	if n <= 0 {
		return 0, a.scan()
	}
	block := make([]byte, n)
	base = uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	ok = a.scan()
	runtime.KeepAlive(block)
	block = nil
	runtime.GC() // return it to the heap before the run allocates
	return base, ok
}

// follow advises what the runtime maps later, until done closes. It
// checks whether the runtime's mapped total has grown every hugePageScan
// while it grows, and ever less often, up to every hugePageIdle, while it
// does not (a server waiting for kubectl wakes four times a second, not
// five hundred).
func (a *hugePageAdviser) follow(done <-chan struct{}) {
	mapped := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
	var seen uint64
	pollBackingOff(done, hugePageScan, func() (progressed, more bool) {
		metrics.Read(mapped)
		now := mapped[0].Value.Uint64()
		if now <= seen {
			return false, true
		}
		seen = now
		return true, a.scan()
	})
}

// pollBackingOff calls step every fast while it makes progress and ever
// less often, doubling up to hugePageIdle, while it does not, until done
// closes or step has no more to do. The adviser's and the prefaulter's
// goroutines wait this way.
func pollBackingOff(done <-chan struct{}, fast time.Duration, step func() (progressed, more bool)) {
	wait := fast
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case <-done:
			return
		case <-timer.C:
		}
		progressed, more := step()
		if !more {
			return
		}
		if progressed {
			wait = fast
		} else {
			wait = min(2*wait, hugePageIdle)
		}
		timer.Reset(wait)
	}
}

// reserveBytes is how much heap adviseHugePages has the runtime map
// ahead: hugePageReserve, or a quarter of the memory the process may use
// (the machine's, or its cgroup's limit when lower: machineMemory) if
// that is less, and nothing where the kernel refuses to overcommit (mode
// 2 would count the untouched reserve against the commit limit) or the
// memory cannot be read.
func reserveBytes() int {
	overcommit, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	if err != nil {
		return 0
	}
	return reserveFor(overcommit, machineMemory())
}

// reserveFor is reserveBytes from the text of overcommit_memory and the
// memory the process may use.
func reserveFor(overcommit []byte, memory uint64) int {
	if string(bytes.TrimSpace(overcommit)) == "2" {
		return 0
	}
	if memory/4 < hugePageReserve {
		return int(memory / 4)
	}
	return hugePageReserve
}

type mapping struct{ start, end uintptr }

type hugePageAdviser struct {
	advised map[mapping]bool
}

// scan advises every mapping of /proc/self/maps that qualifies and has
// not been advised, and collapses what of it is already backed; false if
// the maps cannot be read or the kernel refuses the advice (no
// transparent huge pages).
func (a *hugePageAdviser) scan() bool {
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		m, ok := anonymousReadWrite(s.Bytes())
		if !ok || m.end-m.start < hugePageBytes || a.advised[m] {
			continue
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, syscall.MADV_HUGEPAGE); errno == syscall.EINVAL {
			return false // a kernel built without transparent huge pages
		}
		syscall.Syscall(syscall.SYS_MADVISE, m.start, m.end-m.start, madvCollapse)
		a.advised[m] = true
	}
	return true
}

// anonymousReadWrite parses one line of /proc/self/maps ("start-end perms
// offset dev inode [name]") and reports whether it is a private,
// anonymous, read-write mapping: inode 0 and no name, or a name the
// kernel gives anonymous memory ("[anon:...]"), not "[stack]" or a file.
func anonymousReadWrite(line []byte) (mapping, bool) {
	fields := bytes.Fields(line)
	if len(fields) < 5 || string(fields[1]) != "rw-p" || string(fields[4]) != "0" {
		return mapping{}, false
	}
	if len(fields) > 5 && !bytes.HasPrefix(fields[5], []byte("[anon")) {
		return mapping{}, false
	}
	lo, hi, ok := bytes.Cut(fields[0], []byte("-"))
	if !ok {
		return mapping{}, false
	}
	start, err1 := strconv.ParseUint(string(lo), 16, 64)
	end, err2 := strconv.ParseUint(string(hi), 16, 64)
	if err1 != nil || err2 != nil || end <= start {
		return mapping{}, false
	}
	return mapping{uintptr(start), uintptr(end)}, true
}
