package apiserver

import (
	"fmt"
	"net/netip"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// Limits of an EndpointSlice (k/k pkg/apis/discovery/validation:
// maxEndpoints, maxAddresses).
const (
	maxSliceEndpoints = 1000
	maxSliceAddresses = 100
)

// validateDiscovery adds the rules of EndpointSlices with Kubernetes'
// messages (k/k pkg/apis/discovery/validation/validation.go
// ValidateEndpointSlice: validateAddressType, validateEndpoints): a
// supported address type, at most 1000 endpoints, each with 1 to 100
// addresses of the slice's family.
func validateDiscovery(obj api.Object, errs []apierr.FieldError) []apierr.FieldError {
	s, ok := obj.(*api.EndpointSlice)
	if !ok {
		return errs
	}
	switch s.AddressType {
	case "":
		return append(errs, apierr.FieldError{Field: "addressType", Type: "Required value"})
	case api.AddressTypeIPv4, api.AddressTypeIPv6, api.AddressTypeFQDN:
	default:
		return append(errs, apierr.FieldError{Field: "addressType", Type: "Unsupported value", Value: s.AddressType,
			Detail: quoted(api.AddressTypeFQDN, api.AddressTypeIPv4, api.AddressTypeIPv6)})
	}
	if len(s.Endpoints) > maxSliceEndpoints {
		return append(errs, apierr.FieldError{Field: "endpoints", Type: "Too many", Value: len(s.Endpoints),
			Detail: fmt.Sprintf("must have at most %d items", maxSliceEndpoints)})
	}
	for i, ep := range s.Endpoints {
		f := fmt.Sprintf("endpoints[%d].addresses", i)
		switch {
		case len(ep.Addresses) == 0:
			errs = append(errs, apierr.FieldError{Field: f, Type: "Required value", Detail: "must contain at least 1 address"})
		case len(ep.Addresses) > maxSliceAddresses:
			errs = append(errs, apierr.FieldError{Field: f, Type: "Too many", Value: len(ep.Addresses),
				Detail: fmt.Sprintf("must have at most %d items", maxSliceAddresses)})
		}
		for j, a := range ep.Addresses {
			if s.AddressType == api.AddressTypeFQDN {
				continue
			}
			ip, err := netip.ParseAddr(a)
			v6 := s.AddressType == api.AddressTypeIPv6
			if err != nil || ip.Is6() != v6 || ip.Is4In6() {
				errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("%s[%d]", f, j), Type: "Invalid value", Value: a,
					Detail: "must be a valid " + s.AddressType + " address"})
			}
		}
	}
	return errs
}
