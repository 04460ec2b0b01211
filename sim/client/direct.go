package client

import (
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// direct is a Transport without a network: requests reach the server at
// once and watch events are delivered synchronously from the write that
// caused them.
type direct struct {
	srv *apiserver.Server
}

// NewDirect returns a Transport that calls srv directly: Do never blocks
// and never times out, and watch events reach their handler during the
// write that caused them. Request objects are deep-copied before the server
// takes them, as a network's serialisation would, so a caller reusing its
// object cannot alias the store. For tests and benchmarks; the cluster
// uses the network transport.
func NewDirect(srv *apiserver.Server) Transport { return &direct{srv: srv} }

// Kinds returns the server's registry (discovery).
func (d *direct) Kinds() *api.Registry { return d.srv.Kinds() }

// Do serves req at once; p is not blocked.
func (d *direct) Do(_ *kernel.Process, req *apiserver.Request) *apiserver.Response {
	return d.srv.Handle(wireCopy(req))
}

// wireCopy returns what the server receives of req after a trip over a
// wire: a new request whose object and patch body share nothing with req.
func wireCopy(req *apiserver.Request) *apiserver.Request {
	r := *req
	if r.Object != nil {
		r.Object = r.Object.DeepCopyObject()
	}
	if r.Patch != nil {
		r.Patch = append([]byte(nil), r.Patch...)
	}
	return &r
}

// Watch registers the watch with the server; events reach h synchronously.
func (d *direct) Watch(_ *kernel.Process, req *apiserver.Request, h WatchHandler) (WatchStream, error) {
	s := &directStream{h: h}
	w, err := d.srv.StartWatch(wireCopy(req), store.SinkFunc(s.deliver))
	if err != nil {
		return nil, err
	}
	s.w = w
	if s.stopped {
		// The handler stopped the stream while the server replayed
		// history, before the store's watch existed.
		w.Stop()
	}
	return s, nil
}

// directStream is a Direct watch: a store watch whose sink is the handler.
type directStream struct {
	h       WatchHandler
	w       *store.Watch
	stopped bool
}

func (s *directStream) deliver(e store.Event) {
	if s.stopped {
		return
	}
	s.h.Event(e)
}

// Stop ends the store watch, then tells the handler, exactly once.
func (s *directStream) Stop() {
	if s.stopped {
		return
	}
	s.stopped = true
	if s.w != nil {
		s.w.Stop()
	}
	s.h.Closed(nil)
}
