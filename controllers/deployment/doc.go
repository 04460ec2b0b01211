// Package deployment is Kubernetes' Deployment controller
// (kube-controller-manager's "deployment" controller, k/k
// pkg/controller/deployment): it owns ReplicaSets and rolls a Deployment's
// pod template out through them.
//
// The controller follows upstream's sync order: a Deployment with an empty
// selector only gets a SelectingAll warning; one being deleted only gets its
// status refreshed; pausing and resuming set an Unknown Progressing
// condition; a paused Deployment, or one whose ReplicaSets carry a
// desired-replicas annotation that differs from spec.replicas (a scaling
// event), is scaled proportionally; otherwise the Recreate or RollingUpdate
// strategy makes one step. A step changes the size of at most a few
// ReplicaSets and then writes the Deployment's status; the next event (or a
// requeue) drives the next step, exactly as upstream does. Old ReplicaSets
// beyond revisionHistoryLimit are deleted once the rollout is complete.
//
// Files follow upstream's layout: deployment_controller.go (event handlers,
// syncDeployment, ReplicaSet adoption), sync.go, rolling.go, recreate.go,
// rollback.go, progress.go, and the pure helpers in deployment_util.go and
// controller_utils.go, exported for kubectl-like tools (rollout status,
// history, undo).
//
// Imports: sim/api, sim/apierr, sim/client, sim/informer and sim/controller
// only, plus the standard library; never the kernel, the store, the network
// or the API server (sim/archtest enforces it).
//
// Determinism contract: no wall clock (time comes from the manager's Clock,
// as virtual time), no goroutines, no random source; every decision that
// depends on a collection iterates it in a defined order (ReplicaSets by
// creation time and name, map keys sorted). Objects read from informer
// caches are shared and never mutated: they are deep-copied before any
// change.
package deployment
