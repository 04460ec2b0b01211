package runner_test

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/cluster"
)

// TestSimulatedHook: Run calls Options.Simulated once, when the clock
// stands at the run's end and before Finish gathers the result (the
// detectors run after it), and not at all when the run ends in an error
// (the events cap); clustersim run raises the collector's memory limit
// there.
func TestSimulatedHook(t *testing.T) {
	for _, tt := range []struct {
		name      string
		opts      runner.Options
		wantCalls int
		wantErr   bool
	}{
		{name: "to its end", opts: runner.Options{}, wantCalls: 1},
		{name: "stopped early", opts: runner.Options{Until: 90 * time.Second}, wantCalls: 1},
		{name: "events cap", opts: runner.Options{MaxEvents: 100}, wantErr: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := scenarios.Builtin("rolling-update")
			if err != nil {
				t.Fatal(err)
			}
			var c *cluster.Cluster
			var order []string
			var at time.Duration
			opts := tt.opts
			opts.OnStart = func(cl *cluster.Cluster) { c = cl }
			opts.Simulated = func() {
				order = append(order, "simulated")
				at = c.K.Now().Duration()
			}
			opts.Detect = func(*runner.Result) runner.Findings {
				order = append(order, "detect")
				return runner.Findings{}
			}
			res, err := runner.Run(s, opts)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want one: %v", err, tt.wantErr)
			}
			calls := 0
			for _, o := range order {
				if o == "simulated" {
					calls++
				}
			}
			if calls != tt.wantCalls {
				t.Fatalf("Simulated called %d times (%v), want %d", calls, order, tt.wantCalls)
			}
			if err != nil {
				return
			}
			if len(order) != 2 || order[0] != "simulated" || order[1] != "detect" {
				t.Errorf("calls %v, want Simulated before the detectors", order)
			}
			if at != res.Duration {
				t.Errorf("Simulated called at %v, want at the run's end %v", at, res.Duration)
			}
		})
	}
}
