package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateDiscovery checks the EndpointSlice rules against upstream's
// messages (k/k pkg/apis/discovery/validation/validation_test.go
// TestValidateEndpointSlice cases of the same fields).
func TestValidateDiscovery(t *testing.T) {
	slice := func(mod func(*api.EndpointSlice)) *api.EndpointSlice {
		s := &api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "web-abcde", Namespace: "default"}, AddressType: api.AddressTypeIPv4,
			Endpoints: []api.Endpoint{{Addresses: []string{"10.1.2.3"}}}}
		mod(s)
		return s
	}
	tests := []struct {
		name string
		obj  api.Object
		want string
	}{
		{"valid", slice(func(*api.EndpointSlice) {}), ""},
		{"no address type", slice(func(s *api.EndpointSlice) { s.AddressType = "" }),
			`EndpointSlice.discovery.k8s.io "web-abcde" is invalid: addressType: Required value`},
		{"unknown address type", slice(func(s *api.EndpointSlice) { s.AddressType = "IP" }),
			`EndpointSlice.discovery.k8s.io "web-abcde" is invalid: addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"`},
		{"endpoint without addresses", slice(func(s *api.EndpointSlice) { s.Endpoints[0].Addresses = nil }),
			`EndpointSlice.discovery.k8s.io "web-abcde" is invalid: endpoints[0].addresses: Required value: must contain at least 1 address`},
		{"IPv6 address in an IPv4 slice", slice(func(s *api.EndpointSlice) { s.Endpoints[0].Addresses = []string{"2001:db8::1"} }),
			`EndpointSlice.discovery.k8s.io "web-abcde" is invalid: endpoints[0].addresses[0]: Invalid value: "2001:db8::1": must be a valid IPv4 address`},
		{"too many endpoints", slice(func(s *api.EndpointSlice) { s.Endpoints = make([]api.Endpoint, 1001) }),
			`EndpointSlice.discovery.k8s.io "web-abcde" is invalid: endpoints: Too many: 1001: must have at most 1000 items`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			if err := Validate(tt.obj, nil); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
