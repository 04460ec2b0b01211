package kernel

import "sync/atomic"

// Progress is what a watchdog on another goroutine may read of a running
// kernel: how many process resumptions and events have happened, and which
// process runs now. The kernel stores into it with atomic operations (the
// event count every 1,024 events), so reading it never races. The only
// user is cmd/, which alone may read the wall clock: a process that stops
// yielding (a reconciler spinning in a loop) freezes the whole simulation,
// and only a wall-clock budget can notice.
type Progress struct {
	resumes  atomic.Uint64
	fired    atomic.Uint64
	now      atomic.Int64
	running  atomic.Pointer[string]
	finished atomic.Bool
}

// Finish records that the simulation is over: what follows (gathering
// its results, the detectors) runs no process and fires no event, so a
// watchdog must stop counting the time without either as a stall.
func (p *Progress) Finish() { p.finished.Store(true) }

// Finished reports whether Finish was called.
func (p *Progress) Finished() bool { return p.finished.Load() }

// SetProgress makes the kernel publish its progress into p (nil stops it).
func (k *Kernel) SetProgress(p *Progress) { k.progress = p }

// Resumes counts the process resumptions so far.
func (p *Progress) Resumes() uint64 { return p.resumes.Load() }

// Fired counts the events fired, to the last multiple of 1,024.
func (p *Progress) Fired() uint64 { return p.fired.Load() }

// Now is the virtual time of the last process resumption.
func (p *Progress) Now() Time { return Time(p.now.Load()) }

// Running names the process running now, or "" when the event loop
// itself runs.
func (p *Progress) Running() string {
	if s := p.running.Load(); s != nil {
		return *s
	}
	return ""
}
