package scheduler

import (
	"fmt"
	"math"
	"testing"
)

// TestShapeGenerationsWrap: when the slots' generation counter wraps
// (after 2^32 takeovers; the test starts it near the end), every slot's
// kept scores are forgotten, so that an entry an array kept from a slot's
// earlier shape, which a generation that comes round again would match,
// is never read as a score; the slot taken gets generation 1, never 0
// (which keeps nothing), and keeps scores as before. Planted: the wrap
// without clearing the arrays, or giving generation 0, fails it.
func TestShapeGenerationsWrap(t *testing.T) {
	c := newCache()
	for i := range 5 {
		c.setNode(testNode(fmt.Sprintf("node-%d", i), rl("cpu", "4", "memory", "8Gi", "pods", "10")))
	}
	n := len(c.list())
	if n != 5 {
		t.Fatalf("the order has %d nodes, want 5", n)
	}
	shape := func(i int) fitShape {
		return fitShape{reqCPU: int64(100 * (i + 1)), reqMem: 1 << 20, nzCPU: int64(100 * (i + 1)), nzMem: 1 << 20}
	}
	take := func(i int) *shapeScores {
		t.Helper()
		if s := c.knownScores(shape(i)); s != nil {
			t.Fatalf("shape %d took a slot at its first ask", i)
		}
		s := c.knownScores(shape(i)) // asked again while unkept: takes one
		if s == nil {
			t.Fatalf("shape %d has no slot at its second ask", i)
		}
		return s
	}
	c.lastGen = math.MaxUint32 - shapeSlots
	for i := range shapeSlots {
		s := take(i)
		for p := range s.scores {
			e, _ := s.keep(int64(10 + p))
			s.scores[p] = e
		}
		// What a slot's array keeps from long ago: an entry of the
		// generation the counter gives after it wraps.
		s.scores[0] = 1<<32 | 99
	}
	if c.lastGen != math.MaxUint32 {
		t.Fatalf("lastGen = %d, want %d", c.lastGen, uint32(math.MaxUint32))
	}
	s := take(shapeSlots) // the counter wraps here
	if s.gen != 1 || c.lastGen != 1 {
		t.Fatalf("after the wrap the slot's generation is %d (lastGen %d), want 1", s.gen, c.lastGen)
	}
	for k := range c.shapes {
		sk := &c.shapes[k]
		for p, e := range sk.scores {
			if v, ok := sk.kept(e); ok {
				t.Errorf("slot %d (generation %d) keeps %d for position %d after the wrap", k, sk.gen, v, p)
			}
		}
	}
	e, ok := s.keep(7)
	if !ok {
		t.Fatal("keep(7) refused")
	}
	s.scores[2] = e
	if v, ok := s.kept(s.scores[2]); !ok || v != 7 {
		t.Errorf("after the wrap a kept 7 reads %d, %t", v, ok)
	}
}
