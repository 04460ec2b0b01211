package controller_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/kernel"
)

// hostedProcess is a host manager and two members, each with a
// transport of its own that counts its requests, and each member a
// controller over ConfigMaps that logs what it reconciles.
type hostedProcess struct {
	h              *harness
	host           *controller.Manager
	a, b           *controller.Manager
	hostTr, aTr    *testTransport
	bTr            *testTransport
	log            []string
	setups         map[string]int
	informersOfA   []*informer.Informer
	informersOfB   []*informer.Informer
	informersOfHst []*informer.Informer
}

func newHostedProcess(t *testing.T, election bool) *hostedProcess {
	h := newHarness(t, 1)
	for _, n := range []string{"x", "y"} {
		h.create(configMap("default", n, nil))
	}
	p := &hostedProcess{h: h, setups: map[string]int{}}
	p.hostTr = &testTransport{Transport: h.tr.Transport}
	p.aTr = &testTransport{Transport: h.tr.Transport}
	p.bTr = &testTransport{Transport: h.tr.Transport}
	member := func(name string, tr *testTransport, infs *[]*informer.Informer) *controller.Manager {
		return controller.NewManager(h.k, tr, name, system+"-"+name, func(m *controller.Manager) error {
			p.setups[name]++
			inf, err := m.Informer(api.KindConfigMap, informer.Options{})
			if err != nil {
				return err
			}
			*infs = append(*infs, inf)
			c, err := m.NewController("c", controller.Options{}, controller.ReconcilerFunc(
				func(ctx context.Context, req controller.Request) (controller.Result, error) {
					p.log = append(p.log, logf(h.k, "%s reconciles %s", name, req))
					_, err := m.Client().Get(ctx, api.KindConfigMap, req.Key)
					return controller.Result{}, err
				}))
			if err != nil {
				return err
			}
			c.Watch(inf, controller.EnqueueObject())
			return nil
		})
	}
	p.host = controller.NewManager(h.k, p.hostTr, "kcm", "system:kube-controller-manager", func(m *controller.Manager) error {
		p.setups["kcm"]++
		p.informersOfHst = append(p.informersOfHst, m.Factory().Informers()...)
		return nil
	})
	if election {
		p.host.SetOptions(controller.ManagerOptions{LeaderElection: &controller.LeaderElection{Name: "kcm", Identity: "cp",
			OnAcquired: func(m *controller.Manager, id string) {
				p.log = append(p.log, logf(h.k, "%s acquired as %s", m.Name(), id))
			}}})
	}
	p.a = member("a", p.aTr, &p.informersOfA)
	p.b = member("b", p.bTr, &p.informersOfB)
	for _, m := range []*controller.Manager{p.a, p.b} {
		if err := p.host.Host(m); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// requests counts the requests of verb through the host's transport,
// a's and b's, in that order.
func (p *hostedProcess) requests(verb apiserver.Verb) []int {
	return []int{p.hostTr.requests[verb], p.aTr.requests[verb], p.bTr.requests[verb]}
}

func (p *hostedProcess) running() string {
	return fmt.Sprintf("kcm %v a %v b %v", p.host.Running(), p.a.Running(), p.b.Running())
}

// TestManagerHost: the members of a host share its informers (one list
// and one watch a kind, through the host's transport), start with it and
// crash with it, and relist once, together, when it restarts.
func TestManagerHost(t *testing.T) {
	p := newHostedProcess(t, false)
	h := p.h
	// Starting a member starts the whole process.
	if err := p.a.Start(); err != nil {
		t.Fatal(err)
	}
	if got := p.running(); got != "kcm true a true b true" {
		t.Fatalf("after a member's Start: %s", got)
	}
	h.runUntil(time.Second)
	if p.informersOfA[0] != p.informersOfB[0] {
		t.Errorf("the members have informers of their own for one kind")
	}
	if got := p.requests(apiserver.List); !slices.Equal(got, []int{1, 0, 0}) {
		t.Errorf("lists through host, a, b = %v, want [1 0 0]", got)
	}
	wantLog := []string{
		"t=0.000s a reconciles default/x", "t=0.000s a reconciles default/y",
		"t=0.000s b reconciles default/x", "t=0.000s b reconciles default/y",
	}
	if !slices.Equal(p.log, wantLog) {
		t.Errorf("first incarnation's reconciles:\n%q\nwant\n%q", p.log, wantLog)
	}
	// A member's client is its own: its reads go through its transport.
	if got := p.requests(apiserver.Get); !slices.Equal(got, []int{0, 2, 2}) {
		t.Errorf("gets through host, a, b = %v, want [0 2 2]", got)
	}
	p.log = nil
	// Crashing one member crashes the process.
	h.at(2*time.Second, func() { p.b.Crash() })
	h.at(3*time.Second, func() {
		if got := p.running(); got != "kcm false a false b false" {
			t.Errorf("after a member's Crash: %s", got)
		}
		if err := p.b.Start(); err != nil {
			t.Error(err)
		}
	})
	h.runUntil(4 * time.Second)
	if got := p.setups; got["kcm"] != 2 || got["a"] != 2 || got["b"] != 2 {
		t.Errorf("setups after the restart = %v, want two each", got)
	}
	if got := p.requests(apiserver.List); !slices.Equal(got, []int{2, 0, 0}) {
		t.Errorf("lists through host, a, b after the restart = %v, want [2 0 0]: one relist for the process", got)
	}
	if p.informersOfA[1] != p.informersOfB[1] || p.informersOfA[1] == p.informersOfA[0] {
		t.Errorf("after the restart the members should share a fresh informer")
	}
	wantLog = []string{
		"t=3.000s a reconciles default/x", "t=3.000s a reconciles default/y",
		"t=3.000s b reconciles default/x", "t=3.000s b reconciles default/y",
	}
	if !slices.Equal(p.log, wantLog) {
		t.Errorf("second incarnation's reconciles:\n%q\nwant\n%q", p.log, wantLog)
	}
	if err := p.a.Start(); !errors.Is(err, controller.ErrRunning) {
		t.Errorf("a member's Start while running = %v, want ErrRunning", err)
	}
}

// TestManagerHostElection: the host's leader election holds back every
// member's workload until the lease is held.
func TestManagerHostElection(t *testing.T) {
	p := newHostedProcess(t, true)
	p.h.create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: controller.LeaseNamespace}})
	if err := p.host.Start(); err != nil {
		t.Fatal(err)
	}
	p.h.runUntil(time.Second)
	want := []string{"t=0.000s kcm acquired as cp_1",
		"t=0.000s a reconciles default/x", "t=0.000s a reconciles default/y",
		"t=0.000s b reconciles default/x", "t=0.000s b reconciles default/y",
	}
	if !slices.Equal(p.log, want) {
		t.Errorf("log:\n%q\nwant\n%q", p.log, want)
	}
	// The lease is the host's: created through its transport.
	if got := p.requests(apiserver.Create); !slices.Equal(got, []int{1, 0, 0}) {
		t.Errorf("creates through host, a, b = %v, want [1 0 0]", got)
	}
	// Losing nothing, the process keeps running; crashing the host
	// crashes the members.
	p.host.Crash()
	if got := p.running(); got != "kcm false a false b false" {
		t.Errorf("after the host's Crash: %s", got)
	}
}

// TestManagerHostErrors: what Host refuses, and a member with a leader
// election of its own.
func TestManagerHostErrors(t *testing.T) {
	h := newHarness(t, 1)
	mk := func(name string) *controller.Manager { return controller.NewManager(h.k, h.tr, name, system, nil) }
	host, a, b, c := mk("host"), mk("a"), mk("b"), mk("c")
	if err := host.Host(host); !errors.Is(err, controller.ErrHosted) {
		t.Errorf("Host(itself) = %v, want ErrHosted", err)
	}
	if err := host.Host(a); err != nil {
		t.Fatal(err)
	}
	if err := b.Host(a); !errors.Is(err, controller.ErrHosted) {
		t.Errorf("a second host = %v, want ErrHosted", err)
	}
	if err := a.Host(b); !errors.Is(err, controller.ErrHosted) {
		t.Errorf("a member hosting = %v, want ErrHosted", err)
	}
	if err := b.Host(host); !errors.Is(err, controller.ErrHosted) {
		t.Errorf("hosting a host = %v, want ErrHosted", err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if err := host.Host(c); !errors.Is(err, controller.ErrRunning) {
		t.Errorf("hosting a running manager = %v, want ErrRunning", err)
	}
	if a.Hosted() != host || b.Hosted() != nil {
		t.Errorf("Hosted: a %v, b %v", a.Hosted(), b.Hosted())
	}
	// What a member's options would set is its host's: Start refuses it
	// rather than ignore it.
	for _, opts := range []controller.ManagerOptions{
		{LeaderElection: &controller.LeaderElection{Name: "a"}},
		{Resync: time.Hour},
		{OnInformer: func(informer.Activity) {}},
	} {
		a.SetOptions(opts)
		if err := host.Start(); !errors.Is(err, controller.ErrHosted) {
			t.Errorf("a member with options %+v: Start = %v, want ErrHosted", opts, err)
		}
		h.runUntil(time.Second)
		if host.Running() || a.Running() {
			t.Errorf("after a failed start: host %v, a %v", host.Running(), a.Running())
		}
	}
}

// slowList delays the lists of one kind.
type slowList struct {
	*testTransport
	kind api.Kind
	d    time.Duration
}

func (s slowList) Do(p *kernel.Process, req *apiserver.Request) *apiserver.Response {
	if req.Verb == apiserver.List && req.Kind == s.kind {
		p.Sleep(s.d)
	}
	return s.testTransport.Do(p, req)
}

// TestManagerHostWaitsForOwnInformers: a member's controllers wait for
// the informers the member asked for, not for another member's, as each
// of upstream's controllers waits for its own (WaitForNamedCacheSync):
// member a's ConfigMap controller reconciles at once though member b's
// Secrets take 30s to list. Planted: members waiting for the whole
// factory make a wait those 30s.
func TestManagerHostWaitsForOwnInformers(t *testing.T) {
	h := newHarness(t, 1)
	h.create(configMap("default", "x", nil))
	var log []string
	host := controller.NewManager(h.k, slowList{testTransport: &testTransport{Transport: h.tr.Transport}, kind: api.KindSecret, d: 30 * time.Second}, "kcm", "system:kube-controller-manager", nil)
	member := func(name string, kind api.Kind) *controller.Manager {
		return controller.NewManager(h.k, h.tr, name, system+"-"+name, func(m *controller.Manager) error {
			inf, err := m.Informer(kind, informer.Options{})
			if err != nil {
				return err
			}
			c, err := m.NewController("c", controller.Options{}, controller.ReconcilerFunc(
				func(ctx context.Context, req controller.Request) (controller.Result, error) {
					log = append(log, logf(h.k, "%s reconciles %s", name, req))
					return controller.Result{}, nil
				}))
			if err != nil {
				return err
			}
			c.Watch(inf, controller.EnqueueObject())
			return m.Add("sync", func(context.Context) {
				if m.WaitForCacheSync() {
					log = append(log, logf(h.k, "%s synced", name))
				}
			})
		})
	}
	for _, m := range []*controller.Manager{member("a", api.KindConfigMap), member("b", api.KindSecret)} {
		if err := host.Host(m); err != nil {
			t.Fatal(err)
		}
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	h.runUntil(time.Minute)
	want := []string{"t=0.000s a reconciles default/x", "t=0.000s a synced", "t=30.000s b synced"}
	if !slices.Equal(log, want) {
		t.Errorf("log:\n%q\nwant\n%q", log, want)
	}
}
