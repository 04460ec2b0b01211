package store

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
)

// frozenEventFields are the fields of api.Event and api.ObjectMeta that
// freezeEvent keeps or refuses. TestFrozenEventCoversFields fails when
// either type gains a field, so that a new field is never dropped from
// stored Events silently: add it to freezeEvent (kept, or refused when
// set) and to this list.
var frozenEventFields = map[string][]string{
	"Event": {"TypeMeta", "ObjectMeta", "InvolvedObject", "Reason", "Message", "Source", "FirstTimestamp", "LastTimestamp",
		"Count", "Type", "EventTime", "Series", "Action", "Related", "ReportingController", "ReportingInstance"},
	"ObjectMeta": {"Name", "GenerateName", "Namespace", "SelfLink", "UID", "ResourceVersion", "Generation", "CreationTimestamp",
		"DeletionTimestamp", "DeletionGracePeriodSeconds", "Labels", "Annotations", "OwnerReferences", "Finalizers", "ManagedFields"},
}

func TestFrozenEventCoversFields(t *testing.T) {
	// The point of the frozen form is its size and its few pointers: a
	// 192-byte allocation (Go's size class for 177 to 192 bytes) against
	// the api.Event's 640, its pointers in its first 64 bytes, the only
	// part the collector scans.
	typ := reflect.TypeFor[frozenEvent]()
	if got := typ.Size(); got > 192 {
		t.Errorf("a frozenEvent is %d bytes; it was written to fit 192", got)
	}
	for f := range typ.Fields() {
		if f.Offset >= 64 && hasPointers(f.Type) {
			t.Errorf("frozenEvent.%s at byte %d holds pointers; the collector would scan past the first 64 bytes", f.Name, f.Offset)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[api.Event](), reflect.TypeFor[api.ObjectMeta]()} {
		var got []string
		for f := range typ.Fields() {
			got = append(got, f.Name)
		}
		if want := frozenEventFields[typ.Name()]; !reflect.DeepEqual(got, want) {
			t.Errorf("api.%s has fields %v; freezeEvent was written for %v", typ.Name(), got, want)
		}
	}
}

// hasPointers reports whether a value of typ holds a pointer.
func hasPointers(typ reflect.Type) bool {
	switch typ.Kind() {
	case reflect.Array:
		return typ.Len() > 0 && hasPointers(typ.Elem())
	case reflect.Struct:
		for f := range typ.Fields() {
			if hasPointers(f.Type) {
				return true
			}
		}
		return false
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr, reflect.Float32, reflect.Float64, reflect.Complex64,
		reflect.Complex128:
		return false
	}
	return true
}

func testEvent() *api.Event {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mf := []api.ManagedFieldsEntry{{Manager: "kubelet", Operation: "Update", APIVersion: "v1", Time: &api.Time{Time: at}}}
	return &api.Event{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta: api.ObjectMeta{Name: "web-1.00000000000000ab", Namespace: "default", UID: "0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b", ResourceVersion: "42",
			CreationTimestamp: api.NewTime(at), ManagedFields: mf},
		InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web-1", UID: "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d",
			APIVersion: "v1", ResourceVersion: "17", FieldPath: "spec.containers{app}"},
		Reason: "Pulled", Message: `Container image "nginx:1.25" already present on machine`,
		Source:         api.EventSource{Component: "kubelet", Host: "node-1"},
		FirstTimestamp: api.NewTime(at), LastTimestamp: api.NewTime(at.Add(time.Minute)), Count: 2, Type: "Normal",
		ReportingController: "kubelet", ReportingInstance: "node-1",
	}
}

// TestFrozenEventRoundTrip: an Event frozen and thawed is deep-equal to
// the one written, for the kubelet's and controllers' Events and for
// Events with the fields they seldom have; an Event with a field the
// frozen form does not keep, or a time it would not give back exactly,
// is kept as written.
func TestFrozenEventRoundTrip(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	kept := []struct {
		name string
		edit func(e *api.Event)
	}{
		{"kubelet's", func(*api.Event) {}},
		{"controller's", func(e *api.Event) { e.Source.Host, e.ReportingInstance = "", "" }},
		{"no type meta", func(e *api.Event) { e.TypeMeta = api.TypeMeta{} }},
		{"node event in default", func(e *api.Event) { e.InvolvedObject.Namespace = "" }},
		{"other reporter", func(e *api.Event) { e.ReportingController, e.ReportingInstance = "other", "i-1" }},
		{"action and event time", func(e *api.Event) { e.Action, e.EventTime = "Binding", api.NewMicroTime(at) }},
		{"zero times", func(e *api.Event) {
			e.CreationTimestamp, e.FirstTimestamp, e.LastTimestamp = api.Time{}, api.Time{}, api.Time{}
		}},
		{"nanoseconds", func(e *api.Event) { e.LastTimestamp = api.NewTime(at) }},
		{"a name of its own", func(e *api.Event) { e.Name = "web-1.custom" }},
		{"a name of the recorders' form for another object", func(e *api.Event) { e.Name = "web-2.00000000000000ab" }},
		{"upper-case digits in the name", func(e *api.Event) { e.Name = "web-1.00000000000000AB" }},
		{"the largest suffix", func(e *api.Event) { e.Name = "web-1.ffffffffffffffff" }},
		{"no involved uid or resourceVersion", func(e *api.Event) { e.InvolvedObject.UID, e.InvolvedObject.ResourceVersion = "", "" }},
		{"a kubelet's Node reference", func(e *api.Event) {
			e.InvolvedObject = api.ObjectReference{Kind: "Node", Name: "node-1", UID: "node-1"}
			e.Namespace = "default"
		}},
		{"involved uid not the store's", func(e *api.Event) { e.InvolvedObject.UID = "p-1" }},
		{"resourceVersion 0", func(e *api.Event) { e.InvolvedObject.ResourceVersion = "0" }},
		{"the largest resourceVersion", func(e *api.Event) { e.ResourceVersion = "18446744073709551615" }},
		{"empty words", func(e *api.Event) {
			e.Reason, e.Type, e.InvolvedObject.Kind, e.InvolvedObject.APIVersion, e.InvolvedObject.FieldPath = "", "", "", "", ""
		}},
	}
	for _, c := range kept {
		e := testEvent()
		c.edit(e)
		w := new(frozenWords)
		f, ok := w.freeze(e)
		if !ok {
			t.Errorf("%s: not frozen", c.name)
			continue
		}
		if got := f.thaw(w); !reflect.DeepEqual(got, e) {
			t.Errorf("%s: thawed\n%+v\nwant\n%+v", c.name, got, e)
		}
	}
	grace := int64(0)
	ts := api.NewTime(at)
	refused := []struct {
		name string
		edit func(e *api.Event)
	}{
		{"labels", func(e *api.Event) { e.Labels = map[string]string{} }},
		{"annotations", func(e *api.Event) { e.Annotations = map[string]string{"a": "b"} }},
		{"owner", func(e *api.Event) { e.OwnerReferences = []api.OwnerReference{{Name: "x"}} }},
		{"finalizers", func(e *api.Event) { e.Finalizers = []string{"f"} }},
		{"generateName", func(e *api.Event) { e.GenerateName = "web-" }},
		{"selfLink", func(e *api.Event) { e.SelfLink = "/x" }},
		{"generation", func(e *api.Event) { e.Generation = 1 }},
		{"deletion", func(e *api.Event) { e.DeletionTimestamp, e.DeletionGracePeriodSeconds = &ts, &grace }},
		{"series", func(e *api.Event) { e.Series = &api.EventSeries{Count: 2} }},
		{"related", func(e *api.Event) { e.Related = &api.ObjectReference{Name: "x"} }},
		{"other type meta", func(e *api.Event) { e.APIVersion = "events.k8s.io/v1" }},
		{"local time", func(e *api.Event) { e.FirstTimestamp = api.Time{Time: at.In(time.FixedZone("X", 3600))} }},
		{"monotonic time", func(e *api.Event) { e.LastTimestamp = api.Time{Time: time.Now()} }},
		{"far future", func(e *api.Event) { e.EventTime = api.NewMicroTime(time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)) }},
		{"uid not the store's", func(e *api.Event) { e.UID = "u-1" }},
		{"upper-case uid", func(e *api.Event) { e.UID = "0F1E2D3C-4B5A-4978-8A6B-5C4D3E2F1A0B" }},
		{"uid with a hyphen moved", func(e *api.Event) { e.UID = "0f1e2d3c4-b5a-4978-8a6b-5c4d3e2f1a0b" }},
		{"no uid", func(e *api.Event) { e.UID = "" }},
		{"no resourceVersion", func(e *api.Event) { e.ResourceVersion = "" }},
		{"resourceVersion with a leading zero", func(e *api.Event) { e.ResourceVersion = "042" }},
		{"resourceVersion past uint64", func(e *api.Event) { e.ResourceVersion = "18446744073709551616" }},
		{"involved resourceVersion not a number", func(e *api.Event) { e.InvolvedObject.ResourceVersion = "+17" }},
	}
	for _, c := range refused {
		e := testEvent()
		c.edit(e)
		if _, ok := new(frozenWords).freeze(e); ok {
			t.Errorf("%s: frozen, though the frozen form cannot keep it", c.name)
		}
	}
}

// TestFrozenWordsRecent freezes Events through one table, whose memory
// of each field's recent words (idAt) then holds the words of earlier
// Events: each thaws to what was written. The reasons take turns among
// more words than the memory keeps, words of one length among them, and
// the empty word (the field path of a controller's Event); the kinds are
// new strings of the same text. A memory that compared the words' lengths
// alone failed it, and so did one that took an empty slot for the empty
// word.
func TestFrozenWordsRecent(t *testing.T) {
	reasons := []string{"Pulled", "Created", "Started", "Killing", "Scheduled", "Pulling", "BackOff"}
	paths := []string{"spec.containers{app}", "", "spec.containers{apq}"}
	w := new(frozenWords)
	for i := range 3 * len(reasons) * len(paths) {
		e := testEvent()
		e.Reason = reasons[i%len(reasons)]
		e.InvolvedObject.FieldPath = paths[i%len(paths)]
		e.InvolvedObject.Kind = string([]byte("Pod"))
		if i%5 == 0 {
			e.Type = "Warning"
		}
		e.Source.Host = fmt.Sprintf("node-%d", i%9)
		e.ReportingInstance = e.Source.Host
		f, ok := w.freeze(e)
		if !ok {
			t.Fatalf("event %d: not frozen", i)
		}
		if got := f.thaw(w); !reflect.DeepEqual(got, e) {
			t.Fatalf("event %d: thawed\n%+v\nwant\n%+v", i, got, e)
		}
	}
}

// TestStoredEventsFrozen: the store keeps a plain Event frozen and one
// with labels as written, and both read back (Get, List, an update's
// reply, a watch's initial list) equal to what was written.
func TestStoredEventsFrozen(t *testing.T) {
	k := kernel.New(1)
	s := New(k)
	plain := testEvent()
	plain.ObjectMeta = api.ObjectMeta{Name: "plain", Namespace: "default"}
	labelled := testEvent()
	labelled.ObjectMeta = api.ObjectMeta{Name: "labelled", Namespace: "default", Labels: map[string]string{"a": "b"}}
	var written []*api.Event
	for _, e := range []*api.Event{plain, labelled} {
		o, err := s.Create(Op{Actor: "kubelet"}, e)
		if err != nil {
			t.Fatal(err)
		}
		written = append(written, o.(*api.Event).DeepCopy())
	}
	tab := s.tables[api.KindEvent]
	if tab.objs[plain.Key()].frozen == nil || tab.objs[labelled.Key()].frozen != nil {
		t.Fatalf("plain frozen %v, labelled frozen %v; want true, false",
			tab.objs[plain.Key()].frozen != nil, tab.objs[labelled.Key()].frozen != nil)
	}
	for _, w := range written {
		got, err := s.Get(api.KindEvent, w.Key())
		if err != nil || !reflect.DeepEqual(got, w) {
			t.Errorf("Get %s: %v, %+v; want %+v", w.Name, err, got, w)
		}
	}
	list, _, err := s.List(api.KindEvent, ListOptions{Namespace: "default"})
	if err != nil || len(list) != 2 || !reflect.DeepEqual(list[0], written[1]) || !reflect.DeepEqual(list[1], written[0]) {
		t.Errorf("List: %v, %+v", err, list)
	}
	upd := written[0].DeepCopy()
	upd.Count = 3
	o, err := s.Update(Op{Actor: "kubelet"}, upd, "")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := s.Get(api.KindEvent, upd.Key())
	if !reflect.DeepEqual(got, o) || got.(*api.Event).Count != 3 {
		t.Errorf("after an update, Get %+v; the update returned %+v", got, o)
	}
	var seen []api.Object
	if _, err := s.Watch(api.KindEvent, 0, ListOptions{}, SinkFunc(func(e Event) { seen = append(seen, e.Object) })); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || !reflect.DeepEqual(seen[1], got) {
		t.Errorf("a watch's initial list: %+v", seen)
	}
}

// TestFrozenWordsBounded: once a table's words reach maxFrozenWords, an
// Event with a string not among them is kept as written, and one whose
// strings all are is still frozen and thawed equal.
func TestFrozenWordsBounded(t *testing.T) {
	w := new(frozenWords)
	known := testEvent()
	if _, ok := w.freeze(known); !ok {
		t.Fatal("the test Event is not frozen")
	}
	for i := len(w.words); i < maxFrozenWords; i++ {
		if _, ok := w.id("host-" + strconv.Itoa(i)); !ok {
			t.Fatalf("word %d refused below the bound", i)
		}
	}
	if len(w.words) != maxFrozenWords || len(w.ids) != maxFrozenWords {
		t.Fatalf("%d words, %d ids; want %d", len(w.words), len(w.ids), maxFrozenWords)
	}
	novel := testEvent()
	novel.Reason = "Novel"
	if _, ok := w.freeze(novel); ok {
		t.Error("an Event with a new word froze past the bound")
	}
	again := testEvent()
	again.Name, again.Message = "web-1.0000000000000001", "another message"
	f, ok := w.freeze(again)
	if !ok {
		t.Fatal("an Event of known words refused at the bound")
	}
	if got := f.thaw(w); !reflect.DeepEqual(got, again) {
		t.Errorf("thawed\n%+v\nwant\n%+v", got, again)
	}
	if len(w.words) != maxFrozenWords {
		t.Errorf("%d words after the bound; want %d", len(w.words), maxFrozenWords)
	}
}

// TestFrozenUIDRoundTrip: every uid the store makes freezes and formats
// back to itself.
func TestFrozenUIDRoundTrip(t *testing.T) {
	s := New(kernel.New(7))
	for range 1000 {
		u := s.newUID()
		f, ok := freezeUID(u)
		if !ok {
			t.Fatalf("uid %s not frozen", u)
		}
		if got := formatUID(f); got != u {
			t.Fatalf("uid %s formatted back as %s", u, got)
		}
	}
}

// FuzzFrozenEvent checks, beyond not panicking, that an Event the frozen
// form keeps thaws deep-equal to the one written, whatever its strings
// (names that are or are not the recorders' form, uids and
// resourceVersions in and out of the store's form, any words) and times;
// that freezing the thawed Event again gives the same frozen form; and
// that the words never pass their bound.
func FuzzFrozenEvent(f *testing.F) {
	e := testEvent()
	f.Add(e.Name, string(e.UID), e.ResourceVersion, e.Namespace, e.InvolvedObject.Name, string(e.InvolvedObject.UID),
		e.InvolvedObject.ResourceVersion, e.InvolvedObject.Namespace, e.Reason, e.Message, e.Source.Host, e.ReportingInstance, int64(0), int32(2))
	f.Add("x", "0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b", "0", "", "", "", "", "", "", "", "", "", int64(-1), int32(0))
	f.Add(".0000000000000000", "0F1E2D3C-4B5A-4978-8A6B-5C4D3E2F1A0B", "007", "a", "", "u", "+1", "b", "r", "m", "h", "i", int64(1<<62), int32(-1))
	f.Fuzz(func(t *testing.T, name, uid, rv, ns, inName, inUID, inRV, inNS, reason, message, host, instance string, nanos int64, count int32) {
		e := testEvent()
		e.Name, e.UID, e.ResourceVersion, e.Namespace = name, api.UID(uid), rv, ns
		e.InvolvedObject.Name, e.InvolvedObject.UID, e.InvolvedObject.ResourceVersion, e.InvolvedObject.Namespace = inName, api.UID(inUID), inRV, inNS
		e.Reason, e.Message, e.Source.Host, e.ReportingInstance, e.Count = reason, message, host, instance, count
		e.LastTimestamp = api.Time{Time: time.Unix(0, nanos).UTC()}
		w := new(frozenWords)
		fr, ok := w.freeze(e)
		if len(w.words) > maxFrozenWords || len(w.ids) != len(w.words) {
			t.Fatalf("%d words, %d ids", len(w.words), len(w.ids))
		}
		if !ok {
			return
		}
		got := fr.thaw(w)
		if !reflect.DeepEqual(got, e) {
			t.Fatalf("thawed\n%+v\nwant\n%+v", got, e)
		}
		again, ok := w.freeze(got)
		if !ok || !reflect.DeepEqual(again, fr) {
			t.Fatalf("the thawed Event froze as %+v (%v); the first time %+v", again, ok, fr)
		}
	})
}

// freezeUIDByDigit is freezeUID as it was, a digit at a time through
// lowerHexDigit: the reference TestFreezeUIDMatchesReference holds the
// table's to.
func freezeUIDByDigit(u api.UID) (frozenUID, bool) {
	if len(u) != 36 || u[8] != '-' || u[13] != '-' || u[18] != '-' || u[23] != '-' {
		return frozenUID{}, false
	}
	var f frozenUID
	for i := range 36 {
		switch i {
		case 8, 13, 18, 23:
			continue
		}
		d, ok := lowerHexDigit(u[i])
		if !ok {
			return frozenUID{}, false
		}
		if i < 19 {
			f.hi = f.hi<<4 | d
		} else {
			f.lo = f.lo<<4 | d
		}
	}
	return f, true
}

// TestFreezeUIDMatchesReference: freezeUID agrees with the digit-at-a-
// time reference on the store's uids and on each of them with one byte
// changed to every value (upper case, other letters, dashes, bytes past
// ASCII), at every position.
func TestFreezeUIDMatchesReference(t *testing.T) {
	s := New(kernel.New(11))
	for range 20 {
		u := []byte(s.newUID())
		for i := range u {
			orig := u[i]
			for c := range 256 {
				u[i] = byte(c)
				got, gotOK := freezeUID(api.UID(u))
				want, wantOK := freezeUIDByDigit(api.UID(u))
				if got != want || gotOK != wantOK {
					t.Fatalf("freezeUID(%q) = %v, %v; the reference %v, %v", u, got, gotOK, want, wantOK)
				}
			}
			u[i] = orig
		}
	}
	for _, u := range []api.UID{"", "u", "0f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b-", "0f1e2d3c4b5a-4978-8a6b-5c4d3e2f1a0b1"} {
		if _, ok := freezeUID(u); ok {
			t.Errorf("freezeUID(%q) froze it", u)
		}
	}
}

func BenchmarkFreezeUID(b *testing.B) {
	u := New(kernel.New(3)).newUID()
	for _, bc := range []struct {
		name string
		fn   func(api.UID) (frozenUID, bool)
	}{{"table", freezeUID}, {"by-digit", freezeUIDByDigit}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, ok := bc.fn(u); !ok {
					b.Fatal("not frozen")
				}
			}
		})
	}
}
