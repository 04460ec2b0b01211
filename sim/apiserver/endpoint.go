package apiserver

import (
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// Endpoint puts a Server on the simulated network: requests arrive as
// netsim calls carrying a *Request and are answered with a *Response;
// watches are answered with a stream from the server to the caller that
// carries store.Event values.
type Endpoint struct {
	srv *Server
	net *netsim.Network
	ep  *netsim.Endpoint
	// serviceTime is how long the server works on each request before it
	// replies; 0 replies at once.
	serviceTime time.Duration
	pending     []pendingReply // replies waiting for their service time, FIFO
	head        int
	box         eventBox // the last event sent, boxed
}

// eventBox is the last watch event a feed sent, with the interface value
// that carried it: a change goes to every watcher of its kind one after
// the other, and they all may carry the one boxed copy (receivers only
// read it) instead of one allocation each.
type eventBox struct {
	event store.Event
	boxed any
}

// of returns e boxed, reusing the last box when e is the same event.
func (b *eventBox) of(e store.Event) any {
	if b.boxed == nil || b.event != e {
		b.event, b.boxed = e, e
	}
	return b.boxed
}

type pendingReply struct {
	call netsim.Call
	resp *Response
}

// Serve registers srv at addr on net and returns the endpoint.
func Serve(srv *Server, net *netsim.Network, addr netsim.Addr) *Endpoint {
	e := &Endpoint{srv: srv, net: net, ep: net.Endpoint(addr)}
	e.ep.SetServer(e)
	return e
}

// Addr returns the endpoint's network address.
func (e *Endpoint) Addr() *netsim.Endpoint { return e.ep }

// SetServiceTime sets the time the server spends on each request before
// replying (default 0). Replies keep their order.
func (e *Endpoint) SetServiceTime(d time.Duration) {
	if d < 0 {
		d = 0
	}
	e.serviceTime = d
}

// Serve handles one delivered request. A request the network duplicated
// is served twice, and the two must not share an object: its body is
// copied, as decoding a request body would make a fresh one.
func (e *Endpoint) Serve(c netsim.Call) {
	in, ok := c.Req.(*Request)
	if !ok {
		return // not an API request: a real server would answer 400; nobody sends these
	}
	req := *in
	if req.Object != nil && c.Duplicated {
		// Both deliveries carry the same body; the store takes ownership
		// of what it is given, so each gets its own copy. A request
		// delivered once is the server's alone: the client copied it when
		// it sent it.
		req.Object = req.Object.DeepCopyObject()
	}
	var resp *Response
	if req.Verb == Watch {
		resp = e.watch(c, &req)
	} else {
		resp = e.srv.Handle(&req)
	}
	if e.serviceTime == 0 {
		c.Reply(resp)
		return
	}
	e.pending = append(e.pending, pendingReply{call: c, resp: resp})
	e.srv.k.After(e.serviceTime, e, 0)
}

// Fire sends the oldest pending reply; one event is scheduled per reply, so
// replies leave in the order their requests arrived.
func (e *Endpoint) Fire(_ *kernel.Kernel, _ uint64) {
	p := e.pending[e.head]
	e.pending[e.head] = pendingReply{}
	e.head++
	if e.head == len(e.pending) {
		e.pending, e.head = e.pending[:0], 0
	}
	p.call.Reply(p.resp)
}

// watch opens the event stream to the caller and registers the store
// watch that feeds it.
func (e *Endpoint) watch(c netsim.Call, req *Request) *Response {
	if req.WatchReceiver == nil {
		return &Response{Err: badRequest("a watch needs a receiver")}
	}
	stream := e.net.OpenStream(e.ep, c.From, req.WatchReceiver)
	w, err := e.srv.StartWatch(req, &feed{stream: stream, box: &e.box})
	if err != nil {
		stream.Stop()
		return &Response{Err: err}
	}
	// The store watch ends when the stream does, however it ends (the
	// client stops it, it breaks, the client goes down), as an API server
	// ends a watch when its connection goes: not at the next event it
	// would send, which a settled cluster may not write for hours.
	stream.OnClosed(w.Stop)
	return &Response{Stream: stream}
}

// feed forwards a store watch's events into a network stream; the
// endpoint stops the store watch when the stream closes
// (Stream.OnClosed).
type feed struct {
	stream *netsim.Stream
	box    *eventBox // the endpoint's
}

// Deliver sends e on the stream, unless it is closed (a watch's replay
// may meet a stream already over; after it, a closed stream's watch is
// stopped and gets nothing).
func (f *feed) Deliver(e store.Event) {
	if !f.stream.Closed() {
		_ = f.stream.Send(f.box.of(e))
	}
}
