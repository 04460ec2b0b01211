package store

import "github.com/clustersim/clustersim/sim/api"

// resourceListKey is a small ResourceList's contents, sorted by name,
// comparable so that equal lists find one another in a map.
type resourceListKey struct {
	n int
	e [maxInternedResources]resourceEntry
}

type resourceEntry struct {
	name api.ResourceName
	q    api.Quantity
}

// maxInternedResources is the longest list resourceLists shares: pods ask
// for cpu and memory, sometimes ephemeral storage or a device.
const maxInternedResources = 4

// resourceLists shares the requests and limits of stored pods: the pods
// of one template ask for the same resources, and each kept a map of its
// own for each container (at 5,000 nodes, 150,000 maps, a thirtieth of
// the live heap). A stored object is never changed in place (every
// reader copies it first), so pods can share a map as they share strings.
type resourceLists struct {
	m map[resourceListKey]api.ResourceList
}

// intern returns the list equal to rl first seen, or rl itself.
// Quantities compare with their text ("1Gi" is not "1024Mi"), so a shared
// list renders as each pod's own would.
func (ri *resourceLists) intern(rl api.ResourceList) api.ResourceList {
	if len(rl) == 0 || len(rl) > maxInternedResources {
		return rl
	}
	var k resourceListKey
	for name, q := range rl {
		// Insertion sort by name: the key does not depend on map order.
		i := k.n
		for i > 0 && k.e[i-1].name > name {
			k.e[i] = k.e[i-1]
			i--
		}
		k.e[i] = resourceEntry{name, q}
		k.n++
	}
	if c, ok := ri.m[k]; ok {
		return c
	}
	if ri.m == nil {
		ri.m = map[resourceListKey]api.ResourceList{}
	}
	ri.m[k] = rl
	return rl
}

// internPod makes a pod about to be stored share its containers'
// requests and limits with the pods stored before it.
func (ri *resourceLists) internPod(p *api.Pod) {
	for _, cs := range [...][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			r := &cs[i].Resources
			r.Requests = ri.intern(r.Requests)
			r.Limits = ri.intern(r.Limits)
		}
	}
}
