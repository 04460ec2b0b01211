package workqueue

import (
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// Flags of an item the queue knows about. An item with neither is absent
// from Queue.state.
const (
	// dirty: the item needs processing (it is queued, or it was added
	// again while being processed).
	dirty uint8 = 1 << iota
	// processing: a worker got the item and has not called Done.
	processing
)

// slot is what the queue knows of one item.
type slot struct {
	// added is when the item was last marked dirty, for the queue-wait
	// metric (client-go's queue_duration starts at the Add, even when the
	// item then waits for its own processing to finish).
	added kernel.Time
	flags uint8
}

// Queue is a rate-limited work queue (client-go TypedRateLimitingInterface)
// whose workers are kernel processes. Create one with New; the zero value
// is not usable. A Queue belongs to one kernel and is not safe for
// concurrent use.
type Queue[T comparable] struct {
	k       *kernel.Kernel
	limiter RateLimiter[T]

	// fifo holds the items ready for Get, each dirty and not processing:
	// in the order they were queued, or by priority (NewPriority).
	fifo readyQ[T]
	// state holds every item that is dirty, processing or both. It is
	// looked up, never iterated.
	state map[T]slot
	// nproc counts the items with the processing flag.
	nproc int
	// waiters are workers blocked in Get; drainers are callers blocked in
	// ShutDownWithDrain.
	waiters  kernel.WaitList
	drainers kernel.WaitList

	delay delaying[T]

	down  bool
	drain bool

	adds, gets, dones, retries uint64
	longestWait, totalWait     time.Duration
}

// New returns an empty queue on kernel k whose AddRateLimited asks limiter
// for delays. A nil limiter means DefaultControllerRateLimiter(k).
func New[T comparable](k *kernel.Kernel, limiter RateLimiter[T]) *Queue[T] {
	if limiter == nil {
		limiter = DefaultControllerRateLimiter[T](k)
	}
	q := &Queue[T]{k: k, limiter: limiter, state: make(map[T]slot)}
	q.delay.init(q)
	return q
}

// NewPriority returns a queue like New's whose Get hands out the ready
// item of the highest priority first, and items of equal priority in the
// order they were queued (as a FIFO queue would). prio is asked once each
// time an item is queued (by Add, a delayed item becoming ready, or Done
// of an item added while it was processed); an item keeps that priority
// while it waits. A nil prio makes a FIFO queue.
func NewPriority[T comparable](k *kernel.Kernel, limiter RateLimiter[T], prio func(T) int64) *Queue[T] {
	q := New(k, limiter)
	q.fifo.prio = prio
	return q
}

// Add marks item as needing processing. It does nothing if the queue is
// shutting down or item is already waiting to be processed; if item is
// being processed it is queued again when its worker calls Done. Otherwise
// item goes to the tail of the queue and the longest-waiting worker is
// woken.
func (q *Queue[T]) Add(item T) {
	if q.down {
		return
	}
	s := q.state[item]
	if s.flags&dirty != 0 {
		return
	}
	q.adds++
	q.state[item] = slot{added: q.k.Now(), flags: s.flags | dirty}
	if s.flags&processing != 0 {
		return
	}
	q.fifo.push(item)
	q.waiters.WakeOne()
}

// Len returns the number of items queued for Get, not counting delayed
// items or items being processed.
func (q *Queue[T]) Len() int { return q.fifo.len() }

// Get blocks p until an item is queued or the queue is shut down, then
// returns the head of the queue. It returns shutdown = true, and the zero
// item, only when the queue is shut down and empty: items queued before
// ShutDown are still handed out. The worker must call Done(item) when it
// has finished with the item. p must be the running process; Get blocks it
// only while the queue is empty.
func (q *Queue[T]) Get(p *kernel.Process) (item T, shutdown bool) {
	if q.fifo.len() == 0 && !q.down {
		q.wait(p)
	}
	if q.fifo.len() == 0 {
		return item, true
	}
	item = q.fifo.pop()
	s := q.state[item]
	q.state[item] = slot{flags: processing}
	q.nproc++
	q.gets++
	w := q.k.Now().Sub(s.added)
	q.totalWait += w
	q.longestWait = max(q.longestWait, w)
	return item, false
}

// wait parks p until the queue has an item or is shut down. If p is killed
// while parked, its unwinding hands any wake-up it may have been given to
// the next waiting worker, so that a queued item is not left behind a dead
// worker.
func (q *Queue[T]) wait(p *kernel.Process) {
	if p == nil {
		panic("workqueue invariant get-in-process: Get must block but was given no process")
	}
	unwound := true
	defer func() {
		if unwound && q.fifo.len() > 0 {
			q.waiters.WakeOne()
		}
	}()
	for q.fifo.len() == 0 && !q.down {
		q.waiters.Wait(p)
	}
	unwound = false
}

// Done marks item as processed. If item was added again while it was being
// processed it goes back to the tail of the queue. Done of an item that is
// not being processed does nothing (client-go would queue a dirty item a
// second time).
func (q *Queue[T]) Done(item T) {
	s, ok := q.state[item]
	if !ok || s.flags&processing == 0 {
		return
	}
	q.dones++
	q.nproc--
	if s.flags&dirty != 0 {
		q.state[item] = slot{added: s.added, flags: dirty}
		q.fifo.push(item)
		q.waiters.WakeOne()
	} else {
		delete(q.state, item)
	}
	if q.nproc == 0 {
		q.drainers.WakeAll()
	}
}

// ShutDown makes the queue ignore Add and AddAfter, drops the delayed
// items, and wakes every waiting worker: each gets the items still queued,
// then shutdown = true. It may be called more than once, and it ends a
// ShutDownWithDrain that is still waiting.
func (q *Queue[T]) ShutDown() {
	q.drain = false
	q.shutdown()
	q.drainers.WakeAll()
}

// ShutDownWithDrain shuts the queue down as ShutDown does, then blocks p
// until every item handed out has been Done, or until ShutDown is called.
// Workers must therefore call Done on every item they get. With a nil p it
// returns at once, like ShutDown.
func (q *Queue[T]) ShutDownWithDrain(p *kernel.Process) {
	q.drain = true
	q.shutdown()
	for p != nil && q.drain && q.nproc > 0 {
		q.drainers.Wait(p)
	}
}

func (q *Queue[T]) shutdown() {
	q.down = true
	q.delay.clear()
	q.waiters.WakeAll()
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain was called.
func (q *Queue[T]) ShuttingDown() bool { return q.down }

// AddAfter adds item once d of virtual time has passed; d <= 0 adds it at
// once. It does nothing if the queue is shutting down. An item waits in at
// most one delayed entry: a second AddAfter moves it earlier, never later.
// Items whose ready times tie become ready in the order of the AddAfter
// calls that set those times.
func (q *Queue[T]) AddAfter(item T, d time.Duration) {
	if q.down {
		return
	}
	q.retries++
	if d <= 0 {
		q.Add(item)
		return
	}
	q.delay.add(item, q.k.Now().Add(d))
}

// AddRateLimited adds item after the delay the rate limiter gives it,
// counting a failure of item. As in client-go the limiter is asked even
// when the queue is shutting down and the add is then ignored.
func (q *Queue[T]) AddRateLimited(item T) {
	q.AddAfter(item, q.limiter.When(item))
}

// Forget tells the rate limiter to stop tracking item's failures. It does
// not remove item from the queue; call Done as well.
func (q *Queue[T]) Forget(item T) { q.limiter.Forget(item) }

// NumRequeues returns the number of failures the rate limiter tracks for
// item.
func (q *Queue[T]) NumRequeues(item T) int { return q.limiter.NumRequeues(item) }

// Metrics is a snapshot of a queue's counters, after client-go's workqueue
// metrics.
type Metrics struct {
	// Adds counts Add calls that marked an item dirty (client-go
	// adds_total); an Add of an item already waiting is not counted.
	Adds uint64
	// Gets counts items handed out by Get.
	Gets uint64
	// Dones counts Done calls for items being processed.
	Dones uint64
	// Retries counts AddAfter calls made before shutdown, AddRateLimited
	// included (client-go retries_total).
	Retries uint64
	// Depth is the number of items queued now (Len; client-go depth).
	Depth int
	// Processing is the number of items handed out and not yet Done.
	Processing int
	// Delayed is the number of items waiting for their AddAfter time.
	Delayed int
	// LongestWait is the longest virtual time an item spent between being
	// marked dirty and being handed out (the maximum of client-go's
	// queue_duration).
	LongestWait time.Duration
	// TotalWait sums that time over every Get; TotalWait/Gets is the mean.
	TotalWait time.Duration
}

// Metrics returns the queue's counters now.
func (q *Queue[T]) Metrics() Metrics {
	return Metrics{
		Adds:        q.adds,
		Gets:        q.gets,
		Dones:       q.dones,
		Retries:     q.retries,
		Depth:       q.fifo.len(),
		Processing:  q.nproc,
		Delayed:     q.delay.len(),
		LongestWait: q.longestWait,
		TotalWait:   q.totalWait,
	}
}
