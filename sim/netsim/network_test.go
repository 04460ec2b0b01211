package netsim

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/kernel"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  LinkConfig
		bad  string // substring of the error; "" means valid
	}{
		{"zero", LinkConfig{}, ""},
		{"everything in range", LinkConfig{Latency: Latency{Base: 1, Jitter: 2, Dist: Exponential}, Drop: 1, Duplicate: 0.5,
			Reorder: 0.1, ReorderDelay: 3, Delay: 0.2, DelayExtra: 4, StreamLoss: 0}, ""},
		{"negative drop", LinkConfig{Drop: -0.1}, "drop -0.1 not in [0, 1]"},
		{"drop above one", LinkConfig{Drop: 1.5}, "drop 1.5 not in [0, 1]"},
		{"NaN duplicate", LinkConfig{Duplicate: math.NaN()}, "duplicate NaN"},
		{"reorder above one", LinkConfig{Reorder: 2}, "reorder 2"},
		{"delay negative", LinkConfig{Delay: -1}, "delay -1"},
		{"stream loss", LinkConfig{StreamLoss: 1.01}, "streamLoss 1.01"},
		{"negative base", LinkConfig{Latency: Latency{Base: -1}}, "latency.base -1ns is negative"},
		{"negative jitter", LinkConfig{Latency: Latency{Jitter: -time.Second}}, "latency.jitter -1s is negative"},
		{"negative reorder delay", LinkConfig{ReorderDelay: -1}, "reorderDelay"},
		{"negative delay extra", LinkConfig{DelayExtra: -1}, "delayExtra"},
		{"unknown dist", LinkConfig{Latency: Latency{Dist: 9}}, "latency.dist Dist(9) unknown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			if tc.bad == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tc.bad) {
				t.Fatalf("Validate() = %v, want ErrInvalidConfig mentioning %q", err, tc.bad)
			}
			n := New(kernel.New(1))
			if err := n.SetLink("a", "b", tc.cfg); !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), "link a->b") {
				t.Errorf("SetLink = %v", err)
			}
			if err := n.SetDefault(tc.cfg); !errors.Is(err, ErrInvalidConfig) {
				t.Errorf("SetDefault = %v", err)
			}
			if err := n.SetLinkBoth("a", "b", tc.cfg); !errors.Is(err, ErrInvalidConfig) {
				t.Errorf("SetLinkBoth = %v", err)
			}
			if n.Link("a", "b") != (LinkConfig{}) || n.Default() != (LinkConfig{}) {
				t.Error("a rejected configuration was applied")
			}
		})
	}
	if err := New(kernel.New(1)).SetStreamLoss("a", "b", 2); !errors.Is(err, ErrInvalidConfig) {
		t.Errorf("SetStreamLoss(2) = %v", err)
	}
}

// TestLinkConfigLifecycle: overrides beat the default, the default follows
// into existing links, ClearLink reverts, and the latency seen by traffic
// follows the configuration in force at send time.
func TestLinkConfigLifecycle(t *testing.T) {
	w := newWorld(1)
	box := w.inbox("b")
	a, b := w.ep("a"), w.ep("b")
	lat := func(d time.Duration) LinkConfig { return LinkConfig{Latency: Latency{Base: d}} }
	var want []time.Duration
	step := func(d time.Duration) {
		w.n.Send(a, b, nil)
		want = append(want, d)
		w.k.Run(kernel.Limits{})
	}
	step(0) // creates the link with the zero default
	must(t, w.n.SetDefault(lat(ms(5))))
	step(ms(5))
	must(t, w.n.SetLinkBoth("a", "b", lat(ms(7))))
	step(ms(7))
	must(t, w.n.SetDefault(lat(ms(9))))
	step(ms(7)) // the override wins
	if w.n.Link("a", "b") != lat(ms(7)) || w.n.Link("b", "a") != lat(ms(7)) || w.n.Link("a", "zzz") != lat(ms(9)) {
		t.Errorf("Link() does not report the configuration in force")
	}
	must(t, w.n.SetStreamLoss("a", "b", 0.25))
	if got := w.n.Link("a", "b"); got.StreamLoss != 0.25 || got.Latency.Base != ms(7) {
		t.Errorf("SetStreamLoss changed other fields: %+v", got)
	}
	w.n.ClearLink("a", "b")
	step(ms(9))
	for i, g := range box.got {
		if d := g.at.Sub(g.sentAt); d != want[i] {
			t.Errorf("message %d took %v, want %v", i, d, want[i])
		}
	}
	links := w.n.Links()
	if len(links) != 2 || links[0].From != "a" || links[1].From != "b" || links[0].Config != lat(ms(9)) || links[1].Config != lat(ms(7)) {
		t.Errorf("Links() = %+v", links)
	}
	if links[0].Stats.Delivered != 5 || links[1].Stats.Sent != 0 {
		t.Errorf("link stats %+v", links)
	}
	checkQuiet(t, w.n)
}

func TestEndpoints(t *testing.T) {
	n := New(kernel.New(1))
	names := []Addr{"apiserver", "kubelet/node-1", "controller/deployment", "apiserver"}
	var ids []int
	for _, a := range names {
		ids = append(ids, n.Endpoint(a).ID())
	}
	if fmt.Sprint(ids) != "[0 1 2 0]" {
		t.Errorf("ids %v, want registration order and the same id for the same name", ids)
	}
	if e, ok := n.Lookup("kubelet/node-1"); !ok || e.Addr() != "kubelet/node-1" || e.String() != "kubelet/node-1" {
		t.Errorf("Lookup = %v, %v", e, ok)
	}
	if _, ok := n.Lookup("nobody"); ok || len(n.Endpoints()) != 3 {
		t.Errorf("Lookup registered a name, or Endpoints() = %v", n.Endpoints())
	}
	var nilEp *Endpoint
	if nilEp.Addr() != "" || nilEp.ID() != -1 {
		t.Error("nil endpoint accessors")
	}
	// An endpoint can send to itself.
	k := n.Kernel()
	self := n.Endpoint("self")
	box := &inbox{k: k}
	self.SetReceiver(box)
	n.Send(self, self, "loop")
	k.Run(kernel.Limits{})
	if len(box.got) != 1 {
		t.Errorf("self-send delivered %d", len(box.got))
	}
	checkQuiet(t, n)
}

// TestLinkStreamsIndependent: heavy traffic on other links does not move a
// single draw of the link a->b: its deliveries are identical with and
// without the noise.
func TestLinkStreamsIndependent(t *testing.T) {
	run := func(noise bool) string {
		w := newWorld(11)
		must(t, w.n.SetDefault(LinkConfig{Latency: Latency{Base: ms(1), Jitter: ms(20), Dist: Exponential},
			Drop: 0.2, Duplicate: 0.1, Reorder: 0.1, ReorderDelay: ms(30), Delay: 0.1, DelayExtra: ms(50)}))
		box := w.inbox("b")
		w.inbox("c")
		a, b, c := w.ep("a"), w.ep("b"), w.ep("c")
		for i := range 500 {
			w.k.At(kernel.Time(i)*kernel.Time(time.Millisecond), func() {
				if noise {
					w.n.Send(c, b, "noise")
					w.n.Send(a, c, "noise")
					w.n.Send(b, a, "noise")
				}
				w.n.Send(a, b, i)
			})
		}
		w.run(t)
		var sb strings.Builder
		for _, g := range box.got {
			if g.payload != "noise" {
				fmt.Fprintf(&sb, "%v@%v ", g.payload, g.at)
			}
		}
		return sb.String()
	}
	quiet, noisy := run(false), run(true)
	if quiet != noisy {
		t.Errorf("a->b deliveries changed with traffic on other links:\nquiet %.200s\nnoisy %.200s", quiet, noisy)
	}
}

// scenario drives a small cluster's traffic through every fault and returns
// the full trace plus what each party saw.
func scenario(t *testing.T, seed uint64) (string, *Network) {
	w := newWorld(seed)
	var sb strings.Builder
	counts := map[Op]uint64{}
	w.n.SetTracer(TracerFunc(func(r Record) {
		counts[r.Op]++
		sb.WriteString(r.String())
		sb.WriteByte('\n')
	}))
	must(t, w.n.SetDefault(LinkConfig{Latency: Latency{Base: ms(1), Jitter: ms(4)},
		Drop: 0.05, Duplicate: 0.05, Reorder: 0.1, ReorderDelay: ms(5), Delay: 0.05, DelayExtra: ms(50)}))
	must(t, w.n.SetLink("apiserver", "controller/deployment", LinkConfig{Latency: Latency{Base: ms(2), Jitter: ms(10), Dist: Exponential}, Drop: 0.02, StreamLoss: 0.02}))
	api := w.ep("apiserver")
	rng := w.k.Rand("test/apiserver")
	api.SetServer(ServerFunc(func(c Call) {
		if rng.IntN(4) == 0 {
			w.k.At(w.k.Now().Add(time.Duration(rng.IntN(30))*time.Millisecond), func() { c.Reply(c.Req) })
			return
		}
		c.Reply(c.Req)
	}))
	api.SetReceiver(ReceiverFunc(func(m *Message) {
		fmt.Fprintf(&sb, "%v apiserver heard %v from %s\n", w.k.Now(), m.Payload, m.From)
	}))
	ctrl := w.ep("controller/deployment")
	var watch func()
	events := 0
	watch = func() {
		s := w.n.OpenStream(api, ctrl, &logStream{sb: &sb, k: w.k, reopen: func() {
			w.k.At(w.k.Now().Add(ms(10)), watch)
		}})
		var tick func()
		tick = func() {
			events++
			if s.Send(events) == nil && w.k.Now() < kernel.Time(2*time.Second) {
				w.k.At(w.k.Now().Add(ms(20)), tick)
			}
		}
		tick()
	}
	watch()
	for i := 1; i <= 3; i++ {
		node := w.ep(Addr(fmt.Sprintf("kubelet/node-%d", i)))
		for j := range 20 {
			w.k.At(kernel.Time(j)*kernel.Time(100*time.Millisecond), func() { w.n.Send(node, api, j) })
		}
	}
	w.k.Spawn("controller/deployment", func(p *kernel.Process) {
		for i := range 200 {
			resp, err := w.n.Call(p, ctrl, api, i, 50*time.Millisecond)
			fmt.Fprintf(&sb, "%v call %d -> %v %v\n", p.Now(), i, resp, err)
			p.Sleep(ms(10))
		}
	})
	w.k.At(kernel.Time(500*time.Millisecond), func() {
		must(t, w.n.Partition("zone-b", []Addr{"kubelet/node-2", "controller/deployment"}, []Addr{"apiserver"}, false))
	})
	w.k.At(kernel.Time(time.Second), func() { must(t, w.n.Heal("zone-b")) })
	w.k.Run(kernel.Limits{})
	checkQuiet(t, w.n)
	for _, l := range w.n.Links() {
		fmt.Fprintf(&sb, "%s->%s %+v\n", l.From, l.To, l.Stats)
	}
	st := w.n.Stats()
	wantCounts := map[Op]uint64{OpSend: st.Sent, OpDuplicate: st.Duplicated, OpDeliver: st.Delivered, OpDrop: st.Dropped(),
		OpTimeout: st.Timeouts, OpDiscard: st.Discarded, OpBreak: st.Breaks}
	for op, want := range wantCounts {
		if counts[op] != want {
			t.Errorf("seed %d: %d %v records, stats say %d", seed, counts[op], op, want)
		}
	}
	return sb.String(), w.n
}

type logStream struct {
	sb     *strings.Builder
	k      *kernel.Kernel
	reopen func()
}

func (l *logStream) Receive(m *Message) {
	fmt.Fprintf(l.sb, "%v watch %d event %v\n", l.k.Now(), m.Stream.ID(), m.Payload)
}

func (l *logStream) Closed(s *Stream, err error) {
	fmt.Fprintf(l.sb, "%v watch %d closed: %v\n", l.k.Now(), s.ID(), err)
	l.reopen()
}

// TestDeterminism: one seed gives byte-identical traces; another seed gives
// a different one. The scenario must exercise every fault.
func TestDeterminism(t *testing.T) {
	a, n := scenario(t, 1)
	b, _ := scenario(t, 1)
	c, _ := scenario(t, 2)
	if a != b {
		i := 0
		for i < len(a) && i < len(b) && a[i] == b[i] {
			i++
		}
		t.Fatalf("same seed, different traces; first difference at byte %d:\n%.300s\n---\n%.300s", i, a[i:], b[i:])
	}
	if a == c {
		t.Error("seeds 1 and 2 gave the same trace")
	}
	st := n.Stats()
	for name, v := range map[string]uint64{"drops": st.DropLink, "partition drops": st.DropPartition, "duplicates": st.Duplicated,
		"reorders": st.Reordered, "spikes": st.Delayed, "timeouts": st.Timeouts, "breaks": st.Breaks, "losses": st.DropLoss, "discards": st.Discarded} {
		if v == 0 {
			t.Errorf("the scenario produced no %s; it does not exercise them", name)
		}
	}
	t.Logf("trace: %d bytes, stats %+v", len(a), st)
}

func TestEnumStrings(t *testing.T) {
	got := fmt.Sprint(Uniform, Exponential, Constant, Dist(7), OpSend, OpDuplicate, OpDeliver, OpDrop, OpDiscard, OpTimeout,
		OpBreak, OpClose, Op(99), Datagram, Request, Reply, StreamData, Kind(99),
		CauseNone, CauseLink, CausePartition, CauseUnreachable, CauseLoss, CauseBroken, Cause(99))
	want := "uniform exponential constant Dist(7) send duplicate deliver drop discard timeout break close Op(99) " +
		"datagram request reply stream Kind(99) none link partition unreachable loss broken Cause(99)"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
