// Package daemonset is Kubernetes' DaemonSet controller
// (kube-controller-manager's "daemonset-controller", k/k
// pkg/controller/daemon): it keeps one pod of every DaemonSet on every
// node the pod may run on, replaces pods of an old template with a
// rolling update bounded by maxUnavailable, and reports what it sees in
// the DaemonSet's status.
//
// What it models, after upstream:
//
//   - eligibility (NodeShouldRunDaemonPod): the template's nodeName,
//     nodeSelector and required node affinity must match the node, and
//     every NoSchedule and NoExecute taint must be tolerated for a new
//     pod; an existing pod keeps running while every NoExecute taint is
//     tolerated;
//   - the tolerations every daemon pod gets
//     (util.AddOrUpdateDaemonPodTolerations): not-ready and unreachable
//     (NoExecute, no tolerationSeconds), disk-pressure, memory-pressure,
//     pid-pressure and unschedulable (NoSchedule), and network-unavailable
//     (NoSchedule) for hostNetwork pods;
//   - pods are created for the default scheduler with the required node
//     affinity replaced by matchFields metadata.name In [node]
//     (util.ReplaceDaemonSetPodNodeNameNodeAffinity), so they count
//     against the node's allocatable like any pod, in slow-start batches
//     of at most BurstReplicas, with expectations;
//   - failed pods are deleted with a per-node back-off of 1 s doubling to
//     15 min (event FailedDaemonPod), succeeded ones at once
//     (SucceededDaemonPod), surplus pods on a node keep the oldest, pods
//     on nodes that should not run them are deleted, and pending pods
//     whose node is gone are deleted;
//   - RollingUpdate with maxUnavailable (rounded up; 0 with maxSurge 0
//     means 1) or maxSurge (rounded up: new pods start beside the old
//     ones, at most maxSurge not yet available at a time, and an old pod
//     goes when the new one beside it is available; update.go), OnDelete; the status fields desiredNumberScheduled,
//     currentNumberScheduled, numberMisscheduled, numberReady,
//     updatedNumberScheduled, numberAvailable, numberUnavailable and
//     observedGeneration; the events SuccessfulCreate, FailedCreate,
//     SuccessfulDelete, FailedDelete and SelectingAll.
//
// Not modelled: ControllerRevisions (the template hash is computed as the
// deployment controller computes pod-template-hash, and kept in the pods'
// controller-revision-hash label), adoption of orphan pods.
//
// Imports: api, apierr, client, informer, controller, and the scheduler's
// node checks; never the kernel, store, network or API server.
//
// Determinism contract: no wall clock (time comes from the manager's
// Clock), no goroutines, no random source. Nodes are visited in name
// order, pods in creation time then name order; maps are read by key only
// or their keys sorted.
package daemonset
