package netsim

import (
	"errors"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// ErrTimeout is the error of a call whose reply did not arrive in time. It is
// the same value whether the request was lost (the server never acted) or
// the reply was lost (it did): the caller cannot tell, and neither can any
// code that inspects the error.
var ErrTimeout = errors.New("netsim: call timed out")

// ErrNotRunning is returned by Call when p is nil or is not the process
// running now: only the running process can block.
var ErrNotRunning = errors.New("netsim: caller is not the running process")

// Server serves call requests arriving at an endpoint.
type Server interface {
	// Serve handles one delivered request. It runs on the event loop and
	// must not block; it may reply at once with c.Reply, keep c and reply
	// later (after simulated work), or never reply. A request the link
	// duplicated is served twice.
	Serve(c Call)
}

// ServerFunc adapts a function to Server.
type ServerFunc func(c Call)

// Serve calls f(c).
func (f ServerFunc) Serve(c Call) { f(c) }

// Call is one delivered request, as its server sees it. It is a small value:
// a server may copy and keep it as long as it likes, and Reply on a stale or
// zero Call is harmless, so no use-after-free is possible.
type Call struct {
	// Req is the request payload.
	Req any
	// From is the caller's endpoint; the reply travels To -> From.
	From *Endpoint
	// To is the server's endpoint.
	To *Endpoint
	// Seq is the request message's sequence number.
	Seq uint64
	// SentAt is the virtual time the request was sent.
	SentAt kernel.Time
	// Duplicated reports that the link delivers this request twice: both
	// deliveries carry the same Req, so a server that takes ownership of
	// (and changes) what it receives must copy it.
	Duplicated bool

	back *link // To -> From
	slot uint32
	gen  uint32
}

// Reply sends resp back to the caller through the reverse link, with that
// link's faults. The caller takes the first reply to arrive while it waits;
// later, duplicate or extra replies are discarded on arrival.
func (c Call) Reply(resp any) {
	l := c.back
	if l == nil {
		return
	}
	l.from.n.transmit(l, l.from, l.to, Reply, resp, c.slot, c.gen)
}

// Completer receives the outcome of a call started with CallAsync.
type Completer interface {
	// Complete runs on the event loop with the reply, or with a nil resp
	// and ErrTimeout. tag is the value given to CallAsync.
	Complete(tag uint64, resp any, err error)
}

// slotState is where a call slot is in its life.
type slotState uint8

const (
	slotFree     slotState = iota
	slotWaiting            // request sent, no reply yet
	slotReplied            // reply stored, caller not yet resumed
	slotTimedOut           // deadline passed, caller not yet resumed
)

// slot is a call in progress. Slots are reused; gen tells a reply for an
// earlier use of the slot from one for the current use.
type slot struct {
	gen      uint32
	state    slotState
	heap     int32 // index in Network.timers, -1 when not there
	seq      uint64
	deadline kernel.Time
	reqSeq   uint64
	p        *kernel.Process
	done     Completer
	tag      uint64
	resp     any
	link     *link // request link, for timeout counts; nil if unroutable
	from, to *Endpoint
}

// Call sends req from -> to, blocks p until the reply arrives or timeout
// passes, and returns the reply or ErrTimeout. A timeout of 0 or less waits
// forever. p must be the running process; Call returns ErrNotRunning
// otherwise. If p is killed while it waits, the call is abandoned and a
// reply arriving later is discarded.
func (n *Network) Call(p *kernel.Process, from, to *Endpoint, req any, timeout time.Duration) (resp any, err error) {
	if p == nil || n.k.Current() != p {
		return nil, ErrNotRunning
	}
	id := n.open(from, to, timeout)
	defer n.close(id) // also runs when a kill unwinds p
	n.slots[id].p = p
	n.request(id, req)
	for n.slots[id].state == slotWaiting {
		p.Park()
	}
	s := &n.slots[id]
	if s.state == slotReplied {
		return s.resp, nil
	}
	return nil, ErrTimeout
}

// CallAsync is Call for actors that are plain event callbacks rather than
// processes: it sends req from -> to and returns at once; c.Complete(tag,
// ...) runs later on the event loop with the reply or ErrTimeout. A timeout
// of 0 or less waits forever.
func (n *Network) CallAsync(from, to *Endpoint, req any, timeout time.Duration, c Completer, tag uint64) {
	id := n.open(from, to, timeout)
	s := &n.slots[id]
	s.done, s.tag = c, tag
	n.request(id, req)
}

// open takes a free slot for a call and arms its deadline.
func (n *Network) open(from, to *Endpoint, timeout time.Duration) uint32 {
	var id uint32
	if k := len(n.freeSlots); k > 0 {
		id = n.freeSlots[k-1]
		n.freeSlots = n.freeSlots[:k-1]
	} else {
		id = uint32(len(n.slots))
		n.slots = append(n.slots, slot{})
	}
	n.callSeq++
	s := &n.slots[id]
	s.state = slotWaiting
	s.seq = n.callSeq
	s.heap = -1
	s.from, s.to = from, to
	s.link = n.route(from, to)
	if timeout > 0 {
		if s.deadline = n.k.Now().Add(timeout); s.deadline != kernel.Forever {
			n.push(id)
			n.arm()
		}
	}
	return id
}

// request sends the request message of slot id.
func (n *Network) request(id uint32, req any) {
	s := &n.slots[id]
	s.reqSeq = n.seq + 1 // transmit takes the next sequence number
	n.transmit(s.link, s.from, s.to, Request, req, id, s.gen)
}

// close frees slot id after its caller has resumed or been killed.
func (n *Network) close(id uint32) {
	s := &n.slots[id]
	if s.heap >= 0 {
		n.remove(s.heap)
	}
	*s = slot{gen: s.gen + 1, heap: -1}
	n.freeSlots = append(n.freeSlots, id)
}

// complete hands a reply that arrived over l to the call in slot id, unless
// that call is over (timed out, answered, abandoned), in which case the
// reply is discarded.
func (n *Network) complete(l *link, id, gen uint32, resp any, seq uint64) {
	if int(id) >= len(n.slots) || n.slots[id].gen != gen || n.slots[id].state != slotWaiting {
		l.st.Discarded++
		n.st.Discarded++
		if n.tr != nil {
			n.tr.Trace(Record{At: n.k.Now(), Seq: seq, From: l.from, To: l.to, Op: OpDiscard, Kind: Reply})
		}
		return
	}
	s := &n.slots[id]
	if s.heap >= 0 {
		n.remove(s.heap)
	}
	if s.p != nil {
		s.state, s.resp = slotReplied, resp
		s.p.Wake()
		return
	}
	c, tag := s.done, s.tag
	n.close(id)
	if c != nil {
		c.Complete(tag, resp, nil)
	}
}

// expire times out slot id, whose deadline has passed.
func (n *Network) expire(id uint32) {
	s := &n.slots[id]
	if s.link != nil {
		s.link.st.Timeouts++
	}
	if s.from != nil {
		s.from.timeouts++
	}
	n.st.Timeouts++
	if n.tr != nil {
		n.tr.Trace(Record{At: n.k.Now(), Seq: s.reqSeq, From: s.from, To: s.to, Op: OpTimeout, Kind: Request})
	}
	if s.p != nil {
		s.state = slotTimedOut
		s.p.Wake()
		return
	}
	c, tag := s.done, s.tag
	n.close(id)
	if c != nil {
		c.Complete(tag, nil, ErrTimeout)
	}
}

// alarm is the Network seen as the kernel.Handler of call deadlines. At most
// one alarm is armed for the earliest deadline, so however long the timeouts
// and however many calls finish early, the kernel queue holds no stale
// timeout per call.
type alarm Network

var _ kernel.Handler = (*alarm)(nil)

// Fire times out every call whose deadline has come and re-arms.
func (a *alarm) Fire(k *kernel.Kernel, _ uint64) {
	n := (*Network)(a)
	now := k.Now()
	if now >= n.armed {
		n.armed = kernel.Forever
	}
	for len(n.timers) > 0 {
		id := n.timers[0].id
		if n.timers[0].at > now {
			break
		}
		n.remove(0)
		n.expire(id)
	}
	n.arm()
}

// arm schedules the alarm for the earliest deadline unless one is already
// armed at or before it.
func (n *Network) arm() {
	if len(n.timers) == 0 {
		return
	}
	if t := n.timers[0].at; t < n.armed {
		n.armed = t
		n.k.Schedule(t, (*alarm)(n), 0)
	}
}

// The deadline heap: a binary min-heap ordered by (deadline, seq), with
// each slot knowing its index so a call answered in time leaves the heap at
// once. Entries carry their keys, so sifting never touches the slots except
// to record the new index. Push and remove are O(log n) in the calls
// waiting.

// timer is one deadline heap entry.
type timer struct {
	at  kernel.Time
	seq uint64
	id  uint32
}

func (a *timer) less(b *timer) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

func (n *Network) push(id uint32) {
	s := &n.slots[id]
	n.timers = append(n.timers, timer{at: s.deadline, seq: s.seq, id: id})
	n.up(len(n.timers) - 1)
}

// remove takes entry i out of the heap.
func (n *Network) remove(i int32) {
	t := n.timers
	last := len(t) - 1
	n.slots[t[i].id].heap = -1
	if int(i) != last {
		t[i] = t[last]
		n.timers = t[:last]
		if !n.down(int(i)) {
			n.up(int(i))
		}
		return
	}
	n.timers = t[:last]
}

// up sifts entry i up, recording the final index in its slot.
func (n *Network) up(i int) {
	t := n.timers
	e := t[i]
	for i > 0 {
		p := (i - 1) / 2
		if !e.less(&t[p]) {
			break
		}
		t[i] = t[p]
		n.slots[t[i].id].heap = int32(i)
		i = p
	}
	t[i] = e
	n.slots[e.id].heap = int32(i)
}

// down sifts entry i down, recording indices, and reports whether it moved.
func (n *Network) down(i int) bool {
	t := n.timers
	e := t[i]
	start := i
	m := len(t)
	for {
		c := 2*i + 1
		if c >= m {
			break
		}
		if r := c + 1; r < m && t[r].less(&t[c]) {
			c = r
		}
		if !t[c].less(&e) {
			break
		}
		t[i] = t[c]
		n.slots[t[i].id].heap = int32(i)
		i = c
	}
	t[i] = e
	n.slots[e.id].heap = int32(i)
	return i > start
}
