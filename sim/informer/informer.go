package informer

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// Reflector timing, after client-go's tools/cache/reflector.go.
const (
	// MinWatchTimeout is the shortest a watch stays open before the
	// informer closes it and watches again from its last resourceVersion;
	// each watch lasts a random time between it and twice it (client-go's
	// minWatchTimeout, 5 minutes).
	MinWatchTimeout = 5 * time.Minute
	// InitialBackoff is the first pause after a failed list or watch
	// (800ms); the pause doubles with each further failure.
	InitialBackoff = 800 * time.Millisecond
	// MaxBackoff caps the doubling pause (30s); each pause is then
	// jittered by up to as much again.
	MaxBackoff = 30 * time.Second
	// BackoffReset is how long without a failure resets the pause to
	// InitialBackoff (2 minutes).
	BackoffReset = 2 * time.Minute
	// MinResync is the shortest resync period (client-go's
	// minimumResyncPeriod, 1s); shorter positive periods are raised to it.
	MinResync = time.Second
	// ListTimeout bounds a list request on transports that take a
	// timeout: the API server's default request timeout, 60s.
	ListTimeout = 60 * time.Second
)

// Errors for informers that cannot be built.
var (
	// ErrUnknownKind: the kind is not served by the API.
	ErrUnknownKind = errors.New("unknown kind")
	// ErrInvalidOptions: the options cannot select anything of the kind
	// (a bad label selector, a node name for a kind other than Pod).
	ErrInvalidOptions = errors.New("invalid informer options")
)

// Options select the objects an informer caches, as list options do.
type Options struct {
	// Namespace limits the informer to one namespace; "" means all.
	Namespace string
	// LabelSelector selects by label, in kubectl's form
	// ("app=web,tier in (a,b),!canary"); "" means every object.
	LabelSelector string
	// NodeName, for pods only, selects the pods bound to that node (the
	// field selector spec.nodeName=<name>), as a kubelet's informer does.
	NodeName string
}

// String returns a canonical form, e.g. "{ns=prod,labels=app=web}"; ""
// for the zero Options. Equal selections give equal strings.
func (o Options) String() string {
	var parts []string
	if o.Namespace != "" {
		parts = append(parts, "ns="+o.Namespace)
	}
	if o.LabelSelector != "" {
		s := o.LabelSelector
		if sel, err := api.ParseSelector(s); err == nil {
			s = sel.String()
		}
		parts = append(parts, "labels="+s)
	}
	if o.NodeName != "" {
		parts = append(parts, "node="+o.NodeName)
	}
	if len(parts) == 0 {
		return ""
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// Config says who an informer is.
type Config struct {
	// Name prefixes the informer's process and random-stream names,
	// typically the manager's name; "" means Actor.
	Name string
	// Actor is the user the informer lists and watches as.
	Actor string
	// Resync is the period at which every cached object is replayed to
	// the handlers as an update; 0 disables resync, and positive periods
	// below MinResync are raised to it.
	Resync time.Duration
	// OnActivity, if set, is told of every relist, watch reopened after
	// a watch ended, and resync (see Activity); never of the first list.
	// It is called on the event loop and must not block.
	OnActivity func(Activity)
}

// ActivityOp is what a reflector did besides applying watch events.
type ActivityOp uint8

// The reflector's activities.
const (
	// Relisted: a list after the first one replaced the cache (a relist:
	// handlers told OnAdd, OnUpdate for every object still present,
	// OnDelete for what is gone).
	Relisted ActivityOp = iota + 1
	// Rewatched: a watch was opened again from the last resourceVersion
	// seen, after the previous one ended, with no list.
	Rewatched
	// Resynced: the resync timer replayed every cached object to the
	// handlers as an update (the cache as it is: nothing is read).
	Resynced
)

// String returns "relist", "rewatch" or "resync".
func (o ActivityOp) String() string {
	switch o {
	case Relisted:
		return "relist"
	case Rewatched:
		return "rewatch"
	case Resynced:
		return "resync"
	}
	return fmt.Sprintf("ActivityOp(%d)", uint8(o))
}

// Activity is one relist, watch reopened or resync of an informer.
type Activity struct {
	// Op is what happened.
	Op ActivityOp
	// Informer is the informer's name; Kind and Options its selection.
	Informer string
	Kind     api.Kind
	Options  Options
	// Reason says why the previous watch ended or the informer listed
	// again: one of the Reason constants, or a refused request's error.
	// Empty for a resync.
	Reason string
	// Failed counts the lists and watches that failed between the end of
	// the previous watch and this success.
	Failed int
	// Objects is how many objects the relist returned or the resync
	// replayed; 0 for a rewatch.
	Objects int
}

// Why a watch ended or an informer listed again (Activity.Reason).
const (
	// ReasonTimeout: the informer closed its watch after its random 5–10
	// minutes (client-go's minWatchTimeout), as every watch ends.
	ReasonTimeout = "watch timeout"
	// ReasonClosed: the server ended the watch.
	ReasonClosed = "watch closed by the server"
	// ReasonShort: the server ended the watch within a second with no
	// event (client-go's "very short watch").
	ReasonShort = "very short watch"
	// ReasonExpired: the watch could not resume from the last
	// resourceVersion (410 Expired, "too old resource version").
	ReasonExpired = "410 Expired"
	// ReasonBroken: the watch ended with an error: its stream broke (the
	// connection was lost) or the server went away.
	ReasonBroken = "stream broken"
)

// Stats count what an informer's reflector did.
type Stats struct {
	// Lists counts successful lists (the first and every relist).
	Lists uint64
	// ListErrors counts failed lists.
	ListErrors uint64
	// Watches counts watches the server accepted.
	Watches uint64
	// WatchErrors counts watch requests refused, except for Expired.
	WatchErrors uint64
	// Relists counts relists forced by 410 Expired, at the start of a
	// watch or while it ran.
	Relists uint64
	// Breaks counts watches that ended with an error other than Expired
	// (stream broken, server gone).
	Breaks uint64
	// Timeouts counts watches the informer closed after their random 5–10
	// minutes, to watch again.
	Timeouts uint64
	// Events counts watch events applied to the cache.
	Events uint64
	// Stale counts watch events dropped because their resourceVersion was
	// not newer than the last one seen (duplicates).
	Stale uint64
	// Resyncs counts resync replays.
	Resyncs uint64
}

// Informer caches the objects of one kind that match its Options and tells
// its handlers of every change. Build one with New (or get a shared one
// from a Factory), add handlers, then Start it.
type Informer struct {
	k     *kernel.Kernel
	t     client.Transport
	timed client.TimeoutTransport
	actor string
	kind  api.Kind
	opts  Options
	// sel is the compiled label selector, nil for none.
	sel    *api.Selector
	name   string
	resync time.Duration
	rng    *rand.Rand

	cache     *cache
	indexDefs []indexDef
	handlers  []Handler
	synced    bool
	syncWait  kernel.WaitList

	proc    *kernel.Process
	started bool
	stopped bool

	// The current watch. gen identifies it: callbacks of an older watch
	// carry an older gen and are ignored.
	gen      uint64
	stream   client.WatchStream
	closed   bool
	closeErr error
	// waiting is true while the reflector is parked on its open watch:
	// only then may a Closed wake it (a wake-up during a back-off sleep
	// would cut the sleep short).
	waiting bool
	// fromRV is where the current watch started; lastRV is the newest
	// resourceVersion seen (list or event), where the next watch starts.
	fromRV, lastRV uint64

	backoff backoff
	resyncT resyncTimer
	stats   Stats

	onActivity func(Activity)
	// listed is set once a list succeeded: a later one is a relist.
	// why and failed are what ended the last watch (or refused the
	// last list or watch) and how many lists and watches failed since,
	// for the next Activity.
	listed bool
	why    string
	failed int
}

// New returns an unstarted informer of kind for the objects opts selects,
// listing and watching through t as cfg.Actor. An unknown kind is
// ErrUnknownKind; a bad selector, or a node name for a kind other than
// Pod, is ErrInvalidOptions.
func New(k *kernel.Kernel, t client.Transport, cfg Config, kind api.Kind, opts Options) (*Informer, error) {
	kinds := api.Builtin()
	if d, ok := t.(client.Discovery); ok && d.Kinds() != nil {
		kinds = d.Kinds()
	}
	info, ok := kinds.Lookup(kind)
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknownKind, kind.GroupKind())
	}
	inf := &Informer{k: k, t: t, actor: cfg.Actor, kind: kind, opts: opts, cache: newCache(nil), onActivity: cfg.OnActivity}
	inf.timed, _ = t.(client.TimeoutTransport)
	if opts.LabelSelector != "" {
		sel, err := api.ParseSelector(opts.LabelSelector)
		if err != nil {
			return nil, fmt.Errorf("%w: label selector %q: %w", ErrInvalidOptions, opts.LabelSelector, err)
		}
		inf.sel = &sel
	}
	if opts.NodeName != "" && kind != api.KindPod {
		return nil, fmt.Errorf("%w: node name %q given for kind %s, only pods have one", ErrInvalidOptions, opts.NodeName, kind)
	}
	name := cfg.Name
	if name == "" {
		name = cfg.Actor
	}
	// Built-in kinds keep their bare names here (process and stream names
	// reach the trace); a custom kind is qualified by its group.
	kn := kind.Name
	if info.Custom {
		kn = kind.GroupKind()
	}
	inf.name = name + "/informer/" + kn + opts.String()
	inf.rng = k.Rand("informer/" + name + "/" + kn + opts.String())
	if cfg.Resync > 0 {
		inf.resync = max(cfg.Resync, MinResync)
	}
	inf.resyncT.inf = inf
	return inf, nil
}

// Name returns the informer's name, "<config name>/informer/<Kind><options>";
// its reflector process has this name.
func (inf *Informer) Name() string { return inf.name }

// Kind returns the kind the informer caches.
func (inf *Informer) Kind() api.Kind { return inf.kind }

// Options returns the informer's selection.
func (inf *Informer) Options() Options { return inf.opts }

// Lister returns a reader of the informer's cache.
func (inf *Informer) Lister() Lister { return Lister{inf: inf} }

// Stats returns the reflector's counters.
func (inf *Informer) Stats() Stats { return inf.stats }

// HasSynced reports whether the first list has been applied to the cache.
func (inf *Informer) HasSynced() bool { return inf.synced }

// LastResourceVersion returns the newest resourceVersion the informer has
// seen, from a list or a watch event.
func (inf *Informer) LastResourceVersion() uint64 { return inf.lastRV }

// WaitForSync blocks p until the informer has synced and reports true, or
// reports false at once if the informer is stopped (or is stopped while p
// waits). Called from the informer's own process (a handler of its first
// list), it reports false without waiting: the list that syncs it is the
// one that process is applying.
func (inf *Informer) WaitForSync(p *kernel.Process) bool {
	if p == inf.proc && !inf.synced {
		return false
	}
	for !inf.synced && !inf.stopped {
		inf.syncWait.Wait(p)
	}
	return inf.synced && !inf.stopped
}

// AddEventHandler registers h. If the cache already holds objects, h is
// told of each of them with OnAdd, in namespace/name order, as client-go
// does for a handler added to a running informer.
func (inf *Informer) AddEventHandler(h Handler) {
	inf.handlers = append(inf.handlers, h)
	for _, o := range inf.cache.list("") {
		h.OnAdd(o)
	}
}

// Start spawns the reflector process (and arms the resync timer). Starting
// a started or stopped informer does nothing.
func (inf *Informer) Start() {
	if inf.started || inf.stopped {
		return
	}
	inf.started = true
	inf.proc = inf.k.Spawn(inf.name, inf.run)
	inf.resyncT.arm()
}

// Stop crashes the informer: its reflector is killed, its watch stopped,
// its cache and handlers dropped. Processes waiting for it to sync are
// released (WaitForSync reports false). A stopped informer cannot be
// started again; build a new one, as a restarted process would.
func (inf *Informer) Stop() {
	if inf.stopped {
		return
	}
	inf.stopped = true
	inf.resyncT.disarm()
	if inf.proc != nil {
		inf.proc.Kill()
	}
	inf.endWatch()
	inf.cache = newCache(inf.indexDefs)
	inf.handlers = nil
	inf.syncWait.WakeAll()
}

// run is the reflector: list, then watch until the watch ends, then
// decide whether to relist, back off or watch again.
func (inf *Informer) run(p *kernel.Process) {
	defer inf.endWatch()
	needList := true
	for {
		if needList {
			if !inf.list(p) {
				p.Sleep(inf.backoff.next(inf.k.Now(), inf.rng))
				continue
			}
			needList = false
		}
		switch inf.watch(p) {
		case backOff:
			p.Sleep(inf.backoff.next(inf.k.Now(), inf.rng))
		case backOffRelist:
			p.Sleep(inf.backoff.next(inf.k.Now(), inf.rng))
			needList = true
		}
	}
}

// request returns a list or watch request for the informer's selection.
func (inf *Informer) request(verb apiserver.Verb) *apiserver.Request {
	req := &apiserver.Request{Verb: verb, Kind: inf.kind, Namespace: inf.opts.Namespace, Actor: inf.actor}
	req.ListOptions.NodeName = inf.opts.NodeName
	req.ListOptions.Labels = inf.sel
	return req
}

// list lists the selection and replaces the cache; false if the list
// failed.
func (inf *Informer) list(p *kernel.Process) bool {
	req := inf.request(apiserver.List)
	var resp *apiserver.Response
	if inf.timed != nil {
		resp = inf.timed.DoTimeout(p, req, ListTimeout)
	} else {
		resp = inf.t.Do(p, req)
	}
	if resp.Err != nil {
		inf.stats.ListErrors++
		inf.fail(resp.Err.Error())
		return false
	}
	inf.stats.Lists++
	inf.replace(resp.Items, resp.ResourceVersion)
	if inf.listed {
		inf.tell(Activity{Op: Relisted, Objects: len(resp.Items)})
	}
	inf.listed = true
	inf.why, inf.failed = "", 0
	return true
}

// ended records why the current watch ended, for the next Activity.
func (inf *Informer) ended(why string) {
	if inf.why == "" {
		inf.why = why
	}
}

// fail counts a failed list or watch; its error is the reason when no
// ended watch gave one.
func (inf *Informer) fail(why string) {
	inf.failed++
	inf.ended(why)
}

// tell completes a and hands it to the OnActivity hook, if any.
func (inf *Informer) tell(a Activity) {
	if inf.onActivity == nil {
		return
	}
	a.Informer, a.Kind, a.Options = inf.name, inf.kind, inf.opts
	if a.Op != Resynced {
		a.Reason, a.Failed = inf.why, inf.failed
	}
	inf.onActivity(a)
}

func keyOf(o api.Object) api.Key { return o.GetObjectMeta().Key() }

func compareKeys(a, b api.Key) int {
	return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
}

// replace makes the cache hold exactly items, telling the handlers what
// changed in namespace/name order: OnAdd for new objects, OnUpdate for
// objects still present (changed or not, as client-go's Replace does),
// OnDelete for objects gone.
func (inf *Informer) replace(items []api.Object, rv uint64) {
	byKey := func(a, b api.Object) int { return compareKeys(keyOf(a), keyOf(b)) }
	if !slices.IsSortedFunc(items, byKey) {
		items = slices.Clone(items)
		slices.SortStableFunc(items, byKey)
	}
	old := inf.cache.list("")
	for len(old) > 0 || len(items) > 0 {
		var c int
		switch {
		case len(old) == 0:
			c = 1
		case len(items) == 0:
			c = -1
		default:
			c = byKey(old[0], items[0])
		}
		switch {
		case c < 0:
			o := old[0]
			old = old[1:]
			inf.cache.del(keyOf(o), 0)
			inf.fireDelete(o)
		case c == 0:
			o, n := old[0], items[0]
			old, items = old[1:], items[1:]
			inf.cache.put(keyOf(n), n, 0, nil)
			inf.fireUpdate(o, n)
		default:
			n := items[0]
			items = items[1:]
			if prev, ok := inf.cache.put(keyOf(n), n, 0, nil); ok {
				// A duplicate key in the list: the later entry wins.
				inf.fireUpdate(prev, n)
			} else {
				inf.fireAdd(n)
			}
		}
	}
	inf.lastRV = rv
	if !inf.synced {
		inf.synced = true
		inf.syncWait.WakeAll()
	}
}

// outcome is what the reflector does after a watch, as client-go's
// Reflector.watch decides (tools/cache/reflector.go): it opens a watch
// again at once after a watch that ended normally, backs off and watches
// again only when the server is overloaded (429) or refuses connections,
// and in every other case returns from ListAndWatch, so that its caller
// (wait.BackoffUntil in Reflector.Run) lists again after the back-off.
type outcome uint8

const (
	watchAgain    outcome = iota // from the last resourceVersion, at once
	backOff                      // watch again after the back-off (429)
	backOffRelist                // list again after the back-off
)

// watch opens a watch from the last resourceVersion and blocks p until it
// ends: closed by the server or the stream, or by the informer's own
// timeout.
func (inf *Informer) watch(p *kernel.Process) outcome {
	inf.gen++
	inf.closed, inf.closeErr = false, nil
	inf.fromRV = inf.lastRV
	req := inf.request(apiserver.Watch)
	req.ResourceVersion = inf.lastRV
	s, err := inf.t.Watch(p, req, &watcher{inf: inf, gen: inf.gen})
	if err != nil {
		inf.gen++ // nothing of this watch may reach the cache any more
		if errors.Is(err, apierr.ErrExpired) {
			inf.stats.Relists++
			inf.ended(ReasonExpired)
			return backOffRelist
		}
		inf.stats.WatchErrors++
		inf.fail(err.Error())
		if errors.Is(err, apierr.ErrTooManyRequests) || errors.Is(err, apierr.ErrTimeout) {
			// isWatchErrorRetriable: 429 (and connection refused,
			// which the simulated network never answers). A timeout
			// here is a watch request the network lost; a real
			// connection would retransmit it (a partition delays TCP, it
			// loses nothing), so the informer watches again after the
			// back-off as if the request had been slow, rather than
			// relisting through a 60s list timeout as client-go would
			// once its connection is declared lost (a deviation).
			return backOff
		}
		// Any other failure (503, forbidden, bad request): ListAndWatch
		// returns the error and the reflector lists again after the
		// back-off.
		return backOffRelist
	}
	inf.stats.Watches++
	inf.stream = s
	if inf.why != "" {
		inf.tell(Activity{Op: Rewatched})
	}
	inf.why, inf.failed = "", 0
	opened, events := inf.k.Now(), inf.stats.Events
	deadline := inf.k.Now().Add(MinWatchTimeout + time.Duration(inf.rng.Float64()*float64(MinWatchTimeout)))
	for !inf.closed {
		left := deadline.Sub(inf.k.Now())
		if left <= 0 {
			break
		}
		inf.waiting = true
		woken := p.ParkFor(left)
		inf.waiting = false
		if !woken {
			break
		}
	}
	if !inf.closed {
		inf.stats.Timeouts++
		inf.endWatch()
		inf.ended(ReasonTimeout)
		return watchAgain
	}
	inf.stream = nil
	inf.gen++ // the ended watch may say nothing more
	err = inf.closeErr
	if errors.Is(err, apierr.ErrExpired) {
		// An ERROR event with 410 Expired: handleWatch returns it and
		// the reflector lists again after the back-off.
		inf.stats.Relists++
		inf.ended(ReasonExpired)
		return backOffRelist
	}
	// A stream that broke ends like one the server closed: client-go's
	// StreamWatcher takes a lost connection (a probable EOF) for the end
	// of the watch and closes its result channel.
	why := ReasonClosed
	if err != nil {
		inf.stats.Breaks++
		why = ReasonBroken
	}
	if inf.k.Now().Sub(opened) < time.Second && inf.stats.Events == events {
		// client-go's "very short watch": a watch that ended within a
		// second with no event is an error, so a server that keeps
		// closing watches cannot spin the reflector at one instant.
		if err == nil {
			inf.stats.Breaks++
		}
		inf.ended(ReasonShort)
		return backOffRelist
	}
	inf.ended(why)
	return watchAgain
}

// endWatch stops the current watch, if any, ignoring its last callbacks.
func (inf *Informer) endWatch() {
	inf.gen++
	if s := inf.stream; s != nil {
		inf.stream = nil
		s.Stop()
	}
}

// watcher receives one watch's callbacks.
type watcher struct {
	inf *Informer
	gen uint64
}

func (w *watcher) live() bool { return !w.inf.stopped && w.gen == w.inf.gen }

// Event applies a watch event to the cache and fires the handlers.
func (w *watcher) Event(e store.Event) {
	if !w.live() {
		return
	}
	w.inf.apply(e)
}

// Closed records why the watch ended and wakes the reflector.
func (w *watcher) Closed(err error) {
	if !w.live() || w.inf.closed {
		return
	}
	w.inf.closed, w.inf.closeErr = true, err
	if w.inf.waiting {
		w.inf.proc.Wake()
	}
}

func (inf *Informer) apply(e store.Event) {
	if inf.fromRV > 0 && e.ResourceVersion <= inf.lastRV {
		inf.stats.Stale++
		return
	}
	inf.lastRV = max(inf.lastRV, e.ResourceVersion)
	inf.stats.Events++
	o := e.Object
	key := keyOf(o)
	slot, prev := e.Hint()
	switch e.Type {
	case store.Added, store.Modified:
		if old, ok := inf.cache.put(key, o, slot, prev); ok {
			inf.fireUpdate(old, o)
		} else {
			inf.fireAdd(o)
		}
	case store.Deleted:
		if _, ok := inf.cache.del(key, slot); ok {
			inf.fireDelete(o)
		}
	}
}

func (inf *Informer) fireAdd(o api.Object) {
	for _, h := range inf.handlers {
		h.OnAdd(o)
	}
}

func (inf *Informer) fireUpdate(old, o api.Object) {
	for _, h := range inf.handlers {
		h.OnUpdate(old, o)
	}
}

func (inf *Informer) fireDelete(o api.Object) {
	for _, h := range inf.handlers {
		h.OnDelete(o)
	}
}

// resyncTimer replays the cache every resync period; it is a kernel event
// handler, so a resync needs no process and cannot be delayed by a
// reflector blocked in a list.
type resyncTimer struct {
	inf   *Informer
	token uint64
}

func (r *resyncTimer) arm() {
	if r.inf.resync > 0 {
		r.inf.k.After(r.inf.resync, r, r.token)
	}
}

func (r *resyncTimer) disarm() { r.token++ }

// Fire replays every cached object as OnUpdate(o, o), in namespace/name
// order, once the informer has synced, and re-arms. It implements
// kernel.Handler; a disarmed timer's event carries an old token.
func (r *resyncTimer) Fire(_ *kernel.Kernel, token uint64) {
	if token != r.token {
		return
	}
	inf := r.inf
	if inf.synced {
		inf.stats.Resyncs++
		objs := inf.cache.list("")
		for _, o := range objs {
			inf.fireUpdate(o, o)
		}
		inf.tell(Activity{Op: Resynced, Objects: len(objs)})
	}
	r.arm()
}

// backoff is client-go's reflector back-off manager: 800ms doubling to a
// 30s cap, each pause jittered by up to 100%, reset after 2 minutes
// without a pause.
type backoff struct {
	cur  time.Duration
	last kernel.Time
	used bool
}

// next returns the pause to take now and doubles the following one.
func (b *backoff) next(now kernel.Time, rng *rand.Rand) time.Duration {
	if !b.used || now.Sub(b.last) > BackoffReset {
		b.cur = InitialBackoff
	}
	b.used = true
	b.last = now
	d := b.cur
	b.cur = min(2*b.cur, MaxBackoff)
	return d + time.Duration(rng.Float64()*float64(d))
}
