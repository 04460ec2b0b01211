// Package kubectl prints simulator objects the way kubectl prints them:
// `kubectl get` tables (default and -o wide columns, pod STATUS and
// RESTARTS as printPod computes them, AGE as HumanDuration), `kubectl
// describe` for Deployments, ReplicaSets, Pods, Nodes, Services, Endpoints
// and ResourceQuotas, `kubectl events`, `kubectl rollout status` and
// `kubectl rollout history`. It reproduces kubectl's observable output
// (kubernetes/kubectl pkg/describe, kubernetes/kubernetes
// pkg/printers/internalversion): the same columns, sentences and spacing.
//
// Spacing comes from text/tabwriter configured as kubectl configures it:
// tables with minimum width 6, tab width 4 and padding 3 (cli-runtime's
// GetNewTabWriter), describe output with padding 2 over the whole
// description, flushed before the Events table (describe's tabbedString
// and DescribeEvents). tablewriter cannot reproduce this: tabwriter aligns
// a column only over the consecutive lines that have it, which gives
// describe its look, and leaves the last cell of a line unpadded.
//
// Printers work on immutable snapshots of objects taken at an observation
// time and on that time (now): ages are now minus a timestamp, never the
// wall clock. They never modify their input.
//
// Imports: sim/api, scenarios/kubectl (names, rollout status and history),
// controllers/deployment (ReplicaSet revisions) and the standard library;
// never the kernel, the store or the network: a report reads results.
//
// Determinism contract: output is a pure function of the objects and now;
// maps are printed in sorted key order and lists in a defined order
// (objects by namespace and name, events by time), so a report can be a
// golden file.
package kubectl
