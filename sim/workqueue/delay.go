package workqueue

import "github.com/clustersim/clustersim/sim/kernel"

// pending is one delayed item: client-go's waitFor.
type pending[T comparable] struct {
	item  T
	ready kernel.Time
	// seq is the order of the AddAfter call that set ready; it breaks ties
	// between equal ready times.
	seq   uint64
	index int // position in delaying.heap
}

// delaying is the delaying half of a queue: client-go's waitingForQueue on
// virtual time. Pending entries sit in a binary min-heap ordered by (ready,
// seq), with an index from item to entry for de-duplication. One kernel
// event is armed, for the earliest ready time; an event superseded by an
// earlier one carries an old token and fires as a no-op. Entries are
// recycled, so a steady state of AddAfter calls allocates nothing.
type delaying[T comparable] struct {
	q     *Queue[T]
	heap  []*pending[T]
	index map[T]*pending[T]
	free  []*pending[T]
	seq   uint64
	// armed is the time of the live timer event, kernel.Forever if none;
	// token identifies it.
	armed kernel.Time
	token uint64
}

func (d *delaying[T]) init(q *Queue[T]) {
	d.q = q
	d.index = make(map[T]*pending[T])
	d.armed = kernel.Forever
}

func (d *delaying[T]) len() int { return len(d.heap) }

// add schedules item to be added at ready, or moves its pending entry to
// ready if that is earlier (client-go's insert).
func (d *delaying[T]) add(item T, ready kernel.Time) {
	d.seq++
	if e, ok := d.index[item]; ok {
		if ready < e.ready {
			e.ready = ready
			e.seq = d.seq
			d.up(e.index)
			d.arm()
		}
		return
	}
	var e *pending[T]
	if n := len(d.free); n > 0 {
		e = d.free[n-1]
		d.free[n-1] = nil
		d.free = d.free[:n-1]
	} else {
		e = new(pending[T])
	}
	*e = pending[T]{item: item, ready: ready, seq: d.seq, index: len(d.heap)}
	d.heap = append(d.heap, e)
	d.index[item] = e
	d.up(e.index)
	d.arm()
}

// arm schedules the timer for the earliest ready time unless an event at
// that time or earlier is already live. An entry ready at kernel.Forever is
// never ready and gets no event.
func (d *delaying[T]) arm() {
	if len(d.heap) == 0 {
		return
	}
	at := d.heap[0].ready
	if at >= d.armed || at == kernel.Forever {
		return
	}
	d.token++
	d.armed = at
	d.q.k.Schedule(at, d, d.token)
}

// Fire adds every entry whose time has come, in (ready, seq) order, and
// re-arms the timer. It implements kernel.Handler; events with an old token
// are ignored.
func (d *delaying[T]) Fire(k *kernel.Kernel, token uint64) {
	if token != d.token {
		return
	}
	d.armed = kernel.Forever
	now := k.Now()
	for len(d.heap) > 0 && d.heap[0].ready <= now {
		e := d.pop()
		item := e.item
		d.recycle(e)
		d.q.Add(item)
	}
	d.arm()
}

// clear drops every pending entry and disarms the timer (ShutDown).
func (d *delaying[T]) clear() {
	for _, e := range d.heap {
		delete(d.index, e.item)
		d.recycle(e)
	}
	clear(d.heap)
	d.heap = d.heap[:0]
	d.token++
	d.armed = kernel.Forever
}

func (d *delaying[T]) recycle(e *pending[T]) {
	*e = pending[T]{}
	d.free = append(d.free, e)
}

func (d *delaying[T]) less(i, j int) bool {
	a, b := d.heap[i], d.heap[j]
	if a.ready != b.ready {
		return a.ready < b.ready
	}
	return a.seq < b.seq
}

func (d *delaying[T]) swap(i, j int) {
	h := d.heap
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}

func (d *delaying[T]) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !d.less(i, p) {
			return
		}
		d.swap(i, p)
		i = p
	}
}

func (d *delaying[T]) down(i int) {
	n := len(d.heap)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && d.less(r, c) {
			c = r
		}
		if !d.less(c, i) {
			return
		}
		d.swap(i, c)
		i = c
	}
}

// pop removes and returns the earliest entry and drops it from the index.
// The heap must not be empty.
func (d *delaying[T]) pop() *pending[T] {
	n := len(d.heap) - 1
	d.swap(0, n)
	e := d.heap[n]
	d.heap[n] = nil
	d.heap = d.heap[:n]
	d.down(0)
	delete(d.index, e.item)
	return e
}
