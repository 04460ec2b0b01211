package api

// QuotaUsage returns what an object counts against quota: for a pod (that is
// not finished) pods, count/pods, and its cpu and memory requests and
// limits; for other objects their object count (count/<resource>, and the
// legacy names services, configmaps, resourcequotas).
func QuotaUsage(o Object) ResourceList {
	info, ok := Lookup(KindOf(o))
	if !ok {
		return nil
	}
	one := MustParseQuantity("1")
	u := ResourceList{ObjectCountResource(info.GroupResource()): one}
	switch info.Kind {
	case KindService:
		u[ResourceServices] = one
	case KindConfigMap:
		u[ResourceConfigMaps] = one
	case KindResourceQuota:
		u[ResourceQuotas] = one
	}
	pod, isPod := o.(*Pod)
	if !isPod {
		return u
	}
	if pod.Status.Phase == PodSucceeded || pod.Status.Phase == PodFailed {
		return ResourceList{}
	}
	u[ResourcePods] = one
	req, lim := PodRequestsAndLimits(&pod.Spec)
	for _, r := range []struct {
		from ResourceList
		res  ResourceName
		as   []ResourceName
	}{
		{req, ResourceCPU, []ResourceName{ResourceRequestsCPU, ResourceCPU}},
		{req, ResourceMemory, []ResourceName{ResourceRequestsMemory, ResourceMemory}},
		{lim, ResourceCPU, []ResourceName{ResourceLimitsCPU}},
		{lim, ResourceMemory, []ResourceName{ResourceLimitsMemory}},
	} {
		if q, ok := r.from[r.res]; ok {
			for _, name := range r.as {
				u[name] = q
			}
		}
	}
	return u
}

// PodRequestsAndLimits sums the containers' requests and limits, taking
// for each resource the larger of that sum and any init container's.
func PodRequestsAndLimits(spec *PodSpec) (req, lim ResourceList) {
	req, lim = ResourceList{}, ResourceList{}
	for _, c := range spec.Containers {
		addList(req, c.Resources.Requests)
		addList(lim, c.Resources.Limits)
	}
	for _, c := range spec.InitContainers {
		maxList(req, c.Resources.Requests)
		maxList(lim, c.Resources.Limits)
	}
	return req, lim
}

func addList(dst, src ResourceList) {
	for _, r := range src.SortedNames() {
		q := dst[r]
		q.Add(src[r])
		dst[r] = q
	}
}

func maxList(dst, src ResourceList) {
	for _, r := range src.SortedNames() {
		if cur, ok := dst[r]; !ok || src[r].Cmp(cur) > 0 {
			dst[r] = src[r]
		}
	}
}
