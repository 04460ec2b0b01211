package scheduler

import (
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// InterPodAffinity's PreFilter and PreScore, as upstream's, read every
// pod in the cluster for every pod scheduled: they match the pod's own
// terms against each pod, and each pod's terms against it. Done pod by
// pod that is pods squared: a preferred anti-affinity on the pods of
// ten Deployments took 23-41 s of scheduling at 300 nodes, and at
// 3,000 a hundred times that. The pods of one Deployment carry terms
// that match the same pods, and a node's pods change far less often
// than pods are scheduled. So the cache interns what a term matches (its
// class: namespaces and selector), and each node remembers, for the
// generation of its pods (nodeInfo.gen, as PodTopologySpread's count
// memo does), how many of its pods each class asked about matches
// (classCount) and the required anti-affinity terms its pods hold,
// grouped by class and topology key (heldTerms). A PreFilter then reads
// one count per node and term, and matches the pod once per class held
// anywhere: the state is the sums upstream's pod-by-pod loops make
// (TestInterPodMemoMatchesDirect compares it with those loops). The
// scheduling cycle reads the cache's counts by domain instead
// (interpodindex.go); the memos serve the PreFilter over nodes that
// are not all the cache's own, preemption's trials.

// termClass is what a compiled term matches: its namespaces and its
// selector, or (parts) every one of several classes' pods, a pod's
// required affinity terms taken together (matchesAll). Interned by the
// cache's termClasses: the terms of one Deployment's pods, compiled each
// from its own pod, share one class.
type termClass struct {
	id            string
	sel           api.Selector
	namespaces    []string
	allNamespaces bool
	parts         []*termClass
	// liveOnly leaves terminating pods out, as PodTopologySpread counts
	// (countMatching); InterPodAffinity counts them.
	liveOnly bool
	// call and matched remember the class's match against the pod of
	// the PreFilter or PreScore run numbered call (termClasses.matches).
	call    uint64
	matched bool
}

// matches reports whether pod is one the class selects, as
// affinityTerm.matches (or matchesAll, for a conjunction) does.
func (k *termClass) matches(pod *api.Pod) bool {
	if k.parts != nil {
		for _, p := range k.parts {
			if !p.matches(pod) {
				return false
			}
		}
		return true
	}
	if k.liveOnly && pod.DeletionTimestamp != nil {
		return false
	}
	if !k.allNamespaces && !slices.Contains(k.namespaces, pod.Namespace) {
		return false
	}
	return k.sel.Matches(pod.Labels)
}

// spreadClass returns the class of the pods PodTopologySpread's
// constraint c counts for a pod in namespace ns: those in ns its
// selector matches, not terminating.
func (cs *termClasses) spreadClass(ns string, c *spreadConstraint) *termClass {
	return cs.class("\x04"+ns+"\x01"+c.selID, func() *termClass {
		return &termClass{sel: c.sel, namespaces: []string{ns}, liveOnly: true}
	})
}

// class returns the class of identity id, made by made the first time
// it is asked for.
func (cs *termClasses) class(id string, made func() *termClass) *termClass {
	if k := cs.byID[id]; k != nil {
		return k
	}
	if cs.byID == nil {
		cs.byID = map[string]*termClass{}
	}
	k := made()
	k.id = id
	cs.byID[id] = k
	return k
}

// termClasses interns term classes by their identity. It grows with the
// distinct terms the pods carry (a Deployment's pods share theirs; a
// term with matchLabelKeys has one class a label value), not with the
// pods.
type termClasses struct {
	byID map[string]*termClass
	// calls numbers the PreFilter and PreScore runs, so that a class's
	// remembered match is known to be about the current pod.
	calls uint64
	// scratch holds the held terms of a node that has no memo of its
	// own (preemption's trials), valid until the next heldTerms.
	scratch []heldTerm
}

// classID is the identity of what t matches: its namespaces ("*" for
// all) and its selector's canonical form (selectorID). Namespaces and
// selector tokens hold no control characters, so the form parses one
// way; two terms with one identity match the same pods.
func classID(t *affinityTerm) string {
	var b strings.Builder
	if t.allNamespaces {
		b.WriteString("*")
	} else {
		for i, ns := range t.namespaces {
			if i > 0 {
				b.WriteByte(0)
			}
			b.WriteString(ns)
		}
	}
	b.WriteByte(1)
	b.WriteString(selectorID(t.sel))
	return b.String()
}

// intern returns the class of what t matches.
func (cs *termClasses) intern(t *affinityTerm) *termClass {
	return cs.class(classID(t), func() *termClass {
		return &termClass{sel: t.sel, namespaces: t.namespaces, allNamespaces: t.allNamespaces}
	})
}

// conjunction returns the class of the pods matching every one of
// terms, whose classes are interned.
func (cs *termClasses) conjunction(terms []affinityTerm) *termClass {
	var b strings.Builder
	b.WriteByte(2)
	for i := range terms {
		b.WriteString(terms[i].class.id)
		b.WriteByte(3)
	}
	return cs.class(b.String(), func() *termClass {
		k := &termClass{}
		for i := range terms {
			k.parts = append(k.parts, terms[i].class)
		}
		return k
	})
}

// newCall numbers a PreFilter or PreScore run: the matches remembered
// before it are about another pod (or another version of it).
func (cs *termClasses) newCall() uint64 {
	cs.calls++
	return cs.calls
}

// matches is k.matches(pod), made once per call.
func (cs *termClasses) matches(k *termClass, pod *api.Pod, call uint64) bool {
	if k.call != call {
		k.call, k.matched = call, k.matches(pod)
	}
	return k.matched
}

// heldKind says which of a pod's terms a heldTerm is: a required
// anti-affinity term, which the filter reads (existing pods'
// anti-affinity), or one the score reads (required affinity at
// hardPodAffinityWeight, preferred affinity and anti-affinity at their
// weights).
type heldKind uint8

const (
	heldAntiAffinity heldKind = iota
	heldScored
)

// heldTerm is n terms of one class, topology key, kind and signed
// weight (eachHeldTerm) held by pods: of one node (a memo's, required
// anti-affinity only) or of the cluster (heldCounts).
type heldTerm struct {
	class  *termClass
	key    string
	kind   heldKind
	weight int64
	n      int64
}

// interPodMemo is a node's remembered InterPodAffinity reading: the held
// terms of its pods at heldGen (the owner's gen+1 when built; 0: never),
// and counts of its pods by class.
type interPodMemo struct {
	heldGen uint64
	held    []heldTerm
	counts  slotCounts[*termClass]
}

// interPod returns ni's InterPodAffinity memo, nil when ni is a copy of
// a cache node (its pods may differ from the node's).
func (ni *nodeInfo) interPod() *interPodMemo {
	m := ni.memo
	if m == nil || m.owner != ni {
		return nil
	}
	if m.interPod == nil {
		m.interPod = &interPodMemo{}
	}
	return m.interPod
}

// countClass counts the pods on ni that k matches (terminating ones
// too, as InterPodAffinity counts them).
func countClass(ni *nodeInfo, k *termClass) int {
	n := 0
	for _, e := range ni.entries {
		if k.matches(e.pod) {
			n++
		}
	}
	return n
}

// classCount is countClass(ni, k), from ni's memo when it holds that count
// at the node's current generation, else counted and remembered.
func (ni *nodeInfo) classCount(k *termClass) int {
	m := ni.interPod()
	if m == nil {
		return countClass(ni, k)
	}
	return m.counts.get(k, ni.gen+1, func() int { return countClass(ni, k) })
}

// heldTerms returns the required anti-affinity terms ni's pods hold,
// grouped by class and key: from ni's memo when it was built at the node's current
// generation, else built (into classes.scratch for a copy). The caller
// reads it before the next call.
func (ni *nodeInfo) heldTerms(classes *termClasses) []heldTerm {
	m := ni.interPod()
	if m == nil {
		classes.scratch = appendHeld(classes.scratch[:0], ni, classes)
		return classes.scratch
	}
	if g := ni.gen + 1; m.heldGen != g {
		m.held, m.heldGen = appendHeld(m.held[:0], ni, classes), g
	}
	return m.held
}

// appendHeld appends the required anti-affinity terms of ni's pods to
// out, grouped by class and key: what newInterPodFilter reads of a node
// (the score reads the cache's counts, interPodScoreIndexed).
func appendHeld(out []heldTerm, ni *nodeInfo, classes *termClasses) []heldTerm {
	for _, e := range ni.entries {
		if !hasPodAffinity(e.pod) {
			continue
		}
		et := e.terms(classes)
		for i := range et.antiAffinity {
			t := &et.antiAffinity[i]
			j := slices.IndexFunc(out, func(h heldTerm) bool { return h.class == t.class && h.key == t.key })
			if j < 0 {
				out = append(out, heldTerm{class: t.class, key: t.key, kind: heldAntiAffinity})
				j = len(out) - 1
			}
			out[j].n++
		}
	}
	return out
}
