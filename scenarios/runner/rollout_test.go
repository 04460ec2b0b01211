package runner_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/scenarios/runner"
)

// rolloutStatusScenario rolls Deployment web to a new image at 1m and
// Deployment typo to an image that does not exist (progress deadline
// 30s), runs a DaemonSet, and watches them with every form of the
// rolloutStatus step; each step's outcome is an expectation.
const rolloutStatusScenario = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: rollout-status}
spec:
  seed: 1
  duration: 4m
  cluster:
    nodeGroups: [{name: n, count: 3, capacity: {cpu: "4", memory: 8Gi}}]
  registry:
    images: [{name: nginx, tags: ["1.14.2", "1.16.1"]}]
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 3
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: "nginx:1.14.2"}]}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: typo}
    spec:
      replicas: 2
      progressDeadlineSeconds: 30
      selector: {matchLabels: {app: typo}}
      template:
        metadata: {labels: {app: typo}}
        spec: {containers: [{name: web, image: "nginx:1.14.2"}]}
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: slow}
    spec:
      replicas: 2
      selector: {matchLabels: {app: slow}}
      template:
        metadata: {labels: {app: slow}}
        spec: {containers: [{name: web, image: "nginx:1.14.2"}]}
  - apiVersion: apps/v1
    kind: DaemonSet
    metadata: {name: agent}
    spec:
      selector: {matchLabels: {app: agent}}
      template:
        metadata: {labels: {app: agent}}
        spec: {containers: [{name: agent, image: "nginx:1.14.2"}]}
  timeline:
  - {at: 1m, setImage: {deployment: web, container: web, image: "nginx:1.16.1"}}
  - {at: 1m, setImage: {deployment: typo, container: web, image: "nginx:1.161"}}
  - {at: 1m, setImage: {deployment: slow, container: web, image: "nginx:1.161"}}
  - {at: 1m1s, rolloutStatus: web}
  - {at: 1m3s, rolloutStatus: {deployment: web, timeout: 3s}}
  - {at: 1m2s, rolloutStatus: {deployment: web, watch: false}}
  - {at: 1m1s, rolloutStatus: typo}
  - {at: 1m1s, rolloutStatus: slow}
  - {at: 1m3s, rolloutStatus: {daemonSet: agent}}
  - {at: 2m, rolloutStatus: {deployment: typo, timeout: 1m}}
  - {at: 3m, rolloutHistory: web}
  - {at: 3m, rolloutHistory: {deployment: web, revision: 1}}
  - {at: 3m, rolloutHistory: {deployment: web, revision: 7}}
  expect:
  - rolloutStatus: {deployment: web, step: 1m1s, outcome: succeeded, within: 2m}
  - rolloutStatus: {deployment: web, step: 1m2s, outcome: inProgress}
  - rolloutStatus: {deployment: web, step: 1m3s, outcome: timedOut, within: 3s}
  - rolloutStatus: {deployment: typo, step: 1m1s, outcome: progressDeadlineExceeded}
  - rolloutStatus: {deployment: typo, step: 2m, outcome: progressDeadlineExceeded, within: 1s}
  - rolloutStatus: {deployment: slow, outcome: running}
  - rolloutStatus: {daemonSet: agent, outcome: succeeded}
`

// TestRolloutStatusWatch runs every form of the rolloutStatus step and
// checks each one's printed lines, their virtual times and how it ended.
// Planted: printing only lines whose text changed (not every MODIFIED
// event, as kubectl does) failed the repeated-line row; ending a watch
// at its first line (one look) failed every watching row; the timeout
// counted from the run's start failed the timeout row.
func TestRolloutStatusWatch(t *testing.T) {
	res := runChecked(t, loadDoc(t, "rollout-status.yaml", rolloutStatusScenario))
	entry := func(at, cmd string) runner.Entry {
		t.Helper()
		for _, e := range res.Entries {
			if clockOf(e) == at && e.Command == cmd {
				return e
			}
		}
		t.Fatalf("no entry %q at %s", cmd, at)
		return runner.Entry{}
	}
	for _, tc := range []struct {
		name, at, cmd string
		first, last   string // prefixes of the first and last lines
		minLines      int
		err           string
	}{
		{"watch to success", "1:01", "kubectl rollout status deployment/web",
			`[1:01] Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...`, `deployment "web" successfully rolled out`, 3, ""},
		{"timeout", "1:03", "kubectl rollout status deployment/web --timeout=3s",
			`[1:03] Waiting for deployment "web"`, "", 1, "[1:06] error: timed out waiting for the condition"},
		{"one look", "1:02", "kubectl rollout status deployment/web --watch=false",
			`Waiting for deployment "web"`, `Waiting for deployment "web"`, 1, ""},
		{"progress deadline", "1:01", "kubectl rollout status deployment/typo",
			`[1:01] Waiting for deployment "typo"`, "", 1, `error: deployment "typo" exceeded its progress deadline`},
		{"still running", "1:01", "kubectl rollout status deployment/slow",
			`[1:01] Waiting for deployment "slow"`, "", 1, "(still running when the run ended at 4:00)"},
		{"daemon set", "1:03", "kubectl rollout status daemonset/agent",
			`[1:03] daemon set "agent" successfully rolled out`, `[1:03] daemon set "agent" successfully rolled out`, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := entry(tc.at, tc.cmd)
			t.Logf("%s\n%s\n%s", e.Command, strings.Join(e.Lines, "\n"), e.Err)
			if len(e.Lines) < tc.minLines {
				t.Fatalf("%d lines, want at least %d", len(e.Lines), tc.minLines)
			}
			if !strings.HasPrefix(e.Lines[0], tc.first) {
				t.Errorf("first line %q, want it to begin %q", e.Lines[0], tc.first)
			}
			if last := e.Lines[len(e.Lines)-1]; tc.last != "" && !strings.Contains(last, tc.last) {
				t.Errorf("last line %q, want it to hold %q", last, tc.last)
			}
			if !strings.HasSuffix(e.Err, tc.err) || (tc.err == "") != (e.Err == "") {
				t.Errorf("error %q, want %q", e.Err, tc.err)
			}
			if !e.Observation {
				t.Error("a rollout status is not an observation")
			}
		})
	}
	// kubectl prints a line for every MODIFIED event, repeated text
	// included, each at its own time.
	e := entry("1:01", "kubectl rollout status deployment/web")
	repeated, prev := false, ""
	for _, l := range e.Lines {
		_, text, _ := strings.Cut(l, "] ")
		repeated = repeated || text == prev
		prev = text
	}
	if !repeated {
		t.Errorf("no line repeated: the watch printed only changes, kubectl prints every event:\n%s", strings.Join(e.Lines, "\n"))
	}
	if first, last := e.Lines[0][:6], e.Lines[len(e.Lines)-1][:6]; first == last {
		t.Errorf("every line at %s: the lines do not carry their own times", first)
	}
	// The history: the table, revision 1's template, a missing revision.
	h := entry("3:00", "kubectl rollout history deployment/web")
	if h.Snapshot == nil || h.Snapshot.History == nil || len(h.Snapshot.History.Revisions) != 2 {
		t.Errorf("history %+v, want revisions 1 and 2", h.Snapshot)
	}
	if e := entry("3:00", "kubectl rollout history deployment/web --revision=7"); e.Err != "error: unable to find the specified revision" {
		t.Errorf("revision 7: %q", e.Err)
	}
}

// TestRolloutStatusOutcomeFails: an expectation naming the wrong outcome
// fails and says how the step ended.
func TestRolloutStatusOutcomeFails(t *testing.T) {
	src := strings.Replace(rolloutStatusScenario, "{deployment: web, step: 1m1s, outcome: succeeded, within: 2m}", "{deployment: web, step: 1m1s, outcome: timedOut}", 1)
	res := runDoc(t, "rollout-status.yaml", src, runner.Options{})
	o := res.Expectations[0]
	if o.Passed || !strings.HasPrefix(o.Detail, "ended succeeded at 1m") {
		t.Errorf("%s: passed %v, %q", o.Name, o.Passed, o.Detail)
	}
}

func clockOf(e runner.Entry) string {
	sec := int64(e.At.Seconds())
	return fmt.Sprintf("%d:%02d", sec/60, sec%60)
}
