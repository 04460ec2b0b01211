//go:build !amd64 && !arm64

package kernel

// prefetch does nothing on this architecture (see prefetch_asm.go).
func prefetch(uintptr) {}
