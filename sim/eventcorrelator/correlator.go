// Package eventcorrelator is client-go's EventCorrelator
// (k8s.io/client-go/tools/record/events_cache.go, the same in substance
// from v1.10 to the pinned release) on virtual time: what an event
// recorder does with an event before it writes it. Three caches of 4,096
// entries each, the least recently used dropped first:
//
//   - the aggregator groups events that differ only in their message (the
//     same source, object, type and reason). From the tenth distinct
//     message within ten minutes of the group's last event on, each event
//     of the group is written as one Event whose message is "(combined
//     from similar events): " and the latest message, its count raised
//     each time;
//   - the logger counts identical events (the same source, object, field
//     path, type, reason and message): a repeat of an Event it remembers is
//     a patch of that Event's count, lastTimestamp and message, however
//     long ago the last one was;
//   - the spam filter lets a source send 25 events about an object, then
//     one every five minutes (a token bucket per source and object). An
//     event it refuses is not written at all, though the logger has
//     counted it: the next Event written carries the count.
//
// sim/client's Recorder (every controller's events) keeps the three
// caches in a Correlator; the kubelet keeps each pod's part with the pod
// in an Object (see its comment), as their upstream broadcasters use
// client-go's. A
// ReplicaSet creating a thousand pods thus writes some 25 Events about
// itself, not a thousand, and its client's QPS goes to the pods.
package eventcorrelator

import (
	"math/rand/v2"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/fieldhash"
	"github.com/clustersim/clustersim/sim/flowcontrol"
	"github.com/clustersim/clustersim/sim/kernel"
)

// client-go's defaults (events_cache.go).
const (
	// CacheSize is each cache's size (maxLruCacheEntries).
	CacheSize = 4096
	// AggregateMaxEvents is how many distinct messages of a group start
	// the combined Event (defaultAggregateMaxEvents).
	AggregateMaxEvents = 10
	// AggregateInterval is how long after a group's last event its next
	// one starts the group afresh (defaultAggregateIntervalInSeconds).
	AggregateInterval = 600 * time.Second
	// SpamBurst is how many events a source may send about an object at
	// once (defaultSpamBurst).
	SpamBurst = 25
	// SpamQPS is the rate at which that allowance comes back: one event
	// every five minutes (defaultSpamQPS).
	SpamQPS = 1.0 / 300
	// CombinedPrefix starts a combined Event's message
	// (EventAggregatorByReasonMessageFunc).
	CombinedPrefix = "(combined from similar events): "
)

// Event is what the correlator reads of an event: its source, the object
// it is about, and what it says.
type Event struct {
	// Component and Host are source.component and source.host (the
	// reporting controller and instance are the same two).
	Component, Host string
	// The involvedObject.
	Kind, APIVersion, Namespace, Name, FieldPath string
	UID                                          api.UID
	Type, Reason, Message                        string
	// At is when the event was recorded: its timestamps.
	At kernel.Time
}

// Result is what to write for an event.
type Result struct {
	// Skip is set when the spam filter refused the event: write nothing.
	Skip bool
	// Update is set for a repeat of an Event written before: patch the
	// Event Name (count, lastTimestamp, message), and if it is gone
	// create it again with these fields.
	Update bool
	// Name is the Event's name: a new one (the object's name and 64
	// random bits) or the one written before.
	Name string
	// Message is the event's message, or the combined Event's.
	Message string
	// Count is the Event's count after this write.
	Count int32
	// First and Last are its firstTimestamp and lastTimestamp.
	First, Last kernel.Time
	// written is the key the logger files the written Event under;
	// combined tells a combined Event, filed under its group's key.
	written  fieldhash.Sum
	combined bool
}

// aggregateRecord is what the aggregator keeps of a group: the distinct
// messages seen (at most AggregateMaxEvents-1 once combining, by their
// hash's first 8 bytes, oldest first) and when its last event came.
type aggregateRecord struct {
	last kernel.Time
	one  uint64   // the first message, while it is the only one
	more []uint64 // every message once there are two or more
}

// eventLog is what the logger keeps of a written Event.
type eventLog struct {
	name  string
	count int32
	first kernel.Time
}

// Correlator is one recorder's correlator. Its zero value is not ready:
// use New.
type Correlator struct {
	h          fieldhash.Hasher
	stream     fieldhash.Stream
	aggregates lru[aggregateRecord]
	logs       lru[eventLog]
	spam       lru[flowcontrol.TokenBucket]
	// keepStale keeps groups past AggregateInterval in the cache, as
	// client-go does; a test sets it to show that dropping them changes
	// no result.
	keepStale bool
}

// New returns a correlator with client-go's defaults.
func New() *Correlator {
	return &Correlator{
		aggregates: newLRU[aggregateRecord](CacheSize),
		logs:       newLRU[eventLog](CacheSize),
		spam:       newLRU[flowcontrol.TokenBucket](CacheSize),
	}
}

// Correlate decides how e is written at now (client-go's EventCorrelate:
// the aggregator, then the logger, then the spam filter); rng draws a new
// Event's name. Call Written once the Event is written, before the next
// Correlate (both recorders send one event at a time).
func (c *Correlator) Correlate(e *Event, now kernel.Time, rng *rand.Rand) Result {
	// The three keys are prefixes of one list, hashed in one pass: the
	// spam filter's (source and object), the aggregator's (and type and
	// reason), the logger's (and message and field path). Upstream joins
	// the same fields in other orders; what a key tells apart is the
	// same.
	uid := string(e.UID)
	st := &c.stream
	st.Reset()
	for _, f := range [...]string{e.Component, e.Host, e.Kind, e.Namespace, e.Name, uid, e.APIVersion} {
		st.Add(f)
	}
	spamKey := st.Sum()
	st.Add(e.Type)
	st.Add(e.Reason)
	groupKey := st.Sum()
	// The group's messages are told apart by the group's list and the
	// message (the next prefix), so that no second pass hashes it alone.
	st.Add(e.Message)
	msg := st.Sum()
	local := uint64(msg[0]) | uint64(msg[1])<<8 | uint64(msg[2])<<16 | uint64(msg[3])<<24 |
		uint64(msg[4])<<32 | uint64(msg[5])<<40 | uint64(msg[6])<<48 | uint64(msg[7])<<56
	st.Add(e.FieldPath)
	eventKey := st.Sum()

	res := Result{Message: e.Message, Count: 1, First: e.At, Last: e.At, written: eventKey}
	key := eventKey
	if c.aggregate(groupKey, local, now) {
		// Filed under the group's key, so that each later event of the
		// group raises the combined Event's count.
		key = groupKey
		res.combined = true
		res.Message = CombinedPrefix + e.Message
		res.First, res.Last = now, now
		res.written = c.h.Sum(e.Component, e.Host, e.Kind, e.Namespace, e.Name, uid, e.APIVersion, e.Type, e.Reason, res.Message, e.FieldPath)
	}

	log, found := c.logs.ref(key)
	if found && log.count > 0 {
		res.Update = true
		res.Name, res.First, res.Count = log.name, log.first, log.count+1
	} else {
		res.Name = api.EventName(e.Name, rng.Uint64())
	}
	*log = eventLog{name: res.Name, count: res.Count, first: res.First}

	b, found := c.spam.ref(spamKey)
	if !found {
		*b = *flowcontrol.NewTokenBucket(SpamQPS, SpamBurst, now)
	}
	res.Skip = !b.TryAccept(now)
	return res
}

// aggregate files message local in the group under key at now and reports
// whether the event is to be combined.
func (c *Correlator) aggregate(key fieldhash.Sum, local uint64, now kernel.Time) bool {
	c.dropStale(now)
	r, found := c.aggregates.ref(key)
	if !found || now.Sub(r.last) > AggregateInterval {
		*r = aggregateRecord{one: local}
	} else if !r.has(local) {
		if r.more == nil {
			r.more = make([]uint64, 1, AggregateMaxEvents)
			r.more[0] = r.one
		}
		r.more = append(r.more, local)
	}
	r.last = now
	combine := len(r.more) >= AggregateMaxEvents
	if combine {
		// client-go pops any one message of the set (a map's choice);
		// the oldest here, so that runs repeat.
		r.more = append(r.more[:0], r.more[1:]...)
	}
	return combine
}

// dropStale drops the groups whose last event is more than
// AggregateInterval before now: such a group is the same as none. The
// cache's least recently used group is the one whose last event is
// oldest (every use sets it), so dropping those from the end changes
// nothing but the memory kept.
func (c *Correlator) dropStale(now kernel.Time) {
	for !c.keepStale {
		r, ok := c.aggregates.oldest()
		if !ok || now.Sub(r.last) <= AggregateInterval {
			return
		}
		c.aggregates.removeOldest()
	}
}

func (r *aggregateRecord) has(local uint64) bool {
	if r.more == nil {
		return r.one == local
	}
	for _, m := range r.more {
		if m == local {
			return true
		}
	}
	return false
}

// Written files what the server now holds for r's Event (client-go's
// UpdateState), under the Event's own key. For an Event that is not a
// combined one that key is the one Correlate filed the same name, count
// and first timestamp under, still the most recently used: nothing
// changes, and nothing is done.
func (c *Correlator) Written(r *Result) {
	if !r.combined {
		return
	}
	c.logs.add(r.written, eventLog{name: r.Name, count: r.Count, first: r.First})
}
