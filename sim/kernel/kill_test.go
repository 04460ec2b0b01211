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
