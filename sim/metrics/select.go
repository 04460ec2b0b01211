package metrics

import (
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/store"
)

// selected returns, for each model, the pods its selector matches in its
// namespace, in namespace/name order: what a store list by the model's
// namespace and selector returns. Each namespace's pods are listed once,
// and a pod is matched with the models that require one value of a label
// (a Deployment's selector) by a lookup of that label, so a scrape costs
// a read of each pod instead of one per model and pod (an HPA for each of
// ten Deployments of 9,000 pods was 90,000 selector matches a scrape, 58%
// of the 300-node scale probe's profile).
func (s *Source) selected() [][]*api.Pod {
	out := make([][]*api.Pod, len(s.models))
	var namespaces []string
	models := map[string][]int{} // by namespace, in the order added
	for i := range s.models {
		ns := s.models[i].Namespace
		if _, ok := models[ns]; !ok {
			namespaces = append(namespaces, ns)
		}
		models[ns] = append(models[ns], i)
	}
	for _, ns := range namespaces {
		objs, _, err := s.st.List(api.KindPod, store.ListOptions{Namespace: ns})
		if err != nil {
			continue
		}
		idx := s.indexModels(models[ns])
		for _, o := range objs {
			p := o.(*api.Pod)
			for _, i := range idx.candidates(p.Labels) {
				if idx.decided[i] || s.models[i].Selector.Matches(p.Labels) {
					out[i] = append(out[i], p)
				}
			}
		}
	}
	return out
}

// modelIndex finds the models that may select a pod by its labels.
type modelIndex struct {
	// byLabel holds, by label key then value, the models whose selector
	// requires that value (Selector.ExactMatch), in the order added.
	byLabel map[string]map[string][]int
	keys    []string // byLabel's keys, in first use order
	// others are the models without such a label, matched one by one.
	others []int
	// decided tells the models whose label requirement is their only one:
	// a pod found under it is selected without a match.
	decided map[int]bool
	buf     []int
}

// indexModels indexes the models of indexes ids.
func (s *Source) indexModels(ids []int) *modelIndex {
	idx := &modelIndex{byLabel: map[string]map[string][]int{}, decided: map[int]bool{}}
	for _, i := range ids {
		sel := s.models[i].Selector
		key, value, ok := sel.ExactMatch()
		if !ok {
			idx.others = append(idx.others, i)
			continue
		}
		if _, found := idx.byLabel[key]; !found {
			idx.byLabel[key] = map[string][]int{}
			idx.keys = append(idx.keys, key)
		}
		idx.byLabel[key][value] = append(idx.byLabel[key][value], i)
		idx.decided[i] = sel.Requirements() == 1
	}
	return idx
}

// candidates returns the models that may select a pod of labels; the
// slice is reused by the next call.
func (idx *modelIndex) candidates(labels map[string]string) []int {
	idx.buf = append(idx.buf[:0], idx.others...)
	for _, key := range idx.keys {
		if v, ok := labels[key]; ok {
			idx.buf = append(idx.buf, idx.byLabel[key][v]...)
		}
	}
	return idx.buf
}
