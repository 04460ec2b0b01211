package report_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/report"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
)

// lostScale scales web at 1m while every watch event to the Deployment
// controller is lost (streamLoss 1 for one second): the controller never
// sees the new spec.replicas, and nothing else writes the Deployment.
const lostScale = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: lost-scale}
spec:
  duration: 12m
  cluster:
    nodeGroups: [{name: node, count: 2, capacity: {cpu: "4", memory: 8Gi}}]
  network:
    default: {latency: 1ms}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 2
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx:1.14.2}]}
  timeline:
  - {at: 1m, network: {from: apiserver, to: controller/deployment, link: {streamLoss: 1}, until: 1m1s}}
  - {at: 1m, scale: {kind: deployment, name: web, replicas: 4}}
`

// TestStreamLossRepairedAtWatchRestart: a lost watch event is repaired as
// docs/scenario-format.md says (streamLoss): the Deployment informer has
// seen no later Deployment event, so its next watch restart, 5 to 10
// minutes after its watch opened, resumes from before the lost event and
// replays it, and the controller scales the ReplicaSet at once; until
// then the scale is not made. The timeline's activity line shows the
// restart. Planted: a MinWatchTimeout of 60 minutes (no restart in the
// run) failed it (the scale never made), and a runner that recorded no
// informer activity failed it (no timeline line).
func TestStreamLossRepairedAtWatchRestart(t *testing.T) {
	s, err := scenarios.Load("lost-scale.yaml", ".", nil, []byte(lostScale))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var scaled time.Duration
	for _, r := range res.Audit {
		if r.Actor == deployment.Actor && r.Kind == api.KindReplicaSet && r.Time.Duration() > time.Minute && strings.Contains(r.Verb, "update") {
			scaled = r.Time.Duration()
			break
		}
	}
	var restart time.Duration
	for _, a := range res.Activity {
		if a.Controller == "deployment" && a.Subject == "Deployment" && a.What == "rewatch" && a.At > time.Minute {
			restart = a.At
			break
		}
	}
	switch {
	case scaled == 0:
		t.Fatalf("the Deployment controller never scaled the ReplicaSet after the lost event; activity: %+v", res.Activity)
	case restart == 0:
		t.Fatalf("no watch restart of the Deployment informer after 1m, but the ReplicaSet was scaled at %v", scaled)
	case restart < 5*time.Minute || restart > 10*time.Minute:
		t.Errorf("the Deployment informer's watch restarted at %v, want 5 to 10 minutes after it opened at 0:00", restart)
	case scaled < restart || scaled > restart+time.Second:
		t.Errorf("the ReplicaSet was scaled at %v, want within a second after the watch restart at %v", scaled, restart)
	}
	var out bytes.Buffer
	if err := report.Timeline(&out, res); err != nil {
		t.Fatal(err)
	}
	// The line folds the restarts of one minute and stands at the
	// first one's time.
	m := regexp.MustCompile(`(?m)^(\d+):(\d\d)\.(\d{3})  \(informers\) +watch restart after watch timeout, .*deployment Deployment[,;( \n]`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("-o timeline shows no watch restart of the Deployment informer:\n%s", out.String())
	}
	var mins, secs, ms int
	fmt.Sscan(m[1]+" "+m[2]+" "+m[3], &mins, &secs, &ms)
	at := time.Duration(mins)*time.Minute + time.Duration(secs)*time.Second + time.Duration(ms)*time.Millisecond
	if at > restart || restart-at >= time.Minute {
		t.Errorf("-o timeline shows the Deployment informer's restart in a line at %v, want the line of the minute that holds %v: %s", at, restart, m[0])
	}
}
