// Package gap measures the gap between declared and actual state: for
// every object whose kind has a definition, how far what the cluster
// reports is from what its spec asks for, as a step function of virtual
// time.
//
// The definitions, per kind (a gap of 0 is closed, anything else open):
//
//   - Deployment: spec.replicas against the status at the current
//     generation: the largest of the replicas not updated, not ready, not
//     available, and the surplus of pods above spec.replicas. A status
//     whose observedGeneration is behind the generation describes an
//     older spec, so the gap is at least 1 however good it looks; a stale
//     status that would read as a finished rollout is recorded as a
//     StaleSuccess.
//   - ReplicaSet: spec.replicas against status.replicas, readyReplicas
//     and availableReplicas, with the same rule for observedGeneration.
//   - Service (with a selector, not ExternalName): the ready addresses of
//     its Endpoints against the IPs of the ready, non-terminating pods it
//     selects; missing and stale addresses both count. A Service whose
//     selector matches no pod, or whose pods are none of them an endpoint
//     (none ready), is open (at least 1): it serves nothing. The
//     stretches of a selector matching nothing are kept as
//     EmptySelectors.
//   - HorizontalPodAutoscaler: status.desiredReplicas against
//     status.currentReplicas (closed while there is no recommendation
//     yet: desiredReplicas 0 with minReplicas above 0).
//   - Node: 1 while its Ready condition is not True.
//   - Pod without a controller (a bare pod): 1 while it is not Ready,
//     unless it has Succeeded. Pods a controller owns are measured through
//     their owner.
//
// A Tracker watches the store and recomputes the gaps of the objects a
// change touched once per virtual instant (when time next advances, or at
// Finish), so a gap that opens and closes within one instant is never
// seen, and every recorded change carries the exact virtual time it
// happened: the series is exact, not sampled; Sample turns it into
// regular samples for tables and plots.
//
// The truth a gap is measured against is computed here from the objects,
// never by the controllers' code: a controller bug must show as a gap.
//
// Imports: the kernel (virtual time), api and the store only.
//
// Determinism contract: no wall clock, no goroutines, no randomness; the
// dirty set is recomputed in kind and key order, and every list this
// package returns is sorted.
package gap
