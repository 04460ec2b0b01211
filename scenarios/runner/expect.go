package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/gap"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/store"
)

// pollInterval is how often a "within" check looks at the cluster (what
// the checks limit counts).
const pollInterval = scenarios.CheckInterval

// check is one expectation being evaluated.
type check struct {
	idx    int
	name   string
	eval   func() (ok bool, seen string)
	at     *time.Duration // evaluate exactly then
	after  time.Duration  // or poll from then
	within time.Duration  // until then
	done   bool
	last   string
	// gaps is set for checks of the gap timeline, evaluated once the run
	// is over (by finishExpectations) rather than on the clock.
	gaps func(tl *gap.Timeline) (ok bool, at time.Duration, seen string)
	// findings is set for checks of the detectors' findings, evaluated
	// last (by finishFindings), on the complete result.
	findings func(f Findings) (ok bool, seen string)
}

func (r *run) scheduleExpectations(until time.Duration) {
	r.res.Expectations = make([]Outcome, len(r.s.Spec.Expect))
	for i := range r.s.Spec.Expect {
		ck := r.newCheck(i)
		r.res.Expectations[i] = Outcome{Name: ck.name}
		switch {
		case ck.gaps != nil, ck.findings != nil:
			// Evaluated after the run, from the whole gap timeline or
			// the detectors' findings.
		case ck.at != nil:
			if *ck.at > until {
				r.res.Expectations[i].Detail = fmt.Sprintf("not evaluated: the run stopped at %v", until)
				ck.done = true
				continue
			}
			r.c.At(*ck.at, func() { r.settle(ck, true) })
		default:
			r.poll(ck, ck.after)
		}
		r.checks = append(r.checks, ck)
	}
}

// poll evaluates ck at t and every pollInterval after, until it holds or
// its deadline passes.
func (r *run) poll(ck *check, t time.Duration) {
	r.c.At(t, func() {
		if ck.done {
			return
		}
		ok, seen := ck.eval()
		ck.last = seen
		if ok {
			r.pass(ck, seen)
			return
		}
		if next := t + pollInterval; next <= ck.within {
			r.poll(ck, next)
		}
	})
}

// settle evaluates ck once, now, and records the outcome.
func (r *run) settle(ck *check, final bool) {
	if ck.done {
		return
	}
	ok, seen := ck.eval()
	ck.last = seen
	if ok {
		r.pass(ck, seen)
		return
	}
	if final {
		ck.done = true
		r.res.Expectations[ck.idx] = Outcome{Name: ck.name, Passed: false, Detail: fmt.Sprintf("at %v: %s", r.c.K.Now().Duration(), seen)}
	}
}

func (r *run) pass(ck *check, seen string) {
	ck.done = true
	r.res.Expectations[ck.idx] = Outcome{Name: ck.name, Passed: true, HeldAt: r.c.K.Now().Duration(), Detail: fmt.Sprintf("held at %v: %s", r.c.K.Now().Duration(), seen)}
}

// finishExpectations evaluates the checks of the gap timeline tl and
// fails the checks whose deadline passed unmet.
func (r *run) finishExpectations(tl *gap.Timeline) {
	judged := tl.Without(MeasureOf(r.s).Ignore)
	for _, ck := range r.checks {
		if ck.done || ck.gaps == nil {
			continue
		}
		ck.done = true
		ok, at, seen := ck.gaps(judged)
		r.res.Expectations[ck.idx] = Outcome{Name: ck.name, Passed: ok, HeldAt: at, Detail: seen}
	}
	for _, ck := range r.checks {
		if ck.done || ck.findings != nil {
			continue
		}
		ck.done = true
		detail := fmt.Sprintf("not met within %v; last seen: %s", ck.within, ck.last)
		if ck.within > r.c.K.Now().Duration() {
			detail = fmt.Sprintf("not met by %v, when the run stopped; last seen: %s", r.c.K.Now().Duration(), ck.last)
		}
		r.res.Expectations[ck.idx] = Outcome{Name: ck.name, Passed: false, Detail: detail}
	}
}

func (r *run) newCheck(i int) *check {
	e := r.s.Spec.Expect[i]
	ck := &check{idx: i}
	timing := func(t scenarios.Timing) string {
		if t.At != nil {
			d := t.At.Duration
			ck.at = &d
			return "at " + d.String()
		}
		ck.within = t.Within.Duration
		return "within " + ck.within.String()
	}
	var name string
	switch {
	case e.RolloutComplete != nil:
		ns, n := scenarios.SplitRef(e.RolloutComplete.Deployment)
		ck.within = e.RolloutComplete.Within.Duration
		name = fmt.Sprintf("deployment %q completes its rollout within %v", n, ck.within)
		if af := e.RolloutComplete.After; af != nil {
			ck.after = af.Duration
			name = fmt.Sprintf("deployment %q completes its rollout between %v and %v", n, ck.after, ck.within)
		}
		ck.eval = func() (bool, string) { return r.rolloutComplete(api.Key{Namespace: ns, Name: n}) }
		if e.RolloutComplete.IgnoreObservedGeneration {
			name = r.naiveRolloutCheck(ck, api.Key{Namespace: ns, Name: n}, e.RolloutComplete.After != nil)
		}
	case e.RolloutStatus != nil:
		name = r.rolloutStatusCheck(ck, e.RolloutStatus)
	case e.Condition != nil:
		c := e.Condition
		kind, key := r.objectKey(c.ObjectRef)
		want := c.Status
		if c.Reason != "" {
			want += " (" + c.Reason + ")"
		}
		name = fmt.Sprintf("%s %q condition %s is %s %s", strings.ToLower(kind.Name), key.Name, c.Type, want, timing(c.Timing))
		ck.eval = func() (bool, string) {
			o, err := r.c.Store.Get(kind, key)
			if err != nil {
				return false, err.Error()
			}
			status, _ := fieldValue(o, "status.conditions["+c.Type+"].status")
			reason, _ := fieldValue(o, "status.conditions["+c.Type+"].reason")
			seen := status
			if reason != "" {
				seen += " (" + reason + ")"
			}
			if status == "" {
				seen = "no " + c.Type + " condition"
			}
			return status == c.Status && (c.Reason == "" || reason == c.Reason), seen
		}
	case e.Field != nil:
		f := e.Field
		kind, key := r.objectKey(f.ObjectRef)
		name = fmt.Sprintf("%s %q %s == %q %s", strings.ToLower(kind.Name), key.Name, f.Path, f.Equals, timing(f.Timing))
		ck.eval = func() (bool, string) {
			o, err := r.c.Store.Get(kind, key)
			if err != nil {
				return false, err.Error()
			}
			v, ok := fieldValue(o, f.Path)
			if !ok {
				return false, f.Path + " is not set"
			}
			return v == f.Equals, fmt.Sprintf("%s = %q", f.Path, v)
		}
	case e.Converged != nil:
		c := e.Converged
		ck.within = c.Within.Duration
		if c.After != nil {
			ck.after = c.After.Duration
		}
		name = fmt.Sprintf("every gap closed and settled between %v and %v", ck.after, ck.within)
		ck.gaps = func(tl *gap.Timeline) (bool, time.Duration, string) { return r.converged(tl, ck.after, ck.within) }
	case e.Findings != nil:
		name, ck.findings = findingsCheck(e.Findings)
	case e.Incidents != nil:
		least, most := e.Incidents.Min, e.Incidents.Max
		m := MeasureOf(r.s)
		name = fmt.Sprintf("at most %d incidents (gaps open longer than %v)", most, m.GapSLO)
		switch {
		case least == most && least > 0:
			name = fmt.Sprintf("exactly %d incidents (gaps open longer than %v)", most, m.GapSLO)
		case least > 0:
			name = fmt.Sprintf("%d to %d incidents (gaps open longer than %v)", least, most, m.GapSLO)
		}
		ck.gaps = func(tl *gap.Timeline) (bool, time.Duration, string) {
			inc := tl.Incidents(m.GapSLO)
			seen := fmt.Sprintf("%d incidents", len(inc))
			for i, iv := range inc {
				if i == 3 {
					seen += fmt.Sprintf("; %d more", len(inc)-3)
					break
				}
				to := "until " + iv.To.Round(time.Millisecond).String()
				if iv.Open {
					to = "still open at the end"
				}
				seen += fmt.Sprintf("; %s open %v from %v, %s", iv.Object, iv.Duration().Round(time.Millisecond), iv.From.Round(time.Millisecond), to)
			}
			return len(inc) >= least && len(inc) <= most, tl.End, seen
		}
	case e.Pods != nil:
		p := e.Pods
		ns := p.Namespace
		if ns == "" {
			ns = scenarios.DefaultNamespace
		}
		desc := []string{}
		if p.Selector != "" {
			desc = append(desc, p.Selector)
		}
		if p.Phase != "" {
			desc = append(desc, p.Phase)
		}
		if p.Ready {
			desc = append(desc, "ready")
		}
		if p.Node != "" {
			desc = append(desc, "on "+p.Node)
		}
		name = fmt.Sprintf("%d pods (%s) %s", p.Equals, strings.Join(desc, ", "), timing(p.Timing))
		sel := api.Everything()
		if p.Selector != "" {
			sel, _ = api.ParseSelector(p.Selector)
		}
		ck.eval = func() (bool, string) {
			pods, _, _ := r.c.Store.List(api.KindPod, store.ListOptions{Namespace: ns, Labels: &sel})
			n := 0
			for _, o := range pods {
				pod := o.(*api.Pod)
				if pod.DeletionTimestamp != nil {
					continue // Terminating: on its way out
				}
				if p.Phase != "" && string(pod.Status.Phase) != p.Phase {
					continue
				}
				if p.Ready && !api.IsPodReady(pod) {
					continue
				}
				if p.Node != "" && pod.Spec.NodeName != p.Node {
					continue
				}
				n++
			}
			return n == p.Equals, fmt.Sprintf("%d pods", n)
		}
	}
	if e.Name != "" {
		name = e.Name
	}
	ck.name = name
	return ck
}

func (r *run) objectKey(ref scenarios.ObjectRef) (api.Kind, api.Key) {
	kind, _ := scenarios.ResolveKindIn(r.c.Store.Kinds(), ref.Kind)
	key := api.Key{Name: ref.Name}
	if info, ok := r.c.Store.Kinds().Lookup(kind); ok && info.Namespaced {
		key.Namespace = ref.Namespace
		if key.Namespace == "" {
			key.Namespace = scenarios.DefaultNamespace
		}
	}
	return kind, key
}

// rolloutComplete is kubectl rollout status's success test.
func (r *run) rolloutComplete(key api.Key) (bool, string) {
	o, err := r.c.Store.Get(api.KindDeployment, key)
	if err != nil {
		return false, err.Error()
	}
	d := o.(*api.Deployment)
	replicas := int32(1)
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}
	st := d.Status
	seen := fmt.Sprintf("generation %d observed %d, %d/%d updated, %d total, %d available", d.Generation, st.ObservedGeneration, st.UpdatedReplicas, replicas, st.Replicas, st.AvailableReplicas)
	ok := d.Generation <= st.ObservedGeneration && st.UpdatedReplicas >= replicas && st.Replicas <= st.UpdatedReplicas && st.AvailableReplicas >= st.UpdatedReplicas
	return ok, seen
}

// fieldValue reads a field of an object by a path such as spec.replicas
// or status.conditions[Available].status: list elements are found by
// their type or name field, or by index. Scalars render as text, other
// values as compact JSON.
func fieldValue(o api.Object, path string) (string, bool) {
	b, err := json.Marshal(o)
	if err != nil {
		return "", false
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return "", false
	}
	for _, seg := range manifest.SplitPath(path) {
		switch cur := v.(type) {
		case map[string]any:
			next, ok := cur[seg]
			if !ok {
				return "", false
			}
			v = next
		case []any:
			found := false
			for _, el := range cur {
				if m, ok := el.(map[string]any); ok && (m["type"] == seg || m["name"] == seg) {
					v, found = el, true
					break
				}
			}
			if !found {
				i, err := strconv.Atoi(seg)
				if err != nil || i < 0 || i >= len(cur) {
					return "", false
				}
				v = cur[i]
			}
		default:
			return "", false
		}
	}
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	case nil:
		return "", false
	}
	out, _ := json.Marshal(v)
	return string(out), true
}

// converged evaluates a converged check: the first settled instant at or
// after after must come by within.
func (r *run) converged(tl *gap.Timeline, after, within time.Duration) (bool, time.Duration, string) {
	// The next action after `after` shortens the settle window, as in the
	// convergence report.
	var next time.Duration
	for _, e := range r.res.Entries {
		if !e.Observation && e.At > after && (next == 0 || e.At < next) {
			next = e.At
		}
	}
	settle := MeasureOf(r.s).Settle
	at, ok := tl.Settled(after, settle, next)
	if ok && at <= within {
		at = at.Round(time.Millisecond)
		return true, at, fmt.Sprintf("held at %v: every gap closed (%v after %v) and stayed closed", at, at-after, after)
	}
	when := min(within, tl.End)
	objects, total := tl.OpenAt(when)
	seen := fmt.Sprintf("not settled by %v: %d objects with an open gap (total %d) at %v", within, objects, total, when)
	for i := range tl.Series {
		if p := tl.Series[i].At(when); p.Value > 0 {
			seen += fmt.Sprintf("; %s: %s", tl.Series[i].Object, p.Detail)
			break
		}
	}
	if ok {
		seen += fmt.Sprintf("; settled only at %v", at)
	}
	return false, 0, seen
}

// finishFindings evaluates the findings checks on the finished run with
// the detectors the caller handed in (once, and only if some check needs
// them).
func (r *run) finishFindings(detect func(*Result) Findings) {
	var f *Findings
	for _, ck := range r.checks {
		if ck.done || ck.findings == nil {
			continue
		}
		ck.done = true
		if detect == nil {
			r.res.Expectations[ck.idx] = Outcome{Name: ck.name, Detail: "not evaluated: this run had no detectors (runner.Options.Detect, or import report/measure, which installs runner.DefaultDetect)"}
			continue
		}
		if f == nil {
			found := detect(r.res)
			f = &found
		}
		ok, seen := ck.findings(*f)
		r.res.Expectations[ck.idx] = Outcome{Name: ck.name, Passed: ok, HeldAt: r.res.Duration, Detail: seen}
	}
}

// findingsCheck names a findings check and builds its test.
func findingsCheck(c *scenarios.FindingsCheck) (string, func(Findings) (bool, string)) {
	type bound struct {
		what string
		r    *scenarios.Range
		of   func(Findings) int
	}
	var bounds []bound
	for _, b := range []bound{
		{"fights", c.Fights, func(f Findings) int { return f.Fights }},
		{"flapping fields", c.Flaps, func(f Findings) int { return f.Flaps }},
		{"hot loops", c.HotLoops, func(f Findings) int { return f.HotLoops }},
		{"no-op writes", c.NoOpWrites, func(f Findings) int { return f.NoOpWrites }},
	} {
		if b.r != nil {
			bounds = append(bounds, b)
		}
	}
	var parts []string
	for _, b := range bounds {
		parts = append(parts, rangeText(b.r)+" "+b.what)
	}
	name := "the detectors find " + strings.Join(parts, ", ")
	return name, func(f Findings) (bool, string) {
		ok := true
		var seen []string
		for _, b := range bounds {
			n := b.of(f)
			seen = append(seen, fmt.Sprintf("%d %s", n, b.what))
			if (b.r.Min != nil && n < *b.r.Min) || (b.r.Max != nil && n > *b.r.Max) {
				ok = false
			}
		}
		detail := strings.Join(seen, ", ")
		if !ok && len(f.Lines) > 0 {
			detail += "; first: " + f.Lines[0]
		}
		return ok, detail
	}
}

// rangeText renders a Range: "no", "at most 2", "at least 1", "1 to 3",
// "exactly 2".
func rangeText(r *scenarios.Range) string {
	switch {
	case r.Min != nil && r.Max != nil && *r.Min == *r.Max:
		if *r.Max == 0 {
			return "no"
		}
		return fmt.Sprintf("exactly %d", *r.Max)
	case r.Min != nil && r.Max != nil:
		return fmt.Sprintf("%d to %d", *r.Min, *r.Max)
	case r.Max != nil && *r.Max == 0:
		return "no"
	case r.Max != nil:
		return fmt.Sprintf("at most %d", *r.Max)
	}
	return fmt.Sprintf("at least %d", *r.Min)
}
