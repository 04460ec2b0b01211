package runner

import (
	"fmt"
	"strings"
	"time"

	"github.com/clustersim/clustersim/scenarios/imperative"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// attemptLines lists a command's attempts, each with when it began and
// how it ended ("attempt 2 at 0:14.250: update deployment default/web
// (replicas 4): timed out: ambiguous, may have been applied").
func attemptLines(res imperative.Result) []string {
	out := make([]string, 0, len(res.Log))
	for i, a := range res.Log {
		out = append(out, fmt.Sprintf("  attempt %d at %s: %s", i+1, clockMillis(a.Start.Sub(kernel.Epoch)), a))
	}
	return out
}

// clockMillis renders a virtual duration as m:ss.mmm.
func clockMillis(d time.Duration) string {
	ms := int64(d / time.Millisecond)
	return fmt.Sprintf("%d:%02d.%03d", ms/60000, ms/1000%60, ms%1000)
}

// storeShows returns, for the end of the run, the accepted writes by
// actor within w that match: what the store shows a writer did, to set
// beside what the writer was told. what names one write ("web-x7k2p at
// 0:10.025"); it returns "" for records that do not match.
//
// acked, when not nil, is how many of those writes the writer was told
// were done; the line then says how far the store's count differs.
func (r *run) storeShows(actor string, w window, noun string, acked *int, what func(rec *store.AuditRecord) string) func() []string {
	return func() []string {
		until := w.until
		if until == 0 {
			until = r.c.K.Now().Duration() + 1
		}
		var got []string
		r.c.Store.Audit().Each(func(rec *store.AuditRecord) bool {
			if at := rec.Time.Duration(); rec.Actor != actor || at < w.from || at >= until {
				return true
			}
			if s := what(rec); s != "" {
				got = append(got, s)
			}
			return true
		})
		span := fmt.Sprintf("from %s to the end of the run (%s)", clock(w.from), clock(r.c.K.Now().Duration()))
		if w.until != 0 {
			span = fmt.Sprintf("from %s to %s (%s's next command)", clock(w.from), clock(w.until), actor)
		}
		head := fmt.Sprintf("the store shows %d %s by %s %s", len(got), noun, actor, span)
		if acked != nil {
			switch d := len(got) - *acked; {
			case d > 0:
				head += fmt.Sprintf(" (%d more than the %d acknowledged: requests that timed out, or were refused or duplicated on the way, were applied)", d, *acked)
			case d < 0:
				head += fmt.Sprintf(" (%d fewer than the %d acknowledged: some writes changed nothing)", -d, *acked)
			default:
				head += " (as many as acknowledged)"
			}
		}
		if len(got) == 0 {
			return []string{head}
		}
		return []string{head + ": " + strings.Join(got, ", ")}
	}
}

// createdPods is a storeShows matcher for the pods created in namespace
// ns with a name starting prefix.
func createdPods(ns, prefix string) func(rec *store.AuditRecord) string {
	return func(rec *store.AuditRecord) string {
		if rec.Kind != api.KindPod || rec.Verb != "create" || rec.Subresource != "" || rec.Key.Namespace != ns || !strings.HasPrefix(rec.Key.Name, prefix) {
			return ""
		}
		return fmt.Sprintf("%s at %s", rec.Key.Name, clockMillis(rec.Time.Duration()))
	}
}

// deletedPods is a storeShows matcher for pod deletions in namespace ns.
func deletedPods(ns string) func(rec *store.AuditRecord) string {
	return func(rec *store.AuditRecord) string {
		if rec.Kind != api.KindPod || rec.Verb != "delete" || rec.Key.Namespace != ns {
			return ""
		}
		return fmt.Sprintf("%s at %s", rec.Key.Name, clockMillis(rec.Time.Duration()))
	}
}

// fieldChanges is a storeShows matcher for the changes of one field of
// one object ("3 -> 4 at 0:10.120").
func fieldChanges(kind api.Kind, key api.Key, path string) func(rec *store.AuditRecord) string {
	return func(rec *store.AuditRecord) string {
		if rec.Kind != kind || rec.Key != key {
			return ""
		}
		for c := range rec.EachChange() {
			if c.Path == path {
				return fmt.Sprintf("%s -> %s at %s", orNone(c.Old, c.OldSet), orNone(c.New, c.NewSet), clockMillis(rec.Time.Duration()))
			}
		}
		return ""
	}
}

func orNone(v string, set bool) string {
	if !set {
		return "<none>"
	}
	return v
}
