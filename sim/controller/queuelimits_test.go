package controller_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/workqueue"
)

// TestManagerQueueLimits: a manager's QueueLimits replace the fields
// they set of each controller's own retry limits (client-go's default, or
// the controller's Options.Limits), and a controller that brings a rate
// limiter of its own is refused rather than left unlimited by them.
func TestManagerQueueLimits(t *testing.T) {
	failing := errors.New("always")
	own := workqueue.Limits{BaseDelay: time.Second, MaxDelay: 4 * time.Second}
	for _, tc := range []struct {
		name    string
		queue   workqueue.Limits
		opts    controller.Options
		want    []time.Duration // gaps between the reconciles of the failing request; 0: not checked
		wantErr error
	}{
		{"client-go's default", workqueue.Limits{}, controller.Options{},
			[]time.Duration{5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond}, nil},
		{"the controller's own", workqueue.Limits{}, controller.Options{Limits: &own},
			[]time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second}, nil},
		{"the manager's over the default", workqueue.Limits{BaseDelay: 3 * time.Second, MaxDelay: 3 * time.Second}, controller.Options{},
			[]time.Duration{3 * time.Second, 3 * time.Second, 3 * time.Second, 3 * time.Second}, nil},
		{"the manager's cap over the controller's own", workqueue.Limits{MaxDelay: 2 * time.Second}, controller.Options{Limits: &own},
			[]time.Duration{time.Second, 2 * time.Second, 2 * time.Second, 2 * time.Second}, nil},
		// The bucket's token a retry: its wait wins over the item's 1ms
		// once the one token of its burst is spent (the second retry's
		// wait is what the token left of 2s after 1ms: 0 below, not
		// checked).
		{"a bucket the manager adds", workqueue.Limits{QPS: 0.5, Burst: 1}, controller.Options{Limits: &workqueue.Limits{BaseDelay: time.Millisecond, MaxDelay: time.Millisecond}},
			[]time.Duration{time.Millisecond, 0, 2 * time.Second, 2 * time.Second}, nil},
		{"the manager's cap below the controller's own first delay", workqueue.Limits{MaxDelay: 500 * time.Millisecond}, controller.Options{Limits: &own}, nil, workqueue.ErrCapBelowBase},
		{"a limiter of its own", workqueue.Limits{BaseDelay: time.Second},
			controller.Options{RateLimiter: workqueue.NewItemFastSlowRateLimiter[controller.Request](time.Second, time.Minute, 3)}, nil, controller.ErrOwnRateLimiter},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 1)
			var at []time.Duration
			m := controller.NewManager(h.k, h.tr, "mgr", system, func(m *controller.Manager) error {
				c, err := m.NewController("fail", tc.opts, controller.ReconcilerFunc(func(context.Context, controller.Request) (controller.Result, error) {
					at = append(at, h.k.Now().Duration())
					return controller.Result{}, failing
				}))
				if err != nil {
					return err
				}
				c.Enqueue(controller.Request{Key: api.Key{Namespace: "default", Name: "x"}})
				return nil
			})
			m.SetOptions(controller.ManagerOptions{QueueLimits: tc.queue})
			if err := m.Start(); !errors.Is(err, tc.wantErr) {
				t.Fatalf("Start = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr != nil {
				return
			}
			h.runUntil(20 * time.Second)
			if len(at) < len(tc.want)+1 {
				t.Fatalf("reconciles at %v: too few", at)
			}
			for i, want := range tc.want {
				if got := at[i+1] - at[i]; want != 0 && got != want {
					t.Errorf("retry %d after %v, want %v (reconciles at %v)", i+1, got, want, at)
				}
			}
		})
	}
}
