// Package nodelifecycle is Kubernetes' node lifecycle controller
// (kube-controller-manager's "node-lifecycle-controller", k/k
// pkg/controller/nodelifecycle) and its NoExecute taint manager (the
// "taint-eviction-controller", k/k pkg/controller/tainteviction).
//
// The node lifecycle controller (Setup) runs a health pass every monitor
// period (5s): a node whose last heartbeat, the later of its Lease's
// renewTime in kube-node-lease and its Ready condition's
// lastHeartbeatTime, is older than the grace period (50s; 60s for a node
// that never posted a Ready condition) gets Ready, MemoryPressure,
// DiskPressure and PIDPressure set to Unknown, reason NodeStatusUnknown,
// message "Kubelet stopped posting node status." (NodeStatusNeverUpdated,
// "Kubelet never posted node status." for conditions never posted), and
// an event NodeNotReady; its pods are marked not ready. From the next
// pass a node whose Ready condition is Unknown is tainted
// node.kubernetes.io/unreachable:NoExecute, one that is False
// node.kubernetes.io/not-ready:NoExecute, with timeAdded, at most at its
// zone's rate: a token bucket per zone (label topology.kubernetes.io/zone,
// with the region) on the virtual clock, 0.1 nodes/s with a burst of 1
// while the zone is healthy, 0.01 when more than 2 and at least 55% of its
// nodes are not Ready and it has more than 50 nodes, none when it is that
// unhealthy and smaller; when every zone has no Ready node at all the
// controller assumes the fault is its own, untaints every node and stops
// tainting. A node Ready again loses both taints. On every node update the
// NoSchedule taints that mirror conditions (not-ready, unreachable,
// memory-, disk-, pid-pressure, network-unavailable) and spec.unschedulable
// are reconciled, as upstream's TaintNodesByCondition, and the deprecated
// beta.kubernetes.io/os and /arch labels are set to kubernetes.io/os and
// /arch (upstream's reconcileNodeLabels).
//
// The taint eviction controller (SetupEviction) deletes the pods bound to
// a node with a NoExecute taint: at once for a pod that does not tolerate
// the taint, tolerationSeconds after the taint's timeAdded for one that
// tolerates it for a while (the DefaultTolerationSeconds admission plugin
// gives every pod 300s for unreachable and not-ready), never for one that
// tolerates it forever. It records the Normal event TaintManagerEviction
// "Marking for deletion Pod <ns>/<name>" (and "Cancelling deletion of Pod
// <ns>/<name>" when a pending deletion is called off), sets the pod
// condition DisruptionTarget, and deletes the pod, which then waits in its
// grace period for a kubelet to confirm. As upstream's, a deletion once
// scheduled keeps its time: a later change of the pod's tolerations or of
// the node's NoExecute taints (the unreachable taint swapped for
// not-ready) neither delays nor advances it; only a taint the pod does
// not tolerate (deleted at once), a toleration forever, or the taints'
// removal calls it off. The node's deletion does not: the pending
// deletion still fires.
//
// Deviations, each for determinism or the simulation's scale: heartbeats
// are read from the objects' timestamps rather than from upstream's local
// observation times (there is no clock skew to guard against), so a
// restarted controller does not give silent nodes a new grace period;
// tainting runs right after each health pass and whenever a zone's bucket
// next has a token, instead of polling every 100ms; a taint swap is one
// write, not an add and a remove; eviction counts tolerationSeconds from
// the taint's timeAdded. The default grace period is 50s, upstream's
// since 1.32 (40s before).
//
// Imports: api, apierr, client, informer and controller only.
//
// Determinism contract: no wall clock (the manager's Clock), no
// goroutines, no randomness. Nodes are visited in name order, zones in
// key order, pods in namespace/name order; maps are only read by key or
// iterated after sorting their keys.
package nodelifecycle
