package runner_test

import (
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/netsim"
)

// TestEveryAction runs a scenario that uses every timeline action and
// observation once, and checks what each printed and that the checks of
// their effects held.
func TestEveryAction(t *testing.T) {
	s, err := scenarios.LoadFileWith("testdata/every-action.yaml", scenarios.Options{Root: "../.."}) // it names ../../../testdata/kubernetes-docs
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Expectations {
		if !o.Passed {
			t.Errorf("expectation failed: %s: %s", o.Name, o.Detail)
		}
	}
	want := map[string]string{
		"kubectl scale deployment/nginx-deployment --replicas=5": "deployment.apps/nginx-deployment scaled",
		"kubectl cordon worker-1":                                "node/worker-1 cordoned",
		"kubectl uncordon worker-1":                              "node/worker-1 uncordoned",
		"kubectl rollout pause deployment/nginx-deployment":      "deployment.apps/nginx-deployment paused",
		"kubectl rollout resume deployment/nginx-deployment":     "deployment.apps/nginx-deployment resumed",
		"kubectl rollout restart deployment/nginx-deployment":    "deployment.apps/nginx-deployment restarted",
		"kubectl delete configmap settings":                      `configmap "settings" deleted`,
		"crash controller replicaset":                            "",
		"restart controller replicaset":                          "",
		"add 1 node(s) to group spare":                           "node/spare-1 added",
	}
	seen := map[string]bool{}
	applies := []string{}
	for _, e := range res.Entries {
		if e.Err != "" {
			t.Errorf("[%v] %s: %s", e.At, e.Command, e.Err)
		}
		out := strings.Join(e.Lines, "\n")
		if strings.HasPrefix(e.Command, "kubectl apply") {
			applies = append(applies, out)
		}
		if w, ok := want[e.Command]; ok {
			seen[e.Command] = true
			if w != "" && !strings.Contains(out, w) {
				t.Errorf("%s printed %q, want it to contain %q", e.Command, out, w)
			}
		}
		if strings.HasPrefix(e.Command, "kubectl drain") && !strings.Contains(out, "node/worker-2 drained") {
			t.Errorf("drain printed %q", out)
		}
	}
	for cmd := range want {
		if !seen[cmd] {
			t.Errorf("no entry for %q", cmd)
		}
	}
	if len(applies) != 2 || !strings.Contains(applies[0], "configmap/applied created") || !strings.Contains(applies[1], "configmap/applied unchanged") {
		t.Errorf("applies printed %q, want created then unchanged", applies)
	}
	again, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.TraceHash != res.TraceHash {
		t.Errorf("a second run of the same seed differs")
	}
}

// TestGapExpectations checks the converged and incidents checks both
// ways on the typo rollout: the typo keeps a gap open from 1m until the
// rollback at 12m (two objects' gaps, both incidents under the 5m SLO).
func TestGapExpectations(t *testing.T) {
	s, err := scenarios.Builtin("deployment-bad-image")
	if err != nil {
		t.Fatal(err)
	}
	d := func(v time.Duration) *api.Duration { return &api.Duration{Duration: v} }
	s.Spec.Expect = []scenarios.Expectation{
		{Converged: &scenarios.ConvergedCheck{After: d(time.Minute), Within: api.Duration{Duration: 11 * time.Minute}}},
		{Converged: &scenarios.ConvergedCheck{After: d(12 * time.Minute), Within: api.Duration{Duration: 13 * time.Minute}}},
		{Converged: &scenarios.ConvergedCheck{Within: api.Duration{Duration: 30 * time.Second}}},
		{Incidents: &scenarios.IncidentsCheck{Max: 0}},
		{Incidents: &scenarios.IncidentsCheck{Max: 2}},
		{Incidents: &scenarios.IncidentsCheck{Min: 2, Max: 2}},
		{Incidents: &scenarios.IncidentsCheck{Min: 3, Max: 5}},
	}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{false, true, true, false, true, true, false}
	for i, o := range res.Expectations {
		t.Logf("%s: %v: %s", o.Name, o.Passed, o.Detail)
		if o.Passed != want[i] {
			t.Errorf("%s: passed %v, want %v (%s)", o.Name, o.Passed, want[i], o.Detail)
		}
	}
	if o := res.Expectations[0]; !strings.Contains(o.Detail, "Deployment/default/nginx-deployment: updated 1/3") {
		t.Errorf("the failed check does not name the open gap: %s", o.Detail)
	}
}

// TestFindingsWithoutDetectors checks that a findings check fails, and
// says why, when the caller hands in no detectors, and holds when the
// detectors it is handed report within its bounds.
func TestFindingsWithoutDetectors(t *testing.T) {
	s, err := scenarios.Builtin("gitops-hpa-truce")
	if err != nil {
		t.Fatal(err)
	}
	zero, one := 0, 1
	s.Spec.Expect = []scenarios.Expectation{{Findings: &scenarios.FindingsCheck{Fights: &scenarios.Range{Max: &zero}, HotLoops: &scenarios.Range{Min: &one}}}}
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Expectations[0]; o.Passed || !strings.Contains(o.Detail, "no detectors") {
		t.Errorf("without detectors: %+v", o)
	}
	calls := 0
	detect := func(r *runner.Result) runner.Findings {
		calls++
		if r.Duration != res.Duration || len(r.Audit) == 0 {
			t.Errorf("detectors handed an unfinished result: %v, %d audit records", r.Duration, len(r.Audit))
		}
		return runner.Findings{HotLoops: 1}
	}
	res, err = runner.Run(s, runner.Options{Detect: detect})
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Expectations[0]; !o.Passed || o.Name != "the detectors find no fights, at least 1 hot loops" || calls != 1 {
		t.Errorf("with detectors: %+v (%d calls)", o, calls)
	}
}

// TestPartitionReachesNodesThatJoinLater cuts every kubelet off the API
// server, then adds a node: the new node's kubelet is cut off too, as a
// network cut would do, and healing restores both.
func TestPartitionReachesNodesThatJoinLater(t *testing.T) {
	src := `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: partition-later}
spec:
  duration: 1m
  cluster:
    nodeGroups:
    - {name: worker, count: 1, capacity: {cpu: "2", memory: 4Gi}}
  network:
    default: {latency: 1ms}
  timeline:
  - {at: 10s, partition: {name: cut, a: ["kubelet/*"], b: [apiserver]}}
  - {at: 20s, addNodes: {group: worker, count: 1}}
  - {at: 40s, heal: cut}
`
	for _, until := range []time.Duration{30 * time.Second, 50 * time.Second} {
		s, err := scenarios.Load("partition-later.yaml", ".", nil, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var c *cluster.Cluster
		if _, err := runner.Run(s, runner.Options{Until: until, OnStart: func(cl *cluster.Cluster) { c = cl }}); err != nil {
			t.Fatal(err)
		}
		for _, node := range []string{"worker-1", "worker-2"} {
			cut := c.Net.Partitioned(netsim.Addr("kubelet/"+node), cluster.APIServerAddr)
			if want := until < 40*time.Second; cut != want {
				t.Errorf("at %v kubelet/%s cut off: %v, want %v", until, node, cut, want)
			}
		}
	}
}
