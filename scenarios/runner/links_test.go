package runner_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/scenarios/runner"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/netsim"
)

// linkLayers: the Deployment controller's link to the API server has a
// rule of its own (5ms both ways); the rows add network steps and faults.
const linkLayers = `apiVersion: clustersim.dev/v1alpha1
kind: Scenario
metadata: {name: link-layers}
spec:
  duration: 8m
  cluster:
    nodeGroups:
    - {name: worker, count: 1, capacity: {cpu: "4", memory: 8Gi}}
  network:
    default: {latency: 1ms}
    links:
    - {from: controller/deployment, to: apiserver, both: true, latency: 5ms}
  faults:
    target: deployment
    schedule:
FAULTS
  timeline:
STEPS
`

// TestLinkLayers checks that network steps and a fault profile's link
// faults on the same link share one base: at every instant the link is
// the scenario's rule, then the steps in force, then the faults in force,
// whichever ends first and however they overlap.
func TestLinkLayers(t *testing.T) {
	type want struct {
		at      time.Duration
		reverse bool // apiserver -> controller/deployment
		drop    float64
		latency time.Duration
		brk     float64
	}
	const ms = time.Millisecond
	min := func(m float64) time.Duration { return time.Duration(m * float64(time.Minute)) }
	for _, tc := range []struct {
		name          string
		faults, steps []string
		want          []want
	}{
		{
			name:   "fault starts before the step and ends inside it",
			faults: []string{"{at: 1m, for: 2m, type: lossy, drop: 0.2}"},
			steps:  []string{"{at: 2m, network: {from: controller/deployment, to: apiserver, link: {drop: 1}, until: 5m}}"},
			want: []want{
				{at: min(0.5), latency: 5 * ms},
				{at: min(1.5), drop: 0.2, latency: 5 * ms},
				{at: min(1.5), reverse: true, drop: 0.2, latency: 5 * ms},
				{at: min(2.5), drop: 1, latency: 5 * ms},
				{at: min(2.5), reverse: true, drop: 0.2, latency: 5 * ms},
				{at: min(4), drop: 1, latency: 5 * ms},
				{at: min(4), reverse: true, latency: 5 * ms},
				{at: min(6), latency: 5 * ms},
			},
		},
		{
			name:   "step starts before the fault and ends inside it",
			faults: []string{"{at: 3m, for: 3m, type: lossy, drop: 0.2}"},
			steps:  []string{"{at: 2m, network: {from: controller/deployment, to: apiserver, link: {drop: 1}, until: 5m}}"},
			want: []want{
				{at: min(2.5), drop: 1, latency: 5 * ms},
				{at: min(4), drop: 1, latency: 5 * ms},
				{at: min(5.5), drop: 0.2, latency: 5 * ms},
				{at: min(7), latency: 5 * ms},
			},
		},
		{
			name:   "a step without end outlasts a fault",
			faults: []string{"{at: 3m, for: 1m, type: lossy, drop: 0.2}"},
			steps:  []string{"{at: 2m, network: {from: controller/deployment, to: apiserver, link: {drop: 1}}}"},
			want: []want{
				{at: min(3.5), drop: 1, latency: 5 * ms},
				{at: min(5), drop: 1, latency: 5 * ms},
				{at: min(5), reverse: true, latency: 5 * ms},
			},
		},
		{
			name:   "a fault inside a step on another field",
			faults: []string{"{at: 2m, for: 1m, type: broken-watch, streamBreak: 0.5}"},
			steps:  []string{"{at: 1m, network: {from: controller/deployment, to: apiserver, both: true, link: {latency: 50ms}, until: 4m}}"},
			want: []want{
				{at: min(1.5), reverse: true, latency: 50 * ms},
				{at: min(2.5), reverse: true, latency: 50 * ms, brk: 0.5},
				{at: min(2.5), latency: 50 * ms},
				{at: min(3.5), reverse: true, latency: 50 * ms},
				{at: min(5), reverse: true, latency: 5 * ms},
			},
		},
		{
			name:   "two faults and two steps interleaved",
			faults: []string{"{at: 1m, for: 3m, type: lossy, drop: 0.3}", "{at: 3m, for: 3m, type: lossy, drop: 0.1}"},
			steps:  []string{"{at: 2m, network: {from: controller/deployment, to: apiserver, link: {drop: 0.5}, until: 5m}}", "{at: 4m30s, network: {from: controller/deployment, to: apiserver, link: {drop: 0}, until: 7m}}"},
			want: []want{
				{at: min(1.5), drop: 0.3, latency: 5 * ms},
				{at: min(2.5), drop: 0.5, latency: 5 * ms},
				{at: min(4.2), drop: 0.5, latency: 5 * ms},
				{at: min(4.7), drop: 0.1, latency: 5 * ms},
				{at: min(5.5), drop: 0.1, latency: 5 * ms},
				{at: min(6.5), latency: 5 * ms},
				{at: min(7.5), latency: 5 * ms},
			},
		},
		{
			name:   "nodes added under a fault",
			faults: []string{"{at: 1m, for: 4m, type: lossy, drop: 0.3}"},
			steps:  []string{"{at: 2m, addNodes: {group: worker, count: 1}}"},
			want: []want{
				{at: min(1.5), drop: 0.3, latency: 5 * ms},
				{at: min(3), drop: 0.3, latency: 5 * ms},
				{at: min(6), latency: 5 * ms},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(linkLayers, "FAULTS", "    - "+strings.Join(tc.faults, "\n    - "), 1)
			src = strings.Replace(src, "STEPS", "  - "+strings.Join(tc.steps, "\n  - "), 1)
			s, err := scenarios.Load("link-layers.yaml", ".", nil, []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			_, err = runner.Run(s, runner.Options{OnStart: func(c *cluster.Cluster) {
				for _, w := range tc.want {
					c.At(w.at, func() {
						d := [2]netsim.Addr{"controller/deployment", cluster.APIServerAddr}
						if w.reverse {
							d[0], d[1] = d[1], d[0]
						}
						l := c.Net.Link(d[0], d[1])
						if l.Drop != w.drop || l.Latency.Base != w.latency || l.StreamBreak != w.brk {
							got = append(got, fmt.Sprintf("at %v %s->%s: drop %g, latency %v, streamBreak %g; want %g, %v, %g", w.at, d[0], d[1], l.Drop, l.Latency.Base, l.StreamBreak, w.drop, w.latency, w.brk))
						}
					})
				}
			}})
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range got {
				t.Error(g)
			}
		})
	}
}
