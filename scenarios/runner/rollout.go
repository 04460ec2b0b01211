package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/kubectl"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/gap"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// statusWatch is a rolloutStatus step in progress or done.
type statusWatch struct {
	step    int
	at      time.Duration
	kind    api.Kind
	key     api.Key
	cmd     string
	entry   int  // its entry in the result, recorded when the step starts
	stamp   bool // a watch: each line carries its virtual time
	lines   []string
	watch   *store.Watch
	done    bool
	outcome string
	endAt   time.Duration
}

// rolloutStatus runs `kubectl rollout status`, watching the object from
// the store as a kubectl with a perfect connection would (as the other
// observations read it): the initial list's ADDED event and every
// MODIFIED event after it print one status line, stamped with its
// virtual time, until the status viewer reports done or fails, the
// object is deleted, or --timeout passes (kubectl's
// rollout_status.go with watchtools.UntilWithSync). With --watch=false
// it prints the first line and exits.
func (r *run) rolloutStatus(i int, st *scenarios.Step) {
	rs := st.RolloutStatus
	kind, ref := rs.Ref()
	ns, name := scenarios.SplitRef(ref)
	w := &statusWatch{step: i, at: st.At.Duration, kind: kind, key: api.Key{Namespace: ns, Name: name}, stamp: rs.Watching()}
	w.cmd = fmt.Sprintf("kubectl rollout status %s/%s%s", typed(kind), name, nsFlag(ns))
	if !rs.Watching() {
		w.cmd += " --watch=false"
	}
	if rs.Timeout != nil {
		w.cmd += " --timeout=" + rs.Timeout.Duration.String()
	}
	r.statusWatches = append(r.statusWatches, w)
	// The entry is recorded now, in the timeline's order, and filled in
	// as the command ends.
	w.entry = len(r.res.Entries)
	r.record(Entry{At: w.at, Observation: true, Command: w.cmd})
	// kubectl first gets the object (the resource builder's Latest).
	if _, err := r.c.Store.Get(kind, w.key); err != nil {
		r.endStatus(w, scenarios.StatusFailed, kubectl.ErrorLine(err))
		return
	}
	watching := rs.Watching()
	sink := func(e store.Event) {
		if w.done {
			return
		}
		if e.Type == store.Deleted {
			// kubectl aborts rather than watch a re-created object.
			r.endStatus(w, scenarios.StatusFailed, "error: "+kubectl.DeletedMessage)
			return
		}
		msg, done, err := kubectl.RolloutStatusOf(e.Object)
		if err != nil {
			outcome := scenarios.StatusFailed
			if errors.Is(err, kubectl.ErrProgressDeadline) {
				outcome = scenarios.StatusProgressDeadlineExceeded
			}
			r.endStatus(w, outcome, kubectl.ErrorLine(err))
			return
		}
		if w.stamp {
			msg = "[" + clock(r.c.K.Now().Duration()) + "] " + msg
		}
		w.lines = append(w.lines, msg)
		switch {
		case done:
			r.endStatus(w, scenarios.StatusSucceeded, "")
		case !watching:
			r.endStatus(w, scenarios.StatusInProgress, "")
		}
	}
	watch, err := r.c.Store.Watch(kind, 0, store.ListOptions{Namespace: ns, Name: name}, store.SinkFunc(sink))
	if err != nil {
		r.endStatus(w, scenarios.StatusFailed, kubectl.ErrorLine(err))
		return
	}
	w.watch = watch
	if w.done {
		watch.Stop()
		return
	}
	if rs.Timeout != nil {
		// Saturating: the timeout may be as long as a duration can.
		r.c.K.At(kernel.Time(w.at).Add(rs.Timeout.Duration), func() {
			if !w.done {
				r.endStatus(w, scenarios.StatusTimedOut, "error: "+kubectl.TimedOutMessage)
			}
		})
	}
}

// endStatus ends a rolloutStatus step with outcome and records what it
// printed, errLine last.
func (r *run) endStatus(w *statusWatch, outcome, errLine string) {
	w.done, w.outcome, w.endAt = true, outcome, r.c.K.Now().Duration()
	if w.watch != nil {
		w.watch.Stop()
	}
	if errLine != "" && w.stamp {
		errLine = "[" + clock(w.endAt) + "] " + errLine
	}
	r.res.Entries[w.entry] = Entry{At: w.at, Observation: true, Command: w.cmd, Lines: w.lines, Err: errLine}
}

// recordRunningStatus records the rolloutStatus steps still watching
// when the run ends, with what they printed so far.
func (r *run) recordRunningStatus() {
	now := r.c.K.Now().Duration()
	for _, w := range r.statusWatches {
		if w.done {
			continue
		}
		w.done, w.outcome, w.endAt = true, scenarios.StatusRunning, now
		w.watch.Stop()
		r.res.Entries[w.entry] = Entry{At: w.at, Observation: true, Command: w.cmd, Lines: w.lines,
			Err: fmt.Sprintf("(still running when the run ended at %s)", clock(now))}
	}
}

// rolloutHistory runs `kubectl rollout history deployment/<name>
// [--revision=n]` as the step's user, across the network as the other
// kubectl commands do.
func (r *run) rolloutHistory(i int, st *scenarios.Step) {
	h := st.RolloutHistory
	ns, name := scenarios.SplitRef(h.Deployment)
	cmd := "kubectl rollout history deployment/" + name + nsFlag(ns)
	if h.Revision != 0 {
		cmd += fmt.Sprintf(" --revision=%d", h.Revision)
	}
	cl := r.user(st.As)
	at := st.At.Duration
	u := &unfinished{step: i, at: at, cmd: cmd}
	r.unfinished = append(r.unfinished, u)
	r.c.Go(fmt.Sprintf("user/%s/step-%d", userName(st.As), i), func(p *kernel.Process) {
		hist, err := kubectl.RolloutHistory(context.Background(), cl, api.Key{Namespace: ns, Name: name})
		u.finished = true
		e := Entry{At: at, Command: cmd, Observation: true}
		if err == nil && h.Revision != 0 {
			_, err = hist.Revision(h.Revision)
		}
		if err != nil {
			e.Err = kubectl.ErrorLine(err)
		} else {
			e.Snapshot = &Snapshot{What: "rollout-history", Kind: api.KindDeployment, History: hist, Revision: h.Revision, Now: r.now()}
		}
		r.record(e)
	})
}

// rolloutStatusCheck makes ck the check of how a rolloutStatus step
// ended, judged once the run is over, and returns its name.
func (r *run) rolloutStatusCheck(ck *check, c *scenarios.RolloutStatusCheck) string {
	kind, ref := c.Ref()
	ns, name := scenarios.SplitRef(ref)
	key := api.Key{Namespace: ns, Name: name}
	desc := fmt.Sprintf("rollout status of %s %q", typed(kind), name)
	if c.Step != nil {
		desc += " at " + c.Step.Duration.String()
	}
	desc += " ends " + c.Outcome
	if c.Within != nil {
		desc += " within " + c.Within.Duration.String()
	}
	ck.gaps = func(*gap.Timeline) (bool, time.Duration, string) {
		var w *statusWatch
		for _, x := range r.statusWatches {
			if x.kind == kind && x.key == key && (c.Step == nil || x.at == c.Step.Duration) {
				w = x
			}
		}
		if w == nil {
			return false, 0, "the step did not run (the run ended before it)"
		}
		seen := fmt.Sprintf("ended %s at %v", w.outcome, w.endAt)
		if w.outcome == scenarios.StatusRunning {
			seen = fmt.Sprintf("still running at %v", w.endAt)
		}
		ok := w.outcome == c.Outcome && (c.Within == nil || w.endAt-w.at <= c.Within.Duration)
		return ok, w.endAt, seen
	}
	return desc
}
