package daemonset

import (
	"context"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
)

// unavailableCount is util.UnavailableCount: maxUnavailable scaled up
// from the desired count; 0 without a rolling update.
func unavailableCount(ds *api.DaemonSet, desired int) int {
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType || ru == nil || ru.MaxUnavailable == nil {
		return 0
	}
	n, err := api.GetScaledValueFromIntOrPercent(ru.MaxUnavailable, desired, true)
	if err != nil {
		return 0
	}
	return n
}

// updatedDesiredNodeCounts is upstream's: the surge and unavailability
// budgets and the number of nodes that should run the pod; with desired
// nodes but neither budget, one node may be unavailable.
func updatedDesiredNodeCounts(ds *api.DaemonSet, nodes []*api.Node, should shouldRunFunc) (surge, unavailable, desired int) {
	for _, n := range nodes {
		if shouldRun, _ := should(n, ds); shouldRun {
			desired++
		}
	}
	unavailable, surge = unavailableCount(ds, desired), maxSurge(ds, desired)
	if desired > 0 && unavailable == 0 && surge == 0 {
		unavailable = 1
	}
	return surge, unavailable, desired
}

// maxSurge is util.SurgeCount: maxSurge scaled up from the desired
// count; 0 without a rolling update.
func maxSurge(ds *api.DaemonSet, desired int) int {
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType || ru == nil || ru.MaxSurge == nil {
		return 0
	}
	n, err := api.GetScaledValueFromIntOrPercent(ru.MaxSurge, desired, true)
	if err != nil {
		return 0
	}
	return n
}

// rollingUpdate replaces pods of an old template (upstream's
// rollingUpdate in pkg/controller/daemon/update.go). Without surge it
// deletes old pods, keeping the number of unavailable desired nodes at
// most maxUnavailable: old pods that are not available go at once,
// available ones while the budget allows, nodes in name order; the pods
// are re-created by the next sync's manage. With maxSurge it creates new
// pods beside the old ones, at most maxSurge at a time (at once where the
// old pod is not available), and deletes an old pod when the new pod on
// its node is available.
func (r *reconciler) rollingUpdate(ctx context.Context, ds *api.DaemonSet, nodes []*api.Node, hash string) error {
	del, create := podsToReplace(ds, nodes, r.nodeToDaemonPods(ds), hash, r.clock.Now(), r.verdicts.shouldRun)
	if len(del) == 0 && len(create) == 0 {
		return nil
	}
	return r.syncNodes(ctx, ds, del, create, hash)
}

// podsToReplace is the decision of rollingUpdate: the old pods to delete
// and the nodes to create a new pod on now, given the pods by node (each
// node's oldest first).
func podsToReplace(ds *api.DaemonSet, nodes []*api.Node, byNode map[string][]*api.Pod, hash string, now time.Time, should shouldRunFunc) (del []*api.Pod, create []string) {
	surge, unavailable, desired := updatedDesiredNodeCounts(ds, nodes, should)
	if surge > 0 {
		return surgeReplace(ds, nodes, byNode, hash, now, surge, desired, should)
	}
	return replaceWithoutSurge(ds, nodes, byNode, hash, now, unavailable, should), nil
}

// surgeReplace is rollingUpdate's surge branch: a node whose old pod is
// not available gets its new pod at once (or loses the old one if it
// should not run the pod any more); nodes with an available old pod get
// new pods while fewer than maxSurge new pods are not yet available; an
// old pod goes when the new pod beside it is available. Old pods on nodes
// that should no longer run the pod go only while more pods are
// available than desired.
func surgeReplace(ds *api.DaemonSet, nodes []*api.Node, byNode map[string][]*api.Pod, hash string, now time.Time, surge, desired int, should shouldRunFunc) (del []*api.Pod, create []string) {
	var shouldNotRun []*api.Pod
	var candidates, allowed []string
	numSurge, numAvailable := 0, 0
	for _, n := range nodes {
		pods, ok := byNode[n.Name]
		if !ok {
			continue
		}
		newPod, oldPod, ok := findUpdatedPodsOnNode(pods, hash)
		if !ok {
			numSurge++ // the manage loop cleans up this node
			continue
		}
		switch {
		case oldPod != nil && replicaset.IsPodAvailable(oldPod, ds.Spec.MinReadySeconds, now):
			numAvailable++
		case oldPod == nil && newPod != nil && replicaset.IsPodAvailable(newPod, ds.Spec.MinReadySeconds, now):
			numAvailable++
		}
		shouldRun, _ := should(n, ds)
		switch {
		case oldPod == nil:
			// The manage loop handles the node.
		case newPod == nil && !replicaset.IsPodAvailable(oldPod, ds.Spec.MinReadySeconds, now):
			if !shouldRun {
				del = append(del, oldPod)
				continue
			}
			allowed = append(allowed, n.Name)
		case newPod == nil:
			if !shouldRun {
				shouldNotRun = append(shouldNotRun, oldPod)
				continue
			}
			candidates = append(candidates, n.Name)
		case !replicaset.IsPodAvailable(newPod, ds.Spec.MinReadySeconds, now):
			numSurge++ // waiting for the new pod
		default:
			del = append(del, oldPod)
		}
	}
	// Pods on nodes that should not run them go only while the others
	// keep more than the desired number available.
	if deletable := min(numAvailable-desired, len(shouldNotRun)); deletable > 0 {
		for _, p := range shouldNotRun[:deletable] {
			if p.DeletionTimestamp == nil {
				del = append(del, p)
			}
		}
	}
	remaining := min(max(surge-numSurge, 0), len(candidates))
	return del, append(allowed, candidates[:remaining]...)
}

// replaceWithoutSurge is rollingUpdate's branch for maxSurge 0.
func replaceWithoutSurge(ds *api.DaemonSet, nodes []*api.Node, byNode map[string][]*api.Pod, hash string, now time.Time, budget int, should shouldRunFunc) []*api.Pod {
	var names []string
	for _, n := range nodes {
		if shouldRun, _ := should(n, ds); shouldRun {
			names = append(names, n.Name)
		} else if _, ok := byNode[n.Name]; ok {
			names = append(names, n.Name)
		}
	}
	numUnavailable := 0
	var allowed, candidates []*api.Pod
	for _, name := range names {
		newPod, oldPod, ok := findUpdatedPodsOnNode(byNode[name], hash)
		if !ok {
			numUnavailable++
			continue
		}
		switch {
		case oldPod == nil && newPod == nil, oldPod != nil && newPod != nil:
			// manage creates or deletes the right pod: unavailable.
			numUnavailable++
		case newPod != nil:
			if !replicaset.IsPodAvailable(newPod, ds.Spec.MinReadySeconds, now) {
				numUnavailable++
			}
		default:
			switch {
			case !replicaset.IsPodAvailable(oldPod, ds.Spec.MinReadySeconds, now):
				allowed = append(allowed, oldPod)
			case numUnavailable >= budget:
			default:
				candidates = append(candidates, oldPod)
			}
		}
	}
	remaining := min(max(budget-numUnavailable, 0), len(candidates))
	return append(allowed, candidates[:remaining]...)
}

// findUpdatedPodsOnNode returns the running pod of the current template
// and of an old one on a node; ok is false with more than one of either
// (upstream's findUpdatedPodsOnNode).
func findUpdatedPodsOnNode(pods []*api.Pod, hash string) (newPod, oldPod *api.Pod, ok bool) {
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if p.Labels[api.LabelControllerRevisionHash] == hash {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = p
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = p
		}
	}
	return newPod, oldPod, true
}

// updateStatus computes and writes the DaemonSet's status
// (updateDaemonSetStatus and storeDaemonSetStatus): per node that should
// run the pod, whether one is there, its oldest pod ready, available and
// of the current template; pods on nodes that should not run them are
// misscheduled. observedGeneration is raised only when the sync acted.
func (r *reconciler) updateStatus(ctx context.Context, ds *api.DaemonSet, nodes []*api.Node, hash string, observed bool) (controller.Result, error) {
	byNode := r.nodeToDaemonPods(ds)
	now := r.clock.Now()
	var st api.DaemonSetStatus
	for _, n := range nodes {
		shouldRun, _ := r.verdicts.shouldRun(n, ds)
		pods := byNode[n.Name]
		if !shouldRun {
			if len(pods) > 0 {
				st.NumberMisscheduled++
			}
			continue
		}
		st.DesiredNumberScheduled++
		if len(pods) == 0 {
			continue
		}
		st.CurrentNumberScheduled++
		p := pods[0]
		if api.IsPodReady(p) {
			st.NumberReady++
			if replicaset.IsPodAvailable(p, ds.Spec.MinReadySeconds, now) {
				st.NumberAvailable++
			}
		}
		if p.Labels[api.LabelControllerRevisionHash] == hash {
			st.UpdatedNumberScheduled++
		}
	}
	st.NumberUnavailable = st.DesiredNumberScheduled - st.NumberAvailable
	var res controller.Result
	if mrs := ds.Spec.MinReadySeconds; mrs > 0 && st.NumberReady != st.NumberAvailable {
		res.RequeueAfter = time.Duration(mrs) * time.Second
	}
	cur := ds.Status
	if cur.DesiredNumberScheduled == st.DesiredNumberScheduled && cur.CurrentNumberScheduled == st.CurrentNumberScheduled &&
		cur.NumberMisscheduled == st.NumberMisscheduled && cur.NumberReady == st.NumberReady &&
		cur.UpdatedNumberScheduled == st.UpdatedNumberScheduled && cur.NumberAvailable == st.NumberAvailable &&
		cur.NumberUnavailable == st.NumberUnavailable && cur.ObservedGeneration >= ds.Generation {
		return res, nil
	}
	up := ds.DeepCopy()
	for i := 0; ; i++ {
		if observed {
			up.Status.ObservedGeneration = ds.Generation
		}
		up.Status.DesiredNumberScheduled = st.DesiredNumberScheduled
		up.Status.CurrentNumberScheduled = st.CurrentNumberScheduled
		up.Status.NumberMisscheduled = st.NumberMisscheduled
		up.Status.NumberReady = st.NumberReady
		up.Status.UpdatedNumberScheduled = st.UpdatedNumberScheduled
		up.Status.NumberAvailable = st.NumberAvailable
		up.Status.NumberUnavailable = st.NumberUnavailable
		_, err := client.UpdateStatusAs(ctx, r.client, up)
		if err == nil {
			return res, nil
		}
		if i >= StatusUpdateRetries {
			return controller.Result{}, err
		}
		fresh, getErr := client.GetAs[*api.DaemonSet](ctx, r.client, keyOf(ds))
		if getErr != nil {
			return controller.Result{}, getErr
		}
		up = fresh
	}
}
