package runner

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/imperative"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
)

// This file holds what the teaching scenarios need beyond kubectl: the
// increment step (optimistic concurrency and lost updates) and the naive
// rollout check (observedGeneration ignored).

// increment returns an increment step by user as a command line and the action
// that runs it: Times read-modify-writes of a ConfigMap counter in a row,
// through package imperative. Its output counts the writes accepted, the
// conflicts and timeouts, and lists the values written, so that two
// writers' entries side by side show an increment written twice.
func (r *run) increment(inc *scenarios.Increment, user string, at window) (string, action, func() []string) {
	ns, name := scenarios.SplitRef(inc.ConfigMap)
	key := api.Key{Namespace: ns, Name: name}
	by, times := int64(1), max(inc.Times, 1)
	if inc.By != nil {
		by = *inc.By
	}
	opts := imperative.Options{UseResourceVersion: !inc.Unconditional}
	if inc.Retries != nil {
		opts.Retries = *inc.Retries
		if opts.Retries == 0 {
			opts.Retries = -1 // imperative: negative means never retry
		}
	}
	how := "replace with the resourceVersion read (409 Conflict: get again)"
	if inc.Unconditional {
		how = "replace without a resourceVersion (unconditional)"
	}
	cmd := fmt.Sprintf("increment configmap/%s data.%s by %d, %d time(s), as %s: get, add, %s", name, inc.Key, by, times, user, how)
	acked := new(int)
	return cmd, func(ctx context.Context, c client.Client) ([]string, error) {
		cmds := imperative.New(c, client.NewClock(r.c.K), opts)
		var written, attempts []string
		done, conflicts, timeouts, ambiguous := 0, 0, 0, 0
		var last error
		for n := range times {
			res, err := cmds.Increment(ctx, key, inc.Key, by)
			conflicts += res.Conflicts
			timeouts += res.Timeouts
			for i, a := range res.Log {
				if a.Ambiguous {
					ambiguous++
				}
				attempts = append(attempts, fmt.Sprintf("  increment %d, attempt %d at %s: %s", n+1, i+1, clockMillis(a.Start.Sub(kernel.Epoch)), a))
			}
			if err != nil {
				last = err
				continue
			}
			done++
			*acked = done
			written = append(written, strconv.FormatInt(res.Value, 10))
		}
		lines := []string{
			fmt.Sprintf("%d of %d increment(s) acknowledged, %d conflict(s) retried, %d timeout(s) (%d of them on a write: ambiguous, may have been applied)", done, times, conflicts, timeouts, ambiguous),
		}
		if len(written) > 0 {
			lines = append(lines, fmt.Sprintf("values sent and acknowledged for data.%s: %s", inc.Key, strings.Join(written, " ")))
		}
		lines = append(lines, attempts...)
		return lines, last
	}, r.storeShows(user, at, "accepted change(s) of data."+inc.Key, acked, fieldChanges(api.KindConfigMap, key, "data["+inc.Key+"]"))
}

// naiveRolloutCheck makes ck the rolloutComplete check with
// observedGeneration ignored (its timing already set), and returns its
// name.
func (r *run) naiveRolloutCheck(ck *check, key api.Key, hasAfter bool) string {
	ck.eval = func() (bool, string) { return r.naiveRolloutComplete(key) }
	name := fmt.Sprintf("deployment %q looks rolled out to a check that ignores observedGeneration, within %v", key.Name, ck.within)
	if hasAfter {
		name = fmt.Sprintf("deployment %q looks rolled out to a check that ignores observedGeneration, between %v and %v", key.Name, ck.after, ck.within)
	}
	return name
}

// naiveRolloutComplete is kubectl rollout status's success test without
// its first condition, generation <= observedGeneration: the replica
// counts alone, as a script comparing updatedReplicas and
// availableReplicas with spec.replicas does. Until the Deployment
// controller has observed a change, the counts are those of the previous
// rollout and pass.
func (r *run) naiveRolloutComplete(key api.Key) (bool, string) {
	o, err := r.c.Store.Get(api.KindDeployment, key)
	if err != nil {
		return false, err.Error()
	}
	d := o.(*api.Deployment)
	replicas := int32(1)
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}
	st := d.Status
	seen := fmt.Sprintf("generation %d observed %d, %d/%d updated, %d total, %d available", d.Generation, st.ObservedGeneration, st.UpdatedReplicas, replicas, st.Replicas, st.AvailableReplicas)
	ok := st.UpdatedReplicas >= replicas && st.Replicas <= st.UpdatedReplicas && st.AvailableReplicas >= st.UpdatedReplicas
	return ok, seen
}
