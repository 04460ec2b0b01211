package endpointslice

// The reconciler as it was before its endpoints were made in batches
// (commit 9409883): the reference TestReconcileIsReference compares
// Reconcile with. Only the functions that changed are kept here, renamed
// ref...; the helpers both share are the package's.

import (
	"net/netip"
	"slices"

	"github.com/clustersim/clustersim/controllers/endpoints"
	"github.com/clustersim/clustersim/sim/api"
)

func refReconcile(svc *api.Service, pods []*api.Pod, node NodeGetter, existing []*api.EndpointSlice, max int) Plan {
	if max <= 0 {
		max = DefaultMaxEndpointsPerSlice
	}
	types := addressTypes(svc)
	var plan Plan
	byType := map[string][]*api.EndpointSlice{}
	for _, s := range existing {
		if !slices.Contains(types, s.AddressType) {
			plan.Delete = append(plan.Delete, s) // an address type the service no longer has
			continue
		}
		byType[s.AddressType] = append(byType[s.AddressType], s)
	}
	var deletes []*api.EndpointSlice
	for _, t := range types {
		p := refByAddressType(svc, pods, node, byType[t], t, max)
		plan.Create = append(plan.Create, p.Create...)
		plan.Update = append(plan.Update, p.Update...)
		deletes = append(deletes, p.Delete...)
	}
	plan.Delete = append(deletes, plan.Delete...)
	return plan
}

// refSet is upstream's EndpointSet keeping insertion (pod name)
// order, so that the endpoints popped into new slices are deterministic
// (upstream pops in hash order).
type refSet struct {
	keys []string
	eps  map[string]*api.Endpoint
	buf  []byte // endpointKey's, reused: a lookup by it allocates nothing
}

func (s *refSet) insert(ep *api.Endpoint) {
	s.buf = appendEndpointKey(s.buf[:0], ep)
	if _, ok := s.eps[string(s.buf)]; ok {
		return
	}
	if s.eps == nil {
		s.eps = map[string]*api.Endpoint{}
	}
	k := string(s.buf)
	s.keys = append(s.keys, k)
	s.eps[k] = ep
}

func (s *refSet) len() int { return len(s.eps) }

// take removes and returns the endpoint with ep's identity, if any.
func (s *refSet) take(ep *api.Endpoint) *api.Endpoint {
	s.buf = appendEndpointKey(s.buf[:0], ep)
	got, ok := s.eps[string(s.buf)]
	if ok {
		delete(s.eps, string(s.buf))
	}
	return got
}

// pop removes and returns the first endpoint left.
func (s *refSet) pop() *api.Endpoint {
	for len(s.keys) > 0 {
		k := s.keys[0]
		s.keys = s.keys[1:]
		if ep, ok := s.eps[k]; ok {
			delete(s.eps, k)
			return ep
		}
	}
	return nil
}

func refByAddressType(svc *api.Service, pods []*api.Pod, node NodeGetter, existing []*api.EndpointSlice, addrType string, max int) Plan {
	var plan Plan
	existingByPorts := map[string][]*api.EndpointSlice{}
	var existingOrder []string
	for _, s := range existing {
		if !ownedBy(s, svc) {
			plan.Delete = append(plan.Delete, s)
			continue
		}
		k := portsKey(s.Ports)
		if _, ok := existingByPorts[k]; !ok {
			existingOrder = append(existingOrder, k)
		}
		existingByPorts[k] = append(existingByPorts[k], s)
	}
	desired := map[string]*refSet{}
	desiredPorts := map[string][]api.EndpointSlicePort{}
	var desiredOrder []string
	// The pods of a Service mostly serve the same ports: a pod's are
	// compared with the pod before's, and only ports not seen just
	// before are made and keyed (encoding every pod's ports was a third
	// of a sync's allocations).
	var (
		k          string
		last, this []portValue
		keyed      bool
	)
	for _, p := range pods {
		if !endpoints.ShouldPodBeInEndpoints(p, true) {
			continue
		}
		this = appendPortValues(this[:0], svc, p)
		if !keyed || !slices.Equal(this, last) {
			ports := slicePorts(this)
			k, keyed = portsKey(ports), true
			last = append(last[:0], this...)
			if _, ok := desired[k]; !ok {
				desired[k] = &refSet{}
				desiredPorts[k] = ports
				desiredOrder = append(desiredOrder, k)
			}
		}
		n := node(p.Spec.NodeName)
		if n == nil && !svc.Spec.PublishNotReadyAddresses {
			continue // upstream skips the pod and retries: its node is not known yet
		}
		if ep := refPodToEndpoint(p, n, svc, addrType); len(ep.Addresses) > 0 {
			desired[k].insert(&ep)
		}
	}
	for _, k := range desiredOrder {
		c, u, d := refByPortMapping(svc, existingByPorts[k], desired[k], desiredPorts[k], addrType, max)
		plan.Create = append(plan.Create, c...)
		plan.Update = append(plan.Update, u...)
		plan.Delete = append(plan.Delete, d...)
	}
	for _, k := range existingOrder {
		if _, ok := desired[k]; !ok {
			plan.Delete = append(plan.Delete, existingByPorts[k]...)
		}
	}
	// When no slice would exist, a placeholder without endpoints stands
	// for the service.
	if len(existing) == len(plan.Delete) && len(plan.Create) == 0 {
		ph := newSlice(svc, []api.EndpointSlicePort{}, addrType)
		if len(plan.Delete) == 1 && placeholderEqual(plan.Delete[0], ph) {
			plan.Delete = nil
		} else {
			plan.Create = append(plan.Create, ph)
		}
	}
	return finalize(svc, plan)
}

// refByPortMapping is upstream's: existing slices keep the desired
// endpoints they hold (updated in place when their conditions, node or
// zone changed) and lose the others, an emptied slice is deleted; the
// endpoints left fill the updated slices (fullest first), then an
// unchanged slice they fit in best, then new slices.
func refByPortMapping(svc *api.Service, existing []*api.EndpointSlice, desired *refSet, ports []api.EndpointSlicePort, addrType string, max int) (create, update, del []*api.EndpointSlice) {
	var (
		unchanged []*api.EndpointSlice
		found     []*api.Endpoint // a slice's endpoints still desired, reused
	)
	for _, s := range existing {
		found = found[:0]
		changed := false
		for i := range s.Endpoints {
			got := desired.take(&s.Endpoints[i])
			if got == nil {
				changed = true
				continue
			}
			if !endpointsEqual(got, &s.Endpoints[i]) {
				changed = true
			}
			found = append(found, got)
		}
		labels, labelsChanged := sliceLabels(s, svc)
		switch {
		case !changed && !labelsChanged:
			unchanged = append(unchanged, s)
		case len(found) == 0:
			del = append(del, s)
		default:
			// The endpoints kept are copied only for a slice that
			// changes (most of a sync's slices do not).
			var kept []api.Endpoint
			for _, ep := range found {
				kept = append(kept, *ep)
			}
			u := s.DeepCopy()
			u.Endpoints, u.Labels = kept, labels
			update = append(update, u)
		}
	}
	if desired.len() > 0 {
		slices.SortStableFunc(update, func(a, b *api.EndpointSlice) int { return len(b.Endpoints) - len(a.Endpoints) })
		for _, s := range update {
			for len(s.Endpoints) < max && desired.len() > 0 {
				s.Endpoints = append(s.Endpoints, *desired.pop())
			}
		}
	}
	for desired.len() > 0 {
		var fill *api.EndpointSlice
		if desired.len() < max && len(unchanged) > 0 {
			if i := sliceToFill(unchanged, desired.len(), max); i >= 0 {
				fill = unchanged[i].DeepCopy()
				unchanged = slices.Delete(unchanged, i, i+1)
			}
		}
		if fill == nil {
			fill = newSlice(svc, ports, addrType)
		}
		for len(fill.Endpoints) < max && desired.len() > 0 {
			fill.Endpoints = append(fill.Endpoints, *desired.pop())
		}
		if fill.Name != "" {
			update = append(update, fill)
		} else {
			create = append(create, fill)
		}
	}
	return create, update, del
}

// refPodToEndpoint is upstream's podToEndpoint: the pod's addresses of the
// slice's type, serving when the pod is ready, terminating when it is
// being deleted, ready when serving and not terminating (or the service
// publishes not-ready addresses); its node, the node's zone, a targetRef
// and the hostname when the pod's subdomain is the service.
func refPodToEndpoint(p *api.Pod, node *api.Node, svc *api.Service, addrType string) api.Endpoint {
	// The conditions' three values and the node, zone and hostname
	// share an allocation each (a sync makes an endpoint of every pod of
	// the Service, most of them to find them unchanged).
	conds := new([3]bool)
	conds[1] = api.IsPodReady(p)
	conds[2] = p.DeletionTimestamp != nil
	conds[0] = svc.Spec.PublishNotReadyAddresses || (conds[1] && !conds[2])
	ep := api.Endpoint{
		Addresses:  refAddresses(p, addrType),
		Conditions: api.EndpointConditions{Ready: &conds[0], Serving: &conds[1], Terminating: &conds[2]},
		TargetRef:  &api.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID},
	}
	var zone string
	if node != nil {
		zone = node.Labels[api.LabelTopologyZone]
	}
	hostname := p.Spec.Hostname != "" && p.Spec.Subdomain == svc.Name && p.Namespace == svc.Namespace
	if p.Spec.NodeName == "" && zone == "" && !hostname {
		return ep
	}
	strs := &[3]string{p.Spec.NodeName, zone, p.Spec.Hostname}
	if strs[0] != "" {
		ep.NodeName = &strs[0]
	}
	if strs[1] != "" {
		ep.Zone = &strs[1]
	}
	if hostname {
		ep.Hostname = &strs[2]
	}
	return ep
}

// addresses is getEndpointAddresses: the pod IPs of the address type.
func refAddresses(p *api.Pod, addrType string) []string {
	out := []string{}
	ips := p.Status.PodIPs
	if len(ips) == 0 && p.Status.PodIP != "" {
		ips = []api.PodIP{{IP: p.Status.PodIP}}
	}
	for _, ip := range ips {
		a, err := netip.ParseAddr(ip.IP)
		if err != nil {
			continue
		}
		v6 := a.Is6() && !a.Is4In6()
		if v6 != (addrType == api.AddressTypeIPv6) {
			continue
		}
		if a.Is4() {
			// ParseAddr takes an IPv4 address only as its canonical
			// dotted quad: the string is a.String() already.
			out = append(out, ip.IP)
		} else {
			out = append(out, a.Unmap().String())
		}
	}
	return out
}
