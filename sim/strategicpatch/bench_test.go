package strategicpatch

import (
	"fmt"
	"testing"
)

// BenchmarkLongLists merges, diffs and three-way diffs container lists
// of 10,000 elements, a patch any client may send (merging by a scan of
// the list for each element took 10 s at this length; docs/PERFORMANCE.md).
func BenchmarkLongLists(b *testing.B) {
	const n = 10_000
	list := func(prefix string) []any {
		l := make([]any, n)
		for i := range l {
			l[i] = map[string]any{"name": fmt.Sprint(prefix, i), "image": "i"}
		}
		return l
	}
	doc := func(l []any) map[string]any { return map[string]any{"spec": map[string]any{"containers": l}} }
	old, cur := doc(list("a")), doc(append(list("a")[n/2:], list("b")[:n/2]...))
	b.Run("apply", func(b *testing.B) {
		patch := doc(list("b"))
		for b.Loop() {
			if _, err := Apply(old, patch); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("two-way", func(b *testing.B) {
		for b.Loop() {
			if _, err := TwoWay(old, cur); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("three-way", func(b *testing.B) {
		for b.Loop() {
			if _, err := ThreeWay(old, cur, old); err != nil {
				b.Fatal(err)
			}
		}
	})
}
