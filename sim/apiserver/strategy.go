package apiserver

import (
	"slices"

	"github.com/clustersim/clustersim/sim/api"
)

// PrepareForCreate is what a kind's registry does to a created object
// between defaulting and validation, where it matters to validation:
// a Service's clusterIPs are initialised from clusterIP (the service
// storage's normalizeClusterIPs, k/k pkg/registry/core/service/storage).
func PrepareForCreate(obj api.Object) {
	if s, ok := obj.(*api.Service); ok && s.Spec.ClusterIP != "" && len(s.Spec.ClusterIPs) == 0 {
		s.Spec.ClusterIPs = []string{s.Spec.ClusterIP}
	}
}

// prepareForUpdate is the same for an update of the main resource: a
// Service's values the registry allocated and the request left out are
// kept (patchAllocatedValues), clusterIP and clusterIPs are kept in step
// (normalizeClusterIPs), and the fields a type change leaves without use
// are dropped when the request did not change them (the strategy's
// dropTypeDependentFields, k/k pkg/registry/core/service/strategy.go).
func prepareForUpdate(obj, old api.Object) {
	s, ok := obj.(*api.Service)
	was, ok2 := old.(*api.Service)
	if !ok || !ok2 {
		return
	}
	patchAllocatedValues(s, was)
	normalizeClusterIPs(s, was)
	dropTypeDependentFields(s, was)
}

// needsClusterIP: every type but ExternalName.
func needsClusterIP(s *api.Service) bool { return s.Spec.Type != api.ServiceTypeExternalName }

// needsNodePort: NodePort and LoadBalancer.
func needsNodePort(s *api.Service) bool {
	return s.Spec.Type == api.ServiceTypeNodePort || s.Spec.Type == api.ServiceTypeLoadBalancer
}

func patchAllocatedValues(s, old *api.Service) {
	if needsClusterIP(old) && needsClusterIP(s) {
		if s.Spec.ClusterIP == "" {
			s.Spec.ClusterIP = old.Spec.ClusterIP
		}
		if len(s.Spec.ClusterIPs) == 0 && len(old.Spec.ClusterIPs) > 0 {
			s.Spec.ClusterIPs = slices.Clone(old.Spec.ClusterIPs)
		}
	}
	if needsNodePort(old) && needsNodePort(s) {
		used := func(sv *api.Service, p int32) bool {
			return slices.ContainsFunc(sv.Spec.Ports, func(q api.ServicePort) bool { return q.NodePort == p })
		}
		for i := range s.Spec.Ports {
			p := &s.Spec.Ports[i]
			if p.NodePort != 0 {
				continue
			}
			// By name, the last of old's ports of that name, as
			// upstream's map does.
			var was int32
			for _, q := range old.Spec.Ports {
				if q.Name == p.Name {
					was = q.NodePort
				}
			}
			if !(used(old, was) && used(s, was)) {
				p.NodePort = was
			}
		}
	}
	if needsHealthCheck(old) && needsHealthCheck(s) && s.Spec.HealthCheckNodePort == 0 {
		s.Spec.HealthCheckNodePort = old.Spec.HealthCheckNodePort
	}
}

func normalizeClusterIPs(s, old *api.Service) {
	if len(old.Spec.ClusterIPs) > 0 && len(s.Spec.ClusterIPs) == 0 && old.Spec.ClusterIP == s.Spec.ClusterIP {
		// An old client that knows only clusterIP.
		s.Spec.ClusterIPs = slices.Clone(old.Spec.ClusterIPs)
	}
	if old.Spec.ClusterIP == s.Spec.ClusterIP {
		return
	}
	if old.Spec.ClusterIP != "" && s.Spec.ClusterIP == "" {
		// Clearing clusterIP clears both.
		if slices.Equal(old.Spec.ClusterIPs, s.Spec.ClusterIPs) {
			s.Spec.ClusterIPs = nil
		}
		return
	}
	if len(old.Spec.ClusterIPs) > 0 && len(s.Spec.ClusterIPs) > 0 && slices.Equal(old.Spec.ClusterIPs, s.Spec.ClusterIPs) {
		// clusterIP changed, clusterIPs not: validation refuses the
		// change of its first value.
		s.Spec.ClusterIPs = slices.Clone(s.Spec.ClusterIPs)
		s.Spec.ClusterIPs[0] = s.Spec.ClusterIP
	}
}

func dropTypeDependentFields(s, old *api.Service) {
	if needsClusterIP(old) && !needsClusterIP(s) {
		if s.Spec.ClusterIP == old.Spec.ClusterIP && slices.Equal(s.Spec.ClusterIPs, old.Spec.ClusterIPs) {
			s.Spec.ClusterIP, s.Spec.ClusterIPs = "", nil
		}
		if slices.Equal(s.Spec.IPFamilies, old.Spec.IPFamilies) {
			s.Spec.IPFamilies = nil
		}
		if ptrEqual(s.Spec.IPFamilyPolicy, old.Spec.IPFamilyPolicy) {
			s.Spec.IPFamilyPolicy = nil
		}
	}
	if needsNodePort(old) && !needsNodePort(s) && sameNodePorts(s, old) {
		for i := range s.Spec.Ports {
			s.Spec.Ports[i].NodePort = 0
		}
	}
	if needsHealthCheck(old) && !needsHealthCheck(s) && s.Spec.HealthCheckNodePort == old.Spec.HealthCheckNodePort {
		s.Spec.HealthCheckNodePort = 0
	}
	if old.Spec.Type == api.ServiceTypeLoadBalancer && s.Spec.Type != api.ServiceTypeLoadBalancer {
		if a, b := s.Spec.AllocateLoadBalancerNodePorts, old.Spec.AllocateLoadBalancerNodePorts; a != nil && b != nil && *a == *b {
			s.Spec.AllocateLoadBalancerNodePorts = nil
		}
		if ptrEqual(s.Spec.LoadBalancerClass, old.Spec.LoadBalancerClass) {
			s.Spec.LoadBalancerClass = nil
		}
	}
	if externallyAccessible(old) && !externallyAccessible(s) && s.Spec.ExternalTrafficPolicy == old.Spec.ExternalTrafficPolicy {
		s.Spec.ExternalTrafficPolicy = ""
	}
}

// sameNodePorts is the strategy's: the request adds no node port old
// does not have.
func sameNodePorts(s, old *api.Service) bool {
	for _, p := range s.Spec.Ports {
		if p.NodePort != 0 && !slices.ContainsFunc(old.Spec.Ports, func(q api.ServicePort) bool { return q.NodePort == p.NodePort }) {
			return false
		}
	}
	return true
}
