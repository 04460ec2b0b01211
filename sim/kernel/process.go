package kernel

import (
	"fmt"
	"iter"
	"runtime/debug"
	"runtime/pprof"
	"time"
)

// procState is where a process is in its life.
type procState uint8

const (
	procNew     procState = iota // spawned, start event pending
	procRunning                  // the one running now
	procParked                   // blocked, waiting for a wake-up
	procDone                     // returned, panicked or killed
)

// Process is sequential code that can block in virtual time: sleep, park
// until woken, or park with a timeout. It runs as an iter.Pull coroutine, so
// exactly one process (or the event loop) runs at a time and every switch is
// a direct hand-off.
//
// A process may be killed (a crash): it stops at its next blocking point,
// its deferred functions run, and nothing of it survives. Deferred functions
// must not block; a block inside one panics again and ends the unwinding.
type Process struct {
	k      *Kernel
	name   string
	id     uint64
	body   func(*Process)
	next   func() (struct{}, bool)
	stopFn func()
	yield  func(struct{}) bool
	// prevLive and nextLive link the kernel's unfinished processes.
	prevLive, nextLive *Process

	// token identifies the current blocking episode. Wake-up events carry
	// the token they were made for (shifted left by one, low bit set for a
	// timeout), so a stale wake-up is recognised and ignored.
	token    uint64
	state    procState
	killed   bool
	timedOut bool
	panicked *ProcessPanic
	// windowN is the kernel's profile window (Kernel.windowN) whose labels
	// the process's goroutine carries.
	windowN uint64
}

// killSignal is the sentinel panic that unwinds a killed process.
type killSignal struct{}

// ProcessPanic is the value the event loop panics with when a process body
// panics: the process name, the original value and the process's stack.
type ProcessPanic struct {
	Process string
	Value   any
	Stack   []byte
}

// Error formats the panic with the process name and stack.
func (p *ProcessPanic) Error() string {
	return fmt.Sprintf("process %q panicked: %v\n%s", p.Process, p.Value, p.Stack)
}

// Spawn creates a process running body and schedules its start at the
// current time, after the events already scheduled for now. The caller keeps
// running; body starts when the kernel reaches its start event.
func (k *Kernel) Spawn(name string, body func(p *Process)) *Process {
	k.procID++
	p := &Process{k: k, name: name, id: k.procID, body: body}
	p.next, p.stopFn = iter.Pull(p.run)
	k.live++
	p.prevLive = k.last
	if k.last != nil {
		k.last.nextLive = p
	} else {
		k.first = p
	}
	k.last = p
	k.Schedule(k.now, p, 0)
	return p
}

// run is the coroutine body: it records yield, runs the process and turns
// the kill sentinel into an ordinary return.
func (p *Process) run(yield func(struct{}) bool) {
	p.yield = yield
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(killSignal); ok {
				return
			}
			p.panicked = &ProcessPanic{Process: p.name, Value: r, Stack: debug.Stack()}
		}
	}()
	if p.killed {
		return
	}
	p.label()
	p.body(p)
}

// label gives the process's goroutine the labels of the kernel's profile
// window when they changed since it last ran (see SetProfileWindow).
func (p *Process) label() {
	if k := p.k; k.window != 0 && p.windowN != k.windowN {
		p.windowN = k.windowN
		pprof.SetGoroutineLabels(k.labels)
	}
}

// Name returns the name given at Spawn.
func (p *Process) Name() string { return p.name }

// ID returns the process's spawn number, unique within its kernel.
func (p *Process) ID() uint64 { return p.id }

// Kernel returns the kernel the process runs on.
func (p *Process) Kernel() *Kernel { return p.k }

// Now returns the kernel's current time.
func (p *Process) Now() Time { return p.k.now }

// Done reports whether the process has finished (returned, panicked or been
// killed).
func (p *Process) Done() bool { return p.state == procDone }

// Killed reports whether Kill was called on the process.
func (p *Process) Killed() bool { return p.killed }

// Parked reports whether the process is blocked waiting for a wake-up.
func (p *Process) Parked() bool { return p.state == procParked }

// Fire resumes the process if arg is the wake-up for its current blocking
// episode; stale wake-ups are ignored. It implements Handler.
func (p *Process) Fire(k *Kernel, arg uint64) {
	switch p.state {
	case procNew:
		p.resume()
	case procParked:
		if arg>>1 != p.token {
			return
		}
		p.timedOut = arg&1 == 1
		p.resume()
	}
}

func (p *Process) resume() {
	k := p.k
	prev := k.current
	k.current = p
	p.state = procRunning
	if pr := k.progress; pr != nil {
		pr.resumes.Add(1)
		pr.now.Store(int64(k.now))
		pr.running.Store(&p.name)
	}
	_, more := p.next()
	if pr := k.progress; pr != nil {
		if prev != nil {
			pr.running.Store(&prev.name)
		} else {
			pr.running.Store(nil)
		}
	}
	k.current = prev
	if more {
		p.state = procParked
		return
	}
	p.finish()
	if p.panicked != nil {
		pp := p.panicked
		p.panicked = nil
		panic(pp)
	}
}

func (p *Process) finish() {
	if p.state == procDone {
		return
	}
	p.state = procDone
	k := p.k
	k.live--
	if p.prevLive != nil {
		p.prevLive.nextLive = p.nextLive
	} else {
		k.first = p.nextLive
	}
	if p.nextLive != nil {
		p.nextLive.prevLive = p.prevLive
	} else {
		k.last = p.prevLive
	}
	p.prevLive, p.nextLive = nil, nil
	p.body = nil
	p.next = nil
	p.stopFn = nil
	p.yield = nil
}

// block hands control back to the event loop until Fire resumes it. It
// panics with the kill sentinel when the process has been killed.
func (p *Process) block() {
	if p.k.current != p {
		panic(fmt.Sprintf("kernel invariant one-runner: process %q blocked while not running", p.name))
	}
	if p.killed || !p.yield(struct{}{}) {
		p.killed = true
		panic(killSignal{})
	}
	if p.killed {
		panic(killSignal{})
	}
	p.label()
}

// Sleep blocks the process for d of virtual time (0 yields to the events
// already scheduled for now).
func (p *Process) Sleep(d time.Duration) {
	p.token++
	p.k.After(d, p, p.token<<1)
	p.block()
}

// SleepUntil blocks the process until virtual time t (at once if t is not
// in the future).
func (p *Process) SleepUntil(t Time) {
	if t < p.k.now {
		t = p.k.now
	}
	p.token++
	p.k.Schedule(t, p, p.token<<1)
	p.block()
}

// Park blocks the process until another actor calls Wake.
func (p *Process) Park() {
	p.token++
	p.block()
}

// ParkFor blocks the process until Wake is called or d passes, whichever
// comes first, and reports whether it was woken (true) or timed out (false).
func (p *Process) ParkFor(d time.Duration) (woken bool) {
	p.token++
	p.k.After(d, p, p.token<<1|1)
	p.timedOut = false
	p.block()
	return !p.timedOut
}

// Wake schedules a parked process to resume at the current time, after the
// events already scheduled for now. Waking a process that is not parked, or
// waking it twice, has no further effect.
func (p *Process) Wake() {
	if p.state != procParked {
		return
	}
	p.k.Schedule(p.k.now, p, p.token<<1)
}

// Kill crashes the process. A parked or not-yet-started process unwinds at
// once (its deferred functions run now); the running process itself unwinds
// at its next blocking call. Killing a finished process does nothing.
func (p *Process) Kill() {
	if p.state == procDone {
		return
	}
	p.killed = true
	if p.state == procRunning {
		return
	}
	k := p.k
	prev := k.current
	k.current = p
	p.stopFn()
	k.current = prev
	p.finish()
	if p.panicked != nil {
		pp := p.panicked
		p.panicked = nil
		panic(pp)
	}
}

// Close kills every unfinished process, oldest first, so that their
// coroutines (each an iter.Pull goroutine) end and everything they reference
// can be collected. Call it when a simulation is over; the kernel must not
// be run afterwards. A process whose deferred functions panic stops Close
// with that panic. Called while a process is running (from inside one, or
// while a panic unwinds out of the event loop) it does nothing, so that a
// deferred Close never hides the panic that is unwinding.
func (k *Kernel) Close() {
	if k.current != nil {
		return
	}
	for k.first != nil {
		k.first.Kill()
	}
}

// WaitList is a FIFO of parked processes, the kernel's condition variable.
// The zero value is ready to use.
type WaitList struct {
	waiters []*Process
}

// Wait parks p until WakeOne or WakeAll picks it.
func (w *WaitList) Wait(p *Process) {
	w.waiters = append(w.waiters, p)
	p.Park()
}

// WaitFor parks p until it is picked or d passes; it reports whether it was
// picked. A process that times out is removed from the list.
func (w *WaitList) WaitFor(p *Process, d time.Duration) bool {
	w.waiters = append(w.waiters, p)
	if p.ParkFor(d) {
		return true
	}
	w.remove(p)
	return false
}

func (w *WaitList) remove(p *Process) {
	for i, q := range w.waiters {
		if q == p {
			copy(w.waiters[i:], w.waiters[i+1:])
			w.waiters[len(w.waiters)-1] = nil
			w.waiters = w.waiters[:len(w.waiters)-1]
			return
		}
	}
}

// WakeOne wakes the longest-waiting live process, if any, and reports
// whether one was woken.
func (w *WaitList) WakeOne() bool {
	for len(w.waiters) > 0 {
		p := w.waiters[0]
		copy(w.waiters, w.waiters[1:])
		w.waiters[len(w.waiters)-1] = nil
		w.waiters = w.waiters[:len(w.waiters)-1]
		if p.state == procParked {
			p.Wake()
			return true
		}
	}
	return false
}

// WakeAll wakes every live waiting process, in the order they began to wait.
func (w *WaitList) WakeAll() {
	for _, p := range w.waiters {
		if p.state == procParked {
			p.Wake()
		}
	}
	clear(w.waiters)
	w.waiters = w.waiters[:0]
}

// Len returns the number of processes waiting.
func (w *WaitList) Len() int { return len(w.waiters) }
