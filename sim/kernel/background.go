package kernel

// Task is work running beside the simulation on a goroutine of its own
// (Background), so that a second processor can do it while the event loop
// goes on.
type Task struct {
	done     chan struct{}
	panicked bool
	value    any
}

// Background runs f on a goroutine of its own and returns at once; Wait
// waits for f to return.
//
// It is for work whose result nobody reads until Wait: bookkeeping the
// simulation hands over and does not touch again until it has waited, such
// as the audit log filing a batch of records. f must touch nothing the
// simulation reads or writes meanwhile; then what f computes, and so the
// run, is the same on every machine and at every GOMAXPROCS, whichever
// goroutine happens to run first. At GOMAXPROCS 1 f runs when the event
// loop waits for it, or when the scheduler preempts the loop.
//
// A panic in f is raised again by Wait, on the caller's goroutine, so that
// an invariant broken in the background stops the run as it would have
// inline (and a caller that recovers sees it).
func Background(f func()) *Task {
	t := &Task{done: make(chan struct{})}
	go t.run(f)
	return t
}

func (t *Task) run(f func()) {
	defer close(t.done)
	defer func() {
		if v := recover(); v != nil || t.panicked {
			t.value = v
		}
	}()
	t.panicked = true
	f()
	t.panicked = false
}

// Wait waits for the task's function to return and raises again any panic
// it ended with (once: a second Wait returns). A nil task has nothing to
// wait for.
func (t *Task) Wait() {
	if t == nil {
		return
	}
	<-t.done
	if t.panicked {
		t.panicked = false
		panic(t.value)
	}
}
