package informer_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

const system = "system:serviceaccount:kube-system:test"

// harness is a kernel, store and server with namespaces "default" and
// "other", and a fault-injecting transport in front of Direct.
type harness struct {
	t   testing.TB
	k   *kernel.Kernel
	st  *store.Store
	srv *apiserver.Server
	tr  *faultyTransport
}

func newHarness(t testing.TB, history int) *harness {
	t.Helper()
	k := kernel.New(1)
	st := store.New(k)
	if history > 0 {
		st.SetHistory(history)
	}
	srv := apiserver.New(k, st)
	h := &harness{t: t, k: k, st: st, srv: srv, tr: &faultyTransport{Transport: client.NewDirect(srv), k: k}}
	for _, ns := range []string{"default", "other"} {
		h.create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}})
	}
	return h
}

func (h *harness) handle(req *apiserver.Request) api.Object {
	h.t.Helper()
	req.Actor = system
	resp := h.srv.Handle(req)
	if resp.Err != nil {
		h.t.Fatalf("%s %s %s/%s: %v", req.Verb, req.Kind, req.Namespace, req.Name, resp.Err)
	}
	return resp.Object
}

func (h *harness) create(o api.Object) api.Object {
	h.t.Helper()
	return h.handle(&apiserver.Request{Verb: apiserver.Create, Kind: api.KindOf(o), Object: o})
}

// update applies mutate to a copy of the stored object and writes it.
func (h *harness) update(kind api.Kind, key api.Key, mutate func(o api.Object)) api.Object {
	h.t.Helper()
	o, err := h.st.Get(kind, key)
	if err != nil {
		h.t.Fatal(err)
	}
	o = o.DeepCopyObject()
	mutate(o)
	return h.handle(&apiserver.Request{Verb: apiserver.Update, Kind: kind, Object: o})
}

func (h *harness) del(kind api.Kind, key api.Key) {
	h.t.Helper()
	zero := int64(0)
	h.handle(&apiserver.Request{Verb: apiserver.Delete, Kind: kind, Namespace: key.Namespace, Name: key.Name,
		DeleteOptions: store.DeleteOptions{GracePeriodSeconds: &zero}})
}

// at runs f at virtual time d.
func (h *harness) at(d time.Duration, f func()) { h.k.At(kernel.Time(d), f) }

func (h *harness) runUntil(d time.Duration) { h.k.Run(kernel.Limits{Until: kernel.Time(d)}) }

func configMap(ns, name string, labels map[string]string) *api.ConfigMap {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: labels}}
}

func pod(ns, name, node string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name},
		Spec:       api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}},
	}
}

// faultyTransport wraps a transport: it records when requests are sent,
// can fail them, and can drop, duplicate or cut watch streams.
type faultyTransport struct {
	client.Transport
	k *kernel.Kernel
	// failVerbs fails requests of these verbs with 503 while set.
	failVerbs map[apiserver.Verb]bool
	// drop, if set, drops the watch events it returns true for.
	drop func(e store.Event) bool
	// refuse, if set, refuses the next watch with this error.
	refuse error
	// dup delivers every watch event twice.
	dup     bool
	streams []*faultyStream
	sent    []string // "t=…s VERB"
}

func (f *faultyTransport) note(verb apiserver.Verb) {
	f.sent = append(f.sent, fmt.Sprintf("%v %s", f.k.Now(), verb))
}

func (f *faultyTransport) Do(p *kernel.Process, req *apiserver.Request) *apiserver.Response {
	f.note(req.Verb)
	if f.failVerbs[req.Verb] {
		return &apiserver.Response{Err: apierr.NewServiceUnavailable("injected")}
	}
	return f.Transport.Do(p, req)
}

func (f *faultyTransport) Watch(p *kernel.Process, req *apiserver.Request, h client.WatchHandler) (client.WatchStream, error) {
	f.note(req.Verb)
	if f.failVerbs[apiserver.Watch] {
		return nil, apierr.NewServiceUnavailable("injected")
	}
	if err := f.refuse; err != nil {
		f.refuse = nil
		return nil, err
	}
	fs := &faultyStream{f: f, h: h}
	s, err := f.Transport.Watch(p, req, fs)
	if err != nil {
		return nil, err
	}
	fs.inner = s
	f.streams = append(f.streams, fs)
	return fs, nil
}

// cut ends every open stream with err, as a broken connection or an
// expired watch would.
func (f *faultyTransport) cut(err error) {
	for _, s := range f.streams {
		if !s.closed {
			s.closed = true
			s.inner.Stop()
			s.h.Closed(err)
		}
	}
	f.streams = nil
}

type faultyStream struct {
	f      *faultyTransport
	h      client.WatchHandler
	inner  client.WatchStream
	closed bool
}

func (s *faultyStream) Event(e store.Event) {
	if s.closed || (s.f.drop != nil && s.f.drop(e)) {
		return
	}
	s.h.Event(e)
	if s.f.dup {
		s.h.Event(e)
	}
}

func (s *faultyStream) Closed(err error) {
	if !s.closed {
		s.closed = true
		s.h.Closed(err)
	}
}

func (s *faultyStream) Stop() { s.inner.Stop() }

// log records handler calls as "add ns/name", "update ns/name" (a
// changed object), "same ns/name" (an update with old == new: a resync or
// an unchanged object in a relist), "delete ns/name".
type log struct{ lines []string }

func (l *log) OnAdd(o api.Object) { l.lines = append(l.lines, "add "+o.GetObjectMeta().Key().String()) }

func (l *log) OnUpdate(old, o api.Object) {
	verb := "update "
	if old == o {
		verb = "same "
	}
	l.lines = append(l.lines, verb+o.GetObjectMeta().Key().String())
}

func (l *log) OnDelete(o api.Object) {
	l.lines = append(l.lines, "delete "+o.GetObjectMeta().Key().String())
}

func (l *log) take() []string {
	out := l.lines
	l.lines = nil
	return out
}
