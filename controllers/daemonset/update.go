package daemonset

import (
	"context"
	"time"

	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
)

// maxUnavailable is updatedDesiredNodeCounts' bound for desired nodes:
// maxUnavailable scaled up from the desired count (util.UnavailableCount),
// and 1 when it and maxSurge are both 0.
func maxUnavailable(ds *api.DaemonSet, desired int) int {
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != api.RollingUpdateDaemonSetStrategyType || ru == nil || ru.MaxUnavailable == nil {
		return 1
	}
	n, err := api.GetScaledValueFromIntOrPercent(ru.MaxUnavailable, desired, true)
	if err != nil || n == 0 {
		return 1
	}
	return n
}

// rollingUpdate deletes pods of an old template, keeping the number of
// unavailable desired nodes at most maxUnavailable (upstream's
// rollingUpdate without surge): old pods that are not available go at
// once, available ones while the budget allows, nodes in name order. The
// pods are re-created by the next sync's manage.
func (r *reconciler) rollingUpdate(ctx context.Context, ds *api.DaemonSet, nodes []*api.Node, hash string) error {
	del := podsToReplace(ds, nodes, r.nodeToDaemonPods(ds), hash, r.clock.Now())
	if len(del) == 0 {
		return nil
	}
	return r.syncNodes(ctx, ds, del, nil, hash)
}

// podsToReplace is the decision of rollingUpdate: the old pods to delete
// now, given the pods by node (each node's oldest first).
func podsToReplace(ds *api.DaemonSet, nodes []*api.Node, byNode map[string][]*api.Pod, hash string, now time.Time) []*api.Pod {
	desired := 0
	var names []string
	for _, n := range nodes {
		if shouldRun, _ := NodeShouldRunDaemonPod(n, ds); shouldRun {
			desired++
			names = append(names, n.Name)
		} else if _, ok := byNode[n.Name]; ok {
			names = append(names, n.Name)
		}
	}
	budget := maxUnavailable(ds, desired)
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
		shouldRun, _ := NodeShouldRunDaemonPod(n, ds)
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
