package daemonset

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestVerdictsAreNodeShouldRun checks the remembered answers against
// NodeShouldRunDaemonPod over random histories of two DaemonSets and
// five nodes, each step replacing one object as the informers do: a node
// relabelled, tainted or untainted (a new object), a DaemonSet's template
// changed (a new object of the next generation), a status write (a new
// object of the same generation), a node or DaemonSet deleted and made
// again.
func TestVerdictsAreNodeShouldRun(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	zones := []string{"a", "b", "c"}
	taints := [][]api.Taint{nil, {{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoSchedule}},
		{{Key: "dedicated", Value: "gpu", Effect: api.TaintEffectNoExecute}}}
	newNodeAt := func(i int) *api.Node {
		n := newNode(fmt.Sprintf("node-%d", i), map[string]string{"zone": zones[r.IntN(3)]})
		n.Spec.Taints = taints[r.IntN(3)]
		return n
	}
	newDS := func(i int, gen int64, uid string) *api.DaemonSet {
		var spec api.PodSpec
		switch r.IntN(3) {
		case 0:
			spec.NodeSelector = map[string]string{"zone": zones[r.IntN(3)]}
		case 1:
			spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: api.TolerationOpExists}}
		}
		ds := newDaemonSet(spec)
		ds.Name, ds.UID, ds.Generation = fmt.Sprintf("ds-%d", i), api.UID(uid), gen
		return ds
	}
	for history := range 200 {
		var v verdicts
		nodes := make([]*api.Node, 5)
		for i := range nodes {
			nodes[i] = newNodeAt(i)
		}
		dss := []*api.DaemonSet{newDS(0, 1, "uid-0"), newDS(1, 1, "uid-1")}
		made := 2
		for step := range 60 {
			switch r.IntN(5) {
			case 0:
				i := r.IntN(len(nodes))
				if r.IntN(4) == 0 {
					v.forget("", nodes[i].Name)
				}
				nodes[i] = newNodeAt(i)
			case 1:
				i := r.IntN(len(dss))
				dss[i] = newDS(i, dss[i].Generation+1, string(dss[i].UID))
			case 2:
				i := r.IntN(len(dss))
				st := *dss[i] // a status write: a new object, the same spec and generation
				st.Status.NumberReady++
				dss[i] = &st
			case 3:
				i := r.IntN(len(dss))
				v.forget(dss[i].UID, "")
				made++
				dss[i] = newDS(i, 1, fmt.Sprintf("uid-%d", made))
			}
			for _, ds := range dss {
				for _, n := range nodes {
					run, cont := v.shouldRun(n, ds)
					wantRun, wantCont := NodeShouldRunDaemonPod(n, ds)
					if run != wantRun || cont != wantCont {
						t.Fatalf("history %d step %d: %s on %s: remembered (%v, %v), want (%v, %v)", history, step, ds.Name, n.Name, run, cont, wantRun, wantCont)
					}
				}
			}
		}
		kept := 0
		for _, byNode := range v.m {
			kept += len(byNode)
		}
		if len(v.m) > len(dss) || kept > len(dss)*len(nodes) {
			t.Fatalf("history %d: %d answers of %d DaemonSets kept for %d DaemonSets and %d nodes", history, kept, len(v.m), len(dss), len(nodes))
		}
	}
}
