// Package runner runs a loaded scenario: it builds the simulated cluster
// (nodes and their kubelets, the registry, the network, the controllers,
// the initial objects), performs the timeline's actions at their virtual
// times as a user would with kubectl, takes the timeline's observations
// (snapshots of the objects kubectl would print), and evaluates the
// expectations. The Result holds everything a report needs; printing is
// package report's job.
//
// Determinism: a run is a pure function of the scenario and the seed.
package runner

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/gitops"
	"github.com/clustersim/clustersim/controllers/iac"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/gap"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/metrics"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// Options override a scenario's settings for one run.
type Options struct {
	// Seed replaces spec.seed when set.
	Seed *uint64
	// Until stops the run early (0: spec.duration).
	Until time.Duration
	// Link, when set, replaces spec.network.default (a sweep over fault
	// rates runs one scenario under many networks).
	Link *scenarios.Link
	// OnStart, when set, is called with the built cluster just before the
	// run starts: tests install invariant checkers (store watches) here.
	OnStart func(c *cluster.Cluster)
	// Faults, when set, replaces spec.faults (a replay of a written-out
	// schedule, a shrinking step, clustersim run --faults).
	Faults *scenarios.Faults
	// Detect runs the detectors (report/measure.Detect) on the finished
	// run, for the scenario's findings checks; nil means DefaultDetect.
	Detect func(res *Result) Findings
	// MaxEvents caps the kernel events the run fires (0: no cap); a run
	// that reaches it fails with an error naming the events limit.
	MaxEvents uint64
	// Progress, when set, receives the kernel's progress, for a watchdog
	// on another goroutine (cmd/clustersim's --stall).
	Progress *kernel.Progress
	// ProfileWindow, when not 0, labels the CPU profiler's samples of the
	// simulation with the window of virtual time they were taken in
	// (kernel.SetProfileWindow): cmd/clustersim's
	// CLUSTERSIM_PROFILE_WINDOW.
	ProfileWindow time.Duration
	// NoTimeline leaves the scenario's timeline out (its cluster, objects,
	// controllers and faults stay): clustersim serve --timeline=false,
	// where the user acts with kubectl.
	NoTimeline bool
	// Users are users (endpoint user/<name>) created before the
	// scenario's link rules are applied, so that rules naming them apply:
	// clustersim serve's "kubectl".
	Users []string
	// Simulated, when set, is called by Run once the simulation has run
	// to its end, before Finish gathers the result from it (not after an
	// error): clustersim run raises the collector's memory limit there
	// for what is left of the command (cmd/clustersim/gc.go).
	Simulated func()
}

// DefaultDetect is the Detect of runs whose Options leave it nil. The
// detectors live above the runner, so package report/measure installs
// itself here when it is linked in (every program that imports it, the
// CLI and package harness among them); without it a findings check fails
// and says so.
var DefaultDetect func(res *Result) Findings

// Findings are what the detectors found in a run: counts for findings
// checks, and one line per finding for their detail.
type Findings struct {
	Fights, Flaps, HotLoops, NoOpWrites int
	Lines                               []string
}

// Result is a finished run.
type Result struct {
	// Scenario is the scenario's name; Seed the root seed used.
	Scenario string
	Seed     uint64
	// Duration is the virtual time the run lasted.
	Duration time.Duration
	// Entries are the timeline's actions and observations in time order.
	Entries []Entry
	// Expectations are the checks' outcomes, in spec.expect order, then
	// the Failures.
	Expectations []Outcome
	// Failures are what went wrong with the run itself, whatever the
	// scenario expected: a livelock, a reconciler that panicked. Each is
	// also a failed outcome at the end of Expectations, so that every
	// report shows it and the run fails.
	Failures []Outcome
	// Requests counts API requests by actor, verb, kind and outcome.
	Requests []cluster.Stat
	// Network is the network's totals.
	Network netsim.Stats
	// Writes is the number of accepted writes: the audit records and
	// the heartbeats counted instead (Heartbeats).
	Writes int
	// Heartbeats are the heartbeat writes the audit log counted instead
	// of keeping (spec.measure.heartbeats: count); zero when it kept them.
	Heartbeats store.Heartbeats
	// TraceHash identifies the run: equal hashes, equal runs.
	TraceHash string
	// Audit is the store's audit log: every accepted write, but the
	// heartbeats counted in Heartbeats.
	Audit []store.AuditRecord
	// Reconciles are every controller reconcile of the run, in the order
	// they finished.
	Reconciles []Reconcile
	// ControllerActors maps each controller that reconciled (by its name
	// in Reconciles) to the actor its writes are audited under.
	ControllerActors map[string]string
	// Activity is what the controllers' machinery did by itself, in time
	// order: their informers' relists, reopened watches and resyncs, and
	// the leases they first acquired (-o timeline shows them, folded).
	Activity []Activity
	// Gaps are every measured object's gap between declared and actual
	// state over the run.
	Gaps *gap.Timeline
	// Measure is the scenario's spec.measure with its defaults filled in.
	Measure Measure
	// Timeouts count, by actor, the calls that timed out on the network
	// (a lost request or reply: the API server never counted them), in
	// actor order; actors without a timeout are left out.
	Timeouts []ActorTimeouts
	// Throttling is, by actor, how the paced clients (the controllers'
	// and the scheduler's) waited for their token buckets; actors that
	// never waited are left out.
	Throttling []ActorThrottling
	// Evictions is, by zone, how the node lifecycle controller paced the
	// NoExecute taints of not-Ready nodes; zones that lost no node after
	// settling are left out.
	Evictions []ZoneEvictions
	// TolerationSeconds is how long a pod tolerates the not-ready and
	// unreachable NoExecute taints unless it says otherwise (the
	// DefaultTolerationSeconds admission plugin's, spec.cluster's
	// defaultTolerationSeconds or 300).
	TolerationSeconds int64
	// Faults are the faults the run injected (spec.faults' profiles drawn
	// by the seed, and its schedule), by start time.
	Faults []scenarios.Fault
	// FaultsEnd is when the last fault ended (0 when none did).
	FaultsEnd time.Duration
	// Changes are the changes the scenario schedules outside its timeline
	// (load steps, Git commits, IaC runs), in time order: causes that
	// convergence is measured from, like the timeline's actions.
	Changes []Change
	// AssumedImages are the images no registry listed that the run
	// assumed to exist (spec.registry lists no images), as normalized
	// references, sorted.
	AssumedImages []string
}

// ActorTimeouts is how many of an actor's calls timed out.
type ActorTimeouts struct {
	Actor string
	Count uint64
}

// timeouts totals the network's call timeouts by the actor at each
// endpoint.
func timeouts(c *cluster.Cluster) []ActorTimeouts {
	by := map[string]uint64{}
	for _, e := range c.Net.Endpoints() {
		if n := e.CallTimeouts(); n > 0 {
			by[c.ActorAt(e.Addr())] += n
		}
	}
	out := make([]ActorTimeouts, 0, len(by))
	for _, a := range slices.Sorted(maps.Keys(by)) {
		out = append(out, ActorTimeouts{Actor: a, Count: by[a]})
	}
	return out
}

// Change is one scheduled change of a run's world.
type Change struct {
	// At is its virtual time; What says what changed ("load on
	// default/php-apache: 700 rps").
	At   time.Duration
	What string
}

// scheduledChanges lists the scenario's load steps and ramp points, Git
// commits and IaC runs after the start and within until, in time order
// (CSV loads, which change every sample, are left out).
func scheduledChanges(s *scenarios.Scenario, until time.Duration) []Change {
	var out []Change
	add := func(at time.Duration, what string) {
		if at > 0 && at <= until {
			out = append(out, Change{At: at, What: what})
		}
	}
	for _, l := range s.Spec.Load {
		ns, name := scenarios.SplitRef(l.Deployment)
		points := l.RPS.Steps
		if len(points) == 0 {
			points = l.RPS.Ramp
		}
		for _, p := range points {
			add(p.At.Duration, fmt.Sprintf("load on %s/%s: %g rps", ns, name, p.RPS))
		}
	}
	if g := s.Spec.GitOps; g != nil {
		for _, app := range g.Applications {
			for i, c := range app.Commits {
				add(c.At.Duration, fmt.Sprintf("git commit %d of application %s", i+1, app.Name))
			}
		}
	}
	if c := s.Spec.IaC; c != nil {
		for _, r := range c.Runs {
			add(r.Duration, "IaC run (plan and apply)")
		}
		if c.Every != nil && c.Every.Duration > 0 {
			for at := c.Every.Duration; at <= until; at += c.Every.Duration {
				add(at, "IaC run (plan and apply)")
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Change) int { return cmp.Compare(a.At, b.At) })
	return out
}

// Measure is how a run's gaps are judged.
type Measure struct {
	// GapSLO: a gap open longer than this is an incident.
	GapSLO time.Duration
	// Settle is how long every gap must stay closed to count as
	// converged.
	Settle time.Duration
	// Ignore are the kinds whose gaps count neither as incidents nor
	// against convergence.
	Ignore []api.Kind
}

// MeasureOf resolves a scenario's spec.measure with the defaults of
// package gap.
func MeasureOf(s *scenarios.Scenario) Measure {
	m := Measure{GapSLO: gap.DefaultSLO, Settle: gap.DefaultSettle}
	if d := s.Spec.Measure.GapSLO; d != nil {
		m.GapSLO = d.Duration
	}
	if d := s.Spec.Measure.Settle; d != nil {
		m.Settle = d.Duration
	}
	for _, k := range s.Spec.Measure.Ignore {
		if kind, ok := scenarios.ResolveKind(k); ok {
			m.Ignore = append(m.Ignore, kind)
		}
	}
	return m
}

// Reconcile is one finished reconcile of a controller.
type Reconcile struct {
	// Controller is the controller's name, Key the object reconciled.
	Controller string
	Key        api.Key
	// Start and End are virtual times from the start of the run.
	Start, End time.Duration
	// Err is the reconcile's error ("" for none); Requeue reports that it
	// asked to run again (Requeue or RequeueAfter).
	Err     string
	Requeue bool
}

// Passed reports whether every expectation held.
func (r *Result) Passed() bool {
	for _, o := range r.Expectations {
		if !o.Passed {
			return false
		}
	}
	return true
}

// Entry is one timeline step as it happened.
type Entry struct {
	// At is the virtual time of the step.
	At time.Duration
	// Command is the step as a kubectl command line (or a description of
	// a fault: "crash node worker-1").
	Command string
	// Lines are an action's output, as kubectl prints it.
	Lines []string
	// Err is an action's failure, as kubectl prints it ("error: ...",
	// "Error from server (NotFound): ...").
	Err string
	// Snapshot is an observation's data; nil for actions and for
	// observations printed as lines (audit log, app status, IaC state).
	Snapshot *Snapshot
	// Observation reports that the step only looked (get, describe,
	// events, rollout status, audit log, app status, IaC state): it
	// changed nothing, so it is not a cause convergence is measured from.
	Observation bool
	// System marks what the simulated system did by itself, no step of
	// the timeline (a controller losing its leader lease and restarting):
	// an observation that -o timeline shows.
	System bool
	// final adds lines when the run is over (a writer's "the store
	// shows"); nil once applied.
	final func() []string
}

// Activity is one thing a controller's machinery did by itself: an
// informer relisted, reopened its watch or resynced (informer.Activity),
// or the controller first acquired its leader lease. A lease lost, and
// acquired again by the restarted process, is a System Entry instead.
type Activity struct {
	// At is the virtual time it happened.
	At time.Duration
	// Controller is the controller's name (spec.controllers).
	Controller string
	// What is "relist", "rewatch", "resync" or "lease".
	What string
	// Reason says why the informer's last watch ended or it listed
	// again (informer.Reason*, or a refused request's error); empty for
	// a resync and a lease.
	Reason string
	// Subject is the informer's kind and selection ("Pod",
	// "Pod{node=worker-1}"), or the lease's name.
	Subject string
	// Failed counts the lists and watches that failed before it.
	Failed int
	// Objects is how many objects a relist listed or a resync replayed.
	Objects int
}

// Snapshot is what an observation saw: objects as they were at that
// instant (immutable: shared with the store's history).
type Snapshot struct {
	// What is "get", "describe", "events" or "rollout-history".
	What string
	// Kind is the kind listed or described.
	Kind api.Kind
	// Objects are the objects listed (get), the one described, or the
	// Deployment of a rollout status.
	Objects []api.Object
	// Related are the objects describe shows besides the object: a
	// Deployment's ReplicaSets, a ReplicaSet's or node's pods.
	Related []api.Object
	// Events are the events shown (describe, events), oldest first.
	Events []*api.Event
	// Wide is kubectl's -o wide.
	Wide bool
	// Namespace is the namespace listed ("" for all or cluster-scoped).
	Namespace string
	// AllNamespaces is kubectl's -A on a namespaced kind: the listing
	// has a NAMESPACE column.
	AllNamespaces bool
	// Now is the wall-clock instant of the observation, for ages.
	Now time.Time
	// Custom is how a custom kind is served (its printer columns), for
	// get; nil for the built-in kinds.
	Custom *api.ResourceInfo
	// History is a Deployment's rollout history (rollout-history), and
	// Revision the revision whose template to print (0: the table).
	History  *kubectl.History
	Revision int64
}

// Outcome is one expectation's result.
type Outcome struct {
	// Name describes the check.
	Name string
	// Passed reports whether it held.
	Passed bool
	// Detail says what was seen: when it held, or why it failed.
	Detail string
	// HeldAt is the virtual time the check held (for a "within" check,
	// the first time it did); meaningful when Passed.
	HeldAt time.Duration
}

// run is one run in progress.
type run struct {
	s   *scenarios.Scenario
	c   *cluster.Cluster
	res *Result
	// reconciles are kept apart until Finish gathers them into res.
	reconciles reconcileLog
	managers   map[string]*controller.Manager
	// processEps are the endpoints of kube-controller-manager's one
	// process and of its members (spec.cluster.controllerManager:
	// one-process), sorted: a network pattern naming one names them all
	// (matchAddr). Empty in the default mode.
	processEps []netsim.Addr
	users      map[string]client.Client
	nodes      *nodes
	checks     []*check
	metrics    *metrics.Source
	syncer     *gitops.Syncer
	iac        *iac.Tool
	faults     *faults
	// panics are each controller's recovered reconciler panics, by
	// controller name, in the order they happened.
	panics map[string][]panicked
	// partitions are the partitions in place, by name.
	partitions map[string]*partitionInPlace
	// unfinished are the user commands started, outputs the lines of
	// those that print as they go (see progress).
	unfinished []*unfinished
	// statusWatches are the rolloutStatus steps started.
	statusWatches []*statusWatch
	outputs       map[*scenarios.Step]*[]string
	// net holds the network steps in force.
	net netChanges
	// overlaid are the link directions a network step or a link fault
	// has set away from the scenario's rules (see applyLinks).
	overlaid map[dir]bool
	// throttle counts the paced clients' waits.
	throttle throttling
	// zones collects the node lifecycle controller's eviction pacing.
	zones zoneEvictions
}

// MaxEventsAtInstant is how many events may fire at one virtual time
// before a run is declared a livelock: far more than a large cluster's
// start-up fires at once, and a few seconds of CPU when the events are
// API writes.
const MaxEventsAtInstant = 500_000

// RootSeed is the seed a run of s with opts uses: opts.Seed, else
// spec.seed, else 1.
func RootSeed(s *scenarios.Scenario, opts Options) uint64 {
	switch {
	case opts.Seed != nil:
		return *opts.Seed
	case s.Spec.Seed != nil:
		return *s.Spec.Seed
	}
	return 1
}

// Run runs a loaded scenario.
func Run(s *scenarios.Scenario, opts Options) (*Result, error) {
	sess, err := Start(s, opts)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	if err := sess.Advance(sess.until); err != nil {
		return nil, err
	}
	if opts.Simulated != nil {
		opts.Simulated()
	}
	return sess.Finish(), nil
}

// eventTTL is the cluster's Config.EventTTL for spec.cluster.eventTTL:
// absent, the default; 0, none.
func eventTTL(d *api.Duration) time.Duration {
	switch {
	case d == nil:
		return 0
	case d.Duration == 0:
		return cluster.NoEventTTL
	}
	return d.Duration
}

// Session is a run in progress that its caller advances in steps
// (clustersim serve paces it against the wall clock and serves real
// clients between steps). Run is Start, Advance to the scenario's end,
// Finish. A Session is used from one goroutine.
type Session struct {
	r     *run
	opts  Options
	until time.Duration
	gaps  *gap.Tracker
	// stopped is set once the run has ended for a reason of its own (a
	// livelock): Advance then does nothing.
	stopped bool
}

// Start builds the cluster of a scenario and schedules its timeline,
// faults and expectations up to its end (opts.Until or spec.duration),
// without firing any event. Close it when done.
func Start(s *scenarios.Scenario, opts Options) (*Session, error) {
	if opts.Faults != nil {
		// A shallow copy: the scenario may be shared by parallel runs.
		cp := *s
		cp.Spec.Faults = opts.Faults
		s = &cp
	}
	seed := RootSeed(s, opts)
	until := s.Spec.Duration.Duration
	if opts.Until > 0 && opts.Until < until {
		until = opts.Until
	}
	def := s.Spec.Network.Default
	if opts.Link != nil {
		def = *opts.Link
	}
	link, err := scenarios.LinkConfig(def)
	if err != nil {
		return nil, err
	}
	cfg := cluster.Config{Seed: seed, Link: link}
	if t := s.Spec.Network.RequestTimeout; t != nil {
		cfg.RequestTimeout = t.Duration
	}
	cfg.EventTTL = eventTTL(s.Spec.Cluster.EventTTL)
	c, err := cluster.New(cfg)
	if err != nil {
		return nil, err
	}
	ok := false
	// However the start ends, a failed one ends its blocked processes too,
	// or their coroutines would keep the whole cluster alive.
	defer func() {
		if !ok {
			c.Close()
		}
	}()
	c.Store.Audit().CountHeartbeats(s.Spec.Measure.Heartbeats == scenarios.HeartbeatsCount)
	c.Store.Audit().BriefEvents(s.Spec.Measure.Events == scenarios.EventsBrief)
	r := &run{s: s, c: c, res: &Result{Scenario: s.Metadata.Name, Seed: seed, ControllerActors: map[string]string{}}, managers: map[string]*controller.Manager{}, users: map[string]client.Client{}}
	r.res.TolerationSeconds = apiserver.DefaultTolerationSecondsValue
	if t := s.Spec.Cluster.DefaultTolerationSeconds; t != nil {
		c.API.SetDefaultTolerationSeconds(*t, *t)
		r.res.TolerationSeconds = *t
	}
	if err := r.bootstrap(); err != nil {
		return nil, err
	}
	if err := r.startNodes(); err != nil {
		return nil, err
	}
	if err := r.startActors(); err != nil {
		return nil, err
	}
	if err := r.startAutoscaler(); err != nil {
		return nil, err
	}
	if err := r.startControllers(); err != nil {
		return nil, err
	}
	if err := r.scheduleFaults(until); err != nil {
		return nil, err
	}
	if !opts.NoTimeline {
		r.scheduleTimeline(until)
	}
	r.scheduleExpectations(until)
	// Every user's endpoint exists before the link rules are applied, so
	// that rules naming user/<name> reach them.
	if !opts.NoTimeline {
		for _, st := range s.Spec.Timeline {
			r.user(st.As)
		}
	}
	for _, u := range opts.Users {
		r.user(u)
	}
	if err := r.applyLinkRules(); err != nil {
		return nil, err
	}
	gaps, err := gap.Watch(c.Store, c.K)
	if err != nil {
		return nil, err
	}
	c.K.SetProfileWindow(opts.ProfileWindow)
	if opts.OnStart != nil {
		opts.OnStart(c)
	}
	c.K.SetProgress(opts.Progress)
	ok = true
	return &Session{r: r, opts: opts, until: until, gaps: gaps}, nil
}

// Cluster returns the session's cluster, to be used from the goroutine
// that advances it, between calls to Advance.
func (s *Session) Cluster() *cluster.Cluster { return s.r.c }

// Until is the end of the scenario: opts.Until or spec.duration.
func (s *Session) Until() time.Duration { return s.until }

// Now is the session's virtual time.
func (s *Session) Now() time.Duration { return s.r.c.K.Now().Duration() }

// Stopped reports whether the run ended on its own (a livelock: virtual
// time can no longer advance); Advance does nothing after.
func (s *Session) Stopped() bool { return s.stopped }

// Advance fires every event up to virtual time to (which may lie past the
// scenario's end: the cluster keeps running) and leaves the clock there.
// A livelock stops the run and is reported as a failure by Finish; the
// events cap is an error.
func (s *Session) Advance(to time.Duration) error {
	if s.stopped || to < s.Now() {
		return nil
	}
	c, res := s.r.c, s.r.res
	switch c.K.Run(kernel.Limits{Until: kernel.Time(to), MaxEvents: s.opts.MaxEvents, MaxEventsAtInstant: MaxEventsAtInstant}) {
	case kernel.Livelock:
		// Controllers that answer each other forever are a finding about
		// them, not bad input: the run fails and says what happened.
		s.stopped = true
		res.Failures = append(res.Failures, Outcome{Name: "virtual time kept advancing", Detail: fmt.Sprintf("virtual time stopped advancing at %s: %d events fired at that instant. Some actors answer each other with no delay at all, which no real network allows; give spec.network a latency (for example default: {latency: 1ms})",
			clock(c.K.Now().Duration()), MaxEventsAtInstant)})
	case kernel.EventCap:
		s.stopped = true
		return fmt.Errorf("the run fired %d events by %s, the events limit (raise it with --limit events=N if you mean it)", s.opts.MaxEvents, clock(c.K.Now().Duration()))
	}
	return nil
}

// Finish ends the run where the clock stands and returns its result:
// gaps, expectations, findings and the trace. Call it once.
func (s *Session) Finish() *Result {
	if s.opts.Progress != nil {
		// What follows fires no event: a watchdog must not take it
		// for a stall.
		s.opts.Progress.Finish()
	}
	r, c, res := s.r, s.r.c, s.r.res
	r.recordUnfinished()
	r.recordRunningStatus()
	res.Reconciles = r.reconciles.gather()
	for i := range res.Entries {
		if e := &res.Entries[i]; e.final != nil {
			e.Lines = append(slices.Clip(e.Lines), e.final()...)
			e.final = nil
		}
	}
	res.Gaps = s.gaps.Finish()
	if r.faults != nil {
		res.FaultsEnd = r.faults.end
	}
	r.finishExpectations(res.Gaps)
	res.Measure = MeasureOf(r.s)
	res.Changes = scheduledChanges(r.s, c.K.Now().Duration())
	res.Duration = c.K.Now().Duration()
	for _, st := range c.API.Stats() {
		res.Requests = append(res.Requests, cluster.Stat{Actor: st.Actor, Verb: st.Verb.String(), Kind: st.Kind.Name, Outcome: string(st.Outcome), Count: st.Count})
	}
	res.Network = c.Net.Stats()
	res.AssumedImages = r.nodes.registry.Assumed()
	res.Timeouts = timeouts(c)
	res.Throttling = r.throttle.result()
	res.Evictions = r.zones.result()
	res.Writes = c.Store.Audit().Total()
	res.Heartbeats = c.Store.Audit().Heartbeats()
	// Gathered into one slice the result shares with the log, not
	// copied beside it.
	res.Audit = c.Store.Audit().Flatten()
	res.TraceHash = c.TraceHash()
	slices.SortStableFunc(res.Entries, func(a, b Entry) int { return int(a.At - b.At) })
	detect := s.opts.Detect
	if detect == nil {
		detect = DefaultDetect
	}
	r.finishFindings(detect)
	res.Failures = append(res.Failures, r.panicFindings()...)
	res.Expectations = append(res.Expectations, res.Failures...)
	return res
}

// Close ends the simulation's processes (see cluster.Close).
func (s *Session) Close() { s.r.c.Close() }

// bootstrap creates the initial objects. A ResourceQuota gets the status
// the quota controller would have given it by the time the scenario
// starts, so that admission charges the objects bootstrapped after it.
func (r *run) bootstrap() error {
	for _, o := range r.s.Objects {
		obj := o.DeepCopyObject()
		if err := r.c.Bootstrap(obj); err != nil {
			return err
		}
		if q, ok := obj.(*api.ResourceQuota); ok {
			if err := r.settleQuota(q); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *run) settleQuota(q *api.ResourceQuota) error {
	ns := q.Namespace
	if ns == "" {
		ns = scenarios.DefaultNamespace
	}
	cur, err := r.c.Store.Get(api.KindResourceQuota, api.Key{Namespace: ns, Name: q.Name})
	if err != nil {
		return err
	}
	upd := cur.DeepCopyObject().(*api.ResourceQuota)
	upd.Status.Hard = upd.Spec.Hard.DeepCopy()
	upd.Status.Used = api.ResourceList{}
	for _, name := range upd.Spec.Hard.SortedNames() {
		upd.Status.Used[name] = api.Quantity{}
	}
	_, err = r.c.Store.Update(store.Op{Actor: cluster.AdminActor, Verb: "update"}, upd, "status")
	return err
}

// user returns the client of a user, creating it (and its endpoint
// "user/<name>") on first use.
func (r *run) user(name string) client.Client {
	if name == "" {
		name = "admin"
	}
	if c, ok := r.users[name]; ok {
		return c
	}
	c := r.c.Client(netsim.Addr("user/"+name), name)
	r.users[name] = c
	return c
}

// applyLinkRules sets the scenario's per-link rules on every matching
// pair of endpoints that exist; called again when nodes are added.
func (r *run) applyLinkRules() error {
	eps := r.c.Net.Endpoints()
	for i, rule := range r.s.Spec.Network.Links {
		cfg, err := scenarios.LinkConfig(rule.Link)
		if err != nil {
			return fmt.Errorf("spec.network.links[%d]: %w", i, err)
		}
		for _, from := range eps {
			for _, to := range eps {
				if from == to {
					continue
				}
				if r.matchAddr(rule.From, string(from.Addr())) && r.matchAddr(rule.To, string(to.Addr())) {
					if err := r.c.Net.SetLink(from.Addr(), to.Addr(), cfg); err != nil {
						return err
					}
				}
				if rule.Both && r.matchAddr(rule.From, string(to.Addr())) && r.matchAddr(rule.To, string(from.Addr())) {
					if err := r.c.Net.SetLink(from.Addr(), to.Addr(), cfg); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// matchAddr matches an endpoint name against a pattern that may end in
// "*", as matchAddr does, and, with kube-controller-manager as one
// process, a pattern that names any endpoint of the process (its own, a
// member controller's) names every one of them: they are one process on
// one connection, so a partition or a link fault of one controller is
// one of all, its shared watches included.
func (r *run) matchAddr(pattern, addr string) bool {
	if matchAddr(pattern, addr) {
		return true
	}
	if !r.inProcess(netsim.Addr(addr)) {
		return false
	}
	for _, a := range r.processEps {
		if matchAddr(pattern, string(a)) {
			return true
		}
	}
	return false
}

// inProcess reports whether addr is an endpoint of kube-controller-
// manager's one process (processEps) or of its leader election.
func (r *run) inProcess(addr netsim.Addr) bool {
	if len(r.processEps) == 0 {
		return false
	}
	base, _ := strings.CutSuffix(string(addr), LeaderElectionSuffix)
	_, found := slices.BinarySearch(r.processEps, netsim.Addr(base))
	return found
}

// matchAddr matches an endpoint name against a pattern that may end in
// "*"; an endpoint of a controller's leader election matches what the
// controller's does.
func matchAddr(pattern, addr string) bool {
	if base, ok := strings.CutSuffix(addr, LeaderElectionSuffix); ok && matchAddr(pattern, base) {
		return true
	}
	if p, ok := cutStar(pattern); ok {
		return len(addr) >= len(p) && addr[:len(p)] == p
	}
	return pattern == addr
}

func cutStar(p string) (string, bool) {
	if len(p) > 0 && p[len(p)-1] == '*' {
		return p[:len(p)-1], true
	}
	return p, false
}

// addrs expands endpoint patterns to the endpoints that exist now.
func (r *run) addrs(patterns []string) []netsim.Addr {
	var out []netsim.Addr
	for _, ep := range r.c.Net.Endpoints() {
		for _, p := range patterns {
			if r.matchAddr(p, string(ep.Addr())) {
				out = append(out, ep.Addr())
				break
			}
		}
	}
	return out
}

// now is the current virtual time as a wall-clock instant.
func (r *run) now() time.Time { return r.c.K.Now().Wall() }

// record appends an entry.
func (r *run) record(e Entry) { r.res.Entries = append(r.res.Entries, e) }
