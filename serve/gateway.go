package serve

import (
	"time"

	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// Gateway performs API requests as one user through the simulated
// network. Every method runs on the simulation's goroutine (between the
// loop's steps, or in the events they fire).
type Gateway struct {
	c     *cluster.Cluster
	tr    *client.Network
	actor string
	// watches are the open watches, in the order they were opened.
	watches []*gatewayWatch
	// Bookmark is how often, in virtual time, a watch that asked for
	// bookmarks receives one (default one minute, as the API server's
	// watch cache sends them).
	Bookmark time.Duration
	// OnWrite, when set, is called with every write request just before
	// it is sent, with its virtual time: the recorder of clustersim serve
	// --record. The request must not be changed; it belongs to the
	// network once sent.
	OnWrite func(at time.Duration, req *apiserver.Request)
}

// NewGateway returns a gateway sending requests as user from endpoint
// user/<user> (which the run created: runner.Options.Users).
func NewGateway(c *cluster.Cluster, user string) *Gateway {
	addr := netsim.Addr("user/" + user)
	c.SetActor(addr, user)
	return &Gateway{c: c, tr: c.Transport(addr), actor: user, Bookmark: time.Minute}
}

// Cluster returns the cluster the gateway talks to.
func (g *Gateway) Cluster() *cluster.Cluster { return g.c }

// Now returns the virtual time as a wall-clock instant.
func (g *Gateway) Now() time.Time { return g.c.K.Now().Wall() }

// Do sends req as the gateway's user one nanosecond of virtual time from
// now (see At) and calls done with the response when it arrives (a
// timeout when the network lost the request or its reply). done runs on
// the simulation's goroutine and must not block.
func (g *Gateway) Do(req *apiserver.Request, done func(*apiserver.Response)) {
	req.Actor = g.actor
	g.c.K.At(g.At(), func() {
		at := g.c.K.Now().Duration()
		if req.Verb.IsWrite() && g.OnWrite != nil {
			g.OnWrite(at, req)
		}
		g.c.Go("serve/"+g.actor, func(p *kernel.Process) { done(g.tr.Do(p, req)) })
	})
}

// At is when a request posted now is sent: one nanosecond after the
// current instant, once everything already scheduled for the current
// instant has fired. A replay of the recording sends the same request
// at the same time from a timeline step (a step at that instant, which
// nothing else of the run is scheduled at, spawns the same process), so
// that the recording replays to the same state.
func (g *Gateway) At() kernel.Time { return g.c.K.Now() + 1 }

// WatchEvent is one event of a gateway watch: ADDED, MODIFIED, DELETED,
// BOOKMARK (Object nil, ResourceVersion set), ERROR (Err set; the watch
// has ended) or END (the watch's timeout has passed; it has ended
// without an error).
type WatchEvent struct {
	Type            string
	Event           store.Event
	ResourceVersion uint64
	Err             error
}

// WatchSink receives a watch's events on the simulation's goroutine. It
// must not block: it returns false when it cannot take the event (its
// client is too slow), and the watch then ends.
type WatchSink func(e WatchEvent) bool

// WatchOptions are what a gateway watch does beyond its request.
type WatchOptions struct {
	// Bookmarks asks for a BOOKMARK every Gateway.Bookmark of virtual
	// time.
	Bookmarks bool
	// Timeout, when positive, ends the watch (END) once that much
	// virtual time has passed since it was asked for: the API server's
	// timeoutSeconds.
	Timeout time.Duration
	// After drops the events at or before this resourceVersion: a watch
	// from a resourceVersion newer than the store's, which the API
	// server's watch cache accepts and starts after.
	After uint64
}

type gatewayWatch struct {
	g         *Gateway
	sink      WatchSink
	stream    client.WatchStream
	bookmarks bool
	next      time.Duration // when the next bookmark is due
	deadline  time.Duration // when the watch times out (0: never)
	after     uint64
	lastRV    uint64
	ended     bool
	cancelled bool
}

// Watch opens a watch (req.Verb is apiserver.Watch) as the gateway's
// user. Events reach sink until the watch ends: the server refused it or
// the stream broke (an ERROR event, then nothing), its timeout passed
// (END), the sink refused an event, or the returned cancel was called
// (on the simulation's goroutine).
func (g *Gateway) Watch(req *apiserver.Request, opts WatchOptions, sink WatchSink) (cancel func()) {
	req.Actor = g.actor
	w := &gatewayWatch{g: g, sink: sink, bookmarks: opts.Bookmarks, after: opts.After, lastRV: max(req.ResourceVersion, opts.After)}
	if opts.Timeout > 0 {
		w.deadline = g.c.K.Now().Duration() + opts.Timeout
		g.watches = append(g.watches, w)
	}
	g.c.K.At(g.At(), func() { g.c.Go("serve/"+g.actor+"/watch", func(p *kernel.Process) { w.open(p, req) }) })
	return func() {
		w.cancelled = true
		w.stop()
	}
}

// open asks the server for the watch, from process p.
func (w *gatewayWatch) open(p *kernel.Process, req *apiserver.Request) {
	g := w.g
	s, err := g.tr.Watch(p, req, w)
	if err != nil {
		w.end(err)
		return
	}
	if w.cancelled || w.ended {
		s.Stop()
		return
	}
	w.stream = s
	w.next = g.c.K.Now().Duration() + g.Bookmark
	if w.deadline == 0 {
		g.watches = append(g.watches, w)
	}
}

// Event implements client.WatchHandler.
func (w *gatewayWatch) Event(e store.Event) {
	if w.ended {
		return
	}
	if e.ResourceVersion <= w.after {
		return
	}
	w.lastRV = e.ResourceVersion
	if !w.sink(WatchEvent{Type: e.Type.String(), Event: e, ResourceVersion: e.ResourceVersion}) {
		w.stop()
	}
}

// Closed implements client.WatchHandler.
func (w *gatewayWatch) Closed(err error) {
	if err != nil {
		w.end(err)
		return
	}
	w.ended = true
}

func (w *gatewayWatch) end(err error) {
	if w.ended {
		return
	}
	w.ended = true
	if !w.cancelled {
		w.sink(WatchEvent{Type: "ERROR", Err: err})
	}
}

func (w *gatewayWatch) stop() {
	if w.stream != nil {
		w.stream.Stop()
	}
	w.ended = true
}

// Tick ends the watches whose timeout has passed, sends the bookmarks
// that are due and forgets ended watches; the loop calls it after each
// step.
func (g *Gateway) Tick() {
	now := g.c.K.Now().Duration()
	live := g.watches[:0]
	for _, w := range g.watches {
		if w.ended {
			continue
		}
		if w.deadline > 0 && now >= w.deadline {
			w.ended = true
			if w.stream != nil {
				w.stream.Stop()
			}
			w.sink(WatchEvent{Type: "END"})
			continue
		}
		if w.stream == nil {
			// Not open yet (a watch with a timeout is tracked from
			// the start, so that its deadline holds while it opens).
			live = append(live, w)
			continue
		}
		if w.bookmarks && now >= w.next {
			w.next = now + g.Bookmark
			rv := g.c.Store.ResourceVersion()
			if rv < w.lastRV {
				rv = w.lastRV
			}
			if !w.sink(WatchEvent{Type: "BOOKMARK", ResourceVersion: rv}) {
				w.stop()
				continue
			}
		}
		live = append(live, w)
	}
	clear(g.watches[len(live):])
	g.watches = live
}

// Watches returns how many watches are open.
func (g *Gateway) Watches() int { return len(g.watches) }
