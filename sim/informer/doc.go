// Package informer keeps a controller's local copy of the API server's
// objects, in the manner of client-go's tools/cache: a reflector process
// LISTs a kind, then WATCHes from the list's resourceVersion, keeps an
// indexed cache up to date and tells registered handlers what was added,
// updated and deleted. It decides what to do after a watch as client-go's
// Reflector.watch does: a watch that ended normally (its random 5–10
// minute timeout, closed by the server, or its stream broken, which
// client-go's StreamWatcher takes for the end of the watch) is opened
// again at once from the last resourceVersion; a watch refused with 429,
// or whose request timed out (the simulated network lost it where a real
// connection retransmits: a deviation from client-go, which would list
// again once it declared the connection lost), is opened again after a
// jittered exponential back-off; anything else (410 Expired, a very
// short watch, a watch refused with 503 or for good) ends ListAndWatch,
// and the informer lists again after the back-off. It tells an OnActivity hook of every relist, reopened watch
// and resync, with why the last watch ended, and
// can replay its cache to its handlers every resync period. A Factory
// shares one informer per (kind, options) between the controllers of one
// manager.
//
// Imports: the kernel, api, apierr, store (watch event types), apiserver
// (request types) and client (the Transport); never controllers or the
// controller runtime above it.
//
// Ownership: cached objects are the very objects the server sent, shared
// with the store and every other informer, never copied. Whatever a Lister
// or a handler hands out must not be mutated: deep-copy first.
//
// Determinism contract: no wall clock, no goroutines, no global random
// source. Back-off jitter and watch timeouts come from the named stream
// "informer/<name>/<kind>[options]". Handlers fire in a fixed order: for a
// list or a resync, in namespace/name order; for watch events, in
// resourceVersion order; handlers in the order they were added. Go maps
// hold the cache but are never iterated where order shows: listings come
// from sorted name indexes.
package informer
