package kernel

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

// queue is a 4-ary min-heap of events ordered by (at, seq). Sequence numbers
// are unique, so the order is total and never depends on heap layout.
// Push and pop are O(log4 n).
type queue struct {
	ev []event
}

func (q *queue) len() int { return len(q.ev) }

func (q *queue) push(e event) {
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
func (q *queue) pop() event {
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

// peek returns the earliest event's time. The queue must not be empty.
func (q *queue) peek() Time { return q.ev[0].at }
