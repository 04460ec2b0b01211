package main

import (
	"errors"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/kernel"
)

// TestWatch: the watchdog ends a run whose simulation makes no progress
// for its budget of wall-clock time, names where it stopped, and leaves
// alone a run that keeps firing events however long it takes, and a run
// that takes its time after the simulation finished (a large run's
// results and detectors, which fire no event).
func TestWatch(t *testing.T) {
	// Long enough that a loaded machine's scheduling does not look like
	// a stall (a quarter of it between two published counts leaves three
	// quarters to spare); the slow cases take two budgets.
	const stall = time.Second
	tests := []struct {
		name    string
		run     func(p *kernel.Progress, release <-chan struct{})
		stalled bool
	}{
		{"frozen", func(p *kernel.Progress, release <-chan struct{}) {
			<-release // a reconciler that never yields
		}, true},
		{"slow but firing events", func(p *kernel.Progress, _ <-chan struct{}) {
			k := kernel.New(1)
			k.SetProgress(p)
			var tick kernel.Handler
			n := 0
			tick = kernel.Func(func() {
				// The kernel publishes its count every 1,024 events:
				// a quarter of the budget between two, 2 budgets in
				// all.
				if n++; n%1024 == 0 {
					time.Sleep(stall / 4)
				}
				if n < 8*1024 {
					k.After(time.Millisecond, tick, 0)
				}
			})
			k.After(0, tick, 0)
			k.Run(kernel.Limits{})
		}, false},
		{"slow after finishing", func(p *kernel.Progress, _ <-chan struct{}) {
			p.Finish()
			time.Sleep(2 * stall)
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			defer close(release)
			want := &runner.Result{}
			res, err := watch(stall, func(p *kernel.Progress) (*runner.Result, error) {
				tc.run(p, release)
				return want, nil
			})
			var stalled *stallError
			switch {
			case tc.stalled && !errors.As(err, &stalled):
				t.Fatalf("watch = %v, %v; want a stall", res, err)
			case tc.stalled:
				if msg := err.Error(); msg == "" || stalled.stall != stall {
					t.Fatalf("stall error %q (budget %v)", msg, stalled.stall)
				}
			case err != nil || res != want:
				t.Fatalf("watch = %v, %v; want the run's result", res, err)
			}
		})
	}
}
