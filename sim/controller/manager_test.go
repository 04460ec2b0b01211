package controller_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
	"github.com/clustersim/clustersim/sim/store"
)

// crashScenario runs a manager whose reconciler stamps each ConfigMap with
// its incarnation through two blocking client calls (10ms each), crashes
// it at 15ms, in the middle of those calls, and restarts it at 1s. It
// returns the reconcile log and the harness for further checks.
type crashResult struct {
	h       *harness
	mgr     *controller.Manager
	log     []string
	setups  int
	ctxs    []context.Context
	first   *controller.Controller
	metrics controller.Metrics // of the first incarnation's controller, right after the crash
}

func crashScenario(t *testing.T, seed uint64) *crashResult {
	h := newHarness(t, seed)
	h.tr.latency = 10 * time.Millisecond
	for _, n := range []string{"a", "b", "c"} {
		h.create(configMap("default", n, nil))
	}
	res := &crashResult{h: h}
	res.mgr = controller.NewManager(h.k, h.tr, "kcm", system, func(m *controller.Manager) error {
		res.setups++
		incarnation := strconv.Itoa(res.setups)
		seen := map[string]int{} // memory a crash must drop
		inf, err := m.Informer(api.KindConfigMap, informer.Options{})
		if err != nil {
			return err
		}
		c, err := m.NewController("stamp", controller.Options{Workers: 2}, controller.ReconcilerFunc(
			func(ctx context.Context, req controller.Request) (controller.Result, error) {
				seen[req.Name]++
				res.ctxs = append(res.ctxs, ctx)
				res.log = append(res.log, logf(h.k, "inc %s reconcile %s seen %d", incarnation, req, seen[req.Name]))
				cm, err := client.GetAs[*api.ConfigMap](ctx, m.Client(), req.Key)
				if errors.Is(err, apierr.ErrNotFound) {
					return controller.Result{}, nil
				}
				if err != nil {
					return controller.Result{}, err
				}
				if cm.Data["stamp"] == incarnation {
					return controller.Result{}, nil
				}
				cm.Data = map[string]string{"stamp": incarnation}
				_, err = m.Client().Update(ctx, cm)
				res.log = append(res.log, logf(h.k, "inc %s stamped %s: %v", incarnation, req, err))
				return controller.Result{}, err
			}))
		if err != nil {
			return err
		}
		c.Watch(inf, controller.EnqueueObject())
		if res.first == nil {
			res.first = c
		}
		return nil
	})
	if err := res.mgr.Start(); err != nil {
		t.Fatal(err)
	}
	h.at(15*time.Millisecond, func() {
		res.log = append(res.log, logf(h.k, "crash"))
		res.mgr.Crash()
		res.metrics = res.first.Metrics()
	})
	h.at(time.Second, func() {
		res.log = append(res.log, logf(h.k, "restart"))
		if err := res.mgr.Restart(); err != nil {
			t.Error(err)
		}
	})
	h.runUntil(2 * time.Second)
	return res
}

func TestManagerCrashMidReconcile(t *testing.T) {
	r := crashScenario(t, 1)
	h := r.h
	if r.setups != 2 || !r.mgr.Running() || r.mgr.Starts() != 2 {
		t.Fatalf("setups %d running %v starts %d; want setup run twice and the manager running", r.setups, r.mgr.Running(), r.mgr.Starts())
	}
	crashAt := slices.Index(r.log, "t=0.015s crash")
	if crashAt < 0 {
		t.Fatalf("no crash in log %q", r.log)
	}
	before, after := r.log[:crashAt], r.log[crashAt+1:]
	// Before the crash: the first list took 10ms, so two workers started
	// reconciling at 10ms and were cut off inside their client calls.
	for _, l := range before {
		if strings.Contains(l, "stamped") {
			t.Errorf("a write completed before the crash: %q", l)
		}
	}
	if len(before) == 0 {
		t.Error("no reconcile had begun when the manager crashed")
	}
	// After the restart: fresh memory (seen 1), every object reconciled.
	for _, n := range []string{"a", "b", "c"} {
		want := "inc 2 reconcile default/" + n + " seen 1"
		if !slices.ContainsFunc(after, func(l string) bool { return strings.HasSuffix(l, want) }) {
			t.Errorf("after restart, no %q in %q", want, after)
		}
		o, err := h.st.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: n})
		if err != nil {
			t.Fatal(err)
		}
		if got := o.(*api.ConfigMap).Data["stamp"]; got != "2" {
			t.Errorf("%s stamped %q, want 2", n, got)
		}
	}
	for _, l := range after {
		if strings.Contains(l, "inc 1") {
			t.Errorf("the crashed incarnation ran on: %q", l)
		}
	}
	if h.tr.requests[apiserver.List] != 2 {
		t.Errorf("%d lists, want one per incarnation", h.tr.requests[apiserver.List])
	}
	if r.first.Metrics() != r.metrics {
		t.Errorf("the crashed controller's metrics changed after the crash")
	}
	if r.ctxs[0].Err() == nil {
		t.Error("the crashed incarnation's context was not cancelled")
	}
	if last := r.ctxs[len(r.ctxs)-1]; last.Err() != nil {
		t.Error("the running incarnation's context is cancelled")
	}
	r.mgr.Crash()
	h.runUntil(3 * time.Second)
	if h.k.Live() != 0 || r.mgr.Running() {
		t.Errorf("after a final crash: %d live processes, running %v", h.k.Live(), r.mgr.Running())
	}
}

func TestManagerDeterministic(t *testing.T) {
	a, b := crashScenario(t, 7), crashScenario(t, 7)
	if !slices.Equal(a.log, b.log) {
		t.Errorf("same scenario, different reconcile logs:\n%s\n---\n%s", strings.Join(a.log, "\n"), strings.Join(b.log, "\n"))
	}
	if len(a.log) < 6 {
		t.Errorf("log too short to mean anything: %q", a.log)
	}
}

func TestManagerErrors(t *testing.T) {
	errSetup := errors.New("no such config")
	tests := []struct {
		name  string
		setup func(m *controller.Manager) error
		want  error
	}{
		{"setup error", func(*controller.Manager) error { return errSetup }, errSetup},
		{"duplicate controller", func(m *controller.Manager) error {
			noop := controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) { return controller.Result{}, nil })
			if _, err := m.NewController("x", controller.Options{}, noop); err != nil {
				return err
			}
			_, err := m.NewController("x", controller.Options{}, noop)
			return err
		}, controller.ErrDuplicateController},
		{"bad informer", func(m *controller.Manager) error {
			if _, err := m.Informer(api.KindPod, informer.Options{}); err != nil {
				return err
			}
			_, err := m.Informer(api.KindConfigMap, informer.Options{NodeName: "n1"})
			return err
		}, informer.ErrInvalidOptions},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 1)
			m := controller.NewManager(h.k, h.tr, "mgr", system, tc.setup)
			if err := m.Start(); !errors.Is(err, tc.want) {
				t.Fatalf("Start = %v, want %v", err, tc.want)
			}
			h.runUntil(time.Second)
			if m.Running() || h.k.Live() != 0 {
				t.Errorf("after a failed start: running %v, %d live processes", m.Running(), h.k.Live())
			}
		})
	}
	h := newHarness(t, 1)
	m := controller.NewManager(h.k, h.tr, "mgr", system, nil)
	if _, err := m.Informer(api.KindPod, informer.Options{}); !errors.Is(err, controller.ErrNotRunning) {
		t.Errorf("Informer before Start = %v, want ErrNotRunning", err)
	}
	if _, err := m.NewController("x", controller.Options{}, nil); !errors.Is(err, controller.ErrNotRunning) {
		t.Errorf("NewController before Start = %v, want ErrNotRunning", err)
	}
	if err := m.Add("x", func(context.Context) {}); !errors.Is(err, controller.ErrNotRunning) {
		t.Errorf("Add before Start = %v, want ErrNotRunning", err)
	}
	m.Recorder("x").Eventf(configMap("default", "x", nil), client.EventTypeNormal, "R", "dropped") // no panic
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	if err := m.Start(); !errors.Is(err, controller.ErrRunning) {
		t.Errorf("second Start = %v, want ErrRunning", err)
	}
}

func TestManagerRunnableAndRecorder(t *testing.T) {
	h := newHarness(t, 1)
	ticks := 0
	var ctxs []context.Context
	m := controller.NewManager(h.k, h.tr, "mgr", system, func(m *controller.Manager) error {
		inf, err := m.Informer(api.KindConfigMap, informer.Options{})
		if err != nil {
			return err
		}
		c, err := m.NewController("events", controller.Options{}, controller.ReconcilerFunc(
			func(ctx context.Context, req controller.Request) (controller.Result, error) {
				if o, ok := inf.Lister().Get(req.Key); ok {
					m.Recorder("event-controller").Eventf(o, client.EventTypeNormal, "Seen", "saw %s", req)
				}
				return controller.Result{}, nil
			}))
		if err != nil {
			return err
		}
		c.Watch(inf, controller.EnqueueObject())
		return m.Add("ticker", func(ctx context.Context) {
			ctxs = append(ctxs, ctx)
			if !m.WaitForCacheSync() {
				return
			}
			for {
				m.Clock().Sleep(10 * time.Second)
				ticks++
			}
		})
	})
	h.create(configMap("default", "a", nil))
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	h.runUntil(35 * time.Second)
	if ticks != 3 {
		t.Errorf("%d ticks in 35s, want 3", ticks)
	}
	evs, _, err := h.st.List(api.KindEvent, store.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || evs[0].(*api.Event).Source.Component != "event-controller" || evs[0].(*api.Event).Message != "saw default/a" {
		t.Errorf("events %v, want one from event-controller", evs)
	}
	if s := m.EventStats(); s.Created != 1 {
		t.Errorf("event stats %+v", s)
	}
	m.Crash()
	h.runUntil(time.Minute)
	if ticks != 3 || ctxs[0].Err() == nil || h.k.Live() != 0 {
		t.Errorf("after crash: ticks %d, ctx err %v, %d live", ticks, ctxs[0].Err(), h.k.Live())
	}
	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	h.runUntil(time.Minute + 15*time.Second)
	if ticks != 4 || len(ctxs) != 2 {
		t.Errorf("after restart: ticks %d, runnable started %d times", ticks, len(ctxs))
	}
}

// TestWorkersWaitForSync enqueues a request before the caches have synced
// (the first list takes 1s): no reconcile may start before every informer
// of the manager has synced, not only the ones the controller watches.
func TestWorkersWaitForSync(t *testing.T) {
	h := newHarness(t, 1)
	h.tr.latency = time.Second
	var starts []time.Duration
	m := controller.NewManager(h.k, h.tr, "mgr", system, func(m *controller.Manager) error {
		pods, err := m.Informer(api.KindPod, informer.Options{}) // read, not watched
		if err != nil {
			return err
		}
		c, err := m.NewController("early", controller.Options{Workers: 3}, controller.ReconcilerFunc(
			func(context.Context, controller.Request) (controller.Result, error) {
				if !pods.HasSynced() {
					t.Error("reconcile before the pod cache synced")
				}
				starts = append(starts, h.k.Now().Duration())
				return controller.Result{}, nil
			}))
		if err != nil {
			return err
		}
		c.Enqueue(req("x"))
		return nil
	})
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	h.runUntil(5 * time.Second)
	if len(starts) != 1 || starts[0] < time.Second {
		t.Errorf("reconciles at %v, want one at or after the 1s sync", starts)
	}
}
