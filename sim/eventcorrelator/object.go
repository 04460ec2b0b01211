package eventcorrelator

import (
	"math/rand/v2"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/flowcontrol"
	"github.com/clustersim/clustersim/sim/kernel"
)

// Object is what a correlator keeps of one object's events from one
// source, held by the caller beside the object (a kubelet keeps one in
// each pod's state and one for its Node) instead of in the correlator's
// caches: its Correlate finds the object's spam bucket, groups and Events
// there with no hash and no map, by comparing a few strings.
//
// It decides as a Correlator does, with one difference: client-go's caches
// are LRUs of 4,096 entries across a source's objects, so an object's
// entries can be pushed out by 4,096 newer ones; an Object keeps its
// entries as long as the caller keeps it (a kubelet, for the life of the
// pod: no event comes about a pod once it is gone). A kubelet's pods,
// 110 at most at a time, bring a few entries each: the difference needs
// a node to see some thousand pods between two events about one of them.
// TestObjectMatchesCaches holds the two to the same results.
type Object struct {
	spam    flowcontrol.TokenBucket
	hasSpam bool
	groups  []objectGroup
	logs    []objectLog
}

// objectGroup is a group of the object's events (a type and a reason):
// its messages, at most AggregateMaxEvents-1 once combining, oldest
// first, and when its last event came.
type objectGroup struct {
	typ, reason string
	last        kernel.Time
	messages    []string
}

// objectLog is an Event of the object the logger remembers: an event's
// key (type, reason, field path, message), or a group's (combined).
type objectLog struct {
	combined                        bool
	typ, reason, fieldPath, message string
	log                             eventLog
}

// Correlate is Correlator.Correlate for an event about o's object (e's
// Component and Host are the source o belongs to, e's object o's). Call
// Written once the Event is written, before the next event about the
// object.
func (o *Object) Correlate(e *Event, now kernel.Time, rng *rand.Rand) Result {
	res := Result{Message: e.Message, Count: 1, First: e.At, Last: e.At}
	var l *objectLog
	if o.aggregate(e, now) {
		res.combined = true
		res.Message = CombinedPrefix + e.Message
		res.First, res.Last = now, now
		l = o.log(true, e.Type, e.Reason, "", "")
	} else {
		l = o.log(false, e.Type, e.Reason, e.FieldPath, e.Message)
	}
	if l.log.count > 0 {
		res.Update = true
		res.Name, res.First, res.Count = l.log.name, l.log.first, l.log.count+1
	} else {
		res.Name = api.EventName(e.Name, rng.Uint64())
	}
	l.log = eventLog{name: res.Name, count: res.Count, first: res.First}
	if !o.hasSpam {
		o.spam, o.hasSpam = *flowcontrol.NewTokenBucket(SpamQPS, SpamBurst, now), true
	}
	res.Skip = !o.spam.TryAccept(now)
	return res
}

// Written is Correlator.Written for an Event of o's object: a combined
// Event is filed under its own key (e's, with the combined message).
func (o *Object) Written(e *Event, r *Result) {
	if !r.combined {
		return
	}
	o.log(false, e.Type, e.Reason, e.FieldPath, r.Message).log = eventLog{name: r.Name, count: r.Count, first: r.First}
}

// aggregate files e's message in its group at now and reports whether
// the event is to be combined (the aggregator's rule; see Correlate).
func (o *Object) aggregate(e *Event, now kernel.Time) bool {
	var g *objectGroup
	for i := range o.groups {
		if o.groups[i].typ == e.Type && o.groups[i].reason == e.Reason {
			g = &o.groups[i]
			break
		}
	}
	if g == nil {
		o.groups = append(o.groups, objectGroup{typ: e.Type, reason: e.Reason})
		g = &o.groups[len(o.groups)-1]
		g.messages = append(g.messages[:0], e.Message)
	} else if now.Sub(g.last) > AggregateInterval {
		g.messages = append(g.messages[:0], e.Message)
	} else if !contains(g.messages, e.Message) {
		g.messages = append(g.messages, e.Message)
	}
	g.last = now
	if len(g.messages) < AggregateMaxEvents {
		return false
	}
	// client-go pops any one message of the set; the oldest here, as
	// Correlate does.
	g.messages = append(g.messages[:0], g.messages[1:]...)
	return true
}

// log returns the object's log entry under a key, added empty when there
// is none.
func (o *Object) log(combined bool, typ, reason, fieldPath, message string) *objectLog {
	for i := range o.logs {
		l := &o.logs[i]
		if l.combined == combined && l.typ == typ && l.reason == reason && l.fieldPath == fieldPath && l.message == message {
			return l
		}
	}
	o.logs = append(o.logs, objectLog{combined: combined, typ: typ, reason: reason, fieldPath: fieldPath, message: message})
	return &o.logs[len(o.logs)-1]
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
