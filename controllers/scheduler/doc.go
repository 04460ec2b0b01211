// Package scheduler is kube-scheduler as clustersim needs it: it binds
// every pending pod whose spec.schedulerName is "default-scheduler" to a
// node, running upstream's default filter and score plugins that apply to
// the simulated API, and keeps pods that fit nowhere Pending with the
// scheduler's own FitError message ("0/3 nodes are available: 3
// Insufficient cpu.").
//
// What it models, after k/k pkg/scheduler:
//
//   - a cache of nodes with the summed requests of the pods bound to each,
//     updated from informer events and by assuming a pod on its node the
//     moment it is bound, before the API has confirmed it (cache.go);
//   - filters, each with upstream's reason string: NodeUnschedulable,
//     TaintToleration (which keeps pods off a node that is not Ready
//     through the node lifecycle controller's not-ready and unreachable
//     NoSchedule taints, as upstream's since 1.17; only when that
//     controller does not run, Options.NodeLifecycleTaints false, does
//     the scheduler reject such a node itself, "node(s) were not
//     ready"), NodeAffinity (with
//     nodeSelector; its PreFilter narrows a pod whose every term names
//     nodes by metadata.name, as a DaemonSet's pods do, to those nodes,
//     the others counting as "node(s) didn't satisfy plugin(s)
//     [NodeAffinity]"), NodePorts, NodeResourcesFit (filter.go),
//     PodTopologySpread (maxSkew, whenUnsatisfiable, minDomains, the
//     node inclusion policies, matchLabelKeys; placement.go) and
//     InterPodAffinity (required affinity and anti-affinity of the pod
//     and of existing pods; interpod.go), their PreFilter state built
//     once per attempt from counts by topology domain that the cache
//     keeps as pods and nodes change (interpodindex.go, spreadindex.go;
//     node by node, from each node's memo of its pods' counts, when the
//     nodes counted depend on the pod or are a preemption trial's:
//     spreadcount.go, interpodmemo.go);
//   - scores: TaintToleration (weight 3), NodeAffinity (2),
//     PodTopologySpread (2, ScheduleAnyway constraints), InterPodAffinity
//     (2, preferred terms and existing pods' terms),
//     NodeResourcesFit LeastAllocated (1) and
//     NodeResourcesBalancedAllocation (1), ties broken by a seeded
//     reservoir sample as upstream's selectHost does (score.go);
//   - preemption, as the DefaultPreemption PostFilter plugin does it
//     (preemption.go): when a pod fits nowhere, lower-priority pods on the
//     nodes that failed for a reason removal can mend are dry-run away and
//     reprieved, the best candidate's victims are marked DisruptionTarget
//     and deleted ("Preempted by pod <uid> on node <node>"), the pod is
//     nominated there and the room held for it; FailedScheduling ends with
//     upstream's "preemption: ..." part;
//   - not modelled: the system default spread constraints for pods
//     without their own, and namespaceSelector terms that select by
//     namespace labels (only {} = all namespaces is);
//   - the active queue's order, as the PrioritySort queue-sort plugin
//     sets it: higher spec.priority first, then the pod queued earlier
//     (a workqueue.NewPriority heap; scheduler.go queuePriority);
//   - the scheduling queue's timing: a failed pod waits 1s doubling to
//     10s before its next attempt, a pod that fits nowhere is parked until
//     a cluster event that may help (a node added or changed, an assigned
//     pod deleted or finished, and for pods with placement rules an
//     assigned pod added) or for at most 5 minutes (scheduler.go);
//   - adaptive percentageOfNodesToScore with a round-robin start index,
//     over nodes interleaved by zone as upstream's node tree lists them;
//     Options.PercentageOfNodesToScore (a scenario's
//     spec.controllers.scheduler.percentageOfNodesToScore) sets it as a
//     KubeSchedulerConfiguration does.
//
// Binding is upstream's DefaultBinder: a create of the pod's binding
// subresource (POST pods/<name>/binding, the pod's uid as a
// precondition), in which the API server sets spec.nodeName and
// PodScheduled=True in one write; then the Normal event Scheduled.
//
// Imports: api, apierr, client, informer, workqueue and controller only;
// never the kernel, store, network or API server.
//
// Determinism contract: no wall clock (time comes from the manager's
// Clock), no goroutines, and the only randomness is the manager's streams
// "scheduler", used to break score ties, and "preemption", the dry run's
// start offset. Nodes are visited in a fixed
// order (zones sorted by name, nodes by name within a zone, interleaved);
// parked pods are moved back to the queue sorted by priority, the time
// they were parked and their key; map iteration never decides an outcome.
package scheduler
