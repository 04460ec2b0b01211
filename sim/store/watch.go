package store

import (
	"slices"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// EventType is the type of a watch event.
type EventType uint8

// The watch event types.
const (
	Added EventType = iota + 1
	Modified
	Deleted
)

// String returns the Kubernetes spelling: ADDED, MODIFIED, DELETED.
func (t EventType) String() string {
	switch t {
	case Added:
		return "ADDED"
	case Modified:
		return "MODIFIED"
	case Deleted:
		return "DELETED"
	}
	return "UNKNOWN"
}

// Event is one change seen by a watch. Object is shared: do not mutate it.
// For Deleted, Object is the object's last state.
type Event struct {
	Type EventType
	// slot is the object's number in its table (see Hint); 0 when
	// unknown. It sits in the padding after Type: an Event is copied
	// and boxed for every watcher.
	slot            uint32
	Object          api.Object
	ResourceVersion uint64
	// prev is the object before the change (nil for Added), kept so that a
	// selective watch replaying history can tell when an object entered or
	// left its selection, and delivered with a Modified event (see Hint).
	prev api.Object
}

// Hint returns what lets a cache of the watch's objects find its entry
// for the event's object without a lookup by name: the object's number
// in the store's table of its kind while it exists (small, dense, given
// to another object once this one is deleted; 0 when unknown) and, for a
// Modified event, the object as stored before the change (nil
// otherwise). A cache that filed an earlier event's object under the
// number and still holds exactly prev there (the same stored object, not
// an equal one) holds this event's object there: the hint is only ever
// taken with that check, since numbers are reused and a cache may have
// missed events (a relist, a selective watch).
func (e Event) Hint() (slot uint32, prev api.Object) {
	if e.Type != Modified {
		return e.slot, nil
	}
	return e.slot, e.prev
}

// Sink receives a watch's events, synchronously, in resourceVersion order.
type Sink interface {
	Deliver(e Event)
}

// SinkFunc adapts a function to Sink.
type SinkFunc func(Event)

// Deliver calls f.
func (f SinkFunc) Deliver(e Event) { f(e) }

// Watch is a registered watch. Stop it when done.
type Watch struct {
	t       *table
	opts    ListOptions
	sink    Sink
	stopped bool
	// index is the table's index that holds the watch (byNode or byName),
	// nil for an unindexed one; key is its key there.
	index map[string][]*Watch
	key   string
}

// Stop ends the watch; no event is delivered after it returns. It is safe
// to call from inside the watch's own Deliver, or any other's.
//
// The watcher leaves the table's lists at once, unless a delivery is
// under way (whose loops must not see them shift): then when the last
// delivery ends. It was left there until the next write of its kind,
// which a settled cluster may not make for hours (no Pod, ConfigMap or
// Role changes), while its informers reopen their watches every five
// to ten minutes (TestMemoryFlatInSteadyState).
func (w *Watch) Stop() {
	if w.stopped {
		return
	}
	w.stopped = true
	t := w.t
	t.stopped = append(t.stopped, w)
	switch s := t.s; {
	case s.delivering == 0:
		t.compactWatchers()
	case len(t.stopped) == 1:
		s.pendingStops = append(s.pendingStops, t)
	}
}

// compactWatchers drops stopped watchers. It runs outside deliveries,
// never during them, so a Stop inside Deliver cannot shift the slice
// being iterated. It visits only the lists that held a stopped watcher,
// so that a kubelet's watch ending costs the same with ten nodes or ten
// thousand.
func (t *table) compactWatchers() {
	unindexed := false
	for _, w := range t.stopped {
		if w.index == nil {
			unindexed = true
			continue
		}
		ws, ok := w.index[w.key]
		if !ok {
			continue // compacted already, with another watcher of its key
		}
		if ws = slices.DeleteFunc(ws, (*Watch).Stopped); len(ws) == 0 {
			delete(w.index, w.key)
		} else {
			w.index[w.key] = ws
		}
	}
	if unindexed {
		t.watchers = slices.DeleteFunc(t.watchers, (*Watch).Stopped)
	}
	clear(t.stopped)
	t.stopped = t.stopped[:0]
}

// Stopped reports whether Stop was called.
func (w *Watch) Stopped() bool { return w.stopped }

// RegisteredWatchers returns how many watches of kind are registered and
// not stopped (the API server's apiserver_registered_watchers).
func (s *Store) RegisteredWatchers(kind api.Kind) int {
	t, ok := s.tables[kind]
	if !ok {
		return 0
	}
	n := 0
	count := func(ws []*Watch) {
		for _, w := range ws {
			if !w.stopped {
				n++
			}
		}
	}
	count(t.watchers)
	for _, ws := range t.byNode {
		count(ws)
	}
	for _, ws := range t.byName {
		count(ws)
	}
	return n
}

// Watch starts a watch of kind for objects matching opts. With
// fromRV == 0 it starts with a synthetic Added event for every matching
// object (in list order), then follows live changes. With fromRV > 0 it
// first replays the retained events after fromRV, then follows live
// changes; if fromRV is older than the retained history it fails with 410
// Expired ("too old resource version") and the caller must list again.
// Events are delivered to sink synchronously, before Watch returns for the
// replayed ones.
func (s *Store) Watch(kind api.Kind, fromRV uint64, opts ListOptions, sink Sink) (*Watch, error) {
	t, err := s.table(kind)
	if err != nil {
		return nil, err
	}
	if fromRV > s.rv {
		// A resourceVersion from the future: Kubernetes waits for it;
		// the store has no such thing, so it is a bad request.
		return nil, apierr.NewBadRequest("resourceVersion is in the future")
	}
	if fromRV != 0 && fromRV < t.lowest {
		return nil, apierr.NewTooOldResourceVersion(fromRV, t.lowest)
	}
	w := &Watch{t: t, opts: opts, sink: sink}
	if fromRV == 0 {
		for _, k := range t.candidates(&opts) {
			o, slot, ok := t.lookup(k)
			if ok && matches(o, &opts) {
				sink.Deliver(Event{Type: Added, Object: o, ResourceVersion: s.parseRV(o.GetObjectMeta().ResourceVersion), slot: slot})
			}
		}
	} else {
		n := len(t.hist)
		start := t.histPos - t.histLen
		for i := range t.histLen {
			e := t.hist[((start+i)%n+n)%n]
			if e.ResourceVersion <= fromRV {
				continue
			}
			if ev, ok := filterEvent(e.Type, e.prev, e.Object, e.ResourceVersion, e.slot, &opts); ok {
				sink.Deliver(ev)
				if w.stopped {
					return w, nil
				}
			}
		}
	}
	switch {
	case opts.NodeName != "" && kind == api.KindPod:
		w.index, w.key = t.byNode, opts.NodeName
	case opts.Name != "":
		w.index, w.key = t.byName, opts.Name
	}
	if w.index != nil {
		w.index[w.key] = append(w.index[w.key], w)
	} else {
		t.watchers = append(t.watchers, w)
	}
	return w, nil
}

// filterEvent turns a change into what a selective watch sees: an object
// entering its selection is Added, one leaving it is Deleted (with its
// last matching state), and a change outside it is nothing.
func filterEvent(typ EventType, prev, cur api.Object, rv uint64, slot uint32, opts *ListOptions) (Event, bool) {
	was := prev != nil && matches(prev, opts)
	switch typ {
	case Added:
		if matches(cur, opts) {
			return Event{Type: Added, Object: cur, ResourceVersion: rv, slot: slot}, true
		}
	case Deleted:
		if was || matches(cur, opts) {
			return Event{Type: Deleted, Object: cur, ResourceVersion: rv, slot: slot}, true
		}
	case Modified:
		is := matches(cur, opts)
		switch {
		case was && is:
			return Event{Type: Modified, Object: cur, ResourceVersion: rv, prev: prev, slot: slot}, true
		case !was && is:
			return Event{Type: Added, Object: cur, ResourceVersion: rv, slot: slot}, true
		case was && !is:
			return Event{Type: Deleted, Object: prev, ResourceVersion: rv, slot: slot}, true
		}
	}
	return Event{}, false
}

// notify records a change in the kind's history and delivers it to every
// interested watcher.
func (s *Store) notify(t *table, typ EventType, prev, cur api.Object, rv uint64, slot uint32) {
	s.delivering++
	defer s.delivered()
	n := len(t.hist)
	if t.histLen == n {
		// The oldest event falls out of the window.
		t.lowest = t.hist[t.histPos%n].ResourceVersion
	} else {
		t.histLen++
	}
	t.hist[t.histPos%n] = Event{Type: typ, Object: cur, ResourceVersion: rv, prev: prev, slot: slot}
	t.histPos = (t.histPos + 1) % n

	if len(t.watchers) > 0 {
		// Delivery may stop watchers (and so edit the slice): iterate over
		// a snapshot of the current length, skipping stopped ones.
		ws := t.watchers
		for i := 0; i < len(ws); i++ {
			w := ws[i]
			if w.stopped {
				continue
			}
			if ev, ok := filterEvent(typ, prev, cur, rv, slot, &w.opts); ok {
				w.sink.Deliver(ev)
			}
		}
	}
	if t.info.Kind == api.KindPod && len(t.byNode) > 0 {
		var prevNode string
		if prev != nil {
			prevNode = nodeNameOf(prev)
		}
		curNode := nodeNameOf(cur)
		notifyIndexed(t.byNode, prevNode, typ, prev, cur, rv, slot)
		if curNode != prevNode {
			notifyIndexed(t.byNode, curNode, typ, prev, cur, rv, slot)
		}
	}
	if len(t.byName) > 0 {
		notifyIndexed(t.byName, cur.GetObjectMeta().Name, typ, prev, cur, rv, slot)
	}
}

// delivered ends a notification; the last to end drops the watchers
// stopped during them.
func (s *Store) delivered() {
	if s.delivering--; s.delivering > 0 {
		return
	}
	for _, t := range s.pendingStops {
		t.compactWatchers()
	}
	clear(s.pendingStops)
	s.pendingStops = s.pendingStops[:0]
}

// notifyIndexed delivers a change to the watchers an index holds under
// key.
func notifyIndexed(index map[string][]*Watch, key string, typ EventType, prev, cur api.Object, rv uint64, slot uint32) {
	if key == "" {
		return
	}
	ws := index[key]
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if w.stopped {
			continue
		}
		if ev, ok := filterEvent(typ, prev, cur, rv, slot, &w.opts); ok {
			w.sink.Deliver(ev)
		}
	}
}
