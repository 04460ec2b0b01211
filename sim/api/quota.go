package api

import (
	"slices"
	"strings"
)

// Quota resource names beyond the compute ones (k8s.io/api core/v1
// types.go): the legacy object counts and the storage a claim requests.
const (
	// ResourceSecrets is a quota on the number of Secrets.
	ResourceSecrets ResourceName = "secrets"
	// ResourcePersistentVolumeClaims is a quota on the number of claims.
	ResourcePersistentVolumeClaims ResourceName = "persistentvolumeclaims"
	// ResourceServicesNodePorts is a quota on the node ports Services
	// allocate.
	ResourceServicesNodePorts ResourceName = "services.nodeports"
	// ResourceServicesLoadBalancers is a quota on LoadBalancer Services.
	ResourceServicesLoadBalancers ResourceName = "services.loadbalancers"
	// ResourceRequestsStorage is a quota on the storage claims request.
	ResourceRequestsStorage ResourceName = "requests.storage"
	// storageClassQuotaSuffix joins a class's name to a per-class quota
	// resource: "<class>.storageclass.storage.k8s.io/requests.storage".
	storageClassQuotaSuffix = ".storageclass.storage.k8s.io/"
	// requestsPrefix is DefaultResourceRequestsPrefix.
	requestsPrefix = "requests."
)

// QuotaUsage returns what an object counts against quota, as upstream's
// quota evaluators (k/k pkg/quota/v1/evaluator/core) measure it: every
// object its count/<resource>, and the legacy counts (services,
// configmaps, secrets, persistentvolumeclaims, resourcequotas); a
// Service its services.nodeports and services.loadbalancers; a claim
// its requests.storage and the per-class
// <class>.storageclass.storage.k8s.io/ resources; a pod that is not
// finished pods and its compute resources (PodRequestsAndLimits:
// sidecars, overhead and pod-level resources included;
// ephemeral-storage; hugepages; requests.<name> of extended resources).
// A finished pod counts only in count/pods, which tracks every pod in
// storage. (Upstream also stops charging a pod whose deletion grace
// period has run out; that needs a clock: the resource quota controller
// does it, controllers/resourcequota pastGrace.)
func QuotaUsage(o Object) ResourceList {
	info, ok := Lookup(KindOf(o))
	if !ok {
		return nil
	}
	one := NewQuantity(1, DecimalSI)
	u := ResourceList{ObjectCountResource(info.GroupResource()): one}
	switch o := o.(type) {
	case *Service:
		u[ResourceServices] = one
		ports := NewQuantity(int64(len(o.Spec.Ports)), DecimalSI)
		switch o.Spec.Type {
		case ServiceTypeNodePort:
			u[ResourceServicesNodePorts] = ports
		case ServiceTypeLoadBalancer:
			if a := o.Spec.AllocateLoadBalancerNodePorts; a == nil || *a {
				u[ResourceServicesNodePorts] = ports
			}
			u[ResourceServicesLoadBalancers] = one
		}
	case *ConfigMap:
		u[ResourceConfigMaps] = one
	case *Secret:
		u[ResourceSecrets] = one
	case *ResourceQuota:
		u[ResourceQuotas] = one
	case *PersistentVolumeClaim:
		claimUsage(u, o)
	case *Pod:
		podUsage(u, o)
	}
	return u
}

// claimUsage adds a claim's usage (k/k persistent_volume_claims.go
// Usage): the claim, its requested storage (or the larger allocated
// storage) and both again under its class's name.
func claimUsage(u ResourceList, c *PersistentVolumeClaim) {
	one := NewQuantity(1, DecimalSI)
	u[ResourcePersistentVolumeClaims] = one
	class := c.Annotations["volume.beta.kubernetes.io/storage-class"]
	if class == "" && c.Spec.StorageClassName != nil {
		class = *c.Spec.StorageClassName
	}
	if class != "" {
		u[ResourceName(class+storageClassQuotaSuffix+string(ResourcePersistentVolumeClaims))] = one
	}
	req, ok := c.Spec.Resources.Requests[ResourceStorage]
	if alloc, found := c.Status.AllocatedResources[ResourceStorage]; found && (!ok || alloc.Cmp(req) > 0) {
		req, ok = alloc, true
	}
	if !ok {
		return
	}
	u[ResourceRequestsStorage] = req
	if class != "" {
		u[ResourceName(class+storageClassQuotaSuffix+string(ResourceRequestsStorage))] = req
	}
}

// podUsage adds a pod's compute usage (k/k pods.go PodUsageFunc and
// podComputeUsageHelper) unless it has finished.
func podUsage(u ResourceList, pod *Pod) {
	if pod.Status.Phase == PodSucceeded || pod.Status.Phase == PodFailed {
		return
	}
	req, lim := PodRequestsAndLimits(&pod.Spec)
	for k, v := range podComputeUsage(req, lim) {
		u[k] = v
	}
}

// podComputeUsage is upstream's podComputeUsageHelper: the quota
// resources that requests and limits (of a pod, or of one container)
// charge.
func podComputeUsage(req, lim ResourceList) ResourceList {
	u := ResourceList{ResourcePods: NewQuantity(1, DecimalSI)}
	for _, r := range []struct {
		from ResourceList
		res  ResourceName
		as   []ResourceName
	}{
		{req, ResourceCPU, []ResourceName{ResourceCPU, ResourceRequestsCPU}},
		{lim, ResourceCPU, []ResourceName{ResourceLimitsCPU}},
		{req, ResourceMemory, []ResourceName{ResourceMemory, ResourceRequestsMemory}},
		{lim, ResourceMemory, []ResourceName{ResourceLimitsMemory}},
		{req, ResourceEphemeralStorage, []ResourceName{ResourceEphemeralStorage, ResourceRequestsEphemeralStorage}},
		{lim, ResourceEphemeralStorage, []ResourceName{ResourceLimitsEphemeralStorage}},
	} {
		if q, ok := r.from[r.res]; ok {
			for _, name := range r.as {
				u[name] = q
			}
		}
	}
	for name, q := range req {
		switch {
		case strings.HasPrefix(string(name), "hugepages-"):
			u[name] = q
			u[requestsPrefix+name] = q
		case isExtendedResource(name):
			u[requestsPrefix+name] = q
		}
	}
	return u
}

// isExtendedResource is upstream's IsExtendedResourceName: a name outside
// kubernetes.io that is not a quota name ("requests." prefixed), such as
// nvidia.com/gpu.
func isExtendedResource(name ResourceName) bool {
	return !IsNativeResource(name) && !strings.HasPrefix(string(name), requestsPrefix)
}

// IsNativeResource is upstream's IsNativeResource (k/k
// pkg/apis/core/helper): a name without a "/", or one in kubernetes.io.
func IsNativeResource(name ResourceName) bool {
	s := string(name)
	return !strings.Contains(s, "/") || strings.Contains(s, "kubernetes.io/")
}

// PodRequestsAndLimits returns a pod's requests and limits as upstream's
// resource helpers compute them (k8s.io/component-helpers resource
// PodRequests and PodLimits, for the quota evaluator and kubectl
// describe): the containers' sum plus every sidecar (an init container
// with restartPolicy Always), or the largest of what each init container
// needs beside the sidecars started before it when that is more; the
// pod-level resources (spec.resources, cpu, memory and hugepages) in
// place of that sum where set; then the overhead, added to every request
// and to the limits that are set and not zero.
func PodRequestsAndLimits(spec *PodSpec) (req, lim ResourceList) {
	req, lim = AggregateContainers(spec)
	PodLevel(spec, req, lim)
	for _, name := range spec.Overhead.SortedNames() {
		q := req[name]
		q.Add(spec.Overhead[name])
		req[name] = q
		if l, ok := lim[name]; ok && !l.IsZero() {
			l.Add(spec.Overhead[name])
			lim[name] = l
		}
	}
	return req, lim
}

// AggregateContainers returns the requests and limits of a pod's
// containers as upstream sums them (component-helpers
// AggregateContainerRequests and AggregateContainerLimits): the
// containers plus every sidecar, or what the largest init container needs
// beside the sidecars before it; no pod-level resources, no overhead.
func AggregateContainers(spec *PodSpec) (req, lim ResourceList) {
	return aggregateContainers(spec, func(c *Container) ResourceList { return c.Resources.Requests }),
		aggregateContainers(spec, func(c *Container) ResourceList { return c.Resources.Limits })
}

// aggregateContainers is upstream's aggregateContainerResourcesByFn over
// the spec's requests or limits (list picks which).
func aggregateContainers(spec *PodSpec, list func(*Container) ResourceList) ResourceList {
	out := ResourceList{}
	for i := range spec.Containers {
		addList(out, list(&spec.Containers[i]))
	}
	sidecars, inits := ResourceList{}, ResourceList{}
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		if c.RestartPolicy != nil && *c.RestartPolicy == ContainerRestartPolicyAlways {
			addList(out, list(c))
			addList(sidecars, list(c))
			maxList(inits, sidecars)
			continue
		}
		need := ResourceList{}
		addList(need, list(c))
		addList(need, sidecars)
		maxList(inits, need)
	}
	maxList(out, inits)
	return out
}

// PodLevel puts the pod-level requests and limits (spec.resources) that
// upstream supports there (IsSupportedPodLevelResource: cpu, memory,
// hugepages-*) in place of the containers' aggregate req and lim.
func PodLevel(spec *PodSpec, req, lim ResourceList) {
	if r := spec.Resources; r != nil {
		podLevel(req, r.Requests)
		podLevel(lim, r.Limits)
	}
}

func podLevel(dst, pod ResourceList) {
	for name, q := range pod {
		if name == ResourceCPU || name == ResourceMemory || strings.HasPrefix(string(name), "hugepages-") {
			dst[name] = q
		}
	}
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

// QuotaCountedKind returns the kind whose objects quota resource name
// counts, for the names of objects other than pods: count/<resource>
// (count/<resource>.<group> outside the core group) of a built-in kind,
// the legacy counts, and a claim's storage resources.
func QuotaCountedKind(name ResourceName) (Kind, bool) {
	s := string(name)
	switch {
	case name == ResourceServices || name == ResourceServicesNodePorts || name == ResourceServicesLoadBalancers:
		return KindService, true
	case name == ResourceConfigMaps:
		return KindConfigMap, true
	case name == ResourceSecrets:
		return KindSecret, true
	case name == ResourceQuotas:
		return KindResourceQuota, true
	case name == ResourcePersistentVolumeClaims || name == ResourceRequestsStorage || strings.Contains(s, storageClassQuotaSuffix):
		return KindPersistentVolumeClaim, true
	}
	gr, ok := strings.CutPrefix(s, "count/")
	if !ok {
		return Kind{}, false
	}
	for _, k := range Kinds() {
		if info, _ := Lookup(k); info.GroupResource() == gr {
			return k, true
		}
	}
	return Kind{}, false
}

// The quota scopes (k8s.io/api core/v1 types.go).
const (
	ResourceQuotaScopeTerminating               ResourceQuotaScope = "Terminating"
	ResourceQuotaScopeNotTerminating            ResourceQuotaScope = "NotTerminating"
	ResourceQuotaScopeBestEffort                ResourceQuotaScope = "BestEffort"
	ResourceQuotaScopeNotBestEffort             ResourceQuotaScope = "NotBestEffort"
	ResourceQuotaScopePriorityClass             ResourceQuotaScope = "PriorityClass"
	ResourceQuotaScopeCrossNamespacePodAffinity ResourceQuotaScope = "CrossNamespacePodAffinity"
	ResourceQuotaScopeVolumeAttributesClass     ResourceQuotaScope = "VolumeAttributesClass"
)

// QuotaScopeSelectors returns a quota's scopes and scope selector as one
// list of expressions, each scope of spec.scopes as an Exists expression
// (upstream's getScopeSelectorsFromQuota).
func QuotaScopeSelectors(q *ResourceQuota) []ScopedResourceSelectorRequirement {
	var out []ScopedResourceSelectorRequirement
	for _, s := range q.Spec.Scopes {
		out = append(out, ScopedResourceSelectorRequirement{ScopeName: s, Operator: ScopeSelectorOpExists})
	}
	if sel := q.Spec.ScopeSelector; sel != nil {
		out = append(out, sel.MatchExpressions...)
	}
	return out
}

// QuotaScopesMatch reports whether o is in every scope of q (true for a
// quota without scopes), as upstream's evaluators match scopes: a pod by
// its activeDeadlineSeconds (Terminating), QoS class (BestEffort),
// priorityClassName (PriorityClass) and namespaced pod affinity terms
// (CrossNamespacePodAffinity); a claim by its volume attributes class
// (VolumeAttributesClass); any other object by no scope.
func QuotaScopesMatch(q *ResourceQuota, o Object) bool {
	for _, sel := range QuotaScopeSelectors(q) {
		if !scopeMatches(sel, o) {
			return false
		}
	}
	return true
}

// scopeMatches is one expression of QuotaScopesMatch.
func scopeMatches(sel ScopedResourceSelectorRequirement, o Object) bool {
	switch o := o.(type) {
	case *Pod:
		spec := &o.Spec
		switch sel.ScopeName {
		case ResourceQuotaScopeTerminating:
			return spec.ActiveDeadlineSeconds != nil && *spec.ActiveDeadlineSeconds >= 0
		case ResourceQuotaScopeNotTerminating:
			return spec.ActiveDeadlineSeconds == nil || *spec.ActiveDeadlineSeconds < 0
		case ResourceQuotaScopeBestEffort:
			return bestEffort(spec)
		case ResourceQuotaScopeNotBestEffort:
			return !bestEffort(spec)
		case ResourceQuotaScopePriorityClass:
			return valueMatches(sel, spec.PriorityClassName)
		case ResourceQuotaScopeCrossNamespacePodAffinity:
			return crossNamespaceAffinity(spec.Affinity)
		}
	case *PersistentVolumeClaim:
		if sel.ScopeName == ResourceQuotaScopeVolumeAttributesClass {
			name := ""
			if c := o.Spec.VolumeAttributesClassName; c != nil {
				name = *c
			}
			return valueMatches(sel, name)
		}
	}
	return false
}

// valueMatches matches a scope expression against the one value an
// object has for its scope ("" for none), as a label selector matches
// the label set {scope: value} (empty when value is "").
func valueMatches(sel ScopedResourceSelectorRequirement, value string) bool {
	switch sel.Operator {
	case ScopeSelectorOpExists:
		return value != ""
	case ScopeSelectorOpDoesNotExist:
		return value == ""
	case ScopeSelectorOpIn:
		return value != "" && slices.Contains(sel.Values, value)
	case ScopeSelectorOpNotIn:
		return value == "" || !slices.Contains(sel.Values, value)
	}
	return false
}

// bestEffort reports whether a pod is of the BestEffort QoS class
// (k/k qos.GetPodQOS): no container, init container or pod-level
// resources request or limit a positive amount of cpu or memory.
func bestEffort(spec *PodSpec) bool {
	positive := func(l ResourceList) bool {
		for _, n := range []ResourceName{ResourceCPU, ResourceMemory} {
			if q, ok := l[n]; ok && q.MilliValue() > 0 {
				return true
			}
		}
		return false
	}
	if r := spec.Resources; r != nil && (positive(r.Requests) || positive(r.Limits)) {
		return false
	}
	for _, cs := range [][]Container{spec.InitContainers, spec.Containers} {
		for i := range cs {
			if positive(cs[i].Resources.Requests) || positive(cs[i].Resources.Limits) {
				return false
			}
		}
	}
	return true
}

// crossNamespaceAffinity reports whether a pod (anti-)affinity term
// names namespaces or a namespace selector (upstream's
// usesCrossNamespacePodAffinity).
func crossNamespaceAffinity(a *Affinity) bool {
	if a == nil {
		return false
	}
	cross := func(req []PodAffinityTerm, pref []WeightedPodAffinityTerm) bool {
		for i := range req {
			if len(req[i].Namespaces) > 0 || req[i].NamespaceSelector != nil {
				return true
			}
		}
		for i := range pref {
			if t := &pref[i].PodAffinityTerm; len(t.Namespaces) > 0 || t.NamespaceSelector != nil {
				return true
			}
		}
		return false
	}
	if p := a.PodAffinity; p != nil && cross(p.RequiredDuringSchedulingIgnoredDuringExecution, p.PreferredDuringSchedulingIgnoredDuringExecution) {
		return true
	}
	p := a.PodAntiAffinity
	return p != nil && cross(p.RequiredDuringSchedulingIgnoredDuringExecution, p.PreferredDuringSchedulingIgnoredDuringExecution)
}
