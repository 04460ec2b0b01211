package autoscaler

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// The drainability of a pod, after cluster-autoscaler's
// simulator/drainability (rules/rules.go Default, status.go) and
// utils/drain/drain.go: before a node counts as unneeded, and again before
// it is drained, each of its pods goes through the rules in order; the
// first rule with an opinion decides whether the pod moves, is left
// alone, or blocks the node's removal. No default rule sets upstream's
// Overrides, so first-opinion-wins is the whole precedence.

// Pod annotations cluster-autoscaler reads (utils/drain/drain.go,
// utils/pod/pod.go, utils/daemonset/daemonset.go).
const (
	// SafeToEvictAnnotation: "true" lets the pod go whatever the later
	// rules say (no controller, kube-system, local storage, budgets);
	// "false" blocks its node; "on-completion" keeps its node until the
	// pod has finished.
	SafeToEvictAnnotation = "cluster-autoscaler.kubernetes.io/safe-to-evict"
	// SafeToEvictLocalVolumesAnnotation lists, comma-separated, the local
	// volumes of the pod that do not block its node.
	SafeToEvictLocalVolumesAnnotation = "cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes"
	// DaemonSetPodAnnotation "true" makes a pod count as a DaemonSet pod
	// whatever its owner.
	DaemonSetPodAnnotation = "cluster-autoscaler.kubernetes.io/daemonset-pod"
	// EnableDSEvictionAnnotation "true" or "false" overrides whether a
	// DaemonSet pod is evicted (best effort) when its node is removed.
	EnableDSEvictionAnnotation = "cluster-autoscaler.kubernetes.io/enable-ds-eviction"
	// mirrorPodAnnotation marks a static pod's mirror
	// (kubelet types.ConfigMirrorAnnotationKey).
	mirrorPodAnnotation = "kubernetes.io/config.mirror"
	// safeToEvictOnCompletion is SafeToEvictAnnotation's third value.
	safeToEvictOnCompletion = "on-completion"
)

// PodLongTerminatingExtraThreshold is how long past its grace period a
// terminating pod is taken as gone (utils/drain).
const PodLongTerminatingExtraThreshold = 30 * time.Second

// KubeSystemNamespace is the namespace whose pods block a node unless a
// budget covers them (rules/system).
const KubeSystemNamespace = "kube-system"

// BlockingReason is why a pod keeps its node from being removed
// (utils/drain BlockingPodReason; String gives upstream's names).
type BlockingReason int

// The reasons, in upstream's order.
const (
	NoReason BlockingReason = iota
	ControllerNotFound
	MinReplicasReached
	NotReplicated
	LocalStorageRequested
	NotSafeToEvictAnnotation
	UnmovableKubeSystemPod
	NotEnoughPdb
	UnexpectedError
)

var blockingReasonNames = [...]string{"NoReason", "ControllerNotFound", "MinReplicasReached", "NotReplicated",
	"LocalStorageRequested", "NotSafeToEvictAnnotation", "UnmovableKubeSystemPod", "NotEnoughPdb", "UnexpectedError"}

func (r BlockingReason) String() string {
	if r < 0 || int(r) >= len(blockingReasonNames) {
		return fmt.Sprintf("unrecognized reason: %d", int(r))
	}
	return blockingReasonNames[r]
}

// outcome is what a rule decides for a pod (drainability OutcomeType).
type outcome int

const (
	// undecided: the next rule decides.
	undecided outcome = iota
	// drainOK: the pod moves (is evicted) with its node.
	drainOK
	// blockDrain: the node stays.
	blockDrain
	// skipDrain: the pod is neither moved nor blocking (mirror pods,
	// pods long past their grace period).
	skipDrain
	// waitForCompletion: the node is not removed before the pod ends.
	waitForCompletion
)

// drainStatus is one rule's verdict: the outcome and, when it blocks,
// why, with upstream's error text.
type drainStatus struct {
	outcome outcome
	reason  BlockingReason
	err     error
}

func blocked(reason BlockingReason, format string, args ...any) drainStatus {
	return drainStatus{outcome: blockDrain, reason: reason, err: fmt.Errorf(format, args...)}
}

// controllerGetter finds a pod's owning controller by kind, namespace and
// name, as upstream's listers do (the UID is not compared).
type controllerGetter interface {
	// controller reports whether the controller exists and, for a
	// ReplicaSet, its spec.replicas (nil when unset or another kind).
	controller(kind api.Kind, namespace, name string) (replicas *int32, found bool)
}

// drainContext is what the rules read besides the pod: the budgets left
// in this scan, the controllers (nil: not looked up, upstream's nil
// listers) and the time.
type drainContext struct {
	budgets     *budgetTracker
	controllers controllerGetter
	now         time.Time
}

// deleteOptions are the drain flags (simulator/options NodeDeleteOptions).
type deleteOptions struct {
	skipNodesWithSystemPods           bool
	skipNodesWithLocalStorage         bool
	skipNodesWithCustomControllerPods bool
	minReplicaCount                   int
	bspDisruptionTimeout              time.Duration
}

// drainRule is one rule: its upstream name and its verdict on a pod.
type drainRule struct {
	name      string
	drainable func(dc *drainContext, p *api.Pod) drainStatus
}

// defaultRules are upstream's default rules in their order, those the
// flags turn off left out.
func defaultRules(o deleteOptions) []drainRule {
	var rules []drainRule
	for _, r := range []struct {
		rule drainRule
		skip bool
	}{
		{rule: drainRule{"Mirror", mirrorRule}},
		{rule: drainRule{"LongTerminating", longTerminatingRule}},
		{rule: drainRule{"ReplicaCount", replicaCountRule(o.minReplicaCount)}, skip: !o.skipNodesWithCustomControllerPods},
		// Interrupting checks.
		{rule: drainRule{"DaemonSet", daemonSetRule}},
		{rule: drainRule{"SafeToEvict", safeToEvictRule}},
		{rule: drainRule{"Terminal", terminalRule}},
		{rule: drainRule{"OnCompletion", onCompletionRule}},
		// Blocking checks.
		{rule: drainRule{"Replicated", replicatedRule(o.skipNodesWithCustomControllerPods)}},
		{rule: drainRule{"System", systemRule(o.bspDisruptionTimeout)}, skip: !o.skipNodesWithSystemPods},
		{rule: drainRule{"NotSafeToEvict", notSafeToEvictRule}},
		{rule: drainRule{"LocalStorage", localStorageRule}, skip: !o.skipNodesWithLocalStorage},
		{rule: drainRule{"PDB", budgetRule}},
	} {
		if !r.skip {
			rules = append(rules, r.rule)
		}
	}
	return rules
}

// drainability is the first opinion of rules on p, undecided if none has
// one.
func drainability(rules []drainRule, dc *drainContext, p *api.Pod) drainStatus {
	for _, r := range rules {
		if s := r.drainable(dc, p); s.outcome != undecided {
			return s
		}
	}
	return drainStatus{}
}

// podMoveInfo sorts a node's pods as GetPodsToMove does: those to move
// (evict and place elsewhere), its DaemonSet pods, the pods to wait for,
// and the first pod that blocks the node, with why.
type podMoveInfo struct {
	pods             []*api.Pod
	daemonSetPods    []*api.Pod
	onCompletionPods []*api.Pod
	blocking         *api.Pod
	reason           BlockingReason
	err              error
}

// podsToMove is simulator/drain.go GetPodsToMove: it stops at the first
// blocking pod.
func podsToMove(pods []*api.Pod, rules []drainRule, dc *drainContext) podMoveInfo {
	var info podMoveInfo
	for _, p := range pods {
		s := drainability(rules, dc, p)
		switch s.outcome {
		case undecided, drainOK:
			if isDaemonSetPod(p) {
				info.daemonSetPods = append(info.daemonSetPods, p)
			} else {
				info.pods = append(info.pods, p)
			}
		case waitForCompletion:
			info.onCompletionPods = append(info.onCompletionPods, p)
		case blockDrain:
			info.blocking, info.reason, info.err = p, s.reason, s.err
			return info
		}
	}
	return info
}

func mirrorRule(_ *drainContext, p *api.Pod) drainStatus {
	if isMirrorPod(p) {
		return drainStatus{outcome: skipDrain}
	}
	return drainStatus{}
}

func isMirrorPod(p *api.Pod) bool {
	_, ok := p.Annotations[mirrorPodAnnotation]
	return ok
}

func longTerminatingRule(dc *drainContext, p *api.Pod) drainStatus {
	if longTerminating(p, dc.now) {
		return drainStatus{outcome: skipDrain}
	}
	return drainStatus{}
}

// longTerminating is utils/drain IsPodLongTerminating: deleted longer ago
// than its grace period (default 30s) and 30s more.
func longTerminating(p *api.Pod, now time.Time) bool {
	if p.DeletionTimestamp == nil {
		return false
	}
	grace := int64(api.DefaultTerminationGracePeriodSeconds)
	if g := p.Spec.TerminationGracePeriodSeconds; g != nil {
		grace = *g
	}
	return p.DeletionTimestamp.Add(time.Duration(grace) * time.Second).Add(PodLongTerminatingExtraThreshold).Before(now)
}

// replicaCountRule is rules/replicacount: the owning controller of a known
// kind must exist, and a ReplicaSet or ReplicationController must have at
// least min replicas. (The simulator serves no ReplicationController, so
// a pod owned by one always blocks, as upstream's does when its
// controller is gone. Upstream prints the replicas' pointer where this
// prints the count.)
func replicaCountRule(minReplicas int) func(*drainContext, *api.Pod) drainStatus {
	return func(dc *drainContext, p *api.Pod) drainStatus {
		if dc.controllers == nil {
			return drainStatus{}
		}
		ref := api.GetControllerOfNoCopy(&p.ObjectMeta)
		if ref == nil {
			return drainStatus{}
		}
		group, ok := refGroup(ref.APIVersion)
		if !ok {
			return drainStatus{}
		}
		ns := p.Namespace
		switch {
		case ref.Kind == "ReplicationController":
			if !controllerExists(dc, api.Kind{Name: "ReplicationController"}, ns, ref.Name) {
				return blocked(ControllerNotFound, "replication controller for %s/%s is not available, err: %v", ns, p.Name, notFound("replicationcontroller", ref.Name))
			}
		case isDaemonSetPod(p):
			if group != "apps" || ref.Kind != "DaemonSet" {
				return drainStatus{}
			}
			if !controllerExists(dc, api.KindDaemonSet, ns, ref.Name) {
				return blocked(ControllerNotFound, "daemonset for %s/%s is not present, err: %v", ns, p.Name, notFound("daemonset.apps", ref.Name))
			}
		case ref.Kind == "Job":
			if !controllerExists(dc, api.KindJob, ns, ref.Name) {
				return blocked(ControllerNotFound, "job for %s/%s is not available: err: %v", ns, p.Name, notFound("job.batch", ref.Name))
			}
		case ref.Kind == "ReplicaSet":
			return replicaSetStatus(dc, p, ref.Name, minReplicas)
		case ref.Kind == "StatefulSet":
			if group == "apps" && !controllerExists(dc, api.KindStatefulSet, ns, ref.Name) {
				return blocked(ControllerNotFound, "statefulset for %s/%s is not available: err: %v", ns, p.Name, notFound("statefulset.apps", ref.Name))
			}
		}
		return drainStatus{}
	}
}

// replicaSetStatus is replicacount's ReplicaSet case: whatever the
// reference's group, the apps/v1 ReplicaSet of that name must exist.
func replicaSetStatus(dc *drainContext, p *api.Pod, name string, minReplicas int) drainStatus {
	ns := p.Namespace
	replicas, found := dc.controllers.controller(api.KindReplicaSet, ns, name)
	if !found {
		return blocked(ControllerNotFound, "replication controller for %s/%s is not available, err: %v", ns, p.Name, notFound("replicaset.apps", name))
	}
	if replicas != nil && int(*replicas) < minReplicas {
		return blocked(MinReplicasReached, "replication controller for %s/%s has too few replicas spec: %d min: %d", ns, p.Name, *replicas, minReplicas)
	}
	return drainStatus{}
}

func controllerExists(dc *drainContext, kind api.Kind, namespace, name string) bool {
	_, found := dc.controllers.controller(kind, namespace, name)
	return found
}

// notFound is a lister's NotFound text: `<resource>[.<group>] "<name>"
// not found`.
func notFound(resource, name string) string {
	return fmt.Sprintf("%s %q not found", resource, name)
}

// refGroup is the group of an owner reference's apiVersion ("" for v1),
// false when the apiVersion does not parse (schema.ParseGroupVersion).
func refGroup(apiVersion string) (string, bool) {
	switch strings.Count(apiVersion, "/") {
	case 0:
		return "", true
	case 1:
		g, _, _ := strings.Cut(apiVersion, "/")
		return g, true
	}
	return "", false
}

// isDaemonSetPod is utils/pod IsDaemonSetPod: owned by a DaemonSet, or
// annotated as one.
func isDaemonSetPod(p *api.Pod) bool {
	if ref := api.GetControllerOfNoCopy(&p.ObjectMeta); ref != nil && ref.Kind == api.KindDaemonSet.Name {
		return true
	}
	return p.Annotations[DaemonSetPodAnnotation] == "true"
}

func daemonSetRule(_ *drainContext, p *api.Pod) drainStatus {
	if isDaemonSetPod(p) {
		return drainStatus{outcome: drainOK}
	}
	return drainStatus{}
}

func safeToEvictRule(_ *drainContext, p *api.Pod) drainStatus {
	if p.Annotations[SafeToEvictAnnotation] == "true" {
		return drainStatus{outcome: drainOK}
	}
	return drainStatus{}
}

func terminalRule(_ *drainContext, p *api.Pod) drainStatus {
	if podTerminal(p) {
		return drainStatus{outcome: drainOK}
	}
	return drainStatus{}
}

// podTerminal is utils/drain IsPodTerminal: a pod that will never run
// again.
func podTerminal(p *api.Pod) bool {
	switch p.Spec.RestartPolicy {
	case api.RestartPolicyNever:
		if p.Status.Phase == api.PodSucceeded {
			return true
		}
	case api.RestartPolicyOnFailure:
		if p.Status.Phase == api.PodSucceeded {
			return true
		}
	}
	return p.Status.Phase == api.PodFailed
}

func onCompletionRule(_ *drainContext, p *api.Pod) drainStatus {
	if p.Annotations[SafeToEvictAnnotation] == safeToEvictOnCompletion {
		return drainStatus{outcome: waitForCompletion}
	}
	return drainStatus{}
}

// replicatedKinds are the owners whose pods count as replicated under
// --skip-nodes-with-custom-controller-pods (rules/replicated).
var replicatedKinds = map[string]bool{"ReplicationController": true, "Job": true, "ReplicaSet": true, "StatefulSet": true}

// replicatedRule is rules/replicated: a pod without a controller blocks;
// with skipCustom, so does one whose controller is of another kind.
func replicatedRule(skipCustom bool) func(*drainContext, *api.Pod) drainStatus {
	return func(_ *drainContext, p *api.Pod) drainStatus {
		ref := api.GetControllerOfNoCopy(&p.ObjectMeta)
		replicated := ref != nil
		if skipCustom {
			replicated = replicated && replicatedKinds[ref.Kind]
		}
		if !replicated {
			return blocked(NotReplicated, "%s/%s is not replicated", p.Namespace, p.Name)
		}
		return drainStatus{}
	}
}

// systemRule is rules/system: a kube-system pod no budget selects blocks,
// until it is older than the blocking-system-pod disruption timeout.
func systemRule(bspTimeout time.Duration) func(*drainContext, *api.Pod) drainStatus {
	return func(dc *drainContext, p *api.Pod) drainStatus {
		if p.Namespace != KubeSystemNamespace || len(dc.budgets.matching(p)) > 0 {
			return drainStatus{}
		}
		if created := p.CreationTimestamp; !created.IsZero() && dc.now.After(created.Add(bspTimeout)) {
			return drainStatus{outcome: drainOK}
		}
		return blocked(UnmovableKubeSystemPod, "non-daemonset, non-mirrored, non-pdb-assigned kube-system pod present: %s", p.Name)
	}
}

func notSafeToEvictRule(_ *drainContext, p *api.Pod) drainStatus {
	if p.Annotations[SafeToEvictAnnotation] == "false" {
		return blocked(NotSafeToEvictAnnotation, "pod annotated as not safe to evict present: %s", p.Name)
	}
	return drainStatus{}
}

func localStorageRule(_ *drainContext, p *api.Pod) drainStatus {
	if hasBlockingLocalStorage(p) {
		return blocked(LocalStorageRequested, "pod with local storage present: %s", p.Name)
	}
	return drainStatus{}
}

// hasBlockingLocalStorage is utils/drain HasBlockingLocalStorage: a
// hostPath volume, or an emptyDir not in memory, that the
// safe-to-evict-local-volumes annotation does not name.
func hasBlockingLocalStorage(p *api.Pod) bool {
	exempt := strings.Split(p.Annotations[SafeToEvictLocalVolumesAnnotation], ",")
	for _, v := range p.Spec.Volumes {
		if localVolume(v) && !slices.Contains(exempt, v.Name) {
			return true
		}
	}
	return false
}

func localVolume(v api.Volume) bool {
	if _, ok := v.Source["hostPath"]; ok {
		return true
	}
	raw, ok := v.Source["emptyDir"]
	if !ok {
		return false
	}
	var dir struct {
		Medium string `json:"medium"`
	}
	_ = json.Unmarshal(raw, &dir) // validated on admission; a null source is the default medium
	return dir.Medium != "Memory"
}

// budgetRule is rules/pdb: a pod of a budget with no disruption left (in
// this scan) blocks.
func budgetRule(dc *drainContext, p *api.Pod) drainStatus {
	for _, b := range dc.budgets.matching(p) {
		if b.allowed < 1 {
			return blocked(NotEnoughPdb, "not enough pod disruption budget to move %s/%s", p.Namespace, p.Name)
		}
	}
	return drainStatus{}
}
