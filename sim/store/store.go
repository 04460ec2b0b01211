package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clustersim/clustersim/sim/addrmemo"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/kernel"
)

// DefaultHistory is how many watch events a kind keeps for watches that
// start from an older resourceVersion (Kubernetes' watch cache keeps a
// comparable window). A watch from before the window gets 410 Expired.
const DefaultHistory = 1024

// BindingSubresource is the subresource of a pod's binding: an Update
// with it sets the pod's spec and status in one write, leaving
// metadata.generation and managedFields as they are (the API server's
// pods/binding writes to storage directly).
const BindingSubresource = "binding"

// Finalizers the store itself understands.
const (
	// FinalizerForeground holds an owner until its blocking dependents are
	// gone (foreground cascading deletion).
	FinalizerForeground = api.FinalizerDeleteDependents
	// FinalizerOrphan holds an owner until its dependents' ownerReferences
	// to it are removed (orphan deletion).
	FinalizerOrphan = api.FinalizerOrphanDependents
)

// Propagation is a delete's cascading policy (metav1.DeletionPropagation).
type Propagation string

// The three policies; "" means the kind's default, background.
const (
	PropagateBackground Propagation = "Background"
	PropagateForeground Propagation = "Foreground"
	PropagateOrphan     Propagation = "Orphan"
)

// Op identifies who writes and how, for the audit log.
type Op struct {
	// Actor is the authenticated user, e.g.
	// "system:serviceaccount:kube-system:deployment-controller".
	Actor string
	// Verb is recorded in the audit log ("create", "update", "patch",
	// "delete"); empty means the method's own verb.
	Verb string
	// FieldManager owns, in metadata.managedFields, the fields a create or
	// update sets; empty means Actor.
	FieldManager string
	// Applied, when set, makes the write a server-side apply by
	// FieldManager: its Apply entry then owns exactly the fields this
	// apply configuration sets (see PlanApply).
	Applied api.Object
}

// DeleteOptions are a delete's preconditions and policies.
type DeleteOptions struct {
	// Propagation is the cascading policy; "" is background.
	Propagation Propagation
	// GracePeriodSeconds overrides a pod's terminationGracePeriodSeconds;
	// 0 deletes a pod at once. Nil means the pod's own.
	GracePeriodSeconds *int64
	// PreconditionUID, when set, must equal the stored object's uid.
	PreconditionUID api.UID
	// PreconditionResourceVersion, when set, must equal the stored
	// object's resourceVersion.
	PreconditionResourceVersion string
}

// ListOptions select objects for List and Watch.
type ListOptions struct {
	// Namespace limits the result to one namespace; "" means all.
	Namespace string
	// Labels selects by label; nil means everything.
	Labels *api.Selector
	// NodeName, for pods, is the field selector spec.nodeName=<name>. Watches
	// with it are indexed, so a kubelet's watch costs nothing when other
	// nodes' pods change.
	NodeName string
	// Name is the field selector metadata.name=<name>. Watches with it
	// (and no NodeName) are indexed too, so a kubelet's watch of its own
	// Node costs nothing when other nodes change.
	Name string
}

// Store holds every object of a simulated cluster.
type Store struct {
	k      *kernel.Kernel
	rv     uint64
	tables map[api.Kind]*table
	// recentTables finds a kind's table by the address of its name
	// (addrmemo), without hashing the kind: callers name kinds by the
	// api package's variables, so a kind's name is the same string on
	// every write, and the map's lookup of both strings was 0.56 s of
	// the 5,000-node run's loop. Tables are never removed.
	recentTables addrmemo.Memo[kindTable]
	kinds        *api.Registry
	uids         *rand.Rand
	names        *rand.Rand
	audit        AuditLog
	history      int
	// delivering counts the notifications under way (a delivery may
	// write, and so notify again); pendingStops are the tables whose
	// watchers stopped during them, compacted when the last ends (see
	// Watch.Stop).
	delivering   int
	pendingStops []*table
	fields       map[reflect.Type]*fieldIndex // managedFields paths and sets, per Go type
	nowTime      *api.Time                    // the current second, shared by managedFields entries
	scratch      [2]idSet                     // reused by managed
	// resources are the pods' requests and limits, shared between pods.
	resources resourceLists
	// lists are the last managedFields lists written, shared between
	// objects (shareEntries); nextList is the one to replace next.
	lists    [sharedLists][]api.ManagedFieldsEntry
	nextList int
	// byManager is the last managedFields list each manager's creates
	// were given (shareEntries).
	byManager map[string][]api.ManagedFieldsEntry
	// ttls are the kinds with a time to live (SetTTL).
	ttls map[api.Kind]time.Duration
}

// New returns an empty store on kernel k keeping DefaultHistory watch
// events per kind.
func New(k *kernel.Kernel) *Store {
	return &Store{
		k:         k,
		tables:    make(map[api.Kind]*table),
		kinds:     api.NewRegistry(),
		uids:      k.Rand("store/uid"),
		names:     k.Rand("store/names"),
		history:   DefaultHistory,
		byManager: make(map[string][]api.ManagedFieldsEntry),
	}
}

// SetHistory sets how many watch events each kind keeps (at least 1). It
// applies to kinds first written after the call.
func (s *Store) SetHistory(n int) {
	if n < 1 {
		n = 1
	}
	s.history = n
}

// Compact forgets every kind's watch history, as etcd's compaction does:
// a watch resuming from any resourceVersion older than the current one
// fails with 410 Expired ("too old resource version") and its caller must
// list again. Live watches are not touched.
func (s *Store) Compact() {
	for _, t := range s.tables {
		t.histLen, t.histPos = 0, 0
		t.lowest = s.rv
	}
}

// ResourceVersion returns the store's current resourceVersion: that of the
// latest write.
func (s *Store) ResourceVersion() uint64 { return s.rv }

// Kinds returns the registry of the kinds the store serves: the built-in
// ones and those registered from CustomResourceDefinitions. Register a
// kind before its first object is written.
func (s *Store) Kinds() *api.Registry { return s.kinds }

// Audit returns the audit log.
func (s *Store) Audit() *AuditLog { return &s.audit }

// table is one kind's objects, history and watchers.
type table struct {
	s       *Store
	info    api.ResourceInfo
	objs    map[api.Key]storedObject // see storedObject
	keys    []api.Key                // sorted; rebuilt lazily after creates and removals
	sorted  bool
	hist    []Event // ring buffer
	histLen int
	histPos int
	// lowest is the lowest resourceVersion a watch may start from: every
	// event after it is still in hist.
	lowest uint64
	// numbers gives each stored object its slot number (Event.Hint).
	numbers  slotNumbers
	watchers []*Watch            // unindexed watchers, in registration order
	byNode   map[string][]*Watch // pod watchers with a spec.nodeName selector
	byName   map[string][]*Watch // other watchers with a metadata.name selector
	// stopped are the watchers stopped since the last compaction (see
	// compactWatchers).
	stopped []*Watch
	// words are the strings the table's frozen Events share (Events
	// only; nil until the first).
	words *frozenWords
	// leases expire the objects of a kind with a time to live (SetTTL);
	// nil for the others.
	leases *leases
}

// slotNumbers numbers a table's objects from 1, each for as long as it is
// stored, a number freed by a delete going to the next object created
// (last freed, first given): the numbers stay as few as the objects the
// table has held at once, so that a cache may keep its entries in a slice
// by number (Event.Hint).
type slotNumbers struct {
	next uint32
	free []uint32
}

func (n *slotNumbers) take() uint32 {
	if k := len(n.free); k > 0 {
		s := n.free[k-1]
		n.free = n.free[:k-1]
		return s
	}
	n.next++
	return n.next
}

func (n *slotNumbers) give(s uint32) { n.free = append(n.free, s) }

func (s *Store) table(kind api.Kind) (*table, error) {
	if e, ok := s.recentTables.Get(kind.Name); ok && e.group == kind.Group {
		return e.t, nil
	}
	if t, ok := s.tables[kind]; ok {
		s.rememberTable(kind, t)
		return t, nil
	}
	info, ok := s.kinds.Lookup(kind)
	if !ok {
		return nil, apierr.NewBadRequest(fmt.Sprintf("the server could not find the requested resource (kind %q)", kind.String()))
	}
	t := &table{s: s, info: info, objs: make(map[api.Key]storedObject), hist: make([]Event, s.history), lowest: s.rv, byNode: map[string][]*Watch{}, byName: map[string][]*Watch{}}
	if ttl, ok := s.ttls[kind]; ok {
		t.setTTL(ttl)
	}
	s.tables[kind] = t
	s.rememberTable(kind, t)
	return t, nil
}

// kindTable is a table in Store.recentTables, with its kind's group (the
// memo's key is the kind's name).
type kindTable struct {
	group string
	t     *table
}

// recentTableSlots are Store.recentTables' slots: a few for each kind a
// run writes.
const recentTableSlots = 64

// rememberTable puts kind's table t in the memo.
func (s *Store) rememberTable(kind api.Kind, t *table) {
	s.recentTables.Grow(recentTableSlots)
	s.recentTables.Put(kind.Name, kindTable{group: kind.Group, t: t})
}

// candidates returns the keys, in order, of the objects a selection may
// match: one key when it names one object (one name in one namespace, or
// of a cluster-scoped kind: a kubelet's node lister lists and watches its
// Node so, 5,000 kubelets at once), else every key of the kind.
func (t *table) candidates(opts *ListOptions) []api.Key {
	if opts.Name != "" && (opts.Namespace != "" || !t.info.Namespaced) {
		return []api.Key{{Namespace: opts.Namespace, Name: opts.Name}}
	}
	return t.sortedKeys()
}

func (t *table) sortedKeys() []api.Key {
	if !t.sorted {
		t.keys = t.keys[:0]
		for k := range t.objs {
			t.keys = append(t.keys, k)
		}
		slices.SortFunc(t.keys, func(a, b api.Key) int {
			if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
				return c
			}
			return strings.Compare(a.Name, b.Name)
		})
		t.sorted = true
	}
	return t.keys
}

func (s *Store) now() api.Time {
	return api.NewTime(s.k.Now().WallSecond())
}

func (s *Store) nextRV() uint64 {
	s.rv++
	return s.rv
}

// Get returns the stored object (shared: do not mutate; an Event is
// thawed afresh for each read, see frozenEvent).
func (s *Store) Get(kind api.Kind, key api.Key) (api.Object, error) {
	t, err := s.table(kind)
	if err != nil {
		return nil, err
	}
	o, ok := t.get(key)
	if !ok {
		return nil, apierr.NewNotFound(t.info.GroupResource(), key.Name)
	}
	return o, nil
}

// List returns the objects that match opts, sorted by namespace and name,
// and the store's resourceVersion at the time of the list (from which a
// watch continues without a gap). The objects are shared: do not mutate.
func (s *Store) List(kind api.Kind, opts ListOptions) ([]api.Object, uint64, error) {
	t, err := s.table(kind)
	if err != nil {
		return nil, 0, err
	}
	var out []api.Object
	for _, k := range t.candidates(&opts) {
		if opts.Namespace != "" && k.Namespace != opts.Namespace {
			continue
		}
		if o, ok := t.get(k); ok && matches(o, &opts) {
			out = append(out, o)
		}
	}
	return out, s.rv, nil
}

// Len returns the number of stored objects of a kind.
func (s *Store) Len(kind api.Kind) int {
	if t, ok := s.tables[kind]; ok {
		return len(t.objs)
	}
	return 0
}

func matches(o api.Object, opts *ListOptions) bool {
	m := o.GetObjectMeta()
	if opts.Namespace != "" && m.Namespace != opts.Namespace {
		return false
	}
	if opts.Name != "" && m.Name != opts.Name {
		return false
	}
	if opts.NodeName != "" && nodeNameOf(o) != opts.NodeName {
		return false
	}
	if opts.Labels != nil && !opts.Labels.Matches(m.Labels) {
		return false
	}
	return true
}

func nodeNameOf(o api.Object) string {
	if p, ok := o.(*api.Pod); ok {
		return p.Spec.NodeName
	}
	return ""
}

// AssignName gives an object with generateName and no name its generated
// name now, as the API server does before admission (so admission and its
// messages see the final name). Create does the same for objects that
// still have none.
func (s *Store) AssignName(obj api.Object) error {
	t, err := s.table(api.KindOf(obj))
	if err != nil {
		return err
	}
	return s.assignName(t, obj.GetObjectMeta())
}

func (s *Store) assignName(t *table, m *api.ObjectMeta) error {
	if m.Name != "" {
		return nil
	}
	if m.GenerateName == "" {
		return apierr.NewInvalid(kindGroup(t.info), "", apierr.FieldError{Field: "metadata.name", Type: "Required value", Detail: "name or generateName is required"})
	}
	// Retry a few times on a collision, as the API server does since
	// generated names became retried.
	for range 8 {
		m.Name = s.generateName(m.GenerateName)
		if _, taken := t.objs[m.Key()]; !taken {
			break
		}
	}
	return nil
}

// nameAlphabet is apimachinery's alphanums for generated names: no vowels
// (no accidental words) and no confusable characters.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

func (s *Store) generateName(prefix string) string {
	var b [5]byte
	for i := range b {
		b[i] = nameAlphabet[s.names.IntN(len(nameAlphabet))]
	}
	// Kubernetes cuts the prefix so that the name fits 63 characters.
	if len(prefix) > api.MaxGeneratedNameLength {
		prefix = prefix[:api.MaxGeneratedNameLength]
	}
	return prefix + string(b[:])
}

func (s *Store) newUID() api.UID {
	hi, lo := s.uids.Uint64(), s.uids.Uint64()
	hi = hi&^0xf000 | 0x4000         // version 4
	lo = lo&^(0xc<<60) | (0x8 << 60) // RFC 4122 variant
	return formatUID(frozenUID{hi: hi, lo: lo})
}

// hexTo writes v in lower-case hexadecimal into all of b, zero-padded
// (v fits in len(b) digits).
func hexTo(b []byte, v uint64) {
	const digits = "0123456789abcdef"
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = digits[v&0xf]
		v >>= 4
	}
}

// Create stores a new object and returns it as stored. obj becomes the
// store's. The store sets uid, creationTimestamp, resourceVersion and (for
// kinds that track it) generation 1, generates the name from generateName
// when name is empty, and clears status as the kind's strategy does.
func (s *Store) Create(op Op, obj api.Object) (api.Object, error) {
	kind := api.KindOf(obj)
	t, err := s.table(kind)
	if err != nil {
		return nil, err
	}
	m := obj.GetObjectMeta()
	gr := t.info.GroupResource()
	if err := checkScope(t.info, m); err != nil {
		return nil, err
	}
	if m.ResourceVersion != "" {
		return nil, apierr.NewBadRequest("resourceVersion should not be set on objects to be created")
	}
	if err := s.assignName(t, m); err != nil {
		return nil, err
	}
	if _, exists := t.objs[m.Key()]; exists {
		t.leaseAttempt()
		return nil, apierr.NewAlreadyExists(gr, m.Name)
	}
	m.UID = s.newUID()
	m.CreationTimestamp = s.now()
	m.DeletionTimestamp = nil
	m.DeletionGracePeriodSeconds = nil
	if t.info.Generation {
		m.Generation = 1
	} else {
		m.Generation = 0
	}
	prepareForCreate(obj, t.info)
	rv := s.nextRV()
	m.ResourceVersion = strconv.FormatUint(rv, 10)
	changes := s.audit.auditChanges(nil, obj)
	m.ManagedFields, _ = s.managed(op, nil, obj, changes, "", t.info.HasStatus)
	if p, ok := obj.(*api.Pod); ok {
		s.resources.internPod(p)
	}
	slot := t.numbers.take()
	t.objs[m.Key()] = t.storeObject(obj, slot, t.leaseFor(m.Key()))
	t.sorted = false
	s.audit.add(AuditRecord{Time: s.k.Now(), Actor: op.Actor, Verb: verbOr(op.Verb, "create"), Kind: kind, Key: m.Key(), ResourceVersion: rv}, changes)
	s.notify(t, Added, nil, obj, rv, slot)
	return obj, nil
}

func verbOr(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func kindGroup(info api.ResourceInfo) string { return info.Kind.GroupKind() }

func checkScope(info api.ResourceInfo, m *api.ObjectMeta) error {
	if info.Namespaced && m.Namespace == "" {
		return apierr.NewBadRequest("the namespace of the provided object is empty")
	}
	if !info.Namespaced && m.Namespace != "" {
		// The apiserver ignores a namespace on cluster-scoped objects.
		m.Namespace = ""
	}
	return nil
}

// prepareForCreate resets status as the kind's strategy does.
func prepareForCreate(obj api.Object, info api.ResourceInfo) {
	switch o := obj.(type) {
	case *api.Unstructured:
		if info.HasStatus {
			delete(o.Fields, "status")
		}
	case *api.Deployment:
		o.Status = api.DeploymentStatus{}
	case *api.ReplicaSet:
		o.Status = api.ReplicaSetStatus{}
	case *api.DaemonSet:
		o.Status = api.DaemonSetStatus{}
	case *api.HorizontalPodAutoscaler:
		o.Status = api.HorizontalPodAutoscalerStatus{}
	case *api.ResourceQuota:
		o.Status = api.ResourceQuotaStatus{}
	case *api.Service:
		o.Status = api.ServiceStatus{}
	case *api.Pod:
		o.Status = api.PodStatus{Phase: api.PodPending}
		if len(o.Spec.SchedulingGates) > 0 {
			// The pod strategy's applySchedulingGatedCondition: kubectl
			// shows such a pod as SchedulingGated, not Pending.
			o.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse,
				Reason: "SchedulingGated", Message: "Scheduling is blocked due to non-empty scheduling gates"}}
		}
	case *api.Namespace:
		o.Status = api.NamespaceStatus{Phase: api.NamespaceActive}
	case *api.Job:
		o.Status = api.JobStatus{}
		api.GenerateJobSelector(o) // needs the uid: the Job strategy's generateSelector
	case *api.CronJob:
		o.Status = api.CronJobStatus{}
	case *api.StatefulSet:
		o.Status = api.StatefulSetStatus{}
	case *api.PersistentVolumeClaim:
		o.Status = api.PersistentVolumeClaimStatus{Phase: api.ClaimPending} // the strategy's PrepareForCreate keeps a Pending phase
	case *api.PersistentVolume:
		o.Status = api.PersistentVolumeStatus{Phase: api.VolumePending}
	}
}

// statusIndex caches the index of the Status field per type
// (reflect.Type to int). It is shared by every store in the process, and
// several simulations may run side by side (clustersim run --seeds), so it
// is a sync.Map.
var statusIndex sync.Map

func statusField(v reflect.Value) (reflect.Value, bool) {
	t := v.Type()
	var i int
	if cached, ok := statusIndex.Load(t); ok {
		i = cached.(int)
	} else {
		f, found := t.FieldByName("Status")
		i = -1
		if found && len(f.Index) == 1 {
			i = f.Index[0]
		}
		statusIndex.Store(t, i)
	}
	if i < 0 {
		return reflect.Value{}, false
	}
	return v.Field(i), true
}

// Update replaces an object, or only its status when subresource is
// "status". obj becomes the store's. A non-empty resourceVersion must match
// the stored one (else Conflict); an empty one is an unconditional update.
// A main-resource update keeps the stored status; a status update keeps
// everything but status. An update that changes nothing keeps the stored
// object and its resourceVersion, and is recorded as a no-op.
func (s *Store) Update(op Op, obj api.Object, subresource string) (api.Object, error) {
	kind := api.KindOf(obj)
	t, err := s.table(kind)
	if err != nil {
		return nil, err
	}
	m := obj.GetObjectMeta()
	if t.info.Namespaced && m.Namespace == "" {
		return nil, apierr.NewBadRequest("the namespace of the provided object is empty")
	}
	if !t.info.Namespaced {
		m.Namespace = ""
	}
	gr := t.info.GroupResource()
	old, slot, ok := t.lookup(m.Key())
	if !ok {
		return nil, apierr.NewNotFound(gr, m.Name)
	}
	// A pod's binding (the API server's pods/binding) writes spec and
	// status at once, past the strategy and the field manager.
	binding := subresource == BindingSubresource && kind == api.KindPod
	if subresource != "" && !binding && (subresource != "status" || !t.info.HasStatus) {
		return nil, apierr.NewBadRequest(fmt.Sprintf("the server could not find the requested resource (%s %s/%s)", gr, m.Name, subresource))
	}
	om := old.GetObjectMeta()
	if m.ResourceVersion != "" && m.ResourceVersion != om.ResourceVersion {
		return nil, apierr.NewConflict(gr, m.Name, apierr.OptimisticLockErrorMsg)
	}
	if m.UID != "" && m.UID != om.UID {
		return nil, apierr.NewConflict(gr, m.Name, fmt.Sprintf("Precondition failed: UID in precondition: %v, UID in object meta: %v", m.UID, om.UID))
	}
	if subresource == "status" {
		obj = ForStatus(obj, old)
		m = obj.GetObjectMeta()
	} else {
		keepServerMeta(m, om)
		if t.info.HasStatus && !binding {
			copyStatus(obj, old)
		}
	}
	m.ResourceVersion = om.ResourceVersion
	changes := s.audit.auditChanges(old, obj)
	verb := verbOr(op.Verb, "update")
	// Field ownership: a server-side apply that changes no value may still
	// change who owns what, which is a write of its own.
	managed := om.ManagedFields
	ownersChanged := false
	if (len(changes) > 0 || op.Applied != nil) && !binding {
		managed, ownersChanged = s.managed(op, old, obj, changes, subresource, t.info.HasStatus)
	}
	if len(changes) == 0 && !ownersChanged {
		s.audit.add(AuditRecord{Time: s.k.Now(), Actor: op.Actor, Verb: verb, Subresource: subresource, Kind: kind, Key: m.Key(), ResourceVersion: s.parseRV(om.ResourceVersion), NoOp: true}, nil)
		return old, nil
	}
	m.ManagedFields = managed
	if subresource == "" && t.info.Generation && bumpsGeneration(t.info, changes) {
		m.Generation = om.Generation + 1
		changes = append(changes, Change{Path: "metadata.generation", Old: strconv.FormatInt(om.Generation, 10), New: strconv.FormatInt(m.Generation, 10), OldSet: true, NewSet: true})
	}
	rv := s.nextRV()
	m.ResourceVersion = strconv.FormatUint(rv, 10)
	rec := AuditRecord{Time: s.k.Now(), Actor: op.Actor, Verb: verb, Subresource: subresource, Kind: kind, Key: m.Key(), ResourceVersion: rv}
	if m.DeletionTimestamp != nil && len(m.Finalizers) == 0 && (m.DeletionGracePeriodSeconds == nil || *m.DeletionGracePeriodSeconds == 0) {
		// The last finalizer of a terminating object is gone: the object
		// leaves the store with this write. (A pod in its grace period
		// stays until the kubelet deletes it with grace 0.)
		delete(t.objs, m.Key())
		t.numbers.give(slot)
		t.sorted = false
		rec.Removed = true
		s.audit.add(rec, changes)
		s.notify(t, Deleted, old, obj, rv, slot)
		return obj, nil
	}
	t.objs[m.Key()] = t.storeObject(obj, slot, t.leaseFor(m.Key()))
	s.audit.add(rec, changes)
	s.notify(t, Modified, old, obj, rv, slot)
	return obj, nil
}

func (s *Store) parseRV(rv string) uint64 {
	n, _ := strconv.ParseUint(rv, 10, 64)
	return n
}

// bumpsGeneration: a spec change bumps generation; for Deployments an
// annotation change does too, because annotations are copied to
// ReplicaSets. A custom resource's generation moves with any change but
// to metadata and status (apiextensions-apiserver's customResourceStrategy
// PrepareForUpdate).
func bumpsGeneration(info api.ResourceInfo, changes []Change) bool {
	kind := info.Kind
	for _, c := range changes {
		if info.Custom {
			if !strings.HasPrefix(c.Path, "metadata.") && !(info.HasStatus && (c.Path == "status" || strings.HasPrefix(c.Path, "status."))) {
				return true
			}
			continue
		}
		if strings.HasPrefix(c.Path, "spec.") || c.Path == "spec" {
			return true
		}
		if kind == api.KindDeployment && strings.HasPrefix(c.Path, "metadata.annotations") {
			return true
		}
		// An EndpointSlice has no spec: any change but to its metadata,
		// or to its labels, bumps it (endpointSliceStrategy's
		// PrepareForUpdate), which is how its controller's tracker tells
		// its own writes from others'.
		if kind == api.KindEndpointSlice && (!strings.HasPrefix(c.Path, "metadata.") || strings.HasPrefix(c.Path, "metadata.labels")) {
			return true
		}
	}
	return false
}

// ForStatus returns the object a status write of obj over the stored
// old one stores, as the kind's status strategy's PrepareForUpdate makes
// it: the stored spec, and the stored metadata but the labels of the
// apps kinds (statusKeepsMetadata), or everything stored but the status.
// The request's resourceVersion and uid are kept for the preconditions.
// The API server validates this object, not the request, so a status
// write is neither refused for its spec nor changes it.
func ForStatus(obj, old api.Object) api.Object {
	m, om := obj.GetObjectMeta(), old.GetObjectMeta()
	if statusKeepsMetadata(api.KindOf(obj)) {
		// The apps strategies reset only spec and labels on a status
		// write: a Deployment's revision annotation arrives this way.
		keepServerMeta(m, om)
		m.Labels = om.Labels
		copySpec(obj, old)
		return obj
	}
	rv, uid := m.ResourceVersion, m.UID
	obj = withStatusOf(old, obj)
	m = obj.GetObjectMeta()
	m.ResourceVersion, m.UID = rv, uid
	return obj
}

// keepServerMeta restores the metadata the server owns on an update.
func keepServerMeta(m, old *api.ObjectMeta) {
	m.UID = old.UID
	m.CreationTimestamp = old.CreationTimestamp
	m.DeletionTimestamp = old.DeletionTimestamp
	m.DeletionGracePeriodSeconds = old.DeletionGracePeriodSeconds
	m.Generation = old.Generation
	m.GenerateName = old.GenerateName
}

// statusKeepsMetadata lists the kinds whose status strategy keeps the
// request's metadata (but labels), as k/k's apps strategies do; every
// other kind's status write changes status only
// (ResetObjectMetaForStatus).
func statusKeepsMetadata(k api.Kind) bool {
	return k == api.KindDeployment || k == api.KindReplicaSet || k == api.KindDaemonSet
}

// copySpec sets dst's spec to src's (same concrete type).
func copySpec(dst, src api.Object) {
	if du, ok := dst.(*api.Unstructured); ok {
		su := src.(*api.Unstructured)
		status, hasStatus := du.Fields["status"]
		du.Fields = maps.Clone(su.Fields)
		delete(du.Fields, "status")
		if hasStatus {
			if du.Fields == nil {
				du.Fields = api.Fields{}
			}
			du.Fields["status"] = status
		}
		return
	}
	dv, sv := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	if df := dv.FieldByName("Spec"); df.IsValid() {
		df.Set(sv.FieldByName("Spec"))
	}
}

// copyStatus sets dst's status to src's (same concrete type).
func copyStatus(dst, src api.Object) {
	if du, ok := dst.(*api.Unstructured); ok {
		su := src.(*api.Unstructured)
		du.Fields = maps.Clone(du.Fields)
		if status, ok := su.Fields["status"]; ok {
			if du.Fields == nil {
				du.Fields = api.Fields{}
			}
			du.Fields["status"] = status
		} else {
			delete(du.Fields, "status")
		}
		return
	}
	dv, sv := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	df, ok := statusField(dv)
	if !ok {
		return
	}
	sf, _ := statusField(sv)
	df.Set(sf)
}

// withStatusOf returns old (sharing its parts, which are immutable)
// carrying upd's status: a status update changes nothing else. A pod's
// or node's is upd itself, overwritten with all of old but its status:
// upd is the store's (Update's obj), and a status write's body is a
// fresh struct the server was given (the kubelets build one per write,
// the client copies one, the endpoint copies a duplicated request), so
// the write that keeps it allocates no second one.
func withStatusOf(old, upd api.Object) api.Object {
	// The kubelets' pod and node status writes, without reflection.
	switch o := old.(type) {
	case *api.Pod:
		if u, ok := upd.(*api.Pod); ok {
			st := u.Status
			*u = *o
			u.Status = st
			return u
		}
	case *api.Node:
		if u, ok := upd.(*api.Node); ok {
			st := u.Status
			*u = *o
			u.Status = st
			return u
		}
	}
	return withStatusOfReflect(old, upd)
}

// withStatusOfReflect is withStatusOf of any kind.
func withStatusOfReflect(old, upd api.Object) api.Object {
	ov := reflect.ValueOf(old).Elem()
	nv := reflect.New(ov.Type())
	nv.Elem().Set(ov)
	res := nv.Interface().(api.Object)
	copyStatus(res, upd)
	return res
}

// Delete deletes an object, or starts deleting it: an object with
// finalizers (including the foreground and orphan ones that opts may add)
// and a pod bound to a node with a grace period only get a
// deletionTimestamp and stay until their finalizers are removed or the
// kubelet confirms with grace 0. It returns the object as it now is (the
// last state of a removed object) and whether it was removed.
func (s *Store) Delete(op Op, kind api.Kind, key api.Key, opts DeleteOptions) (api.Object, bool, error) {
	t, err := s.table(kind)
	if err != nil {
		return nil, false, err
	}
	gr := t.info.GroupResource()
	old, slot, ok := t.lookup(key)
	if !ok {
		return nil, false, apierr.NewNotFound(gr, key.Name)
	}
	om := old.GetObjectMeta()
	// The registry's rest.BeforeDelete checks the preconditions against
	// the object it just read, before storage does, and names the group
	// and kind where other conflicts name the resource.
	if opts.PreconditionUID != "" && opts.PreconditionUID != om.UID {
		return nil, false, apierr.NewConflict(kind.GroupKind(), key.Name, fmt.Sprintf("the UID in the precondition (%s) does not match the UID in record (%s). The object might have been deleted and then recreated", opts.PreconditionUID, om.UID))
	}
	if opts.PreconditionResourceVersion != "" && opts.PreconditionResourceVersion != om.ResourceVersion {
		return nil, false, apierr.NewConflict(kind.GroupKind(), key.Name, fmt.Sprintf("the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). The object might have been modified", opts.PreconditionResourceVersion, om.ResourceVersion))
	}
	verb := verbOr(op.Verb, "delete")

	// Work out what the object looks like after this delete.
	obj := old.DeepCopyObject()
	m := obj.GetObjectMeta()
	switch opts.Propagation {
	case PropagateForeground:
		m.Finalizers = addFinalizer(m.Finalizers, FinalizerForeground)
	case PropagateOrphan:
		m.Finalizers = addFinalizer(m.Finalizers, FinalizerOrphan)
	}
	grace := int64(0)
	if pod, ok := obj.(*api.Pod); ok {
		grace = podGrace(pod, opts.GracePeriodSeconds)
	}
	if grace > 0 || len(m.Finalizers) > 0 {
		now := s.now()
		if m.DeletionTimestamp == nil {
			ts := api.NewTime(now.Time.Add(time.Duration(grace) * time.Second))
			m.DeletionTimestamp = &ts
			g := grace
			m.DeletionGracePeriodSeconds = &g
			if grace == 0 && m.Generation > 0 {
				// Held by finalizers: the first deletionTimestamp bumps
				// the generation, as the registry's markAsDeleting does
				// (apiserver pkg/registry/generic/registry/store.go), so
				// that a controller filtering on generation (controller-
				// runtime's GenerationChangedPredicate) sees the delete.
				// The graceful path's bump (rest.BeforeDelete, a pod
				// with a grace period) is not simulated.
				m.Generation++
			}
		} else if om.DeletionGracePeriodSeconds != nil && grace < *om.DeletionGracePeriodSeconds {
			// A second delete may only shorten the grace period.
			ts := api.NewTime(now.Time.Add(time.Duration(grace) * time.Second))
			m.DeletionTimestamp = &ts
			g := grace
			m.DeletionGracePeriodSeconds = &g
		}
		if grace > 0 || len(m.Finalizers) > 0 {
			changes := s.audit.auditChanges(old, obj)
			if len(changes) == 0 {
				return old, false, nil
			}
			rv := s.nextRV()
			m.ResourceVersion = strconv.FormatUint(rv, 10)
			// The storage's update for a delete asks no lease: the
			// object leaves its lease and stays until written again.
			t.objs[key] = t.storeObject(obj, slot, 0)
			s.audit.add(AuditRecord{Time: s.k.Now(), Actor: op.Actor, Verb: verb, Kind: kind, Key: key, ResourceVersion: rv}, changes)
			s.notify(t, Modified, old, obj, rv, slot)
			return obj, false, nil
		}
	}
	// Removed now.
	rv := s.nextRV()
	m.ResourceVersion = strconv.FormatUint(rv, 10)
	delete(t.objs, key)
	t.numbers.give(slot)
	t.sorted = false
	s.audit.add(AuditRecord{Time: s.k.Now(), Actor: op.Actor, Verb: verb, Kind: kind, Key: key, ResourceVersion: rv, Removed: true}, nil)
	s.notify(t, Deleted, old, obj, rv, slot)
	return obj, true, nil
}

// podGrace is the grace period a pod delete gets: 0 for a pod never bound
// to a node or already finished, else the request's or the pod's own.
func podGrace(pod *api.Pod, requested *int64) int64 {
	if pod.Spec.NodeName == "" || pod.Status.Phase == api.PodSucceeded || pod.Status.Phase == api.PodFailed {
		return 0
	}
	if requested != nil {
		if *requested < 0 {
			return 0
		}
		return *requested
	}
	if pod.Spec.TerminationGracePeriodSeconds != nil {
		return *pod.Spec.TerminationGracePeriodSeconds
	}
	return 30
}

func addFinalizer(fs []string, f string) []string {
	if slices.Contains(fs, f) {
		return fs
	}
	return append(slices.Clone(fs), f)
}
