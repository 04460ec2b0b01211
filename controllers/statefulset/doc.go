// Package statefulset is Kubernetes' StatefulSet controller
// (kube-controller-manager's "statefulset-controller", k/k
// pkg/controller/statefulset: stateful_set_control.go,
// stateful_set_utils.go, stateful_pod_control.go).
//
// What it ports:
//
//   - identity: pods named "<set>-<ordinal>" from spec.ordinals.start,
//     labelled statefulset.kubernetes.io/pod-name and
//     apps.kubernetes.io/pod-index, hostname the pod's name and subdomain
//     spec.serviceName; a pod that lost them is updated back;
//   - storage: each volumeClaimTemplate gives each pod the claim
//     "<template>-<set>-<ordinal>" (labels: the template's and the
//     selector's matchLabels), created before the pod, and again while the
//     pod is Pending if it went missing; the pod's volume of the template's
//     name names it;
//   - OrderedReady: one pod at a time, in ordinal order, each created once
//     its predecessors are Running, Ready and available for
//     minReadySeconds; scale-down deletes the highest ordinal first, one at
//     a time, once the others are healthy; Parallel does both at once;
//   - a Failed or Succeeded pod is deleted and created again;
//   - rolling updates (updateRevision from the template): pods at another
//     revision are deleted highest ordinal first, down to the partition,
//     at most maxUnavailable unavailable at once (MaxUnavailableStatefulSet,
//     beta and on since 1.35); pods below the partition are created at
//     the current revision; OnDelete replaces only deleted pods;
//   - persistentVolumeClaimRetentionPolicy: whenDeleted Delete makes the set
//     the claims' controller owner (the garbage collector deletes them with
//     the set), whenScaled Delete makes a condemned pod its claims' owner
//     (deleted with the pod); Retain removes those references; a claim
//     with a stale reference to the set or pod (another uid) is left
//     alone, one with another controller loses its references to them and
//     gets none (upstream's hasStaleOwnerRef, hasUnexpectedController), a
//     non-controller reference to either is made a controller one;
//   - status: observedGeneration, replicas, readyReplicas,
//     availableReplicas, currentReplicas, updatedReplicas, currentRevision,
//     updateRevision (revision names "<set>-<hash>", the pods'
//     controller-revision-hash label), collisionCount; a finished rolling
//     update makes the update revision current;
//   - events as recordPodEvent and recordClaimEvent: SuccessfulCreate
//     "create Pod web-0 in StatefulSet web successful", "create Claim
//     www-web-0 Pod web-0 in StatefulSet web success", SuccessfulDelete
//     "delete Pod web-1 in StatefulSet web successful", and the Failed*
//     Warnings with "... failed error: <err>".
//
// What it leaves out: ControllerRevision objects (revisions are kept in
// the controller's memory: a restarted controller, as upstream when the
// current revision is gone, takes the update revision for the current
// one), so revisionHistoryLimit has nothing to prune and `rollout
// history` has nothing to show; adopting and releasing orphan pods by
// selector (pods are the set's by controller reference); the
// statefulset.kubernetes.io/pod-initialized debug annotation; the
// parallelism of Parallel's slow-start batches (a batch's calls are made
// one after another; which calls are made, all of a batch even after one
// fails and no batch after a failed one, is upstream's).
//
// It imports only the API types and the controller runtime; its time is
// the manager's clock.
package statefulset
