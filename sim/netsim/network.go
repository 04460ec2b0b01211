package netsim

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/kernel"
)

// Addr is an endpoint's name, such as "apiserver", "controller/deployment",
// "kubelet/node-1" or "user/alice".
type Addr string

// Network is one simulated network on one kernel. Like the kernel it is not
// safe for concurrent use: everything runs on the event loop or in the one
// running process.
type Network struct {
	k *kernel.Kernel

	eps    []*Endpoint
	byAddr map[Addr]*Endpoint

	def       LinkConfig
	overrides map[[2]Addr]LinkConfig
	links     map[uint64]*link // key: from.id<<32 | to.id
	linkList  []*link          // creation order, for SetDefault and Links

	pooled int      // messages allocated for the pool, free or in flight
	free   *Message // free list through Message.next
	seq    uint64   // last message sequence number

	// partitions: bit i of an endpoint's sideA/sideB says it is on that
	// side of parts[i]; twoWay has bit i set when parts[i] blocks b->a too.
	parts  [maxPartitions]*partition
	active uint64
	twoWay uint64
	byName map[string]*partition
	downs  int // endpoints down

	// calls
	slots     []slot
	freeSlots []uint32
	timers    []timer // min-heap of waiting calls by (deadline, seq)
	armed     kernel.Time
	callSeq   uint64

	streamSeq uint64

	st Stats // network-wide totals
	tr Tracer
}

// New returns an empty network on k whose links all start as the zero
// LinkConfig (instant and lossless).
func New(k *kernel.Kernel) *Network {
	return &Network{
		k:         k,
		byAddr:    make(map[Addr]*Endpoint),
		overrides: make(map[[2]Addr]LinkConfig),
		links:     make(map[uint64]*link),
		byName:    make(map[string]*partition),
		armed:     kernel.Forever,
	}
}

// Kernel returns the kernel the network runs on.
func (n *Network) Kernel() *kernel.Kernel { return n.k }

// SetTracer installs t to observe every message; nil (the default) turns
// tracing off at the cost of one nil check per event.
func (n *Network) SetTracer(t Tracer) { n.tr = t }

// Endpoint is one addressable party on a network. Messages are delivered to
// its Receiver, call requests to its Server.
type Endpoint struct {
	n    *Network
	id   int
	addr Addr
	recv Receiver
	srv  Server
	down bool

	sideA, sideB uint64 // partition membership bits

	last *link // one-entry cache of the last outgoing link used

	timeouts uint64 // calls from this endpoint that timed out
}

// CallTimeouts is how many calls made from the endpoint timed out (their
// request or reply was lost, or the server did not answer in time).
func (e *Endpoint) CallTimeouts() uint64 { return e.timeouts }

// Endpoint registers addr, or returns the endpoint already registered under
// it. Ids are given in registration order, starting at 0.
func (n *Network) Endpoint(addr Addr) *Endpoint {
	if e, ok := n.byAddr[addr]; ok {
		return e
	}
	e := &Endpoint{n: n, id: len(n.eps), addr: addr}
	for i := range maxPartitions {
		if p := n.parts[i]; p != nil {
			if p.a[addr] {
				e.sideA |= 1 << i
			}
			if p.b[addr] {
				e.sideB |= 1 << i
			}
		}
	}
	n.eps = append(n.eps, e)
	n.byAddr[addr] = e
	return e
}

// Lookup returns the endpoint registered under addr, if any, without
// registering it.
func (n *Network) Lookup(addr Addr) (*Endpoint, bool) {
	e, ok := n.byAddr[addr]
	return e, ok
}

// Endpoints returns every endpoint in registration order. The slice is a
// copy.
func (n *Network) Endpoints() []*Endpoint { return slices.Clone(n.eps) }

// Addr returns the endpoint's name; a nil endpoint's name is "".
func (e *Endpoint) Addr() Addr {
	if e == nil {
		return ""
	}
	return e.addr
}

// ID returns the endpoint's registration number, or -1 for nil.
func (e *Endpoint) ID() int {
	if e == nil {
		return -1
	}
	return e.id
}

// String returns the endpoint's address.
func (e *Endpoint) String() string { return string(e.Addr()) }

// SetReceiver installs the receiver of datagrams sent to e; nil makes them
// unreachable.
func (e *Endpoint) SetReceiver(r Receiver) { e.recv = r }

// SetServer installs the server of call requests sent to e; nil makes them
// unreachable, so their callers time out.
func (e *Endpoint) SetServer(s Server) { e.srv = s }

// SetDown takes e off the network (true) or puts it back (false). A down
// endpoint neither sends nor receives: its traffic is dropped as
// unreachable, in flight included, and a stream to or from it breaks when it
// next carries a message. This is how a crashed node or an unavailable API
// server looks from outside; its receiver and server stay installed for
// when it comes back.
func (e *Endpoint) SetDown(down bool) {
	if e.down != down {
		e.down = down
		if down {
			e.n.downs++
		} else {
			e.n.downs--
		}
	}
}

// Down reports whether e is down.
func (e *Endpoint) Down() bool { return e.down }

// Message is one copy of a message being delivered. Messages are pooled:
// a *Message is valid only until the Receive call it was passed to returns;
// keep its fields, not the pointer.
type Message struct {
	// From is the sending endpoint.
	From *Endpoint
	// To is the receiving endpoint.
	To *Endpoint
	// Payload is what the sender sent; the network never looks inside.
	Payload any
	// SentAt is the virtual time of the send.
	SentAt kernel.Time
	// Seq is the per-network sequence number of the send, starting at 1;
	// a duplicate carries its original's.
	Seq uint64
	// Stream is the stream a StreamData message travels on; nil otherwise.
	Stream *Stream

	kind Kind
	link *link
	dup  bool   // the link delivers this message twice
	slot uint32 // call slot of a request or reply
	gen  uint32 // the slot's generation when the call began
	next *Message
	net  *Network
}

// Receiver takes delivery of datagrams (and, as part of StreamReceiver, of
// stream messages). Receive runs on the event loop and must not block.
type Receiver interface {
	// Receive handles one message; m is valid only during the call.
	Receive(m *Message)
}

// ReceiverFunc adapts a function to Receiver.
type ReceiverFunc func(m *Message)

// Receive calls f(m).
func (f ReceiverFunc) Receive(m *Message) { f(m) }

// alloc takes a message from the free list, growing the pool in chunks.
func (n *Network) alloc() *Message {
	m := n.free
	if m == nil {
		chunk := make([]Message, 64)
		n.pooled += len(chunk)
		for i := range chunk {
			c := &chunk[i]
			c.net = n
			c.next = n.free
			n.free = c
		}
		m = n.free
	}
	n.free = m.next
	m.next = nil
	return m
}

// release returns m to the free list, dropping its references.
func (n *Network) release(m *Message) {
	*m = Message{next: n.free, net: n}
	n.free = m
}

// route returns the link from -> to, creating both directions on first use.
// A nil or foreign endpoint has no link.
func (n *Network) route(from, to *Endpoint) *link {
	if from == nil || to == nil || from.n != n || to.n != n {
		return nil
	}
	if l := from.last; l != nil && l.to == to {
		return l
	}
	l := n.links[uint64(from.id)<<32|uint64(to.id)]
	if l == nil {
		l = n.newLink(from, to)
		if from != to {
			l.rev = n.newLink(to, from)
			l.rev.rev = l
		} else {
			l.rev = l
		}
	}
	from.last = l
	return l
}

func (n *Network) newLink(from, to *Endpoint) *link {
	name := "net/link/" + string(from.addr) + "->" + string(to.addr)
	l := &link{from: from, to: to, cfg: n.def, rng: n.k.Rand(name)}
	if c, ok := n.overrides[[2]Addr{from.addr, to.addr}]; ok {
		l.cfg, l.custom = c, true
	}
	n.links[uint64(from.id)<<32|uint64(to.id)] = l
	n.linkList = append(n.linkList, l)
	return l
}

// blocked reports whether a partition or a down end stops traffic on l.
// With no partition active and no endpoint down it reads no endpoint.
func (n *Network) blocked(l *link) (bool, Cause) {
	if n.active == 0 && n.downs == 0 {
		return false, CauseNone
	}
	f, t := l.from, l.to
	if f.down || t.down {
		return true, CauseUnreachable
	}
	if f.sideA&t.sideB|f.sideB&t.sideA&n.twoWay != 0 {
		return true, CausePartition
	}
	return false, CauseNone
}

// SetDefault sets the configuration of every link that has no SetLink
// override, including links created later.
func (n *Network) SetDefault(c LinkConfig) error {
	if err := c.Validate(); err != nil {
		return err
	}
	n.def = c
	for _, l := range n.linkList {
		if !l.custom {
			l.cfg = c
		}
	}
	return nil
}

// Default returns the default link configuration.
func (n *Network) Default() LinkConfig { return n.def }

// SetLink overrides the configuration of one direction, from -> to. The
// endpoints need not be registered yet.
func (n *Network) SetLink(from, to Addr, c LinkConfig) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("link %s->%s: %w", from, to, err)
	}
	n.overrides[[2]Addr{from, to}] = c
	if l := n.existing(from, to); l != nil {
		l.cfg, l.custom = c, true
	}
	return nil
}

// SetLinkBoth overrides both directions between a and b with c.
func (n *Network) SetLinkBoth(a, b Addr, c LinkConfig) error {
	if err := n.SetLink(a, b, c); err != nil {
		return err
	}
	return n.SetLink(b, a, c)
}

// ClearLink removes the override of from -> to so the direction follows the
// default again.
func (n *Network) ClearLink(from, to Addr) {
	delete(n.overrides, [2]Addr{from, to})
	if l := n.existing(from, to); l != nil {
		l.cfg, l.custom = n.def, false
	}
}

// Link returns the configuration in force for from -> to.
func (n *Network) Link(from, to Addr) LinkConfig {
	if c, ok := n.overrides[[2]Addr{from, to}]; ok {
		return c
	}
	return n.def
}

// SetStreamLoss sets the probability, in [0, 1], that a stream message from
// -> to is silently lost without breaking its stream. It overrides the
// direction's StreamLoss and leaves its other settings as they are.
func (n *Network) SetStreamLoss(from, to Addr, p float64) error {
	c := n.Link(from, to)
	c.StreamLoss = p
	return n.SetLink(from, to, c)
}

func (n *Network) existing(from, to Addr) *link {
	f, ok1 := n.byAddr[from]
	t, ok2 := n.byAddr[to]
	if !ok1 || !ok2 {
		return nil
	}
	return n.links[uint64(f.id)<<32|uint64(t.id)]
}

// Stats returns the network-wide counters.
func (n *Network) Stats() Stats { return n.st }

// LinkStats returns the counters of from -> to; zero if the direction has
// carried no traffic.
func (n *Network) LinkStats(from, to Addr) Stats {
	if l := n.existing(from, to); l != nil {
		return l.st
	}
	return Stats{}
}

// Links returns every link direction that exists (has carried traffic),
// sorted by (From, To).
func (n *Network) Links() []LinkStats {
	out := make([]LinkStats, 0, len(n.linkList))
	for _, l := range n.linkList {
		out = append(out, LinkStats{From: l.from.addr, To: l.to.addr, Config: l.cfg, Stats: l.st})
	}
	slices.SortFunc(out, func(a, b LinkStats) int {
		if c := strings.Compare(string(a.From), string(b.From)); c != 0 {
			return c
		}
		return strings.Compare(string(a.To), string(b.To))
	})
	return out
}

// Send sends payload from -> to as a datagram through the link's faults.
// It is delivered, perhaps twice, perhaps never, to to's Receiver. Sending
// to or from a nil, foreign or down endpoint loses the message.
func (n *Network) Send(from, to *Endpoint, payload any) {
	l := n.route(from, to)
	n.transmit(l, from, to, Datagram, payload, 0, 0)
}

// transmit sends one datagram, request or reply over l (nil: unroutable)
// with every link fault applied.
func (n *Network) transmit(l *link, from, to *Endpoint, kind Kind, payload any, slot, gen uint32) {
	n.seq++
	seq := n.seq
	now := n.k.Now()
	if l == nil {
		n.st.Sent++
		n.st.DropUnreachable++
		if n.tr != nil {
			n.tr.Trace(Record{At: now, Seq: seq, From: from, To: to, Op: OpSend, Kind: kind})
			n.tr.Trace(Record{At: now, Seq: seq, From: from, To: to, Op: OpDrop, Kind: kind, Cause: CauseUnreachable})
		}
		return
	}
	l.st.Sent++
	n.st.Sent++
	cause := CauseNone
	if b, c := n.blocked(l); b {
		cause = c
	} else if l.hit(l.cfg.Drop) {
		cause = CauseLink
	}
	if cause != CauseNone {
		if n.tr != nil {
			n.tr.Trace(Record{At: now, Seq: seq, From: from, To: to, Op: OpSend, Kind: kind})
		}
		n.drop(l, seq, kind, cause)
		return
	}
	due, first := n.schedule(l, kind, payload, seq, now, slot, gen)
	if n.tr != nil {
		n.tr.Trace(Record{At: now, Due: due, Seq: seq, From: from, To: to, Op: OpSend, Kind: kind})
	}
	if l.hit(l.cfg.Duplicate) {
		l.st.Duplicated++
		n.st.Duplicated++
		due, second := n.schedule(l, kind, payload, seq, now, slot, gen)
		first.dup, second.dup = true, true
		if n.tr != nil {
			n.tr.Trace(Record{At: now, Due: due, Seq: seq, From: from, To: to, Op: OpDuplicate, Kind: kind})
		}
	}
}

// schedule draws one copy's delay (latency, reorder, spike) and schedules
// its delivery; it returns the delivery time.
func (n *Network) schedule(l *link, kind Kind, payload any, seq uint64, now kernel.Time, slot, gen uint32) (kernel.Time, *Message) {
	d := l.latency()
	if l.hit(l.cfg.Reorder) {
		d = addDelay(d, l.cfg.ReorderDelay)
		l.st.Reordered++
		n.st.Reordered++
	}
	if x, ok := l.spike(); ok {
		d = addDelay(d, x)
		l.st.Delayed++
		n.st.Delayed++
	}
	m := n.alloc()
	m.From, m.To, m.Payload, m.SentAt, m.Seq = l.from, l.to, payload, now, seq
	m.kind, m.link, m.slot, m.gen = kind, l, slot, gen
	due := now.Add(d)
	n.k.Schedule(due, (*landing)(m), 0)
	return due, m
}

// drop counts and traces the loss of one copy on l.
func (n *Network) drop(l *link, seq uint64, kind Kind, cause Cause) {
	switch cause {
	case CauseLink:
		l.st.DropLink++
		n.st.DropLink++
	case CausePartition:
		l.st.DropPartition++
		n.st.DropPartition++
	case CauseUnreachable:
		l.st.DropUnreachable++
		n.st.DropUnreachable++
	case CauseLoss:
		l.st.DropLoss++
		n.st.DropLoss++
	case CauseBroken:
		l.st.DropBroken++
		n.st.DropBroken++
	}
	if n.tr != nil {
		n.tr.Trace(Record{At: n.k.Now(), Seq: seq, From: l.from, To: l.to, Op: OpDrop, Kind: kind, Cause: cause})
	}
}

// delivered counts and traces the arrival of m.
func (n *Network) delivered(m *Message) {
	m.link.st.Delivered++
	n.st.Delivered++
	if n.tr != nil {
		n.tr.Trace(Record{At: n.k.Now(), Seq: m.Seq, From: m.From, To: m.To, Op: OpDeliver, Kind: m.kind})
	}
}

// landing is a Message seen as the kernel.Handler of its own arrival:
// the kernel prefetches the next event's handler while the event before
// it fires, so a message is in the processor's caches when it arrives
// (at thousands of nodes, reading it was most of the cost of a
// delivery's first lines: docs/PERFORMANCE.md, the forty-seventh pass).
type landing Message

var _ kernel.Handler = (*landing)(nil)

// Fire delivers the message.
func (a *landing) Fire(*kernel.Kernel, uint64) {
	m := (*Message)(a)
	m.net.deliver(m)
}

func (n *Network) deliver(m *Message) {
	l := m.link
	switch m.kind {
	case kindBreak:
		m.Stream.ended(ErrStreamBroken)
		n.release(m)
		return
	case kindClose:
		s := m.Stream
		if b, _ := n.blocked(l); b {
			s.ended(ErrStreamBroken)
		} else {
			s.ended(nil)
		}
		n.release(m)
		return
	}
	if b, cause := n.blocked(l); b {
		if m.kind == StreamData {
			m.Stream.cut(m, cause)
		} else {
			n.drop(l, m.Seq, m.kind, cause)
		}
		n.release(m)
		return
	}
	switch m.kind {
	case Datagram:
		if r := l.to.recv; r != nil {
			n.delivered(m)
			r.Receive(m)
		} else {
			n.drop(l, m.Seq, m.kind, CauseUnreachable)
		}
	case Request:
		if s := l.to.srv; s != nil {
			n.delivered(m)
			c := Call{Req: m.Payload, From: l.from, To: l.to, Seq: m.Seq, SentAt: m.SentAt, Duplicated: m.dup, back: l.rev, slot: m.slot, gen: m.gen}
			n.release(m)
			s.Serve(c)
			return
		}
		n.drop(l, m.Seq, m.kind, CauseUnreachable)
	case Reply:
		n.delivered(m)
		slot, gen, resp, seq := m.slot, m.gen, m.Payload, m.Seq
		n.release(m)
		n.complete(l, slot, gen, resp, seq)
		return
	case StreamData:
		m.Stream.arrive(m)
	}
	n.release(m)
}
