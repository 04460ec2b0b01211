//go:build linux

package main

import (
	"bytes"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

func TestPrefaulterNext(t *testing.T) {
	const (
		mib  = 1 << 20
		base = 0x7f0000000000
		n    = 256 * mib
	)
	// One prefaulter through a run: the heap grows, shrinks, grows past
	// the reserve.
	p := newPrefaulter(base, n, 10*mib)
	for _, step := range []struct {
		name     string
		inSpans  uint64
		from, to uintptr // in MiB from base
	}{
		{"at the start: nothing", 10 * mib, 0, 0},
		{"grown 60 MiB: still a small run, nothing", 70 * mib, 0, 0},
		{"grown 70 MiB: from its reach to prefaultAhead past it", 80 * mib, 70, 102},
		{"grown 71 MiB: less than a huge page more, nothing", 81 * mib, 102, 102},
		{"grown 80 MiB: 10 more, in whole huge pages", 90 * mib, 102, 112},
		{"shrunk after a collection: nothing, nothing undone", 30 * mib, 112, 112},
		{"grown 83 MiB", 93 * mib, 112, 114},
		{"below where it started (the reserve's own collection): nothing", 1 * mib, 114, 114},
		{"grown 240 MiB: up to the reserve's end, not before its reach", 250 * mib, 240, 256},
		{"past the reserve: nothing", 400 * mib, 256, 256},
	} {
		from, to := p.next(step.inSpans)
		if want, wantTo := base+step.from*mib, base+step.to*mib; from != want || to != wantTo {
			t.Fatalf("%s: next(%d MiB) = [%d, %d) MiB from base; want [%d, %d)", step.name, step.inSpans/mib, (from-base)/mib, (to-base)/mib, step.from, step.to)
		}
		p.backed = to // as run does: from first, then each huge page populated
	}
}

// TestPrefaulterRun runs the loop against a heap that grows 10 MiB per
// look: from the heap's reach once past prefaultFrom, it backs the rest
// of the reserve, once, in order, never more than a huge page per call,
// and stops there. A heap that grows faster than that is not chased
// below its reach; a refused call stops the loop.
func TestPrefaulterRun(t *testing.T) {
	const mib = 1 << 20
	base := uintptr(0x7f0000000000 + 512<<10) // not on a huge page's boundary
	end := (base + 200*mib) &^ (hugePageBytes - 1)
	backs := func(step uint64) (calls [][2]uintptr, p *prefaulter) {
		p = newPrefaulter(base, 200*mib, 0)
		var heap uint64
		p.run(make(chan struct{}), func() uint64 { heap += step; return heap }, func(from, n uintptr) bool {
			calls = append(calls, [2]uintptr{from, n})
			return true
		})
		return calls, p
	}
	calls, p := backs(10 * mib)
	// Nothing until the seventh look finds 70 MiB.
	first := (base + 70*mib) &^ (hugePageBytes - 1)
	next := first
	for _, c := range calls {
		if c[0] != next || c[1] == 0 || c[1] > hugePageBytes || (c[0]+c[1])%hugePageBytes != 0 {
			t.Fatalf("populate(%#x, %d) after %#x: want the next range, at most a huge page, ending on a huge page's boundary", c[0], c[1], next)
		}
		next = c[0] + c[1]
	}
	if len(calls) == 0 || calls[0][0] != first {
		t.Errorf("first populate %v; want it at the heap's reach, %#x", calls[:min(1, len(calls))], first)
	}
	if next != end || p.backed != end {
		t.Errorf("backed to %#x (p.backed %#x); want the reserve's last whole huge page, %#x", next, p.backed, end)
	}

	calls, p = backs(100 * mib)
	for i, c := range calls {
		if i > 0 && c[0] < calls[i-1][0]+calls[i-1][1] {
			t.Fatalf("populate(%#x, %d) after populate(%#x, %d): backed twice or out of order", c[0], c[1], calls[i-1][0], calls[i-1][1])
		}
	}
	if p.backed != end {
		t.Errorf("a fast heap: backed to %#x; want %#x", p.backed, end)
	}

	refused := newPrefaulter(base, 200*mib, 0)
	tries := 0
	var heap uint64
	grow := func() uint64 { heap += 40 * mib; return heap }
	refused.run(make(chan struct{}), grow, func(from, n uintptr) bool { tries++; return false })
	if reach := (base + 80*mib) &^ (hugePageBytes - 1); tries != 1 || refused.backed != reach {
		t.Errorf("a refused populate was tried %d times and the backed part ends %#x from base; want once and the heap's reach, %#x", tries, refused.backed-base, reach-base)
	}

	done := make(chan struct{})
	close(done)
	stopped := newPrefaulter(base, 200*mib, 0)
	stopped.run(done, grow, func(from, n uintptr) bool { t.Error("populated after done closed"); return true })
}

// TestPopulateWrite checks the system call on fresh anonymous memory:
// not resident before, resident after, on kernels from 5.14 (which have
// MADV_POPULATE_WRITE); older ones refuse it and it says so.
func TestPopulateWrite(t *testing.T) {
	const n = 4 << 20
	mem, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
	if r := resident(t, addr, n); r != 0 {
		t.Fatalf("%d pages of fresh memory resident before populating", r)
	}
	ok := populateWrite(addr, n)
	if want := kernelAtLeast(t, 5, 14); ok != want {
		t.Fatalf("populateWrite = %v on this kernel; want %v", ok, want)
	}
	if r := resident(t, addr, n); ok && r != n/4096 {
		t.Errorf("%d of %d pages resident after populating", r, n/4096)
	}
	for i, b := range mem {
		if b != 0 {
			t.Fatalf("byte %d is %d after populating: memory backed must read as zero", i, b)
		}
	}
}

// resident counts the pages of [addr, addr+n) that mincore reports in
// memory.
func resident(t *testing.T, addr, n uintptr) int {
	t.Helper()
	vec := make([]byte, n/4096)
	if _, _, errno := syscall.Syscall(syscall.SYS_MINCORE, addr, n, uintptr(unsafe.Pointer(unsafe.SliceData(vec)))); errno != 0 {
		t.Fatalf("mincore: %v", errno)
	}
	c := 0
	for _, v := range vec {
		c += int(v & 1)
	}
	return c
}

// kernelAtLeast reports whether the running kernel's release is at least
// major.minor.
func kernelAtLeast(t *testing.T, major, minor int) bool {
	t.Helper()
	var u syscall.Utsname
	if err := syscall.Uname(&u); err != nil {
		t.Fatal(err)
	}
	var rel []byte
	for _, c := range u.Release {
		if c == 0 {
			break
		}
		rel = append(rel, byte(c))
	}
	parts := bytes.SplitN(rel, []byte("."), 3)
	if len(parts) < 2 {
		t.Fatalf("kernel release %q", rel)
	}
	ma, err1 := strconv.Atoi(string(parts[0]))
	mi, err2 := strconv.Atoi(string(bytes.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' })))
	if err1 != nil || err2 != nil {
		t.Fatalf("kernel release %q", rel)
	}
	return ma > major || ma == major && mi >= minor
}
