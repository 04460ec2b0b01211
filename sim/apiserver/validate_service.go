package apiserver

import (
	"fmt"
	"net"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// Service validation is upstream's, with its field paths and messages:
// k/k pkg/apis/core/validation/validation.go ValidateService,
// validateServicePort, validateClientIPAffinityConfig,
// ValidateServiceClusterIPsRelatedFields, validateServiceExternalTrafficPolicy,
// validateServiceInternalTrafficFieldsValue,
// validateServiceTrafficDistribution, validateLoadBalancerClassField and,
// on update, ValidateServiceUpdate's validateUpgradeDowngradeClusterIPs,
// validateUpgradeDowngradeIPFamilies and
// validateServiceExternalTrafficFieldsUpdate (read at commit 000f2605;
// trafficDistribution's PreferSameZone and PreferSameNode are GA since
// v1.35, feature gate PreferSameTrafficDistribution).

// maxClientIPServiceAffinitySeconds is core.MaxClientIPServiceAffinitySeconds.
const maxClientIPServiceAffinitySeconds = 86400

// annotationLoadBalancerSourceRanges is core.AnnotationLoadBalancerSourceRangesKey.
const annotationLoadBalancerSourceRanges = "service.beta.kubernetes.io/load-balancer-source-ranges"

const (
	ipMsg   = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"
	cidrMsg = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"
	lbOnly  = "may only be used when `type` is 'LoadBalancer'"
)

// headless is isHeadlessService: clusterIPs is exactly ["None"].
func headless(s *api.Service) bool {
	return s != nil && len(s.Spec.ClusterIPs) == 1 && s.Spec.ClusterIPs[0] == "None"
}

// externallyAccessible is apiservice.ExternallyAccessible.
func externallyAccessible(s *api.Service) bool {
	t := s.Spec.Type
	return t == api.ServiceTypeLoadBalancer || t == api.ServiceTypeNodePort || t == api.ServiceTypeClusterIP && len(s.Spec.ExternalIPs) > 0
}

// needsHealthCheck is apiservice.NeedsHealthCheck: a LoadBalancer with
// externalTrafficPolicy Local.
func needsHealthCheck(s *api.Service) bool {
	return s.Spec.Type == api.ServiceTypeLoadBalancer && s.Spec.ExternalTrafficPolicy == api.ServiceTrafficPolicyLocal
}

// parseIPSloppy is netutils.ParseIPSloppy: net.ParseIP, but IPv4
// components may have leading zeros (read as decimal).
func parseIPSloppy(s string) net.IP {
	if ip := net.ParseIP(s); ip != nil {
		return ip
	}
	if strings.Contains(s, ":") {
		return nil
	}
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return nil
	}
	for i, p := range parts {
		t := strings.TrimLeft(p, "0")
		if t == "" && p != "" {
			t = "0"
		}
		parts[i] = t
	}
	return net.ParseIP(strings.Join(parts, "."))
}

// validIP is IsValidIP's test (ParseIPSloppy).
func validIP(s string) bool { return parseIPSloppy(s) != nil }

// validCIDR is the legacy CIDR check (IsValidCIDRForLegacyField without
// strict validation): what k8s.io/utils/net.ParseCIDRSloppy parses. The
// address is IPv4 or IPv6 syntax (an IPv4-mapped IPv6 address is IPv6,
// so its prefix may be up to 128), the prefix length decimal digits
// (leading zeros allowed, no sign) of at most the address's bits.
func validCIDR(s string) bool {
	ip, bits, ok := strings.Cut(s, "/")
	if !ok || !validIP(ip) || bits == "" {
		return false
	}
	limit := 32
	if strings.Contains(ip, ":") {
		limit = 128
	}
	n := 0
	for i := 0; i < len(bits); i++ {
		c := bits[i]
		if c < '0' || c > '9' {
			return false
		}
		if n = n*10 + int(c-'0'); n > limit {
			return false
		}
	}
	return true
}

// nonSpecialIPErrs is ValidateNonSpecialIP.
func nonSpecialIPErrs(f, s string, errs []apierr.FieldError) []apierr.FieldError {
	ip := parseIPSloppy(s)
	bad := func(d string) {
		errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: s, Detail: d})
	}
	if ip.IsUnspecified() {
		bad(fmt.Sprintf("may not be unspecified (%v)", s))
	}
	if ip.IsLoopback() {
		bad("may not be in the loopback range (127.0.0.0/8, ::1/128)")
	}
	if ip.IsLinkLocalUnicast() {
		bad("may not be in the link-local range (169.254.0.0/16, fe80::/10)")
	}
	if ip.IsLinkLocalMulticast() {
		bad("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)")
	}
	return errs
}

// validateService is ValidateService's spec rules, and
// ValidateServiceUpdate's when old is not nil.
func validateService(s, old *api.Service, errs []apierr.FieldError) []apierr.FieldError {
	sp := &s.Spec
	if old != nil {
		errs = validateServiceUpgradeDowngrade(old, s, errs)
		errs = validateLoadBalancerClass(old, s, errs)
		if needsHealthCheck(old) && needsHealthCheck(s) && sp.HealthCheckNodePort != old.Spec.HealthCheckNodePort {
			errs = append(errs, apierr.FieldError{Field: "spec.healthCheckNodePort", Type: "Forbidden", Detail: "field is immutable"})
		}
	}
	if len(sp.Ports) == 0 && !headless(s) && sp.Type != api.ServiceTypeExternalName {
		errs = append(errs, apierr.FieldError{Field: "spec.ports", Type: "Required value"})
	}
	switch sp.Type {
	case api.ServiceTypeLoadBalancer, api.ServiceTypeNodePort:
		if headless(s) {
			errs = append(errs, apierr.FieldError{Field: "spec.clusterIPs[0]", Type: "Invalid value", Value: sp.ClusterIPs[0],
				Detail: fmt.Sprintf("may not be set to 'None' for %s services", sp.Type)})
		}
	case api.ServiceTypeExternalName:
		if len(sp.ClusterIPs) > 0 {
			errs = append(errs, apierr.FieldError{Field: "spec.clusterIPs", Type: "Forbidden", Detail: "may not be set for ExternalName services"})
		}
		if len(sp.IPFamilies) > 0 {
			errs = append(errs, apierr.FieldError{Field: "spec.ipFamilies", Type: "Forbidden", Detail: "may not be set for ExternalName services"})
		}
		if sp.IPFamilyPolicy != nil {
			errs = append(errs, apierr.FieldError{Field: "spec.ipFamilyPolicy", Type: "Forbidden", Detail: "may not be set for ExternalName services"})
		}
		// A CNAME may end in a dot.
		if cname := strings.TrimSuffix(sp.ExternalName, "."); cname != "" {
			if len(cname) > 253 || !isDNS1123Subdomain(cname) {
				if len(cname) > 253 {
					errs = append(errs, apierr.FieldError{Field: "spec.externalName", Type: "Invalid value", Value: cname, Detail: "must be no more than 253 characters"})
				}
				if !isDNS1123Subdomain(cname) {
					errs = append(errs, apierr.FieldError{Field: "spec.externalName", Type: "Invalid value", Value: cname, Detail: subdomainMsg})
				}
			}
		} else {
			errs = append(errs, apierr.FieldError{Field: "spec.externalName", Type: "Required value"})
		}
	}
	errs = validateServicePorts(sp, errs)
	if sp.Selector != nil {
		errs = validateLabels("spec.selector", sp.Selector, errs)
	}
	switch sp.SessionAffinity {
	case "":
		errs = append(errs, apierr.FieldError{Field: "spec.sessionAffinity", Type: "Required value"})
	case api.ServiceAffinityClientIP:
		errs = validateClientIPAffinity(sp.SessionAffinityConfig, errs)
	case api.ServiceAffinityNone:
		if sp.SessionAffinityConfig != nil {
			errs = append(errs, apierr.FieldError{Field: "spec.sessionAffinityConfig", Type: "Forbidden", Detail: "must not be set when session affinity is None"})
		}
	default:
		errs = append(errs, apierr.FieldError{Field: "spec.sessionAffinity", Type: "Unsupported value", Value: string(sp.SessionAffinity), Detail: `supported values: "ClientIP", "None"`})
	}
	errs = validateClusterIPsRelated(s, errs)
	for i, ip := range sp.ExternalIPs {
		f := fmt.Sprintf("spec.externalIPs[%d]", i)
		if !validIP(ip) {
			errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: ip, Detail: ipMsg})
		} else {
			errs = nonSpecialIPErrs(f, ip, errs)
		}
	}
	switch sp.Type {
	case "":
		errs = append(errs, apierr.FieldError{Field: "spec.type", Type: "Required value"})
	case api.ServiceTypeClusterIP, api.ServiceTypeNodePort, api.ServiceTypeLoadBalancer, api.ServiceTypeExternalName:
	default:
		errs = append(errs, apierr.FieldError{Field: "spec.type", Type: "Unsupported value", Value: string(sp.Type),
			Detail: `supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"`})
	}
	if sp.Type == api.ServiceTypeClusterIP {
		for i, p := range sp.Ports {
			if p.NodePort != 0 {
				errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("spec.ports[%d].nodePort", i), Type: "Forbidden", Detail: "may not be used when `type` is 'ClusterIP'"})
			}
		}
	}
	// Duplicate node ports and ports, by (protocol, port).
	for i, p := range sp.Ports {
		if p.NodePort != 0 && slices.ContainsFunc(sp.Ports[:i], func(q api.ServicePort) bool { return q.NodePort == p.NodePort && q.Protocol == p.Protocol }) {
			errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("spec.ports[%d].nodePort", i), Type: "Duplicate value", Value: int64(p.NodePort)})
		}
	}
	for i, p := range sp.Ports {
		if slices.ContainsFunc(sp.Ports[:i], func(q api.ServicePort) bool { return q.Port == p.Port && q.Protocol == p.Protocol }) {
			errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("spec.ports[%d]", i), Type: "Duplicate value", Value: coreServicePort{Protocol: p.Protocol, Port: p.Port}})
		}
	}
	errs = validateSourceRanges(s, errs)
	if sp.AllocateLoadBalancerNodePorts != nil && sp.Type != api.ServiceTypeLoadBalancer {
		errs = append(errs, apierr.FieldError{Field: "spec.allocateLoadBalancerNodePorts", Type: "Forbidden", Detail: lbOnly})
	}
	if sp.Type == api.ServiceTypeLoadBalancer && sp.AllocateLoadBalancerNodePorts == nil {
		// Upstream names the field without its spec. prefix.
		errs = append(errs, apierr.FieldError{Field: "allocateLoadBalancerNodePorts", Type: "Required value"})
	}
	errs = validateLoadBalancerClass(nil, s, errs)
	errs = validateExternalTrafficPolicy(s, errs)
	if p := sp.InternalTrafficPolicy; p == nil {
		// Not required of an ExternalName service, for stored objects'
		// sake.
		if sp.Type == api.ServiceTypeNodePort || sp.Type == api.ServiceTypeLoadBalancer || sp.Type == api.ServiceTypeClusterIP {
			errs = append(errs, apierr.FieldError{Field: "spec.internalTrafficPolicy", Type: "Required value"})
		}
	} else if *p != api.ServiceTrafficPolicyCluster && *p != api.ServiceTrafficPolicyLocal {
		errs = append(errs, apierr.FieldError{Field: "spec.internalTrafficPolicy", Type: "Unsupported value", Value: string(*p), Detail: `supported values: "Cluster", "Local"`})
	}
	if td := sp.TrafficDistribution; td != nil && *td != "PreferClose" && *td != "PreferSameZone" && *td != "PreferSameNode" {
		errs = append(errs, apierr.FieldError{Field: "spec.trafficDistribution", Type: "Unsupported value", Value: *td,
			Detail: `supported values: "PreferClose", "PreferSameZone", "PreferSameNode"`})
	}
	return errs
}

// validateServicePorts is validateServicePort for each port: a name
// (required when there are several, a DNS-1123 label, unique), the port,
// the protocol, the target port and the appProtocol; and the range of a
// node port.
func validateServicePorts(spec *api.ServiceSpec, errs []apierr.FieldError) []apierr.FieldError {
	for i, p := range spec.Ports {
		pf := fmt.Sprintf("spec.ports[%d]", i)
		switch {
		case p.Name == "" && len(spec.Ports) > 1:
			errs = append(errs, apierr.FieldError{Field: pf + ".name", Type: "Required value"})
		case p.Name != "":
			for _, msg := range dns1123LabelProblems(p.Name) {
				errs = append(errs, apierr.FieldError{Field: pf + ".name", Type: "Invalid value", Value: p.Name, Detail: msg})
			}
			if slices.ContainsFunc(spec.Ports[:i], func(q api.ServicePort) bool { return q.Name == p.Name }) {
				errs = append(errs, apierr.FieldError{Field: pf + ".name", Type: "Duplicate value", Value: p.Name})
			}
		}
		if !validPort(p.Port) {
			errs = append(errs, apierr.FieldError{Field: pf + ".port", Type: "Invalid value", Value: int64(p.Port), Detail: portRange})
		}
		switch p.Protocol {
		case "":
			errs = append(errs, apierr.FieldError{Field: pf + ".protocol", Type: "Required value"})
		case api.ProtocolTCP, api.ProtocolUDP, api.ProtocolSCTP:
		default:
			errs = append(errs, apierr.FieldError{Field: pf + ".protocol", Type: "Unsupported value", Value: string(p.Protocol), Detail: `supported values: "SCTP", "TCP", "UDP"`})
		}
		// ValidatePortNumOrName: a named target is a port name
		// (IsValidPortName), passed as port.StrVal: a quoted string.
		if t := p.TargetPort; t.Type == api.IntOrStringInt && !validPort(t.IntVal) {
			errs = append(errs, apierr.FieldError{Field: pf + ".targetPort", Type: "Invalid value", Value: int64(t.IntVal), Detail: portRange})
		} else if t.Type == api.IntOrStringString {
			for _, msg := range portNameProblems(t.StrVal) {
				errs = append(errs, apierr.FieldError{Field: pf + ".targetPort", Type: "Invalid value", Value: t.StrVal, Detail: msg})
			}
		}
		if a := p.AppProtocol; a != nil {
			for _, msg := range qualifiedNameProblems(*a) {
				errs = append(errs, apierr.FieldError{Field: pf + ".appProtocol", Type: "Invalid value", Value: *a, Detail: msg})
			}
		}
		if p.NodePort != 0 && !validPort(p.NodePort) {
			// The registry's node port allocator refuses it (out of
			// range); upstream validation does not see it.
			errs = append(errs, apierr.FieldError{Field: pf + ".nodePort", Type: "Invalid value", Value: int64(p.NodePort), Detail: portRange})
		}
	}
	return errs
}

// validateClientIPAffinity is validateClientIPAffinityConfig.
func validateClientIPAffinity(c *api.SessionAffinityConfig, errs []apierr.FieldError) []apierr.FieldError {
	const why = "when session affinity type is ClientIP"
	switch {
	case c == nil:
		return append(errs, apierr.FieldError{Field: "spec.sessionAffinityConfig", Type: "Required value", Detail: why})
	case c.ClientIP == nil:
		return append(errs, apierr.FieldError{Field: "spec.sessionAffinityConfig.clientIP", Type: "Required value", Detail: why})
	case c.ClientIP.TimeoutSeconds == nil:
		return append(errs, apierr.FieldError{Field: "spec.sessionAffinityConfig.clientIP.timeoutSeconds", Type: "Required value", Detail: why})
	}
	if t := *c.ClientIP.TimeoutSeconds; t <= 0 || t > maxClientIPServiceAffinitySeconds {
		errs = append(errs, apierr.FieldError{Field: "spec.sessionAffinityConfig.clientIP.timeoutSeconds", Type: "Invalid value", Value: int64(t),
			Detail: fmt.Sprintf("must be greater than 0 and less than %d", maxClientIPServiceAffinitySeconds)})
	}
	return errs
}

// validateClusterIPsRelated is ValidateServiceClusterIPsRelatedFields.
func validateClusterIPsRelated(s *api.Service, errs []apierr.FieldError) []apierr.FieldError {
	sp := &s.Spec
	if sp.Type == api.ServiceTypeExternalName {
		return errs
	}
	const ipsField = "spec.clusterIPs"
	if sp.ClusterIP != "" {
		if len(sp.ClusterIPs) == 0 {
			errs = append(errs, apierr.FieldError{Field: ipsField, Type: "Required value"})
		} else if sp.ClusterIPs[0] != sp.ClusterIP {
			errs = append(errs, apierr.FieldError{Field: ipsField, Type: "Invalid value", Value: sp.ClusterIPs, Detail: "first value must match `clusterIP`"})
		}
	} else if len(sp.ClusterIPs) != 0 {
		errs = append(errs, apierr.FieldError{Field: ipsField, Type: "Invalid value", Value: sp.ClusterIPs, Detail: "must be empty when `clusterIP` is not specified"})
	}
	for i, fam := range sp.IPFamilies {
		f := fmt.Sprintf("spec.ipFamilies[%d]", i)
		if fam != api.IPv4Protocol && fam != api.IPv6Protocol {
			errs = append(errs, apierr.FieldError{Field: f, Type: "Unsupported value", Value: string(fam), Detail: `supported values: "IPv4", "IPv6"`})
		}
		if slices.Contains(sp.IPFamilies[:i], fam) {
			errs = append(errs, apierr.FieldError{Field: f, Type: "Duplicate value", Value: string(fam)})
		}
	}
	if p := sp.IPFamilyPolicy; p != nil {
		switch *p {
		case api.IPFamilyPolicySingleStack, api.IPFamilyPolicyPreferDualStack, api.IPFamilyPolicyRequireDualStack:
		default:
			errs = append(errs, apierr.FieldError{Field: "spec.ipFamilyPolicy", Type: "Unsupported value", Value: string(*p),
				Detail: `supported values: "PreferDualStack", "RequireDualStack", "SingleStack"`})
		}
	}
	invalid := false
	for i, ip := range sp.ClusterIPs {
		if i == 0 && ip == "None" {
			if len(sp.ClusterIPs) > 1 {
				invalid = true
				errs = append(errs, apierr.FieldError{Field: ipsField, Type: "Invalid value", Value: sp.ClusterIPs, Detail: "'None' must be the first and only value"})
			}
			continue
		}
		if !validIP(ip) {
			invalid = true
			errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("%s[%d]", ipsField, i), Type: "Invalid value", Value: ip, Detail: ipMsg})
		}
	}
	if len(sp.ClusterIPs) > 2 {
		errs = append(errs, apierr.FieldError{Field: ipsField, Type: "Invalid value", Value: sp.ClusterIPs, Detail: "may only hold up to 2 values"})
	}
	if invalid {
		return errs
	}
	if len(sp.ClusterIPs) > 1 && !dualStack(sp.ClusterIPs) {
		errs = append(errs, apierr.FieldError{Field: ipsField, Type: "Invalid value", Value: sp.ClusterIPs, Detail: "may specify no more than one IP for each IP family"})
	}
	if !headless(s) && len(sp.ClusterIPs) > 0 && len(sp.IPFamilies) > 0 {
		for i, ip := range sp.ClusterIPs {
			if i > len(sp.IPFamilies)-1 {
				break
			}
			v6 := parseIPSloppy(ip).To4() == nil
			f := fmt.Sprintf("%s[%d]", ipsField, i)
			if sp.IPFamilies[i] == api.IPv4Protocol && v6 {
				errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: ip, Detail: fmt.Sprintf("expected an IPv4 value as indicated by `ipFamilies[%v]`", i)})
			}
			if sp.IPFamilies[i] == api.IPv6Protocol && !v6 {
				errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: ip, Detail: fmt.Sprintf("expected an IPv6 value as indicated by `ipFamilies[%v]`", i)})
			}
		}
	}
	return errs
}

// dualStack is netutils.IsDualStackIPStrings: both an IPv4 and an IPv6
// address.
func dualStack(ips []string) bool {
	v4, v6 := false, false
	for _, s := range ips {
		if parseIPSloppy(s).To4() != nil {
			v4 = true
		} else {
			v6 = true
		}
	}
	return v4 && v6
}

// validateSourceRanges checks spec.loadBalancerSourceRanges, or else the
// source ranges annotation: only of a LoadBalancer, each a CIDR (spaces
// around one allowed). Upstream names the field LoadBalancerSourceRanges.
func validateSourceRanges(s *api.Service, errs []apierr.FieldError) []apierr.FieldError {
	const f = "spec.LoadBalancerSourceRanges"
	if r := s.Spec.LoadBalancerSourceRanges; len(r) > 0 {
		if s.Spec.Type != api.ServiceTypeLoadBalancer {
			errs = append(errs, apierr.FieldError{Field: f, Type: "Forbidden", Detail: lbOnly})
		}
		for i, v := range r {
			if v = strings.TrimSpace(v); !validCIDR(v) {
				errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("%s[%d]", f, i), Type: "Invalid value", Value: v, Detail: cidrMsg})
			}
		}
		return errs
	}
	val, ok := s.Annotations[annotationLoadBalancerSourceRanges]
	if !ok {
		return errs
	}
	af := "metadata.annotations[" + annotationLoadBalancerSourceRanges + "]"
	if s.Spec.Type != api.ServiceTypeLoadBalancer {
		errs = append(errs, apierr.FieldError{Field: af, Type: "Forbidden", Detail: lbOnly})
	}
	if val = strings.TrimSpace(val); val != "" {
		for v := range strings.SplitSeq(val, ",") {
			if v = strings.TrimSpace(v); !validCIDR(v) {
				errs = append(errs, apierr.FieldError{Field: af, Type: "Invalid value", Value: v, Detail: cidrMsg})
			}
		}
	}
	return errs
}

// validateLoadBalancerClass is validateLoadBalancerClassField: set only
// on a LoadBalancer, a qualified name, unchanged while the service
// stays a LoadBalancer.
func validateLoadBalancerClass(old, s *api.Service, errs []apierr.FieldError) []apierr.FieldError {
	const f = "spec.loadBalancerClass"
	lb := s.Spec.Type == api.ServiceTypeLoadBalancer
	c := s.Spec.LoadBalancerClass
	if old != nil && old.Spec.Type == api.ServiceTypeLoadBalancer && lb {
		// sameLoadBalancerClass
		oc := old.Spec.LoadBalancerClass
		if (oc == nil) != (c == nil) || oc != nil && *oc != *c {
			var v any = apierr.Literal("null")
			if c != nil {
				v = *c
			}
			errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: v, Detail: "may not change once set"})
		}
	}
	// On update upstream runs the checks below twice (here and in
	// ValidateService), and so reports a bad class twice.
	switch {
	case lb && c != nil:
		for _, msg := range qualifiedNameProblems(*c) {
			errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: *c, Detail: msg})
		}
	case !lb && c != nil:
		errs = append(errs, apierr.FieldError{Field: f, Type: "Forbidden", Detail: lbOnly})
	}
	return errs
}

// validateExternalTrafficPolicy is validateServiceExternalTrafficPolicy:
// externalTrafficPolicy only (and then Cluster or Local) on an externally
// accessible service, healthCheckNodePort only (and then required) on a
// LoadBalancer with the Local policy.
func validateExternalTrafficPolicy(s *api.Service, errs []apierr.FieldError) []apierr.FieldError {
	sp := &s.Spec
	const f = "spec.externalTrafficPolicy"
	if !externallyAccessible(s) {
		if sp.ExternalTrafficPolicy != "" {
			errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: string(sp.ExternalTrafficPolicy), Detail: "may only be set for externally-accessible services"})
		}
	} else {
		switch sp.ExternalTrafficPolicy {
		case "":
			errs = append(errs, apierr.FieldError{Field: f, Type: "Required value"})
		case api.ServiceTrafficPolicyCluster, api.ServiceTrafficPolicyLocal:
		default:
			errs = append(errs, apierr.FieldError{Field: f, Type: "Unsupported value", Value: string(sp.ExternalTrafficPolicy), Detail: `supported values: "Cluster", "Local"`})
		}
	}
	const hf = "spec.healthCheckNodePort"
	if !needsHealthCheck(s) {
		if sp.HealthCheckNodePort != 0 {
			errs = append(errs, apierr.FieldError{Field: hf, Type: "Invalid value", Value: int64(sp.HealthCheckNodePort),
				Detail: "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"})
		}
	} else if sp.HealthCheckNodePort == 0 {
		// The registry allocates one before validation; the simulator
		// allocates none, so only a port given is checked.
	} else if !validPort(sp.HealthCheckNodePort) {
		errs = append(errs, apierr.FieldError{Field: hf, Type: "Invalid value", Value: int64(sp.HealthCheckNodePort), Detail: portRange})
	}
	return errs
}

// validateServiceUpgradeDowngrade is validateUpgradeDowngradeClusterIPs
// and validateUpgradeDowngradeIPFamilies: a set primary clusterIP or IP
// family may not change (nor be released), a released secondary one
// needs ipFamilyPolicy SingleStack; none of it to or from ExternalName.
func validateServiceUpgradeDowngrade(old, s *api.Service, errs []apierr.FieldError) []apierr.FieldError {
	if s.Spec.Type == api.ServiceTypeExternalName || old.Spec.Type == api.ServiceTypeExternalName {
		return errs
	}
	singleStack := func() bool {
		return s.Spec.IPFamilyPolicy != nil && *s.Spec.IPFamilyPolicy == api.IPFamilyPolicySingleStack
	}
	policy := func() any {
		if s.Spec.IPFamilyPolicy == nil {
			return apierr.Literal("null")
		}
		return string(*s.Spec.IPFamilyPolicy)
	}
	oips, nips := old.Spec.ClusterIPs, s.Spec.ClusterIPs
	changed := func(f string, v any) {
		errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: v, Detail: "may not change once set"})
	}
	if !(headless(old) && headless(s)) {
		switch {
		case len(oips) == len(nips):
			for i, ip := range oips {
				if ip != nips[i] {
					changed(fmt.Sprintf("spec.clusterIPs[%d]", i), nips)
				}
			}
		case len(oips) > len(nips):
			if len(nips) == 0 {
				errs = append(errs, apierr.FieldError{Field: "spec.clusterIPs[0]", Type: "Invalid value", Value: nips, Detail: "primary clusterIP can not be unset"})
			}
			if len(nips) > 0 && nips[0] != oips[0] {
				changed("spec.clusterIPs[0]", nips)
			}
			if len(nips) == 1 && !singleStack() {
				errs = append(errs, apierr.FieldError{Field: "spec.ipFamilyPolicy", Type: "Invalid value", Value: policy(), Detail: "must be set to 'SingleStack' when releasing the secondary clusterIP"})
			}
		default:
			if len(oips) > 0 && nips[0] != oips[0] {
				changed("spec.clusterIPs[0]", nips)
			}
		}
	}
	if headless(old) != headless(s) || headless(s) {
		return errs
	}
	ofs, nfs := old.Spec.IPFamilies, s.Spec.IPFamilies
	switch {
	case len(ofs) == len(nfs):
		for i := range ofs {
			if ofs[i] != nfs[i] {
				changed("spec.ipFamilies[0]", nfs)
			}
		}
	case len(ofs) > len(nfs):
		if len(nips) == 0 {
			errs = append(errs, apierr.FieldError{Field: "spec.ipFamilies[0]", Type: "Invalid value", Value: nfs, Detail: "primary ipFamily can not be unset"})
		}
		if len(nfs) > 0 && nfs[0] != ofs[0] {
			changed("spec.ipFamilies[0]", nips)
		}
		if len(nfs) == 1 && !singleStack() {
			errs = append(errs, apierr.FieldError{Field: "spec.ipFamilyPolicy", Type: "Invalid value", Value: policy(), Detail: "must be set to 'SingleStack' when releasing the secondary ipFamily"})
		}
	default:
		if len(ofs) > 0 && len(nfs) > 0 && nfs[0] != ofs[0] {
			changed("spec.ipFamilies[0]", nips)
		}
	}
	return errs
}
