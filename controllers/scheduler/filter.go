package scheduler

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// Filter failure reasons, verbatim from upstream's plugins.
const (
	// ReasonNotReady is the scheduler's own reason for a node whose Ready
	// condition is not True, given only when no node lifecycle
	// controller runs (Options.NodeLifecycleTaints false). Upstream's
	// scheduler has no such filter since 1.17: the node lifecycle
	// controller taints such nodes node.kubernetes.io/not-ready or
	// .../unreachable with NoSchedule (TaintNodesByCondition) and
	// TaintToleration rejects them. Without that controller nothing would
	// keep pods off a dead node, so the check is made here directly, with
	// the wording of the retired CheckNodeCondition predicate (k/k
	// algorithm/predicates/error.go, ErrNodeNotReady), used for False and
	// Unknown alike, as that predicate did. A node without a Ready
	// condition has not reported yet and is not ready either.
	ReasonNotReady = "node(s) were not ready"
	// ReasonUnschedulable is NodeUnschedulable's reason for a cordoned
	// node (spec.unschedulable) the pod does not tolerate.
	ReasonUnschedulable = "node(s) were unschedulable"
	// ReasonNodeAffinity is NodeAffinity's reason when nodeSelector or
	// required node affinity does not match the node.
	ReasonNodeAffinity = "node(s) didn't match Pod's node affinity/selector"
	// ReasonNodePorts is NodePorts' reason when a host port the pod asks
	// for is taken on the node.
	ReasonNodePorts = "node(s) didn't have free ports for the requested pod ports"
	// ReasonTooManyPods is NodeResourcesFit's reason when the node runs
	// as many pods as its allocatable "pods" allows.
	ReasonTooManyPods = "Too many pods"
	// ReasonNodeAffinityPreFilter is the reason the framework gives the
	// nodes NodeAffinity's PreFilter left out: a pod whose every required
	// term names its nodes (matchFields metadata.name In, as a DaemonSet's
	// pods do) is filtered only on those, and every other node counts for
	// this reason in the message (k/k pkg/scheduler/schedule_one.go
	// findNodesThatFitPod, "node(s) didn't satisfy plugin(s) %v" of the
	// plugins that narrowed the nodes), e.g. "0/4 nodes are available: 1
	// Insufficient cpu, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]."
	ReasonNodeAffinityPreFilter = "node(s) didn't satisfy plugin(s) [NodeAffinity]"
	// MsgNodeAffinityConflict is NodeAffinity's PreFilter failure when
	// the pod's terms name nodes and no node is named by all of one term
	// (errReasonConflict): no node is tried.
	MsgNodeAffinityConflict = "pod affinity terms conflict"
	// ReasonUntoleratedTaint is TaintToleration's reason for a node with
	// a NoSchedule or NoExecute taint the pod does not tolerate. It names
	// no taint since 1.35 (kubernetes/kubernetes PR #134740, also in
	// 1.34.2: taint keys and values may be sensitive; before, "node(s) had
	// untolerated taint {key: value}"; k/k
	// pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go).
	ReasonUntoleratedTaint = "node(s) had untolerated taint(s)"
)

// ErrNoNodesAvailable is upstream's error when the cluster has no nodes at
// all; its text is the pod's PodScheduled message and the FailedScheduling
// event's message.
var ErrNoNodesAvailable = errors.New("no nodes available to schedule pods")

// NodeResourcesFit's reasons for the resources every node has.
const (
	reasonInsufficientCPU       = "Insufficient cpu"
	reasonInsufficientMemory    = "Insufficient memory"
	reasonInsufficientEphemeral = "Insufficient ephemeral-storage"
)

// insufficient is NodeResourcesFit's reason for an extended resource that
// does not fit.
func insufficient(name api.ResourceName) string { return "Insufficient " + string(name) }

// FitError is a pod's failure to fit any node (k/k framework.FitError):
// how many nodes were considered and, per failure reason, on how many of
// them it was found.
type FitError struct {
	// NumAllNodes is the number of nodes in the scheduler's snapshot.
	NumAllNodes int
	// Reasons counts nodes per reason; a node may count for several
	// reasons of one plugin (Insufficient cpu and Insufficient memory).
	Reasons map[string]int
	// PostFilterMsg is what preemption (the PostFilter plugin) said, such
	// as "preemption: 0/3 nodes are available: 3 No preemption victims
	// found for incoming pod."; empty when it found victims.
	PostFilterMsg string
}

// Error formats upstream's message (k/k pkg/scheduler/framework/types.go
// FitError.Error): "0/<N> nodes are available: " then "<count> <reason>"
// strings sorted as strings, joined with ", ", and a final ".", e.g. "0/3
// nodes are available: 1 node(s) were unschedulable, 2 Insufficient
// cpu.", then a space and PostFilterMsg when there is one. Sorting is
// lexical, as upstream's is, so "10 ..." sorts before "2 ...".
func (e *FitError) Error() string {
	parts := make([]string, 0, len(e.Reasons))
	for reason, n := range e.Reasons {
		parts = append(parts, strconv.Itoa(n)+" "+reason)
	}
	slices.Sort(parts)
	msg := fmt.Sprintf("0/%v nodes are available:", e.NumAllNodes)
	if len(parts) > 0 {
		msg += " " + strings.Join(parts, ", ") + "."
	}
	if e.PostFilterMsg != "" {
		msg += " " + e.PostFilterMsg
	}
	return msg
}

// unresolvable reports whether a filter reason is one upstream's plugins
// return as UnschedulableAndUnresolvable: removing pods from the node
// cannot help, so preemption does not try the node (TaintToleration,
// NodeUnschedulable, NodeAffinity, PodTopologySpread's missing label,
// InterPodAffinity's unmatched affinity, VolumeBinding's and VolumeZone's
// conflicts). Resources, ports, skew and anti-affinity are plain
// Unschedulable.
func unresolvable(reason string) bool {
	switch reason {
	case ReasonNotReady, ReasonUnschedulable, ReasonUntoleratedTaint, ReasonNodeAffinity, ReasonTopologySpreadLabel, ReasonPodAffinity,
		ReasonVolumeNodeConflict, ReasonVolumeBindConflict, ReasonPVNotExist, ReasonVolumeZoneConflict:
		return true
	}
	return false
}

// fitUnresolvable reports whether reasons, a node's filter reasons, are
// NodeResourcesFit's and the pod asks for more of some resource than the
// node has allocatable in all: even without any of its pods the node
// could not take the pod, so NodeResourcesFit's status is
// UnschedulableAndUnresolvable and preemption does not try the node
// (InsufficientResource.Unresolvable, k/k
// pkg/scheduler/framework/plugins/noderesources/fit.go fitsRequest, since
// kubernetes/kubernetes PR #131345 in 1.34). The pod count never is: a
// node at its pod limit may be emptied. Called for failing nodes only.
func fitUnresolvable(reasons []string, req *resources, ni *nodeInfo) bool {
	if len(reasons) == 0 || (reasons[0] != ReasonTooManyPods && !strings.HasPrefix(reasons[0], "Insufficient ")) {
		return false
	}
	a := &ni.allocatable
	if req.milliCPU > a.milliCPU || req.memory > a.memory || req.ephemeral() > a.ephemeral() {
		return true
	}
	for _, s := range req.scalars() {
		if s.value > a.scalarValue(s.name) {
			return true
		}
	}
	return false
}

// podInfo is what the filters and scorers need of the pod being
// scheduled, computed once per attempt.
type podInfo struct {
	pod      *api.Pod
	req      resources
	nonZero  resources
	ports    []hostPort
	required *api.NodeSelector
	// selects: the pod has a nodeSelector or required node affinity, so
	// that NodeAffinity's filter has something to check; without, every
	// node passes it and the filter is not called.
	selects bool
	// badTerms marks the required terms (the first 64) that match no
	// node because a value is not a valid label value (invalidTerms).
	badTerms uint64
	// spread and interPod are the PreFilter states of PodTopologySpread
	// and InterPodAffinity; nil when the plugin has nothing to check.
	spread   *spreadFilter
	interPod *interPodFilter
	// terms are the pod's compiled affinity terms (affinityTerms), made
	// once an attempt for InterPodAffinity's PreFilter and score.
	terms *podTerms
	// volumes is VolumeBinding's PreFilter state (volumebinding.go); nil
	// for a pod without claims or without the volume plugins.
	volumes *volumeState
	binder  *volumeBinder
}

func newPodInfo(pod *api.Pod) *podInfo {
	req, nz := podRequests(pod)
	pi := &podInfo{pod: pod, req: req, nonZero: nz, ports: podHostPorts(pod)}
	if a := pod.Spec.Affinity; a != nil && a.NodeAffinity != nil {
		pi.required = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
		pi.badTerms = invalidTerms(pi.required)
	}
	pi.selects = len(pod.Spec.NodeSelector) > 0 || pi.required != nil
	return pi
}

// filter runs the filters in upstream's plugin order on one node and
// appends the reasons it fails for to reasons; none means it fits. As in
// upstream's framework, the first failing plugin ends the check, and only
// NodeResourcesFit reports more than one reason.
func filter(pi *podInfo, ni *nodeInfo, reasons []string) []string {
	n := ni.node
	if !ni.ready {
		return append(reasons, ReasonNotReady)
	}
	if ni.unschedulable && !tolerates(pi.pod.Spec.Tolerations, &api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}) {
		return append(reasons, ReasonUnschedulable)
	}
	// A node without NoSchedule or NoExecute taints has none to tolerate:
	// its taints are not loaded.
	if ni.hardTaints && untoleratedTaint(ni.taints, pi.pod.Spec.Tolerations) != nil {
		return append(reasons, ReasonUntoleratedTaint)
	}
	if pi.selects && !matchesNodeSelector(pi.pod, pi.required, pi.badTerms, n) {
		return append(reasons, ReasonNodeAffinity)
	}
	if len(pi.ports) > 0 && portsConflict(pi.ports, ni.ports) {
		return append(reasons, ReasonNodePorts)
	}
	before := len(reasons)
	if reasons = fits(&pi.req, ni, reasons); len(reasons) > before {
		return reasons
	}
	if pi.volumes != nil {
		if reasons = pi.volumes.filter(pi.binder, n, reasons); len(reasons) > before {
			return reasons
		}
	}
	if pi.spread != nil {
		if r := pi.spread.filter(ni); r != "" {
			return append(reasons, r)
		}
	}
	if pi.interPod != nil {
		if r := pi.interPod.filter(pi.pod, ni); r != "" {
			return append(reasons, r)
		}
	}
	return reasons
}

// plain reports whether pi asks nothing of a node but cpu, memory and a
// pod slot: no node selection, host ports, volumes, spread or pod
// affinity state, no ephemeral storage or extended resources. Every pod
// of the scale probes is plain.
func (pi *podInfo) plain() bool {
	return !pi.selects && len(pi.ports) == 0 && pi.volumes == nil && pi.spread == nil && pi.interPod == nil && pi.req.ext == nil
}

// fitsPlainly reports whether a plain pod (podInfo.plain) asking req
// passes every filter on ni as filter decides it, for a node that is
// Ready, not cordoned and without a NoSchedule or NoExecute taint; false
// leaves the node to filter, which gives the reasons. The search calls
// it for every node a plain pod visits (780 of them a pod at 3,000
// nodes) in place of filter and fits, whose calls and checks for what a
// plain pod does not ask were most of a visit's cost.
func fitsPlainly(req *resources, ni *nodeInfo) bool {
	return ni.ready && !ni.unschedulable && !ni.hardTaints && ni.pods < ni.allowedPods &&
		(req.milliCPU <= 0 || req.milliCPU <= ni.allocatable.milliCPU-ni.requested.milliCPU) &&
		(req.memory <= 0 || req.memory <= ni.allocatable.memory-ni.requested.memory)
}

// tolerates reports whether some toleration tolerates taint.
func tolerates(tols []api.Toleration, taint *api.Taint) bool {
	for i := range tols {
		if tols[i].ToleratesTaint(taint) {
			return true
		}
	}
	return false
}

// untoleratedTaint returns the first NoSchedule or NoExecute taint no
// toleration tolerates (v1helper.FindMatchingUntoleratedTaint with
// DoNotScheduleTaintsFilterFunc), or nil.
func untoleratedTaint(taints []api.Taint, tols []api.Toleration) *api.Taint {
	for i := range taints {
		t := &taints[i]
		if t.Effect != api.TaintEffectNoSchedule && t.Effect != api.TaintEffectNoExecute {
			continue
		}
		if !tolerates(tols, t) {
			return t
		}
	}
	return nil
}

// matchesNodeSelector is NodeAffinity's filter: every nodeSelector pair
// must be a node label, and if required node affinity is set, one of its
// terms must match; bad marks the terms invalidTerms found invalid.
func matchesNodeSelector(pod *api.Pod, required *api.NodeSelector, bad uint64, n *api.Node) bool {
	// Most pods have no nodeSelector: no map iteration for them, on a
	// path taken for every pod and every node it visits.
	if len(pod.Spec.NodeSelector) > 0 {
		for k, v := range pod.Spec.NodeSelector {
			if lv, ok := n.Labels[k]; !ok || lv != v {
				return false
			}
		}
	}
	if required == nil {
		return true
	}
	for i := range required.NodeSelectorTerms {
		t := &required.NodeSelectorTerms[i]
		if i < 64 && bad&(1<<i) != 0 || i >= 64 && !termValid(t) {
			continue
		}
		if termMatches(t, n) {
			return true
		}
	}
	return false
}

// invalidTerms marks, bit i for term i of the first 64, the terms with a
// matchExpressions value that is not a valid label value: upstream parses
// each term into a label selector (component-helpers nodeaffinity, with
// labels.NewRequirement), and a term that does not parse matches no node.
// The API server does not check these values, so such a pod is accepted
// and stays Pending. Computed once per pod, not per node.
func invalidTerms(required *api.NodeSelector) uint64 {
	if required == nil {
		return 0
	}
	var bad uint64
	for i := range min(len(required.NodeSelectorTerms), 64) {
		if !termValid(&required.NodeSelectorTerms[i]) {
			bad |= 1 << i
		}
	}
	return bad
}

// termValid reports whether every value of the term's label requirements
// is a valid label value.
func termValid(t *api.NodeSelectorTerm) bool {
	for i := range t.MatchExpressions {
		for _, v := range t.MatchExpressions[i].Values {
			if !api.ValidLabelValue(v) {
				return false
			}
		}
	}
	return true
}

// affinityNodeNames is NodeAffinity's PreFilter result: when every
// required term has matchFields metadata.name In requirements, the nodes
// some term names (each term's requirements intersected, the terms
// united), appended to buf[:0] in the order the terms name them;
// restricted is false when some term names no node, so that every node
// is a candidate. Restricted with no names is upstream's conflict. buf
// is the caller's to reuse: nothing is allocated once it has room.
func affinityNodeNames(required *api.NodeSelector, buf []string) (names []string, restricted bool) {
	names = buf[:0]
	if required == nil || len(required.NodeSelectorTerms) == 0 {
		return names, false
	}
	for i := range required.NodeSelectorTerms {
		t := &required.NodeSelectorTerms[i]
		start, named := len(names), false
		for j := range t.MatchFields {
			r := &t.MatchFields[j]
			if r.Key != "metadata.name" || r.Operator != api.NodeSelectorOpIn {
				continue
			}
			if !named {
				named = true
				for _, v := range r.Values {
					if !slices.Contains(names[start:], v) {
						names = append(names, v)
					}
				}
				continue
			}
			kept := names[:start]
			for _, v := range names[start:] {
				if slices.Contains(r.Values, v) {
					kept = append(kept, v)
				}
			}
			names = kept
		}
		if !named {
			return names[:0], false
		}
		// The union with the earlier terms' names.
		kept := names[:start]
		for _, v := range names[start:] {
			if !slices.Contains(names[:start], v) {
				kept = append(kept, v)
			}
		}
		names = kept
	}
	return names, true
}

// termMatches reports whether a node selector term matches n: all its
// expressions against the labels and all its field requirements against
// metadata.name. An empty term matches nothing, and an invalid requirement
// makes the term fail (k8s.io/component-helpers nodeaffinity).
func termMatches(t *api.NodeSelectorTerm, n *api.Node) bool {
	if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
		return false
	}
	for i := range t.MatchExpressions {
		if !requirementMatches(&t.MatchExpressions[i], n.Labels) {
			return false
		}
	}
	for i := range t.MatchFields {
		r := &t.MatchFields[i]
		if r.Key != "metadata.name" || len(r.Values) != 1 {
			return false
		}
		switch r.Operator {
		case api.NodeSelectorOpIn:
			if n.Name != r.Values[0] {
				return false
			}
		case api.NodeSelectorOpNotIn:
			if n.Name == r.Values[0] {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// requirementMatches evaluates one label requirement.
func requirementMatches(r *api.NodeSelectorRequirement, labels map[string]string) bool {
	v, has := labels[r.Key]
	switch r.Operator {
	case api.NodeSelectorOpIn:
		return has && slices.Contains(r.Values, v)
	case api.NodeSelectorOpNotIn:
		return !has || !slices.Contains(r.Values, v)
	case api.NodeSelectorOpExists:
		return has
	case api.NodeSelectorOpDoesNotExist:
		return !has
	case api.NodeSelectorOpGt, api.NodeSelectorOpLt:
		if !has || len(r.Values) != 1 {
			return false
		}
		lv, err1 := strconv.ParseInt(v, 10, 64)
		rv, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if r.Operator == api.NodeSelectorOpGt {
			return lv > rv
		}
		return lv < rv
	}
	return false
}

// portsConflict reports whether a wanted host port is taken.
func portsConflict(want, used []hostPort) bool {
	for _, w := range want {
		for _, u := range used {
			if w.conflicts(u) {
				return true
			}
		}
	}
	return false
}

// fits is NodeResourcesFit's filter (fitsRequest): the pod count first,
// then cpu, memory, ephemeral-storage and extended resources, each
// compared with allocatable minus what the node's pods request. A pod
// that requests nothing is checked for the pod count only.
func fits(req *resources, ni *nodeInfo, reasons []string) []string {
	if int64(ni.pods)+1 > int64(ni.allowedPods) {
		reasons = append(reasons, ReasonTooManyPods)
	}
	if req.isZero() {
		return reasons
	}
	if req.milliCPU > 0 && req.milliCPU > ni.allocatable.milliCPU-ni.requested.milliCPU {
		reasons = append(reasons, reasonInsufficientCPU)
	}
	if req.memory > 0 && req.memory > ni.allocatable.memory-ni.requested.memory {
		reasons = append(reasons, reasonInsufficientMemory)
	}
	if e := req.ephemeral(); e > 0 && e > ni.allocatable.ephemeral()-ni.requested.ephemeral() {
		reasons = append(reasons, reasonInsufficientEphemeral)
	}
	for _, s := range req.scalars() {
		if s.value > 0 && s.value > ni.allocatable.scalarValue(s.name)-ni.requested.scalarValue(s.name) {
			reasons = append(reasons, insufficient(s.name))
		}
	}
	return reasons
}
