package garbagecollector

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity kube-controller-manager runs the garbage collector
// as.
const Actor = "system:serviceaccount:kube-system:generic-garbage-collector"

// Component is the source component of the collector's events.
const Component = "garbage-collector-controller"

// The names of the collector's two controllers (upstream's work queues
// garbage_collector_attempt_to_delete and _attempt_to_orphan); workers are
// "<manager>/<name>/worker-<i>".
const (
	// DeleteName is the controller that deletes dependents and finishes
	// foreground deletions.
	DeleteName = "garbage-collector-attempt-to-delete"
	// OrphanName is the controller that finishes orphan deletions.
	OrphanName = "garbage-collector-attempt-to-orphan"
)

// DefaultWorkers is the default number of workers of each queue:
// kube-controller-manager's --concurrent-gc-syncs, 20.
const DefaultWorkers = 20

// absentOwnerCacheSize bounds the cache of owners known to be absent
// (upstream's 500).
const absentOwnerCacheSize = 500

// Retries of a finalizer removal that conflicts, after client-go's
// retry.DefaultBackoff (4 steps from 10ms, factor 5; without its jitter).
const (
	finalizerRetries = 4
	finalizerBackoff = 10 * time.Millisecond
	finalizerFactor  = 5
)

// Ignored are the kinds the collector never monitors, after
// kube-controller-manager's default ignored resources (events; see
// k8s.io/kubernetes/pkg/controller/garbagecollector/config/v1alpha1
// defaults.go): every other kind the API serves is watched, as owner and as
// dependent, custom kinds included.
var Ignored = []api.Kind{api.KindEvent}

// Monitored returns the kinds the collector watches in a cluster serving
// kinds: every one but Ignored, sorted. These are the kinds served when
// the collector starts; a kind a CustomResourceDefinition defines later is
// monitored from the moment the collector's informer of definitions sees
// it (see monitors.defined).
func Monitored(kinds *api.Registry) []api.Kind {
	var out []api.Kind
	for _, k := range kinds.Kinds() {
		if !slices.Contains(Ignored, k) {
			out = append(out, k)
		}
	}
	return out
}

// Errors of the collector.
var (
	// ErrUnknownOwnerKind: an owner reference names a kind the API does
	// not serve; the dependent is retried with back-off, as upstream does
	// for a REST mapping failure.
	ErrUnknownOwnerKind = errors.New("owner reference to an unknown kind")
	// errVirtualDelete: the item is gone and was removed from the graph;
	// nothing to retry.
	errVirtualDelete = errors.New("enqueued virtual delete event")
	// errNamespacedOwner: a cluster-scoped object names a namespaced
	// owner, which can never resolve; nothing to retry.
	errNamespacedOwner = errors.New("cluster-scoped object cannot refer to namespace-scoped owner")
)

// Options configure the collector; zero fields take the defaults.
type Options struct {
	// Workers is the number of workers of each of the two queues
	// (default 20).
	Workers int
	// Kinds are the kinds to monitor; nil means Monitored(the manager's
	// discovery).
	Kinds []api.Kind
}

// collector acts on the graph: upstream's GarbageCollector.
type collector struct {
	client client.Client
	clock  client.Clock
	graph  *graph
	kinds  *api.Registry // discovery: how each kind is served
}

// Setup registers the garbage collector with m: an informer per monitored
// kind feeding the ownership graph, and the attemptToDelete and
// attemptToOrphan controllers with opts.Workers workers each.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Workers <= 0 {
		opts.Workers = DefaultWorkers
	}
	reg := m.Kinds()
	kinds := opts.Kinds
	if kinds == nil {
		kinds = Monitored(reg)
	}
	gc := &collector{client: m.Client(), clock: m.Clock(), graph: newGraph(), kinds: reg}
	mon := &monitors{m: m, graph: gc.graph, kinds: reg}
	for _, k := range kinds {
		if err := mon.add(k); err != nil {
			return err
		}
	}
	if opts.Kinds == nil && mon.has(api.KindCustomResourceDefinition) {
		// Kinds defined later in the run are monitored from the moment
		// the collector sees their definition.
		inf, err := m.Informer(api.KindCustomResourceDefinition, informer.Options{})
		if err != nil {
			return fmt.Errorf("garbage collector: %w", err)
		}
		inf.AddEventHandler(informer.HandlerFuncs{AddFunc: mon.defined, UpdateFunc: func(_, o api.Object) { mon.defined(o) }})
	}
	del, err := m.NewController(DeleteName, controller.Options{Workers: opts.Workers}, controller.ReconcilerFunc(gc.reconcileDelete))
	if err != nil {
		return err
	}
	orphan, err := m.NewController(OrphanName, controller.Options{Workers: opts.Workers}, controller.ReconcilerFunc(gc.reconcileOrphan))
	if err != nil {
		return err
	}
	rec := m.Recorder(Component)
	gc.graph.report = func(n *node, ref api.OwnerReference) {
		reportInvalidNamespaceOwnerRef(rec, n, ref)
	}
	gc.graph.enqueueDelete = func(n *node) { del.Enqueue(requestFor(n)) }
	gc.graph.enqueueOrphan = func(n *node) { orphan.Enqueue(requestFor(n)) }
	return nil
}

// monitors are the collector's informers feeding the graph, one per kind
// (upstream's GraphBuilder.monitors).
type monitors struct {
	m     *controller.Manager
	graph *graph
	kinds *api.Registry
	seen  []api.Kind
}

// has reports whether kind is monitored.
func (mon *monitors) has(kind api.Kind) bool { return slices.Contains(mon.seen, kind) }

// add starts monitoring kind (once: one handler per informer).
func (mon *monitors) add(kind api.Kind) error {
	if mon.has(kind) {
		return nil
	}
	mon.seen = append(mon.seen, kind)
	inf, err := mon.m.Informer(kind, informer.Options{})
	if err != nil {
		return fmt.Errorf("garbage collector: %w", err)
	}
	inf.AddEventHandler(informer.HandlerFuncs{AddFunc: mon.graph.onAdd, UpdateFunc: mon.graph.onUpdate, DeleteFunc: mon.graph.onDelete})
	return nil
}

// defined monitors the kind a CustomResourceDefinition defines once the
// API serves it. Upstream's collector finds new resources by polling
// discovery every 30 seconds (GarbageCollector.Sync, started with a 30s
// period by kube-controller-manager's startGarbageCollectorController);
// the simulator's collector reacts to the definition itself, so a custom
// kind is monitored within a watch event of being defined rather than
// within 30 seconds. A dependent created before that is not lost: its
// owner is a virtual node checked with live reads until the kind's
// informer lists it.
func (mon *monitors) defined(o api.Object) {
	crd, ok := o.(*api.CustomResourceDefinition)
	if !ok {
		return
	}
	kind := crd.ResourceInfo().Kind
	if _, served := mon.kinds.Lookup(kind); !served || slices.Contains(Ignored, kind) {
		return
	}
	if err := mon.add(kind); err != nil {
		// An informer of a served kind with no options cannot fail.
		panic(fmt.Sprintf("garbage collector invariant served-kind-monitor: %v", err))
	}
}

// requestFor names a node in a work queue: its uid, with its namespace for
// readability. Workers look the uid up in the graph.
func requestFor(n *node) controller.Request {
	return controller.Request{Key: api.Key{Namespace: n.id.Namespace, Name: string(n.id.UID)}}
}

// reconcileDelete is upstream's attemptToDeleteWorker for one node.
func (gc *collector) reconcileDelete(ctx context.Context, req controller.Request) (controller.Result, error) {
	n := gc.graph.node(api.UID(req.Name))
	if n == nil {
		// Gone from the graph meanwhile: an observed deletion already
		// told its dependents.
		return controller.Result{}, nil
	}
	err := gc.attemptToDeleteItem(ctx, n)
	switch {
	case errors.Is(err, errVirtualDelete), errors.Is(err, errNamespacedOwner):
		return controller.Result{}, nil
	case err != nil:
		return controller.Result{}, err
	case n.virtual:
		// Not observed through an informer yet (or of a kind nobody
		// watches): look again later, so that a virtual node for an
		// object created and removed unseen cannot linger.
		return controller.Result{Requeue: true}, nil
	}
	return controller.Result{}, nil
}

// reconcileOrphan is upstream's attemptToOrphanWorker for one owner: remove
// its references from every dependent, then its orphan finalizer.
func (gc *collector) reconcileOrphan(ctx context.Context, req controller.Request) (controller.Result, error) {
	owner := gc.graph.node(api.UID(req.Name))
	if owner == nil {
		return controller.Result{}, nil
	}
	if err := gc.orphanDependents(ctx, owner.id, owner.sortedDependents()); err != nil {
		return controller.Result{}, err
	}
	return controller.Result{}, gc.removeFinalizer(ctx, owner, api.FinalizerOrphanDependents)
}

// get reads the live object with identity id.
func (gc *collector) get(ctx context.Context, id objectRef) (api.Object, error) {
	info, ok := gc.kinds.Lookup(api.KindFor(id.APIVersion, id.Kind))
	if !ok {
		return nil, fmt.Errorf("%w: %s %s", ErrUnknownOwnerKind, id.APIVersion, id.Kind)
	}
	ns := id.Namespace
	if !info.Namespaced {
		ns = ""
	} else if ns == "" {
		// A namespaced kind without a namespace: a cluster-scoped
		// object named it as its owner (a virtual node in no namespace).
		// It cannot be looked up, and must not be taken for absent: that
		// would collect the cluster-scoped object (upstream's getObject,
		// issue #98040).
		return nil, errNamespacedOwner
	}
	return gc.client.Get(ctx, info.Kind, api.Key{Namespace: ns, Name: id.Name})
}

// attemptToDeleteItem decides the fate of one node (upstream's function of
// the same name).
func (gc *collector) attemptToDeleteItem(ctx context.Context, item *node) error {
	// Being deleted is a one-way trip: wait for the deletion, whose event
	// takes care of the dependents.
	if item.beingDeleted && !item.deletingDependents {
		return nil
	}
	latest, err := gc.get(ctx, item.id)
	switch {
	case errors.Is(err, apierr.ErrNotFound):
		gc.graph.virtualDelete(item.id)
		return errVirtualDelete
	case err != nil:
		return err
	}
	lm := latest.GetObjectMeta()
	if lm.UID != item.id.UID {
		gc.graph.virtualDelete(item.id)
		return errVirtualDelete
	}
	if item.deletingDependents {
		return gc.processDeletingDependents(ctx, item)
	}
	refs := lm.OwnerReferences
	if len(refs) == 0 {
		return nil
	}
	solid, dangling, waiting, err := gc.classifyReferences(ctx, item, refs)
	if err != nil {
		return err
	}
	switch {
	case len(solid) != 0:
		if len(dangling) == 0 && len(waiting) == 0 {
			return nil
		}
		// Some owner is present: keep the object and drop the dangling
		// references, and those to owners waiting for their dependents
		// (else those owners would wait forever).
		uids := append(uidsOf(dangling), uidsOf(waiting)...)
		return gc.removeOwnerRefs(ctx, latest, uids)
	case len(waiting) != 0 && len(item.dependents) != 0:
		for _, dep := range item.sortedDependents() {
			if dep.deletingDependents {
				// A dependent that is itself waiting for its dependents
				// could form a cycle with us: stop blocking our owners.
				if err := gc.unblockOwnerReferences(ctx, latest); err != nil {
					return err
				}
				break
			}
		}
		// Delete in the foreground too, so our own dependents go first
		// and our owners' foreground deletion waits for them.
		return gc.deleted(item, gc.deleteObject(ctx, item.id, lm.ResourceVersion, refs, client.Foreground))
	default:
		// No owner is left: collect the object, honouring a propagation
		// its own finalizers already ask for.
		policy := client.Background
		switch {
		case hasFinalizer(lm, api.FinalizerOrphanDependents):
			policy = client.Orphan
		case hasFinalizer(lm, api.FinalizerDeleteDependents):
			policy = client.Foreground
		}
		return gc.deleted(item, gc.deleteObject(ctx, item.id, lm.ResourceVersion, refs, policy))
	}
}

// deleted is what attemptToDeleteItem makes of its delete's err: an item
// already gone (deleted by someone else since it was read) is removed from
// the graph at once, as a read finding it gone does, not retried (k/k PR
// #136817, issue #136525).
func (gc *collector) deleted(item *node, err error) error {
	if errors.Is(err, apierr.ErrNotFound) {
		gc.graph.virtualDelete(item.id)
		return errVirtualDelete
	}
	return err
}

// reportInvalidNamespaceOwnerRef is upstream's GraphBuilder method of the
// same name: a Warning OwnerRefInvalidNamespace about n, whose reference
// ref names an owner that is not in n's namespace.
func reportInvalidNamespaceOwnerRef(rec client.EventRecorder, n *node, ref api.OwnerReference) {
	involved := &api.Unstructured{
		TypeMeta:   api.TypeMeta{APIVersion: n.id.APIVersion, Kind: n.id.Kind},
		ObjectMeta: api.ObjectMeta{Namespace: n.id.Namespace, Name: n.id.Name, UID: n.id.UID},
	}
	invalid := objectRef{coordinates: coordinatesOf(ref), Namespace: n.id.Namespace}
	rec.Eventf(involved, client.EventTypeWarning, "OwnerRefInvalidNamespace", "ownerRef %s does not exist in namespace %q", invalid, n.id.Namespace)
}

func uidsOf(refs []api.OwnerReference) []api.UID {
	out := make([]api.UID, len(refs))
	for i, r := range refs {
		out[i] = r.UID
	}
	return out
}

// classifyReferences sorts item's owner references into solid (owner
// present), dangling (owner absent) and waitingForDependentsDeletion
// (owner present, being deleted in the foreground).
func (gc *collector) classifyReferences(ctx context.Context, item *node, refs []api.OwnerReference) (solid, dangling, waiting []api.OwnerReference, err error) {
	for _, ref := range refs {
		isDangling, owner, err := gc.isDangling(ctx, ref, item)
		if err != nil {
			return nil, nil, nil, err
		}
		if isDangling {
			dangling = append(dangling, ref)
			continue
		}
		om := owner.GetObjectMeta()
		if om.DeletionTimestamp != nil && hasFinalizer(om, api.FinalizerDeleteDependents) {
			waiting = append(waiting, ref)
		} else {
			solid = append(solid, ref)
		}
	}
	return solid, dangling, waiting, nil
}

// isDangling reports whether the owner ref names is absent: no object of
// that kind and name in item's namespace (or the cluster, for a
// cluster-scoped kind), or one with another uid. Absent owners are
// remembered. A present owner is returned.
func (gc *collector) isDangling(ctx context.Context, ref api.OwnerReference, item *node) (bool, api.Object, error) {
	key := objectRef{coordinates: coordinatesOf(ref)}
	if gc.graph.absent.has(key) {
		return true, nil, nil
	}
	key.Namespace = item.id.Namespace
	if gc.graph.absent.has(key) {
		return true, nil, nil
	}
	info, ok := gc.kinds.Lookup(api.KindFor(ref.APIVersion, ref.Kind))
	if !ok {
		return false, nil, fmt.Errorf("%w: %s %s", ErrUnknownOwnerKind, ref.APIVersion, ref.Kind)
	}
	if !info.Namespaced {
		key.Namespace = ""
	}
	if item.id.Namespace == "" && info.Namespaced {
		return false, nil, errNamespacedOwner
	}
	owner, err := gc.client.Get(ctx, info.Kind, api.Key{Namespace: key.Namespace, Name: ref.Name})
	switch {
	case errors.Is(err, apierr.ErrNotFound):
		gc.graph.absent.add(key)
		return true, nil, nil
	case err != nil:
		return false, nil, err
	}
	if owner.GetObjectMeta().UID != ref.UID {
		gc.graph.absent.add(key)
		return true, nil, nil
	}
	return false, owner, nil
}

// processDeletingDependents finishes a foreground deletion once no
// blocking dependent is left, or sends the blocking dependents to be
// deleted.
func (gc *collector) processDeletingDependents(ctx context.Context, item *node) error {
	blocking := item.blockingDependents()
	if len(blocking) == 0 {
		return gc.removeFinalizer(ctx, item, api.FinalizerDeleteDependents)
	}
	for _, dep := range blocking {
		if !dep.deletingDependents {
			gc.graph.enqueueDelete(dep)
		}
	}
	return nil
}

// deleteObject deletes the object id with policy, on condition that it is
// still the same incarnation and (when resourceVersion is set) unchanged.
// If it changed, but not its owner references, the delete is retried
// without the resourceVersion condition (upstream's deleteObject).
func (gc *collector) deleteObject(ctx context.Context, id objectRef, resourceVersion string, owners []api.OwnerReference, policy client.Propagation) error {
	info, ok := gc.kinds.Lookup(api.KindFor(id.APIVersion, id.Kind))
	if !ok {
		return fmt.Errorf("%w: %s %s", ErrUnknownOwnerKind, id.APIVersion, id.Kind)
	}
	err := gc.client.Delete(ctx, info.Kind, api.Key{Namespace: id.Namespace, Name: id.Name},
		client.Preconditions(id.UID, resourceVersion), client.PropagationPolicy(policy))
	if errors.Is(err, apierr.ErrConflict) && resourceVersion != "" {
		live, lerr := gc.get(ctx, id)
		switch {
		case errors.Is(lerr, apierr.ErrNotFound):
			return nil // gone: what we wanted
		case lerr != nil:
			return err
		case live.GetObjectMeta().UID != id.UID:
			return nil
		case reflect.DeepEqual(live.GetObjectMeta().OwnerReferences, owners):
			return gc.deleteObject(ctx, id, "", nil, policy)
		}
	}
	return err
}

// removeFinalizer removes finalizer f from the owner with an update,
// re-reading and retrying on conflict a few times; the work queue retries
// after that.
func (gc *collector) removeFinalizer(ctx context.Context, owner *node, f string) error {
	delay := finalizerBackoff
	var lastErr error
	for i := range finalizerRetries {
		obj, err := gc.get(ctx, owner.id)
		switch {
		case errors.Is(err, apierr.ErrNotFound):
			return nil
		case err != nil:
			return fmt.Errorf("cannot finalize owner %s, because cannot get it: %w", owner.id, err)
		}
		m := obj.GetObjectMeta()
		if m.UID != owner.id.UID || !hasFinalizer(m, f) {
			return nil // another incarnation, or already done
		}
		m.Finalizers = slices.DeleteFunc(slices.Clone(m.Finalizers), func(s string) bool { return s == f })
		if len(m.Finalizers) == 0 {
			m.Finalizers = nil
		}
		_, err = gc.client.Update(ctx, obj)
		if err == nil || !errors.Is(err, apierr.ErrConflict) {
			return err
		}
		lastErr = err
		if i < finalizerRetries-1 {
			gc.clock.Sleep(delay)
			delay *= finalizerFactor
		}
	}
	return fmt.Errorf("updateMaxRetries(%d) has reached. The garbage collector will retry later for owner %s: %w", finalizerRetries, owner.id, lastErr)
}

// metaPatch is the metadata of a patch; UID and ResourceVersion make the
// server refuse it (Conflict) for another incarnation or a changed object.
type metaPatch struct {
	OwnerReferences []api.OwnerReference `json:"ownerReferences"`
	UID             api.UID              `json:"uid"`
	ResourceVersion string               `json:"resourceVersion,omitempty"`
}

type objectPatch struct {
	Metadata metaPatch `json:"metadata"`
}

// removeOwnerRefs drops the references to owners from obj (as read) with
// a JSON merge patch of the remaining list, guarded by obj's uid and
// resourceVersion (upstream's deleteOwnerRefJSONMergePatch).
func (gc *collector) removeOwnerRefs(ctx context.Context, obj api.Object, owners []api.UID) error {
	m := obj.GetObjectMeta()
	refs := []api.OwnerReference{}
	for _, r := range m.OwnerReferences {
		if !slices.Contains(owners, r.UID) {
			refs = append(refs, r)
		}
	}
	if len(refs) == len(m.OwnerReferences) {
		return nil
	}
	body, err := json.Marshal(objectPatch{Metadata: metaPatch{OwnerReferences: refs, UID: m.UID, ResourceVersion: m.ResourceVersion}})
	if err != nil {
		return err
	}
	_, err = gc.client.Patch(ctx, api.KindOf(obj), m.Key(), client.MergePatch, body)
	return err
}

// unblockOwnerReferences sets blockOwnerDeletion to false on every
// reference of obj that blocks, with a strategic merge patch (references
// merge by uid) guarded by obj's uid.
func (gc *collector) unblockOwnerReferences(ctx context.Context, obj api.Object) error {
	m := obj.GetObjectMeta()
	var refs []api.OwnerReference
	for _, r := range m.OwnerReferences {
		if r.BlockOwnerDeletion != nil && *r.BlockOwnerDeletion {
			no := false
			r.BlockOwnerDeletion = &no
			refs = append(refs, r)
		}
	}
	if len(refs) == 0 {
		return nil
	}
	body, err := json.Marshal(objectPatch{Metadata: metaPatch{OwnerReferences: refs, UID: m.UID}})
	if err != nil {
		return err
	}
	_, err = gc.client.Patch(ctx, api.KindOf(obj), m.Key(), client.StrategicMergePatch, body)
	return err
}

// orphanDependents removes the references to owner from each dependent,
// reading each one first; dependents already gone or without the
// reference are skipped. The errors are joined.
func (gc *collector) orphanDependents(ctx context.Context, owner objectRef, deps []*node) error {
	var errs []error
	for _, dep := range deps {
		obj, err := gc.get(ctx, dep.id)
		switch {
		case errors.Is(err, apierr.ErrNotFound):
			continue
		case err != nil:
			errs = append(errs, fmt.Errorf("orphaning %s failed, %w", dep.id, err))
			continue
		}
		if obj.GetObjectMeta().UID != dep.id.UID {
			continue
		}
		if err := gc.removeOwnerRefs(ctx, obj, []api.UID{owner.UID}); err != nil && !errors.Is(err, apierr.ErrNotFound) {
			errs = append(errs, fmt.Errorf("orphaning %s failed, %w", dep.id, err))
		}
	}
	return errors.Join(errs...)
}
