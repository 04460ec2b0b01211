package runner_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/store"
)

// hourlyChurn is the Kubernetes docs' hello CronJob (a Job a minute, the
// last 3 successful ones kept) for six virtual hours: every minute adds
// Events to the CronJob, its Job and its pod, and nothing else changes.
const hourlyChurn = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: hourly-churn}
spec:
  duration: 6h
  cluster:
    nodeGroups: [{name: worker, count: 1, capacity: {cpu: "2", memory: 8Gi}}]
EVENTTTL  registry:
    images:
    - {name: busybox, tags: ["1.28"], pullTime: 1s, exitAfter: 2s, exitCode: 0}
  objects:
  - apiVersion: batch/v1
    kind: CronJob
    metadata: {name: hello}
    spec:
      schedule: "* * * * *"
      successfulJobsHistoryLimit: 3
      failedJobsHistoryLimit: 1
      jobTemplate:
        spec:
          template:
            spec:
              containers: [{name: hello, image: busybox:1.28}]
              restartPolicy: OnFailure
`

// TestEventsExpireInLongRun: over six virtual hours of a CronJob a
// minute, the Events stored stay as many as an hour and a minute's
// worth (the API server's --event-ttl of 1h and etcd's lease reuse),
// where without a TTL (eventTTL: 0) they grow with every hour. The
// expiries reach watchers as DELETED and the audit log records no
// delete of an Event: no client made one.
func TestEventsExpireInLongRun(t *testing.T) {
	if testing.Short() {
		t.Skip("six virtual hours")
	}
	counts := map[string][]int{}
	for _, tc := range []struct{ name, ttl string }{{"default", ""}, {"none", "    eventTTL: 0s\n"}} {
		s, err := scenarios.Load("churn.yaml", "", nil, []byte(strings.Replace(hourlyChurn, "EVENTTTL", tc.ttl, 1)))
		if err != nil {
			t.Fatal(err)
		}
		ses, err := runner.Start(s, runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		st := ses.Cluster().Store
		deleted := 0
		w, err := st.Watch(api.KindEvent, 0, store.ListOptions{}, store.SinkFunc(func(e store.Event) {
			if e.Type == store.Deleted {
				deleted++
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		for h := 1; h <= 6; h++ {
			if err := ses.Advance(time.Duration(h) * time.Hour); err != nil {
				t.Fatal(err)
			}
			counts[tc.name] = append(counts[tc.name], st.Len(api.KindEvent))
		}
		w.Stop()
		clientDeletes := 0
		st.Audit().Each(func(r *store.AuditRecord) bool {
			if r.Kind == api.KindEvent && r.Verb == "delete" {
				clientDeletes++
			}
			return true
		})
		t.Logf("eventTTL %s: Events stored at each hour %v; %d expired, %d seen deleted, %d deletes audited", tc.name, counts[tc.name], st.Expired(api.KindEvent), deleted, clientDeletes)
		if clientDeletes != 0 {
			t.Errorf("eventTTL %s: the audit log has %d deletes of Events; an expiry is no request", tc.name, clientDeletes)
		}
		if uint64(deleted) != st.Expired(api.KindEvent) {
			t.Errorf("eventTTL %s: %d Events expired, the watch saw %d deleted", tc.name, st.Expired(api.KindEvent), deleted)
		}
		ses.Close()
	}
	kept, grown := counts["default"], counts["none"]
	if grown[5] < 5*grown[0] {
		t.Fatalf("without a TTL, %d Events at 1h and %d at 6h: the scenario does not churn", grown[0], grown[5])
	}
	// An hour's Events, and those of the minute or so a lease adds.
	for h := 1; h < 6; h++ {
		if limit := grown[0] + grown[0]/10; kept[h] > limit {
			t.Errorf("with the default TTL, %d Events stored at %dh, %d at 1h: more than an hour's worth and 10%% (%d)", kept[h], h+1, kept[0], limit)
		}
	}
}
