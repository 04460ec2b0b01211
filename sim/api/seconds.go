package api

import (
	"math"
	"time"
)

// SecondsDuration is n seconds (a spec's ...Seconds field) as a Duration,
// saturating at the largest and smallest Durations (about 292 years)
// instead of wrapping as time.Duration(n)*time.Second does past them. A
// grace period or toleration of 2^63-1 seconds is then as good as forever,
// which is what it amounts to upstream: the kubelet hands the seconds to
// the runtime as seconds, and the taint manager takes math.MaxInt64 for
// "forever" (and sees a wrapped, negative Duration as forever too).
func SecondsDuration(n int64) time.Duration {
	const most = math.MaxInt64 / int64(time.Second)
	switch {
	case n > most:
		return math.MaxInt64
	case n < -most:
		return math.MinInt64
	}
	return time.Duration(n) * time.Second
}
