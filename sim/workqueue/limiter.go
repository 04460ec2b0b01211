package workqueue

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// Clock is the virtual clock a rate limiter reads. *kernel.Kernel and
// *kernel.Process satisfy it.
type Clock interface {
	// Now returns the current virtual time.
	Now() kernel.Time
}

var (
	_ Clock = (*kernel.Kernel)(nil)
	_ Clock = (*kernel.Process)(nil)
)

// RateLimiter decides how long an item waits before it is retried
// (client-go TypedRateLimiter).
type RateLimiter[T comparable] interface {
	// When records a failure of item and returns how long it should wait
	// before it is processed again.
	When(item T) time.Duration
	// Forget stops tracking item: its next failure counts as its first.
	// Call it on success and when giving up.
	Forget(item T)
	// NumRequeues returns how many failures of item are being tracked.
	NumRequeues(item T) int
}

// InfDuration is the delay a limiter returns for "never": it matches
// golang.org/x/time/rate's InfDuration. A queue treats an item delayed this
// long (or longer than virtual time can represent) as never ready.
const InfDuration = time.Duration(math.MaxInt64)

// Default limiter parameters, from client-go's DefaultTypedControllerRateLimiter.
const (
	// DefaultBaseDelay is the first retry delay of the default per-item
	// exponential limiter: 5ms.
	DefaultBaseDelay = 5 * time.Millisecond
	// DefaultMaxDelay caps the default per-item exponential limiter: 1000s.
	DefaultMaxDelay = 1000 * time.Second
	// DefaultQPS is the default overall retry rate: 10 per second.
	DefaultQPS = 10
	// DefaultBurst is the default overall retry burst: 100.
	DefaultBurst = 100
)

// DefaultControllerRateLimiter returns client-go's default controller rate
// limiter: the maximum of a per-item exponential limiter (5ms·2^failures,
// capped at 1000s) and an overall token bucket (10 qps, burst 100) reading
// clock. Over 15 failures of one item it yields 5ms, 10ms, ... 81.92s.
func DefaultControllerRateLimiter[T comparable](clock Clock) RateLimiter[T] {
	return NewControllerRateLimiter[T](clock, DefaultLimits)
}

// Limits are the parameters of a controller's retry limiter in the shape
// upstream's controllers build theirs: a per-item exponential limiter
// (BaseDelay·2^failures, capped at MaxDelay) and, when QPS is positive,
// an overall token bucket of QPS and Burst whose delay wins when longer.
type Limits struct {
	// BaseDelay is an item's first retry delay; MaxDelay caps them.
	BaseDelay, MaxDelay time.Duration
	// QPS and Burst are the overall bucket's; QPS 0: no bucket (the Job
	// controller's queue has none).
	QPS   float64
	Burst int
}

// DefaultLimits are client-go's DefaultTypedControllerRateLimiter's, the
// retry limits of most of kube-controller-manager's controllers.
var DefaultLimits = Limits{BaseDelay: DefaultBaseDelay, MaxDelay: DefaultMaxDelay, QPS: DefaultQPS, Burst: DefaultBurst}

// NewControllerRateLimiter returns the limiter l describes, the bucket
// reading clock: the maximum of the per-item exponential limiter and the
// bucket, or the exponential limiter alone when l has no bucket.
func NewControllerRateLimiter[T comparable](clock Clock, l Limits) RateLimiter[T] {
	item := NewItemExponentialFailureRateLimiter[T](l.BaseDelay, l.MaxDelay)
	if !(l.QPS > 0) {
		return item
	}
	return NewMaxOfRateLimiter[T](item, NewBucketRateLimiter[T](clock, l.QPS, l.Burst))
}

// Errors of Limits.With.
var (
	// ErrBurstWithoutQPS: a burst set on limits without a bucket, and no
	// QPS to make one.
	ErrBurstWithoutQPS = errors.New("a burst without a qps: this queue has no overall bucket, so set qps as well")
	// ErrCapBelowBase: the limits that result cap every delay below the
	// first one, so that the cap would be every retry's delay.
	ErrCapBelowBase = errors.New("the cap would be every retry's delay")
)

// With returns l with the fields o sets (non-zero) in place of its own.
// A QPS set without a burst takes a burst of the QPS rounded up (at least
// 1). It is an error (ErrBurstWithoutQPS) to set a burst without a QPS on
// limits without a bucket, where a burst alone limits nothing, and
// (ErrCapBelowBase) to end with a MaxDelay below the BaseDelay, whichever
// side set either.
func (l Limits) With(o Limits) (Limits, error) {
	if o.BaseDelay > 0 {
		l.BaseDelay = o.BaseDelay
	}
	if o.MaxDelay > 0 {
		l.MaxDelay = o.MaxDelay
	}
	if l.MaxDelay < l.BaseDelay {
		return l, fmt.Errorf("maxDelay %v is below baseDelay %v: %w", l.MaxDelay, l.BaseDelay, ErrCapBelowBase)
	}
	if o.Burst > 0 && !(o.QPS > 0) && !(l.QPS > 0) {
		return l, ErrBurstWithoutQPS
	}
	if o.QPS > 0 {
		l.QPS = o.QPS
		if o.Burst == 0 && l.Burst == 0 {
			l.Burst = max(1, int(math.Ceil(o.QPS)))
		}
	}
	if o.Burst > 0 {
		l.Burst = o.Burst
	}
	return l, nil
}

// String is "5ms·2^n up to 16m40s, 10 qps burst 100", or without the
// bucket's part for limits that have none.
func (l Limits) String() string {
	s := l.BaseDelay.String() + "·2^n up to " + l.MaxDelay.String()
	if l.QPS > 0 {
		s += ", " + strconv.FormatFloat(l.QPS, 'g', -1, 64) + " qps burst " + strconv.Itoa(l.Burst)
	}
	return s
}

// ItemExponentialFailureRateLimiter delays an item base·2^failures, capped
// at maxDelay, where failures counts the item's When calls since its last Forget
// (client-go TypedItemExponentialFailureRateLimiter).
type ItemExponentialFailureRateLimiter[T comparable] struct {
	failures map[T]int
	base     time.Duration
	maxDelay time.Duration
}

var _ RateLimiter[string] = (*ItemExponentialFailureRateLimiter[string])(nil)

// NewItemExponentialFailureRateLimiter returns a per-item exponential
// limiter with the given first delay and cap (client-go uses 5ms and 1000s
// for controllers).
func NewItemExponentialFailureRateLimiter[T comparable](base, maxDelay time.Duration) *ItemExponentialFailureRateLimiter[T] {
	return &ItemExponentialFailureRateLimiter[T]{failures: make(map[T]int), base: base, maxDelay: maxDelay}
}

// When counts a failure of item and returns base·2^(previous failures),
// capped at maxDelay.
func (r *ItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	exp := r.failures[item]
	r.failures[item] = exp + 1
	// Computed in float64 as client-go does, so that the doubling cannot
	// overflow; >= rather than client-go's > keeps an exact 2^63 from
	// wrapping negative.
	backoff := float64(r.base.Nanoseconds()) * math.Pow(2, float64(exp))
	if backoff >= math.MaxInt64 {
		return r.maxDelay
	}
	if d := time.Duration(backoff); d < r.maxDelay {
		return d
	}
	return r.maxDelay
}

// Forget clears item's failure count.
func (r *ItemExponentialFailureRateLimiter[T]) Forget(item T) { delete(r.failures, item) }

// NumRequeues returns item's failure count.
func (r *ItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int { return r.failures[item] }

// ItemFastSlowRateLimiter retries an item after fast for its first
// maxFast failures and after slow from then on (client-go
// TypedItemFastSlowRateLimiter).
type ItemFastSlowRateLimiter[T comparable] struct {
	failures map[T]int
	fast     time.Duration
	slow     time.Duration
	maxFast  int
}

var _ RateLimiter[string] = (*ItemFastSlowRateLimiter[string])(nil)

// NewItemFastSlowRateLimiter returns a limiter that answers fast for the
// first maxFast failures of an item and slow afterwards.
func NewItemFastSlowRateLimiter[T comparable](fast, slow time.Duration, maxFast int) *ItemFastSlowRateLimiter[T] {
	return &ItemFastSlowRateLimiter[T]{failures: make(map[T]int), fast: fast, slow: slow, maxFast: maxFast}
}

// When counts a failure of item and returns the fast delay while the count
// is at most maxFast, the slow delay after.
func (r *ItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	n := r.failures[item] + 1
	r.failures[item] = n
	if n <= r.maxFast {
		return r.fast
	}
	return r.slow
}

// Forget clears item's failure count.
func (r *ItemFastSlowRateLimiter[T]) Forget(item T) { delete(r.failures, item) }

// NumRequeues returns item's failure count.
func (r *ItemFastSlowRateLimiter[T]) NumRequeues(item T) int { return r.failures[item] }

// BucketRateLimiter limits retries overall, whatever the item, with a token
// bucket on the virtual clock: golang.org/x/time/rate's Limiter, asked
// Reserve().Delay() (client-go TypedBucketRateLimiter). The bucket starts
// full and refills continuously at qps tokens per second up to burst; every
// When takes a token even if none is left, so calls at one instant return
// growing delays (at 10 qps: 100ms, 200ms, ...).
type BucketRateLimiter[T comparable] struct {
	clock  Clock
	qps    float64
	burst  int
	tokens float64
	last   kernel.Time
}

var _ RateLimiter[string] = (*BucketRateLimiter[string])(nil)

// NewBucketRateLimiter returns a full bucket of burst tokens refilled at qps
// tokens per second (client-go's controller default is 10 qps, burst 100).
// qps = +Inf means no limit; qps <= 0 allows burst retries in all, then
// answers InfDuration, as x/time/rate does for a zero limit.
func NewBucketRateLimiter[T comparable](clock Clock, qps float64, burst int) *BucketRateLimiter[T] {
	return &BucketRateLimiter[T]{clock: clock, qps: qps, burst: burst, tokens: float64(burst), last: clock.Now()}
}

// When reserves one token and returns how long until it is available.
func (r *BucketRateLimiter[T]) When(T) time.Duration {
	switch {
	case math.IsInf(r.qps, 1):
		return 0
	case !(r.qps > 0): // zero, negative or NaN: a fixed allowance
		if r.burst >= 1 {
			r.burst--
			return 0
		}
		return InfDuration
	}
	if r.burst < 1 {
		// x/time/rate refuses a reservation larger than the burst; its
		// Delay is then InfDuration and the bucket is left untouched.
		return InfDuration
	}
	now := r.clock.Now()
	last := r.last
	if now < last {
		last = now
	}
	// Refill, as x/time/rate's advance: elapsed seconds times the rate,
	// capped at the burst.
	tokens := r.tokens + float64(now.Sub(last).Seconds()*r.qps) // rounded apart: no fused multiply-add (docs/fma-check.sh)
	if b := float64(r.burst); tokens > b {
		tokens = b
	}
	tokens--
	var wait time.Duration
	if tokens < 0 {
		d := -tokens / r.qps * float64(time.Second)
		if d >= math.MaxInt64 {
			wait = InfDuration
		} else {
			wait = time.Duration(d)
		}
	}
	r.last = now
	r.tokens = tokens
	return wait
}

// Forget does nothing: the bucket does not track items.
func (r *BucketRateLimiter[T]) Forget(T) {}

// NumRequeues returns 0: the bucket does not track items.
func (r *BucketRateLimiter[T]) NumRequeues(T) int { return 0 }

// MaxOfRateLimiter asks every limiter and returns the longest delay
// (client-go TypedMaxOfRateLimiter). With a token bucket among them the
// burst can appear exceeded, since the bucket is charged even when another
// limiter's delay wins.
type MaxOfRateLimiter[T comparable] struct {
	limiters []RateLimiter[T]
}

var _ RateLimiter[string] = (*MaxOfRateLimiter[string])(nil)

// NewMaxOfRateLimiter returns a limiter answering the maximum of limiters,
// each of which is asked on every call, in order.
func NewMaxOfRateLimiter[T comparable](limiters ...RateLimiter[T]) *MaxOfRateLimiter[T] {
	return &MaxOfRateLimiter[T]{limiters: limiters}
}

// When asks every limiter and returns the longest delay (0 with none).
func (r *MaxOfRateLimiter[T]) When(item T) time.Duration {
	var d time.Duration
	for _, l := range r.limiters {
		d = max(d, l.When(item))
	}
	return d
}

// Forget forwards to every limiter.
func (r *MaxOfRateLimiter[T]) Forget(item T) {
	for _, l := range r.limiters {
		l.Forget(item)
	}
}

// NumRequeues returns the largest count any limiter tracks for item.
func (r *MaxOfRateLimiter[T]) NumRequeues(item T) int {
	n := 0
	for _, l := range r.limiters {
		n = max(n, l.NumRequeues(item))
	}
	return n
}

// WithMaxWaitRateLimiter caps another limiter's delay at maxDelay
// (client-go TypedWithMaxWaitRateLimiter).
type WithMaxWaitRateLimiter[T comparable] struct {
	limiter  RateLimiter[T]
	maxDelay time.Duration
}

var _ RateLimiter[string] = (*WithMaxWaitRateLimiter[string])(nil)

// NewWithMaxWaitRateLimiter returns limiter with its delays capped at
// maxDelay.
func NewWithMaxWaitRateLimiter[T comparable](limiter RateLimiter[T], maxDelay time.Duration) *WithMaxWaitRateLimiter[T] {
	return &WithMaxWaitRateLimiter[T]{limiter: limiter, maxDelay: maxDelay}
}

// When returns the wrapped limiter's delay, at most maxDelay.
func (r *WithMaxWaitRateLimiter[T]) When(item T) time.Duration {
	return min(r.limiter.When(item), r.maxDelay)
}

// Forget forwards to the wrapped limiter.
func (r *WithMaxWaitRateLimiter[T]) Forget(item T) { r.limiter.Forget(item) }

// NumRequeues forwards to the wrapped limiter.
func (r *WithMaxWaitRateLimiter[T]) NumRequeues(item T) int { return r.limiter.NumRequeues(item) }
