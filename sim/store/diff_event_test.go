package store

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/addrmemo"
	"github.com/clustersim/clustersim/sim/api"
)

// kubeletEvent is an Event as a kubelet writes one about a pod's
// container and the store creates it (uid, resourceVersion and
// creationTimestamp set), as in BenchmarkStoredEvents.
func kubeletEvent() *api.Event {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return &api.Event{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta: api.ObjectMeta{Name: "app-3-00042.1f2e3d4c5b6a7988", Namespace: "default",
			UID: "0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b", ResourceVersion: "1234", CreationTimestamp: api.NewTime(at)},
		InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "app-3-00042", UID: "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d",
			APIVersion: "v1", ResourceVersion: "1042", FieldPath: "spec.containers{app}"},
		Reason: "Pulled", Message: "Pulled container app of pod app-3-00042",
		Source:         api.EventSource{Component: "kubelet", Host: "node-42"},
		FirstTimestamp: api.NewTime(at), LastTimestamp: api.NewTime(at), Count: 1, Type: "Normal",
		ReportingController: "kubelet", ReportingInstance: "node-42",
	}
}

// auditDiffer is a fresh differ set up as the audit log sets up its own
// (auditChanges), with intern as its interned paths.
func auditDiffer(intern map[string]string) *differ {
	return &differ{intern: intern, skip: managedFieldsPath, audit: true}
}

// eventLeaves are the leaves eventCreate may emit, in the walk's order,
// each with the path the walk gives it and a setter: clearing them in
// turn, or setting them at random, covers every field the fast path
// renders (TestEventCreateFields holds the paths to the walk's).
var eventLeaves = []struct {
	path string
	set  func(e *api.Event, s string, t api.Time, n int32)
}{
	{"apiVersion", func(e *api.Event, s string, _ api.Time, _ int32) { e.APIVersion = s }},
	{"kind", func(e *api.Event, s string, _ api.Time, _ int32) { e.Kind = s }},
	{"metadata.name", func(e *api.Event, s string, _ api.Time, _ int32) { e.Name = s }},
	{"metadata.namespace", func(e *api.Event, s string, _ api.Time, _ int32) { e.Namespace = s }},
	{"metadata.uid", func(e *api.Event, s string, _ api.Time, _ int32) { e.UID = api.UID(s) }},
	{"metadata.resourceVersion", func(e *api.Event, s string, _ api.Time, _ int32) { e.ResourceVersion = s }},
	{"metadata.creationTimestamp", func(e *api.Event, _ string, t api.Time, _ int32) { e.CreationTimestamp = t }},
	{"involvedObject.kind", func(e *api.Event, s string, _ api.Time, _ int32) { e.InvolvedObject.Kind = s }},
	{"involvedObject.namespace", func(e *api.Event, s string, _ api.Time, _ int32) { e.InvolvedObject.Namespace = s }},
	{"involvedObject.name", func(e *api.Event, s string, _ api.Time, _ int32) { e.InvolvedObject.Name = s }},
	{"involvedObject.uid", func(e *api.Event, s string, _ api.Time, _ int32) { e.InvolvedObject.UID = api.UID(s) }},
	{"involvedObject.apiVersion", func(e *api.Event, s string, _ api.Time, _ int32) { e.InvolvedObject.APIVersion = s }},
	{"involvedObject.resourceVersion", func(e *api.Event, s string, _ api.Time, _ int32) { e.InvolvedObject.ResourceVersion = s }},
	{"involvedObject.fieldPath", func(e *api.Event, s string, _ api.Time, _ int32) { e.InvolvedObject.FieldPath = s }},
	{"reason", func(e *api.Event, s string, _ api.Time, _ int32) { e.Reason = s }},
	{"message", func(e *api.Event, s string, _ api.Time, _ int32) { e.Message = s }},
	{"source.component", func(e *api.Event, s string, _ api.Time, _ int32) { e.Source.Component = s }},
	{"source.host", func(e *api.Event, s string, _ api.Time, _ int32) { e.Source.Host = s }},
	{"firstTimestamp", func(e *api.Event, _ string, t api.Time, _ int32) { e.FirstTimestamp = t }},
	{"lastTimestamp", func(e *api.Event, _ string, t api.Time, _ int32) { e.LastTimestamp = t }},
	{"count", func(e *api.Event, _ string, _ api.Time, n int32) { e.Count = n }},
	{"type", func(e *api.Event, s string, _ api.Time, _ int32) { e.Type = s }},
	{"reportingComponent", func(e *api.Event, s string, _ api.Time, _ int32) { e.ReportingController = s }},
	{"reportingInstance", func(e *api.Event, s string, _ api.Time, _ int32) { e.ReportingInstance = s }},
}

// eventDeclines are Events eventCreate must leave to the walk: each sets
// one field the fast path does not render.
func eventDeclines() []struct {
	name string
	edit func(e *api.Event)
} {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	grace := int64(30)
	return []struct {
		name string
		edit func(e *api.Event)
	}{
		{"generateName", func(e *api.Event) { e.GenerateName = "app-" }},
		{"selfLink", func(e *api.Event) { e.SelfLink = "/api/v1/x" }},
		{"generation", func(e *api.Event) { e.Generation = 1 }},
		{"negative generation", func(e *api.Event) { e.Generation = -1 }},
		{"deletionTimestamp", func(e *api.Event) { e.DeletionTimestamp = &api.Time{Time: at} }},
		{"zero deletionTimestamp", func(e *api.Event) { e.DeletionTimestamp = &api.Time{} }},
		{"deletionGracePeriodSeconds", func(e *api.Event) { e.DeletionGracePeriodSeconds = &grace }},
		{"labels", func(e *api.Event) { e.Labels = map[string]string{"a": "b"} }},
		{"annotations", func(e *api.Event) { e.Annotations = map[string]string{"a": "b"} }},
		{"ownerReferences", func(e *api.Event) {
			e.OwnerReferences = []api.OwnerReference{{APIVersion: "v1", Kind: "Pod", Name: "p", UID: "u"}}
		}},
		{"finalizers", func(e *api.Event) { e.Finalizers = []string{"f"} }},
		{"eventTime", func(e *api.Event) { e.EventTime = api.NewMicroTime(at) }},
		{"eventTime zero instant elsewhere", func(e *api.Event) {
			e.EventTime = api.MicroTime{Time: time.Time{}.In(time.FixedZone("x", 3600))}
		}},
		{"series", func(e *api.Event) { e.Series = &api.EventSeries{Count: 2} }},
		{"empty series", func(e *api.Event) { e.Series = &api.EventSeries{} }},
		{"action", func(e *api.Event) { e.Action = "Binding" }},
		{"related", func(e *api.Event) { e.Related = &api.ObjectReference{Kind: "Node", Name: "n"} }},
		{"empty related", func(e *api.Event) { e.Related = &api.ObjectReference{} }},
	}
}

// walkChanges is what the walk appends for the create of e with a fresh
// differ as the audit log's (interned in intern, or not when it is nil).
func walkChanges(e *api.Event, intern map[string]string) []Change {
	return slices.Clone(diffWith(auditDiffer(intern), nil, e))
}

// checkFastPath compares a typed fast path of the audit diff (fast, on
// a differ set up as the audit log's; named name) with the walk for the
// write of old to new (old nil for a create): with paths interned and
// not, it must append exactly the walk's changes after what d.out
// holds, with the interned strings and as many of them as the walk
// interns, and leave no path begun, or decline and append nothing, the
// same way both times; the walk on the same differ afterwards (its path
// tree and rendered times, which the fast path may have grown) must
// find the same; and the audit log's changes must be the walk's less
// those it drops. It reports whether the fast path took the write.
func checkFastPath(t *testing.T, name string, old, new api.Object, fast func(d *differ) bool) (accepted bool) {
	t.Helper()
	walk := func(intern map[string]string) []Change {
		var oldV any
		if old != nil {
			oldV = old
		}
		return slices.Clone(diffWith(auditDiffer(intern), oldV, new))
	}
	sentinel := Change{Path: "before", New: "x", NewSet: true}
	var took [2]bool // with paths interned, without
	for k, interned := range []bool{true, false} {
		var fastIntern, walkIntern map[string]string
		if interned {
			fastIntern, walkIntern = map[string]string{}, map[string]string{}
		}
		want := walk(walkIntern)
		d := auditDiffer(fastIntern)
		d.out = append(d.out, sentinel) // the fast path appends to what is there
		ok := fast(d)
		if d.out[0] != sentinel {
			t.Fatalf("interned %t: %s overwrote d.out[0]: %v", interned, name, d.out[0])
		}
		if len(d.path) != 0 {
			t.Fatalf("interned %t: %s left the path %q", interned, name, d.path)
		}
		got := d.out[1:]
		took[k] = ok
		if !ok {
			if len(got) != 0 {
				t.Fatalf("interned %t: %s declined but appended%s", interned, name, fmtChanges(got))
			}
			continue
		}
		if !slices.Equal(got, want) {
			t.Fatalf("interned %t: %s%s\nwant (the walk's)%s", interned, name, fmtChanges(got), fmtChanges(want))
		}
		for _, c := range got {
			if interned && !addrmemo.Same(c.Path, fastIntern[c.Path]) {
				t.Fatalf("path %q is not the interned string", c.Path)
			}
		}
		if interned && len(fastIntern) != len(walkIntern) {
			t.Fatalf("%s interned %d paths, the walk %d", name, len(fastIntern), len(walkIntern))
		}
		d.out = d.out[:0]
		var oldV any
		if old != nil {
			oldV = old
		}
		if again := diffWith(d, oldV, new); !slices.Equal(again, want) {
			t.Fatalf("interned %t: the walk after %s%s\nwant%s", interned, name, fmtChanges(again), fmtChanges(want))
		}
	}
	if took[0] != took[1] {
		t.Fatalf("%s took the write with paths interned: %t, without: %t", name, took[0], took[1])
	}
	// The audit log's changes: the walk's without the bookkeeping.
	var l AuditLog
	if got, want := l.auditChanges(old, new), auditOnly(walk(map[string]string{})); !slices.Equal(got, want) {
		t.Fatalf("auditChanges%s\nwant (the walk's)%s", fmtChanges(got), fmtChanges(want))
	}
	return took[0]
}

// auditOnly returns the changes the audit log keeps of the walk's: all
// but the bookkeeping (skipInAudit).
func auditOnly(changes []Change) []Change {
	var out []Change
	for _, c := range changes {
		if !skipInAudit(c.Path) {
			out = append(out, c)
		}
	}
	return out
}

// checkEventCreate is checkFastPath for eventCreate and the create of
// e, and checks that the audit log took its fast path exactly when
// eventCreate took the Event.
func checkEventCreate(t *testing.T, e *api.Event) (accepted bool) {
	t.Helper()
	accepted = checkFastPath(t, "eventCreate", nil, e, func(d *differ) bool { return d.eventCreate(e) })
	var l AuditLog
	l.auditChanges(nil, e)
	if took := l.fastPaths == 1; took != accepted {
		t.Fatalf("auditChanges took the fast path: %t; eventCreate took the Event: %t", took, accepted)
	}
	return accepted
}

// fmtChanges shows changes one a line, their strings quoted (the odd
// ones the tests use stay readable).
func fmtChanges(cs []Change) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "\n\t%q old %q (%t) new %q (%t)", c.Path, c.Old, c.OldSet, c.New, c.NewSet)
	}
	return b.String()
}

// TestEventCreateMatchesWalk checks that eventCreate appends exactly the
// changes the walk appends for the create of an Event, or declines and
// appends nothing: for kubelet-like Events, each rendered field empty in
// turn, odd strings, counts and times, empty lists and maps (absent to
// the walk), managedFields (skipped by the audit log's differ), each
// field the fast path declines, and thousands of random Events.
func TestEventCreateMatchesWalk(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s, ns int) api.Time {
		return api.Time{Time: time.Date(y, mo, d, h, mi, s, ns, time.UTC)}
	}
	east := time.FixedZone("east", 5*3600+30*60)
	west := time.FixedZone("west", -7*3600)
	type row struct {
		name string
		edit func(e *api.Event)
	}
	rows := []row{
		{"kubelet pod event", func(*api.Event) {}},
		{"kubelet node event (auditPairs)", func(e *api.Event) {
			for _, p := range auditPairs() {
				if p.name == "create-event" {
					*e = *p.new.(*api.Event)
				}
			}
		}},
		{"empty Event", func(e *api.Event) { *e = api.Event{} }},
		{"count 0", func(e *api.Event) { e.Count = 0 }},
		{"count 2", func(e *api.Event) { e.Count = 2 }},
		{"count 100", func(e *api.Event) { e.Count = 100 }},
		{"count -1", func(e *api.Event) { e.Count = -1 }},
		{"count max", func(e *api.Event) { e.Count = math.MaxInt32 }},
		{"count min", func(e *api.Event) { e.Count = math.MinInt32 }},
		{"empty non-omitempty fields", func(e *api.Event) { e.ReportingController, e.ReportingInstance = "", "" }},
		{"empty namespaces", func(e *api.Event) { e.Namespace, e.InvolvedObject.Namespace = "", "" }},
		{"zero timestamps", func(e *api.Event) {
			e.CreationTimestamp, e.FirstTimestamp, e.LastTimestamp = api.Time{}, api.Time{}, api.Time{}
		}},
		{"zero instant elsewhere", func(e *api.Event) {
			e.FirstTimestamp = api.Time{Time: time.Time{}.In(east)}
			e.LastTimestamp = api.Time{Time: time.Time{}.UTC()}
		}},
		{"sub-second times", func(e *api.Event) {
			e.CreationTimestamp = utc(2026, 1, 2, 3, 4, 5, 999_999_999)
			e.FirstTimestamp = utc(2026, 1, 2, 3, 4, 5, 1)
			e.LastTimestamp = utc(2026, 1, 2, 3, 4, 6, 500_000_000)
		}},
		{"non-UTC times", func(e *api.Event) {
			e.CreationTimestamp = api.Time{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, east)}
			e.FirstTimestamp = api.Time{Time: time.Date(2026, 1, 2, 3, 4, 5, 250_000_000, west)}
			e.LastTimestamp = api.Time{Time: time.Date(2025, 12, 31, 23, 59, 59, 0, west)}
		}},
		{"times before 1970", func(e *api.Event) {
			e.CreationTimestamp = utc(1969, 12, 31, 23, 59, 59, 500_000_000)
			e.FirstTimestamp = utc(1, 1, 1, 0, 0, 1, 0)
			e.LastTimestamp = utc(1, 1, 1, 0, 0, 0, 1)
		}},
		{"year 9999 and beyond", func(e *api.Event) {
			e.CreationTimestamp = utc(9999, 12, 31, 23, 59, 59, 999_999_999)
			e.FirstTimestamp = utc(10000, 1, 1, 0, 0, 0, 0)
			e.LastTimestamp = utc(-1, 6, 1, 0, 0, 0, 0)
		}},
		{"uid not a UUID", func(e *api.Event) { e.UID, e.InvolvedObject.UID = "zone-c-70", "not a uuid at all" }},
		{"quotes and backslashes", func(e *api.Event) {
			e.Message, e.Reason, e.Name = `Container image "nginx:1.25" already present`, `a\b`, `"quoted"`
		}},
		{"newlines and tabs", func(e *api.Event) { e.Message, e.Source.Host = "line one\nline two\r\n\tend", "h\n" }},
		{"non-ASCII", func(e *api.Event) {
			e.Message, e.Type, e.InvolvedObject.FieldPath = "Ünïcødé ☃ 雪", "Warnung", "spec.containers{ç}"
		}},
		{"invalid UTF-8", func(e *api.Event) { e.Message, e.UID, e.ReportingInstance = "bad \xff\xfe byte", "\xc3\x28", "\x80" }},
		{"NUL and controls", func(e *api.Event) { e.Message, e.Kind = "a\x00b\x1b[31m", "\x7f" }},
		{"path-like strings", func(e *api.Event) { e.Name, e.Reason = "metadata.name", "[x]" }},
		{"empty maps and lists", func(e *api.Event) {
			e.Labels, e.Annotations = map[string]string{}, map[string]string{}
			e.OwnerReferences, e.Finalizers, e.ManagedFields = []api.OwnerReference{}, []string{}, []api.ManagedFieldsEntry{}
		}},
		{"managedFields (skipped)", func(e *api.Event) {
			e.ManagedFields = []api.ManagedFieldsEntry{{Manager: "kubelet", Operation: "Update", APIVersion: "v1",
				Time: &api.Time{Time: e.CreationTimestamp.Time}}}
		}},
		{"zero series, related and eventTime", func(e *api.Event) { e.Series, e.Related, e.EventTime = nil, nil, api.MicroTime{} }},
	}
	for _, leaf := range eventLeaves {
		rows = append(rows, row{"no " + leaf.path, func(e *api.Event) { leaf.set(e, "", api.Time{}, 0) }})
		rows = append(rows, row{"only " + leaf.path, func(e *api.Event) {
			keep := *kubeletEvent()
			*e = api.Event{}
			leaf.set(e, "x", keep.FirstTimestamp, 7)
		}})
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			e := kubeletEvent()
			tc.edit(e)
			if !checkEventCreate(t, e) {
				t.Fatalf("eventCreate declined the Event")
			}
		})
	}
	for _, tc := range eventDeclines() {
		t.Run("declines "+tc.name, func(t *testing.T) {
			e := kubeletEvent()
			tc.edit(e)
			if checkEventCreate(t, e) {
				t.Fatalf("eventCreate took the Event")
			}
		})
	}
	t.Run("declines nil", func(t *testing.T) {
		d := auditDiffer(map[string]string{})
		if d.eventCreate(nil) || len(d.out) != 0 {
			t.Fatalf("eventCreate(nil) took it:%s", fmtChanges(d.out))
		}
		var l AuditLog
		if got := l.auditChanges(nil, (*api.Event)(nil)); len(got) != 0 {
			t.Fatalf("auditChanges of a nil Event: %v", got)
		}
	})
	t.Run("managedFields are irrelevant when skipped", func(t *testing.T) {
		plain := kubeletEvent()
		managed := kubeletEvent()
		managed.ManagedFields = []api.ManagedFieldsEntry{{Manager: "kubelet", Operation: "Update", APIVersion: "v1"}}
		if a, b := walkChanges(plain, nil), walkChanges(managed, nil); !slices.Equal(a, b) {
			t.Fatalf("the audit walk of an Event with managedFields%s\ndiffers from without%s", fmtChanges(b), fmtChanges(a))
		}
		// Without the skip the walk renders them: the fast path declines.
		d := &differ{intern: map[string]string{}}
		if d.eventCreate(managed) || len(d.out) != 0 {
			t.Fatalf("eventCreate took managedFields the differ does not skip:%s", fmtChanges(d.out))
		}
		if len(diffWith(&differ{}, nil, managed)) == len(walkChanges(managed, nil)) {
			t.Fatalf("the walk without the skip renders no more than with it: the test proves nothing")
		}
		// Without the skip and without managedFields, it is Diff's.
		d = &differ{}
		if !d.eventCreate(plain) || !slices.Equal(d.out, Diff(nil, plain)) {
			t.Fatalf("eventCreate without a skip%s\nwant Diff's%s", fmtChanges(d.out), fmtChanges(Diff(nil, plain)))
		}
	})
	t.Run("declines another skip", func(t *testing.T) {
		d := &differ{skip: "metadata.name"}
		if d.eventCreate(kubeletEvent()) || len(d.out) != 0 {
			t.Fatalf("eventCreate took an Event with skip %q:%s", d.skip, fmtChanges(d.out))
		}
	})
	t.Run("random", func(t *testing.T) {
		testRandomEvents(t, rand.New(rand.NewPCG(20260102, 3)), 5000)
	})
}

// testRandomEvents compares eventCreate with the walk for n random
// Events from rng, with one differ of each kept across them (as the
// audit log keeps its own: rendered seconds and interned paths reused)
// as well as fresh ones (checkEventCreate).
func testRandomEvents(t *testing.T, rng *rand.Rand, n int) {
	strs := []string{"", "v1", "Event", "default", "kubelet", "node-7", "Pulled", `say "hi"`, `C:\path`, "a\nb", "ü☃", "\xff", "metadata.uid", " "}
	zones := []*time.Location{time.UTC, time.FixedZone("a", 3600), time.FixedZone("b", -9*3600-1800)}
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	randTime := func() api.Time {
		switch rng.IntN(8) {
		case 0:
			return api.Time{}
		case 1:
			return api.Time{Time: time.Time{}.In(zones[rng.IntN(len(zones))])}
		case 2:
			return api.Time{Time: time.Unix(rng.Int64N(1<<40)-1<<39, rng.Int64N(1e9)).In(zones[rng.IntN(len(zones))])}
		}
		// Most within seconds of one another, as a run's.
		return api.Time{Time: base.Add(time.Duration(rng.Int64N(int64(40 * time.Second)))).In(zones[rng.IntN(len(zones))])}
	}
	counts := []int32{0, 1, 2, 9, 10, 99, 100, 12345, -1, math.MaxInt32, math.MinInt32}
	declines := eventDeclines()
	fastIntern, walkIntern := map[string]string{}, map[string]string{}
	fast, walk := auditDiffer(fastIntern), auditDiffer(walkIntern)
	var l AuditLog
	for i := range n {
		e := &api.Event{}
		for _, leaf := range eventLeaves {
			if rng.IntN(3) > 0 {
				leaf.set(e, strs[rng.IntN(len(strs))], randTime(), counts[rng.IntN(len(counts))])
			}
		}
		if rng.IntN(4) == 0 {
			e.ManagedFields = []api.ManagedFieldsEntry{{Manager: strs[rng.IntN(len(strs))]}}
		}
		declined := rng.IntN(10) == 0
		if declined {
			declines[rng.IntN(len(declines))].edit(e)
		}
		fast.out, walk.out = fast.out[:0], walk.out[:0]
		ok := fast.eventCreate(e)
		want := diffWith(walk, nil, e)
		switch {
		case ok == declined:
			t.Fatalf("event %d: eventCreate took it: %t, a declined field set: %t\n%+v", i, ok, declined, e)
		case !ok && len(fast.out) != 0:
			t.Fatalf("event %d: eventCreate declined but appended%s", i, fmtChanges(fast.out))
		case ok && !slices.Equal(fast.out, want):
			t.Fatalf("event %d: eventCreate%s\nwant (the walk's)%s\n%+v", i, fmtChanges(fast.out), fmtChanges(want), e)
		}
		for _, c := range fast.out {
			if !addrmemo.Same(c.Path, fastIntern[c.Path]) {
				t.Fatalf("event %d: path %q is not the interned string", i, c.Path)
			}
		}
		if got, audit := l.auditChanges(nil, e), auditOnly(want); !slices.Equal(got, audit) {
			t.Fatalf("event %d: auditChanges%s\nwant%s", i, fmtChanges(got), fmtChanges(audit))
		}
		if i%50 == 0 {
			checkEventCreate(t, e)
		}
	}
}

// TestEventCreateFields fails when Event, TypeMeta, ObjectMeta,
// ObjectReference or EventSource gain, lose or rename a field (or its
// JSON name): eventCreate must then render the new field, or decline
// Events that set it, and eventLeaves follow the JSON names, or the
// audit log would miss or misname a change of every Event's create.
func TestEventCreateFields(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want []string
	}{
		{reflect.TypeFor[api.Event](), []string{"TypeMeta ,inline", "ObjectMeta metadata", "InvolvedObject involvedObject",
			"Reason reason,omitempty", "Message message,omitempty", "Source source,omitempty",
			"FirstTimestamp firstTimestamp,omitempty", "LastTimestamp lastTimestamp,omitempty", "Count count,omitempty",
			"Type type,omitempty", "EventTime eventTime,omitempty", "Series series,omitempty", "Action action,omitempty",
			"Related related,omitempty", "ReportingController reportingComponent", "ReportingInstance reportingInstance"}},
		{reflect.TypeFor[api.TypeMeta](), []string{"APIVersion apiVersion,omitempty", "Kind kind,omitempty"}},
		{reflect.TypeFor[api.ObjectMeta](), []string{"Name name,omitempty", "GenerateName generateName,omitempty",
			"Namespace namespace,omitempty", "SelfLink selfLink,omitempty", "UID uid,omitempty",
			"ResourceVersion resourceVersion,omitempty", "Generation generation,omitempty",
			"CreationTimestamp creationTimestamp,omitempty", "DeletionTimestamp deletionTimestamp,omitempty",
			"DeletionGracePeriodSeconds deletionGracePeriodSeconds,omitempty", "Labels labels,omitempty",
			"Annotations annotations,omitempty", "OwnerReferences ownerReferences,omitempty",
			"Finalizers finalizers,omitempty", "ManagedFields managedFields,omitempty"}},
		{reflect.TypeFor[api.ObjectReference](), []string{"Kind kind,omitempty", "Namespace namespace,omitempty",
			"Name name,omitempty", "UID uid,omitempty", "APIVersion apiVersion,omitempty",
			"ResourceVersion resourceVersion,omitempty", "FieldPath fieldPath,omitempty"}},
		{reflect.TypeFor[api.EventSource](), []string{"Component component,omitempty", "Host host,omitempty"}},
	} {
		checkFieldTags(t, "eventCreate", tc.typ, tc.want)
	}
	// The positions eventCreate gives the walk's path nodes are the
	// walk's (structFields), and the field counts.
	for _, tc := range []struct {
		typ    reflect.Type
		fields int
		pos    map[int]string
	}{
		{reflect.TypeFor[api.Event](), evFieldsN, map[int]string{evTypeMeta: "", evMeta: "metadata", evInvolved: "involvedObject",
			evReason: "reason", evMessage: "message", evSource: "source", evFirstTimestamp: "firstTimestamp",
			evLastTimestamp: "lastTimestamp", evCount: "count", evType: "type", evReporting: "reportingComponent",
			evInstance: "reportingInstance"}},
		{reflect.TypeFor[api.TypeMeta](), tmFieldsN, map[int]string{tmAPIVersion: "apiVersion", tmKind: "kind"}},
		{reflect.TypeFor[api.ObjectMeta](), omFieldsN, map[int]string{omName: "name", omNamespace: "namespace", omUID: "uid",
			omResourceVersion: "resourceVersion", omCreationTimestamp: "creationTimestamp"}},
		{reflect.TypeFor[api.ObjectReference](), orFieldsN, map[int]string{orKind: "kind", orNamespace: "namespace", orName: "name",
			orUID: "uid", orAPIVersion: "apiVersion", orResourceVersion: "resourceVersion", orFieldPath: "fieldPath"}},
		{reflect.TypeFor[api.EventSource](), esFieldsN, map[int]string{esComponent: "component", esHost: "host"}},
	} {
		checkFieldPositions(t, "eventCreate", tc.typ, tc.fields, tc.pos)
	}
	if eventInfo != infoOf(reflect.TypeFor[*api.Event]()).elem {
		t.Errorf("eventInfo is not the info the walk of an *Event roots its path tree at")
	}
	// The leaves eventCreate emits are one per path, in the walk's order.
	e := &api.Event{}
	for i, leaf := range eventLeaves {
		leaf.set(e, fmt.Sprint(i), api.Time{Time: time.Unix(int64(i), 0)}, int32(i+1))
	}
	got := walkChanges(e, nil)
	if len(got) != len(eventLeaves) {
		t.Fatalf("the walk of an Event with every leaf set has %d changes, eventCreate knows %d:%s", len(got), len(eventLeaves), fmtChanges(got))
	}
	for i, c := range got {
		if c.Path != eventLeaves[i].path {
			t.Errorf("the walk's change %d is at %q, eventLeaves[%d] at %q", i, c.Path, i, eventLeaves[i].path)
		}
	}
}

// checkFieldTags fails when typ's fields and JSON names ("Name tag"
// each) are not want, what the typed fast path who renders or declines.
func checkFieldTags(t *testing.T, who string, typ reflect.Type, want []string) {
	t.Helper()
	var got []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		got = append(got, f.Name+" "+f.Tag.Get("json"))
	}
	if !slices.Equal(got, want) {
		t.Errorf("%v has the fields (and JSON names)\n\t%s\n%s knows\n\t%s\n"+
			"render a new field in %s (or decline the writes that set it), then update this test",
			typ, strings.Join(got, "\n\t"), who, strings.Join(want, "\n\t"), who)
	}
}

// checkFieldPositions fails when the walk does not see fields fields in
// typ (structFields), or names the field at a position of pos otherwise
// than pos does: the positions the typed fast path who gives the walk's
// path nodes.
func checkFieldPositions(t *testing.T, who string, typ reflect.Type, fields int, pos map[int]string) {
	t.Helper()
	fs := infoOf(typ).fields
	if len(fs) != fields {
		t.Errorf("%v has %d fields to the walk, %s counts %d", typ, len(fs), who, fields)
		return
	}
	for p, name := range pos {
		if fs[p].name != name {
			t.Errorf("%v: the walk's field %d is %q, %s's %q", typ, p, fs[p].name, who, name)
		}
	}
}

// FuzzEventCreate checks, beyond not panicking, that whatever Event
// eventCreate takes (the fuzzer's strings in every string field, its
// count, times at any instant and offset, zero or not, and the fields
// eventCreate declines set as its flags say) it appends exactly the
// changes the walk appends for its create with a differ set up as the
// audit log's, with paths interned (and the interned strings) and not;
// that it declines, appending nothing, exactly the Events with a field
// it does not render; and that the audit log's changes of the create are
// the walk's less those the log drops.
func FuzzEventCreate(f *testing.F) {
	e := kubeletEvent()
	f.Add(e.APIVersion, e.Kind, e.Name, e.Namespace, string(e.UID), e.ResourceVersion,
		e.InvolvedObject.Kind, e.InvolvedObject.Namespace, e.InvolvedObject.Name, string(e.InvolvedObject.UID),
		e.InvolvedObject.APIVersion, e.InvolvedObject.ResourceVersion, e.InvolvedObject.FieldPath,
		e.Reason, e.Message, e.Source.Component, e.Source.Host, e.Type, e.ReportingController, e.ReportingInstance,
		e.Count, e.CreationTimestamp.UnixMilli(), e.FirstTimestamp.UnixMilli(), e.LastTimestamp.UnixMilli(), int32(0), uint32(0))
	f.Add("", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
		int32(0), int64(0), int64(0), int64(0), int32(0), uint32(0b111))
	f.Add(`"`, `\`, "\n", "\xff", "ü", "0", "x", "", "y", "z", "v1", "1", "{}", "R", "m\x00", "c", "h", "T", "", "i",
		int32(-1), int64(-62135596800000), int64(253402300799999), int64(-1), int32(-3600), uint32(0b1000))
	f.Add("v1", "Event", "n", "default", "u", "1", "Pod", "default", "p", "pu", "v1", "2", "", "Started", "m", "kubelet",
		"node", "Normal", "kubelet", "node", int32(1), int64(1), int64(2), int64(3), int32(19800), uint32(1<<8))
	f.Fuzz(func(t *testing.T, apiVersion, kind, name, ns, uid, rv, inKind, inNS, inName, inUID, inAPIVersion, inRV, fieldPath,
		reason, message, component, host, typ, controller, instance string, count int32, created, first, last int64, offset int32, flags uint32) {
		zone := time.FixedZone("z", int(offset%(100*3600)))
		at := func(ms int64, zero uint32) api.Time {
			switch {
			case flags&zero != 0:
				return api.Time{}
			case flags&0b1000 != 0 && zero == 0b010:
				return api.Time{Time: time.Time{}.In(zone)} // a zero instant, not zero
			}
			return api.Time{Time: time.UnixMilli(ms).In(zone)}
		}
		e := &api.Event{
			TypeMeta:   api.TypeMeta{APIVersion: apiVersion, Kind: kind},
			ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, UID: api.UID(uid), ResourceVersion: rv, CreationTimestamp: at(created, 0b001)},
			InvolvedObject: api.ObjectReference{Kind: inKind, Namespace: inNS, Name: inName, UID: api.UID(inUID), APIVersion: inAPIVersion,
				ResourceVersion: inRV, FieldPath: fieldPath},
			Reason: reason, Message: message, Source: api.EventSource{Component: component, Host: host},
			FirstTimestamp: at(first, 0b010), LastTimestamp: at(last, 0b100), Count: count, Type: typ,
			ReportingController: controller, ReportingInstance: instance,
		}
		if flags&0b10000 != 0 {
			e.ManagedFields = []api.ManagedFieldsEntry{{Manager: name}} // skipped: taken
		}
		declines := eventDeclines()
		declined := false
		for i, d := range declines {
			if flags&(1<<(8+i)) != 0 {
				d.edit(e)
				declined = true
			}
		}
		if accepted := checkEventCreate(t, e); accepted == declined {
			t.Fatalf("eventCreate took the Event: %t; a declined field set: %t\n%+v", accepted, declined, e)
		}
	})
}

// BenchmarkEventCreate is the audit diff of the create of kubelet
// Events, through eventCreate (fast) and through the walk (walk), over
// 4,096 distinct Events (20 hosts' pods' containers, times a few seconds
// apart) as a run writes them, with one differ as the audit log's. An
// op is one Event.
func BenchmarkEventCreate(b *testing.B) {
	reasons := [...]string{"Scheduled", "Pulling", "Pulled", "Created", "Started"}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	evs := make([]*api.Event, 4096)
	for i := range evs {
		e := kubeletEvent()
		pod := fmt.Sprintf("app-%d-%05d", i%10, i/5)
		host := fmt.Sprintf("node-%d", i%20)
		e.Name = fmt.Sprintf("%s.%016x", pod, uint64(i)*0x9e3779b97f4a7c15)
		e.UID = api.UID(fmt.Sprintf("0f1e2d3c-4b5a-4978-8a6b-%012x", i))
		e.ResourceVersion = fmt.Sprint(1000 + i)
		e.InvolvedObject.Name, e.InvolvedObject.UID = pod, api.UID(fmt.Sprintf("9a8b7c6d-5e4f-4a3b-9c2d-%012x", i/5))
		e.Reason, e.Message = reasons[i%5], fmt.Sprintf("%s container app of pod %s", reasons[i%5], pod)
		e.Source.Host, e.ReportingInstance = host, host
		t := api.NewTime(at.Add(time.Duration(i/100) * time.Second))
		e.CreationTimestamp, e.FirstTimestamp, e.LastTimestamp = t, t, t
		evs[i] = e
	}
	for _, tc := range []struct {
		name string
		diff func(d *differ, e *api.Event) bool
	}{
		{"fast", func(d *differ, e *api.Event) bool { return d.eventCreate(e) }},
		{"walk", func(d *differ, e *api.Event) bool { return len(diffWith(d, nil, e)) > 0 }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			d := auditDiffer(map[string]string{})
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				d.out = d.out[:0]
				if !tc.diff(d, evs[i%len(evs)]) {
					b.Fatal("no changes")
				}
				i++
			}
		})
	}
}
