package garbagecollector

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/addrmemo"
	"github.com/clustersim/clustersim/sim/api"
)

// coordinates identify an owner as an owner reference does.
type coordinates struct {
	APIVersion string
	Kind       string
	Name       string
	UID        api.UID
}

// objectRef is a node's identity: its coordinates and namespace (upstream's
// objectReference).
type objectRef struct {
	coordinates
	Namespace string
}

// String renders the identity for errors.
func (r objectRef) String() string {
	return fmt.Sprintf("[%s/%s, namespace: %s, name: %s, uid: %s]", r.APIVersion, r.Kind, r.Namespace, r.Name, r.UID)
}

// coordinatesOf returns the coordinates an owner reference names.
func coordinatesOf(ref api.OwnerReference) coordinates {
	return coordinates{APIVersion: ref.APIVersion, Kind: ref.Kind, Name: ref.Name, UID: ref.UID}
}

// identityOf returns the identity of an observed object.
func identityOf(obj api.Object) objectRef {
	m := obj.GetObjectMeta()
	tm := obj.GetTypeMeta()
	kind, apiVersion := tm.Kind, tm.APIVersion
	if kind == "" || apiVersion == "" {
		k := api.KindOf(obj)
		kind = k.Name
		if info, ok := api.Lookup(k); ok {
			apiVersion = info.APIVersion()
		}
	}
	return objectRef{coordinates: coordinates{APIVersion: apiVersion, Kind: kind, Name: m.Name, UID: m.UID}, Namespace: m.Namespace}
}

// node is an object in the ownership graph.
type node struct {
	id objectRef
	// owners are the object's owner references as last observed.
	owners []api.OwnerReference
	// dependents are the nodes whose owners include this one, by uid.
	dependents map[api.UID]*node
	// beingDeleted: the object has a deletionTimestamp.
	beingDeleted bool
	// deletingDependents: being deleted with the foregroundDeletion
	// finalizer.
	deletingDependents bool
	// virtual: known only from a dependent's owner reference, not (yet)
	// observed through an informer.
	virtual bool
	// removed: no longer in the graph's nodes (its entry in recent is
	// stale).
	removed bool
}

func newNode(id objectRef) *node {
	return &node{id: id, dependents: map[api.UID]*node{}}
}

func compareRefs(a, b objectRef) int {
	return cmp.Or(
		strings.Compare(a.Namespace, b.Namespace),
		strings.Compare(a.Kind, b.Kind),
		strings.Compare(a.Name, b.Name),
		strings.Compare(string(a.UID), string(b.UID)),
	)
}

// sortedDependents returns the dependents sorted by namespace, kind, name
// and uid, so that map order never decides what is done first.
func (n *node) sortedDependents() []*node {
	out := make([]*node, 0, len(n.dependents))
	for _, d := range n.dependents {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b *node) int { return compareRefs(a.id, b.id) })
	return out
}

// blockingDependents returns the dependents whose reference to n has
// blockOwnerDeletion set: those a foreground deletion of n waits for.
func (n *node) blockingDependents() []*node {
	var out []*node
	for _, dep := range n.sortedDependents() {
		for _, ref := range dep.owners {
			if ref.UID == n.id.UID && ref.BlockOwnerDeletion != nil && *ref.BlockOwnerDeletion {
				out = append(out, dep)
				break
			}
		}
	}
	return out
}

func hasFinalizer(m *api.ObjectMeta, f string) bool { return slices.Contains(m.Finalizers, f) }

// graph is the ownership graph, updated synchronously from informer events
// (upstream's GraphBuilder, whose processGraphChanges loop this replaces:
// handlers here run one at a time and never block).
type graph struct {
	nodes map[api.UID]*node
	// recent finds a node by where its uid's text is (lookup): every
	// version of an object carries its first version's uid string, and
	// the graph sees each update of every object (a lease renewal, a
	// pod's status), where the map's lookup by text cost a cache miss or
	// two at thousands of nodes.
	recent addrmemo.Memo[*node]
	// gone holds the uids of observed nodes virtualDelete removed (an
	// informer event made them, no delete event ended them): an update
	// of one of those must go the whole way (observe), to make its node
	// again.
	gone   map[api.UID]bool
	absent *refCache
	// enqueueDelete and enqueueOrphan add a node to the attemptToDelete
	// and attemptToOrphan queues.
	enqueueDelete func(n *node)
	enqueueOrphan func(n *node)
	// report records that n's reference ref names an owner observed in
	// another namespace (an OwnerRefInvalidNamespace event); nil records
	// nothing.
	report func(n *node, ref api.OwnerReference)
}

func newGraph() *graph {
	return &graph{nodes: map[api.UID]*node{}, absent: newRefCache(absentOwnerCacheSize)}
}

// node returns the node with uid, or nil.
func (g *graph) node(uid api.UID) *node { return g.nodes[uid] }

// lookup is g.nodes[uid], through recent first. A node recent holds
// was in nodes when put there, and stays the one for its uid until it
// is removed: nodes only gains a uid it lacks.
func (g *graph) lookup(uid api.UID) (*node, bool) {
	if n, ok := g.recent.Get(string(uid)); ok && !n.removed {
		return n, true
	}
	n, ok := g.nodes[uid]
	if ok {
		g.recent.Put(string(uid), n)
	}
	return n, ok
}

func (g *graph) onAdd(obj api.Object)         { g.observe(false, nil, obj) }
func (g *graph) onUpdate(old, obj api.Object) { g.observe(false, old, obj) }
func (g *graph) onDelete(obj api.Object)      { g.observe(true, nil, obj) }

// observe applies an informer event: an add or update (deleted false, old
// nil for an add) or a delete.
func (g *graph) observe(deleted bool, old, obj api.Object) {
	m := obj.GetObjectMeta()
	if deleted && len(g.gone) > 0 {
		delete(g.gone, m.UID) // no update follows a delete
	}
	if !deleted && old != nil && unchangedForGraph(old.GetObjectMeta(), m) && !g.gone[m.UID] {
		// An update after the add that made the object's node (an
		// informer sends an object's updates after its add, and a
		// handler added late is given the adds first), whose node
		// nothing but a delete event or virtualDelete removes: the node
		// is there, observed, and holds these owners; neither side
		// being deleted, nothing transitions. The lookup below would
		// find all that at the price of a cache miss or two at every
		// lease renewal and pod status write of a large cluster.
		return
	}
	id := identityOf(obj)
	n, found := g.lookup(m.UID)
	if found && n.virtual {
		// The first sighting of an object known so far only from its
		// dependents' references.
		if id != n.id {
			// Dependents that named it by other coordinates may be wrong:
			// let attemptToDelete verify them.
			_, mismatched := partitionDependents(n.sortedDependents(), id)
			for _, dep := range mismatched {
				if id.Namespace != "" && dep.id.Namespace != id.Namespace {
					// A namespaced owner in another namespace: definitely
					// wrong.
					g.reportInvalidNamespace(dep, id.UID)
				}
				g.enqueueDelete(dep)
			}
			n.id = id
		}
		n.virtual = false
	}
	switch {
	case !deleted && !found:
		delete(g.gone, m.UID)
		n = newNode(id)
		// The object's own references, not a copy: informer objects are
		// never changed, and the next version of an object nearly always
		// shares its predecessor's (a status write, a lease renewal:
		// docs/PERFORMANCE.md's twenty-fourth pass counted them), which
		// sameReferences then finds equal without reading them.
		n.owners = m.OwnerReferences
		n.beingDeleted = m.DeletionTimestamp != nil
		n.deletingDependents = n.beingDeleted && hasFinalizer(m, api.FinalizerDeleteDependents)
		g.insertNode(n)
		g.processTransitions(old, obj, n)
	case !deleted:
		added, removed, changed := referencesDiffs(n.owners, m.OwnerReferences)
		if len(added) > 0 || len(removed) > 0 || len(changed) > 0 {
			g.enqueueUnblockedOwners(removed, changed)
			n.owners = m.OwnerReferences
			g.addDependentToOwners(n, added)
			g.removeDependentFromOwners(n, removed)
		}
		if m.DeletionTimestamp != nil {
			n.beingDeleted = true
		}
		g.processTransitions(old, obj, n)
	case found:
		g.removeAndNotify(n, id)
	}
}

// unchangedForGraph reports whether an update from old to cur changes
// nothing the graph keeps: the same owner references (sameReferences)
// and neither being deleted.
func unchangedForGraph(old, cur *api.ObjectMeta) bool {
	return old.DeletionTimestamp == nil && cur.DeletionTimestamp == nil && sameReferences(old.OwnerReferences, cur.OwnerReferences)
}

// virtualDelete handles attemptToDelete's finding that the object id is
// gone (upstream's virtual delete event).
func (g *graph) virtualDelete(id objectRef) {
	n, found := g.nodes[id.UID]
	if !found {
		return
	}
	remove := true
	switch {
	case n.virtual:
		// We were not sure of its coordinates: if dependents name the uid
		// otherwise, try those before giving up on the owner.
		if alt := alternateOwnerIdentity(n.sortedDependents(), id); alt != nil {
			remove = false
			g.absent.add(id)
			n.id = *alt
			g.enqueueDelete(n)
		}
	case n.id != id:
		// The informer saw this uid under other coordinates: keep the
		// real node, and collect only the dependents that named the
		// absent coordinates.
		remove = false
		matching, _ := partitionDependents(n.sortedDependents(), id)
		if len(matching) > 0 {
			g.absent.add(id)
			for _, dep := range matching {
				g.enqueueDelete(dep)
			}
		}
	}
	if remove {
		if !n.virtual {
			if g.gone == nil {
				g.gone = map[api.UID]bool{}
			}
			g.gone[n.id.UID] = true
		}
		g.removeAndNotify(n, id)
	}
}

// removeAndNotify removes n from the graph; its dependents lost an owner
// and its owners waiting for their dependents may be unblocked.
func (g *graph) removeAndNotify(n *node, id objectRef) {
	delete(g.nodes, n.id.UID)
	n.removed = true
	g.removeDependentFromOwners(n, n.owners)
	deps := n.sortedDependents()
	if len(deps) > 0 {
		g.absent.add(id)
	}
	for _, dep := range deps {
		g.enqueueDelete(dep)
	}
	for _, ref := range n.owners {
		if owner := g.nodes[ref.UID]; owner != nil && owner.deletingDependents {
			g.enqueueDelete(owner)
		}
	}
}

// insertNode adds n to the graph and to its owners' dependents.
func (g *graph) insertNode(n *node) {
	g.nodes[n.id.UID] = n
	g.grow()
	g.addDependentToOwners(n, n.owners)
}

// grow sizes recent for the nodes: four slots a node, up to
// addrmemo.Max (a Grow that changes the size forgets what it held).
func (g *graph) grow() {
	if n := len(g.nodes); 2*n > g.recent.Len() {
		g.recent.Grow(4 * n)
	}
}

// addDependentToOwners makes n a dependent of each owner in refs,
// creating virtual nodes (to be verified by attemptToDelete) for owners
// not in the graph. A reference that disagrees with the owner's known
// namespace or coordinates sends n itself to attemptToDelete.
func (g *graph) addDependentToOwners(n *node, refs []api.OwnerReference) {
	suspect := false
	for _, ref := range refs {
		owner, ok := g.nodes[ref.UID]
		if !ok {
			owner = newNode(objectRef{coordinates: coordinatesOf(ref), Namespace: n.id.Namespace})
			owner.virtual = true
			g.nodes[ref.UID] = owner
			g.grow()
		}
		owner.dependents[n.id.UID] = n
		if !ok {
			g.enqueueDelete(owner)
			continue
		}
		if suspect {
			continue
		}
		namespaced := owner.id.Namespace != ""
		switch {
		case namespaced && owner.id.Namespace != n.id.Namespace:
			if !owner.virtual {
				// Observed in another namespace: definitely wrong.
				g.reportInvalidNamespace(n, ref.UID)
			}
			suspect = true
		case coordinatesOf(ref) != owner.id.coordinates:
			suspect = true
		case !namespaced && owner.id.Namespace != n.id.Namespace && owner.virtual:
			suspect = true
		}
	}
	if suspect {
		g.enqueueDelete(n)
	}
}

// reportInvalidNamespace reports n's reference to the owner with uid, if
// n has one (upstream's reportInvalidNamespaceOwnerRef).
func (g *graph) reportInvalidNamespace(n *node, uid api.UID) {
	if g.report == nil {
		return
	}
	for _, ref := range n.owners {
		if ref.UID == uid {
			g.report(n, ref)
			return
		}
	}
}

// removeDependentFromOwners removes n from the dependents of each owner in
// refs.
func (g *graph) removeDependentFromOwners(n *node, refs []api.OwnerReference) {
	for _, ref := range refs {
		if owner := g.nodes[ref.UID]; owner != nil {
			delete(owner.dependents, n.id.UID)
		}
	}
}

// enqueueUnblockedOwners sends to attemptToDelete the owners that a
// removed reference, or one whose blockOwnerDeletion was cleared, may no
// longer block.
func (g *graph) enqueueUnblockedOwners(removed []api.OwnerReference, changed [][2]api.OwnerReference) {
	blocks := func(r api.OwnerReference) bool { return r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion }
	for _, ref := range removed {
		if blocks(ref) {
			if owner := g.nodes[ref.UID]; owner != nil {
				g.enqueueDelete(owner)
			}
		}
	}
	for _, c := range changed {
		if blocks(c[0]) && !blocks(c[1]) {
			if owner := g.nodes[c[1].UID]; owner != nil {
				g.enqueueDelete(owner)
			}
		}
	}
}

// processTransitions starts orphaning or foreground deletion when obj has
// just started waiting for it.
func (g *graph) processTransitions(old, obj api.Object, n *node) {
	if startsWaiting(old, obj, api.FinalizerOrphanDependents) {
		g.enqueueOrphan(n)
		return
	}
	if startsWaiting(old, obj, api.FinalizerDeleteDependents) {
		// A node first seen as virtual may not have the flag yet.
		n.deletingDependents = true
		for _, dep := range n.sortedDependents() {
			g.enqueueDelete(dep)
		}
		g.enqueueDelete(n)
	}
}

// startsWaiting reports whether obj is being deleted with finalizer f and
// old (nil for an add) was not.
func startsWaiting(old, obj api.Object, f string) bool {
	m := obj.GetObjectMeta()
	if m.DeletionTimestamp == nil || !hasFinalizer(m, f) {
		return false
	}
	if old == nil {
		return true
	}
	om := old.GetObjectMeta()
	return om.DeletionTimestamp == nil || !hasFinalizer(om, f)
}

// referencesDiffs compares two owner reference lists by uid: references
// only in cur, only in old (in old's order), and changed pairs {old, cur}.
func referencesDiffs(old, cur []api.OwnerReference) (added, removed []api.OwnerReference, changed [][2]api.OwnerReference) {
	if sameReferences(old, cur) {
		// Nearly every update (a status write) keeps the references:
		// nothing to diff, and no maps to build.
		return nil, nil, nil
	}
	byUID := make(map[api.UID]api.OwnerReference, len(old))
	for _, r := range old {
		byUID[r.UID] = r
	}
	seen := make(map[api.UID]bool, len(cur))
	for _, r := range cur {
		o, ok := byUID[r.UID]
		switch {
		case !ok:
			added = append(added, r)
		case !o.Equal(r):
			changed = append(changed, [2]api.OwnerReference{o, r})
		}
		seen[r.UID] = true
	}
	for _, r := range old {
		if !seen[r.UID] {
			removed = append(removed, r)
		}
	}
	return added, removed, changed
}

// sameReferences reports whether cur holds old's references in the same
// order, each deeply equal, and old's uids are distinct: then
// referencesDiffs finds nothing added, removed or changed.
func sameReferences(old, cur []api.OwnerReference) bool {
	if len(old) != len(cur) {
		return false
	}
	if len(old) == 1 && api.SameElements(old, cur) {
		// The same one reference, not read: a status write's object
		// shares its predecessor's references (the store keeps all but
		// the status), and at scale reading them costs a cache miss on
		// every pod update. Only one: the same list of two references
		// to one uid is changed as referencesDiffs (upstream's map)
		// sees it, and the loop below finds that.
		return true
	}
	for i := range old {
		if !old[i].Equal(cur[i]) {
			return false
		}
		for j := range i {
			if old[j].UID == old[i].UID {
				return false
			}
		}
	}
	return true
}

// partitionDependents splits deps into those whose reference to owner's
// uid matches owner's coordinates and namespace, and those with a
// reference that does not (a dependent may be in both).
func partitionDependents(deps []*node, owner objectRef) (matching, mismatching []*node) {
	namespaced := owner.Namespace != ""
	for _, dep := range deps {
		match, mismatch := false, false
		if namespaced && owner.Namespace != dep.id.Namespace {
			mismatch = true
		} else {
			for _, ref := range dep.owners {
				if ref.UID != owner.UID {
					continue
				}
				if coordinatesOf(ref) == owner.coordinates {
					match = true
				} else {
					mismatch = true
				}
			}
		}
		if match {
			matching = append(matching, dep)
		}
		if mismatch {
			mismatching = append(mismatching, dep)
		}
	}
	return matching, mismatching
}

// alternateOwnerIdentity returns another identity the dependents give the
// uid of absent, preferring the first one after absent in the dependents'
// order, or nil when they all agree with absent.
func alternateOwnerIdentity(deps []*node, absent objectRef) *objectRef {
	clusterScoped := absent.Namespace == ""
	seen := map[objectRef]bool{absent: true}
	var first, following *objectRef
	seenAbsent := false
	for _, dep := range deps {
		for _, ref := range dep.owners {
			if ref.UID != absent.UID {
				continue
			}
			if coordinatesOf(ref) == absent.coordinates {
				if absent.Namespace == dep.id.Namespace {
					seenAbsent = true
				}
				continue
			}
			alt := objectRef{coordinates: coordinatesOf(ref)}
			if !clusterScoped {
				alt.Namespace = dep.id.Namespace
			}
			if seen[alt] {
				continue
			}
			seen[alt] = true
			if first == nil {
				first = &alt
			}
			if following == nil && seenAbsent {
				following = &alt
			}
		}
	}
	if following != nil {
		return following
	}
	return first
}

// refCache is a bounded set of identities known to be absent (upstream's
// ReferenceCache, an LRU of 500); the oldest entry is evicted first.
type refCache struct {
	max   int
	set   map[objectRef]bool
	order []objectRef
}

func newRefCache(max int) *refCache { return &refCache{max: max, set: map[objectRef]bool{}} }

func (c *refCache) has(r objectRef) bool { return c.set[r] }

func (c *refCache) add(r objectRef) {
	if c.set[r] {
		return
	}
	if len(c.order) >= c.max {
		delete(c.set, c.order[0])
		c.order = c.order[1:]
	}
	c.set[r] = true
	c.order = append(c.order, r)
}
