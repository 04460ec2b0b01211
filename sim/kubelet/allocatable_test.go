package kubelet

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestNodeAllocatable checks capacity minus reservations and hard
// eviction thresholds, the arithmetic k/k's
// TestNodeAllocatableReservationForScheduling
// (pkg/kubelet/cm/node_container_manager_linux_test.go) checks; the rows
// are ours.
func TestNodeAllocatable(t *testing.T) {
	q := api.MustParseQuantity
	capacity := api.ResourceList{api.ResourceCPU: q("10"), api.ResourceMemory: q("10Gi"), api.ResourceEphemeralStorage: q("100Gi"), api.ResourcePods: q("110")}
	tests := []struct {
		name           string
		kube, system   api.ResourceList
		eviction       map[string]string
		cpu, mem, disk string
		err            bool
	}{
		{"nothing reserved", nil, nil, nil, "10", "10Gi", "100Gi", false},
		{"kube and system reserved", api.ResourceList{api.ResourceCPU: q("100m"), api.ResourceMemory: q("100Mi")},
			api.ResourceList{api.ResourceCPU: q("50m"), api.ResourceMemory: q("50Mi")}, nil, "9850m", "10090Mi", "100Gi", false},
		{"hard eviction memory.available", nil, nil, map[string]string{SignalMemoryAvailable: "100Mi"}, "10", "10140Mi", "100Gi", false},
		{"percentage of nodefs", nil, nil, map[string]string{SignalNodeFsAvailable: "10%"}, "10", "10Gi", "90Gi", false},
		{"reservation above capacity clamps to zero", api.ResourceList{api.ResourceCPU: q("20")}, nil, nil, "0", "10Gi", "100Gi", false},
		{"unknown signal", nil, nil, map[string]string{"pid.available": "10"}, "", "", "", true},
		{"pods are not reservable", api.ResourceList{api.ResourcePods: q("10")}, nil, nil, "", "", "", true},
		// NaN passed a range check written as f < 0 || f > 100, and
		// int64(NaN) is what the machine makes of it (MinInt64 on amd64:
		// a memory allocatable of 2^63-1 milli-bytes).
		{"NaN percentage", nil, nil, map[string]string{SignalMemoryAvailable: "NaN%"}, "", "", "", true},
		{"negative percentage", nil, nil, map[string]string{SignalMemoryAvailable: "-5%"}, "", "", "", true},
		// A negative threshold gave the node more than its capacity; the
		// kubelet refuses it ("must be positive").
		{"negative threshold", nil, nil, map[string]string{SignalMemoryAvailable: "-100Mi"}, "", "", "", true},
		{"negative nodefs threshold", nil, nil, map[string]string{SignalNodeFsAvailable: "-1"}, "", "", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NodeAllocatable(capacity, tc.kube, tc.system, tc.eviction)
			if tc.err {
				if err == nil {
					t.Fatalf("no error, got %v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for name, want := range map[api.ResourceName]string{api.ResourceCPU: tc.cpu, api.ResourceMemory: tc.mem, api.ResourceEphemeralStorage: tc.disk} {
				if g := got[name]; !g.Equal(q(want)) {
					t.Errorf("%s = %s, want %s", name, g.String(), want)
				}
			}
			if g := got[api.ResourcePods]; !g.Equal(q("110")) {
				t.Errorf("pods = %s", g.String())
			}
		})
	}
}
