// Package store is the API server's storage and registry: objects by kind
// and key, a global resourceVersion, optimistic concurrency, generation,
// the status subresource, uid/name generation, graceful and finalizer-held
// deletion, label-selected lists, watches from a resourceVersion with a
// bounded history, and an audit log of every accepted write with its actor
// and changed fields.
//
// It follows the semantics of Kubernetes' generic registry and the
// strategies of the kinds clustersim serves (see shared/KUBERNETES.md,
// section 1). Authorization, admission and defaulting happen before a
// request reaches the store (package apiserver); the network is not its
// concern.
//
// Ownership: objects handed to Create and Update become the store's; the
// store never mutates an object after storing it, and objects it returns or
// sends to watchers are shared and must not be mutated by anyone. Copy
// first (DeepCopyObject).
//
// Imports: the kernel (for virtual time and random streams), api and
// apierr. Determinism: uids and generated names come from the kernel's
// named streams "store/uid" and "store/names"; lists are sorted by
// namespace and name; watchers are notified in the order they registered,
// the unindexed ones first, then those selecting one node's pods, then
// those selecting one name.
package store
