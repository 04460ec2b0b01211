package workqueue

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// fakeClock is a settable Clock.
type fakeClock struct{ now kernel.Time }

func (c *fakeClock) Now() kernel.Time { return c.now }

func (c *fakeClock) advance(d time.Duration) { c.now = c.now.Add(d) }

const ms = time.Millisecond

// whens calls l.When(item) n times.
func whens[T comparable](l RateLimiter[T], item T, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = l.When(item)
	}
	return out
}

func TestItemExponentialFailureRateLimiter(t *testing.T) {
	tests := []struct {
		name      string
		base, max time.Duration
		n         int
		want      func(i int) time.Duration
	}{
		{"controller default", 5 * ms, 1000 * time.Second, 25, func(i int) time.Duration {
			// 5ms·2^17 = 655.36s; 5ms·2^18 = 1310.72s is capped.
			return min(5*ms<<i, 1000*time.Second)
		}},
		{"item based default", ms, 1000 * time.Second, 12, func(i int) time.Duration { return ms << i }},
		{"cap below base", 10 * ms, 3 * ms, 3, func(int) time.Duration { return 3 * ms }},
		{"float overflow is capped", ms, time.Hour, 2000, func(i int) time.Duration { return min(ms<<min(i, 40), time.Hour) }},
		{"exact 2^63 does not wrap", 1, InfDuration, 70, func(i int) time.Duration {
			if i >= 63 {
				return InfDuration
			}
			return 1 << i
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := NewItemExponentialFailureRateLimiter[string](tc.base, tc.max)
			for i, got := range whens(l, "a", tc.n) {
				if want := tc.want(i); got != want {
					t.Fatalf("When #%d = %v, want %v", i, got, want)
				}
			}
			if n := l.NumRequeues("a"); n != tc.n {
				t.Errorf("NumRequeues = %d, want %d", n, tc.n)
			}
			if n := l.NumRequeues("b"); n != 0 {
				t.Errorf("NumRequeues of another item = %d, want 0", n)
			}
			if d := l.When("b"); d != tc.want(0) {
				t.Errorf("first When of another item = %v, want %v", d, tc.want(0))
			}
			l.Forget("a")
			if n := l.NumRequeues("a"); n != 0 {
				t.Errorf("NumRequeues after Forget = %d, want 0", n)
			}
			if d := l.When("a"); d != tc.want(0) {
				t.Errorf("When after Forget = %v, want %v", d, tc.want(0))
			}
		})
	}
}

func TestItemFastSlowRateLimiter(t *testing.T) {
	l := NewItemFastSlowRateLimiter[string](5*ms, 10*time.Second, 3)
	want := []time.Duration{5 * ms, 5 * ms, 5 * ms, 10 * time.Second, 10 * time.Second}
	if got := whens(l, "a", 5); !slices.Equal(got, want) {
		t.Errorf("When = %v, want %v", got, want)
	}
	if n := l.NumRequeues("a"); n != 5 {
		t.Errorf("NumRequeues = %d, want 5", n)
	}
	if d := l.When("b"); d != 5*ms {
		t.Errorf("another item's first When = %v, want 5ms", d)
	}
	l.Forget("a")
	if d := l.When("a"); d != 5*ms || l.NumRequeues("a") != 1 {
		t.Errorf("after Forget When = %v, NumRequeues = %d; want 5ms, 1", d, l.NumRequeues("a"))
	}
}

func TestBucketRateLimiter(t *testing.T) {
	type step struct {
		advance time.Duration // clock advance before the calls
		n       int           // calls
		want    func(i int) time.Duration
	}
	zero := func(int) time.Duration { return 0 }
	tests := []struct {
		name  string
		qps   float64
		burst int
		steps []step
	}{
		{"burst then 100ms apart", 10, 100, []step{
			{0, 100, zero},
			{0, 5, func(i int) time.Duration { return time.Duration(i+1) * 100 * ms }},
		}},
		{"refills continuously", 10, 100, []step{
			{0, 103, func(i int) time.Duration { return time.Duration(max(0, i-99)) * 100 * ms }},
			// 1s later 10 tokens have come back: the 3 owed and 7 more.
			{time.Second, 8, func(i int) time.Duration { return time.Duration(max(0, i-6)) * 100 * ms }},
			// A paced caller that waits out each delay gets 100ms every time.
			{100 * ms, 1, func(int) time.Duration { return 100 * ms }},
			{100 * ms, 1, func(int) time.Duration { return 100 * ms }},
		}},
		{"refill capped at burst", 10, 100, []step{
			{0, 100, zero},
			{time.Hour, 101, func(i int) time.Duration { return time.Duration(max(0, i-99)) * 100 * ms }},
		}},
		{"starts full at any time", 10, 100, []step{
			{time.Hour, 101, func(i int) time.Duration { return time.Duration(max(0, i-99)) * 100 * ms }},
		}},
		{"fractional rate", 3, 1, []step{
			{0, 3, func(i int) time.Duration { return time.Duration(float64(i) / 3 * float64(time.Second)) }},
		}},
		{"unlimited", math.Inf(1), 0, []step{{0, 1000, zero}}},
		{"zero rate allows the burst once", 0, 2, []step{
			{0, 4, func(i int) time.Duration { return []time.Duration{0, 0, InfDuration, InfDuration}[i] }},
			{time.Hour, 1, func(int) time.Duration { return InfDuration }},
		}},
		{"zero burst never allows", 10, 0, []step{{time.Second, 2, func(int) time.Duration { return InfDuration }}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &fakeClock{}
			l := NewBucketRateLimiter[string](c, tc.qps, tc.burst)
			for si, s := range tc.steps {
				c.advance(s.advance)
				for i, got := range whens(l, "any", s.n) {
					if want := s.want(i); got != want {
						t.Fatalf("step %d call %d at %v: When = %v, want %v", si, i, c.now, got, want)
					}
				}
			}
			l.Forget("any")
			if n := l.NumRequeues("any"); n != 0 {
				t.Errorf("NumRequeues = %d, want 0", n)
			}
		})
	}
}

func TestDefaultControllerRateLimiter(t *testing.T) {
	c := &fakeClock{}
	l := DefaultControllerRateLimiter[string](c)

	// One item failing 15 times (the Deployment controller's maxRetries):
	// the bucket has tokens, so the exponential limiter decides, 5ms to
	// 81.92s.
	var got []time.Duration
	for i := range 15 {
		got = append(got, l.When("web"))
		if n := l.NumRequeues("web"); n != i+1 {
			t.Fatalf("NumRequeues after %d failures = %d", i+1, n)
		}
		c.advance(got[i])
	}
	want := make([]time.Duration, 15)
	for i := range want {
		want[i] = 5 * ms << i
	}
	if !slices.Equal(got, want) {
		t.Errorf("15 failures: %v, want %v", got, want)
	}
	if got[14] != 81920*ms {
		t.Errorf("15th delay = %v, want 1m21.92s", got[14])
	}
	l.Forget("web")
	if n, d := l.NumRequeues("web"), l.When("web"); n != 0 || d != 5*ms {
		t.Errorf("after Forget NumRequeues = %d, When = %v; want 0, 5ms", n, d)
	}

	// Many items failing at one instant: the bucket takes over once its
	// burst of 100 is spent.
	c2 := &fakeClock{}
	l2 := DefaultControllerRateLimiter[int](c2)
	for i := range 103 {
		want := 5 * ms
		if i >= 100 {
			want = time.Duration(i-99) * 100 * ms
		}
		if d := l2.When(i); d != want {
			t.Fatalf("item %d: When = %v, want %v", i, d, want)
		}
	}
}

func TestMaxOfRateLimiter(t *testing.T) {
	fast := NewItemFastSlowRateLimiter[string](ms, time.Second, 2)
	exp := NewItemExponentialFailureRateLimiter[string](ms, time.Minute)
	l := NewMaxOfRateLimiter[string](fast, exp)
	want := []time.Duration{ms, 2 * ms, time.Second, time.Second}
	if got := whens(l, "a", 4); !slices.Equal(got, want) {
		t.Errorf("When = %v, want %v", got, want)
	}
	exp.When("a") // the exponential limiter now counts more failures
	if n := l.NumRequeues("a"); n != 5 {
		t.Errorf("NumRequeues = %d, want the larger count 5", n)
	}
	l.Forget("a")
	if fast.NumRequeues("a") != 0 || exp.NumRequeues("a") != 0 {
		t.Errorf("Forget did not reach every limiter")
	}
	empty := NewMaxOfRateLimiter[string]()
	if d, n := empty.When("a"), empty.NumRequeues("a"); d != 0 || n != 0 {
		t.Errorf("empty MaxOf: When = %v, NumRequeues = %d; want 0, 0", d, n)
	}
}

func TestWithMaxWaitRateLimiter(t *testing.T) {
	l := NewWithMaxWaitRateLimiter[string](NewItemExponentialFailureRateLimiter[string](ms, time.Hour), 5*ms)
	want := []time.Duration{ms, 2 * ms, 4 * ms, 5 * ms, 5 * ms}
	if got := whens(l, "a", 5); !slices.Equal(got, want) {
		t.Errorf("When = %v, want %v", got, want)
	}
	if n := l.NumRequeues("a"); n != 5 {
		t.Errorf("NumRequeues = %d, want 5", n)
	}
	l.Forget("a")
	if n := l.NumRequeues("a"); n != 0 {
		t.Errorf("NumRequeues after Forget = %d, want 0", n)
	}
}

// TestLimitsWith: a setting replaces only the fields it sets; a rate set
// on limits without a bucket adds one (its burst the rate rounded up), a
// burst without any rate is an error; the limiter limits describe has
// the bucket only when they have a rate.
func TestLimitsWith(t *testing.T) {
	noBucket := Limits{BaseDelay: time.Second, MaxDelay: time.Minute}
	for _, tc := range []struct {
		name      string
		own, set  Limits
		want      Limits
		wantError bool
	}{
		{"nothing set", DefaultLimits, Limits{}, DefaultLimits, false},
		{"delays", DefaultLimits, Limits{BaseDelay: time.Second, MaxDelay: 10 * time.Second}, Limits{time.Second, 10 * time.Second, 10, 100}, false},
		{"qps keeps the burst", DefaultLimits, Limits{QPS: 2}, Limits{DefaultBaseDelay, DefaultMaxDelay, 2, 100}, false},
		{"burst keeps the qps", DefaultLimits, Limits{Burst: 5}, Limits{DefaultBaseDelay, DefaultMaxDelay, 10, 5}, false},
		{"a bucket added", noBucket, Limits{QPS: 2.5}, Limits{time.Second, time.Minute, 2.5, 3}, false},
		{"a bucket added with its burst", noBucket, Limits{QPS: 2, Burst: 7}, Limits{time.Second, time.Minute, 2, 7}, false},
		{"a burst alone, no bucket", noBucket, Limits{Burst: 7}, noBucket, true},
		{"a cap below the own first delay", noBucket, Limits{MaxDelay: 500 * time.Millisecond}, Limits{}, true},
		{"a first delay above the own cap", noBucket, Limits{BaseDelay: time.Hour}, Limits{}, true},
		{"both moved, in order", noBucket, Limits{BaseDelay: time.Hour, MaxDelay: 2 * time.Hour}, Limits{time.Hour, 2 * time.Hour, 0, 0}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.own.With(tc.set)
			if (err != nil) != tc.wantError {
				t.Fatalf("error %v, want one: %v", err, tc.wantError)
			}
			if err == nil && got != tc.want {
				t.Errorf("%+v.With(%+v) = %+v, want %+v", tc.own, tc.set, got, tc.want)
			}
		})
	}
	// Without a bucket, 200 failures of 200 items at one instant are
	// each the item's first delay; with one, the bucket's wait grows.
	c := &fakeClock{}
	item := NewControllerRateLimiter[int](c, noBucket)
	bucket := NewControllerRateLimiter[int](c, Limits{BaseDelay: time.Second, MaxDelay: time.Minute, QPS: 10, Burst: 100})
	for i := range 200 {
		if d := item.When(i); d != time.Second {
			t.Fatalf("no bucket: item %d waits %v, want 1s", i, d)
		}
		want := time.Second
		if i >= 100 {
			want = max(want, time.Duration(i-99)*100*time.Millisecond)
		}
		if d := bucket.When(i); (d - want).Abs() > time.Microsecond {
			t.Fatalf("bucket: item %d waits %v, want %v", i, d, want)
		}
	}
	if got, want := noBucket.String(), "1s·2^n up to 1m0s"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got, want := DefaultLimits.String(), "5ms·2^n up to 16m40s, 10 qps burst 100"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
