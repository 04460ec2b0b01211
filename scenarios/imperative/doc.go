// Package imperative is the command-style client, the counterpart of
// declaration for teaching: a user who sends commands ("create one more
// replica", "delete one replica", "scale up by one") instead of declaring
// the state they want, and who retries a command when it times out.
//
// A command is not idempotent: when a request times out the client cannot
// know whether the server acted (the request or only its reply may have
// been lost), and retrying the command may do it twice; a request the
// network duplicates is served twice. Over a link that drops and
// duplicates messages the world ends up with too many replicas or too few,
// where a declaration (a ReplicaSet with replicas: 3, applied until the
// apply succeeds, and a controller that converges on it) ends with exactly
// what was declared. The package's tests measure both over many seeds.
//
// Read-modify-write commands (ScaleUp, Increment) show optimistic
// concurrency too: two writers that each read a counter, add to it and
// write it back lose updates when they write without the resourceVersion
// they read (the API server accepts that as an unconditional update), and
// lose none when they send it, get a 409 Conflict and read again.
//
// Commands run in a kernel process through a client.Client and wait
// between retries on a client.Clock. A retry runs the whole command
// again, its reads included (CreateReplicaFrom reads the template in each
// attempt). Every command returns a Result (what was sent, how often,
// what came back, and in Log every attempt: its last request, target,
// value written and outcome, a timed-out write marked Ambiguous: it may
// have been applied) and keeps it in Results for a runner to report.
//
// Imports: sim/api, sim/apierr, sim/client and the standard library, like
// scenarios/kubectl; never the kernel, the store, the network or the API
// server.
//
// Determinism contract: no wall clock (waits use the Clock), no goroutines,
// no random source; DeleteReplica picks its victim by name order.
package imperative
