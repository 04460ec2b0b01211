package kubelet

import (
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// Back-off defaults of the kubelet (k/k pkg/kubelet: backOffPeriod and
// MaxContainerBackOff for crash loops; the image manager's pull back-off).
const (
	// DefaultBackoffInitial is the first back-off of an image pull or a
	// container restart: 10s.
	DefaultBackoffInitial = 10 * time.Second
	// DefaultBackoffMax caps the doubling: 300s. An entry untouched for
	// twice this long (10 minutes) starts over at the initial value.
	DefaultBackoffMax = 300 * time.Second
)

// Backoff is client-go's flowcontrol.Backoff on virtual time: per key, a
// delay that starts at the initial value, doubles with every Next up to
// the maximum, and starts over once the key has been quiet for twice the
// maximum (how a container "running cleanly for 10 minutes" resets its
// crash-loop back-off). The kubelet keys image pulls by pod UID and image
// and container restarts by pod UID and container name.
type Backoff struct {
	initial, max time.Duration
	entries      map[string]*backoffEntry
}

type backoffEntry struct {
	backoff    time.Duration
	lastUpdate kernel.Time
}

// NewBackoff returns a back-off starting at initial and capped at max.
func NewBackoff(initial, max time.Duration) *Backoff {
	return &Backoff{initial: initial, max: max, entries: map[string]*backoffEntry{}}
}

// Get returns the current delay of id; 0 if it has none.
func (b *Backoff) Get(id string) time.Duration {
	if e := b.entries[id]; e != nil {
		return e.backoff
	}
	return 0
}

// expired reports whether an entry last updated at last has been quiet
// long enough at eventTime to start over.
func (b *Backoff) expired(eventTime, last kernel.Time) bool {
	return eventTime.Sub(last) > 2*b.max
}

// Next moves id to its next delay: the initial one if it has none or has
// expired at eventTime, else double the current one, capped. The entry is
// stamped with now.
func (b *Backoff) Next(id string, eventTime, now kernel.Time) {
	e := b.entries[id]
	if e == nil || b.expired(eventTime, e.lastUpdate) {
		e = &backoffEntry{backoff: b.initial}
		b.entries[id] = e
	} else {
		e.backoff = min(2*e.backoff, b.max)
	}
	e.lastUpdate = now
}

// IsInBackOffSince reports whether less than id's delay has passed from
// eventTime to now (a container restart measured from its finish).
func (b *Backoff) IsInBackOffSince(id string, eventTime, now kernel.Time) bool {
	e := b.entries[id]
	if e == nil || b.expired(eventTime, e.lastUpdate) {
		return false
	}
	return now.Sub(eventTime) < e.backoff
}

// IsInBackOffSinceUpdate reports whether less than id's delay has passed
// from its last update to eventTime (an image pull measured from the last
// failed pull).
func (b *Backoff) IsInBackOffSinceUpdate(id string, eventTime kernel.Time) bool {
	e := b.entries[id]
	if e == nil || b.expired(eventTime, e.lastUpdate) {
		return false
	}
	return eventTime.Sub(e.lastUpdate) < e.backoff
}

// Reset forgets id.
func (b *Backoff) Reset(id string) { delete(b.entries, id) }

// GC forgets every entry quiet for more than twice the maximum at now. It
// deletes from a map while ranging over it, which Go allows; which
// entries go does not depend on the order.
func (b *Backoff) GC(now kernel.Time) {
	for id, e := range b.entries {
		if now.Sub(e.lastUpdate) > 2*b.max {
			delete(b.entries, id)
		}
	}
}

// Len returns the number of keys tracked.
func (b *Backoff) Len() int { return len(b.entries) }
