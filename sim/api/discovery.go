package api

import "maps"

// KindEndpointSlice is discovery.k8s.io/v1 EndpointSlice.
var KindEndpointSlice = Kind{"discovery.k8s.io", "EndpointSlice"}

// EndpointSlice labels and address types (k8s.io/api discovery/v1
// well_known_labels.go and types.go).
const (
	// LabelServiceName names the Service an EndpointSlice belongs to.
	LabelServiceName = "kubernetes.io/service-name"
	// LabelManagedBy names the controller or user managing a slice.
	LabelManagedBy = "endpointslice.kubernetes.io/managed-by"
	// AddressTypeIPv4 is an EndpointSlice of IPv4 addresses.
	AddressTypeIPv4 = "IPv4"
	// AddressTypeIPv6 is an EndpointSlice of IPv6 addresses.
	AddressTypeIPv6 = "IPv6"
	// AddressTypeFQDN is an EndpointSlice of fully qualified domain names.
	AddressTypeFQDN = "FQDN"
)

// EndpointSlice is a subset of the endpoints behind a Service
// (discovery.k8s.io/v1).
type EndpointSlice struct {
	// TypeMeta holds apiVersion and kind.
	TypeMeta `json:",inline"`
	// ObjectMeta is the slice's metadata.
	ObjectMeta `json:"metadata,omitempty"`
	// AddressType is IPv4, IPv6 or FQDN; immutable.
	AddressType string `json:"addressType"`
	// Endpoints are the slice's endpoints (at most 1000).
	Endpoints []Endpoint `json:"endpoints"`
	// Ports every endpoint of the slice serves.
	Ports []EndpointSlicePort `json:"ports"`
}

// Endpoint is one endpoint of an EndpointSlice.
type Endpoint struct {
	// Addresses of the endpoint (one for a pod).
	Addresses []string `json:"addresses"`
	// Conditions of the endpoint.
	Conditions EndpointConditions `json:"conditions,omitempty"`
	// Hostname of the endpoint.
	Hostname *string `json:"hostname,omitempty"`
	// TargetRef points at the pod.
	TargetRef *ObjectReference `json:"targetRef,omitempty"`
	// DeprecatedTopology is kept opaque.
	DeprecatedTopology map[string]string `json:"deprecatedTopology,omitempty"`
	// NodeName hosting the endpoint.
	NodeName *string `json:"nodeName,omitempty"`
	// Zone of the endpoint's node.
	Zone *string `json:"zone,omitempty"`
	// Hints are kept opaque (no topology-aware routing is simulated).
	Hints *RawValue `json:"hints,omitempty"`
}

// EndpointConditions are an endpoint's ready, serving and terminating
// conditions.
type EndpointConditions struct {
	// Ready: serving and not terminating (or the service publishes
	// not-ready addresses).
	Ready *bool `json:"ready,omitempty"`
	// Serving: the pod is ready, terminating or not.
	Serving *bool `json:"serving,omitempty"`
	// Terminating: the pod is being deleted.
	Terminating *bool `json:"terminating,omitempty"`
}

// EndpointSlicePort is a port of an EndpointSlice (discovery/v1
// EndpointPort).
type EndpointSlicePort struct {
	// Name matches the service port's name.
	Name *string `json:"name,omitempty"`
	// Protocol defaults to TCP.
	Protocol *Protocol `json:"protocol,omitempty"`
	// Port number.
	Port *int32 `json:"port,omitempty"`
	// AppProtocol is the application protocol hint.
	AppProtocol *string `json:"appProtocol,omitempty"`
}

// DeepCopyObject returns a deep copy of in (nil for nil).
func (in *EndpointSlice) DeepCopyObject() Object {
	if c := in.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a deep copy of in (nil for nil).
func (in *EndpointSlice) DeepCopy() *EndpointSlice {
	if in == nil {
		return nil
	}
	out := new(EndpointSlice)
	in.DeepCopyInto(out)
	return out
}

// DeepCopyInto copies in into out, sharing no memory with in. A slice is
// copied on every write of the EndpointSlice controller (the client's copy
// of what it sends, and of the reply), up to 1,000 endpoints of seven
// pointers each: the endpoints' pointed-to values are allocated together,
// one array per type for the whole slice, rather than one allocation per
// pointer. Each pointer still has a value of its own (no two share one),
// and no address list's capacity reaches into the next one's.
func (in *EndpointSlice) DeepCopyInto(out *EndpointSlice) {
	*out = *in
	in.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if in.Endpoints != nil {
		out.Endpoints = copyEndpoints(in.Endpoints)
	}
	if in.Ports != nil {
		out.Ports = make([]EndpointSlicePort, len(in.Ports))
		for i := range in.Ports {
			in.Ports[i].DeepCopyInto(&out.Ports[i])
		}
	}
}

// copyEndpoints deep-copies a slice's endpoints, the pointed-to values of
// each type in one array (see EndpointSlice.DeepCopyInto).
func copyEndpoints(in []Endpoint) []Endpoint {
	out := make([]Endpoint, len(in))
	copy(out, in)
	var addrs, strs, bools, refs int
	for i := range in {
		e := &in[i]
		addrs += len(e.Addresses)
		strs += countSet(e.Hostname, e.NodeName, e.Zone)
		bools += countSet(e.Conditions.Ready, e.Conditions.Serving, e.Conditions.Terminating)
		refs += countSet(e.TargetRef)
	}
	addrArr := make([]string, addrs)
	strArr := make([]string, strs)
	boolArr := make([]bool, bools)
	refArr := make([]ObjectReference, refs)
	for i := range out {
		e, o := &in[i], &out[i]
		if e.Addresses != nil {
			n := copy(addrArr, e.Addresses)
			o.Addresses, addrArr = addrArr[:n:n], addrArr[n:]
		}
		o.Hostname, strArr = copyInto(e.Hostname, strArr)
		o.NodeName, strArr = copyInto(e.NodeName, strArr)
		o.Zone, strArr = copyInto(e.Zone, strArr)
		o.Conditions.Ready, boolArr = copyInto(e.Conditions.Ready, boolArr)
		o.Conditions.Serving, boolArr = copyInto(e.Conditions.Serving, boolArr)
		o.Conditions.Terminating, boolArr = copyInto(e.Conditions.Terminating, boolArr)
		o.TargetRef, refArr = copyInto(e.TargetRef, refArr)
		if e.DeprecatedTopology != nil {
			o.DeprecatedTopology = maps.Clone(e.DeprecatedTopology)
		}
		o.Hints = copyRawPtr(e.Hints)
	}
	return out
}

// DeepCopyInto copies in into out, sharing no memory with in.
func (in *EndpointSlicePort) DeepCopyInto(out *EndpointSlicePort) {
	*out = *in
	out.Name = copyPtr(in.Name)
	out.Protocol = copyPtr(in.Protocol)
	out.Port = copyPtr(in.Port)
	out.AppProtocol = copyPtr(in.AppProtocol)
}

// SetDefaultsEndpointSlice applies discovery/v1 defaults (k/k
// pkg/apis/discovery/v1/defaults.go SetDefaults_EndpointPort): every
// port's name "" and protocol TCP when unset.
func SetDefaultsEndpointSlice(s *EndpointSlice) {
	for i := range s.Ports {
		p := &s.Ports[i]
		if p.Name == nil {
			p.Name = new(string)
		}
		if p.Protocol == nil {
			tcp := ProtocolTCP
			p.Protocol = &tcp
		}
	}
}
