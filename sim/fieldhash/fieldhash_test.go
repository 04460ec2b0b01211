package fieldhash

import "testing"

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
