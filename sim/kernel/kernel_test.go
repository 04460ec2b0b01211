package kernel

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// recorder is a Handler that appends (time, arg) pairs.
type recorder struct {
	got []fired
}

type fired struct {
	at  Time
	arg uint64
}

func (r *recorder) Fire(k *Kernel, arg uint64) { r.got = append(r.got, fired{k.Now(), arg}) }

func TestQueueOrdersByTimeThenSequence(t *testing.T) {
	k := New(1)
	r := &recorder{}
	rng := rand.New(rand.NewPCG(7, 7))
	type want struct {
		at  Time
		seq int
	}
	var wants []want
	for i := range 5000 {
		// Many ties, tens of milliseconds apart: the events scheduled
		// more than nearHorizon ahead go into the queue's far heap.
		at := Time(rng.IntN(100)) * Time(10*time.Millisecond)
		k.Schedule(at, r, uint64(i))
		wants = append(wants, want{at, i})
	}
	slices.SortStableFunc(wants, func(a, b want) int { return int(a.at - b.at) })
	if reason := k.Run(Limits{}); reason != Quiescent {
		t.Fatalf("Run = %v, want quiescent", reason)
	}
	if len(r.got) != len(wants) {
		t.Fatalf("fired %d events, want %d", len(r.got), len(wants))
	}
	for i, w := range wants {
		if r.got[i].at != w.at || r.got[i].arg != uint64(w.seq) {
			t.Fatalf("event %d = %+v, want time %v arg %d", i, r.got[i], w.at, w.seq)
		}
	}
}

func TestRunLimits(t *testing.T) {
	tests := []struct {
		name      string
		lim       Limits
		stopAt    int // arg whose firing calls Stop; -1 none
		want      StopReason
		wantFired int
		wantNow   Time
	}{
		{"quiescent", Limits{}, -1, Quiescent, 10, 90},
		{"until inclusive", Limits{Until: 50}, -1, TimeLimit, 6, 50},
		{"until between events", Limits{Until: 55}, -1, TimeLimit, 6, 55},
		{"until past last event", Limits{Until: 500}, -1, TimeLimit, 10, 500},
		{"event cap", Limits{MaxEvents: 3}, -1, EventCap, 3, 20},
		{"stop", Limits{}, 4, Stopped, 5, 40},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := New(1)
			n := 0
			for i := range 10 {
				k.At(Time(i*10), func() {
					n++
					if i == tc.stopAt {
						k.Stop()
					}
				})
			}
			if got := k.Run(tc.lim); got != tc.want {
				t.Errorf("Run = %v, want %v", got, tc.want)
			}
			if n != tc.wantFired {
				t.Errorf("fired %d, want %d", n, tc.wantFired)
			}
			if k.Now() != tc.wantNow {
				t.Errorf("now = %v, want %v", k.Now(), tc.wantNow)
			}
		})
	}
}

func TestScheduleInThePastPanics(t *testing.T) {
	k := New(1)
	k.At(10, func() {})
	k.Run(Limits{})
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "time-monotonic") {
			t.Fatalf("recover = %v, want time-monotonic invariant panic", r)
		}
	}()
	k.Schedule(5, Func(func() {}), 0)
}

func TestStreamsAreIndependentAndStable(t *testing.T) {
	draw := func(s *Streams, name string, n int) []uint64 {
		r := s.Get(name)
		out := make([]uint64, n)
		for i := range out {
			out[i] = r.Uint64()
		}
		return out
	}
	a := NewStreams(42)
	linkA := draw(a, "net/link/a->b", 5)

	// A second family with an extra stream drawn first: the link's draws
	// must not shift.
	b := NewStreams(42)
	draw(b, "controller/scheduler", 100)
	if linkB := draw(b, "net/link/a->b", 5); !slices.Equal(linkA, linkB) {
		t.Errorf("adding a stream shifted another: %v vs %v", linkA, linkB)
	}
	if other := draw(NewStreams(43), "net/link/a->b", 5); slices.Equal(linkA, other) {
		t.Errorf("different root seeds gave the same draws")
	}
	if sib := draw(NewStreams(42), "net/link/b->a", 5); slices.Equal(linkA, sib) {
		t.Errorf("different names gave the same draws")
	}
	// Get continues a stream rather than restarting it.
	if next := draw(a, "net/link/a->b", 5); slices.Equal(linkA, next) {
		t.Errorf("second Get restarted the stream")
	}
	// Get's stream is Source's sequence for the name: the Rand and PCG
	// it makes together draw what a fresh source does.
	src := rand.New(NewStreams(42).Source("net/link/a->b"))
	for i, v := range linkA {
		if w := src.Uint64(); v != w {
			t.Fatalf("draw %d of Get's stream is %d, Source's %d", i, v, w)
		}
	}
}

func TestTimeString(t *testing.T) {
	tests := []struct {
		t    Time
		want string
	}{
		{0, "t=0.000s"},
		{Time(1500 * time.Millisecond), "t=1.500s"},
		{Time(90*time.Second + 7*time.Millisecond), "t=90.007s"},
		{Time(-2 * time.Millisecond), "t=-0.002s"},
		{Forever, "t=forever"},
	}
	for _, tc := range tests {
		if got := tc.t.String(); got != tc.want {
			t.Errorf("%d.String() = %q, want %q", int64(tc.t), got, tc.want)
		}
	}
	if got := Time(0).Add(time.Duration(1 << 62)).Add(time.Duration(1 << 62)); got != Forever {
		t.Errorf("Add did not saturate: %d", got)
	}
	if w := Time(time.Hour).Wall(); !w.Equal(Epoch.Add(time.Hour)) {
		t.Errorf("Wall = %v", w)
	}
	if FromWall(Epoch.Add(time.Minute)) != Time(time.Minute) {
		t.Errorf("FromWall disagrees with Wall")
	}
}

func TestProcessSleepAndOrder(t *testing.T) {
	k := New(1)
	var log []string
	for _, name := range []string{"a", "b", "c"} {
		k.Spawn(name, func(p *Process) {
			for i := range 3 {
				log = append(log, name+p.Now().String())
				p.Sleep(time.Duration(i+1) * time.Second)
			}
		})
	}
	k.Run(Limits{})
	want := []string{
		"at=0.000s", "bt=0.000s", "ct=0.000s",
		"at=1.000s", "bt=1.000s", "ct=1.000s",
		"at=3.000s", "bt=3.000s", "ct=3.000s",
	}
	if !slices.Equal(log, want) {
		t.Errorf("log = %v\nwant %v", log, want)
	}
	if k.Live() != 0 {
		t.Errorf("live = %d after all returned", k.Live())
	}
}

func TestParkWakeAndTimeout(t *testing.T) {
	k := New(1)
	var results []string
	var waiter *Process
	waiter = k.Spawn("waiter", func(p *Process) {
		woken := p.ParkFor(5 * time.Second)
		results = append(results, p.Now().String(), boolWord(woken))
		woken = p.ParkFor(5 * time.Second)
		results = append(results, p.Now().String(), boolWord(woken))
	})
	k.At(Time(2*time.Second), func() {
		waiter.Wake()
		waiter.Wake() // a second wake is a no-op
	})
	k.Run(Limits{})
	want := []string{"t=2.000s", "woken", "t=7.000s", "timeout"}
	if !slices.Equal(results, want) {
		t.Errorf("results = %v, want %v", results, want)
	}
}

func boolWord(woken bool) string {
	if woken {
		return "woken"
	}
	return "timeout"
}

func TestKillParkedProcessUnwinds(t *testing.T) {
	k := New(1)
	var cleaned, after bool
	p := k.Spawn("victim", func(p *Process) {
		defer func() { cleaned = true }()
		p.Park()
		after = true
	})
	k.At(Time(time.Second), func() { p.Kill() })
	k.Run(Limits{})
	if !cleaned || after {
		t.Errorf("cleaned=%v after=%v, want deferred cleanup only", cleaned, after)
	}
	if !p.Done() || !p.Killed() || k.Live() != 0 {
		t.Errorf("done=%v killed=%v live=%d", p.Done(), p.Killed(), k.Live())
	}
	p.Wake() // waking a dead process is harmless
	p.Kill()
}

func TestKillSelfStopsAtNextBlock(t *testing.T) {
	k := New(1)
	var steps []string
	k.Spawn("self", func(p *Process) {
		steps = append(steps, "before")
		p.Kill()
		steps = append(steps, "still running until it blocks")
		p.Sleep(time.Second)
		steps = append(steps, "never")
	})
	k.Run(Limits{})
	if want := []string{"before", "still running until it blocks"}; !slices.Equal(steps, want) {
		t.Errorf("steps = %v, want %v", steps, want)
	}
}

func TestKillBeforeStart(t *testing.T) {
	k := New(1)
	ran := false
	p := k.Spawn("never", func(*Process) { ran = true })
	p.Kill()
	k.Run(Limits{})
	if ran || !p.Done() || k.Live() != 0 {
		t.Errorf("ran=%v done=%v live=%d", ran, p.Done(), k.Live())
	}
}

func TestKillFromAnotherProcess(t *testing.T) {
	k := New(1)
	var victimSteps int
	victim := k.Spawn("victim", func(p *Process) {
		for {
			victimSteps++
			p.Sleep(time.Second)
		}
	})
	k.Spawn("killer", func(p *Process) {
		p.Sleep(2500 * time.Millisecond)
		victim.Kill()
		p.Sleep(time.Second)
	})
	k.Run(Limits{})
	if victimSteps != 3 || !victim.Done() {
		t.Errorf("victim steps=%d done=%v, want 3 steps then dead", victimSteps, victim.Done())
	}
}

func TestProcessPanicCarriesName(t *testing.T) {
	k := New(1)
	k.Spawn("broken", func(p *Process) {
		p.Sleep(time.Second)
		panic("boom")
	})
	defer func() {
		r := recover()
		pp, ok := r.(*ProcessPanic)
		if !ok {
			t.Fatalf("recover = %#v, want *ProcessPanic", r)
		}
		if pp.Process != "broken" || pp.Value != "boom" || !strings.Contains(pp.Error(), "boom") {
			t.Errorf("panic = %v", pp)
		}
		var target *ProcessPanic
		if !errors.As(error(pp), &target) {
			t.Errorf("ProcessPanic is not an error")
		}
	}()
	k.Run(Limits{})
}

func TestBlockOutsideProcessPanics(t *testing.T) {
	k := New(1)
	var p *Process
	p = k.Spawn("p", func(p *Process) { p.Park() })
	k.Run(Limits{})
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "one-runner") {
			t.Fatalf("recover = %v, want one-runner invariant", r)
		}
	}()
	p.Sleep(time.Second)
}

func TestWaitListFIFO(t *testing.T) {
	k := New(1)
	var w WaitList
	var order []string
	for _, name := range []string{"first", "second", "third"} {
		k.Spawn(name, func(p *Process) {
			w.Wait(p)
			order = append(order, name)
		})
	}
	k.At(Time(time.Second), func() {
		w.WakeOne()
		w.WakeOne()
	})
	k.At(Time(2*time.Second), func() { w.WakeAll() })
	k.Run(Limits{})
	if want := []string{"first", "second", "third"}; !slices.Equal(order, want) {
		t.Errorf("order = %v, want %v", order, want)
	}
	if w.Len() != 0 {
		t.Errorf("len = %d", w.Len())
	}
}

func TestWaitListTimeoutRemoves(t *testing.T) {
	k := New(1)
	var w WaitList
	var got []bool
	k.Spawn("impatient", func(p *Process) { got = append(got, w.WaitFor(p, time.Second)) })
	k.Spawn("patient", func(p *Process) { got = append(got, w.WaitFor(p, time.Hour)) })
	k.At(Time(2*time.Second), func() {
		if w.Len() != 1 {
			t.Errorf("len = %d, want the patient one only", w.Len())
		}
		w.WakeOne()
	})
	k.Run(Limits{})
	if want := []bool{false, true}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestDeterministicTrace runs a busy mix of processes and callbacks with
// random draws twice and compares the traces.
func TestDeterministicTrace(t *testing.T) {
	run := func(seed uint64) string {
		k := New(seed)
		var sb strings.Builder
		for i := range 50 {
			name := "proc-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
			k.Spawn(name, func(p *Process) {
				r := k.Rand("proc/" + name)
				for range 20 {
					p.Sleep(time.Duration(r.IntN(1000)) * time.Millisecond)
					sb.WriteString(name + p.Now().String() + "\n")
				}
			})
		}
		k.Run(Limits{})
		return sb.String()
	}
	a, b := run(9), run(9)
	if a != b {
		t.Fatal("same seed gave different traces")
	}
	if a == run(10) {
		t.Fatal("different seeds gave the same trace")
	}
}

// FuzzQueue drives the event queue with any interleaving of pushes (at
// any time, past ones included) and pops, next to a reference model (the
// plain list of pending events), and checks beyond "does not panic":
// every pop returns exactly the model's least pending event by (time,
// sequence), so order holds and equal times keep insertion order; nothing
// pushed is lost or duplicated (the queue's length always equals the
// model's, and draining it empties both); and each event keeps its
// argument.
func FuzzQueue(f *testing.F) {
	f.Add([]byte{1, 2, 3, 0, 0, 9, 9, 0})
	f.Add([]byte{255, 0, 255, 0, 1, 1, 1, 1})
	f.Add([]byte{7, 7, 7, 7, 0, 0, 0, 0, 0})
	// A timer pushed far ahead at 0 (200 ms) falls due before an event
	// pushed near ahead later (240 ms at 150 ms): the two heaps' tops
	// must be compared.
	f.Add([]byte{61, 31, 0, 46, 0, 73, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		var q queue
		var model []event
		var seq uint64
		// now is the time of the last event popped, as in the kernel;
		// times are tens of milliseconds apart so that events go into
		// both of the queue's heaps (see nearHorizon).
		var now Time
		pop := func() {
			e := q.pop()
			now = e.at
			least := 0
			for i := range model {
				// The model's own order, not the queue's less.
				if a, b := model[i], model[least]; a.at < b.at || a.at == b.at && a.seq < b.seq {
					least = i
				}
			}
			want := model[least]
			if e.at != want.at || e.seq != want.seq || e.arg != want.arg {
				t.Fatalf("popped %+v, want the least pending event %+v", e, want)
			}
			model = slices.Delete(model, least, least+1)
		}
		for _, op := range ops {
			if op%3 == 0 && q.len() > 0 {
				pop()
			} else {
				seq++
				e := event{at: Time(op/3) * Time(10*time.Millisecond), seq: seq, arg: seq * 7}
				q.push(e, now)
				model = append(model, e)
			}
			if q.len() != len(model) {
				t.Fatalf("queue holds %d events, %d pushed and not popped", q.len(), len(model))
			}
		}
		for q.len() > 0 {
			pop()
		}
		if len(model) != 0 {
			t.Fatalf("queue empty with %d events never popped", len(model))
		}
	})
}

// TestWallSecond: WallSecond is Wall rounded down by Truncate, at whole
// seconds, just before and after them, at zero, before Epoch, far
// ahead, and at random times.
func TestWallSecond(t *testing.T) {
	ts := []Time{0, 1, Time(time.Second) - 1, Time(time.Second), Time(time.Second) + 1, Time(90*time.Minute) + 123456789,
		-1, -Time(time.Second), -Time(time.Second) - 1, Time(1<<62) + 7, Forever}
	r := rand.New(rand.NewPCG(3, 4))
	for range 1000 {
		ts = append(ts, Time(r.Int64N(int64(1<<50))), -Time(r.Int64N(int64(1<<50))))
	}
	for _, v := range ts {
		want := v.Wall().Truncate(time.Second)
		if got := v.WallSecond(); got != want {
			t.Errorf("Time(%d).WallSecond() = %v, want %v", int64(v), got, want)
		}
	}
}
