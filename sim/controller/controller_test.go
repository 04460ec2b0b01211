package controller_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
)

func req(name string) controller.Request {
	return controller.Request{Key: api.Key{Namespace: "default", Name: name}}
}

// TestOneKeyNeverTwoWorkers drives many adds of a few keys through several
// workers whose reconciles block for a while, and checks the work-queue
// contract: a key is never reconciled by two workers at once, workers do
// run in parallel, and every key is reconciled after its last add.
func TestOneKeyNeverTwoWorkers(t *testing.T) {
	k := kernel.New(1)
	clock := client.NewClock(k)
	rng := rand.New(rand.NewPCG(3, 4))
	active := map[controller.Request]bool{}
	running, maxRunning, overlaps := 0, 0, 0
	lastAdd := map[controller.Request]kernel.Time{}
	lastStart := map[controller.Request]kernel.Time{}
	r := controller.ReconcilerFunc(func(_ context.Context, req controller.Request) (controller.Result, error) {
		if active[req] {
			overlaps++
		}
		active[req] = true
		running++
		maxRunning = max(maxRunning, running)
		lastStart[req] = k.Now()
		clock.Sleep(time.Duration(1+rng.IntN(20)) * time.Millisecond)
		active[req] = false
		running--
		return controller.Result{}, nil
	})
	c := controller.New(k, "contract", r, controller.Options{Workers: 4})
	c.Start()
	keys := []controller.Request{req("a"), req("b"), req("c"), req("d"), req("e")}
	at := kernel.Time(0)
	for range 2000 {
		at = at.Add(time.Duration(rng.IntN(1000)) * time.Microsecond)
		rq := keys[rng.IntN(len(keys))]
		k.At(at, func() {
			c.Enqueue(rq)
			lastAdd[rq] = k.Now()
		})
	}
	k.Run(kernel.Limits{})
	if overlaps != 0 {
		t.Errorf("%d reconciles of a key already being reconciled", overlaps)
	}
	if maxRunning < 2 {
		t.Errorf("at most %d reconciles ran at once with 4 workers, want parallelism", maxRunning)
	}
	for _, rq := range keys {
		if lastStart[rq] < lastAdd[rq] {
			t.Errorf("%v: last reconcile started at %v, before its last add at %v", rq, lastStart[rq], lastAdd[rq])
		}
	}
	m := c.Metrics()
	if m.Reconciles == 0 || m.Reconciles >= 2000 || m.Queue.Processing != 0 || m.Queue.Depth != 0 {
		t.Errorf("metrics %+v: want de-duplicated reconciles and an empty queue", m)
	}
}

// outcome is what a scripted reconciler returns on one call.
type outcome struct {
	res   controller.Result
	err   error
	panic bool
	// rateLimited: the sync enqueues its own key rate-limited
	// (EnqueueRateLimited) before it returns.
	rateLimited bool
}

var errBoom = errors.New("boom")

func TestRetryTiming(t *testing.T) {
	ms := time.Millisecond
	fail := outcome{err: errBoom}
	tests := []struct {
		name     string
		script   []outcome // then success
		wantGaps []time.Duration
		want     controller.Metrics
	}{
		{"success is final", nil, nil, controller.Metrics{Reconciles: 1}},
		{"errors back off exponentially", []outcome{fail, fail, fail, fail, fail, fail, fail},
			[]time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms, 160 * ms, 320 * ms},
			controller.Metrics{Reconciles: 8, Errors: 7}},
		{"requeue backs off", []outcome{{res: controller.Result{Requeue: true}}, {res: controller.Result{Requeue: true}}, {res: controller.Result{Requeue: true}}},
			[]time.Duration{5 * ms, 10 * ms, 20 * ms},
			controller.Metrics{Reconciles: 4, Requeues: 3}},
		{"a successful sync that enqueued itself rate-limited is forgotten", []outcome{{rateLimited: true}, {rateLimited: true}, {rateLimited: true}},
			[]time.Duration{5 * ms, 5 * ms, 5 * ms},
			controller.Metrics{Reconciles: 4}},
		{"a failed sync that enqueued itself rate-limited backs off", []outcome{{rateLimited: true, err: errBoom}, {rateLimited: true, err: errBoom}},
			[]time.Duration{5 * ms, 20 * ms},
			controller.Metrics{Reconciles: 3, Errors: 2}},
		{"requeue after is honoured", []outcome{{res: controller.Result{RequeueAfter: 30 * time.Second}}, {res: controller.Result{RequeueAfter: 30 * time.Second}}},
			[]time.Duration{30 * time.Second, 30 * time.Second},
			controller.Metrics{Reconciles: 3, Requeues: 2}},
		{"requeue after resets the back-off", []outcome{fail, fail, {res: controller.Result{RequeueAfter: time.Second}}, fail},
			[]time.Duration{5 * ms, 10 * ms, time.Second, 5 * ms},
			controller.Metrics{Reconciles: 5, Errors: 3, Requeues: 1}},
		{"error wins over requeue after", []outcome{{res: controller.Result{RequeueAfter: time.Hour}, err: errBoom}},
			[]time.Duration{5 * ms},
			controller.Metrics{Reconciles: 2, Errors: 1}},
		{"terminal error is not retried", []outcome{{err: controller.TerminalError(errBoom)}, fail}, nil,
			controller.Metrics{Reconciles: 1, Errors: 1, TerminalErrors: 1}},
		{"panic is an error", []outcome{{panic: true}, {panic: true}, {panic: true}},
			[]time.Duration{5 * ms, 10 * ms, 20 * ms},
			controller.Metrics{Reconciles: 4, Errors: 3, Panics: 3}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			k := kernel.New(1)
			calls := 0
			var c *controller.Controller
			r := controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
				i := calls
				calls++
				if i >= len(tc.script) {
					return controller.Result{}, nil
				}
				if tc.script[i].panic {
					panic("reconciler bug")
				}
				if tc.script[i].rateLimited {
					c.EnqueueRateLimited(req("x"))
				}
				return tc.script[i].res, tc.script[i].err
			})
			var starts []kernel.Time
			var errs []error
			c = controller.New(k, "retry", r, controller.Options{Observer: func(o controller.Observation) {
				starts = append(starts, kernel.FromWall(o.Start))
				errs = append(errs, o.Err)
				if o.Controller != "retry" || o.Request != req("x") || o.End.Before(o.Start) {
					t.Errorf("observation %+v", o)
				}
			}})
			c.Start()
			c.Enqueue(req("x"))
			k.Run(kernel.Limits{Until: kernel.Time(10 * time.Minute)})
			var gaps []time.Duration
			for i := 1; i < len(starts); i++ {
				gaps = append(gaps, starts[i].Sub(starts[i-1]))
			}
			if !slices.Equal(gaps, tc.wantGaps) {
				t.Errorf("gaps between reconciles %v, want %v", gaps, tc.wantGaps)
			}
			got := c.Metrics()
			got.Queue = controller.Metrics{}.Queue
			if got != tc.want {
				t.Errorf("metrics %+v, want %+v", got, tc.want)
			}
			for _, err := range errs {
				// The error names the panic and the frames that raised it,
				// innermost first, without the runtime's.
				var pe *controller.PanicError
				if err != nil && tc.want.Panics > 0 && (!errors.As(err, &pe) || pe.Controller != "retry" ||
					err.Error() != "panic: reconciler bug [recovered] (at controller_test.TestRetryTiming.func1.1 <- controller.ReconcilerFunc.Reconcile <- controller.(*Controller).reconcile)") {
					t.Errorf("recovered panic error %q", err)
				}
			}
		})
	}
}

// TestKillIsNotRecovered stops a controller while its reconciler is
// blocked: the worker must die (the kill sentinel passes through the
// panic recovery), with no panic counted and no reconcile observed.
func TestKillIsNotRecovered(t *testing.T) {
	k := kernel.New(1)
	clock := client.NewClock(k)
	cleaned := false
	r := controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
		defer func() { cleaned = true }()
		clock.Sleep(time.Hour)
		t.Error("reconciler ran on after its worker was killed")
		return controller.Result{}, nil
	})
	observed := 0
	c := controller.New(k, "victim", r, controller.Options{Workers: 2, Observer: func(controller.Observation) { observed++ }})
	c.Start()
	c.Enqueue(req("x"))
	k.At(kernel.Time(time.Second), c.Stop)
	k.Run(kernel.Limits{})
	m := c.Metrics()
	if !cleaned || k.Live() != 0 || m.Panics != 0 || m.Reconciles != 0 || observed != 0 {
		t.Errorf("after Stop: cleaned=%v live=%d metrics %+v observed %d; want the worker unwound and nothing counted",
			cleaned, k.Live(), m, observed)
	}
}

func TestMapFuncs(t *testing.T) {
	yes, no := true, false
	owned := func(refs ...api.OwnerReference) api.Object {
		return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "prod", Name: "web-1", OwnerReferences: refs}}
	}
	tests := []struct {
		name string
		fn   controller.MapFunc
		obj  api.Object
		want []controller.Request
	}{
		{"object", controller.EnqueueObject(), owned(), []controller.Request{{Key: api.Key{Namespace: "prod", Name: "web-1"}}}},
		{"cluster-scoped object", controller.EnqueueObject(), &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}},
			[]controller.Request{{Key: api.Key{Name: "n1"}}}},
		{"controller owner", controller.EnqueueOwner(api.KindReplicaSet),
			owned(api.OwnerReference{Kind: "ReplicaSet", Name: "other", Controller: &no}, api.OwnerReference{Kind: "ReplicaSet", Name: "web", Controller: &yes}),
			[]controller.Request{{Key: api.Key{Namespace: "prod", Name: "web"}}}},
		{"owner of another kind", controller.EnqueueOwner(api.KindDeployment),
			owned(api.OwnerReference{Kind: "ReplicaSet", Name: "web", Controller: &yes}), nil},
		{"no controller", controller.EnqueueOwner(api.KindReplicaSet),
			owned(api.OwnerReference{Kind: "ReplicaSet", Name: "web"}), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.fn(tc.obj); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestTerminalError(t *testing.T) {
	err := controller.TerminalError(errBoom)
	wrapped := fmt.Errorf("syncing: %w", err)
	if !errors.Is(wrapped, controller.ErrTerminal) || !errors.Is(wrapped, errBoom) {
		t.Errorf("errors.Is: terminal %v, cause %v; want both", errors.Is(wrapped, controller.ErrTerminal), errors.Is(wrapped, errBoom))
	}
	if errors.Is(errBoom, controller.ErrTerminal) {
		t.Error("a plain error matches ErrTerminal")
	}
	if got := err.Error(); got != "terminal error: boom" {
		t.Errorf("Error() = %q", got)
	}
	if got := controller.TerminalError(nil).Error(); got != "terminal error" {
		t.Errorf("TerminalError(nil).Error() = %q", got)
	}
}
