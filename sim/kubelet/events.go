package kubelet

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/fieldhash"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
)

// Event recorder limits, client-go's (as sim/client's Recorder uses them).
const (
	eventQueueLength   = 1000
	eventTries         = 12
	eventRetryInterval = 10 * time.Second
	eventWindow        = 10 * time.Minute
	eventMinPrune      = 4096
)

// EventComponent is source.component of the kubelet's events.
const EventComponent = "kubelet"

// eventKey identifies identical events for aggregation (client-go's
// getEventKey: the object, its field path, type, reason and message).
type eventKey struct {
	kind, namespace, name, fieldPath string
	uid                              api.UID
	typ, reason, message             string
}

// hash returns k as the aggregation cache keeps it: a fieldhash.Sum of
// its fields (a kubelet remembers every event it wrote in the last ten
// minutes and, below eventMinPrune of them, all it ever wrote).
func (k *eventKey) hash(h *fieldhash.Hasher) fieldhash.Sum {
	return h.Sum(k.kind, k.namespace, k.name, k.fieldPath, string(k.uid), k.typ, k.reason, k.message)
}

// eventAgg is what the recorder remembers of a written Event.
type eventAgg struct {
	namespace, name string
	count           int32
	first, last     kernel.Time
}

type queuedEvent struct {
	key eventKey
	ref api.ObjectReference
	at  kernel.Time
}

// recorder is the kubelet's event recorder: client-go's broadcaster and
// correlator without a process. Events are written one at a time with
// asynchronous calls; an identical event within 10 minutes of the last
// one bumps its count; transient failures are retried a few times, and an
// event that cannot be written is dropped: events are best effort.
type recorder struct {
	k      *Kubelet
	queue  []queuedEvent
	head   int
	busy   bool
	tok    uint32
	tries  int
	cur    queuedEvent
	agg    eventAgg      // the aggregate being updated, when hasAgg
	hasAgg bool          // false for an event not written yet
	curKey fieldhash.Sum // r.cur's key, hashed
	seen   map[fieldhash.Sum]eventAgg
	hasher fieldhash.Hasher
	// paths are the containers' field paths the recorder built before,
	// present the "already present" messages by image: every pod of a
	// node repeats them, and each Event kept a copy of its own.
	paths   map[containerName]string
	present map[string]string
	prune   int
	paused  bool
}

func (r *recorder) init(k *Kubelet) {
	r.k = k
	r.seen = map[fieldhash.Sum]eventAgg{}
	r.paths = map[containerName]string{}
	r.present = map[string]string{}
	r.prune = eventMinPrune
}

// containerName is a container as its field path names it.
type containerName struct {
	init bool
	name string
}

// fieldPath returns the field path of the container named name (an init
// container when init), built once per recorder: a node has a few
// distinct ones (its pods' container names).
func (r *recorder) fieldPath(init bool, name string) string {
	if p, ok := r.paths[containerName{init, name}]; ok {
		return p
	}
	p := "spec.containers{" + name + "}"
	if init {
		p = "spec.initContainers{" + name + "}"
	}
	if len(r.paths) < maxWords {
		r.paths[containerName{init, name}] = p
	}
	return p
}

// presentMessage returns the Pulled event's message for an image already
// on the node, built once per recorder and image.
func (r *recorder) presentMessage(image string) string {
	if m, ok := r.present[image]; ok {
		return m
	}
	// KubeletEnsureSecretPulledImages (beta, on by default) words it so
	// (k/k pkg/kubelet/images/image_manager.go EnsureImageExists).
	m := fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", image)
	if len(r.present) < maxWords {
		r.present[image] = m
	}
	return m
}

// maxWords bounds a recorder's field paths and messages: a node running pods
// of thousands of different containers or images builds the rest each
// time.
const maxWords = 1024

// stop drops what is queued: a stopped kubelet loses its recorder's
// memory of pending events (not its aggregation cache, which is cheap to
// keep and only saves Event objects).
func (r *recorder) stop() {
	r.k.stats.EventsDropped += uint64(len(r.queue) - r.head)
	r.queue, r.head = r.queue[:0], 0
	r.busy = false
	r.tok = 0
	r.paused = true
}

func (r *recorder) restart() { r.paused = false }

// emit queues an event about ref (fieldPath names a container).
func (r *recorder) emit(ref api.ObjectReference, fieldPath, typ, reason, msg string) {
	k := r.k
	if k.cfg.NoEvents || r.paused {
		return
	}
	if len(r.queue)-r.head >= eventQueueLength {
		k.stats.EventsDropped++
		return
	}
	ref.FieldPath = fieldPath
	r.queue = append(r.queue, queuedEvent{
		key: eventKey{kind: ref.Kind, namespace: ref.Namespace, name: ref.Name, fieldPath: fieldPath, uid: ref.UID,
			typ: typ, reason: reason, message: msg},
		ref: ref,
		at:  k.now(),
	})
	if !r.busy {
		r.sendNext()
	}
}

func (r *recorder) sendNext() {
	if r.head == len(r.queue) {
		r.queue, r.head = r.queue[:0], 0
		return
	}
	r.cur = r.queue[r.head]
	r.queue[r.head] = queuedEvent{}
	r.head++
	r.tries = 0
	r.curKey = r.cur.key.hash(&r.hasher)
	r.agg, r.hasAgg = r.seen[r.curKey]
	if r.hasAgg && r.cur.at.Sub(r.agg.last) > eventWindow {
		r.hasAgg = false
	}
	r.attempt()
}

// attempt writes the current event: a merge patch of count and
// lastTimestamp for a repeat, else a new Event.
func (r *recorder) attempt() {
	k := r.k
	r.busy = true
	r.tok = k.next()
	e := &r.cur
	ns := e.ref.Namespace
	if ns == "" {
		ns = "default"
	}
	if r.hasAgg && r.agg.count > 0 {
		body, err := json.Marshal(struct {
			Count         int32    `json:"count"`
			LastTimestamp api.Time `json:"lastTimestamp"`
		}{r.agg.count + 1, api.NewTime(e.at.Wall())})
		if err != nil {
			r.give(true)
			return
		}
		k.call(&apiserver.Request{Verb: apiserver.Patch, Kind: api.KindEvent, Namespace: r.agg.namespace, Name: r.agg.name,
			Patch: body, PatchType: apiserver.MergePatch}, opEvent, noContainer, 0, r.tok)
		return
	}
	if !r.hasAgg {
		// A new Event; a retried create keeps its name, so that an
		// earlier try that was written is found (AlreadyExists).
		r.agg = eventAgg{namespace: ns, name: api.EventName(e.ref.Name, k.rng.Uint64()), first: e.at, last: e.at}
		r.hasAgg = true
	}
	ts := api.NewTime(e.at.Wall())
	name := r.agg.name
	ev := &api.Event{
		TypeMeta:            api.TypeMeta{APIVersion: "v1", Kind: api.KindEvent.Name},
		ObjectMeta:          api.ObjectMeta{Namespace: ns, Name: name},
		InvolvedObject:      e.ref,
		Reason:              e.key.reason,
		Message:             e.key.message,
		Source:              api.EventSource{Component: EventComponent, Host: k.cfg.NodeName},
		FirstTimestamp:      ts,
		LastTimestamp:       ts,
		Count:               1,
		Type:                e.key.typ,
		ReportingController: EventComponent,
		ReportingInstance:   k.cfg.NodeName,
	}
	k.call(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindEvent, Namespace: ns, Name: name, Object: ev},
		opEvent, noContainer, 0, r.tok)
}

// done handles a write's outcome.
func (r *recorder) done(tok uint32, err error) {
	if tok != r.tok || !r.busy {
		return
	}
	r.busy = false
	creating := r.hasAgg && r.agg.count == 0
	switch {
	case err == nil, creating && errors.Is(err, apierr.ErrAlreadyExists):
		// Written. A create that finds its name taken met an earlier
		// try, or a duplicate of itself, that was written: names carry
		// 64 random bits.
		r.agg.count++
		r.agg.last = r.cur.at
		r.remember(r.curKey, r.agg)
		r.k.stats.Events++
		r.sendNext()
	case !creating && errors.Is(err, apierr.ErrNotFound):
		// The Event expired or was deleted: start a new one.
		r.hasAgg = false
		r.attempt()
	case errors.Is(err, netsim.ErrTimeout), errors.Is(err, apierr.ErrServiceUnavailable), errors.Is(err, apierr.ErrTimeout):
		r.give(false)
	default:
		r.give(true)
	}
}

// give retries the current event after a transient failure, or drops it.
func (r *recorder) give(fatal bool) {
	k := r.k
	r.tries++
	if fatal || r.tries >= eventTries {
		k.stats.EventsDropped++
		r.busy = false
		r.sendNext()
		return
	}
	d := eventRetryInterval
	if r.tries == 1 {
		d = time.Duration(k.rng.Float64() * float64(eventRetryInterval))
	}
	r.busy = true
	r.tok = k.next()
	k.at(d, tEvent, noContainer, 0, r.tok)
}

// fire is the retry timer.
func (r *recorder) fire(tok uint32) {
	if tok == r.tok && r.busy {
		r.attempt()
	}
}

// remember caches an aggregate; past a size bound, entries outside the
// aggregation window are pruned (which ones does not depend on map order).
func (r *recorder) remember(key fieldhash.Sum, agg eventAgg) {
	r.seen[key] = agg
	if len(r.seen) < r.prune {
		return
	}
	now := r.k.now()
	for key, a := range r.seen {
		if now.Sub(a.last) > eventWindow {
			delete(r.seen, key)
		}
	}
	r.prune = max(eventMinPrune, 2*len(r.seen))
}
