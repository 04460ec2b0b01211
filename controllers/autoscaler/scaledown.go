package autoscaler

import (
	"context"
	"fmt"
	"slices"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
)

// utilization is the larger of the node's CPU and memory requests as a
// share of its allocatable (simulator/utilization: DaemonSet pods count,
// --ignore-daemonsets-utilization being false by default).
func utilization(n *nodeState) float64 {
	u := 0.0
	if n.cpu > 0 {
		u = float64(n.usedCPU) / float64(n.cpu)
	}
	if n.mem > 0 {
		u = max(u, float64(n.usedMem)/float64(n.mem))
	}
	return u
}

// movable reports whether every pod of n but its daemon pods fits on the
// other nodes (not n, not those being removed), placing them there in
// the simulation so that two removals do not count the same room; n
// leaves the simulation (with its pods) if they all fit, and stays if
// not.
func movable(n *nodeState, s *state, gone map[string]bool) bool {
	mark := s.sim.Mark()
	s.sim.RemoveNode(n.node.Name)
	if !moveAll(n, s, gone) {
		s.sim.Revert(mark)
		return false
	}
	return true
}

func moveAll(n *nodeState, s *state, gone map[string]bool) bool {
	for _, p := range n.pods {
		if isDaemonPod(p) || expendable(p) {
			continue
		}
		cpu, mem := requests(p)
		placed := false
		for _, o := range s.nodes {
			if o == n || gone[o.node.Name] {
				continue
			}
			if o.fits(p, cpu, mem) {
				o.place(p, cpu, mem)
				placed = true
				break
			}
		}
		if !placed {
			return false
		}
	}
	return true
}

func empty(n *nodeState) bool {
	for _, p := range n.pods {
		if !isDaemonPod(p) {
			return false
		}
	}
	return true
}

// scaleDown marks unneeded nodes and removes those unneeded long enough:
// empty ones all at once, at most one non-empty one per scan.
func (a *autoscaler) scaleDown(ctx context.Context, s *state) {
	now := a.clock.Now()
	size := map[string]int{}
	groups := map[string]NodeGroup{}
	for _, g := range a.opts.Provider.NodeGroups() {
		groups[g.Name] = g
		size[g.Name] = a.opts.Provider.TargetSize(g.Name)
	}
	gone := map[string]bool{}
	var candidates []*nodeState
	for _, n := range s.nodes {
		name := n.node.Name
		g, ok := groups[n.group]
		if !ok || n.deleting || !n.ready || utilization(n) >= a.opts.ScaleDownUtilizationThreshold || size[n.group] <= g.MinSize {
			delete(a.unneededSince, name)
			continue
		}
		if !movable(n, s, gone) {
			delete(a.unneededSince, name)
			continue
		}
		if _, ok := a.unneededSince[name]; !ok {
			a.unneededSince[name] = now
		}
		gone[name] = true
		size[n.group]--
		candidates = append(candidates, n)
	}
	// Forget nodes that no longer exist.
	for _, name := range sortedKeys(a.unneededSince) {
		if s.byName[name] == nil {
			delete(a.unneededSince, name)
		}
	}
	if now.Sub(a.lastScaleUp) < a.opts.ScaleDownDelayAfterAdd && !a.lastScaleUp.IsZero() {
		return
	}
	drained := false
	for _, n := range candidates {
		if now.Sub(a.unneededSince[n.node.Name]) < a.opts.ScaleDownUnneededTime {
			continue
		}
		if !empty(n) {
			if drained {
				continue
			}
			drained = true
		}
		a.remove(ctx, n)
	}
}

// remove taints n ToBeDeletedByClusterAutoscaler, deletes its pods but
// daemon pods, and has the cloud delete the machine.
func (a *autoscaler) remove(ctx context.Context, n *nodeState) {
	node := n.node.DeepCopy()
	node.Spec.Taints = append(node.Spec.Taints, api.Taint{Key: TaintToBeDeleted, Value: fmt.Sprint(a.clock.Now().Unix()), Effect: api.TaintEffectNoSchedule})
	if _, err := a.client.Update(ctx, node); err != nil {
		return
	}
	if empty(n) {
		a.recorder.Eventf(n.node, client.EventTypeNormal, ReasonScaleDownEmpty, "Scale-down: removing empty node %q", n.node.Name)
	} else {
		a.recorder.Eventf(n.node, client.EventTypeNormal, ReasonScaleDown, "Scale-down: removing node %s, utilization: %.2f", n.node.Name, utilization(n))
	}
	a.decided("scale-down: node %s of %s, unneeded for %s (utilization %.2f)", n.node.Name, n.group,
		a.clock.Since(a.unneededSince[n.node.Name]), utilization(n))
	for _, p := range n.pods {
		if isDaemonPod(p) {
			continue
		}
		a.recorder.Eventf(p, client.EventTypeNormal, ReasonScaleDown, "deleting pod for node scale down")
		_ = a.client.Delete(ctx, api.KindPod, p.GetObjectMeta().Key())
	}
	_ = a.opts.Provider.DeleteNode(n.node.Name)
	delete(a.unneededSince, n.node.Name)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
