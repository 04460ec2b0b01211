package eventcorrelator

import "github.com/clustersim/clustersim/sim/fieldhash"

// lru is groupcache's lru.Cache as client-go's event caches use it: at
// most max entries, a get or an add makes an entry the most recently used,
// and an add past max drops the least recently used. Entries live in one
// slice, linked by index, so that an entry costs no allocation of its own
// and the order never depends on a map's.
type lru[V any] struct {
	max        int
	index      map[fieldhash.Sum]int32
	entries    []entry[V]
	head, tail int32 // most and least recently used; -1 when empty
	free       int32 // a chain of unused entries through next; -1 when none
}

type entry[V any] struct {
	key        fieldhash.Sum
	val        V
	prev, next int32
}

func newLRU[V any](max int) lru[V] {
	return lru[V]{max: max, index: map[fieldhash.Sum]int32{}, head: -1, tail: -1, free: -1}
}

// len returns how many entries the cache holds.
func (c *lru[V]) len() int { return len(c.index) }

// ref returns the value under key, made the most recently used, to be
// read and changed in place; a key not there is added with the zero
// value (and found false), dropping the least recently used entry when
// the cache is over its size. The pointer holds until the next ref or add.
// It is get and add in one lookup.
func (c *lru[V]) ref(key fieldhash.Sum) (*V, bool) {
	if i, ok := c.index[key]; ok {
		c.front(i)
		return &c.entries[i].val, true
	}
	var zero V
	c.add(key, zero)
	return &c.entries[c.head].val, false
}

// add sets the value under key, makes it the most recently used, and
// drops the least recently used entry when the cache is over its size.
func (c *lru[V]) add(key fieldhash.Sum, val V) {
	if i, ok := c.index[key]; ok {
		c.entries[i].val = val
		c.front(i)
		return
	}
	var i int32
	if c.free >= 0 {
		i = c.free
		c.free = c.entries[i].next
	} else {
		i = int32(len(c.entries))
		c.entries = append(c.entries, entry[V]{})
	}
	c.entries[i] = entry[V]{key: key, val: val, prev: -1, next: c.head}
	if c.head >= 0 {
		c.entries[c.head].prev = i
	}
	c.head = i
	if c.tail < 0 {
		c.tail = i
	}
	c.index[key] = i
	if len(c.index) > c.max {
		c.removeOldest()
	}
}

// oldest returns the least recently used value.
func (c *lru[V]) oldest() (V, bool) {
	if c.tail < 0 {
		var zero V
		return zero, false
	}
	return c.entries[c.tail].val, true
}

// removeOldest drops the least recently used entry.
func (c *lru[V]) removeOldest() {
	i := c.tail
	if i < 0 {
		return
	}
	c.unlink(i)
	delete(c.index, c.entries[i].key)
	c.entries[i] = entry[V]{next: c.free}
	c.free = i
}

// front moves entry i to the head.
func (c *lru[V]) front(i int32) {
	if c.head == i {
		return
	}
	c.unlink(i)
	c.entries[i].prev, c.entries[i].next = -1, c.head
	if c.head >= 0 {
		c.entries[c.head].prev = i
	}
	c.head = i
	if c.tail < 0 {
		c.tail = i
	}
}

func (c *lru[V]) unlink(i int32) {
	e := &c.entries[i]
	if e.prev >= 0 {
		c.entries[e.prev].next = e.next
	} else {
		c.head = e.next
	}
	if e.next >= 0 {
		c.entries[e.next].prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next = -1, -1
}
