package measure

import (
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/addrmemo"
)

// Defaults of Options' zero fields.
const (
	// DefaultFlapWindow is how close in time a value must return to
	// count as a reversal.
	DefaultFlapWindow = 5 * time.Minute
	// DefaultFightMin is the number of alternations that make a fight.
	DefaultFightMin = 3
	// DefaultHotWindow is the width of the windows hot loops are
	// measured in.
	DefaultHotWindow = 10 * time.Second
	// DefaultHotRate is the reconcile rate (per second) above which a
	// window with no change in the store is a hot loop.
	DefaultHotRate = 5.0
	// DefaultValueCap is how many values a Flap lists.
	DefaultValueCap = 16
)

// DefaultIgnore are the field paths that change by nature rather than by
// anyone's intent, and so are neither flapping nor fighting: bookkeeping
// (resourceVersion, managedFields, generation, timestamps, heartbeats,
// lease renewals, event counters) and observed status (counters a
// controller recomputes from the world, such as a Deployment's
// status.replicas going 3→4→3 during a healthy rolling update, or the
// endpoints of Endpoints and EndpointSlices, whose conditions follow their
// pods' and whose list positions shift as pods come and go). A pattern
// is "Kind:path" or "path"; "*" matches any run of characters. Paths kept
// by DefaultKeep win over this list.
var DefaultIgnore = []string{
	"metadata.resourceVersion",
	"metadata.managedFields*",
	"metadata.generation",
	"metadata.*Timestamp",
	"status.*",
	"Lease:spec.renewTime",
	"Lease:spec.acquireTime",
	"Lease:spec.leaseTransitions",
	"Event:*",
	"Endpoints:subsets*",
	"EndpointSlice:endpoints*",
}

// DefaultKeep are the paths measured even though DefaultIgnore covers
// them: a node's conditions going True→False→True is what people call
// flapping. Pods' and Deployments' conditions are left out: a pod's
// Ready going False when it terminates, or a Deployment's Available
// dipping while it scales, is lifecycle, not flapping.
var DefaultKeep = []string{
	"Node:status.conditions[*].status",
}

// Options tune Analyze; the zero value means the defaults above.
type Options struct {
	// FlapWindow bounds a reversal: a value coming back more than this
	// long after it was left is not counted (default 5m).
	FlapWindow time.Duration
	// FlapMin is the number of reversals that make a Flap (default 1).
	FlapMin int
	// FightMin is the number of alternations that make a Fight
	// (default 3).
	FightMin int
	// HotWindow is the width of a hot-loop window (default 10s).
	HotWindow time.Duration
	// HotRate is the reconciles per second above which a window without
	// change is a hot loop (default 5).
	HotRate float64
	// ValueCap caps Flap.Values (default 16).
	ValueCap int
	// Ignore replaces DefaultIgnore when non-nil (an empty, non-nil
	// slice ignores nothing).
	Ignore []string
	// Keep replaces DefaultKeep when non-nil.
	Keep []string
	// ControllerActors maps a controller's name (as in runner.Reconcile)
	// to the actor its writes are audited under; nil means the run's own
	// runner.Result.ControllerActors. A controller without an entry has
	// no attribution: its hot-loop windows look for any change in the
	// store instead of a change by its actor.
	ControllerActors map[string]string

	// memo caches ignored's answers by kind and path (withDefaults makes
	// it): a run has a few hundred distinct paths and millions of
	// changes. recent finds them first by the path string's address
	// (addrmemo), with the kind they were given for: the audit log gives
	// every change of one field one path string, and hashing two strings
	// a change was 0.44 s of the 3,000-node probe's report.
	memo   map[kindPath]bool
	recent *addrmemo.Memo[kindAnswer]
}

type kindPath struct{ kind, path string }

// kindAnswer is ignored's answer for a path on an object of kind.
type kindAnswer struct {
	kind    string
	ignored bool
}

// recentPaths are the slots of Options.recent: four for each of the few
// hundred paths of a run.
const recentPaths = 1024

func (o Options) withDefaults() Options {
	if o.FlapWindow <= 0 {
		o.FlapWindow = DefaultFlapWindow
	}
	if o.FlapMin <= 0 {
		o.FlapMin = 1
	}
	if o.FightMin <= 0 {
		o.FightMin = DefaultFightMin
	}
	if o.HotWindow <= 0 {
		o.HotWindow = DefaultHotWindow
	}
	if o.HotRate <= 0 {
		o.HotRate = DefaultHotRate
	}
	if o.ValueCap <= 0 {
		o.ValueCap = DefaultValueCap
	}
	if o.Ignore == nil {
		o.Ignore = DefaultIgnore
	}
	if o.Keep == nil {
		o.Keep = DefaultKeep
	}
	o.memo = map[kindPath]bool{}
	o.recent = new(addrmemo.Memo[kindAnswer])
	o.recent.Grow(recentPaths)
	return o
}

// forPart returns o with memos of its own, for a part of the log read
// beside others (eachSegment): the memos are written as they are read.
func (o Options) forPart() Options {
	if o.memo != nil {
		o.memo = map[kindPath]bool{}
		o.recent = new(addrmemo.Memo[kindAnswer])
		o.recent.Grow(recentPaths)
	}
	return o
}

// ignored reports whether the change of path on an object of kind is
// bookkeeping rather than content.
func (o Options) ignored(kind, path string) bool {
	if o.memo == nil {
		return o.match(kind, path)
	}
	if a, ok := o.recent.Get(path); ok && a.kind == kind {
		return a.ignored
	}
	k := kindPath{kind, path}
	v, ok := o.memo[k]
	if !ok {
		v = o.match(kind, path)
		o.memo[k] = v
	}
	o.recent.Put(path, kindAnswer{kind: kind, ignored: v})
	return v
}

// match is ignored without the memo.
func (o Options) match(kind, path string) bool {
	for _, p := range o.Keep {
		if patternMatch(p, kind, path) {
			return false
		}
	}
	for _, p := range o.Ignore {
		if patternMatch(p, kind, path) {
			return true
		}
	}
	return false
}

// patternMatch matches "Kind:glob" or "glob" against a kind and a path.
func patternMatch(pattern, kind, path string) bool {
	if k, p, ok := strings.Cut(pattern, ":"); ok && !strings.ContainsAny(k, ".[*") {
		if k != kind {
			return false
		}
		pattern = p
	}
	return glob(pattern, path)
}

// glob matches s against a pattern whose only metacharacter is "*" (any
// run of characters, brackets and dots included).
func glob(pattern, s string) bool {
	first, rest, star := strings.Cut(pattern, "*")
	if !star {
		return pattern == s
	}
	if !strings.HasPrefix(s, first) {
		return false
	}
	s = s[len(first):]
	for i := 0; i <= len(s); i++ {
		if glob(rest, s[i:]) {
			return true
		}
	}
	return false
}
