package controller

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// Manager errors.
var (
	// ErrRunning: Start on a manager that is already running.
	ErrRunning = errors.New("manager is running")
	// ErrNotRunning: a controller or informer asked for outside a run
	// (setup registers them while the manager starts).
	ErrNotRunning = errors.New("manager is not running")
	// ErrDuplicateController: two controllers of one manager share a name.
	ErrDuplicateController = errors.New("duplicate controller name")
	// ErrHosted: Host given a manager that cannot be a member (one
	// hosted already, one that hosts others, a running one, the host
	// itself).
	ErrHosted = errors.New("manager cannot be hosted")
	// ErrOwnRateLimiter: a controller that brings a rate limiter of its
	// own (Options.RateLimiter) to a manager with QueueLimits.
	ErrOwnRateLimiter = errors.New("retries at a rate of its own: its work queue's limits cannot be set")
)

// ManagerOptions configure a Manager; they apply from the next Start.
type ManagerOptions struct {
	// Resync is the informers' resync period; 0 disables resync (see
	// informer.Config).
	Resync time.Duration
	// Client configures the manager's client (request timeout).
	Client client.Options
	// Recorder configures the manager's event recorder; its Component is
	// the default source of Recorder("") events, the manager's name if
	// empty.
	Recorder client.RecorderOptions
	// EventClient, if set, gives the recorder a client of its own, with
	// a token bucket of its own: kube-scheduler sends its events through
	// an event client made apart from its API client, from the same
	// kubeconfig (cmd/kube-scheduler/app/options createClients), so
	// events and bindings do not draw on one budget. Unset, events go
	// through the manager's client, as kube-controller-manager's
	// controllers send theirs (each controller's recorder sinks into its
	// own client).
	EventClient *client.Options
	// Observer, if set, is told of every reconcile of every controller
	// that has no observer of its own.
	Observer Observer
	// OnInformer, if set, is told of every relist, reopened watch and
	// resync of the manager's informers (informer.Config.OnActivity).
	OnInformer func(informer.Activity)
	// LeaderElection, if set, makes the manager hold a Lease before its
	// informers, controllers and runnables start, and crash when it
	// loses it (see LeaderElection).
	LeaderElection *LeaderElection
	// QueueLimits, where its fields are set (non-zero), replace those of
	// every controller's own retry limits (Options.Limits; see
	// workqueue.Limits.With): a scenario's what-if of a controller's
	// work queue. A controller with a RateLimiter of its own cannot take
	// them: NewController refuses it (ErrOwnRateLimiter).
	QueueLimits workqueue.Limits
}

// Manager is one controller process, e.g. the kube-controller-manager's
// deployment controller: an actor identity, a Client, an informer Factory,
// an event Recorder, a Clock, and the controllers and runnables its setup
// function registers. Start runs setup on fresh state and spawns every
// process; Crash kills them all at once and forgets everything they held
// (caches, queues, whatever setup built); Restart starts again, so
// everything is relisted, as after a real restart.
type Manager struct {
	k      *kernel.Kernel
	t      client.Transport
	name   string
	actor  string
	setup  func(m *Manager) error
	opts   ManagerOptions
	client client.Client
	clock  client.Clock
	run    *run
	starts int
	// members are the managers this one hosts (Host); host is the
	// manager hosting this one.
	members []*Manager
	host    *Manager
}

// run is one incarnation of a manager: everything Crash drops.
type run struct {
	ctx         context.Context
	cancel      context.CancelFunc
	factory     *informer.Factory
	recorder    *client.Recorder
	controllers []*Controller
	runnables   []runnable
	spawned     bool
	// shared is set when factory is a host's (the incarnation is a
	// member's, Host): the member leaves it running at a crash, and its
	// controllers wait for informers, the ones it asked for (Informer),
	// in the order it first asked, not for every informer of the factory.
	shared    bool
	informers []*informer.Informer
	// elector is the leader election's process, when the manager has one.
	elector *kernel.Process
}

// runnable is a process registered with Add.
type runnable struct {
	name string
	fn   func(ctx context.Context)
	proc *kernel.Process
}

// NewManager returns a stopped manager named name (the prefix of its
// process names, e.g. "kube-controller-manager/deployment") acting as
// actor (e.g. "system:serviceaccount:kube-system:deployment-controller")
// through t. setup registers the manager's controllers, informers and
// runnables; it runs at every Start, on fresh state.
func NewManager(k *kernel.Kernel, t client.Transport, name, actor string, setup func(m *Manager) error) *Manager {
	m := &Manager{k: k, t: t, name: name, actor: actor, setup: setup, clock: client.NewClock(k)}
	m.client = client.New(k, t, actor, client.Options{})
	return m
}

// SetOptions replaces the manager's options; they take effect at the
// next Start.
func (m *Manager) SetOptions(o ManagerOptions) { m.opts = o }

// Options returns the options SetOptions gave the manager, for a caller
// that changes one of them.
func (m *Manager) Options() ManagerOptions { return m.opts }

// Name returns the manager's name.
func (m *Manager) Name() string { return m.name }

// Actor returns the identity the manager's requests carry.
func (m *Manager) Actor() string { return m.actor }

// Running reports whether the manager has been started and not crashed.
func (m *Manager) Running() bool { return m.run != nil }

// Starts returns how many times the manager has been started (its
// incarnation number).
func (m *Manager) Starts() int { return m.starts }

// Start runs setup on fresh state (a new informer factory, recorder and
// context; controllers and runnables registered anew) and spawns every
// process: informers, the recorder's sender, each controller's workers
// (which wait for the caches to sync), then runnables. A setup error
// leaves the manager stopped and is returned wrapped.
//
// A manager that hosts others (Host) starts them too, after its own
// setup, in the order Host was given them; a setup error of any of them
// leaves the whole process stopped. Starting a hosted manager starts its
// host, and so every member: they are one process.
func (m *Manager) Start() error {
	if m.run != nil {
		return fmt.Errorf("manager %s: %w", m.name, ErrRunning)
	}
	if m.host != nil {
		return m.host.Start()
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &run{
		ctx:     ctx,
		cancel:  cancel,
		factory: informer.NewFactory(m.k, m.t, informer.Config{Name: m.name, Actor: m.actor, Resync: m.opts.Resync, OnActivity: m.opts.OnInformer}),
	}
	if err := m.begin(r); err != nil {
		return err
	}
	for _, mem := range m.members {
		mctx, mcancel := context.WithCancel(ctx)
		if err := mem.begin(&run{ctx: mctx, cancel: mcancel, factory: r.factory, shared: true}); err != nil {
			m.teardown()
			return fmt.Errorf("manager %s: %w", m.name, err)
		}
	}
	if m.opts.LeaderElection != nil {
		// Only the elector runs until the lease is held.
		r.elector = m.k.Spawn(m.name+"/leader-election", func(*kernel.Process) { m.runElection(ctx, r) })
		return nil
	}
	m.startWorkload(r)
	return nil
}

// begin makes r the manager's incarnation (with a new client and
// recorder) and runs setup on it. On a setup error the incarnation is
// torn down and the error returned wrapped.
func (m *Manager) begin(r *run) error {
	if r.shared {
		// What a member's options would set is its host's: refused, not
		// ignored.
		var why string
		switch o := m.opts; {
		case o.LeaderElection != nil:
			why = "elects no leader of its own (its host's election covers it)"
		case o.Resync != 0:
			why = "has no informer resync of its own (its informers are its host's)"
		case o.OnInformer != nil:
			why = "reports no informer activity of its own (its informers are its host's: the host's OnInformer reports them)"
		}
		if why != "" {
			r.cancel()
			return fmt.Errorf("manager %s: a hosted manager %s: %w", m.name, why, ErrHosted)
		}
	}
	m.client = client.New(m.k, m.t, m.actor, m.opts.Client)
	ropts := m.opts.Recorder
	if ropts.Component == "" {
		ropts.Component = m.name
	}
	r.recorder = client.NewRecorder(m.k, m.eventClient(), m.name, ropts)
	m.run = r
	m.starts++
	if m.setup != nil {
		if err := m.setup(m); err != nil {
			m.teardown()
			return fmt.Errorf("manager %s: setup: %w", m.name, err)
		}
	}
	return nil
}

// Host makes member one of the controllers of m's process, as
// kube-controller-manager runs all its controllers in one process: the
// member keeps its own client (its actor, transport, rate limits), event
// recorder and controllers, but takes its informers from m's factory, so
// that a kind m's members all watch is listed and watched once, through
// m's transport, as m's actor; its informer options (Resync, OnInformer)
// are m's, and Start refuses a member that sets them, or a leader
// election, with ErrHosted. The member starts and crashes with m: Start of either starts
// both (m's setup, then each member's, in the order Host was given
// them), Crash of either crashes both, and m's leader election (a member
// may have none) starts every member's workload. Both must be stopped;
// member must host no managers and be hosted by none; m must be hosted by
// none.
func (m *Manager) Host(member *Manager) error {
	switch {
	case member == m, member.host != nil, len(member.members) > 0, m.host != nil:
		return fmt.Errorf("manager %s: host %s: %w", m.name, member.name, ErrHosted)
	case m.run != nil, member.run != nil:
		return fmt.Errorf("manager %s: host %s: %w", m.name, member.name, ErrRunning)
	}
	member.host = m
	m.members = append(m.members, member)
	return nil
}

// Hosted returns the manager hosting m (Host), or nil.
func (m *Manager) Hosted() *Manager { return m.host }

// eventClient returns the client the recorder sends events through: one
// of its own when the options ask for it, else the manager's.
func (m *Manager) eventClient() client.Client {
	if m.opts.EventClient == nil {
		return m.client
	}
	return client.New(m.k, m.t, m.actor, *m.opts.EventClient)
}

// startWorkload starts the incarnation's informers, recorder,
// controllers and runnables, then those of every member it hosts.
func (m *Manager) startWorkload(r *run) {
	r.factory.Start()
	r.recorder.Start()
	for _, c := range r.controllers {
		c.Start()
	}
	for i := range r.runnables {
		m.spawn(&r.runnables[i])
	}
	r.spawned = true
	for _, mem := range m.members {
		if mem.run != nil {
			mem.startWorkload(mem.run)
		}
	}
}

func (m *Manager) spawn(rn *runnable) {
	ctx := m.run.ctx
	fn := rn.fn
	rn.proc = m.k.Spawn(m.name+"/"+rn.name, func(*kernel.Process) { fn(ctx) })
}

// Crash kills every process of the manager at once, wherever each stands
// (a worker blocked in a client call included), and drops everything the
// incarnation held: caches, queues, the recorder's queue, and whatever
// setup built. Requests already sent may still take effect at the server.
// Crashing a stopped manager does nothing. Crashing a hosted manager
// (Host) crashes its host, and so every member: they are one process.
func (m *Manager) Crash() {
	if m.host != nil {
		m.host.Crash()
		return
	}
	if m.run != nil {
		m.teardown()
	}
}

// Restart crashes the manager if it is running, then starts it again.
func (m *Manager) Restart() error {
	m.Crash()
	return m.Start()
}

// teardown kills the current incarnation: its members' first, then its
// controllers (so no reconcile observes a half-torn cache), runnables,
// the recorder and the informers (a member leaves its host's).
func (m *Manager) teardown() {
	for _, mem := range m.members {
		if mem.run != nil {
			mem.teardown()
		}
	}
	r := m.run
	m.run = nil
	r.cancel()
	for _, c := range r.controllers {
		c.Stop()
	}
	for _, rn := range r.runnables {
		if rn.proc != nil {
			rn.proc.Kill()
		}
	}
	if r.elector != nil {
		r.elector.Kill()
	}
	r.recorder.Stop()
	if !r.shared {
		r.factory.Stop()
	}
}

// Kinds returns the kinds the API serves, custom ones included: the
// transport's discovery (client.Discovery) when it has one, else the
// built-in kinds.
func (m *Manager) Kinds() *api.Registry {
	if d, ok := m.t.(client.Discovery); ok {
		if r := d.Kinds(); r != nil {
			return r
		}
	}
	return api.Builtin()
}

// Client returns the manager's client, acting as its actor.
func (m *Manager) Client() client.Client { return m.client }

// Clock returns the virtual clock.
func (m *Manager) Clock() client.Clock { return m.clock }

// Informer returns the shared informer for kind and opts (see
// informer.Factory.Informer). It fails with ErrNotRunning outside a run.
func (m *Manager) Informer(kind api.Kind, opts informer.Options) (*informer.Informer, error) {
	r := m.run
	if r == nil {
		return nil, fmt.Errorf("manager %s: informer for %s: %w", m.name, kind, ErrNotRunning)
	}
	inf, err := r.factory.Informer(kind, opts)
	if err == nil && r.shared && !slices.Contains(r.informers, inf) {
		r.informers = append(r.informers, inf)
	}
	return inf, err
}

// waitForSync blocks p until every informer incarnation r waits for has
// synced and reports true, or reports false once r has crashed: a
// manager's own factory's informers, or, for a member of a host (Host),
// the informers the member asked for, as each of upstream's controllers
// waits for its own informers only (WaitForNamedCacheSync), not for
// every informer of kube-controller-manager's factory.
func (r *run) waitForSync(p *kernel.Process) bool {
	if !r.shared {
		return r.factory.WaitForSync(p)
	}
	for i := 0; i < len(r.informers); i++ {
		if !r.informers[i].WaitForSync(p) {
			return false
		}
	}
	return r.ctx.Err() == nil
}

// Factory returns the current incarnation's informer factory (for stats),
// or nil when the manager is not running.
func (m *Manager) Factory() *informer.Factory {
	if m.run == nil {
		return nil
	}
	return m.run.factory
}

// Recorder returns an event recorder whose events carry component as
// their source ("" means the recorder's default component). Outside a run
// events are dropped.
func (m *Manager) Recorder(component string) client.EventRecorder {
	if m.run == nil {
		return discard{}
	}
	if component == "" {
		return m.run.recorder
	}
	return m.run.recorder.For(component)
}

// EventStats returns the current incarnation's recorder counters.
func (m *Manager) EventStats() client.RecorderStats {
	if m.run == nil {
		return client.RecorderStats{}
	}
	return m.run.recorder.Stats()
}

type discard struct{}

// Eventf drops the event: the manager is not running.
func (discard) Eventf(api.Object, string, string, string, ...any) {}

// NewController registers a controller named name running r; its workers
// are named "<manager>/<name>/worker-<i>" and wait for every informer of
// the manager to sync (a member of a host, Host: every informer the
// member asked for). Made during setup it starts with the manager; made
// later in a run it starts at once. Outside a run it fails with
// ErrNotRunning; a second controller with one name fails with
// ErrDuplicateController.
func (m *Manager) NewController(name string, opts Options, r Reconciler) (*Controller, error) {
	run := m.run
	if run == nil {
		return nil, fmt.Errorf("manager %s: controller %s: %w", m.name, name, ErrNotRunning)
	}
	for _, c := range run.controllers {
		if c.name == name {
			return nil, fmt.Errorf("manager %s: controller %s: %w", m.name, name, ErrDuplicateController)
		}
	}
	if opts.Observer == nil {
		opts.Observer = m.opts.Observer
	}
	if m.opts.QueueLimits != (workqueue.Limits{}) {
		if opts.RateLimiter != nil {
			return nil, fmt.Errorf("manager %s: controller %s %w", m.name, name, ErrOwnRateLimiter)
		}
		l, err := opts.limits().With(m.opts.QueueLimits)
		if err != nil {
			return nil, fmt.Errorf("manager %s: controller %s: %w", m.name, name, err)
		}
		opts.Limits = &l
	}
	c := New(m.k, name, r, opts)
	c.prefix = m.name + "/" + name
	c.ctx = run.ctx
	c.synced = run.waitForSync
	run.controllers = append(run.controllers, c)
	if run.spawned {
		c.Start()
	}
	return c, nil
}

// Controllers returns the current incarnation's controllers in the order
// they were registered.
func (m *Manager) Controllers() []*Controller {
	if m.run == nil {
		return nil
	}
	return append([]*Controller(nil), m.run.controllers...)
}

// Add registers a runnable: fn runs in its own process, named
// "<manager>/<name>", started with the manager and killed by Crash; ctx is
// cancelled at the crash. fn may block through the Client and the Clock
// (Sleep). Outside a run it fails with ErrNotRunning.
func (m *Manager) Add(name string, fn func(ctx context.Context)) error {
	run := m.run
	if run == nil {
		return fmt.Errorf("manager %s: runnable %s: %w", m.name, name, ErrNotRunning)
	}
	run.runnables = append(run.runnables, runnable{name: name, fn: fn})
	if run.spawned {
		m.spawn(&run.runnables[len(run.runnables)-1])
	}
	return nil
}

// WaitForCacheSync blocks the calling process (a runnable) until every
// informer of the manager (of a member, every informer it asked for) has
// synced and reports true, or reports false if
// the manager is not running or crashes meanwhile. Called outside a
// process it panics: it is a bug in the caller.
func (m *Manager) WaitForCacheSync() bool {
	run := m.run
	if run == nil {
		return false
	}
	p := m.k.Current()
	if p == nil {
		panic(fmt.Sprintf("controller invariant in-process: manager %s: WaitForCacheSync called outside a kernel process", m.name))
	}
	return run.waitForSync(p)
}

// WaitForSync blocks the calling process until inf has synced and reports
// true, as controller-runtime's cache waits for the one informer a read
// needs. Where waiting could never end it reports false at once: outside a
// kernel process (an event handler run by a watch event), in inf's own
// process (a handler of inf's first list), and when the manager is not
// running; also false if the manager crashes meanwhile.
func (m *Manager) WaitForSync(inf *informer.Informer) bool {
	if inf.HasSynced() {
		return true
	}
	p := m.k.Current()
	if p == nil || m.run == nil {
		return false
	}
	return inf.WaitForSync(p)
}

// Rand returns the random stream named "<manager>/<name>", derived from
// the run's seed: the only source of randomness a controller may use (a
// scheduler breaking ties, a syncer's jitter). The stream continues across
// a crash and restart, as the world's randomness would.
func (m *Manager) Rand(name string) *rand.Rand {
	return m.k.Rand(m.name + "/" + name)
}
