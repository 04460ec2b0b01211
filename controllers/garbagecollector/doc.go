// Package garbagecollector is Kubernetes' garbage collector
// (kube-controller-manager's "garbage-collector-controller", k/k
// pkg/controller/garbagecollector): it deletes objects whose owners are
// gone and carries out foreground and orphan deletion.
//
// It keeps an ownership graph (uid → node with its owner references and
// its dependents) built from informer events on the monitored kinds
// (Monitored: every kind the API serves, custom kinds included, but
// Events, as upstream's default ignored resources; the kinds come from
// the manager's discovery when the collector starts, and a kind a
// CustomResourceDefinition defines later is monitored as soon as the
// collector's informer of definitions sees it; owners of other kinds
// appear as "virtual" nodes, checked with live reads). Two work
// queues act on the graph, as upstream's attemptToDelete and
// attemptToOrphan:
//
//   - a dependent whose owners are all absent (no object with the owner's
//     name and uid, confirmed with a live GET) is deleted with background
//     propagation, or with the propagation its own finalizers ask for;
//     when some owners are present, only the dangling references are
//     patched out;
//   - an owner being deleted with the foregroundDeletion finalizer has its
//     dependents deleted (foreground, so that the deletion recurses
//     through dependents that have dependents of their own); once no
//     dependent with blockOwnerDeletion is left, the finalizer is removed
//     and the owner disappears;
//   - an owner being deleted with the orphan finalizer has its references
//     removed from every dependent, then the finalizer removed;
//   - a reference to an owner observed in another namespace gets a Warning
//     OwnerRefInvalidNamespace event about the dependent (component
//     garbage-collector-controller), and the dependent is checked like any
//     other: a namespaced one is collected if no owner is left in its
//     namespace; a cluster-scoped object naming a namespaced owner is never
//     collected (its owner cannot be looked up without a namespace).
//
// Every write carries preconditions (uid, and resourceVersion where
// upstream uses one), so a stale graph or cache never deletes or edits the
// wrong incarnation of an object; a write that fails is retried with the
// work queue's back-off. The API server of this simulator has no
// strategic-merge "$patch: delete" directive, so references are removed
// with JSON merge patches of the whole remaining list guarded by the
// object's resourceVersion (upstream's fallback, deleteOwnerRefJSONMergePatch).
//
// Imports: api, apierr, client, informer and controller only; never the
// kernel, the store, the network or the API server.
//
// Determinism contract: no wall clock (the retry back-off of finalizer
// removal sleeps on the manager's Clock, without jitter), no goroutines,
// no random source. Graph maps are only read by key, except dependents,
// which are always visited sorted by namespace, kind, name and uid; the
// absent-owner cache evicts in insertion order.
package garbagecollector
