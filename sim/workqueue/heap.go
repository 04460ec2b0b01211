package workqueue

// entry is an item in a priority queue's heap: its priority, taken when
// it was queued, and the queue's add sequence number then, so that items
// of equal priority come out in the order they were queued.
type entry[T any] struct {
	item T
	prio int64
	seq  uint64
}

// prioHeap is a binary max-heap of entries: higher prio first, then
// lower seq. The order is total (seq is unique), so what comes out never
// depends on how the heap happens to be laid out.
type prioHeap[T any] struct {
	es  []entry[T]
	seq uint64
}

func (h *prioHeap[T]) len() int { return len(h.es) }

func (h *prioHeap[T]) before(i, j int) bool {
	a, b := &h.es[i], &h.es[j]
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	return a.seq < b.seq
}

func (h *prioHeap[T]) push(v T, prio int64) {
	h.seq++
	h.es = append(h.es, entry[T]{item: v, prio: prio, seq: h.seq})
	for i := len(h.es) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.before(i, p) {
			break
		}
		h.es[i], h.es[p] = h.es[p], h.es[i]
		i = p
	}
}

// pop removes and returns the first entry's item. The heap must not be
// empty.
func (h *prioHeap[T]) pop() T {
	n := len(h.es) - 1
	v := h.es[0].item
	h.es[0] = h.es[n]
	h.es[n] = entry[T]{} // drop references for the GC
	h.es = h.es[:n]
	for i := 0; ; {
		l, best := 2*i+1, i
		if l < n && h.before(l, best) {
			best = l
		}
		if r := l + 1; r < n && h.before(r, best) {
			best = r
		}
		if best == i {
			break
		}
		h.es[i], h.es[best] = h.es[best], h.es[i]
		i = best
	}
	return v
}

// readyQ is the queue of items ready for Get: a FIFO ring, or, when the
// queue was made with NewPriority, a heap ordered by priority then by the
// order items were queued.
type readyQ[T any] struct {
	prio func(T) int64
	ring ring[T]
	heap prioHeap[T]
}

func (r *readyQ[T]) len() int {
	if r.prio != nil {
		return r.heap.len()
	}
	return r.ring.len()
}

func (r *readyQ[T]) push(v T) {
	if r.prio != nil {
		r.heap.push(v, r.prio(v))
		return
	}
	r.ring.push(v)
}

func (r *readyQ[T]) pop() T {
	if r.prio != nil {
		return r.heap.pop()
	}
	return r.ring.pop()
}
