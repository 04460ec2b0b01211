package apiserver

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestLimitRanger follows upstream's TestPodLimitFunc and
// TestDefaultContainerResourceRequirements (k/k
// plugin/pkg/admission/limitranger/admission_test.go): defaults fill only
// what a container leaves out, constraints reject with upstream's
// messages, in resource name order.
func TestLimitRanger(t *testing.T) {
	q := api.MustParseQuantity
	rl := func(kv ...string) api.ResourceList {
		out := api.ResourceList{}
		for i := 0; i < len(kv); i += 2 {
			out[api.ResourceName(kv[i])] = q(kv[i+1])
		}
		return out
	}
	pod := func(req, lim api.ResourceList) *api.Pod {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
			Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Image: "nginx", Resources: api.ResourceRequirements{Requests: req, Limits: lim}}}}}
	}
	container := api.LimitRangeItem{Type: api.LimitTypeContainer, Min: rl("cpu", "100m", "memory", "64Mi"), Max: rl("cpu", "1", "memory", "1Gi"),
		Default: rl("cpu", "500m", "memory", "256Mi"), DefaultRequest: rl("cpu", "200m", "memory", "128Mi")}
	always := api.ContainerRestartPolicyAlways
	tests := []struct {
		name    string
		items   []api.LimitRangeItem
		pod     *api.Pod
		wantReq api.ResourceList
		wantLim api.ResourceList
		wantErr string
	}{
		{"defaults fill a pod without resources", []api.LimitRangeItem{container}, pod(nil, nil),
			rl("cpu", "200m", "memory", "128Mi"), rl("cpu", "500m", "memory", "256Mi"), ""},
		{"given values are kept", []api.LimitRangeItem{container}, pod(rl("cpu", "300m"), rl("cpu", "800m")),
			rl("cpu", "300m", "memory", "128Mi"), rl("cpu", "800m", "memory", "256Mi"), ""},
		{"over the max limit", []api.LimitRangeItem{container}, pod(rl("cpu", "300m"), rl("cpu", "2")), nil, nil,
			`pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2`},
		{"under the min request, over the max memory", []api.LimitRangeItem{container}, pod(rl("cpu", "50m", "memory", "64Mi"), rl("cpu", "500m", "memory", "2Gi")), nil, nil,
			`pods "p" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum memory usage per Container is 1Gi, but limit is 2Gi]`},
		{"pod max over the sum", []api.LimitRangeItem{{Type: api.LimitTypePod, Max: rl("cpu", "1")}},
			&api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{Containers: []api.Container{
				{Name: "a", Resources: api.ResourceRequirements{Limits: rl("cpu", "600m")}}, {Name: "b", Resources: api.ResourceRequirements{Limits: rl("cpu", "600m")}}}}},
			nil, nil, `pods "p" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m`},
		// Upstream's podLimits count a sidecar beside the containers.
		{"pod max over the containers and a sidecar", []api.LimitRangeItem{{Type: api.LimitTypePod, Max: rl("cpu", "2")}},
			&api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{
				InitContainers: []api.Container{{Name: "log", RestartPolicy: &always, Resources: api.ResourceRequirements{Limits: rl("cpu", "1")}}},
				Containers:     []api.Container{{Name: "a", Resources: api.ResourceRequirements{Limits: rl("cpu", "1500m")}}}}},
			nil, nil, `pods "p" is forbidden: maximum cpu usage per Pod is 2, but limit is 2500m`},
		// Pod-level resources stand in for the containers' total.
		{"pod max over the pod-level limit", []api.LimitRangeItem{{Type: api.LimitTypePod, Max: rl("cpu", "2")}},
			&api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{
				Resources:  &api.ResourceRequirements{Limits: rl("cpu", "3")},
				Containers: []api.Container{{Name: "a", Resources: api.ResourceRequirements{Limits: rl("cpu", "500m")}}}}},
			nil, nil, `pods "p" is forbidden: maximum cpu usage per Pod is 2, but limit is 3`},
		// Init containers are containers for a Container item.
		{"an init container over the max", []api.LimitRangeItem{{Type: api.LimitTypeContainer, Max: rl("cpu", "1"), Default: rl(), DefaultRequest: rl()}},
			&api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"}, Spec: api.PodSpec{
				InitContainers: []api.Container{{Name: "migrate", Resources: api.ResourceRequirements{Limits: rl("cpu", "2")}}},
				Containers:     []api.Container{{Name: "a", Resources: api.ResourceRequirements{Limits: rl("cpu", "500m")}}}}},
			nil, nil, `pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2`},
		{"no limit under a max", []api.LimitRangeItem{{Type: api.LimitTypeContainer, Max: rl("memory", "1Gi"), Default: rl(), DefaultRequest: rl()}}, pod(nil, nil), nil, nil,
			`pods "p" is forbidden: maximum memory usage per Container is 1Gi.  No limit is specified`},
		{"ratio", []api.LimitRangeItem{{Type: api.LimitTypeContainer, MaxLimitRequestRatio: rl("cpu", "2")}}, pod(rl("cpu", "100m"), rl("cpu", "500m")), nil, nil,
			`pods "p" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lr := &api.LimitRange{Spec: api.LimitRangeSpec{Limits: tc.items}}
			p := tc.pod
			applyLimitDefaults(p, lr)
			errs := limitErrors(p, lr)
			got := ""
			if len(errs) == 1 {
				got = `pods "p" is forbidden: ` + errs[0]
			} else if len(errs) > 1 {
				got = `pods "p" is forbidden: [` + strings.Join(errs, ", ") + `]`
			}
			if got != tc.wantErr {
				t.Fatalf("got  %s\nwant %s", got, tc.wantErr)
			}
			if tc.wantErr != "" {
				return
			}
			if tc.name == "defaults fill a pod without resources" {
				const want = "LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c"
				if got := p.Annotations[LimitRangerAnnotation]; got != want {
					t.Errorf("annotation %q, want %q", got, want)
				}
			}
			c := p.Spec.Containers[0].Resources
			for k, v := range tc.wantReq {
				if g := c.Requests[k]; g.Cmp(v) != 0 {
					t.Errorf("request %s = %s, want %s", k, g.String(), v.String())
				}
			}
			for k, v := range tc.wantLim {
				if g := c.Limits[k]; g.Cmp(v) != 0 {
					t.Errorf("limit %s = %s, want %s", k, g.String(), v.String())
				}
			}
		})
	}
}
