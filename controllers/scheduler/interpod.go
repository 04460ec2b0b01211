package scheduler

import (
	"math"
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

func compileTerms(pod *api.Pod) *podTerms {
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

// terms returns the entry's compiled terms, compiling them once per pod
// version.
func (e *podEntry) terms() *podTerms {
	if e.compiled == nil || e.compiledFor != e.pod {
		e.compiled, e.compiledFor = compileTerms(e.pod), e.pod
	}
	return e.compiled
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
}

// newInterPodFilter runs InterPodAffinity's PreFilter; nil when neither
// the pod nor any existing pod has required terms that could apply.
func newInterPodFilter(pi *podInfo, nodes []*nodeInfo, withAffinity int) *interPodFilter {
	pt := compileTerms(pi.pod)
	own := len(pt.affinity)+len(pt.antiAffinity) > 0
	if !own && withAffinity == 0 {
		return nil
	}
	f := &interPodFilter{terms: pt, affinity: map[topologyPair]int{}, anti: map[topologyPair]int{}, existing: map[topologyPair]int{}}
	for _, ni := range nodes {
		labels := ni.node.Labels
		for _, e := range ni.entries {
			if withAffinity > 0 && hasPodAffinity(e.pod) {
				et := e.terms()
				for i := range et.antiAffinity {
					t := &et.antiAffinity[i]
					if v, ok := labels[t.key]; ok && t.matches(pi.pod) {
						f.existing[topologyPair{t.key, v}]++
					}
				}
			}
			if !own {
				continue
			}
			if matchesAll(pt.affinity, e.pod) {
				for i := range pt.affinity {
					if v, ok := labels[pt.affinity[i].key]; ok {
						f.affinity[topologyPair{pt.affinity[i].key, v}]++
					}
				}
			}
			for i := range pt.antiAffinity {
				t := &pt.antiAffinity[i]
				if v, ok := labels[t.key]; ok && t.matches(e.pod) {
					f.anti[topologyPair{t.key, v}]++
				}
			}
		}
	}
	return f
}

// filter is InterPodAffinity's Filter on one node: "" when it passes.
func (f *interPodFilter) filter(pod *api.Pod, n *api.Node) string {
	if !f.satisfiesAffinity(pod, n) {
		return ReasonPodAffinity
	}
	for i := range f.terms.antiAffinity {
		t := &f.terms.antiAffinity[i]
		if v, ok := n.Labels[t.key]; ok && f.anti[topologyPair{t.key, v}] > 0 {
			return ReasonPodAntiAffinity
		}
	}
	for p, c := range f.existing {
		if c > 0 && n.Labels[p.key] == p.value {
			if _, ok := n.Labels[p.key]; ok {
				return ReasonExistingAntiAffinity
			}
		}
	}
	return ""
}

// satisfiesAffinity: the node has every term's key and each term's domain
// holds a matching pod, or no pod anywhere matches and the pod matches
// all its own terms (the first of a group with affinity to itself).
func (f *interPodFilter) satisfiesAffinity(pod *api.Pod, n *api.Node) bool {
	exist := true
	for i := range f.terms.affinity {
		t := &f.terms.affinity[i]
		v, ok := n.Labels[t.key]
		if !ok {
			return false
		}
		if f.affinity[topologyPair{t.key, v}] <= 0 {
			exist = false
		}
	}
	if !exist {
		return len(f.affinity) == 0 && matchesAll(f.terms.affinity, pod)
	}
	return true
}

// interPodScore is InterPodAffinity's score (scoring.go): each domain
// gains the weights of the pod's preferred affinity terms that its pods
// match, loses those of preferred anti-affinity terms, and likewise for
// existing pods' preferred terms (and required affinity terms, at
// hardPodAffinityWeight) the pod matches; a node scores the sum over its
// labels' domains, min-max normalized over the feasible nodes.
func interPodScore(pi *podInfo, all, feasible []*nodeInfo, withAffinity int, out []int64) bool {
	pt := compileTerms(pi.pod)
	own := len(pt.preferredAffinity)+len(pt.preferredAntiAffinity) > 0
	if !own && withAffinity == 0 {
		return false
	}
	scores := map[string]map[string]int64{}
	add := func(terms []affinityTerm, target *api.Pod, labels map[string]string, weight int32, sign int64) {
		for i := range terms {
			t := &terms[i]
			if v, ok := labels[t.key]; ok && t.matches(target) {
				w := t.weight
				if weight != 0 {
					w = weight
				}
				if scores[t.key] == nil {
					scores[t.key] = map[string]int64{}
				}
				scores[t.key][v] += int64(w) * sign
			}
		}
	}
	for _, ni := range all {
		labels := ni.node.Labels
		if len(labels) == 0 {
			continue
		}
		for _, e := range ni.entries {
			if own {
				add(pt.preferredAffinity, e.pod, labels, 0, 1)
				add(pt.preferredAntiAffinity, e.pod, labels, 0, -1)
			}
			if hasPodAffinity(e.pod) {
				et := e.terms()
				add(et.affinity, pi.pod, labels, hardPodAffinityWeight, 1)
				add(et.preferredAffinity, pi.pod, labels, 0, 1)
				add(et.preferredAntiAffinity, pi.pod, labels, 0, -1)
			}
		}
	}
	if len(scores) == 0 {
		return false
	}
	minScore, maxScore := int64(math.MaxInt64), int64(math.MinInt64)
	for j, ni := range feasible {
		var s int64
		for key, values := range scores {
			if v, ok := ni.node.Labels[key]; ok {
				s += values[v]
			}
		}
		out[j] = s
		minScore, maxScore = min(minScore, s), max(maxScore, s)
	}
	for j := range out {
		if maxScore-minScore > 0 {
			out[j] = int64(float64(MaxNodeScore) * (float64(out[j]-minScore) / float64(maxScore-minScore)))
		} else {
			out[j] = 0
		}
	}
	return true
}
