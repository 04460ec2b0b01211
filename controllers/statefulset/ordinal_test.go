package statefulset

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// randomPods makes n pods of set web, some with names without an
// ordinal and some with the same ordinal, in random order.
func randomPods(rng *rand.Rand, n int) []*api.Pod {
	pods := make([]*api.Pod, n)
	for i := range pods {
		p := &api.Pod{}
		switch rng.IntN(10) {
		case 0:
			p.Name = fmt.Sprintf("web-x%d", i)
		default:
			p.Name = fmt.Sprintf("web-%d", rng.IntN(n))
		}
		pods[i] = p
	}
	return pods
}

// TestSortByOrdinalIsSortFunc compares sortByOrdinal with the sort it
// replaced (slices.SortFunc parsing both pods at each comparison) over
// 500 random sets of up to 300 pods: the same permutation, equal
// ordinals and names without one included.
func TestSortByOrdinalIsSortFunc(t *testing.T) {
	for seed := range uint64(500) {
		rng := rand.New(rand.NewPCG(seed, 11))
		pods := randomPods(rng, rng.IntN(300))
		want := slices.Clone(pods)
		slices.SortFunc(want, func(a, b *api.Pod) int { return getOrdinal(a) - getOrdinal(b) })
		sortByOrdinal(pods)
		if !slices.Equal(pods, want) {
			t.Fatalf("seed %d: sortByOrdinal and the parsing sort differ", seed)
		}
	}
}

// BenchmarkSortByOrdinal sorts a 600-replica set's pods, as each sync
// does, once per iteration (from the same shuffled order).
func BenchmarkSortByOrdinal(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	pods := make([]*api.Pod, 600)
	for i := range pods {
		pods[i] = &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("web-%d", i)}}
	}
	rng.Shuffle(len(pods), func(i, j int) { pods[i], pods[j] = pods[j], pods[i] })
	for _, via := range []string{"memo", "parse"} {
		b.Run(via, func(b *testing.B) {
			buf := make([]*api.Pod, len(pods))
			for b.Loop() {
				copy(buf, pods)
				if via == "memo" {
					sortByOrdinal(buf)
				} else {
					slices.SortFunc(buf, func(a, b *api.Pod) int { return getOrdinal(a) - getOrdinal(b) })
				}
			}
		})
	}
}
