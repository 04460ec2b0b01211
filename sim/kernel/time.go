package kernel

import (
	"strconv"
	"time"
)

// Time is a virtual instant: integer nanoseconds since Epoch. Virtual time
// starts at 0 when a kernel is created and never goes backwards.
type Time int64

// Epoch is the wall-clock instant that virtual time 0 stands for. It is
// fixed so that timestamps written into objects (creationTimestamp, lease
// renew times, event times) are the same in every run.
var Epoch = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// Forever is the largest representable virtual time; use it as "no deadline".
const Forever Time = Time(1<<63 - 1)

// Add returns t+d, saturating at Forever.
func (t Time) Add(d time.Duration) Time {
	s := t + Time(d)
	if d > 0 && s < t {
		return Forever
	}
	return s
}

// Sub returns the duration t-u.
func (t Time) Sub(u Time) time.Duration { return time.Duration(t - u) }

// Duration returns t as the duration since virtual time 0.
func (t Time) Duration() time.Duration { return time.Duration(t) }

// Wall returns the wall-clock time t stands for (Epoch + t), in UTC.
func (t Time) Wall() time.Time { return Epoch.Add(time.Duration(t)) }

// WallSecond returns t.Wall() rounded down to a whole second, as
// t.Wall().Truncate(time.Second) does: the second API timestamps carry
// (creationTimestamp, a condition's transition time). Epoch is a whole
// second, so for t at or after it the rounding is t's own, without
// Truncate's general division (BenchmarkWallSecond: 12 ns against 27;
// every create takes one, and each node status a kubelet checks), which is
// left for the other cases.
func (t Time) WallSecond() time.Time {
	if t < 0 || Epoch.Nanosecond() != 0 {
		return t.Wall().Truncate(time.Second)
	}
	return Epoch.Add(time.Duration(t - t%Time(time.Second)))
}

// Before reports whether t is earlier than u.
func (t Time) Before(u Time) bool { return t < u }

// After reports whether t is later than u.
func (t Time) After(u Time) bool { return t > u }

// String formats t as seconds since the start of the run with millisecond
// precision, for example "t=12.345s"; Forever prints as "t=forever".
func (t Time) String() string {
	var buf [24]byte
	return string(t.AppendTo(buf[:0]))
}

// AppendTo appends t's String form to b and returns the result, so that
// a caller rendering many times reuses one buffer.
func (t Time) AppendTo(buf []byte) []byte {
	if t == Forever {
		return append(buf, "t=forever"...)
	}
	ms := int64(t) / int64(time.Millisecond)
	neg := ms < 0
	if neg {
		ms = -ms
	}
	buf = append(buf, "t="...)
	if neg {
		buf = append(buf, '-')
	}
	buf = strconv.AppendInt(buf, ms/1000, 10)
	buf = append(buf, '.')
	frac := ms % 1000
	buf = append(buf, byte('0'+frac/100), byte('0'+frac/10%10), byte('0'+frac%10))
	return append(buf, 's')
}

// FromWall converts a wall-clock instant to virtual time. Instants before
// Epoch give negative times.
func FromWall(w time.Time) Time { return Time(w.Sub(Epoch)) }
