package informer

import (
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// HeldEntry is one step of the merge of a memo's entries, old (one a
// pod, in the lister's namespace/name order, podOf giving an entry's pod
// object), with the pods a sync lists, in the same order: it returns
// the entry of p when the memo holds p's object at the place *j the
// merge has reached, or nil when p is a new object (added, or replacing
// the pod of the entry at *j). Entries of pods gone are passed; *j moves
// past what has been matched. An entry's pod is read only when it is not
// p. A controller that remembers what it computed from each pod object of
// a list (the endpoints and EndpointSlice controllers do) merges the next
// list with it so, reading only the pods that are new objects: the cache
// replaces an object it changes, never writes into it. (A test's fake
// lister that changes a pod in place breaks that: replace it instead.)
func HeldEntry[E any](old []E, j *int, p *api.Pod, podOf func(*E) *api.Pod) *E {
	for *j < len(old) {
		o := &old[*j]
		op := podOf(o)
		if op == p {
			*j++
			return o
		}
		c := strings.Compare(op.Namespace, p.Namespace)
		if c == 0 {
			c = strings.Compare(op.Name, p.Name)
		}
		if c < 0 {
			*j++ // o's pod is gone
			continue
		}
		if c == 0 {
			*j++ // p replaced o's pod
		}
		return nil
	}
	return nil
}

// Held is a memo's entries, one a pod object in the lister's order, as
// the last sync left them (merged with the next list by HeldEntry), and
// the array the sync before that filled, which the next sync fills
// again: once the number of pods settles, a sync allocates nothing for
// its entries. The zero Held holds nothing.
type Held[E any] struct {
	ents, spare []E
}

// Entries returns the entries of the last sync (Keep's).
func (h *Held[E]) Entries() []E { return h.ents }

// Next returns an empty array for this sync's entries, of capacity n at
// least: the spare one when it is large enough.
func (h *Held[E]) Next(n int) []E {
	if cap(h.spare) >= n {
		return h.spare[:0]
	}
	return make([]E, 0, n)
}

// Keep makes next (Next's, filled) the entries; the last sync's array,
// cleared so that it keeps nothing alive, becomes the spare.
func (h *Held[E]) Keep(next []E) {
	clear(h.ents)
	h.spare, h.ents = h.ents, next
}

// MemoOf returns the memo *memos files under key, made (and the map
// with it) on first use: a controller's memo per object, such as the
// endpoints controllers' per Service.
func MemoOf[M any](memos *map[api.Key]*M, key api.Key) *M {
	m := (*memos)[key]
	if m == nil {
		if *memos == nil {
			*memos = map[api.Key]*M{}
		}
		m = new(M)
		(*memos)[key] = m
	}
	return m
}
