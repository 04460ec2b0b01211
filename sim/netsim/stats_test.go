package netsim

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// TestDatagramRates sends 100,000 datagrams over a link with Drop 0.10 and
// Duplicate 0.05 and checks the drop, duplicate, reorder and spike counts
// and the mean latency against their distributions.
func TestDatagramRates(t *testing.T) {
	const (
		N   = 100_000
		d   = 0.10
		dup = 0.05
	)
	ns := func(x time.Duration) float64 { return float64(x) }
	tests := []struct {
		name      string
		lat       Latency
		reorder   float64
		reorderBy time.Duration
		delay     float64
		delayBy   time.Duration
		mean, sd  float64 // of one copy's latency, ns
	}{
		{
			name: "uniform",
			lat:  Latency{Base: ms(1), Jitter: ms(2)},
			mean: ns(ms(1)) + (ns(ms(2))-1)/2,
			sd:   math.Sqrt((ns(ms(2))*ns(ms(2)) - 1) / 12),
		},
		{
			name: "exponential",
			lat:  Latency{Base: ms(1), Jitter: ms(2), Dist: Exponential},
			mean: ns(ms(1)) + ns(ms(2)) - 0.5, // truncation to whole ns
			sd:   ns(ms(2)),
		},
		{
			name: "constant",
			lat:  Latency{Base: ms(3), Jitter: ms(5), Dist: Constant},
			mean: ns(ms(3)),
			sd:   0,
		},
		{
			name:    "uniform with reorder and spikes",
			lat:     Latency{Base: ms(1), Jitter: ms(2)},
			reorder: 0.2, reorderBy: ms(5),
			delay: 0.1, delayBy: ms(20),
			mean: ns(ms(1)) + (ns(ms(2))-1)/2 + 0.2*ns(ms(5)) + 0.1*ns(ms(20)),
			sd: math.Sqrt((ns(ms(2))*ns(ms(2))-1)/12 +
				ns(ms(5))*ns(ms(5))*0.2*0.8 + ns(ms(20))*ns(ms(20))*0.1*0.9),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(42)
			a, b := w.ep("a"), w.ep("b")
			box := w.inbox("b")
			cfg := LinkConfig{Latency: tc.lat, Drop: d, Duplicate: dup,
				Reorder: tc.reorder, ReorderDelay: tc.reorderBy, Delay: tc.delay, DelayExtra: tc.delayBy}
			if err := w.n.SetLink("a", "b", cfg); err != nil {
				t.Fatal(err)
			}
			// 100 sends per virtual millisecond keeps a few thousand copies
			// in flight rather than all of them at once.
			sent := 0
			var burst func()
			burst = func() {
				for range 100 {
					w.n.Send(a, b, nil)
					sent++
				}
				if sent < N {
					w.k.At(w.k.Now().Add(time.Millisecond), burst)
				}
			}
			burst()
			w.run(t)

			st := w.n.LinkStats("a", "b")
			if st.Sent != N {
				t.Fatalf("sent = %d, want %d", st.Sent, N)
			}
			within(t, "drops", st.DropLink, N, d, z)
			within(t, "duplicates", st.Duplicated, N-st.DropLink, dup, z)
			copies := N - st.DropLink + st.Duplicated
			if st.Delivered != copies || uint64(len(box.got)) != copies {
				t.Fatalf("delivered = %d (inbox %d), want %d", st.Delivered, len(box.got), copies)
			}
			if tc.reorder > 0 {
				within(t, "reordered", st.Reordered, copies, tc.reorder, z)
			}
			if tc.delay > 0 {
				within(t, "delayed", st.Delayed, copies, tc.delay, z)
			}
			var sum float64
			for _, g := range box.got {
				sum += float64(g.at - g.sentAt)
			}
			mean := sum / float64(len(box.got))
			tol := z * tc.sd / math.Sqrt(float64(len(box.got)))
			if math.Abs(mean-tc.mean) > tol {
				t.Errorf("mean latency = %.0f ns, want %.0f ± %.0f", mean, tc.mean, tol)
			} else {
				t.Logf("mean latency = %.0f ns, expected %.0f (tolerance %.0f)", mean, tc.mean, tol)
			}
			if got := tc.lat.Mean(); tc.reorder == 0 && tc.delay == 0 && math.Abs(float64(got)-tc.mean) > 1 {
				t.Errorf("Latency.Mean() = %v, want %.0f ns", got, tc.mean)
			}
		})
	}
}

// counter is a Completer that tallies outcomes.
type counter struct {
	ok, timeouts, other int
}

func (c *counter) Complete(_ uint64, _ any, err error) {
	switch {
	case err == nil:
		c.ok++
	case errors.Is(err, ErrTimeout):
		c.timeouts++
	default:
		c.other++
	}
}

// TestCallTimeoutRate makes 100,000 calls over links that drop with
// probability d each way; a call times out when its request or its reply is
// lost, so the timeout rate must be 1-(1-d)^2.
func TestCallTimeoutRate(t *testing.T) {
	const (
		N       = 100_000
		d       = 0.10
		timeout = time.Second
	)
	cfg := LinkConfig{Latency: Latency{Base: ms(1), Jitter: ms(4)}, Drop: d}
	tests := []struct {
		name string
		run  func(w *world, from, to *Endpoint) *counter
	}{
		{"process", func(w *world, from, to *Endpoint) *counter {
			c := &counter{}
			w.k.Spawn("caller", func(p *kernel.Process) {
				for i := range N {
					start := p.Now()
					_, err := w.n.Call(p, from, to, i, timeout)
					c.Complete(0, nil, err)
					if el := p.Now().Sub(start); err != nil && el != timeout || err == nil && el >= timeout {
						t.Errorf("call %d: err %v after %v", i, err, el)
						return
					}
				}
			})
			return c
		}},
		{"async, 100 outstanding", func(w *world, from, to *Endpoint) *counter {
			c := &counter{}
			started := 0
			var next completerFunc
			next = func(tag uint64, resp any, err error) {
				c.Complete(tag, resp, err)
				if started < N {
					started++
					w.n.CallAsync(from, to, started, timeout, next, uint64(started))
				}
			}
			for range 100 {
				started++
				w.n.CallAsync(from, to, started, timeout, next, uint64(started))
			}
			return c
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(7)
			if err := w.n.SetDefault(cfg); err != nil {
				t.Fatal(err)
			}
			from, to := w.ep("client"), w.ep("server")
			srv := &echo{}
			to.SetServer(srv)
			c := tc.run(w, from, to)
			w.run(t)
			if c.ok+c.timeouts != N || c.other != 0 {
				t.Fatalf("outcomes ok=%d timeouts=%d other=%d, want %d in all", c.ok, c.timeouts, c.other, N)
			}
			within(t, "timeouts", uint64(c.timeouts), N, 1-(1-d)*(1-d), z)
			within(t, "requests served", uint64(srv.served), N, 1-d, z)
			if st := w.n.Stats(); st.Timeouts != uint64(c.timeouts) {
				t.Errorf("Stats().Timeouts = %d, callers saw %d", st.Timeouts, c.timeouts)
			}
			if lst := w.n.LinkStats("client", "server"); lst.Timeouts != uint64(c.timeouts) {
				t.Errorf("request link timeouts = %d, callers saw %d", lst.Timeouts, c.timeouts)
			}
			if len(w.n.timers) != 0 || len(w.n.freeSlots) != len(w.n.slots) {
				t.Errorf("after the run: %d deadlines pending, %d of %d slots free", len(w.n.timers), len(w.n.freeSlots), len(w.n.slots))
			}
		})
	}
}
