package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/store"
)

// timelineLine is one line of a run's text timeline.
type timelineLine struct {
	at    time.Duration
	order int // actions before writes before gap changes at one instant
	actor string
	what  string
}

// timelineQuiet are the kinds whose writes the timeline leaves out:
// heartbeats and the events that narrate what the other writes did.
var timelineQuiet = []api.Kind{api.KindLease, api.KindEvent}

// Timeline writes one run as a text timeline: every timeline action and
// what the system did by itself (a leader lease lost, acquired again),
// every accepted write to the store (by actor, with the fields it
// changed; lease renewals, events and heartbeat-only status writes left
// out) and every change of an object's gap, in time order. Repeats of one
// line by one actor are folded into one line with a count.
func Timeline(w io.Writer, r *runner.Result) error {
	var lines []timelineLine
	for _, e := range r.Entries {
		if e.System {
			lines = append(lines, timelineLine{at: e.At, order: 0, actor: "system", what: e.Command})
			continue
		}
		if e.Observation {
			continue
		}
		what := "$ " + e.Command
		if e.Err != "" {
			what += "  → " + e.Err
		}
		lines = append(lines, timelineLine{at: e.At, order: 0, actor: "timeline", what: what})
	}
	for i := range r.Audit {
		a := &r.Audit[i]
		if slices.Contains(timelineQuiet, a.Kind) {
			continue
		}
		if what, ok := describeWrite(a); ok {
			lines = append(lines, timelineLine{at: a.Time.Duration(), order: 1, actor: shortActor(a.Actor), what: what})
		}
	}
	lines = append(lines, activityLines(r.Activity)...)
	if r.Gaps != nil {
		for _, s := range r.Gaps.Series {
			prev := 0
			for _, p := range s.Points {
				if p.Value == prev {
					continue
				}
				verb := "gap"
				switch {
				case prev == 0:
					verb = "gap opens"
				case p.Value == 0:
					verb = "gap closes"
				}
				lines = append(lines, timelineLine{at: p.At, order: 2, actor: "(gap)", what: fmt.Sprintf("%s %s: %d → %d (%s)", verb, s.Object, prev, p.Value, p.Detail)})
				prev = p.Value
			}
		}
	}
	slices.SortStableFunc(lines, func(a, b timelineLine) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.order, b.order))
	})
	fmt.Fprintf(w, "scenario %s, seed %d, %v of virtual time: actions, writes by actor, and the gap between declared and actual\n\n", r.Scenario, r.Seed, r.Duration)
	width := len("timeline")
	for _, l := range lines {
		width = max(width, len(l.actor))
	}
	for i := 0; i < len(lines); {
		l := lines[i]
		j := i + 1
		for j < len(lines) && lines[j].actor == l.actor && lines[j].what == l.what {
			j++
		}
		what := l.what
		if n := j - i; n > 1 {
			what += fmt.Sprintf("  (×%d, last at %s)", n, stamp(lines[j-1].at))
		}
		fmt.Fprintf(w, "%s  %-*s  %s\n", stamp(l.at), width, l.actor, what)
		i = j
	}
	return nil
}

// activityFold is how long after its first one activities of one kind
// and reason fold into one line: a partition's heal, a compaction or a
// start makes many informers relist or watch again within seconds of
// each other, and a big cluster must not get a line per informer.
const activityFold = time.Minute

// activityMaxNamed is how many controllers a folded activity line names
// before it says how many more.
const activityMaxNamed = 8

// activityMaxKinds is how many informers of one controller a folded
// activity line names before it says how many more.
const activityMaxKinds = 3

// activityLines folds the controllers' activity (relists, reopened
// watches, resyncs, first lease acquisitions) into timeline lines: one
// line per kind of activity and reason for every activityFold, at the
// first one's time, naming each controller with the informers concerned.
func activityLines(acts []runner.Activity) []timelineLine {
	type group struct {
		first, last time.Duration
		what        string
		reason      string
		failed      int
		objects     int
		n           int
		order       []string
		subjects    map[string][]string
	}
	var groups []*group
	open := map[[2]string]*group{}
	for _, a := range acts {
		key := [2]string{a.What, a.Reason}
		g := open[key]
		if g == nil || a.At-g.first >= activityFold {
			g = &group{first: a.At, what: a.What, reason: a.Reason, subjects: map[string][]string{}}
			open[key] = g
			groups = append(groups, g)
		}
		g.last = a.At
		g.n++
		g.failed = max(g.failed, a.Failed)
		g.objects += a.Objects
		if _, ok := g.subjects[a.Controller]; !ok {
			g.order = append(g.order, a.Controller)
		}
		if !slices.Contains(g.subjects[a.Controller], a.Subject) {
			g.subjects[a.Controller] = append(g.subjects[a.Controller], a.Subject)
		}
	}
	lines := make([]timelineLine, 0, len(groups))
	for _, g := range groups {
		var who []string
		for i, c := range g.order {
			if i == activityMaxNamed {
				who = append(who, fmt.Sprintf("+%d more", len(g.order)-i))
				break
			}
			switch subj := g.subjects[c]; {
			case g.what == "lease":
				who = append(who, c)
			case len(subj) > activityMaxKinds:
				who = append(who, fmt.Sprintf("%s %s, +%d more", c, strings.Join(subj[:activityMaxKinds], ", "), len(subj)-activityMaxKinds))
			default:
				who = append(who, c+" "+strings.Join(subj, ", "))
			}
		}
		var what string
		after := g.reason
		if g.failed > 0 {
			after += fmt.Sprintf(" (%s)", plural(g.failed, "failed request", "failed requests"))
		}
		list := strings.Join(who, "; ")
		switch g.what {
		case "lease":
			if g.n == 1 {
				what = fmt.Sprintf("leader election: %s acquired its lease kube-system/%s", g.order[0], g.subjects[g.order[0]][0])
			} else {
				what = fmt.Sprintf("leader election: %d controllers acquired their leases: %s", g.n, strings.Join(who, ", "))
			}
		case "relist":
			what = fmt.Sprintf("relist after %s, %s listed %d objects afresh: %s", after, plural(g.n, "informer", "informers"), g.objects, list)
		case "rewatch":
			what = fmt.Sprintf("watch restart after %s, %s resumed from the last resourceVersion: %s", after, plural(g.n, "informer", "informers"), list)
		case "resync":
			what = fmt.Sprintf("resync, %s replayed %d cached objects to the handlers (nothing read): %s", plural(g.n, "informer", "informers"), g.objects, list)
		default:
			what = g.what + ": " + list
		}
		if g.last > g.first {
			what += " (last at " + stamp(g.last) + ")"
		}
		lines = append(lines, timelineLine{at: g.first, order: 0, actor: "(informers)", what: what})
		if g.what == "lease" {
			lines[len(lines)-1].actor = "system"
		}
	}
	return lines
}

// stamp renders a virtual time as m:ss.mmm.
func stamp(d time.Duration) string {
	ms := int64(d / time.Millisecond)
	return fmt.Sprintf("%s.%03d", clock(d), ms%1000)
}

// shortActor drops the prefix of service accounts in kube-system, as
// people say "the deployment controller".
func shortActor(a string) string {
	if s, ok := strings.CutPrefix(a, "system:serviceaccount:kube-system:"); ok {
		return s
	}
	if s, ok := strings.CutPrefix(a, "system:serviceaccount:"); ok {
		return strings.Replace(s, ":", "/", 1)
	}
	return a
}

// timelineBookkeeping are change paths that say nothing about intent or
// progress: a write changing only these is left out.
var timelineBookkeeping = []string{"metadata.resourceVersion", "metadata.managedFields", "metadata.generation", "Timestamp", "HeartbeatTime", "lastUpdateTime", "lastProbeTime", "lastTransitionTime", "renewTime"}

// describeWrite renders a write as "update Deployment default/web:
// spec.replicas 3→5"; ok is false for writes that changed bookkeeping
// only.
func describeWrite(a *store.AuditRecord) (string, bool) {
	verb := a.Verb
	if a.Subresource != "" {
		verb += " " + a.Subresource
	}
	head := fmt.Sprintf("%s %s %s", verb, a.Kind, a.Key)
	switch {
	case a.NoOp:
		return head + " (no-op: nothing changed)", true
	case a.Removed:
		return head + " (removed)", true
	case a.Verb == "create" && a.Subresource == "":
		return head, true
	case a.Verb == "delete":
		return head + " (deletion started)", true
	}
	var parts []string
	for c := range a.EachChange() {
		if slices.ContainsFunc(timelineBookkeeping, func(b string) bool { return strings.Contains(c.Path, b) }) {
			continue
		}
		if strings.HasSuffix(c.Path, "].type") {
			// A list element's key field, named in the path already.
			continue
		}
		old, new := "<unset>", "<unset>"
		if c.OldSet {
			old = c.Old
		}
		if c.NewSet {
			new = c.New
		}
		parts = append(parts, fmt.Sprintf("%s %s→%s", c.Path, clip(old), clip(new)))
	}
	if len(parts) == 0 {
		return "", false
	}
	const shown = 3
	if len(parts) > shown {
		parts = append(parts[:shown], fmt.Sprintf("(+%d more)", len(parts)-shown))
	}
	return head + ": " + strings.Join(parts, ", "), true
}

// clip shortens a long value for one line.
func clip(s string) string {
	const n = 40
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
