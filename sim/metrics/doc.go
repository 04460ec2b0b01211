// Package metrics simulates what an autoscaler measures: a request load
// over virtual time, a model that turns that load into per-pod CPU usage,
// and a Source that serves the usage the way metrics-server does.
//
//   - A Load is requests per second as a function of virtual time:
//     Constant, Steps (piecewise constant), Ramp (linear between points),
//     or points read from a CSV file (ParseCSV).
//   - A Model is one target's pods (a namespace and a label selector, e.g.
//     a Deployment's pods) under one Load: every running pod uses BaseMilli
//     millicores, and the ready pods share the load evenly, each using
//     BaseMilli + rps × PerRequestMilli / readyPods. Adding pods lowers the
//     usage of each, which is what makes horizontal autoscaling converge.
//   - A Source scrapes every model's pods at each multiple of its
//     resolution (15s, metrics-server's --metric-resolution) and answers
//     PodCPU queries from the last scrape, with that scrape's timestamp:
//     the value a query sees is the one at the last 15s boundary, as a
//     metrics-server answer is up to one resolution old.
//
// The HPA controller (controllers/hpa) sees a Source only through its own
// small MetricsClient interface, which *Source satisfies structurally: the
// method uses only API and standard types, so this package does not import
// the controller, and the controller does not import the store. A test
// asserts the fit.
//
// Imports: the kernel (virtual time, the scrape timer), api and the store
// (it reads pods directly, as metrics-server reads kubelets, without going
// through the simulated network); never the controllers' runtime.
//
// Determinism contract: no wall clock, no goroutines, no randomness. A
// scrape is a kernel event at a fixed virtual time; pods are listed from
// the store in namespace/name order and models are matched in the order
// they were added, so a sample is a pure function of the store's state and
// the load at the scrape time.
package metrics
