package measure

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// Report is every measurement of one run.
type Report struct {
	// Scenario and Seed identify the run measured.
	Scenario string
	Seed     uint64
	// Flaps are the fields whose values reversed (A→B→A), by kind, key
	// and path.
	Flaps []Flap
	// NoOpWrites count accepted writes that changed nothing, by actor and
	// kind.
	NoOpWrites []NoOps
	// GenerationGrowth lists objects whose generation grew without spec
	// intent, by kind and key.
	GenerationGrowth []Growth
	// Fights are fields that two or more actors kept setting to
	// different values, by kind, key and path.
	Fights []Fight
	// HotLoops are stretches in which a controller reconciled fast
	// without changing anything, by controller and start.
	HotLoops []HotLoop
	// Cost is what the run cost in requests, reconciles and events.
	Cost Cost
	// Gaps is what the gap timeline says: incidents, convergence, stale
	// success.
	Gaps Gaps
}

// Flap is one object's field whose value kept coming back.
type Flap struct {
	// Kind and Key name the object, Path the field (store.Change paths).
	Kind api.Kind
	Key  api.Key
	Path string
	// Reversals counts values returning to the value they had two
	// distinct values before, within Options.FlapWindow.
	Reversals int
	// Values is the field's sequence of values ("<unset>" for absent),
	// capped at Options.ValueCap.
	Values []string
	// Actors are the actors whose writes changed the field, sorted.
	Actors []string
	// First and Last are the first and last reversal, from the start of
	// the run.
	First, Last time.Duration
}

// NoOps counts one actor's writes to one kind that changed nothing.
type NoOps struct {
	Actor string
	Kind  api.Kind
	// Count is the number of no-op writes.
	Count int
}

// Growth is one object's generation growth. Generation grows with every
// write that changes the object's spec; a bump has spec intent when the
// writer is a user (an actor not starting with "system:") or the actor
// that created the object (a Deployment controller scaling its own
// ReplicaSet), or when the write only fills spec fields that were unset
// (the scheduler binding a pod sets spec.nodeName). Growth is reported when Generations > SpecIntentWrites:
// some other controller kept changing the spec.
type Growth struct {
	Kind api.Kind
	Key  api.Key
	// Generations is the number of generation bumps after creation.
	Generations int
	// SpecIntentWrites is the number of those bumps with spec intent.
	SpecIntentWrites int
	// Actors are the controllers whose bumps had no spec intent, sorted.
	Actors []string
}

// Fight is a field that several actors alternately set to different
// values.
type Fight struct {
	Kind api.Kind
	Key  api.Key
	Path string
	// Actors are the writers involved, sorted.
	Actors []string
	// Alternations counts successive changes of the field by different
	// actors.
	Alternations int
	// First and Last are the first and last alternation, from the start
	// of the run.
	First, Last time.Duration
	// Values are what each actor set, by actor.
	Values []Set
}

// Set is what one actor wrote to a fought-over field.
type Set struct {
	Actor string
	// Values are the distinct values it set, in the order first set.
	Values []string
	// Writes is the number of its writes that changed the field.
	Writes int
}

// HotLoop is a stretch of consecutive windows in which a controller
// reconciled faster than Options.HotRate while the store did not change:
// with an attributed actor (Options.ControllerActors), no accepted write
// by that actor changed a measured field; without one, no write by
// anyone did. Bookkeeping changes (Options.Ignore) do not count as
// change, so heartbeats and lease renewals do not hide a hot loop. A
// window is hot only if its keys come back (more than two reconciles per
// key) and it has more than two reconciles per accepted write that is
// not a heartbeat: a controller working through the events of a cluster
// starting up, or of a zone failing, is not looping.
type HotLoop struct {
	Controller string
	// Start is the first window's start, from the start of the run;
	// Window the stretch's length.
	Start  time.Duration
	Window time.Duration
	// Reconciles is how many reconciles started in the stretch, and
	// PerSecond their rate.
	Reconciles int
	PerSecond  float64
	// Errors is how many of them failed.
	Errors int
	// WritesCaused counts the accepted writes (no-ops included) by the
	// controller's actor in the stretch; 0 without attribution.
	WritesCaused int
}

// Cost is what a run cost.
type Cost struct {
	// Requests are the API server's request counts, sorted by actor,
	// verb, kind and outcome.
	Requests []Request
	// Actors total the requests of each actor, sorted by actor.
	Actors []ActorCost
	// Controllers total each controller's reconciles, sorted by name.
	Controllers []ControllerCost
	// Writes is the number of accepted writes, NoOps those that changed
	// nothing.
	Writes, NoOps int
	// Events is the number of Events created, EventUpdates the number of
	// updates to existing Events (count bumps of repeated events).
	Events, EventUpdates int
}

// Request is one row of the API server's request counts.
type Request struct {
	Actor, Verb, Kind, Outcome string
	Count                      uint64
}

// ActorCost totals one actor's requests by outcome, and its calls that
// timed out.
type ActorCost struct {
	Actor string
	// Total is every request the API server received; the rest split it
	// by outcome ("ok", "conflict", "forbidden", "not-found"; Other is the
	// rest: invalid, already-exists, expired, unavailable, error).
	Total, OK, Conflict, Forbidden, NotFound, Other uint64
	// Timeouts counts the actor's calls that timed out on the network: a
	// request lost before the server (never in Total) or a reply lost
	// after it (counted in Total too, as the server saw it).
	Timeouts uint64
}

// ControllerCost totals one controller's reconciles.
type ControllerCost struct {
	Controller string
	// Reconciles, Errors and Requeues count reconciles, failed ones and
	// ones that asked to run again.
	Reconciles, Errors, Requeues int
	// Retries counts reconciles of a key right after a failed reconcile
	// of the same key.
	Retries int
}

// Analyze measures a finished run.
func Analyze(res *runner.Result, opts Options) *Report {
	o := opts.withDefaults()
	rep := &Report{}
	if res == nil {
		return rep
	}
	if o.ControllerActors == nil {
		o.ControllerActors = res.ControllerActors
	}
	rep.Scenario, rep.Seed = res.Scenario, res.Seed
	rep.Flaps, rep.Fights = flapsAndFights(res.Audit, o)
	rep.NoOpWrites = noOps(res.Audit)
	rep.GenerationGrowth = growth(res.Audit)
	rep.HotLoops = hotLoops(res, o)
	rep.Cost = cost(res)
	rep.Gaps = AnalyzeGaps(res)
	return rep
}

// field names one object's field.
type field struct {
	kind api.Kind
	key  api.Key
	path string
}

func compareField(a, b field) int {
	return cmp.Or(a.kind.Compare(b.kind), cmp.Compare(a.key.Namespace, b.key.Namespace),
		cmp.Compare(a.key.Name, b.key.Name), cmp.Compare(a.path, b.path))
}

func compareObj(ak api.Kind, a api.Key, bk api.Kind, b api.Key) int {
	return cmp.Or(ak.Compare(bk), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

// value renders a change's new value, "<unset>" when the field went away.
func value(c store.Change) string {
	if !c.NewSet {
		return "<unset>"
	}
	return c.New
}

// step is one change of a field.
type step struct {
	at    time.Duration
	actor string
	value string
}

// segment is one field's history between removals of its object.
type segment struct {
	f     field
	steps []step
}

// object names one object.
type object struct {
	kind api.Kind
	key  api.Key
}

// eachSegment calls yield with each field's histories of at least two
// steps, split at removals, as separate runs. A history of one value
// can neither flap nor fight, and most of a large run's fields are set
// once (a pod's spec, at its create): leaving them out keeps the
// analysis of a cluster of 150,000 pods from holding ten million runs.
// The runs come object by object, in the order each object first
// appears in the log, and each object's in log order: the order flaps
// and fights sort ties by.
//
// The records are grouped by object first (a counting sort on each
// object's number), so that one small map from path to run, cleared for
// each object, finds each change's run, instead of a map per object
// held over the whole log. Each object's records are read twice: once
// to count every run's steps, once to fill the runs of two steps or
// more into one buffer.
//
// A run's steps are valid only until yield returns: the buffer holding
// one object's runs is reused for the next, which keeps the analysis of
// a large run from allocating every step of every field at its end,
// when the heap is fullest.
func eachSegment(audit []store.AuditRecord, o Options, yield func(part int, s segment)) {
	// Every object's history starts with a create: their number sizes
	// the table of objects, which grows by copying otherwise (at 3,000
	// nodes, filling the map and the slice of objects took 3.8 of this
	// function's 6.3 s, growth included).
	creates := 0
	for i := range audit {
		if audit[i].Verb == "create" && !audit[i].Brief {
			creates++
		}
	}
	ids := make(map[object]int32, creates)
	objs := make([]object, 0, creates)
	recObj := make([]int32, len(audit))
	count := make([]int32, 0, creates)
	for i := range audit {
		r := &audit[i]
		if (r.NoOp && !r.Removed) || r.Brief {
			// A brief record is an Event's in brief mode, whose every
			// write is brief: its object has no changes, hence no runs,
			// and Events are most of a large run's objects (672,661 at
			// 5,000 nodes, against 150,000 pods). Leaving them out of
			// the table of objects: BenchmarkSegments 67-73 ms instead
			// of 84-90, 2.5 MB allocated instead of 9.3.
			recObj[i] = -1
			continue
		}
		ob := object{r.Kind, r.Key}
		id, ok := ids[ob]
		if !ok {
			id = int32(len(objs))
			ids[ob] = id
			objs = append(objs, ob)
			count = append(count, 0)
		}
		recObj[i] = id
		count[id]++
	}
	ids = nil
	// start[id] is where object id's records begin in order.
	start := make([]int32, len(objs)+1)
	for id, n := range count {
		start[id+1] = start[id] + n
	}
	order := make([]int32, start[len(objs)])
	next := slices.Clone(start[:len(objs)])
	for i, id := range recObj {
		if id >= 0 {
			order[next[id]] = int32(i)
			next[id]++
		}
	}
	recObj, next, count = nil, nil, nil

	// The objects are independent: the parts, runs of objects holding
	// about as many records each, are read side by side, each part
	// yielding to its own caller's slot (kernel.Parallel).
	parts := segmentParts(start, segmentWorkers())
	kernel.Parallel(len(parts)-1, func(part int) {
		o := o.forPart()
		segmentsOf(audit, o, objs, order, start, parts[part], parts[part+1], func(s segment) { yield(part, s) })
	})
}

// segmentParts cuts the objects, whose records begin at start[id], into
// at most n runs of consecutive objects with about as many records each:
// the runs' bounds, the first 0 and the last len(start)-1. A small log
// is one part: splitting it would cost more than it saves.
func segmentParts(start []int32, n int) []int {
	objects := len(start) - 1
	total := int(start[objects])
	// Each part at least minPartRecords: a log of fewer than twice that
	// is one part.
	n = max(min(n, total/minPartRecords, maxParts), 1)
	bounds := []int{0}
	for k := 1; k < n; k++ {
		want := int32(total * k / n)
		id, _ := slices.BinarySearch(start[:objects+1], want)
		if id > bounds[len(bounds)-1] && id < objects {
			bounds = append(bounds, id)
		}
	}
	return append(bounds, objects)
}

// maxParts bounds eachSegment's parts, whatever the processors.
const maxParts = 8

var (
	// minPartRecords is the fewest records a part of eachSegment's is
	// given: below it a goroutine costs more than it saves. (A variable
	// for the tests, which cut small logs into parts.)
	minPartRecords = 50000
	// segmentWorkers is how many parts eachSegment cuts a large log
	// into (a variable for the tests).
	segmentWorkers = kernel.Workers
)

// segmentsOf is eachSegment's work on the objects from to to (objs'
// indexes), in order.
func segmentsOf(audit []store.AuditRecord, o Options, objs []object, order, start []int32, from, to int, yield func(segment)) {
	var out []segment // one object's runs of two steps or more
	var buf []step    // their steps
	type run struct {
		path  string
		steps int32
		seg   int32 // index in out, or -1 for a run of one step
	}
	var runs []run
	open := map[string]int32{} // path -> index in runs, for the current object
	for id := from; id < to; id++ {
		ob := objs[id]
		recs := order[start[id]:start[id+1]]
		// First pass: each run's steps.
		runs = runs[:0]
		clear(open)
		for _, ri := range recs {
			r := &audit[ri]
			if r.Removed {
				clear(open)
				continue
			}
			// Paths and flags only: a change's values are spread over
			// a table of millions, and most runs (a field set once)
			// are never read again.
			for i := range r.NumChanges() {
				path, oldSet, _ := r.Field(i)
				if o.ignored(r.Kind.Name, path) {
					continue
				}
				j, ok := open[path]
				if !ok {
					j = int32(len(runs))
					open[path] = j
					runs = append(runs, run{path: path})
					if oldSet {
						// The value before the first change seen.
						runs[j].steps++
					}
				}
				runs[j].steps++
			}
		}
		total := 0
		for j := range runs {
			runs[j].seg = -1
			if runs[j].steps >= 2 {
				total += int(runs[j].steps)
			}
		}
		if total == 0 {
			continue
		}
		if cap(buf) < total {
			buf = make([]step, total)
		}
		steps := buf[:total]
		out = out[:0]
		for j := range runs {
			if n := int(runs[j].steps); n >= 2 {
				runs[j].seg = int32(len(out))
				out = append(out, segment{f: field{ob.kind, ob.key, runs[j].path}, steps: steps[:0:n]})
				steps = steps[n:]
			}
		}
		// Second pass: the steps of the runs kept, found again in the
		// same order.
		clear(open)
		nrun := int32(0)
		for _, ri := range recs {
			r := &audit[ri]
			if r.Removed {
				clear(open)
				continue
			}
			for i := range r.NumChanges() {
				path, _, _ := r.Field(i)
				if o.ignored(r.Kind.Name, path) {
					continue
				}
				j, ok := open[path]
				if !ok {
					j = nrun
					nrun++
					open[path] = j
				}
				k := runs[j].seg
				if k < 0 {
					continue
				}
				// A run kept: only now its values.
				c := r.Change(i)
				s := &out[k]
				if len(s.steps) == 0 && c.OldSet {
					// The value before the first change seen: its writer
					// is unknown (actor "").
					s.steps = append(s.steps, step{r.Time.Duration(), "", c.Old})
				}
				s.steps = append(s.steps, step{r.Time.Duration(), r.Actor, value(c)})
			}
		}
		for _, s := range out {
			yield(s)
		}
	}
}

// flapsAndFights returns the flaps and the fights of the log's fields,
// read from one pass over their runs.
func flapsAndFights(audit []store.AuditRecord, o Options) ([]Flap, []Fight) {
	// Each part of the log its own lists, joined in the parts' order:
	// the order of a single pass.
	fls := make([][]Flap, maxParts)
	fts := make([][]Fight, maxParts)
	eachSegment(audit, o, func(part int, s segment) {
		if f, ok := flapOf(s, o); ok {
			fls[part] = append(fls[part], f)
		}
		if f, ok := fightOf(s, o); ok {
			fts[part] = append(fts[part], f)
		}
	})
	fl, ft := slices.Concat(fls...), slices.Concat(fts...)
	slices.SortStableFunc(fl, func(a, b Flap) int {
		return cmp.Or(compareField(field{a.Kind, a.Key, a.Path}, field{b.Kind, b.Key, b.Path}), cmp.Compare(a.First, b.First))
	})
	slices.SortStableFunc(ft, func(a, b Fight) int {
		return cmp.Or(compareField(field{a.Kind, a.Key, a.Path}, field{b.Kind, b.Key, b.Path}), cmp.Compare(a.First, b.First))
	})
	return fl, ft
}

// flapOf returns s's flap: its reversals, a value written back within
// the flap window after another, when there are enough of them.
func flapOf(s segment, o Options) (Flap, bool) {
	fl := Flap{Kind: s.f.kind, Key: s.f.key, Path: s.f.path}
	for i := 2; i < len(s.steps); i++ {
		st, prev := s.steps[i], s.steps[i-2]
		if prev.value == st.value && st.value != s.steps[i-1].value && st.at-prev.at <= o.FlapWindow {
			if fl.Reversals == 0 {
				fl.First = st.at
			}
			fl.Reversals++
			fl.Last = st.at
		}
	}
	if fl.Reversals < o.FlapMin {
		return Flap{}, false
	}
	// The values and actors only of a flap: gathering them for every
	// run first was 1.84 s of a 5,000-node run's report.
	for _, st := range s.steps {
		if len(fl.Values) < o.ValueCap {
			fl.Values = append(fl.Values, st.value)
		}
		if st.actor != "" && !slices.Contains(fl.Actors, st.actor) {
			fl.Actors = append(fl.Actors, st.actor)
		}
	}
	slices.Sort(fl.Actors)
	return fl, true
}

func noOps(audit []store.AuditRecord) []NoOps {
	type k struct {
		actor string
		kind  api.Kind
	}
	n := map[k]int{}
	for i := range audit {
		if audit[i].NoOp {
			n[k{audit[i].Actor, audit[i].Kind}]++
		}
	}
	out := make([]NoOps, 0, len(n))
	for key, c := range n {
		out = append(out, NoOps{Actor: key.actor, Kind: key.kind, Count: c})
	}
	slices.SortFunc(out, func(a, b NoOps) int { return cmp.Or(cmp.Compare(a.Actor, b.Actor), a.Kind.Compare(b.Kind)) })
	return out
}

// isUser reports whether an actor is a person rather than a controller.
func isUser(actor string) bool { return !strings.HasPrefix(actor, "system:") }

func growth(audit []store.AuditRecord) []Growth {
	type obj struct {
		kind api.Kind
		key  api.Key
	}
	// First pass: which records write a generation (or remove their
	// object), and which objects' generations changed after their
	// create. Only those objects can have grown, and only their creators
	// are needed: a map of every creator (a large run's 150,000 pods set
	// a generation at their create) grew at the end of a 5,000-node run,
	// when the heap is fullest, for 1.6 of the report's 7.3 s.
	var writes []int
	bumped := map[obj]bool{}
	for i := range audit {
		r := &audit[i]
		if r.Removed {
			writes = append(writes, i)
			continue
		}
		if r.NoOp {
			continue
		}
		// Paths first: reading every change's values was 0.9 to 2 s of
		// the 5,000-node probe's report (the values miss the cache).
		for j := range r.NumChanges() {
			if r.Path(j) != "metadata.generation" {
				continue
			}
			writes = append(writes, i)
			if r.Change(j).OldSet {
				bumped[obj{r.Kind, r.Key}] = true
			}
			break
		}
	}
	creator := map[obj]string{}
	acc := map[obj]*Growth{}
	var order []obj
	for _, i := range writes {
		r := &audit[i]
		ob := obj{r.Kind, r.Key}
		if !bumped[ob] {
			continue
		}
		if r.Removed {
			delete(creator, ob)
			continue
		}
		for j := range r.NumChanges() {
			if r.Path(j) != "metadata.generation" {
				continue
			}
			if c := r.Change(j); !c.OldSet {
				creator[ob] = r.Actor
				break
			}
			g, ok := acc[ob]
			if !ok {
				g = &Growth{Kind: r.Kind, Key: r.Key}
				acc[ob] = g
				order = append(order, ob)
			}
			g.Generations++
			if isUser(r.Actor) || creator[ob] == r.Actor || fillsOnly(r) {
				g.SpecIntentWrites++
			} else if !slices.Contains(g.Actors, r.Actor) {
				g.Actors = append(g.Actors, r.Actor)
			}
			break
		}
	}
	return grown(order, acc)
}

// grown returns the objects of acc, in order, whose generations grew
// by more than their spec's intended writes, sorted by kind and key.
func grown[K comparable](order []K, acc map[K]*Growth) []Growth {
	var out []Growth
	for _, ob := range order {
		if g := acc[ob]; g.Generations > g.SpecIntentWrites {
			slices.Sort(g.Actors)
			out = append(out, *g)
		}
	}
	slices.SortFunc(out, func(a, b Growth) int { return compareObj(a.Kind, a.Key, b.Kind, b.Key) })
	return out
}

// fillsOnly reports whether every spec change of a write sets a field
// that was unset or empty: completing an object (the scheduler binding a pod to a
// node) rather than changing what someone asked for.
func fillsOnly(r *store.AuditRecord) bool {
	for c := range r.EachChange() {
		if strings.HasPrefix(c.Path, "spec.") && c.OldSet && c.Old != "" {
			return false
		}
	}
	return true
}

// fightOf returns s's fight: its alternations, a write by one actor of
// another value than the last write's by another, when there are
// enough of them.
func fightOf(s segment, o Options) (Fight, bool) {
	ft := Fight{Kind: s.f.kind, Key: s.f.key, Path: s.f.path}
	var actors []string
	for i := 1; i < len(s.steps); i++ {
		st, prev := s.steps[i], s.steps[i-1]
		if st.actor == "" || prev.actor == "" || prev.actor == st.actor || prev.value == st.value {
			continue
		}
		if ft.Alternations == 0 {
			ft.First = st.at
		}
		ft.Alternations++
		ft.Last = st.at
		for _, a := range []string{prev.actor, st.actor} {
			if !slices.Contains(actors, a) {
				actors = append(actors, a)
			}
		}
	}
	if ft.Alternations < o.FightMin {
		return Fight{}, false
	}
	// Each writer's values only of a fight (as flapOf's).
	for _, st := range s.steps {
		if st.actor == "" {
			continue
		}
		j := slices.IndexFunc(ft.Values, func(v Set) bool { return v.Actor == st.actor })
		if j < 0 {
			j = len(ft.Values)
			ft.Values = append(ft.Values, Set{Actor: st.actor})
		}
		ft.Values[j].Writes++
		if !slices.Contains(ft.Values[j].Values, st.value) {
			ft.Values[j].Values = append(ft.Values[j].Values, st.value)
		}
	}
	slices.Sort(actors)
	ft.Actors = actors
	slices.SortFunc(ft.Values, func(a, b Set) int { return cmp.Compare(a.Actor, b.Actor) })
	return ft, true
}

// changed reports whether a write changed a measured field.
func changed(r *store.AuditRecord, o Options) bool {
	if r.NoOp {
		return false
	}
	if r.Removed {
		return true
	}
	if r.Brief {
		// An Event write kept without its changes (spec.measure.events:
		// brief) changed some field of it: measured unless the options
		// ignore every path of its kind, as DefaultIgnore's "Event:*"
		// does (a pattern matching the path "*" matches any).
		return !o.ignored(r.Kind.Name, "*")
	}
	for i := range r.NumChanges() {
		if !o.ignored(r.Kind.Name, r.Path(i)) {
			return true
		}
	}
	return false
}

func hotLoops(res *runner.Result, o Options) []HotLoop {
	// The controllers' names; each controller's reconciles are read
	// from the log in place, one pass a controller (copying them into a
	// slice per controller was 2.5 s of a 5,000-node run's report).
	seen := map[string]bool{}
	var names []string
	for i := range res.Reconciles {
		if n := res.Reconciles[i].Controller; !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	slices.Sort(names)
	w := o.HotWindow
	limit := o.HotRate * w.Seconds()
	audit := res.Audit
	// window returns the audit records of [start, start+w): the log is in
	// time order.
	byTime := func(r store.AuditRecord, t time.Duration) int { return cmp.Compare(r.Time.Duration(), t) }
	window := func(start time.Duration) []store.AuditRecord {
		lo, _ := slices.BinarySearchFunc(audit, start, byTime)
		hi, _ := slices.BinarySearchFunc(audit[lo:], start+w, byTime)
		return audit[lo : lo+hi]
	}
	var out []HotLoop
	for _, name := range names {
		type bucket struct {
			reconciles, errors int
			// keys is kept only for windows over the limit, and only
			// until there are too many to be a loop (many).
			keys map[api.Key]bool
			many bool
		}
		buckets := map[int64]*bucket{}
		var idx []int64
		for i := range res.Reconciles {
			rc := &res.Reconciles[i]
			if rc.Controller != name {
				continue
			}
			b := int64(rc.Start / w)
			if buckets[b] == nil {
				buckets[b] = &bucket{}
				idx = append(idx, b)
			}
			buckets[b].reconciles++
			if rc.Err != "" {
				buckets[b].errors++
			}
		}
		// The keys of a window are counted only where its reconciles
		// pass the limit, and only until they are too many for a loop
		// (a backlog: each key once): a set of every window's keys was
		// 1.2 s of the 5,000-node probe's report.
		over := false
		for _, bk := range buckets {
			if float64(bk.reconciles) > limit {
				bk.keys = map[api.Key]bool{}
				over = true
			}
		}
		for i := 0; over && i < len(res.Reconciles); i++ {
			rc := &res.Reconciles[i]
			if rc.Controller != name {
				continue
			}
			if bk := buckets[int64(rc.Start/w)]; bk.keys != nil {
				bk.keys[rc.Key] = true
				if hotRepeat*len(bk.keys) >= bk.reconciles {
					bk.keys, bk.many = nil, true
				}
			}
		}
		slices.Sort(idx)
		actor, attributed := o.ControllerActors[name]
		var cur *HotLoop
		for _, b := range idx {
			bk := buckets[b]
			start := time.Duration(b) * w
			// A loop goes round: its keys come back (more than twice each
			// on average). Many keys reconciled once each is a controller
			// working through a backlog.
			hot := float64(bk.reconciles) > limit && !bk.many && bk.reconciles > hotRepeat*len(bk.keys)
			writes, triggers := 0, 0
			if hot {
				recs := window(start)
				for i := range recs {
					r := &recs[i]
					if !r.NoOp && !heartbeat(r) {
						triggers++
					}
					if attributed && r.Actor != actor {
						continue
					}
					if attributed {
						writes++
					}
					if changed(r, o) {
						hot = false
						break
					}
				}
				// Every accepted change is a watch event some controller
				// may have to look at: reconciles in proportion to the
				// changes (a cluster starting up, a zone failing) are
				// event-driven work, not a loop.
				if bk.reconciles <= hotRepeat*triggers {
					hot = false
				}
			}
			if !hot {
				cur = nil
				continue
			}
			if cur != nil && cur.Start+cur.Window == start {
				cur.Window += w
				cur.Reconciles += bk.reconciles
				cur.Errors += bk.errors
				cur.WritesCaused += writes
			} else {
				out = append(out, HotLoop{Controller: name, Start: start, Window: w, Reconciles: bk.reconciles, Errors: bk.errors, WritesCaused: writes})
				cur = &out[len(out)-1]
			}
		}
	}
	for i := range out {
		out[i].PerSecond = float64(out[i].Reconciles) / out[i].Window.Seconds()
	}
	return out
}

// heartbeat reports whether a write only renewed a lease or a node's
// heartbeat time: thousands of nodes write these every ten seconds, and
// they give no controller anything to do.
func heartbeat(r *store.AuditRecord) bool {
	if r.NumChanges() == 0 {
		return false
	}
	for i := range r.NumChanges() {
		switch p := r.Path(i); {
		case r.Kind == api.KindLease && (p == "spec.renewTime" || p == "spec.acquireTime"):
		case r.Kind == api.KindNode && strings.HasPrefix(p, "status.conditions[") && strings.HasSuffix(p, "].lastHeartbeatTime"):
		case p == "metadata.generation" || strings.HasSuffix(p, "Timestamp"):
		default:
			return false
		}
	}
	return true
}

// hotRepeat is how many reconciles per key, and per accepted change in
// the store, a hot window has more than.
const hotRepeat = 2

func cost(res *runner.Result) Cost {
	var c Cost
	actors := map[string]*ActorCost{}
	for _, s := range res.Requests {
		c.Requests = append(c.Requests, Request{Actor: s.Actor, Verb: s.Verb, Kind: s.Kind, Outcome: s.Outcome, Count: s.Count})
		a := actors[s.Actor]
		if a == nil {
			a = &ActorCost{Actor: s.Actor}
			actors[s.Actor] = a
		}
		a.Total += s.Count
		switch s.Outcome {
		case "ok":
			a.OK += s.Count
		case "conflict":
			a.Conflict += s.Count
		case "forbidden":
			a.Forbidden += s.Count
		case "not-found":
			a.NotFound += s.Count
		default:
			a.Other += s.Count
		}
	}
	slices.SortFunc(c.Requests, func(a, b Request) int {
		return cmp.Or(cmp.Compare(a.Actor, b.Actor), cmp.Compare(a.Verb, b.Verb), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Outcome, b.Outcome))
	})
	for _, t := range res.Timeouts {
		a := actors[t.Actor]
		if a == nil {
			a = &ActorCost{Actor: t.Actor}
			actors[t.Actor] = a
		}
		a.Timeouts = t.Count
	}
	for _, a := range actors {
		c.Actors = append(c.Actors, *a)
	}
	slices.SortFunc(c.Actors, func(a, b ActorCost) int { return cmp.Compare(a.Actor, b.Actor) })
	type ck struct {
		ctl string
		key api.Key
	}
	failed := map[ck]bool{}
	ctls := map[string]*ControllerCost{}
	for _, rc := range res.Reconciles {
		cc := ctls[rc.Controller]
		if cc == nil {
			cc = &ControllerCost{Controller: rc.Controller}
			ctls[rc.Controller] = cc
		}
		cc.Reconciles++
		// failed holds only the keys whose last reconcile failed: a
		// map of every key ever reconciled was 1.5 s of the 5,000-node
		// probe's report.
		k := ck{rc.Controller, rc.Key}
		if failed[k] {
			cc.Retries++
			if rc.Err == "" {
				delete(failed, k)
			}
		}
		if rc.Err != "" {
			failed[k] = true
			cc.Errors++
		}
		if rc.Requeue {
			cc.Requeues++
		}
	}
	for _, cc := range ctls {
		c.Controllers = append(c.Controllers, *cc)
	}
	slices.SortFunc(c.Controllers, func(a, b ControllerCost) int { return cmp.Compare(a.Controller, b.Controller) })
	c.Writes = res.Heartbeats.Total()
	for i := range res.Audit {
		r := &res.Audit[i]
		c.Writes++
		if r.NoOp {
			c.NoOps++
		}
		if r.Kind == api.KindEvent && !r.Removed {
			if r.Verb == "create" {
				c.Events++
			} else if !r.NoOp {
				c.EventUpdates++
			}
		}
	}
	return c
}

// FoldAbove is the most findings of one sort (one kind and path, or one
// kind written by one group of actors) that Summary prints one line
// each; more are folded into one line with counts, so that a cluster of
// thousands of nodes gets a line, not thousands.
const FoldAbove = 3

// actorGroup returns the group an actor is folded into: every kubelet
// (system:node:<name>) is one group; any other actor is its own.
func actorGroup(actor string) (string, bool) {
	if strings.HasPrefix(actor, "system:node:") {
		return "system:node:*", true
	}
	return actor, false
}

// names lists up to FoldAbove names and an ellipsis for the rest.
func names(all []string) string {
	if len(all) > FoldAbove {
		return strings.Join(all[:FoldAbove], ", ") + ", …"
	}
	return strings.Join(all, ", ")
}

// Summary returns one line per finding, in the report's order: fights,
// flaps, no-op writes, generation growth, hot loops. More than FoldAbove
// findings that differ only in the object (a flap of every node's Ready
// condition) or in the kubelet that wrote (no-op writes by every node)
// are folded into one line with counts, where the first of them was.
func (r *Report) Summary() []string {
	lines := r.Lines()
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// Line is one finding as Summary prints it, with the moment it points at
// (the first alternation, reversal or hot second) when it has one.
type Line struct {
	Text  string
	At    time.Duration
	Timed bool
}

// Lines are Summary's lines with their moments; a folded line points at
// the earliest moment of the findings it folds.
func (r *Report) Lines() []Line {
	var out []Line
	out = fold(out, r.Fights, func(f Fight) (string, bool) {
		return f.Kind.Name + "\x00" + f.Path + "\x00" + strings.Join(f.Actors, "\x00"), true
	}, func(f Fight) Line {
		return Line{fmt.Sprintf("fight: %s %s %s between %s, %d alternations from %s to %s",
			strings.ToLower(f.Kind.Name), f.Key, f.Path, strings.Join(f.Actors, " and "), f.Alternations, clock(f.First), clock(f.Last)), f.First, true}
	}, func(g []Fight) Line {
		alt, first, last, keys := 0, g[0].First, g[0].Last, []string{}
		for _, f := range g {
			alt += f.Alternations
			first, last = min(first, f.First), max(last, f.Last)
			keys = append(keys, f.Key.String())
		}
		return Line{fmt.Sprintf("fight: %d %s objects (%s) %s between %s, %d alternations in all from %s to %s",
			len(g), strings.ToLower(g[0].Kind.Name), names(keys), g[0].Path, strings.Join(g[0].Actors, " and "), alt, clock(first), clock(last)), first, true}
	})
	out = fold(out, r.Flaps, func(f Flap) (string, bool) { return f.Kind.Name + "\x00" + f.Path, true }, func(f Flap) Line {
		when := fmt.Sprintf("%d times from %s to %s", f.Reversals, clock(f.First), clock(f.Last))
		if f.Reversals == 1 {
			when = "once, at " + clock(f.First)
		}
		return Line{fmt.Sprintf("flap: %s %s %s reversed %s (%s)",
			strings.ToLower(f.Kind.Name), f.Key, f.Path, when, strings.Join(f.Values, "→")), f.First, true}
	}, func(g []Flap) Line {
		rev, first, last, keys := 0, g[0].First, g[0].Last, []string{}
		for _, f := range g {
			rev += f.Reversals
			first, last = min(first, f.First), max(last, f.Last)
			keys = append(keys, f.Key.String())
		}
		return Line{fmt.Sprintf("flap: %d %s objects (%s) %s reversed %d times in all from %s to %s",
			len(g), strings.ToLower(g[0].Kind.Name), names(keys), g[0].Path, rev, clock(first), clock(last)), first, true}
	})
	out = fold(out, r.NoOpWrites, func(n NoOps) (string, bool) {
		grp, folds := actorGroup(n.Actor)
		return grp + "\x00" + n.Kind.Name, folds
	}, func(n NoOps) Line {
		return Line{Text: fmt.Sprintf("no-op writes: %s wrote %d unchanged %s objects", n.Actor, n.Count, strings.ToLower(n.Kind.Name))}
	}, func(g []NoOps) Line {
		total := 0
		for _, n := range g {
			total += n.Count
		}
		grp, _ := actorGroup(g[0].Actor)
		return Line{Text: fmt.Sprintf("no-op writes: %d kubelets (%s) wrote %d unchanged %s objects", len(g), grp, total, strings.ToLower(g[0].Kind.Name))}
	})
	out = fold(out, r.GenerationGrowth, func(g Growth) (string, bool) {
		return g.Kind.Name + "\x00" + strings.Join(g.Actors, "\x00"), true
	}, func(x Growth) Line {
		return Line{Text: fmt.Sprintf("generation growth: %s %s grew %d generations, %d with spec intent (by %s)",
			strings.ToLower(x.Kind.Name), x.Key, x.Generations, x.SpecIntentWrites, strings.Join(x.Actors, ", "))}
	}, func(g []Growth) Line {
		gens, intent, keys := 0, 0, []string{}
		for _, x := range g {
			gens += x.Generations
			intent += x.SpecIntentWrites
			keys = append(keys, x.Key.String())
		}
		return Line{Text: fmt.Sprintf("generation growth: %d %s objects (%s) grew %d generations in all, %d with spec intent (by %s)",
			len(g), strings.ToLower(g[0].Kind.Name), names(keys), gens, intent, strings.Join(g[0].Actors, ", "))}
	})
	// A controller's stretches apart in time are a line each; more than
	// FoldAbove of one controller, one line with their sums (a
	// Deployment whose progress deadline passed is requeued at once for
	// minutes: its stretches come and go with the load beside it).
	out = fold(out, r.HotLoops, func(h HotLoop) (string, bool) { return h.Controller, true }, func(h HotLoop) Line {
		return Line{fmt.Sprintf("hot loop: %s reconciled %d times in %s (%.1f/s) from %s without changing the store",
			h.Controller, h.Reconciles, h.Window, h.PerSecond, clock(h.Start)), h.Start, true}
	}, func(g []HotLoop) Line {
		reconciles, peak := 0, 0.0
		var window time.Duration
		for _, h := range g {
			reconciles += h.Reconciles
			window += h.Window
			peak = max(peak, h.PerSecond)
		}
		last := g[len(g)-1]
		return Line{fmt.Sprintf("hot loop: %s reconciled %d times in %d stretches of %s in all (at most %.1f/s) from %s to %s without changing the store",
			g[0].Controller, reconciles, len(g), window, peak, clock(g[0].Start), clock(last.Start+last.Window)), g[0].Start, true}
	})
	return out
}

// fold appends a line per finding of xs to out, in order, except that the
// findings of a foldable group (same key) of more than FoldAbove are one
// line, many's, where the group's first finding was.
func fold[T any](out []Line, xs []T, key func(T) (string, bool), one func(T) Line, many func([]T) Line) []Line {
	for _, g := range foldGroups(xs, key) {
		if len(g) == 1 {
			out = append(out, one(g[0]))
		} else {
			out = append(out, many(g))
		}
	}
	return out
}

// foldGroups splits xs in order into what fold prints: the findings of
// a key shared by more than FoldAbove as one group where the first of
// them was, every other finding a group of its own.
func foldGroups[T any](xs []T, key func(T) (string, bool)) [][]T {
	groups := map[string][]T{}
	for _, x := range xs {
		if k, ok := key(x); ok {
			groups[k] = append(groups[k], x)
		}
	}
	var out [][]T
	done := map[string]bool{}
	for i, x := range xs {
		k, ok := key(x)
		if g := groups[k]; ok && len(g) > FoldAbove {
			if !done[k] {
				done[k] = true
				out = append(out, g)
			}
			continue
		}
		out = append(out, xs[i:i+1:i+1])
	}
	return out
}

// clock renders a run time as m:ss (h:mm:ss past an hour).
func clock(d time.Duration) string {
	s := int64(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// The runner's findings checks use Detect unless a caller hands in its
// own.
func init() { runner.DefaultDetect = Detect }

// Detect runs the detectors on a finished run for the runner's findings
// checks (runner.Options.Detect): how many fights, flapping fields, hot
// loops and no-op writes, and the findings as Summary prints them.
func Detect(res *runner.Result) runner.Findings {
	rep := Analyze(res, Options{})
	f := runner.Findings{Fights: len(rep.Fights), Flaps: len(rep.Flaps), HotLoops: len(rep.HotLoops), Lines: rep.Summary()}
	for _, n := range rep.NoOpWrites {
		f.NoOpWrites += n.Count
	}
	return f
}
