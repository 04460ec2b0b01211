package resourcequota

import (
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// tally is one quota's last recount, kept so that the next recount reads
// only the objects that changed. The informers replace an object they
// change, so an object of the same pointer charges what it charged then,
// as long as the quota's spec (its hard names and scopes) is the same and
// the object is not being deleted (a terminating pod's charge depends on
// the time: pastGrace). Every pod change recounts its namespace's quotas
// (the controller's replenishment), so without the tally a namespace of n
// pods costs about n squared.
type tally struct {
	uid        api.UID
	generation int64
	names      []api.ResourceName
	// kinds holds, per counted kind in the reconciler's order, the
	// charges of the last recount in list order; spare the slices the
	// recount before it used, reused as the next recount's.
	kinds, spare [][]charge
}

// charge is what one object adds to a quota's used.
type charge struct {
	obj api.Object
	// timed is set when the object was being deleted: its charge then
	// depends on the time (pastGrace) and is made anew each recount.
	timed bool
	// adds are the object's quantities for the quota's hard names, in
	// the names' order; none when the quota's scopes do not match it.
	adds []namedQuantity
}

// namedQuantity is a quantity of the hard name at index name.
type namedQuantity struct {
	name int
	q    api.Quantity
}

// usageFunc is what an object is charged at now (Reconciler.usage).
type usageFunc func(obj api.Object, now time.Time) api.ResourceList

// fits reports whether t was made for quota q with hard names names.
func (t *tally) fits(q *api.ResourceQuota, names []api.ResourceName) bool {
	return t.uid == q.UID && t.generation == q.Generation && slices.Equal(t.names, names)
}

// newTally returns an empty tally of q over kinds counted kinds.
func newTally(q *api.ResourceQuota, names []api.ResourceName, kinds int) *tally {
	return &tally{uid: q.UID, generation: q.Generation, names: names, kinds: make([][]charge, kinds), spare: make([][]charge, kinds)}
}

// used sums what the objects of lists (one list a counted kind, in the
// order the tally was made with, each sorted as a Lister lists) charge
// quota q, exactly as adding each object's usage in list order does:
// the same quantities added in the same order, so that each sum takes
// the same format. It reuses the charges of objects the last recount
// read and replaces the tally's with this one's.
func (t *tally) used(q *api.ResourceQuota, lists [][]api.Object, usage usageFunc, now time.Time) api.ResourceList {
	sums := make([]api.Quantity, len(t.names))
	for i := range sums {
		sums[i] = api.MustParseQuantity("0")
	}
	for k, objs := range lists {
		charges := t.recharge(k, q, objs, usage, now)
		for _, c := range charges {
			for _, a := range c.adds {
				sums[a.name].Add(a.q)
			}
		}
	}
	used := make(api.ResourceList, len(t.names))
	for i, name := range t.names {
		used[name] = sums[i]
	}
	return used
}

// recharge makes the charges of objs, the kth counted kind's objects,
// from the last recount's where an object is the same, and keeps them as
// the tally's.
func (t *tally) recharge(k int, q *api.ResourceQuota, objs []api.Object, usage usageFunc, now time.Time) []charge {
	old := t.kinds[k]
	next := t.spare[k][:0]
	j := 0
	for _, obj := range objs {
		if j < len(old) && old[j].obj != obj {
			j = seek(old, j, obj.GetObjectMeta().Name)
		}
		if j < len(old) && old[j].obj == obj {
			j++
			if !old[j-1].timed {
				next = append(next, old[j-1])
				continue
			}
		}
		next = append(next, t.charge(q, obj, usage, now))
	}
	clear(old) // let go of the objects it held
	t.kinds[k], t.spare[k] = next, old[:0]
	return next
}

// seek returns the index of the first charge of old from j on whose
// object is not named before name, passing the objects deleted since.
func seek(old []charge, j int, name string) int {
	for j < len(old) && old[j].obj.GetObjectMeta().Name < name {
		j++
	}
	return j
}

// charge computes what obj adds to quota q's used at now.
func (t *tally) charge(q *api.ResourceQuota, obj api.Object, usage usageFunc, now time.Time) charge {
	c := charge{obj: obj, timed: obj.GetObjectMeta().DeletionTimestamp != nil}
	// Objects being deleted count as long as they are stored (upstream's
	// CalculateUsageStats lists them all).
	if !api.QuotaScopesMatch(q, obj) {
		return c
	}
	u := usage(obj, now)
	for i, name := range t.names {
		if v, ok := u[name]; ok {
			c.adds = append(c.adds, namedQuantity{name: i, q: v})
		}
	}
	return c
}
