package scheduler

import (
	"cmp"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// Well-known topology labels the node tree groups nodes by.
const (
	labelZone   = "topology.kubernetes.io/zone"
	labelRegion = "topology.kubernetes.io/region"
)

// nodeInfo is what the scheduler knows of one node: the node object and
// the summed requests of the pods bound to it (k/k framework.NodeInfo).
// node is nil for a node the cache has pods for but no Node object (its
// pods arrived first, or it was deleted with pods still on it); such a
// node is never a candidate.
type nodeInfo struct {
	// The fields up to fit's are what the filters and scorers read for
	// every node a pod visits, and they are its first 128 bytes: two
	// cache lines, since the nodeInfos the search walks lie in one array
	// (packedList) and a nodeInfo is 256 bytes (TestNodeInfoLayout).
	// At 780 nodes a pod, the 3,000-node probe's, loading them is most
	// of the per-node cost; they were spread over 240 bytes (resources
	// of 48 bytes each, the memo's 72). Upstream's NodeInfo orders its
	// fields for reading, not for this.

	// ready is false when the scheduler's own readiness check rejects
	// the node: it makes one (cache.readyCheck) and the node's Ready
	// condition is not True.
	ready bool
	// unschedulable and taints are node.spec's, copied at each node
	// update beside the other fields the filters read for every node
	// and pod, so that a filter reads the node object itself only for
	// what a pod asks of its labels: at thousands of nodes, loading each
	// node object was most of the filters' time.
	unschedulable bool
	// hardTaints: some taint has effect NoSchedule or NoExecute, the
	// ones TaintToleration's filter checks; softTaints: some has
	// PreferNoSchedule, the ones its score counts. Set with taints, so
	// that the nodes without taints (nearly all) are passed without
	// loading the slice: the filter and the score give such a node
	// what they would give it after looking.
	hardTaints, softTaints bool
	// fitSet: fit holds scores (fitScores); setAllocatable clears it,
	// since fit's key leaves allocatable out.
	fitSet bool
	// pods counts the pods on the node; allowedPods is its allocatable
	// pods, held to int32's range (a node never runs 2^31 pods, so the
	// filter decides as it would on the full value).
	pods        int32
	allowedPods int32
	// allocatable is node.status.allocatable, parsed once per node update.
	allocatable resources
	// requested sums the requests of the pods on the node; nonZero sums
	// them with request-less containers counted at the defaults.
	requested resources
	nonZero   resources
	// fit is the fit scores last computed for this node (fitScores).
	fit fitMemo

	// What the filters and scorers read only for some pods and nodes.
	taints []api.Taint
	ports  []hostPort
	name   string
	node   *api.Node
	// topo is the node's place in the node tree and its values of the
	// two topology keys most constraints and terms name, read without
	// the node's label map (a few loads from memory a node).
	topo *nodeTopo
	// entries are the pods counted on the node, in no particular order:
	// PodTopologySpread and InterPodAffinity read their labels.
	entries []*podEntry
	// gen moves (touch) whenever entries change or one of them points at
	// a newer pod object; memo holds PodTopologySpread's counts of
	// matching pods for a generation (countCached). Only the cache's own
	// nodeInfos have a memo.
	gen  uint64
	memo *countMemo
	// pos is the node's place in the cache's order plus one (0: not in
	// it), by which a change to the node forgets its known scores
	// (cache.unscore).
	pos int32
	_   [4]byte // to 256 bytes (TestNodeInfoLayout)
}

// nodeTopo is what the scheduler reads of a node's topology labels.
type nodeTopo struct {
	// zone is the node tree's key (zoneOf).
	zone string
	// zoneValue and hostname are the labels' values, when present;
	// hostID is hostname's number (hostIDs), which the counts by
	// hostname are kept by.
	zoneValue, hostname  string
	hasZone, hasHostname bool
	hostID               int32
}

// hostIDs numbers the values of the hostname label the cache has seen,
// so that counts by hostname (one domain a node) are a slice indexed by
// number rather than a map of thousands of strings read at every node a
// pod scores. Values are never forgotten: they are as many as the
// nodes that have been.
type hostIDs struct{ ids map[string]int32 }

// id returns v's number, giving it one if it has none.
func (h *hostIDs) id(v string) int32 {
	id, ok := h.ids[v]
	if !ok {
		if h.ids == nil {
			h.ids = map[string]int32{}
		}
		id = int32(len(h.ids))
		h.ids[v] = id
	}
	return id
}

// setTopo sets ni's topology from n's labels, keeping the last one when
// they are the same.
func (ni *nodeInfo) setTopo(n *api.Node, hosts *hostIDs) {
	zv, hasZone := n.Labels[labelZone]
	host, hasHost := n.Labels[labelHostname]
	t := nodeTopo{zone: zoneOf(n), zoneValue: zv, hostname: host, hasZone: hasZone, hasHostname: hasHost}
	if hasHost {
		t.hostID = hosts.id(host)
	}
	if ni.topo != nil && *ni.topo == t {
		return
	}
	ni.topo = &t
}

// label is the node's label key: from topo for the zone and hostname
// keys (a nodeInfo made without setNode has none), else from the node's
// labels.
func (ni *nodeInfo) label(key string) (string, bool) {
	if t := ni.topo; t != nil {
		switch key {
		case labelZone:
			return t.zoneValue, t.hasZone
		case labelHostname:
			return t.hostname, t.hasHostname
		}
	}
	v, ok := ni.node.Labels[key]
	return v, ok
}

// labelValue is the node's label key, "" when it has none.
func (ni *nodeInfo) labelValue(key string) string {
	v, _ := ni.label(key)
	return v
}

// zone is the node tree's key of the node.
func (ni *nodeInfo) zone() string {
	if ni.topo == nil {
		return ""
	}
	return ni.topo.zone
}

// setAllocatable sets the node's allocatable resources and forgets its
// fit scores, whose memo key leaves them out (fitMemo). Nothing else
// writes allocatable.
func (ni *nodeInfo) setAllocatable(r resources) {
	ni.allocatable = r
	ni.fitSet = false
}

// setTaints sets the node's taints and the flags that summarize them.
func (ni *nodeInfo) setTaints(taints []api.Taint) {
	ni.taints, ni.hardTaints, ni.softTaints = taints, false, false
	for i := range taints {
		switch taints[i].Effect {
		case api.TaintEffectNoSchedule, api.TaintEffectNoExecute:
			ni.hardTaints = true
		case api.TaintEffectPreferNoSchedule:
			ni.softTaints = true
		}
	}
}

// podEntry is a pod the cache counts on a node.
type podEntry struct {
	node    string
	uid     api.UID
	req     resources
	nonZero resources
	ports   []hostPort
	// pod is the object last seen (or assumed): namespace, labels and
	// affinity for PodTopologySpread and InterPodAffinity.
	pod *api.Pod
	// compiled caches pod's compiled affinity terms; compiledFor is the
	// version they were compiled from.
	compiled    *podTerms
	compiledFor *api.Pod
	// assumed: bound by this scheduler, not yet seen bound in the
	// informer (k/k cache.assumedPods).
	assumed bool
	// priority is the pod's spec.priority (0 when unset).
	priority int32
}

// cache is the scheduler's cache: nodes and the pods counted on them.
// It is fed by informer handlers and by assume/forget around bindings.
type cache struct {
	// readyCheck makes nodes whose Ready condition is not True fail the
	// filters (Options.NodeLifecycleTaints false).
	readyCheck bool
	nodes      map[string]*nodeInfo
	pods       map[api.Key]*podEntry
	// withAffinity counts the entries whose pods have pod (anti-)affinity
	// (upstream's HavePodsWithAffinityList), so pods without any skip the
	// scan of existing pods' terms.
	withAffinity int
	// withRequiredAnti counts those of them with required pod
	// anti-affinity (upstream's HavePodsWithRequiredAntiAffinityList):
	// with none, and no required terms of its own, a pod skips
	// InterPodAffinity's filter.
	withRequiredAnti int
	// classes interns what the pods' affinity terms match, for the
	// nodes' InterPodAffinity memos.
	classes termClasses
	// index counts pods, their terms and nodes by topology domain for
	// InterPodAffinity and PodTopologySpread (interpodindex.go,
	// spreadindex.go).
	index domainIndex
	// hosts numbers the hostname label's values (nodeTopo.hostID).
	hosts hostIDs
	// added is set when setPod counts a pod anew; the scheduler reads and
	// clears it to wake pods waiting for placement rules.
	added bool
	// order is the node tree's listing of the nodes that exist, rebuilt
	// lazily when a node comes, goes or changes zone.
	order []*nodeInfo
	stale bool
	// packed is false when order was rebuilt after packedList last
	// moved its nodeInfos into one array; listed counts packedList's
	// calls since the rebuild.
	packed bool
	listed int
	// priorities counts the counted pods per priority (a handful of
	// distinct values), so that preemption knows at once when no pod
	// anywhere is below the preemptor.
	priorities map[int32]int
	// nominated are the pending pods nominated to a node by preemption,
	// per node; nominee indexes them by pod.
	nominated map[string][]*nominee
	nominee   map[api.Key]*nominee
	// shapes are the scores the search last gave plain pods of a few
	// request shapes on the nodes of order, by position (knownScores);
	// nextShape is the slot the next new shape takes, lastGen the
	// generation the last shape to take a slot was given.
	shapes    [shapeSlots]shapeScores
	nextShape int
	lastGen   uint32
	// unkept are the last shapes knownScores was asked for and had no
	// slot for (nextUnkept the next to replace): a shape takes a slot
	// only when it comes back while still among them.
	unkept     [shapeSlots]fitShape
	nextUnkept int
}

// fitShape is what a plain pod's filters and score read of it
// (fitsPlainly, fitScore): its requests, counted and with the nonzero
// defaults, and whether NodeResourcesBalancedAllocation scores it. The
// pods of one Deployment share one.
type fitShape struct {
	reqCPU, reqMem, nzCPU, nzMem int64
	balanced                     bool
}

// shapeScores holds, for a fitShape, each node's total score as the
// search gave a plain pod of that shape, by the node's position in the
// cache's order: gen<<32 | score where it is kept, anything else (0,
// an earlier shape's generation) where the node has not passed
// fitsPlainly for this shape since it last changed. A slot taken by a
// new shape gets a new generation, so that what its last shape kept is
// forgotten without clearing it: a cluster whose pods take turns among
// more shapes than there are slots then costs the search nothing more
// than it did without them.
type shapeScores struct {
	shape  fitShape
	gen    uint32 // 0: no shape
	scores []uint64
}

// keep returns the entry keeping score v for s, and false for a score
// that does not fit in the entry's low 32 bits (none does: the sum of
// the fit scores and the taint constant is a few hundred).
func (s *shapeScores) keep(v int64) (uint64, bool) {
	if v < 0 || v > math.MaxUint32 {
		return 0, false
	}
	return uint64(s.gen)<<32 | uint64(v), true
}

// kept returns the score entry e keeps for s, if it keeps one.
func (s *shapeScores) kept(e uint64) (int64, bool) {
	if s.gen == 0 || uint32(e>>32) != s.gen {
		return 0, false
	}
	return int64(uint32(e)), true
}

// shapeSlots is how many shapes the cache keeps scores for: a rollout
// interleaves two, a cluster of a few Deployments with different
// requests a few more; a shape that comes back after the slots moved on
// starts again from none kept.
const shapeSlots = 8

// knownScores returns the slot of the scores kept for shape (its scores
// by position in order are the cache's: the search fills them as it
// scores), or nil. A shape without a slot takes the oldest one if it
// was asked for recently (among unkept), and is remembered there if
// not: pods that take turns among more shapes than there are slots
// would otherwise take a slot each, every one's scores forgotten before
// its shape came back, and cost the search their keeping for nothing.
func (c *cache) knownScores(shape fitShape) *shapeScores {
	for k := range c.shapes {
		if s := &c.shapes[k]; s.gen != 0 && s.shape == shape && len(s.scores) == len(c.order) {
			return s
		}
	}
	if !slices.Contains(c.unkept[:], shape) {
		c.unkept[c.nextUnkept] = shape
		c.nextUnkept = (c.nextUnkept + 1) % shapeSlots
		return nil
	}
	s := &c.shapes[c.nextShape]
	c.nextShape = (c.nextShape + 1) % shapeSlots
	if c.lastGen++; c.lastGen == 0 {
		// Four billion shapes later the generations start again: no
		// slot may keep an entry that a reused one would match.
		for k := range c.shapes {
			clear(c.shapes[k].scores)
		}
		c.lastGen = 1
	}
	s.shape, s.gen = shape, c.lastGen
	// What the array holds is an earlier generation's, which the new one
	// never matches: it is reused as it is, only sized to the order (a
	// cluster whose nodes keep coming rebuilds the order at every
	// scheduling cycle, and each slot would allocate again).
	if cap(s.scores) >= len(c.order) {
		s.scores = s.scores[:len(c.order)]
	} else {
		s.scores = make([]uint64, len(c.order))
	}
	return s
}

// unscore forgets ni's known scores: called wherever what fitsPlainly
// and fitScore read of a node changes (its pods' requests, its
// allocatable, readiness, taints, cordon). A node not in the order
// (pos 0, or an order rebuilt since) has none to forget: rebuilding the
// order forgets them all, as it does when a node goes (removeNode marks
// the order stale).
func (c *cache) unscore(ni *nodeInfo) {
	p := int(ni.pos) - 1
	if p < 0 || p >= len(c.order) || c.order[p] != ni {
		return
	}
	for k := range c.shapes {
		if s := &c.shapes[k]; p < len(s.scores) {
			s.scores[p] = 0
		}
	}
}

// nominee is a pending pod nominated to a node (k/k's pod nominator): its
// requests are held for it there against pods of lower priority.
type nominee struct {
	key      api.Key
	uid      api.UID
	node     string
	priority int32
	req      resources
}

func newCache() *cache {
	c := &cache{readyCheck: true, nodes: map[string]*nodeInfo{}, pods: map[api.Key]*podEntry{}, priorities: map[int32]int{},
		nominated: map[string][]*nominee{}, nominee: map[api.Key]*nominee{}}
	c.index.hosts = &c.hosts
	return c
}

// podPriority is corev1helpers.PodPriority: spec.priority, 0 when unset.
func podPriority(pod *api.Pod) int32 {
	if pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}

// lowestPriority returns the lowest priority of a counted pod, false if
// no pod is counted.
func (c *cache) lowestPriority() (int32, bool) {
	var low int32
	found := false
	for p, n := range c.priorities {
		if n > 0 && (!found || p < low) {
			low, found = p, true
		}
	}
	return low, found
}

// nominate holds pod's requests on node until it is bound or gone.
func (c *cache) nominate(pod *api.Pod, node string) {
	key := pod.Key()
	c.unnominate(key)
	req, _ := podRequests(pod)
	n := &nominee{key: key, uid: pod.UID, node: node, priority: podPriority(pod), req: req}
	c.nominee[key] = n
	c.nominated[node] = append(c.nominated[node], n)
}

// unnominate drops pod key's nomination, if any.
func (c *cache) unnominate(key api.Key) {
	n := c.nominee[key]
	if n == nil {
		return
	}
	delete(c.nominee, key)
	list := c.nominated[n.node]
	if i := slices.Index(list, n); i >= 0 {
		list = slices.Delete(list, i, i+1)
	}
	if len(list) == 0 {
		delete(c.nominated, n.node)
	} else {
		c.nominated[n.node] = list
	}
}

// nominatedNode returns the node pod key is nominated to, or "".
func (c *cache) nominatedNode(key api.Key) string {
	if n := c.nominee[key]; n != nil {
		return n.node
	}
	return ""
}

// zoneOf is the node tree's zone key: region and zone labels
// (k/k utilnode.GetZoneKey).
func zoneOf(n *api.Node) string {
	region, zone := n.Labels[labelRegion], n.Labels[labelZone]
	if region == "" && zone == "" {
		return ""
	}
	return region + ":\x00:" + zone
}

// readyStatus reports whether the node's Ready condition is True.
func readyStatus(n *api.Node) bool {
	for i := range n.Status.Conditions {
		if c := &n.Status.Conditions[i]; c.Type == api.NodeReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

func (c *cache) info(name string) *nodeInfo {
	ni := c.nodes[name]
	if ni == nil {
		ni = &nodeInfo{name: name}
		ni.memo = &countMemo{owner: ni}
		c.nodes[name] = ni
	}
	return ni
}

// setNode adds or replaces a node object. As every object an informer
// gives, n is not changed afterwards: the counts by domain (indexNode)
// take its labels now and move them only when another object replaces
// it.
func (c *cache) setNode(n *api.Node) {
	ni := c.info(n.Name)
	c.unscore(ni)
	if ni.node == nil || zoneOf(ni.node) != zoneOf(n) {
		c.stale = true
	}
	old := ni.node
	ni.node = n
	c.indexNode(ni, old)
	ni.setAllocatable(fromList(n.Status.Allocatable))
	ni.allowedPods = 0
	if q, ok := n.Status.Allocatable[api.ResourcePods]; ok {
		ni.allowedPods = int32(min(max(q.Value(), math.MinInt32), math.MaxInt32))
	}
	ni.ready = !c.readyCheck || readyStatus(n)
	ni.unschedulable = n.Spec.Unschedulable
	ni.setTaints(n.Spec.Taints)
	ni.setTopo(n, &c.hosts)
}

// removeNode forgets a node object; its pods stay counted until they go.
func (c *cache) removeNode(name string) {
	ni := c.nodes[name]
	if ni == nil {
		return
	}
	old := ni.node
	ni.node, ni.unschedulable = nil, false
	c.indexNode(ni, old)
	ni.setTaints(nil)
	c.stale = true
	if ni.pods == 0 {
		delete(c.nodes, name)
	}
}

// list returns the existing nodes in the node tree's order: zones sorted by
// key, nodes sorted by name within a zone, taken round robin one per zone
// (k/k nodeTree.list), so that a partial search spreads over zones.
func (c *cache) list() []*nodeInfo {
	if !c.stale {
		return c.order
	}
	c.stale, c.packed, c.listed = false, false, 0
	all := make([]*nodeInfo, 0, len(c.nodes))
	for _, ni := range c.nodes {
		ni.pos = 0
		if ni.node != nil {
			all = append(all, ni)
		}
	}
	slices.SortFunc(all, func(a, b *nodeInfo) int {
		return cmp.Or(strings.Compare(a.zone(), b.zone()), strings.Compare(a.name, b.name))
	})
	var zones [][]*nodeInfo
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].zone() == all[i].zone() {
			j++
		}
		zones = append(zones, all[i:j])
		i = j
	}
	c.order = c.order[:0]
	for depth := 0; len(c.order) < len(all); depth++ {
		for _, z := range zones {
			if depth < len(z) {
				ni := z[depth]
				c.order = append(c.order, ni)
				ni.pos = int32(len(c.order))
			}
		}
	}
	for k := range c.shapes {
		c.shapes[k].gen = 0 // positions moved: no score is known
	}
	return c.order
}

// packedList is list with the listed nodeInfos moved, once after each
// rebuild of the order, into one array in the order's sequence: the
// search of a scheduling cycle then reads them front to back, and at
// thousands of nodes its first read of each (ready, in filter) was
// its cost, a load from memory for every node visited: at 3,000 nodes
// a pod visits 780 of them, each allocated when its node came, among
// the cluster's other objects. Only the schedule cycle's search calls
// it, before it takes any nodeInfo: the nodeInfos it moves are the
// cache's (nodes, order and their count memos point at the new ones),
// and a pointer to an old one taken before would see it no longer
// change. It moves them once the order has served packAfter cycles:
// while nodes keep coming (a cluster starting), each would rebuild the
// order and move them all again.
func (c *cache) packedList() []*nodeInfo {
	order := c.list()
	if c.packed {
		return order
	}
	if c.listed++; c.listed < packAfter {
		return order
	}
	c.packed = true
	slab := make([]nodeInfo, len(order))
	for i, ni := range order {
		slab[i] = *ni
		p := &slab[i]
		if p.memo != nil && p.memo.owner == ni {
			p.memo.owner = p
		}
		c.nodes[p.name] = p
		order[i] = p
	}
	return order
}

// packAfter is how many scheduling cycles an order serves before
// packedList moves its nodeInfos: a move copies every node's, a cycle
// visits at least a hundred (or all) of them.
const packAfter = 16

// counts reports whether pod occupies resources on its node: bound, and
// not finished (a Succeeded or Failed pod's containers are gone).
func counts(pod *api.Pod) bool {
	return pod.Spec.NodeName != "" && pod.Status.Phase != api.PodSucceeded && pod.Status.Phase != api.PodFailed
}

func (c *cache) addEntry(key api.Key, e *podEntry) {
	c.pods[key] = e
	ni := c.info(e.node)
	c.unscore(ni)
	ni.requested.add(&e.req, 1)
	ni.nonZero.add(&e.nonZero, 1)
	ni.pods++
	ni.ports = append(ni.ports, e.ports...)
	ni.entries = append(ni.entries, e)
	ni.touch()
	c.countAffinity(e.pod, 1)
	c.indexEntry(ni, e, 1)
	c.priorities[e.priority]++
}

func (c *cache) removeEntry(key api.Key) *podEntry {
	e := c.pods[key]
	if e == nil {
		return nil
	}
	delete(c.pods, key)
	ni := c.nodes[e.node]
	c.unscore(ni)
	c.indexEntry(ni, e, -1)
	ni.requested.add(&e.req, -1)
	ni.nonZero.add(&e.nonZero, -1)
	ni.pods--
	if i := slices.Index(ni.entries, e); i >= 0 {
		last := len(ni.entries) - 1
		ni.entries[i] = ni.entries[last]
		ni.entries[last] = nil
		ni.entries = ni.entries[:last]
	}
	ni.touch()
	c.countAffinity(e.pod, -1)
	if c.priorities[e.priority]--; c.priorities[e.priority] == 0 {
		delete(c.priorities, e.priority)
	}
	for _, p := range e.ports {
		if i := slices.Index(ni.ports, p); i >= 0 {
			ni.ports = slices.Delete(ni.ports, i, i+1)
		}
	}
	if ni.pods == 0 && ni.node == nil {
		delete(c.nodes, e.node)
	}
	return e
}

func newEntry(pod *api.Pod, node string) *podEntry {
	req, nz := podRequests(pod)
	return &podEntry{node: node, uid: pod.UID, req: req, nonZero: nz, ports: podHostPorts(pod), pod: pod, priority: podPriority(pod)}
}

// setPod makes the cache agree with the informer's view of pod: counted on
// its node while it is bound and not finished. A pod this scheduler has
// assumed and the informer still shows unbound stays assumed (the binding
// is on its way); once the informer shows it bound the entry is confirmed.
// It reports whether an entry that counted was removed (resources freed).
func (c *cache) setPod(pod *api.Pod) (freed bool) {
	key := pod.Key()
	old := c.pods[key]
	if !counts(pod) {
		if old == nil {
			return false
		}
		if old.assumed && pod.Spec.NodeName == "" && old.uid == pod.UID {
			return false
		}
		c.removeEntry(key)
		return true
	}
	if old != nil {
		if !old.assumed && old.node == pod.Spec.NodeName && old.uid == pod.UID {
			// Requests of a bound pod do not change here; its labels
			// may, and the placement plugins read them.
			c.replaceObject(old, pod)
			return false
		}
		c.removeEntry(key)
		freed = old.node != pod.Spec.NodeName || old.uid != pod.UID
	}
	c.addEntry(key, newEntry(pod, pod.Spec.NodeName))
	c.added = true
	return freed
}

// replaceObject points e at a newer version of its pod. The node's
// memos and the affinity index are stale only if what they read
// changed: the labels the selectors match, whether the pod is
// terminating (PodTopologySpread leaves such pods out), its pod
// (anti-)affinity, its namespace. Most versions are status writes,
// which change none of these, and the pods of a node starting up would
// otherwise make its counts again for every pod scheduled.
func (c *cache) replaceObject(e *podEntry, pod *api.Pod) {
	old := e.pod
	changed := !api.EqualEntries(old.Labels, pod.Labels) || (old.DeletionTimestamp == nil) != (pod.DeletionTimestamp == nil) ||
		!samePodAffinity(old, pod) || old.Namespace != pod.Namespace
	var ni *nodeInfo // nil unless changed
	if changed {
		// Looked up only then: the node's record is a cache miss at
		// thousands of nodes, on every status write of every pod.
		ni = c.nodes[e.node]
	}
	if ni != nil {
		c.indexEntry(ni, e, -1)
	}
	c.countAffinity(old, -1)
	e.pod = pod
	c.countAffinity(pod, 1)
	if ni != nil {
		ni.touch()
		c.indexEntry(ni, e, 1)
	}
}

// countAffinity adds d to the counts of pods with pod (anti-)affinity and
// with required anti-affinity that pod is one of.
func (c *cache) countAffinity(pod *api.Pod, d int) {
	if !hasPodAffinity(pod) {
		return
	}
	c.withAffinity += d
	if a := pod.Spec.Affinity.PodAntiAffinity; a != nil && len(a.RequiredDuringSchedulingIgnoredDuringExecution) > 0 {
		c.withRequiredAnti += d
	}
}

// samePodAffinity reports whether a and b have the same pod affinity and
// anti-affinity (a pod's spec is meant to keep them, but the API server
// does not refuse an update that changes them).
func samePodAffinity(a, b *api.Pod) bool {
	x, y := a.Spec.Affinity, b.Spec.Affinity
	switch {
	case x == y:
		return true
	case x == nil || y == nil:
		return !hasPodAffinity(a) && !hasPodAffinity(b)
	}
	return reflect.DeepEqual(x.PodAffinity, y.PodAffinity) && reflect.DeepEqual(x.PodAntiAffinity, y.PodAntiAffinity)
}

// hasPodAffinity reports whether pod has pod affinity or anti-affinity.
func hasPodAffinity(pod *api.Pod) bool {
	a := pod.Spec.Affinity
	return a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil)
}

// deletePod removes pod; it reports whether it had been counted.
func (c *cache) deletePod(key api.Key) bool {
	return c.removeEntry(key) != nil
}

// assume counts pod on node before the API confirms the binding.
func (c *cache) assume(pod *api.Pod, node string) {
	key := pod.Key()
	c.removeEntry(key)
	e := newEntry(pod, node)
	e.assumed = true
	c.addEntry(key, e)
}

// forget undoes assume after a failed binding. A pod the informer has
// already shown bound is not assumed any more and stays counted.
func (c *cache) forget(key api.Key, uid api.UID) {
	if e := c.pods[key]; e != nil && e.assumed && e.uid == uid {
		c.removeEntry(key)
	}
}

// isAssumed reports whether pod is assumed and not yet confirmed.
func (c *cache) isAssumed(pod *api.Pod) bool {
	e := c.pods[pod.Key()]
	return e != nil && e.assumed && e.uid == pod.UID
}
