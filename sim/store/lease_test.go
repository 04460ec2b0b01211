package store

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// expiriesOf returns when each write (at the given instants, in order)
// would expire under the lease manager of a kind with time to live ttl.
func expiriesOf(t *testing.T, ttl time.Duration, writes []time.Duration) []time.Duration {
	t.Helper()
	s := New(kernel.New(1))
	s.SetTTL(api.KindEvent, ttl)
	tb, err := s.table(api.KindEvent)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]time.Duration, 0, len(writes))
	for _, w := range writes {
		id := tb.leases.get(kernel.Time(w))
		i := slices.IndexFunc(tb.leases.live, func(l lease) bool { return l.id == id })
		if i < 0 {
			t.Fatalf("write at %v got lease %d, which is not live", w, id)
		}
		out = append(out, tb.leases.live[i].expiry.Duration())
	}
	return out
}

// TestLeaseExpiry: the instant each write's object expires, as the API
// server's lease manager (kubernetes/apiserver
// pkg/storage/etcd3/lease_manager.go) and etcd's lessor give it: a new
// lease of ttl plus min(60s, 5% of ttl) at the first write, handed to
// the writes that come before ttl from now reaches its expiry (strictly)
// and to no more than 1000 of them; etcd lengthens a lease to 2s at
// least.
func TestLeaseExpiry(t *testing.T) {
	const s, ms = time.Second, time.Millisecond
	thousand := make([]time.Duration, 1001)
	wantThousand := make([]time.Duration, 1001)
	for i := range thousand {
		thousand[i] = time.Duration(i) * ms
		wantThousand[i] = 3660 * s
	}
	wantThousand[1000] = 3661 * s // the 1001st write at 1s: a new lease
	cases := []struct {
		name   string
		ttl    time.Duration
		writes []time.Duration
		want   []time.Duration
	}{
		{"first write: ttl and the 60s of reuse", time.Hour, []time.Duration{0}, []time.Duration{3660 * s}},
		{"reused within the reuse window", time.Hour, []time.Duration{0, 30 * s, 60*s - 1}, []time.Duration{3660 * s, 3660 * s, 3660 * s}},
		{"a new lease at the window's end (valid is strict)", time.Hour, []time.Duration{0, 60 * s, 119 * s, 120 * s}, []time.Duration{3660 * s, 3720 * s, 3720 * s, 3780 * s}},
		{"writes at one instant expire together", time.Hour, []time.Duration{10 * s, 10 * s, 10 * s}, []time.Duration{3670 * s, 3670 * s, 3670 * s}},
		{"a write after a quiet hour", time.Hour, []time.Duration{0, 3659 * s, 3660 * s}, []time.Duration{3660 * s, 7319 * s, 7319 * s}},
		{"the 1001st write of a lease gets a new one", time.Hour, thousand, wantThousand},
		{"5% of a 10m ttl: 30s of reuse", 10 * time.Minute, []time.Duration{0, 29 * s, 30 * s}, []time.Duration{630 * s, 630 * s, 660 * s}},
		{"5% of 20s truncated: 1s", 20 * s, []time.Duration{0, 500 * ms, s}, []time.Duration{21 * s, 21 * s, 22 * s}},
		{"under 20s: no reuse, a lease per write", 10 * s, []time.Duration{0, 500 * ms, s}, []time.Duration{10 * s, 10*s + 500*ms, 11 * s}},
		{"etcd's 2s minimum", s, []time.Duration{0, 500 * ms}, []time.Duration{2 * s, 2*s + 500*ms}},
		{"ttl in whole seconds", 90*s + 900*ms, []time.Duration{0}, []time.Duration{94 * s}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := expiriesOf(t, c.ttl, c.writes); !slices.Equal(got, c.want) {
				t.Errorf("ttl %v, writes at %v: expire at %v, want %v", c.ttl, c.writes, got, c.want)
			}
		})
	}
}

// TestLeaseReuseSeconds: getReuseDurationSecondsLocked, the float
// arithmetic included.
func TestLeaseReuseSeconds(t *testing.T) {
	for _, c := range []struct{ ttl, want int64 }{
		{0, 0}, {1, 0}, {19, 0}, {20, 1}, {39, 1}, {40, 2}, {600, 30}, {1199, 59}, {1200, 60}, {3600, 60}, {86400, 60},
	} {
		if got := leaseReuseSeconds(c.ttl); got != c.want {
			t.Errorf("leaseReuseSeconds(%d) = %d, want %d", c.ttl, got, c.want)
		}
	}
}

func event(ns, name string) *api.Event {
	return &api.Event{
		TypeMeta:       api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta:     api.ObjectMeta{Name: name, Namespace: ns},
		InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: ns, Name: "web"},
		Reason:         "BackOff", Message: "Back-off restarting failed container app in pod web", Count: 1, Type: "Warning",
		Source: api.EventSource{Component: "kubelet", Host: "node-1"},
	}
}

// ttlHarness is a store with Events living an hour, a watch of every
// Event, and writes scheduled at virtual instants.
type ttlHarness struct {
	k     *kernel.Kernel
	s     *Store
	seen  []string
	rvs   []uint64
	fails []error
}

func newTTLHarness(t *testing.T, ttl time.Duration) *ttlHarness {
	h := &ttlHarness{k: kernel.New(1)}
	h.s = New(h.k)
	h.s.SetTTL(api.KindEvent, ttl)
	if _, err := h.s.Watch(api.KindEvent, 0, ListOptions{}, SinkFunc(func(e Event) {
		m := e.Object.GetObjectMeta()
		h.seen = append(h.seen, fmt.Sprintf("%s %s/%s rv=%s", e.Type, m.Namespace, m.Name, m.ResourceVersion))
		h.rvs = append(h.rvs, e.ResourceVersion)
	})); err != nil {
		t.Fatal(err)
	}
	return h
}

// at schedules a write at virtual instant d.
func (h *ttlHarness) at(d time.Duration, write func(s *Store) error) {
	h.k.At(kernel.Time(d), func() {
		if err := write(h.s); err != nil {
			h.fails = append(h.fails, err)
		}
	})
}

func (h *ttlHarness) create(d time.Duration, e *api.Event) {
	h.at(d, func(s *Store) error { _, err := s.Create(Op{Actor: "kubelet"}, e); return err })
}

// bump patches an Event's count, as an event recorder aggregating a
// repeat does.
func (h *ttlHarness) bump(d time.Duration, ns, name string) {
	h.at(d, func(s *Store) error {
		o, err := s.Get(api.KindEvent, api.Key{Namespace: ns, Name: name})
		if err != nil {
			return err
		}
		e := o.DeepCopyObject().(*api.Event)
		e.Count++
		_, err = s.Update(Op{Actor: "kubelet", Verb: "patch"}, e, "")
		return err
	})
}

func (h *ttlHarness) runUntil(t *testing.T, d time.Duration) {
	t.Helper()
	h.k.Run(kernel.Limits{Until: kernel.Time(d)})
	if len(h.fails) > 0 {
		t.Fatalf("writes failed: %v", h.fails)
	}
}

func (h *ttlHarness) stored(ns, name string) bool {
	_, err := h.s.Get(api.KindEvent, api.Key{Namespace: ns, Name: name})
	return err == nil
}

// TestEventExpiresAfterItsLastWrite: an Event written at t0 is there
// until its lease expires (t0 + 1h + the 60s of lease reuse) and gone
// from then, its watchers seeing it DELETED with its last state at the
// store's next resourceVersion, and the audit log recording nothing; a
// count++ patch at t1 moves its expiry to t1 + 1h (+ the lease's reuse).
func TestEventExpiresAfterItsLastWrite(t *testing.T) {
	h := newTTLHarness(t, time.Hour)
	h.create(0, event("default", "quiet"))
	h.create(0, event("default", "repeated"))
	h.bump(30*time.Minute, "default", "repeated")
	h.runUntil(t, time.Hour)
	if !h.stored("default", "quiet") {
		t.Fatal("an Event written at 0 is gone at 1h: a run of exactly an hour must not see it expire")
	}
	audited, rv := h.s.Audit().Total(), h.s.ResourceVersion()
	h.runUntil(t, time.Hour+time.Minute-1)
	if !h.stored("default", "quiet") {
		t.Fatal("an Event written at 0 is gone before its lease's expiry at 1h1m")
	}
	h.runUntil(t, time.Hour+time.Minute)
	if h.stored("default", "quiet") {
		t.Fatal("an Event written at 0 is still stored at 1h1m, when its lease expired")
	}
	if !h.stored("default", "repeated") {
		t.Fatal("an Event patched at 30m expired with the lease of its create")
	}
	if want := fmt.Sprintf("DELETED default/quiet rv=%d", rv+1); h.seen[len(h.seen)-1] != want || h.rvs[len(h.rvs)-1] != rv+1 {
		t.Errorf("the watch's last event is %q (rv %d), want %q", h.seen[len(h.seen)-1], h.rvs[len(h.rvs)-1], want)
	}
	if got := h.s.Audit().Total(); got != audited {
		t.Errorf("the audit log has %d records after the expiry, %d before: an expiry is no request", got, audited)
	}
	h.runUntil(t, 90*time.Minute+time.Minute-1)
	if !h.stored("default", "repeated") {
		t.Fatal("an Event patched at 30m is gone before 1h31m")
	}
	h.runUntil(t, 90*time.Minute+time.Minute)
	if h.stored("default", "repeated") {
		t.Fatal("an Event patched at 30m is still stored at 1h31m")
	}
	if n := h.s.Expired(api.KindEvent); n != 2 || h.s.Len(api.KindEvent) != 0 {
		t.Errorf("%d Events expired, %d stored; want 2 and 0", n, h.s.Len(api.KindEvent))
	}
	if h.k.Pending() != 0 {
		t.Errorf("%d kernel events pending with no lease live", h.k.Pending())
	}
}

// TestExpiryOrder: the Events of one lease leave in the order of their
// etcd keys (/registry/events/<namespace>/<name>: "a-b/" before "a/"),
// each at a resourceVersion of its own.
func TestExpiryOrder(t *testing.T) {
	h := newTTLHarness(t, time.Hour)
	for _, k := range []api.Key{{Namespace: "b", Name: "x"}, {Namespace: "a", Name: "y"}, {Namespace: "a-b", Name: "x"}, {Namespace: "a", Name: "x"}} {
		h.create(time.Second, event(k.Namespace, k.Name))
	}
	h.runUntil(t, 2*time.Hour)
	got := h.seen[4:]
	want := []string{"DELETED a-b/x rv=5", "DELETED a/x rv=6", "DELETED a/y rv=7", "DELETED b/x rv=8"}
	if !slices.Equal(got, want) {
		t.Errorf("expired %v, want %v", got, want)
	}
}

// TestDeleteMarkDetachesFromLease: a delete that only marks an Event (a
// finalizer holds it) is the storage's update without a lease, which
// detaches it: it stays; its next write attaches it again.
func TestDeleteMarkDetachesFromLease(t *testing.T) {
	h := newTTLHarness(t, time.Hour)
	e := event("default", "held")
	e.Finalizers = []string{"example.com/hold"}
	h.create(0, e)
	h.at(time.Minute, func(s *Store) error {
		_, _, err := s.Delete(Op{Actor: "user"}, api.KindEvent, api.Key{Namespace: "default", Name: "held"}, DeleteOptions{})
		return err
	})
	h.runUntil(t, 3*time.Hour)
	if !h.stored("default", "held") {
		t.Fatal("a detached Event expired")
	}
	h.bump(3*time.Hour, "default", "held")
	h.runUntil(t, 4*time.Hour+time.Minute)
	if h.stored("default", "held") {
		t.Fatal("an Event attached again by a write did not expire")
	}
}

// TestNoTTLSchedulesNothing: without a time to live nothing expires and
// no kernel event is scheduled (a run to quiescence ends as before).
func TestNoTTLSchedulesNothing(t *testing.T) {
	h := newTTLHarness(t, 0)
	h.create(0, event("default", "kept"))
	if r := h.k.Run(kernel.Limits{}); r != kernel.Quiescent || h.k.Now() != 0 {
		t.Fatalf("run ended %v at %v, want quiescent at 0", r, h.k.Now())
	}
	if !h.stored("default", "kept") {
		t.Fatal("an Event without a TTL is gone")
	}
}

// TestExpiryKeepsEventsFlat: Events created every minute and each
// patched three times over the next two minutes (in later leases) for
// six virtual hours: the store holds the last hour's (and a few
// minutes') Events, however long the run, and the leases' lists hold
// each live Event's key about once.
func TestExpiryKeepsEventsFlat(t *testing.T) {
	h := newTTLHarness(t, time.Hour)
	const hours = 6
	for m := range hours * 60 {
		name := fmt.Sprintf("job-%03d.event", m)
		h.create(time.Duration(m)*time.Minute, event("default", name))
		for s := 40; s <= 120; s += 40 {
			h.bump(time.Duration(m)*time.Minute+time.Duration(s)*time.Second, "default", name)
		}
	}
	for hour := 1; hour <= hours; hour++ {
		h.runUntil(t, time.Duration(hour)*time.Hour+30*time.Second)
		stored := h.s.Len(api.KindEvent)
		tb, _ := h.s.table(api.KindEvent)
		listed := 0
		for _, l := range tb.leases.live {
			listed += len(l.keys)
		}
		t.Logf("at %dh: %d Events stored, %d keys listed under %d leases", hour, stored, listed, len(tb.leases.live))
		if stored > 64 {
			t.Errorf("at %dh: %d Events stored; one a minute living an hour and a minute after its last write, two minutes after its create, makes 64 at most", hour, stored)
		}
		if listed > 2*64 {
			t.Errorf("at %dh: %d keys listed for %d Events", hour, listed, stored)
		}
	}
}
