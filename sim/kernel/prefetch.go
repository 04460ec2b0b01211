package kernel

import "unsafe"

// Prefetch asks the processor to bring the first four cache lines of *p
// (256 bytes) into its caches and returns at once; nil and any other
// pointer are safe, and nothing a program computes changes, only how
// long its next reads of that memory take. An actor whose event reads
// several records out of the caches (a kubelet's lease renewal: its
// random stream, its lease, its endpoint) prefetches them all first, so
// that their misses overlap instead of following one another.
func Prefetch[T any](p *T) { prefetch(uintptr(unsafe.Pointer(p))) }

// handlerData is the data word of h: the receiver a Handler of pointer
// type points at (a kubelet, a message, a process), which the event
// loop prefetches for the next event (Kernel.Run). Only its address is
// used, never what it points at.
func handlerData(h Handler) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&h))[1])
}
