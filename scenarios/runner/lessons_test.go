package runner_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// counterScenario is two writers (alice and bob) incrementing data.count
// of a ConfigMap that starts at start, with extra increment fields.
func counterScenario(start, extra string) string {
	return fmt.Sprintf(`apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: counter}
spec:
  duration: 40s
  network:
    default: {latency: 5ms, jitter: 20ms}
  objects:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: counter}
    data: {count: %q}
  timeline:
  - {at: 10s, as: alice, increment: {configMap: counter, key: count, times: 10%[2]s}}
  - {at: 10s, as: bob, increment: {configMap: counter, key: count, times: 10%[2]s}}
  expect:
  - field: {kind: configmap, name: counter, path: data.count, equals: "20", at: 30s}
`, start, extra)
}

// TestIncrement runs the increment step both ways and on a value that is
// not a number.
func TestIncrement(t *testing.T) {
	tests := []struct {
		name, start, extra string
		// counted: the count ends at 20.
		counted bool
		// line is in every writer's output; errLine in its error.
		line, errLine string
	}{
		{name: "with resourceVersion", start: "0", counted: true, line: "10 of 10 increment(s) acknowledged"},
		{name: "unconditional", start: "0", extra: ", unconditional: true", line: "10 of 10 increment(s) acknowledged, 0 conflict(s)"},
		{name: "not a number", start: "zero", line: "0 of 10 increment(s) acknowledged", errLine: "not an integer counter"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scenarios.Load("counter.yaml", ".", os.DirFS("."), []byte(counterScenario(tc.start, tc.extra)))
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(s, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Passed(); got != tc.counted {
				t.Errorf("count is 20: %v, want %v (%s)", got, tc.counted, res.Expectations[0].Detail)
			}
			writers := 0
			for _, e := range res.Entries {
				if !strings.HasPrefix(e.Command, "increment configmap/counter") {
					continue
				}
				writers++
				if out := strings.Join(e.Lines, "\n"); !strings.Contains(out, tc.line) {
					t.Errorf("%s printed %q, want %q", e.Command, out, tc.line)
				}
				if !strings.Contains(e.Err, tc.errLine) || (tc.errLine == "") != (e.Err == "") {
					t.Errorf("%s: error %q, want %q", e.Command, e.Err, tc.errLine)
				}
			}
			if writers != 2 {
				t.Errorf("%d increment entries, want 2", writers)
			}
			conflicts := uint64(0)
			for _, st := range res.Requests {
				if st.Outcome == "conflict" {
					conflicts += st.Count
				}
			}
			if tc.counted && conflicts == 0 {
				t.Error("two writers with resourceVersion never conflicted")
			}
		})
	}
}

// TestWritersReportWhatTheStoreShows: two optimistic-concurrency writers
// over a link that duplicates 30% of messages are each told "10 of 10
// acknowledged" while the counter ends above 20 (a duplicate's 409 reply
// can arrive before the applied original's, and the writer retries an
// increment that was done). Each writer's "the store shows" line counts
// the changes the audit log holds by it; the counts must add up to the
// counter's final value, and a writer whose count exceeds what it was
// told must say so. Planted: counting every actor's changes (no actor
// filter) made each writer claim the other's and broke the sum.
func TestWritersReportWhatTheStoreShows(t *testing.T) {
	src := strings.Replace(counterScenario("0", ""), "jitter: 20ms}", "jitter: 20ms, duplicate: 0.3}", 1)
	s, err := scenarios.Load("counter.yaml", ".", os.DirFS("."), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum, more := 0, 0
	for _, e := range res.Entries {
		if !strings.HasPrefix(e.Command, "increment configmap/counter") {
			continue
		}
		last := e.Lines[len(e.Lines)-1]
		t.Log(e.Lines[0] + "\n" + last)
		var n int
		var who string
		if _, err := fmt.Sscanf(last, "the store shows %d accepted change(s) of data.count by %s", &n, &who); err != nil {
			t.Fatalf("last line %q: %v", last, err)
		}
		sum += n
		if n > 10 {
			more++
			if !strings.Contains(last, fmt.Sprintf("(%d more than the 10 acknowledged", n-10)) {
				t.Errorf("%s: %d changes but the line does not say how many more than acknowledged: %q", who, n, last)
			}
		}
	}
	o := res.Expectations[0]
	t.Log(o.Detail)
	if want := fmt.Sprintf("data.count = \"%d\"", sum); !strings.Contains(o.Detail, want) {
		t.Errorf("the writers' store counts add up to %d; the counter: %s", sum, o.Detail)
	}
	if more == 0 {
		t.Errorf("no writer saw more changes than acknowledged on a duplicating link (seed 1 did): the test shows nothing")
	}
}

// TestNaiveRolloutCheck: on the observed-generation built-in, the check
// that ignores observedGeneration holds at its first poll, the real one
// only after the Deployment controller is back.
func TestNaiveRolloutCheck(t *testing.T) {
	s, err := scenarios.Builtin("observed-generation")
	if err != nil {
		t.Fatal(err)
	}
	var naive, real *scenarios.RolloutComplete
	for _, e := range s.Spec.Expect {
		if rc := e.RolloutComplete; rc != nil && rc.IgnoreObservedGeneration {
			naive = rc
		} else if rc != nil {
			real = rc
		}
	}
	if naive == nil || real == nil {
		t.Fatal("observed-generation lacks its two rollout checks")
	}
	s.Spec.Expect = []scenarios.Expectation{{RolloutComplete: naive}, {RolloutComplete: real}}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n, r := res.Expectations[0], res.Expectations[1]
	if !n.Passed || !r.Passed {
		t.Fatalf("naive %+v, real %+v", n, r)
	}
	if n.HeldAt != naive.After.Duration || !strings.Contains(n.Detail, "generation 2 observed 1") {
		t.Errorf("naive check %q held at %v with %q, want at %v on the old status", n.Name, n.HeldAt, n.Detail, naive.After.Duration)
	}
	if r.HeldAt < 90*time.Second || !strings.Contains(r.Detail, "generation 2 observed 2") {
		t.Errorf("real check held at %v with %q, want after the controller's restart at 90s", r.HeldAt, r.Detail)
	}
	if !strings.Contains(n.Name, "ignores observedGeneration") {
		t.Errorf("naive check's default name %q does not say what it ignores", n.Name)
	}
}
