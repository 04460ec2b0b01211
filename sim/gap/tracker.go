package gap

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// Kinds are the kinds a Tracker watches: those with a gap definition and
// Pods and Endpoints, which a Service's gap is computed from.
var Kinds = []api.Kind{api.KindDeployment, api.KindReplicaSet, api.KindService, api.KindEndpoints,
	api.KindPod, api.KindHorizontalPodAutoscaler, api.KindNode, api.KindDaemonSet}

// Measured are the kinds with a gap definition.
var Measured = []api.Kind{api.KindDeployment, api.KindReplicaSet, api.KindService,
	api.KindHorizontalPodAutoscaler, api.KindNode, api.KindPod, api.KindDaemonSet}

// Defaults of the judgement of gaps.
const (
	// DefaultSLO is the gap duration beyond which a gap is an incident.
	DefaultSLO = 5 * time.Minute
	// DefaultSettle is how long every gap must stay closed to count as
	// converged: longer than the 50s node monitor grace period, so that a
	// silent node is noticed inside it.
	DefaultSettle = time.Minute
)

// Object names one measured object.
type Object struct {
	Kind api.Kind
	Key  api.Key
}

// String returns "Kind/namespace/name" ("Kind/name" when cluster-scoped).
func (o Object) String() string { return o.Kind.Name + "/" + o.Key.String() }

func (o Object) compare(p Object) int {
	return cmp.Or(o.Kind.Compare(p.Kind), cmp.Compare(o.Key.Namespace, p.Key.Namespace), cmp.Compare(o.Key.Name, p.Key.Name))
}

// Point is one change of an object's gap: Value holds from At until the
// next point.
type Point struct {
	// At is the virtual time of the change, from the start of the run.
	At time.Duration
	// Value is the gap: 0 closed, more open (replicas, addresses or
	// nodes, by kind).
	Value int
	// Detail says what was compared: "updated 2/3, ready 3/3,
	// available 3/3, total 4".
	Detail string
}

// Series is one object's gap over the run.
type Series struct {
	Object
	// Points are the changes, in time order; the first is when the
	// object was first seen.
	Points []Point
}

// At returns the point in force at t (the zero Point before the first).
func (s *Series) At(t time.Duration) Point {
	i, found := slices.BinarySearchFunc(s.Points, t, func(p Point, t time.Duration) int { return cmp.Compare(p.At, t) })
	if found {
		// Several points cannot share a time (a Tracker overwrites), but
		// take the last if they do.
		for i+1 < len(s.Points) && s.Points[i+1].At == t {
			i++
		}
		return s.Points[i]
	}
	if i == 0 {
		return Point{}
	}
	return s.Points[i-1]
}

// StaleSuccess is a stretch during which an object's status read as
// success (every replica updated and available) while it described an
// older generation than the spec's: a rollout check that ignores
// observedGeneration would have reported the new rollout done.
type StaleSuccess struct {
	Object
	// Generation is the spec's latest generation during the stretch,
	// Observed the status's observedGeneration.
	Generation, Observed int64
	// From and To bound the stretch (To is the run's end if it never
	// ended).
	From, To time.Duration
}

// EmptySelector is a stretch during which a Service's selector matched no
// pod at all: the Service sends its traffic nowhere (a label typo, or its
// workload gone).
type EmptySelector struct {
	Object
	// Selector is the Service's selector, as kubectl prints one.
	Selector string
	// From and To bound the stretch; Open reports that it lasted to the
	// run's end (To).
	From, To time.Duration
	Open     bool
}

// Timeline is every measured object's gap over a run.
type Timeline struct {
	// Series are the objects' gaps, sorted by kind, namespace and name.
	Series []Series
	// StaleSuccess lists the stretches of success reported for a stale
	// generation, in time order.
	StaleSuccess []StaleSuccess
	// EmptySelectors lists the stretches of a Service selecting no pod,
	// in time order.
	EmptySelectors []EmptySelector
	// End is the run's end.
	End time.Duration
}

// Tracker follows the store and records every object's gap. Install it
// with Watch before the run starts and call Finish when it has ended.
type Tracker struct {
	k       *kernel.Kernel
	watches []*store.Watch
	// sink takes each change with its instant to a goroutine beside the
	// event loop (kernel.Pipe), which runs deliver: every field below is
	// the consumer's until Finish syncs. Nothing reads a gap before the
	// run ends, and at 3,000 nodes following every write was 2% of the
	// event loop (0.61 of 35.04 s of samples).
	sink   *kernel.Pipe[change]
	objs   map[api.Kind]map[api.Key]api.Object
	series map[Object]*Series
	stale  map[Object]*StaleSuccess
	done   []StaleSuccess
	// empty are the Services whose selector matches no pod now, emptyDone
	// the stretches that ended.
	empty     map[Object]*EmptySelector
	emptyDone []EmptySelector
	dirty     map[Object]bool
	// dirtyAt is the instant of the unflushed changes.
	dirtyAt   time.Duration
	hasDirty  bool
	namespace map[string]bool // namespaces whose services must be recomputed
	order     []Object        // flush's scratch list, reused
	// services are the Services' states (and their Endpoints'), by
	// namespace (a pod's write updates its namespace's) and name.
	services map[string]map[string]*serviceState
}

// Watch installs a Tracker on s: it watches every kind in Kinds from the
// current state on, reading virtual time from k.
func Watch(s *store.Store, k *kernel.Kernel) (*Tracker, error) {
	t := newTracker(k)
	for _, kind := range Kinds {
		w, err := s.Watch(kind, 0, store.ListOptions{}, t)
		if err != nil {
			t.stop()
			return nil, fmt.Errorf("gap: watch %s: %w", kind, err)
		}
		t.watches = append(t.watches, w)
	}
	return t, nil
}

// newTracker returns a Tracker with nothing seen yet, reading virtual
// time from k.
func newTracker(k *kernel.Kernel) *Tracker {
	t := &Tracker{k: k, objs: map[api.Kind]map[api.Key]api.Object{}, series: map[Object]*Series{},
		stale: map[Object]*StaleSuccess{}, empty: map[Object]*EmptySelector{}, dirty: map[Object]bool{}, namespace: map[string]bool{},
		services: map[string]map[string]*serviceState{}}
	for _, kind := range Kinds {
		t.objs[kind] = map[api.Key]api.Object{}
	}
	return t
}

func (t *Tracker) stop() {
	for _, w := range t.watches {
		w.Stop()
	}
	t.watches = nil
}

// change is a store change on its way to the tracker's consumer, with
// the instant it happened.
type change struct {
	e   store.Event
	now time.Duration
}

// How many changes a batch to the consumer holds before it is sent, and
// how many sent batches may wait for it.
const (
	changeBatchSize  = 1024
	changeBatchDepth = 8
)

// Deliver takes one store change (Tracker is a store.Sink) and hands it,
// with the virtual time, to the consumer.
func (t *Tracker) Deliver(e store.Event) {
	if t.sink == nil {
		t.sink = kernel.NewPipe(changeBatchSize, changeBatchDepth, func(c change) { t.deliver(c.e, c.now) })
	}
	t.sink.Put(change{e: e, now: t.k.Now().Duration()})
}

// deliver follows one change at now: the consumer's work.
func (t *Tracker) deliver(e store.Event, now time.Duration) {
	if t.hasDirty && now != t.dirtyAt {
		t.flush()
	}
	t.hasDirty, t.dirtyAt = true, now
	o := e.Object
	m := o.GetObjectMeta()
	kind := api.KindOf(o)
	key := api.Key{Namespace: m.Namespace, Name: m.Name}
	cur := o
	if e.Type == store.Deleted {
		delete(t.objs[kind], key)
		cur = nil
	} else {
		t.objs[kind][key] = o
	}
	switch kind {
	case api.KindPod:
		t.namespace[m.Namespace] = true
		t.podChanged(key, cur)
		if p, ok := o.(*api.Pod); ok && bare(p) {
			t.dirty[Object{kind, key}] = true
		}
	case api.KindEndpoints:
		ep, _ := cur.(*api.Endpoints)
		t.endpointsChanged(key, ep)
		t.dirty[Object{api.KindService, key}] = true
	case api.KindService:
		svc, _ := cur.(*api.Service)
		t.serviceChanged(key, svc)
		t.dirty[Object{kind, key}] = true
	default:
		t.dirty[Object{kind, key}] = true
	}
}

// bare reports whether a pod has no controller: its gap is its own.
func bare(p *api.Pod) bool { return api.GetControllerOfNoCopy(&p.ObjectMeta) == nil }

// dirtyKeep is how many objects changed at one instant the set of dirty
// objects may have grown to and still be cleared rather than made anew.
const dirtyKeep = 64

// flush recomputes the gaps of the objects changed at dirtyAt, in order.
func (t *Tracker) flush() {
	at := t.dirtyAt
	for ns := range t.namespace {
		for key := range t.objs[api.KindService] {
			if key.Namespace == ns {
				t.dirty[Object{api.KindService, key}] = true
			}
		}
	}
	clear(t.namespace)
	objs := t.order[:0]
	for o := range t.dirty {
		objs = append(objs, o)
	}
	t.order = objs
	if len(objs) > dirtyKeep {
		// A map's range reads every slot it grew to, even cleared: one
		// instant with every node dirty (a start, a zone lost) would
		// make every later flush, one per busy instant, walk thousands
		// of empty slots (0.58 s of the 5,000-node probe's event loop).
		t.dirty = make(map[Object]bool, dirtyKeep)
	} else {
		clear(t.dirty)
	}
	slices.SortFunc(objs, Object.compare)
	for _, ob := range objs {
		cur, exists := t.objs[ob.Kind][ob.Key]
		var p Point
		measured := false
		if exists {
			p, measured = t.measure(ob, cur, at)
		}
		s := t.series[ob]
		if !measured {
			// Deleted, or not measured (a bare pod adopted): the gap
			// closes.
			if s != nil && s.Points[len(s.Points)-1].Value != 0 {
				t.record(s, Point{At: at, Detail: "gone"})
			}
			t.endStale(ob, at)
			t.endEmpty(ob, at)
			continue
		}
		if s == nil {
			s = &Series{Object: ob}
			t.series[ob] = s
		}
		t.record(s, p)
	}
	t.hasDirty = false
}

// record appends p unless it repeats the last point; a point at the same
// instant as the last replaces it.
func (t *Tracker) record(s *Series, p Point) {
	n := len(s.Points)
	if n > 0 {
		last := s.Points[n-1]
		if last.Value == p.Value && last.Detail == p.Detail {
			return
		}
		if last.At == p.At {
			s.Points = s.Points[:n-1]
			if n > 1 && s.Points[n-2].Value == p.Value && s.Points[n-2].Detail == p.Detail {
				return
			}
		}
	}
	s.Points = append(s.Points, p)
}

// measure computes one object's gap at instant at; ok is false for
// objects without a gap (a pod with a controller, a service without a
// selector).
func (t *Tracker) measure(ob Object, o api.Object, at time.Duration) (Point, bool) {
	p := Point{At: at}
	switch o := o.(type) {
	case *api.Deployment:
		want := replicas(o.Spec.Replicas)
		st := o.Status
		p.Value = int(max(want-st.UpdatedReplicas, want-st.ReadyReplicas, want-st.AvailableReplicas, st.Replicas-want, 0))
		p.Detail = fmt.Sprintf("updated %d/%d, ready %d/%d, available %d/%d, total %d", st.UpdatedReplicas, want, st.ReadyReplicas, want, st.AvailableReplicas, want, st.Replicas)
		success := st.UpdatedReplicas == want && st.AvailableReplicas == want && st.Replicas == want
		t.generation(ob, o.Generation, st.ObservedGeneration, success, at, &p)
	case *api.ReplicaSet:
		want := replicas(o.Spec.Replicas)
		st := o.Status
		p.Value = int(max(want-st.Replicas, st.Replicas-want, want-st.ReadyReplicas, want-st.AvailableReplicas, 0))
		p.Detail = fmt.Sprintf("replicas %d/%d, ready %d/%d, available %d/%d", st.Replicas, want, st.ReadyReplicas, want, st.AvailableReplicas, want)
		success := st.Replicas == want && st.AvailableReplicas == want
		t.generation(ob, o.Generation, st.ObservedGeneration, success, at, &p)
	case *api.DaemonSet:
		// Every node that should run the pod runs an available pod of
		// the current template, and no other node runs one.
		st := o.Status
		want := st.DesiredNumberScheduled
		p.Value = int(max(want-st.UpdatedNumberScheduled, want-st.NumberAvailable, st.NumberMisscheduled, 0))
		p.Detail = fmt.Sprintf("updated %d/%d, available %d/%d, misscheduled %d", st.UpdatedNumberScheduled, want, st.NumberAvailable, want, st.NumberMisscheduled)
		success := st.UpdatedNumberScheduled == want && st.NumberAvailable == want && st.NumberMisscheduled == 0
		t.generation(ob, o.Generation, st.ObservedGeneration, success, at, &p)
	case *api.Service:
		if o.Spec.Selector == nil || o.Spec.Type == api.ServiceTypeExternalName {
			return p, false
		}
		st := t.services[ob.Key.Namespace][ob.Key.Name]
		if st == nil {
			st = &serviceState{}
		}
		want, selected, have := len(st.want), len(st.members), len(st.have)
		missing, stale := st.missing, st.stale
		present := want - missing
		p.Detail = fmt.Sprintf("endpoints %d of %d ready pods, %d stale", present, want, stale)
		if want > api.EndpointsMaxCapacity {
			// An Endpoints object holds at most EndpointsMaxCapacity
			// addresses (the controller truncates the rest, as
			// upstream's): one that holds that many of the ready pods
			// is complete.
			missing = max(api.EndpointsMaxCapacity-present, 0)
			p.Detail = fmt.Sprintf("endpoints %d of %d ready pods (an Endpoints holds %d at most), %d stale", present, want, api.EndpointsMaxCapacity, stale)
		}
		p.Value = missing + stale
		switch {
		case selected == 0:
			// A Service that selects nothing serves nothing: declared
			// but not in effect.
			p.Value = max(p.Value, 1)
			sel := api.SelectorFromSet(o.Spec.Selector).String()
			p.Detail = "selector " + sel + " matches no pod"
			if t.empty[ob] == nil {
				t.empty[ob] = &EmptySelector{Object: ob, Selector: sel, From: at}
			}
		case have == 0:
			// Its pods exist but none is an endpoint (none ready).
			p.Value = max(p.Value, 1)
			p.Detail += fmt.Sprintf("; %d selected %s, none an endpoint", selected, plural(selected, "pod", "pods"))
		}
		if selected > 0 {
			t.endEmpty(ob, at)
		}
	case *api.HorizontalPodAutoscaler:
		st := o.Status
		if st.DesiredReplicas == 0 && replicas(o.Spec.MinReplicas) > 0 {
			// No recommendation yet (no metrics so far): the
			// controller has not asked for anything.
			p.Detail = fmt.Sprintf("no recommendation yet, current %d", st.CurrentReplicas)
			break
		}
		p.Value = int(max(st.DesiredReplicas-st.CurrentReplicas, st.CurrentReplicas-st.DesiredReplicas))
		p.Detail = fmt.Sprintf("desired %d, current %d", st.DesiredReplicas, st.CurrentReplicas)
	case *api.Node:
		status, reason := api.ConditionUnknown, "no Ready condition"
		for _, c := range o.Status.Conditions {
			if c.Type == api.NodeReady {
				status, reason = c.Status, c.Reason
			}
		}
		if status != api.ConditionTrue {
			p.Value = 1
		}
		p.Detail = "Ready=" + string(status)
		if reason != "" {
			p.Detail += " (" + reason + ")"
		}
	case *api.Pod:
		if !bare(o) {
			return p, false
		}
		ready := api.IsPodReady(o)
		if !ready && o.Status.Phase != api.PodSucceeded {
			p.Value = 1
		}
		p.Detail = fmt.Sprintf("%s, ready %v", cmp.Or(string(o.Status.Phase), "Pending"), ready)
	default:
		return p, false
	}
	return p, true
}

// generation applies the observedGeneration rule to p and keeps the
// StaleSuccess stretches.
func (t *Tracker) generation(ob Object, gen, observed int64, success bool, at time.Duration, p *Point) {
	if observed >= gen {
		t.endStale(ob, at)
		return
	}
	p.Value = max(p.Value, 1)
	p.Detail += fmt.Sprintf(", observedGeneration %d of %d", observed, gen)
	s := t.stale[ob]
	if !success {
		t.endStale(ob, at)
		return
	}
	if s != nil && s.Observed == observed {
		// Still the same stale status, whatever the spec did since.
		s.Generation = max(s.Generation, gen)
		return
	}
	t.endStale(ob, at)
	t.stale[ob] = &StaleSuccess{Object: ob, Generation: gen, Observed: observed, From: at}
}

func (t *Tracker) endStale(ob Object, at time.Duration) {
	if s := t.stale[ob]; s != nil {
		s.To = at
		t.done = append(t.done, *s)
		delete(t.stale, ob)
	}
}

// endEmpty ends ob's stretch of selecting no pod, if one is open.
func (t *Tracker) endEmpty(ob Object, at time.Duration) {
	if e := t.empty[ob]; e != nil {
		e.To = at
		t.emptyDone = append(t.emptyDone, *e)
		delete(t.empty, ob)
	}
}

// Finish flushes the last instant's changes, stops the watches and
// returns the timeline, ending at the current virtual time.
func (t *Tracker) Finish() *Timeline {
	t.sink.Sync()
	if t.hasDirty {
		t.flush()
	}
	t.stop()
	end := t.k.Now().Duration()
	tl := &Timeline{End: end}
	for _, s := range t.series {
		tl.Series = append(tl.Series, *s)
	}
	slices.SortFunc(tl.Series, func(a, b Series) int { return a.compare(b.Object) })
	for _, s := range t.stale {
		s.To = end
		t.done = append(t.done, *s)
	}
	clear(t.stale)
	tl.StaleSuccess = t.done
	slices.SortStableFunc(tl.StaleSuccess, func(a, b StaleSuccess) int {
		return cmp.Or(cmp.Compare(a.From, b.From), a.compare(b.Object))
	})
	for _, e := range t.empty {
		e.To, e.Open = end, true
		t.emptyDone = append(t.emptyDone, *e)
	}
	clear(t.empty)
	tl.EmptySelectors = t.emptyDone
	slices.SortStableFunc(tl.EmptySelectors, func(a, b EmptySelector) int {
		return cmp.Or(cmp.Compare(a.From, b.From), a.compare(b.Object))
	})
	return tl
}

// replicas is spec.replicas with the server's default of 1.
func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
