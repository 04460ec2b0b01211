// Package autoscaler is a cluster autoscaler after kubernetes/autoscaler's
// cluster-autoscaler: every scan interval it looks at the pods the
// scheduler could not place and at the nodes of the node groups it may
// resize, adds nodes to a group when a pending pod would fit a new node of
// that group, and removes nodes that have been underutilised, with all
// their pods placeable elsewhere, for the unneeded time.
//
// What it models, after cluster-autoscaler (core/static_autoscaler.go
// RunOnce, core/scaleup, core/scaledown, estimator/binpacking_estimator.go,
// expander/waste):
//
//   - the defaults of cluster-autoscaler/config/const.go and
//     config/flags/flags.go: --scan-interval 10s,
//     --scale-down-unneeded-time 10m, --scale-down-utilization-threshold
//     0.5, --scale-down-delay-after-add 10m;
//   - --expendable-pods-priority-cutoff -10: pods of a lower priority
//     trigger no scale-up and are not moved before a scale-down;
//   - scale-up: pods that are Unschedulable and would not fit an existing
//     node nor a node already asked for (an upcoming node) are packed by
//     first-fit decreasing onto template nodes of each group that has not
//     reached its max (the template is the group's allocatable less what
//     the DaemonSets that would run on it request); the group wasting the
//     least CPU and memory wins (the least-waste expander, the default;
//     ties by group name), and grows by the nodes needed, capped at its max
//     size. Events on the pods: TriggeredScaleUp "pod triggered scale-up:
//     [{group 1->3 (max: 6)}]", or NotTriggerScaleUp "pod didn't trigger
//     scale-up: 1 max node group size reached, 1 node(s) didn't match
//     Pod's node affinity/selector";
//   - scale-down: a node of a group above its min size whose requests
//     (cpu or memory, the larger share of allocatable, DaemonSet pods
//     included) are below the threshold, none of whose pods blocks its
//     drain, and whose pods to move all fit on other nodes is unneeded;
//     once unneeded for the unneeded time (and the delay after the last
//     scale-up has passed) it is tainted ToBeDeletedByClusterAutoscaler
//     and removed: empty nodes together, at once; a node with pods to
//     move one at a time (--max-drain-parallelism 1), drained in a
//     process of its own (drain.go) so that scans go on;
//   - drainability (drainability.go, after simulator/drainability/rules
//     and simulator/drain.go GetPodsToMove): upstream's default rules in
//     their order, the first with an opinion deciding: mirror pods and
//     pods long past their grace period are left alone; a missing
//     owning ReplicaSet, Job, StatefulSet or DaemonSet blocks
//     (ControllerNotFound); DaemonSet pods, safe-to-evict "true" pods and
//     terminal pods go; safe-to-evict "on-completion" pods are waited
//     for; then a pod without a controller, or with one of another kind
//     (NotReplicated), a kube-system pod no budget selects, until it is
//     an hour old (UnmovableKubeSystemPod), a safe-to-evict "false" pod
//     (NotSafeToEvictAnnotation), a pod with a hostPath or on-disk
//     emptyDir volume (LocalStorageRequested) and a pod of a budget with
//     no disruption left (NotEnoughPdb) block. The budgets are the
//     PodDisruptionBudgets' status.disruptionsAllowed, spent across the
//     nodes one scan finds removable (budgets.go, after
//     core/scaledown/pdb). A blocked node is told on the timeline once
//     per reason ("scale-down: node pool-1 cannot be removed: default/bare
//     is not replicated (NotReplicated)"); a node found unremovable is
//     not looked at again for --unremovable-node-recheck-timeout 5m;
//   - the drain (after core/scaledown/actuation): 5s after the taint
//     (--node-delete-delay-after-taint) the rules run again on the pods
//     then on the node; every pod but mirror pods is evicted through the
//     Eviction API with its grace period capped at
//     --max-graceful-termination-sec 600 (DaemonSet pods best effort,
//     --daemonset-eviction-for-occupied-nodes); a refusal (a budget's
//     429) is retried every 10s until --max-pod-eviction-time 2m; the
//     evicted pods are polled every 5s for 600s + 30s until gone; then
//     the cloud deletes the machine. A failed drain gives the node back:
//     Warning ScaleDownFailed on the pod and the node, the taint
//     removed, upstream's "couldn't delete node ... with drain" on the
//     timeline. Events: ScaleDown "marked the node as
//     toBeDeleted/unschedulable", "Scale-down: removing node ...",
//     "deleting pod for node scale down", "nodes removed by cluster
//     autoscaler"; ScaleDownEmpty for empty nodes;
//   - cluster state (clusterstate.go, after clusterstate/clusterstate.go
//     of release-1.37): registered nodes are ready, not started (unready
//     less than 15m after registering) or unready; the cloud's machines
//     without a Node are unregistered, long unregistered after
//     --max-node-provision-time 15m. A scale-up whose nodes have not
//     come by then fails ("Scale-up timed out for node group a after
//     15m10s", ScaleUpTimedOut), its group is backed off exponentially
//     (backoff.go: --initial-node-group-backoff-duration 5m doubling to
//     --max-node-group-backoff-duration 30m, reset after
//     --node-group-backoff-reset-timeout 3h) and the cloud asked to
//     take the nodes back; long unregistered machines are deleted
//     (removeOldUnregisteredNodes, down to the min size). Upcoming nodes
//     count only for a group with a scale-up under way and not backed
//     off; a backed-off or unhealthy group is left out of scale-ups
//     (NotTriggerScaleUp "... in backoff after failed scale-up", "...
//     not ready for scale-up"). With more unready nodes than
//     --ok-total-unready-count 3 and --max-total-unready-percentage 45
//     of the registered nodes, a scan does nothing more ("Cluster is not
//     ready for autoscaling") and the unneeded times start again;
//   - unready nodes are scaled down (--scale-down-unready-enabled) after
//     --scale-down-unready-time 20m; pods terminating past their grace
//     period do not count in a node's utilization.
//
// The cloud (a node group's size and machines, which take a provisioning
// delay to join, deleting a machine) is the CloudProvider interface,
// which the scenario runner implements on the simulated cluster.
//
// The fit checks run the scheduler's topology spread and inter-pod
// affinity filters (scheduler.Simulation) against every pod of the
// cluster and every pod already placed in the simulation, on real nodes
// and on template nodes named "template-node-for-<group>-<n>" (also their
// hostname label), each group tried on its own fork of the simulation;
// a scale-down candidate leaves the simulation with its pods before they
// are placed elsewhere.
//
// Unlike upstream, which rebuilds its ClusterSnapshot at every loop, the
// state a scan starts from (nodes, their pods and requests, the
// Simulation) is kept between scans and brought up to date from the
// nodes and pods the informers report changed (view.go); a scan's own
// changes are undone at its end. The decisions are the same; a scan's
// cost no longer grows with the number of pods.
//
// Not modelled: balance-similar-node-groups, instances reporting
// creation errors (deleteCreatedNodesWithErrors, the ScaleUpFailed
// back-off), fixNodeGroupSize, --max-node-startup-time and the per-group
// overrides of the provision and unready times, the status ConfigMap
// (its events are told on the timeline instead), --drain-priority-config,
// force deletion, the risky-node ordering of drains, the 5s pause and
// re-check before an empty node's deletion, a restart's cleanup of
// leftover ToBeDeletedByClusterAutoscaler taints, custom drainability
// rules (and the Overrides only they set). The simulator serves no
// ReplicationController, so a pod owned by one always blocks.
//
// Imports: api, apierr, client, informer, controller and the
// scheduler's node checks only.
//
// Determinism contract: no wall clock, no goroutines, no random source;
// nodes, pods and groups are visited in name order.
package autoscaler
