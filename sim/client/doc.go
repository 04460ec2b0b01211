// Package client is the controller runtime's door to the API server: the
// Transport contract (over the simulated network, or Direct to a Server in
// tests), a controller-runtime shaped Client (Reader + Writer) whose calls
// block the calling process in virtual time, an event Recorder that writes
// core/v1 Events without blocking its caller, and the Clock controllers
// read instead of the wall clock.
//
// Controllers import this package, never the kernel, the store, the network
// or the API server: the Client, Recorder and Clock are everything they get
// from the outside world. The package itself may import the kernel, api,
// apierr, store, netsim and apiserver; it must not import informers,
// controllers or anything above them.
//
// Ownership: objects passed to the Client are deep-copied before they are
// sent (the caller keeps its own); objects returned are deep copies the
// caller may mutate, so nothing a caller holds ever aliases the store.
// The direct transport copies request objects again, as decoding a body
// would; over the network the server copies a request the link
// duplicated. CreateGiven is the one exception, for a caller that gives
// its object away: it is sent itself, and only the created name comes
// back.
//
// Determinism contract: no wall clock, no goroutines, no global random
// source. Every call blocks the current kernel process only; the Recorder's
// sender is a kernel process and draws event-name suffixes from the named
// stream "client/recorder/<name>"; its aggregation cache is looked up,
// never iterated.
package client
