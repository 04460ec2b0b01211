package informer

import (
	"slices"
	"sort"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// IndexFunc appends the values under which an index files o to out and
// returns the result (nothing appended: o is not in the index). It must be
// a pure function of o: the cache calls it again on the old object when
// that object is replaced or deleted.
type IndexFunc func(o api.Object, out []string) []string

// Names of the standard indexes (client-go's Indexers, kube-controller-
// manager's AddPodControllerUIDIndexer and AddPodNodeNameIndexer in k/k
// pkg/controller/controller_utils.go).
const (
	// IndexController files an object under its controller's UID, and an
	// object without a controller under OrphanIndexValue(namespace).
	IndexController = "controller"
	// IndexNodeName files a pod under spec.nodeName; unbound pods are not
	// in it.
	IndexNodeName = "nodeName"
)

// OrphanIndexValue is the IndexController value of the objects of
// namespace ns that have no controller (upstream's
// OrphanPodIndexKeyForNamespace).
func OrphanIndexValue(ns string) string { return "\x00orphan/" + ns }

// ByController is the IndexFunc of IndexController.
func ByController(o api.Object, out []string) []string {
	m := o.GetObjectMeta()
	if ref := api.GetControllerOfNoCopy(m); ref != nil {
		return append(out, string(ref.UID))
	}
	return append(out, OrphanIndexValue(m.Namespace))
}

// ByNodeName is the IndexFunc of IndexNodeName.
func ByNodeName(o api.Object, out []string) []string {
	if p, ok := o.(*api.Pod); ok && p.Spec.NodeName != "" {
		return append(out, p.Spec.NodeName)
	}
	return out
}

type indexDef struct {
	name string
	fn   IndexFunc
}

// index files the cache's objects by the values of one IndexFunc; each
// value's set lists its objects in namespace/name order, as the cache
// does.
type index struct {
	indexDef
	sets     map[string]*indexSet
	old, cur []string
}

type indexSet struct {
	objs map[api.Key]*slot
	keys sortedKeys[api.Key, *slot]
	// list is objs in key order, valid until a key comes or goes: the
	// slots are the cache's, so replacing an object (a status update,
	// the common case) needs no change here, and a read after it costs
	// no sort and no map lookups.
	list  []*slot
	valid bool
}

// appendObjects appends the set's objects to out in namespace/name
// order.
func (s *indexSet) appendObjects(out []api.Object) []api.Object {
	for _, sl := range s.slots() {
		out = append(out, sl.obj)
	}
	return out
}

// slots returns the set's slots in namespace/name order, owned by s.
func (s *indexSet) slots() []*slot {
	if !s.valid {
		s.list = slotsInOrder(s.list, s.keys.list(s.objs), s.objs)
		s.valid = true
	}
	return s.list
}

// slotsIn returns the set's slots of namespace ns ("": all), in
// namespace/name order: the run of slots() whose keys are in ns, found by
// a binary search of the keys, so that no object is read to learn its
// namespace (a Service's sync lists its pods through the index of its
// selector's label, a cache miss a pod for the namespace alone).
func (s *indexSet) slotsIn(ns string) []*slot {
	list := s.slots()
	if ns == "" {
		return list
	}
	keys := s.keys.list(s.objs) // list is in their order (slots)
	byNamespace := func(k api.Key, ns string) int { return strings.Compare(k.Namespace, ns) }
	lo, _ := slices.BinarySearchFunc(keys, ns, byNamespace)
	hi := lo + sort.Search(len(keys)-lo, func(i int) bool { return keys[lo+i].Namespace != ns })
	return list[lo:hi]
}

// update moves key, whose object went from old to cur in slot sl (old
// or cur may be nil), from old's values to cur's. A value both have
// keeps the slot, which already holds cur.
func (ix *index) update(key api.Key, old, cur api.Object, sl *slot) {
	ix.old, ix.cur = ix.old[:0], ix.cur[:0]
	if old != nil {
		ix.old = ix.fn(old, ix.old)
	}
	if cur != nil {
		ix.cur = ix.fn(cur, ix.cur)
	}
	for _, v := range ix.old {
		if !slices.Contains(ix.cur, v) {
			ix.remove(v, key)
		}
	}
	for _, v := range ix.cur {
		if !slices.Contains(ix.old, v) {
			ix.put(v, key, sl)
		}
	}
}

func (ix *index) put(v string, key api.Key, sl *slot) {
	s := ix.sets[v]
	if s == nil {
		s = &indexSet{objs: make(map[api.Key]*slot), keys: sortedKeys[api.Key, *slot]{cmp: compareKeys}}
		ix.sets[v] = s
	}
	if _, ok := s.objs[key]; !ok {
		s.keys.add(key)
		s.valid = false
	}
	s.objs[key] = sl
}

func (ix *index) remove(v string, key api.Key) {
	s := ix.sets[v]
	if s == nil {
		return
	}
	if _, ok := s.objs[key]; !ok {
		return
	}
	delete(s.objs, key)
	if len(s.objs) == 0 {
		delete(ix.sets, v)
		return
	}
	s.keys.remove()
	s.valid = false
}

// addIndex adds an index over what the cache holds now and keeps it up to
// date; an index of the same name is kept.
func (c *cache) addIndex(d indexDef) {
	for _, ix := range c.indexes {
		if ix.name == d.name {
			return
		}
	}
	ix := &index{indexDef: d, sets: make(map[string]*indexSet)}
	for _, ns := range c.nsKeys.list(c.spaces) {
		b := c.spaces[ns]
		for _, name := range b.names.list(b.objs) {
			sl := b.objs[name]
			ix.update(api.Key{Namespace: ns, Name: name}, nil, sl.obj, sl)
		}
	}
	c.indexes = append(c.indexes, ix)
}

// byIndex appends to out the objects filed under value in the index
// name, in namespace/name order; false if there is no such index.
func (c *cache) byIndex(out []api.Object, name, value string) ([]api.Object, bool) {
	s, found := c.indexSet(name, value)
	if s != nil {
		out = s.appendObjects(out)
	}
	return out, found
}

// indexSet returns the set of the objects filed under value in the index
// name (nil when none is), and false if there is no such index.
func (c *cache) indexSet(name, value string) (*indexSet, bool) {
	for _, ix := range c.indexes {
		if ix.name == name {
			return ix.sets[value], true
		}
	}
	return nil, false
}

// AddIndex makes the informer's cache file its objects by fn under name,
// for Lister.ByIndex. It may be called before or after Start; the objects
// already cached are filed at once. A second index of the same name is
// ignored: informers shared through a Factory share their indexes, so
// every user of a name must mean the same IndexFunc (use the standard
// ones: IndexController, IndexNodeName).
func (inf *Informer) AddIndex(name string, fn IndexFunc) {
	for _, d := range inf.indexDefs {
		if d.name == name {
			return
		}
	}
	d := indexDef{name: name, fn: fn}
	inf.indexDefs = append(inf.indexDefs, d)
	inf.cache.addIndex(d)
}

// ByIndex returns the cached objects filed under value in the index name,
// in namespace/name order, in a new slice; it panics if the informer has
// no such index (a programming error: AddIndex was not called).
func (l Lister) ByIndex(name, value string) []api.Object {
	return l.AppendByIndex(nil, name, value)
}

// AppendByIndex is ByIndex appending to out.
func (l Lister) AppendByIndex(out []api.Object, name, value string) []api.Object {
	out, ok := l.inf.cache.byIndex(out, name, value)
	if !ok {
		panic("informer invariant index-defined: no index " + name + " on " + l.inf.name)
	}
	return out
}
