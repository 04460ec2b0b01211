package netsim

import (
	"errors"

	"github.com/clustersim/clustersim/sim/kernel"
)

// ErrStreamBroken is passed to StreamReceiver.Closed when a stream ends
// because a message on it was dropped, a partition cut it, or an end went
// down: the client must assume it missed messages and start over (for a
// watch: list again).
var ErrStreamBroken = errors.New("netsim: stream broken")

// ErrStreamClosed is returned by Stream.Send once the stream is closed,
// broken (as far as the server knows) or stopped by its client.
var ErrStreamClosed = errors.New("netsim: stream closed")

// StreamReceiver is the client end of a stream.
type StreamReceiver interface {
	// Receive handles one stream message, in the order sent; m is valid
	// only during the call and m.Stream is the stream it arrived on.
	Receive(m *Message)
	// Closed reports the end of stream s: nil when the server closed it,
	// ErrStreamBroken when it broke. It is called at most once and nothing
	// is delivered after it. It is not called after Stop.
	Closed(s *Stream, err error)
}

// Stream is an ordered, one-way message stream from a server endpoint to a
// client endpoint, like a watch over HTTP/2. Messages arrive strictly in the
// order sent, each after a latency drawn from the link, and never before an
// earlier one. The link's StreamBreak fault breaks the stream (the message
// and all after it are lost and the client is told); its Drop, Duplicate
// and Reorder faults do not apply, as a connection's transport would
// retransmit and reorder packets itself.
type Stream struct {
	n  *Network
	l  *link // from -> to; nil if the ends are not routable
	r  StreamReceiver
	id uint64

	last   kernel.Time // delivery time of the latest message or end event
	lose   int         // messages still to lose by LoseNext
	cutoff bool        // a break is scheduled: nothing more gets through
	closed bool        // the server knows the stream is over
	done   bool        // the client has been told, or stopped it
	// onClosed is called when closed turns true (OnClosed).
	onClosed func()
}

// OpenStream opens a stream from the server endpoint from to the client
// endpoint to, whose messages go to r. A stream whose ends are nil, foreign,
// down or partitioned apart breaks at once, after one latency.
func (n *Network) OpenStream(from, to *Endpoint, r StreamReceiver) *Stream {
	n.streamSeq++
	s := &Stream{n: n, l: n.route(from, to), r: r, id: n.streamSeq, last: n.k.Now()}
	if s.l == nil {
		s.cutoff = true
		s.schedule(kindBreak, nil, 0, n.k.Now())
		return s
	}
	if b, _ := n.blocked(s.l); b {
		s.breakAt(s.due(false))
	}
	return s
}

// ID returns the stream's number, unique within its network, from 1.
func (s *Stream) ID() uint64 { return s.id }

// From returns the server endpoint; nil if it was nil at open.
func (s *Stream) From() *Endpoint {
	if s.l == nil {
		return nil
	}
	return s.l.from
}

// To returns the client endpoint; nil if it was nil at open.
func (s *Stream) To() *Endpoint {
	if s.l == nil {
		return nil
	}
	return s.l.to
}

// Closed reports whether the stream is over as far as its server knows:
// closed by Close or Stop, or broken and the break delivered.
func (s *Stream) Closed() bool { return s.closed }

// OnClosed has f called once, when Closed turns true, by whichever end
// or fault closes the stream, or at once when it already is, so that
// the server can let go of what feeds the stream then rather than at
// its next Send. f runs inside Close, Stop or the break's delivery: it
// must not send on the stream.
func (s *Stream) OnClosed(f func()) {
	if s.closed {
		f()
		return
	}
	s.onClosed = f
}

// markClosed makes Closed true and tells OnClosed's function, once.
func (s *Stream) markClosed() {
	s.closed = true
	if f := s.onClosed; f != nil {
		s.onClosed = nil
		f()
	}
}

// LoseNext makes the next k messages sent on s vanish silently without
// breaking the stream: the "lost watch event" fault. It adds to any loss
// still pending; k <= 0 does nothing.
func (s *Stream) LoseNext(k int) {
	if k > 0 {
		s.lose += k
	}
}

// Send sends payload to the client, after every message sent before it. It
// returns ErrStreamClosed once the stream is Closed; between a break and
// its delivery, messages are accepted and silently discarded, as a TCP
// connection accepts writes it will never deliver.
func (s *Stream) Send(payload any) error {
	if s.closed {
		return ErrStreamClosed
	}
	n, l := s.n, s.l
	n.seq++
	seq := n.seq
	now := n.k.Now()
	n.st.Sent++
	if l == nil { // never connected; the break is on its way
		n.st.DropUnreachable++
		return nil
	}
	l.st.Sent++
	if s.cutoff {
		n.traceSend(l, seq, now, 0)
		n.drop(l, seq, StreamData, CauseBroken)
		return nil
	}
	if b, cause := n.blocked(l); b {
		n.traceSend(l, seq, now, 0)
		n.drop(l, seq, StreamData, cause)
		s.breakAt(s.due(false))
		return nil
	}
	if s.lose > 0 {
		s.lose--
		n.traceSend(l, seq, now, 0)
		n.drop(l, seq, StreamData, CauseLoss)
		return nil
	}
	if l.hit(l.cfg.StreamLoss) {
		n.traceSend(l, seq, now, 0)
		n.drop(l, seq, StreamData, CauseLoss)
		return nil
	}
	if l.hit(l.cfg.StreamBreak) {
		n.traceSend(l, seq, now, 0)
		n.drop(l, seq, StreamData, CauseLink)
		s.breakAt(s.due(false))
		return nil
	}
	due := s.due(true)
	s.last = due
	s.schedule(StreamData, payload, seq, due)
	n.traceSend(l, seq, now, due)
	return nil
}

// Close ends the stream from the server side: the client gets Closed(nil)
// after every message already in flight (or ErrStreamBroken if by then a
// partition or a down end separates them). Closing a closed stream does
// nothing.
func (s *Stream) Close() {
	if s.closed {
		return
	}
	s.markClosed()
	if s.cutoff {
		return // the break already on its way ends the stream
	}
	s.cutoff = true
	due := s.due(false)
	s.last = due
	s.schedule(kindClose, nil, 0, due)
}

// Stop ends the stream from the client side, as a watch is cancelled or a
// controller crashes: nothing more is delivered, Closed is not called, and
// the server sees Closed at once.
func (s *Stream) Stop() {
	s.markClosed()
	s.cutoff = true
	s.done = true
}

// due draws the next message's delivery time: after the latency and any
// delay spike, and never before the previous message. Spikes are counted
// only for messages that will be delivered (counted true).
func (s *Stream) due(counted bool) kernel.Time {
	l := s.l
	d := addDelay(l.latency(), l.cfg.StreamLag)
	if x, ok := l.spike(); ok {
		d = addDelay(d, x)
		if counted {
			l.st.Delayed++
			s.n.st.Delayed++
		}
	}
	t := s.n.k.Now().Add(d)
	if t < s.last {
		t = s.last
	}
	return t
}

// breakAt cuts the stream: nothing sent from now on gets through, and the
// client is told at t (the would-be delivery time of the lost message).
func (s *Stream) breakAt(t kernel.Time) {
	s.cutoff = true
	s.last = t
	s.schedule(kindBreak, nil, 0, t)
}

// schedule queues one stream event (a message, a break or a close) at t.
func (s *Stream) schedule(kind Kind, payload any, seq uint64, t kernel.Time) {
	n := s.n
	m := n.alloc()
	m.Payload, m.SentAt, m.Seq, m.Stream, m.kind, m.link = payload, n.k.Now(), seq, s, kind, s.l
	if s.l != nil {
		m.From, m.To = s.l.from, s.l.to
	}
	n.k.Schedule(t, (*landing)(m), 0)
}

// arrive delivers a stream message that got through the network.
func (s *Stream) arrive(m *Message) {
	n := s.n
	if s.done {
		n.drop(m.link, m.Seq, StreamData, CauseBroken)
		return
	}
	if s.r == nil {
		n.drop(m.link, m.Seq, StreamData, CauseUnreachable)
		return
	}
	n.delivered(m)
	s.r.Receive(m)
}

// cut handles a stream message that found its path blocked on arrival: it
// is lost and the stream breaks now.
func (s *Stream) cut(m *Message, cause Cause) {
	n := s.n
	if s.done {
		n.drop(m.link, m.Seq, StreamData, CauseBroken)
		return
	}
	n.drop(m.link, m.Seq, StreamData, cause)
	s.cutoff = true
	s.ended(ErrStreamBroken)
}

// ended tells the client the stream is over, once.
func (s *Stream) ended(err error) {
	s.markClosed()
	if s.done {
		return
	}
	s.done = true
	n := s.n
	op := OpClose
	if err != nil {
		op = OpBreak
		if s.l != nil {
			s.l.st.Breaks++
		}
		n.st.Breaks++
	}
	if n.tr != nil {
		n.tr.Trace(Record{At: n.k.Now(), Seq: 0, From: s.From(), To: s.To(), Op: op, Kind: StreamData})
	}
	if s.r != nil {
		s.r.Closed(s, err)
	}
}

// traceSend records a stream send.
func (n *Network) traceSend(l *link, seq uint64, now, due kernel.Time) {
	if n.tr != nil {
		n.tr.Trace(Record{At: now, Due: due, Seq: seq, From: l.from, To: l.to, Op: OpSend, Kind: StreamData})
	}
}
