package fieldhash

import (
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/cespare/xxhash/v2"
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
// computed here apart from Stream: XXH64 with seeds 0 and sum2Seed over
// each field's length (4 bytes, little-endian) and bytes, and against
// values computed once (XXH64 is the same on every machine; a change of
// them changes which Events a long run combines only if two keys
// collide, but it is a change of the encoding all the same).
func TestSumEncoding(t *testing.T) {
	for _, tc := range []struct {
		list []string
		want string
	}{
		{nil, "99e9d85137db46ef0000013cc99f34c4"},
		{[]string{""}, "b4def25cfda6ef3a69a087ee0875ac02"},
		{[]string{"Pod", "default", "web-1"}, "adb6108df73811204b1b0248f9e68f55"},
		{[]string{"a", "", "bc"}, "6f684b6bfda778d8c28b02cb424c9d49"},
	} {
		var buf []byte
		for _, f := range tc.list {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(len(f)))
			buf = append(buf, f...)
		}
		var want Sum
		binary.LittleEndian.PutUint64(want[:8], xxhash.Sum64(buf))
		d := xxhash.NewWithSeed(sum2Seed)
		d.Write(buf)
		binary.LittleEndian.PutUint64(want[8:], d.Sum64())
		var h Hasher
		got := h.Sum(tc.list...)
		if got != want {
			t.Errorf("Sum(%q) = %x, want %x", tc.list, got, want)
		}
		if hex.EncodeToString(got[:]) != tc.want {
			t.Errorf("Sum(%q) = %x, want the recorded %s", tc.list, got, tc.want)
		}
	}
}

// TestStreamSumsAfterSeveralAdds: a Stream's digests read the fields
// added since its last Sum at once; the Sums at the correlator's prefixes
// (seven fields, two more, one, one) and at others are the lists' Sums,
// from a zero Stream (fields added before any Reset or Sum) and after a
// Reset that drops fields added but never summed.
func TestStreamSumsAfterSeveralAdds(t *testing.T) {
	l := []string{"kubelet", "node-1", "Pod", "default", "web-1", "uid", "v1", "Normal", "Started", "Container started", "spec.containers{app}"}
	var h Hasher
	for _, cuts := range [][]int{{7, 9, 10, 11}, {11}, {1, 11}, {3, 4, 8}, {0, 0, 5}} {
		for _, fresh := range []bool{true, false} {
			var s Stream
			if !fresh {
				s.Add("dropped")
				s.Add("by Reset")
				s.Reset()
			}
			n := 0
			for _, cut := range cuts {
				for ; n < cut; n++ {
					s.Add(l[n])
				}
				if got, want := s.Sum(), h.Sum(l[:cut]...); got != want {
					t.Errorf("cuts %v (zero Stream %v), at %d fields: %x, want %x", cuts, fresh, cut, got, want)
				}
			}
		}
	}
}
