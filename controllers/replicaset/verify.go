package replicaset

import (
	"context"
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

// verifyFastPath, when set (only by this package's tests), is told of
// every difference between what a sync read from the aggregates and what
// the full path computes at the same instant, and of every aggregate that
// differs from a recount of the cache. Production leaves it nil: the
// checks cost what the aggregates save.
var verifyFastPath func(msg string)

// verifyFastSync runs the full path's reads for a sync that took the fast
// path, with a claim that only counts the writes it would make, and
// reports any difference: a write, or other counts.
func (r *reconciler) verifyFastSync(ctx context.Context, rs *api.ReplicaSet, sel api.Selector, fast podCounts) {
	all := r.listPods(rs)
	c := &claimer{r: r, rs: rs, sel: sel, dryRun: true}
	active, err := c.claimAll(ctx, FilterActivePods(all))
	terminating := claimed(rs, sel, FilterTerminatingPods(all))
	full := countPods(rs, active, terminating, r.clock.Now())
	if err != nil || c.writes != 0 || full != fast {
		verifyFastPath(fmt.Sprintf("ReplicaSet %s: fast path %+v, full path %+v (claim writes %d, error %v)",
			keyOf(rs), fast, full, c.writes, err))
	}
}

// verifyAggregate recounts the cached pods of rs's aggregate, if it has
// one, and reports a difference.
func (r *reconciler) verifyAggregate(rs *api.ReplicaSet) {
	agg := r.agg.byOwner[rs.UID]
	if agg == nil {
		return
	}
	var want [podFlagCombinations]int32
	for _, o := range r.pods.ByIndex(informer.IndexController, string(rs.UID)) {
		if p, ok := o.(*api.Pod); ok && p.Namespace == agg.namespace {
			want[agg.flagsOf(p)]++
		}
	}
	if want != agg.n {
		verifyFastPath(fmt.Sprintf("ReplicaSet %s: aggregate %v, recount %v", keyOf(rs), agg.n, want))
	}
}
