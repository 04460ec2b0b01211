package netsim

import (
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

// TestStreamOrder: with a wide jitter and delay spikes, stream messages still
// arrive in the order sent, never before their own latency, and each no
// earlier than the one before.
func TestStreamOrder(t *testing.T) {
	w := newWorld(3)
	must(t, w.n.SetDefault(LinkConfig{
		Latency: Latency{Base: ms(1), Jitter: ms(50), Dist: Exponential},
		Delay:   0.05, DelayExtra: ms(100),
		Reorder: 0.5, ReorderDelay: time.Second, Duplicate: 0.5, // must not apply
	}))
	box := &inbox{k: w.k}
	s := w.n.OpenStream(w.ep("apiserver"), w.ep("informer"), box)
	const N = 2000
	for i := range N {
		w.k.At(kernel.Time(i)*kernel.Time(time.Millisecond), func() { must(t, s.Send(i)) })
	}
	w.k.At(kernel.Time(N)*kernel.Time(time.Millisecond), s.Close)
	w.run(t)
	if len(box.got) != N {
		t.Fatalf("received %d, want %d", len(box.got), N)
	}
	overtaken := 0
	for i, g := range box.got {
		if g.payload != i {
			t.Fatalf("message %d carries %v: out of order", i, g.payload)
		}
		if g.at.Sub(g.sentAt) < ms(1) {
			t.Fatalf("message %d took %v, less than the base latency", i, g.at.Sub(g.sentAt))
		}
		if i > 0 && g.at < box.got[i-1].at {
			t.Fatalf("message %d arrived at %v before message %d at %v", i, g.at, i-1, box.got[i-1].at)
		}
		if i > 0 && g.at == box.got[i-1].at {
			overtaken++ // would have overtaken its predecessor as a datagram
		}
	}
	if overtaken == 0 {
		t.Error("no message was held back by its predecessor; the test does not exercise ordering")
	}
	if len(box.closes) != 1 || box.closes[0] != nil || box.closed[0] < box.got[N-1].at {
		t.Errorf("closes %v at %v, want one nil close after the last message", box.closes, box.closed)
	}
	if st := w.n.Stats(); st.Duplicated != 0 || st.Reordered != 0 || st.Delayed == 0 {
		t.Errorf("stats %+v: want no duplicates or reorders on a stream, some delay spikes", st)
	}
	if err := s.Send("late"); !errors.Is(err, ErrStreamClosed) || !s.Closed() {
		t.Errorf("Send after Close = %v, Closed() = %v", err, s.Closed())
	}
}

// TestStreamEnds covers every way a stream can end or lose messages.
func TestStreamEnds(t *testing.T) {
	lat := ms(10)
	type step struct {
		at  time.Duration
		act func(w *world, s *Stream)
	}
	send := func(at time.Duration, v any) step {
		return step{at, func(w *world, s *Stream) { _ = s.Send(v) }}
	}
	setDrop := func(at time.Duration, p float64) step {
		return step{at, func(w *world, s *Stream) {
			must(t, w.n.SetLink("srv", "cli", LinkConfig{Latency: Latency{Base: lat}, StreamBreak: p}))
		}}
	}
	tests := []struct {
		name     string
		steps    []step
		want     string // payloads received
		wantEnd  error  // nil with wantEnds 0: no Closed call
		wantEnds int
		endAt    time.Duration
		want2    Stats // DropLink, DropPartition, DropUnreachable, DropLoss, DropBroken, Breaks
	}{
		{
			name:  "close after in-flight messages",
			steps: []step{send(0, 1), send(1*time.Millisecond, 2), {2 * time.Millisecond, func(w *world, s *Stream) { s.Close() }}},
			want:  "[1 2]", wantEnds: 1, endAt: 12 * time.Millisecond,
		},
		{
			name: "drop breaks the stream",
			steps: []step{send(0, 1), setDrop(1*time.Millisecond, 1), send(2*time.Millisecond, 2),
				setDrop(3*time.Millisecond, 0), send(4*time.Millisecond, 3), send(5*time.Millisecond, 4)},
			want: "[1]", wantEnd: ErrStreamBroken, wantEnds: 1, endAt: 12 * time.Millisecond,
			want2: Stats{DropLink: 1, DropBroken: 2, Breaks: 1},
		},
		{
			name: "partition at send breaks the stream",
			steps: []step{send(0, 1), {11 * time.Millisecond, func(w *world, s *Stream) {
				must(t, w.n.Partition("p", []Addr{"srv"}, []Addr{"cli"}, true))
			}}, send(12*time.Millisecond, 2), send(13*time.Millisecond, 3)},
			want: "[1]", wantEnd: ErrStreamBroken, wantEnds: 1, endAt: 22 * time.Millisecond,
			want2: Stats{DropPartition: 1, DropBroken: 1, Breaks: 1},
		},
		{
			name: "partition in flight breaks the stream on arrival",
			steps: []step{send(0, 1), send(1*time.Millisecond, 2), send(2*time.Millisecond, 3), {5 * time.Millisecond, func(w *world, s *Stream) {
				must(t, w.n.Partition("p", []Addr{"cli"}, []Addr{"srv"}, false))
			}}, {6 * time.Millisecond, func(w *world, s *Stream) { must(t, w.n.Heal("p")) }},
				{10500 * time.Microsecond, func(w *world, s *Stream) {
					must(t, w.n.Partition("p", []Addr{"cli"}, []Addr{"srv"}, false))
				}}},
			want: "[1]", wantEnd: ErrStreamBroken, wantEnds: 1, endAt: 11 * time.Millisecond,
			want2: Stats{DropPartition: 1, DropBroken: 1, Breaks: 1},
		},
		{
			name: "one-way partition the other way does not break it",
			steps: []step{{0, func(w *world, s *Stream) {
				must(t, w.n.Partition("p", []Addr{"cli"}, []Addr{"srv"}, true))
			}}, send(1*time.Millisecond, 1)},
			want: "[1]",
		},
		{
			name: "lose next",
			steps: []step{send(0, 1), {0, func(w *world, s *Stream) { s.LoseNext(2); s.LoseNext(-5) }},
				send(1*time.Millisecond, 2), send(2*time.Millisecond, 3), send(3*time.Millisecond, 4)},
			want:  "[1 4]",
			want2: Stats{DropLoss: 2},
		},
		{
			name: "stream loss probability",
			steps: []step{send(0, 1), {0, func(w *world, s *Stream) { must(t, w.n.SetStreamLoss("srv", "cli", 1)) }},
				send(1*time.Millisecond, 2), {2 * time.Millisecond, func(w *world, s *Stream) { must(t, w.n.SetStreamLoss("srv", "cli", 0)) }},
				send(3*time.Millisecond, 3)},
			want:  "[1 3]",
			want2: Stats{DropLoss: 1},
		},
		{
			name: "client stops",
			steps: []step{send(0, 1), send(1*time.Millisecond, 2), {10500 * time.Microsecond, func(w *world, s *Stream) { s.Stop() }},
				send(12*time.Millisecond, 3)},
			want:  "[1]",
			want2: Stats{DropBroken: 1},
		},
		{
			name: "client goes down",
			steps: []step{send(0, 1), {5 * time.Millisecond, func(w *world, s *Stream) { w.ep("cli").SetDown(true) }},
				send(6*time.Millisecond, 2)},
			want: "[]", wantEnd: ErrStreamBroken, wantEnds: 1, endAt: 10 * time.Millisecond,
			want2: Stats{Breaks: 1, DropUnreachable: 2}, // one in flight, one at send
		},
		{
			name: "close across a partition is a break",
			steps: []step{send(0, 1), {1 * time.Millisecond, func(w *world, s *Stream) { s.Close() }},
				{5 * time.Millisecond, func(w *world, s *Stream) {
					must(t, w.n.Partition("p", []Addr{"cli"}, []Addr{"srv"}, false))
				}}},
			want: "[]", wantEnd: ErrStreamBroken, wantEnds: 1, endAt: 10 * time.Millisecond,
			want2: Stats{DropPartition: 1, Breaks: 1},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(1)
			must(t, w.n.SetDefault(LinkConfig{Latency: Latency{Base: lat}}))
			box := &inbox{k: w.k}
			s := w.n.OpenStream(w.ep("srv"), w.ep("cli"), box)
			for _, st := range tc.steps {
				w.k.At(kernel.Time(st.at), func() { st.act(w, s) })
			}
			w.run(t)
			if got := fmt.Sprint(box.payloads()); got != tc.want {
				t.Errorf("received %s, want %s", got, tc.want)
			}
			if len(box.closes) != tc.wantEnds {
				t.Fatalf("Closed called %d times (%v), want %d", len(box.closes), box.closes, tc.wantEnds)
			}
			if tc.wantEnds > 0 {
				if box.closes[0] != tc.wantEnd || box.closed[0] != kernel.Time(tc.endAt) {
					t.Errorf("Closed(%v) at %v, want Closed(%v) at %v", box.closes[0], box.closed[0], tc.wantEnd, kernel.Time(tc.endAt))
				}
				if !s.Closed() {
					t.Error("server does not see the stream closed")
				}
			}
			st := w.n.Stats()
			got := Stats{DropLink: st.DropLink, DropPartition: st.DropPartition, DropUnreachable: st.DropUnreachable,
				DropLoss: st.DropLoss, DropBroken: st.DropBroken, Breaks: st.Breaks}
			if got != tc.want2 {
				t.Errorf("stats %+v, want %+v", got, tc.want2)
			}
		})
	}
}

// TestStreamBrokenSenderLearnsLate: between a break and its delivery the
// server's sends are accepted (and lost); afterwards Send reports the close.
func TestStreamBrokenSenderLearnsLate(t *testing.T) {
	w := newWorld(1)
	must(t, w.n.SetDefault(LinkConfig{Latency: Latency{Base: ms(10)}, StreamBreak: 1}))
	box := &inbox{k: w.k}
	s := w.n.OpenStream(w.ep("srv"), w.ep("cli"), box)
	var errs []error
	w.k.At(0, func() { errs = append(errs, s.Send(1), s.Send(2)) })
	w.k.At(kernel.Time(ms(20)), func() { errs = append(errs, s.Send(3)) })
	w.run(t)
	if fmt.Sprint(errs) != fmt.Sprint([]error{nil, nil, ErrStreamClosed}) {
		t.Errorf("Send errors %v", errs)
	}
}

// TestStreamIgnoresDrop: a link's Drop loses calls and datagrams but not
// stream messages, which a connection's transport would retransmit.
func TestStreamIgnoresDrop(t *testing.T) {
	w := newWorld(1)
	must(t, w.n.SetDefault(LinkConfig{Latency: Latency{Base: ms(1)}, Drop: 1}))
	box := &inbox{k: w.k}
	s := w.n.OpenStream(w.ep("srv"), w.ep("cli"), box)
	w.k.At(0, func() {
		for i := range 100 {
			if err := s.Send(i); err != nil {
				t.Errorf("send %d: %v", i, err)
			}
		}
	})
	w.run(t)
	if got := len(box.payloads()); got != 100 {
		t.Errorf("delivered %d of 100 stream messages over a Drop=1 link", got)
	}
}

// TestStreamOpenUnreachable: a stream to a nil, down or partitioned client
// breaks after one latency; one with a nil receiver drops its messages.
func TestStreamOpenUnreachable(t *testing.T) {
	tests := []struct {
		name  string
		setup func(w *world) (*Endpoint, *Endpoint)
		endAt kernel.Time
	}{
		{"nil client", func(w *world) (*Endpoint, *Endpoint) { return w.ep("srv"), nil }, 0},
		{"down client", func(w *world) (*Endpoint, *Endpoint) { w.ep("cli").SetDown(true); return w.ep("srv"), w.ep("cli") }, kernel.Time(ms(10))},
		{"partitioned", func(w *world) (*Endpoint, *Endpoint) {
			must(t, w.n.Partition("p", []Addr{"srv"}, []Addr{"cli"}, false))
			return w.ep("srv"), w.ep("cli")
		}, kernel.Time(ms(10))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(1)
			must(t, w.n.SetDefault(LinkConfig{Latency: Latency{Base: ms(10)}}))
			box := &inbox{k: w.k}
			from, to := tc.setup(w)
			s := w.n.OpenStream(from, to, box)
			if err := s.Send("x"); err != nil {
				t.Errorf("Send before the break is known = %v", err)
			}
			w.run(t)
			if len(box.got) != 0 || len(box.closes) != 1 || box.closes[0] != ErrStreamBroken || box.closed[0] != tc.endAt {
				t.Errorf("got %v, closes %v at %v; want only a break at %v", box.got, box.closes, box.closed, tc.endAt)
			}
			if err := s.Send("y"); err != ErrStreamClosed {
				t.Errorf("Send after the break = %v", err)
			}
		})
	}
	w := newWorld(1)
	s := w.n.OpenStream(w.ep("srv"), w.ep("cli"), nil)
	must(t, s.Send("nobody listens"))
	s.Close()
	w.run(t)
	if st := w.n.Stats(); st.DropUnreachable != 1 {
		t.Errorf("nil receiver: stats %+v", st)
	}
}

// TestStreamOnClosed checks OnClosed: its function runs once, at the
// moment Closed turns true, whichever end or fault closes the stream,
// and at once for a stream already closed when it is given.
func TestStreamOnClosed(t *testing.T) {
	lat := ms(10)
	tests := []struct {
		name   string
		link   LinkConfig
		before func(s *Stream) // before OnClosed
		act    func(s *Stream) // at 5 ms
		want   []kernel.Time   // when the function ran
	}{
		{"client stops", LinkConfig{}, nil, func(s *Stream) { s.Stop(); s.Stop(); s.Close() }, []kernel.Time{kernel.Time(ms(5))}},
		{"server closes", LinkConfig{}, nil, func(s *Stream) { s.Close(); s.Stop() }, []kernel.Time{kernel.Time(ms(5))}},
		{"break delivered", LinkConfig{StreamBreak: 1}, nil, func(s *Stream) { _ = s.Send(1) }, []kernel.Time{kernel.Time(ms(15))}},
		{"already closed", LinkConfig{}, func(s *Stream) { s.Stop() }, func(s *Stream) { s.Close() }, []kernel.Time{0}},
		{"open to the end", LinkConfig{}, nil, func(s *Stream) { _ = s.Send(1) }, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(1)
			tc.link.Latency = Latency{Base: lat}
			must(t, w.n.SetDefault(tc.link))
			s := w.n.OpenStream(w.ep("srv"), w.ep("cli"), &inbox{k: w.k})
			if tc.before != nil {
				tc.before(s)
			}
			var ran []kernel.Time
			s.OnClosed(func() {
				if !s.Closed() {
					t.Error("the function ran before Closed turned true")
				}
				ran = append(ran, w.k.Now())
			})
			w.k.At(kernel.Time(ms(5)), func() { tc.act(s) })
			w.run(t)
			if fmt.Sprint(ran) != fmt.Sprint(tc.want) {
				t.Errorf("the function ran at %v, want %v", ran, tc.want)
			}
		})
	}
}

// TestDelaysSaturate: delays whose sum passes 2^63 ns (a base latency and
// a jitter, a reorder or a delay spike, a stream's lag, each as long as a
// duration can be) deliver at kernel.Forever; the sum wrapped to a
// negative instant and the kernel stopped with its time-monotonic
// invariant.
func TestDelaysSaturate(t *testing.T) {
	const most = time.Duration(math.MaxInt64)
	for _, tc := range []struct {
		name   string
		cfg    LinkConfig
		stream bool
	}{
		{"base and uniform jitter", LinkConfig{Latency: Latency{Base: most, Jitter: most}}, false},
		{"base and exponential jitter", LinkConfig{Latency: Latency{Base: most, Jitter: most, Dist: Exponential}}, false},
		{"base and reorder", LinkConfig{Latency: Latency{Base: most}, Reorder: 1, ReorderDelay: most}, false},
		{"base and spike", LinkConfig{Latency: Latency{Base: most}, Delay: 1, DelayExtra: most}, false},
		{"stream lag and spike", LinkConfig{Latency: Latency{Base: most}, StreamLag: most, Delay: 1, DelayExtra: most}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(1)
			must(t, w.n.SetDefault(tc.cfg))
			box := w.inbox("b")
			w.k.At(1, func() {
				if tc.stream {
					s := w.n.OpenStream(w.ep("a"), w.ep("b"), box)
					must(t, s.Send("x"))
					return
				}
				w.n.Send(w.ep("a"), w.ep("b"), "x")
			})
			w.k.Run(kernel.Limits{})
			if len(box.got) != 1 || box.got[0].at != kernel.Forever {
				t.Errorf("got %+v, want one delivery at kernel.Forever", box.got)
			}
			if m := tc.cfg.Latency.Mean(); m < 0 {
				t.Errorf("Mean() = %v, wrapped", m)
			}
		})
	}
}
