package endpointslice

import (
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// upstreamPod is upstream's newPod(1, ns, ready, 1, terminating) of
// staging/src/k8s.io/endpointslice utils_test.go: pod1 on node-1 at
// 1.2.3.5.
func upstreamPod(ready, terminating bool) *api.Pod {
	p := newPod(1, ready)
	p.Status.PodIP, p.Status.PodIPs = "1.2.3.5", []api.PodIP{{IP: "1.2.3.5"}}
	if terminating {
		p.DeletionTimestamp = &api.Time{}
	}
	return p
}

// TestPodToEndpoint ports upstream's table of the same name row by row
// (staging/src/k8s.io/endpointslice utils_test.go), comparing the whole
// endpoint as upstream's reflect.DeepEqual does (here through its JSON).
func TestPodToEndpoint(t *testing.T) {
	svc := newService()
	svcPublishNotReady := newService()
	svcPublishNotReady.Name = "publishnotready"
	svcPublishNotReady.Spec.PublishNotReadyAddresses = true

	readyPod := upstreamPod(true, false)
	readyTerminatingPod := upstreamPod(true, true)
	readyPodHostname := upstreamPod(true, false)
	readyPodHostname.Spec.Subdomain = svc.Name
	readyPodHostname.Spec.Hostname = "example-hostname"
	unreadyPod := upstreamPod(false, false)
	unreadyTerminatingPod := upstreamPod(false, true)
	multiIPPod := upstreamPod(true, false)
	multiIPPod.Status.PodIPs = []api.PodIP{{IP: "1.2.3.4"}, {IP: "1234::5678:0000:0000:9abc:def0"}}

	b := func(v bool) *bool { return &v }
	s := func(v string) *string { return &v }
	ep := func(addr string, ready, serving, terminating bool, zone, hostname *string, p *api.Pod) api.Endpoint {
		return api.Endpoint{
			Addresses:  []string{addr},
			Conditions: api.EndpointConditions{Ready: b(ready), Serving: b(serving), Terminating: b(terminating)},
			Hostname:   hostname,
			Zone:       zone,
			NodeName:   s("node-1"),
			TargetRef:  &api.ObjectReference{Kind: "Pod", Namespace: ns, Name: p.Name, UID: p.UID},
		}
	}
	tests := []struct {
		name             string
		pod              *api.Pod
		node             *api.Node
		svc              *api.Service
		expectedEndpoint api.Endpoint
	}{
		{name: "Ready pod", pod: readyPod, svc: svc, expectedEndpoint: ep("1.2.3.5", true, true, false, nil, nil, readyPod)},
		{name: "Ready pod + publishNotReadyAddresses", pod: readyPod, svc: svcPublishNotReady, expectedEndpoint: ep("1.2.3.5", true, true, false, nil, nil, readyPod)},
		{name: "Unready pod", pod: unreadyPod, svc: svc, expectedEndpoint: ep("1.2.3.5", false, false, false, nil, nil, readyPod)},
		{name: "Unready pod + publishNotReadyAddresses", pod: unreadyPod, svc: svcPublishNotReady, expectedEndpoint: ep("1.2.3.5", true, false, false, nil, nil, readyPod)},
		{name: "Ready pod + node labels", pod: readyPod, node: node1, svc: svc, expectedEndpoint: ep("1.2.3.5", true, true, false, s("us-central1-a"), nil, readyPod)},
		{name: "Multi IP Ready pod + node labels", pod: multiIPPod, node: node1, svc: svc, expectedEndpoint: ep("1.2.3.4", true, true, false, s("us-central1-a"), nil, readyPod)},
		{name: "Ready pod + hostname", pod: readyPodHostname, node: node1, svc: svc, expectedEndpoint: ep("1.2.3.5", true, true, false, s("us-central1-a"), s("example-hostname"), readyPodHostname)},
		{name: "Ready terminating pod", pod: readyTerminatingPod, svc: svc, expectedEndpoint: ep("1.2.3.5", false, true, true, nil, nil, readyPod)},
		{name: "Not ready terminating pod", pod: unreadyTerminatingPod, svc: svc, expectedEndpoint: ep("1.2.3.5", false, false, true, nil, nil, readyPod)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PodToEndpoint(tt.pod, tt.node, tt.svc, api.AddressTypeIPv4)
			if !same(got, tt.expectedEndpoint) {
				t.Errorf("Expected endpoint: %+v, got: %+v", tt.expectedEndpoint, got)
			}
		})
	}
}

// TestShouldSetHostname ports upstream's table (controller_utils_test.go)
// onto PodToEndpoint, where the hostname is decided.
func TestShouldSetHostname(t *testing.T) {
	pod := func(namespace, hostname, subdomain string) *api.Pod {
		p := upstreamPod(true, false)
		p.Namespace, p.Spec.Hostname, p.Spec.Subdomain = namespace, hostname, subdomain
		return p
	}
	svc := func(namespace, name string) *api.Service {
		s := newService()
		s.Namespace, s.Name = namespace, name
		return s
	}
	tests := []struct {
		name     string
		pod      *api.Pod
		service  *api.Service
		expected bool
	}{
		{"all matching", pod("ns", "foo", "svc-name"), svc("ns", "svc-name"), true},
		{"all matching, hostname not set", pod("ns", "", "svc-name"), svc("ns", "svc-name"), false},
		{"all set, different name/subdomain", pod("ns", "hostname", "subdomain"), svc("ns", "name"), false},
		{"all set, different namespace", pod("ns1", "hostname", "svc-name"), svc("ns2", "svc-name"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PodToEndpoint(tt.pod, nil, tt.service, api.AddressTypeIPv4).Hostname != nil
			if got != tt.expected {
				t.Errorf("expected: %t, got: %t", tt.expected, got)
			}
		})
	}
}

// TestSupportedServiceAddressType ports upstream's table of the same name
// (getAddressTypesForService) onto addressTypes. Upstream returns a set;
// the order here is the families' order, or IPv4 then IPv6 for a headless
// service without families.
func TestSupportedServiceAddressType(t *testing.T) {
	v4, v6 := api.AddressTypeIPv4, api.AddressTypeIPv6
	tests := []struct {
		name                 string
		service              api.ServiceSpec
		expectedAddressTypes []string
	}{
		{"v4 service with no ip families (cluster upgrade)", api.ServiceSpec{ClusterIP: "10.0.0.10"}, []string{v4}},
		{"v6 service with no ip families (cluster upgrade)", api.ServiceSpec{ClusterIP: "2000::1"}, []string{v6}},
		{"v4 service", api.ServiceSpec{IPFamilies: []api.IPFamily{api.IPv4Protocol}}, []string{v4}},
		{"v6 services", api.ServiceSpec{IPFamilies: []api.IPFamily{api.IPv6Protocol}}, []string{v6}},
		{"v4,v6 service", api.ServiceSpec{IPFamilies: []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}}, []string{v4, v6}},
		{"v6,v4 service", api.ServiceSpec{IPFamilies: []api.IPFamily{api.IPv6Protocol, api.IPv4Protocol}}, []string{v6, v4}},
		{"headless with no selector and no families (old api-server)", api.ServiceSpec{ClusterIP: "None"}, []string{v4, v6}},
		{"headless with selector and no families (old api-server)", api.ServiceSpec{Selector: map[string]string{"foo": "bar"}, ClusterIP: "None"}, []string{v4, v6}},
		{"headless with no selector with families", api.ServiceSpec{ClusterIP: "None", IPFamilies: []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}}, []string{v4, v6}},
		{"headless with selector with families", api.ServiceSpec{Selector: map[string]string{"foo": "bar"}, ClusterIP: "None", IPFamilies: []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}}, []string{v4, v6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := addressTypes(&api.Service{Spec: tt.service})
			if !slices.Equal(got, tt.expectedAddressTypes) {
				t.Errorf("address types %v, want %v", got, tt.expectedAddressTypes)
			}
		})
	}
}
