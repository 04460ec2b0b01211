package controller_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

const system = "system:serviceaccount:kube-system:test-controller"

// harness is a kernel, store and server with namespaces "default" and
// "other", reached through a test transport in front of Direct.
type harness struct {
	t   testing.TB
	k   *kernel.Kernel
	st  *store.Store
	srv *apiserver.Server
	tr  *testTransport
}

func newHarness(t testing.TB, seed uint64) *harness {
	t.Helper()
	k := kernel.New(seed)
	st := store.New(k)
	srv := apiserver.New(k, st)
	h := &harness{t: t, k: k, st: st, srv: srv, tr: &testTransport{Transport: client.NewDirect(srv)}}
	for _, ns := range []string{"default", "other"} {
		h.create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}})
	}
	return h
}

func (h *harness) handle(req *apiserver.Request) api.Object {
	h.t.Helper()
	if req.Actor == "" {
		req.Actor = system
	}
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

// update applies mutate to a copy of the stored object and writes it as
// actor.
func (h *harness) update(actor string, kind api.Kind, key api.Key, mutate func(o api.Object)) {
	h.t.Helper()
	o, err := h.st.Get(kind, key)
	if err != nil {
		h.t.Fatal(err)
	}
	o = o.DeepCopyObject()
	mutate(o)
	h.handle(&apiserver.Request{Verb: apiserver.Update, Kind: kind, Object: o, Actor: actor})
}

func (h *harness) at(d time.Duration, f func()) { h.k.At(kernel.Time(d), f) }

func (h *harness) runUntil(d time.Duration) { h.k.Run(kernel.Limits{Until: kernel.Time(d)}) }

func configMap(ns, name string, data map[string]string) *api.ConfigMap {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}, Data: data}
}

// testTransport adds a per-request latency (the calling process sleeps,
// as on a network) and can drop watch events.
type testTransport struct {
	client.Transport
	latency time.Duration
	// drop, if set, drops the watch events it returns true for.
	drop func(e store.Event) bool
	// requests counts requests by verb.
	requests map[apiserver.Verb]int
}

func (t *testTransport) Do(p *kernel.Process, req *apiserver.Request) *apiserver.Response {
	if t.requests == nil {
		t.requests = map[apiserver.Verb]int{}
	}
	t.requests[req.Verb]++
	if t.latency > 0 {
		p.Sleep(t.latency)
	}
	return t.Transport.Do(p, req)
}

func (t *testTransport) Watch(p *kernel.Process, req *apiserver.Request, h client.WatchHandler) (client.WatchStream, error) {
	return t.Transport.Watch(p, req, dropper{t: t, h: h})
}

type dropper struct {
	t *testTransport
	h client.WatchHandler
}

func (d dropper) Event(e store.Event) {
	if d.t.drop == nil || !d.t.drop(e) {
		d.h.Event(e)
	}
}

func (d dropper) Closed(err error) { d.h.Closed(err) }

// logf formats a log line with the virtual time.
func logf(k *kernel.Kernel, format string, args ...any) string {
	return k.Now().String() + " " + fmt.Sprintf(format, args...)
}
