package apiserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// validService is upstream's makeValidService.
func validService() *api.Service {
	cluster := api.ServiceTrafficPolicyCluster
	return &api.Service{
		ObjectMeta: api.ObjectMeta{Name: "valid", Namespace: "valid", Labels: map[string]string{}, Annotations: map[string]string{}, ResourceVersion: "1"},
		Spec: api.ServiceSpec{
			Selector:              map[string]string{"key": "val"},
			SessionAffinity:       api.ServiceAffinityNone,
			Type:                  api.ServiceTypeClusterIP,
			Ports:                 []api.ServicePort{{Name: "p", Protocol: "TCP", Port: 8675, TargetPort: api.FromInt32(8675)}},
			InternalTrafficPolicy: &cluster,
		},
	}
}

func serviceErrs(err error) []apierr.FieldError {
	var se *apierr.StatusError
	if errors.As(err, &se) {
		return se.Causes
	}
	return nil
}

// TestValidateServiceUpstream ports the rows of upstream's
// TestValidateServiceCreate and TestValidateServiceUpdate (k/k
// pkg/apis/core/validation/validation_test.go, read at commit 000f2605)
// for the fields a Service here has, checked as upstream checks them: by
// the number of errors. Rows whose object upstream's service registry
// would have allocated or defaulted before validation are run as
// validation sees them; a few rows also give the whole message.
func TestValidateServiceUpstream(t *testing.T) {
	port := func(name string, p int32, proto api.Protocol, node int32) api.ServicePort {
		return api.ServicePort{Name: name, Port: p, Protocol: proto, NodePort: node, TargetPort: api.FromInt32(p)}
	}
	yes, no := true, false
	i32 := func(v int32) *int32 { return &v }
	str := func(s string) *string { return &s }
	policy := func(p api.IPFamilyPolicy) *api.IPFamilyPolicy { return &p }
	itp := func(p api.ServiceTrafficPolicy) *api.ServiceTrafficPolicy { return &p }
	lb := func(s *api.Service) {
		s.Spec.Type = api.ServiceTypeLoadBalancer
		s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyCluster
		s.Spec.AllocateLoadBalancerNodePorts = &yes
	}
	nodePort := func(s *api.Service) {
		s.Spec.Type = api.ServiceTypeNodePort
		s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyCluster
	}
	ips := func(s *api.Service, ip string, all ...string) { s.Spec.ClusterIP, s.Spec.ClusterIPs = ip, all }
	create := []struct {
		name    string
		tweak   func(s *api.Service)
		numErrs int
		want    string // the whole message, when given
	}{
		{"invalid name", func(s *api.Service) { s.Name = "-123" }, 1, ""},
		{"too long name", func(s *api.Service) { s.Name = strings.Repeat("a", 64) }, 1, ""},
		{"invalid label", func(s *api.Service) { s.Labels["NoUppercaseOrSpecialCharsLike=Equals"] = "bar" }, 1, ""},
		{"invalid annotation", func(s *api.Service) { s.Annotations["NoSpecialCharsLike=Equals"] = "bar" }, 1, ""},
		{"nil selector", func(s *api.Service) { s.Spec.Selector = nil }, 0, ""},
		{"invalid selector", func(s *api.Service) { s.Spec.Selector["NoSpecialCharsLike=Equals"] = "bar" }, 1,
			`Service "valid" is invalid: spec.selector: Invalid value: "NoSpecialCharsLike=Equals": name part ` + qualifiedName + nameExamples},
		{"missing session affinity", func(s *api.Service) { s.Spec.SessionAffinity = "" }, 1, ""},
		{"missing type", func(s *api.Service) { s.Spec.Type = "" }, 1, ""},
		{"missing ports", func(s *api.Service) { s.Spec.Ports = nil }, 1, `Service "valid" is invalid: spec.ports: Required value`},
		{"missing ports but headless", func(s *api.Service) { s.Spec.Ports = nil; ips(s, "None", "None") }, 0, ""},
		{"empty port[0] name", func(s *api.Service) { s.Spec.Ports[0].Name = "" }, 0, ""},
		{"empty port[1] name", func(s *api.Service) { s.Spec.Ports = append(s.Spec.Ports, port("", 12345, "TCP", 0)) }, 1, ""},
		{"empty multi-port port[0] name", func(s *api.Service) {
			s.Spec.Ports[0].Name = ""
			s.Spec.Ports = append(s.Spec.Ports, port("p", 12345, "TCP", 0))
		}, 1, ""},
		{"invalid port name", func(s *api.Service) { s.Spec.Ports[0].Name = "INVALID" }, 1, ""},
		{"missing protocol", func(s *api.Service) { s.Spec.Ports[0].Protocol = "" }, 1, ""},
		{"invalid protocol", func(s *api.Service) { s.Spec.Ports[0].Protocol = "INVALID" }, 1,
			`Service "valid" is invalid: spec.ports[0].protocol: Unsupported value: "INVALID": supported values: "SCTP", "TCP", "UDP"`},
		{"invalid cluster ip", func(s *api.Service) { ips(s, "invalid", "invalid") }, 1,
			`Service "valid" is invalid: spec.clusterIPs[0]: Invalid value: "invalid": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)`},
		{"missing port", func(s *api.Service) { s.Spec.Ports[0].Port = 0 }, 1, ""},
		{"invalid port", func(s *api.Service) { s.Spec.Ports[0].Port = 65536 }, 1, ""},
		{"invalid TargetPort int", func(s *api.Service) { s.Spec.Ports[0].TargetPort = api.FromInt32(65536) }, 1, ""},
		{"valid port headless", func(s *api.Service) { s.Spec.Ports[0].Port = 11722; ips(s, "None", "None") }, 0, ""},
		{"invalid port headless 2 (tolerated)", func(s *api.Service) {
			s.Spec.Ports[0].TargetPort = api.FromString("target")
			ips(s, "None", "None")
		}, 0, ""},
		{"invalid publicIPs localhost", func(s *api.Service) {
			s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyCluster
			s.Spec.ExternalIPs = []string{"127.0.0.1"}
		}, 1, ""},
		{"invalid publicIPs unspecified", func(s *api.Service) {
			s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyCluster
			s.Spec.ExternalIPs = []string{"0.0.0.0"}
		}, 1, ""},
		{"invalid publicIPs host", func(s *api.Service) {
			s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyCluster
			s.Spec.ExternalIPs = []string{"myhost.mydomain"}
		}, 1, ""},
		{"valid publicIPs", func(s *api.Service) {
			s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyCluster
			s.Spec.ExternalIPs = []string{"1.2.3.4"}
		}, 0, ""},
		{"dup port name", func(s *api.Service) {
			s.Spec.Ports[0].Name = "p"
			s.Spec.Ports = append(s.Spec.Ports, port("p", 12345, "TCP", 0))
		}, 1, ""},
		{"valid load balancer protocol UDP 1", func(s *api.Service) { lb(s); s.Spec.Ports[0].Protocol = "UDP" }, 0, ""},
		{"load balancer with mix protocol", func(s *api.Service) { lb(s); s.Spec.Ports = append(s.Spec.Ports, port("q", 12345, "UDP", 0)) }, 0, ""},
		{"valid 1", func(s *api.Service) {}, 0, ""},
		{"valid 3", func(s *api.Service) { s.Spec.Ports[0].TargetPort = api.FromString("http") }, 0, ""},
		{"valid cluster ip - none", func(s *api.Service) { ips(s, "None", "None") }, 0, ""},
		{"valid type - loadbalancer", lb, 0, ""},
		{"valid type - loadbalancer with allocateLoadBalancerNodePorts=false", func(s *api.Service) { lb(s); s.Spec.AllocateLoadBalancerNodePorts = &no }, 0, ""},
		{"invalid type - missing AllocateLoadBalancerNodePorts for loadbalancer type", func(s *api.Service) { lb(s); s.Spec.AllocateLoadBalancerNodePorts = nil }, 1,
			`Service "valid" is invalid: allocateLoadBalancerNodePorts: Required value`},
		{"duplicate nodeports", func(s *api.Service) {
			nodePort(s)
			s.Spec.Ports = append(s.Spec.Ports, port("q", 1, "TCP", 1), port("r", 2, "TCP", 1))
		}, 1, `Service "valid" is invalid: spec.ports[2].nodePort: Duplicate value: 1`},
		{"duplicate nodeports (different protocols)", func(s *api.Service) {
			nodePort(s)
			s.Spec.Ports = append(s.Spec.Ports, port("q", 1, "TCP", 1), port("r", 2, "UDP", 1), port("s", 3, "SCTP", 1))
		}, 0, ""},
		{"invalid duplicate ports (with same protocol)", func(s *api.Service) {
			s.Spec.Ports = append(s.Spec.Ports, port("q", 12345, "TCP", 0), port("r", 12345, "TCP", 0))
		}, 1, `Service "valid" is invalid: spec.ports[2]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":12345,"TargetPort":0,"NodePort":0}`},
		{"valid duplicate ports (with different protocols)", func(s *api.Service) {
			s.Spec.Ports = append(s.Spec.Ports, port("q", 12345, "TCP", 0), port("r", 12345, "UDP", 0), port("s", 12345, "SCTP", 0))
		}, 0, ""},
		{"valid type - nodeport", nodePort, 0, ""},
		{"valid type loadbalancer with NodePort", func(s *api.Service) { lb(s); s.Spec.Ports = append(s.Spec.Ports, port("q", 12345, "TCP", 12345)) }, 0, ""},
		{"valid type=NodePort service with NodePort", func(s *api.Service) { nodePort(s); s.Spec.Ports = append(s.Spec.Ports, port("q", 12345, "TCP", 12345)) }, 0, ""},
		{"invalid cluster service with NodePort", func(s *api.Service) { s.Spec.Ports = append(s.Spec.Ports, port("q", 12345, "TCP", 12345)) }, 1,
			"Service \"valid\" is invalid: spec.ports[1].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"},
		{"valid port type=LoadBalancer (10250)", func(s *api.Service) { lb(s); s.Spec.Ports = append(s.Spec.Ports, port("kubelet", 10250, "TCP", 0)) }, 0, ""},
		{"valid LoadBalancer source range annotation", func(s *api.Service) {
			lb(s)
			s.Annotations[annotationLoadBalancerSourceRanges] = "1.2.3.0/24,  5.6.0.0/16"
		}, 0, ""},
		{"valid whitespace-only LoadBalancer source range annotation", func(s *api.Service) { lb(s); s.Annotations[annotationLoadBalancerSourceRanges] = "  " }, 0, ""},
		{"invalid LoadBalancer source range annotation (hostname)", func(s *api.Service) { lb(s); s.Annotations[annotationLoadBalancerSourceRanges] = "foo.bar" }, 1, ""},
		{"invalid LoadBalancer source range annotation (invalid CIDR)", func(s *api.Service) { lb(s); s.Annotations[annotationLoadBalancerSourceRanges] = "1.2.3.4/33" }, 1, ""},
		{"invalid LoadBalancer source range annotation for non LoadBalancer type service", func(s *api.Service) {
			s.Annotations[annotationLoadBalancerSourceRanges] = "1.2.3.0/24"
		}, 1, ""},
		{"invalid empty-but-set LoadBalancer source range annotation for non LoadBalancer type service", func(s *api.Service) {
			s.Annotations[annotationLoadBalancerSourceRanges] = ""
		}, 1, ""},
		{"valid LoadBalancer source range with whitespace", func(s *api.Service) {
			lb(s)
			s.Spec.LoadBalancerSourceRanges = []string{"1.2.3.0/24  ", " 5.6.0.0/16"}
		}, 0, ""},
		{"invalid empty LoadBalancer source range", func(s *api.Service) { lb(s); s.Spec.LoadBalancerSourceRanges = []string{"   "} }, 1, ""},
		{"invalid LoadBalancer source range (invalid CIDR)", func(s *api.Service) { lb(s); s.Spec.LoadBalancerSourceRanges = []string{"1.2.3.4/33"} }, 1,
			`Service "valid" is invalid: spec.LoadBalancerSourceRanges[0]: Invalid value: "1.2.3.4/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)`},
		{"invalid source range for non LoadBalancer type service", func(s *api.Service) { s.Spec.LoadBalancerSourceRanges = []string{"1.2.3.0/24", "5.6.0.0/16"} }, 1, ""},
		{"invalid source range annotation ignored with valid source range field", func(s *api.Service) {
			lb(s)
			s.Annotations[annotationLoadBalancerSourceRanges] = "foo.bar"
			s.Spec.LoadBalancerSourceRanges = []string{"1.2.3.0/24", "5.6.0.0/16"}
		}, 0, ""},
		{"valid ExternalName", func(s *api.Service) {
			s.Spec.Type = api.ServiceTypeExternalName
			s.Spec.ExternalName = "foo.bar.example.com"
		}, 0, ""},
		{"valid ExternalName (trailing dot)", func(s *api.Service) {
			s.Spec.Type = api.ServiceTypeExternalName
			s.Spec.ExternalName = "foo.bar.example.com."
		}, 0, ""},
		{"invalid ExternalName clusterIP (valid IP)", func(s *api.Service) {
			s.Spec.Type = api.ServiceTypeExternalName
			ips(s, "1.2.3.4", "1.2.3.4")
			s.Spec.ExternalName = "foo.bar.example.com"
		}, 1, ""},
		{"invalid ExternalName clusterIP (None)", func(s *api.Service) {
			s.Spec.Type = api.ServiceTypeExternalName
			ips(s, "None", "None")
			s.Spec.ExternalName = "foo.bar.example.com"
		}, 1, ""},
		{"invalid ExternalName (not a DNS name)", func(s *api.Service) { s.Spec.Type = api.ServiceTypeExternalName; s.Spec.ExternalName = "-123" }, 1, ""},
		{"ExternalName without externalName", func(s *api.Service) { s.Spec.Type = api.ServiceTypeExternalName }, 1,
			`Service "valid" is invalid: spec.externalName: Required value`},
		{"LoadBalancer type cannot have None ClusterIP", func(s *api.Service) { lb(s); ips(s, "None", "None") }, 1,
			`Service "valid" is invalid: spec.clusterIPs[0]: Invalid value: "None": may not be set to 'None' for LoadBalancer services`},
		{"invalid node port with clusterIP None", func(s *api.Service) {
			nodePort(s)
			s.Spec.Ports = append(s.Spec.Ports, port("q", 1, "TCP", 1))
			ips(s, "None", "None")
		}, 1, ""},
		{"invalid externalTraffic field", func(s *api.Service) { lb(s); s.Spec.ExternalTrafficPolicy = "invalid" }, 1,
			`Service "valid" is invalid: spec.externalTrafficPolicy: Unsupported value: "invalid": supported values: "Cluster", "Local"`},
		{"nil internalTraffic field", func(s *api.Service) { s.Spec.InternalTrafficPolicy = nil }, 1, ""},
		{"internalTrafficPolicy field nil when type is ExternalName", func(s *api.Service) {
			s.Spec.InternalTrafficPolicy = nil
			s.Spec.Type = api.ServiceTypeExternalName
			s.Spec.ExternalName = "foo.bar.com"
		}, 0, ""},
		{"internalTrafficPolicy field is set when type is ExternalName", func(s *api.Service) {
			s.Spec.Type = api.ServiceTypeExternalName
			s.Spec.ExternalName = "foo.bar.com"
		}, 0, ""},
		{"invalid internalTraffic field", func(s *api.Service) { s.Spec.InternalTrafficPolicy = itp("invalid") }, 1, ""},
		{"internalTrafficPolicy field set to Local", func(s *api.Service) { s.Spec.InternalTrafficPolicy = itp(api.ServiceTrafficPolicyLocal) }, 0, ""},
		{"negative healthCheckNodePort field", func(s *api.Service) {
			lb(s)
			s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyLocal
			s.Spec.HealthCheckNodePort = -1
		}, 1, ""},
		{"valid healthCheckNodePort field", func(s *api.Service) {
			lb(s)
			s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyLocal
			s.Spec.HealthCheckNodePort = 31100
		}, 0, ""},
		{"invalid timeoutSeconds field", func(s *api.Service) {
			s.Spec.SessionAffinity = api.ServiceAffinityClientIP
			s.Spec.SessionAffinityConfig = &api.SessionAffinityConfig{ClientIP: &api.ClientIPConfig{TimeoutSeconds: i32(-1)}}
		}, 1, ""},
		{"ClientIP timeout of 0", func(s *api.Service) {
			s.Spec.SessionAffinity = api.ServiceAffinityClientIP
			s.Spec.SessionAffinityConfig = &api.SessionAffinityConfig{ClientIP: &api.ClientIPConfig{TimeoutSeconds: i32(0)}}
		}, 1, `Service "valid" is invalid: spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 0: must be greater than 0 and less than 86400`},
		{"unknown sessionAffinity", func(s *api.Service) { s.Spec.SessionAffinity = "Sticky" }, 1,
			`Service "valid" is invalid: spec.sessionAffinity: Unsupported value: "Sticky": supported values: "ClientIP", "None"`},
		{"unknown type", func(s *api.Service) { s.Spec.Type = "Headless" }, 1,
			`Service "valid" is invalid: spec.type: Unsupported value: "Headless": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"`},
		{"sessionAffinityConfig can't be set when session affinity is None", func(s *api.Service) {
			lb(s)
			s.Spec.SessionAffinityConfig = &api.SessionAffinityConfig{ClientIP: &api.ClientIPConfig{TimeoutSeconds: i32(90)}}
		}, 1, ""},
		{"invalid, service with invalid ipFamilies", func(s *api.Service) { s.Spec.IPFamilies = []api.IPFamily{"not-a-valid-ip-family"} }, 1, ""},
		{"invalid, service with invalid ipFamilies (2nd)", func(s *api.Service) {
			s.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicyRequireDualStack)
			s.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol, "not-a-valid-ip-family"}
		}, 1, ""},
		{"IPFamilyPolicy(singleStack) is set for two families", func(s *api.Service) {
			s.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicySingleStack)
			s.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}
		}, 0, ""},
		{"invalid, service with 2+ ipFamilies", func(s *api.Service) {
			s.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicyRequireDualStack)
			s.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol, api.IPv4Protocol}
		}, 1, ""},
		{"invalid, service with same ip families", func(s *api.Service) {
			s.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicyRequireDualStack)
			s.Spec.IPFamilies = []api.IPFamily{api.IPv6Protocol, api.IPv6Protocol}
		}, 1, ""},
		{"valid, service with valid ipFamilies(v6,v4)", func(s *api.Service) {
			s.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicyRequireDualStack)
			s.Spec.IPFamilies = []api.IPFamily{api.IPv6Protocol, api.IPv4Protocol}
		}, 0, ""},
		{"invalid, garbage ips", func(s *api.Service) {
			s.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicyRequireDualStack)
			ips(s, "garbage-ip", "garbage-ip", "garbage-second-ip")
		}, 2, ""},
		{"invalid, garbage second ip", func(s *api.Service) { ips(s, "2001::1", "2001::1", "garbage-ip") }, 1, ""},
		{"invalid, NONE + IP", func(s *api.Service) { ips(s, "None", "None", "2001::1") }, 1, ""},
		{"invalid, IP + NONE", func(s *api.Service) { ips(s, "2001::1", "2001::1", "None") }, 1, ""},
		{"invalid, EMPTY STRING + IP", func(s *api.Service) { ips(s, "", "", "2001::1") }, 2, ""},
		{"invalid, IP + EMPTY STRING", func(s *api.Service) { ips(s, "2001::1", "2001::1", "") }, 1, ""},
		{"invalid, same ip family (v6)", func(s *api.Service) {
			ips(s, "2001::1", "2001::1", "2001::4")
			s.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}
		}, 2, ""},
		{"invalid, more than two ips", func(s *api.Service) {
			ips(s, "10.0.0.1", "10.0.0.1", "2001::1", "10.0.0.10")
			s.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}
		}, 1, ""},
		{"multi ip, dualstack not set (request for downgrade)", func(s *api.Service) {
			s.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicySingleStack)
			ips(s, "10.0.0.1", "10.0.0.1", "2001::1")
			s.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}
		}, 0, ""},
		{"valid, headless-no-selector + multi family", func(s *api.Service) {
			s.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicyRequireDualStack)
			ips(s, "None", "None")
			s.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}
			s.Spec.Selector = nil
		}, 0, ""},
		{"invalid, families don't match (v4=>v6)", func(s *api.Service) {
			ips(s, "10.0.0.1", "10.0.0.1")
			s.Spec.IPFamilies = []api.IPFamily{api.IPv6Protocol}
		}, 1, ""},
		{"invalid, families don't match (v6=>v4)", func(s *api.Service) {
			ips(s, "2001::1", "2001::1")
			s.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol}
		}, 1, ""},
		{"valid, ips, multi ipfamilies (6,4)", func(s *api.Service) {
			ips(s, "2001::1", "2001::1", "10.0.0.1")
			s.Spec.IPFamilies = []api.IPFamily{api.IPv6Protocol, api.IPv4Protocol}
		}, 0, ""},
		{"valid appProtocol", func(s *api.Service) { s.Spec.Ports[0].AppProtocol = str("HTTP") }, 0, ""},
		{"invalid appProtocol", func(s *api.Service) {
			s.Spec.Ports[0].AppProtocol = str("example.com/protocol_with{invalid}[characters]")
		}, 1, ""},
		{"invalid cluster ip != clusterIP in multi ip service", func(s *api.Service) { ips(s, "10.0.0.10", "10.0.0.1", "2001::1") }, 1, ""},
		{"invalid cluster ip != clusterIP in single ip service", func(s *api.Service) { ips(s, "10.0.0.10", "10.0.0.1") }, 1, ""},
		{"Use AllocateLoadBalancerNodePorts when type is not LoadBalancer", func(s *api.Service) { s.Spec.AllocateLoadBalancerNodePorts = &yes }, 1, ""},
		{"valid LoadBalancerClass when type is LoadBalancer", func(s *api.Service) { lb(s); s.Spec.LoadBalancerClass = str("test.com/test-load-balancer-class") }, 0, ""},
		{"invalid LoadBalancerClass", func(s *api.Service) { lb(s); s.Spec.LoadBalancerClass = str("Bad/LoadBalancerClass") }, 1, ""},
		{"invalid: set LoadBalancerClass when type is not LoadBalancer", func(s *api.Service) { s.Spec.LoadBalancerClass = str("test.com/test-load-balancer-class") }, 1, ""},
		{"valid: trafficDistribution field set to PreferClose", func(s *api.Service) { s.Spec.TrafficDistribution = str("PreferClose") }, 0, ""},
		{"valid: trafficDistribution field set to PreferSameZone", func(s *api.Service) { s.Spec.TrafficDistribution = str("PreferSameZone") }, 0, ""},
		{"valid: trafficDistribution field set to PreferSameNode", func(s *api.Service) { s.Spec.TrafficDistribution = str("PreferSameNode") }, 0, ""},
		{"invalid: trafficDistribution field set to Random", func(s *api.Service) { s.Spec.TrafficDistribution = str("Random") }, 1,
			`Service "valid" is invalid: spec.trafficDistribution: Unsupported value: "Random": supported values: "PreferClose", "PreferSameZone", "PreferSameNode"`},
		// TestValidateServiceExternalTrafficPolicy
		{"ExternalTrafficPolicy must be empty for ClusterIP", func(s *api.Service) { s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyCluster }, 1,
			`Service "valid" is invalid: spec.externalTrafficPolicy: Invalid value: "Cluster": may only be set for externally-accessible services`},
		{"ExternalTrafficPolicy required for NodePort", func(s *api.Service) { nodePort(s); s.Spec.ExternalTrafficPolicy = "" }, 1, ""},
		{"HealthCheckNodePort only for LoadBalancer with Local", func(s *api.Service) { nodePort(s); s.Spec.HealthCheckNodePort = 3001 }, 1, ""},
		{"HealthCheckNodePort out of range", func(s *api.Service) {
			lb(s)
			s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyLocal
			s.Spec.HealthCheckNodePort = 65536
		}, 1, ""},
	}
	for _, tc := range create {
		t.Run(tc.name, func(t *testing.T) {
			s := validService()
			tc.tweak(s)
			err := Validate(s, nil)
			if n := len(serviceErrs(err)); n != tc.numErrs {
				t.Errorf("%d errors, want %d: %v", n, tc.numErrs, err)
			}
			if tc.want != "" && (err == nil || err.Error() != tc.want) {
				t.Errorf("error %v\nwant %s", err, tc.want)
			}
		})
	}

	update := []struct {
		name    string
		tweak   func(old, s *api.Service)
		numErrs int
	}{
		{"no change", func(old, s *api.Service) {}, 0},
		{"change selector", func(old, s *api.Service) { s.Spec.Selector = map[string]string{"newkey": "newvalue"} }, 0},
		{"add port", func(old, s *api.Service) { s.Spec.Ports = append(s.Spec.Ports, port("q", 12345, "TCP", 0)) }, 0},
		{"change to NodePort", nodePortUpdate, 0},
		{"change to LoadBalancer", func(old, s *api.Service) { lb(s) }, 0},
		{"LoadBalancer type cannot have None ClusterIP", func(old, s *api.Service) { lb(s); ips(s, "None", "None") }, 1},
		{"`None` ClusterIP can NOT be changed", func(old, s *api.Service) { ips(old, "None", "None"); ips(s, "1.2.3.4", "1.2.3.4") }, 1},
		{"`None` ClusterIP can NOT be removed", func(old, s *api.Service) { ips(old, "None", "None"); ips(s, "", nil...) }, 1},
		{"ClusterIP can NOT be changed to None", func(old, s *api.Service) { ips(old, "1.2.3.4", "1.2.3.4"); ips(s, "None", "None") }, 1},
		{"Service with ClusterIP type cannot change its set ClusterIP", func(old, s *api.Service) {
			ips(old, "1.2.3.4", "1.2.3.4")
			ips(s, "1.2.3.5", "1.2.3.5")
		}, 1},
		{"Service with ClusterIP type can change its empty ClusterIP", func(old, s *api.Service) { ips(s, "1.2.3.5", "1.2.3.5") }, 0},
		{"Service with ClusterIP type cannot change its set ClusterIP when changing type to NodePort", func(old, s *api.Service) {
			nodePort(s)
			ips(old, "1.2.3.4", "1.2.3.4")
			ips(s, "1.2.3.5", "1.2.3.5")
		}, 1},
		{"Service with LoadBalancer type can change its AllocateLoadBalancerNodePorts from true to false", func(old, s *api.Service) {
			lb(old)
			lb(s)
			s.Spec.AllocateLoadBalancerNodePorts = &no
		}, 0},
		{"Service with ExternalName type can change its set ClusterIP when changing type to ClusterIP", func(old, s *api.Service) {
			old.Spec.Type = api.ServiceTypeExternalName
			ips(old, "1.2.3.4", "1.2.3.4")
			ips(s, "1.2.3.5", "1.2.3.5")
		}, 0},
		{"invalid node port with clusterIP None", func(old, s *api.Service) {
			nodePort(old)
			nodePort(s)
			old.Spec.Ports = append(old.Spec.Ports, port("q", 1, "TCP", 1))
			s.Spec.Ports = append(s.Spec.Ports, port("q", 1, "TCP", 1))
			ips(s, "None", "None")
		}, 1},
		{"invalid: convert to ExternalName", func(old, s *api.Service) {
			ips(old, "10.0.0.10", "10.0.0.10")
			old.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol}
			old.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicySingleStack)
			s.Spec.Type = api.ServiceTypeExternalName
			s.Spec.ExternalName = "foo"
			ips(s, "10.0.0.10", "10.0.0.10")
			s.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol}
			s.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicySingleStack)
		}, 3},
		{"valid: convert to ExternalName", func(old, s *api.Service) {
			ips(old, "10.0.0.10", "10.0.0.10")
			s.Spec.Type = api.ServiceTypeExternalName
			s.Spec.ExternalName = "foo"
		}, 0},
		{"remove secondary ServiceIPFamily without SingleStack", func(old, s *api.Service) {
			old.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicyRequireDualStack)
			old.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}
			ips(old, "10.0.0.1", "10.0.0.1")
			ips(s, "10.0.0.1", "10.0.0.1")
			s.Spec.IPFamilyPolicy = policy(api.IPFamilyPolicyPreferDualStack)
			s.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol}
		}, 1},
		{"change primary ServiceIPFamily", func(old, s *api.Service) {
			old.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol}
			s.Spec.IPFamilies = []api.IPFamily{api.IPv6Protocol}
		}, 1},
		{"update LoadBalancer type of service with a changed loadBalancerClass", func(old, s *api.Service) {
			lb(old)
			old.Spec.LoadBalancerClass = str("test.com/test-load-balancer-class")
			lb(s)
			s.Spec.LoadBalancerClass = str("test.com/another-load-balancer-class")
		}, 1},
		{"update to LoadBalancer type of service with loadBalancerClass", func(old, s *api.Service) {
			lb(s)
			s.Spec.LoadBalancerClass = str("test.com/test-load-balancer-class")
		}, 0},
		{"healthCheckNodePort is immutable", func(old, s *api.Service) {
			lb(old)
			old.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyLocal
			old.Spec.HealthCheckNodePort = 30100
			lb(s)
			s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyLocal
			s.Spec.HealthCheckNodePort = 30101
		}, 1},
	}
	for _, tc := range update {
		t.Run("update/"+tc.name, func(t *testing.T) {
			old, s := validService(), validService()
			old.Namespace, s.Namespace = "default", "default"
			tc.tweak(old, s)
			err := Validate(s, old)
			if n := len(serviceErrs(err)); n != tc.numErrs {
				t.Errorf("%d errors, want %d: %v", n, tc.numErrs, err)
			}
		})
	}
}

func nodePortUpdate(old, s *api.Service) {
	s.Spec.Type = api.ServiceTypeNodePort
	s.Spec.ExternalTrafficPolicy = api.ServiceTrafficPolicyCluster
}

// TestServiceStrategyUpstream: what upstream's service registry does
// between defaulting and validation (normalizeClusterIPs,
// patchAllocatedValues, dropTypeDependentFields, k/k
// pkg/registry/core/service) and SetDefaults_Service's
// externalTrafficPolicy for a ClusterIP service with externalIPs, seen
// through the server: the writes below are each accepted upstream.
func TestServiceStrategyUpstream(t *testing.T) {
	f := newFixture(t)
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.ServiceSpec{
		Type: api.ServiceTypeNodePort, ClusterIP: "10.96.0.10", Selector: map[string]string{"app": "web"},
		Ports: []api.ServicePort{{Port: 80, NodePort: 30080}}}}
	got := f.must(t, &Request{Verb: Create, Kind: api.KindService, Actor: user, Object: svc}).(*api.Service)
	if len(got.Spec.ClusterIPs) != 1 || got.Spec.ClusterIPs[0] != "10.96.0.10" {
		t.Fatalf("clusterIPs %v, want [10.96.0.10]", got.Spec.ClusterIPs)
	}
	// A PUT without clusterIP keeps the stored one.
	put := got.DeepCopyObject().(*api.Service)
	put.Spec.ClusterIP, put.Spec.ClusterIPs = "", nil
	got = f.must(t, &Request{Verb: Update, Kind: api.KindService, Actor: user, Object: put}).(*api.Service)
	if got.Spec.ClusterIP != "10.96.0.10" || len(got.Spec.ClusterIPs) != 1 {
		t.Errorf("after an update without clusterIP: %q %v", got.Spec.ClusterIP, got.Spec.ClusterIPs)
	}
	// kubectl edit of the type only: the node port and the traffic
	// policy the request still carries are dropped, not refused.
	edit := got.DeepCopyObject().(*api.Service)
	edit.Spec.Type = api.ServiceTypeClusterIP
	got = f.must(t, &Request{Verb: Update, Kind: api.KindService, Actor: user, Object: edit}).(*api.Service)
	if got.Spec.Ports[0].NodePort != 0 || got.Spec.ExternalTrafficPolicy != "" {
		t.Errorf("after the type change: nodePort %d, externalTrafficPolicy %q", got.Spec.Ports[0].NodePort, got.Spec.ExternalTrafficPolicy)
	}
	// Changing the set clusterIP is refused.
	move := got.DeepCopyObject().(*api.Service)
	move.Spec.ClusterIP = "10.96.0.11"
	resp := f.do(&Request{Verb: Update, Kind: api.KindService, Actor: user, Object: move})
	want := `Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.96.0.11"]: may not change once set`
	if resp.Err == nil || resp.Err.Error() != want {
		t.Errorf("clusterIP change: %v\nwant %s", resp.Err, want)
	}
	ext := &api.Service{ObjectMeta: api.ObjectMeta{Name: "ext", Namespace: "default"}, Spec: api.ServiceSpec{
		ExternalIPs: []string{"203.0.113.7"}, Ports: []api.ServicePort{{Port: 80}}}}
	got = f.must(t, &Request{Verb: Create, Kind: api.KindService, Actor: user, Object: ext}).(*api.Service)
	if got.Spec.ExternalTrafficPolicy != api.ServiceTrafficPolicyCluster {
		t.Errorf("ClusterIP with externalIPs: externalTrafficPolicy %q, want Cluster", got.Spec.ExternalTrafficPolicy)
	}
}
