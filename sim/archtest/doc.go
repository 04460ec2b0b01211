// Package archtest holds no code, only a test that enforces the layering
// of docs/ARCHITECTURE.md: which package may import which, and that no code
// in sim/ or controllers/ outside the kernel reads the wall clock, sleeps,
// uses a global random source or starts a goroutine.
package archtest
