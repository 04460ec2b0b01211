// Package replicaset is Kubernetes' ReplicaSet controller
// (kube-controller-manager's "replicaset-controller", k/k
// pkg/controller/replicaset): it keeps the number of active pods a
// ReplicaSet selects equal to spec.replicas, creating pods from the
// template in slow-start batches and deleting the least valuable pods
// first, and it reports what it sees in the ReplicaSet's status
// (replicas, fullyLabeledReplicas, readyReplicas, availableReplicas,
// terminatingReplicas, observedGeneration and the ReplicaFailure
// condition).
//
// It is faithful to upstream where the simulation can tell: expectations
// (a ReplicaSet is not acted on again until the creates and deletes it
// asked for have been observed, or five minutes have passed), adoption of
// orphan pods and release of pods that no longer match, the scale-down
// ranking of ActivePodsWithRanks, BurstReplicas, the events and the
// condition messages. Where upstream runs calls in parallel goroutines
// (a slow-start batch, the deletes of one sync) this controller makes them
// one after another from its worker: the outcome and the expectations
// bookkeeping are the same, only the virtual time they take differs.
//
// Cost: a sync that only counts (nothing to adopt, release or delete,
// minReadySeconds 0) reads per-ReplicaSet pod counts that the pod event
// handlers keep (aggregate.go) instead of listing and claiming the
// ReplicaSet's pods, so that a run costs time linear in pod events rather
// than pod events times pods per ReplicaSet; every other sync takes
// upstream's full path. The package's tests check both paths agree on
// every sync (verify.go).
//
// Imports: api, apierr, client, informer and controller only; never the
// kernel, the store, the network or the API server.
//
// Determinism contract: no wall clock (time comes from the manager's
// Clock), no goroutines, no random source. Pods are listed from the
// informer in namespace/name order; scale-down victims are ranked by a
// deterministic sort whose last tie-breaker is the pod UID, which the
// store draws from a seeded stream. Expectations are kept in maps that are
// only ever read by key.
package replicaset
