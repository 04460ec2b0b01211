package kubectl

import (
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// TestEndpointSliceRow follows upstream's TestPrintEndpointSlice (k/k
// pkg/printers/internalversion/printers_test.go): the port numbers and
// addresses, three at most then "+ N more...", <unset> when empty.
func TestEndpointSliceRow(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := func(n int32) api.EndpointSlicePort { return api.EndpointSlicePort{Port: &n} }
	named := "http"
	ep := func(a ...string) api.Endpoint { return api.Endpoint{Addresses: a} }
	tests := []struct {
		name  string
		slice api.EndpointSlice
		want  []string
	}{
		{"one port, two addresses", api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "abcslice.123"}, AddressType: "IPv4",
			Ports: []api.EndpointSlicePort{p(80)}, Endpoints: []api.Endpoint{ep("10.1.2.3", "2001:db8::1234:5678")}},
			[]string{"abcslice.123", "IPv4", "80", "10.1.2.3,2001:db8::1234:5678", "<unknown>"}},
		{"four ports, four addresses", api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "longerslicename.123"}, AddressType: "IPv6",
			Ports:     []api.EndpointSlicePort{p(80), p(443), p(8080), p(8443)},
			Endpoints: []api.Endpoint{ep("2001:db8::1"), ep("2001:db8::2"), ep("2001:db8::3", "2001:db8::4")}},
			[]string{"longerslicename.123", "IPv6", "80,443,8080 + 1 more...", "2001:db8::1,2001:db8::2,2001:db8::3 + 1 more...", "<unknown>"}},
		{"a port without a number, no endpoints", api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "web-abcde"}, AddressType: "IPv4",
			Ports: []api.EndpointSlicePort{{Name: &named}, {}}},
			[]string{"web-abcde", "IPv4", "http,*", "<unset>", "<unknown>"}},
		{"placeholder", api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "web-abcde"}, AddressType: "IPv4"},
			[]string{"web-abcde", "IPv4", "<unset>", "<unset>", "<unknown>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := endpointSliceRow(&tt.slice, now); !slices.Equal(got, tt.want) {
				t.Errorf("row = %q, want %q", got, tt.want)
			}
		})
	}
}
