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
	include := q.Get("includeObject")
	frames := make(chan watchFrame, h.opts.WatchBuffer)
	type opened struct {
		cancel func()
		err    error
		tbl    kubectl.Table
		filter func(api.Object) bool
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
		var rv uint64
		if s := q.Get("resourceVersion"); s != "" {
			if rv, err = strconv.ParseUint(s, 10, 64); err != nil {
				reply(opened{err: apierr.NewBadRequest("resourceVersion: " + err.Error())})
				return
			}
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
		cancel := h.gw.Watch(req, q.Get("allowWatchBookmarks") == "true", func(e WatchEvent) bool {
			switch e.Type {
			case "ERROR":
				var se *apierr.StatusError
				if !errors.As(e.Err, &se) {
					se = &apierr.StatusError{Code: 500, Reason: "InternalError", Message: e.Err.Error()}
				}
				return send(watchFrame{typ: "ERROR", obj: statusJSON(&apierr.StatusError{Code: se.Code, Reason: se.Reason, Message: se.Message}), final: true})
			case "BOOKMARK":
				return send(watchFrame{typ: "BOOKMARK", obj: map[string]any{"kind": info.Kind.Name, "apiVersion": info.APIVersion(),
					"metadata": map[string]any{"resourceVersion": strconv.FormatUint(e.ResourceVersion, 10)}}})
			}
			// The object is shaped (filtered, printed) on the client's
			// goroutine: this runs in an event of the simulation.
			return send(watchFrame{typ: e.Type, event: e.Event.Object, now: h.gw.Now()})
		})
		reply(opened{cancel: cancel, tbl: tableOf(info), filter: filter})
	})
	if !ok {
		return
	}
	if op.err != nil {
		writeErr(w, op.err)
		return
	}
	defer h.loop.Post(op.cancel)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Transfer-Encoding", "chunked")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	if flusher != nil {
		flusher.Flush()
	}
	enc := json.NewEncoder(w)
	for {
		select {
		case f, ok := <-frames:
			if !ok {
				return
			}
			if o := f.event; o != nil {
				if op.filter != nil && !op.filter(o) {
					continue
				}
				f.obj = o
				if table {
					td := &tableData{cols: op.tbl.Columns, rows: [][]string{op.tbl.Row(o, f.now)}, objs: []api.Object{o}, rv: o.GetObjectMeta().ResourceVersion, include: include}
					f.obj = td.json()
				}
			}
			if err := enc.Encode(map[string]any{"type": f.typ, "object": f.obj}); err != nil {
				return
			}
			if flusher != nil {
				flusher.Flush()
			}
		case <-r.Context().Done():
			return
		case <-h.loop.Done():
			return
		}
	}
}
