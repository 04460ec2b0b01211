// Package naive is a small application operator written the ways first
// operators are written, right and wrong, so that clustersim's detectors
// and lessons have something real to contrast. It is not a Kubernetes
// controller; it is a specimen.
//
// The operator reads "apps" from ConfigMaps labelled
// app.clustersim.dev/kind=App (data: image, replicas) and keeps a
// Deployment of the same name, owned by the app, running that image at
// that scale. Options.Flaw chooses the design:
//
//   - FlawNone (the zero value) is the operator done right: it compares
//     only the fields it owns (spec.replicas and the app container's
//     image) with the live Deployment, writes only when they differ, waits
//     for watch events and hands errors back to the work queue, whose rate
//     limiter backs off (5 ms doubling to 1000 s per app, 10 qps with a
//     burst of 100 overall). With Options.Resync it is also level-triggered
//     against lost watch events: every reconcile reads the app and its
//     Deployment from the API server, and each app is looked at again every
//     Resync, whether or not an event came.
//   - FlawCompareWithDefaults builds the desired Deployment from scratch
//     and compares it with the live one with reflect.DeepEqual. The API
//     server fills in defaults (strategy, revisionHistoryLimit,
//     progressDeadlineSeconds, the pod template's restartPolicy,
//     dnsPolicy, imagePullPolicy, ...) and the Deployment controller
//     annotates its revision, so the live object never equals the desired
//     one: every reconcile writes, the write removes the revision
//     annotation, the Deployment controller puts it back, and the two
//     fight for as long as the run lasts.
//   - FlawRequeueWithoutBackoff compares correctly but, until the
//     Deployment reports every replica available, asks to be reconciled
//     again after PollInterval (10 ms) instead of waiting for the
//     Deployment's next watch event: when the rollout cannot finish (a bad
//     image, a quota), it reconciles a hundred times a second and changes
//     nothing.
//   - FlawRetryWithoutBackoff compares correctly but, when a request fails
//     (a quota, RBAC or validation rejects its write), swallows the error
//     and asks to be reconciled again after PollInterval, so the work
//     queue's rate limiter never sees a failure and never backs off: an
//     action that keeps failing is retried a hundred times a second, each
//     time with a request to the API server.
//   - FlawEdgeTriggered acts on the change a watch event carries, not on
//     the state: an app whose replicas go from A to B scales its
//     Deployment by B-A, an image change sets the new image, a new app gets
//     a Deployment if it has none. It never compares the app with the
//     Deployment, so a change whose event never arrives is never made.
//   - FlawNilDeployment reads the live Deployment's replicas before
//     checking that there is one, and panics on every new app: the
//     runtime recovers the panic, reports it and restarts the operator as
//     a crashed one is restarted.
//   - FlawBusyWait spins on the informer cache until the Deployment is
//     available instead of requeueing; nothing else runs while it spins,
//     so it spins forever and stops the whole simulation (clustersim ends
//     the run after a wall-clock budget and names it).
//
// Imports: api, apierr, client, informer and the controller runtime only
// (sim/archtest).
//
// Determinism contract: no clock but the manager's, no randomness, no
// goroutines. The edge-triggered operator's pending changes live in a Go
// map that is only indexed by key, never iterated.
package naive
