package store

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// fmtRecord is AuditRecord.String as it was written with fmt, before
// AppendTo: the trace hash of every golden depends on the two agreeing.
func fmtRecord(r AuditRecord) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v %s %s %s", r.Time, r.Actor, r.Verb, r.Kind)
	if r.Subresource != "" {
		b.WriteString("/" + r.Subresource)
	}
	fmt.Fprintf(&b, " %s rv=%d", r.Key, r.ResourceVersion)
	switch {
	case r.NoOp:
		b.WriteString(" no-op")
	case r.Removed:
		b.WriteString(" removed")
	}
	for c := range r.EachChange() {
		fmt.Fprintf(&b, " %s:", c.Path)
		if c.OldSet {
			fmt.Fprintf(&b, "%q", c.Old)
		} else {
			b.WriteString("-")
		}
		b.WriteString("->")
		if c.NewSet {
			fmt.Fprintf(&b, "%q", c.New)
		} else {
			b.WriteString("-")
		}
	}
	return b.String()
}

func TestAuditRecordString(t *testing.T) {
	at := kernel.Time(83*time.Second + 7*time.Millisecond)
	for _, r := range []AuditRecord{
		{},
		AuditRecord{Time: at, Actor: "system:node:n-1", Verb: "update", Kind: api.KindLease, Key: api.Key{Namespace: "kube-node-lease", Name: "n-1"}, ResourceVersion: 42}.
			WithChanges(Change{Path: "spec.renewTime", Old: "2024-01-01T00:00:00.000000Z", New: "x\"y\n\u00e9\x01", OldSet: true, NewSet: true}),
		AuditRecord{Time: at, Actor: "kubectl", Verb: "patch", Subresource: "status", Kind: api.KindNode, Key: api.Key{Name: "n"}, ResourceVersion: 7}.
			WithChanges(Change{Path: "a", NewSet: true}, Change{Path: "b", Old: "1", OldSet: true}, Change{Path: "c"}),
		{Time: -at, Actor: "a", Verb: "update", Kind: api.KindPod, Key: api.Key{Namespace: "ns", Name: "p"}, NoOp: true},
		{Time: kernel.Forever, Actor: "gc", Verb: "delete", Kind: api.KindPod, Key: api.Key{Namespace: "ns", Name: "p"}, ResourceVersion: 1 << 40, Removed: true},
	} {
		if got, want := r.String(), fmtRecord(r); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

// createNodeLease creates node n-1's lease in s, as op, renewed at
// renewed.
func createNodeLease(t *testing.T, s *Store, op Op, renewed time.Time) *api.Lease {
	t.Helper()
	holder := "n-1"
	at := api.NewMicroTime(renewed)
	l, err := s.Create(op, &api.Lease{TypeMeta: api.TypeMeta{APIVersion: "coordination.k8s.io/v1", Kind: "Lease"},
		ObjectMeta: api.ObjectMeta{Namespace: "kube-node-lease", Name: "n-1"}, Spec: api.LeaseSpec{HolderIdentity: &holder, RenewTime: &at}})
	if err != nil {
		t.Fatal(err)
	}
	return l.(*api.Lease)
}

// heartbeatWrites writes, through s, a lease and a node, renews the lease
// renewals times and posts the node's heartbeat-only status as often, then
// changes the lease's holder and the node's Ready condition: two writes
// that are not heartbeats.
func heartbeatWrites(t *testing.T, s *Store, renewals int) {
	t.Helper()
	op := Op{Actor: "system:node:n-1"}
	var l api.Object = createNodeLease(t, s, op, kernel.Epoch)
	ts := api.NewTime(kernel.Epoch)
	n, err := s.Create(op, &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: "n-1"},
		Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue, LastHeartbeatTime: ts, LastTransitionTime: ts}}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= renewals; i++ {
		renew := l.DeepCopyObject().(*api.Lease)
		at := api.NewMicroTime(kernel.Epoch.Add(time.Duration(i) * 10 * time.Second))
		renew.Spec.RenewTime = &at
		if l, err = s.Update(op, renew, ""); err != nil {
			t.Fatal(err)
		}
		beat := n.DeepCopyObject().(*api.Node)
		beat.Status.Conditions[0].LastHeartbeatTime = api.NewTime(kernel.Epoch.Add(time.Duration(i) * time.Minute))
		if n, err = s.Update(op, beat, "status"); err != nil {
			t.Fatal(err)
		}
	}
	other := "n-2"
	handover := l.DeepCopyObject().(*api.Lease)
	handover.Spec.HolderIdentity = &other
	if _, err = s.Update(op, handover, ""); err != nil {
		t.Fatal(err)
	}
	down := n.DeepCopyObject().(*api.Node)
	down.Status.Conditions[0].Status = api.ConditionFalse
	if _, err = s.Update(op, down, "status"); err != nil {
		t.Fatal(err)
	}
}

// TestAuditCountsHeartbeats: counting heartbeats keeps the log's length
// flat however many renewals there are, counts each kind, and leaves the
// trace and the write total what keeping them gives.
func TestAuditCountsHeartbeats(t *testing.T) {
	for _, tc := range []struct {
		name     string
		count    bool
		renewals int
		kept     int
		counted  Heartbeats
	}{
		// 2 creates and 2 changes that are not heartbeats, plus the
		// bootstrap of nothing: a kept log has the heartbeats too.
		{"keep, 10 renewals", false, 10, 24, Heartbeats{}},
		{"keep, 100 renewals", false, 100, 204, Heartbeats{}},
		{"count, 10 renewals", true, 10, 4, Heartbeats{LeaseRenewals: 10, NodeStatus: 10}},
		{"count, 100 renewals", true, 100, 4, Heartbeats{LeaseRenewals: 100, NodeStatus: 100}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(kernel.New(1))
			var trace bytes.Buffer
			s.Audit().SetTrace(&trace)
			s.Audit().CountHeartbeats(tc.count)
			heartbeatWrites(t, s, tc.renewals)
			a := s.Audit()
			if a.Len() != tc.kept || a.Heartbeats() != tc.counted {
				t.Errorf("kept %d, counted %+v; want %d and %+v", a.Len(), a.Heartbeats(), tc.kept, tc.counted)
			}
			if want := 4 + 2*tc.renewals; a.Total() != want {
				t.Errorf("Total() = %d, want %d", a.Total(), want)
			}
			if lines := strings.Count(trace.String(), "\n"); lines != a.Total() {
				t.Errorf("the trace has %d lines for %d writes", lines, a.Total())
			}
			var kept strings.Builder
			a.Each(func(r *AuditRecord) bool {
				kept.WriteString(r.String() + "\n")
				return true
			})
			if !tc.count && kept.String() != trace.String() {
				t.Errorf("keeping everything, the log differs from the trace:\n%s\nvs\n%s", kept.String(), trace.String())
			}
		})
	}
}

func TestHeartbeat(t *testing.T) {
	lease, node := api.KindLease, api.KindNode
	renew := []Change{{Path: "spec.renewTime", OldSet: true, NewSet: true}}
	beat := []Change{{Path: "status.conditions[Ready].lastHeartbeatTime", OldSet: true, NewSet: true}, {Path: "status.conditions[MemoryPressure].lastHeartbeatTime", OldSet: true, NewSet: true}}
	for _, tc := range []struct {
		name string
		r    AuditRecord
		want bool
	}{
		{"lease renewal", AuditRecord{Kind: lease, Verb: "update"}.WithChanges(renew...), true},
		{"lease renewal bumping the generation", AuditRecord{Kind: lease, Verb: "update"}.WithChanges(append(renew[:1:1], Change{Path: "metadata.generation"})...), true},
		{"lease created", AuditRecord{Kind: lease, Verb: "create"}.WithChanges(renew...), false},
		{"lease changing hands", AuditRecord{Kind: lease, Verb: "update"}.WithChanges(append(renew[:1:1], Change{Path: "spec.holderIdentity"})...), false},
		{"lease no-op", AuditRecord{Kind: lease, Verb: "update", NoOp: true}, false},
		{"node heartbeat", AuditRecord{Kind: node, Verb: "update", Subresource: "status"}.WithChanges(beat...), true},
		{"node heartbeat with a condition change", AuditRecord{Kind: node, Verb: "update", Subresource: "status"}.WithChanges(append(beat[:1:1], Change{Path: "status.conditions[Ready].status"})...), false},
		{"node heartbeat time in the main resource", AuditRecord{Kind: node, Verb: "update"}.WithChanges(beat...), false},
		{"pod", AuditRecord{Kind: api.KindPod, Verb: "update", Subresource: "status"}.WithChanges(beat...), false},
	} {
		if got := tc.r.Heartbeat(); got != tc.want {
			t.Errorf("%s: Heartbeat() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestAppendQuote holds appendQuote's fast path to strconv.AppendQuote.
func TestAppendQuote(t *testing.T) {
	for _, s := range []string{"", "plain", "2026-12-01T20:00:00Z", "100m", `say "hi"`, `back\slash`, "tab\there", "line\n", "ünïcode", "\x7f", "\x00", "~ !"} {
		if got, want := string(appendQuote([]byte("x"), s)), strconv.Quote(s); got != "x"+want {
			t.Errorf("appendQuote(%q) = %s, want x%s", s, got, want)
		}
	}
}

// TestKeptChanges checks that the log gives back every change it kept
// (compact, its paths and values interned) as the store handed it over,
// through EachChange and Changes alike, with every combination
// of set flags and values shared between records; that a caller's
// slice is not the one kept; and that a repeated value is stored once.
func TestKeptChanges(t *testing.T) {
	var l AuditLog
	given := [][]Change{
		{{Path: "spec.a", New: "1", NewSet: true}, {Path: "spec.b", Old: "x", OldSet: true}, {Path: "spec.c"}, {Path: "spec.d", Old: "1", New: "2", OldSet: true, NewSet: true}},
		{{Path: "spec.a", Old: "1", New: "", OldSet: true, NewSet: true}, {Path: "metadata.labels[app]", Old: "", New: "1", OldSet: false, NewSet: true}},
		nil,
		{{Path: "spec.d", Old: "2", New: "1", OldSet: true, NewSet: true}},
	}
	for i, cs := range given {
		scratch := slices.Clone(cs)
		l.add(AuditRecord{Verb: "update", Key: api.Key{Name: strconv.Itoa(i)}}, scratch)
		for j := range scratch {
			scratch[j] = Change{Path: "scribbled"} // the store reuses its scratch
		}
	}
	for i, cs := range given {
		r := l.At(i)
		if r.NumChanges() != len(cs) {
			t.Fatalf("record %d: %d changes, want %d", i, r.NumChanges(), len(cs))
		}
		var each []Change
		for c := range r.EachChange() {
			each = append(each, c)
		}
		if !slices.Equal(each, cs) || !slices.Equal(r.Changes(), cs) {
			t.Errorf("record %d: EachChange %+v, Changes %+v, want %+v", i, each, r.Changes(), cs)
		}
	}
	// "", "1", "2", "x" and five paths.
	if n := len(l.vals.vals.list); n != 9 {
		t.Errorf("%d distinct paths and values kept, want 9: %q", n, l.vals.vals.list)
	}
}

// TestFlatten checks that Flatten returns what Records would, over
// several blocks, that the log reads the same after it (Len, At, Each,
// Records: each record as it was added), and that it goes on keeping
// records, which the next Flatten gathers too.
func TestFlatten(t *testing.T) {
	var l AuditLog
	n := 2*auditChunk + 5
	add := func(i int) {
		l.add(AuditRecord{Verb: "update", Key: api.Key{Name: strconv.Itoa(i)}}, []Change{{Path: "spec.a", New: strconv.Itoa(i), NewSet: true}})
	}
	for i := range n {
		add(i)
	}
	check := func(when string, got []AuditRecord, n int) {
		t.Helper()
		if len(got) != n || l.Len() != n || len(l.Records()) != n {
			t.Fatalf("%s: %d records gathered, Len %d, Records %d; want %d", when, len(got), l.Len(), len(l.Records()), n)
		}
		i := 0
		l.Each(func(r *AuditRecord) bool {
			if r.String() != l.At(i).String() || r.Key.Name != strconv.Itoa(i) || got[i].Key != r.Key || r.Changes()[0].New != strconv.Itoa(i) {
				t.Fatalf("%s: record %d: Each %v, At %v, gathered %v", when, i, r, l.At(i), got[i])
			}
			i++
			return true
		})
		if i != n {
			t.Fatalf("%s: Each saw %d records, want %d", when, i, n)
		}
	}
	want := l.Records()
	got := l.Flatten()
	check("after Flatten", got, n)
	for i := range want {
		if want[i].Key != got[i].Key {
			t.Fatalf("record %d: gathered %v, Records had %v", i, got[i], want[i])
		}
	}
	if cap(got) != len(got) {
		t.Errorf("Flatten's slice has room to append into the log: cap %d, len %d", cap(got), len(got))
	}
	if again := l.Flatten(); len(again) != n || &again[0] != &got[0] {
		t.Errorf("a second Flatten with nothing added copied the log")
	}
	for i := n; i < n+auditChunk+1; i++ {
		add(i)
	}
	check("after adding", l.Records(), n+auditChunk+1)
	check("after a second Flatten", l.Flatten(), n+auditChunk+1)
	if got[n-1].Key.Name != strconv.Itoa(n-1) {
		t.Errorf("the first slice changed under its holder")
	}
}

// TestRecordsLetStoreGo checks that the records a run hands over do not
// keep the store alive: a report computed from them after the run
// (Result.Audit) must not hold every object of the cluster, and through
// the store the cluster itself, for the collector to mark. The records
// point to the log's value table, which must be an object of its own,
// not a field of the store.
func TestRecordsLetStoreGo(t *testing.T) {
	collected := make(chan struct{})
	records := func() []AuditRecord {
		s := New(kernel.New(1))
		if _, err := s.Create(Op{Actor: "test"}, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cm", Namespace: "default"}, Data: map[string]string{"k": "v"}}); err != nil {
			t.Fatal(err)
		}
		runtime.AddCleanup(s, func(ch chan struct{}) { close(ch) }, collected)
		return s.Audit().Flatten()
	}()
	if len(records) != 1 || records[0].NumChanges() == 0 {
		t.Fatalf("records %v, want one create with its changes", records)
	}
	for range 20 {
		runtime.GC()
		select {
		case <-collected:
			if c := records[0].Changes(); len(c) == 0 {
				t.Fatal("the record lost its changes")
			}
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("the store was not collected while its audit records were still in use")
}

// TestAuditRecordsRoundTrip checks that the log gives back every field
// of every record it keeps, whether the changes came as the store's
// scratch or as the record's own (WithChanges), across blocks of records
// and of changes, through At, Each, Records and Flatten; and that what it
// keeps per record holds no pointer for the collector to follow.
func TestAuditRecordsRoundTrip(t *testing.T) {
	for i := range reflect.TypeFor[auditEntry]().NumField() {
		f := reflect.TypeFor[auditEntry]().Field(i)
		switch f.Type.Kind() {
		case reflect.Pointer, reflect.String, reflect.Slice, reflect.Map, reflect.Interface, reflect.Struct:
			t.Errorf("auditEntry.%s is a %s: the entries would hold pointers", f.Name, f.Type)
		}
	}
	var l AuditLog
	l.BriefEvents(true)
	var want []AuditRecord
	kinds := []api.Kind{api.KindPod, api.KindDeployment, {Group: "example.com", Name: "Widget"}, api.KindEvent}
	for i := range 3*auditChunk + 7 {
		r := AuditRecord{
			Time: kernel.Time(i) * kernel.Time(time.Millisecond), Actor: fmt.Sprintf("actor-%d", i%5), Verb: []string{"create", "update", "patch"}[i%3],
			Kind: kinds[i%len(kinds)], Key: api.Key{Namespace: fmt.Sprint("ns-", i%2), Name: fmt.Sprint("obj-", i)},
			ResourceVersion: uint64(i + 1), NoOp: i%7 == 0, Removed: i%11 == 0,
		}
		if i%4 == 1 {
			r.Subresource = "status"
		}
		// Up to 40 changes a record, so that change blocks fill, and one
		// record with more than a block holds.
		n := (i % 3) * (i % 1000) / 50
		if i == 100 {
			n = changeBlock + 10
		}
		var cs []Change
		for j := range n {
			cs = append(cs, Change{Path: fmt.Sprint("spec.f", j), Old: fmt.Sprint(i), New: fmt.Sprint(i + j), OldSet: j%2 == 0, NewSet: true})
		}
		if r.NoOp {
			cs = nil
		}
		w := r.WithChanges(cs...)
		if r.Kind == api.KindEvent && !r.NoOp {
			w = r.WithChanges()
			w.Brief = true
		}
		want = append(want, w)
		if i%2 == 0 {
			l.add(r, cs)
		} else {
			l.add(r.WithChanges(cs...), nil)
		}
	}
	same := func(how string, i int, got *AuditRecord) {
		t.Helper()
		w := &want[i]
		if got.String() != w.String() || got.Time != w.Time || got.Actor != w.Actor || got.Verb != w.Verb || got.Subresource != w.Subresource ||
			got.Kind != w.Kind || got.Key != w.Key || got.ResourceVersion != w.ResourceVersion || got.NoOp != w.NoOp ||
			got.Removed != w.Removed || got.Brief != w.Brief || !slices.Equal(got.Changes(), w.Changes()) {
			t.Fatalf("%s: record %d is %+v\nwant %+v", how, i, got, w)
		}
	}
	for i := range want {
		same("At", i, l.At(i))
	}
	i := 0
	l.Each(func(r *AuditRecord) bool { same("Each", i, r); i++; return true })
	for i, r := range l.Records() {
		same("Records", i, &r)
	}
	for i, r := range l.Flatten() {
		same("Flatten", i, &r)
	}
	if l.Len() != len(want) {
		t.Fatalf("Len %d, want %d", l.Len(), len(want))
	}
}

// TestAuditRecordPathAndChange: Path, Field and Change read the i-th
// change as EachChange yields it, for a record's own changes, for none,
// and for the changes a log keeps in its table.
func TestAuditRecordPathAndChange(t *testing.T) {
	cs := []Change{
		{Path: "spec.replicas", Old: "1", New: "2", OldSet: true, NewSet: true},
		{Path: "metadata.generation", Old: "1", New: "2", OldSet: true, NewSet: true},
		{Path: "metadata.labels.app", Old: "web", OldSet: true},
		{Path: "metadata.labels.tier", New: "web", NewSet: true},
	}
	var l AuditLog
	l.add(AuditRecord{Verb: "update", Kind: api.KindPod}, cs)
	kept := *l.At(0)
	if kept.vals == nil {
		t.Fatal("the log's record has no table of kept changes")
	}
	for _, r := range []AuditRecord{{}, AuditRecord{Verb: "update"}.WithChanges(cs...), kept} {
		var want []Change
		for c := range r.EachChange() {
			want = append(want, c)
		}
		if r.NumChanges() != len(want) {
			t.Fatalf("NumChanges = %d, EachChange yields %d", r.NumChanges(), len(want))
		}
		for i, c := range want {
			if got := r.Path(i); got != c.Path {
				t.Errorf("Path(%d) = %q, want %q", i, got, c.Path)
			}
			if got := r.Change(i); got != c {
				t.Errorf("Change(%d) = %+v, want %+v", i, got, c)
			}
			if path, oldSet, newSet := r.Field(i); path != c.Path || oldSet != c.OldSet || newSet != c.NewSet {
				t.Errorf("Field(%d) = %q, %v, %v, want %q, %v, %v", i, path, oldSet, newSet, c.Path, c.OldSet, c.NewSet)
			}
		}
		if r.Verb != "" && !slices.Equal(r.Changes(), cs) {
			t.Errorf("the record's changes are %+v, want %+v", r.Changes(), cs)
		}
	}
}

// TestPathIDsThroughTheMemo holds pathID, with its memo of path strings
// by address, to the ids the table's maps give: the same path as the
// same string or a copy, paths that share the memo's slots, and a path
// that is also a value. A repeated path string is found in the memo.
func TestPathIDsThroughTheMemo(t *testing.T) {
	var tab valueTable
	paths := make([]string, 3*recentPathSlots)
	for i := range paths {
		paths[i] = fmt.Sprintf("status.containerStatuses[c-%d].ready", i)
	}
	want := map[string]uint32{}
	for round := range 3 {
		for i, p := range paths {
			if round == 1 {
				p = strings.Clone(p)
			}
			got := tab.pathID(p)
			if w, ok := want[p]; ok && got != w {
				t.Fatalf("round %d: pathID(%q) = %d, then %d", round, p, w, got)
			}
			want[p] = got
			if tab.str(got) != paths[i] {
				t.Fatalf("pathID(%q) = %d, which is %q", p, got, tab.str(got))
			}
		}
	}
	if v := tab.id(paths[7]); v != want[paths[7]] {
		t.Errorf("a path as a value: id %d, as a path %d", v, want[paths[7]])
	}
	if len(want) != len(paths) {
		t.Errorf("%d ids for %d paths", len(want), len(paths))
	}
	p := "spec.renewTime"
	id := tab.pathID(p)
	if got, ok := tab.recentPaths.Get(p); !ok || got != id {
		t.Errorf("a path just looked up is not in the memo: %d %v, want %d", got, ok, id)
	}
}

// TestAuditLogReadsSeeEveryWrite: the log keeps records on a goroutine
// of its own (kernel.Sink), in batches; each reader must first wait for
// every write accepted so far, whatever the batches' boundaries.
func TestAuditLogReadsSeeEveryWrite(t *testing.T) {
	// heartbeatWrites(auditBatchRecords): 4 + 2*1024 writes, two whole
	// batches and 4 records of a third; counted, 2*1024 are heartbeats.
	const writes, beats = 4 + 2*auditBatchRecords, 2 * auditBatchRecords
	readers := []struct {
		name string
		read func(l *AuditLog, trace *bytes.Buffer) int
		// want is what it reads with heartbeats kept, and counted.
		kept, counted int
	}{
		{"Len", func(l *AuditLog, _ *bytes.Buffer) int { return l.Len() }, writes, writes - beats},
		{"Total", func(l *AuditLog, _ *bytes.Buffer) int { return l.Total() }, writes, writes},
		{"Heartbeats", func(l *AuditLog, _ *bytes.Buffer) int { return l.Heartbeats().Total() }, 0, beats},
		{"Each", func(l *AuditLog, _ *bytes.Buffer) int {
			n := 0
			l.Each(func(*AuditRecord) bool { n++; return true })
			return n
		}, writes, writes - beats},
		{"At the last", func(l *AuditLog, _ *bytes.Buffer) int {
			defer func() { _ = recover() }() // out of range: not there yet, 0
			return int(l.At(writes - 1).ResourceVersion)
		}, writes, 0}, // the last write has resourceVersion 2052; counted, there are 4 records
		{"Records", func(l *AuditLog, _ *bytes.Buffer) int { return len(l.Records()) }, writes, writes - beats},
		{"Latest, without a sync", func(l *AuditLog, _ *bytes.Buffer) int {
			r, _ := l.Latest()
			return int(r.ResourceVersion)
		}, writes, writes}, // kept or counted, the last write
		{"Flatten", func(l *AuditLog, _ *bytes.Buffer) int { return len(l.Flatten()) }, writes, writes - beats},
		{"Sync, then the trace", func(l *AuditLog, trace *bytes.Buffer) int {
			l.Sync()
			return strings.Count(trace.String(), "\n")
		}, writes, writes},
	}
	for _, r := range readers {
		for _, count := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s, heartbeats counted %t", r.name, count), func(t *testing.T) {
				s := New(kernel.New(1))
				var trace bytes.Buffer
				s.Audit().SetTrace(&trace)
				s.Audit().CountHeartbeats(count)
				heartbeatWrites(t, s, auditBatchRecords)
				want := r.kept
				if count {
					want = r.counted
				}
				if got := r.read(s.Audit(), &trace); got != want {
					t.Errorf("%s reads %d, want %d", r.name, got, want)
				}
			})
		}
	}
	if r, ok := New(kernel.New(1)).Audit().Latest(); ok {
		t.Errorf("before any write, Latest gives %v", r)
	}
}
