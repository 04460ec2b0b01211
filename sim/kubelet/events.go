package kubelet

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/eventcorrelator"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
)

// Event recorder limits, client-go's (as sim/client's Recorder uses them).
const (
	eventQueueLength   = 1000
	eventTries         = 12
	eventRetryInterval = 10 * time.Second
)

// EventComponent is source.component of the kubelet's events.
const EventComponent = "kubelet"

type queuedEvent struct {
	// obj is what the correlator keeps of the object's events: its
	// pod's, or the kubelet's for its Node.
	obj                  *eventcorrelator.Object
	ref                  api.ObjectReference // its FieldPath names a container
	typ, reason, message string
	at                   kernel.Time
}

// recorder is the kubelet's event recorder: client-go's broadcaster and
// correlator (sim/eventcorrelator) without a process. Events are written
// one at a time with asynchronous calls; the correlator counts identical
// events, combines similar ones and refuses spam about an object;
// transient failures are retried a few times, and an event that cannot
// be written is dropped: events are best effort.
type recorder struct {
	k     *Kubelet
	queue []queuedEvent
	head  int
	busy  bool
	tok   uint32
	tries int
	cur   queuedEvent
	res   eventcorrelator.Result // what to write for cur
	// recreate is set once a patch found the Event gone: it is created
	// again under its name.
	recreate bool
	// node is what the correlator keeps of the events about the Node.
	node eventcorrelator.Object
	// paths are the containers' field paths the recorder built before,
	// present the "already present" messages by image: every pod of a
	// node repeats them, and each Event kept a copy of its own.
	paths   map[containerName]string
	present map[string]string
	paused  bool
}

func (r *recorder) init(k *Kubelet) {
	r.k = k
	r.paths = map[containerName]string{}
	r.present = map[string]string{}
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

// emit queues an event about ref (fieldPath names a container); obj is
// what the correlator keeps of that object's events.
func (r *recorder) emit(obj *eventcorrelator.Object, ref api.ObjectReference, fieldPath, typ, reason, msg string) {
	k := r.k
	if k.cfg.NoEvents || r.paused {
		return
	}
	if len(r.queue)-r.head >= eventQueueLength {
		k.stats.EventsDropped++
		return
	}
	ref.FieldPath = fieldPath
	r.queue = append(r.queue, queuedEvent{obj: obj, ref: ref, typ: typ, reason: reason, message: msg, at: k.now()})
	if !r.busy {
		r.sendNext()
	}
}

// correlated is queued event e as the correlator reads it.
func (r *recorder) correlated(e *queuedEvent) eventcorrelator.Event {
	return eventcorrelator.Event{
		Component: EventComponent, Host: r.k.cfg.NodeName,
		Kind: e.ref.Kind, APIVersion: e.ref.APIVersion, Namespace: e.ref.Namespace, Name: e.ref.Name,
		FieldPath: e.ref.FieldPath, UID: e.ref.UID,
		Type: e.typ, Reason: e.reason, Message: e.message, At: e.at,
	}
}

// sendNext writes the next queued event the spam filter lets through.
func (r *recorder) sendNext() {
	k := r.k
	for r.head < len(r.queue) {
		r.cur = r.queue[r.head]
		r.queue[r.head] = queuedEvent{}
		r.head++
		ev := r.correlated(&r.cur)
		r.res = r.cur.obj.Correlate(&ev, k.now(), k.rng)
		if r.res.Skip {
			k.stats.EventsFiltered++
			continue
		}
		r.tries = 0
		r.recreate = false
		r.attempt()
		return
	}
	r.queue, r.head = r.queue[:0], 0
}

// attempt writes the current event: a merge patch of count,
// lastTimestamp and message for a repeat, else a new Event.
func (r *recorder) attempt() {
	k := r.k
	r.busy = true
	r.tok = k.next()
	e := &r.cur
	ns := e.ref.Namespace
	if ns == "" {
		ns = "default"
	}
	if r.res.Update && !r.recreate {
		body, err := json.Marshal(struct {
			Count         int32    `json:"count"`
			LastTimestamp api.Time `json:"lastTimestamp"`
			Message       string   `json:"message"`
		}{r.res.Count, api.NewTime(r.res.Last.Wall()), r.res.Message})
		if err != nil {
			r.give(true)
			return
		}
		k.call(&apiserver.Request{Verb: apiserver.Patch, Kind: api.KindEvent, Namespace: ns, Name: r.res.Name,
			Patch: body, PatchType: apiserver.MergePatch}, opEvent, noContainer, 0, r.tok)
		return
	}
	ev := &api.Event{
		TypeMeta:            api.TypeMeta{APIVersion: "v1", Kind: api.KindEvent.Name},
		ObjectMeta:          api.ObjectMeta{Namespace: ns, Name: r.res.Name},
		InvolvedObject:      e.ref,
		Reason:              e.reason,
		Message:             r.res.Message,
		Source:              api.EventSource{Component: EventComponent, Host: k.cfg.NodeName},
		FirstTimestamp:      api.NewTime(r.res.First.Wall()),
		LastTimestamp:       api.NewTime(r.res.Last.Wall()),
		Count:               r.res.Count,
		Type:                e.typ,
		ReportingController: EventComponent,
		ReportingInstance:   k.cfg.NodeName,
	}
	k.call(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindEvent, Namespace: ns, Name: r.res.Name, Object: ev},
		opEvent, noContainer, 0, r.tok)
}

// done handles a write's outcome.
func (r *recorder) done(tok uint32, err error) {
	if tok != r.tok || !r.busy {
		return
	}
	r.busy = false
	creating := !r.res.Update || r.recreate
	switch {
	case err == nil, creating && errors.Is(err, apierr.ErrAlreadyExists):
		// Written. A create that finds its name taken met an earlier
		// try, or a duplicate of itself, that was written: names carry
		// 64 random bits.
		ev := r.correlated(&r.cur)
		r.cur.obj.Written(&ev, &r.res)
		r.k.stats.Events++
		r.sendNext()
	case !creating && errors.Is(err, apierr.ErrNotFound):
		// The Event expired or was deleted: create it again under its
		// name, with the count (client-go's recordEvent).
		r.recreate = true
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
