package harness

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/clustersim/clustersim/report/measure"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// Config is what a swarm runs and how each run is judged. The zero value
// runs DefaultSeeds seeds under the scenario's own spec.faults, and
// judges by the scenario's expectations and the detector bounds (no
// fights, no hot loops).
type Config struct {
	// Seeds is how many seeds a swarm runs, FirstSeed and the ones after
	// it (default DefaultSeeds; -clustersim.seeds overrides it).
	Seeds int
	// FirstSeed is the first seed (default 1).
	FirstSeed uint64
	// Parallel is how many runs go at once (default GOMAXPROCS); verdicts
	// do not depend on it.
	Parallel int
	// Profiles, when non-nil, replace the scenario's spec.faults.profiles
	// (nil keeps them; an empty slice runs without profiles).
	Profiles []string
	// Target is the controller the faults aim at (default
	// spec.faults.target, else the one non-standard controller enabled).
	Target string
	// Invariants are checked after every change to the store, from the
	// start of the run to its end: a run fails at the first change that
	// breaks one.
	Invariants []Invariant
	// Eventually are checked once, on the state the run ends in: what
	// must be true once the controller has settled.
	Eventually []Invariant
	// Stable, when positive, asks for eventually stable reconciliation:
	// within Stable after the last fault ends, every gap between declared
	// and actual state has closed for good and the target controller has
	// stopped writing. The run must last past that point.
	Stable time.Duration
	// MaxFights and MaxHotLoops bound what the detectors may find in a
	// run (default 0: none); a negative bound is not checked.
	MaxFights, MaxHotLoops int
	// FailFast stops a swarm at its lowest failing seed: seeds above it
	// are not run (or their verdicts dropped), so the verdicts returned
	// are those of the seeds up to the first failure, whatever the
	// number of workers.
	FailFast bool
	// NoShrink skips shrinking a failing run's fault schedule.
	NoShrink bool
	// ShrinkRuns caps the runs a shrink may take (default 64).
	ShrinkRuns int
	// OutDir is where a shrunk schedule is written as a scenario file
	// (default -clustersim.out, else <os.TempDir()>/clustersim).
	OutDir string
}

// DefaultSeeds is a swarm's size when Config.Seeds is 0.
const DefaultSeeds = 50

// Invariant is a named predicate over the store.
type Invariant struct {
	// Name says what must hold ("one ConfigMap per Deployment").
	Name string
	// Check returns nil when the invariant holds in s, else what is
	// wrong. It must not change what it reads, and a swarm calls it from
	// several runs at once: it must keep no state of its own.
	Check func(s State) error
}

// State is a read-only view of the simulated API server's store at one
// instant. Objects are shared with the store: never change them.
type State struct {
	st  *store.Store
	now time.Duration
}

// Now is the virtual time from the start of the run.
func (s State) Now() time.Duration { return s.now }

// Get returns the object of kind in namespace ns named name.
func (s State) Get(kind api.Kind, ns, name string) (api.Object, bool) {
	o, err := s.st.Get(kind, api.Key{Namespace: ns, Name: name})
	return o, err == nil
}

// List returns the objects of kind in namespace ns ("" for all), sorted
// by namespace and name.
func (s State) List(kind api.Kind, ns string) []api.Object {
	objs, _, err := s.st.List(kind, store.ListOptions{Namespace: ns})
	if err != nil {
		return nil
	}
	return objs
}

// Verdict is one seed's run, judged.
type Verdict struct {
	// Seed is the run's root seed.
	Seed uint64
	// Failures say what failed, one line each; none means the run passed.
	Failures []string
	// Faults are the faults the run injected, by start time.
	Faults []Fault
	// TraceHash identifies the run (equal to clustersim run's).
	TraceHash string
	// Target is the controller the faults aimed at ("" without faults).
	Target string
	// Result is the finished run; a swarm keeps it for failing seeds only.
	Result *runner.Result
}

// Passed reports whether the run met every verdict.
func (v *Verdict) Passed() bool { return len(v.Failures) == 0 }

// Load loads a scenario file, or a built-in scenario by name.
func Load(path string) (*scenarios.Scenario, error) {
	if scenarios.IsBuiltin(path) {
		return scenarios.Builtin(path)
	}
	return scenarios.LoadFile(path)
}

// Run runs s once with seed and judges it by cfg.
func Run(s *scenarios.Scenario, seed uint64, cfg Config) (*Verdict, error) {
	f, err := faultsFor(s, cfg)
	if err != nil {
		return nil, err
	}
	return judge(s, seed, cfg, f)
}

// faultsFor is spec.faults with cfg's profiles and target.
func faultsFor(s *scenarios.Scenario, cfg Config) (*scenarios.Faults, error) {
	if cfg.Profiles == nil && cfg.Target == "" {
		return nil, nil
	}
	f := scenarios.Faults{}
	if s.Spec.Faults != nil {
		f = *s.Spec.Faults
	}
	if cfg.Profiles != nil {
		f.Profiles = slices.Clone(cfg.Profiles)
	}
	for _, p := range f.Profiles {
		if _, ok := scenarios.LookupProfile(p); !ok {
			return nil, fmt.Errorf("harness: unknown fault profile %q (known: %s)", p, strings.Join(Profiles(), ", "))
		}
	}
	if cfg.Target != "" {
		f.Target = cfg.Target
	}
	return &f, nil
}

// judge runs s with seed under faults (nil: the scenario's) and applies
// the verdicts.
func judge(s *scenarios.Scenario, seed uint64, cfg Config, faults *scenarios.Faults) (*Verdict, error) {
	v := &Verdict{Seed: seed}
	var st *store.Store
	inv := &invariants{list: cfg.Invariants}
	opts := runner.Options{Seed: &seed, Faults: faults, Detect: measure.Detect, OnStart: func(c *cluster.Cluster) {
		st = c.Store
		inv.install(c)
	}}
	res, err := runner.Run(s, opts)
	if err != nil {
		return nil, err
	}
	v.Result, v.TraceHash, v.Faults = res, res.TraceHash, res.Faults
	eff := s
	if faults != nil {
		cp := *s
		cp.Spec.Faults = faults
		eff = &cp
	}
	if eff.Spec.Faults != nil {
		v.Target, _ = scenarios.FaultTarget(eff)
	}
	for _, o := range res.Expectations {
		if !o.Passed {
			v.Failures = append(v.Failures, fmt.Sprintf("expectation %q failed: %s", o.Name, o.Detail))
		}
	}
	v.Failures = append(v.Failures, inv.failures...)
	end := State{st: st, now: res.Duration}
	for _, e := range cfg.Eventually {
		if err := e.Check(end); err != nil {
			v.Failures = append(v.Failures, fmt.Sprintf("eventually %q: at the end (%s): %v", e.Name, clock(res.Duration), err))
		}
	}
	if cfg.Stable > 0 {
		v.Failures = append(v.Failures, stable(res, cfg.Stable, targetFor(cfg, eff))...)
	}
	if cfg.MaxFights >= 0 || cfg.MaxHotLoops >= 0 {
		rep := measure.Analyze(res, measure.Options{})
		if cfg.MaxFights >= 0 && len(rep.Fights) > cfg.MaxFights {
			v.Failures = append(v.Failures, fmt.Sprintf("detectors: %d fights (at most %d)", len(rep.Fights), cfg.MaxFights))
		}
		if cfg.MaxHotLoops >= 0 && len(rep.HotLoops) > cfg.MaxHotLoops {
			v.Failures = append(v.Failures, fmt.Sprintf("detectors: %d hot loops (at most %d)", len(rep.HotLoops), cfg.MaxHotLoops))
		}
		if len(rep.Fights) > max(cfg.MaxFights, 0) || len(rep.HotLoops) > max(cfg.MaxHotLoops, 0) {
			for _, l := range rep.Summary() {
				v.Failures = append(v.Failures, "  "+l)
			}
		}
	}
	return v, nil
}

// targetFor is the controller whose writes must stop: cfg.Target, the
// fault target, else every registered controller the scenario runs.
func targetFor(cfg Config, s *scenarios.Scenario) []string {
	if cfg.Target != "" {
		return []string{cfg.Target}
	}
	if t, err := scenarios.FaultTarget(s); err == nil {
		return []string{t}
	}
	var out []string
	for _, n := range controller.Registered() {
		if scenarios.Enabled(s.Spec.Controllers, n) {
			out = append(out, n)
		}
	}
	return out
}

// stable checks eventually stable reconciliation: from the moment the
// world goes quiet (the last fault's end, the last timeline action or
// scheduled change, whichever is later) plus within, no gap is open and
// the targets write nothing.
func stable(res *runner.Result, within time.Duration, targets []string) []string {
	quiet := res.FaultsEnd
	for _, e := range res.Entries {
		if !e.Observation {
			quiet = max(quiet, e.At)
		}
	}
	for _, c := range res.Changes {
		quiet = max(quiet, c.At)
	}
	deadline := quiet + within
	if res.Duration < deadline {
		return []string{fmt.Sprintf("stable: the run ends at %s, before the last fault or action (%s) plus %v: lengthen spec.duration", clock(res.Duration), clock(quiet), within)}
	}
	var out []string
	ignored := func(k api.Kind) bool { return slices.Contains(res.Measure.Ignore, k) }
	if res.Gaps != nil {
		for _, iv := range res.Gaps.Intervals() {
			if ignored(iv.Kind) || iv.To <= deadline {
				continue
			}
			state := "closed at " + clock(iv.To)
			if iv.Open {
				state = "still open at the end"
			}
			out = append(out, fmt.Sprintf("stable: the gap of %s opened at %s, %s: not closed by %s (quiet from %s + %v)", iv.Object, clock(iv.From), state, clock(deadline), clock(quiet), within))
			break
		}
	}
	for _, name := range targets {
		actor := res.ControllerActors[name]
		if d, ok := controller.Lookup(name); ok {
			actor = d.Actor
		}
		if actor == "" {
			continue
		}
		n, first := 0, ""
		for i := range res.Audit {
			a := &res.Audit[i]
			if a.Actor != actor || a.Time.Duration() <= deadline {
				continue
			}
			if n == 0 {
				first = fmt.Sprintf("%s %s %s %s", clock(a.Time.Duration()), a.Verb, a.Kind, a.Key)
			}
			n++
		}
		if n > 0 {
			out = append(out, fmt.Sprintf("stable: controller %s still writes after %s (quiet from %s + %v): %d writes, the first %s", name, clock(deadline), clock(quiet), within, n, first))
		}
	}
	return out
}

// invariants checks the invariants after every store event.
type invariants struct {
	list     []Invariant
	failed   []bool
	failures []string
}

func (inv *invariants) install(c *cluster.Cluster) {
	if len(inv.list) == 0 {
		return
	}
	inv.failed = make([]bool, len(inv.list))
	check := func(what string) {
		s := State{st: c.Store, now: c.K.Now().Duration()}
		for i, in := range inv.list {
			if inv.failed[i] {
				continue
			}
			if err := in.Check(s); err != nil {
				inv.failed[i] = true
				inv.failures = append(inv.failures, fmt.Sprintf("invariant %q broken at %s, %s: %v", in.Name, clock(s.now), what, err))
			}
		}
	}
	check("at the start")
	audit := c.Store.Audit()
	sink := store.SinkFunc(func(e store.Event) {
		what := fmt.Sprintf("%s %s", strings.ToLower(e.Type.String()), e.Object.GetObjectMeta().Key())
		if r, ok := audit.Latest(); ok {
			what = fmt.Sprintf("after %s %s %s by %s", r.Verb, r.Kind, r.Key, r.Actor)
		}
		check(what)
	})
	rv := c.Store.ResourceVersion()
	for _, k := range api.Kinds() {
		if _, err := c.Store.Watch(k, rv, store.ListOptions{}, sink); err != nil {
			inv.failures = append(inv.failures, fmt.Sprintf("invariants: cannot watch %s: %v", k, err))
		}
	}
}

// Swarm runs cfg.Seeds seeds of s, cfg.Parallel at once, and returns their
// verdicts in seed order. A failing seed's verdict keeps its Result.
func Swarm(s *scenarios.Scenario, cfg Config) ([]*Verdict, error) {
	n := cfg.Seeds
	if n <= 0 {
		n = DefaultSeeds
	}
	first := cfg.FirstSeed
	if first == 0 {
		first = 1
	}
	f, err := faultsFor(s, cfg)
	if err != nil {
		return nil, err
	}
	out := make([]*Verdict, n)
	errs := make([]error, n)
	workers := cfg.Parallel
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// lowest is the lowest failing seed's index so far (FailFast): no
	// worker starts a seed above it. Seeds are handed out in order, so
	// every seed below the final lowest one runs.
	var mu sync.Mutex
	lowest := n
	next := make(chan int)
	var wg sync.WaitGroup
	defer kernel.InlineSinksFor(min(workers, n))()
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				mu.Lock()
				skip := i > lowest
				mu.Unlock()
				if skip {
					continue
				}
				v, err := judge(s, first+uint64(i), cfg, f)
				if err == nil && v.Passed() {
					v.Result = nil // a swarm of thousands keeps no audit logs
				}
				out[i], errs[i] = v, err
				if cfg.FailFast && (err != nil || !v.Passed()) {
					mu.Lock()
					lowest = min(lowest, i)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if cfg.FailFast && lowest < n {
		out, errs = out[:lowest+1], errs[:lowest+1]
	}
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("seed %d: %w", first+uint64(i), err)
		}
	}
	return out, nil
}

// clock renders a run time as m:ss.s.
func clock(d time.Duration) string {
	ms := d.Milliseconds()
	return fmt.Sprintf("%d:%02d.%d", ms/60000, ms/1000%60, ms/100%10)
}
