// Package informer keeps a controller's local copy of the API server's
// objects, in the manner of client-go's tools/cache: a reflector process
// LISTs a kind, then WATCHes from the list's resourceVersion, keeps an
// indexed cache up to date and tells registered handlers what was added,
// updated and deleted. It relists when its watch expires (410 Expired) or
// is refused for good (forbidden, bad request), re-watches from its last
// resourceVersion after a jittered exponential back-off when the stream
// breaks or the server is unreachable, reopens a watch after client-go's random 5–10 minute watch timeout, and
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
