// Package kubelet simulates the node agent of every node: it registers
// the Node, renews the node's Lease in kube-node-lease every 10s, posts
// node status, and runs the pods bound to its node through a simulated
// container runtime, reporting their status as the real kubelet does
// (KUBERNETES.md sections 6 and 8).
//
// A Kubelet is a set of kernel event callbacks, not a process: it talks to
// the API server only through the simulated network, with asynchronous
// calls (netsim CallAsync) and a pod watch stream filtered by node at the
// store, so that thousands of nodes stay cheap. Every request may time out
// without saying whether it took effect; every one is retried or made
// idempotent (status writes carry the whole status; deletes carry the
// pod's uid as precondition).
//
// The runtime model, per pod: admission (resources, as the kubelet's
// predicate admit handler), a sandbox with an IP from the node's pod CIDR
// (host-local IPAM: sequential, freed addresses reused last), image pulls
// one at a time per node against a Registry (IfNotPresent uses the node's
// image cache, Always pulls every time; failures back off 10s doubling to
// 300s per pod and image: ErrImagePull, then ImagePullBackOff), container
// start latency, startup, readiness and liveness probes run as the
// prober's workers run them against the image's simulated application
// (probes.go; a failed liveness or startup probe kills the container),
// containers that exit as their image says with restarts backing
// off 10s doubling to 300s and reset after 10 minutes of clean running
// (CrashLoopBackOff), graceful termination as killContainer does it (the
// preStop hook, then SIGTERM: a container exits after its image's stop
// time, or is killed when the grace period ends if its image ignores
// SIGTERM; then the kubelet writes the terminal status and deletes the
// pod with grace period 0). Events are the
// kubelet's own, with their reasons and messages, aggregated by count.
//
// Node status is upstream's updateNodeStatus every 10s: up to five
// tries, the first reading the kubelet's node lister (a list and watch of
// its own Node, as upstream's since kubernetes/kubernetes#123977), each
// retry a GET. A try applies the condition setters to the Node it read
// (a condition keeps its lastTransitionTime while its status holds and
// takes the write's time when it changes, as when the kubelet comes back
// after the node lifecycle controller set it Unknown; each change records
// NodeReady, NodeHasSufficientMemory, ... "Node <name> status is now:
// <reason>"), and patches the status when something changed or every 5
// minutes: a strategic merge patch of what changed since the Node read,
// as upstream's PatchNodeStatus, so a patch made from a stale lister
// leaves what the kubelet did not change as the server has it. After a
// long partition the node therefore turns Ready once the node lister has
// relisted (the reflector's back-off: up to 30s, jittered to 60s), not at
// the first heartbeat. Pods the node lifecycle controller marked not
// ready get the kubelet's own status back once its pod watch sees them,
// after the same back-off, as upstream, whose status manager then waits
// for its next 10s reconcile (the simulated one writes at once).
//
// Faults: Stop (the kubelet hangs or crashes while the node runs), Crash
// (the node's runtime state is lost too), Start/Recover (it comes back,
// relists, posts status, renews its lease).
//
// Imports: the kernel, netsim, api, apierr, store and apiserver (the wire
// types); never the client runtime, controllers or cluster wiring.
//
// Determinism contract: no wall clock, no goroutines, no global random
// source. Randomness (lease jitter, back-off jitter, event and container
// IDs) comes from the stream "kubelet/<node>". Pods are kept in slots and
// visited in slot order; a relist admits new pods by creation time, then
// namespace and name; map iteration never decides an outcome.
package kubelet
