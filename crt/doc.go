// Package crt runs controller-runtime operators in clustersim's
// simulated control plane. It lives in a module of its own (its go.mod
// requires clustersim through a replace directive), so that clustersim's
// core module keeps no Kubernetes module among its dependencies.
//
// An operator written with sigs.k8s.io/controller-runtime and k8s.io/api
// types keeps its reconcilers unchanged: a registration stands in for its
// main.go, building them against a Manager and wiring them with a builder
// of the familiar shape:
//
//	crt.MustRegister(crt.Operator{
//		Name:   "webapp-operator",
//		Scheme: scheme, // clientgoscheme and the operator's own types
//		Setup: func(mgr *crt.Manager) error {
//			r := &controller.AppReconciler{Client: mgr.GetClient(), Scheme: mgr.GetScheme()}
//			return crt.NewControllerManagedBy(mgr).
//				For(&webappv1.App{}).
//				Owns(&appsv1.Deployment{}).
//				Complete(r)
//		},
//	})
//
// A scenario then names it in spec.controllers, and package harness runs
// it over seeds and fault profiles, checks invariants, shrinks failing
// schedules and compares versions, as for any registered controller.
//
// What the adapter provides:
//
//   - Client, controller-runtime's client.Client: reads from the
//     simulated manager's informer caches (the manager's cached client;
//     namespace and label selection, and field selection on the indexes
//     Manager.GetFieldIndexer().IndexField adds, with controller-runtime's
//     refusals of non-exact matches and unindexed fields), writes through
//     the simulated network and API server (create, update, merge and
//     strategic merge patches, server-side apply of apply configurations
//     and Patch with client.Apply, delete with propagation and
//     preconditions), the status subresource and the scale subresource
//     of Deployments, ReplicaSets and StatefulSets (an autoscaling/v1
//     Scale over the main resource: the simulated API server has no scale
//     subresource; subresource reads are live, not cached, as upstream),
//     apimachinery's status errors (apierrors.IsNotFound, IsConflict
//     work), the scheme and a REST mapper of the simulated API's kinds (a
//     kind asked for at a version the API does not serve is refused as
//     the mapper refuses it: no matches for kind);
//   - Converter: objects cross through JSON, strictly towards the
//     simulator: a field the user set that the simulator's types do not
//     carry is an error (ErrUnsupportedField) naming its path, never a
//     silent drop; custom resources become the simulator's unstructured
//     objects, served by the scenario's CustomResourceDefinition;
//   - Builder: For, Owns, Watches, predicates, Named and WithOptions on
//     the simulated informers and work queue, with controller-runtime's
//     own handlers; the requests of one event are enqueued sorted;
//   - reconcile.Result (Requeue, RequeueAfter) and
//     reconcile.TerminalError mapped onto the simulated controller; a
//     logr logger in the context (log.FromContext) whose reconcileID
//     counts reconciles per controller; an event recorder
//     (record.EventRecorder) over the simulated manager's.
//
// What it refuses, with ErrUnsupported rather than a silent difference:
// server-side apply of a subresource, JSON patches, paginated lists, dry
// runs, subresources other than status and scale (and the scale of
// custom resources), and controller options that replace the work queue
// or its rate limiter.
//
// Determinism contract for the operator's code: the simulator makes a run
// a pure function of the scenario and the seed only if the operator's
// code is too. It must not read the wall clock (time.Now, metav1.Now, and
// meta.SetStatusCondition, which stamps lastTransitionTime with
// time.Now), use a global random source, start goroutines, or let map
// iteration order decide what it writes. Where it cannot avoid the wall
// clock, run the simulation inside a testing/synctest bubble under go
// test (synctest.Test): the bubble's clock stands still at 2000-01-01
// 00:00 UTC while virtual time advances, so time.Now returns the same
// instant in every run. (It does not follow virtual time: a swarm's
// parallel runs share one bubble and its one monotonic clock; see
// docs/testing-your-controller.md.) CheckDeterminism is the check that
// the contract holds: it runs a seed twice and, when the trace hashes
// differ, names the first write the two runs disagree on.
//
// The adapter itself keeps the contract: no wall clock, no goroutines, no
// random source; it reads clustersim only through its public packages.
package crt
