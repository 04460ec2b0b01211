package client_test

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

// recorderEnv is a harness with a stored pod "default/web" and a started
// recorder for component "test-controller".
type recorderEnv struct {
	*harness
	rec *client.Recorder
	web api.Object
}

func newRecorderEnv(t *testing.T, opts client.RecorderOptions) *recorderEnv {
	t.Helper()
	h := newHarness(t)
	web := h.mustHandle(t, &apiserver.Request{Verb: apiserver.Create, Kind: api.KindPod, Actor: system, Object: pod("default", "web", "")})
	c := client.New(h.k, client.NewDirect(h.srv), system, client.Options{})
	if opts.Component == "" {
		opts.Component = "test-controller"
	}
	rec := client.NewRecorder(h.k, c, "test", opts)
	rec.Start()
	return &recorderEnv{harness: h, rec: rec, web: web}
}

// at calls f at virtual time d, on the event loop.
func (e *recorderEnv) at(d time.Duration, f func()) { e.k.At(kernel.Time(d), f) }

// events returns the stored events, sorted by namespace and name.
func (e *recorderEnv) events(t *testing.T) []*api.Event {
	t.Helper()
	objs, _, err := e.st.List(api.KindEvent, store.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*api.Event, len(objs))
	for i, o := range objs {
		out[i] = o.(*api.Event)
	}
	return out
}

var eventName = regexp.MustCompile(`^web\.[0-9a-f]{16}$`)

func wall(d time.Duration) time.Time { return kernel.Epoch.Add(d) }

func TestRecorderCreatesEvent(t *testing.T) {
	e := newRecorderEnv(t, client.RecorderOptions{})
	e.at(time.Second, func() {
		e.rec.Eventf(e.web, client.EventTypeNormal, "Scheduled", "Successfully assigned %v/%v to %v", "default", "web", "node-1")
	})
	e.k.Run(kernel.Limits{})
	evs := e.events(t)
	if len(evs) != 1 {
		t.Fatalf("%d events, want 1", len(evs))
	}
	ev := evs[0]
	m := e.web.GetObjectMeta()
	want := api.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: "default", Name: "web", UID: m.UID, ResourceVersion: m.ResourceVersion}
	if ev.InvolvedObject != want {
		t.Errorf("involvedObject %+v, want %+v", ev.InvolvedObject, want)
	}
	if !eventName.MatchString(ev.Name) || ev.Namespace != "default" {
		t.Errorf("event %s/%s, want default/web.<16 hex digits>", ev.Namespace, ev.Name)
	}
	checks := []struct {
		field     string
		got, want any
	}{
		{"type", ev.Type, "Normal"},
		{"reason", ev.Reason, "Scheduled"},
		{"message", ev.Message, "Successfully assigned default/web to node-1"},
		{"source.component", ev.Source.Component, "test-controller"},
		{"count", ev.Count, int32(1)},
		{"firstTimestamp", ev.FirstTimestamp.Time, wall(time.Second)},
		{"lastTimestamp", ev.LastTimestamp.Time, wall(time.Second)},
	}
	for _, c := range checks {
		if fmt.Sprint(c.got) != fmt.Sprint(c.want) {
			t.Errorf("%s = %v, want %v", c.field, c.got, c.want)
		}
	}
	if s := e.rec.Stats(); s.Recorded != 1 || s.Created != 1 || s.Dropped != 0 {
		t.Errorf("stats %+v", s)
	}
}

func TestRecorderAggregatesIdenticalEvents(t *testing.T) {
	e := newRecorderEnv(t, client.RecorderOptions{})
	newer := e.web.DeepCopyObject()
	newer.GetObjectMeta().ResourceVersion = "999" // a later version of the same object
	fail := func(obj api.Object, msg string) func() {
		return func() { e.rec.Eventf(obj, client.EventTypeWarning, "BackOff", "%s", msg) }
	}
	e.at(1*time.Second, fail(e.web, "back-off"))
	e.at(2*time.Second, fail(newer, "back-off"))
	e.at(3*time.Second, fail(e.web, "other message"))
	e.at(2*time.Second+10*time.Minute, fail(e.web, "back-off"))
	// Client-go's logger keeps no window: an identical event counts
	// however long after the last, while its Event is in the cache.
	e.at(2*time.Second+20*time.Minute+time.Millisecond, fail(e.web, "back-off"))
	e.k.Run(kernel.Limits{})
	type row struct {
		msg         string
		count       int32
		first, last time.Time
	}
	var got []row
	for _, ev := range e.events(t) {
		got = append(got, row{ev.Message, ev.Count, ev.FirstTimestamp.Time, ev.LastTimestamp.Time})
	}
	want := map[row]bool{
		{"back-off", 4, wall(time.Second), wall(2*time.Second + 20*time.Minute)}: true,
		{"other message", 1, wall(3 * time.Second), wall(3 * time.Second)}:       true,
	}
	if len(got) != len(want) {
		t.Fatalf("events %+v, want %d", got, len(want))
	}
	for _, r := range got {
		// Timestamps are seconds precision on the wire but kept exact in
		// memory; compare at seconds.
		r.first, r.last = r.first.Truncate(time.Second), r.last.Truncate(time.Second)
		if !want[r] {
			t.Errorf("unexpected event %+v (want %v)", r, want)
		}
	}
	if s := e.rec.Stats(); s.Created != 2 || s.Aggregated != 3 {
		t.Errorf("stats %+v, want 2 created and 3 aggregated", s)
	}
}

func TestRecorderRecreatesDeletedAggregate(t *testing.T) {
	e := newRecorderEnv(t, client.RecorderOptions{})
	ev := func() { e.rec.Eventf(e.web, client.EventTypeNormal, "Pulled", "pulled") }
	e.at(time.Second, ev)
	e.at(2*time.Second, func() {
		evs := e.events(t)
		if len(evs) != 1 {
			t.Fatalf("%d events, want 1", len(evs))
		}
		if _, _, err := e.st.Delete(store.Op{Actor: system}, api.KindEvent, evs[0].GetObjectMeta().Key(), store.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	})
	e.at(3*time.Second, ev)
	e.k.Run(kernel.Limits{})
	evs := e.events(t)
	if len(evs) != 1 || evs[0].Count != 2 || !evs[0].FirstTimestamp.Time.Equal(wall(time.Second)) {
		t.Fatalf("events %+v, want one event recreated with count 2 and the first timestamp", evs)
	}
}

func TestRecorderDropsAndRetries(t *testing.T) {
	tests := []struct {
		name        string
		opts        client.RecorderOptions
		downUntil   time.Duration // the server is unavailable until then (0: up)
		eventType   string
		obj         func(e *recorderEnv) api.Object
		wantCreated uint64
		wantDropped uint64
		// wantRetries is the fewest retries; the first retry's random
		// delay may add one more.
		wantRetries uint64
		wantEndMin  time.Duration // the run lasts at least this long
	}{
		{"invalid type", client.RecorderOptions{}, 0, "Fatal", func(e *recorderEnv) api.Object { return e.web }, 0, 1, 0, 0},
		{"nil object", client.RecorderOptions{}, 0, client.EventTypeNormal, func(*recorderEnv) api.Object { return nil }, 0, 1, 0, 0},
		{"rejected for good", client.RecorderOptions{}, 0, client.EventTypeNormal,
			func(*recorderEnv) api.Object { return configMap("gone", "cfg", nil, nil) }, 0, 1, 0, 0},
		{"transient outage", client.RecorderOptions{}, 25 * time.Second, client.EventTypeNormal,
			func(e *recorderEnv) api.Object { return e.web }, 1, 0, 3, 25 * time.Second},
		{"out of tries", client.RecorderOptions{Tries: 3, RetryInterval: time.Second}, time.Hour, client.EventTypeNormal,
			func(e *recorderEnv) api.Object { return e.web }, 0, 1, 2, time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newRecorderEnv(t, tc.opts)
			if tc.downUntil > 0 {
				e.srv.SetAvailable(false)
				e.at(tc.downUntil, func() { e.srv.SetAvailable(true) })
			}
			e.rec.Eventf(tc.obj(e), tc.eventType, "Reason", "message")
			e.k.Run(kernel.Limits{})
			s := e.rec.Stats()
			retriesOK := s.Retries == tc.wantRetries || (tc.downUntil > 0 && tc.wantCreated > 0 && s.Retries == tc.wantRetries+1)
			if s.Created != tc.wantCreated || s.Dropped != tc.wantDropped || !retriesOK {
				t.Errorf("stats %+v, want created %d dropped %d retries %d", s, tc.wantCreated, tc.wantDropped, tc.wantRetries)
			}
			if got := e.k.Now().Duration(); got < tc.wantEndMin {
				t.Errorf("run ended at %v, want at least %v", got, tc.wantEndMin)
			}
			if n := uint64(len(e.events(t))); n != tc.wantCreated {
				t.Errorf("%d events stored, want %d", n, tc.wantCreated)
			}
		})
	}
}

func TestRecorderStopDropsQueue(t *testing.T) {
	e := newRecorderEnv(t, client.RecorderOptions{})
	e.rec.Eventf(e.web, client.EventTypeNormal, "A", "queued before the sender ran")
	e.rec.Stop()
	e.rec.Eventf(e.web, client.EventTypeNormal, "B", "after stop")
	e.k.Run(kernel.Limits{})
	if n := len(e.events(t)); n != 0 {
		t.Errorf("%d events written after Stop, want 0", n)
	}
	if s := e.rec.Stats(); s.Dropped != 2 || s.Recorded != 2 {
		t.Errorf("stats %+v, want 2 recorded, 2 dropped", s)
	}
	if e.k.Live() != 0 {
		t.Errorf("%d live processes after Stop", e.k.Live())
	}
}

func TestRecorderComponentsAndClusterScope(t *testing.T) {
	e := newRecorderEnv(t, client.RecorderOptions{})
	ns := e.mustHandle(t, &apiserver.Request{Verb: apiserver.Get, Kind: api.KindNamespace, Name: "other", Actor: system})
	e.rec.For("namespace-controller").Eventf(ns, client.EventTypeNormal, "Checked", "ok")
	e.k.Run(kernel.Limits{})
	evs := e.events(t)
	if len(evs) != 1 {
		t.Fatalf("%d events, want 1", len(evs))
	}
	ev := evs[0]
	if ev.Namespace != "default" || ev.InvolvedObject.Kind != "Namespace" || ev.InvolvedObject.Namespace != "" ||
		ev.Source.Component != "namespace-controller" {
		t.Errorf("event %s/%s about %+v from %q, want default/..., a Namespace, namespace-controller",
			ev.Namespace, ev.Name, ev.InvolvedObject, ev.Source.Component)
	}
}

func TestRecorderNamesAreDeterministic(t *testing.T) {
	run := func() []string {
		e := newRecorderEnv(t, client.RecorderOptions{})
		for i := range 5 {
			e.rec.Eventf(e.web, client.EventTypeNormal, "R", "message %d", i)
		}
		e.k.Run(kernel.Limits{})
		var names []string
		for _, ev := range e.events(t) {
			names = append(names, ev.Name)
		}
		return names
	}
	a, b := run(), run()
	if len(a) != 5 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("runs gave %v and %v, want the same 5 names", a, b)
	}
}
