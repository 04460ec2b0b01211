package client_test

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// Actors used by the tests: a system component (may write status) and a
// user (may not).
const (
	system = "system:serviceaccount:kube-system:test-controller"
	user   = "alice"
)

// harness is a kernel, a store and a server with namespaces "default" and
// "other".
type harness struct {
	k   *kernel.Kernel
	st  *store.Store
	srv *apiserver.Server
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	k := kernel.New(1)
	st := store.New(k)
	h := &harness{k: k, st: st, srv: apiserver.New(k, st)}
	for _, ns := range []string{"default", "other"} {
		h.mustHandle(t, &apiserver.Request{Verb: apiserver.Create, Kind: api.KindNamespace, Actor: system,
			Object: &api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}})
	}
	return h
}

// mustHandle serves req directly, failing the test on an error.
func (h *harness) mustHandle(t testing.TB, req *apiserver.Request) api.Object {
	t.Helper()
	resp := h.srv.Handle(req)
	if resp.Err != nil {
		t.Fatalf("%s %s: %v", req.Verb, req.Kind, resp.Err)
	}
	return resp.Object
}

// inProcess runs fn in a kernel process and runs the kernel until it is
// quiescent, failing if fn did not finish.
func (h *harness) inProcess(t testing.TB, fn func(p *kernel.Process)) {
	t.Helper()
	done := false
	h.k.Spawn("test", func(p *kernel.Process) {
		fn(p)
		done = true
	})
	h.k.Run(kernel.Limits{})
	if !done {
		t.Fatal("test process did not finish")
	}
}

func configMap(ns, name string, labels map[string]string, data map[string]string) *api.ConfigMap {
	return &api.ConfigMap{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name, Labels: labels}, Data: data}
}

func pod(ns, name, node string) *api.Pod {
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name},
		Spec: api.PodSpec{
			NodeName:   node,
			Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}},
		},
	}
}

// network returns a transport to h's server over a network without
// faults (0 latency): it sends request bodies as they are, where the
// direct transport copies them again.
func (h *harness) network() client.Transport {
	net := netsim.New(h.k)
	ep := apiserver.Serve(h.srv, net, "apiserver")
	return client.NewNetwork(net, net.Endpoint("client"), ep.Addr(), 0)
}
