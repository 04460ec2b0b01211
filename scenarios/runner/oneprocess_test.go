package runner_test

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
)

// oneProcess runs a Deployment of three pods, crashes the ReplicaSet
// controller at 1m (with %s kube-controller-manager's mode), scales the
// Deployment to five at 1m10s and restarts the ReplicaSet controller at
// 1m30s.
const oneProcess = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: one-process}
spec:
  duration: 3m
  cluster:
    controllerManager: %s
    nodeGroups: [{name: node, count: 3, capacity: {cpu: "4", memory: 8Gi}}]
  network:
    default: {latency: 1ms}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 3
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: nginx:1.14.2}]}
  timeline:
  - {at: 1m, crashController: replicaset}
  - {at: 1m10s, scale: {kind: deployment, name: web, replicas: 5}}
  - {at: 1m30s, restartController: replicaset}
  expect:
  - field: {kind: deployment, name: web, path: status.availableReplicas, equals: "5", at: 3m}
`

// kubeSystem prefixes the service accounts of kube-controller-manager's
// controllers.
const kubeSystem = "system:serviceaccount:kube-system:"

// TestOneProcessSharesWatches: with kube-controller-manager as one
// process, its controllers list and watch pods once, as
// system:kube-controller-manager, where each lists and watches them
// itself by default; both modes converge. Planted: members given
// factories of their own (sim/controller) make every controller watch
// pods again and fail this.
func TestOneProcessSharesWatches(t *testing.T) {
	for _, mode := range []string{scenarios.ControllerManagerPerController, scenarios.ControllerManagerOneProcess} {
		res := runDoc(t, "one-process.yaml", strings.Replace(oneProcess, "%s", mode, 1), runner.Options{})
		if !res.Passed() {
			t.Errorf("%s: %+v", mode, res.Expectations)
		}
		podWatchers := map[string]bool{}
		for _, st := range res.Requests {
			if st.Kind == "Pod" && (st.Verb == "watch" || st.Verb == "list") && (strings.HasPrefix(st.Actor, kubeSystem) || st.Actor == "system:kube-controller-manager") {
				podWatchers[st.Actor] = true
			}
		}
		switch mode {
		case scenarios.ControllerManagerOneProcess:
			if len(podWatchers) != 1 || !podWatchers["system:kube-controller-manager"] {
				t.Errorf("%s: pods listed and watched by %v, want system:kube-controller-manager alone", mode, podWatchers)
			}
		default:
			if len(podWatchers) < 3 || podWatchers["system:kube-controller-manager"] {
				t.Errorf("%s: pods listed and watched by %v, want each controller's service account", mode, podWatchers)
			}
		}
	}
}

// TestOneProcessListsLeasesOnce: with kube-controller-manager as one
// process, the node lifecycle controller and the garbage collector read
// leases through one informer of every namespace, as upstream's shared
// factory gives them (a renewal reaches the process once); the node
// lifecycle controller of its own process watches kube-node-lease alone.
// Planted: the hosted controller asking for kube-node-lease's leases
// only (controllers/nodelifecycle) makes the process list leases twice
// and fails this.
func TestOneProcessListsLeasesOnce(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want map[string]uint64 // lease lists by actor, kube-system's prefix cut
	}{
		// At the start, and at the restart after the ReplicaSet
		// controller's crash, which was the whole process's.
		{scenarios.ControllerManagerOneProcess, map[string]uint64{"system:kube-controller-manager": 2}},
		{scenarios.ControllerManagerPerController, map[string]uint64{"node-controller": 1, "generic-garbage-collector": 1}},
	} {
		res := runDoc(t, "one-process.yaml", strings.Replace(oneProcess, "%s", tc.mode, 1), runner.Options{})
		got := map[string]uint64{}
		for _, st := range res.Requests {
			if st.Kind == "Lease" && st.Verb == "list" {
				got[strings.TrimPrefix(st.Actor, kubeSystem)] += st.Count
			}
		}
		if !maps.Equal(got, tc.want) {
			t.Errorf("%s: lease lists by actor %v, want %v", tc.mode, got, tc.want)
		}
	}
}

// TestOneProcessCrashesTogether: with kube-controller-manager as one
// process, crashing the ReplicaSet controller crashes the Deployment
// controller too (the scale at 1m10s waits for the restart at 1m30s),
// the timeline says so, and the restart lists pods once, for the
// process; by default the Deployment controller acts on the scale at
// once. Planted: a member's Crash that stays with the member
// (sim/controller) fails it.
func TestOneProcessCrashesTogether(t *testing.T) {
	for _, mode := range []string{scenarios.ControllerManagerPerController, scenarios.ControllerManagerOneProcess} {
		res := runDoc(t, "one-process.yaml", strings.Replace(oneProcess, "%s", mode, 1), runner.Options{})
		one := mode == scenarios.ControllerManagerOneProcess
		var deploymentSyncs int
		for _, rec := range res.Reconciles {
			if rec.Controller == "deployment" && rec.Start > time.Minute+10*time.Second && rec.Start < time.Minute+30*time.Second {
				deploymentSyncs++
			}
		}
		if one != (deploymentSyncs == 0) {
			t.Errorf("%s: %d deployment syncs between the scale and the restart", mode, deploymentSyncs)
		}
		wantCrash := "crash controller replicaset"
		if one {
			wantCrash += " (kube-controller-manager's one process: all its controllers)"
		}
		found := false
		for _, e := range res.Entries {
			found = found || e.Command == wantCrash
		}
		if !found {
			t.Errorf("%s: no timeline entry %q", mode, wantCrash)
		}
		// Every process lists pods at its start; the crashed one lists
		// them again at its restart.
		lists := map[string]uint64{}
		for _, st := range res.Requests {
			if st.Kind == "Pod" && st.Verb == "list" && (strings.HasPrefix(st.Actor, kubeSystem) || st.Actor == "system:kube-controller-manager") {
				lists[strings.TrimPrefix(st.Actor, kubeSystem)] += st.Count
			}
		}
		if got := lists["replicaset-controller"]; !one && got != 2 {
			t.Errorf("%s: the ReplicaSet controller listed pods %d times, want 2 (%v)", mode, got, lists)
		}
		if got := lists["system:kube-controller-manager"]; one && (got != 2 || len(lists) != 1) {
			t.Errorf("%s: pod lists %v, want system:kube-controller-manager's alone, twice", mode, lists)
		}
	}
}

// TestOneProcessRefuses: what one-process mode cannot mean is an error
// naming the field, and so is an unknown mode; a restart of any
// controller of the process brings all back, so crashing the first
// again after it is no error.
func TestOneProcessRefuses(t *testing.T) {
	for _, tc := range []struct{ from, to, err string }{
		{"controllerManager: %s", "controllerManager: shared", `spec.cluster.controllerManager: unknown value "shared"`},
		{"  objects:", "  controllers:\n    deployment: {standbys: 1}\n  objects:", "spec.controllers.deployment.standbys: deployment runs inside kube-controller-manager's one process"},
		{"  objects:", "  controllers:\n    replicaset: {resync: 1m}\n  objects:", "spec.controllers.replicaset.resync: replicaset takes its informers from kube-controller-manager's one process"},
		// A crash of one controller is one of the process: another
		// controller of it is down too.
		{"  - {at: 1m10s, scale:", "  - {at: 1m5s, crashController: deployment}\n  - {at: 1m10s, scale:", `spec.timeline[1].crashController: controller "deployment" is already down at 1m5s: an earlier crashController stopped its process, kube-controller-manager`},
		{"crashController: replicaset}", "crashController: kube-controller-manager}", "spec.timeline[0].crashController: kube-controller-manager is the process of its controllers here"},
		{"  - {at: 1m, crashController: replicaset}", "  - {at: 1m, partition: {name: cut, a: [controller/replicaset], b: [controller/deployment, apiserver]}}",
			"spec.timeline[0].partition: controller/replicaset (side a) and controller/deployment (side b) are both endpoints of kube-controller-manager's one process"},
	} {
		src := strings.Replace(strings.Replace(oneProcess, tc.from, tc.to, 1), "%s", scenarios.ControllerManagerOneProcess, 1)
		_, err := scenarios.Load("one-process.yaml", ".", nil, []byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.to, err, tc.err)
		}
	}
	// one-process with none of kube-controller-manager's controllers
	// running would change nothing: refused, not ignored. The on-demand
	// ones are left unlisted: they run only for kinds the scenario
	// declares, and it declares none of theirs.
	var off strings.Builder
	off.WriteString("  controllers:\n")
	for _, c := range scenarios.Controllers {
		if _, onDemand := scenarios.OnDemandControllers[c]; scenarios.InControllerManager(c) && !onDemand {
			off.WriteString("    " + c + ": {enabled: false}\n")
		}
	}
	src := strings.Replace(strings.Replace(oneProcess, "%s", scenarios.ControllerManagerOneProcess, 1), "  timeline:\n", "  timeline: []\n", 1)
	src = src[:strings.Index(src, "  timeline: []\n")+len("  timeline: []\n")]
	src = strings.Replace(src, "  objects:", off.String()+"  objects:", 1)
	if _, err := scenarios.Load("one-process.yaml", ".", nil, []byte(src)); err == nil || !strings.Contains(err.Error(), "spec.cluster.controllerManager: one-process, but none of kube-controller-manager's controllers runs") {
		t.Errorf("one-process with no controller of it: error %v", err)
	}
	// A Service brings the EndpointSlice controller, on demand: then one
	// of them runs.
	service := "  - {apiVersion: v1, kind: Service, metadata: {name: web}, spec: {selector: {app: web}, ports: [{port: 80}]}}\n  timeline: []\n"
	if _, err := scenarios.Load("one-process.yaml", ".", nil, []byte(strings.Replace(src, "  timeline: []\n", service, 1))); err != nil {
		t.Errorf("one-process with only an on-demand controller of it running: %v", err)
	}
	src = strings.Replace(strings.Replace(oneProcess, "%s", scenarios.ControllerManagerOneProcess, 1),
		"  - {at: 1m30s, restartController: replicaset}\n", "  - {at: 1m5s, restartController: deployment}\n  - {at: 1m30s, crashController: replicaset}\n", 1)
	if _, err := scenarios.Load("one-process.yaml", ".", nil, []byte(src)); err != nil {
		t.Errorf("a crash after a restart of another controller of the process: %v", err)
	}
}

// TestOneProcessLinkFault: a broken-watch fault on one controller of
// the process breaks the process's watches, which it relists; by default
// the controller's own. Planted: the fault applied to the member's
// endpoint alone (links.go) fails it.
func TestOneProcessLinkFault(t *testing.T) {
	for _, mode := range []string{scenarios.ControllerManagerPerController, scenarios.ControllerManagerOneProcess} {
		src := strings.Replace(oneProcess, "%s", mode, 1)
		src = strings.Replace(src, "  - {at: 1m, crashController: replicaset}\n", "", 1)
		src = strings.Replace(src, "  - {at: 1m30s, restartController: replicaset}\n", "", 1)
		src = strings.Replace(src, "  expect:", "  faults:\n    target: replicaset\n    schedule:\n    - {at: 1m5s, for: 30s, type: broken-watch, target: replicaset, streamBreak: 1}\n  expect:", 1)
		res := runDoc(t, "one-process.yaml", src, runner.Options{})
		if !res.Passed() {
			t.Errorf("%s: %+v", mode, res.Expectations)
		}
		relisted := map[string]bool{}
		for _, a := range res.Activity {
			if a.What == "relist" && a.At >= time.Minute+5*time.Second {
				relisted[a.Controller] = true
			}
		}
		want := "replicaset"
		if mode == scenarios.ControllerManagerOneProcess {
			want = "kube-controller-manager"
		}
		if len(relisted) != 1 || !relisted[want] {
			t.Errorf("%s: relists after the fault by %v, want %s alone", mode, relisted, want)
		}
		// The fault's entry names what it hits: the whole process.
		entry := "fault: 1m5s broken watches to controller/replicaset (break 1 per event, history compacted: 410) for 30s"
		if mode == scenarios.ControllerManagerOneProcess {
			entry += " (kube-controller-manager's one process: all its controllers)"
		}
		if !slices.ContainsFunc(res.Entries, func(e runner.Entry) bool { return e.Command == entry }) {
			t.Errorf("%s: no entry %q", mode, entry)
		}
	}
}

// TestOneProcessPartition: a partition of one controller's endpoint is
// one of the whole process, its lease renewals included: the process
// loses kube-controller-manager's lease, where by default the
// partitioned controller loses its own.
func TestOneProcessPartition(t *testing.T) {
	for _, mode := range []string{scenarios.ControllerManagerPerController, scenarios.ControllerManagerOneProcess} {
		src := strings.Replace(oneProcess, "%s", mode, 1)
		src = strings.Replace(src, "  - {at: 1m, crashController: replicaset}\n", "  - {at: 1m, partition: {name: cut, a: [controller/replicaset], b: [apiserver]}}\n  - {at: 2m, heal: cut}\n", 1)
		src = strings.Replace(src, "  - {at: 1m30s, restartController: replicaset}\n", "", 1)
		res := runDoc(t, "one-process.yaml", src, runner.Options{})
		want := "leader election: replicaset (control-plane_1) could not renew lease kube-system/kube-controller-manager-replicaset"
		if mode == scenarios.ControllerManagerOneProcess {
			want = "leader election: kube-controller-manager (control-plane_1) could not renew lease kube-system/kube-controller-manager within"
		}
		found := false
		for _, e := range res.Entries {
			found = found || strings.HasPrefix(e.Command, want)
		}
		if !found {
			t.Errorf("%s: no entry %q...", mode, want)
		}
	}
}
