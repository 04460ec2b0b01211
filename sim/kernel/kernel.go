package kernel

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime/pprof"
	"time"
)

// Kernel is one simulation run: a virtual clock, an event queue, the random
// streams of a root seed, and the processes it schedules. A Kernel is not
// safe for concurrent use; everything that touches it runs on the event loop
// or inside one of its processes, one at a time.
type Kernel struct {
	now     Time
	seq     uint64
	q       queue
	streams *Streams
	current *Process
	fired   uint64
	stop    bool
	procID  uint64
	live    int
	// first and last are the ends of the list of unfinished processes,
	// in spawn order (see Close).
	first, last *Process
	// progress, when set, is where a watchdog reads how the run goes.
	progress *Progress
	// window, when not 0, is the span of virtual time by which the CPU
	// profiler's samples are labelled (SetProfileWindow); windowN is the
	// current one's number plus one (0 before the first), so that it
	// ends at windowN*window, and labels its profiler labels.
	window  Time
	windowN uint64
	labels  context.Context
	// noPrefetch turns the prefetch of the next event's handler off (a
	// benchmark's comparison).
	noPrefetch bool
}

// New returns a kernel at virtual time 0 whose random streams derive from
// seed.
func New(seed uint64) *Kernel {
	return &Kernel{streams: NewStreams(seed), q: queue{near: heap{ev: make([]event, 0, 1024)}}}
}

// Now returns the current virtual time.
func (k *Kernel) Now() Time { return k.now }

// Seed returns the root seed.
func (k *Kernel) Seed() uint64 { return k.streams.Root() }

// Rand returns the named random stream (see Streams.Get).
func (k *Kernel) Rand(name string) *rand.Rand { return k.streams.Get(name) }

// Streams returns the kernel's stream family.
func (k *Kernel) Streams() *Streams { return k.streams }

// Pending returns the number of scheduled events not yet fired, including
// stale ones (wake-ups of processes that were woken otherwise, cancelled
// timers) that will fire as no-ops.
func (k *Kernel) Pending() int { return k.q.len() }

// Fired returns the number of events fired so far.
func (k *Kernel) Fired() uint64 { return k.fired }

// Live returns the number of processes spawned and not yet finished.
func (k *Kernel) Live() int { return k.live }

// Current returns the process that is running now, or nil on the event
// loop.
func (k *Kernel) Current() *Process { return k.current }

// Schedule arranges for h.Fire(k, arg) at virtual time at. Events at one
// time fire in the order they were scheduled. Scheduling in the past is a
// bug in the caller and panics.
func (k *Kernel) Schedule(at Time, h Handler, arg uint64) {
	if at < k.now {
		panic(fmt.Sprintf("kernel invariant time-monotonic: event scheduled at %v before now %v", at, k.now))
	}
	k.seq++
	k.q.push(event{at: at, seq: k.seq, h: h, arg: arg}, k.now)
}

// After schedules h.Fire(k, arg) d after now. A negative d means now.
func (k *Kernel) After(d time.Duration, h Handler, arg uint64) {
	if d < 0 {
		d = 0
	}
	k.Schedule(k.now.Add(d), h, arg)
}

// At schedules f at virtual time t. It is for occasional events (timeline
// actions, tests); hot paths should use Schedule with a long-lived Handler.
func (k *Kernel) At(t Time, f func()) { k.Schedule(t, Func(f), 0) }

// Stop makes Run return after the event that is firing now.
func (k *Kernel) Stop() { k.stop = true }

// StopReason says why Run returned.
type StopReason int

const (
	// Quiescent: no events were left to fire.
	Quiescent StopReason = iota
	// TimeLimit: the next event lies beyond Limits.Until.
	TimeLimit
	// EventCap: Limits.MaxEvents events were fired.
	EventCap
	// Stopped: some event called Stop.
	Stopped
	// Livelock: Limits.MaxEventsAtInstant events fired without the clock
	// moving; actors keep answering each other in zero virtual time.
	Livelock
)

// String returns the reason's name.
func (r StopReason) String() string {
	switch r {
	case Quiescent:
		return "quiescent"
	case TimeLimit:
		return "time-limit"
	case EventCap:
		return "event-cap"
	case Stopped:
		return "stopped"
	case Livelock:
		return "livelock"
	}
	return fmt.Sprintf("StopReason(%d)", int(r))
}

// Limits bound one call to Run. The zero value runs to quiescence.
type Limits struct {
	// Until is the last virtual time at which events fire; 0 means no
	// limit. When Run stops for this reason the clock is advanced to Until.
	Until Time
	// MaxEvents caps the events fired by this call; 0 means no cap.
	MaxEvents uint64
	// MaxEventsAtInstant caps the events fired at one virtual time; 0
	// means no cap. Reaching it means the clock can no longer advance.
	MaxEventsAtInstant uint64
}

// Run fires events in (time, sequence) order until the queue is empty, the
// next event lies past lim.Until, lim.MaxEvents events have fired,
// lim.MaxEventsAtInstant events have fired at one virtual time, or an event
// calls Stop. It may be called again to continue.
func (k *Kernel) Run(lim Limits) StopReason {
	until := lim.Until
	if until == 0 {
		until = Forever
	}
	k.stop = false
	if k.window != 0 {
		k.enterWindow()
		defer pprof.SetGoroutineLabels(context.Background())
	}
	var n, atInstant uint64
	instant := k.now
	for {
		if k.q.len() == 0 {
			if until != Forever && until > k.now {
				k.now = until
				return TimeLimit
			}
			return Quiescent
		}
		h := k.q.next()
		at := h.ev[0].at
		if at > until {
			k.now = until
			return TimeLimit
		}
		if lim.MaxEvents != 0 && n >= lim.MaxEvents {
			return EventCap
		}
		if at != instant {
			instant, atInstant = at, 0
		}
		if lim.MaxEventsAtInstant != 0 && atInstant >= lim.MaxEventsAtInstant {
			return Livelock
		}
		atInstant++
		e := h.pop()
		if k.q.len() > 0 && !k.noPrefetch {
			// While e fires, bring the next event's handler into the
			// caches. In a large cluster it is most often a message due
			// to land (netsim's handler is the message) or a kubelet
			// whose timer is due, some 1.5 KB last read seconds of
			// virtual time ago: their first reads missed every cache (the
			// kubelets' timers' Fire alone was 2.75% of the 3,000-node
			// probe's loop; BenchmarkEventsColdHandlers, the forty-seventh
			// pass of docs/PERFORMANCE.md). The next event is the queue's
			// earliest now; one that e schedules before it only wastes
			// the prefetch.
			if nx := handlerData(k.q.next().ev[0].h); nx != handlerData(e.h) {
				prefetch(nx)
			}
		}
		k.now = e.at
		if k.window != 0 && k.now >= Time(k.windowN)*k.window {
			k.enterWindow()
		}
		k.fired++
		n++
		if k.progress != nil && k.fired&1023 == 0 {
			k.progress.fired.Store(k.fired)
		}
		e.h.Fire(k, e.arg)
		if k.stop {
			return Stopped
		}
	}
}

// RunFor runs until now+d (see Run).
func (k *Kernel) RunFor(d time.Duration) StopReason {
	return k.Run(Limits{Until: k.now.Add(d)})
}

// SetProfileWindow labels the CPU profiler's samples of the simulation's
// work (the event loop's and every process's, not a Sink's) with the
// window of virtual time in which it was done: label "virtual", the
// window's start as hh:mm:ss ("00:05:00" for the second of 5-minute
// windows), so that `go tool pprof -tags` (or -tagfocus) shows which part
// of a run's virtual time costs its wall time: a start-up storm or the
// steady state, a fault and the recovery after it. 0 turns labelling
// off. The labels are the goroutines' own (runtime/pprof), set as the
// clock enters a window; the event loop's goroutine is left without
// labels when Run returns. They change nothing the run computes. Each
// window entered costs one allocation: windows of seconds or more, not
// of a few events.
func (k *Kernel) SetProfileWindow(w time.Duration) {
	k.window, k.windowN, k.labels = Time(max(w, 0)), 0, nil
}

// ProfileWindow returns the window SetProfileWindow set (0: none).
func (k *Kernel) ProfileWindow() time.Duration { return time.Duration(k.window) }

// enterWindow labels the running goroutine with the window of now.
func (k *Kernel) enterWindow() {
	n := uint64(k.now / k.window)
	if n+1 != k.windowN {
		start := time.Duration(Time(n) * k.window)
		k.windowN = n + 1
		k.labels = pprof.WithLabels(context.Background(), pprof.Labels("virtual", windowLabel(start)))
	}
	pprof.SetGoroutineLabels(k.labels)
}

// windowLabel renders a window's start as hh:mm:ss, which sorts as time
// does up to 99 hours.
func windowLabel(d time.Duration) string {
	s := int64(d / time.Second)
	return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60)
}
