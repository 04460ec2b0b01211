package main

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/kernel"
)

// defaultStall is how much wall-clock time a run may spend without a
// process yielding or an event firing before clustersim ends it.
const defaultStall = 10 * time.Second

// stallError is a run that stopped making progress: a process that never
// yields (a reconciler spinning in a loop) freezes the simulation, which
// only the wall clock can notice, and only cmd/ may read the wall clock.
type stallError struct {
	process string
	at      time.Duration
	stall   time.Duration
}

func (e *stallError) Error() string {
	who := fmt.Sprintf("process %q", e.process)
	if e.process == "" {
		who = "the event loop"
	}
	return fmt.Sprintf("the simulation stopped at virtual time %s: %s ran for %v of wall-clock time without yielding. A reconciler that never blocks (a loop waiting for the cache to change) freezes the whole simulation; return and requeue instead (--stall sets the budget)",
		clock(e.at), who, e.stall)
}

func clock(d time.Duration) string {
	s := int64(d / time.Second)
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// watch runs f, which runs one simulation reporting into the progress it
// is given, on a goroutine of its own, and returns its result, or a
// *stallError if the simulation makes no progress for stall of wall-clock
// time before it finishes (kernel.Progress.Finish: gathering a large
// run's results and its detectors take seconds without an event, and
// more while the collector works near the memory limit). The stalled
// goroutine cannot be stopped; the process exits soon after.
func watch(stall time.Duration, f func(p *kernel.Progress) (*runner.Result, error)) (*runner.Result, error) {
	type outcome struct {
		res *runner.Result
		err error
		pan any
	}
	p := &kernel.Progress{}
	done := make(chan outcome, 1)
	go func() {
		var o outcome
		defer func() {
			if r := recover(); r != nil {
				o.pan = r
			}
			done <- o
		}()
		o.res, o.err = f(p)
	}()
	tick := min(stall/4, 250*time.Millisecond)
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	lastResumes, lastFired := p.Resumes(), p.Fired()
	since := time.Now()
	for {
		select {
		case o := <-done:
			if o.pan != nil {
				panic(o.pan)
			}
			return o.res, o.err
		case now := <-ticker.C:
			r, fired := p.Resumes(), p.Fired()
			if r != lastResumes || fired != lastFired || p.Finished() {
				lastResumes, lastFired, since = r, fired, now
				continue
			}
			if now.Sub(since) >= stall {
				return nil, &stallError{process: p.Running(), at: p.Now().Duration(), stall: stall}
			}
		}
	}
}
