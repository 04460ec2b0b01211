package api

// ComputePodQOS is the pod's QoS class, as k/k's ComputePodQOS
// (pkg/apis/core/v1/helper/qos; GetPodQOS for a pod whose status has
// none): the kubelet's class for the pods it runs, and kubectl describe's
// for a pod no kubelet has reported. For cpu and memory,
// only positive quantities count. With pod-level resources
// (spec.resources: PodLevelResources, beta and on by default since 1.34)
// they alone decide; otherwise every container and init container does.
// BestEffort when nothing is requested or limited; Guaranteed when cpu
// and memory are limited (every container limiting both) and the summed
// requests equal the summed limits; else Burstable.
func ComputePodQOS(p *Pod) PodQOSClass {
	var req, lim [2]int64 // milli-units of cpu and memory, summed
	var hasReq, hasLim [2]bool
	guaranteed := true
	add := func(r *ResourceRequirements, checkLimits bool) {
		var limited [2]bool
		for i, n := range [2]ResourceName{ResourceCPU, ResourceMemory} {
			if q, ok := r.Requests[n]; ok && q.MilliValue() > 0 {
				req[i] += q.MilliValue()
				hasReq[i] = true
			}
			if q, ok := r.Limits[n]; ok && q.MilliValue() > 0 {
				lim[i] += q.MilliValue()
				hasLim[i], limited[i] = true, true
			}
		}
		if checkLimits && (!limited[0] || !limited[1]) {
			guaranteed = false
		}
	}
	if r := p.Spec.Resources; r != nil {
		add(r, len(r.Limits) > 0) // pod-level limits are checked only when there are some
	} else {
		for i := range p.Spec.Containers {
			add(&p.Spec.Containers[i].Resources, true)
		}
		for i := range p.Spec.InitContainers {
			add(&p.Spec.InitContainers[i].Resources, true)
		}
	}
	if hasReq == [2]bool{} && hasLim == [2]bool{} {
		return PodQOSBestEffort
	}
	for i := range req {
		if hasReq[i] && (!hasLim[i] || lim[i] != req[i]) {
			guaranteed = false
		}
	}
	if guaranteed && hasReq == hasLim {
		return PodQOSGuaranteed
	}
	return PodQOSBurstable
}
