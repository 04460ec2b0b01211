package api

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestAppendHex16 holds AppendHex16 and EventName to fmt's %016x and
// "%s.%016x" on edge values and random ones, and EventName to one
// allocation (the name itself).
func TestAppendHex16(t *testing.T) {
	values := []uint64{0, 1, 0xf, 0x10, 0xdeadbeef, 1 << 63, math.MaxUint64, math.MaxUint64 - 1}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		values = append(values, r.Uint64(), r.Uint64()>>r.IntN(64))
	}
	for _, x := range values {
		if got, want := string(AppendHex16([]byte("p:"), x)), fmt.Sprintf("p:%016x", x); got != want {
			t.Errorf("AppendHex16(%d) = %q, want %q", x, got, want)
		}
		for _, name := range []string{"", "web-0", "app-1-57bc45b4cd-x7k2p"} {
			if got, want := EventName(name, x), fmt.Sprintf("%s.%016x", name, x); got != want {
				t.Errorf("EventName(%q, %d) = %q, want %q", name, x, got, want)
			}
		}
	}
	var sink string
	if n := testing.AllocsPerRun(20, func() { sink = EventName("app-1-57bc45b4cd-x7k2p", 0xdeadbeef) }); n != 1 {
		t.Errorf("EventName: %v allocations, want 1", n)
	}
	_ = sink
}
