package netsim

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// outcome is what one caller saw.
type outcome struct {
	resp any
	err  error
	at   kernel.Time
}

// call spawns a process that makes one call at time `at` and records the
// outcome.
func (w *world) call(at kernel.Time, from, to Addr, req any, timeout time.Duration) *outcome {
	o := &outcome{}
	f, t := w.ep(from), w.ep(to)
	w.k.At(at, func() {
		w.k.Spawn("caller", func(p *kernel.Process) {
			o.resp, o.err = w.n.Call(p, f, t, req, timeout)
			o.at = p.Now()
		})
	})
	return o
}

// TestAmbiguity is the project's lesson: over a lossy link a caller that
// times out cannot tell whether the server acted. Across seeds, some
// timeouts hide a served request (the reply was lost) and some an unserved
// one (the request was lost), and the two errors are indistinguishable.
func TestAmbiguity(t *testing.T) {
	var acted, notActed error
	var actedSeed, notActedSeed uint64
	okSeeds := 0
	for seed := uint64(1); seed <= 200 && (acted == nil || notActed == nil || okSeeds == 0); seed++ {
		w := newWorld(seed)
		if err := w.n.SetDefault(LinkConfig{Latency: Latency{Base: ms(5), Jitter: ms(5)}, Drop: 0.5}); err != nil {
			t.Fatal(err)
		}
		counter := 0
		w.ep("apiserver").SetServer(ServerFunc(func(c Call) {
			counter++
			c.Reply("created")
		}))
		o := w.call(0, "user/alice", "apiserver", "create", time.Second)
		w.run(t)
		switch {
		case o.err == nil:
			okSeeds++
			if counter != 1 || o.resp != "created" {
				t.Fatalf("seed %d: success with counter %d, resp %v", seed, counter, o.resp)
			}
		case counter == 1:
			if acted == nil {
				acted, actedSeed = o.err, seed
			}
		case counter == 0:
			if notActed == nil {
				notActed, notActedSeed = o.err, seed
			}
		default:
			t.Fatalf("seed %d: counter %d, err %v", seed, counter, o.err)
		}
		if o.err != nil && o.at != kernel.Time(time.Second) {
			t.Fatalf("seed %d: timed out at %v, want t=1.000s", seed, o.at)
		}
	}
	if acted == nil || notActed == nil || okSeeds == 0 {
		t.Fatalf("want all three outcomes; got reply-lost=%v request-lost=%v successes=%d", acted, notActed, okSeeds)
	}
	t.Logf("seed %d: server acted, caller got %q; seed %d: server never saw it, caller got %q",
		actedSeed, acted, notActedSeed, notActed)
	if !errors.Is(acted, ErrTimeout) || !errors.Is(notActed, ErrTimeout) {
		t.Errorf("errors are not ErrTimeout: %v, %v", acted, notActed)
	}
	if acted != notActed || acted.Error() != notActed.Error() || fmt.Sprintf("%#v", acted) != fmt.Sprintf("%#v", notActed) {
		t.Errorf("the caller can tell the losses apart: %#v vs %#v", acted, notActed)
	}
}

// TestCallOutcomes covers one call in each situation that can befall it.
func TestCallOutcomes(t *testing.T) {
	const timeout = 100 * time.Millisecond
	lat := LinkConfig{Latency: Latency{Base: ms(10)}}
	tests := []struct {
		name      string
		setup     func(w *world)
		wantResp  any
		wantErr   error
		wantAt    kernel.Time
		wantServe int
		want      Stats // the fields checked: DropUnreachable, Discarded, Duplicated, Timeouts
	}{
		{
			name:     "reply",
			setup:    func(w *world) {},
			wantResp: "req", wantAt: kernel.Time(ms(20)), wantServe: 1,
		},
		{
			name: "duplicated request is served twice, first reply wins",
			setup: func(w *world) {
				must(t, w.n.SetLink("c", "s", LinkConfig{Latency: Latency{Base: ms(10)}, Duplicate: 1}))
			},
			wantResp: "req", wantAt: kernel.Time(ms(20)), wantServe: 2,
			want: Stats{Duplicated: 1, Discarded: 1},
		},
		{
			name: "late reply is discarded",
			setup: func(w *world) {
				must(t, w.n.SetLink("s", "c", LinkConfig{Latency: Latency{Base: ms(200)}}))
			},
			wantErr: ErrTimeout, wantAt: kernel.Time(timeout), wantServe: 1,
			want: Stats{Discarded: 1, Timeouts: 1},
		},
		{
			name:    "no server",
			setup:   func(w *world) { w.ep("s").SetServer(nil) },
			wantErr: ErrTimeout, wantAt: kernel.Time(timeout),
			want: Stats{DropUnreachable: 1, Timeouts: 1},
		},
		{
			name:    "server down",
			setup:   func(w *world) { w.ep("s").SetDown(true) },
			wantErr: ErrTimeout, wantAt: kernel.Time(timeout),
			want: Stats{DropUnreachable: 1, Timeouts: 1},
		},
		{
			name: "server goes down before the reply arrives home",
			setup: func(w *world) {
				w.k.At(kernel.Time(ms(15)), func() { w.ep("c").SetDown(true) })
			},
			wantErr: ErrTimeout, wantAt: kernel.Time(timeout), wantServe: 1,
			want: Stats{DropUnreachable: 1, Timeouts: 1},
		},
		{
			name: "server never replies",
			setup: func(w *world) {
				w.ep("s").SetServer(ServerFunc(func(Call) {}))
			},
			wantErr: ErrTimeout, wantAt: kernel.Time(timeout),
			want: Stats{Timeouts: 1},
		},
		{
			name: "server replies after simulated work",
			setup: func(w *world) {
				w.ep("s").SetServer(ServerFunc(func(c Call) {
					w.k.At(w.k.Now().Add(ms(30)), func() { c.Reply("done") })
				}))
			},
			wantResp: "done", wantAt: kernel.Time(ms(50)),
		},
		{
			name: "server replies twice",
			setup: func(w *world) {
				w.ep("s").SetServer(ServerFunc(func(c Call) { c.Reply(1); c.Reply(2) }))
			},
			wantResp: 1, wantAt: kernel.Time(ms(20)),
			want: Stats{Discarded: 1},
		},
		{
			name: "partition",
			setup: func(w *world) {
				must(t, w.n.Partition("p", []Addr{"c"}, []Addr{"s"}, false))
			},
			wantErr: ErrTimeout, wantAt: kernel.Time(timeout),
			want: Stats{Timeouts: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(1)
			must(t, w.n.SetDefault(lat))
			srv := &echo{}
			w.ep("s").SetServer(srv)
			tc.setup(w)
			o := w.call(0, "c", "s", "req", timeout)
			w.run(t)
			if o.resp != tc.wantResp || o.err != tc.wantErr || o.at != tc.wantAt {
				t.Errorf("call = (%v, %v) at %v, want (%v, %v) at %v", o.resp, o.err, o.at, tc.wantResp, tc.wantErr, tc.wantAt)
			}
			if srv.served != tc.wantServe && tc.wantServe != 0 {
				t.Errorf("served %d times, want %d", srv.served, tc.wantServe)
			}
			st := w.n.Stats()
			got := Stats{DropUnreachable: st.DropUnreachable, Discarded: st.Discarded, Duplicated: st.Duplicated, Timeouts: st.Timeouts}
			if got != tc.want {
				t.Errorf("stats %+v, want %+v", got, tc.want)
			}
			// The caller's endpoint counts its own timeouts; the server's
			// none.
			if c, srv := w.ep("c").CallTimeouts(), w.ep("s").CallTimeouts(); c != tc.want.Timeouts || srv != 0 {
				t.Errorf("endpoint timeouts: caller %d, server %d; want %d, 0", c, srv, tc.want.Timeouts)
			}
		})
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestUnroutableCalls: nil and foreign endpoints time out like an unknown
// host; nothing panics.
func TestUnroutableCalls(t *testing.T) {
	other := New(kernel.New(1)).Endpoint("elsewhere")
	tests := []struct {
		name     string
		from, to func(w *world) *Endpoint
	}{
		{"nil server", func(w *world) *Endpoint { return w.ep("c") }, func(*world) *Endpoint { return nil }},
		{"nil caller", func(*world) *Endpoint { return nil }, func(w *world) *Endpoint { return w.ep("s") }},
		{"foreign server", func(w *world) *Endpoint { return w.ep("c") }, func(*world) *Endpoint { return other }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(1)
			srv := &echo{}
			w.ep("s").SetServer(srv)
			var err error
			var at kernel.Time
			w.k.Spawn("caller", func(p *kernel.Process) {
				_, err = w.n.Call(p, tc.from(w), tc.to(w), "x", time.Second)
				at = p.Now()
			})
			w.n.Send(tc.from(w), tc.to(w), "datagram")
			w.run(t)
			if err != ErrTimeout || at != kernel.Time(time.Second) || srv.served != 0 {
				t.Errorf("call: err %v at %v, served %d; want ErrTimeout at t=1.000s, unserved", err, at, srv.served)
			}
			if st := w.n.Stats(); st.DropUnreachable != 2 || st.Timeouts != 1 {
				t.Errorf("stats %+v, want 2 unreachable drops and 1 timeout", st)
			}
		})
	}
}

func TestCallNotRunning(t *testing.T) {
	w := newWorld(1)
	c, s := w.ep("c"), w.ep("s")
	s.SetServer(&echo{})
	if _, err := w.n.Call(nil, c, s, "x", time.Second); !errors.Is(err, ErrNotRunning) {
		t.Errorf("nil process: err %v, want ErrNotRunning", err)
	}
	var other *kernel.Process
	other = w.k.Spawn("idle", func(p *kernel.Process) { p.Park() })
	w.k.Run(kernel.Limits{})
	if _, err := w.n.Call(other, c, s, "x", time.Second); !errors.Is(err, ErrNotRunning) {
		t.Errorf("parked process from the event loop: err %v, want ErrNotRunning", err)
	}
	if st := w.n.Stats(); st.Sent != 0 {
		t.Errorf("a refused call sent %d messages", st.Sent)
	}
}

// TestKilledCaller kills a caller while it waits. Its reply arrives after
// another call has taken over its slot; the reply must be discarded, not
// handed to the newcomer, and nothing may crash.
func TestKilledCaller(t *testing.T) {
	w := newWorld(1)
	must(t, w.n.SetDefault(LinkConfig{Latency: Latency{Base: time.Second}}))
	w.ep("s").SetServer(&echo{})
	c, s := w.ep("c"), w.ep("s")
	var victimReturned bool
	victim := w.k.Spawn("victim", func(p *kernel.Process) {
		w.n.Call(p, c, s, "victim", 10*time.Second)
		victimReturned = true
	})
	w.k.At(kernel.Time(ms(500)), victim.Kill)
	late := w.call(kernel.Time(ms(600)), "c", "s", "newcomer", 10*time.Second)
	w.run(t)
	if victimReturned {
		t.Error("killed caller returned from Call")
	}
	if late.err != nil || late.resp != "newcomer" || late.at != kernel.Time(ms(2600)) {
		t.Errorf("newcomer got (%v, %v) at %v, want (newcomer, nil) at t=2.600s", late.resp, late.err, late.at)
	}
	if st := w.n.Stats(); st.Discarded != 1 || st.Timeouts != 0 {
		t.Errorf("stats %+v, want the victim's reply discarded and no timeout", st)
	}
	if len(w.n.slots) != 1 {
		t.Errorf("%d call slots, want the victim's slot reused", len(w.n.slots))
	}
}

// TestCallForever: a call with no timeout waits as long as it takes, and
// leaves no deadline armed.
func TestCallForever(t *testing.T) {
	w := newWorld(1)
	must(t, w.n.SetDefault(LinkConfig{Latency: Latency{Base: time.Hour}}))
	w.ep("s").SetServer(&echo{})
	o := w.call(0, "c", "s", "slow", 0)
	w.run(t)
	if o.err != nil || o.resp != "slow" || o.at != kernel.Time(2*time.Hour) {
		t.Errorf("call = (%v, %v) at %v", o.resp, o.err, o.at)
	}
	if w.n.armed != kernel.Forever || len(w.n.timers) != 0 {
		t.Errorf("a deadline was armed for a call without timeout")
	}
}

// TestDeadlinesLeaveNoStaleEvents: a thousand calls answered long before
// their timeouts leave at most one pending alarm in the kernel queue.
func TestDeadlinesLeaveNoStaleEvents(t *testing.T) {
	w := newWorld(1)
	c, s := w.ep("c"), w.ep("s")
	s.SetServer(&echo{})
	w.k.Spawn("caller", func(p *kernel.Process) {
		for range 1000 {
			if _, err := w.n.Call(p, c, s, 1, time.Hour); err != nil {
				t.Error(err)
			}
		}
	})
	w.k.Run(kernel.Limits{Until: kernel.Time(time.Minute)})
	if got := w.k.Pending(); got > 1 {
		t.Errorf("kernel holds %d pending events after all calls finished, want at most 1", got)
	}
	w.run(t)
}

// TestDeadlineOrder: calls with mixed timeouts time out in deadline order,
// each exactly at its deadline.
func TestDeadlineOrder(t *testing.T) {
	w := newWorld(1)
	c, s := w.ep("c"), w.ep("s")
	s.SetServer(ServerFunc(func(Call) {})) // never replies
	timeouts := []time.Duration{5, 1, 3, 3, 2, 8, 1}
	var order []int
	var times []kernel.Time
	for i, d := range timeouts {
		w.n.CallAsync(c, s, i, d*time.Second, completerFunc(func(tag uint64, _ any, err error) {
			if err != ErrTimeout {
				t.Errorf("call %d: %v", tag, err)
			}
			order = append(order, int(tag))
			times = append(times, w.k.Now())
		}), uint64(i))
	}
	w.run(t)
	want := []int{1, 6, 4, 2, 3, 0, 5}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Fatalf("timeout order %v, want %v", order, want)
	}
	for i, tag := range order {
		if times[i] != kernel.Time(timeouts[tag]*time.Second) {
			t.Errorf("call %d timed out at %v, want %v", tag, times[i], timeouts[tag])
		}
	}
}

type completerFunc func(tag uint64, resp any, err error)

func (f completerFunc) Complete(tag uint64, resp any, err error) { f(tag, resp, err) }

// TestZeroCall: Reply on a zero Call is harmless.
func TestZeroCall(t *testing.T) {
	var c Call
	c.Reply("nobody")
}
