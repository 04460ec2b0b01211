package kernel

import "time"

// Handler is anything an event can be delivered to. Long-lived actors
// (a kubelet, a network link, a process) implement it once and schedule
// themselves with different args, so scheduling allocates nothing.
type Handler interface {
	// Fire runs the event. arg is the value given when it was scheduled.
	Fire(k *Kernel, arg uint64)
}

// Func adapts a plain function to Handler; its arg is ignored. Converting a
// func to Handler does not allocate, though building a capturing closure
// might: prefer a long-lived Handler on hot paths.
type Func func()

// Fire calls f.
func (f Func) Fire(*Kernel, uint64) { f() }

// event is one entry of the queue. It is stored by value: the queue never
// allocates per event once its backing array has grown.
type event struct {
	at  Time
	seq uint64
	h   Handler
	arg uint64
}

func (e *event) less(o *event) bool {
	if e.at != o.at {
		return e.at < o.at
	}
	return e.seq < o.seq
}

// heap is a 4-ary min-heap of events ordered by (at, seq). Sequence
// numbers are unique, so the order is total and never depends on heap
// layout. Push and pop are O(log4 n).
type heap struct {
	ev []event
}

func (q *heap) len() int { return len(q.ev) }

func (q *heap) push(e event) {
	q.ev = append(q.ev, e)
	// sift up
	ev := q.ev
	i := len(ev) - 1
	for i > 0 {
		p := (i - 1) >> 2
		if !ev[i].less(&ev[p]) {
			break
		}
		ev[i], ev[p] = ev[p], ev[i]
		i = p
	}
}

// pop removes and returns the earliest event. The queue must not be empty.
func (q *heap) pop() event {
	ev := q.ev
	top := ev[0]
	n := len(ev) - 1
	last := ev[n]
	ev[n] = event{} // drop the handler reference for the GC
	ev = ev[:n]
	q.ev = ev
	if n == 0 {
		return top
	}
	// sift down the last element from the root
	i := 0
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		m := c
		end := c + 4
		if end > n {
			end = n
		}
		for j := c + 1; j < end; j++ {
			if ev[j].less(&ev[m]) {
				m = j
			}
		}
		if !ev[m].less(&last) {
			break
		}
		ev[i] = ev[m]
		i = m
	}
	ev[i] = last
	return top
}

// queue holds the pending events in two heaps, split by how far ahead
// an event lies when it is scheduled: near (at most nearHorizon ahead:
// network deliveries, replies, work done at once) and far (timers: lease
// renewals, status reports, resyncs, one or more per node). The earliest
// event is the lesser of the two heaps' tops, so events fire in exactly
// the order one heap gives (TestQueueOrdersByTimeThenSequence,
// FuzzQueue). The split keeps the events that come and go fastest, most
// of those fired, in a heap of a few thousand that stays in the
// processor's caches, out of the way of a large cluster's hundred
// thousand timers, which are pushed near the bottom of theirs and stay
// there until due.
type queue struct {
	near, far heap
}

// nearHorizon is how far ahead an event may lie to go into the near
// heap: longer than the network latencies scenarios use (milliseconds),
// shorter than the kubelets' and controllers' periods (seconds).
const nearHorizon = Time(100 * time.Millisecond)

func (q *queue) len() int { return q.near.len() + q.far.len() }

// push adds e, scheduled at now.
func (q *queue) push(e event, now Time) {
	if e.at-now <= nearHorizon {
		q.near.push(e)
	} else {
		q.far.push(e)
	}
}

// next returns the heap whose top is the earliest event. The queue must
// not be empty.
func (q *queue) next() *heap {
	switch {
	case len(q.far.ev) == 0:
		return &q.near
	case len(q.near.ev) == 0, q.far.ev[0].less(&q.near.ev[0]):
		return &q.far
	}
	return &q.near
}

// pop removes and returns the earliest event. The queue must not be empty.
func (q *queue) pop() event { return q.next().pop() }
