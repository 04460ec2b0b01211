// Package kubectl is the user's side of the simulator: the kubectl commands
// a scenario runs at virtual times (apply, scale, set image, delete, edit,
// cordon, uncordon, drain and the rollout family), over a client.Client
// whose every call crosses the simulated network from a kernel process.
//
// Each command does what kubectl does, in the same order and with the same
// requests, and returns the lines kubectl prints ("deployment.apps/web
// configured") or an error whose text is what kubectl prints after
// "error: " (ErrorLine gives the exact line, including kubectl's "Error
// from server (NotFound): ..." form for API errors). A call that times out
// fails the command with that Timeout error, as kubectl does: nothing is
// retried behind the caller's back, and a write that timed out may or may
// not have happened.
//
// Apply is client-side apply: the last-applied-configuration annotation,
// the three-way strategic merge patch of kubectl (fields in the file
// overwrite the live object, fields removed from the file since the last
// apply are deleted, fields nobody applied are left alone, lists of
// containers, env, ports, volumes ... merge by their keys), sent as a
// strategic merge patch. The API server of the simulator understands the
// strategic merge patch without its directives ($patch, $retainKeys,
// $setElementOrder, $deleteFromPrimitiveList); when a patch needs one to
// mean what kubectl means (a container removed from the file, a changed
// list order, a strategy type switched), Apply sends the equivalent JSON
// merge patch instead, guarded by the resourceVersion it read.
//
// Rollout status, undo, history, pause, resume and restart follow kubectl's
// polymorphichelpers for apps/v1 Deployments, with kubectl's messages
// verbatim; they use the Deployment controller's helpers
// (controllers/deployment) to find revisions and ReplicaSets.
//
// Imports: sim/api, sim/apierr, sim/client, controllers/... and the
// standard library; never the kernel, the store, the network or the API
// server, so the commands work over any client.Client.
//
// Determinism contract: no wall clock (RolloutRestart takes the time to
// stamp), no goroutines, no random source; every output that depends on a
// map or a list order is sorted first (JSON objects are encoded with sorted
// keys, pods are drained in namespace/name order).
package kubectl
