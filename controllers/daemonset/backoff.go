package daemonset

import (
	"time"

	"github.com/clustersim/clustersim/sim/client"
)

// backoff is client-go's flowcontrol.Backoff without jitter, on the
// controller's clock: per key, a delay that starts at initial and doubles
// up to max on each next, forgotten after 2·max without one.
type backoff struct {
	clock        client.PassiveClock
	initial, max time.Duration
	entries      map[string]*backoffEntry
}

type backoffEntry struct {
	delay      time.Duration
	lastUpdate time.Time
}

func newBackoff(clock client.PassiveClock, initial, max time.Duration) *backoff {
	return &backoff{clock: clock, initial: initial, max: max, entries: map[string]*backoffEntry{}}
}

// next records an attempt for key: the delay restarts at initial for a
// new or expired key, else doubles up to max (Backoff.Next).
func (b *backoff) next(key string) {
	now := b.clock.Now()
	e, ok := b.entries[key]
	if !ok || now.Sub(e.lastUpdate) > 2*b.max {
		e = &backoffEntry{delay: b.initial}
		b.entries[key] = e
	} else {
		e.delay = min(2*e.delay, b.max)
	}
	e.lastUpdate = now
}

// get returns key's current delay, 0 for an unknown key.
func (b *backoff) get(key string) time.Duration {
	if e, ok := b.entries[key]; ok {
		return e.delay
	}
	return 0
}

// inBackoff reports whether key's delay has not yet passed since its last
// attempt (Backoff.IsInBackOffSinceUpdate).
func (b *backoff) inBackoff(key string) bool {
	e, ok := b.entries[key]
	return ok && b.clock.Now().Sub(e.lastUpdate) < e.delay
}
