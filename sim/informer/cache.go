package informer

import (
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// sortedKeys keeps the keys of a map in sorted order, cheaply under churn:
// new keys wait in pending and deleted keys linger in sorted until the
// next read, which sorts the (few) pending keys and merges them in, in
// time linear in the map's size. A read after a burst of changes costs one
// merge; reads without changes cost nothing.
type sortedKeys[K comparable, V any] struct {
	sorted  []K
	pending []K
	spare   []K
	stale   bool
	// cmp orders the keys.
	cmp func(a, b K) int
}

// add records a key new to the map.
func (s *sortedKeys[K, V]) add(k K) { s.pending = append(s.pending, k) }

// remove records that a key left the map.
func (s *sortedKeys[K, V]) remove() { s.stale = true }

// list returns the keys of m in order. The slice is owned by s and valid
// until the next add or remove.
func (s *sortedKeys[K, V]) list(m map[K]V) []K {
	if len(s.pending) == 0 && !s.stale {
		return s.sorted
	}
	slices.SortFunc(s.pending, s.cmp)
	out := s.spare[:0]
	a, b := s.sorted, s.pending
	for len(a) > 0 || len(b) > 0 {
		var k K
		if len(b) == 0 || (len(a) > 0 && s.cmp(a[0], b[0]) <= 0) {
			k, a = a[0], a[1:]
		} else {
			k, b = b[0], b[1:]
		}
		if n := len(out); n > 0 && out[n-1] == k {
			continue // deleted and added again
		}
		if _, ok := m[k]; ok {
			out = append(out, k)
		}
	}
	clear(s.sorted)
	s.spare = s.sorted[:0]
	s.sorted = out
	s.pending = s.pending[:0]
	s.stale = false
	return out
}

// slot holds one cached object. The bucket and the index sets it is
// filed in share it, so that replacing an object whose index values did
// not change (a status update, the common case) writes the slot and
// touches no index at all.
type slot struct{ obj api.Object }

// bucket holds one namespace's objects by name.
type bucket struct {
	objs  map[string]*slot
	names sortedKeys[string, *slot]
	// slots are objs in name order, valid until a name comes or goes
	// (as an index set's list): a list after status updates alone (the
	// node lifecycle controller's pass over every node each 5 s) reads
	// them without a map lookup a name.
	slots []*slot
	valid bool
}

// cache holds objects by namespace and name, and lists them in namespace
// and name order; its indexes (see Index) are kept in step with every put
// and del.
type cache struct {
	spaces  map[string]*bucket
	nsKeys  sortedKeys[string, *bucket]
	n       int
	indexes []*index
	// bySlot files slots by the store's numbers for their objects
	// (store.Event.Hint), so that a watch event for a cached object finds
	// its slot without a map lookup by name (the most of a watch event's
	// cost in a large cluster). It is a hint: an entry is taken only when
	// its slot holds exactly the event's previous object, and entries of
	// deleted slots go when their numbers come again.
	bySlot []*slot
}

func newCache(defs []indexDef) *cache {
	c := &cache{spaces: make(map[string]*bucket), nsKeys: sortedKeys[string, *bucket]{cmp: strings.Compare}}
	for _, d := range defs {
		c.addIndex(d)
	}
	return c
}

func (c *cache) get(key api.Key) (api.Object, bool) {
	b := c.spaces[key.Namespace]
	if b == nil {
		return nil, false
	}
	if s := b.objs[key.Name]; s != nil {
		return s.obj, true
	}
	return nil, false
}

// put stores o under key and returns what it replaced. num and prev are
// the watch event's hint (store.Event.Hint; 0 and nil for none).
func (c *cache) put(key api.Key, o api.Object, num uint32, prev api.Object) (api.Object, bool) {
	var s *slot
	if prev != nil && int(num) < len(c.bySlot) {
		// The slot filed under num holds the object's key if it holds
		// the very object the store replaced (the same *ObjectMeta: an
		// object's address is its own while the slot keeps it) and that
		// object has the key (as the store's always has: prev is
		// checked, not trusted; it is fresh in the caches, the store
		// having just replaced it).
		pm := prev.GetObjectMeta()
		if h := c.bySlot[num]; h != nil && h.obj != nil && h.obj.GetObjectMeta() == pm && pm.Name == key.Name && pm.Namespace == key.Namespace {
			s = h
		}
	}
	if s == nil {
		s = c.slotOf(key)
		if num != 0 {
			c.file(num, s)
		}
	}
	old := s.obj
	s.obj = o
	for _, ix := range c.indexes {
		ix.update(key, old, o, s)
	}
	return old, old != nil
}

// slotOf returns key's slot, found by name or added empty.
func (c *cache) slotOf(key api.Key) *slot {
	b := c.spaces[key.Namespace]
	if b == nil {
		b = &bucket{objs: make(map[string]*slot), names: sortedKeys[string, *slot]{cmp: strings.Compare}}
		c.spaces[key.Namespace] = b
		c.nsKeys.add(key.Namespace)
	}
	s := b.objs[key.Name]
	if s == nil {
		s = &slot{}
		b.objs[key.Name] = s
		b.names.add(key.Name)
		b.valid = false
		c.n++
	}
	return s
}

// file files s under the store's number num.
func (c *cache) file(num uint32, s *slot) {
	if int(num) >= len(c.bySlot) {
		c.bySlot = slices.Grow(c.bySlot, int(num)+1-len(c.bySlot))[:int(num)+1]
	}
	c.bySlot[num] = s
}

// del removes key and returns what was stored. num is the watch event's
// number for the object (store.Event.Hint; 0 for none).
func (c *cache) del(key api.Key, num uint32) (api.Object, bool) {
	b := c.spaces[key.Namespace]
	if b == nil {
		return nil, false
	}
	s := b.objs[key.Name]
	if s == nil {
		return nil, false
	}
	old := s.obj
	delete(b.objs, key.Name)
	b.names.remove()
	b.valid = false
	c.n--
	for _, ix := range c.indexes {
		ix.update(key, old, nil, s)
	}
	// The slot may still be filed under a number (this one, or one the
	// cache missed the end of): emptied, it never matches a hint again,
	// and keeps no object alive.
	s.obj = nil
	if int(num) < len(c.bySlot) && c.bySlot[num] == s {
		c.bySlot[num] = nil
	}
	if len(b.objs) == 0 {
		delete(c.spaces, key.Namespace)
		c.nsKeys.remove()
	}
	return old, true
}

// size returns how many objects namespace ns ("" for all) holds.
func (c *cache) size(ns string) int {
	if ns == "" {
		return c.n
	}
	if b := c.spaces[ns]; b != nil {
		return len(b.objs)
	}
	return 0
}

// list returns the objects of namespace ns ("" for all) in
// namespace/name order, in a new slice.
func (c *cache) list(ns string) []api.Object {
	out := make([]api.Object, 0, c.size(ns))
	c.each(ns, func(o api.Object) { out = append(out, o) })
	return out
}

// each calls fn with every object of namespace ns ("" for all), in
// namespace/name order.
func (c *cache) each(ns string, fn func(api.Object)) {
	if ns != "" {
		if b := c.spaces[ns]; b != nil {
			b.each(fn)
		}
		return
	}
	for _, ns := range c.nsKeys.list(c.spaces) {
		c.spaces[ns].each(fn)
	}
}

func (b *bucket) each(fn func(api.Object)) {
	if !b.valid {
		b.slots = slotsInOrder(b.slots, b.names.list(b.objs), b.objs)
		b.valid = true
	}
	for _, sl := range b.slots {
		fn(sl.obj)
	}
}

// slotsInOrder refills dst with m's slots in the order of keys, all of
// which m holds: the list a bucket or an index set reads until a key
// comes or goes. dst is cleared first, so that no pointer to an object
// that left stays past the new end.
func slotsInOrder[K comparable](dst []*slot, keys []K, m map[K]*slot) []*slot {
	clear(dst)
	dst = dst[:0]
	for _, k := range keys {
		dst = append(dst, m[k])
	}
	return dst
}
