package replicaset

import (
	"maps"
	"reflect"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

// This file is an optimisation of the sync, not a different computation.
//
// Upstream's syncReplicaSet lists every pod a ReplicaSet controls (and
// the orphans of its namespace), claims them one by one and counts them in
// calculateStatus. Every pod event enqueues the pod's ReplicaSet, so a
// ReplicaSet of n pods costs n·(pod events) over a run: quadratic in its
// size (9,000 pods in ten ReplicaSets spent a fifth of the CPU of a run
// there). The pod event handlers here keep, per ReplicaSet, the number of
// its pods in each state the sync distinguishes, so that a sync that
// would only count can read the counts instead: its cost is then linear in
// pod events. A sync uses them only when they are provably the numbers
// the full path would compute (see countsFromAggregate); any other sync
// (adoptions, releases, scale-down, minReadySeconds) takes the full path.
// The package's tests compute both on every fast sync and fail on any
// difference.

// podCounts are the numbers a sync derives from the pods it claimed: the
// status fields of calculateStatus, replicas being the number of active
// claimed pods manageReplicas compares with spec.replicas.
type podCounts struct {
	replicas, fullyLabeled, ready, available, terminating int32
}

// countPods counts active (claimed, not being deleted) and terminating
// (claimed) pods as calculateStatus reports them, availability judged at
// now.
func countPods(rs *api.ReplicaSet, active, terminating []*api.Pod, now time.Time) podCounts {
	templateLabels := api.SelectorFromSet(rs.Spec.Template.Labels)
	c := podCounts{replicas: int32(len(active)), terminating: int32(len(terminating))}
	for _, p := range active {
		if templateLabels.Matches(p.Labels) {
			c.fullyLabeled++
		}
		if api.IsPodReady(p) {
			c.ready++
			if IsPodAvailable(p, rs.Spec.MinReadySeconds, now) {
				c.available++
			}
		}
	}
	return c
}

// podFlags is what a sync needs to know of one pod a ReplicaSet controls,
// judged against the ReplicaSet's selector and template labels.
type podFlags uint8

const (
	podActive      podFlags = 1 << iota // IsPodActive
	podTerminating                      // IsPodTerminating
	podSelected                         // the selector matches its labels
	podLabeled                          // the template's labels match its labels
	podReady                            // IsPodReady
	podFlagCombinations
)

// rsPods aggregates the pods one ReplicaSet controls in its namespace:
// how many there are of each podFlags combination, judged against the
// selector and template labels it was built for.
type rsPods struct {
	namespace      string
	selector       *api.LabelSelector // a copy of the spec's
	templateLabels map[string]string  // a copy of the spec's
	sel, template  api.Selector
	n              [podFlagCombinations]int32
}

// flagsOf judges p against the aggregate's selector and template labels.
func (a *rsPods) flagsOf(p *api.Pod) podFlags {
	var f podFlags
	if IsPodActive(p) {
		f |= podActive
	}
	if IsPodTerminating(p) {
		f |= podTerminating
	}
	if a.sel.Matches(p.Labels) {
		f |= podSelected
	}
	if a.template.Matches(p.Labels) {
		f |= podLabeled
	}
	if api.IsPodReady(p) {
		f |= podReady
	}
	return f
}

// builtFor reports whether the aggregate judges pods as a sync of rs
// would: same namespace, selector and template labels.
func (a *rsPods) builtFor(rs *api.ReplicaSet) bool {
	return a.namespace == rs.Namespace &&
		reflect.DeepEqual(a.selector, rs.Spec.Selector) &&
		maps.Equal(a.templateLabels, rs.Spec.Template.Labels)
}

// counts returns what claimPods and calculateStatus would find among the
// aggregated pods when no pod is adopted or released, minReadySeconds
// being 0 (so that available is ready), and released, the number of
// active pods the selector no longer matches (claimPods would release
// them).
func (a *rsPods) counts() (c podCounts, released int32) {
	for f, n := range a.n {
		flags := podFlags(f)
		switch {
		case n == 0:
		case flags&podActive != 0 && flags&podSelected != 0:
			c.replicas += n
			if flags&podLabeled != 0 {
				c.fullyLabeled += n
			}
			if flags&podReady != 0 {
				c.ready += n
			}
		case flags&podActive != 0:
			released += n
		case flags&podTerminating != 0 && flags&podSelected != 0:
			c.terminating += n
		}
	}
	c.available = c.ready
	return c, released
}

// podEntry is where one pod is counted.
type podEntry struct {
	owner *rsPods
	flags podFlags
}

// podAggregates holds the aggregates of the ReplicaSets synced so far, by
// UID, kept in step with the pod informer's cache by its event handlers:
// each event takes the pod out of where it was counted and counts its new
// state, so a lost or reordered old object cannot skew the counts.
type podAggregates struct {
	byOwner map[api.UID]*rsPods
	byPod   map[api.Key]podEntry
}

func newPodAggregates() *podAggregates {
	return &podAggregates{byOwner: map[api.UID]*rsPods{}, byPod: map[api.Key]podEntry{}}
}

// handler returns the pod event handler that keeps the aggregates. It must
// be registered on the informer whose cache the sync reads: the cache is
// updated before handlers run and a sync never runs inside a handler, so
// a sync sees the cache and the aggregates agree. A relist tells the
// handlers of every pod added, still present or gone (informer.replace).
func (a *podAggregates) handler() informer.Handler {
	return informer.HandlerFuncs{
		AddFunc:    func(o api.Object) { a.observe(o, true) },
		UpdateFunc: func(_, o api.Object) { a.observe(o, true) },
		DeleteFunc: func(o api.Object) { a.observe(o, false) },
	}
}

// observe recounts the pod o: present is false when it left the cache.
func (a *podAggregates) observe(o api.Object, present bool) {
	p, ok := o.(*api.Pod)
	if !ok {
		return
	}
	key := p.GetObjectMeta().Key()
	var owner *rsPods
	if present {
		if ref := api.GetControllerOfNoCopy(&p.ObjectMeta); ref != nil {
			if rs := a.byOwner[ref.UID]; rs != nil && rs.namespace == p.Namespace {
				owner = rs
			}
		}
	}
	e, had := a.byPod[key]
	if had && e.owner == owner {
		// Counted under the same ReplicaSet (most events: a pod's
		// status writes): its count moves when its flags do, and its
		// entry is rewritten in place, not deleted and added again.
		if f := owner.flagsOf(p); f != e.flags {
			owner.n[e.flags]--
			owner.n[f]++
			a.byPod[key] = podEntry{owner: owner, flags: f}
		}
		return
	}
	if had {
		e.owner.n[e.flags]--
		delete(a.byPod, key)
	}
	if owner != nil {
		a.count(owner, key, p)
	}
}

func (a *podAggregates) count(owner *rsPods, key api.Key, p *api.Pod) {
	f := owner.flagsOf(p)
	owner.n[f]++
	a.byPod[key] = podEntry{owner: owner, flags: f}
}

// forget drops the aggregate of a ReplicaSet that is gone; its pods'
// entries go with their next events.
func (a *podAggregates) forget(uid api.UID) { delete(a.byOwner, uid) }

// aggregate returns rs's aggregate, rebuilt from the pods the cache files
// under its UID when there is none yet or it was built for another
// selector or template labels (a cost linear in rs's pods, once per such
// edit).
func (a *podAggregates) aggregate(rs *api.ReplicaSet, sel api.Selector, pods lister) *rsPods {
	if cur := a.byOwner[rs.UID]; cur != nil && cur.builtFor(rs) {
		return cur
	}
	agg := &rsPods{
		namespace:      rs.Namespace,
		selector:       rs.Spec.Selector.DeepCopy(),
		templateLabels: maps.Clone(rs.Spec.Template.Labels),
		sel:            sel,
		template:       api.SelectorFromSet(rs.Spec.Template.Labels),
	}
	a.byOwner[rs.UID] = agg
	for _, o := range pods.ByIndex(informer.IndexController, string(rs.UID)) {
		p, ok := o.(*api.Pod)
		if !ok || p.Namespace != rs.Namespace {
			continue
		}
		key := p.GetObjectMeta().Key()
		if e, ok := a.byPod[key]; ok {
			e.owner.n[e.flags]--
		}
		a.count(agg, key, p)
	}
	return agg
}

// countsFromAggregate returns what the full path (listPods, claimPods,
// claimed terminating pods, countPods) would compute for rs now, and true,
// when that can be read from rs's aggregate; false when the full path must
// run:
//   - minReadySeconds > 0: availability depends on each pod's ready time;
//   - a claim would write: an active pod rs controls that its selector no
//     longer matches (to release) or an active orphan of its namespace
//     that it matches (to adopt), unless rs is being deleted (then a claim
//     neither adopts nor releases);
//   - manageReplicas would delete pods: choosing victims ranks the pods.
func (r *reconciler) countsFromAggregate(rs *api.ReplicaSet, sel api.Selector, needsSync bool) (podCounts, bool) {
	if rs.Spec.MinReadySeconds != 0 {
		return podCounts{}, false
	}
	c, released := r.agg.aggregate(rs, sel, r.pods).counts()
	if rs.DeletionTimestamp == nil {
		if released > 0 {
			return podCounts{}, false
		}
		for _, o := range r.pods.ByIndex(informer.IndexController, informer.OrphanIndexValue(rs.Namespace)) {
			if p, ok := o.(*api.Pod); ok && p.Namespace == rs.Namespace && IsPodActive(p) && sel.Matches(p.Labels) {
				return podCounts{}, false
			}
		}
		if needsSync && c.replicas > replicasOf(rs) {
			return podCounts{}, false
		}
	}
	return c, true
}
