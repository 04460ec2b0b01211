//go:build linux

package main

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"
)

func TestAnonymousReadWrite(t *testing.T) {
	for _, tc := range []struct {
		line string
		want mapping
		ok   bool
	}{
		{"c000000000-c004000000 rw-p 00000000 00:00 0 ", mapping{0xc000000000, 0xc004000000}, true},
		{"3d9e32400000-3d9e32c00000 rw-p 00000000 00:00 0", mapping{0x3d9e32400000, 0x3d9e32c00000}, true},
		{"7f0000000000-7f0000400000 rw-p 00000000 00:00 0 [anon: Go: heap]", mapping{0x7f0000000000, 0x7f0000400000}, true},
		{"3d9e30000000-3d9e32400000 ---p 00000000 00:00 0", mapping{}, false},                                             // reserved, not mapped
		{"00400000-00e97000 r-xp 00000000 fd:01 131 /tmp/cs", mapping{}, false},                                           // text
		{"01881000-01dfd000 rw-p 01481000 fd:01 131 /tmp/cs", mapping{}, false},                                           // a file's data
		{"7ffd1c9a2000-7ffd1c9c3000 rw-p 00000000 00:00 0 [stack]", mapping{}, false},                                     // the main thread's stack
		{"7f00-7e00 rw-p 00000000 00:00 0", mapping{}, false},                                                             // end before start
		{"zz-7e00 rw-p 00000000 00:00 0", mapping{}, false},                                                               // not hexadecimal
		{"7f007e00 rw-p 00000000 00:00 0", mapping{}, false},                                                              // no range
		{"7f00-7e00 rw-p", mapping{}, false},                                                                              // short
		{"7f0000000000-7f0000400000 rw-s 00000000 00:01 7 /dev/zero (deleted)", mapping{}, false},                         // shared
		{"7f0000000000-7f0000400000 rw-p 00000000 00:00 0 [anon_shmem:x]", mapping{0x7f0000000000, 0x7f0000400000}, true}, // named anonymous
	} {
		got, ok := anonymousReadWrite([]byte(tc.line))
		if got != tc.want || ok != tc.ok {
			t.Errorf("anonymousReadWrite(%q) = %x, %v; want %x, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

func TestHugePagesWanted(t *testing.T) {
	for _, tc := range []struct {
		v, warn string
		want    bool
	}{
		{"", "", true},
		{"1", "", true},
		{"0", "", false},
		{"off", `clustersim: CLUSTERSIM_HUGEPAGES="off": want 0 (off) or 1 (on); huge pages stay off` + "\n", false},
		{"true", `clustersim: CLUSTERSIM_HUGEPAGES="true": want 0 (off) or 1 (on); huge pages stay off` + "\n", false},
	} {
		var w bytes.Buffer
		if got := hugePagesWanted(tc.v, &w); got != tc.want || w.String() != tc.warn {
			t.Errorf("hugePagesWanted(%q) = %v, warned %q; want %v, %q", tc.v, got, w.String(), tc.want, tc.warn)
		}
	}
}

func TestMemTotal(t *testing.T) {
	for _, tc := range []struct {
		meminfo string
		want    uint64
	}{
		{"MemTotal:       24683520 kB\nMemFree:        23910400 kB\n", 24683520 << 10},
		{"MemFree:        1 kB\nMemTotal: 1024 kB\n", 1 << 20},
		{"MemTotal: 12 MB\n", 0},
		{"MemTotal: x kB\n", 0},
		{"MemTotal: 99999999999999999 kB\n", 0}, // more than the shift can hold
		{"", 0},
	} {
		if got := memTotal([]byte(tc.meminfo)); got != tc.want {
			t.Errorf("memTotal(%q) = %d; want %d", tc.meminfo, got, tc.want)
		}
	}
}

// TestReserveFollowsTheCgroup: the huge-page reserve is a quarter of
// the memory the process may use, the cgroup's limit when it is lower
// than the machine's, at most hugePageReserve, and none where the kernel
// does not overcommit or the memory is unknown.
func TestReserveFollowsTheCgroup(t *testing.T) {
	const meminfo = "MemTotal:       25165824 kB\n" // 24 GiB
	for _, tc := range []struct {
		name, overcommit, memoryMax string
		want                        int
	}{
		{"no cgroup limit", "0\n", "max\n", hugePageReserve},
		{"a cgroup of 2 GiB", "0\n", "2147483648\n", 512 << 20},
		{"a cgroup above the machine", "1\n", "107374182400\n", hugePageReserve},
		{"no overcommit", "2\n", "2147483648\n", 0},
		{"no cgroup file", "0\n", "", hugePageReserve},
	} {
		got := reserveFor([]byte(tc.overcommit), usableMemory([]byte(meminfo), []byte(tc.memoryMax)))
		if got != tc.want {
			t.Errorf("%s: reserve %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := reserveFor([]byte("0\n"), usableMemory(nil, nil)); got != 0 {
		t.Errorf("with no memory known: reserve %d, want 0", got)
	}
}

// TestHugePagesAdvised checks what the adviser is for: memory the heap
// hands out after it reserved sits in a mapping advised for huge pages
// and, unless the machine's setting is "never", is backed by them from
// its first touch (no goroutine runs here to advise or collapse later).
// It runs in a fresh test process, as the adviser runs at the start of
// clustersim's: memory earlier tests touched in small pages would be
// handed out again.
func TestHugePagesAdvised(t *testing.T) {
	if !inFreshProcess(t) {
		return
	}
	a := &hugePageAdviser{advised: map[mapping]bool{}}
	_, ok := a.reserve(256 << 20)
	block := make([]byte, 64<<20)
	for i := 0; i < len(block); i += 4096 {
		block[i] = 1
	}
	flags, huge := smapsOf(t, uintptr(unsafe.Pointer(&block[0])))
	runtime.KeepAlive(block)
	setting, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		// A kernel without transparent huge pages refuses the advice.
		if ok || strings.Contains(" "+flags+" ", " hg ") {
			t.Errorf("no transparent huge pages on this kernel, yet reserve = %v and the block's VmFlags are %q", ok, flags)
		}
		return
	}
	if !ok || !strings.Contains(" "+flags+" ", " hg ") {
		t.Fatalf("reserve = %v and the block's mapping is not advised for huge pages (VmFlags %q)", ok, flags)
	}
	if strings.Contains(string(setting), "[never]") {
		return // advice kept, huge pages refused by the setting
	}
	if huge < 32<<20 {
		t.Errorf("%d MiB of the 64 MiB block's mapping are huge pages, want at least 32 (transparent_hugepage: %s)", huge>>20, bytes.TrimSpace(setting))
	}
}

// freshProcessEnv tells a test that it runs in the process it started.
const freshProcessEnv = "CLUSTERSIM_TEST_FRESH_PROCESS"

// inFreshProcess reports whether t runs in a test process of its own.
// When it does not, it runs t alone in a new one (the environment's
// variables named in drop left out), fails t unless it passes there, and
// returns false: t's own body is then the new process's to run.
func inFreshProcess(t *testing.T, drop ...string) bool {
	t.Helper()
	if os.Getenv(freshProcessEnv) != "" {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains(drop, k) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, freshProcessEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--- PASS: "+t.Name())) {
		t.Fatalf("in a fresh process (%v):\n%s", err, out)
	}
	return false
}

// TestHugePagesFollow checks the goroutine's part: a mapping the heap
// adds after the reserve is advised soon after.
func TestHugePagesFollow(t *testing.T) {
	a := &hugePageAdviser{advised: map[mapping]bool{}}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		if a.scan() {
			t.Errorf("no transparent huge pages on this kernel (%v), yet scan took the advice", err)
		}
		return
	}
	if !a.scan() {
		t.Fatal("scan refused the advice on a kernel with transparent huge pages")
	}
	before := slices.Collect(maps.Keys(a.advised))
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() { defer close(stopped); a.follow(done) }()
	defer func() { close(done); <-stopped }()
	block := make([]byte, 1<<30)                          // more than the heap has free: a new mapping (never touched)
	addr := uintptr(unsafe.Pointer(&block[len(block)-1])) // its start may share free space advised before
	for _, m := range before {
		if addr >= m.start && addr < m.end {
			t.Fatalf("the block landed in a mapping advised before the goroutine started (%#x in %x): the test checks nothing", addr, m)
		}
	}
	for range 500 {
		if flags, _ := smapsOf(t, addr); strings.Contains(" "+flags+" ", " hg ") {
			runtime.KeepAlive(block)
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Errorf("the new mapping at %#x was not advised within a second", addr)
}

// smapsOf returns the VmFlags and AnonHugePages bytes of the mapping of
// /proc/self/smaps that holds addr.
func smapsOf(t *testing.T, addr uintptr) (flags string, huge uint64) {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	in, found := false, false
	for s.Scan() {
		line := s.Text()
		if fields := strings.Fields(line); len(fields) > 0 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, _ := strings.Cut(fields[0], "-")
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= a && uint64(addr) < b
			found = found || in
			continue
		}
		if !in {
			continue
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			flags = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			huge = kb << 10
		}
	}
	if !found {
		t.Fatalf("no mapping of /proc/self/smaps holds %#x", addr)
	}
	return flags, huge
}

// TestHugePagesKeepTraces runs a built-in scenario without and with the
// adviser: the output, trace hash included, is the same.
func TestHugePagesKeepTraces(t *testing.T) {
	runOnce := func() string {
		var out, errb bytes.Buffer
		if code := Main([]string{"run", "edge-triggered", "-o", "json"}, &out, &errb); code != exitOK {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		return out.String()
	}
	without := runOnce()
	stop := adviseHugePages()
	with := runOnce()
	stop()
	if with != without {
		t.Errorf("the output changed with huge pages advised")
	}
}

// TestSetUpProcessKeepsTheLimit: the process's set-up (setUpProcess, as
// main and BenchmarkScaleRun have it) reserves gigabytes of heap for
// huge pages, one live block until it is given back, and starts the
// collector's governor, which raises the memory limit when the live heap
// after a collection nears it. Started first, the governor read the
// reserve's collection as a simulation's live heap whenever its poll fell
// between that collection and the next, and raised the limit to twice
// the reserve (two of three BenchmarkScaleRun sizes said so; a 5,000-node
// run could then pass 4 GiB). In a fresh process, as main's is: the
// governor watches only collections after the reserve's, and after a few
// polls and a collection the limit is still gcMemoryLimit, never raised.
// Planted (the governor started before the huge pages again), it fails.
func TestSetUpProcessKeepsTheLimit(t *testing.T) {
	// The process main would be: the collector's and the huge pages'
	// settings its own.
	if !inFreshProcess(t, "GOGC", "GOMEMLIMIT", hugePagesEnv) {
		return
	}
	cycles := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(cycles)
	before := cycles[0].Value.Uint64()
	undo := setUpProcess()
	defer undo()
	g := governor.Load()
	if g == nil {
		t.Fatal("setUpProcess started no governor (GOMEMLIMIT unset)")
	}
	// The reserve is made wherever memory may be overcommitted (with or
	// without transparent huge pages: the advice is tried on it); it
	// ends with a collection.
	if reserveBytes() > 0 && g.from <= before {
		t.Errorf("the governor watches from collection %d, the process's before the huge-page reserve (%d): it can take the reserve for the live heap", g.from, before)
	}
	time.Sleep(3 * governorPoll)
	runtime.GC()
	time.Sleep(3 * governorPoll)
	if _, limit := gcSettings(); g.raisesSoFar() != 0 || limit != gcMemoryLimit {
		t.Errorf("the limit is %d after %d raises, want gcMemoryLimit (%d), never raised: nothing here is live", limit, g.raisesSoFar(), int64(gcMemoryLimit))
	}
}
