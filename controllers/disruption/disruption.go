// Package disruption is kube-controller-manager's disruption controller
// (k/k pkg/controller/disruption/disruption.go): it keeps the status of
// every PodDisruptionBudget current, so that the eviction subresource
// (sim/apiserver) can tell whether a pod may be evicted.
//
// For each budget it counts the selected pods, the healthy ones (ready,
// not being deleted, not recently approved for eviction), the pods the
// budget expects (the selected pods for an integer minAvailable; the
// scale of their controllers — Deployment, ReplicaSet, StatefulSet — for
// a percentage or maxUnavailable) and from those the desired healthy
// count and the disruptions allowed, then writes status.currentHealthy,
// desiredHealthy, expectedPods, disruptionsAllowed, disruptedPods,
// observedGeneration and the DisruptionAllowed condition, as upstream's
// trySync, getExpectedPodCount, countHealthyPods, buildDisruptedPodMap
// and updatePdbStatus do. A sync that fails (a pod without a known
// controller, a bad percentage) sets disruptionsAllowed to 0 with the
// condition False/SyncFailed (failSafe). Events: NoPods,
// CalculateExpectedPodCountFailed, UnmanagedPods, as upstream.
//
// Differences from upstream: a pod change enqueues every budget that
// selects the pod (upstream picks one of them and warns with a
// MultiplePodDisruptionBudgets event); there is no scale-subresource
// fallback for custom controllers (upstream's getScaleController), so
// their pods fail the sync with "found no controllers for pod"; the
// stale DisruptionTarget pod-condition worker is not simulated: a pod the
// taint manager or the scheduler's preemption marked DisruptionTarget but
// could not delete keeps the condition (upstream's worker sets it False
// after two minutes).
//
// Cost: a sync reads a tally of the budget's pods that the pod informer's
// events keep (tally.go), not a list of them, so that a budget over n pods
// costs n, not n squared, over the pods' changes; TestTallyMatchesList
// holds it to the listing sync.
//
// Imports: api and the controller runtime only. Determinism: time comes
// from the manager's clock; pods are listed sorted and controller scales
// are summed, so no map order reaches an outcome.
package disruption

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity Kubernetes runs this controller as.
const Actor = "system:serviceaccount:kube-system:disruption-controller"

// Name is the controller's name in kube-controller-manager.
const Name = "disruption"

// Component is the event source upstream's recorder uses.
const Component = "controllermanager"

// DeletionTimeout is how long a pod the eviction subresource approved is
// kept out of the healthy count waiting for its deletion to be seen
// (upstream's DeletionTimeout).
const DeletionTimeout = 2 * time.Minute

// Options configure the controller.
type Options struct {
	// Workers is the number of workers (upstream runs one).
	Workers int
}

// lister is what the controller reads from its caches.
type lister interface {
	Get(key api.Key) (api.Object, bool)
	List(sel api.Selector, namespace string) []api.Object
}

// Reconciler syncs one PodDisruptionBudget per request.
type Reconciler struct {
	Client      client.Client
	Recorder    client.EventRecorder
	Clock       client.PassiveClock
	PDBs        lister
	Pods        lister
	ReplicaSets lister
	Deployments lister
	// StatefulSets is the StatefulSet cache (upstream's getPodStatefulSet
	// finder reads it); nil finds none.
	StatefulSets lister
	// Scales finds the scale of other controller kinds (a custom one):
	// given a controller reference and a namespace, its UID and
	// spec.replicas, or ok false when this finder does not know it.
	Scales []Finder

	// tallies are the budgets' pod tallies Setup's handlers keep (see
	// podTally); nil (a Reconciler made by hand) lists the pods at each
	// sync.
	tallies *tallies
}

// Finder maps a pod's controller reference to its controller's UID and
// scale (upstream's podControllerFinder); ok is false when the reference
// is not of its kind or names no live controller.
type Finder func(ref *api.OwnerReference, namespace string) (uid api.UID, scale int32, ok bool)

// Setup registers the controller with m: informers on budgets, pods,
// ReplicaSets, Deployments and StatefulSets; a budget is synced when it
// or a pod it selects changes.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = 1
	}
	infs := map[api.Kind]*informer.Informer{}
	for _, k := range []api.Kind{api.KindPodDisruptionBudget, api.KindPod, api.KindReplicaSet, api.KindDeployment, api.KindStatefulSet} {
		inf, err := m.Informer(k, informer.Options{})
		if err != nil {
			return err
		}
		infs[k] = inf
	}
	r := &Reconciler{
		Client: m.Client(), Recorder: m.Recorder(Component), Clock: m.Clock(),
		PDBs: infs[api.KindPodDisruptionBudget].Lister(), Pods: infs[api.KindPod].Lister(),
		ReplicaSets: infs[api.KindReplicaSet].Lister(), Deployments: infs[api.KindDeployment].Lister(),
		StatefulSets: infs[api.KindStatefulSet].Lister(),
	}
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers}, r)
	if err != nil {
		return err
	}
	r.tallies = newTallies()
	// The tallies' handlers come first, so that a sync never reads a
	// tally behind the listers.
	infs[api.KindPodDisruptionBudget].AddEventHandler(informer.HandlerFuncs{
		AddFunc:    func(o api.Object) { r.budgetChanged(o.(*api.PodDisruptionBudget)) },
		UpdateFunc: func(_, o api.Object) { r.budgetChanged(o.(*api.PodDisruptionBudget)) },
		DeleteFunc: func(o api.Object) { r.budgetDeleted(o.(*api.PodDisruptionBudget)) },
	})
	infs[api.KindPod].AddEventHandler(informer.HandlerFuncs{
		AddFunc:    func(o api.Object) { r.podChanged(nil, o.(*api.Pod)) },
		UpdateFunc: func(old, o api.Object) { r.podChanged(old.(*api.Pod), o.(*api.Pod)) },
		DeleteFunc: func(o api.Object) { r.podChanged(o.(*api.Pod), nil) },
	})
	c.Watch(infs[api.KindPodDisruptionBudget], controller.EnqueueObject())
	c.Watch(infs[api.KindPod], func(obj api.Object) []controller.Request { return r.budgetsFor(obj.(*api.Pod)) })
	// The controllers' informers only need to be synced (upstream waits
	// for them); their changes reach budgets through the pods.
	c.Watch(infs[api.KindReplicaSet], func(api.Object) []controller.Request { return nil })
	c.Watch(infs[api.KindDeployment], func(api.Object) []controller.Request { return nil })
	c.Watch(infs[api.KindStatefulSet], func(api.Object) []controller.Request { return nil })
	return nil
}

// budgetsFor returns the budgets of the pod's namespace that select it
// (the PDB lister's GetPodPodDisruptionBudgets), in the lister's order:
// the tallies hold every budget's parsed selector (none for a selector
// that does not parse, which selects no pod), so that a pod change does
// not parse them again.
func (r *Reconciler) budgetsFor(p *api.Pod) []controller.Request {
	var out []controller.Request
	for _, t := range r.tallies.byNS[p.Namespace] {
		if t.sel.Matches(p.Labels) {
			out = append(out, controller.Request{Key: t.key})
		}
	}
	return out
}

// Reconcile syncs one budget (upstream's sync): a conflict is retried
// with back-off; any other failure sets the fail-safe status.
func (r *Reconciler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	o, ok := r.PDBs.Get(req.Key)
	if !ok {
		return controller.Result{}, nil
	}
	pdb := o.(*api.PodDisruptionBudget)
	recheck, err := r.trySync(ctx, pdb)
	if errors.Is(err, apierr.ErrConflict) {
		return controller.Result{}, err
	}
	if err != nil {
		if ferr := r.failSafe(ctx, pdb, err); ferr != nil {
			return controller.Result{}, ferr
		}
		return controller.Result{}, err
	}
	return controller.Result{RequeueAfter: recheck}, nil
}

// trySync computes and writes the budget's status; recheck is when a pod
// approved for eviction but not yet deleted stops being excluded.
func (r *Reconciler) trySync(ctx context.Context, pdb *api.PodDisruptionBudget) (time.Duration, error) {
	// A tally holds the selector parsed (it has one only for a selector
	// that parses); without one the sync parses it.
	t := r.tallyFor(pdb)
	var sel api.Selector
	var err error
	if t != nil {
		sel = t.sel
	} else if sel, err = api.LabelSelectorAsSelector(pdb.Spec.Selector); err != nil {
		r.Recorder.Eventf(pdb, api.EventTypeWarning, "NoPods", "Failed to get pods: %v", err)
		return 0, err
	}
	var pods []*api.Pod
	list := func() {
		// The lister matched the selector already: matching every
		// pod's labels again was a quarter of a sync of a budget over
		// 1,500 pods.
		objs := r.Pods.List(sel, pdb.Namespace)
		pods = make([]*api.Pod, 0, len(objs))
		for _, o := range objs {
			pods = append(pods, o.(*api.Pod))
		}
	}
	n := 0
	if t != nil {
		n = int(t.pods)
	} else {
		list()
		n = len(pods)
	}
	if n == 0 {
		r.Recorder.Eventf(pdb, api.EventTypeNormal, "NoPods", "No matching pods found")
	}
	var (
		expected, desired int32
		unmanaged         bool
	)
	if t != nil {
		var ok bool
		expected, desired, unmanaged, ok, err = r.expectedFromTally(pdb, t)
		if !ok {
			// A controller not found: the listing sync names the
			// first pod that has it.
			t = nil
			list()
		}
	}
	if t == nil {
		var names []string
		expected, desired, names, err = r.expectedPodCount(pdb, pods)
		unmanaged = len(names) > 0
	}
	if err != nil {
		r.Recorder.Eventf(pdb, api.EventTypeWarning, "CalculateExpectedPodCountFailed", "Failed to calculate the number of expected pods: %v", err)
		return 0, err
	}
	if unmanaged {
		r.Recorder.Eventf(pdb, api.EventTypeWarning, "UnmanagedPods", "Pods selected by this PodDisruptionBudget (selector: %v) were found "+
			"to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. "+
			"To account for these pods please set \".spec.minAvailable\" "+
			"field of the PDB to an integer value.", selectorText(pdb.Spec.Selector))
	}
	now := r.Clock.Now()
	var (
		disrupted map[string]api.Time
		recheckAt time.Time
		healthy   int32
	)
	if t != nil {
		disrupted, recheckAt, healthy = r.disruptedFromTally(pdb, t, now)
	} else {
		disrupted, recheckAt = r.buildDisruptedPodMap(pods, pdb, now)
		healthy = countHealthyPods(pods, disrupted, now)
	}
	if err := r.updateStatus(ctx, pdb, healthy, desired, expected, disrupted); err != nil {
		return 0, err
	}
	if recheckAt.IsZero() {
		return 0, nil
	}
	return recheckAt.Sub(now), nil
}

// expectedPodCount is upstream's getExpectedPodCount.
func (r *Reconciler) expectedPodCount(pdb *api.PodDisruptionBudget, pods []*api.Pod) (expected, desired int32, unmanaged []string, err error) {
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		expected, unmanaged, err = r.expectedScale(pdb, pods)
		if err != nil {
			return
		}
		var maxUnavailable int
		maxUnavailable, err = api.GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(expected), true)
		if err != nil {
			return
		}
		desired = max(expected-int32(maxUnavailable), 0)
	case pdb.Spec.MinAvailable != nil:
		if pdb.Spec.MinAvailable.Type == api.IntOrStringInt {
			desired = pdb.Spec.MinAvailable.IntVal
			expected = int32(len(pods))
			return
		}
		expected, unmanaged, err = r.expectedScale(pdb, pods)
		if err != nil {
			return
		}
		var minAvailable int
		minAvailable, err = api.GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(expected), true)
		if err != nil {
			return
		}
		desired = int32(minAvailable)
	}
	return
}

// expectedScale is upstream's getExpectedScale: the sum of the scales of
// the selected pods' controllers, each counted once.
func (r *Reconciler) expectedScale(pdb *api.PodDisruptionBudget, pods []*api.Pod) (int32, []string, error) {
	scales := map[api.UID]int32{}
	var (
		unmanaged []string
		last      api.UID // the controller reference of the pod before, found
	)
	for _, p := range pods {
		ref := api.GetControllerOfNoCopy(&p.ObjectMeta)
		if ref == nil {
			unmanaged = append(unmanaged, p.Name)
			continue
		}
		// A budget's pods mostly share one controller reference: the
		// pod before's was found (finding it again, as upstream's loop
		// does for a Deployment's pods, whose scales are keyed by the
		// Deployment, reads the same listers to the same end).
		if last != "" && ref.UID == last {
			continue
		}
		if _, seen := scales[ref.UID]; seen {
			last = ref.UID
			continue
		}
		uid, scale, ok := r.findController(ref, p.Namespace)
		if !ok {
			return 0, nil, fmt.Errorf("found no controllers for pod %q", p.Name)
		}
		scales[uid] = scale
		last = ref.UID
	}
	var sum int32
	for _, n := range scales { // a sum: the order does not matter
		sum += n
	}
	return sum, unmanaged, nil
}

// findController runs upstream's finders in order: a Deployment through
// its ReplicaSet, a ReplicaSet without a Deployment, a StatefulSet
// (getPodStatefulSet), then the extra finders.
func (r *Reconciler) findController(ref *api.OwnerReference, ns string) (api.UID, int32, bool) {
	if ref.Kind == api.KindReplicaSet.Name && isGroup(ref.APIVersion, "apps", "extensions") {
		o, ok := r.ReplicaSets.Get(api.Key{Namespace: ns, Name: ref.Name})
		if !ok {
			return "", 0, false
		}
		rs := o.(*api.ReplicaSet)
		if rs.UID != ref.UID {
			return "", 0, false
		}
		// getPodDeployment, then getPodReplicaSet: a ReplicaSet whose
		// controller is a Deployment counts only through it.
		if dref := api.GetControllerOfNoCopy(&rs.ObjectMeta); dref != nil && dref.Kind == api.KindDeployment.Name {
			if !isGroup(dref.APIVersion, "apps", "extensions") {
				return "", 0, false
			}
			d, ok := r.Deployments.Get(api.Key{Namespace: ns, Name: dref.Name})
			if !ok || d.GetObjectMeta().UID != dref.UID {
				return "", 0, false
			}
			return dref.UID, replicas(d.(*api.Deployment).Spec.Replicas), true
		}
		return rs.UID, replicas(rs.Spec.Replicas), true
	}
	if ref.Kind == api.KindStatefulSet.Name && isGroup(ref.APIVersion, "apps") && r.StatefulSets != nil {
		o, ok := r.StatefulSets.Get(api.Key{Namespace: ns, Name: ref.Name})
		if ss, isSS := o.(*api.StatefulSet); ok && isSS && ss.UID == ref.UID {
			return ss.UID, replicas(ss.Spec.Replicas), true
		}
		return "", 0, false
	}
	for _, f := range r.Scales {
		if uid, scale, ok := f(ref, ns); ok {
			return uid, scale, true
		}
	}
	return "", 0, false
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

// isGroup reports whether apiVersion is in one of groups (verifyGroupKind).
func isGroup(apiVersion string, groups ...string) bool {
	g := api.GroupOf(apiVersion)
	for _, want := range groups {
		if g == want {
			return true
		}
	}
	return false
}

// countHealthyPods is upstream's: ready pods not being deleted and not
// approved for eviction within DeletionTimeout.
func countHealthyPods(pods []*api.Pod, disrupted map[string]api.Time, now time.Time) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if t, ok := disrupted[p.Name]; ok && t.Add(DeletionTimeout).After(now) {
			continue
		}
		if api.IsPodReady(p) {
			n++
		}
	}
	return n
}

// buildDisruptedPodMap keeps the status.disruptedPods entries of pods
// that still exist, are not yet being deleted and were approved less than
// DeletionTimeout ago; recheck is the earliest such entry's expiry (zero
// when none).
func (r *Reconciler) buildDisruptedPodMap(pods []*api.Pod, pdb *api.PodDisruptionBudget, now time.Time) (map[string]api.Time, time.Time) {
	result := map[string]api.Time{}
	var recheck time.Time
	if pdb.Status.DisruptedPods == nil {
		return result, recheck
	}
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		t, ok := pdb.Status.DisruptedPods[p.Name]
		if !ok {
			continue
		}
		if r.stillDisrupted(pdb, p, t, now, &recheck) {
			result[p.Name] = t
		}
	}
	return result, recheck
}

// stillDisrupted judges a status.disruptedPods entry of pod p, approved
// at t: an entry past DeletionTimeout is dropped with upstream's
// NotDeleted event; a kept one moves recheck to its expiry if that comes
// first.
func (r *Reconciler) stillDisrupted(pdb *api.PodDisruptionBudget, p *api.Pod, t api.Time, now time.Time, recheck *time.Time) bool {
	expected := t.Add(DeletionTimeout)
	if expected.Before(now) {
		// Upstream's message names the namespace twice.
		r.Recorder.Eventf(p, api.EventTypeWarning, "NotDeleted", "Pod was expected by PDB %s/%s to be deleted but it wasn't", pdb.Namespace, pdb.Namespace)
		return false
	}
	if recheck.IsZero() || expected.Before(*recheck) {
		*recheck = expected
	}
	return true
}

// updateStatus is upstream's updatePdbStatus: nothing is written when the
// status is already current.
func (r *Reconciler) updateStatus(ctx context.Context, pdb *api.PodDisruptionBudget, healthy, desired, expected int32, disrupted map[string]api.Time) error {
	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	st := &pdb.Status
	if st.CurrentHealthy == healthy && st.DesiredHealthy == desired && st.ExpectedPods == expected &&
		st.DisruptionsAllowed == allowed && sameDisrupted(st.DisruptedPods, disrupted) &&
		st.ObservedGeneration == pdb.Generation && conditionsUpToDate(pdb) {
		return nil
	}
	cp := pdb.DeepCopy()
	cp.Status = api.PodDisruptionBudgetStatus{
		CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: expected, DisruptionsAllowed: allowed,
		DisruptedPods: disrupted, ObservedGeneration: pdb.Generation, Conditions: cp.Status.Conditions,
	}
	cp.UpdateDisruptionAllowedCondition(r.now())
	_, err := r.Client.UpdateStatus(ctx, cp)
	return err
}

// sameDisrupted is apiequality.Semantic.DeepEqual on the maps, which
// takes a nil map and an empty one for equal.
func sameDisrupted(a, b map[string]api.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !v.Equal(&w) {
			return false
		}
	}
	return true
}

// conditionsUpToDate is component-helpers' ConditionsAreUpToDate.
func conditionsUpToDate(pdb *api.PodDisruptionBudget) bool {
	c := api.FindCondition(pdb.Status.Conditions, api.DisruptionAllowedCondition)
	if c == nil || pdb.Status.ObservedGeneration != pdb.Generation {
		return false
	}
	if pdb.Status.DisruptionsAllowed > 0 {
		return c.Status == api.ConditionTrue && c.Reason == api.SufficientPodsReason
	}
	return c.Status == api.ConditionFalse && c.Reason == api.InsufficientPodsReason
}

// failSafe is upstream's: when the status cannot be computed, at least
// forbid disruptions, with the error in a SyncFailed condition.
func (r *Reconciler) failSafe(ctx context.Context, pdb *api.PodDisruptionBudget, cause error) error {
	cp := pdb.DeepCopy()
	cp.Status.DisruptionsAllowed = 0
	if cp.Status.Conditions == nil {
		cp.Status.Conditions = []api.Condition{}
	}
	api.SetCondition(&cp.Status.Conditions, api.Condition{
		Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse, Reason: api.SyncFailedReason,
		Message: cause.Error(), ObservedGeneration: cp.Status.ObservedGeneration,
	}, r.now())
	_, err := r.Client.UpdateStatus(ctx, cp)
	return err
}

func (r *Reconciler) now() api.Time { return api.NewTime(r.Clock.Now()).Rfc3339Copy() }

// selectorText renders a label selector as the protobuf-generated String
// of *metav1.LabelSelector that upstream's %v prints, for matchLabels
// (sorted) and matchExpressions.
func selectorText(ls *api.LabelSelector) string {
	if ls == nil {
		return "nil"
	}
	s := "&LabelSelector{MatchLabels:map[string]string{"
	keys := make([]string, 0, len(ls.MatchLabels))
	for k := range ls.MatchLabels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		s += k + ": " + ls.MatchLabels[k] + ","
	}
	s += "},MatchExpressions:[]LabelSelectorRequirement{"
	for _, e := range ls.MatchExpressions {
		s += fmt.Sprintf("LabelSelectorRequirement{Key:%s,Operator:%s,Values:%v,},", e.Key, e.Operator, e.Values)
	}
	return s + "},}"
}
