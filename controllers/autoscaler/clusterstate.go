package autoscaler

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The cluster's state as cluster-autoscaler's ClusterStateRegistry keeps
// it (clusterstate/clusterstate.go): each group's nodes by readiness,
// the machines the cloud has that have not registered, the scale-ups
// under way and the groups backed off after a failed one.

// MaxNodeStartupTime is how long a registered node may stay unready and
// still count as starting (clusterstate.MaxNodeStartupTime).
const MaxNodeStartupTime = 15 * time.Minute

// Skipped-group reasons of a pod's NotTriggerScaleUp event
// (core/scaleup/orchestrator/skippedreasons.go).
const (
	reasonBackoff  = "in backoff after failed scale-up"
	reasonNotReady = "not ready for scale-up"
)

// readiness is a group's (or the cluster's) nodes by state, as
// updateReadinessStats sorts them.
type readiness struct {
	ready, unready, notStarted []string
	registered                 int
	// unregistered and longUnregistered are machines the cloud has
	// that have no Node, for less or more than the max node provision
	// time.
	unregistered, longUnregistered []string
}

// scaleUpRequest is a scale-up waiting for its nodes (ScaleUpRequest).
type scaleUpRequest struct {
	increase int
	at       time.Time
	// expected is when the nodes must have registered: at plus the max
	// node provision time.
	expected time.Time
}

// clusterState is one scan's readiness: per group and in total, and
// each group's target size as the scan found it.
type clusterState struct {
	groups map[string]*readiness
	total  readiness
	target map[string]int
	// nodes counts every registered node, autoscaled or not.
	nodes int
}

func (cs *clusterState) group(name string) *readiness {
	r := cs.groups[name]
	if r == nil {
		r = &readiness{}
		cs.groups[name] = r
	}
	return r
}

// nodeReadiness files a registered node as ready, not started (unready
// and registered less than MaxNodeStartupTime ago) or unready.
func nodeReadiness(r *readiness, n *nodeState, now time.Time) {
	r.registered++
	name := n.node.Name
	switch {
	case n.ready:
		r.ready = append(r.ready, name)
	case n.node.CreationTimestamp.Add(MaxNodeStartupTime).After(now):
		r.notStarted = append(r.notStarted, name)
	default:
		r.unready = append(r.unready, name)
	}
}

// updateClusterState is ClusterStateRegistry.UpdateNodes: readiness of
// the registered nodes, the cloud's machines without a Node (each timed
// from the scan that first saw it), then the scale-up requests.
func (a *autoscaler) updateClusterState(s *state, now time.Time) *clusterState {
	cs := &clusterState{groups: map[string]*readiness{}, target: map[string]int{}, nodes: len(s.nodes)}
	for _, n := range s.nodes {
		if n.group != "" {
			nodeReadiness(cs.group(n.group), n, now)
		}
		nodeReadiness(&cs.total, n, now)
	}
	seen := map[string]bool{}
	for _, g := range a.opts.Provider.NodeGroups() {
		cs.target[g.Name] = a.opts.Provider.TargetSize(g.Name)
		r := cs.group(g.Name)
		for _, name := range a.opts.Provider.Nodes(g.Name) {
			if s.byName[name] != nil {
				continue
			}
			seen[name] = true
			since, ok := a.unregisteredSince[name]
			if !ok {
				since = now
				a.unregisteredSince[name] = now
			}
			if since.Add(a.opts.MaxNodeProvisionTime).Before(now) {
				r.longUnregistered = append(r.longUnregistered, name)
				cs.total.longUnregistered = append(cs.total.longUnregistered, name)
			} else {
				r.unregistered = append(r.unregistered, name)
			}
		}
	}
	for _, name := range sortedKeys(a.unregisteredSince) {
		if !seen[name] {
			delete(a.unregisteredSince, name)
		}
	}
	a.updateScaleUpRequests(cs, now)
	return cs
}

// upcoming is how many nodes of group are still to come: its target
// less its ready, unready and long unregistered nodes
// (calculateUpcomingNodesInNodeGroup; nodes not started yet are
// upcoming).
func (cs *clusterState) upcoming(group string) int {
	r := cs.group(group)
	return max(0, cs.target[group]-len(r.ready)-len(r.unready)-len(r.longUnregistered))
}

// upcomingForScaleUp is how many template nodes of group a scale-up
// counts on (GetUpcomingNodes): none for a group without a scale-up
// under way or backed off, lest nodes that will not come make pending
// pods look placeable and keep other groups from being tried.
func (a *autoscaler) upcomingForScaleUp(cs *clusterState, group string, now time.Time) int {
	if _, ok := a.scaleUps[group]; !ok || a.backoff.backedOff(group, now) {
		return 0
	}
	return cs.upcoming(group)
}

// registerScaleUp records delta more nodes asked of group at now
// (RegisterOrUpdateScaleUp): a new request, or one pushed back.
func (a *autoscaler) registerScaleUp(group string, delta int, now time.Time) {
	expected := now.Add(a.opts.MaxNodeProvisionTime)
	if r, ok := a.scaleUps[group]; ok {
		r.increase += delta
		r.at, r.expected = now, expected
		return
	}
	a.scaleUps[group] = &scaleUpRequest{increase: delta, at: now, expected: expected}
}

// updateScaleUpRequests is updateScaleRequests: a request whose group
// has no node left to come succeeded; one past its max node provision
// time failed: the group is backed off, the cloud is asked to take the
// nodes back from its target size (it refuses for machines that exist),
// and the request is dropped.
func (a *autoscaler) updateScaleUpRequests(cs *clusterState, now time.Time) {
	a.backoff.removeStale(now)
	for _, g := range sortedKeys(a.scaleUps) {
		r := a.scaleUps[g]
		if cs.upcoming(g) == 0 {
			delete(a.scaleUps, g)
			continue
		}
		if !r.expected.Before(now) {
			continue
		}
		took := now.Sub(r.at)
		a.decided("scale-up: Scale-up timed out for node group %s after %s (ScaleUpTimedOut: Nodes added to group %s failed to register within %s)", g, took, g, took)
		d, _ := a.backoff.fail(g, "timeout", now)
		a.decided("scale-up: Disabling scale-up for node group %s for %s; errorCode=timeout", g, d)
		a.decided("scale-up: Reverting timed-out scale-up for node group %s by decreasing target size by %d", g, r.increase)
		if err := a.opts.Provider.DecreaseTargetSize(g, -r.increase); err != nil {
			a.decided("scale-up: Failed to decrease target size for group %s after scale-up timeout: %v (FailedToRevertScaleUp)", g, err)
		}
		delete(a.scaleUps, g)
	}
}

// nodeGroupHealthy is IsNodeGroupHealthy: a group is unhealthy when
// more of the nodes it should have ready are missing than both the ok
// count and the max percentage of its registered nodes allow. The nodes
// it should have are its target less its long unregistered nodes and
// the nodes of a scale-up under way.
func (a *autoscaler) nodeGroupHealthy(cs *clusterState, group string) bool {
	r := cs.group(group)
	minNodes := cs.target[group] - len(r.longUnregistered)
	if req, ok := a.scaleUps[group]; ok {
		minNodes -= req.increase
	}
	if r.registered == 0 && len(r.unregistered)+len(r.longUnregistered) == 0 {
		// No nodes: fine when the target is zero or a scale-up from
		// zero is under way.
		return cs.target[group] == 0 || minNodes <= 0
	}
	missing := max(0, minNodes-len(r.ready))
	return a.withinUnreadyLimits(missing, len(r.ready)+len(r.unready)+len(r.notStarted))
}

// healthy is the test of IsClusterHealthy and IsNodeGroupHealthy: not
// more than okCount unready nodes, or not more than maxPercent of
// total.
func healthy(unready, total, okCount int, maxPercent float64) bool {
	return unready <= okCount || float64(unready) <= maxPercent/100*float64(total)
}

func (a *autoscaler) withinUnreadyLimits(unready, total int) bool {
	return healthy(unready, total, *a.opts.OkTotalUnreadyCount, *a.opts.MaxTotalUnreadyPercentage)
}

// clusterHealthy is IsClusterHealthy over the registered nodes. Going
// unhealthy, and healthy again, is told on the timeline once.
func (a *autoscaler) clusterHealthy(cs *clusterState) bool {
	ok := a.withinUnreadyLimits(len(cs.total.unready), cs.nodes)
	if ok == !a.unhealthy {
		return ok
	}
	a.unhealthy = !ok
	counts := fmtReadiness(&cs.total)
	if ok {
		a.decided("Cluster is healthy again, autoscaling resumes: %s", counts)
	} else {
		a.decided("Cluster is not ready for autoscaling: %s (ClusterUnhealthy: Cluster is unhealthy)", counts)
	}
	return ok
}

// fmtReadiness is the counts of the status ConfigMap's health condition.
func fmtReadiness(r *readiness) string {
	return fmt.Sprintf("ready=%d unready=%d notStarted=%d registered=%d longUnregistered=%d",
		len(r.ready), len(r.unready), len(r.notStarted), r.registered, len(r.longUnregistered))
}

// removeOldUnregistered is removeOldUnregisteredNodes: each group's
// machines unregistered for longer than the max node provision time are
// deleted, as many as the group's min size allows.
func (a *autoscaler) removeOldUnregistered(cs *clusterState) {
	for _, g := range a.opts.Provider.NodeGroups() {
		names := slices.Clone(cs.group(g.Name).longUnregistered)
		if len(names) == 0 {
			continue
		}
		room := a.opts.Provider.TargetSize(g.Name) - g.MinSize
		if room <= 0 {
			a.decided("Node group %s min size reached, skipping removal of %d unregistered nodes", g.Name, len(names))
			continue
		}
		if len(names) > room {
			names = names[:room]
		}
		a.decided("Removing %d unregistered nodes for node group %s: %s (DeleteUnregistered)", len(names), g.Name, strings.Join(names, ", "))
		for _, name := range names {
			if err := a.opts.Provider.DeleteNode(name); err != nil {
				a.decided("Failed to remove node %s: %v (DeleteUnregisteredFailed)", name, err)
				return
			}
			delete(a.unregisteredSince, name)
		}
	}
}
