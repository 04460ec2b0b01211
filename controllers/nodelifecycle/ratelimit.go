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
		b.tokens = min(b.burst, b.tokens+float64(now.Sub(b.last).Seconds()*b.qps)) // rounded apart: no fused multiply-add (docs/fma-check.sh)
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
//
// items is kept in (processAt, seq) order, a total order (seq is unique),
// and each value waiting in it is found by its key (at): an add or a
// remove is a binary search and one move of the items after it. The
// health pass removes and adds again every lost node not yet tainted at
// every pass (upstream's markNodeForTainting), so with a zone's 990 lost
// nodes waiting for a token, sorting the whole queue at each add and
// scanning it at each remove cost 10.7 s of the 3,000-node zone loss's
// 49 s (docs/PERFORMANCE.md, forty-third pass).
type timedQueue struct {
	items   []timedValue
	at      map[string]queueKey
	set     map[string]bool
	limiter *tokenBucket
	seq     uint64
}

// queueKey is where a value waiting in items sorts.
type queueKey struct {
	processAt time.Time
	seq       uint64
}

func newTimedQueue(limiter *tokenBucket) *timedQueue {
	return &timedQueue{set: map[string]bool{}, at: map[string]queueKey{}, limiter: limiter}
}

// index is where an item of key k is, or would go, in items.
func (q *timedQueue) index(k queueKey) int {
	i, _ := slices.BinarySearchFunc(q.items, k, func(v timedValue, k queueKey) int {
		if c := v.processAt.Compare(k.processAt); c != 0 {
			return c
		}
		return cmp.Compare(v.seq, k.seq)
	})
	return i
}

// insert puts v in its place in items.
func (q *timedQueue) insert(v timedValue) {
	k := queueKey{processAt: v.processAt, seq: v.seq}
	q.items = slices.Insert(q.items, q.index(k), v)
	q.at[v.value] = k
}

// take removes value's item from items, if it waits there.
func (q *timedQueue) take(value string) {
	k, ok := q.at[value]
	if !ok {
		return
	}
	delete(q.at, value)
	if i := q.index(k); i < len(q.items) && q.items[i].seq == k.seq {
		q.items = slices.Delete(q.items, i, i+1)
	}
}

// add queues value to be processed now, unless it was added before and
// not removed since; it reports whether it was added.
func (q *timedQueue) add(value, uid string, now time.Time) bool {
	if q.set[value] {
		return false
	}
	q.seq++
	q.insert(timedValue{value: value, uid: uid, addedAt: now, processAt: now, seq: q.seq})
	q.set[value] = true
	return true
}

// remove forgets value, so that it may be added again; it reports whether
// value was known.
func (q *timedQueue) remove(value string) bool {
	if !q.set[value] {
		return false
	}
	delete(q.set, value)
	q.take(value)
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
		if k, ok := q.at[head.value]; !ok || k.seq != head.seq {
			continue
		}
		q.take(head.value)
		if done {
			continue
		}
		head.processAt = now.Add(wait + 1)
		q.insert(head)
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
