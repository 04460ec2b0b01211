// Package flowcontrol is client-go's client-side rate limiting on virtual
// time (k8s.io/client-go util/flowcontrol): the token bucket a client's
// QPS and burst make. sim/client paces its requests with it, and so does
// the kubelet, which sends its requests without a client.
package flowcontrol

import (
	"math"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// TokenBucket is golang.org/x/time/rate's limiter on virtual time, as
// client-go's token-bucket rate limiter uses it: it starts full (Burst
// tokens), refills at QPS tokens a second up to Burst, and each request
// takes a token, waiting for it when there is none (a reservation: the
// tokens may go below zero, and later requests wait behind it).
type TokenBucket struct {
	qps    float64
	burst  float64
	tokens float64
	last   kernel.Time
}

// NewTokenBucket returns a full bucket of burst tokens refilled at qps a
// second; burst below 1 means 1.
func NewTokenBucket(qps float64, burst int, now kernel.Time) *TokenBucket {
	b := float64(max(burst, 1))
	return &TokenBucket{qps: qps, burst: b, tokens: b, last: now}
}

// Reserve takes a token at now and returns how long to wait before using
// it (0: at once).
func (b *TokenBucket) Reserve(now kernel.Time) time.Duration {
	b.refill(now)
	b.tokens--
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(math.Ceil(-b.tokens / b.qps * float64(time.Second)))
}

// refill adds the tokens earned since the last refill, up to Burst.
func (b *TokenBucket) refill(now kernel.Time) {
	if elapsed := now.Sub(b.last); elapsed > 0 {
		b.tokens = min(b.burst, b.tokens+float64(elapsed.Seconds()*b.qps)) // rounded apart: no fused multiply-add (docs/fma-check.sh)
		b.last = now
	}
}

// TryAccept takes a token at now if one is there and reports whether it
// did; it never waits and never reserves (client-go's TryAccept, x/time's
// Allow): without a whole token the bucket is left as it was.
func (b *TokenBucket) TryAccept(now kernel.Time) bool {
	b.refill(now)
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
