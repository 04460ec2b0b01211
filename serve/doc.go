// Package serve puts a running simulation behind a Kubernetes-compatible
// HTTP API, so that real clients (kubectl, client-go) talk to it.
//
// It has two halves that meet through a Loop:
//
//   - Gateway lives on the simulation's goroutine. It sends each API
//     request as one user (clustersim serve's "kubectl", endpoint
//     user/kubectl) across the simulated network to the simulated API
//     server, at the current virtual time, so that requests are
//     authorized, admitted, audited and counted like any actor's, and the
//     scenario's faults on that user's link apply to them.
//   - Handler is an http.Handler: it authenticates (a bearer token),
//     bounds bodies, translates Kubernetes REST paths, JSON, patches and
//     Table requests into Gateway calls posted to the loop, and the
//     responses back into Kubernetes JSON.
//
// A watch is timed in virtual time: its bookmarks (Gateway.Bookmark) and
// its timeoutSeconds, both checked by Gateway.Tick after each of the
// loop's steps. A list is answered whole at the store's resourceVersion:
// the store keeps no past states, so serve neither pages (limit is
// ignored, no continue token is handed out, one given is refused) nor
// serves an exact list of an older version (410); see
// docs/kubectl.md.
//
// The package has no clock and starts no goroutine: the caller (cmd/)
// runs the HTTP server and the loop that advances virtual time between
// posted calls.
package serve
