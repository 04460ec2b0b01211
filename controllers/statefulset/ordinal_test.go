package statefulset

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
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

// statefulPodRegex is upstream's pattern (stateful_set_utils.go), which
// splitOrdinal writes out by hand.
var statefulPodRegex = regexp.MustCompile("(.*)-([0-9]+)$")

// regexParentNameAndOrdinal is upstream's getParentNameAndOrdinal.
func regexParentNameAndOrdinal(name string) (string, int) {
	m := statefulPodRegex.FindStringSubmatch(name)
	if len(m) < 3 {
		return "", -1
	}
	i, err := strconv.ParseInt(m[2], 10, 32)
	if err != nil {
		return m[1], -1
	}
	return m[1], int(i)
}

// TestParentNameAndOrdinalIsRegex compares getParentNameAndOrdinal with
// upstream's regular expression on names a set makes and on the corners
// of the pattern (no dash, a trailing dash, digits before a later dash,
// newlines, which . does not match, non-ASCII digits, an ordinal beyond
// int32), then on 20,000 random names over the characters that matter.
func TestParentNameAndOrdinalIsRegex(t *testing.T) {
	names := []string{
		"", "-", "web", "web-", "-0", "web-0", "web-12", "web-007", "my-web-3", "web-3a", "web-a3",
		"web-3-", "web--3", "a-b-c-10", "web-2147483647", "web-2147483648", "web-99999999999999999999",
		"a\nweb-1", "a-1\nweb-2", "web-1\n", "\n-1", "web\n-1", "web-١", "wéb-4", "web-+1", "web- 1", "\xff-5",
	}
	rng := rand.New(rand.NewPCG(7, 11))
	const alphabet = "ab-0129\n\xff"
	for range 20000 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		names = append(names, string(b))
	}
	for _, name := range names {
		wantParent, wantOrdinal := regexParentNameAndOrdinal(name)
		parent, ordinal := getParentNameAndOrdinal(&api.Pod{ObjectMeta: api.ObjectMeta{Name: name}})
		if parent != wantParent || ordinal != wantOrdinal {
			t.Errorf("getParentNameAndOrdinal(%q) = %q, %d; the regular expression gives %q, %d", name, parent, ordinal, wantParent, wantOrdinal)
		}
	}
}
