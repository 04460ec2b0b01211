package api

import (
	"testing"
)

// TestComputePodQOS is k/k's TestComputePodQOS
// (pkg/apis/core/v1/helper/qos/qos_test.go, with the PodLevelResources
// rows, the feature on as it is by default since 1.34), row by row: same
// names, inputs and classes. Planted: the kubelet's former qosClass (any quantity,
// zero too, counting as set; requests and limits compared container by
// container; pod-level resources ignored) fails five rows: "BestEffort
// Container With HugePages" (Guaranteed), "Guaranteed Pod-Level
// Resources" (BestEffort), "Guaranteed Pod and Container-Level Resources"
// (Burstable), "Burstable Pod-Level Resources" (BestEffort) and
// "Burstable Pod and Container-Level Resources" (Guaranteed).
func TestComputePodQOS(t *testing.T) {
	rl := func(cpu, memory string) ResourceList {
		res := ResourceList{}
		if cpu != "" {
			res[ResourceCPU] = MustParseQuantity(cpu)
		}
		if memory != "" {
			res[ResourceMemory] = MustParseQuantity(memory)
		}
		return res
	}
	addResource := func(name, value string, l ResourceList) ResourceList {
		l[ResourceName(name)] = MustParseQuantity(value)
		return l
	}
	ctr := func(name string, requests, limits ResourceList) Container {
		return Container{Name: name, Resources: ResourceRequirements{Requests: requests, Limits: limits}}
	}
	pod := func(containers ...Container) *Pod {
		return &Pod{Spec: PodSpec{Containers: containers}}
	}
	withInit := func(containers, inits []Container) *Pod {
		return &Pod{Spec: PodSpec{Containers: containers, InitContainers: inits}}
	}
	withResources := func(p *Pod, requests, limits ResourceList) *Pod {
		p.Spec.Resources = &ResourceRequirements{Requests: requests, Limits: limits}
		return p
	}
	tests := []struct {
		name string
		pod  *Pod
		want PodQOSClass
	}{
		{"Single Guaranteed Container", pod(ctr("guaranteed", rl("100m", "100Mi"), rl("100m", "100Mi"))), PodQOSGuaranteed},
		{"Two Guaranteed Containers", pod(ctr("guaranteed", rl("100m", "100Mi"), rl("100m", "100Mi")), ctr("guaranteed", rl("100m", "100Mi"), rl("100m", "100Mi"))), PodQOSGuaranteed},
		{"Two BestEffort Containers", pod(ctr("best-effort", rl("", ""), rl("", "")), ctr("best-effort", rl("", ""), rl("", ""))), PodQOSBestEffort},
		{"Single BestEffort Container", pod(ctr("best-effort", rl("", ""), rl("", ""))), PodQOSBestEffort},
		{"BestEffort and Burstable Containers", pod(ctr("best-effort", rl("", ""), rl("", "")), ctr("burstable", rl("1", ""), rl("2", ""))), PodQOSBurstable},
		{"BestEffort and Guaranteed Containers", pod(ctr("best-effort", rl("", ""), rl("", "")), ctr("guaranteed", rl("10m", "100Mi"), rl("10m", "100Mi"))), PodQOSBurstable},
		{"Burstable CPU, Guaranteed Memory", pod(ctr("burstable", rl("", "100Mi"), rl("", "100Mi"))), PodQOSBurstable},
		{"Burstable Without Limits", pod(ctr("burstable", rl("100m", "100Mi"), rl("", ""))), PodQOSBurstable},
		{"Burstable and Guaranteed Containers", pod(ctr("burstable", rl("1", "100Mi"), rl("2", "100Mi")), ctr("guaranteed", rl("100m", "100Mi"), rl("100m", "100Mi"))), PodQOSBurstable},
		{"Burstable Containers With Unbounded But Requests Match Limits", pod(ctr("burstable", rl("100m", "100Mi"), rl("200m", "200Mi")), ctr("burstable-unbounded", rl("100m", "100Mi"), rl("", ""))), PodQOSBurstable},
		{"Burstable Container 1", pod(ctr("burstable", rl("10m", "100Mi"), rl("100m", "200Mi"))), PodQOSBurstable},
		{"Burstable Container 2", pod(ctr("burstable", rl("0", "0"), rl("100m", "200Mi"))), PodQOSBurstable},
		{"BestEffort Container With HugePages", pod(ctr("best-effort", addResource("hugepages-2Mi", "1Gi", rl("0", "0")), addResource("hugepages-2Mi", "1Gi", rl("0", "0")))), PodQOSBestEffort},
		{"Init Container with BestEffort Main and Burstable Init", withInit([]Container{ctr("best-effort", rl("", ""), rl("", ""))}, []Container{ctr("burstable", rl("10m", "100Mi"), rl("100m", "200Mi"))}), PodQOSBurstable},
		{"Guaranteed Pod-Level Resources", withResources(pod(ctr("best-effort", rl("", ""), rl("", ""))), rl("10m", "100Mi"), rl("10m", "100Mi")), PodQOSGuaranteed},
		{"Guaranteed Pod and Container-Level Resources", withResources(pod(ctr("burstable", rl("3m", "10Mi"), rl("5m", "20Mi"))), rl("10m", "100Mi"), rl("10m", "100Mi")), PodQOSGuaranteed},
		{"Burstable Pod-Level Resources", withResources(pod(ctr("best-effort", rl("", ""), rl("", ""))), rl("10m", "10Mi"), rl("20m", "50Mi")), PodQOSBurstable},
		{"Burstable Pod and Container-Level Resources", withResources(pod(ctr("burstable", rl("5m", "10Mi"), rl("5m", "10Mi"))), rl("10m", "10Mi"), rl("20m", "50Mi")), PodQOSBurstable},
		{"Burstable Pod and Container-Level Requests", withResources(pod(ctr("burstable", rl("5m", "10Mi"), rl("", ""))), rl("10m", "10Mi"), rl("", "")), PodQOSBurstable},
		{"Burstable Pod and Container-Level Resources 2", withResources(pod(ctr("burstable", rl("5m", "10Mi"), rl("", "")), ctr("guaranteed", rl("5m", "10Mi"), rl("5m", "10Mi"))), rl("10m", "10Mi"), rl("5m", "")), PodQOSBurstable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ComputePodQOS(tt.pod); got != tt.want {
				t.Fatalf("qosClass = %s, want %s", got, tt.want)
			}
		})
	}
}
