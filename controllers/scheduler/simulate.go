package scheduler

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// Simulation is a what-if copy of a cluster for the cluster autoscaler:
// nodes, real or imagined (a node group's template), and the pods counted
// on them, as cluster-autoscaler's ClusterSnapshot holds them to run
// kube-scheduler's filter plugins on (cluster-autoscaler
// simulator/clustersnapshot and simulator/predicatechecker). Placement
// answers the two filters that depend on other pods, PodTopologySpread
// and InterPodAffinity, with the scheduler's own code; Mark and Revert
// undo changes, as the snapshot's Fork and Revert do.
//
// A Simulation is not safe for concurrent use. Queries for a pod with no
// spread constraints or pod (anti-)affinity, in a simulation holding no
// pod with pod (anti-)affinity, answer at once; others rebuild the
// filters' state over every pod, once per pod and change.
type Simulation struct {
	c   *cache
	log []change
	// ver counts changes; a cached filter state is for one pod at one ver.
	ver       uint64
	cachedFor *api.Pod
	cachedAt  uint64
	cached    *podInfo
}

// change is one logged mutation, undone by Revert.
type change struct {
	addNode, removeNode *api.Node
	addPod              api.Key
	removePod           *podEntry
}

// NewSimulation returns an empty simulation.
func NewSimulation() *Simulation { return &Simulation{c: newCache()} }

// AddNode adds node n.
func (s *Simulation) AddNode(n *api.Node) {
	s.ver++
	s.c.setNode(n)
	s.log = append(s.log, change{addNode: n})
}

// RemoveNode removes node name and the pods counted on it.
func (s *Simulation) RemoveNode(name string) {
	ni := s.c.nodes[name]
	if ni == nil || ni.node == nil {
		return
	}
	s.ver++
	for len(ni.entries) > 0 {
		s.RemovePod(ni.entries[0].pod.Key())
	}
	n := ni.node
	s.c.removeNode(name)
	s.log = append(s.log, change{removeNode: n})
}

// AddPod counts pod on node.
func (s *Simulation) AddPod(pod *api.Pod, node string) {
	key := pod.Key()
	if s.c.pods[key] != nil {
		s.RemovePod(key)
	}
	s.ver++
	s.c.addEntry(key, newEntry(pod, node))
	s.log = append(s.log, change{addPod: key})
}

// RemovePod stops counting the pod with key.
func (s *Simulation) RemovePod(key api.Key) {
	e := s.c.removeEntry(key)
	if e == nil {
		return
	}
	s.ver++
	s.log = append(s.log, change{removePod: e})
}

// Commit makes every change so far permanent: Revert can no longer undo
// them, a mark taken before is void, and the log holds nothing. A caller
// keeping a simulation in step with a cluster between what-ifs commits
// after each update, so that the log holds only a what-if's changes.
func (s *Simulation) Commit() {
	clear(s.log)
	s.log = s.log[:0]
}

// Contents describes what the simulation holds, for tests comparing two:
// a line per node in name order (a node without a Node object marked
// "(no node)"), with the keys of the pods counted on it sorted.
func (s *Simulation) Contents() string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(s.c.nodes)) {
		ni := s.c.nodes[name]
		keys := make([]api.Key, 0, len(ni.entries))
		for _, e := range ni.entries {
			keys = append(keys, e.pod.Key())
		}
		slices.SortFunc(keys, func(x, y api.Key) int {
			return cmp.Or(strings.Compare(x.Namespace, y.Namespace), strings.Compare(x.Name, y.Name))
		})
		missing := ""
		if ni.node == nil {
			missing = " (no node)"
		}
		fmt.Fprintf(&b, "%s%s: %v\n", name, missing, keys)
	}
	fmt.Fprintf(&b, "with affinity: %d\n", s.c.withAffinity)
	return b.String()
}

// Mark returns a point to Revert to.
func (s *Simulation) Mark() int { return len(s.log) }

// Revert undoes every change made since mark.
func (s *Simulation) Revert(mark int) {
	for i := len(s.log) - 1; i >= mark; i-- {
		ch := s.log[i]
		switch {
		case ch.addNode != nil:
			s.c.removeNode(ch.addNode.Name)
			if ni := s.c.nodes[ch.addNode.Name]; ni != nil && ni.pods == 0 {
				delete(s.c.nodes, ch.addNode.Name)
			}
		case ch.removeNode != nil:
			s.c.setNode(ch.removeNode)
		case ch.removePod != nil:
			s.c.addEntry(ch.removePod.pod.Key(), ch.removePod)
		default:
			s.c.removeEntry(ch.addPod)
		}
	}
	s.log = s.log[:mark]
	s.ver++
}

// Placement returns the reason PodTopologySpread or InterPodAffinity
// would reject pod on node (upstream's reason string), or "" if both
// accept it.
func (s *Simulation) Placement(pod *api.Pod, node string) string {
	if !hasPlacementRules(pod) && s.c.withAffinity == 0 {
		return ""
	}
	ni := s.c.nodes[node]
	if ni == nil || ni.node == nil {
		return ""
	}
	if s.cachedFor != pod || s.cachedAt != s.ver || s.cached == nil {
		nodes := s.c.list()
		pi := newPodInfo(pod)
		if f, ok := s.c.spreadFilterIndexed(pi); ok {
			pi.spread = f
		} else {
			pi.spread = newSpreadFilter(pi, nodes)
		}
		pi.interPod = s.c.interPodFilterIndexed(pi)
		s.cachedFor, s.cachedAt, s.cached = pod, s.ver, pi
	}
	pi := s.cached
	if pi.spread != nil {
		if r := pi.spread.filter(ni); r != "" {
			return r
		}
	}
	if pi.interPod != nil {
		if r := pi.interPod.filter(pod, ni); r != "" {
			return r
		}
	}
	return ""
}
