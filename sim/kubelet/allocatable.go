package kubelet

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// Hard eviction signals that reserve node resources
// (k/k pkg/kubelet/eviction/api/types.go).
const (
	// SignalMemoryAvailable reserves memory.
	SignalMemoryAvailable = "memory.available"
	// SignalNodeFsAvailable reserves ephemeral-storage.
	SignalNodeFsAvailable = "nodefs.available"
)

// NodeAllocatable is what the kubelet reports as status.allocatable:
// capacity minus kube-reserved, system-reserved and the hard eviction
// thresholds (memory.available from memory, nodefs.available from
// ephemeral-storage, each a quantity or a percentage of the capacity),
// never below zero (k/k pkg/kubelet/cm/node_container_manager_linux.go
// getNodeAllocatableAbsoluteImpl, hardEvictionReservation). The kubelet's
// default evictionHard has memory.available 100Mi; a nil evictionHard
// here reserves nothing, and callers pass the default they want. An error
// names the bad key.
func NodeAllocatable(capacity, kubeReserved, systemReserved api.ResourceList, evictionHard map[string]string) (api.ResourceList, error) {
	for _, r := range []api.ResourceList{kubeReserved, systemReserved} {
		for name := range r {
			if _, ok := capacity[name]; !ok || name == api.ResourcePods {
				return nil, fmt.Errorf("%s: not a reservable resource of the node", name)
			}
		}
	}
	out := capacity.DeepCopy()
	sub := func(name api.ResourceName, q api.Quantity) {
		v, ok := out[name]
		if !ok {
			return
		}
		v.Sub(q)
		if v.Cmp(api.Quantity{}) < 0 {
			v = api.Quantity{}
		}
		out[name] = v
	}
	for _, r := range []api.ResourceList{kubeReserved, systemReserved} {
		for _, name := range r.SortedNames() {
			sub(name, r[name])
		}
	}
	keys := make([]string, 0, len(evictionHard))
	for k := range evictionHard {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, signal := range keys {
		var res api.ResourceName
		switch signal {
		case SignalMemoryAvailable:
			res = api.ResourceMemory
		case SignalNodeFsAvailable:
			res = api.ResourceEphemeralStorage
		default:
			return nil, fmt.Errorf("%s: unknown or unmodelled eviction signal (memory.available, nodefs.available)", signal)
		}
		v := evictionHard[signal]
		var q api.Quantity
		if p, ok := strings.CutSuffix(v, "%"); ok {
			f, err := strconv.ParseFloat(p, 64)
			// Written so that NaN fails too: int64 of NaN is whatever
			// the machine makes of it.
			if err != nil || !(f >= 0 && f <= 100) {
				return nil, fmt.Errorf("%s: %q is not a percentage", signal, v)
			}
			c := capacity[res]
			q = api.NewQuantity(int64(f/100*float64(c.Value())), api.BinarySI)
		} else {
			var err error
			if q, err = api.ParseQuantity(v); err != nil {
				return nil, fmt.Errorf("%s: %v", signal, err)
			}
			// The kubelet refuses it (k/k pkg/kubelet/eviction/api
			// parseThresholdStatement); here it would add to the capacity.
			if q.Cmp(api.Quantity{}) < 0 {
				return nil, fmt.Errorf("%s: eviction threshold must not be negative: %s", signal, q.String())
			}
		}
		sub(res, q)
	}
	return out, nil
}
