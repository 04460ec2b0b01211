//go:build amd64 || arm64

package kernel

// prefetch asks the processor to bring the four cache lines from addr
// (256 bytes) into its caches, without waiting for them and without
// faulting on any address (prefetch_amd64.s, prefetch_arm64.s). A
// prefetch changes nothing a program computes; an address gone stale
// (the collector never moves heap objects) only wastes it.
func prefetch(addr uintptr)
