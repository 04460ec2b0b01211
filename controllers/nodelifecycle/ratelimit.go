package nodelifecycle

import (
	"cmp"
	"slices"
	"time"
)

// EvictionBurst is the burst of every zone's tainting rate limiter
// (upstream's EvictionRateLimiterBurst, 1): at most one node is tainted
// at once, then one per 1/qps seconds.
const EvictionBurst = 1

// tokenBucket is client-go's flowcontrol token bucket rate limiter
// (golang.org/x/time/rate under it) on the virtual clock: it starts full,
// refills at qps tokens per second up to burst, and a qps of 0 or less
// never accepts (flowcontrol's fake never rate limiter).
type tokenBucket struct {
	qps    float64
	burst  float64
	tokens float64
	last   time.Time
	never  bool
}

func newTokenBucket(qps float64, burst int, now time.Time) *tokenBucket {
	if qps <= 0 {
		return &tokenBucket{never: true}
	}
	return &tokenBucket{qps: qps, burst: float64(burst), tokens: float64(burst), last: now}
}

func (b *tokenBucket) refill(now time.Time) {
	if now.After(b.last) {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.qps)
		b.last = now
	}
}

// tryAccept takes a token if one is available now.
func (b *tokenBucket) tryAccept(now time.Time) bool {
	if b.never {
		return false
	}
	b.refill(now)
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}

// nextToken returns when a token will be available, or false for a
// limiter that never accepts.
func (b *tokenBucket) nextToken(now time.Time) (time.Time, bool) {
	if b.never {
		return time.Time{}, false
	}
	b.refill(now)
	if b.tokens >= 1 {
		return now, true
	}
	wait := time.Duration((1 - b.tokens) / b.qps * float64(time.Second))
	return now.Add(wait + 1), true // +1ns: float rounding must not wake us a hair early
}

// rate returns the bucket's qps (0 for a limiter that never accepts).
func (b *tokenBucket) rate() float64 {
	if b.never {
		return 0
	}
	return b.qps
}

// timedValue is a node waiting in a zone's tainting queue.
type timedValue struct {
	value     string
	uid       string
	addedAt   time.Time
	processAt time.Time
	seq       uint64
}

// timedQueue is upstream's RateLimitedTimedQueue: a queue of node names
// ordered by when they may be processed, each added once until removed,
// drained by Try as fast as a token bucket allows.
type timedQueue struct {
	items   []timedValue
	set     map[string]bool
	limiter *tokenBucket
	seq     uint64
}

func newTimedQueue(limiter *tokenBucket) *timedQueue {
	return &timedQueue{set: map[string]bool{}, limiter: limiter}
}

func (q *timedQueue) sort() {
	slices.SortStableFunc(q.items, func(a, b timedValue) int {
		if c := a.processAt.Compare(b.processAt); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
}

// add queues value to be processed now, unless it was added before and
// not removed since; it reports whether it was added.
func (q *timedQueue) add(value, uid string, now time.Time) bool {
	if q.set[value] {
		return false
	}
	q.seq++
	q.items = append(q.items, timedValue{value: value, uid: uid, addedAt: now, processAt: now, seq: q.seq})
	q.set[value] = true
	q.sort()
	return true
}

// remove forgets value, so that it may be added again; it reports whether
// value was known.
func (q *timedQueue) remove(value string) bool {
	if !q.set[value] {
		return false
	}
	delete(q.set, value)
	q.items = slices.DeleteFunc(q.items, func(v timedValue) bool { return v.value == value })
	return true
}

// has reports whether value is queued or was processed and not removed.
func (q *timedQueue) has(value string) bool { return q.set[value] }

// len returns the number of values waiting to be processed.
func (q *timedQueue) len() int { return len(q.items) }

// try processes the queue as upstream's Try: for each head, a token is
// taken (none left: stop), a head not yet due stops the pass, and fn
// decides: done (the value leaves the queue but stays known) or retry
// after wait.
func (q *timedQueue) try(now time.Time, fn func(v timedValue) (done bool, wait time.Duration)) {
	for len(q.items) > 0 {
		if !q.limiter.tryAccept(now) {
			return
		}
		head := q.items[0]
		if now.Before(head.processAt) {
			return
		}
		done, wait := fn(head)
		// fn may have removed or re-added values: find the head again.
		i := slices.IndexFunc(q.items, func(v timedValue) bool { return v.value == head.value && v.seq == head.seq })
		if i < 0 {
			continue
		}
		if done {
			q.items = slices.Delete(q.items, i, i+1)
			continue
		}
		q.items[i].processAt = now.Add(wait + 1)
		q.sort()
	}
}

// next returns when try may next make progress: the later of the head's
// due time and the next token; false when the queue is empty or the
// limiter never accepts.
func (q *timedQueue) next(now time.Time) (time.Time, bool) {
	if len(q.items) == 0 {
		return time.Time{}, false
	}
	tok, ok := q.limiter.nextToken(now)
	if !ok {
		return time.Time{}, false
	}
	at := q.items[0].processAt
	if tok.After(at) {
		at = tok
	}
	return at, true
}

// swapLimiter is upstream's SwapLimiter: a new rate gets a new, full
// bucket, drained by one token if the old one had none to give (which,
// as upstream, spends one of the old bucket's tokens if it had one).
func (q *timedQueue) swapLimiter(qps float64, now time.Time) {
	if q.limiter.rate() == qps {
		return
	}
	next := newTokenBucket(qps, EvictionBurst, now)
	if qps > 0 && !q.limiter.tryAccept(now) {
		next.tryAccept(now)
	}
	q.limiter = next
}
