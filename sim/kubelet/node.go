package kubelet

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/strategicpatch"
)

// Node condition reasons and messages the kubelet posts (k/k
// pkg/kubelet/nodestatus/setters.go).
const (
	reasonReady          = "KubeletReady"
	messageReady         = "kubelet is posting ready status"
	reasonMemoryOK       = "KubeletHasSufficientMemory"
	messageMemoryOK      = "kubelet has sufficient memory available"
	reasonDiskOK         = "KubeletHasNoDiskPressure"
	messageDiskOK        = "kubelet has no disk pressure"
	reasonPIDOK          = "KubeletHasSufficientPID"
	messagePIDOK         = "kubelet has sufficient PID available"
	maxRegistrationDelay = 7 * time.Second
)

// nodeRef is the involvedObject of node events: the kubelet uses the
// node's name as its UID.
func (k *Kubelet) nodeRef() api.ObjectReference {
	return api.ObjectReference{Kind: "Node", APIVersion: "v1", Name: k.cfg.NodeName, UID: api.UID(k.cfg.NodeName)}
}

// nodeObject is the Node the kubelet registers, with its conditions as
// upstream's initialNode sets them on a fresh Node (every condition new,
// transitioned now); it also returns the events those setters record.
func (k *Kubelet) nodeObject(now kernel.Time) (*api.Node, []string) {
	labels := map[string]string{
		"kubernetes.io/hostname":  k.cfg.NodeName,
		"kubernetes.io/os":        "linux",
		"kubernetes.io/arch":      "amd64",
		"beta.kubernetes.io/os":   "linux",
		"beta.kubernetes.io/arch": "amd64",
	}
	maps.Copy(labels, k.cfg.Labels)
	conds, events := setConditions(nil, wallTime(now))
	return &api.Node{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: api.KindNode.Name},
		ObjectMeta: api.ObjectMeta{Name: k.cfg.NodeName, Labels: labels},
		Spec: api.NodeSpec{
			PodCIDR:  k.cfg.PodCIDR,
			PodCIDRs: []string{k.cfg.PodCIDR},
			Taints:   slices.Clone(k.cfg.Taints),
		},
		Status: k.nodeStatus(conds),
	}, events
}

// nodeStatus is the status the kubelet reports: capacity, allocatable
// (Config.Allocatable), the conditions given, addresses and node info.
func (k *Kubelet) nodeStatus(conds []api.NodeCondition) api.NodeStatus {
	return api.NodeStatus{
		Capacity:    k.cfg.Capacity,
		Allocatable: k.cfg.Allocatable,
		Conditions:  conds,
		Addresses: []api.NodeAddress{
			{Type: api.NodeInternalIP, Address: k.cfg.InternalIP},
			{Type: api.NodeHostName, Address: k.cfg.NodeName},
		},
		DaemonEndpoints: k.daemonEPs,
		NodeInfo:        k.nodeInfo,
	}
}

// kubeletCondition is one condition the kubelet's setters own, as a
// healthy node reports it, with the event recorded when it becomes so.
type kubeletCondition struct {
	typ                    api.NodeConditionType
	status                 api.ConditionStatus
	reason, message, event string
}

// kubeletConditions are the kubelet's condition setters in upstream's
// order (k/k pkg/kubelet/kubelet_node_status.go defaultNodeStatusFuncs:
// MemoryPressureCondition, DiskPressureCondition, PIDPressureCondition,
// ReadyCondition, from pkg/kubelet/nodestatus/setters.go). The simulated
// node is never under pressure and its runtime never fails.
var kubeletConditions = [...]kubeletCondition{
	{api.NodeMemoryPressure, api.ConditionFalse, reasonMemoryOK, messageMemoryOK, "NodeHasSufficientMemory"},
	{api.NodeDiskPressure, api.ConditionFalse, reasonDiskOK, messageDiskOK, "NodeHasNoDiskPressure"},
	{api.NodePIDPressure, api.ConditionFalse, reasonPIDOK, messagePIDOK, "NodeHasSufficientPID"},
	{api.NodeReady, api.ConditionTrue, reasonReady, messageReady, "NodeReady"},
}

// setConditions applies the kubelet's condition setters to the
// conditions of the Node as last read from the API server (nil for a
// Node being built, as initialNode does): each of the kubelet's
// conditions gets this heartbeat; it keeps its lastTransitionTime when
// its status is unchanged and takes now when it changes (the node
// lifecycle controller set it to Unknown while the kubelet was cut off,
// say), and each change records an event (NodeReady, NodeHasSufficientMemory,
// ...), in setter order. Conditions the kubelet does not own are kept, in
// place; new ones are appended. It returns a new slice; stored is not
// changed.
func setConditions(stored []api.NodeCondition, now api.Time) ([]api.NodeCondition, []string) {
	return setConditionsIn(make([]api.NodeCondition, 0, len(stored)+len(kubeletConditions)), stored, now)
}

// setConditionsIn is setConditions writing into buf's array (from its
// start; it grows when too small), which must not be stored's: the
// status check every 10 s, which nearly always writes nothing, reuses
// one buffer instead of allocating.
func setConditionsIn(buf, stored []api.NodeCondition, now api.Time) ([]api.NodeCondition, []string) {
	out := append(buf[:0], stored...)
	var events []string
	for _, kc := range kubeletConditions {
		c := api.NodeCondition{Type: kc.typ, Status: kc.status, Reason: kc.reason, Message: kc.message,
			LastHeartbeatTime: now, LastTransitionTime: now}
		i := slices.IndexFunc(out, func(o api.NodeCondition) bool { return o.Type == kc.typ })
		switch {
		case i < 0:
			out = append(out, c)
			events = append(events, kc.event)
		case out[i].Status == kc.status:
			// ReadyCondition replaces the whole condition but keeps the
			// transition time; the pressure setters touch only the
			// heartbeat: both amount to this.
			c.LastTransitionTime = out[i].LastTransitionTime
			out[i] = c
		default:
			out[i] = c
			events = append(events, kc.event)
		}
	}
	return out, events
}

// conditionsChanged is upstream's nodeStatusHasChanged for conditions:
// whether any differs other than by its heartbeat.
func conditionsChanged(a, b []api.NodeCondition) bool {
	if len(a) != len(b) {
		return true
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Type != y.Type || x.Status != y.Status || x.Reason != y.Reason || x.Message != y.Message ||
			!x.LastTransitionTime.Equal(&y.LastTransitionTime) {
			return true
		}
	}
	return false
}

// recordNodeEvents records what the condition setters noticed, as the
// kubelet's recordNodeStatusEvent does (k/k
// pkg/kubelet/kubelet_node_status.go).
func (k *Kubelet) recordNodeEvents(events []string) {
	for _, e := range events {
		k.ev.emit(&k.ev.node, k.nodeRef(), "", api.EventTypeNormal, e, fmt.Sprintf("Node %s status is now: %s", k.cfg.NodeName, e))
	}
}

// register creates the Node; AlreadyExists counts as registered (a
// restarted kubelet, or a create whose reply was lost). Each attempt
// builds the Node afresh and records its setters' events, as upstream's
// registerWithAPIServer calling initialNode.
func (k *Kubelet) register() {
	k.regTok = k.next()
	n, events := k.nodeObject(k.now())
	k.recordNodeEvents(events)
	k.call(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindNode, Name: n.Name, Object: n}, opRegister, noContainer, 0, k.regTok)
}

func (k *Kubelet) registerDone(r *apiserver.Response, err error) {
	switch {
	case err == nil:
		k.registered = true
		k.stats.Registrations++
		k.noteNode(r.Object)
		k.lastNodePost = k.now() // the Node was created with its status
		k.postedSinceStart = true
		k.scheduleNodeStatus(k.t.StatusUpdateFrequency)
	case errors.Is(err, apierr.ErrAlreadyExists):
		k.registered = true
		k.stats.Registrations++
		k.checkNodeStatus()
	default:
		// registerWithAPIServer: 100ms doubling to 7s.
		d := k.regStep
		k.regStep = min(2*k.regStep, maxRegistrationDelay)
		k.regTok = k.next()
		k.at(d, tRegister, noContainer, 0, k.regTok)
	}
}

// noteNode keeps what the kubelet learnt of its stored Node: its uid, its
// Lease's owner.
func (k *Kubelet) noteNode(o api.Object) {
	if n, ok := o.(*api.Node); ok {
		k.nodeUID = n.UID
	}
}

func (k *Kubelet) scheduleNodeStatus(d time.Duration) {
	k.nodeTok = k.next()
	k.at(d, tNodeStatus, noContainer, 0, k.nodeTok)
}

// NodeStatusUpdateRetry is upstream's nodeStatusUpdateRetry
// (pkg/kubelet/kubelet.go): a node status update is tried up to five
// times in a row before the loop waits for its next tick.
const NodeStatusUpdateRetry = 5

// checkNodeStatus is the status loop's tick, every StatusUpdateFrequency
// after the last update ended, as upstream's updateNodeStatus: up to
// NodeStatusUpdateRetry tries, the first from the node lister, the others
// from a GET of the Node (kubernetes/kubernetes#123977, to spare the API
// server a GET of every node every 10 seconds).
func (k *Kubelet) checkNodeStatus() {
	if k.nodeBusy || !k.registered {
		return
	}
	k.nodeTry = 0
	k.tryNodeStatus()
}

// tryNodeStatus is upstream's tryUpdateNodeStatus: read the Node (the
// lister's on the first try, the API server's after), apply the
// condition setters to what it shows, and write the status when it
// changed, when StatusReportFrequency has passed since the last write, or
// first after a Start.
func (k *Kubelet) tryNodeStatus() {
	if k.nodeTry == 0 {
		if n := k.nodeCache; n != nil {
			k.updateNodeStatus(n)
		} else {
			// The lister has no Node yet (or it was deleted): upstream's
			// Get fails with NotFound and the next try asks the server.
			k.nodeTryFailed()
		}
		return
	}
	k.nodeBusy = true
	k.nodeOp = k.next()
	k.call(&apiserver.Request{Verb: apiserver.Get, Kind: api.KindNode, Name: k.cfg.NodeName}, opNodeGet, noContainer, 0, k.nodeOp)
}

// nodeGetDone goes on with the Node a retry read.
func (k *Kubelet) nodeGetDone(r *apiserver.Response, err error) {
	k.nodeBusy = false
	if err != nil {
		k.nodeTryFailed()
		return
	}
	n, ok := r.Object.(*api.Node)
	if !ok {
		k.nodeTryFailed()
		return
	}
	k.updateNodeStatus(n)
}

// nodeTryFailed moves on to the next try, or, after the last, waits for
// the next tick.
func (k *Kubelet) nodeTryFailed() {
	k.nodeTry++
	if k.nodeTry < NodeStatusUpdateRetry {
		k.tryNodeStatus()
		return
	}
	k.scheduleNodeStatus(k.t.StatusUpdateFrequency)
}

// updateNodeStatus applies the setters to n, the stored Node as read,
// and writes the result when it must.
func (k *Kubelet) updateNodeStatus(n *api.Node) {
	quiet := k.postedSinceStart && k.now().Sub(k.lastNodePost) < k.t.StatusReportFrequency
	if quiet && n == k.quietNode {
		// The very Node (stored objects never change) on which the
		// setters changed nothing last time: they would change nothing
		// again. Most ticks end here, without reading the Node.
		k.scheduleNodeStatus(k.t.StatusUpdateFrequency)
		return
	}
	k.noteNode(n)
	conds, events := setConditionsIn(k.condScratch, n.Status.Conditions, wallTime(k.now()))
	k.condScratch = conds[:0]
	if quiet && !conditionsChanged(n.Status.Conditions, conds) {
		k.quietNode = n
		k.scheduleNodeStatus(k.t.StatusUpdateFrequency)
		return
	}
	k.recordNodeEvents(events)
	k.postNodeStatus(n, conds)
}

// postNodeStatus patches the node's status subresource from base, the
// Node as read, to the status with conds, as upstream's PatchNodeStatus:
// a strategic merge patch of what changed since base, so that what the
// kubelet did not change stays as the server has it even when base is
// stale (the lister's copy, say, of a Node whose Ready condition the
// node lifecycle controller has since set Unknown). A failed patch fails
// the try.
func (k *Kubelet) postNodeStatus(base *api.Node, conds []api.NodeCondition) {
	st := k.nodeStatus(conds)
	body, err := statusPatch(&base.Status, &st)
	if err != nil {
		// The kubelet's own status always encodes; were it not to, the
		// try fails as upstream's would on a patch it cannot make.
		k.nodeTryFailed()
		return
	}
	k.nodeBusy = true
	k.nodeOp = k.next()
	k.call(&apiserver.Request{Verb: apiserver.Patch, Kind: api.KindNode, Name: k.cfg.NodeName, Subresource: "status",
		Patch: body, PatchType: apiserver.StrategicMergePatch}, opNodeStatus, noContainer, 0, k.nodeOp)
}

// statusPatch returns the strategic merge patch of a Node that turns
// status old into cur: made from the typed conditions when only they
// differ (conditionsPatch), through JSON otherwise (statusPatchJSON).
func statusPatch(old, cur *api.NodeStatus) ([]byte, error) {
	if b, ok := conditionsPatch(old, cur); ok {
		return b, nil
	}
	return statusPatchJSON(old, cur)
}

// statusPatchJSON is statusPatch through JSON: upstream's
// PatchNodeStatus, a two-way strategic merge patch of the two Nodes.
func statusPatchJSON(old, cur *api.NodeStatus) ([]byte, error) {
	var docs [2]map[string]any
	for i, st := range []*api.NodeStatus{old, cur} {
		b, err := json.Marshal(map[string]any{"status": st})
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &docs[i]); err != nil {
			return nil, err
		}
	}
	p, err := strategicpatch.TwoWay(docs[0], docs[1])
	if err != nil {
		return nil, err
	}
	return json.Marshal(p)
}

func (k *Kubelet) nodeStatusDone(r *apiserver.Response, err error) {
	k.nodeBusy = false
	if err != nil {
		k.nodeTryFailed()
		return
	}
	k.stats.NodeStatusPosts++
	k.noteNode(r.Object)
	k.lastNodePost = k.now()
	k.postedSinceStart = true
	k.scheduleNodeStatus(k.t.StatusUpdateFrequency)
}

// renewLease is the lease controller's tick: renew now, and again after
// the renew interval jittered by up to 4%.
func (k *Kubelet) renewLease() {
	// What a renewal reads besides the kubelet, out of the caches at
	// thousands of nodes: overlap the misses.
	kernel.Prefetch(k.rng)
	kernel.Prefetch(k.lease)
	kernel.Prefetch(k.self)
	k.leaseTok = k.next()
	d := k.t.LeaseRenewInterval + time.Duration(k.rng.Float64()*0.04*float64(k.t.LeaseRenewInterval))
	k.at(d, tLease, noContainer, 0, k.leaseTok)
	if !k.leaseBusy {
		k.sendLease(opLeaseUpdate)
	}
}

// sendLease sends one lease write: an update of the lease last seen, a
// create when there is none, or a get (after a conflict or an
// AlreadyExists) to learn the current one.
func (k *Kubelet) sendLease(op kind) {
	k.leaseBusy = true
	k.leaseOp = k.next()
	req := &apiserver.Request{Kind: api.KindLease, Namespace: LeaseNamespace, Name: k.cfg.NodeName}
	now := api.NewMicroTime(k.now().Wall())
	switch {
	case op == opLeaseGet:
		req.Verb = apiserver.Get
	case k.lease == nil:
		op = opLeaseCreate
		holder := k.cfg.NodeName
		secs := int32(k.t.LeaseDuration / time.Second)
		renewed := now
		l := &api.Lease{
			TypeMeta:   api.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: api.KindLease.Name},
			ObjectMeta: api.ObjectMeta{Name: k.cfg.NodeName, Namespace: LeaseNamespace, OwnerReferences: k.leaseOwner()},
			Spec:       api.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &secs, RenewTime: &renewed},
		}
		req.Verb, req.Object = apiserver.Create, l
	default:
		// The stored lease is shared and immutable: change a shallow copy
		// (the server copies the request body before it stores it). The
		// copy and its renew time are one allocation: a renewal is the
		// most frequent write of a run.
		r := &renewal{lease: *k.lease, renewTime: now}
		l := &r.lease
		l.Spec.RenewTime = &r.renewTime
		if len(l.OwnerReferences) == 0 {
			l.OwnerReferences = k.leaseOwner()
		}
		req.Verb, req.Object = apiserver.Update, l
	}
	k.call(req, op, noContainer, 0, k.leaseOp)
}

// renewal is the body of a lease renewal: the Lease and the time its
// spec.renewTime points at, allocated together.
type renewal struct {
	lease     api.Lease
	renewTime api.MicroTime
}

// leaseOwner is the lease's owner reference to the Node, once its uid is
// known, so that deleting the Node deletes its Lease.
func (k *Kubelet) leaseOwner() []api.OwnerReference {
	if k.nodeUID == "" {
		return nil
	}
	return []api.OwnerReference{{APIVersion: "v1", Kind: api.KindNode.Name, Name: k.cfg.NodeName, UID: k.nodeUID}}
}

func (k *Kubelet) leaseDone(op kind, r *apiserver.Response, err error) {
	k.leaseBusy = false
	if err == nil {
		l, _ := r.Object.(*api.Lease)
		k.lease = l
		if op == opLeaseGet {
			k.sendLease(opLeaseUpdate) // renew what is there now
			return
		}
		k.stats.Renewals++
		return
	}
	switch {
	case op == opLeaseGet && errors.Is(err, apierr.ErrNotFound):
		k.lease = nil
		k.sendLease(opLeaseCreate)
		return
	case op == opLeaseCreate && errors.Is(err, apierr.ErrAlreadyExists),
		op == opLeaseUpdate && errors.Is(err, apierr.ErrConflict):
		k.sendLease(opLeaseGet)
		return
	case op == opLeaseUpdate && errors.Is(err, apierr.ErrNotFound):
		k.lease = nil
	}
	// Timed out or refused: the next tick tries again.
	k.stats.RenewFailures++
}

// Node returns the Node object the kubelet registers, with the status it
// would report now: what a scenario bootstraps for a node that has been up
// since before the run started.
func (k *Kubelet) Node() *api.Node {
	n, _ := k.nodeObject(k.now())
	return n
}

// restDeepEqual is reflect.DeepEqual of two node statuses but for their
// conditions. The fields a kubelet always reports (capacity, allocatable,
// phase, addresses, daemon endpoints, node info) are compared by type, by
// DeepEqual's rules (nil unequal to empty); what is left, cleared of them,
// goes through DeepEqual as before, which is cheap when it is empty. The
// reflective walk of two resource lists per node status tick was some
// 0.4 s of a 5,000-node run. TestRestDeepEqual holds it to DeepEqual.
func restDeepEqual(old, cur *api.NodeStatus) bool {
	if !api.MapsDeepEqual(old.Capacity, cur.Capacity) || !api.MapsDeepEqual(old.Allocatable, cur.Allocatable) ||
		old.Phase != cur.Phase || !api.SlicesDeepEqual(old.Addresses, cur.Addresses) ||
		!api.SlicesDeepEqual(old.DaemonEndpoints, cur.DaemonEndpoints) || !api.SlicesDeepEqual(old.NodeInfo, cur.NodeInfo) {
		return false
	}
	rest := func(st *api.NodeStatus) api.NodeStatus {
		r := *st
		r.Conditions, r.Capacity, r.Allocatable, r.Phase, r.Addresses, r.DaemonEndpoints, r.NodeInfo = nil, nil, nil, "", nil, nil, nil
		return r
	}
	return reflect.DeepEqual(rest(old), rest(cur))
}

// conditionsPatch is statusPatch without JSON for what a kubelet sends
// nearly always, a change of conditions alone: each changed condition
// with its merge key and the fields that changed, new ones whole, gone
// ones deleted, and the new order when any of that happened or the
// conditions moved. ok is false, and statusPatch goes through JSON,
// when something else differs or a change needs a null (a field
// emptied, a time zeroed) or the conditions repeat a type.
// TestConditionsPatchMatches holds it to statusPatchJSON.
func conditionsPatch(old, cur *api.NodeStatus) (b []byte, ok bool) {
	if !restDeepEqual(old, cur) {
		return nil, false
	}
	oc, cc := old.Conditions, cur.Conditions
	if len(oc) == 0 || len(cc) == 0 || !distinctTimed(oc) || !distinctTimed(cc) {
		return nil, false
	}
	sameTime := func(a, b api.Time) bool { return a.Unix() == b.Unix() }
	var st api.NodeConditionsPatchStatus
	seen := 0
	for i := range cc {
		c := &cc[i]
		j := slices.IndexFunc(oc, func(o api.NodeCondition) bool { return o.Type == c.Type })
		if j < 0 {
			d := api.NodeConditionPatch{Type: c.Type, Status: &c.Status, LastHeartbeatTime: &c.LastHeartbeatTime, LastTransitionTime: &c.LastTransitionTime}
			if c.Reason != "" {
				d.Reason = &c.Reason
			}
			if c.Message != "" {
				d.Message = &c.Message
			}
			st.Conditions = append(st.Conditions, d)
			continue
		}
		seen++
		o := &oc[j]
		if (o.Reason != "" && c.Reason == "") || (o.Message != "" && c.Message == "") {
			return nil, false
		}
		d := api.NodeConditionPatch{Type: c.Type}
		changed := false
		if o.Status != c.Status {
			d.Status, changed = &c.Status, true
		}
		if !sameTime(o.LastHeartbeatTime, c.LastHeartbeatTime) {
			d.LastHeartbeatTime, changed = &c.LastHeartbeatTime, true
		}
		if !sameTime(o.LastTransitionTime, c.LastTransitionTime) {
			d.LastTransitionTime, changed = &c.LastTransitionTime, true
		}
		if o.Reason != c.Reason {
			d.Reason, changed = &c.Reason, true
		}
		if o.Message != c.Message {
			d.Message, changed = &c.Message, true
		}
		if changed {
			st.Conditions = append(st.Conditions, d)
		}
	}
	// Gone conditions are deleted in the order of their types, and the
	// order goes with any change or a move, as upstream's diffLists has
	// them.
	var gone []api.NodeConditionType
	for _, o := range oc {
		if !slices.ContainsFunc(cc, func(c api.NodeCondition) bool { return c.Type == o.Type }) {
			gone = append(gone, o.Type)
		}
	}
	slices.Sort(gone)
	for _, typ := range gone {
		st.Conditions = append(st.Conditions, api.NodeConditionPatch{Type: typ, Patch: "delete"})
	}
	moved := !slices.EqualFunc(oc, cc, func(o, c api.NodeCondition) bool { return o.Type == c.Type })
	if len(st.Conditions) == 0 && !moved {
		return []byte("{}"), true
	}
	for i := range cc {
		st.Order = append(st.Order, api.NodeConditionPatch{Type: cc[i].Type})
	}
	b, err := json.Marshal(api.NodeConditionsPatch{Status: &st})
	return b, err == nil
}

// distinctTimed reports whether no two conditions share a type and every
// time is set.
func distinctTimed(cs []api.NodeCondition) bool {
	for i := range cs {
		if cs[i].LastHeartbeatTime.IsZero() || cs[i].LastTransitionTime.IsZero() {
			return false
		}
		for j := range i {
			if cs[j].Type == cs[i].Type {
				return false
			}
		}
	}
	return true
}
