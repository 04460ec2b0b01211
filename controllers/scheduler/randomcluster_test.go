package scheduler

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/clustersim/clustersim/sim/api"
)

// The memo tests (TestCountMemoMatchesDirect,
// TestInterPodMemoMatchesDirect) change random clusters one pod at a
// time and compare what the memos give with what counting every pod
// gives.

// randomLabels draws a pod's labels from three keys of three values each.
func randomLabels(rng *rand.Rand) map[string]string {
	l := map[string]string{}
	for _, k := range []string{"app", "tier", "pod-template-hash"} {
		if rng.IntN(3) > 0 {
			l[k] = fmt.Sprintf("%s-%d", k, rng.IntN(3))
		}
	}
	return l
}

// randomSelector draws a label selector over randomLabels' keys: nil,
// empty, or one of a few shapes.
func randomSelector(rng *rand.Rand) *api.LabelSelector {
	switch rng.IntN(8) {
	case 0:
		return nil
	case 1:
		return &api.LabelSelector{}
	case 2:
		return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"app-0", "app-1"}},
			{Key: "tier", Operator: api.LabelSelectorOpDoesNotExist}}}
	case 3:
		return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "app", Operator: api.LabelSelectorOpNotIn, Values: []string{"app-" + fmt.Sprint(rng.IntN(3))}}}}
	case 4:
		return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpExists}}}
	case 5:
		// The same as the last case's for app-0, written another way.
		return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: api.LabelSelectorOpIn, Values: []string{"app-0"}}}}
	}
	return &api.LabelSelector{MatchLabels: map[string]string{"app": fmt.Sprintf("app-%d", rng.IntN(3))}}
}

// randomKeys are the topology keys randomCluster's nodes may have.
var randomKeys = []string{labelZone, labelHostname, "rack"}

// randomCluster is a cache of 2 to 13 nodes, most in one of three
// zones, each with its hostname and half with a rack, and the pods
// bound to them in the order made.
type randomCluster struct {
	rng   *rand.Rand
	c     *cache
	names []string
	live  []*api.Pod
	// gone are the Node objects removed, by name, to come back.
	gone map[string]*api.Node
	// newPod makes an unbound pod of a new name.
	newPod func() *api.Pod
}

func newRandomCluster(rng *rand.Rand, newPod func() *api.Pod) *randomCluster {
	rc := &randomCluster{rng: rng, c: newCache(), newPod: newPod, gone: map[string]*api.Node{}}
	for i := range 2 + rng.IntN(12) {
		n := testNode(fmt.Sprintf("n%d", i), rl("cpu", "64", "pods", "110"))
		if rng.IntN(8) > 0 {
			n.Labels[labelZone] = fmt.Sprintf("z%d", rng.IntN(3))
		}
		n.Labels[labelHostname] = n.Name
		if rng.IntN(2) == 0 {
			n.Labels["rack"] = fmt.Sprintf("r%d", rng.IntN(4))
		}
		rc.c.setNode(n)
		rc.names = append(rc.names, n.Name)
	}
	return rc
}

// change makes one random change: a pod added, removed, relabelled,
// replaced by a newer version (a status write), made terminating or
// not, moved, assumed and then forgotten or confirmed, or finished; or
// a node relabelled, or its Node object removed or brought back.
func (rc *randomCluster) change() {
	if rc.rng.IntN(12) == 0 {
		rc.changeNode()
		return
	}
	rng, c := rc.rng, rc.c
	node := func() string { return rc.names[rng.IntN(len(rc.names))] }
	// newer returns a new version of a random live pod, and its index.
	newer := func() (int, *api.Pod) {
		i := rng.IntN(len(rc.live))
		return i, rc.live[i].DeepCopyObject().(*api.Pod)
	}
	switch op := rng.IntN(10); {
	case op < 3 || len(rc.live) == 0:
		p := rc.newPod()
		p.Spec.NodeName = node()
		c.setPod(p)
		rc.live = append(rc.live, p)
	case op == 3:
		i := rng.IntN(len(rc.live))
		c.deletePod(rc.live[i].Key())
		rc.live = slices.Delete(rc.live, i, i+1)
	case op == 4 || op == 5:
		// Same uid and node, a new object: relabelled, or a status write.
		i, p := newer()
		if op == 4 {
			p.Labels = randomLabels(rng)
		} else {
			p.Status.Phase = api.PodRunning
		}
		c.setPod(p)
		rc.live[i] = p
	case op == 6:
		i, p := newer()
		if p.DeletionTimestamp == nil {
			p.DeletionTimestamp = &api.Time{}
		} else {
			p.DeletionTimestamp = nil
		}
		c.setPod(p)
		rc.live[i] = p
	case op == 7:
		// Moved: the informer shows it on another node.
		i, p := newer()
		p.Spec.NodeName = node()
		c.setPod(p)
		rc.live[i] = p
	case op == 8:
		// Assumed on a node, then forgotten or confirmed.
		p, to := rc.newPod(), node()
		c.assume(p, to)
		if rng.IntN(2) == 0 {
			c.forget(p.Key(), p.UID)
		} else {
			b := p.DeepCopyObject().(*api.Pod)
			b.Spec.NodeName = to
			c.setPod(b)
			rc.live = append(rc.live, b)
		}
	default:
		// Finished: no longer counted.
		i, p := newer()
		p.Status.Phase = api.PodSucceeded
		c.setPod(p)
		rc.live = slices.Delete(rc.live, i, i+1)
	}
}

// changeNode relabels a node (its zone, rack and now and then hostname;
// a new object, as the informer gives), or removes its Node object (its pods stay counted),
// or brings a removed one back. At least one node keeps its object.
func (rc *randomCluster) changeNode() {
	rng, c := rc.rng, rc.c
	name := rc.names[rng.IntN(len(rc.names))]
	if n := rc.gone[name]; n != nil {
		delete(rc.gone, name)
		c.setNode(n)
		return
	}
	n := c.nodes[name].node
	if rng.IntN(3) == 0 && len(c.list()) > 1 {
		rc.gone[name] = n
		c.removeNode(name)
		return
	}
	n = n.DeepCopyObject().(*api.Node)
	if rng.IntN(2) == 0 {
		n.Labels[labelZone] = fmt.Sprintf("z%d", rng.IntN(3))
	} else {
		delete(n.Labels, labelZone)
	}
	if rng.IntN(2) == 0 {
		n.Labels["rack"] = fmt.Sprintf("r%d", rng.IntN(4))
	} else {
		delete(n.Labels, "rack")
	}
	// Now and then another node's hostname (a domain of two nodes) or
	// none.
	switch rng.IntN(6) {
	case 0:
		n.Labels[labelHostname] = rc.names[rng.IntN(len(rc.names))]
	case 1:
		delete(n.Labels, labelHostname)
	}
	c.setNode(n)
}
