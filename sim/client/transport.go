package client

import (
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// Discovery is implemented by transports that know which kinds their API
// server serves (client-go's discovery client, answered from the server's
// registry without a round trip: the simulator keeps discovery out of the
// fault model).
type Discovery interface {
	// Kinds returns the server's registry of served kinds; callers must
	// not register kinds in it.
	Kinds() *api.Registry
}

// Transport carries requests to the API server: over the simulated network
// (the cluster's), or straight to a Server in tests (Direct).
type Transport interface {
	// Do sends req and blocks process p until the response arrives or the
	// request times out; a timeout is a response whose Err is an
	// apierr Timeout status error. req becomes the transport's; the
	// response's objects are shared and must be copied before mutation.
	Do(p *kernel.Process, req *apiserver.Request) *apiserver.Response
	// Watch asks the server for a watch (req.Verb is apiserver.Watch) and
	// blocks p until the server accepts or refuses it. Once accepted,
	// events reach h in resourceVersion order, on the event loop (not in
	// p), until the watch ends: h.Closed is called exactly once, with nil
	// when stopped by the client, an *apierr.StatusError with reason
	// Expired when the start resourceVersion was too old, or another error
	// when the stream broke.
	Watch(p *kernel.Process, req *apiserver.Request, h WatchHandler) (WatchStream, error)
}

// WatchHandler receives a watch's events. Its methods run on the event loop
// and must not block.
type WatchHandler interface {
	// Event receives one event, in resourceVersion order.
	Event(e store.Event)
	// Closed is called once, when the watch ends (see Transport.Watch).
	Closed(err error)
}

// WatchStream is an open watch; Stop ends it (Closed(nil) follows).
type WatchStream interface {
	// Stop ends the watch from the client side. It must not block: it
	// may be called by a process that is unwinding from a crash.
	Stop()
}
