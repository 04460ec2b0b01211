package nodelifecycle

import (
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// Condition reasons and messages the controller writes, verbatim from
// upstream.
const (
	// ReasonNodeStatusUnknown is a condition's reason once the kubelet
	// stopped reporting.
	ReasonNodeStatusUnknown = "NodeStatusUnknown"
	// MessageNodeStatusUnknown goes with ReasonNodeStatusUnknown.
	MessageNodeStatusUnknown = "Kubelet stopped posting node status."
	// ReasonNodeStatusNeverUpdated is a condition's reason when the
	// kubelet never reported it.
	ReasonNodeStatusNeverUpdated = "NodeStatusNeverUpdated"
	// MessageNodeStatusNeverUpdated goes with ReasonNodeStatusNeverUpdated.
	MessageNodeStatusNeverUpdated = "Kubelet never posted node status."
)

// Well-known labels and taint keys.
const (
	// LabelZone is the node label naming its zone.
	LabelZone = "topology.kubernetes.io/zone"
	// LabelRegion is the node label naming its region.
	LabelRegion = "topology.kubernetes.io/region"
	// labelZoneBeta and labelRegionBeta are the deprecated forms upstream
	// still reads when the stable ones are absent.
	labelZoneBeta   = "failure-domain.beta.kubernetes.io/zone"
	labelRegionBeta = "failure-domain.beta.kubernetes.io/region"
	// LabelOSStable and LabelArchStable are the kubelet's OS and
	// architecture labels; labelOSBeta and labelArchBeta their deprecated
	// forms, which the controller keeps equal to them.
	LabelOSStable   = "kubernetes.io/os"
	LabelArchStable = "kubernetes.io/arch"
	labelOSBeta     = "beta.kubernetes.io/os"
	labelArchBeta   = "beta.kubernetes.io/arch"
	// LabelExcludeDisruption keeps a node out of its zone's health count.
	LabelExcludeDisruption = "node.kubernetes.io/exclude-disruption"
	// TaintMemoryPressure mirrors MemoryPressure=True (NoSchedule).
	TaintMemoryPressure = "node.kubernetes.io/memory-pressure"
	// TaintDiskPressure mirrors DiskPressure=True (NoSchedule).
	TaintDiskPressure = "node.kubernetes.io/disk-pressure"
	// TaintPIDPressure mirrors PIDPressure=True (NoSchedule).
	TaintPIDPressure = "node.kubernetes.io/pid-pressure"
	// TaintNetworkUnavailable mirrors NetworkUnavailable=True (NoSchedule).
	TaintNetworkUnavailable = "node.kubernetes.io/network-unavailable"
)

var (
	unreachableNoExecute = api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}
	notReadyNoExecute    = api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute}
)

// monitoredConditions are the conditions set to Unknown when the kubelet
// stops reporting (NetworkUnavailable is the network plugin's, left alone).
var monitoredConditions = []api.NodeConditionType{api.NodeReady, api.NodeMemoryPressure, api.NodeDiskPressure, api.NodePIDPressure}

// nodeCondition returns the condition of type t in s, or nil.
func nodeCondition(s *api.NodeStatus, t api.NodeConditionType) *api.NodeCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

// renewTimeOf returns the lease's renewTime; the zero time when there is
// no lease or it was never renewed.
func renewTimeOf(lease *api.Lease) time.Time {
	if lease == nil || lease.Spec.RenewTime == nil {
		return time.Time{}
	}
	return lease.Spec.RenewTime.Time
}

// heartbeat returns the node's last sign of life: the later of its Ready
// condition's lastHeartbeatTime (ready, nil when n has none: n's creation
// then) and its Lease's renewTime (renewTimeOf), but never before floor.
// It reads n only when ready is nil.
func heartbeat(n *api.Node, ready *api.NodeCondition, renew, floor time.Time) time.Time {
	var hb time.Time
	if ready != nil {
		hb = ready.LastHeartbeatTime.Time
	} else {
		hb = n.CreationTimestamp.Time
	}
	if renew.After(hb) {
		hb = renew
	}
	if floor.After(hb) {
		hb = floor
	}
	return hb
}

// checkHealth is upstream's tryUpdateNodeHealth without the write: if the
// node's last heartbeat is more than its grace period old (startupGrace
// for a node whose Ready condition was never posted, grace otherwise), it
// sets Ready, MemoryPressure, DiskPressure and PIDPressure to Unknown in
// n (a private copy), adding the ones never posted. It returns the Ready
// condition as observed before, and whether n's Ready condition now
// differs from it (the status must be written).
func checkHealth(n *api.Node, renew, floor, now time.Time, grace, startupGrace time.Duration) (observed api.NodeCondition, write bool) {
	ready := nodeCondition(&n.Status, api.NodeReady)
	observed = observedReady(n, ready)
	if !healthExpired(n, ready, renew, floor, now, grace, startupGrace) {
		return observed, false
	}
	ts := api.NewTime(now.Truncate(time.Second))
	for _, t := range monitoredConditions {
		c := nodeCondition(&n.Status, t)
		switch {
		case c == nil:
			n.Status.Conditions = append(n.Status.Conditions, api.NodeCondition{
				Type: t, Status: api.ConditionUnknown,
				Reason: ReasonNodeStatusNeverUpdated, Message: MessageNodeStatusNeverUpdated,
				LastHeartbeatTime: n.CreationTimestamp, LastTransitionTime: ts,
			})
		case c.Status != api.ConditionUnknown:
			c.Status = api.ConditionUnknown
			c.Reason = ReasonNodeStatusUnknown
			c.Message = MessageNodeStatusUnknown
			c.LastTransitionTime = ts
		}
	}
	current := nodeCondition(&n.Status, api.NodeReady)
	return observed, current == nil || !sameCondition(*current, observed)
}

// healthExpired reports whether n's last heartbeat (its Ready condition's,
// ready, nil when n has none; its lease's; or floor) is older than the
// grace period (the startup grace period while it has no Ready
// condition): only then does checkHealth change n.
func healthExpired(n *api.Node, ready *api.NodeCondition, renew, floor, now time.Time, grace, startupGrace time.Duration) bool {
	if ready == nil {
		grace = startupGrace
	}
	return now.After(heartbeat(n, ready, renew, floor).Add(grace))
}

// observedReady is the Ready condition checkHealth observes in n: ready,
// n's own, or Unknown since n's creation when n has none.
func observedReady(n *api.Node, ready *api.NodeCondition) api.NodeCondition {
	if ready != nil {
		return *ready
	}
	return api.NodeCondition{Type: api.NodeReady, Status: api.ConditionUnknown, LastHeartbeatTime: n.CreationTimestamp, LastTransitionTime: n.CreationTimestamp}
}

// allUnknown reports whether every monitored condition of n is there
// and Unknown: checkHealth then changes nothing in n.
func allUnknown(n *api.Node) bool {
	for _, t := range monitoredConditions {
		if c := nodeCondition(&n.Status, t); c == nil || c.Status != api.ConditionUnknown {
			return false
		}
	}
	return true
}

func sameCondition(a, b api.NodeCondition) bool {
	return a.Type == b.Type && a.Status == b.Status && a.Reason == b.Reason && a.Message == b.Message &&
		a.LastHeartbeatTime.Equal(&b.LastHeartbeatTime) && a.LastTransitionTime.Equal(&b.LastTransitionTime)
}

// zoneKey is upstream's GetZoneKey: region and zone (stable labels, else
// the deprecated beta ones) joined by ":\x00:", or "" when the node has
// neither.
func zoneKey(n *api.Node) string {
	return joinZone(zoneOf(n))
}

// zoneOf returns a node's region and zone labels (the stable ones, else
// the deprecated beta ones).
func zoneOf(n *api.Node) (region, zone string) {
	region, zone = n.Labels[LabelRegion], n.Labels[LabelZone]
	if region == "" {
		region = n.Labels[labelRegionBeta]
	}
	if zone == "" {
		zone = n.Labels[labelZoneBeta]
	}
	return region, zone
}

func joinZone(region, zone string) string {
	if region == "" && zone == "" {
		return ""
	}
	return region + zoneKeySep + zone
}

// zoneKeySep joins a zone key's region and zone (upstream's GetZoneKey).
const zoneKeySep = ":\x00:"

// zoneKey is zoneKey(n): for a registered node, read once per node
// object (monitor.see); the health pass and the tainting it does
// ask for every node's zone every 5 seconds.
func (mon *monitor) zoneKey(n *api.Node) string {
	if st := mon.registered[n.Name]; st != nil {
		z, _ := mon.labels(st, n)
		return z
	}
	return mon.buildZoneKey(n)
}

// buildZoneKey is zoneKey(n), each key built once (building the key
// allocated).
func (mon *monitor) buildZoneKey(n *api.Node) string {
	rz := [2]string{}
	rz[0], rz[1] = zoneOf(n)
	k, ok := mon.zoneKeys[rz]
	if !ok {
		k = joinZone(rz[0], rz[1])
		if mon.zoneKeys == nil {
			mon.zoneKeys = map[[2]string]string{}
		}
		mon.zoneKeys[rz] = k
	}
	return k
}

// zoneState is the health of a zone.
type zoneState string

// The states of a zone a ZoneObserver is told of (upstream's ZoneState
// values).
const (
	ZoneNormal            = "Normal"
	ZonePartialDisruption = "PartialDisruption"
	ZoneFullDisruption    = "FullDisruption"
)

const (
	stateInitial           zoneState = "Initial"
	stateNormal            zoneState = ZoneNormal
	stateFullDisruption    zoneState = ZoneFullDisruption
	statePartialDisruption zoneState = ZonePartialDisruption
)

// computeZoneState is upstream's ComputeZoneState over a zone's Ready
// conditions (ZoneStateOf); it also returns the number of nodes that are
// not Ready.
func computeZoneState(conds []*api.NodeCondition, threshold float64) (int, zoneState) {
	ready, notReady := 0, 0
	for _, c := range conds {
		if c != nil && c.Status == api.ConditionTrue {
			ready++
		} else {
			notReady++
		}
	}
	return notReady, zoneState(ZoneStateOf(notReady, ready, threshold))
}

// ZoneStateOf is upstream's ComputeZoneState: a zone is fully disrupted
// when none of its nodes is Ready, partially disrupted when more than 2
// and at least threshold (--unhealthy-zone-threshold) of them are not
// Ready, normal otherwise.
func ZoneStateOf(notReady, ready int, threshold float64) string {
	switch {
	case ready == 0 && notReady > 0:
		return ZoneFullDisruption
	case notReady > 2 && float64(notReady)/float64(notReady+ready) >= threshold:
		return ZonePartialDisruption
	}
	return ZoneNormal
}

// matchTaint reports whether two taints have the same key and effect
// (upstream's Taint.MatchTaint).
func matchTaint(a, b *api.Taint) bool { return a.Key == b.Key && a.Effect == b.Effect }

// taintExists reports whether taints has one matching t.
func taintExists(taints []api.Taint, t *api.Taint) bool {
	for i := range taints {
		if matchTaint(&taints[i], t) {
			return true
		}
	}
	return false
}

// conditionTaints maps conditions to the NoSchedule taints upstream's
// TaintNodesByCondition applies.
var conditionTaints = map[api.NodeConditionType]map[api.ConditionStatus]string{
	api.NodeReady:              {api.ConditionFalse: api.TaintNodeNotReady, api.ConditionUnknown: api.TaintNodeUnreachable},
	api.NodeMemoryPressure:     {api.ConditionTrue: TaintMemoryPressure},
	api.NodeDiskPressure:       {api.ConditionTrue: TaintDiskPressure},
	api.NodeNetworkUnavailable: {api.ConditionTrue: TaintNetworkUnavailable},
	api.NodePIDPressure:        {api.ConditionTrue: TaintPIDPressure},
}

// conditionTaintKeys are the keys of the taints that mirror conditions.
var conditionTaintKeys = map[string]bool{
	api.TaintNodeNotReady: true, api.TaintNodeUnreachable: true, TaintMemoryPressure: true,
	TaintDiskPressure: true, TaintNetworkUnavailable: true, TaintPIDPressure: true,
}

// noScheduleDiff is upstream's doNoScheduleTaintingPass decision: the
// NoSchedule taints the node's conditions and spec.unschedulable call for,
// against the ones it has, as taints to add and to remove.
func noScheduleDiff(n *api.Node) (add, remove []api.Taint) {
	var want []api.Taint
	for _, c := range n.Status.Conditions {
		if byStatus, ok := conditionTaints[c.Type]; ok {
			if key, ok := byStatus[c.Status]; ok {
				want = append(want, api.Taint{Key: key, Effect: api.TaintEffectNoSchedule})
			}
		}
	}
	if n.Spec.Unschedulable {
		want = append(want, api.Taint{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule})
	}
	var have []api.Taint
	for _, t := range n.Spec.Taints {
		if t.Effect == api.TaintEffectNoSchedule && (t.Key == api.TaintNodeUnschedulable || conditionTaintKeys[t.Key]) {
			have = append(have, t)
		}
	}
	for i := range want {
		if !taintExists(have, &want[i]) {
			add = append(add, want[i])
		}
	}
	for i := range have {
		if !taintExists(want, &have[i]) {
			remove = append(remove, have[i])
		}
	}
	return add, remove
}

// applyTaints returns taints without those matching remove, with each of
// add added or (same key and effect, different value or time) replaced,
// and whether anything changed (upstream's AddOrUpdateTaint and
// RemoveTaint).
func applyTaints(taints, add, remove []api.Taint) ([]api.Taint, bool) {
	out := make([]api.Taint, 0, len(taints)+len(add))
	changed := false
	for _, t := range taints {
		if taintExists(remove, &t) {
			changed = true
			continue
		}
		out = append(out, t)
	}
	for _, a := range add {
		replaced := false
		for i := range out {
			if matchTaint(&out[i], &a) {
				replaced = true
				if !sameTaint(out[i], a) {
					out[i] = a
					changed = true
				}
				break
			}
		}
		if !replaced {
			out = append(out, a)
			changed = true
		}
	}
	return out, changed
}

func sameTaint(a, b api.Taint) bool {
	return a.Key == b.Key && a.Value == b.Value && a.Effect == b.Effect && a.TimeAdded.Equal(b.TimeAdded)
}
