package netsim

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Dist names the shape of a link's latency jitter.
type Dist uint8

const (
	// Uniform adds a jitter drawn uniformly from [0, Jitter). It is the zero
	// value, so a Latency with only Base set is constant.
	Uniform Dist = iota
	// Exponential adds an exponentially distributed tail with mean Jitter:
	// most messages are fast, a few are very late.
	Exponential
	// Constant ignores Jitter: every message takes exactly Base.
	Constant
)

// String returns the distribution's name.
func (d Dist) String() string {
	switch d {
	case Uniform:
		return "uniform"
	case Exponential:
		return "exponential"
	case Constant:
		return "constant"
	}
	return fmt.Sprintf("Dist(%d)", int(d))
}

// Latency is a one-way delay distribution: Base plus a jitter whose shape is
// Dist. The zero value delivers instantly (at the current virtual time, after
// the events already scheduled for it).
type Latency struct {
	// Base is the minimum delay; it must not be negative.
	Base time.Duration
	// Jitter is the width (Uniform) or mean (Exponential) of the extra delay
	// on top of Base; it must not be negative and is ignored for Constant.
	Jitter time.Duration
	// Dist is the jitter's shape; the default is Uniform.
	Dist Dist
}

// Mean returns the distribution's expected delay, without a link's reorder
// or delay spikes.
func (l Latency) Mean() time.Duration {
	switch l.Dist {
	case Uniform:
		if l.Jitter > 0 {
			return addDelay(l.Base, (l.Jitter-1)/2) // integers 0..Jitter-1
		}
	case Exponential:
		return addDelay(l.Base, l.Jitter)
	}
	return l.Base
}

// addDelay returns a+b for delays that are not negative, saturating at
// the largest duration: each may be as long as a duration can be, and a
// sum that wrapped would deliver before it was sent.
func addDelay(a, b time.Duration) time.Duration {
	if b > math.MaxInt64-a {
		return math.MaxInt64
	}
	return a + b
}

// LinkConfig is the behaviour of one direction of a link. The zero value is a
// perfect link: instant and lossless.
type LinkConfig struct {
	// Latency is the delay of each message copy.
	Latency Latency
	// Drop is the probability, in [0, 1], that a datagram, a request or a
	// reply is lost. A lost message is not duplicated. Drop does not apply
	// to streams: a stream rides a connection whose transport retransmits
	// lost packets; it breaks by StreamBreak, partitions and down ends.
	Drop float64
	// Duplicate is the probability, in [0, 1], that a message which is not
	// lost is delivered twice; the copy draws its own latency. Streams are
	// never duplicated.
	Duplicate float64
	// Reorder is the probability, in [0, 1], that a copy is held back by
	// ReorderDelay so that later messages overtake it. Streams stay ordered.
	Reorder float64
	// ReorderDelay is the extra delay of a reordered copy; not negative.
	ReorderDelay time.Duration
	// Delay is the probability, in [0, 1], of a delay spike of DelayExtra on
	// top of the drawn latency. Spikes apply to streams too, where they hold
	// back every later message (head-of-line blocking).
	Delay float64
	// DelayExtra is the length of a delay spike; not negative.
	DelayExtra time.Duration
	// StreamBreak is the probability, in [0, 1], that sending a stream
	// message breaks the stream instead (the connection resets): the
	// message and everything after it are lost and the client is told
	// ErrStreamBroken, so it must watch again.
	StreamBreak float64
	// StreamLoss is the probability, in [0, 1], that a stream message is
	// silently lost without breaking its stream: the "lost watch event"
	// fault. It does not apply to datagrams or calls.
	StreamLoss float64
	// StreamLag is a constant extra delay of every stream message (watch
	// events and the stream's end), on top of the latency: a watcher that
	// sees the store this much late while its calls (gets, lists, writes)
	// are answered at the link's latency. Sieve's "stale reads": a
	// controller acting on a cache that lags the API server. Not negative.
	StreamLag time.Duration
}

// ErrInvalidConfig is wrapped by every link configuration error.
var ErrInvalidConfig = errors.New("netsim: invalid link config")

// Validate reports the first field that is out of range: a probability
// outside [0, 1] (or NaN), a negative duration, or an unknown Dist.
func (c LinkConfig) Validate() error {
	probs := [...]struct {
		name string
		p    float64
	}{
		{"drop", c.Drop},
		{"duplicate", c.Duplicate},
		{"reorder", c.Reorder},
		{"delay", c.Delay},
		{"streamBreak", c.StreamBreak},
		{"streamLoss", c.StreamLoss},
	}
	for _, f := range probs {
		if !(f.p >= 0 && f.p <= 1) { // also rejects NaN
			return fmt.Errorf("%w: %s %v not in [0, 1]", ErrInvalidConfig, f.name, f.p)
		}
	}
	durs := [...]struct {
		name string
		d    time.Duration
	}{
		{"latency.base", c.Latency.Base},
		{"latency.jitter", c.Latency.Jitter},
		{"reorderDelay", c.ReorderDelay},
		{"delayExtra", c.DelayExtra},
		{"streamLag", c.StreamLag},
	}
	for _, f := range durs {
		if f.d < 0 {
			return fmt.Errorf("%w: %s %v is negative", ErrInvalidConfig, f.name, f.d)
		}
	}
	if c.Latency.Dist > Constant {
		return fmt.Errorf("%w: latency.dist %v unknown", ErrInvalidConfig, c.Latency.Dist)
	}
	return nil
}

// link is one direction between two registered endpoints. It is created on
// first use and lives as long as the network; its random stream is named
// after its two addresses so its draws depend on nothing else.
type link struct {
	from, to *Endpoint
	rev      *link // the opposite direction, created together
	cfg      LinkConfig
	custom   bool // cfg was set by SetLink and does not follow the default
	rng      *rand.Rand
	st       Stats
}

// latency draws one copy's base latency from the link's distribution.
func (l *link) latency() time.Duration {
	lat := &l.cfg.Latency
	d := lat.Base
	if j := lat.Jitter; j > 0 {
		switch lat.Dist {
		case Uniform:
			d = addDelay(d, time.Duration(l.rng.Int64N(int64(j))))
		case Exponential:
			x := l.rng.ExpFloat64() * float64(j)
			if x > math.MaxInt64/4 {
				x = math.MaxInt64 / 4 // keep virtual time far from overflow
			}
			d = addDelay(d, time.Duration(x))
		}
	}
	return d
}

// hit draws once against probability p; p == 0 draws nothing, so a link
// without a fault does not consume its stream for it.
func (l *link) hit(p float64) bool {
	return p > 0 && l.rng.Float64() < p
}

// spike draws the link's delay spike and reports whether there was one.
func (l *link) spike() (time.Duration, bool) {
	if l.hit(l.cfg.Delay) {
		return l.cfg.DelayExtra, true
	}
	return 0, false
}
