package kubelet

import (
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/kernel"
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

// nodeObject is the Node the kubelet registers.
func (k *Kubelet) nodeObject(now kernel.Time) *api.Node {
	labels := map[string]string{
		"kubernetes.io/hostname":  k.cfg.NodeName,
		"kubernetes.io/os":        "linux",
		"kubernetes.io/arch":      "amd64",
		"beta.kubernetes.io/os":   "linux",
		"beta.kubernetes.io/arch": "amd64",
	}
	maps.Copy(labels, k.cfg.Labels)
	return &api.Node{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: api.KindNode.Name},
		ObjectMeta: api.ObjectMeta{Name: k.cfg.NodeName, Labels: labels},
		Spec: api.NodeSpec{
			PodCIDR:  k.cfg.PodCIDR,
			PodCIDRs: []string{k.cfg.PodCIDR},
			Taints:   slices.Clone(k.cfg.Taints),
		},
		Status: k.nodeStatus(now),
	}
}

// nodeStatus is the status the kubelet reports: capacity, allocatable
// (Config.Allocatable), the four conditions with
// this heartbeat, addresses and node info.
func (k *Kubelet) nodeStatus(now kernel.Time) api.NodeStatus {
	hb := wallTime(now)
	since := wallTime(k.firstStart)
	cond := func(t api.NodeConditionType, s api.ConditionStatus, tr api.Time, reason, msg string) api.NodeCondition {
		return api.NodeCondition{Type: t, Status: s, LastHeartbeatTime: hb, LastTransitionTime: tr, Reason: reason, Message: msg}
	}
	return api.NodeStatus{
		Capacity:    k.cfg.Capacity,
		Allocatable: k.cfg.Allocatable,
		Conditions: []api.NodeCondition{
			cond(api.NodeMemoryPressure, api.ConditionFalse, since, reasonMemoryOK, messageMemoryOK),
			cond(api.NodeDiskPressure, api.ConditionFalse, since, reasonDiskOK, messageDiskOK),
			cond(api.NodePIDPressure, api.ConditionFalse, since, reasonPIDOK, messagePIDOK),
			cond(api.NodeReady, api.ConditionTrue, wallTime(k.readySince), reasonReady, messageReady),
		},
		Addresses: []api.NodeAddress{
			{Type: api.NodeInternalIP, Address: k.cfg.InternalIP},
			{Type: api.NodeHostName, Address: k.cfg.NodeName},
		},
		DaemonEndpoints: k.daemonEPs,
		NodeInfo:        k.nodeInfo,
	}
}

// register creates the Node; AlreadyExists counts as registered (a
// restarted kubelet, or a create whose reply was lost).
func (k *Kubelet) register() {
	k.regTok = k.next()
	n := k.nodeObject(k.now())
	k.call(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindNode, Name: n.Name, Object: n}, opRegister, noContainer, 0, k.regTok)
}

func (k *Kubelet) registerDone(r *apiserver.Response, err error) {
	switch {
	case err == nil:
		k.registered = true
		k.stats.Registrations++
		k.nodeUID = r.Object.GetObjectMeta().UID
		k.lastNodePost = k.now() // the Node was created with its status
		k.noteConditions()
		k.scheduleNodeStatus(k.t.StatusUpdateFrequency)
	case errors.Is(err, apierr.ErrAlreadyExists):
		k.registered = true
		k.stats.Registrations++
		k.postNodeStatus()
	default:
		// registerWithAPIServer: 100ms doubling to 7s.
		d := k.regStep
		k.regStep = min(2*k.regStep, maxRegistrationDelay)
		k.regTok = k.next()
		k.at(d, tRegister, noContainer, 0, k.regTok)
	}
}

// noteConditions records the node condition events once the status is
// out: the pressure conditions once per kubelet, NodeReady once per Start.
func (k *Kubelet) noteConditions() {
	msg := func(s string) string { return "Node " + k.cfg.NodeName + " status is now: " + s }
	if !k.announced {
		k.announced = true
		for _, r := range []string{"NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID"} {
			k.ev.emit(k.nodeRef(), "", api.EventTypeNormal, r, msg(r))
		}
	}
	if !k.readyNoted {
		k.readyNoted = true
		k.ev.emit(k.nodeRef(), "", api.EventTypeNormal, "NodeReady", msg("NodeReady"))
	}
}

func (k *Kubelet) scheduleNodeStatus(d time.Duration) {
	k.nodeTok = k.next()
	k.at(d, tNodeStatus, noContainer, 0, k.nodeTok)
}

// checkNodeStatus is the status loop's tick, every StatusUpdateFrequency:
// post the status when StatusReportFrequency has passed since the last
// post; otherwise read the stored Node and post only if its conditions
// differ from the kubelet's own (the node lifecycle controller marked it
// Unknown while the kubelet was cut off, say), as the kubelet's
// tryUpdateNodeStatus does.
func (k *Kubelet) checkNodeStatus() {
	if k.nodeBusy || !k.registered {
		k.postNodeStatus()
		return
	}
	if k.now().Sub(k.lastNodePost) >= k.t.StatusReportFrequency {
		k.postNodeStatus()
		return
	}
	k.nodeBusy = true
	k.nodeOp = k.next()
	k.call(&apiserver.Request{Verb: apiserver.Get, Kind: api.KindNode, Name: k.cfg.NodeName}, opNodeGet, noContainer, 0, k.nodeOp)
}

// nodeGetDone compares the stored Node's conditions with the kubelet's.
func (k *Kubelet) nodeGetDone(r *apiserver.Response, err error) {
	k.nodeBusy = false
	if err != nil {
		k.scheduleNodeStatus(k.t.StatusUpdateFrequency)
		return
	}
	stored := r.Object.(*api.Node).Status.Conditions
	for _, own := range k.nodeStatus(k.now()).Conditions {
		found := false
		for _, c := range stored {
			if c.Type == own.Type {
				found = c.Status == own.Status
				break
			}
		}
		if !found {
			k.postNodeStatus()
			return
		}
	}
	k.scheduleNodeStatus(k.t.StatusUpdateFrequency)
}

// postNodeStatus writes the node's status subresource, with a new
// heartbeat: when the kubelet starts, every StatusReportFrequency, and
// when the stored status differs from the kubelet's; a failed write is
// retried every StatusUpdateFrequency.
func (k *Kubelet) postNodeStatus() {
	if k.nodeBusy {
		return
	}
	if !k.registered {
		return // register() posts the status with the Node
	}
	k.nodeBusy = true
	k.nodeOp = k.next()
	n := &api.Node{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: api.KindNode.Name},
		ObjectMeta: api.ObjectMeta{Name: k.cfg.NodeName, UID: k.nodeUID},
		Status:     k.nodeStatus(k.now()),
	}
	k.call(&apiserver.Request{Verb: apiserver.Update, Kind: api.KindNode, Name: n.Name, Subresource: "status", Object: n},
		opNodeStatus, noContainer, 0, k.nodeOp)
}

func (k *Kubelet) nodeStatusDone(r *apiserver.Response, err error) {
	k.nodeBusy = false
	if err != nil {
		if errors.Is(err, apierr.ErrConflict) {
			// The Node was deleted and created again under another uid:
			// report on whatever is there now.
			k.nodeUID = ""
		}
		k.scheduleNodeStatus(k.t.StatusUpdateFrequency)
		return
	}
	k.stats.NodeStatusPosts++
	k.nodeUID = r.Object.GetObjectMeta().UID
	k.lastNodePost = k.now()
	k.noteConditions()
	k.scheduleNodeStatus(k.t.StatusUpdateFrequency)
}

// renewLease is the lease controller's tick: renew now, and again after
// the renew interval jittered by up to 4%.
func (k *Kubelet) renewLease() {
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
		l := &api.Lease{
			TypeMeta:   api.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: api.KindLease.Name},
			ObjectMeta: api.ObjectMeta{Name: k.cfg.NodeName, Namespace: LeaseNamespace, OwnerReferences: k.leaseOwner()},
			Spec:       api.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &secs, RenewTime: &now},
		}
		req.Verb, req.Object = apiserver.Create, l
	default:
		// The stored lease is shared and immutable: change a shallow copy
		// (the server copies the request body before it stores it).
		l := *k.lease
		l.Spec.RenewTime = &now
		if len(l.OwnerReferences) == 0 {
			l.OwnerReferences = k.leaseOwner()
		}
		req.Verb, req.Object = apiserver.Update, &l
	}
	k.call(req, op, noContainer, 0, k.leaseOp)
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
func (k *Kubelet) Node() *api.Node { return k.nodeObject(k.now()) }
