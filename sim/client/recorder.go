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
	"github.com/clustersim/clustersim/sim/eventcorrelator"
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
}

// RecorderStats count what a Recorder did with the events it was given.
type RecorderStats struct {
	// Recorded counts Eventf calls.
	Recorded uint64
	// Created counts Events created.
	Created uint64
	// Aggregated counts repeats written as an update of an existing
	// Event's count, lastTimestamp and message: identical events, and
	// similar ones combined.
	Aggregated uint64
	// Filtered counts events the spam filter refused: a source's 26th
	// event about an object within five minutes, and so on.
	Filtered uint64
	// Retries counts sends attempted again after a transient failure.
	Retries uint64
	// Dropped counts events never written: queue full, recorder stopped,
	// an invalid type, rejected by the server or out of tries.
	Dropped uint64
}

// queued is an event waiting to be sent.
type queued struct {
	ref                                   api.ObjectReference
	component, eventType, reason, message string
	at                                    kernel.Time
}

// Recorder turns Eventf calls into core/v1 Event objects, written by a
// sender process it owns, through a Client. Its correlator (client-go's
// EventCorrelator, sim/eventcorrelator) counts identical events, combines
// similar ones and refuses a source's spam about an object; it retries
// transient failures a few times before dropping the event: events are
// best effort. Start spawns the
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
	corr    *eventcorrelator.Correlator
	stats   RecorderStats
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
	return &Recorder{
		k: k, c: c, name: name, opts: opts,
		rng:  k.Rand("client/recorder/" + name),
		corr: eventcorrelator.New(),
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
		ref:       ref,
		component: component, eventType: eventType, reason: reason, message: msg,
		at: r.k.Now(),
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

// transient reports whether a failed send may succeed if tried again:
// the request was lost or the server was down. Anything else the server
// rejected for good (client-go: "Server rejected event (will not
// retry!)").
func transient(err error) bool {
	return errors.Is(err, apierr.ErrTimeout) || errors.Is(err, apierr.ErrServiceUnavailable)
}

// send writes one event as the correlator says (a new Event, a patch of
// an earlier one, or nothing when the spam filter refuses it) and
// retries transient failures (client-go's recordToSink).
func (r *Recorder) send(p *kernel.Process, e queued) {
	ev := eventcorrelator.Event{
		Component: e.component,
		Kind:      e.ref.Kind, APIVersion: e.ref.APIVersion, Namespace: e.ref.Namespace, Name: e.ref.Name, UID: e.ref.UID,
		Type: e.eventType, Reason: e.reason, Message: e.message,
		At: e.at,
	}
	res := r.corr.Correlate(&ev, r.k.Now(), r.rng)
	if res.Skip {
		r.stats.Filtered++
		return
	}
	for try := 1; ; try++ {
		var err error
		if res.Update {
			err = r.update(&res, e)
		} else {
			err = r.create(&res, e, try > 1)
		}
		if err == nil {
			r.corr.Written(&res)
			if res.Update {
				r.stats.Aggregated++
			} else {
				r.stats.Created++
			}
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

// event builds the Event res stands for.
func (r *Recorder) event(res *eventcorrelator.Result, e queued) *api.Event {
	ns := e.ref.Namespace
	if ns == "" {
		ns = "default"
	}
	ev := &api.Event{
		ObjectMeta:          api.ObjectMeta{Namespace: ns, Name: res.Name},
		InvolvedObject:      e.ref,
		Reason:              e.reason,
		Message:             res.Message,
		Source:              api.EventSource{Component: e.component},
		FirstTimestamp:      api.NewTime(res.First.Wall()),
		LastTimestamp:       api.NewTime(res.Last.Wall()),
		Count:               res.Count,
		Type:                e.eventType,
		ReportingController: e.component,
	}
	ev.APIVersion, ev.Kind = "v1", api.KindEvent.Name
	return ev
}

// create writes a new Event. On a retry, AlreadyExists means an earlier
// try that timed out did create it.
func (r *Recorder) create(res *eventcorrelator.Result, e queued, retry bool) error {
	if err := r.createEvent(r.event(res, e)); err != nil {
		if !(retry && errors.Is(err, apierr.ErrAlreadyExists)) {
			return err
		}
	}
	return nil
}

// update patches the count, lastTimestamp and message of the Event
// written before (client-go sends the three as a strategic merge patch;
// on an Event that is a merge patch). If it is gone (deleted, expired) it
// is created again under its name with the new count.
func (r *Recorder) update(res *eventcorrelator.Result, e queued) error {
	patch, err := json.Marshal(struct {
		Count         int32    `json:"count"`
		LastTimestamp api.Time `json:"lastTimestamp"`
		Message       string   `json:"message"`
	}{res.Count, api.NewTime(res.Last.Wall()), res.Message})
	if err != nil {
		return err
	}
	ns := e.ref.Namespace
	if ns == "" {
		ns = "default"
	}
	_, err = r.c.Patch(context.Background(), api.KindEvent, api.Key{Namespace: ns, Name: res.Name}, MergePatch, patch)
	if errors.Is(err, apierr.ErrNotFound) {
		err = r.createEvent(r.event(res, e))
	}
	return err
}
