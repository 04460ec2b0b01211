package endpoints

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// MaxCapacity is the most addresses an Endpoints object holds; more are
// truncated (upstream's maxCapacity, 1000).
const MaxCapacity = api.EndpointsMaxCapacity

// Well-known keys the controller writes.
const (
	// AnnotationOverCapacity marks an Endpoints object whose addresses
	// were truncated to MaxCapacity; its value is "truncated".
	AnnotationOverCapacity = "endpoints.kubernetes.io/over-capacity"
	// LabelHeadless marks the Endpoints of a headless service (clusterIP
	// None); its value is empty.
	LabelHeadless = "service.kubernetes.io/headless"
)

// ErrNoPort is FindPort's error for a named targetPort the pod does not
// declare with the service port's protocol.
var ErrNoPort = errors.New("no suitable port for manifest")

// ErrNoIP is the error for a pod without an IP of the service's family.
var ErrNoIP = errors.New("failed to find a matching endpoint for service")

// ShouldPodBeInEndpoints reports whether p belongs in endpoints
// (upstream's endpointsliceutil.ShouldPodBeInEndpoints): not terminal,
// with an IP, and not terminating unless includeTerminating.
func ShouldPodBeInEndpoints(p *api.Pod, includeTerminating bool) bool {
	if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		return false
	}
	if p.Status.PodIP == "" && len(p.Status.PodIPs) == 0 {
		return false
	}
	if !includeTerminating && p.DeletionTimestamp != nil {
		return false
	}
	return true
}

// FindPort resolves a service port's targetPort against a pod (upstream's
// podutil.FindPort): a number is used as is; a name must match a port of
// one of the pod's containers or sidecar init containers with the service
// port's protocol.
func FindPort(p *api.Pod, sp *api.ServicePort) (int32, error) {
	tp := sp.TargetPort
	if tp.Type == api.IntOrStringInt {
		return tp.IntVal, nil
	}
	name := tp.StrVal
	proto := sp.Protocol
	if proto == "" {
		proto = api.ProtocolTCP
	}
	match := func(cs []api.Container, sidecarsOnly bool) (int32, bool) {
		for i := range cs {
			c := &cs[i]
			if sidecarsOnly && (c.RestartPolicy == nil || *c.RestartPolicy != api.ContainerRestartPolicyAlways) {
				continue
			}
			for _, port := range c.Ports {
				pp := port.Protocol
				if pp == "" {
					pp = api.ProtocolTCP
				}
				if port.Name == name && pp == proto {
					return port.ContainerPort, true
				}
			}
		}
		return 0, false
	}
	if n, ok := match(p.Spec.Containers, false); ok {
		return n, nil
	}
	if n, ok := match(p.Spec.InitContainers, true); ok {
		return n, nil
	}
	return 0, fmt.Errorf("%w: %s", ErrNoPort, p.UID)
}

// ipv6 reports whether s is an IPv6 address. Every IPv6 address has a
// colon and no IPv4 one does, so a string without one is answered
// without parsing it (a sync asks once per pod).
func ipv6(s string) bool {
	if strings.IndexByte(s, ':') < 0 {
		return false
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && !a.Is4In6()
}

// podAddress is upstream's podToEndpointAddressForService: the pod IP of
// the service's IP family (its first family; else its cluster IP's; for a
// headless service without families, the pod's primary IP's).
func podAddress(svc *api.Service, p *api.Pod, al *addrAlloc) (api.EndpointAddress, error) {
	family := api.IPv4Protocol
	switch {
	case len(svc.Spec.IPFamilies) > 0:
		family = svc.Spec.IPFamilies[0]
	case svc.Spec.ClusterIP != "" && svc.Spec.ClusterIP != "None":
		if ipv6(svc.Spec.ClusterIP) {
			family = api.IPv6Protocol
		}
	default:
		if ipv6(p.Status.PodIP) {
			family = api.IPv6Protocol
		}
	}
	ips := p.Status.PodIPs
	if len(ips) == 0 && p.Status.PodIP != "" {
		ips = []api.PodIP{{IP: p.Status.PodIP}}
	}
	for _, ip := range ips {
		if (family == api.IPv6Protocol) == ipv6(ip.IP) {
			return api.EndpointAddress{
				IP:        ip.IP,
				NodeName:  al.node(p.Spec.NodeName),
				TargetRef: al.ref(api.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID}),
			}, nil
		}
	}
	return api.EndpointAddress{}, fmt.Errorf("%w %v", ErrNoIP, svc.Name)
}

// Subsets computes the subsets of svc's Endpoints from the pods its
// selector matches, packed and sorted, and how many ready and not-ready
// addresses they hold (before truncation to MaxCapacity).
func Subsets(svc *api.Service, pods []*api.Pod) (subsets []api.EndpointSubset, ready, notReady int) {
	if ss, ready, notReady, ok := oneSubset(svc, pods); ok {
		return ss, ready, notReady
	}
	return repackedSubsets(svc, pods)
}

// oneSubset is Subsets when every pod that is in the endpoints serves the
// same ports, as the pods of one template do: then Repack makes one subset
// of them all, which oneSubset builds directly, without Repack's maps and
// address-set signatures (a sync of a Service of thousands of pods, once
// for each pod change, made the endpoints controller's cost quadratic in
// the Service's size). ok is false when the pods differ in their ports or
// none is in the endpoints; repackedSubsets then does the work. It is a
// Service's memo (memo.go) made afresh: the controller keeps one per
// Service across syncs.
func oneSubset(svc *api.Service, pods []*api.Pod) (subsets []api.EndpointSubset, ready, notReady int, ok bool) {
	var m serviceMemo
	m.update(svc, pods)
	return m.subsets()
}

// podEndpoint is the address p has in svc's endpoints, with its hostname
// when its subdomain is the service; in is false for a pod that has none
// (terminal, terminating unless tolerated, or without an IP of the
// service's family yet).
func podEndpoint(svc *api.Service, p *api.Pod, tolerateUnready bool, al *addrAlloc) (addr api.EndpointAddress, in bool) {
	if !ShouldPodBeInEndpoints(p, tolerateUnready) {
		return addr, false
	}
	addr, err := podAddress(svc, p, al)
	if err != nil {
		return addr, false
	}
	if p.Spec.Hostname != "" && p.Spec.Subdomain == svc.Name && p.Namespace == svc.Namespace {
		addr.Hostname = p.Spec.Hostname
	}
	return addr, true
}

// addrAlloc hands out the node names and target references of a sync's
// addresses from two arrays made once, sized for every pod, instead of
// two heap objects an address (upstream allocates each; a Service of
// thousands of pods is synced once per pod change). The arrays never
// grow, so the pointers stay valid; they live as long as any address
// that points into them.
type addrAlloc struct {
	nodes []string
	refs  []api.ObjectReference
}

func newAddrAlloc(n int) *addrAlloc {
	return &addrAlloc{nodes: make([]string, 0, n), refs: make([]api.ObjectReference, 0, n)}
}

func (al *addrAlloc) node(name string) *string {
	if al == nil || len(al.nodes) == cap(al.nodes) {
		p := new(string) // not &name: that would move every call's name to the heap
		*p = name
		return p
	}
	al.nodes = append(al.nodes, name)
	return &al.nodes[len(al.nodes)-1]
}

func (al *addrAlloc) ref(r api.ObjectReference) *api.ObjectReference {
	if al == nil || len(al.refs) == cap(al.refs) {
		p := new(api.ObjectReference)
		*p = r
		return p
	}
	al.refs = append(al.refs, r)
	return &al.refs[len(al.refs)-1]
}

// podPorts appends to out the ports of svc that p serves (a named
// targetPort resolved through its containers). serves is false when p
// serves none of them, or svc has none and is not headless; a headless
// service without ports publishes its pods' addresses without ports, for
// DNS.
func podPorts(out []api.EndpointPort, svc *api.Service, p *api.Pod) (_ []api.EndpointPort, serves bool) {
	if len(svc.Spec.Ports) == 0 {
		return out, svc.Spec.ClusterIP == "None"
	}
	for i := range svc.Spec.Ports {
		sp := &svc.Spec.Ports[i]
		n, err := FindPort(p, sp)
		if err != nil {
			continue // this pod does not serve this port
		}
		port := api.EndpointPort{Name: sp.Name, Port: n, Protocol: sp.Protocol, AppProtocol: sp.AppProtocol}
		if port.Protocol == "" {
			port.Protocol = api.ProtocolTCP
		}
		out = append(out, port)
	}
	return out, len(out) > 0
}

// repackedSubsets is Subsets by upstream's way: a subset for each address
// and port, then Repack.
func repackedSubsets(svc *api.Service, pods []*api.Pod) (subsets []api.EndpointSubset, ready, notReady int) {
	tolerateUnready := svc.Spec.PublishNotReadyAddresses
	var (
		raw   []api.EndpointSubset
		ports []api.EndpointPort
	)
	add := func(p *api.Pod, addr api.EndpointAddress, port *api.EndpointPort) {
		var ports []api.EndpointPort
		if port != nil {
			ports = []api.EndpointPort{*port}
		}
		if tolerateUnready || api.IsPodReady(p) {
			raw = append(raw, api.EndpointSubset{Addresses: []api.EndpointAddress{addr}, Ports: ports})
			ready++
		} else {
			raw = append(raw, api.EndpointSubset{NotReadyAddresses: []api.EndpointAddress{addr}, Ports: ports})
			notReady++
		}
	}
	al := newAddrAlloc(len(pods))
	for _, p := range pods {
		addr, in := podEndpoint(svc, p, tolerateUnready, al)
		if !in {
			continue
		}
		var serves bool
		if ports, serves = podPorts(ports[:0], svc, p); !serves {
			continue
		}
		if len(ports) == 0 {
			add(p, addr, nil)
		}
		for i := range ports {
			add(p, addr, &ports[i])
		}
	}
	return Repack(raw), ready, notReady
}

// addrKey identifies an address: its IP and the UID of the pod it points
// to, so two pods that reuse an IP stay apart.
type addrKey struct {
	ip  string
	uid api.UID
}

func keyOfAddr(a *api.EndpointAddress) addrKey {
	k := addrKey{ip: a.IP}
	if a.TargetRef != nil {
		k.uid = a.TargetRef.UID
	}
	return k
}

// portKey is an EndpointPort as a comparable value.
type portKey struct {
	name     string
	port     int32
	protocol api.Protocol
	app      string
	hasApp   bool
}

func keyOfPort(p api.EndpointPort) portKey {
	k := portKey{name: p.Name, port: p.Port, protocol: p.Protocol}
	if p.AppProtocol != nil {
		k.app, k.hasApp = *p.AppProtocol, true
	}
	return k
}

// sentinel stands for "no ports" while packing, as upstream's Port -1.
var sentinel = portKey{port: -1}

// Repack is upstream's RepackSubsets: it merges subsets so that each
// address appears once per port, groups addresses that serve the same
// ports with the same readiness into one subset (not ready wins over
// ready for an address listed both ways), and sorts the result: addresses
// by IP then pod UID, ports by name, number and protocol, subsets by their
// ports and then their first address.
func Repack(subsets []api.EndpointSubset) []api.EndpointSubset {
	addrs := map[addrKey]api.EndpointAddress{}
	portOf := map[portKey]api.EndpointPort{}
	byPort := map[portKey]map[addrKey]bool{} // port -> address -> ready
	note := func(a *api.EndpointAddress, port portKey, ready bool) {
		k := keyOfAddr(a)
		if _, ok := addrs[k]; !ok {
			addrs[k] = *a
		}
		set := byPort[port]
		if set == nil {
			set = map[addrKey]bool{}
			byPort[port] = set
		}
		if was, found := set[k]; !found || was {
			set[k] = ready
		}
	}
	for i := range subsets {
		ss := &subsets[i]
		ports := []portKey{sentinel}
		if len(ss.Ports) > 0 {
			ports = ports[:0]
			for _, p := range ss.Ports {
				pk := keyOfPort(p)
				portOf[pk] = p
				ports = append(ports, pk)
			}
		}
		for _, pk := range ports {
			for j := range ss.Addresses {
				note(&ss.Addresses[j], pk, true)
			}
			for j := range ss.NotReadyAddresses {
				note(&ss.NotReadyAddresses[j], pk, false)
			}
		}
	}
	// Group ports by their exact address set.
	type group struct {
		set   map[addrKey]bool
		ports []portKey
	}
	groups := map[string]*group{}
	for pk, set := range byPort {
		sig := signature(set)
		g := groups[sig]
		if g == nil {
			g = &group{set: set}
			groups[sig] = g
		}
		if pk != sentinel {
			g.ports = append(g.ports, pk)
		}
	}
	out := make([]api.EndpointSubset, 0, len(groups))
	for _, g := range groups {
		var ss api.EndpointSubset
		for k, ready := range g.set {
			if ready {
				ss.Addresses = append(ss.Addresses, addrs[k])
			} else {
				ss.NotReadyAddresses = append(ss.NotReadyAddresses, addrs[k])
			}
		}
		for _, pk := range g.ports {
			ss.Ports = append(ss.Ports, portOf[pk])
		}
		out = append(out, ss)
	}
	return sortSubsets(out)
}

// signature renders an address set with readiness as a sorted string.
func signature(set map[addrKey]bool) string {
	parts := make([]string, 0, len(set))
	for k, ready := range set {
		r := "\x00n"
		if ready {
			r = "\x00r"
		}
		parts = append(parts, k.ip+"\x00"+string(k.uid)+r)
	}
	slices.Sort(parts)
	return strings.Join(parts, "\x01")
}

func compareAddrs(a, b api.EndpointAddress) int {
	ka, kb := keyOfAddr(&a), keyOfAddr(&b)
	return cmp.Or(strings.Compare(ka.ip, kb.ip), strings.Compare(string(ka.uid), string(kb.uid)))
}

// addrSortKey is an address's place in compareAddrs' order, cheap to
// compare: the first 16 bytes of its IP (every IPv4 address fits) as two
// big-endian words, zero-padded so that a shorter IP that is a prefix of
// a longer one sorts first, as strings.Compare has it.
type addrSortKey struct {
	hi, lo uint64
	i      int32
}

// sortAddrs sorts addrs by compareAddrs. A sync sorts every address of a
// Service, once per pod change: sorting small keys and then placing the
// addresses once costs about a third of sorting the addresses themselves
// (48 bytes each, swapped and keyed at every comparison). No two
// addresses of a subset compare equal (an IP and a pod's UID), so the
// order is the same as slices.SortFunc(addrs, compareAddrs)'s.
func sortAddrs(addrs []api.EndpointAddress) {
	if len(addrs) < 2 {
		return
	}
	keys := make([]addrSortKey, len(addrs))
	for i := range addrs {
		keys[i] = addrSortKey{hi: ipWord(addrs[i].IP, 0), lo: ipWord(addrs[i].IP, 8), i: int32(i)}
	}
	slices.SortFunc(keys, func(a, b addrSortKey) int {
		return cmp.Or(compareIPWords(a, b), compareAddrs(addrs[a.i], addrs[b.i]))
	})
	sorted := make([]api.EndpointAddress, len(addrs))
	for j, k := range keys {
		sorted[j] = addrs[k.i]
	}
	copy(addrs, sorted)
}

// compareIPWords orders two keys by their IPs' first 16 bytes; 0 leaves
// the order to the whole addresses.
func compareIPWords(a, b addrSortKey) int {
	return cmp.Or(cmp.Compare(a.hi, b.hi), cmp.Compare(a.lo, b.lo))
}

// ipWord is the 8 bytes of s from off, big-endian, zero past its end.
func ipWord(s string, off int) uint64 {
	var w uint64
	for i := off; i < off+8; i++ {
		w <<= 8
		if i < len(s) {
			w |= uint64(s[i])
		}
	}
	return w
}

func comparePorts(a, b api.EndpointPort) int {
	ka, kb := keyOfPort(a), keyOfPort(b)
	c := cmp.Or(strings.Compare(ka.name, kb.name), cmp.Compare(ka.port, kb.port), strings.Compare(string(ka.protocol), string(kb.protocol)),
		strings.Compare(ka.app, kb.app))
	if c == 0 && ka.hasApp != kb.hasApp {
		if ka.hasApp {
			return 1
		}
		return -1
	}
	return c
}

func firstAddr(ss *api.EndpointSubset) (api.EndpointAddress, bool) {
	var all []api.EndpointAddress
	all = append(all, ss.Addresses...)
	all = append(all, ss.NotReadyAddresses...)
	if len(all) == 0 {
		return api.EndpointAddress{}, false
	}
	return slices.MinFunc(all, compareAddrs), true
}

func sortSubsets(subsets []api.EndpointSubset) []api.EndpointSubset {
	for i := range subsets {
		ss := &subsets[i]
		sortAddrs(ss.Addresses)
		sortAddrs(ss.NotReadyAddresses)
		slices.SortFunc(ss.Ports, comparePorts)
	}
	slices.SortFunc(subsets, func(a, b api.EndpointSubset) int {
		if c := slices.CompareFunc(a.Ports, b.Ports, comparePorts); c != 0 {
			return c
		}
		fa, oka := firstAddr(&a)
		fb, okb := firstAddr(&b)
		switch {
		case !oka && !okb:
			return 0
		case !oka:
			return -1
		case !okb:
			return 1
		}
		return compareAddrs(fa, fb)
	})
	return subsets
}

// Truncate keeps at most MaxCapacity addresses, as upstream's
// truncateEndpoints: if there are more ready addresses than fit, only
// ready ones are kept, else every ready one and as many not-ready ones as
// fit; each subset keeps a share proportional to its size (rounded up,
// within what is left). It reports whether anything was cut.
func Truncate(subsets []api.EndpointSubset) bool {
	ready, notReady := 0, 0
	for i := range subsets {
		ready += len(subsets[i].Addresses)
		notReady += len(subsets[i].NotReadyAddresses)
	}
	if ready+notReady <= MaxCapacity {
		return false
	}
	truncateReady := ready > MaxCapacity
	limit, total := MaxCapacity-ready, notReady
	if truncateReady {
		limit, total = MaxCapacity, ready
	}
	left := limit
	for i := range subsets {
		ss := &subsets[i]
		n := len(ss.NotReadyAddresses)
		if truncateReady {
			n = len(ss.Addresses)
		}
		take := int(math.Ceil(float64(n) / float64(total) * float64(limit)))
		take = min(take, left)
		if truncateReady {
			ss.Addresses = ss.Addresses[:min(take, len(ss.Addresses))]
			ss.NotReadyAddresses = nil
			left -= len(ss.Addresses)
		} else {
			ss.NotReadyAddresses = ss.NotReadyAddresses[:min(take, len(ss.NotReadyAddresses))]
			left -= len(ss.NotReadyAddresses)
		}
	}
	return true
}
