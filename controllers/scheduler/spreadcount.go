package scheduler

import "github.com/clustersim/clustersim/sim/api"

// PodTopologySpread's PreFilter and PreScore count, for every node and
// every constraint of the pod, the node's pods its selector matches
// (upstream's countPodsMatchSelector, called for each node by
// calPreFilterState and PreScore's processNode), reading every pod on
// every node for every pod scheduled: n pods cost n × (all pods). The
// pods of one Deployment come one after another with the same
// constraints, and between two of them only the node that got the last
// one (or lost one) has other counts. So each node the cache holds keeps
// a memo of a few counts, keyed by the selector's identity, the
// namespace and the node's generation, which moves whenever a pod is
// added to the node, removed from it or replaced by a newer version of
// its object (labels, deletionTimestamp). A count from the memo is the
// count countMatching would make: the plugins' states, the filter's
// reasons and the scores are those upstream computes; only the reading
// of the pods is saved.

// countSlots is how many counts a node remembers: one a selector and
// namespace (zone and hostname on one selector share one), for the
// workloads whose pods come to the scheduler interleaved. Ten
// Deployments started together, each with a zone constraint, came
// interleaved deeper than the four slots there were: nearly every node
// recounted its pods for nearly every pod scheduled (the 300-node probe
// with that constraint took 9.46 s, 3.12 s with 16 slots; the same
// placements). Beyond sixteen such workloads the counts are made
// again, as before.
const countSlots = 16

// countMemo is a node's remembered counts. owner is the nodeInfo that
// made it: a copy of a nodeInfo (preemption's trials, withNominated's
// copies) shares the pointer but not the address, and counts directly,
// so that a copy whose pods are changed cannot read the cache's counts
// nor leave its own in them.
type countMemo struct {
	owner *nodeInfo
	// spread holds PodTopologySpread's counts by selector and namespace.
	spread slotCounts[spreadKey]
	// interPod is InterPodAffinity's memo (interpodmemo.go), made when
	// first asked for.
	interPod *interPodMemo
}

// spreadKey is what a PodTopologySpread count is of: a selector's
// identity (selectorID) and a namespace.
type spreadKey struct{ sel, ns string }

// slotCounts are countSlots counts a node remembers, each of a key at a
// generation of the node's pods.
type slotCounts[K comparable] struct {
	slots [countSlots]countSlot[K]
	// next is the slot to overwrite when none is stale: round robin,
	// so the choice depends on the calls alone.
	next uint8
}

// countSlot is one remembered count; gen is the owner's gen+1 when it
// was counted (0: never filled).
type countSlot[K comparable] struct {
	key K
	gen uint64
	n   int32
}

// get returns the count of key remembered at generation g (the owner's
// gen+1), else count's, remembered in a stale slot or, when none is,
// in the next in turn.
func (m *slotCounts[K]) get(key K, g uint64, count func() int) int {
	free := -1
	for i := range m.slots {
		s := &m.slots[i]
		if s.gen != g {
			if free < 0 {
				free = i
			}
			continue
		}
		if s.key == key {
			return int(s.n)
		}
	}
	n := count()
	if free < 0 {
		free = int(m.next)
		m.next = (m.next + 1) % countSlots
	}
	m.slots[free] = countSlot[K]{key: key, gen: g, n: int32(n)}
	return n
}

// touch records that the node's pods changed: its memo's counts are
// stale from now on.
func (ni *nodeInfo) touch() { ni.gen++ }

// selectorID returns sel's identity for the count memos: its canonical
// form (requirements sorted by key, values sorted and unique; keys and
// values are validated tokens, so the form parses one way), with
// Everything, which prints "" as Nothing does, set apart. Two selectors
// with the same identity match the same labels; two written differently
// that match the same labels ("app=x", "app in (x)") merely do not share
// counts. "" for Nothing, which matches no pod and is not memoized.
func selectorID(sel api.Selector) string {
	if sel.Empty() {
		return "\x00everything"
	}
	if sel.Requirements() == 0 {
		return ""
	}
	return sel.String()
}

// countCached is countMatching(ni, c.sel, ns) from ni's memo when it
// holds that count at the node's current generation, else counted and
// remembered.
func (ni *nodeInfo) countCached(c *spreadConstraint, ns string) int {
	m := ni.memo
	if m == nil || m.owner != ni || c.selID == "" {
		return countMatching(ni, c.sel, ns)
	}
	return m.spread.get(spreadKey{c.selID, ns}, ni.gen+1, func() int { return countMatching(ni, c.sel, ns) })
}
