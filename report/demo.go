package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/olekukonko/tablewriter"

	"github.com/clustersim/clustersim/sim/cluster"
)

// Demo writes the runtime demo's result as a short readable summary: what
// ran, whether the controller converged, and what the network and the API
// server did.
func Demo(w io.Writer, r *cluster.DemoResult) error {
	fmt.Fprintf(w, "clustersim runtime demo, seed %d, %v of virtual time, %d kernel events\n\n", r.Seed, r.End.Duration(), r.Events)
	fmt.Fprintf(w, "The root-ca-cert-publisher controller keeps a kube-root-ca.crt ConfigMap in every\n")
	fmt.Fprintf(w, "namespace while users create namespaces, delete and tamper with those ConfigMaps and\n")
	fmt.Fprintf(w, "increment a shared counter with optimistic concurrency, over a network that drops,\n")
	fmt.Fprintf(w, "duplicates, delays and reorders messages. The controller crashes and restarts mid-run.\n\n")

	verdict := "converged"
	if r.Published != r.Namespaces {
		verdict = "NOT converged"
	}
	t := tablewriter.NewWriter(w)
	t.Header("outcome", "value")
	rows := [][]string{
		{"namespaces holding kube-root-ca.crt", fmt.Sprintf("%d of %d (%s)", r.Published, r.Namespaces, verdict)},
		{"counter increments users saw succeed", strconv.Itoa(r.CounterWant)},
		{"counter value in the store", fmt.Sprintf("%d (%d applied behind a timeout)", r.CounterGot, r.CounterGot-r.CounterWant)},
		{"client calls that timed out", strconv.Itoa(r.Timeouts)},
		{"client updates that conflicted", strconv.Itoa(r.Conflicts)},
		{"controller reconciles", strconv.FormatUint(r.Reconciles, 10)},
		{"accepted writes (audit records)", strconv.Itoa(r.Writes)},
		{"messages sent / dropped / duplicated", fmt.Sprintf("%d / %d / %d", r.Network.Sent, r.Network.Dropped(), r.Network.Duplicated)},
		{"trace hash", r.TraceHash[:16]},
	}
	for _, row := range rows {
		if err := t.Append(row); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}

	fmt.Fprintf(w, "\nAPI requests by actor, verb and outcome (top 12):\n")
	stats := slices.Clone(r.Stats)
	cluster.SortStats(stats)
	if len(stats) > 12 {
		stats = stats[:12]
	}
	t = tablewriter.NewWriter(w)
	t.Header("actor", "verb", "kind", "outcome", "count")
	for _, s := range stats {
		if err := t.Append([]string{s.Actor, s.Verb, s.Kind, s.Outcome, strconv.FormatUint(s.Count, 10)}); err != nil {
			return err
		}
	}
	return t.Render()
}

// DemoJSON writes the demo's result as indented JSON.
func DemoJSON(w io.Writer, r *cluster.DemoResult) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
