package scheduler

import (
	"slices"

	"github.com/clustersim/clustersim/sim/api"
)

// affinityTerm is a compiled pod (anti-)affinity term
// (k/k framework.AffinityTerm).
type affinityTerm struct {
	key        string
	sel        api.Selector
	namespaces []string
	// allNamespaces: namespaceSelector {} selects every namespace.
	allNamespaces bool
	weight        int32
	// class is what the term matches, interned by the cache
	// (termClasses.intern): nil for a term compiled without one.
	class *termClass
}

// matches reports whether pod is one the term selects (AffinityTerm.Matches).
// A non-empty namespaceSelector is not modelled (the scenario loader warns
// about it); only the listed namespaces count then.
func (t *affinityTerm) matches(pod *api.Pod) bool {
	if !t.allNamespaces && !slices.Contains(t.namespaces, pod.Namespace) {
		return false
	}
	return t.sel.Matches(pod.Labels)
}

func compileTerm(owner *api.Pod, t *api.PodAffinityTerm, weight int32) affinityTerm {
	at := affinityTerm{key: t.TopologyKey, weight: weight, namespaces: t.Namespaces}
	at.sel = mergedSelector(t.LabelSelector, owner.Labels, t.MatchLabelKeys, t.MismatchLabelKeys)
	switch ns := t.NamespaceSelector; {
	case ns != nil && len(ns.MatchLabels)+len(ns.MatchExpressions) == 0:
		at.allNamespaces = true
	case ns == nil && len(t.Namespaces) == 0:
		at.namespaces = []string{owner.Namespace}
	}
	return at
}

// podTerms are a pod's compiled terms.
type podTerms struct {
	affinity, antiAffinity                   []affinityTerm
	preferredAffinity, preferredAntiAffinity []affinityTerm
}

// noTerms are the compiled terms of a pod without affinity, most pods:
// shared, never written (newInterPodFilter and interPodScore compile a
// pod's terms on every attempt).
var noTerms = &podTerms{}

// compileTerms compiles pod's terms; with classes, each term's class is
// interned there.
func compileTerms(pod *api.Pod, classes *termClasses) *podTerms {
	a := pod.Spec.Affinity
	if a == nil || a.PodAffinity == nil && a.PodAntiAffinity == nil {
		return noTerms
	}
	pt := &podTerms{}
	if pa := a.PodAffinity; pa != nil {
		pt.affinity, pt.preferredAffinity = compileGroup(pod, pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if pa := a.PodAntiAffinity; pa != nil {
		pt.antiAffinity, pt.preferredAntiAffinity = compileGroup(pod, pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
	}
	if classes != nil {
		for _, ts := range [][]affinityTerm{pt.affinity, pt.antiAffinity, pt.preferredAffinity, pt.preferredAntiAffinity} {
			for i := range ts {
				ts[i].class = classes.intern(&ts[i])
			}
		}
	}
	return pt
}

// compileGroup compiles the required and preferred terms of one rule.
func compileGroup(pod *api.Pod, required []api.PodAffinityTerm, preferred []api.WeightedPodAffinityTerm) (req, pref []affinityTerm) {
	for i := range required {
		req = append(req, compileTerm(pod, &required[i], 0))
	}
	for i := range preferred {
		pref = append(pref, compileTerm(pod, &preferred[i].PodAffinityTerm, preferred[i].Weight))
	}
	return req, pref
}

// affinityTerms returns the pod's compiled terms, their classes interned
// in classes, compiled at the first call: InterPodAffinity's PreFilter
// and score, and preemption's PreFilter at each trial, read them.
func (pi *podInfo) affinityTerms(classes *termClasses) *podTerms {
	if pi.terms == nil {
		pi.terms = compileTerms(pi.pod, classes)
	}
	return pi.terms
}

// terms returns the entry's compiled terms, compiling them (their
// classes interned in classes) once per pod version.
func (e *podEntry) terms(classes *termClasses) *podTerms {
	if e.compiled == nil || e.compiledFor != e.pod {
		e.compiled, e.compiledFor = compileTerms(e.pod, classes), e.pod
	}
	return e.compiled
}

// eachHeldTerm calls f for each term of pt that counts for the pods
// around its pod, with the kind and signed weight it counts at: each
// required anti-affinity term (the filter's, weight 0), and for the
// score each required affinity term at hardPodAffinityWeight, each
// preferred affinity term at its weight and each preferred
// anti-affinity term at minus its weight (upstream's
// processExistingPod).
func eachHeldTerm(pt *podTerms, f func(t *affinityTerm, kind heldKind, weight int64)) {
	for i := range pt.antiAffinity {
		f(&pt.antiAffinity[i], heldAntiAffinity, 0)
	}
	for i := range pt.affinity {
		f(&pt.affinity[i], heldScored, int64(hardPodAffinityWeight))
	}
	for i := range pt.preferredAffinity {
		f(&pt.preferredAffinity[i], heldScored, int64(pt.preferredAffinity[i].weight))
	}
	for i := range pt.preferredAntiAffinity {
		f(&pt.preferredAntiAffinity[i], heldScored, -int64(pt.preferredAntiAffinity[i].weight))
	}
}

// matchesAll reports whether pod matches every term (podMatchesAllAffinityTerms);
// false for no terms.
func matchesAll(terms []affinityTerm, pod *api.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !terms[i].matches(pod) {
			return false
		}
	}
	return true
}

// interPodFilter is InterPodAffinity's PreFilter state.
type interPodFilter struct {
	terms *podTerms
	// affinity and anti count, per domain, existing pods matching all
	// the pod's required affinity terms and each anti-affinity term;
	// existing counts domains of existing pods whose required
	// anti-affinity the pod matches.
	affinity, anti, existing map[topologyPair]int
	// indexed: the state is the cache's counts by domain instead
	// (interPodFilterIndexed), read as the filter visits nodes:
	// affinityBy[i] counts the pods matching every required affinity
	// term by term i's key, antiBy[i] those matching anti-affinity term
	// i, existingBy are the held required anti-affinity terms the pod
	// matches; anyAffinity is len(affinity) > 0.
	indexed     bool
	affinityBy  []*domainCounts
	antiBy      []*domainCounts
	existingBy  []*heldCounts
	anyAffinity bool
}

// newInterPodFilter runs InterPodAffinity's PreFilter over nodes (the
// cache's, or copies of some: preemption's trials); nil (upstream's
// Skip) when neither the pod nor any existing pod has required terms
// that could apply. As
// upstream's, it counts what every pod in the cluster matches, but a
// node's counts by term class and its pods' terms grouped by class come
// from the node's memo (interPodMemo): a pod reads each node once, not
// each pod.
func newInterPodFilter(pi *podInfo, nodes []*nodeInfo, c *cache) *interPodFilter {
	classes := &c.classes
	pt := pi.affinityTerms(classes)
	own := len(pt.affinity)+len(pt.antiAffinity) > 0
	if !own && c.withRequiredAnti == 0 {
		return nil
	}
	f := &interPodFilter{terms: pt, affinity: map[topologyPair]int{}, anti: map[topologyPair]int{}, existing: map[topologyPair]int{}}
	// all is the class of pods matching every required affinity term
	// (matchesAll).
	var all *termClass
	switch len(pt.affinity) {
	case 0:
	case 1:
		all = pt.affinity[0].class
	default:
		all = classes.conjunction(pt.affinity)
	}
	call := classes.newCall()
	for _, ni := range nodes {
		labels := ni.node.Labels
		if c.withRequiredAnti > 0 {
			for _, h := range ni.heldTerms(classes) {
				if !classes.matches(h.class, pi.pod, call) {
					continue
				}
				if v, ok := labels[h.key]; ok {
					f.existing[topologyPair{h.key, v}] += int(h.n)
				}
			}
		}
		if !own {
			continue
		}
		if all != nil {
			if n := ni.classCount(all); n > 0 {
				for i := range pt.affinity {
					if v, ok := labels[pt.affinity[i].key]; ok {
						f.affinity[topologyPair{pt.affinity[i].key, v}] += n
					}
				}
			}
		}
		for i := range pt.antiAffinity {
			t := &pt.antiAffinity[i]
			if v, ok := labels[t.key]; ok {
				if n := ni.classCount(t.class); n > 0 {
					f.anti[topologyPair{t.key, v}] += n
				}
			}
		}
	}
	return f
}

// filter is InterPodAffinity's Filter on one node: "" when it passes.
func (f *interPodFilter) filter(pod *api.Pod, ni *nodeInfo) string {
	if !f.satisfiesAffinity(pod, ni) {
		return ReasonPodAffinity
	}
	for i := range f.terms.antiAffinity {
		t := &f.terms.antiAffinity[i]
		if f.indexed {
			if n, ok := f.antiBy[i].at(ni, t.key); ok && n > 0 {
				return ReasonPodAntiAffinity
			}
			continue
		}
		if v, ok := ni.label(t.key); ok && f.anti[topologyPair{t.key, v}] > 0 {
			return ReasonPodAntiAffinity
		}
	}
	if f.indexed {
		for _, h := range f.existingBy {
			if n, ok := h.at(ni, h.key); ok && n > 0 {
				return ReasonExistingAntiAffinity
			}
		}
		return ""
	}
	for p, c := range f.existing {
		if c > 0 {
			if v, ok := ni.label(p.key); ok && v == p.value {
				return ReasonExistingAntiAffinity
			}
		}
	}
	return ""
}

// satisfiesAffinity: the node has every term's key and each term's domain
// holds a matching pod, or no pod anywhere matches and the pod matches
// all its own terms (the first of a group with affinity to itself).
func (f *interPodFilter) satisfiesAffinity(pod *api.Pod, ni *nodeInfo) bool {
	exist := true
	for i := range f.terms.affinity {
		t := &f.terms.affinity[i]
		if f.indexed {
			n, ok := f.affinityBy[i].at(ni, t.key)
			if !ok {
				return false
			}
			if n <= 0 {
				exist = false
			}
			continue
		}
		v, ok := ni.label(t.key)
		if !ok {
			return false
		}
		if f.affinity[topologyPair{t.key, v}] <= 0 {
			exist = false
		}
	}
	if !exist {
		any := f.anyAffinity
		if !f.indexed {
			any = len(f.affinity) > 0
		}
		return !any && matchesAll(f.terms.affinity, pod)
	}
	return true
}

// normalizeDomainScores maps raw scores between minScore and maxScore
// to 0..MaxNodeScore (all 0 when they are equal), as InterPodAffinity's
// NormalizeScore does.
func normalizeDomainScores(out []int64, minScore, maxScore int64) {
	for j := range out {
		if maxScore-minScore > 0 {
			out[j] = int64(float64(MaxNodeScore) * (float64(out[j]-minScore) / float64(maxScore-minScore)))
		} else {
			out[j] = 0
		}
	}
}
