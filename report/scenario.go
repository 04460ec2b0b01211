package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/clustersim/clustersim/report/kubectl"
	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// SchemaVersion is the apiVersion of the JSON reports; docs/report-schema.md
// documents every field. A change that renames, removes or retypes a
// field bumps it.
const SchemaVersion = "clustersim.dev/report/v1alpha1"

// Scenario writes a scenario run for a terminal: each timeline step as the
// command a user would have typed and what kubectl printed, then the
// expectations with a verdict, then what the run cost.
func Scenario(w io.Writer, r *runner.Result) error {
	fmt.Fprintf(w, "scenario %s, seed %d, %v of virtual time\n", r.Scenario, r.Seed, r.Duration)
	if len(r.AssumedImages) > 0 {
		fmt.Fprintf(w, "images assumed to exist (spec.registry lists none):\n")
		for _, im := range r.AssumedImages {
			fmt.Fprintf(w, "  %s\n", im)
		}
	}
	for _, run := range entryRuns(r.Entries) {
		e := &run[0]
		fmt.Fprintf(w, "\n[%s] $ %s\n", clock(e.At), e.Command)
		for _, l := range foldLines(e.Lines) {
			fmt.Fprintln(w, l)
		}
		if e.Err != "" {
			fmt.Fprintln(w, e.Err)
		}
		if e.Snapshot != nil {
			if err := snapshot(w, e.Snapshot); err != nil {
				return err
			}
		}
		if len(run) > 1 {
			fmt.Fprintln(w, foldedEntryLine(run))
		}
	}
	if len(r.Expectations) > 0 {
		fmt.Fprintf(w, "\nExpectations:\n")
		if err := Table(w, []string{"result", "expectation", "detail"}, expectationRows(r)); err != nil {
			return err
		}
	}
	m := measure.Analyze(r, measure.Options{})
	if findings := m.Summary(); len(findings) > 0 {
		fmt.Fprintf(w, "\nFindings from the audit log and reconciles:\n")
		for _, f := range findings {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	if err := gapsText(w, &m.Gaps); err != nil {
		return err
	}
	throttlingText(w, r.Throttling)
	evictionsText(w, r.Evictions, r.TolerationSeconds)
	fmt.Fprintf(w, "\n%s, trace %s\n", costLine(r), r.TraceHash[:16])
	return nil
}

// throttlingText writes one line per actor whose paced client waited for
// its token bucket: how many requests waited and how long, and its
// longest saturated stretch.
func throttlingText(w io.Writer, ts []runner.ActorThrottling) {
	if len(ts) == 0 {
		return
	}
	fmt.Fprintf(w, "\nClient-side throttling (requests that waited for their client's token bucket, as client-go logs \"Waited for ... due to client-side throttling\"):\n")
	for i := range ts {
		fmt.Fprintf(w, "  %s\n", throttlingLine(&ts[i]))
	}
}

// throttlingLine is one actor's client-side throttling on one line:
// "system:serviceaccount:kube-system:replicaset-controller (20 QPS, burst
// 30): 2560 of 3380 requests waited, 41 over 1s, longest 1.2s; 3
// stretches of waiting requests, the longest 2m13s from 11:14 (2660
// requests)".
func throttlingLine(t *runner.ActorThrottling) string {
	line := fmt.Sprintf("%s (%s): %d of %d requests waited", t.Actor, t.Pacing, t.Waited, t.Requests)
	if t.Long > 0 {
		line += fmt.Sprintf(", %d over %v", t.Long, runner.LongThrottle)
	}
	line += fmt.Sprintf(", longest %v", t.LongestWait.Round(time.Millisecond))
	if st, ok := t.Longest(); ok {
		line += fmt.Sprintf("; %s of waiting requests, the longest %v from %s (%s)", plural(len(t.Stretches), "stretch", "stretches"),
			st.Duration().Round(time.Millisecond), clock(st.Start), plural(int(st.Waited), "request", "requests"))
	}
	return line
}

// Verdict is a run's verdict on one line: "PASS rolling-update seed 1: 6
// of 6 expectations held".
func Verdict(r *runner.Result) string {
	v := "PASS"
	if !r.Passed() {
		v = "FAIL"
	}
	return fmt.Sprintf("%s %s seed %d: %d of %d expectations held", v, r.Scenario, r.Seed, held(r), len(r.Expectations))
}

// held counts the expectations that held.
func held(r *runner.Result) int {
	n := 0
	for _, o := range r.Expectations {
		if o.Passed {
			n++
		}
	}
	return n
}

// SeedsVerdict is a multi-seed verdict on one line.
func SeedsVerdict(s *SeedsSummary) string {
	if len(s.Failed) > 0 {
		return fmt.Sprintf("FAIL %s: %d of %d seeds failed an expectation (first: seed %d)", s.Scenario, len(s.Failed), len(s.Seeds), s.Failed[0])
	}
	return fmt.Sprintf("PASS %s: every expectation held on %d seeds", s.Scenario, len(s.Seeds))
}

// expectationRows are the expectations table's rows: verdict, name,
// detail.
func expectationRows(r *runner.Result) [][]string {
	rows := make([][]string, 0, len(r.Expectations))
	for _, o := range r.Expectations {
		verdict := "PASS"
		if !o.Passed {
			verdict = "FAIL"
		}
		rows = append(rows, []string{verdict, o.Name, o.Detail})
	}
	return rows
}

// costLine sums up what a run cost: API requests, writes and messages.
func costLine(r *runner.Result) string {
	var requests, failed uint64
	for _, s := range r.Requests {
		requests += s.Count
		if s.Outcome != "ok" {
			failed += s.Count
		}
	}
	var timedOut uint64
	for _, t := range r.Timeouts {
		timedOut += t.Count
	}
	writes := fmt.Sprintf("%d accepted writes", r.Writes)
	if h := r.Heartbeats; h.Total() > 0 {
		writes += fmt.Sprintf(" (%d lease renewals and %d heartbeat-only node status writes counted, not kept)", h.LeaseRenewals, h.NodeStatus)
	}
	return fmt.Sprintf("%d API requests (%d not ok, %d timed out), %s, %d messages (%d dropped, %d duplicated)",
		requests, failed, timedOut, writes, r.Network.Sent, r.Network.Dropped(), r.Network.Duplicated)
}

// clock renders a virtual time as m:ss (or h:mm:ss).
func clock(d time.Duration) string {
	s := int64(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

func snapshot(w io.Writer, s *runner.Snapshot) error {
	switch s.What {
	case "get":
		if s.Kind == api.KindEvent {
			if len(s.Events) == 0 {
				// kubectl get's message, not kubectl events'.
				return kubectl.Get(w, api.KindEvent, nil, s.Now, kubectl.GetOptions{Namespace: s.Namespace, AllNamespaces: s.AllNamespaces})
			}
			opts := []kubectl.EventsOption{kubectl.EventsInNamespace(s.Namespace)}
			if s.AllNamespaces {
				opts = append(opts, kubectl.EventsAllNamespaces())
			}
			return kubectl.Events(w, s.Events, s.Now, opts...)
		}
		return kubectl.Get(w, s.Kind, s.Objects, s.Now, kubectl.GetOptions{Wide: s.Wide, Namespace: s.Namespace, AllNamespaces: s.AllNamespaces, Custom: s.Custom})
	case "describe":
		return kubectl.Describe(w, s.Objects[0], kubectl.Related{Objects: s.Related, Events: s.Events}, s.Now)
	case "rollout-history":
		return kubectl.RolloutHistory(w, s.History, s.Revision)
	case "events":
		return kubectl.Events(w, s.Events, s.Now, kubectl.EventsInNamespace(s.Namespace))
	}
	return fmt.Errorf("report: unknown observation %q", s.What)
}

// ScenarioJSON writes a run as JSON: the entries' text as the terminal
// report prints it, and the expectations.
func ScenarioJSON(w io.Writer, r *runner.Result) error {
	type entry struct {
		At      string `json:"at"`
		Command string `json:"command"`
		Output  string `json:"output"`
		Error   string `json:"error,omitempty"`
	}
	type expectation struct {
		Name   string `json:"name"`
		Passed bool   `json:"passed"`
		Detail string `json:"detail"`
	}
	out := struct {
		APIVersion   string         `json:"apiVersion"`
		Kind         string         `json:"kind"`
		Scenario     string         `json:"scenario"`
		Seed         uint64         `json:"seed"`
		Duration     string         `json:"duration"`
		Passed       bool           `json:"passed"`
		Entries      []entry        `json:"entries"`
		Expectations []expectation  `json:"expectations"`
		Writes       int            `json:"writes"`
		TraceHash    string         `json:"traceHash"`
		Gaps         gapsJSON       `json:"gaps"`
		Findings     findingsJSON   `json:"findings"`
		Requests     []requestJSON  `json:"requests"`
		Cost         costJSON       `json:"cost"`
		Evictions    []evictionJSON `json:"evictions"`
	}{APIVersion: SchemaVersion, Kind: "Run", Scenario: r.Scenario, Seed: r.Seed, Duration: r.Duration.String(), Passed: r.Passed(), Writes: r.Writes, TraceHash: r.TraceHash,
		Entries: []entry{}, Expectations: []expectation{}}
	m := measure.Analyze(r, measure.Options{})
	out.Gaps = gapsOf(r, &m.Gaps)
	out.Findings = findingsOf(m)
	out.Requests = requestsOf(m)
	out.Cost = costOf(m)
	out.Evictions = evictionsOf(r.Evictions)
	for _, e := range r.Entries {
		var b strings.Builder
		for _, l := range e.Lines {
			b.WriteString(l + "\n")
		}
		if e.Snapshot != nil {
			if err := snapshot(&b, e.Snapshot); err != nil {
				return err
			}
		}
		out.Entries = append(out.Entries, entry{At: e.At.String(), Command: e.Command, Output: b.String(), Error: e.Err})
	}
	for _, o := range r.Expectations {
		out.Expectations = append(out.Expectations, expectation{Name: o.Name, Passed: o.Passed, Detail: o.Detail})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// plural is "1 stretch", "3 stretches".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
