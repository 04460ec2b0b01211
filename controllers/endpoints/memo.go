package endpoints

import (
	"cmp"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

// A Service's Endpoints are rebuilt from every pod it selects at each
// sync, and a Service is synced once per pod change that matters: a
// Service of n pods costs n reads of n pods while its pods change, most
// of it cache misses on pods that did not change (their conditions, IPs,
// node names, containers' ports). What a sync takes from a pod depends
// on the pod object and the Service object alone, and the informers
// replace an object they change rather than write into it. So the
// controller remembers, per Service, what its last sync took from each
// pod, keyed by the pod object's pointer, and the next sync reads the
// pods that were replaced, added or removed since; the others' entries
// are read from one array in the list's order. The result is the one
// Subsets computes from the same pods (TestMemoIsSubsets).

// podEntry is what a sync took from one pod for one Service: podEndpoint's
// address and podPorts' ports, whether the pod is ready, and the sort
// key of its IP.
type podEntry struct {
	pod *api.Pod
	// ns and name are the pod's key (its target reference's).
	ns, name string
	// in: podEndpoint gave an address and podPorts a port the pod
	// serves (or none, for a headless Service without ports).
	in, ready    bool
	ip, hostname string
	node         string
	uid          api.UID
	ports        []api.EndpointPort
	hi, lo       uint64
}

// serviceMemo is what the last sync of one Service took from its pods,
// valid for the Service object svc.
type serviceMemo struct {
	svc *api.Service
	// held are the entries of the last sync, in its list's order.
	held informer.Held[podEntry]
	// ports is the last ports slice made, shared by the entries of pods
	// that serve the same ports (one template's), so that comparing them
	// with the first pod's is a comparison of two slice headers.
	ports []api.EndpointPort
	// computed counts the entries made from pods (not reused).
	computed int
	// al, node, ref and scratch are entry's buffers: the address it reads
	// its values from points into node and ref, scratch holds its ports
	// until they are known to be new, so that an entry allocates only the
	// ports that differ from the last.
	al      addrAlloc
	node    [1]string
	ref     [1]api.ObjectReference
	scratch []api.EndpointPort
}

// entry computes p's entry for svc (podEndpoint, podPorts, IsPodReady).
func (m *serviceMemo) entry(svc *api.Service, p *api.Pod) podEntry {
	m.computed++
	e := podEntry{pod: p, ns: p.Namespace, name: p.Name}
	tolerateUnready := svc.Spec.PublishNotReadyAddresses
	m.al = addrAlloc{nodes: m.node[:0], refs: m.ref[:0]}
	addr, in := podEndpoint(svc, p, tolerateUnready, &m.al)
	if !in {
		return e
	}
	var serves bool
	if m.scratch, serves = podPorts(m.scratch[:0], svc, p); !serves {
		return e
	}
	ports := m.ports
	if m.ports == nil || !slices.Equal(m.scratch, m.ports) {
		ports = slices.Clone(m.scratch)
		if len(ports) > 0 {
			m.ports = ports
		}
	}
	e.in = true
	e.ready = tolerateUnready || api.IsPodReady(p)
	e.ip, e.hostname, e.node, e.uid = addr.IP, addr.Hostname, *addr.NodeName, addr.TargetRef.UID
	e.ports = ports
	e.hi, e.lo = ipWord(addr.IP, 0), ipWord(addr.IP, 8)
	return e
}

// update makes m's entries those of pods (svc's, in the lister's
// namespace/name order), reusing the entry of every pod object it holds
// at the place the merge of the two lists reaches it.
func (m *serviceMemo) update(svc *api.Service, pods []*api.Pod) {
	old := m.held.Entries()
	if m.svc != svc {
		old, m.svc, m.ports = nil, svc, nil
	}
	next := m.held.Next(len(pods))
	j := 0
	for _, p := range pods {
		if o := informer.HeldEntry(old, &j, p, func(e *podEntry) *api.Pod { return e.pod }); o != nil {
			next = append(next, *o)
		} else {
			next = append(next, m.entry(svc, p))
		}
	}
	m.held.Keep(next)
}

// subsets is oneSubset from m's entries: ok is false when the pods
// differ in their ports (or serve ports Repack would merge) or none is in
// the endpoints, and Subsets' repacking must do the work.
func (m *serviceMemo) subsets() (subsets []api.EndpointSubset, ready, notReady int, ok bool) {
	var (
		first  []api.EndpointPort
		seen   bool
		rk, nk []addrSortKey // the ready and not-ready entries' keys; i is the entry's index
	)
	ents := m.held.Entries()
	for i := range ents {
		e := &ents[i]
		if !e.in {
			continue
		}
		if !seen {
			first, seen = e.ports, true
			for a := range first {
				for b := range a {
					if keyOfPort(first[a]) == keyOfPort(first[b]) {
						return nil, 0, 0, false // ports Repack would merge
					}
				}
			}
		} else if !api.SameElements(first, e.ports) &&
			!slices.EqualFunc(first, e.ports, func(a, b api.EndpointPort) bool { return keyOfPort(a) == keyOfPort(b) }) {
			return nil, 0, 0, false
		}
		k := addrSortKey{hi: e.hi, lo: e.lo, i: int32(i)}
		// Repack's counts are per address and port, as add's calls.
		w := max(len(e.ports), 1)
		if e.ready {
			rk = append(rk, k)
			ready += w
		} else {
			nk = append(nk, k)
			notReady += w
		}
	}
	if !seen {
		return nil, 0, 0, false
	}
	var ss api.EndpointSubset
	if len(first) > 0 {
		ss.Ports = slices.Clone(first)
		slices.SortFunc(ss.Ports, comparePorts)
	}
	al := newAddrAlloc(len(rk) + len(nk))
	ss.Addresses = m.addresses(rk, al)
	ss.NotReadyAddresses = m.addresses(nk, al)
	return []api.EndpointSubset{ss}, ready, notReady, true
}

// addresses returns the addresses of the entries keys index, in
// compareAddrs' order (sortAddrs' keys; equal IPs by the pods' UIDs);
// nil for none.
func (m *serviceMemo) addresses(keys []addrSortKey, al *addrAlloc) []api.EndpointAddress {
	if len(keys) == 0 {
		return nil
	}
	ents := m.held.Entries()
	slices.SortFunc(keys, func(a, b addrSortKey) int {
		if c := compareIPWords(a, b); c != 0 {
			return c
		}
		ea, eb := &ents[a.i], &ents[b.i]
		return cmp.Or(strings.Compare(ea.ip, eb.ip), strings.Compare(string(ea.uid), string(eb.uid)))
	})
	out := make([]api.EndpointAddress, len(keys))
	for j, k := range keys {
		e := &ents[k.i]
		out[j] = api.EndpointAddress{
			IP:        e.ip,
			Hostname:  e.hostname,
			NodeName:  al.node(e.node),
			TargetRef: al.ref(api.ObjectReference{Kind: "Pod", Namespace: e.ns, Name: e.name, UID: e.uid}),
		}
	}
	return out
}
