package netsim

import (
	"fmt"

	"github.com/clustersim/clustersim/sim/kernel"
)

// Stats counts a link's or the whole network's traffic. Every message copy
// ends exactly once, delivered or dropped, so at quiescence
// Sent + Duplicated == Delivered + Dropped().
type Stats struct {
	// Sent counts messages sent: datagrams, requests, replies and stream
	// messages. A duplicate is not a send.
	Sent uint64
	// Delivered counts copies handed to a receiver, a server, a stream
	// receiver or a call slot, including replies then Discarded.
	Delivered uint64
	// Duplicated counts extra copies made by the link's Duplicate fault.
	Duplicated uint64
	// Reordered counts copies held back by ReorderDelay.
	Reordered uint64
	// Delayed counts copies given a DelayExtra spike.
	Delayed uint64
	// DropLink counts copies lost to the link's Drop probability.
	DropLink uint64
	// DropPartition counts copies blocked by a partition, at send time or
	// in flight.
	DropPartition uint64
	// DropUnreachable counts copies sent to or from an endpoint that is
	// down, unknown, or has no receiver or server for them.
	DropUnreachable uint64
	// DropLoss counts stream messages lost to LoseNext or StreamLoss.
	DropLoss uint64
	// DropBroken counts stream messages discarded because their stream had
	// already broken or been stopped.
	DropBroken uint64
	// Discarded counts replies that found no caller waiting: late (after
	// the timeout), second replies to a duplicated request, or replies to a
	// killed caller.
	Discarded uint64
	// Timeouts counts calls that ended with ErrTimeout, on the request's
	// link.
	Timeouts uint64
	// Breaks counts streams that ended with ErrStreamBroken, on the
	// stream's link.
	Breaks uint64
}

// Dropped returns the copies lost for any cause.
func (s Stats) Dropped() uint64 {
	return s.DropLink + s.DropPartition + s.DropUnreachable + s.DropLoss + s.DropBroken
}

// InFlight returns the copies sent and not yet delivered or dropped.
func (s Stats) InFlight() uint64 {
	return s.Sent + s.Duplicated - s.Delivered - s.Dropped()
}

// LinkStats is one link direction's configuration and counters.
type LinkStats struct {
	// From is the sending endpoint's address.
	From Addr
	// To is the receiving endpoint's address.
	To Addr
	// Config is the link's current configuration.
	Config LinkConfig
	// Stats are the link's counters.
	Stats Stats
}

// Op is what happened to a message in a trace Record.
type Op uint8

const (
	// OpSend: a message was sent; Due is its delivery time, or 0 when it
	// was dropped at once (an OpDrop record follows).
	OpSend Op = iota
	// OpDuplicate: the link made a second copy, due at Due.
	OpDuplicate
	// OpDeliver: a copy reached its receiver, server, caller or stream.
	OpDeliver
	// OpDrop: a copy was lost; Cause says why.
	OpDrop
	// OpDiscard: a reply arrived with no caller waiting for it.
	OpDiscard
	// OpTimeout: a call's deadline passed before a reply arrived.
	OpTimeout
	// OpBreak: a stream's receiver was told the stream broke.
	OpBreak
	// OpClose: a stream's receiver was told the server closed it.
	OpClose
)

// String returns the op's name.
func (o Op) String() string {
	switch o {
	case OpSend:
		return "send"
	case OpDuplicate:
		return "duplicate"
	case OpDeliver:
		return "deliver"
	case OpDrop:
		return "drop"
	case OpDiscard:
		return "discard"
	case OpTimeout:
		return "timeout"
	case OpBreak:
		return "break"
	case OpClose:
		return "close"
	}
	return fmt.Sprintf("Op(%d)", int(o))
}

// Kind is the sort of message.
type Kind uint8

const (
	// Datagram is a fire-and-forget message sent with Network.Send.
	Datagram Kind = iota
	// Request is the request half of a call.
	Request
	// Reply is the reply half of a call.
	Reply
	// StreamData is a message on an ordered stream, or (in OpBreak and
	// OpClose records) the stream's end.
	StreamData
	// kinds below are internal events that ride on pooled messages.
	kindBreak
	kindClose
)

// String returns the kind's name.
func (k Kind) String() string {
	switch k {
	case Datagram:
		return "datagram"
	case Request:
		return "request"
	case Reply:
		return "reply"
	case StreamData, kindBreak, kindClose:
		return "stream"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Cause says why a copy was dropped.
type Cause uint8

const (
	// CauseNone is the cause of records that are not drops.
	CauseNone Cause = iota
	// CauseLink: the link's Drop probability.
	CauseLink
	// CausePartition: a partition between the two ends.
	CausePartition
	// CauseUnreachable: an end is down or unknown, or has no receiver or
	// server.
	CauseUnreachable
	// CauseLoss: a stream's LoseNext or StreamLoss fault.
	CauseLoss
	// CauseBroken: the message's stream had already broken or stopped.
	CauseBroken
)

// String returns the cause's name.
func (c Cause) String() string {
	switch c {
	case CauseNone:
		return "none"
	case CauseLink:
		return "link"
	case CausePartition:
		return "partition"
	case CauseUnreachable:
		return "unreachable"
	case CauseLoss:
		return "loss"
	case CauseBroken:
		return "broken"
	}
	return fmt.Sprintf("Cause(%d)", int(c))
}

// Record is one trace entry. It is a small value so a Tracer can hash it
// without allocating; endpoints are identified by pointer (use ID or Addr).
type Record struct {
	// At is the virtual time of the event.
	At kernel.Time
	// Due is the scheduled delivery time (OpSend, OpDuplicate), else 0.
	Due kernel.Time
	// Seq is the message's per-network sequence number; a duplicate
	// carries its original's; a timeout carries its request's.
	Seq uint64
	// From is the sending endpoint; nil when unknown.
	From *Endpoint
	// To is the receiving endpoint; nil when unknown.
	To *Endpoint
	// Op is what happened.
	Op Op
	// Kind is the message's kind.
	Kind Kind
	// Cause is why it was dropped, for OpDrop; CauseNone otherwise.
	Cause Cause
}

// String formats the record on one line, for logs and golden files.
func (r Record) String() string {
	return fmt.Sprintf("%v %s %s #%d %s->%s cause=%s due=%v",
		r.At, r.Op, r.Kind.String(), r.Seq, r.From.Addr(), r.To.Addr(), r.Cause, r.Due)
}

// Tracer observes every send, duplicate, delivery, drop, discard, timeout
// and stream end. It is called synchronously on the event loop and must not
// call back into the network.
type Tracer interface {
	// Trace receives one record.
	Trace(r Record)
}

// TracerFunc adapts a function to Tracer.
type TracerFunc func(r Record)

// Trace calls f(r).
func (f TracerFunc) Trace(r Record) { f(r) }
