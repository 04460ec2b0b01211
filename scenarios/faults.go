package scenarios

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/api"
)

// Faults is spec.faults: the faults a run injects into one controller,
// drawn from named profiles (composed: each adds its events) and listed
// explicitly. Profiles draw their events from the run's seed, so a seed
// names one fault schedule; a run reports the schedule it injected, and
// that schedule written back as Schedule (without Profiles) replays it.
type Faults struct {
	// Target is the controller the faults aim at, by its name in
	// spec.controllers; default the one enabled controller that is not a
	// standard one (a registered or opt-in controller).
	Target string `json:"target,omitempty" yaml:"target,omitempty"`
	// Profiles are fault profiles by name (see Profiles): perfect, lossy,
	// slow-apiserver, partition, broken-watches, lagging-cache, crashes,
	// crash-after-writes.
	Profiles []string `json:"profiles,omitempty" yaml:"profiles,omitempty"`
	// Window is the span profiles place their faults in, from the start:
	// every fault a profile draws has ended by then (default half of
	// spec.duration), so that the rest of the run shows whether the
	// controller settles.
	Window *api.Duration `json:"window,omitempty" yaml:"window,omitempty"`
	// Schedule are faults at given times, injected as well as the
	// profiles' ones.
	Schedule []Fault `json:"schedule,omitempty" yaml:"schedule,omitempty"`
}

// FaultType names what a Fault does.
type FaultType string

// The fault types.
const (
	// FaultLossy drops (Drop) and duplicates (Duplicate) requests and
	// replies between the target and the API server, both ways.
	FaultLossy FaultType = "lossy"
	// FaultSlowAPIServer makes the API server spend Delay on every
	// request before it answers (every client suffers).
	FaultSlowAPIServer FaultType = "slow-apiserver"
	// FaultPartition cuts the target off the API server.
	FaultPartition FaultType = "partition"
	// FaultBrokenWatch breaks the target's watch streams (each event
	// breaks its stream with probability StreamBreak) and compacts the
	// store's watch history at its start, so that re-watching fails with
	// 410 Expired and the informers relist.
	FaultBrokenWatch FaultType = "broken-watch"
	// FaultCacheLag delays every watch event the target receives by
	// Delay: its informer cache shows the store that late while its
	// requests are answered at once (Sieve's stale reads).
	FaultCacheLag FaultType = "cache-lag"
	// FaultCrash crashes the target at At and restarts it after For.
	FaultCrash FaultType = "crash"
	// FaultCrashAfterWrites crashes the target right after the Writes-th
	// write of its that the API server accepted from At on (before it
	// can see the reply: an intermediate state), and restarts it after
	// For.
	FaultCrashAfterWrites FaultType = "crash-after-writes"
)

var faultTypes = []FaultType{FaultLossy, FaultSlowAPIServer, FaultPartition, FaultBrokenWatch, FaultCacheLag, FaultCrash, FaultCrashAfterWrites}

// Fault is one injected fault: from At, for For.
type Fault struct {
	// At is when the fault starts, from the start of the run.
	At api.Duration `json:"at" yaml:"at"`
	// For is how long it lasts; for a crash, how long the controller stays
	// down.
	For api.Duration `json:"for,omitempty" yaml:"for,omitempty"`
	// Type is what it does.
	Type FaultType `json:"type" yaml:"type"`
	// Target is the controller it aims at (default spec.faults.target).
	Target string `json:"target,omitempty" yaml:"target,omitempty"`
	// Drop and Duplicate are the lossy fault's probabilities.
	Drop      float64 `json:"drop,omitempty" yaml:"drop,omitempty"`
	Duplicate float64 `json:"duplicate,omitempty" yaml:"duplicate,omitempty"`
	// StreamBreak is the broken watch's probability per event.
	StreamBreak float64 `json:"streamBreak,omitempty" yaml:"streamBreak,omitempty"`
	// Delay is the slow API server's time per request, or the cache lag.
	Delay api.Duration `json:"delay,omitempty" yaml:"delay,omitempty"`
	// Writes is k of crash-after-writes.
	Writes int `json:"writes,omitempty" yaml:"writes,omitempty"`
}

// End is when the fault stops (for a crash after writes, the earliest:
// the crash itself comes later).
//
// It saturates at the largest duration: a fault may last as long as a
// duration can (at and for are not negative).
func (f Fault) End() time.Duration {
	if f.For.Duration > math.MaxInt64-f.At.Duration {
		return math.MaxInt64
	}
	return f.At.Duration + f.For.Duration
}

// String describes the fault on one line, e.g. "0:12.5 lossy
// controller/web (drop 0.2, duplicate 0.1) for 4s".
func (f Fault) String() string {
	var what string
	switch f.Type {
	case FaultLossy:
		what = fmt.Sprintf("lossy controller/%s<->apiserver (drop %g, duplicate %g)", f.Target, f.Drop, f.Duplicate)
	case FaultSlowAPIServer:
		what = fmt.Sprintf("slow apiserver (%v per request)", f.Delay.Duration)
	case FaultPartition:
		what = fmt.Sprintf("partition controller/%s from apiserver", f.Target)
	case FaultBrokenWatch:
		what = fmt.Sprintf("broken watches to controller/%s (break %g per event, history compacted: 410)", f.Target, f.StreamBreak)
	case FaultCacheLag:
		what = fmt.Sprintf("cache of controller/%s lags by %v", f.Target, f.Delay.Duration)
	case FaultCrash:
		return fmt.Sprintf("%v crash controller %s, restart after %v", f.At.Duration, f.Target, f.For.Duration)
	case FaultCrashAfterWrites:
		return fmt.Sprintf("%v crash controller %s after its write #%d, restart after %v", f.At.Duration, f.Target, f.Writes, f.For.Duration)
	default:
		what = string(f.Type)
	}
	return fmt.Sprintf("%v %s for %v", f.At.Duration, what, f.For.Duration)
}

// ProfileInput is what a profile draws its faults for.
type ProfileInput struct {
	// Target is the controller the faults aim at.
	Target string
	// Window is the span the faults must fit in (each ends by then).
	Window time.Duration
	// Seed is the run's root seed (crash-after-writes numbers its k by
	// it).
	Seed uint64
	// Rand is the run's "faults" random stream.
	Rand *rand.Rand
}

// Profile draws a fault schedule; it must use only in.Rand for
// randomness so that a seed names one schedule.
type Profile func(in ProfileInput) []Fault

var (
	profilesMu sync.RWMutex
	profiles   = map[string]Profile{
		"perfect":            func(ProfileInput) []Fault { return nil },
		"lossy":              windows(FaultLossy, 2, 3*time.Second, 15*time.Second, func(f *Fault, r *rand.Rand) { f.Drop, f.Duplicate = 0.3, 0.2 }),
		"slow-apiserver":     windows(FaultSlowAPIServer, 2, 3*time.Second, 10*time.Second, func(f *Fault, r *rand.Rand) { f.Delay = ms(200 + r.IntN(800)) }),
		"partition":          windows(FaultPartition, 2, 2*time.Second, 15*time.Second, nil),
		"broken-watches":     windows(FaultBrokenWatch, 2, 5*time.Second, 15*time.Second, func(f *Fault, r *rand.Rand) { f.StreamBreak = 0.5 }),
		"lagging-cache":      windows(FaultCacheLag, 2, 10*time.Second, 30*time.Second, func(f *Fault, r *rand.Rand) { f.Delay = ms(1000 + r.IntN(4000)) }),
		"crashes":            windows(FaultCrash, 3, time.Second, 5*time.Second, nil),
		"crash-after-writes": crashAfterWrites,
	}
)

func ms(n int) api.Duration { return api.Duration{Duration: time.Duration(n) * time.Millisecond} }

// windows is a profile of n faults of type typ, each lasting between
// lo and hi, starting at random in the window; set fills in the rest.
func windows(typ FaultType, n int, lo, hi time.Duration, set func(f *Fault, r *rand.Rand)) Profile {
	return func(in ProfileInput) []Fault {
		var out []Fault
		for range n {
			d := lo + time.Duration(in.Rand.Int64N(int64(hi-lo)+1))
			d = d.Truncate(100 * time.Millisecond)
			span := in.Window - d - time.Second
			if span <= 0 {
				continue
			}
			at := time.Second + time.Duration(in.Rand.Int64N(int64(span))).Truncate(100*time.Millisecond)
			f := Fault{At: api.Duration{Duration: at}, For: api.Duration{Duration: d}, Type: typ, Target: in.Target}
			if set != nil {
				set(&f, in.Rand)
			}
			out = append(out, f)
		}
		return out
	}
}

// crashAfterWrites crashes the target right after its seed-th accepted
// write and restarts it 2s later: the seeds 1..N of a swarm try every k up
// to N, each intermediate state the controller leaves between writes.
func crashAfterWrites(in ProfileInput) []Fault {
	return []Fault{{Type: FaultCrashAfterWrites, Target: in.Target, Writes: int(in.Seed), For: api.Duration{Duration: 2 * time.Second}}}
}

// RegisterProfile adds a profile that spec.faults.profiles and
// --faults can name. It fails for a name already taken.
func RegisterProfile(name string, p Profile) error {
	profilesMu.Lock()
	defer profilesMu.Unlock()
	if _, ok := profiles[name]; ok {
		return fmt.Errorf("fault profile %q already exists", name)
	}
	profiles[name] = p
	return nil
}

// LookupProfile returns the profile named name.
func LookupProfile(name string) (Profile, bool) {
	profilesMu.RLock()
	defer profilesMu.RUnlock()
	p, ok := profiles[name]
	return p, ok
}

// ProfileNames lists the profiles, sorted.
func ProfileNames() []string {
	profilesMu.RLock()
	defer profilesMu.RUnlock()
	out := make([]string, 0, len(profiles))
	for n := range profiles {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// FaultWindow is the span a scenario's profiles place faults in.
func FaultWindow(s *Scenario) time.Duration {
	if f := s.Spec.Faults; f != nil && f.Window != nil {
		return f.Window.Duration
	}
	return s.Spec.Duration.Duration / 2
}

// FaultTarget resolves spec.faults.target: the target named, else the one
// enabled controller that is not a standard one.
func FaultTarget(s *Scenario) (string, error) {
	if f := s.Spec.Faults; f != nil && f.Target != "" {
		return f.Target, nil
	}
	var cands []string
	for _, name := range AllControllers() {
		if Enabled(s.Spec.Controllers, name) && (!slices.Contains(Controllers, name) || slices.Contains(OptInControllers, name)) {
			cands = append(cands, name)
		}
	}
	switch len(cands) {
	case 0:
		return "", errors.New("no registered or opt-in controller runs for the faults to aim at; name one in spec.faults.target")
	case 1:
	default:
		return "", fmt.Errorf("name the controller the faults aim at in spec.faults.target (candidates: %s)", strings.Join(cands, ", "))
	}
	return cands[0], nil
}

// Schedule draws the fault schedule of a run: every profile's faults in
// spec.faults.profiles order, then the explicit ones, each with its target
// filled in, sorted by start (stably).
func Schedule(s *Scenario, seed uint64, r *rand.Rand) ([]Fault, error) {
	f := s.Spec.Faults
	if f == nil {
		return nil, nil
	}
	target, err := FaultTarget(s)
	if err != nil {
		return nil, err
	}
	in := ProfileInput{Target: target, Window: FaultWindow(s), Seed: seed, Rand: r}
	var out []Fault
	for _, name := range f.Profiles {
		p, ok := LookupProfile(name)
		if !ok {
			return nil, fmt.Errorf("spec.faults.profiles: unknown profile %q (known: %s)", name, strings.Join(ProfileNames(), ", "))
		}
		out = append(out, p(in)...)
	}
	for _, ft := range f.Schedule {
		if ft.Target == "" {
			ft.Target = target
		}
		out = append(out, ft)
	}
	slices.SortStableFunc(out, func(a, b Fault) int { return int(a.At.Duration - b.At.Duration) })
	return out, nil
}

// validateFaults checks spec.faults.
func (l *loader) faults(s *Scenario, w *world) error {
	f := s.Spec.Faults
	if f == nil {
		return nil
	}
	for i, name := range f.Profiles {
		if _, ok := LookupProfile(name); !ok {
			return l.errorf(fmt.Sprintf("spec.faults.profiles[%d]", i), "unknown profile %q (known: %s)", name, strings.Join(ProfileNames(), ", "))
		}
	}
	if f.Window != nil && (f.Window.Duration <= 0 || f.Window.Duration > s.Spec.Duration.Duration) {
		return l.errorf("spec.faults.window", "must be positive and at most spec.duration")
	}
	if f.Target != "" && !w.controllers[f.Target] {
		if err := processNamed(s, w.controllers, f.Target); err != "" {
			return l.errorf("spec.faults.target", "%s", err)
		}
		return l.errorf("spec.faults.target", "controller %q is not running in this scenario (running: %s)", f.Target, strings.Join(sortedKeys(w.controllers), ", "))
	}
	if _, err := FaultTarget(s); err != nil && (len(f.Profiles) > 0 || slices.ContainsFunc(f.Schedule, func(x Fault) bool { return x.Target == "" })) {
		return l.errorf("spec.faults", "%v", err)
	}
	w.faulted = map[string]bool{}
	if t, err := FaultTarget(s); err == nil {
		w.faulted[processOf(s, t)] = true
	}
	for i, ft := range f.Schedule {
		p := fmt.Sprintf("spec.faults.schedule[%d]", i)
		w.faulted[processOf(s, ft.Target)] = true
		if !slices.Contains(faultTypes, ft.Type) {
			return l.errorf(p+".type", "unknown fault %q (known: %s)", ft.Type, joinTypes())
		}
		if ft.Target != "" && !w.controllers[ft.Target] {
			if err := processNamed(s, w.controllers, ft.Target); err != "" {
				return l.errorf(p+".target", "%s", err)
			}
			return l.errorf(p+".target", "controller %q is not running in this scenario", ft.Target)
		}
		if ft.At.Duration < 0 || ft.For.Duration < 0 || ft.Delay.Duration < 0 {
			return l.errorf(p, "at, for and delay must not be negative")
		}
		if err := l.inRun(p+".at", ft.At.Duration, s); err != nil {
			return err
		}
		for _, q := range []struct {
			n string
			v float64
		}{{"drop", ft.Drop}, {"duplicate", ft.Duplicate}, {"streamBreak", ft.StreamBreak}} {
			if !(q.v >= 0 && q.v <= 1) {
				return l.errorf(p+"."+q.n, "%v is not a probability in [0, 1]", q.v)
			}
		}
		if ft.Type == FaultCrashAfterWrites && ft.Writes < 1 {
			return l.errorf(p+".writes", "must be at least 1")
		}
		if ft.Type != FaultCrash && ft.Type != FaultCrashAfterWrites && ft.For.Duration == 0 {
			return l.errorf(p+".for", "a %s fault needs a duration", ft.Type)
		}
	}
	return nil
}

func joinTypes() string {
	out := make([]string, len(faultTypes))
	for i, t := range faultTypes {
		out[i] = string(t)
	}
	return strings.Join(out, ", ")
}

// WithSchedule returns the scenario's file with spec.seed set to seed and
// spec.faults replaced by an explicit schedule (no profiles): the same
// run, its faults written out, for a replay or a shrunk failing case. name, when set, replaces
// metadata.name. Comments and the order of the other fields are kept.
func (s *Scenario) WithSchedule(name string, seed uint64, target string, faults []Fault) ([]byte, error) {
	root, doc, spec, err := s.cloneSpec()
	if err != nil {
		return nil, err
	}
	if name != "" {
		if md := mapValue(doc, "metadata"); md != nil {
			if n := mapValue(md, "name"); n != nil {
				n.Value = name
			}
		}
	}
	fn, err := s.faultsNode(target, faults)
	if err != nil {
		return nil, err
	}
	setMapValue(spec, "faults", fn)
	if err := s.inlineManifests(spec); err != nil {
		return nil, err
	}
	setMapValue(spec, "seed", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.FormatUint(seed, 10)})
	return encodeRoot(root)
}

// cloneSpec returns a copy of the scenario's YAML tree: its root, the
// document's mapping and its spec.
func (s *Scenario) cloneSpec() (root, doc, spec *yaml.Node, err error) {
	if s.root == nil {
		return nil, nil, nil, fmt.Errorf("scenario %s: no source", s.Metadata.Name)
	}
	root = cloneNode(s.root)
	doc = root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	if spec = mapValue(doc, "spec"); spec == nil {
		return nil, nil, nil, fmt.Errorf("scenario %s: no spec", s.File)
	}
	return root, doc, spec, nil
}

// encodeRoot writes a scenario's YAML tree with two-space indents.
func encodeRoot(root *yaml.Node) ([]byte, error) {
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

// faultsNode is spec.faults as an explicit schedule: target, the faults
// and the window of s.
func (s *Scenario) faultsNode(target string, faults []Fault) (*yaml.Node, error) {
	f := map[string]any{"target": target}
	sched := []any{}
	for _, ft := range faults {
		m := map[string]any{"at": ft.At.Duration.String(), "type": string(ft.Type)}
		if ft.For.Duration > 0 {
			m["for"] = ft.For.Duration.String()
		}
		if ft.Target != "" && ft.Target != target {
			m["target"] = ft.Target
		}
		for k, v := range map[string]float64{"drop": ft.Drop, "duplicate": ft.Duplicate, "streamBreak": ft.StreamBreak} {
			if v != 0 {
				m[k] = v
			}
		}
		if ft.Delay.Duration > 0 {
			m["delay"] = ft.Delay.Duration.String()
		}
		if ft.Writes > 0 {
			m["writes"] = ft.Writes
		}
		sched = append(sched, m)
	}
	f["schedule"] = sched
	if w := s.Spec.Faults; w != nil && w.Window != nil {
		f["window"] = w.Window.Duration.String()
	}
	var fn yaml.Node
	if err := fn.Encode(f); err != nil {
		return nil, err
	}
	return &fn, nil
}

// inlineManifests replaces the manifest files spec refers to
// (spec.objects items {file: name} and timeline steps apply: {file: name})
// with their documents, as read at load, so that a scenario written
// elsewhere (a shrunk schedule in a temporary directory) loads the same
// objects without the files beside it.
func (s *Scenario) inlineManifests(spec *yaml.Node) error {
	docs := func(name string) ([]*yaml.Node, error) {
		data, ok := s.refs[name]
		if !ok {
			return nil, fmt.Errorf("scenario %s: file %q was not read at load", s.File, name)
		}
		var out []*yaml.Node
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		for {
			var d yaml.Node
			err := dec.Decode(&d)
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			if err != nil {
				return nil, fmt.Errorf("scenario %s: file %q: %w", s.File, name, err)
			}
			if len(d.Content) > 0 && d.Content[0].Kind != 0 && !(d.Content[0].Kind == yaml.ScalarNode && d.Content[0].Tag == "!!null") {
				out = append(out, d.Content[0])
			}
		}
	}
	onlyFile := func(n *yaml.Node) (string, bool) {
		if n == nil || n.Kind != yaml.MappingNode || len(n.Content) != 2 || n.Content[0].Value != "file" {
			return "", false
		}
		return n.Content[1].Value, true
	}
	if objs := mapValue(spec, "objects"); objs != nil && objs.Kind == yaml.SequenceNode {
		var items []*yaml.Node
		for _, it := range objs.Content {
			name, ok := onlyFile(it)
			if !ok {
				items = append(items, it)
				continue
			}
			ds, err := docs(name)
			if err != nil {
				return err
			}
			items = append(items, ds...)
		}
		objs.Content = items
	}
	if tl := mapValue(spec, "timeline"); tl != nil && tl.Kind == yaml.SequenceNode {
		for _, step := range tl.Content {
			apply := mapValue(step, "apply")
			name, ok := onlyFile(apply)
			if !ok {
				continue
			}
			ds, err := docs(name)
			if err != nil {
				return err
			}
			*apply = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{
				{Kind: yaml.ScalarNode, Tag: "!!str", Value: "objects"},
				{Kind: yaml.SequenceNode, Tag: "!!seq", Content: ds},
			}}
		}
	}
	return nil
}

func cloneNode(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = cloneNode(k)
	}
	return &c
}

// mapValue returns the value of key in the mapping m, or nil (also for a
// nil m).
func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func setMapValue(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}
