// Package netsim is clustersim's simulated network: named endpoints joined by
// one-way links that delay, drop, duplicate and reorder messages; partitions
// (symmetric and one-way); request/response calls with timeouts; and ordered
// streams such as watch streams, which break (connection reset) or silently
// lose single messages only by their own faults, StreamBreak and StreamLoss.
//
// The network exists to make one lesson real: when a request or its reply is
// lost, the caller gets ErrTimeout and cannot tell whether the server acted.
// The two losses produce the very same error value, on purpose.
//
// Everything runs on a kernel.Kernel. A message in flight is one kernel event
// carrying a pooled Message; a call waiting for its reply is a slot in a
// small table with a deadline heap, so a long timeout leaves no stale event
// behind in the kernel's queue. Steady-state traffic allocates nothing: no
// closures, no per-message maps, and endpoint names are resolved to small
// integer ids once, at registration.
//
// Imports: the kernel and the standard library only. It must not import the
// API types, the store, the client runtime, controllers or anything above
// them; those layers sit on top of it.
//
// Determinism contract: for a given kernel seed and a given sequence of calls
// the network delivers, drops and times out exactly the same messages at
// exactly the same virtual times, on every machine. Each link draws from its
// own random stream, named "net/link/<from>-><to>", so traffic on one link
// never shifts another link's draws. The package never reads the wall clock,
// never starts a goroutine and never lets map iteration order reach an
// outcome or an output (links are listed sorted by address).
package netsim
