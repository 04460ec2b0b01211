package autoscaler

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/informer"
)

// The drain of a node being removed, after cluster-autoscaler's
// core/scaledown/actuation (actuator.go deleteNodesAsync,
// group_deletion_scheduler.go, drain.go Evictor) with the default flags:
// a pause after the taint, the drainability rules run again on the
// node's pods as they are now, every pod but mirror and DaemonSet pods
// evicted through the Eviction API (DaemonSet pods too, best effort), a
// refused eviction retried until the max pod eviction time, then a wait
// for the evicted pods to go. A drain that fails gives the node back:
// its taint is removed and it is not deleted.

// Actuation constants of cluster-autoscaler (actuation/drain.go,
// utils/taints/taints.go).
const (
	// EvictionRetryTime is how long a refused eviction waits before it
	// is tried again (DefaultEvictionRetryTime).
	EvictionRetryTime = 10 * time.Second
	// PodEvictionHeadroom is how long, past the longest grace period, the
	// drain waits for evicted pods (DefaultPodEvictionHeadroom).
	PodEvictionHeadroom = 30 * time.Second
	// podGonePoll is how often waitPodsToDisappear looks.
	podGonePoll = 5 * time.Second
	// taintRetryDeadline and taintConflictRetry bound a taint's removal
	// against write conflicts (maxRetryDeadline, conflictRetryInterval).
	taintRetryDeadline = 5 * time.Second
	taintConflictRetry = 750 * time.Millisecond
)

// drainAndDelete drains node and has the cloud delete its machine, or
// gives the node back when the drain fails. It runs in its own process.
func (a *autoscaler) drainAndDelete(ctx context.Context, node *api.Node) {
	defer func() { a.draining = "" }()
	a.clock.Sleep(a.opts.NodeDeleteDelayAfterTaint)
	pods := a.podsOn(node.Name)
	dc := &drainContext{budgets: newBudgetTracker(a.disruptionBudgets()), controllers: a.owners, now: a.clock.Now()}
	if info := podsToMove(pods, a.rules, dc); info.blocking != nil {
		a.abortDeletion(ctx, node, "failed to get pods to move on node", fmt.Errorf("GetPodsToMove for %q returned error: %v", node.Name, info.err))
		return
	}
	bestEffort, full := podsToEvict(pods)
	err := a.evictAll(ctx, node, full, bestEffort)
	if err == nil {
		err = a.waitPodsToDisappear(ctx, node, full)
	}
	if err != nil {
		a.abortDeletion(ctx, node, "prepareNodeForDeletion failed", err)
		return
	}
	_ = a.opts.Provider.DeleteNode(node.Name)
	a.recorder.Eventf(node, client.EventTypeNormal, ReasonScaleDown, "nodes removed by cluster autoscaler")
}

// podsOn returns the pods bound to node that the autoscaler sees (not
// terminal, not expendable), in name order.
func (a *autoscaler) podsOn(node string) []*api.Pod {
	var out []*api.Pod
	for _, o := range a.pods.ByIndex(informer.IndexNodeName, node) {
		if p, ok := o.(*api.Pod); ok && !terminated(p) && !expendable(p) {
			out = append(out, p)
		}
	}
	return out
}

// podsToEvict splits pods as actuation/drain.go podsToEvict does: the
// DaemonSet pods to evict best effort (all, --daemonset-eviction-for-
// occupied-nodes being true, unless their enable-ds-eviction annotation
// says otherwise) and the other pods, mirror pods left out.
func podsToEvict(pods []*api.Pod) (daemonSet, others []*api.Pod) {
	for _, p := range pods {
		switch {
		case isMirrorPod(p):
		case isDaemonSetPod(p):
			if v, ok := p.Annotations[EnableDSEvictionAnnotation]; !ok || v == "true" {
				daemonSet = append(daemonSet, p)
			}
		default:
			others = append(others, p)
		}
	}
	return daemonSet, others
}

// eviction is one pod's evictions: whether they must succeed for the
// drain to, whether one has, and the last refusal.
type eviction struct {
	pod  *api.Pod
	full bool
	done bool
	last error
}

// evictAll evicts every pod, as the Evictor's one goroutine per pod does,
// played in rounds: all pods are tried at once, those refused again
// every EvictionRetryTime while the max pod eviction time lasts. A pod
// already gone counts as evicted. It returns the drain's error when a pod
// of full could not be evicted.
func (a *autoscaler) evictAll(ctx context.Context, node *api.Node, full, bestEffort []*api.Pod) error {
	var evictions []*eviction
	for _, p := range full {
		evictions = append(evictions, &eviction{pod: p, full: true})
	}
	for _, p := range bestEffort {
		evictions = append(evictions, &eviction{pod: p})
	}
	for _, e := range evictions {
		a.recorder.Eventf(e.pod, client.EventTypeNormal, ReasonScaleDown, "deleting pod for node scale down")
	}
	retryUntil := a.clock.Now().Add(a.opts.MaxPodEvictionTime)
	for a.evictRound(ctx, evictions) {
		a.clock.Sleep(EvictionRetryTime)
		if !a.clock.Now().Before(retryUntil) {
			break
		}
	}
	var errs []error
	for _, e := range evictions {
		if e.done || !e.full {
			continue
		}
		a.recorder.Eventf(e.pod, client.EventTypeWarning, ReasonScaleDownFailed, "failed to delete pod for ScaleDown")
		errs = append(errs, fmt.Errorf("failed to evict pod %s/%s within allowed timeout (last error: %v)", e.pod.Namespace, e.pod.Name, e.last))
	}
	if len(errs) > 0 {
		return fmt.Errorf("Failed to drain node %s/%s, due to following errors: %v", node.Namespace, node.Name, errs)
	}
	return nil
}

// evictRound tries every eviction not yet done once, reporting whether
// one was refused.
func (a *autoscaler) evictRound(ctx context.Context, evictions []*eviction) bool {
	refused := false
	for _, e := range evictions {
		if e.done {
			continue
		}
		grace := a.evictionGrace(e.pod)
		e.last = client.Evict(ctx, a.client, &api.Eviction{ObjectMeta: api.ObjectMeta{Name: e.pod.Name, Namespace: e.pod.Namespace},
			DeleteOptions: &api.EvictionDeleteOptions{GracePeriodSeconds: &grace}})
		if e.last == nil || errors.Is(e.last, apierr.ErrNotFound) {
			e.done = true
			continue
		}
		refused = true
	}
	return refused
}

// evictionGrace is the grace period an eviction gives p: its own
// (default 30s), at most the max graceful termination.
func (a *autoscaler) evictionGrace(p *api.Pod) int64 {
	grace := api.DefaultTerminationGracePeriodSeconds
	if g := p.Spec.TerminationGracePeriodSeconds; g != nil {
		grace = *g
	}
	return min(grace, int64(a.opts.MaxGracefulTerminationSec))
}

// waitPodsToDisappear polls every 5s, for the max graceful termination
// and 30s more, until no pod of pods is on node any longer (gone, or
// recreated elsewhere under its name).
func (a *autoscaler) waitPodsToDisappear(ctx context.Context, node *api.Node, pods []*api.Pod) error {
	limit := time.Duration(a.opts.MaxGracefulTerminationSec)*time.Second + PodEvictionHeadroom
	for start := a.clock.Now(); a.clock.Since(start) < limit; a.clock.Sleep(podGonePoll) {
		if a.allGone(ctx, node.Name, pods) {
			return nil
		}
	}
	return fmt.Errorf("Failed to drain node %s/%s: pods remaining after timeout", node.Namespace, node.Name)
}

func (a *autoscaler) allGone(ctx context.Context, node string, pods []*api.Pod) bool {
	for _, p := range pods {
		o, err := a.client.Get(ctx, api.KindPod, p.GetObjectMeta().Key())
		if err != nil && !errors.Is(err, apierr.ErrNotFound) {
			return false
		}
		if err == nil && o.(*api.Pod).Spec.NodeName == node {
			return false
		}
	}
	return true
}

// abortDeletion gives node back after a failed drain
// (CleanUpAndRecordFailedScaleDownEvent): a ScaleDownFailed event, the
// taint removed, and the warning upstream logs on the timeline.
func (a *autoscaler) abortDeletion(ctx context.Context, node *api.Node, why string, err error) {
	a.recorder.Eventf(node, client.EventTypeWarning, ReasonScaleDownFailed, "failed to drain and delete node: %v", err)
	a.cleanToBeDeleted(ctx, node.Name)
	a.decided("scale-down: couldn't delete node %q with drain, %s, status error: %v", node.Name, why, err)
}

// cleanToBeDeleted removes the ToBeDeletedByClusterAutoscaler taint from
// the node as it is now (utils/taints CleanTaints), retrying a write
// conflict every 750ms for 5s.
func (a *autoscaler) cleanToBeDeleted(ctx context.Context, name string) {
	deadline := a.clock.Now().Add(taintRetryDeadline)
	for {
		o, err := a.client.Get(ctx, api.KindNode, api.Key{Name: name})
		if err != nil {
			return
		}
		node := o.(*api.Node).DeepCopy()
		kept := slices.DeleteFunc(slices.Clone(node.Spec.Taints), func(t api.Taint) bool { return t.Key == TaintToBeDeleted })
		if len(kept) == len(node.Spec.Taints) {
			return
		}
		node.Spec.Taints = kept
		_, err = a.client.Update(ctx, node)
		if !errors.Is(err, apierr.ErrConflict) || !a.clock.Now().Before(deadline) {
			return
		}
		a.clock.Sleep(taintConflictRetry)
	}
}

// podNames joins pods' names with commas (actuator.go joinPodNames).
func podNames(pods []*api.Pod) string {
	names := make([]string, len(pods))
	for i, p := range pods {
		names[i] = p.Name
	}
	return strings.Join(names, ",")
}
