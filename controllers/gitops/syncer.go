package gitops

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Identity and names.
const (
	// Actor is the identity Argo CD's application controller runs as.
	Actor = "system:serviceaccount:argocd:argocd-application-controller"
	// FieldManager is the field manager of Argo CD's server-side apply
	// (argo-cd common/common.go).
	FieldManager = "argocd-controller"
	// TrackingAnnotation marks the objects an application manages:
	// "<app>:<group>/<kind>:<namespace>/<name>" (Argo CD's annotation
	// tracking).
	TrackingAnnotation = "argocd.argoproj.io/tracking-id"
	// ControllerName names the controller in its manager.
	ControllerName = "argocd-application-controller"
	// Namespace is where Argo CD's Applications live; requests are keyed
	// by it.
	Namespace = "argocd"
)

// Defaults of Options.
const (
	// DefaultResync is how often every repo is polled (--app-resync).
	DefaultResync = 120 * time.Second
	// DefaultJitter is the largest random delay added to each poll
	// (--app-resync-jitter).
	DefaultJitter = 60 * time.Second
	// DefaultSelfHealBackoff is the wait before the first of consecutive
	// self-heals (--self-heal-backoff-timeout-seconds).
	DefaultSelfHealBackoff = 2 * time.Second
	// DefaultSelfHealFactor multiplies the wait for each further self-heal
	// (--self-heal-backoff-factor).
	DefaultSelfHealFactor = 3.0
	// DefaultSelfHealCap caps the self-heal wait
	// (--self-heal-backoff-cap-seconds).
	DefaultSelfHealCap = 300 * time.Second
	// DefaultSyncRetryLimit is how many times a failed sync is retried.
	DefaultSyncRetryLimit = 5
	// DefaultSyncRetryBackoff is the wait before the first retry of a
	// failed sync; it doubles (Argo CD's retry.backoff defaults).
	DefaultSyncRetryBackoff = 5 * time.Second
	// DefaultSyncRetryCap caps the wait between sync retries.
	DefaultSyncRetryCap = 3 * time.Minute
)

// Options configure a Syncer. The zero value is Argo CD's defaults.
type Options struct {
	// Resync is the poll period of every repo (default 120s).
	Resync time.Duration
	// Jitter is the largest random delay added to each poll, drawn from
	// the manager's stream "gitops" (default 60s; negative disables it).
	Jitter time.Duration
	// SelfHealBackoff, SelfHealFactor and SelfHealCap space consecutive
	// self-heals: the first runs at once, the (n+1)-th no sooner than
	// SelfHealBackoff×SelfHealFactor^(n-1), at most SelfHealCap, after
	// the previous sync ended (defaults 2s, 3, 300s: 0, 2s, 6s, 18s, 54s,
	// 162s, 300s...). The count restarts with a sync of a new revision or
	// a manual sync.
	SelfHealBackoff time.Duration
	SelfHealFactor  float64
	SelfHealCap     time.Duration
	// SyncRetryLimit is how many times a failed sync of one revision is
	// retried (default 5; negative never retries).
	SyncRetryLimit int
	// SyncRetryBackoff is the wait before the first retry, doubled for
	// each next one up to SyncRetryCap (defaults 5s and 3m).
	SyncRetryBackoff time.Duration
	SyncRetryCap     time.Duration
	// FieldManager is the server-side apply field manager (default
	// "argocd-controller").
	FieldManager string
	// PrunePropagation is the cascading policy of prune deletes (default
	// Foreground, Argo CD's PrunePropagationPolicy default; a foreground
	// delete completes once the garbage collector has run).
	PrunePropagation client.Propagation
	// Kinds are watched besides the kinds the repos hold when the manager
	// starts (a kind that appears only in a later commit is read through
	// the client, and its live changes are seen only at polls).
	Kinds []api.Kind
}

func (o Options) withDefaults() Options {
	if o.Resync <= 0 {
		o.Resync = DefaultResync
	}
	switch {
	case o.Jitter == 0:
		o.Jitter = DefaultJitter
	case o.Jitter < 0:
		o.Jitter = 0
	}
	if o.SelfHealBackoff <= 0 {
		o.SelfHealBackoff = DefaultSelfHealBackoff
	}
	if o.SelfHealFactor < 1 {
		o.SelfHealFactor = DefaultSelfHealFactor
	}
	if o.SelfHealCap <= 0 {
		o.SelfHealCap = DefaultSelfHealCap
	}
	switch {
	case o.SyncRetryLimit == 0:
		o.SyncRetryLimit = DefaultSyncRetryLimit
	case o.SyncRetryLimit < 0:
		o.SyncRetryLimit = 0
	}
	if o.SyncRetryBackoff <= 0 {
		o.SyncRetryBackoff = DefaultSyncRetryBackoff
	}
	if o.SyncRetryCap <= 0 {
		o.SyncRetryCap = DefaultSyncRetryCap
	}
	if o.FieldManager == "" {
		o.FieldManager = FieldManager
	}
	if o.PrunePropagation == "" {
		o.PrunePropagation = client.Foreground
	}
	return o
}

// SyncStatusCode is an application's or resource's comparison result.
type SyncStatusCode string

// The comparison results.
const (
	// Synced: the live state has every field the manifests set.
	Synced SyncStatusCode = "Synced"
	// OutOfSync: some field differs, an object is missing, or one needs
	// pruning.
	OutOfSync SyncStatusCode = "OutOfSync"
	// Unknown: not compared yet, or the repo has no commit yet.
	Unknown SyncStatusCode = "Unknown"
)

// Initiator says why a sync ran.
type Initiator string

// The initiators.
const (
	// InitiatorAutomated: a new revision under an automated policy.
	InitiatorAutomated Initiator = "automated"
	// InitiatorSelfHeal: live drift under selfHeal.
	InitiatorSelfHeal Initiator = "self-heal"
	// InitiatorRetry: a failed sync tried again.
	InitiatorRetry Initiator = "retry"
	// InitiatorManual: Sync was called.
	InitiatorManual Initiator = "manual"
)

// SyncPhase is how a sync ended.
type SyncPhase string

// The phases.
const (
	// Succeeded: every object applied (and pruned).
	Succeeded SyncPhase = "Succeeded"
	// Failed: some object failed to apply or to be pruned.
	Failed SyncPhase = "Failed"
)

// Argo CD's sync messages.
const (
	// MessageSynced is a successful sync's message.
	MessageSynced = "successfully synced (all tasks run)"
	// messageFailedFormat is a failed sync's.
	messageFailedFormat = "one or more objects failed to apply, reason: %v"
)

// ResourceStatus is one managed object's comparison.
type ResourceStatus struct {
	// Group, Kind, Namespace and Name identify the object.
	Group, Kind, Namespace, Name string
	// Status is Synced or OutOfSync.
	Status SyncStatusCode
	// Missing: the object does not exist.
	Missing bool
	// RequiresPruning: the object is live and tracked but no longer in
	// Git.
	RequiresPruning bool
	// Diff are the JSON pointers that differ, sorted.
	Diff []string
}

// String returns "<Kind>/<namespace>/<name>" (without the namespace for a
// cluster-scoped object).
func (r ResourceStatus) String() string {
	if r.Namespace == "" {
		return r.Kind + "/" + r.Name
	}
	return r.Kind + "/" + r.Namespace + "/" + r.Name
}

// SyncRecord is one entry of an application's sync history.
type SyncRecord struct {
	// ID numbers the syncs of an application from 1.
	ID int
	// Revision is the commit synced.
	Revision string
	// Initiator says why the sync ran.
	Initiator Initiator
	// StartedAt and FinishedAt bound the sync in virtual time.
	StartedAt, FinishedAt time.Time
	// Phase is Succeeded or Failed; Message Argo CD's text.
	Phase   SyncPhase
	Message string
	// Applied and Pruned name the objects applied and deleted
	// ("Deployment/default/web").
	Applied []string
	Pruned  []string
}

// AppStatus is an application's in-memory status.
type AppStatus struct {
	// Name is the application's.
	Name string
	// Sync is the latest comparison's result.
	Sync SyncStatusCode
	// Revision is the head commit the latest comparison used.
	Revision string
	// ReconciledAt is when that comparison ran.
	ReconciledAt time.Time
	// Resources are the managed objects, sorted by group, kind, namespace
	// and name.
	Resources []ResourceStatus
	// SyncedRevision is the revision of the last successful sync.
	SyncedRevision string
	// SelfHealAttempts counts the self-heals since the last sync of a new
	// revision.
	SelfHealAttempts int
	// History lists every sync, oldest first.
	History []SyncRecord
	// Refreshes counts comparisons.
	Refreshes int
}

// appState is what the syncer keeps of one application, across manager
// restarts (Argo CD keeps it in the Application's status).
type appState struct {
	app           Application
	status        AppStatus
	desired       map[objKey]bool // keys of the head's objects, for event mapping
	lastAttempted string          // revision of the last automated sync attempt
	lastOK        bool
	lastSyncEnd   time.Time
	retries       int
	manual        bool
	manualPrune   bool
	// written holds the objects the syncer's own applies returned, until
	// its informer has caught up with them: a reconcile triggered by the
	// event of one write must not mistake another write's object, not yet
	// in the cache, for drift.
	written map[objKey]api.Object
}

// objKey identifies an object.
type objKey struct {
	kind api.Kind
	key  api.Key
}

// Syncer is the GitOps controller for a set of applications. Build it
// with New, register it with a manager by Setup (in the manager's setup
// function), and read Status at any time.
type Syncer struct {
	opts   Options
	apps   []*appState // sorted by name
	byName map[string]*appState
	run    *incarnation
}

// incarnation is what one manager start builds; a crash drops it.
type incarnation struct {
	client    client.Client
	clock     client.Clock
	rng       *rand.Rand
	informers map[api.Kind]*informer.Informer
	ctl       *controller.Controller
}

// New returns a syncer for apps. An application without a name or repo,
// a duplicate name or a malformed pointer fails with
// ErrInvalidApplication.
func New(apps []Application, opts Options) (*Syncer, error) {
	s := &Syncer{opts: opts.withDefaults(), byName: map[string]*appState{}}
	for _, a := range apps {
		if err := a.validate(); err != nil {
			return nil, err
		}
		if _, dup := s.byName[a.Name]; dup {
			return nil, fmt.Errorf("%w: duplicate name %s", ErrInvalidApplication, a.Name)
		}
		if a.Namespace == "" {
			a.Namespace = "default"
		}
		st := &appState{app: a, status: AppStatus{Name: a.Name, Sync: Unknown}}
		s.apps = append(s.apps, st)
		s.byName[a.Name] = st
	}
	slices.SortFunc(s.apps, func(a, b *appState) int { return strings.Compare(a.app.Name, b.app.Name) })
	return s, nil
}

// Options returns the options in effect, defaults filled in.
func (s *Syncer) Options() Options { return s.opts }

// Setup registers the syncer with m: informers on the kinds its repos
// hold (and Options.Kinds), the controller, and the poll loop. Call it
// from the manager's setup function, at every start.
func (s *Syncer) Setup(m *controller.Manager) error {
	inc := &incarnation{client: m.Client(), clock: m.Clock(), rng: m.Rand("gitops"), informers: map[api.Kind]*informer.Informer{}}
	kinds := s.kinds()
	for _, k := range kinds {
		inf, err := m.Informer(k, informer.Options{})
		if err != nil {
			return err
		}
		inc.informers[k] = inf
	}
	c, err := m.NewController(ControllerName, controller.Options{Workers: 1}, s)
	if err != nil {
		return err
	}
	for _, k := range kinds {
		c.Watch(inc.informers[k], s.requestsFor)
	}
	inc.ctl = c
	s.run = inc
	return m.Add("app-resync", func(ctx context.Context) {
		if !m.WaitForCacheSync() {
			return
		}
		for ctx.Err() == nil {
			for _, st := range s.apps {
				c.Enqueue(request(st.app.Name))
			}
			d := s.opts.Resync
			if s.opts.Jitter > 0 {
				// Saturating: a period as long as a duration can be
				// plus its jitter would wrap to a negative sleep.
				d = min(d, math.MaxInt64-s.opts.Jitter) + time.Duration(inc.rng.Int64N(int64(s.opts.Jitter)))
			}
			inc.clock.Sleep(d)
		}
	})
}

func request(name string) controller.Request {
	return controller.Request{Key: api.Key{Namespace: Namespace, Name: name}}
}

// kinds returns the kinds every commit of every repo holds, and
// Options.Kinds, sorted.
func (s *Syncer) kinds() []api.Kind {
	var out []api.Kind
	for _, st := range s.apps {
		for _, c := range st.app.Repo.History() {
			for _, o := range c.Objects {
				out = append(out, api.KindOf(o))
			}
		}
	}
	out = append(out, s.opts.Kinds...)
	slices.SortFunc(out, api.Kind.Compare)
	return slices.Compact(out)
}

// requestsFor maps a live object to the applications that manage it: the
// one its tracking annotation names, and any whose head holds it.
func (s *Syncer) requestsFor(obj api.Object) []controller.Request {
	m := obj.GetObjectMeta()
	var out []controller.Request
	if id, ok := m.Annotations[TrackingAnnotation]; ok {
		if name, _, ok := strings.Cut(id, ":"); ok {
			if _, known := s.byName[name]; known {
				out = append(out, request(name))
			}
		}
	}
	k := objKey{kind: api.KindOf(obj), key: m.Key()}
	for _, st := range s.apps {
		if st.desired[k] && !slices.Contains(out, request(st.app.Name)) {
			out = append(out, request(st.app.Name))
		}
	}
	return out
}

// Status returns every application's status, sorted by name. The result
// is a copy.
func (s *Syncer) Status() []AppStatus {
	out := make([]AppStatus, len(s.apps))
	for i, st := range s.apps {
		a := st.status
		a.Resources = slices.Clone(a.Resources)
		a.History = slices.Clone(a.History)
		out[i] = a
	}
	return out
}

// Sync asks for a sync of application name now (argocd app sync
// [--prune]), whatever its policy. It may be called from the event loop.
func (s *Syncer) Sync(name string, prune bool) error {
	st, ok := s.byName[name]
	if !ok {
		return fmt.Errorf("%w: %s", ErrUnknownApplication, name)
	}
	st.manual, st.manualPrune = true, prune
	if s.run != nil {
		s.run.ctl.Enqueue(request(name))
	}
	return nil
}

// Refresh asks for a comparison of application name now (argocd app get
// --refresh).
func (s *Syncer) Refresh(name string) error {
	if _, ok := s.byName[name]; !ok {
		return fmt.Errorf("%w: %s", ErrUnknownApplication, name)
	}
	if s.run != nil {
		s.run.ctl.Enqueue(request(name))
	}
	return nil
}

// target is one desired object of a comparison.
type target struct {
	obj    api.Object
	tree   map[string]any
	info   api.ResourceInfo
	key    api.Key
	ignore []string
}

func (t *target) status() ResourceStatus {
	return ResourceStatus{Group: t.info.Group(), Kind: t.info.Kind.Name, Namespace: t.key.Namespace, Name: t.key.Name}
}

// trackingID is Argo CD's annotation value for an object.
func trackingID(app string, info api.ResourceInfo, key api.Key) string {
	return fmt.Sprintf("%s:%s/%s:%s/%s", app, info.Group(), info.Kind, key.Namespace, key.Name)
}

// kindRank orders a sync as Argo CD's kind order does (namespaces and
// configuration before workloads, autoscalers last).
func kindRank(k api.Kind) int {
	switch k {
	case api.KindNamespace:
		return 0
	case api.KindResourceQuota:
		return 1
	case api.KindConfigMap:
		return 2
	case api.KindService:
		return 3
	case api.KindPod, api.KindReplicaSet, api.KindDeployment:
		return 4
	case api.KindHorizontalPodAutoscaler:
		return 5
	}
	return 6
}

// targets prepares the head's objects: in the version the server stores,
// with the destination namespace, apiVersion and kind, and the tracking
// annotation; in sync order.
func (s *Syncer) targets(st *appState, head Commit) ([]*target, error) {
	var out []*target
	for _, o := range head.Objects {
		obj := o.DeepCopyObject()
		if h, ok := obj.(*api.HorizontalPodAutoscalerV1); ok {
			obj = h.ToV2()
		}
		info, ok := api.Lookup(api.KindOf(obj))
		if !ok {
			return nil, fmt.Errorf("%w: kind %s is not served", ErrInvalidApplication, api.KindOf(obj))
		}
		m := obj.GetObjectMeta()
		switch {
		case !info.Namespaced:
			m.Namespace = ""
		case m.Namespace == "":
			m.Namespace = st.app.Namespace
		}
		tm := obj.GetTypeMeta()
		tm.APIVersion, tm.Kind = info.APIVersion(), info.Kind.Name
		if m.Annotations == nil {
			m.Annotations = map[string]string{}
		}
		m.Annotations[TrackingAnnotation] = trackingID(st.app.Name, info, m.Key())
		tr, err := manifestTree(obj)
		if err != nil {
			return nil, err
		}
		t := &target{obj: obj, tree: tr, info: info, key: m.Key()}
		for _, d := range st.app.IgnoreDifferences {
			if d.Group == info.Group() && d.Kind == info.Kind.Name && (d.Name == "" || d.Name == t.key.Name) && (d.Namespace == "" || d.Namespace == t.key.Namespace) {
				t.ignore = append(t.ignore, d.JSONPointers...)
			}
		}
		out = append(out, t)
	}
	slices.SortStableFunc(out, func(a, b *target) int {
		return cmp.Or(cmp.Compare(kindRank(a.info.Kind), kindRank(b.info.Kind)), strings.Compare(a.info.Kind.Name, b.info.Kind.Name),
			strings.Compare(a.key.Namespace, b.key.Namespace), strings.Compare(a.key.Name, b.key.Name))
	})
	return out, nil
}

// live reads an object: from the informer of its kind (or the object the
// syncer itself last wrote, while the informer has not seen that write),
// or through the client for a kind not watched. A missing object is nil.
func (inc *incarnation) live(ctx context.Context, st *appState, kind api.Kind, key api.Key) (api.Object, error) {
	if inf, ok := inc.informers[kind]; ok {
		k := objKey{kind: kind, key: key}
		if w, ok := st.written[k]; ok {
			if inf.LastResourceVersion() < resourceVersion(w) {
				return w, nil
			}
			delete(st.written, k)
		}
		o, _ := inf.Lister().Get(key)
		return o, nil
	}
	o, err := inc.client.Get(ctx, kind, key)
	if errors.Is(err, apierr.ErrNotFound) {
		return nil, nil
	}
	return o, err
}

// extras returns the live objects the application tracks that its head
// does not hold (what prune deletes), sorted.
func (s *Syncer) extras(inc *incarnation, st *appState) []api.Object {
	var out []api.Object
	prefix := st.app.Name + ":"
	kinds := make([]api.Kind, 0, len(inc.informers))
	for k := range inc.informers {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, api.Kind.Compare)
	for _, k := range kinds {
		for _, o := range inc.informers[k].Lister().List(api.Everything(), "") {
			m := o.GetObjectMeta()
			if strings.HasPrefix(m.Annotations[TrackingAnnotation], prefix) && !st.desired[objKey{kind: k, key: m.Key()}] && m.DeletionTimestamp == nil {
				out = append(out, o)
			}
		}
	}
	return out
}

// Reconcile compares one application's head commit with the live state
// and syncs when its policy says so.
func (s *Syncer) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	st, ok := s.byName[req.Name]
	inc := s.run
	if !ok || inc == nil {
		return controller.Result{}, nil
	}
	now := inc.clock.Now()
	st.status.Refreshes++
	st.status.ReconciledAt = now
	head, ok := st.app.Repo.Head(now)
	if !ok {
		st.status.Sync, st.status.Revision, st.status.Resources = Unknown, "", nil
		return controller.Result{}, nil
	}
	targets, err := s.targets(st, head)
	if err != nil {
		st.status.Sync, st.status.Revision = Unknown, head.Revision
		return controller.Result{}, controller.TerminalError(err)
	}
	st.desired = make(map[objKey]bool, len(targets))
	for _, t := range targets {
		st.desired[objKey{kind: t.info.Kind, key: t.key}] = true
	}

	// Compare.
	lives := make([]api.Object, len(targets))
	var resources []ResourceStatus
	outOfSync := 0
	for i, t := range targets {
		live, err := inc.live(ctx, st, t.info.Kind, t.key)
		if err != nil {
			return controller.Result{}, err
		}
		lives[i] = live
		rs, err := t.compare(live)
		if err != nil {
			return controller.Result{}, err
		}
		if rs.Status == OutOfSync {
			outOfSync++
		}
		resources = append(resources, rs)
	}
	extras := s.extras(inc, st)
	for _, o := range extras {
		info, _ := api.Lookup(api.KindOf(o))
		m := o.GetObjectMeta()
		resources = append(resources, ResourceStatus{Group: info.Group(), Kind: info.Kind.Name, Namespace: m.Namespace, Name: m.Name,
			Status: OutOfSync, RequiresPruning: true})
	}
	sortResources(resources)
	st.status.Revision = head.Revision
	st.status.Resources = resources
	st.status.Sync = Synced
	if outOfSync > 0 || len(extras) > 0 {
		st.status.Sync = OutOfSync
	}
	if st.status.Sync == Synced && head.Revision == st.lastAttempted && !st.lastOK {
		// A sync that failed by timeouts may have applied everything: the
		// live state says it did. (Argo CD would keep the failed attempt and
		// skip self-heal for this revision; over a lossy network that would
		// strand the application.)
		st.lastOK, st.retries = true, 0
		st.status.SyncedRevision = head.Revision
	}

	// Decide.
	var initiator Initiator
	prune := false
	auto := st.app.SyncPolicy.Automated
	sinceSync := now.Sub(st.lastSyncEnd)
	switch {
	case st.manual:
		initiator, prune = InitiatorManual, st.manualPrune
		st.manual = false
		st.status.SelfHealAttempts, st.retries = 0, 0
	case auto == nil || st.status.Sync == Synced:
	case outOfSync == 0 && !auto.Prune:
		// Only pruning is needed and automated prune is off.
	case head.Revision != st.lastAttempted:
		initiator, prune = InitiatorAutomated, auto.Prune
		st.status.SelfHealAttempts, st.retries = 0, 0
	case !st.lastOK:
		if st.retries > s.opts.SyncRetryLimit {
			break
		}
		if wait := s.retryDelay(st.retries) - sinceSync; wait > 0 {
			return controller.Result{RequeueAfter: wait}, nil
		}
		initiator, prune = InitiatorRetry, auto.Prune
	case auto.SelfHeal:
		if wait := s.selfHealDelay(st.status.SelfHealAttempts) - sinceSync; wait > 0 {
			return controller.Result{RequeueAfter: wait}, nil
		}
		initiator, prune = InitiatorSelfHeal, auto.Prune
		st.status.SelfHealAttempts++
	}
	if initiator == "" {
		return controller.Result{}, nil
	}
	ok = s.sync(ctx, inc, st, head, targets, lives, extras, initiator, prune)
	if !ok && initiator != InitiatorManual {
		st.retries++
		if st.retries <= s.opts.SyncRetryLimit {
			return controller.Result{RequeueAfter: s.retryDelay(st.retries)}, nil
		}
	}
	return controller.Result{}, nil
}

// compare compares a target with its live object.
func (t *target) compare(live api.Object) (ResourceStatus, error) {
	rs := t.status()
	if live == nil {
		rs.Status, rs.Missing = OutOfSync, true
		return rs, nil
	}
	lt, err := tree(live)
	if err != nil {
		return rs, err
	}
	rs.Diff = compare(t.tree, lt, t.ignore)
	rs.Status = Synced
	if len(rs.Diff) > 0 {
		rs.Status = OutOfSync
	}
	return rs, nil
}

// resourceVersion reads an object's resourceVersion as the number the
// simulated store issues (0 if it is not one).
func resourceVersion(o api.Object) uint64 {
	n, _ := strconv.ParseUint(o.GetObjectMeta().ResourceVersion, 10, 64)
	return n
}

func sortResources(rs []ResourceStatus) {
	slices.SortFunc(rs, func(a, b ResourceStatus) int {
		return cmp.Or(strings.Compare(a.Group, b.Group), strings.Compare(a.Kind, b.Kind),
			strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
}

// selfHealDelay is how long after the previous sync a self-heal may run
// when n self-heals have run since the last new revision: none for the
// first, then SelfHealBackoff×SelfHealFactor^(n-1) up to SelfHealCap, as
// Argo CD's selfHealRemainingBackoff steps its wait.Backoff n times.
func (s *Syncer) selfHealDelay(n int) time.Duration {
	if n <= 0 {
		return 0
	}
	d := s.opts.SelfHealBackoff
	for i := 1; i < n && d < s.opts.SelfHealCap; i++ {
		d = time.Duration(float64(d) * s.opts.SelfHealFactor)
	}
	return min(d, s.opts.SelfHealCap)
}

// retryDelay is the wait before retry n+1 of a failed sync.
func (s *Syncer) retryDelay(n int) time.Duration {
	d := s.opts.SyncRetryBackoff
	for i := 1; i < n && d < s.opts.SyncRetryCap; i++ {
		d *= 2
	}
	return min(d, s.opts.SyncRetryCap)
}

// applyConfig is what a sync sends for a target: the manifest, with the
// ignored fields set to their live values under RespectIgnoreDifferences.
func (s *Syncer) applyConfig(st *appState, t *target, live api.Object) (api.Object, error) {
	if !st.app.SyncOptions.RespectIgnoreDifferences || len(t.ignore) == 0 || live == nil {
		return t.obj, nil
	}
	cfg, err := manifestTree(t.obj)
	if err != nil {
		return nil, err
	}
	lt, err := tree(live)
	if err != nil {
		return nil, err
	}
	for _, p := range t.ignore {
		if v, ok := pointerGet(lt, p); ok {
			pointerSet(cfg, p, v)
		} else {
			pointerDelete(cfg, p)
		}
	}
	return fromTree(cfg, t.obj.GetTypeMeta().APIVersion, t.obj.GetTypeMeta().Kind)
}

// sync applies the out-of-sync targets (all of them for a manual sync),
// prunes extras when asked, and records the result. It reports whether
// everything succeeded.
func (s *Syncer) sync(ctx context.Context, inc *incarnation, st *appState, head Commit, targets []*target, lives, extras []api.Object,
	initiator Initiator, prune bool) bool {
	rec := SyncRecord{ID: len(st.status.History) + 1, Revision: head.Revision, Initiator: initiator, StartedAt: inc.clock.Now()}
	var firstErr error
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
	}
	for i, t := range targets {
		rs := &st.status.Resources[slices.IndexFunc(st.status.Resources, func(r ResourceStatus) bool {
			return r.Kind == t.info.Kind.Name && r.Group == t.info.Group() && r.Namespace == t.key.Namespace && r.Name == t.key.Name
		})]
		if rs.Status == Synced && initiator != InitiatorManual {
			continue
		}
		cfg, err := s.applyConfig(st, t, lives[i])
		if err != nil {
			fail(err)
			continue
		}
		got, err := client.Apply(ctx, inc.client, cfg, s.opts.FieldManager, true)
		if err != nil {
			fail(err)
			continue
		}
		rec.Applied = append(rec.Applied, rs.String())
		if st.written == nil {
			st.written = map[objKey]api.Object{}
		}
		st.written[objKey{kind: t.info.Kind, key: t.key}] = got
		if fresh, err := t.compare(got); err == nil {
			*rs = fresh
		}
	}
	if prune {
		for _, o := range extras {
			m := o.GetObjectMeta()
			kind := api.KindOf(o)
			err := inc.client.Delete(ctx, kind, m.Key(), client.PropagationPolicy(s.opts.PrunePropagation))
			if err != nil && !errors.Is(err, apierr.ErrNotFound) {
				fail(err)
				continue
			}
			name := kind.Name + "/" + m.Key().String()
			rec.Pruned = append(rec.Pruned, name)
			st.status.Resources = slices.DeleteFunc(st.status.Resources, func(r ResourceStatus) bool {
				return r.RequiresPruning && r.Kind == kind.Name && r.Namespace == m.Namespace && r.Name == m.Name
			})
		}
	}
	rec.FinishedAt = inc.clock.Now()
	rec.Phase, rec.Message = Succeeded, MessageSynced
	if firstErr != nil {
		rec.Phase, rec.Message = Failed, fmt.Sprintf(messageFailedFormat, firstErr)
	}
	st.status.History = append(st.status.History, rec)
	st.lastAttempted, st.lastOK, st.lastSyncEnd = head.Revision, firstErr == nil, rec.FinishedAt
	if firstErr == nil {
		st.status.SyncedRevision = head.Revision
		st.retries = 0
		st.status.Sync = Synced
		for _, r := range st.status.Resources {
			if r.Status != Synced {
				st.status.Sync = OutOfSync
			}
		}
	}
	return firstErr == nil
}
