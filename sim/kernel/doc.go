// Package kernel is clustersim's discrete-event core: virtual time, an event
// queue ordered by (time, sequence), named random streams derived from one
// root seed, and processes that let sequential code block in virtual time.
//
// The kernel knows nothing of Kubernetes, networks or stores. It imports the
// standard library only.
//
// Determinism contract: for a given root seed and a given sequence of calls
// the kernel fires events in exactly the same order on every machine and at
// every GOMAXPROCS. Events at the same virtual time fire in the order they
// were scheduled. Exactly one process runs at a time; a process runs only
// when the kernel resumes it and hands control back when it blocks. The
// kernel never reads the wall clock and never uses a global random source.
//
// The kernel is the one place in sim/ that owns goroutines: each process is
// an iter.Pull coroutine, so a switch between the event loop and a process is
// a direct hand-off, not a trip through the Go scheduler. The goroutines
// that run beside the event loop are Sinks' consumers, which only record
// what the loop hands them and are read after Sync.
//
// While an event fires, the loop asks the processor to prefetch the next
// event's handler (Prefetch, the same for any actor): at thousands of
// nodes a kubelet whose timer is due, or a message due to land, is out of
// every cache. A prefetch changes when memory arrives, never what a run
// computes.
package kernel
