package controller

import (
	"fmt"
	"runtime"
	"strings"
)

// PanicError is a reconcile that panicked, recovered into an error as
// controller-runtime's RecoverPanic does. It names the controller, the
// request and the top frames of the panicking stack (function names only,
// which are the same on every machine, so a run's output stays
// reproducible).
type PanicError struct {
	// Controller is the controller's name; Request what it reconciled.
	Controller string
	Request    Request
	// Value is what the reconciler panicked with.
	Value any
	// Frames are the functions nearest the panic, innermost first.
	Frames []string
}

// Error formats the panic as controller-runtime logs it, with the frames.
func (e *PanicError) Error() string {
	return fmt.Sprintf("panic: %v [recovered] (at %s)", e.Value, strings.Join(e.Frames, " <- "))
}

// panicFrames returns up to n function names of the panicking goroutine's
// stack, innermost first, starting below the runtime's panic machinery.
// It is called from a deferred recover, so the stack still holds the
// frames that panicked.
func panicFrames(n int) []string {
	pcs := make([]uintptr, 64)
	pcs = pcs[:runtime.Callers(2, pcs)]
	frames := runtime.CallersFrames(pcs)
	var out []string
	seenPanic := false
	for len(out) < n {
		f, more := frames.Next()
		switch {
		case !seenPanic:
			// Skip this package's recover and the runtime's panic
			// functions, up to and including the one that raised it.
			if strings.HasPrefix(f.Function, "runtime.") {
				seenPanic = true
			}
		case strings.HasPrefix(f.Function, "runtime."):
			// Still inside the runtime (gopanic, sigpanic, panicmem...).
		default:
			out = append(out, shortFunc(f.Function))
		}
		if !more {
			break
		}
	}
	return out
}

// shortFunc drops the module path from a function name:
// github.com/x/y/controllers/naive.(*reconciler).Reconcile becomes
// naive.(*reconciler).Reconcile.
func shortFunc(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}
