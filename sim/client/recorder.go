package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/fieldhash"
	"github.com/clustersim/clustersim/sim/kernel"
)

// The core/v1 event types.
const (
	// EventTypeNormal is for events that report normal progress.
	EventTypeNormal = "Normal"
	// EventTypeWarning is for events that report a problem.
	EventTypeWarning = "Warning"
)

// EventRecorder records events about objects (client-go's
// record.EventRecorder). Eventf never blocks: the event is queued and sent
// later, best effort.
type EventRecorder interface {
	// Eventf records an event of eventType (EventTypeNormal or
	// EventTypeWarning) about obj with a machine-readable reason
	// ("ScalingReplicaSet") and a message built from messageFmt and args.
	Eventf(obj api.Object, eventType, reason, messageFmt string, args ...any)
}

// Recorder defaults, after client-go's record package.
const (
	// DefaultEventQueueLength is how many events may wait to be sent;
	// more are dropped (client-go's maxQueuedEvents, 1000).
	DefaultEventQueueLength = 1000
	// DefaultEventTries is how many times an event is sent before it is
	// dropped (client-go's maxTriesPerEvent, 12).
	DefaultEventTries = 12
	// DefaultEventRetryInterval is the pause between tries; the first
	// retry waits a random fraction of it (client-go's sleepDuration,
	// 10s).
	DefaultEventRetryInterval = 10 * time.Second
	// DefaultEventAggregationWindow is how long after its last occurrence
	// an identical event (same object, type, reason, message and
	// component) still updates the existing Event's count and
	// lastTimestamp instead of creating a new Event: 10 minutes.
	DefaultEventAggregationWindow = 10 * time.Minute
)

// RecorderOptions configure a Recorder. Zero fields take the defaults.
type RecorderOptions struct {
	// Component is source.component of the events Eventf records directly
	// on the Recorder, e.g. "deployment-controller".
	Component string
	// QueueLength bounds the events waiting to be sent (default 1000).
	QueueLength int
	// Tries is how many times a send is attempted (default 12).
	Tries int
	// RetryInterval is the pause between tries (default 10s).
	RetryInterval time.Duration
	// AggregationWindow is how long identical events aggregate (default
	// 10m).
	AggregationWindow time.Duration
}

// RecorderStats count what a Recorder did with the events it was given.
type RecorderStats struct {
	// Recorded counts Eventf calls.
	Recorded uint64
	// Created counts Events created.
	Created uint64
	// Aggregated counts repeats written as a count/lastTimestamp update
	// of an existing Event.
	Aggregated uint64
	// Retries counts sends attempted again after a transient failure.
	Retries uint64
	// Dropped counts events never written: queue full, recorder stopped,
	// an invalid type, rejected by the server or out of tries.
	Dropped uint64
}

// eventKey identifies identical events for aggregation: client-go's
// getEventKey, which leaves out the object's resourceVersion.
type eventKey struct {
	kind, apiVersion, namespace, name     string
	uid                                   api.UID
	component, eventType, reason, message string
}

// hash returns k as the recorder remembers it.
func (k *eventKey) hash(h *fieldhash.Hasher) fieldhash.Sum {
	return h.Sum(k.kind, k.apiVersion, k.namespace, k.name, string(k.uid), k.component, k.eventType, k.reason, k.message)
}

// aggregate is what the recorder remembers of a written Event.
type aggregate struct {
	namespace, name string
	count           int32
	first, last     kernel.Time
}

// queued is an event waiting to be sent.
type queued struct {
	key eventKey
	ref api.ObjectReference
	at  kernel.Time
}

// Recorder turns Eventf calls into core/v1 Event objects, written by a
// sender process it owns, through a Client. It aggregates identical events
// (client-go's EventCorrelator) and retries transient failures a few times
// before dropping the event: events are best effort. Start spawns the
// sender; Stop kills it and drops what was queued.
type Recorder struct {
	k       *kernel.Kernel
	c       Client
	name    string
	opts    RecorderOptions
	rng     *rand.Rand
	queue   []queued
	head    int
	sender  *kernel.Process
	parked  bool
	stopped bool
	// seen are the events written, by their key's hash (fieldhash):
	// a Scheduled event per pod made these keys of nine strings each a
	// sizable part of a large cluster's live heap.
	seen   map[fieldhash.Sum]*aggregate
	hasher fieldhash.Hasher
	// prune is the size of seen at which expired entries are dropped.
	prune int
	stats RecorderStats
}

var _ EventRecorder = (*Recorder)(nil)

// NewRecorder returns a stopped recorder named name (its process is
// "<name>/events", its random stream "client/recorder/<name>") writing
// through c. Eventf calls made before Start wait in the queue.
func NewRecorder(k *kernel.Kernel, c Client, name string, opts RecorderOptions) *Recorder {
	if opts.QueueLength <= 0 {
		opts.QueueLength = DefaultEventQueueLength
	}
	if opts.Tries <= 0 {
		opts.Tries = DefaultEventTries
	}
	if opts.RetryInterval <= 0 {
		opts.RetryInterval = DefaultEventRetryInterval
	}
	if opts.AggregationWindow <= 0 {
		opts.AggregationWindow = DefaultEventAggregationWindow
	}
	return &Recorder{
		k: k, c: c, name: name, opts: opts,
		rng:   k.Rand("client/recorder/" + name),
		seen:  make(map[fieldhash.Sum]*aggregate),
		prune: minPrune,
	}
}

// Start spawns the sender process. Starting a started or stopped recorder
// does nothing.
func (r *Recorder) Start() {
	if r.sender != nil || r.stopped {
		return
	}
	r.sender = r.k.Spawn(r.name+"/events", r.run)
}

// Stop kills the sender (a crash: an event being sent may or may not
// have been written) and drops every queued event. Later Eventf calls are
// dropped.
func (r *Recorder) Stop() {
	if r.stopped {
		return
	}
	r.stopped = true
	r.stats.Dropped += uint64(len(r.queue) - r.head)
	r.queue, r.head = nil, 0
	if r.sender != nil {
		r.sender.Kill()
	}
}

// Stats returns the recorder's counters.
func (r *Recorder) Stats() RecorderStats { return r.stats }

// For returns an EventRecorder whose events carry component as their
// source, sharing this recorder's queue, sender and aggregation.
func (r *Recorder) For(component string) EventRecorder {
	return componentRecorder{r: r, component: component}
}

type componentRecorder struct {
	r         *Recorder
	component string
}

// Eventf records an event with the recorder's component.
func (c componentRecorder) Eventf(obj api.Object, eventType, reason, messageFmt string, args ...any) {
	c.r.record(c.component, obj, eventType, reason, messageFmt, args)
}

// Eventf records an event with the recorder's own component.
func (r *Recorder) Eventf(obj api.Object, eventType, reason, messageFmt string, args ...any) {
	r.record(r.opts.Component, obj, eventType, reason, messageFmt, args)
}

func (r *Recorder) record(component string, obj api.Object, eventType, reason, messageFmt string, args []any) {
	r.stats.Recorded++
	if r.stopped || obj == nil || (eventType != EventTypeNormal && eventType != EventTypeWarning) ||
		len(r.queue)-r.head >= r.opts.QueueLength {
		r.stats.Dropped++
		return
	}
	msg := messageFmt
	if len(args) > 0 {
		msg = fmt.Sprintf(messageFmt, args...)
	}
	ref := reference(obj)
	r.queue = append(r.queue, queued{
		key: eventKey{
			kind: ref.Kind, apiVersion: ref.APIVersion, namespace: ref.Namespace, name: ref.Name, uid: ref.UID,
			component: component, eventType: eventType, reason: reason, message: msg,
		},
		ref: ref,
		at:  r.k.Now(),
	})
	if r.parked {
		r.parked = false
		r.sender.Wake()
	}
}

// reference returns the involvedObject of an event about obj.
func reference(obj api.Object) api.ObjectReference {
	m := obj.GetObjectMeta()
	apiVersion, kind := typeOf(obj)
	return api.ObjectReference{
		Kind:            kind,
		APIVersion:      apiVersion,
		Namespace:       m.Namespace,
		Name:            m.Name,
		UID:             m.UID,
		ResourceVersion: m.ResourceVersion,
	}
}

// run is the sender: it writes queued events one at a time.
func (r *Recorder) run(p *kernel.Process) {
	for {
		for r.head == len(r.queue) {
			r.queue, r.head = r.queue[:0], 0
			r.parked = true
			p.Park()
		}
		e := r.queue[r.head]
		r.queue[r.head] = queued{}
		r.head++
		if r.head >= 64 && 2*r.head >= len(r.queue) {
			// Under a steady stream the queue never empties: drop the
			// consumed prefix so the backing array does not grow forever.
			n := copy(r.queue, r.queue[r.head:])
			clear(r.queue[n:])
			r.queue, r.head = r.queue[:n], 0
		}
		r.send(p, e)
	}
}

// minPrune is the smallest aggregation cache that is pruned (client-go's
// LRU holds 4096 events).
const minPrune = 4096

// remember caches agg for aggregation. When the cache has grown past its
// bound, entries outside the aggregation window are dropped; which ones
// those are does not depend on map order.
func (r *Recorder) remember(key fieldhash.Sum, agg *aggregate) {
	r.seen[key] = agg
	if len(r.seen) < r.prune {
		return
	}
	now := r.k.Now()
	for k, a := range r.seen {
		if now.Sub(a.last) > r.opts.AggregationWindow {
			delete(r.seen, k)
		}
	}
	r.prune = max(minPrune, 2*len(r.seen))
}

// transient reports whether a failed send may succeed if tried again:
// the request was lost or the server was down. Anything else the server
// rejected for good (client-go: "Server rejected event (will not
// retry!)").
func transient(err error) bool {
	return errors.Is(err, apierr.ErrTimeout) || errors.Is(err, apierr.ErrServiceUnavailable)
}

// send writes one event, aggregating it into an earlier identical one when
// that is recent enough, and retries transient failures.
func (r *Recorder) send(p *kernel.Process, e queued) {
	key := e.key.hash(&r.hasher)
	agg := r.seen[key]
	if agg != nil && e.at.Sub(agg.last) > r.opts.AggregationWindow {
		agg = nil
	}
	for try := 1; ; try++ {
		var err error
		if agg != nil {
			err = r.update(agg, e)
		} else {
			agg, err = r.create(e, try > 1)
		}
		if err == nil {
			r.remember(key, agg)
			return
		}
		if !transient(err) || try >= r.opts.Tries {
			r.stats.Dropped++
			return
		}
		r.stats.Retries++
		if try == 1 {
			p.Sleep(time.Duration(r.rng.Float64() * float64(r.opts.RetryInterval)))
		} else {
			p.Sleep(r.opts.RetryInterval)
		}
	}
}

// createEvent creates ev, which the recorder built for this write
// alone: given away (CreateGiven).
func (r *Recorder) createEvent(ev *api.Event) error {
	_, err := CreateGiven(context.Background(), r.c, ev)
	return err
}

// create writes a new Event for e with count 1. On a retry, AlreadyExists
// means an earlier try that timed out did create it.
func (r *Recorder) create(e queued, retry bool) (*aggregate, error) {
	ns := e.ref.Namespace
	if ns == "" {
		ns = "default"
	}
	ts := api.NewTime(e.at.Wall())
	ev := &api.Event{
		ObjectMeta: api.ObjectMeta{
			Namespace: ns,
			Name:      api.EventName(e.ref.Name, r.rng.Uint64()),
		},
		InvolvedObject:      e.ref,
		Reason:              e.key.reason,
		Message:             e.key.message,
		Source:              api.EventSource{Component: e.key.component},
		FirstTimestamp:      ts,
		LastTimestamp:       ts,
		Count:               1,
		Type:                e.key.eventType,
		ReportingController: e.key.component,
	}
	ev.APIVersion, ev.Kind = "v1", api.KindEvent.Name
	agg := &aggregate{namespace: ns, name: ev.Name, count: 1, first: e.at, last: e.at}
	if err := r.createEvent(ev); err != nil {
		if !(retry && errors.Is(err, apierr.ErrAlreadyExists)) {
			return nil, err
		}
	}
	r.stats.Created++
	return agg, nil
}

// update bumps the count and lastTimestamp of the aggregated Event; if it
// is gone (deleted, expired) it is created again with the new count.
func (r *Recorder) update(agg *aggregate, e queued) error {
	patch, err := json.Marshal(struct {
		Count         int32    `json:"count"`
		LastTimestamp api.Time `json:"lastTimestamp"`
	}{agg.count + 1, api.NewTime(e.at.Wall())})
	if err != nil {
		return err
	}
	key := api.Key{Namespace: agg.namespace, Name: agg.name}
	_, err = r.c.Patch(context.Background(), api.KindEvent, key, MergePatch, patch)
	if errors.Is(err, apierr.ErrNotFound) {
		ev := &api.Event{
			ObjectMeta:          api.ObjectMeta{Namespace: agg.namespace, Name: agg.name},
			InvolvedObject:      e.ref,
			Reason:              e.key.reason,
			Message:             e.key.message,
			Source:              api.EventSource{Component: e.key.component},
			FirstTimestamp:      api.NewTime(agg.first.Wall()),
			LastTimestamp:       api.NewTime(e.at.Wall()),
			Count:               agg.count + 1,
			Type:                e.key.eventType,
			ReportingController: e.key.component,
		}
		ev.APIVersion, ev.Kind = "v1", api.KindEvent.Name
		err = r.createEvent(ev)
	}
	if err != nil {
		return err
	}
	agg.count++
	agg.last = e.at
	r.stats.Aggregated++
	return nil
}
