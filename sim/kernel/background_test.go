package kernel

import (
	"errors"
	"testing"
)

func TestBackground(t *testing.T) {
	for _, tc := range []struct {
		name  string
		f     func(*[]int)
		panic any // what Wait raises again; nil for none
	}{
		{"returns", func(out *[]int) { *out = append(*out, 1, 2, 3) }, nil},
		{"panics with a value", func(out *[]int) { *out = append(*out, 1); panic("store invariant x") }, "store invariant x"},
		{"panics with an error", func(out *[]int) { panic(errBroken) }, errBroken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out []int
			task := Background(func() { tc.f(&out) })
			got := func() (v any) {
				defer func() { v = recover() }()
				task.Wait()
				return nil
			}()
			if got != tc.panic {
				t.Fatalf("Wait raised %v, want %v", got, tc.panic)
			}
			// What the function wrote is the caller's once Wait returns
			// (the race detector checks the hand-over).
			if tc.panic == nil && len(out) != 3 {
				t.Errorf("after Wait the function's writes are %v", out)
			}
			// A second Wait returns: the panic was raised once.
			task.Wait()
		})
	}
	var none *Task
	none.Wait() // a nil task has nothing to wait for
}

var errBroken = errors.New("broken")

// TestBackgroundOrder: tasks started one after another, each waited for
// before the next starts, see each other's writes in order.
func TestBackgroundOrder(t *testing.T) {
	var log []int
	var task *Task
	for i := range 100 {
		task.Wait()
		task = Background(func() { log = append(log, i) })
	}
	task.Wait()
	for i, v := range log {
		if v != i {
			t.Fatalf("log[%d] = %d: %v", i, v, log)
		}
	}
	if len(log) != 100 {
		t.Fatalf("%d entries", len(log))
	}
}
