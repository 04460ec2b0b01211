package runner_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/nodelifecycle"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/store"
)

// healScenario cuts worker-1's kubelet off the API server from 1m to
// heal, then runs until heal+2m.
func healScenario(heal time.Duration) string {
	return fmt.Sprintf(`apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: heal}
spec:
  duration: %s
  cluster:
    nodeGroups:
    - {name: worker, count: 2, capacity: {cpu: "4", memory: 8Gi}}
  objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 2
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec:
          containers: [{name: nginx, image: "nginx:1.14.2"}]
  timeline:
  - {at: 1m, partition: {name: cut, a: [kubelet/worker-1], b: [apiserver]}}
  - {at: %s, heal: cut}
`, heal+2*time.Minute, heal)
}

// TestNodeConditionsAfterHeal cuts a node's kubelet off the API server
// for a while and checks what the node shows after the heal, as the
// kubelet's condition setters (k/k pkg/kubelet/nodestatus/setters.go) and
// the node lifecycle controller write it: a node silent beyond the grace
// period turns Unknown (NodeNotReady from node-controller) and, at the
// kubelet's first status write after its node lister shows it Unknown,
// True again with that write's time as every condition's
// lastTransitionTime, and a NodeReady event from the kubelet (a
// heartbeat patched from the lister's stale copy before that leaves
// Unknown as it is, as upstream's patch does); a node silent for less keeps its conditions'
// transition times and records nothing. The pods the controller marked
// not ready turn Ready again once the kubelet's pod watch is back: within
// the reflector's back-off (at most 60 s after a long partition) and a
// request timeout.
func TestNodeConditionsAfterHeal(t *testing.T) {
	const node = "worker-1"
	tests := []struct {
		name    string
		heal    time.Duration
		unknown bool // the node went Unknown
	}{
		{"30s, within the grace period", 90 * time.Second, false},
		{"2m", 3 * time.Minute, true},
		{"5m, past the status report frequency", 6 * time.Minute, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c *cluster.Cluster
			res := runDoc(t, "heal.yaml", healScenario(tt.heal), runner.Options{OnStart: func(cl *cluster.Cluster) { c = cl }})
			kubeletActor := kubelet.Actor(node)
			var wentUnknown, backTrue, lastPost kernel.Time = -1, -1, -1
			var podsNotReady int
			podsReady := map[string]kernel.Time{}
			for _, a := range res.Audit {
				switch {
				case a.Kind == api.KindNode && a.Key.Name == node && a.Actor == kubeletActor:
					lastPost = a.Time
					if wentUnknown >= 0 && backTrue < 0 && changedTo(a, "status.conditions[Ready].status", "True") {
						backTrue = a.Time
					}
				case a.Kind == api.KindNode && a.Key.Name == node && changedTo(a, "status.conditions[Ready].status", "Unknown"):
					wentUnknown = a.Time
				case a.Kind == api.KindPod && a.Actor == nodelifecycle.Actor && changedTo(a, "status.conditions[Ready].status", "False"):
					podsNotReady++
				case a.Kind == api.KindPod && a.Actor == kubeletActor && a.Time.Duration() > tt.heal &&
					changedTo(a, "status.conditions[Ready].status", "True"):
					podsReady[a.Key.Name] = a.Time
				}
			}
			obj, err := c.Store.Get(api.KindNode, api.Key{Name: node})
			if err != nil {
				t.Fatal(err)
			}
			n := obj.(*api.Node)
			stamp := func(at kernel.Time) time.Time { return at.Wall().Truncate(time.Second) }
			if (wentUnknown >= 0) != tt.unknown {
				t.Fatalf("went Unknown at %v, want Unknown: %v", wentUnknown, tt.unknown)
			}
			wantTransition := stamp(0) // registered at the start
			if tt.unknown {
				if backTrue < 0 {
					t.Fatal("the kubelet never turned Ready True again")
				}
				// The kubelet's status loop reads its node lister, whose
				// watch broke in the partition: Ready turns True at the
				// first tick after the lister relists, within the
				// reflector's back-off (30s jittered to 60s), a request
				// timeout (10s) and the status update period (10s).
				if d := backTrue.Duration() - tt.heal; d < 0 || d > 80*time.Second {
					t.Errorf("Ready True again %v after the heal, want within 80s", d)
				}
				wantTransition = stamp(backTrue)
			}
			if len(n.Status.Conditions) != 4 {
				t.Fatalf("conditions %+v, want 4", n.Status.Conditions)
			}
			for _, cond := range n.Status.Conditions {
				if !cond.LastTransitionTime.Time.Equal(wantTransition) {
					t.Errorf("%s lastTransitionTime %v, want %v", cond.Type, cond.LastTransitionTime.Time, wantTransition)
				}
				if !cond.LastHeartbeatTime.Time.Equal(stamp(lastPost)) {
					t.Errorf("%s lastHeartbeatTime %v, want the last status write's %v", cond.Type, cond.LastHeartbeatTime.Time, stamp(lastPost))
				}
			}
			events := nodeEvents(t, c, node)
			wantReady := int32(1)
			if tt.unknown {
				wantReady = 2
			}
			if e := events["NodeReady"]; e == nil || e.Count != wantReady || e.Source.Component != kubelet.EventComponent ||
				e.Message != "Node "+node+" status is now: NodeReady" {
				t.Errorf("NodeReady event %+v, want %d from the kubelet", e, wantReady)
			} else if tt.unknown && !e.LastTimestamp.Time.Equal(stamp(backTrue)) {
				t.Errorf("NodeReady last recorded %v, want %v", e.LastTimestamp.Time, stamp(backTrue))
			}
			e := events["NodeNotReady"]
			switch {
			case !tt.unknown && e != nil:
				t.Errorf("NodeNotReady event %+v, want none", e)
			case tt.unknown && (e == nil || e.Count != 1 || e.Source.Component != nodelifecycle.Component ||
				e.Message != "Node "+node+" status is now: NodeNotReady"):
				t.Errorf("NodeNotReady event %+v, want one from %s", e, nodelifecycle.Component)
			}
			if !tt.unknown {
				if podsNotReady != 0 {
					t.Errorf("%d pods marked not ready, want none", podsNotReady)
				}
				return
			}
			if podsNotReady == 0 || len(podsReady) != podsNotReady {
				t.Fatalf("%d pods marked not ready, %d Ready again after the heal: want the same, at least 1", podsNotReady, len(podsReady))
			}
			for pod, at := range podsReady {
				if d := at.Duration() - tt.heal; d > 70*time.Second {
					t.Errorf("%s Ready again %v after the heal, want within the reflector's 60s back-off and a 10s request", pod, d)
				}
			}
		})
	}
}

// changedTo reports whether a write set path to value.
func changedTo(a store.AuditRecord, path, value string) bool {
	for c := range a.EachChange() {
		if c.Path == path && c.New == value {
			return true
		}
	}
	return false
}

// nodeEvents returns the stored events about a node, by reason.
func nodeEvents(t *testing.T, c *cluster.Cluster, node string) map[string]*api.Event {
	t.Helper()
	objs, _, err := c.Store.List(api.KindEvent, store.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*api.Event{}
	for _, o := range objs {
		if e := o.(*api.Event); e.InvolvedObject.Kind == "Node" && e.InvolvedObject.Name == node {
			if out[e.Reason] != nil {
				t.Errorf("two %s events about %s: %+v and %+v", e.Reason, node, out[e.Reason], e)
			}
			out[e.Reason] = e
		}
	}
	return out
}
