package scheduler

import (
	"maps"
	"math"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// The nodes' memos (interpodmemo.go) spare InterPodAffinity reading
// every pod, but its PreFilter and PreScore still visit every node for
// every pod scheduled, as upstream's do: at 3,000 nodes and 90,000 pods
// with a preferred anti-affinity on each, 270 million node visits, most
// of the run (457 s). What they build from those visits is a count by
// topology domain: of the pods a term's class matches, and of the terms
// the pods hold. The cache keeps those counts as pods and nodes change
// (domainIndex), so that a PreFilter takes the counts it needs and a
// filter or score reads them for the nodes it visits. The counts are
// over the cache's nodes that have a Node object, the nodes the
// scheduler lists; a PreFilter over other nodes (preemption's trials,
// a copy of a node with pods removed) reads the nodes one by one as
// before.

// domainCounts counts pods, or terms pods hold, by the value of one
// topology key on the nodes that have that key; total is their sum.
type domainCounts struct {
	byValue map[string]int64
	total   int64
	// hosts is set for counts by the hostname key: byHost holds them
	// too, by the values' numbers (hostIDs), for at.
	hosts  *hostIDs
	byHost []int64
}

func (d *domainCounts) add(v string, n int64) {
	if d.byValue == nil {
		d.byValue = map[string]int64{}
	}
	c := d.byValue[v] + n
	if c == 0 {
		delete(d.byValue, v)
	} else {
		d.byValue[v] = c
	}
	d.total += n
	if d.hosts != nil {
		id := int(d.hosts.id(v))
		if id >= len(d.byHost) {
			d.byHost = append(d.byHost, make([]int64, id+1-len(d.byHost))...)
		}
		d.byHost[id] += n
	}
}

// countsFor makes the counts for key: by hostname, kept by number too.
func countsFor(key string, hosts *hostIDs) domainCounts {
	if key == labelHostname {
		return domainCounts{hosts: hosts}
	}
	return domainCounts{}
}

// at returns the count of ni's domain of key, and whether ni has the
// key: for the hostname key from byHost by the node's number, else
// from byValue by the node's label.
func (d *domainCounts) at(ni *nodeInfo, key string) (int64, bool) {
	if d.hosts != nil && ni.topo != nil {
		t := ni.topo
		if !t.hasHostname {
			return 0, false
		}
		if int(t.hostID) < len(d.byHost) {
			return d.byHost[t.hostID], true
		}
		return 0, true
	}
	v, ok := ni.label(key)
	if !ok {
		return 0, false
	}
	return d.byValue[v], true
}

// ownCounts counts the pods a class matches by one topology key's value,
// on the nodes that have every one of keys (key among them): the counts
// a pod's own terms (InterPodAffinity) or constraints (PodTopologySpread,
// whose nodes must have every constraint's key) read. A nil class
// counts the nodes themselves: a constraint's domains.
type ownCounts struct {
	class *termClass
	key   string
	keys  []string
	domainCounts
	// used is the last call (termClasses.calls) that read the counts:
	// counts no call has read for a while stop being kept.
	used uint64
}

// hasKeys reports whether labels has every one of keys.
func hasKeys(labels map[string]string, keys []string) bool {
	for _, k := range keys {
		if _, ok := labels[k]; !ok {
			return false
		}
	}
	return true
}

// heldCounts counts the terms of one class, key, kind and signed weight
// the pods hold, by their nodes' values of the key.
type heldCounts struct {
	heldTerm
	domainCounts
}

// ownKey and heldKey find a class's counts; keys is ownCounts.keys
// joined.
type ownKey struct {
	class     *termClass
	key, keys string
}

type heldKey struct {
	class  *termClass
	key    string
	kind   heldKind
	weight int64
}

// domainIndex is the cache's counts by domain. own holds the counts
// some PreFilter or PreScore asked for (of a class's pods, or of the
// nodes: a spread constraint's domains), kept from then on as pods and
// nodes come and go (each pod change matches the pod against each kept
// class); held holds the terms of every counted pod with pod affinity. The
// lists keep the order the counts were made in, for loops whose result
// must not depend on a map's order.
type domainIndex struct {
	// hosts is the cache's numbering of hostnames.
	hosts    *hostIDs
	own      map[ownKey]*ownCounts
	ownList  []*ownCounts
	held     map[heldKey]*heldCounts
	heldList []*heldCounts
}

// ownUnusedFor is how many PreFilter and PreScore calls counts of a class
// are kept without being read: a class of a Deployment's old pods
// (matchLabelKeys on its pod-template-hash) is not asked about again,
// and keeping it would cost every later pod change a match.
const ownUnusedFor = 1 << 14

// podDelta adds d times pod's contribution on a node with labels: to
// each kept class's counts that match it, and its held terms.
func (x *domainIndex) podDelta(labels map[string]string, pod *api.Pod, terms *podTerms, d int64) {
	for _, o := range x.ownList {
		if o.class == nil {
			continue
		}
		if v, ok := labels[o.key]; ok && o.class.matches(pod) && (len(o.keys) == 1 || hasKeys(labels, o.keys)) {
			o.add(v, d)
		}
	}
	if terms == nil {
		return
	}
	eachHeldTerm(terms, func(t *affinityTerm, kind heldKind, weight int64) { x.heldDelta(labels, t, kind, weight, d) })
}

// heldDelta adds d for term t of kind and signed weight (eachHeldTerm)
// to the held counts, when the node has t's key.
func (x *domainIndex) heldDelta(labels map[string]string, t *affinityTerm, kind heldKind, weight, d int64) {
	v, ok := labels[t.key]
	if !ok {
		return
	}
	k := heldKey{class: t.class, key: t.key, kind: kind, weight: weight}
	h := x.held[k]
	if h == nil {
		if x.held == nil {
			x.held = map[heldKey]*heldCounts{}
		}
		h = &heldCounts{heldTerm: heldTerm{class: t.class, key: t.key, kind: kind, weight: weight}, domainCounts: countsFor(t.key, x.hosts)}
		x.held[k] = h
		x.heldList = append(x.heldList, h)
	}
	h.add(v, d)
}

// entryTerms returns e's terms when its pod has pod affinity, else nil.
func (c *cache) entryTerms(e *podEntry) *podTerms {
	if !hasPodAffinity(e.pod) {
		return nil
	}
	return e.terms(&c.classes)
}

// indexEntry adds d times e's contribution, when its node has a Node
// object.
func (c *cache) indexEntry(ni *nodeInfo, e *podEntry, d int64) {
	if ni.node == nil || (len(c.index.ownList) == 0 && !hasPodAffinity(e.pod)) {
		return
	}
	c.index.podDelta(ni.node.Labels, e.pod, c.entryTerms(e), d)
}

// indexNode moves the contributions of ni's pods from its old Node
// object's labels (none when old is nil) to its current one's.
func (c *cache) indexNode(ni *nodeInfo, old *api.Node) {
	if old == ni.node || old != nil && ni.node != nil && maps.Equal(old.Labels, ni.node.Labels) {
		return
	}
	for _, o := range c.index.ownList {
		if o.class != nil {
			continue
		}
		if old != nil {
			if v, ok := old.Labels[o.key]; ok && hasKeys(old.Labels, o.keys) {
				o.add(v, -1)
			}
		}
		if ni.node != nil {
			if v, ok := ni.node.Labels[o.key]; ok && hasKeys(ni.node.Labels, o.keys) {
				o.add(v, 1)
			}
		}
	}
	for _, e := range ni.entries {
		if len(c.index.ownList) == 0 && !hasPodAffinity(e.pod) {
			continue
		}
		t := c.entryTerms(e)
		if old != nil {
			c.index.podDelta(old.Labels, e.pod, t, -1)
		}
		if ni.node != nil {
			c.index.podDelta(ni.node.Labels, e.pod, t, 1)
		}
	}
}

// ownCountsOf returns the counts of the pods k matches (the nodes, for a
// nil k) by key on the nodes with every one of keys (nil: key alone;
// keysID is their identity, joinKeys), counted over the
// cache's nodes the first time they are asked for and kept from then
// on. It forgets the counts no call has read for ownUnusedFor calls.
func (c *cache) ownCountsOf(k *termClass, key string, keys []string, keysID string, call uint64) *ownCounts {
	x := &c.index
	if o := x.own[ownKey{k, key, keysID}]; o != nil {
		o.used = call
		return o
	}
	if x.own == nil {
		x.own = map[ownKey]*ownCounts{}
	}
	// Forget what has not been read for long, before counting anew.
	kept := x.ownList[:0]
	for _, o := range x.ownList {
		if call-o.used <= ownUnusedFor {
			kept = append(kept, o)
		} else {
			delete(x.own, ownKey{o.class, o.key, joinKeys(o.keys)})
		}
	}
	clear(x.ownList[len(kept):])
	x.ownList = kept
	if keys == nil {
		keys = []string{key}
	}
	o := &ownCounts{class: k, key: key, keys: keys, used: call, domainCounts: countsFor(key, &c.hosts)}
	for _, ni := range c.nodes {
		if ni.node == nil {
			continue
		}
		v, ok := ni.node.Labels[key]
		if !ok || !hasKeys(ni.node.Labels, keys) {
			continue
		}
		if k == nil {
			o.add(v, 1)
		} else if n := countClass(ni, k); n > 0 {
			o.add(v, int64(n))
		}
	}
	x.own[ownKey{k, key, keysID}] = o
	x.ownList = append(x.ownList, o)
	return o
}

// termCounts is ownCountsOf for an InterPodAffinity term: by its key
// alone.
func (c *cache) termCounts(t *affinityTerm, call uint64) *ownCounts {
	return c.ownCountsOf(t.class, t.key, nil, t.key, call)
}

// joinKeys is the identity of a set of topology keys, sorted and unique.
func joinKeys(keys []string) string { return strings.Join(keys, "\x00") }

// compactHeld drops the held counts no pod contributes to any more.
func (x *domainIndex) compactHeld() {
	kept := x.heldList[:0]
	for _, h := range x.heldList {
		if h.total != 0 || len(h.byValue) != 0 {
			kept = append(kept, h)
		} else {
			delete(x.held, heldKey{h.class, h.key, h.kind, h.weight})
		}
	}
	clear(x.heldList[len(kept):])
	x.heldList = kept
}

// interPodFilterIndexed is newInterPodFilter over the cache's nodes,
// from the cache's counts by domain.
func (c *cache) interPodFilterIndexed(pi *podInfo) *interPodFilter {
	classes := &c.classes
	pt := pi.affinityTerms(classes)
	own := len(pt.affinity)+len(pt.antiAffinity) > 0
	if !own && c.withRequiredAnti == 0 {
		return nil
	}
	call := classes.newCall()
	f := &interPodFilter{terms: pt, indexed: true}
	if len(pt.affinity) > 0 {
		all := pt.affinity[0].class
		if len(pt.affinity) > 1 {
			all = classes.conjunction(pt.affinity)
		}
		for i := range pt.affinity {
			d := &c.ownCountsOf(all, pt.affinity[i].key, nil, pt.affinity[i].key, call).domainCounts
			f.affinityBy = append(f.affinityBy, d)
			f.anyAffinity = f.anyAffinity || d.total > 0
		}
	}
	for i := range pt.antiAffinity {
		t := &pt.antiAffinity[i]
		f.antiBy = append(f.antiBy, &c.termCounts(t, call).domainCounts)
	}
	if c.withRequiredAnti > 0 {
		for _, h := range c.index.heldList {
			if h.kind == heldAntiAffinity && h.total > 0 && classes.matches(h.class, pi.pod, call) {
				f.existingBy = append(f.existingBy, h)
			}
		}
	}
	return f
}

// scoreTerm is one term's counts a score adds: weight times the count
// of the node's domain of key.
type scoreTerm struct {
	key    string
	counts *domainCounts
	weight int64
}

// interPodScoreIndexed is interPodScore over the cache's nodes, from the
// cache's counts by domain: a feasible node scores the sum, over the
// terms that count anywhere, of weight times its domain's count; terms
// buffers them between calls.
func (c *cache) interPodScoreIndexed(pi *podInfo, feasible []*nodeInfo, out []int64, terms []scoreTerm) ([]scoreTerm, bool) {
	classes := &c.classes
	pt := pi.affinityTerms(classes)
	own := len(pt.preferredAffinity)+len(pt.preferredAntiAffinity) > 0
	if !own && c.withAffinity == 0 {
		return terms, false
	}
	call := classes.newCall()
	terms = terms[:0]
	addOwn := func(ts []affinityTerm, sign int64) {
		for i := range ts {
			t := &ts[i]
			if o := c.termCounts(t, call); o.total > 0 {
				terms = append(terms, scoreTerm{key: t.key, counts: &o.domainCounts, weight: int64(t.weight) * sign})
			}
		}
	}
	addOwn(pt.preferredAffinity, 1)
	addOwn(pt.preferredAntiAffinity, -1)
	if c.withAffinity > 0 {
		empty := 0
		for _, h := range c.index.heldList {
			if h.total == 0 {
				empty++
				continue
			}
			if h.kind == heldScored && classes.matches(h.class, pi.pod, call) {
				terms = append(terms, scoreTerm{key: h.key, counts: &h.domainCounts, weight: h.weight})
			}
		}
		if empty > 64 && empty > len(c.index.heldList)/2 {
			c.index.compactHeld()
		}
	}
	if len(terms) == 0 {
		return terms, false
	}
	minScore, maxScore := int64(math.MaxInt64), int64(math.MinInt64)
	for j, ni := range feasible {
		var s int64
		for i := range terms {
			t := &terms[i]
			if n, ok := t.counts.at(ni, t.key); ok {
				s += t.weight * n
			}
		}
		out[j] = s
		minScore, maxScore = min(minScore, s), max(maxScore, s)
	}
	normalizeDomainScores(out, minScore, maxScore)
	return terms, true
}
