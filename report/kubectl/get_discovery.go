package kubectl

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// kubectl's EndpointSlice columns (k/k
// pkg/printers/internalversion/printers.go endpointSliceColumnDefinitions,
// printEndpointSlice).
func init() {
	tables[api.KindEndpointSlice] = table{cols("Name", "AddressType", "Ports", "Endpoints", "Age"), endpointSliceRow}
}

func endpointSliceRow(o api.Object, now time.Time) []string {
	s := o.(*api.EndpointSlice)
	return []string{s.Name, s.AddressType, discoveryPorts(s.Ports), discoveryEndpoints(s.Endpoints), since(s.CreationTimestamp, now)}
}

// discoveryPorts is formatDiscoveryPorts: the first three port numbers
// (a name when the number is unset, "*" when both are).
func discoveryPorts(ports []api.EndpointSlicePort) string {
	var list []string
	for _, p := range ports {
		if len(list) == 3 {
			break
		}
		n := "*"
		switch {
		case p.Port != nil:
			n = strconv.Itoa(int(*p.Port))
		case p.Name != nil:
			n = *p.Name
		}
		list = append(list, n)
	}
	return listWithMore(list, len(ports))
}

// discoveryEndpoints is formatDiscoveryEndpoints: the first three
// addresses of every endpoint.
func discoveryEndpoints(eps []api.Endpoint) string {
	var list []string
	count := 0
	for _, ep := range eps {
		for _, a := range ep.Addresses {
			if len(list) < 3 {
				list = append(list, a)
			}
			count++
		}
	}
	return listWithMore(list, count)
}

// listWithMore is listWithMoreString: "a,b,c + N more...", or <unset>
// for an empty list.
func listWithMore(list []string, count int) string {
	ret := strings.Join(list, ",")
	if count > len(list) {
		return fmt.Sprintf("%s + %d more...", ret, count-len(list))
	}
	if ret == "" {
		return "<unset>"
	}
	return ret
}
