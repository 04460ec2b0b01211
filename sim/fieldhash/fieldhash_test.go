package fieldhash

import (
	"encoding/binary"
	"hash/fnv"
	"testing"
)

// TestSumSeparatesFields checks that lists differing only in where one
// field ends and the next begins, or in the number of fields, hash
// apart, and that a Hasher's reused buffer does not change a sum.
func TestSumSeparatesFields(t *testing.T) {
	lists := [][]string{
		{"Pod", "default", "ab", "c", "Started"},
		{"Pod", "default", "a", "bc", "Started"},
		{"Pod", "default", "a", "b", "cStarted"},
		{"Pod", "defaulta", "", "bc", "Started"},
		{"Pod", "default", "ab", "c", "Started", ""},
		{"Pod", "default", "ab", "c", "Started", "u"},
		{},
		{""},
	}
	var h Hasher
	seen := map[Sum]int{}
	for i, l := range lists {
		s := h.Sum(l...)
		if j, dup := seen[s]; dup {
			t.Errorf("lists %d and %d hash alike: %q, %q", j, i, lists[j], l)
		}
		seen[s] = i
		var fresh Hasher
		if fresh.Sum(l...) != s {
			t.Errorf("list %d hashes differently with a fresh Hasher", i)
		}
	}
}

// TestSumAllocatesNothing: once its buffer has grown, a Hasher hashes
// without allocating.
func TestSumAllocatesNothing(t *testing.T) {
	var h Hasher
	h.Sum("Pod", "default", "web-1", "spec.containers{app}", "uid", "Normal", "Started", "Container started")
	if n := testing.AllocsPerRun(100, func() {
		h.Sum("Pod", "default", "web-1", "spec.containers{app}", "uid", "Normal", "Started", "Container started")
	}); n != 0 {
		t.Errorf("%v allocations a sum, want 0", n)
	}
}

// TestStreamIsSumOfPrefixes: after each Add, a Stream's Sum is the Sum of
// the fields added so far, across Resets, and a Stream that has grown
// hashes without allocating.
func TestStreamIsSumOfPrefixes(t *testing.T) {
	lists := [][]string{
		{"kubelet", "node-1", "Pod", "default", "web-1", "uid", "v1", "Normal", "Started", "spec.containers{app}", "Container started"},
		{"", "", ""},
		{"a-much-longer-field-than-the-others-so-the-buffer-grows", "x"},
	}
	var h Hasher
	var s Stream
	if s.Sum() != h.Sum() {
		t.Errorf("an empty Stream's Sum is not the empty list's")
	}
	for i, l := range lists {
		s.Reset()
		for n := range l {
			s.Add(l[n])
			if got, want := s.Sum(), h.Sum(l[:n+1]...); got != want {
				t.Errorf("list %d after %d fields: %x, want %x", i, n+1, got, want)
			}
		}
	}
	l := lists[0]
	if n := testing.AllocsPerRun(100, func() {
		s.Reset()
		for _, f := range l {
			s.Add(f)
		}
		s.Sum()
	}); n != 0 {
		t.Errorf("%v allocations a list", n)
	}
}

// TestSumEncoding checks a Sum against the encoding its comment gives,
// computed here apart from Stream: FNV-1a, 128 bits, over each field's
// length (4 bytes, little-endian) and bytes.
func TestSumEncoding(t *testing.T) {
	for _, l := range [][]string{{}, {""}, {"Pod", "default", "web-1"}, {"a", "", "bc"}} {
		var buf []byte
		for _, f := range l {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(len(f)))
			buf = append(buf, f...)
		}
		d := fnv.New128a()
		d.Write(buf)
		var want Sum
		d.Sum(want[:0])
		var h Hasher
		if got := h.Sum(l...); got != want {
			t.Errorf("Sum(%q) = %x, want %x", l, got, want)
		}
	}
}
