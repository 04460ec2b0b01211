// Package controller is clustersim's controller runtime, in the shape of
// controller-runtime: a Reconciler is handed a Request (a namespace/name,
// never the event) and returns a Result; a Controller feeds it from a
// rate-limited work queue filled by informer event handlers, with N worker
// processes that never handle one key at once; a Manager owns one actor
// identity, one Client, one informer Factory, one event Recorder and the
// controllers its setup function registers, and can crash and restart
// them all as a real process restart would.
//
// Controllers are written against this package, client, informer,
// workqueue, api and apierr only. This package may import the kernel (its
// workers are kernel processes) but must not import the store, the network
// or the API server.
//
// Determinism contract: no wall clock, no goroutines, no global random
// source. Workers are kernel processes woken in FIFO order by the work
// queue; handlers enqueue in the informers' deterministic order; a
// Manager's processes are spawned and killed in a fixed order (informers,
// recorder, controllers in registration order, workers by index,
// runnables). Panics in a reconciler are recovered and become errors,
// except the kernel's kill sentinel, which always propagates so that a
// crash cannot be swallowed.
package controller
