// Package measure computes measurements of a finished scenario run from
// the store's audit log, the controllers' reconciles and the API server's
// request counts: flapping (value reversals, no-op writes, generation
// growth without spec intent), fights between writers, hot loops and the
// cost of a run.
//
// It is a report-layer package: it reads runner.Result values and imports
// scenarios/runner, sim/store, sim/api and the standard library only; it
// never touches a live cluster (no kernel, network or API server) and it
// prints nothing (package report renders).
//
// Determinism: Analyze is a pure function of the Result and the Options.
// Every list it returns is sorted (by kind, key, path, then time, or by
// actor and controller name); no output depends on Go's map iteration
// order.
package measure
