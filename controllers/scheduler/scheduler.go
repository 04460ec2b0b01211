package scheduler

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity kube-scheduler runs as.
const Actor = "system:kube-scheduler"

// SchedulerName is the spec.schedulerName of the pods this scheduler
// schedules and the source component of its events.
const SchedulerName = api.DefaultSchedulerName

// Event reasons.
const (
	// EventScheduled is the Normal event of a successful binding.
	EventScheduled = "Scheduled"
	// EventFailedScheduling is the Warning event of a failed attempt.
	EventFailedScheduling = "FailedScheduling"
)

// PodReasonSchedulerError is the PodScheduled reason for a failure that
// is not the pod's fit, such as a failed binding (v1.PodReasonSchedulerError).
const PodReasonSchedulerError = "SchedulerError"

// Defaults of kube-scheduler's queue (kube-scheduler config v1:
// podInitialBackoffSeconds, podMaxBackoffSeconds; scheduling queue:
// DefaultPodMaxInUnschedulablePodsDuration).
const (
	// DefaultInitialBackoff is a pod's wait after its first failed
	// attempt: 1s, doubling with every further attempt.
	DefaultInitialBackoff = time.Second
	// DefaultMaxBackoff caps the doubling: 10s.
	DefaultMaxBackoff = 10 * time.Second
	// DefaultMaxInUnschedulable is the longest a pod that fits nowhere
	// waits for a cluster event before it is tried again anyway: 5m.
	DefaultMaxInUnschedulable = 5 * time.Minute
)

// Options configure the scheduler. Zero fields take the defaults.
type Options struct {
	// Workers is the number of pods scheduled at once; default 1, as
	// kube-scheduler's scheduling cycle takes one pod at a time.
	Workers int
	// InitialBackoff is the wait after a first failed attempt (default 1s).
	InitialBackoff time.Duration
	// MaxBackoff caps the per-pod back-off (default 10s).
	MaxBackoff time.Duration
	// MaxInUnschedulable is how long an unschedulable pod waits for a
	// helpful cluster event at most (default 5m).
	MaxInUnschedulable time.Duration
	// PercentageOfNodesToScore is the share of the nodes searched for
	// feasible ones per attempt once there are at least 100 nodes; 0
	// means upstream's adaptive default, 50% minus 1% per 125 nodes, at
	// least 5%.
	PercentageOfNodesToScore int32
	// Volumes runs the VolumeBinding and VolumeZone plugins, with
	// informers on claims, volumes and classes (volumebinding.go); the
	// runner sets it where the scenario has storage, so that other runs
	// do not list and watch those kinds.
	Volumes bool
	// NodeLifecycleTaints says that the node lifecycle controller runs:
	// it taints a node whose Ready condition is False or Unknown
	// node.kubernetes.io/not-ready or node.kubernetes.io/unreachable with
	// NoSchedule (TaintNodesByCondition), and the scheduler relies on
	// those taints through TaintToleration, as upstream's has since 1.17
	// ("node(s) had untolerated taint(s)"); a node is a candidate until
	// the controller has tainted it. False (a scheduler without that
	// controller): nothing would keep pods off a dead node, so the
	// scheduler rejects a node whose Ready condition is not True itself,
	// with ReasonNotReady.
	NodeLifecycleTaints bool
}

func (o *Options) defaults() {
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.InitialBackoff <= 0 {
		o.InitialBackoff = DefaultInitialBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	if o.MaxInUnschedulable <= 0 {
		o.MaxInUnschedulable = DefaultMaxInUnschedulable
	}
}

// queued is a pending pod's place in the scheduling queue.
type queued struct {
	key api.Key
	uid api.UID
	// attempts counts scheduling attempts; the back-off before the next
	// is InitialBackoff·2^(attempts-1), capped at MaxBackoff.
	attempts int
	// lastFailure is when the last attempt failed.
	lastFailure time.Time
	// parked: in the unschedulable pool, waiting for a cluster event or
	// MaxInUnschedulable after parkedAt. Set through podQueue.park and
	// unpark, which index it.
	parked   bool
	parkedAt time.Time
	priority int32
	// placement: the pod has topology spread constraints or pod
	// (anti-)affinity, so a newly bound pod may make it schedulable. Set
	// through podQueue.setPlacement.
	placement bool
	// nominated is the node preemption made room on for the pod
	// (status.nominatedNodeName), "" if none.
	nominated string
}

// scheduler is the reconciler: one pod per request.
type scheduler struct {
	client client.Client
	rec    client.EventRecorder
	clock  client.Clock
	rng    *rand.Rand
	// prng draws preemption's dry-run offset (stream "preemption").
	prng *rand.Rand
	pods informer.Lister
	opts Options
	ctrl *controller.Controller

	cache *cache
	queue *podQueue
	// moveSeq counts moves of the unschedulable pool: an attempt that
	// saw it change failed while the cluster changed, and is retried
	// after its back-off rather than parked (upstream's moveRequestCycle).
	moveSeq   uint64
	nextStart int

	reasons  []string
	feasible []*nodeInfo
	sc       scorer
	// fitOnly holds the scores of the feasible nodes a search scored as
	// it found them (scoredByFitAlone), reused from pod to pod.
	fitOnly []int64
	// names and candidates hold NodeAffinity's PreFilter result for the
	// pod being scheduled, reused from pod to pod.
	names      []string
	candidates []*nodeInfo

	// vol is the volume plugins' state (nil without Options.Volumes);
	// volState is what the last schedule found of the pod's claims.
	vol      *volumeBinder
	volState *volumeState
	// potential are the nodes the last failed attempt found Unschedulable
	// (not UnschedulableAndUnresolvable): preemption's candidates.
	potential []*nodeInfo
	// nominatedUnresolvable: the last attempt found the pod's nominated
	// node UnschedulableAndUnresolvable.
	nominatedUnresolvable bool
}

// Setup registers the scheduler with m: informers on Pods and Nodes,
// the scheduler's cache fed by them, and a controller named "scheduler" whose requests are pods to
// schedule. Events carry the component "default-scheduler"; ties are
// broken from m.Rand("scheduler"), preemption's dry run starts at an
// offset drawn from m.Rand("preemption").
func Setup(m *controller.Manager, opts Options) error {
	opts.defaults()
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	nodeInf, err := m.Informer(api.KindNode, informer.Options{})
	if err != nil {
		return err
	}
	s := &scheduler{
		client: m.Client(),
		rec:    m.Recorder(SchedulerName),
		clock:  m.Clock(),
		rng:    m.Rand("scheduler"),
		prng:   m.Rand("preemption"),
		pods:   podInf.Lister(),
		opts:   opts,
		cache:  newCache(),
		queue:  newPodQueue(),
	}
	s.cache.readyCheck = !opts.NodeLifecycleTaints
	c, err := m.NewController("scheduler", controller.Options{Workers: opts.Workers, Priority: s.queuePriority}, s)
	if err != nil {
		return err
	}
	s.ctrl = c
	if opts.Volumes {
		if s.vol, err = newVolumeBinder(m, s); err != nil {
			return err
		}
	}
	nodeInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc: func(obj api.Object) {
			s.cache.setNode(obj.(*api.Node))
			s.moveAll(api.Key{})
		},
		UpdateFunc: func(old, obj api.Object) {
			o, n := old.(*api.Node), obj.(*api.Node)
			s.cache.setNode(n)
			if nodeChangeMayHelp(o, n) {
				s.moveAll(api.Key{})
			}
		},
		DeleteFunc: func(obj api.Object) { s.cache.removeNode(obj.GetObjectMeta().Name) },
	})
	podInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc: func(obj api.Object) {
			pod := obj.(*api.Pod)
			if s.cache.setPod(pod) {
				s.moveAll(api.Key{})
			}
			s.trackNomination(pod)
			s.wakePlacement()
			if responsible(pod) {
				s.ctrl.Enqueue(controller.Request{Key: pod.Key()})
			}
		},
		UpdateFunc: func(old, obj api.Object) {
			o, pod := old.(*api.Pod), obj.(*api.Pod)
			if s.cache.setPod(pod) {
				s.moveAll(api.Key{})
			}
			s.trackNomination(pod)
			s.wakePlacement()
			if !responsible(pod) {
				return
			}
			key := pod.Key()
			if q := s.queue.get(key); q != nil && q.parked && podChangeMayHelp(o, pod) {
				s.unpark(key, q)
				return
			}
			s.ctrl.Enqueue(controller.Request{Key: key})
		},
		DeleteFunc: func(obj api.Object) {
			key := obj.GetObjectMeta().Key()
			s.queue.remove(key)
			s.cache.unnominate(key)
			if s.cache.deletePod(key) {
				s.moveAll(api.Key{})
			}
		},
	})
	return nil
}

// queuePriority orders the scheduler's active queue as upstream's
// PrioritySort queue-sort plugin does (k/k
// pkg/scheduler/framework/plugins/queuesort/priority_sort.go): the pod of
// the higher spec.priority first; the work queue hands out pods of equal
// priority in the order they were queued, which is upstream's tie-break
// on the time a pod was added to the queue.
func (s *scheduler) queuePriority(req controller.Request) int64 {
	return queuedPriority(s.pods.Get(req.Key))
}

// queuedPriority is the queue priority of a pod looked up by key: its
// spec.priority, 0 if it is gone.
func queuedPriority(obj api.Object, ok bool) int64 {
	if !ok {
		return 0
	}
	return int64(podPriority(obj.(*api.Pod)))
}

// trackNomination keeps the cache's nominations in step with pod: a pod
// bound or finished holds nothing; a pending pod whose status names a
// nominated node the cache does not know (set before a restart) holds
// room there. The scheduler's own nominations are not undone by an older
// status that lacks them.
func (s *scheduler) trackNomination(pod *api.Pod) {
	key := pod.Key()
	if !responsible(pod) {
		s.cache.unnominate(key)
		return
	}
	if nn := pod.Status.NominatedNodeName; nn != "" && s.cache.nominatedNode(key) == "" {
		s.cache.nominate(pod, nn)
	}
}

// responsible reports whether pod waits for this scheduler: unbound, not
// finished, for default-scheduler, and not held by scheduling gates.
func responsible(pod *api.Pod) bool {
	name := pod.Spec.SchedulerName
	return pod.Spec.NodeName == "" && (name == SchedulerName || name == "") &&
		pod.Status.Phase != api.PodSucceeded && pod.Status.Phase != api.PodFailed &&
		len(pod.Spec.SchedulingGates) == 0
}

// podChangeMayHelp reports whether an update of a pending pod may make it
// schedulable: its spec (generation) or labels changed, not just its status.
func podChangeMayHelp(old, pod *api.Pod) bool {
	return old.Generation != pod.Generation || !mapsEqual(old.Labels, pod.Labels)
}

// nodeChangeMayHelp reports whether a node update may make a parked pod
// schedulable (upstream's nodeSchedulingPropertiesChange): it became
// schedulable, or its allocatable, labels, taints or conditions (heartbeat
// times aside) changed.
func nodeChangeMayHelp(old, n *api.Node) bool {
	if old.Spec.Unschedulable != n.Spec.Unschedulable && !n.Spec.Unschedulable {
		return true
	}
	if !mapsEqualFunc(old.Status.Allocatable, n.Status.Allocatable, func(a, b api.Quantity) bool { return a.Equal(b) }) {
		return true
	}
	if !mapsEqual(old.Labels, n.Labels) {
		return true
	}
	if !slices.EqualFunc(old.Spec.Taints, n.Spec.Taints, func(a, b api.Taint) bool {
		return a.Key == b.Key && a.Value == b.Value && a.Effect == b.Effect
	}) {
		return true
	}
	return !slices.EqualFunc(old.Status.Conditions, n.Status.Conditions, func(a, b api.NodeCondition) bool {
		return a.Type == b.Type && a.Status == b.Status
	})
}

func mapsEqual(a, b map[string]string) bool {
	return mapsEqualFunc(a, b, func(x, y string) bool { return x == y })
}

func mapsEqualFunc[K comparable, V any](a, b map[K]V, eq func(V, V) bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k, va := range a {
		vb, ok := b[k]
		if !ok || !eq(va, vb) {
			return false
		}
	}
	return true
}

// backoff is the wait after a pod's attempts-th failed attempt.
func (s *scheduler) backoff(attempts int) time.Duration {
	d := s.opts.InitialBackoff
	for i := 1; i < attempts; i++ {
		d *= 2
		if d > s.opts.MaxBackoff {
			return s.opts.MaxBackoff
		}
	}
	return min(d, s.opts.MaxBackoff)
}

// backoffLeft is how much of q's back-off remains at now.
func (s *scheduler) backoffLeft(q *queued, now time.Time) time.Duration {
	if q.attempts == 0 {
		return 0
	}
	return q.lastFailure.Add(s.backoff(q.attempts)).Sub(now)
}

// unpark moves one parked pod back to the queue, after what remains of its
// back-off (the backoffQ) or at once (the activeQ).
func (s *scheduler) unpark(key api.Key, q *queued) {
	s.queue.unpark(q)
	if d := s.backoffLeft(q, s.clock.Now()); d > 0 {
		s.ctrl.EnqueueAfter(controller.Request{Key: key}, d)
		return
	}
	s.ctrl.Enqueue(controller.Request{Key: key})
}

// moveAll moves every parked pod but except (the zero key: none) back to
// the queue (MoveAllToActiveOrBackoffQueue): higher priority first, then
// the longest parked, then by key.
func (s *scheduler) moveAll(except api.Key) {
	s.moveSeq++
	for _, q := range s.queue.parkedInMoveOrder(except) {
		s.unpark(q.key, q)
	}
	s.queue.release()
}

// wakePlacement moves the parked pods with placement rules back to the
// queue after a pod was newly counted on a node (upstream's
// AssignedPodAdd event for PodTopologySpread and InterPodAffinity). Pods
// without such rules do not care, and nothing changes for them.
func (s *scheduler) wakePlacement() {
	if !s.cache.added {
		return
	}
	s.cache.added = false
	ps := s.queue.parkedWithPlacement()
	if len(ps) == 0 {
		return
	}
	s.moveSeq++
	for _, q := range ps {
		s.unpark(q.key, q)
	}
	s.queue.release()
}

// hasPlacementRules reports whether pod has topology spread constraints
// or pod (anti-)affinity.
func hasPlacementRules(pod *api.Pod) bool {
	return len(pod.Spec.TopologySpreadConstraints) > 0 || hasPodAffinity(pod)
}

// Reconcile tries to schedule the pod req names, unless it is not due yet
// (backing off, or parked as unschedulable).
func (s *scheduler) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	obj, ok := s.pods.Get(req.Key)
	if !ok {
		s.queue.remove(req.Key)
		return controller.Result{}, nil
	}
	pod := obj.(*api.Pod)
	q := s.queue.get(req.Key)
	if q != nil && q.uid != pod.UID {
		s.queue.remove(req.Key)
		q = nil
	}
	if !responsible(pod) {
		s.queue.remove(req.Key)
		return controller.Result{}, nil
	}
	if pod.DeletionTimestamp != nil {
		s.queue.remove(req.Key)
		s.rec.Eventf(pod, client.EventTypeWarning, EventFailedScheduling, "skip schedule deleting pod: %v/%v", pod.Namespace, pod.Name)
		return controller.Result{}, nil
	}
	if s.cache.isAssumed(pod) {
		// Bound a moment ago; the informer has not shown it yet.
		return controller.Result{}, nil
	}
	if q == nil {
		q = &queued{uid: pod.UID}
		s.queue.add(req.Key, q)
	}
	if pod.Spec.Priority != nil {
		q.priority = *pod.Spec.Priority
	}
	s.queue.setPlacement(q, hasPlacementRules(pod))
	now := s.clock.Now()
	if q.parked {
		if due := q.parkedAt.Add(s.opts.MaxInUnschedulable); now.Before(due) {
			return controller.Result{RequeueAfter: due.Sub(now)}, nil
		}
		s.queue.unpark(q) // flushUnschedulablePodsLeftover
	}
	if d := s.backoffLeft(q, now); d > 0 {
		return controller.Result{RequeueAfter: d}, nil
	}
	return s.attempt(ctx, pod, q)
}

// attempt runs one scheduling cycle for pod and binds it.
func (s *scheduler) attempt(ctx context.Context, pod *api.Pod, q *queued) (controller.Result, error) {
	q.attempts++
	cycle := s.moveSeq
	if q.nominated == "" {
		q.nominated = s.cache.nominatedNode(pod.Key())
	}
	node, err := s.schedule(pod, q.nominated)
	if err != nil {
		// PostFilter runs after a Filter or a PreFilter failure.
		if fe, ok := errors.AsType[*FitError](err); ok {
			fe.PostFilterMsg = s.preempt(ctx, pod, q, fe.NumAllNodes)
		} else if pe, ok := errors.AsType[*PreFilterError](err); ok {
			pe.PostFilterMsg = s.preempt(ctx, pod, q, pe.NumAllNodes)
		}
		return s.failed(ctx, pod, q, api.PodReasonUnschedulable, err, cycle)
	}
	key := pod.Key()
	if s.vol != nil {
		wait, err := s.vol.preBind(ctx, s.volState, node)
		if err != nil {
			return s.failed(ctx, pod, q, PodReasonSchedulerError, err, cycle)
		}
		if wait {
			s.queue.park(q, s.clock.Now())
			return controller.Result{RequeueAfter: s.opts.MaxInUnschedulable}, nil
		}
	}
	s.cache.unnominate(key)
	q.nominated = ""
	s.cache.assume(pod, node)
	// DefaultBinder: POST pods/<name>/binding with the pod's uid as a
	// precondition; the API server sets spec.nodeName and PodScheduled=True
	// in one write.
	err = client.Bind(ctx, s.client, &api.Binding{
		ObjectMeta: api.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID},
		Target:     api.ObjectReference{Kind: "Node", Name: node},
	})
	if err != nil {
		// The binding failed, or timed out and may have happened: give
		// the node's resources back (a timed-out binding that did happen
		// comes back through the informer, and the next attempt finds the
		// pod bound) and retry after the back-off, as a binding cycle
		// error does upstream.
		s.cache.forget(key, pod.UID)
		s.moveAll(key)
		if errors.Is(err, apierr.ErrNotFound) {
			s.queue.remove(key)
			return controller.Result{}, nil
		}
		return s.failed(ctx, pod, q, PodReasonSchedulerError, err, cycle)
	}
	s.rec.Eventf(pod, client.EventTypeNormal, EventScheduled, "Successfully assigned %v/%v to %v", pod.Namespace, pod.Name, node)
	s.queue.remove(key)
	return controller.Result{}, nil
}

// failed records a failed attempt (handleSchedulingFailure): a Warning
// FailedScheduling event and the PodScheduled=False condition carrying
// err's message, then the pod waits: parked if it fits nowhere and the
// cluster did not change during the attempt, else for its back-off.
func (s *scheduler) failed(ctx context.Context, pod *api.Pod, q *queued, reason string, err error, cycle uint64) (controller.Result, error) {
	msg := err.Error()
	s.rec.Eventf(pod, client.EventTypeWarning, EventFailedScheduling, "%s", msg)
	if cur, ok := informer.GetAs[*api.Pod](s.pods, pod.Key()); ok && cur.UID == pod.UID && cur.Spec.NodeName == "" {
		st := cur.Status.DeepCopy()
		changed := updateCondition(st, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: reason, Message: msg}, s.clock.Now())
		if reason == api.PodReasonUnschedulable && st.NominatedNodeName != q.nominated {
			// updatePod with the PostFilter's nominating info.
			st.NominatedNodeName = q.nominated
			changed = true
		}
		if changed {
			upd := *cur
			upd.Status = *st
			// Best effort: a conflict or timeout is settled by the next
			// attempt, which writes the condition again.
			_, _ = s.client.UpdateStatus(ctx, &upd)
		}
	}
	now := s.clock.Now()
	q.lastFailure = now
	if reason == api.PodReasonUnschedulable && s.moveSeq == cycle {
		s.queue.park(q, now)
		return controller.Result{RequeueAfter: s.opts.MaxInUnschedulable}, nil
	}
	return controller.Result{RequeueAfter: s.backoff(q.attempts)}, nil
}

// updateCondition sets cond in st as podutil.UpdatePodCondition does
// (api.UpdatePodCondition), keeping the condition's observedGeneration,
// and reports whether anything changed. Times are kept to the second, as
// the API serializes them.
func updateCondition(st *api.PodStatus, cond api.PodCondition, now time.Time) bool {
	for i := range st.Conditions {
		if st.Conditions[i].Type == cond.Type {
			cond.ObservedGeneration = st.Conditions[i].ObservedGeneration
			break
		}
	}
	return api.UpdatePodCondition(st, cond, api.NewTime(now.Truncate(time.Second)))
}

// numFeasibleNodesToFind is how many feasible nodes end the search
// (upstream's numFeasibleNodesToFind): all nodes below 100, else a
// percentage of them (adaptive when 0), at least 100.
func numFeasibleNodesToFind(percentage int32, numAllNodes int) int {
	const minFeasibleNodesToFind, minFeasibleNodesPercentageToFind = 100, 5
	if numAllNodes < minFeasibleNodesToFind {
		return numAllNodes
	}
	p := int(percentage)
	if p <= 0 {
		p = 50 - numAllNodes/125
		if p < minFeasibleNodesPercentageToFind {
			p = minFeasibleNodesPercentageToFind
		}
	}
	n := numAllNodes * p / 100
	if n < minFeasibleNodesToFind {
		return minFeasibleNodesToFind
	}
	return n
}

// schedule picks a node for pod (schedulePod): filter from where the last
// search stopped until enough feasible nodes are found, then score them;
// a FitError or ErrNoNodesAvailable if none fits.
func (s *scheduler) schedule(pod *api.Pod, nominated string) (string, error) {
	nodes := s.cache.packedList()
	if len(nodes) == 0 {
		return "", ErrNoNodesAvailable
	}
	pi := newPodInfo(pod)
	s.potential = s.potential[:0]
	s.nominatedUnresolvable = false
	// NodeAffinity's PreFilter, the first of the default profile's: a pod
	// whose terms name its nodes is filtered on those only.
	var restricted bool
	s.names, restricted = affinityNodeNames(pi.required, s.names)
	if restricted && len(s.names) == 0 {
		return "", &PreFilterError{NumAllNodes: len(nodes), Msg: MsgNodeAffinityConflict}
	}
	if s.vol != nil {
		st, err := s.vol.preFilter(pod, len(nodes))
		if err != nil {
			return "", err
		}
		pi.volumes, pi.binder, s.volState = st, s.vol, st
	}
	if f, ok := s.cache.spreadFilterIndexed(pi); ok {
		pi.spread = f
	} else {
		pi.spread = newSpreadFilter(pi, nodes)
	}
	pi.interPod = s.cache.interPodFilterIndexed(pi)
	if ni := s.cache.nodes[nominated]; ni != nil && ni.node != nil {
		// evaluateNominatedNode: the node preemption made room on is
		// taken without a search if the pod fits it now.
		if len(filter(pi, s.withNominated(pi, ni), s.reasons[:0])) == 0 {
			return ni.name, nil
		}
	}
	candidates := nodes
	if restricted {
		// The named nodes that exist, in the order the terms name them
		// (upstream's order is a set's); the others are left out.
		s.candidates = s.candidates[:0]
		for _, name := range s.names {
			if ni := s.cache.nodes[name]; ni != nil && ni.node != nil {
				s.candidates = append(s.candidates, ni)
			}
		}
		candidates = s.candidates
	}
	want := numFeasibleNodesToFind(s.opts.PercentageOfNodesToScore, len(candidates))
	feasible := s.feasible[:0]
	var reasons map[string]int
	processed := 0
	// No pod waits for a preemption's room (nearly always): the filters
	// take each node as it is, without withNominated's lookup.
	nominating := len(s.cache.nominated) > 0
	// A pod whose score is NodeResourcesFit's and BalancedAllocation's
	// alone (scoredByFitAlone) is scored in the search, each feasible
	// node as it is found, while its record is in the processor's cache;
	// at 3,000 nodes a second pass over the 780 found read each from
	// memory again. A feasible node with a PreferNoSchedule taint would
	// make TaintToleration's score count: the search then stops scoring
	// and the scorer scores them all, as for any other pod.
	fitOnly := s.fitOnly[:0]
	scoring := scoredByFitAlone(pi, s.cache)
	balanced := balancedAllocationApplies(pi)
	// A plain pod's filters are fitsPlainly's few comparisons on the
	// nodes they pass; filter decides the others, with their reasons.
	plain := pi.plain() && !nominating
	// Such a pod's score on a node that has not changed since a pod of
	// the same shape was scored there is the one that pod got: known
	// holds them by position in the order (nodes), so that the search
	// passes such a node without reading its nodeInfo. Kept only where
	// fitsPlainly passed (what a toleration or another filter let
	// through depends on more than the shape).
	var known *shapeScores
	if plain && scoring && !restricted {
		known = s.cache.knownScores(fitShape{reqCPU: pi.req.milliCPU, reqMem: pi.req.memory,
			nzCPU: pi.nonZero.milliCPU, nzMem: pi.nonZero.memory, balanced: balanced})
	}
	// The search starts at nextStart (modulo the candidates, fewer than
	// the nodes when NodeAffinity's PreFilter named them) and wraps
	// around: j steps with i, without a division per node. No
	// candidates (the named nodes do not exist): no search.
	j := 0
	if len(candidates) > 0 {
		j = s.nextStart % len(candidates)
	}
	for i := 0; i < len(candidates) && len(feasible) < want; i++ {
		ni, pos := candidates[j], j
		if j++; j == len(candidates) {
			j = 0
		}
		processed++
		if known != nil {
			if v, ok := known.kept(known.scores[pos]); ok {
				feasible = append(feasible, ni)
				if scoring {
					fitOnly = append(fitOnly, v)
				}
				continue
			}
		}
		plainFit := plain && fitsPlainly(&pi.req, ni)
		if plainFit {
			s.reasons = s.reasons[:0]
		} else {
			filtered := ni
			if nominating {
				filtered = s.withNominated(pi, ni)
			}
			s.reasons = filter(pi, filtered, s.reasons[:0])
		}
		if len(s.reasons) == 0 {
			feasible = append(feasible, ni)
			if scoring {
				if ni.softTaints {
					scoring = false
					continue
				}
				// TaintToleration's constant, as score adds it when no
				// node has an intolerable PreferNoSchedule taint.
				v := fitScore(pi, ni, balanced) + weightTaintToleration*MaxNodeScore
				fitOnly = append(fitOnly, v)
				if known != nil && plainFit {
					if e, ok := known.keep(v); ok {
						known.scores[pos] = e
					}
				}
			}
			continue
		}
		if reasons == nil {
			reasons = map[string]int{}
		}
		for _, r := range s.reasons {
			reasons[r]++
		}
		if unresolvable(s.reasons[0]) || fitUnresolvable(s.reasons, &pi.req, ni) {
			s.nominatedUnresolvable = s.nominatedUnresolvable || ni.name == nominated
		} else {
			s.potential = append(s.potential, ni)
		}
	}
	s.nextStart = (s.nextStart + processed) % len(nodes)
	s.feasible, s.fitOnly = feasible, fitOnly
	switch len(feasible) {
	case 0:
		if left := len(nodes) - len(candidates); left > 0 {
			if reasons == nil {
				reasons = map[string]int{}
			}
			reasons[ReasonNodeAffinityPreFilter] += left
		}
		return "", &FitError{NumAllNodes: len(nodes), Reasons: reasons}
	case 1:
		return feasible[0].name, nil
	}
	if scoring {
		return feasible[selectHost(fitOnly, s.rng)].name, nil
	}
	scores := s.sc.score(pi, nodes, feasible, s.cache)
	return feasible[selectHost(scores, s.rng)].name, nil
}
