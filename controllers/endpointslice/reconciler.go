package endpointslice

import (
	"bytes"
	"encoding/json"
	"maps"
	"net/netip"
	"slices"

	"github.com/clustersim/clustersim/controllers/endpoints"
	"github.com/clustersim/clustersim/sim/api"
)

// DefaultMaxEndpointsPerSlice is --max-endpoints-per-slice: 100.
const DefaultMaxEndpointsPerSlice = 100

// ManagedBy is the endpointslice.kubernetes.io/managed-by value of the
// slices this controller owns (upstream's ControllerName).
const ManagedBy = "endpointslice-controller.k8s.io"

// Plan is what one sync of a service writes: slices to create (with a
// generateName), to update and to delete, in that order.
type Plan struct {
	Create, Update, Delete []*api.EndpointSlice
}

// Empty reports whether the plan writes nothing.
func (p Plan) Empty() bool { return len(p.Create)+len(p.Update)+len(p.Delete) == 0 }

// NodeGetter returns a node by name, or nil.
type NodeGetter func(name string) *api.Node

// Reconcile is upstream's Reconciler.Reconcile (staging/src/k8s.io/
// endpointslice/reconciler.go): from the service, the pods its selector
// matches (in name order) and the service's existing slices, it plans the
// writes that make one set of slices per address type the service
// supports, grouped by the ports the endpoints serve, at most max
// endpoints each.
//
// It is a Service's memo (memo.go) made afresh: the controller keeps one
// per Service across syncs.
func Reconcile(svc *api.Service, pods []*api.Pod, node NodeGetter, existing []*api.EndpointSlice, max int) Plan {
	var m serviceMemo
	return m.reconcile(svc, pods, node, existing, max)
}

// reconcileTypes is Reconcile once the address types are known: the
// existing slices of a type the service no longer has are deleted, and
// each type's are reconciled with desired[i], the endpoints the Service
// wants of types[i] (its memo's).
func reconcileTypes(svc *api.Service, types []string, existing []*api.EndpointSlice, max int, desired []*desiredEndpoints) Plan {
	if max <= 0 {
		max = DefaultMaxEndpointsPerSlice
	}
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
	for i, t := range types {
		p := reconcileByAddressType(svc, desired[i], byType[t], t, max)
		plan.Create = append(plan.Create, p.Create...)
		plan.Update = append(plan.Update, p.Update...)
		deletes = append(deletes, p.Delete...)
	}
	plan.Delete = append(deletes, plan.Delete...)
	return plan
}

// addressTypes is getAddressTypesForService: the service's IP families;
// without them, its cluster IP's family, and both for a headless
// service. The simulator allocates no cluster IPs: a service without one
// (and without families) is taken as the IPv4 service the API server of a
// single-stack cluster would have made it.
func addressTypes(svc *api.Service) []string {
	var out []string
	for _, f := range svc.Spec.IPFamilies {
		t := api.AddressTypeIPv4
		if f == api.IPv6Protocol {
			t = api.AddressTypeIPv6
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if len(out) > 0 {
		return out
	}
	if ip := svc.Spec.ClusterIP; ip == "" {
		return []string{api.AddressTypeIPv4}
	} else if ip != "None" {
		if isIPv6(ip) {
			return []string{api.AddressTypeIPv6}
		}
		return []string{api.AddressTypeIPv4}
	}
	return []string{api.AddressTypeIPv4, api.AddressTypeIPv6}
}

func isIPv6(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && !a.Is4In6()
}

// endpointSet is upstream's EndpointSet keeping insertion (pod name)
// order, so that the endpoints popped into new slices are deterministic
// (upstream pops in hash order). Unlike upstream's, a sync inserts every
// endpoint before it takes or pops any (reconcileByAddressType fills the
// set, reconcileByPortMapping empties it), so an endpoint taken or popped
// is only marked so, its place in eps set to nil: its key stays in index,
// no map entry is deleted and no list of keys kept beside the map.
type endpointSet struct {
	eps   []*api.Endpoint  // in insertion order; nil once taken or popped
	index map[string]int32 // endpointKey -> position in eps
	left  int              // endpoints neither taken nor popped
	next  int              // where pop looks first: eps before it are nil
	buf   []byte           // take's endpointKey, reused: a lookup by it allocates nothing
}

// newEndpointSet returns a set sized for n endpoints.
func newEndpointSet(n int) *endpointSet {
	return &endpointSet{eps: make([]*api.Endpoint, 0, n), index: make(map[string]int32, n)}
}

// insert adds ep, whose endpointKey is key, unless an endpoint with that
// key is in the set already.
func (s *endpointSet) insert(key string, ep *api.Endpoint) {
	if _, ok := s.index[key]; ok {
		return
	}
	s.index[key] = int32(len(s.eps))
	s.eps = append(s.eps, ep)
	s.left++
}

func (s *endpointSet) len() int { return s.left }

// take removes and returns the endpoint with ep's identity, if any.
func (s *endpointSet) take(ep *api.Endpoint) *api.Endpoint {
	s.buf = appendEndpointKey(s.buf[:0], ep)
	i, ok := s.index[string(s.buf)]
	if !ok || s.eps[i] == nil {
		return nil
	}
	got := s.eps[i]
	s.eps[i] = nil
	s.left--
	return got
}

// pop removes and returns the first endpoint left.
func (s *endpointSet) pop() *api.Endpoint {
	for ; s.next < len(s.eps); s.next++ {
		if ep := s.eps[s.next]; ep != nil {
			s.eps[s.next] = nil
			s.left--
			s.next++
			return ep
		}
	}
	return nil
}

// desiredSets is the desired endpoint sets of a sync, n of them: each of
// d's endpoints inserted, in order, into the set d.setOf gives it, under
// its key d.keys gives.
func desiredSets(d *desiredEndpoints, n int) []*endpointSet {
	sizes := make([]int, n)
	for _, s := range d.setOf {
		sizes[s]++
	}
	sets := make([]*endpointSet, n)
	for i := range sets {
		sets[i] = newEndpointSet(sizes[i])
	}
	for i := range d.eps {
		sets[d.setOf[i]].insert(d.keys[i], &d.eps[i])
	}
	return sets
}

// appendEndpointKey appends ep's endpointKey to b: upstream's hashEndpoint
// identity (the target's namespace and name, the addresses sorted, the
// hostname; conditions, node and zone may change in place), without
// sorting a copy of the addresses when there is one (a pod's one IP).
func appendEndpointKey(b []byte, ep *api.Endpoint) []byte {
	if r := ep.TargetRef; r != nil {
		b = append(append(append(b, r.Namespace...), '/'), r.Name...)
	}
	b = append(b, '|')
	addrs := ep.Addresses
	if len(addrs) > 1 && !slices.IsSorted(addrs) {
		addrs = slices.Sorted(slices.Values(addrs))
	}
	for i, a := range addrs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, a...)
	}
	if ep.Hostname != nil {
		b = append(append(b, '|'), *ep.Hostname...)
	}
	return b
}

// same reports whether two values serialize alike.
func same(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// endpointsEqual is same for two endpoints without encoding them (each
// sync compares every endpoint of a Service's slices; encoding both was
// most of a 900-pod Service's sync): each field equal as its JSON is. A
// nil and an empty list of addresses differ ("null" and "[]"), a nil and
// an empty topology do not (both left out), a pointer differs from nil
// whatever it points to.
func endpointsEqual(a, b *api.Endpoint) bool {
	switch {
	case (a.Addresses == nil) != (b.Addresses == nil) || !slices.Equal(a.Addresses, b.Addresses),
		!endpoints.PtrEqual(a.Conditions.Ready, b.Conditions.Ready) || !endpoints.PtrEqual(a.Conditions.Serving, b.Conditions.Serving) ||
			!endpoints.PtrEqual(a.Conditions.Terminating, b.Conditions.Terminating),
		!endpoints.PtrEqual(a.Hostname, b.Hostname) || !endpoints.PtrEqual(a.NodeName, b.NodeName) || !endpoints.PtrEqual(a.Zone, b.Zone),
		!endpoints.PtrEqual(a.TargetRef, b.TargetRef),
		!maps.Equal(a.DeprecatedTopology, b.DeprecatedTopology),
		(a.Hints == nil) != (b.Hints == nil):
		return false
	case a.Hints != nil:
		return same(a.Hints, b.Hints)
	}
	return true
}

// portsKey is NewPortMapKey: the ports as one comparable string.
func portsKey(ports []api.EndpointSlicePort) string {
	j, _ := json.Marshal(ports)
	return string(j)
}

// desiredEndpoints is what one sync wants of one address type: the
// endpoints of the Service's pods, each with the index of its port
// mapping's set (setOf) and its endpointKey (keys), and the port mappings
// in the order they were first met. Upstream makes a set per port mapping
// and inserts each endpoint as it makes it. Here the endpoints are made
// first, into one slice, and the sets are filled after (desiredSets),
// sized to what they hold.
type desiredEndpoints struct {
	eps      []api.Endpoint
	setOf    []int
	keys     []string
	portSets portSets
}

// newDesiredEndpoints returns desired endpoints sized for n pods.
func newDesiredEndpoints(n int) *desiredEndpoints {
	return &desiredEndpoints{eps: make([]api.Endpoint, 0, n), setOf: make([]int, 0, n), keys: make([]string, 0, n)}
}

// add appends ep, whose endpointKey is key, to the endpoints of the set
// set.
func (d *desiredEndpoints) add(ep *api.Endpoint, key string, set int) {
	d.eps = append(d.eps, *ep)
	d.keys = append(d.keys, key)
	d.setOf = append(d.setOf, set)
}

// portSets numbers the port mappings of a sync's endpoints in the order
// they are first met (one set each). The pods of a Service mostly serve
// the same ports: a pod's are compared with the pod before's, and only
// ports not seen just before are made and keyed (encoding every pod's
// ports was a third of a sync's allocations).
type portSets struct {
	index map[string]int            // port key -> index in order
	ports [][]api.EndpointSlicePort // the slices' ports of each mapping
	order []string                  // the port keys (portsKey)
	set   int                       // the set of last
	last  []portValue
	keyed bool
}

// of returns the index of the set of endpoints serving ports (a pod's
// appendPortValues), making one if they are new.
func (s *portSets) of(ports []portValue) int {
	if s.keyed && slices.Equal(ports, s.last) {
		return s.set
	}
	sp := slicePorts(ports)
	k := portsKey(sp)
	s.keyed = true
	s.last = append(s.last[:0], ports...)
	i, ok := s.index[k]
	if !ok {
		if s.index == nil {
			s.index = map[string]int{}
		}
		i = len(s.order)
		s.index[k] = i
		s.ports = append(s.ports, sp)
		s.order = append(s.order, k)
	}
	s.set = i
	return i
}

// reconcileByAddressType plans the writes of the slices of one address
// type (existing, the service's of that type) for the endpoints desired.
func reconcileByAddressType(svc *api.Service, d *desiredEndpoints, existing []*api.EndpointSlice, addrType string, max int) Plan {
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
	ps := &d.portSets
	desired := desiredSets(d, len(ps.order))
	for i, k := range ps.order {
		c, u, del := reconcileByPortMapping(svc, existingByPorts[k], desired[i], ps.ports[i], addrType, max)
		plan.Create = append(plan.Create, c...)
		plan.Update = append(plan.Update, u...)
		plan.Delete = append(plan.Delete, del...)
	}
	for _, k := range existingOrder {
		if _, ok := ps.index[k]; !ok {
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

// placeholderEqual is placeholderSliceCompare: same namespace, labels,
// owner references, address type, and no endpoints or ports.
func placeholderEqual(a, b *api.EndpointSlice) bool {
	return a.Namespace == b.Namespace && maps.Equal(a.Labels, b.Labels) && same(a.OwnerReferences, b.OwnerReferences) &&
		a.AddressType == b.AddressType && len(a.Endpoints) == 0 && len(b.Endpoints) == 0 && len(a.Ports) == 0 && len(b.Ports) == 0
}

// finalize turns creates into updates of slices that would be deleted
// (same address type, owned by the service), as upstream's finalize.
func finalize(svc *api.Service, p Plan) Plan {
	for i := 0; i < len(p.Delete) && len(p.Create) > 0; {
		del := p.Delete[i]
		s := p.Create[len(p.Create)-1]
		if del.AddressType == s.AddressType && ownedBy(del, svc) {
			u := del.DeepCopy()
			u.Labels, u.OwnerReferences = s.Labels, s.OwnerReferences
			u.Endpoints, u.Ports = s.Endpoints, s.Ports
			p.Create = p.Create[:len(p.Create)-1]
			p.Update = append(p.Update, u)
			p.Delete = slices.Delete(p.Delete, i, i+1)
		} else {
			i++
		}
	}
	return p
}

// reconcileByPortMapping is upstream's: existing slices keep the desired
// endpoints they hold (updated in place when their conditions, node or
// zone changed) and lose the others, an emptied slice is deleted; the
// endpoints left fill the updated slices (fullest first), then an
// unchanged slice they fit in best, then new slices.
func reconcileByPortMapping(svc *api.Service, existing []*api.EndpointSlice, desired *endpointSet, ports []api.EndpointSlicePort, addrType string, max int) (create, update, del []*api.EndpointSlice) {
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
		switch {
		case !changed && !labelsDiffer(s.Labels, svc.Labels):
			unchanged = append(unchanged, s)
		case len(found) == 0:
			del = append(del, s)
		default:
			// The endpoints kept are copied only for a slice that
			// changes (most of a sync's slices do not), and the
			// labels made only then.
			kept := make([]api.Endpoint, 0, len(found))
			for _, ep := range found {
				kept = append(kept, *ep)
			}
			labels, _ := sliceLabels(s, svc)
			u := copyForUpdate(s)
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

// copyForUpdate is s.DeepCopy() but for its endpoints and labels, left
// nil for the caller to set (copying a slice's endpoints only to replace
// them was most of an update's allocations).
func copyForUpdate(s *api.EndpointSlice) *api.EndpointSlice {
	c := *s
	c.Endpoints, c.Labels = nil, nil
	return c.DeepCopy()
}

// sliceToFill is getSliceToFill: the slice closest to full once n
// endpoints are added, or -1.
func sliceToFill(ss []*api.EndpointSlice, n, max int) int {
	best, closest := -1, max
	for i, s := range ss {
		diff := max - (n + len(s.Endpoints))
		if diff >= 0 && diff < closest {
			best, closest = i, diff
			if diff == 0 {
				break
			}
		}
	}
	return best
}

// ownedBy reports whether a Service reference with svc's UID owns s.
func ownedBy(s *api.EndpointSlice, svc *api.Service) bool {
	for _, o := range s.OwnerReferences {
		if o.UID == svc.UID && o.Kind == api.KindService.Name && o.APIVersion == "v1" {
			return true
		}
	}
	return false
}

// newSlice is newEndpointSlice: generateName "<service>-", a controller
// reference to the service, and the service's labels.
func newSlice(svc *api.Service, ports []api.EndpointSlicePort, addrType string) *api.EndpointSlice {
	s := &api.EndpointSlice{
		TypeMeta: api.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: api.KindEndpointSlice.Name},
		ObjectMeta: api.ObjectMeta{GenerateName: svc.Name + "-", Namespace: svc.Namespace,
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(svc)}},
		AddressType: addrType,
		Ports:       ports,
		Endpoints:   []api.Endpoint{},
	}
	s.OwnerReferences[0].APIVersion, s.OwnerReferences[0].Kind = "v1", api.KindService.Name
	s.Labels, _ = sliceLabels(s, svc)
	return s
}

// reserved are the labels the controller sets itself.
func reserved(k string) bool {
	return k == api.LabelServiceName || k == api.LabelManagedBy || k == endpoints.LabelHeadless
}

// sliceLabels is setEndpointSliceLabels: the service's labels (but the
// reserved ones), the headless label for a service without a cluster IP,
// the service name and the manager; and whether the non-reserved labels
// differ from the slice's.
func sliceLabels(s *api.EndpointSlice, svc *api.Service) (map[string]string, bool) {
	cur, want := map[string]string{}, map[string]string{}
	for k, v := range s.Labels {
		if !reserved(k) {
			cur[k] = v
		}
	}
	for k, v := range svc.Labels {
		if !reserved(k) {
			want[k] = v
		}
	}
	changed := !maps.Equal(cur, want)
	if svc.Spec.ClusterIP == "None" { // upstream's !isServiceIPSet; no cluster IP is allocated here
		want[endpoints.LabelHeadless] = ""
	}
	want[api.LabelServiceName] = svc.Name
	want[api.LabelManagedBy] = ManagedBy
	return want, changed
}

// labelsDiffer is sliceLabels' second result without making its maps:
// whether the labels of a slice (cur) and of its service (want) differ,
// the reserved ones left out of both.
func labelsDiffer(cur, want map[string]string) bool {
	n := 0
	for k, v := range cur {
		if reserved(k) {
			continue
		}
		if w, ok := want[k]; !ok || w != v {
			return true
		}
		n++
	}
	for k := range want {
		if !reserved(k) {
			n--
		}
	}
	return n != 0
}

// portValue is one of endpointPorts' ports as a comparable value: what
// its key is made of.
type portValue struct {
	name  string
	port  int32
	proto api.Protocol
	app   *string // the service port's own: equal pointers, equal values
}

// appendPortValues appends the ports endpointPorts would give p, as
// values.
func appendPortValues(out []portValue, svc *api.Service, p *api.Pod) []portValue {
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		n, err := endpoints.FindPort(p, sp)
		if err != nil {
			continue
		}
		proto := sp.Protocol
		if proto == "" {
			proto = api.ProtocolTCP
		}
		out = append(out, portValue{sp.Name, n, proto, sp.AppProtocol})
	}
	return out
}

// endpointPorts is getEndpointPorts: each service port the pod serves
// (a named targetPort resolved through its containers), as the slice's
// ports: appendPortValues' values with pointers of their own.
func endpointPorts(svc *api.Service, p *api.Pod) []api.EndpointSlicePort {
	return slicePorts(appendPortValues(nil, svc, p))
}

// slicePorts makes ports of values, each field its own pointer.
func slicePorts(vals []portValue) []api.EndpointSlicePort {
	out := make([]api.EndpointSlicePort, 0, len(vals))
	for _, v := range vals {
		name, n, proto := v.name, v.port, v.proto
		out = append(out, api.EndpointSlicePort{Name: &name, Port: &n, Protocol: &proto, AppProtocol: v.app})
	}
	return out
}

// PodToEndpoint is upstream's podToEndpoint: the pod's addresses of the
// slice's type, serving when the pod is ready, terminating when it is
// being deleted, ready when serving and not terminating (or the service
// publishes not-ready addresses); its node, the node's zone, a targetRef
// and the hostname when the pod's subdomain is the service.
func PodToEndpoint(p *api.Pod, node *api.Node, svc *api.Service, addrType string) api.Endpoint {
	return new(endpointBatch).endpoint(p, node, svc, addrType)
}

// endpointBatch holds what endpoints point to: their conditions, target
// references, node names, zones and hostnames, and addresses, each an
// element of an array the endpoints share rather than a heap object of
// its own (four allocations a pod). A Service's memo makes each pod's
// endpoint in a batch of its own over arrays of one element kept with the
// pod's entry (ownEndpoint), so that an endpoint reused across syncs keeps
// no other alive; nothing writes into a batch once its endpoints are made
// (the client writes copies of the slices planned).
type endpointBatch struct {
	conds [][3]bool // ready, serving, terminating
	refs  []api.ObjectReference
	strs  [][3]string // node name, zone, hostname
	addrs []string
}

// newElem returns a new zero element of *s: the first free one, or, when
// *s is full, the first of an array twice as large (the elements handed
// out are not moved).
func newElem[T any](s *[]T) *T {
	if len(*s) == cap(*s) {
		*s = make([]T, 0, max(2*cap(*s), 1))
	}
	*s = (*s)[:len(*s)+1]
	return &(*s)[len(*s)-1]
}

// endpoint is PodToEndpoint, what the endpoint points to in b.
func (b *endpointBatch) endpoint(p *api.Pod, node *api.Node, svc *api.Service, addrType string) api.Endpoint {
	conds := newElem(&b.conds)
	conds[1] = api.IsPodReady(p)
	conds[2] = p.DeletionTimestamp != nil
	conds[0] = svc.Spec.PublishNotReadyAddresses || (conds[1] && !conds[2])
	ref := newElem(&b.refs)
	ref.Kind, ref.Namespace, ref.Name, ref.UID = "Pod", p.Namespace, p.Name, p.UID
	ep := api.Endpoint{
		Addresses:  b.addresses(p, addrType),
		Conditions: api.EndpointConditions{Ready: &conds[0], Serving: &conds[1], Terminating: &conds[2]},
		TargetRef:  ref,
	}
	var zone string
	if node != nil {
		zone = node.Labels[api.LabelTopologyZone]
	}
	hostname := p.Spec.Hostname != "" && p.Spec.Subdomain == svc.Name && p.Namespace == svc.Namespace
	if p.Spec.NodeName == "" && zone == "" && !hostname {
		return ep
	}
	strs := newElem(&b.strs)
	*strs = [3]string{p.Spec.NodeName, zone, p.Spec.Hostname}
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

// addresses is getEndpointAddresses: the pod IPs of the address type, a
// part of b's addrs whose capacity ends with it (an append to it copies,
// never writing over the next endpoint's).
func (b *endpointBatch) addresses(p *api.Pod, addrType string) []string {
	ips := p.Status.PodIPs
	if len(b.addrs)+max(len(ips), 1) > cap(b.addrs) {
		b.addrs = make([]string, 0, max(2*cap(b.addrs), len(ips), 1))
	}
	start := len(b.addrs)
	if len(ips) == 0 && p.Status.PodIP != "" {
		b.addrs = appendAddress(b.addrs, p.Status.PodIP, addrType)
	}
	for _, ip := range ips {
		b.addrs = appendAddress(b.addrs, ip.IP, addrType)
	}
	if len(b.addrs) == start {
		return []string{}
	}
	return b.addrs[start:len(b.addrs):len(b.addrs)]
}

// appendAddress appends ip to out if it is an address of the type.
func appendAddress(out []string, ip, addrType string) []string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return out
	}
	v6 := a.Is6() && !a.Is4In6()
	if v6 != (addrType == api.AddressTypeIPv6) {
		return out
	}
	if a.Is4() {
		// ParseAddr takes an IPv4 address only as its canonical
		// dotted quad: the string is a.String() already.
		return append(out, ip)
	}
	return append(out, a.Unmap().String())
}
