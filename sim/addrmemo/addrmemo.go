// Package addrmemo remembers a value for each of the strings it was
// given last, found by where the string's bytes are rather than by
// hashing them: a small direct-mapped table in front of a map keyed by
// the strings.
//
// A simulation hands the same string values around: a client names
// itself with one string for every request, the audit log's differ gives
// every change of one field the same path string. A map lookup hashes
// the string, probes a table that at scale no longer stays in the
// processor's caches, and compares the key it finds with the bytes of
// the one it was given: two or three cache misses each. A Memo finds the
// string's slot from its address and compares two words, in a table
// small enough to stay cached.
//
// A hit needs the very string put: the same bytes at the same address.
// The slot holds the string it was put with, so its bytes are not freed
// and reused for another string while the slot names them; an equal
// string elsewhere in memory misses. A miss says nothing: the caller
// looks the string up where it keeps its values and puts what it found.
// So what a caller computes cannot depend on the Memo, only how fast.
package addrmemo

import (
	"math/bits"
	"unsafe"
)

// Max is the most slots a Memo has: 16,384 (384 KiB for a pointer
// value).
const Max = 1 << 14

// Memo is the table. Its zero value has no slots: Get misses and Put
// does nothing until Grow gives it some.
type Memo[V any] struct {
	slots []slot[V]
	shift uint // 64 - log2(len(slots))
}

type slot[V any] struct {
	s   string
	v   V
	set bool
}

// Len returns the number of slots.
func (m *Memo[V]) Len() int { return len(m.slots) }

// Grow makes the table at least n slots (a power of two, at most Max).
// A table that changes size forgets what it held.
func (m *Memo[V]) Grow(n int) {
	n = min(max(n, 1), Max)
	if n <= len(m.slots) {
		return
	}
	size := 1 << bits.Len(uint(n-1))
	m.slots = make([]slot[V], size)
	m.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

// at returns s's slot; the table has slots.
func (m *Memo[V]) at(s string) *slot[V] {
	// Fibonacci hashing: the product's top bits depend on every bit of
	// the address.
	h := uint64(Addr(s)) * 0x9E3779B97F4A7C15
	return &m.slots[h>>m.shift]
}

// Get returns the value put for s, if s's slot holds s itself.
func (m *Memo[V]) Get(s string) (v V, ok bool) {
	if len(m.slots) == 0 {
		return v, false
	}
	sl := m.at(s)
	if sl.set && Same(sl.s, s) {
		return sl.v, true
	}
	return v, false
}

// Addr is the address of s's bytes: a key for what is remembered of the
// very string s, as long as s is kept (sim/store's memo of a write's
// changed paths hashes them).
func Addr(s string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(s))) }

// Same reports whether a and b are the very same string: the same bytes
// in memory, not only the same text. Equal strings elsewhere in memory
// are not the same; a string and a prefix of it at its address are not
// either.
func Same(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// Put remembers v for s, in place of what s's slot held.
func (m *Memo[V]) Put(s string, v V) {
	if len(m.slots) == 0 {
		return
	}
	*m.at(s) = slot[V]{s: s, v: v, set: true}
}
