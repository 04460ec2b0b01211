package nodelifecycle

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// EvictionActor is the identity kube-controller-manager runs the taint
// eviction controller as.
const EvictionActor = "system:serviceaccount:kube-system:taint-eviction-controller"

// EvictionName is the taint eviction controller's name in its manager and
// the source component of its events.
const EvictionName = "taint-eviction-controller"

// DefaultEvictionWorkers is the taint eviction controller's worker count
// (upstream's UpdateWorkerSize, 8).
const DefaultEvictionWorkers = 8

// Taint eviction's pod condition, event reason and messages, verbatim
// from upstream.
const (
	// ReasonTaintManagerEviction is the reason of the Normal events the
	// taint eviction controller records on pods.
	ReasonTaintManagerEviction = "TaintManagerEviction"
	// ReasonDeletionByTaintManager is the DisruptionTarget condition's
	// reason on an evicted pod.
	ReasonDeletionByTaintManager = "DeletionByTaintManager"
	// MessageDeletionByTaintManager goes with ReasonDeletionByTaintManager.
	MessageDeletionByTaintManager = "Taint manager: deleting due to NoExecute taint"
	// evictionRetries is how many times a pod deletion is tried at once
	// (upstream's retries, 5), 10ms apart.
	evictionRetries = 5
)

// EvictionOptions configure the taint eviction controller; zero fields
// take the defaults.
type EvictionOptions struct {
	// Workers is the number of pods and nodes handled at once (default 8).
	Workers int
	// Observer, if set, is told of every reconcile.
	Observer controller.Observer
}

// noExecuteTaints returns the NoExecute taints of a node.
func noExecuteTaints(taints []api.Taint) []api.Taint {
	var out []api.Taint
	for _, t := range taints {
		if t.Effect == api.TaintEffectNoExecute {
			out = append(out, t)
		}
	}
	return out
}

// EvictionTime returns when a pod with tolerations must leave a node with
// the NoExecute taints, as upstream's taint manager decides: now if a
// taint is not tolerated, or if the toleration used for it (the first that
// tolerates it) allows 0 seconds or less; never (ok false) if every used
// toleration has no tolerationSeconds; else the earliest of each taint's
// timeAdded (now when unset) plus its toleration's seconds. Upstream
// counts from when its taint manager first saw the taint; counting from
// timeAdded gives the same time without that memory, so a restarted
// controller does not restart the count.
func EvictionTime(tolerations []api.Toleration, taints []api.Taint, now time.Time) (at time.Time, ok bool) {
	at, ok, _ = evictionTime(tolerations, taints, now)
	return at, ok
}

// evictionTime is EvictionTime, also reporting whether a taint is not
// tolerated at all (upstream's !allTolerated, which alone overrides an
// eviction already scheduled).
func evictionTime(tolerations []api.Toleration, taints []api.Taint, now time.Time) (at time.Time, ok, untolerated bool) {
	found := false
	for i := range taints {
		taint := &taints[i]
		var used *api.Toleration
		for j := range tolerations {
			if tolerations[j].ToleratesTaint(taint) {
				used = &tolerations[j]
				break
			}
		}
		if used == nil {
			return now, true, true // not tolerated: evict at once
		}
		if used.TolerationSeconds == nil || *used.TolerationSeconds == math.MaxInt64 {
			// Tolerated forever: upstream's getMinTolerationTime takes
			// math.MaxInt64 seconds for "forever" too. Any other count
			// past what a Duration holds is some 292 years
			// (SecondsDuration), where upstream's Duration wraps.
			continue
		}
		secs := *used.TolerationSeconds
		if secs <= 0 {
			return now, true, false
		}
		from := now
		if taint.TimeAdded != nil {
			from = taint.TimeAdded.Time
		}
		due := from.Add(api.SecondsDuration(secs))
		if !found || due.Before(at) {
			at, found = due, true
		}
	}
	return at, found, false
}

// evictor is the NoExecute taint manager (k/k pkg/controller/tainteviction)
// as a reconciler: a request with an empty namespace is a node whose
// NoExecute taints changed (its pods are enqueued), any other a pod to
// evaluate.
type evictor struct {
	client   client.Client
	recorder client.EventRecorder
	clock    client.Clock
	nodes    informer.Lister
	pods     informer.Lister
	enqueue  func(api.Key)
	// scheduled are the pods with a deletion pending and its time
	// (upstream's TimedWorkerQueue): kept when the pod or node changes,
	// for the cancellation event when called off.
	scheduled map[api.Key]time.Time
}

// SetupEviction registers the taint eviction controller with m: informers
// on Nodes and Pods, and a controller named "taint-eviction-controller"
// that deletes pods from nodes with NoExecute taints they do not tolerate
// (at once) or tolerate for a while (when the time is up), with the
// Normal event TaintManagerEviction "Marking for deletion Pod <ns>/<name>"
// and the DisruptionTarget condition. Run it in the node lifecycle
// controller's manager (as kube-controller-manager did until 1.29) or in
// its own, acting as EvictionActor.
func SetupEviction(m *controller.Manager, opts EvictionOptions) error {
	if opts.Workers <= 0 {
		opts.Workers = DefaultEvictionWorkers
	}
	nodeInf, err := m.Informer(api.KindNode, informer.Options{})
	if err != nil {
		return err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	// The pods of a node, as upstream's spec.nodeName indexer files them.
	podInf.AddIndex(informer.IndexNodeName, informer.ByNodeName)
	e := &evictor{
		client: m.Client(), recorder: m.Recorder(EvictionName), clock: m.Clock(),
		nodes: nodeInf.Lister(), pods: podInf.Lister(), scheduled: map[api.Key]time.Time{},
	}
	c, err := m.NewController(EvictionName, controller.Options{Workers: opts.Workers, Observer: opts.Observer}, e)
	if err != nil {
		return err
	}
	e.enqueue = func(k api.Key) { c.Enqueue(controller.Request{Key: k}) }
	podInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc: func(obj api.Object) {
			e.enqueue(obj.GetObjectMeta().Key())
		},
		UpdateFunc: func(old, obj api.Object) {
			o, ok1 := old.(*api.Pod)
			p, ok2 := obj.(*api.Pod)
			if ok1 && ok2 && o.Spec.NodeName == p.Spec.NodeName && sameTolerations(o.Spec.Tolerations, p.Spec.Tolerations) {
				return
			}
			e.enqueue(obj.GetObjectMeta().Key())
		},
		DeleteFunc: func(obj api.Object) {
			e.enqueue(obj.GetObjectMeta().Key())
		},
	})
	nodeKey := func(obj api.Object) { e.enqueue(api.Key{Name: obj.GetObjectMeta().Name}) }
	nodeInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc: nodeKey,
		UpdateFunc: func(old, obj api.Object) {
			o, ok1 := old.(*api.Node)
			n, ok2 := obj.(*api.Node)
			if ok1 && ok2 && slices.EqualFunc(noExecuteTaints(o.Spec.Taints), noExecuteTaints(n.Spec.Taints), sameTaint) {
				return
			}
			nodeKey(obj)
		},
		DeleteFunc: nodeKey,
	})
	return nil
}

// sameTolerations reports whether two pods' tolerations are the same:
// the very same list without reading it (api.SameElements: a status
// write keeps its pod's spec, and the old pod's list is out of the
// caches at scale), else element by element.
func sameTolerations(a, b []api.Toleration) bool {
	return api.SameElements(a, b) || slices.EqualFunc(a, b, sameToleration)
}

func sameToleration(a, b api.Toleration) bool {
	if a.Key != b.Key || a.Operator != b.Operator || a.Value != b.Value || a.Effect != b.Effect {
		return false
	}
	if (a.TolerationSeconds == nil) != (b.TolerationSeconds == nil) {
		return false
	}
	return a.TolerationSeconds == nil || *a.TolerationSeconds == *b.TolerationSeconds
}

// Reconcile handles a node (enqueue its pods) or a pod (evict, schedule
// or cancel).
func (e *evictor) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	if req.Namespace == "" {
		for _, o := range e.pods.ByIndex(informer.IndexNodeName, req.Name) {
			e.enqueue(o.GetObjectMeta().Key())
		}
		return controller.Result{}, nil
	}
	return e.reconcilePod(ctx, req.Key)
}

// cancel forgets a pending deletion, with upstream's event.
func (e *evictor) cancel(key api.Key) {
	if _, ok := e.scheduled[key]; !ok {
		return
	}
	delete(e.scheduled, key)
	ref := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Namespace: key.Namespace, Name: key.Name}}
	e.recorder.Eventf(ref, client.EventTypeNormal, ReasonTaintManagerEviction, "Cancelling deletion of Pod %s", key.String())
}

func (e *evictor) reconcilePod(ctx context.Context, key api.Key) (controller.Result, error) {
	p, ok := informer.GetAs[*api.Pod](e.pods, key)
	if !ok {
		e.cancel(key)
		return controller.Result{}, nil
	}
	if p.Spec.NodeName == "" || p.DeletionTimestamp != nil {
		// Not bound, or already on its way out.
		return controller.Result{}, nil
	}
	now := e.clock.Now()
	n, ok := informer.GetAs[*api.Node](e.nodes, api.Key{Name: p.Spec.NodeName})
	if !ok {
		// Upstream's handleNodeUpdate only forgets a deleted node's
		// taints: a deletion already scheduled still fires.
		return e.fire(ctx, p, now)
	}
	taints := noExecuteTaints(n.Spec.Taints)
	if len(taints) == 0 {
		e.cancel(key)
		return controller.Result{}, nil
	}
	at, due, untolerated := evictionTime(p.Spec.Tolerations, taints, now)
	switch {
	case untolerated:
		// Upstream cancels what was scheduled (with its event) and
		// deletes at once.
		e.cancel(key)
		return controller.Result{}, e.evict(ctx, p)
	case !due:
		e.cancel(key) // tolerated forever
		return controller.Result{}, nil
	}
	if _, ok := e.scheduled[key]; !ok {
		e.scheduled[key] = at
	}
	// A deletion already scheduled keeps its time, whatever the new
	// tolerations or taints (upstream's processPodOnNode keeps the
	// scheduled work: its CreatedAt plus the new toleration is always
	// before now plus it); only an untolerated taint, a forever
	// toleration or the taints' removal call it off.
	return e.fire(ctx, p, now)
}

// fire deletes the pod if its scheduled deletion is due, or requeues it
// for then; nothing when none is scheduled.
func (e *evictor) fire(ctx context.Context, p *api.Pod, now time.Time) (controller.Result, error) {
	key := p.Key()
	at, ok := e.scheduled[key]
	if !ok {
		return controller.Result{}, nil
	}
	if now.Before(at) {
		return controller.Result{RequeueAfter: at.Sub(now)}, nil
	}
	delete(e.scheduled, key)
	return controller.Result{}, e.evict(ctx, p)
}

// evict is upstream's deletePodHandler: the event, then the
// DisruptionTarget condition and the delete, tried a few times.
func (e *evictor) evict(ctx context.Context, p *api.Pod) error {
	e.recorder.Eventf(p, client.EventTypeNormal, ReasonTaintManagerEviction, "Marking for deletion Pod %s", p.Key().String())
	var err error
	for try := range evictionRetries {
		if try > 0 {
			e.clock.Sleep(10 * time.Millisecond)
		}
		if err = e.conditionAndDelete(ctx, p.Key()); err == nil || errors.Is(err, apierr.ErrNotFound) {
			return nil
		}
	}
	return fmt.Errorf("evict pod %s: %w", p.Key(), err)
}

// conditionAndDelete is upstream's addConditionAndDeletePod.
func (e *evictor) conditionAndDelete(ctx context.Context, key api.Key) error {
	p, err := client.GetAs[*api.Pod](ctx, e.client, key)
	if err != nil {
		return err
	}
	if p.DeletionTimestamp != nil {
		return nil // someone else deleted it meanwhile
	}
	cond := api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: ReasonDeletionByTaintManager, Message: MessageDeletionByTaintManager}
	if updatePodCondition(&p.Status, cond, e.clock.Now()) {
		if p, err = client.UpdateStatusAs(ctx, e.client, p); err != nil {
			return err
		}
	}
	return e.client.Delete(ctx, api.KindPod, key, client.Preconditions(p.UID, ""))
}

// updatePodCondition is api.UpdatePodCondition (upstream's
// podutil.UpdatePodCondition) at now, to the second as the API
// serializes times.
func updatePodCondition(status *api.PodStatus, cond api.PodCondition, now time.Time) bool {
	return api.UpdatePodCondition(status, cond, api.NewTime(now.Truncate(time.Second)))
}
