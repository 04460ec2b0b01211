package nodelifecycle

import (
	"cmp"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// podIndex maps node names to the keys of the pods bound to them
// (upstream's spec.nodeName indexer), kept from informer events.
type podIndex struct {
	byNode map[string]map[api.Key]bool
	nodeOf map[api.Key]string
}

func newPodIndex() *podIndex {
	return &podIndex{byNode: map[string]map[api.Key]bool{}, nodeOf: map[api.Key]string{}}
}

// set records that the pod with key is bound to node ("" for none).
func (x *podIndex) set(key api.Key, node string) {
	if old, ok := x.nodeOf[key]; ok {
		if old == node {
			return
		}
		delete(x.byNode[old], key)
		if len(x.byNode[old]) == 0 {
			delete(x.byNode, old)
		}
		delete(x.nodeOf, key)
	}
	if node == "" {
		return
	}
	x.nodeOf[key] = node
	s := x.byNode[node]
	if s == nil {
		s = map[api.Key]bool{}
		x.byNode[node] = s
	}
	s[key] = true
}

func (x *podIndex) remove(key api.Key) { x.set(key, "") }

// keys returns the keys of node's pods in namespace/name order.
func (x *podIndex) keys(node string) []api.Key {
	s := x.byNode[node]
	out := make([]api.Key, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b api.Key) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	return out
}

// onAdd records a pod added or updated in a pod informer.
func (x *podIndex) onAdd(obj api.Object) {
	if p, ok := obj.(*api.Pod); ok {
		x.set(p.Key(), p.Spec.NodeName)
	}
}

// onDelete forgets a pod deleted from a pod informer.
func (x *podIndex) onDelete(obj api.Object) {
	if p, ok := obj.(*api.Pod); ok {
		x.remove(p.Key())
	}
}
