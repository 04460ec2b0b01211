package serve

import (
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/report/kubectl"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// watchFrame is one event of a watch: a status or a bookmark (obj), or
// an object (event) to print at the virtual time now.
type watchFrame struct {
	typ   string
	obj   any
	event api.Object
	now   time.Time
	final bool // an ERROR: the watch has ended
}

// serveWatch streams a watch as the API server does: HTTP 200, then one
// JSON object per event ({"type": ..., "object": ...}), each flushed, until
// the client goes away or the watch ends (an ERROR event: a 410 Expired
// for a resourceVersion older than the history, a broken stream). A
// client too slow to read its events loses the watch rather than holding
// events in memory: the simulation never waits for a client.
func (h *Handler) serveWatch(w http.ResponseWriter, r *http.Request, t target) {
	if n := h.watches.Add(1); n > int64(h.opts.MaxWatches) {
		h.watches.Add(-1)
		writeStatus(w, http.StatusTooManyRequests, "TooManyRequests", "too many open watches: clustersim serve allows "+strconv.Itoa(h.opts.MaxWatches))
		return
	}
	defer h.watches.Add(-1)
	q := r.URL.Query()
	table := asTable(r)
	partialAV, partial := partialMetadata(r)
	include := q.Get("includeObject")
	frames := make(chan watchFrame, h.opts.WatchBuffer)
	type opened struct {
		cancel func()
		err    error
		// errEvent ends the watch as soon as it starts: an ERROR
		// event after the 200 (the cacher's errWatcher).
		errEvent *apierr.StatusError
		tbl      kubectl.Table
		filter   func(api.Object) bool
		// initial is a watch list's state (sendInitialEvents=true):
		// sent as ADDED events before the watch's own, then, when
		// bookmarks were asked for, a bookmark at initialRV that marks
		// their end.
		list       bool
		initial    []api.Object
		initialRV  uint64
		now        time.Time
		kind       string
		apiVersion string
	}
	lq, err := parseListQuery(q)
	if err != nil {
		writeErr(w, err)
		return
	}
	sendInitial := lq.sendInitial
	bookmarks := queryBool(q, "allowWatchBookmarks")
	wopts := WatchOptions{Bookmarks: bookmarks}
	if lq.timeout != nil && *lq.timeout > 0 {
		wopts.Timeout = *lq.timeout
	}
	op, ok := call(h, w, r, func(reply func(opened)) {
		info, err := resolve(h.gw.c.Store.Kinds(), t)
		if err != nil {
			reply(opened{err: err})
			return
		}
		if info.Namespaced && t.namespace == "" && t.name != "" || !info.Namespaced && t.namespace != "" || t.subresource != "" {
			reply(opened{err: notFoundPath()})
			return
		}
		opts, filter, err := listOptions(q, info, t.namespace)
		if err != nil {
			reply(opened{err: err})
			return
		}
		if t.name != "" {
			opts.Name = t.name
		}
		rv, err := lq.rv(true)
		if err != nil {
			reply(opened{err: err})
			return
		}
		current := h.gw.c.Store.ResourceVersion()
		if sendInitial != nil && !*sendInitial && rv == 0 {
			// No initial events: start at the most recent version.
			rv = current
		}
		if rv > current && (sendInitial == nil || !*sendInitial) {
			// A resourceVersion newer than the store's: the API
			// server's watch cache starts the watch and sends the
			// events after it (the store refuses it): watch from now,
			// dropping the events up to it.
			wopts.After, rv = rv, current
		}
		req := &apiserver.Request{Verb: apiserver.Watch, Kind: info.Kind, Namespace: opts.Namespace, ListOptions: opts, ResourceVersion: rv}
		closed := false
		send := func(f watchFrame) bool {
			if closed {
				return false
			}
			select {
			case frames <- f:
				if f.final {
					closed = true
					close(frames)
				}
				return true
			default:
				closed = true
				close(frames)
				return false
			}
		}
		sink := func(e WatchEvent) bool {
			switch e.Type {
			case "ERROR":
				var se *apierr.StatusError
				if !errors.As(e.Err, &se) {
					se = &apierr.StatusError{Code: 500, Reason: "InternalError", Message: e.Err.Error()}
				}
				return send(watchFrame{typ: "ERROR", obj: errorStatus(se), final: true})
			case "END":
				return send(watchFrame{final: true})
			case "BOOKMARK":
				kind, av := info.Kind.Name, info.APIVersion()
				if partial {
					kind, av = "PartialObjectMetadata", partialAV
				}
				return send(watchFrame{typ: "BOOKMARK", obj: map[string]any{"kind": kind, "apiVersion": av,
					"metadata": map[string]any{"resourceVersion": strconv.FormatUint(e.ResourceVersion, 10)}}})
			}
			// The object is shaped (filtered, printed) on the client's
			// goroutine: this runs in an event of the simulation.
			return send(watchFrame{typ: e.Type, event: e.Event.Object, now: h.gw.Now()})
		}
		open := func() func() {
			return h.gw.Watch(req, wopts, sink)
		}
		if sendInitial != nil && *sendInitial {
			// A watch list (client-go's informers since v0.35): the
			// state as ADDED events, a bookmark marking their end,
			// then the changes after that state. The state is a list
			// (at least as new as any resourceVersion asked for), the
			// watch follows from the list's resourceVersion.
			list := &apiserver.Request{Verb: apiserver.List, Kind: info.Kind, Namespace: opts.Namespace, ListOptions: opts}
			h.gw.Do(list, func(resp *apiserver.Response) {
				if resp.Err != nil {
					reply(opened{err: resp.Err})
					return
				}
				if rv > resp.ResourceVersion {
					// The watch cache waits (3 s) for a version
					// this new, then ends the watch with the
					// error; the store is the only source of
					// versions, so serve does not wait.
					reply(opened{errEvent: tooLargeRV(rv, resp.ResourceVersion, 1)})
					return
				}
				req.ResourceVersion = resp.ResourceVersion
				kind, av := info.Kind.Name, info.APIVersion()
				if partial {
					kind, av = "PartialObjectMetadata", partialAV
				}
				reply(opened{cancel: open(), tbl: tableOf(info), filter: filter, list: true, initial: resp.Items, initialRV: resp.ResourceVersion,
					now: h.gw.Now(), kind: kind, apiVersion: av})
			})
			return
		}
		reply(opened{cancel: open(), tbl: tableOf(info), filter: filter})
	})
	if !ok {
		return
	}
	if op.err != nil {
		writeErr(w, op.err)
		return
	}
	if op.cancel != nil {
		defer h.loop.Post(op.cancel)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	if flusher != nil {
		flusher.Flush()
	}
	if lq.timeout != nil && *lq.timeout < 0 {
		// A negative timeoutSeconds: the API server's timer has
		// fired before the first event (its race between the two
		// aside); the stream ends at once.
		return
	}
	enc := json.NewEncoder(w)
	if op.errEvent != nil {
		enc.Encode(map[string]any{"type": "ERROR", "object": errorStatus(op.errEvent)})
		return
	}
	write := func(f watchFrame) bool {
		if o := f.event; o != nil {
			if op.filter != nil && !op.filter(o) {
				return true
			}
			f.obj = o
			if partial {
				f.obj = partialObject(o, partialAV)
			}
			if table {
				td := &tableData{cols: op.tbl.Columns, rows: [][]string{op.tbl.Row(o, f.now)}, objs: []api.Object{o}, rv: o.GetObjectMeta().ResourceVersion, include: include}
				f.obj = td.json()
			}
		}
		if err := enc.Encode(map[string]any{"type": f.typ, "object": f.obj}); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	if op.list {
		for _, o := range op.initial {
			if !write(watchFrame{typ: "ADDED", event: o, now: op.now}) {
				return
			}
		}
		if bookmarks {
			if !write(watchFrame{typ: "BOOKMARK", obj: map[string]any{"kind": op.kind, "apiVersion": op.apiVersion,
				"metadata": map[string]any{"resourceVersion": strconv.FormatUint(op.initialRV, 10),
					"annotations": map[string]string{initialEventsEnd: "true"}}}}) {
				return
			}
		}
	}
	for {
		select {
		case f, ok := <-frames:
			if !ok || f.final && f.typ == "" {
				// Closed, or the watch's timeout passed: the
				// stream ends cleanly, and a client's reflector
				// watches again.
				return
			}
			if !write(f) {
				return
			}
		case <-r.Context().Done():
			return
		case <-h.loop.Done():
			return
		}
	}
}

// initialEventsEnd is the annotation of the bookmark that ends a watch
// list's initial events (metav1.InitialEventsAnnotationKey).
const initialEventsEnd = "k8s.io/initial-events-end"
