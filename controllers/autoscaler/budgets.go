package autoscaler

import "github.com/clustersim/clustersim/sim/api"

// budget is one PodDisruptionBudget as the scan sees it: its selector and
// the disruptions it still allows after the pods of the nodes already
// found removable in this scan.
type budget struct {
	namespace string
	selector  api.Selector
	allowed   int32
}

// budgetTracker is core/scaledown/pdb's basicRemainingPdbTracker: the
// budgets of the cluster, each with its status.disruptionsAllowed,
// decremented for every pod of a node the scan has chosen to remove, so
// that two nodes do not spend the same disruption.
type budgetTracker struct {
	budgets []*budget
}

// newBudgetTracker tracks pdbs (in the order given). A budget with an
// invalid selector selects no pod.
func newBudgetTracker(pdbs []*api.PodDisruptionBudget) *budgetTracker {
	t := &budgetTracker{}
	for _, p := range pdbs {
		sel, err := api.LabelSelectorAsSelector(p.Spec.Selector)
		if err != nil {
			sel = api.Nothing()
		}
		t.budgets = append(t.budgets, &budget{namespace: p.Namespace, selector: sel, allowed: p.Status.DisruptionsAllowed})
	}
	return t
}

// matching returns the budgets of p's namespace whose selector selects it.
func (t *budgetTracker) matching(p *api.Pod) []*budget {
	var out []*budget
	for _, b := range t.budgets {
		if b.selects(p) {
			out = append(out, b)
		}
	}
	return out
}

func (b *budget) selects(p *api.Pod) bool {
	return p.Namespace == b.namespace && b.selector.Matches(p.Labels)
}

// remove spends one disruption of every budget selecting each of pods
// (RemovePods); a budget may go below zero.
func (t *budgetTracker) remove(pods []*api.Pod) {
	for _, b := range t.budgets {
		for _, p := range pods {
			if b.selects(p) {
				b.allowed--
			}
		}
	}
}
