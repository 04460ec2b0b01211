package endpointslice

import (
	"slices"

	"github.com/clustersim/clustersim/controllers/endpoints"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

// A Service's slices are reconciled with an endpoint of every pod it
// selects at each sync, and a Service is synced once per pod change that
// matters: a Service of n pods costs n reads of n pods while its pods
// change, most of it cache misses on pods that did not change (their
// conditions, IPs, node names, containers' ports). What a sync makes of a
// pod depends on the pod object, the Service object (its ports, address
// types, publishNotReadyAddresses, name) and the pod's Node object (its
// zone), and the informers replace an object they change rather than
// write into it. So the controller remembers, per Service, what its last
// sync made of each pod (whether it is in the endpoints, the ports it
// serves, the node it was made with, its endpoint of each address type
// and the endpoint's key), keyed by the pod object's pointer, and the
// next sync reads only the pods that were replaced or added since and
// those whose node object was replaced (each in-pod's node is looked up
// by name at every sync to see that). A pod's endpoint is made in a batch
// of its own (ownEndpoint), so that an endpoint reused for many syncs
// keeps alive nothing but itself. The plan is the one Reconcile makes of
// the same objects (TestMemoIsReconcile).

// ownEndpoint is one pod's endpoint of one address type, and its key,
// with what the endpoint points to: the arrays of a batch of one.
type ownEndpoint struct {
	ep    api.Endpoint
	key   string
	conds [1][3]bool
	refs  [1]api.ObjectReference
	strs  [1][3]string
	addrs [2]string
}

// newOwnEndpoint returns p's endpoint of type addrType (PodToEndpoint),
// or nil when it has no address of the type.
func newOwnEndpoint(p *api.Pod, node *api.Node, svc *api.Service, addrType string) *ownEndpoint {
	o := &ownEndpoint{}
	b := endpointBatch{conds: o.conds[:0], refs: o.refs[:0], strs: o.strs[:0], addrs: o.addrs[:0]}
	if o.ep = b.endpoint(p, node, svc, addrType); len(o.ep.Addresses) == 0 {
		return nil
	}
	o.key = string(appendEndpointKey(nil, &o.ep))
	return o
}

// podEntry is what a sync made of one pod for one Service object.
type podEntry struct {
	pod *api.Pod
	// in: ShouldPodBeInEndpoints. The fields below are set only then.
	in bool
	// ports is appendPortValues' values of the pod, shared by the
	// entries of pods that serve the same ports.
	ports []portValue
	// nodeName is the pod's spec.nodeName, and node what the node getter
	// gave for it when the entry was made: the entry holds while the
	// getter gives the same object.
	nodeName string
	node     *api.Node
	// eps is the pod's endpoint of each of the Service's address types,
	// nil for none (no address of the type, or the node unknown).
	eps [2]*ownEndpoint
}

// serviceMemo is what the last sync of one Service made of its pods,
// valid for the Service object svc.
type serviceMemo struct {
	svc *api.Service
	// held are the entries of the last sync, in its list's order.
	held informer.Held[podEntry]
	// desired is the arrays of the last sync's desired endpoints of each
	// address type, reused by the next (nothing planned points into
	// them: the plan's endpoints are copies, pointing into the
	// ownEndpoints).
	desired []*desiredEndpoints
	// ports is the last ports made, shared by the next entries that
	// serve the same; scratch is appendPortValues' buffer.
	ports, scratch []portValue
	// built counts the entries made from pods (not reused).
	built int
}

// reconcile is Reconcile(svc, pods, node, existing, max) through m.
func (m *serviceMemo) reconcile(svc *api.Service, pods []*api.Pod, node NodeGetter, existing []*api.EndpointSlice, max int) Plan {
	types := addressTypes(svc)
	ds := m.update(svc, pods, node, types)
	return reconcileTypes(svc, types, existing, max, ds)
}

// build makes *e p's entry for svc: whether it is in the endpoints, and
// then its ports, node name, node (node's, looked up) and endpoint of
// each of types.
func (m *serviceMemo) build(e *podEntry, svc *api.Service, p *api.Pod, node NodeGetter, types []string) {
	m.built++
	*e = podEntry{pod: p}
	if !endpoints.ShouldPodBeInEndpoints(p, true) {
		return
	}
	e.in = true
	m.scratch = appendPortValues(m.scratch[:0], svc, p)
	if !slices.Equal(m.scratch, m.ports) {
		m.ports = slices.Clone(m.scratch)
	}
	e.ports = m.ports
	e.nodeName = p.Spec.NodeName
	e.node = node(e.nodeName)
	if e.node == nil && !svc.Spec.PublishNotReadyAddresses {
		return // upstream skips the pod and retries: its node is not known yet
	}
	for i, t := range types {
		e.eps[i] = newOwnEndpoint(p, e.node, svc, t)
	}
}

// update makes m's entries those of pods (svc's, in the lister's
// namespace/name order) and returns the desired endpoints of each of
// types (svc's address types): desiredOf's, of the pods the memo does
// not hold (or whose node object is another) made from the pods, of the
// others taken from their entries.
func (m *serviceMemo) update(svc *api.Service, pods []*api.Pod, node NodeGetter, types []string) []*desiredEndpoints {
	old := m.held.Entries()
	if m.svc != svc {
		old, m.svc, m.ports = nil, svc, nil
	}
	next := m.held.Next(len(pods))
	ds := m.desired[:0]
	for i := range types {
		if i < len(m.desired) && cap(m.desired[i].eps) >= len(pods) {
			d := m.desired[i]
			clear(d.eps) // the ownEndpoints of pods gone are not kept alive
			d.eps, d.setOf, d.keys, d.portSets = d.eps[:0], d.setOf[:0], d.keys[:0], portSets{}
			ds = append(ds, d)
		} else {
			ds = append(ds, newDesiredEndpoints(len(pods)))
		}
	}
	j := 0
	for _, p := range pods {
		next = append(next, podEntry{})
		e := &next[len(next)-1]
		o := informer.HeldEntry(old, &j, p, func(e *podEntry) *api.Pod { return e.pod })
		if o != nil && o.in && node(o.nodeName) != o.node {
			o = nil // the node object was replaced (or is gone, or came)
		}
		if o != nil {
			*e = *o
		} else {
			m.build(e, svc, p, node, types)
		}
		if !e.in {
			continue
		}
		for i, d := range ds {
			set := d.portSets.of(e.ports)
			if own := e.eps[i]; own != nil {
				d.add(&own.ep, own.key, set)
			}
		}
	}
	m.held.Keep(next)
	m.desired = ds
	return ds
}
