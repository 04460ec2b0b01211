package kernel

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// Workers is how many parts work for Parallel is worth cutting into:
// GOMAXPROCS, or 1 while InlineSinks is on (a pool already keeps every
// processor busy with a simulation of its own) or with one processor.
// Parallel runs every call it is given at once unless Workers is 1.
func Workers() int {
	if inlineSinks.Load() > 0 {
		return 1
	}
	return max(runtime.GOMAXPROCS(0), 1)
}

// Parallel calls fn(0) to fn(n-1) and returns when every call has
// returned: the first on the caller's goroutine, each other on one of
// its own, or all of them in turn on the caller's when Workers is 1. It
// is for the work after a simulation that splits into parts which read
// the same finished results and write only their own (a report's
// analysis of each object's history): each part must write nothing
// another reads or writes, and the caller then joins the parts in the
// order of i, so that what it builds is the same at every GOMAXPROCS as
// if it had called fn(0) to fn(n-1) itself.
//
// A panic in a call is raised again on the caller's goroutine once
// every call has returned: the lowest i's, with its stack (a
// *SinkPanic), so that the same input panics the same way however the
// calls were run.
func Parallel(n int, fn func(i int)) {
	if n <= 0 {
		return
	}
	panics := make([]*SinkPanic, n)
	call := func(i int) {
		defer func() {
			if v := recover(); v != nil {
				panics[i] = &SinkPanic{Value: v, Stack: debug.Stack()}
			}
		}()
		fn(i)
	}
	if n == 1 || Workers() == 1 {
		for i := range n {
			call(i)
		}
	} else {
		var wg sync.WaitGroup
		for i := 1; i < n; i++ {
			wg.Go(func() { call(i) })
		}
		call(0)
		wg.Wait()
	}
	for _, p := range panics {
		if p != nil {
			panic(p)
		}
	}
}
