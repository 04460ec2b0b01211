package apiserver

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

var eventT0 = time.Date(2026, 1, 1, 0, 20, 0, 0, time.UTC)

// testEvent is an Event as the store keeps a recorder's aggregated one:
// its metadata set by the store (one managedFields entry), no labels.
func testEvent() *api.Event {
	at := api.NewTime(eventT0)
	fields := api.RawValue(`{"f:count":{},"f:firstTimestamp":{},"f:involvedObject":{},"f:lastTimestamp":{},"f:message":{},"f:reason":{},"f:source":{"f:component":{}},"f:type":{}}`)
	return &api.Event{
		TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Event"},
		ObjectMeta: api.ObjectMeta{Name: "app-1-57bc45b4cd.188a1b2c3d4e5f60", Namespace: "default", UID: "3f1c2d4e-0000-4000-8000-000000000001",
			ResourceVersion: "4711", CreationTimestamp: at,
			ManagedFields: []api.ManagedFieldsEntry{{Manager: "kube-controller-manager", Operation: "Update", APIVersion: "v1", Time: &at, FieldsType: "FieldsV1", FieldsV1: &fields}}},
		InvolvedObject: api.ObjectReference{Kind: "ReplicaSet", Namespace: "default", Name: "app-1-57bc45b4cd", UID: "0ba3b5ba-11e4-4750-88e5-ecb9c177e564", APIVersion: "apps/v1", ResourceVersion: "12"},
		Reason:         "SuccessfulCreate", Message: "(combined from similar events): Created pod: app-1-57bc45b4cd-mfv6n",
		Source:         api.EventSource{Component: "replicaset-controller"},
		FirstTimestamp: at, LastTimestamp: at, Count: 11, Type: "Normal",
	}
}

// recorderPatch is the patch the recorder sends (Recorder.update).
func recorderPatch(t testing.TB, count int32, last time.Time, message string) []byte {
	t.Helper()
	b, err := json.Marshal(struct {
		Count         int32    `json:"count"`
		LastTimestamp api.Time `json:"lastTimestamp"`
		Message       string   `json:"message"`
	}{count, api.NewTime(last), message})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkEventPatch applies patch to old both ways: when the typed path
// takes it, the general path must too, with a deeply equal result, and
// neither may change old. It returns whether the typed path took it.
func checkEventPatch(t *testing.T, old *api.Event, patch []byte) bool {
	t.Helper()
	before := mustJSON(t, old)
	fast, ok := eventCountPatch(old, patch)
	if got := mustJSON(t, old); string(got) != string(before) {
		t.Fatalf("patch %q: the typed path changed the stored Event: %s", patch, got)
	}
	if !ok {
		return false
	}
	slow, err := applyPatchJSON(old, patch, MergePatch)
	if err != nil {
		t.Fatalf("patch %q: the typed path took it, the general path refused it: %v", patch, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("patch %q:\ntyped   %#v\ngeneral %#v", patch, fast, slow)
	}
	return true
}

// TestEventCountPatchMatches holds applyPatch's typed path for an
// Event's count to the general path through JSON: the recorder's patch
// takes it, with the object the general path gives; a patch of any other
// shape, or an Event that JSON would give back changed, takes the
// general path.
func TestEventCountPatchMatches(t *testing.T) {
	rec := recorderPatch(t, 12, eventT0.Add(90*time.Second), "(combined from similar events): Created pod: app-1-57bc45b4cd-zz5lf")
	type variant func(e *api.Event)
	none := func(*api.Event) {}
	tests := []struct {
		name   string
		change variant
		patch  []byte
		typed  bool // the typed path takes it
	}{
		{"the recorder's patch", none, rec, true},
		{"a count of zero, an empty message", none, []byte(`{"count":0,"lastTimestamp":"2026-01-01T00:21:00Z","message":""}`), true},
		{"the largest count", none, []byte(`{"count":2147483647,"lastTimestamp":"2026-01-01T00:21:00Z","message":"m"}`), true},
		{"HTML characters unescaped", none, []byte(`{"count":2,"lastTimestamp":"2026-01-01T00:21:00Z","message":"a <b> & c"}`), true},
		{"a message in UTF-8", none, []byte(`{"count":2,"lastTimestamp":"2026-01-01T00:21:00Z","message":"pod café"}`), true},
		{"no first timestamp", func(e *api.Event) { e.FirstTimestamp = api.Time{} }, rec, true},
		{"no managed fields", func(e *api.Event) { e.ManagedFields = nil }, rec, true},
		{"a time zone's offset", none, []byte(`{"count":2,"lastTimestamp":"2026-01-01T01:21:00+01:00","message":"m"}`), true},

		{"a count past int32", none, []byte(`{"count":2147483648,"lastTimestamp":"2026-01-01T00:21:00Z","message":"m"}`), false},
		{"a count with a leading zero", none, []byte(`{"count":012,"lastTimestamp":"2026-01-01T00:21:00Z","message":"m"}`), false},
		{"a negative count", none, []byte(`{"count":-1,"lastTimestamp":"2026-01-01T00:21:00Z","message":"m"}`), false},
		{"a count with a fraction", none, []byte(`{"count":1.5,"lastTimestamp":"2026-01-01T00:21:00Z","message":"m"}`), false},
		{"a space", none, []byte(`{"count": 2,"lastTimestamp":"2026-01-01T00:21:00Z","message":"m"}`), false},
		{"keys in another order", none, []byte(`{"lastTimestamp":"2026-01-01T00:21:00Z","count":2,"message":"m"}`), false},
		{"an escape in the message", none, []byte(`{"count":2,"lastTimestamp":"2026-01-01T00:21:00Z","message":"a \"b\""}`), false},
		{"an escaped HTML character", none, []byte(`{"count":2,"lastTimestamp":"2026-01-01T00:21:00Z","message":"\u003cb\u003e"}`), false},
		{"invalid UTF-8", none, []byte("{\"count\":2,\"lastTimestamp\":\"2026-01-01T00:21:00Z\",\"message\":\"\xff\"}"), false},
		{"a null time", none, []byte(`{"count":2,"lastTimestamp":null,"message":"m"}`), false},
		{"a null message", none, []byte(`{"count":2,"lastTimestamp":"2026-01-01T00:21:00Z","message":null}`), false},
		{"a time that is not one", none, []byte(`{"count":2,"lastTimestamp":"yesterday","message":"m"}`), false},
		{"another key", none, []byte(`{"count":2,"lastTimestamp":"2026-01-01T00:21:00Z","message":"m","reason":"X"}`), false},
		{"trailing space", none, []byte(`{"count":2,"lastTimestamp":"2026-01-01T00:21:00Z","message":"m"} `), false},
		{"the count alone", none, []byte(`{"count":2}`), false},

		{"a fraction of a second created", func(e *api.Event) {
			e.CreationTimestamp = api.NewTime(eventT0.Add(time.Millisecond))
		}, rec, false},
		{"a first timestamp in another zone", func(e *api.Event) {
			e.FirstTimestamp = api.Time{Time: eventT0.In(time.FixedZone("x", 3600))}
		}, rec, false},
		{"a managed time's fraction", func(e *api.Event) {
			at := api.NewTime(eventT0.Add(time.Microsecond))
			e.ManagedFields = append([]api.ManagedFieldsEntry(nil), e.ManagedFields...)
			e.ManagedFields[0].Time = &at
		}, rec, false},
		{"managed fields with a space", func(e *api.Event) {
			raw := api.RawValue(`{"f:count": {}}`)
			e.ManagedFields = append([]api.ManagedFieldsEntry(nil), e.ManagedFields...)
			e.ManagedFields[0].FieldsV1 = &raw
		}, rec, false},
		{"empty managed fields", func(e *api.Event) { e.ManagedFields = []api.ManagedFieldsEntry{} }, rec, false},
		{"empty labels", func(e *api.Event) { e.Labels = map[string]string{} }, rec, false},
		{"labels", func(e *api.Event) { e.Labels = map[string]string{"a": "b"} }, rec, false},
		{"a reason not UTF-8", func(e *api.Event) { e.Reason = "\xff" }, rec, false},
		{"a series", func(e *api.Event) { e.Series = &api.EventSeries{Count: 2} }, rec, false},
		{"an event time", func(e *api.Event) { e.EventTime = api.NewMicroTime(eventT0) }, rec, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := testEvent()
			tt.change(old)
			if got := checkEventPatch(t, old, tt.patch); got != tt.typed {
				t.Errorf("the typed path took it: %v, want %v", got, tt.typed)
			}
		})
	}
}

// FuzzEventCountPatch checks, beyond not panicking, that the typed path
// for an Event's count never gives what the general path does not: for
// any patch bytes, applied to the recorder's Event and to variants of it
// (times in other zones or with fractions, empty lists, labels), either
// it declines or the general path takes the patch and gives a deeply
// equal Event; and it never changes the stored Event.
func FuzzEventCountPatch(f *testing.F) {
	f.Add([]byte(`{"count":12,"lastTimestamp":"2026-01-01T00:21:30Z","message":"(combined from similar events): Created pod: x"}`), uint8(0))
	f.Add([]byte(`{"count":0,"lastTimestamp":"2026-01-01T01:21:00+01:00","message":""}`), uint8(1))
	f.Add([]byte(`{"count":2,"lastTimestamp":"2026-01-01T00:21:00.5Z","message":"a <b>"}`), uint8(2))
	f.Add([]byte(`{"count":2,"lastTimestamp":null,"message":"m"}`), uint8(3))
	variants := []func(e *api.Event){
		func(*api.Event) {},
		func(e *api.Event) { e.FirstTimestamp = api.Time{} },
		func(e *api.Event) { e.FirstTimestamp = api.Time{Time: eventT0.Add(time.Nanosecond)} },
		func(e *api.Event) { e.ManagedFields = nil },
		func(e *api.Event) { e.Annotations = map[string]string{} },
		func(e *api.Event) { e.CreationTimestamp = api.Time{Time: eventT0.In(time.FixedZone("y", -7200))} },
	}
	f.Fuzz(func(t *testing.T, patch []byte, v uint8) {
		old := testEvent()
		variants[int(v)%len(variants)](old)
		checkEventPatch(t, old, patch)
	})
}

// BenchmarkEventCountPatch applies the recorder's patch to an Event:
// through the typed path and through JSON, the general path.
func BenchmarkEventCountPatch(b *testing.B) {
	old := testEvent()
	patch := recorderPatch(b, 12, eventT0.Add(90*time.Second), "(combined from similar events): Created pod: app-1-57bc45b4cd-zz5lf")
	b.Run("typed", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, ok := eventCountPatch(old, patch); !ok {
				b.Fatal("declined")
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := applyPatchJSON(old, patch, MergePatch); err != nil {
				b.Fatal(err)
			}
		}
	})
}
