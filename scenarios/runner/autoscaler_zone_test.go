package runner_test

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
)

// entryAt returns when the first timeline entry starting with prefix was
// recorded, and its lines; found false when there is none.
func entryAt(res *runner.Result, prefix string) (time.Duration, []string, bool) {
	for _, e := range res.Entries {
		if strings.HasPrefix(e.Command, prefix) {
			return e.At, e.Lines, true
		}
	}
	return 0, nil, false
}

// eventMessages returns the messages of the events of reason the events
// steps show.
func eventMessages(res *runner.Result, reason string) []string {
	var out []string
	for _, e := range res.Entries {
		if e.Snapshot == nil || e.Snapshot.What != "events" {
			continue
		}
		for _, ev := range e.Snapshot.Events {
			if ev.Reason == reason {
				out = append(out, ev.Message)
			}
		}
	}
	return out
}

// TestAutoscalerZoneLoss (testdata/autoscale-zone-loss.yaml): groups a
// (zone-a) and b (zone-b), one 4-CPU node each with two of the four
// 1.5-CPU web pods; zone-a is lost at 1m. The two pods of a-1 are
// evicted after the 60s toleration and pend; the least-waste expander
// ties and grows a (by name) at 3:00. Its machine a-2 boots at 5:00 in
// the lost zone and cannot register. cluster-autoscaler gives the
// scale-up up after --max-node-provision-time (15m, at the first scan
// past it, 15m10s), backs a off for 5m, and, a's upcoming node no
// longer counted, grows b in the same scan; the next scan deletes a-2,
// unregistered for more than 15m. The pods run on b-2 once it joins.
// a-1, unready, is removed after --scale-down-unready-time (20m) once
// --scale-down-delay-after-add (10m) after b's scale-up has passed.
// Before the cloud knew lost zones, a-2 registered at 5:00 and ran the
// pods in the dead zone; a-1 stayed forever.
func TestAutoscalerZoneLoss(t *testing.T) {
	doc, err := os.ReadFile("testdata/autoscale-zone-loss.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res := runPlacement(t, string(doc))
	up, _, _ := entryAt(res, "cluster-autoscaler scale-up: a 1->2 (max: 3)")
	booted, lines, _ := entryAt(res, "cloud: 1 machine(s) of a provisioned after 2m0s")
	if up != 3*time.Minute || booted != up+2*time.Minute {
		t.Errorf("a scaled up at %s and its machine booted at %s, want 3m0s and 5m0s", up, booted)
	}
	if want := "machine a-2 cannot reach the API server: its zone is lost (crash nodes topology.kubernetes.io/zone=zone-a); it will not register"; !slices.Equal(lines, []string{want}) {
		t.Errorf("a-2's boot: %q, want [%q]", lines, want)
	}
	timedOut, _, _ := entryAt(res, "cluster-autoscaler scale-up: Scale-up timed out for node group a after 15m10s")
	backoff, _, _ := entryAt(res, "cluster-autoscaler scale-up: Disabling scale-up for node group a for 5m0s; errorCode=timeout")
	other, _, _ := entryAt(res, "cluster-autoscaler scale-up: b 1->2 (max: 3) for 2 pending pod(s)")
	removed, _, _ := entryAt(res, "cluster-autoscaler Removing 1 unregistered nodes for node group a: a-2")
	deleted, _, _ := entryAt(res, "cloud: machine a-2 deleted (it never registered)")
	want := up + 15*time.Minute + 10*time.Second
	if timedOut != want || backoff != want || other != want {
		t.Errorf("timed out at %s, backed off at %s, b grown at %s: want all at %s", timedOut, backoff, other, want)
	}
	if removed != want+10*time.Second || deleted != removed {
		t.Errorf("a-2 removed at %s, deleted at %s: want both at %s", removed, deleted, want+10*time.Second)
	}
	if l := timelineLines(res, "cluster-autoscaler scale-up: a "); len(l) != 1 {
		t.Errorf("a's scale-ups %q, want one", l)
	}
	gone, _, _ := entryAt(res, "cluster-autoscaler scale-down: node a-1 of a, unneeded for ")
	if gone != other+10*time.Minute {
		t.Errorf("a-1 removed at %s, want 10m after b's scale-up (%s)", gone, other)
	}
	if l := timelineLines(res, "cluster-autoscaler scale-down: node a-1 of a"); len(l) != 1 || !strings.HasSuffix(l[0], "(utilization 0.00, unready)") {
		t.Errorf("a-1's removal %q, want one of an unready node", l)
	}
}

// TestAutoscalerBackoffEvent: as TestAutoscalerZoneLoss with b at its
// max size (1): once a is backed off no group can help, and the pending
// pods say why with upstream's skipped-group reasons.
func TestAutoscalerBackoffEvent(t *testing.T) {
	doc, err := os.ReadFile("testdata/autoscale-zone-loss.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(doc), "autoscaling: {minSize: 1, maxSize: 3}", "autoscaling: {minSize: 1, maxSize: 1}", 1)
	src = strings.Replace(src, "  - pods: {selector: app=web, phase: Running, equals: 4, at: 31m}", "  - pods: {selector: app=web, phase: Pending, equals: 2, at: 31m}", 1)
	res := runPlacement(t, src)
	msgs := eventMessages(res, "NotTriggerScaleUp")
	want := "pod didn't trigger scale-up: 1 in backoff after failed scale-up, 1 max node group size reached"
	if !slices.Contains(msgs, want) {
		t.Errorf("NotTriggerScaleUp messages %q, want one of %q", msgs, want)
	}
}

// unreadyScenario: pool, three 4-CPU nodes each running one 500m web
// pod; pool-3 crashes at 1m. Its pod is deleted at 6:50, 300s after the
// NoExecute taint (1:50), and runs elsewhere; the pod left on pool-3,
// its deletionTimestamp 7:20 (the 30s grace period on), is long
// terminating past 8:20 (utils/drain IsPodLongTerminating: another 30s
// of grace and 30s more). The threshold (0.02, below one pod's 0.025)
// keeps the ready nodes.
func unreadyScenario(autoscaler string) string {
	doc := placementScenario(3, "          dnsPolicy: ClusterFirst",
		`    - {name: pool, count: 3, capacity: {cpu: "4", memory: 8Gi}, autoscaling: {minSize: 1, maxSize: 3}}
    autoscaler: {scaleDownUtilizationThreshold: 0.02`+autoscaler+`}`,
		"  - {at: 1m, crashNode: pool-3}\n", "  - pods: {selector: app=web, phase: Running, equals: 3, at: 11m}")
	return strings.Replace(doc, "duration: 12m", "duration: 35m", 1)
}

// TestAutoscalerRemovesUnreadyNode: pool-3, NotReady from 1:45, is
// unneeded once its pod is terminating past its grace period (the 8:30
// scan) and is removed --scale-down-unready-time (20m) later; the ready nodes,
// above the threshold, stay. A shorter unready time removes it sooner;
// --scale-down-unready-enabled=false keeps it.
func TestAutoscalerRemovesUnreadyNode(t *testing.T) {
	for _, tc := range []struct {
		name, flags string
		unneeded    time.Duration // 0: not removed
	}{
		{name: "defaults", unneeded: 20 * time.Minute},
		{name: "unready time 5m", flags: ", scaleDownUnreadyTime: 5m", unneeded: 5 * time.Minute},
		{name: "disabled", flags: ", scaleDownUnreadyEnabled: false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := runPlacement(t, unreadyScenario(tc.flags))
			removals := timelineLines(res, "cluster-autoscaler scale-down: node ")
			if tc.unneeded == 0 {
				if len(removals) != 0 {
					t.Errorf("removals %q, want none", removals)
				}
				return
			}
			if len(removals) != 1 || !strings.HasPrefix(removals[0], "cluster-autoscaler scale-down: node pool-3 of pool, unneeded for ") {
				t.Fatalf("removals %q, want pool-3's only", removals)
			}
			at, _, _ := entryAt(res, "cluster-autoscaler scale-down: node pool-3")
			if lo, hi := 8*time.Minute+20*time.Second+tc.unneeded, 8*time.Minute+30*time.Second+tc.unneeded; at < lo || at > hi {
				t.Errorf("pool-3 removed at %s, want %s unneeded after its pod's grace period (%s to %s)", at, tc.unneeded, lo, hi)
			}
		})
	}
}

// TestAutoscalerHaltsWhenUnhealthy: a (four empty nodes, zone-a) and b
// (two), all removable, with a 20m unneeded time; zone-a is lost at 1m.
// The four nodes count as not started until 15m after they registered,
// then as unready: 4 is above --ok-total-unready-count (3) and 45% of 6,
// so cluster-autoscaler halts, and no node is removed, neither b's idle
// nodes nor a's dead ones. With okTotalUnreadyCount 4 the cluster stays
// healthy and all six go at 20:10.
func TestAutoscalerHaltsWhenUnhealthy(t *testing.T) {
	doc := func(flags string) string {
		d := placementScenario(0, "          dnsPolicy: ClusterFirst",
			`    - {name: a, count: 4, labels: {topology.kubernetes.io/zone: zone-a}, capacity: {cpu: "4", memory: 8Gi}, autoscaling: {minSize: 0, maxSize: 4}}
    - {name: b, count: 2, labels: {topology.kubernetes.io/zone: zone-b}, capacity: {cpu: "4", memory: 8Gi}, autoscaling: {minSize: 0, maxSize: 2}}
    autoscaler: {scaleDownUnneededTime: 20m`+flags+`}`,
			"  - {at: 1m, crashNodes: topology.kubernetes.io/zone=zone-a}\n", "  - pods: {selector: app=web, phase: Running, equals: 0, at: 11m}")
		return strings.Replace(d, "duration: 12m", "duration: 25m", 1)
	}
	res := runPlacement(t, doc(""))
	halted, _, _ := entryAt(res, "cluster-autoscaler Cluster is not ready for autoscaling: ready=2 unready=4 notStarted=0 registered=6 longUnregistered=0")
	if halted < 15*time.Minute || halted > 15*time.Minute+10*time.Second {
		t.Errorf("cluster unhealthy from %s, want the first scan from 15m0s", halted)
	}
	if d := timelineLines(res, "cloud: machine "); len(d) != 0 {
		t.Errorf("machines deleted while the cluster is unhealthy: %q", d)
	}
	res = runPlacement(t, doc(", okTotalUnreadyCount: 4"))
	if l := timelineLines(res, "cluster-autoscaler Cluster is not ready"); len(l) != 0 {
		t.Errorf("with okTotalUnreadyCount 4: %q", l)
	}
	if d := timelineLines(res, "cloud: machine "); len(d) != 6 {
		t.Errorf("with okTotalUnreadyCount 4, machines deleted: %q, want all six", d)
	}
}
