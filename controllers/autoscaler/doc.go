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
//     included) are below the threshold and whose other pods all fit on
//     other nodes is unneeded; once unneeded for the unneeded time (and
//     the delay after the last scale-up has passed) it is tainted
//     ToBeDeletedByClusterAutoscaler, its pods but DaemonSet pods are
//     deleted (evicted), and the cloud provider deletes it. Empty nodes go
//     together, non-empty ones one per scan.
//
// The cloud (a node group's size, machines that take a provisioning delay
// to join, deleting a machine) is the CloudProvider interface, which the
// scenario runner implements on the simulated cluster.
//
// The fit checks run the scheduler's topology spread and inter-pod
// affinity filters (scheduler.Simulation) against every pod of the
// cluster and every pod already placed in the simulation, on real nodes
// and on template nodes named "template-node-for-<group>-<n>" (also their
// hostname label), each group tried on its own fork of the simulation;
// a scale-down candidate leaves the simulation with its pods before they
// are placed elsewhere.
//
// Not modelled: pod disruption budgets, balance-similar-node-groups,
// scale-down of unready nodes, failed scale-ups and back-off.
//
// Imports: api, client, informer, controller and the scheduler's node
// checks only.
//
// Determinism contract: no wall clock, no goroutines, no random source;
// nodes, pods and groups are visited in name order.
package autoscaler
