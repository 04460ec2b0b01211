package runner_test

import (
	"testing"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/store"
)

func runBuiltin(t *testing.T, name string) *runner.Result {
	t.Helper()
	s, err := scenarios.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	return runChecked(t, s)
}

// loadDoc loads a scenario document written in a test as file.
func loadDoc(t *testing.T, file, doc string) *scenarios.Scenario {
	t.Helper()
	s, err := scenarios.Load(file, ".", nil, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// runDoc loads the scenario document doc as file and runs it with opts,
// leaving its expectations to the caller.
func runDoc(t *testing.T, file, doc string, opts runner.Options) *runner.Result {
	t.Helper()
	res, err := runner.Run(loadDoc(t, file, doc), opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// runChecked runs s and reports every expectation that failed.
func runChecked(t *testing.T, s *scenarios.Scenario) *runner.Result {
	t.Helper()
	res, err := runner.Run(s, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Expectations {
		if !o.Passed {
			t.Errorf("%s: %s", o.Name, o.Detail)
		}
	}
	return res
}

// firstWrite returns the index in the audit log of the first write of
// kind/name that sets path to value (value "" matches any creation of
// the object), or -1.
func firstWrite(audit []store.AuditRecord, kind api.Kind, name, path, value string) int {
	for i, a := range audit {
		if a.Kind != kind || a.Key.Name != name {
			continue
		}
		if path == "" && a.Verb == "create" {
			return i
		}
		for c := range a.EachChange() {
			if c.Path == path && c.New == value {
				return i
			}
		}
	}
	return -1
}

// TestStatefulSetWebInOrder runs the Kubernetes docs' web StatefulSet
// (built-in statefulset-web, the manifest unmodified): each pod's claim is
// Bound before the pod is bound to a node, and web-N+1 is created only
// after web-N is Running and Ready, as the StatefulSets page describes.
func TestStatefulSetWebInOrder(t *testing.T) {
	res := runBuiltin(t, "statefulset-web")
	for i, n := range []string{"0", "1", "2"} {
		pod, claim := "web-"+n, "www-web-"+n
		created := firstWrite(res.Audit, api.KindPod, pod, "", "")
		bound := firstWrite(res.Audit, api.KindPersistentVolumeClaim, claim, "status.phase", api.ClaimBound)
		scheduled := -1
		for j, a := range res.Audit {
			if j > created && a.Kind == api.KindPod && a.Key.Name == pod && scheduled < 0 {
				for c := range a.EachChange() {
					if c.Path == "spec.nodeName" {
						scheduled = j
					}
				}
			}
		}
		ready := firstWrite(res.Audit, api.KindPod, pod, "status.conditions[Ready].status", "True")
		if created < 0 || bound < 0 || scheduled < 0 || ready < 0 {
			t.Fatalf("%s: created %d, claim bound %d, scheduled %d, ready %d: want all", pod, created, bound, scheduled, ready)
		}
		if bound > scheduled {
			t.Errorf("%s was bound to a node (audit %d) before its claim %s was Bound (%d)", pod, scheduled, claim, bound)
		}
		if i > 0 {
			prev := "web-" + []string{"0", "1"}[i-1]
			prevReady := firstWrite(res.Audit, api.KindPod, prev, "status.conditions[Ready].status", "True")
			if created < prevReady {
				t.Errorf("%s created (audit %d) before %s was ready (%d)", pod, created, prev, prevReady)
			}
		}
	}
}

// TestStatefulSetZoneLoss runs the built-in statefulset-zone-loss: after
// zone-a is lost and its pod force-deleted, the StatefulSet recreates
// web-1, whose claim's volume lives in zone-a; the scheduler leaves it
// Pending with the VolumeBinding plugin's message; zone-a's node is kept
// off by the node lifecycle controller's unreachable taint
// (TaintToleration), not by a readiness check of the scheduler's own.
func TestStatefulSetZoneLoss(t *testing.T) {
	res := runBuiltin(t, "statefulset-zone-loss")
	const want = "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 node(s) had volume node affinity conflict. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	var msg string
	for _, a := range res.Audit {
		if a.Kind == api.KindPod && a.Key.Name == "web-1" {
			for c := range a.EachChange() {
				if c.Path == "status.conditions[PodScheduled].message" {
					msg = c.New
				}
			}
		}
	}
	if msg != want {
		t.Errorf("web-1's PodScheduled message %q, want %q", msg, want)
	}
}
