package scheduler

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestKnownScoresMatchFreshSearch holds the scores the search keeps by
// request shape (cache.knownScores) to what a search without them
// gives: two caches take the same random changes (pods scheduled,
// assumed and forgotten; nodes resized, tainted NoSchedule or
// PreferNoSchedule, cordoned, made NotReady, added and removed), and
// each pod is scheduled on both, the second cache's kept scores
// dropped before every search. The two must choose the same node, or
// fail with the same error, every time. Half the pods come in three
// shapes, the others in twelve more (more than the cache's slots,
// which the shapes that come back take over), and some tolerate the
// NoSchedule taint: still plain pods, whose filter then passes a
// tainted node that fitsPlainly does not, a pass that must not be kept
// for the shape. Planted, each fails it: no unscore in addEntry,
// removeEntry or setNode (a node changes, its kept score does not); a
// kept score for every feasible node, not only fitsPlainly's (a pod
// without the toleration is sent to a tainted node); no reset of the
// slots when the order is rebuilt; a slot taken over by a new shape
// keeping its generation.
func TestKnownScoresMatchFreshSearch(t *testing.T) {
	shapes := []api.ResourceList{
		rl("cpu", "100m", "memory", "256Mi"),
		rl("cpu", "500m", "memory", "1Gi"),
		rl("cpu", "250m", "memory", "64Mi"),
	}
	kept, takeovers := 0, 0
	for round := range 12 {
		r := rand.New(rand.NewPCG(11, uint64(round)))
		n := []int{30, 120, 400}[round%3]
		known, fresh := newCache(), newCache()
		both := func(f func(c *cache)) { f(known); f(fresh) }
		zones := map[string]string{}
		newNode := func(name string) *api.Node {
			node := testNode(name, rl("cpu", fmt.Sprint(1+r.IntN(4)), "memory", fmt.Sprintf("%dGi", 1+r.IntN(8)), "pods", fmt.Sprint(3+r.IntN(18))))
			// A node keeps its zone: a new zone would rebuild the order.
			if zones[name] == "" {
				zones[name] = fmt.Sprintf("zone-%c", 'a'+r.IntN(3))
			}
			node.Labels[labelZone], node.Labels[labelHostname] = zones[name], name
			return node
		}
		var names []string
		for i := range n {
			node := newNode(fmt.Sprintf("node-%03d", i))
			names = append(names, node.Name)
			both(func(c *cache) { c.setNode(node) })
		}
		sk := &scheduler{cache: known, rng: rand.New(rand.NewPCG(1, uint64(round)))}
		sf := &scheduler{cache: fresh, rng: rand.New(rand.NewPCG(1, uint64(round)))}
		sk.opts.defaults()
		sf.opts.defaults()
		var bound []*api.Pod
		for step := range 600 {
			switch op := r.IntN(100); {
			case op < 60:
				shape := shapes[r.IntN(len(shapes))]
				if r.IntN(2) == 0 {
					// One of more shapes than the cache has slots for.
					i := r.IntN(12)
					shape = rl("cpu", fmt.Sprintf("%dm", 150*(1+i)), "memory", fmt.Sprintf("%dMi", 256*(1+i*5%12)))
				}
				pod := testPod(fmt.Sprintf("p-%d-%d", round, step), shape)
				if r.IntN(6) == 0 {
					pod.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule}}
				}
				fresh.shapes = [shapeSlots]shapeScores{}
				want, wantErr := sf.schedule(pod, "")
				got, gotErr := sk.schedule(pod, "")
				if fmt.Sprint(got, gotErr) != fmt.Sprint(want, wantErr) {
					t.Fatalf("round %d step %d: with kept scores %q (%v), without %q (%v)", round, step, got, gotErr, want, wantErr)
				}
				for k := range known.shapes {
					for _, e := range known.shapes[k].scores {
						if _, ok := known.shapes[k].kept(e); ok {
							kept++
						}
					}
				}
				if gotErr == nil {
					both(func(c *cache) { c.assume(pod, got) })
					bound = append(bound, pod)
				}
			case op < 75 && len(bound) > 0:
				i := r.IntN(len(bound))
				p := bound[i]
				bound = append(bound[:i], bound[i+1:]...)
				both(func(c *cache) { c.forget(p.Key(), p.UID) })
			case op < 92:
				node := newNode(names[r.IntN(len(names))])
				switch r.IntN(5) {
				case 0:
					node.Spec.Taints = []api.Taint{{Key: "dedicated", Effect: api.TaintEffectNoSchedule}}
				case 1:
					node.Spec.Taints = []api.Taint{{Key: "soft", Effect: api.TaintEffectPreferNoSchedule}}
				case 2:
					node.Spec.Unschedulable = true
				case 3:
					node.Status.Conditions[0].Status = api.ConditionFalse
				}
				both(func(c *cache) { c.setNode(node) })
			case op < 96 && round%2 == 1:
				// Nodes come and go in odd rounds only: each rebuilds the
				// order, which resets every slot, and the even rounds'
				// slots then live long enough to be taken over.
				name := names[r.IntN(len(names))]
				both(func(c *cache) { c.removeNode(name) })
			case op >= 96 && round%2 == 1:
				node := newNode(fmt.Sprintf("node-%d-%d", round, step))
				names = append(names, node.Name)
				both(func(c *cache) { c.setNode(node) })
			}
		}
		takeovers += int(known.lastGen)
	}
	// Scores were kept to be used, and slots changed hands.
	if kept < 100000 {
		t.Fatalf("only %d kept scores seen over the searches: the comparison did not exercise them", kept)
	}
	if takeovers < 1000 {
		t.Fatalf("only %d slots taken over by a new shape: the comparison did not exercise it", takeovers)
	}
	t.Logf("%d kept scores seen, %d slots taken over", kept, takeovers)
}
