package kubelet

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// Every test of the package (its own and kubelet_test's, which run the
// kubelets through crashes, init containers, sidecars, probes, readiness
// gates, evictions and node failures) has podChanged check the cheap
// comparison of a pod's stored status with the kubelet's own against the
// comparison with a built status.
func init() {
	checkOwnStatus = func(k *Kubelet, p *api.Pod, ps *podState) {
		if k.ownStatusDiffers(&p.Status, ps) != statusDiffers(&p.Status, k.buildStatus(ps, nil)) {
			panic("kubelet test: ownStatusDiffers disagrees with statusDiffers for " + p.Name)
		}
	}
}

// statusDiffers is the comparison ownStatusDiffers stands for, over a
// status buildStatus built (what podChanged did before): whether a
// stored pod status disagrees with the kubelet's on the phase or on any
// condition's status.
func statusDiffers(stored *api.PodStatus, own api.PodStatus) bool {
	if stored.Phase != own.Phase {
		return true
	}
	for _, c := range own.Conditions {
		found := false
		for _, sc := range stored.Conditions {
			if sc.Type == c.Type {
				found = sc.Status == c.Status
				break
			}
		}
		if !found {
			return true
		}
	}
	return false
}

// TestOwnStatusDiffers holds ownStatusDiffers to statusDiffers over a
// built status on statuses that agree or not in each way the comparison
// reads: the phase, each condition's status, a condition missing, a
// condition the kubelet does not own, given twice with two statuses.
// Comparing the conditions by type alone fails it, and so does skipping
// the conditions the kubelet does not own.
func TestOwnStatusDiffers(t *testing.T) {
	k := &Kubelet{}
	cond := func(typ api.PodConditionType, st api.ConditionStatus) api.PodCondition {
		return api.PodCondition{Type: typ, Status: st}
	}
	own := func() []api.PodCondition {
		return []api.PodCondition{
			cond(api.PodReadyToStartContainers, api.ConditionTrue), cond(api.PodInitialized, api.ConditionTrue),
			cond(api.PodReady, api.ConditionFalse), cond(api.ContainersReady, api.ConditionFalse), cond(api.PodScheduled, api.ConditionTrue),
		}
	}
	gate := api.PodConditionType("example.com/gate")
	tests := []struct {
		name  string
		phase api.PodPhase
		edit  func(c []api.PodCondition) []api.PodCondition
	}{
		{"the same", api.PodPending, func(c []api.PodCondition) []api.PodCondition { return c }},
		{"another phase", api.PodRunning, func(c []api.PodCondition) []api.PodCondition { return c }},
		{"a condition's status", api.PodPending, func(c []api.PodCondition) []api.PodCondition {
			c[2].Status = api.ConditionTrue
			return c
		}},
		{"a condition missing", api.PodPending, func(c []api.PodCondition) []api.PodCondition { return c[1:] }},
		{"the conditions in another order", api.PodPending, func(c []api.PodCondition) []api.PodCondition {
			c[0], c[4] = c[4], c[0]
			return c
		}},
		{"a gate's condition", api.PodPending, func(c []api.PodCondition) []api.PodCondition {
			return append(c, cond(gate, api.ConditionFalse))
		}},
		{"a gate's condition twice, two statuses", api.PodPending, func(c []api.PodCondition) []api.PodCondition {
			return append(c, cond(gate, api.ConditionFalse), cond(gate, api.ConditionTrue))
		}},
		{"an owned condition twice, two statuses", api.PodPending, func(c []api.PodCondition) []api.PodCondition {
			return append(c, cond(api.PodReady, api.ConditionTrue))
		}},
		{"an owned condition twice, the first other", api.PodPending, func(c []api.PodCondition) []api.PodCondition {
			return append([]api.PodCondition{cond(api.PodReady, api.ConditionTrue)}, c...)
		}},
	}
	want := map[string]bool{}
	for _, tc := range tests {
		stored := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}, Status: api.PodStatus{Phase: tc.phase, Conditions: tc.edit(own())}}
		ps := &podState{pod: stored}
		for i, c := range own() {
			ps.conds[i].status = c.Status
		}
		got := k.ownStatusDiffers(&stored.Status, ps)
		built := statusDiffers(&stored.Status, k.buildStatus(ps, nil))
		if got != built {
			t.Errorf("%s: ownStatusDiffers %v, statusDiffers %v", tc.name, got, built)
		}
		want[tc.name] = got
	}
	// The cases tell both answers apart, so that the test can fail.
	if want["the same"] || !want["another phase"] || !want["a condition's status"] || !want["a gate's condition twice, two statuses"] {
		t.Errorf("answers %v", want)
	}
}
