package autoscaler

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
)

// utilization is the larger of the node's CPU and memory requests as a
// share of its allocatable (simulator/utilization: DaemonSet pods count,
// --ignore-daemonsets-utilization being false by default; pods
// terminating past their grace period do not).
func utilization(n *nodeState) float64 {
	u := 0.0
	if n.cpu > 0 {
		u = float64(n.usedCPU-n.goneCPU) / float64(n.cpu)
	}
	if n.mem > 0 {
		u = max(u, float64(n.usedMem-n.goneMem)/float64(n.mem))
	}
	return u
}

// movable reports whether pods (n's pods to move) all fit on the other
// nodes (not n, not those being removed), placing them there in the
// simulation so that two removals do not count the same room; n leaves
// the simulation (with its pods) if they all fit, and stays if not.
func movable(n *nodeState, pods []*api.Pod, s *state, gone map[string]bool) bool {
	mark := s.sim.Mark()
	s.sim.RemoveNode(n.node.Name)
	if !moveAll(n, pods, s, gone) {
		s.sim.Revert(mark)
		return false
	}
	return true
}

func moveAll(n *nodeState, pods []*api.Pod, s *state, gone map[string]bool) bool {
	for _, p := range pods {
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

// candidate is a node found unneeded this scan, with its pods sorted by
// the drainability rules.
type candidate struct {
	n    *nodeState
	info podMoveInfo
}

// scaleDown marks unneeded nodes, keeps those a pod blocks (telling why),
// and removes those unneeded long enough: empty ones all at once, and one
// to drain when no drain is under way.
func (a *autoscaler) scaleDown(ctx context.Context, s *state) {
	now := a.clock.Now()
	candidates := a.unneeded(s, now)
	a.forgetGone(s)
	if now.Sub(a.lastScaleUp) < a.opts.ScaleDownDelayAfterAdd && !a.lastScaleUp.IsZero() {
		return
	}
	for _, c := range candidates {
		name := c.n.node.Name
		if now.Sub(a.unneededSince[name]) < a.removalThreshold(c.n) {
			continue
		}
		switch {
		case len(c.info.onCompletionPods) > 0:
			// planner.go NodesToDelete: BlockedByOnCompletionPod.
			a.report(name, "has active on-completion pods, delaying scale down")
		case len(c.info.pods) == 0:
			a.removeEmpty(ctx, c.n)
		case a.draining == "":
			a.startDrain(ctx, c)
		}
	}
}

// removalThreshold is how long n must be unneeded before it goes: the
// unneeded time, or for an unready node the unready time
// (unneeded/nodes.go lookupAndSetRemovalThreshold).
func (a *autoscaler) removalThreshold(n *nodeState) time.Duration {
	if n.ready {
		return a.opts.ScaleDownUnneededTime
	}
	return a.opts.ScaleDownUnreadyTime
}

// unneeded finds this scan's unneeded nodes in name order, as the
// planner's categorizeNodes does: eligibility (group, readiness when
// scale-down of unready nodes is disabled, utilization, min size), then the drainability of the node's pods with
// the disruption budgets left, then room for its pods elsewhere. A node a
// pod blocks or whose pods fit nowhere is not looked at again for the
// recheck timeout; the budgets a removable node's pods take are spent
// for the nodes after it.
func (a *autoscaler) unneeded(s *state, now time.Time) []candidate {
	size := map[string]int{}
	groups := map[string]NodeGroup{}
	for _, g := range a.opts.Provider.NodeGroups() {
		groups[g.Name] = g
		size[g.Name] = a.opts.Provider.TargetSize(g.Name)
	}
	dc := &drainContext{budgets: newBudgetTracker(a.disruptionBudgets()), controllers: a.owners, now: now}
	gone := map[string]bool{}
	var candidates []candidate
	for _, n := range s.nodes {
		name := n.node.Name
		g, ok := groups[n.group]
		if !ok || n.deleting || (!n.ready && a.opts.ScaleDownUnreadyDisabled) || now.Before(a.unremovableUntil[name]) ||
			utilization(n) >= a.opts.ScaleDownUtilizationThreshold || size[n.group] <= g.MinSize {
			delete(a.unneededSince, name)
			continue
		}
		info := podsToMove(nonExpendable(n.pods), a.rules, dc)
		if info.blocking != nil {
			// simulator/cluster.go SimulateNodeRemoval's log line.
			a.keep(name, now)
			a.report(name, fmt.Sprintf("cannot be removed: %v (%s)", info.err, info.reason))
			continue
		}
		if !movable(n, info.pods, s, gone) {
			a.keep(name, now)
			continue
		}
		dc.budgets.remove(info.pods)
		if _, ok := a.unneededSince[name]; !ok {
			a.unneededSince[name] = now
		}
		if len(info.onCompletionPods) == 0 {
			delete(a.reported, name)
		}
		gone[name] = true
		size[n.group]--
		candidates = append(candidates, candidate{n: n, info: info})
	}
	return candidates
}

// keep records name as unremovable until the recheck timeout
// (unremovable.Nodes AddTimeout).
func (a *autoscaler) keep(name string, now time.Time) {
	delete(a.unneededSince, name)
	a.unremovableUntil[name] = now.Add(a.opts.UnremovableNodeRecheckTimeout)
}

// report tells the timeline why a node is kept, once per reason.
func (a *autoscaler) report(name, why string) {
	if a.reported[name] == why {
		return
	}
	a.reported[name] = why
	a.decided("scale-down: node %s %s", name, why)
}

// forgetGone drops what is remembered of nodes that no longer exist.
func (a *autoscaler) forgetGone(s *state) {
	for _, m := range []map[string]time.Time{a.unneededSince, a.unremovableUntil} {
		for _, name := range sortedKeys(m) {
			if s.byName[name] == nil {
				delete(m, name)
			}
		}
	}
	for _, name := range sortedKeys(a.reported) {
		if s.byName[name] == nil {
			delete(a.reported, name)
		}
	}
}

// nonExpendable is pods without the expendable ones, which the autoscaler
// leaves out of its snapshot.
func nonExpendable(pods []*api.Pod) []*api.Pod {
	out := make([]*api.Pod, 0, len(pods))
	for _, p := range pods {
		if !expendable(p) {
			out = append(out, p)
		}
	}
	return out
}

// disruptionBudgets lists the cluster's PodDisruptionBudgets.
func (a *autoscaler) disruptionBudgets() []*api.PodDisruptionBudget {
	var out []*api.PodDisruptionBudget
	for _, o := range a.budgets.List(api.Everything(), "") {
		if b, ok := o.(*api.PodDisruptionBudget); ok {
			out = append(out, b)
		}
	}
	return out
}

// markToBeDeleted taints node ToBeDeletedByClusterAutoscaler (actuator.go
// taintNode), reporting whether it could.
func (a *autoscaler) markToBeDeleted(ctx context.Context, n *api.Node) bool {
	node := n.DeepCopy()
	node.Spec.Taints = append(node.Spec.Taints, api.Taint{Key: TaintToBeDeleted, Value: fmt.Sprint(a.clock.Now().Unix()), Effect: api.TaintEffectNoSchedule})
	if _, err := a.client.Update(ctx, node); err != nil {
		a.recorder.Eventf(n, client.EventTypeWarning, ReasonScaleDownFailed, "failed to mark the node as toBeDeleted/unschedulable: %v", err)
		return false
	}
	a.recorder.Eventf(n, client.EventTypeNormal, ReasonScaleDown, "marked the node as toBeDeleted/unschedulable")
	return true
}

// removeEmpty taints n and has the cloud delete its machine: its
// DaemonSet pods are not evicted (--daemonset-eviction-for-empty-nodes is
// false by default).
func (a *autoscaler) removeEmpty(ctx context.Context, n *nodeState) {
	if !a.markToBeDeleted(ctx, n.node) {
		return
	}
	a.recorder.Eventf(n.node, client.EventTypeNormal, ReasonScaleDownEmpty, "Scale-down: removing empty node %q", n.node.Name)
	a.decidedRemoval(n)
	_ = a.opts.Provider.DeleteNode(n.node.Name)
	a.recorder.Eventf(n.node, client.EventTypeNormal, ReasonScaleDown, "nodes removed by cluster autoscaler")
	delete(a.unneededSince, n.node.Name)
}

func (a *autoscaler) decidedRemoval(n *nodeState) {
	unready := ""
	if !n.ready {
		unready = ", unready"
	}
	a.decided("scale-down: node %s of %s, unneeded for %s (utilization %.2f%s)", n.node.Name, n.group,
		a.clock.Since(a.unneededSince[n.node.Name]), utilization(n), unready)
}

// startDrain taints c's node and starts its drain and deletion in a
// process of its own, as the actuator's goroutine does.
func (a *autoscaler) startDrain(ctx context.Context, c candidate) {
	n := c.n
	if !a.markToBeDeleted(ctx, n.node) {
		return
	}
	_, evicted := podsToEvict(nonExpendable(n.pods))
	a.recorder.Eventf(n.node, client.EventTypeNormal, ReasonScaleDown, "Scale-down: removing node %s, utilization: %.2f, pods to reschedule: %s",
		n.node.Name, utilization(n), podNames(evicted))
	a.decidedRemoval(n)
	delete(a.unneededSince, n.node.Name)
	node := n.node
	a.draining = node.Name
	if err := a.spawn("drain-"+node.Name, func(ctx context.Context) { a.drainAndDelete(ctx, node) }); err != nil {
		a.draining = ""
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
