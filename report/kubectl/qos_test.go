package kubectl

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestDescribeQOSClass: describe prints the status's class when the
// kubelet reported one, else the class api.ComputePodQOS computes, the
// kubelet's own rule (one copy: describe kept a second, which counted
// neither pod-level resources nor sums).
func TestDescribeQOSClass(t *testing.T) {
	rl := func(cpu, memory string) api.ResourceList {
		return api.ResourceList{api.ResourceCPU: api.MustParseQuantity(cpu), api.ResourceMemory: api.MustParseQuantity(memory)}
	}
	podLevel := &api.Pod{Spec: api.PodSpec{
		Resources:  &api.ResourceRequirements{Requests: rl("1", "1Gi"), Limits: rl("1", "1Gi")},
		Containers: []api.Container{{Name: "c"}},
	}}
	reported := podLevel.DeepCopyObject().(*api.Pod)
	reported.Status.QOSClass = api.PodQOSBurstable
	zero := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: rl("0", "0")}}}}}
	for _, tc := range []struct {
		name string
		pod  *api.Pod
		want api.PodQOSClass
	}{
		{"pod-level resources, no status", podLevel, api.PodQOSGuaranteed},
		{"the status's class wins", reported, api.PodQOSBurstable},
		{"zero requests are none", zero, api.PodQOSBestEffort},
	} {
		if got := qosClass(tc.pod); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}
