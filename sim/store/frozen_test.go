package store

import (
	"reflect"
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
	// The point of the frozen form is its size: a 320-byte allocation
	// (Go's size class for 289 to 320 bytes) against the api.Event's 640.
	if got := reflect.TypeFor[frozenEvent]().Size(); got > 320 {
		t.Errorf("a frozenEvent is %d bytes; it was written to fit 320", got)
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

func testEvent() *api.Event {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mf := []api.ManagedFieldsEntry{{Manager: "kubelet", Operation: "Update", APIVersion: "v1", Time: &api.Time{Time: at}}}
	return &api.Event{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta: api.ObjectMeta{Name: "web-1.00000000000000ab", Namespace: "default", UID: "u-1", ResourceVersion: "42",
			CreationTimestamp: api.NewTime(at), ManagedFields: mf},
		InvolvedObject: api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web-1", UID: "p-1", APIVersion: "v1",
			FieldPath: "spec.containers{app}"},
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
	}
	for _, c := range kept {
		e := testEvent()
		c.edit(e)
		f, ok := freezeEvent(e)
		if !ok {
			t.Errorf("%s: not frozen", c.name)
			continue
		}
		if got := f.thaw(); !reflect.DeepEqual(got, e) {
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
	}
	for _, c := range refused {
		e := testEvent()
		c.edit(e)
		if _, ok := freezeEvent(e); ok {
			t.Errorf("%s: frozen, though the frozen form cannot keep it", c.name)
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
