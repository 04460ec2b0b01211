package netsim

import (
	"math"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// arrival is one delivery seen by a test receiver.
type arrival struct {
	at      kernel.Time
	sentAt  kernel.Time
	seq     uint64
	payload any
}

// inbox is a Receiver and StreamReceiver that records what arrives.
type inbox struct {
	k      *kernel.Kernel
	got    []arrival
	closes []error
	closed []kernel.Time
}

func (b *inbox) Receive(m *Message) {
	b.got = append(b.got, arrival{at: b.k.Now(), sentAt: m.SentAt, seq: m.Seq, payload: m.Payload})
}

func (b *inbox) Closed(_ *Stream, err error) {
	b.closes = append(b.closes, err)
	b.closed = append(b.closed, b.k.Now())
}

func (b *inbox) payloads() []any {
	out := make([]any, len(b.got))
	for i, a := range b.got {
		out[i] = a.payload
	}
	return out
}

// echo is a Server that counts requests and replies with the request.
type echo struct{ served int }

func (e *echo) Serve(c Call) {
	e.served++
	c.Reply(c.Req)
}

// world is a kernel and a network with a few endpoints.
type world struct {
	k *kernel.Kernel
	n *Network
}

func newWorld(seed uint64) *world {
	k := kernel.New(seed)
	return &world{k: k, n: New(k)}
}

func (w *world) ep(a Addr) *Endpoint { return w.n.Endpoint(a) }

func (w *world) inbox(a Addr) *inbox {
	b := &inbox{k: w.k}
	w.ep(a).SetReceiver(b)
	return b
}

func (w *world) run(t testing.TB) {
	t.Helper()
	w.k.Run(kernel.Limits{})
	checkQuiet(t, w.n)
}

// checkQuiet asserts the invariants of a network with nothing in flight:
// every copy ended once, every pooled message and call slot is free, and
// the link counters add up to at most the network's.
func checkQuiet(t testing.TB, n *Network) {
	t.Helper()
	st := n.Stats()
	if st.InFlight() != 0 {
		t.Errorf("in flight at quiescence = %d, stats %+v", st.InFlight(), st)
	}
	free := 0
	for m := n.free; m != nil; m = m.next {
		free++
	}
	if free != n.pooled {
		t.Errorf("free messages = %d, pool = %d: a message leaked", free, n.pooled)
	}
	if len(n.freeSlots) != len(n.slots) || len(n.timers) != 0 {
		t.Errorf("%d of %d call slots free, %d deadlines pending: a call leaked", len(n.freeSlots), len(n.slots), len(n.timers))
	}
	var sum Stats
	for _, l := range n.Links() {
		if l.Stats.InFlight() != 0 {
			t.Errorf("link %s->%s in flight = %d", l.From, l.To, l.Stats.InFlight())
		}
		sum.Sent += l.Stats.Sent
		sum.Delivered += l.Stats.Delivered
		sum.Timeouts += l.Stats.Timeouts
	}
	if sum.Sent > st.Sent || sum.Delivered != st.Delivered || sum.Timeouts > st.Timeouts {
		t.Errorf("link sums %+v exceed network %+v", sum, st)
	}
}

// within asserts that a count x of n Bernoulli(p) trials lies within z
// standard deviations of its mean.
func within(t *testing.T, what string, x, n uint64, p, z float64) {
	t.Helper()
	mean := float64(n) * p
	sd := math.Sqrt(float64(n) * p * (1 - p))
	if d := math.Abs(float64(x) - mean); d > z*sd {
		t.Errorf("%s = %d of %d, want %.1f ± %.1f (%.1f sd, p=%v)", what, x, n, mean, z*sd, d/sd, p)
	} else {
		t.Logf("%s = %d of %d, expected %.1f (%.2f sd)", what, x, n, mean, d/sd)
	}
}

const z = 4.5 // tolerance in standard deviations: a false alarm about once in 150,000 runs

func ms(x float64) time.Duration { return time.Duration(x * float64(time.Millisecond)) }
