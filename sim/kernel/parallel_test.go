package kernel

import (
	"fmt"
	"runtime"
	"testing"
)

// TestParallel: every call is made once, with its own index, whether
// the calls run side by side or in turn (InlineSinks on), and a panic is
// raised again on the caller's goroutine as the lowest index's, however
// the calls were scheduled.
func TestParallel(t *testing.T) {
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	for _, inline := range []bool{false, true} {
		t.Run(fmt.Sprintf("inline=%v", inline), func(t *testing.T) {
			if inline {
				InlineSinks(true)
				defer InlineSinks(false)
				if Workers() != 1 {
					t.Fatalf("Workers() = %d with InlineSinks on, want 1", Workers())
				}
			} else if Workers() != 4 {
				t.Fatalf("Workers() = %d at GOMAXPROCS 4, want 4", Workers())
			}
			for _, n := range []int{0, 1, 2, 7} {
				calls := make([]int, n)
				Parallel(n, func(i int) { calls[i]++ })
				for i, c := range calls {
					if c != 1 {
						t.Errorf("n=%d: fn(%d) called %d times, want once", n, i, c)
					}
				}
			}
			for range 20 {
				got := func() (v any) {
					defer func() { v = recover() }()
					Parallel(5, func(i int) {
						if i >= 2 {
							panic(fmt.Sprintf("part %d", i))
						}
					})
					return nil
				}()
				p, ok := got.(*SinkPanic)
				if !ok {
					t.Fatalf("Parallel panicked with %T %v, want a *SinkPanic", got, got)
				}
				if p.Value != "part 2" {
					t.Fatalf("Parallel panicked with part %v's panic, want part 2's", p.Value)
				}
			}
		})
	}
}
