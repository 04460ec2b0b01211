package runner_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// placementScenario is a web Deployment of replicas pods (100m each) with
// the given pod spec placement rules (YAML at the pod spec's indentation),
// nodeGroups (YAML list items), timeline steps and expectations.
func placementScenario(replicas int, rules, groups, timeline, expect string) string {
	return fmt.Sprintf(`apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: placement}
spec:
  seed: 1
  duration: 12m
  measure: {ignore: [Node]}
  cluster:
    nodeGroups:
%s
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: %d
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
%s
          containers:
          - name: web
            image: nginx:1.14.2
            resources: {requests: {cpu: 100m, memory: 64Mi}}
  timeline:
  - at: 11m
    events: {}
%s
  expect:
%s
`, groups, replicas, rules, timeline, expect)
}

const spreadZone = `          topologySpreadConstraints:
          - maxSkew: 1
            topologyKey: topology.kubernetes.io/zone
            whenUnsatisfiable: %s
            labelSelector: {matchLabels: {app: web}}`

// zoneGroup is a node group of count nodes with cpu CPUs in zone.
func zoneGroup(name, zone string, count int, cpu string) string {
	return fmt.Sprintf("    - {name: %s, count: %d, capacity: {cpu: %q, memory: 64Gi}, labels: {topology.kubernetes.io/zone: %s}}\n", name, count, cpu, zone)
}

func runPlacement(t *testing.T, doc string) *runner.Result {
	t.Helper()
	s, err := scenarios.Load("placement.yaml", ".", fstest.MapFS{}, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return runChecked(t, s)
}

// failedScheduling returns the messages of the FailedScheduling events the
// events step at 11m shows.
func failedScheduling(res *runner.Result) []string {
	var out []string
	for _, e := range res.Entries {
		if e.Snapshot == nil || e.Snapshot.What != "events" {
			continue
		}
		for _, ev := range e.Snapshot.Events {
			if ev.Reason == "FailedScheduling" {
				out = append(out, ev.Message)
			}
		}
	}
	return out
}

// TestSpreadOverUnequalZones: six replicas spread over three zones, one of
// them a node four times the size of the others. Without the constraint
// LeastAllocated piles most pods on the big node; with maxSkew 1 each zone
// gets two.
func TestSpreadOverUnequalZones(t *testing.T) {
	groups := zoneGroup("big", "a", 1, "16") + zoneGroup("small-b", "b", 1, "4") + zoneGroup("small-c", "c", 1, "4")
	expect := `  - pods: {selector: app=web, node: big-1, phase: Running, equals: 2, at: 10m}
  - pods: {selector: app=web, node: small-b-1, phase: Running, equals: 2, at: 10m}
  - pods: {selector: app=web, node: small-c-1, phase: Running, equals: 2, at: 10m}`
	runPlacement(t, placementScenario(6, fmt.Sprintf(spreadZone, "DoNotSchedule"), groups, "", expect))
	// The same cluster without the constraint: the big node takes more
	// than its share, which is what the constraint prevents.
	s, err := scenarios.Load("placement.yaml", ".", fstest.MapFS{}, []byte(placementScenario(6, "          dnsPolicy: ClusterFirst", groups, "", strings.ReplaceAll(expect, "equals: 2", "equals: 9"))))
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := res.Expectations[0].Detail
	var n int
	if _, err := fmt.Sscanf(d[strings.LastIndex(d, ": ")+2:], "%d pods", &n); err != nil || n <= 2 {
		t.Errorf("without spread the big node should hold more than 2 pods: %s", d)
	}
}

// TestRequiredAntiAffinityPerHost: four replicas that must not share a
// host on three nodes: three run, the fourth stays Pending with
// Kubernetes' message.
func TestRequiredAntiAffinityPerHost(t *testing.T) {
	rules := `          affinity:
            podAntiAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
              - topologyKey: kubernetes.io/hostname
                labelSelector: {matchLabels: {app: web}}`
	expect := `  - pods: {selector: app=web, phase: Running, equals: 3, at: 10m}
  - pods: {selector: app=web, phase: Pending, equals: 1, at: 10m}`
	res := runPlacement(t, placementScenario(4, rules, "    - {name: worker, count: 3, capacity: {cpu: \"4\", memory: 16Gi}}\n", "", expect))
	const want = "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
	msgs := failedScheduling(res)
	if len(msgs) == 0 || msgs[len(msgs)-1] != want {
		t.Errorf("FailedScheduling messages %q, want the last to be %q", msgs, want)
	}
}

// TestZoneLossUnderSpread: six replicas spread over three zones lose zone
// c at 1m. Under DoNotSchedule the replacements of its two evicted pods
// stay Pending (the empty zone is still a domain, at 0, so any other zone
// would exceed maxSkew); under ScheduleAnyway they run in zones a and b.
func TestZoneLossUnderSpread(t *testing.T) {
	groups := zoneGroup("a", "a", 1, "4") + zoneGroup("b", "b", 1, "4") + zoneGroup("c", "c", 1, "4")
	timeline := "  - at: 1m\n    stopKubelet: c-1"
	t.Run("DoNotSchedule", func(t *testing.T) {
		expect := `  - pods: {selector: app=web, node: a-1, equals: 2, at: 10m}
  - pods: {selector: app=web, node: b-1, equals: 2, at: 10m}
  - pods: {selector: app=web, phase: Pending, equals: 2, at: 10m}`
		res := runPlacement(t, placementScenario(6, fmt.Sprintf(spreadZone, "DoNotSchedule"), groups, timeline, expect))
		msgs := failedScheduling(res)
		if len(msgs) == 0 || !strings.Contains(msgs[len(msgs)-1], "2 node(s) didn't match pod topology spread constraints") {
			t.Errorf("FailedScheduling messages %q lack the spread reason for zones a and b", msgs)
		}
		t.Logf("last FailedScheduling: %q", msgs[len(msgs)-1])
	})
	t.Run("ScheduleAnyway", func(t *testing.T) {
		expect := `  - pods: {selector: app=web, node: a-1, phase: Running, equals: 3, at: 10m}
  - pods: {selector: app=web, node: b-1, phase: Running, equals: 3, at: 10m}
  - pods: {selector: app=web, phase: Pending, equals: 0, at: 10m}`
		res := runPlacement(t, placementScenario(6, fmt.Sprintf(spreadZone, "ScheduleAnyway"), groups, timeline, expect))
		if msgs := failedScheduling(res); len(msgs) != 0 {
			t.Errorf("FailedScheduling under ScheduleAnyway: %q", msgs)
		}
	})
}
