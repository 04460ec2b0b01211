package kernel

import (
	"hash/fnv"
	"math/rand/v2"
)

// Streams hands out named random streams derived from one root seed. A
// stream's draws depend only on the root seed and its name, so adding a
// component (and its stream) never shifts another component's draws.
type Streams struct {
	root  uint64
	named map[string]*rand.Rand
}

// NewStreams returns the stream family for a root seed.
func NewStreams(root uint64) *Streams {
	return &Streams{root: root, named: make(map[string]*rand.Rand)}
}

// Root returns the root seed.
func (s *Streams) Root() uint64 { return s.root }

// Get returns the stream with the given name, creating it on first use.
// Asking twice for one name returns the same stream, so its draws continue
// rather than repeat. Names are conventionally paths such as
// "net/link/apiserver->kubelet/node-1" or "controller/scheduler".
func (s *Streams) Get(name string) *rand.Rand {
	if r, ok := s.named[name]; ok {
		return r
	}
	st := &stream{pcg: *s.Source(name)}
	st.r = *rand.New(&st.pcg)
	s.named[name] = &st.r
	return &st.r
}

// stream is a Rand and its source in one allocation (32 bytes, one cache
// line): a stream drawn from now and then, such as each network link's
// or each kubelet's at thousands of nodes, is no longer in the
// processor's caches when it is next drawn from, and a draw through a
// Rand and a PCG allocated apart missed twice.
type stream struct {
	r   rand.Rand
	pcg rand.PCG
}

// Source returns a fresh PCG source for name, independent of Get's cache:
// two calls with one name give two sources with the same sequence. Use it
// where a library wants a rand.Source (gonum's distributions do).
func (s *Streams) Source(name string) *rand.PCG {
	h := fnv.New64a()
	h.Write([]byte(name))
	a := splitmix64(s.root ^ h.Sum64())
	b := splitmix64(a ^ 0x9e3779b97f4a7c15)
	return rand.NewPCG(a, b)
}

// splitmix64 is Steele, Lea and Flood's finaliser: a bijective mix that
// spreads nearby seeds apart.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
