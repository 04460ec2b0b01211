package informer

import (
	"slices"

	"github.com/clustersim/clustersim/sim/api"
)

// Static is a fixed list of objects read the way a Lister reads its cache
// (Get by key, List, ByIndex of IndexController or IndexNodeName): for the tests
// of a controller that syncs against a hand-made cache, as upstream's
// tests fill an informer's indexer by hand. Its methods scan the list.
type Static []api.Object

// Get returns the object with key.
func (s Static) Get(key api.Key) (api.Object, bool) {
	for _, o := range s {
		if o.GetObjectMeta().Key() == key {
			return o, true
		}
	}
	return nil, false
}

// ByIndex returns, in list order, the objects the standard index name
// files under value; nil for another index.
func (s Static) ByIndex(name, value string) []api.Object {
	var fn IndexFunc
	switch name {
	case IndexController:
		fn = ByController
	case IndexNodeName:
		fn = ByNodeName
	default:
		return nil
	}
	var out []api.Object
	for _, o := range s {
		if slices.Contains(fn(o, nil), value) {
			out = append(out, o)
		}
	}
	return out
}

// List returns, in list order (a Lister's is namespace/name order), the
// objects of namespace ("" for all) whose labels sel matches.
func (s Static) List(sel api.Selector, namespace string) []api.Object {
	var out []api.Object
	for _, o := range s {
		m := o.GetObjectMeta()
		if (namespace == "" || m.Namespace == namespace) && sel.Matches(m.Labels) {
			out = append(out, o)
		}
	}
	return out
}
