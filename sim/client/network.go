package client

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// Network is the Transport over the simulated network: each request is a
// netsim call from the client's endpoint to the API server's, with the
// links' latency and faults; each watch is a netsim stream back. A request
// or reply that is lost surfaces as a Timeout status error, the same either
// way: the caller cannot know whether the server acted.
type Network struct {
	net     *netsim.Network
	self    *netsim.Endpoint
	server  *netsim.Endpoint
	timeout time.Duration
	kinds   *api.Registry
}

var _ TimeoutTransport = (*Network)(nil)

// NewNetwork returns a transport from endpoint self to the API server at
// endpoint server. timeout bounds Do (and the set-up of a watch); 0 means
// DefaultRequestTimeout.
func NewNetwork(net *netsim.Network, self, server *netsim.Endpoint, timeout time.Duration) *Network {
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	return &Network{net: net, self: self, server: server, timeout: timeout}
}

// SetKinds makes n's discovery answer with r, the API server's registry.
func (n *Network) SetKinds(r *api.Registry) { n.kinds = r }

// Kinds returns the registry SetKinds gave (nil: the built-in kinds).
func (n *Network) Kinds() *api.Registry { return n.kinds }

// Do sends req with the transport's timeout.
func (n *Network) Do(p *kernel.Process, req *apiserver.Request) *apiserver.Response {
	return n.DoTimeout(p, req, n.timeout)
}

// DoTimeout sends req and waits up to timeout for the reply.
func (n *Network) DoTimeout(p *kernel.Process, req *apiserver.Request, timeout time.Duration) *apiserver.Response {
	resp, err := n.net.Call(p, n.self, n.server, req, timeout)
	if err != nil {
		return &apiserver.Response{Err: n.timeoutError(req, timeout, err)}
	}
	r, ok := resp.(*apiserver.Response)
	if !ok {
		return &apiserver.Response{Err: apierr.NewBadRequest(fmt.Sprintf("unexpected reply %T", resp))}
	}
	return r
}

func (n *Network) timeoutError(req *apiserver.Request, timeout time.Duration, err error) error {
	if err != netsim.ErrTimeout {
		return apierr.NewServiceUnavailable(err.Error())
	}
	gr := req.Kind.Name
	if info, ok := n.kinds.Lookup(req.Kind); ok {
		gr = info.GroupResource()
	}
	return apierr.NewTimeout(req.Verb.String(), gr, req.Name, timeout)
}

// Watch opens a watch over the network. Events that arrive on the stream
// before the server's reply are delivered too (they were sent first); a
// watch whose set-up timed out is abandoned, and its stream, if the server
// did open one, is stopped at its first message.
func (n *Network) Watch(p *kernel.Process, req *apiserver.Request, h WatchHandler) (WatchStream, error) {
	a := &netWatch{h: h}
	req.WatchReceiver = a
	resp, err := n.net.Call(p, n.self, n.server, req, n.timeout)
	if err != nil {
		a.abandon()
		return nil, n.timeoutError(req, n.timeout, err)
	}
	r, ok := resp.(*apiserver.Response)
	if !ok || r.Err != nil {
		a.abandon()
		if !ok {
			return nil, apierr.NewBadRequest(fmt.Sprintf("unexpected reply %T", resp))
		}
		return nil, r.Err
	}
	switch {
	case a.stream == nil:
		a.stream = r.Stream
	case a.stream != r.Stream && r.Stream != nil:
		// Events of a duplicate's stream came first: keep that one.
		r.Stream.Stop()
	}
	// If the stream broke (or the server closed it) before the reply
	// came, Closed has been reported already.
	return a, nil
}

// netWatch is the client end of one watch stream.
type netWatch struct {
	h      WatchHandler
	stream *netsim.Stream
	dead   bool // abandoned: its set-up failed
	done   bool // Closed reported, or stopped
}

func (w *netWatch) abandon() {
	w.dead = true
	w.done = true
	if w.stream != nil {
		w.stream.Stop()
	}
}

// Receive delivers one stream message to the handler. A duplicated watch
// request makes the server open a second stream to the same receiver: only
// the first stream seen is the watch's, any other is stopped unread.
func (w *netWatch) Receive(m *netsim.Message) {
	if w.stream == nil {
		w.stream = m.Stream
	}
	if w.dead || w.done || m.Stream != w.stream {
		m.Stream.Stop()
		return
	}
	if e, ok := m.Payload.(store.Event); ok {
		w.h.Event(e)
	}
}

// Closed reports the end of the watch's stream to the handler, once; the
// end of a duplicate's stream is not the watch's.
func (w *netWatch) Closed(s *netsim.Stream, err error) {
	if w.done || (w.stream != nil && s != w.stream) {
		return
	}
	if w.stream == nil {
		w.stream = s
	}
	w.done = true
	if err != nil {
		err = apierr.NewServiceUnavailable("watch stream broken: " + err.Error())
	}
	w.h.Closed(err)
}

// Stop ends the watch from the client side; the handler gets Closed(nil).
func (w *netWatch) Stop() {
	if w.done {
		return
	}
	w.done = true
	if w.stream != nil {
		w.stream.Stop()
	}
	w.h.Closed(nil)
}
