package autoscaler

import (
	"time"
)

// backoff is cluster-autoscaler's exponential back-off of node groups
// whose scale-up failed (utils/backoff/exponential_backoff.go): the
// first failure keeps a group out of scale-ups for the initial
// duration, each failure after that back-off has ended doubles it up to
// the max, a failure during a back-off restarts it at the same
// duration, and a group that has not failed for the reset timeout
// starts again from the initial duration.
type backoff struct {
	initial, max, reset time.Duration
	groups              map[string]backoffInfo
}

// backoffInfo is one group's back-off.
type backoffInfo struct {
	duration   time.Duration
	until      time.Time
	lastFailed time.Time
	// reason is the failure's error code ("timeout").
	reason string
}

func newBackoff(initial, max, reset time.Duration) *backoff {
	return &backoff{initial: initial, max: max, reset: reset, groups: map[string]backoffInfo{}}
}

// fail backs group off for a failure of reason at now and returns the
// duration and its end.
func (b *backoff) fail(group, reason string, now time.Time) (time.Duration, time.Time) {
	d := b.initial
	if prev, ok := b.groups[group]; ok {
		// Concurrent failures do not compound; one after the back-off
		// ended doubles it.
		d = prev.duration
		if prev.until.Before(now) {
			d = min(2*prev.duration, b.max)
		}
	}
	until := now.Add(d)
	b.groups[group] = backoffInfo{duration: d, until: until, lastFailed: now, reason: reason}
	return d, until
}

// backedOff reports whether group is backed off at now (until its end,
// inclusive, as upstream's Before).
func (b *backoff) backedOff(group string, now time.Time) bool {
	info, ok := b.groups[group]
	return ok && !info.until.Before(now)
}

// remove forgets group's back-off (its scale-up succeeded).
func (b *backoff) remove(group string) { delete(b.groups, group) }

// removeStale forgets the groups whose last failure is older than the
// reset timeout.
func (b *backoff) removeStale(now time.Time) {
	for _, g := range sortedKeys(b.groups) {
		if b.groups[g].lastFailed.Add(b.reset).Before(now) {
			delete(b.groups, g)
		}
	}
}
