package flowcontrol_test

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/flowcontrol"
	"github.com/clustersim/clustersim/sim/kernel"
)

// TestTokenBucket checks the waits of golang.org/x/time/rate's
// reservations: a full bucket lets burst requests through at once, then
// one every 1/qps; idle time refills it up to burst and no further.
func TestTokenBucket(t *testing.T) {
	at := func(d time.Duration) kernel.Time { return kernel.Time(d) }
	tests := []struct {
		name     string
		qps      float64
		burst    int
		requests []time.Duration // when each request is made
		waits    []time.Duration
	}{
		{"burst then paced", 20, 3, []time.Duration{0, 0, 0, 0, 0},
			[]time.Duration{0, 0, 0, 50 * time.Millisecond, 100 * time.Millisecond}},
		{"refilled by idle time", 20, 3, []time.Duration{0, 0, 0, 0, 200 * time.Millisecond},
			[]time.Duration{0, 0, 0, 50 * time.Millisecond, 0}},
		{"never above burst", 10, 2, []time.Duration{0, time.Hour, time.Hour, time.Hour},
			[]time.Duration{0, 0, 0, 100 * time.Millisecond}},
		{"burst 0 means 1", 1, 0, []time.Duration{0, 0},
			[]time.Duration{0, time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := flowcontrol.NewTokenBucket(tt.qps, tt.burst, 0)
			for i, r := range tt.requests {
				if got := b.Reserve(at(r)); got != tt.waits[i] {
					t.Errorf("request %d at %v waits %v, want %v", i, r, got, tt.waits[i])
				}
			}
		})
	}
}

// TestTryAccept checks client-go's TryAccept as the event spam filter uses
// it (burst 25, a token every 300 s): a full bucket lets burst through,
// then nothing until a whole token has come back; a refused try takes
// nothing.
func TestTryAccept(t *testing.T) {
	at := func(d time.Duration) kernel.Time { return kernel.Time(d) }
	tests := []struct {
		name  string
		qps   float64
		burst int
		tries []time.Duration
		want  []bool
	}{
		{"burst then refused", 1, 2, []time.Duration{0, 0, 0, 0}, []bool{true, true, false, false}},
		{"a refusal takes nothing", 1, 1, []time.Duration{0, 500 * time.Millisecond, time.Second}, []bool{true, false, true}},
		{"part of a token is not one", 1.0 / 300, 25, append(make([]time.Duration, 25), 299*time.Second, 300*time.Second, 300*time.Second),
			append(trues(25), false, true, false)},
		{"never above burst", 10, 2, []time.Duration{0, time.Hour, time.Hour, time.Hour}, []bool{true, true, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := flowcontrol.NewTokenBucket(tt.qps, tt.burst, 0)
			for i, r := range tt.tries {
				if got := b.TryAccept(at(r)); got != tt.want[i] {
					t.Errorf("try %d at %v: %v, want %v", i, r, got, tt.want[i])
				}
			}
		})
	}
}

func trues(n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = true
	}
	return out
}
