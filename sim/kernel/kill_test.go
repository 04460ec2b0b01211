package kernel

import (
	"errors"
	"slices"
	"testing"
	"time"
)

func TestIsKill(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want bool
	}{
		{"kill sentinel", killSignal{}, true},
		{"nil", nil, false},
		{"string", "boom", false},
		{"error", errors.New("boom"), false},
		{"process panic", &ProcessPanic{Process: "p", Value: killSignal{}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsKill(tc.v); got != tc.want {
				t.Errorf("IsKill(%#v) = %v, want %v", tc.v, got, tc.want)
			}
		})
	}
}

// TestIsKillRecoverAndRepanic checks the pattern IsKill exists for: a
// process that recovers panics on its own stack tells a kill from an
// ordinary panic, re-panics the kill (so the process still dies, its outer
// deferred functions run, and the kernel sees no ProcessPanic) and keeps
// running after an ordinary one.
func TestIsKillRecoverAndRepanic(t *testing.T) {
	k := New(1)
	var seen []string
	guarded := func(p *Process, f func()) {
		defer func() {
			if r := recover(); r != nil {
				if IsKill(r) {
					seen = append(seen, "kill")
					panic(r)
				}
				seen = append(seen, "panic")
			}
		}()
		f()
	}
	p := k.Spawn("worker", func(p *Process) {
		defer func() { seen = append(seen, "unwound") }()
		guarded(p, func() { panic("boom") })
		guarded(p, func() { p.Sleep(time.Hour) })
		seen = append(seen, "ran on")
	})
	k.At(Time(time.Second), func() { p.Kill() })
	k.Run(Limits{})
	want := []string{"panic", "kill", "unwound"}
	if len(seen) != len(want) {
		t.Fatalf("seen %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("seen %v, want %v", seen, want)
		}
	}
	if !p.Done() || k.Live() != 0 {
		t.Errorf("process done=%v live=%d, want done and 0 live", p.Done(), k.Live())
	}
}

// TestClose checks that Close kills every unfinished process (parked,
// sleeping and not yet started), oldest first, running their deferred
// functions, and leaves finished ones alone.
func TestClose(t *testing.T) {
	k := New(1)
	var order []string
	spawn := func(name string, body func(p *Process)) {
		k.Spawn(name, func(p *Process) {
			defer func() { order = append(order, name) }()
			body(p)
		})
	}
	spawn("parked", func(p *Process) { p.Park() })
	spawn("done", func(p *Process) {})
	spawn("sleeping", func(p *Process) { p.Sleep(time.Hour) })
	k.RunFor(time.Minute)
	spawn("new", func(p *Process) { t.Error("a process spawned before Close ran") })
	if k.Live() != 3 {
		t.Fatalf("live %d before Close, want 3", k.Live())
	}
	k.Close()
	if k.Live() != 0 {
		t.Errorf("live %d after Close, want 0", k.Live())
	}
	want := []string{"done", "parked", "sleeping"}
	if !slices.Equal(order, want) {
		t.Errorf("deferred functions ran in order %v, want %v", order, want)
	}
	k.Close() // a second Close has nothing left to do
}

// TestLivelock checks that a handler rescheduling itself at the same
// instant stops Run with Livelock instead of spinning forever, and that
// ordinary runs with many events at one instant are not stopped.
func TestLivelock(t *testing.T) {
	k := New(1)
	var spin Handler
	fired := 0
	spin = Func(func() { fired++; k.Schedule(k.Now(), spin, 0) })
	k.Schedule(Time(time.Second), spin, 0)
	if got := k.Run(Limits{Until: Time(time.Minute), MaxEventsAtInstant: 1000}); got != Livelock {
		t.Fatalf("Run = %v, want livelock", got)
	}
	if fired != 1000 || k.Now() != Time(time.Second) {
		t.Errorf("fired %d at %v, want 1000 at 1s", fired, k.Now())
	}

	k = New(1)
	n := 0
	for i := range 3000 {
		k.Schedule(Time(i/1000)*Time(time.Second), Func(func() { n++ }), 0)
	}
	if got := k.Run(Limits{MaxEventsAtInstant: 1000}); got != Quiescent || n != 3000 {
		t.Errorf("Run = %v after %d events, want quiescent after 3000", got, n)
	}
}
