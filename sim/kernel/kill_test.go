package kernel

import (
	"errors"
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
