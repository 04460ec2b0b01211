package hpa

import (
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// The tables below port upstream's horizontal_test.go normalization tests,
// with time.Now() replaced by a fixed instant.

func scalingRules(pods, podsPeriod, percent, percentPeriod, window int32) *api.HPAScalingRules {
	sel := api.MaxChangePolicySelect
	r := &api.HPAScalingRules{StabilizationWindowSeconds: new32(window), SelectPolicy: &sel}
	if pods != 0 {
		r.Policies = append(r.Policies, api.HPAScalingPolicy{Type: api.PodsScalingPolicy, Value: pods, PeriodSeconds: podsPeriod})
	}
	if percent != 0 {
		r.Policies = append(r.Policies, api.HPAScalingPolicy{Type: api.PercentScalingPolicy, Value: percent, PeriodSeconds: percentPeriod})
	}
	return r
}

// uniformEvents spreads events evenly over the last periodSeconds, each in
// the middle of its segment (upstream's generateEventsUniformDistribution).
func uniformEvents(raw []int, periodSeconds int) []scaleEvent {
	out := make([]scaleEvent, len(raw))
	seg := float64(periodSeconds) / float64(len(raw))
	for i, e := range raw {
		boundary := time.Duration(float64(periodSeconds) - seg*float64(i+1) + seg/2)
		out[i] = scaleEvent{change: int32(e), at: testNow.Add(-time.Second * boundary)}
	}
	return out
}

func TestConvertWithRules(t *testing.T) {
	cases := []struct {
		name                       string
		current, desired, min, max int32
		want                       int32
		reason                     string
	}{
		{"prenormalized desired replicas within range", 5, 7, 3, 8, 7, ReasonDesiredWithinRange},
		{"prenormalized desired replicas < minReplicas", 3, 1, 2, 8, 2, ReasonTooFewReplicas},
		{"prenormalized desired zeroed replicas within range", 1, 0, 0, 10, 0, ReasonDesiredWithinRange},
		{"maxReplicas is the limit because maxReplicas < scaleUpLimit", 20, 1000, 1, 10, 10, ReasonTooManyReplicas},
		{"scaleUpLimit is the limit because scaleUpLimit < maxReplicas", 3, 1000, 1, 2000, 6, ReasonScaleUpLimit},
		{"scaleUpLimit floor of 4", 1, 7, 1, 10, 4, ReasonScaleUpLimit},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, reason, _ := convertWithRules(tc.current, tc.desired, tc.min, tc.max)
			if got != tc.want || reason != tc.reason {
				t.Errorf("got %d %s, want %d %s", got, reason, tc.want, tc.reason)
			}
		})
	}
}

func TestStabilize(t *testing.T) {
	ago := func(d time.Duration) time.Time { return testNow.Add(-d) }
	cases := []struct {
		name    string
		recs    []recommendation
		desired int32
		want    int32
		logLen  int
	}{
		{"empty log", nil, 5, 5, 1},
		{"stabilize", []recommendation{{4, ago(2 * time.Minute)}, {5, ago(time.Minute)}}, 3, 5, 3},
		{"no stabilize", []recommendation{{1, ago(2 * time.Minute)}, {2, ago(time.Minute)}}, 3, 3, 3},
		{"no stabilize - old recommendations", []recommendation{{10, ago(10 * time.Minute)}, {9, ago(9 * time.Minute)}}, 3, 3, 2},
		{"stabilize - old recommendations", []recommendation{{10, ago(10 * time.Minute)}, {4, ago(time.Minute)}, {5, ago(2 * time.Minute)}, {9, ago(9 * time.Minute)}}, 3, 5, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHistory(5 * time.Minute)
			h.recommendations["k"] = tc.recs
			if got := h.stabilize("k", tc.desired, testNow); got != tc.want {
				t.Errorf("stabilized %d, want %d", got, tc.want)
			}
			if n := len(h.recommendations["k"]); n != tc.logLen {
				t.Errorf("log has %d entries, want %d", n, tc.logLen)
			}
		})
	}
}

func TestScalingWithRules(t *testing.T) {
	cases := []struct {
		name             string
		upEvents         []scaleEvent
		downEvents       []scaleEvent
		min, max         int32
		up, down         *api.HPAScalingRules
		current, desired int32
		want             int32
		reason           string
	}{
		{name: "prenormalized desired replicas within range", current: 5, desired: 7, min: 3, max: 8, want: 7, reason: "DesiredWithinRange"},
		{name: "prenormalized desired replicas < minReplicas", current: 3, desired: 1, min: 2, max: 8, want: 2, reason: "TooFewReplicas"},
		{name: "prenormalized desired replicas within range when minReplicas is 0", current: 1, desired: 0, min: 0, max: 10, want: 0, reason: "DesiredWithinRange"},
		{name: "maxReplicas is the limit because maxReplicas < scaleUpLimit", current: 20, desired: 1000, min: 1, max: 10, want: 10, reason: "TooManyReplicas"},
		{name: "desired replica count is more than the maximum replica count", current: 100, desired: 1000, min: 100, max: 150, want: 150, reason: "TooManyReplicas"},
		{name: "scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies", current: 3, desired: 1000, min: 1, max: 2000, up: scalingRules(0, 0, 1, 60, 0), want: 4, reason: "ScaleUpLimit"},
		{name: "scaleDownLimit is the limit because scaleDownLimit > minReplicas with user defined policies", current: 1000, desired: 3, min: 3, max: 2000, down: scalingRules(20, 60, 0, 0, 0), want: 980, reason: "ScaleDownLimit"},
		{name: "scaleUp with default behavior", min: 1, max: 1000, current: 10, desired: 50, want: 20, reason: "ScaleUpLimit"},
		{name: "scaleUp with pods policy larger than percent policy", min: 1, max: 1000, up: scalingRules(100, 60, 100, 60, 0), current: 10, desired: 500, want: 110, reason: "ScaleUpLimit"},
		{name: "scaleUp with percent policy larger than pods policy", min: 1, max: 1000, up: scalingRules(2, 60, 100, 60, 0), current: 10, desired: 500, want: 20, reason: "ScaleUpLimit"},
		{name: "scaleUp with spec MaxReplicas limitation with large pod policy", min: 1, max: 1000, up: scalingRules(100, 60, 0, 0, 0), current: 10, desired: 50, want: 50, reason: "DesiredWithinRange"},
		{name: "scaleUp with spec MaxReplicas limitation with large percent policy", min: 1, max: 1000, up: scalingRules(10000, 60, 0, 0, 0), current: 10, desired: 50, want: 50, reason: "DesiredWithinRange"},
		{name: "scaleUp with pod policy limitation", min: 1, max: 1000, up: scalingRules(30, 60, 0, 0, 0), current: 10, desired: 50, want: 40, reason: "ScaleUpLimit"},
		{name: "scaleUp with percent policy limitation", min: 1, max: 1000, up: scalingRules(0, 0, 200, 60, 0), current: 10, desired: 50, want: 30, reason: "ScaleUpLimit"},
		{name: "scaleDown with percent policy larger than pod policy", min: 1, max: 1000, down: scalingRules(20, 60, 1, 60, 300), current: 100, desired: 2, want: 80, reason: "ScaleDownLimit"},
		{name: "scaleDown with pod policy larger than percent policy", min: 1, max: 1000, down: scalingRules(2, 60, 1, 60, 300), current: 100, desired: 2, want: 98, reason: "ScaleDownLimit"},
		{name: "scaleDown with spec MinReplicas=nil limitation with large pod policy", min: 1, max: 1000, down: scalingRules(100, 60, 0, 0, 300), current: 10, desired: 0, want: 1, reason: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large pod policy", min: 1, max: 1000, down: scalingRules(100, 60, 0, 0, 300), current: 10, desired: 0, want: 1, reason: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large percent policy", min: 5, max: 1000, down: scalingRules(0, 0, 100, 60, 300), current: 10, desired: 2, want: 5, reason: "TooFewReplicas"},
		{name: "scaleDown with pod policy limitation", min: 1, max: 1000, down: scalingRules(5, 60, 0, 0, 300), current: 10, desired: 2, want: 5, reason: "ScaleDownLimit"},
		{name: "scaleDown with percent policy limitation", min: 1, max: 1000, down: scalingRules(0, 0, 50, 60, 300), current: 10, desired: 5, want: 5, reason: "DesiredWithinRange"},
		{name: "scaleUp with spec MaxReplicas limitation with large pod policy and events", upEvents: uniformEvents([]int{1, 5, 9}, 120), min: 1, max: 200,
			up: scalingRules(300, 60, 0, 0, 0), current: 100, desired: 500, want: 200, reason: "TooManyReplicas"},
		{name: "scaleUp with spec MaxReplicas limitation with large percent policy and events", upEvents: uniformEvents([]int{1, 5, 9}, 120), min: 1, max: 200,
			up: scalingRules(0, 0, 10000, 60, 0), current: 100, desired: 500, want: 200, reason: "TooManyReplicas"},
		{name: "scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up events", upEvents: uniformEvents([]int{1, 5, 9}, 120), min: 1, max: 1000,
			up: scalingRules(5, 120, 0, 0, 0), current: 100, desired: 500, want: 100, reason: "ScaleUpLimit"},
		{name: "scaleUp with pod policy and previous scale up events", upEvents: uniformEvents([]int{1, 5, 9}, 120), min: 1, max: 1000,
			up: scalingRules(150, 120, 0, 0, 0), current: 100, desired: 500, want: 235, reason: "ScaleUpLimit"},
		{name: "scaleUp with percent policy and previous scale up events", upEvents: uniformEvents([]int{1, 5, 9}, 120), min: 1, max: 1000,
			up: scalingRules(0, 0, 200, 120, 0), current: 100, desired: 500, want: 255, reason: "ScaleUpLimit"},
		// Events of both directions within the period set its starting
		// count: 6 - 4 + 2 = 4, and 300% of 4 more makes 16.
		{name: "scaleUp with percent policy and previous scale up and down events", upEvents: uniformEvents([]int{4}, 120), downEvents: uniformEvents([]int{2}, 120),
			min: 1, max: 1000, up: scalingRules(0, 0, 300, 300, 0), current: 6, desired: 24, want: 16, reason: "ScaleUpLimit"},
		{name: "scaleDown with default policy and previous events", downEvents: uniformEvents([]int{1, 5, 9}, 120), min: 1, max: 1000,
			current: 10, desired: 5, want: 5, reason: "DesiredWithinRange"},
		{name: "scaleDown with spec MinReplicas=nil limitation with large pod policy and previous events", downEvents: uniformEvents([]int{1, 5, 9}, 120), min: 1, max: 1000,
			down: scalingRules(115, 120, 0, 0, 300), current: 100, desired: 0, want: 1, reason: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large pod policy and previous events", downEvents: uniformEvents([]int{1, 5, 9}, 120), min: 5, max: 1000,
			down: scalingRules(130, 120, 0, 0, 300), current: 100, desired: 0, want: 5, reason: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large percent policy and previous events", downEvents: uniformEvents([]int{1, 5, 9}, 120), min: 5, max: 1000,
			down: scalingRules(0, 0, 100, 120, 300), current: 100, desired: 2, want: 5, reason: "TooFewReplicas"},
		{name: "scaleDown with pod policy limitation and previous events", downEvents: uniformEvents([]int{1, 5, 9}, 120), min: 1, max: 1000,
			down: scalingRules(5, 120, 0, 0, 300), current: 100, desired: 2, want: 100, reason: "ScaleDownLimit"},
		{name: "scaleDown with percent policy limitation and previous events", downEvents: uniformEvents([]int{2, 4, 6}, 120), min: 1, max: 1000,
			down: scalingRules(0, 0, 50, 120, 300), current: 100, desired: 0, want: 56, reason: "ScaleDownLimit"},
		// 10 - 2 + 4 = 12 at the period's start, less 50%: 6.
		{name: "scaleDown with percent policy and previous scale up and down events", upEvents: uniformEvents([]int{2}, 120), downEvents: uniformEvents([]int{4}, 120),
			min: 1, max: 1000, down: scalingRules(0, 0, 50, 180, 0), current: 10, desired: 1, want: 6, reason: "ScaleDownLimit"},
		{name: "scaleDown with previous events preventing further scale down", downEvents: uniformEvents([]int{10, 10, 10}, 120), min: 1, max: 1000,
			down: scalingRules(0, 0, 10, 120, 300), current: 100, desired: 0, want: 100, reason: "ScaleDownLimit"},
		{name: "scaleDown with with previous events still allowing more scale down", downEvents: uniformEvents([]int{10, 10, 10}, 120), min: 1, max: 1000,
			down: scalingRules(0, 0, 1000, 120, 300), current: 10, desired: 5, want: 5, reason: "DesiredWithinRange"},
		{name: "check 'outdated' flag for events for one behavior for up", upEvents: uniformEvents([]int{8, 12, 9, 11}, 120), min: 1, max: 1000,
			up: scalingRules(1000, 60, 0, 0, 0), current: 100, desired: 200, want: 200, reason: "DesiredWithinRange"},
		{name: "check that events were not marked 'outdated' for two different policies in the behavior for up", upEvents: uniformEvents([]int{8, 12, 9, 11}, 120), min: 1, max: 1000,
			up: scalingRules(1000, 120, 100, 60, 0), current: 100, desired: 200, want: 200, reason: "DesiredWithinRange"},
		{name: "check that events were marked 'outdated' for two different policies in the behavior for up", upEvents: uniformEvents([]int{8, 12, 9, 11}, 120), min: 1, max: 1000,
			up: scalingRules(1000, 30, 100, 60, 0), current: 100, desired: 200, want: 200, reason: "DesiredWithinRange"},
		{name: "check 'outdated' flag for events for one behavior for down", downEvents: uniformEvents([]int{8, 12, 9, 11}, 120), min: 1, max: 1000,
			down: scalingRules(1000, 60, 0, 0, 300), current: 100, desired: 5, want: 5, reason: "DesiredWithinRange"},
		{name: "check that events were not marked 'outdated' for two different policies in the behavior for down", downEvents: uniformEvents([]int{8, 12, 9, 11}, 120), min: 1, max: 1000,
			down: scalingRules(1000, 120, 100, 60, 300), current: 100, desired: 5, want: 5, reason: "DesiredWithinRange"},
		{name: "check that events were marked 'outdated' for two different policies in the behavior for down", downEvents: uniformEvents([]int{8, 12, 9, 11}, 120), min: 1, max: 1000,
			down: scalingRules(1000, 30, 100, 60, 300), current: 100, desired: 5, want: 5, reason: "DesiredWithinRange"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHistory(5 * time.Minute)
			h.scaleUpEvents["k"] = tc.upEvents
			h.scaleDownEvents["k"] = tc.downEvents
			b := completeBehavior(&api.HorizontalPodAutoscalerBehavior{ScaleUp: tc.up, ScaleDown: tc.down}, 5*time.Minute)
			got, reason, _ := h.convertWithBehaviorRate(normalizationArg{
				key: "k", scaleUp: b.ScaleUp, scaleDown: b.ScaleDown, minReplicas: tc.min, maxReplicas: tc.max,
				currentReplicas: tc.current, desired: tc.desired,
			}, testNow)
			if got != tc.want || reason != tc.reason {
				t.Errorf("got %d %s, want %d %s", got, reason, tc.want, tc.reason)
			}
		})
	}
}

func TestScaleLimitsWithMinPolicy(t *testing.T) {
	minSel := api.MinChangePolicySelect
	rules := &api.HPAScalingRules{SelectPolicy: &minSel, Policies: []api.HPAScalingPolicy{
		{Type: api.PodsScalingPolicy, Value: 2, PeriodSeconds: 60},
		{Type: api.PercentScalingPolicy, Value: 50, PeriodSeconds: 60},
	}}
	if got := scaleUpLimitWithRules(1, nil, nil, rules, testNow); got != 2 {
		t.Errorf("scale-up limit = %d, want 2", got)
	}
	if got := scaleDownLimitWithRules(5, nil, nil, rules, testNow); got != 3 {
		t.Errorf("scale-down limit = %d, want 3", got)
	}
	disabled := api.DisabledPolicySelect
	off := &api.HPAScalingRules{SelectPolicy: &disabled, Policies: rules.Policies}
	if got := scaleUpLimitWithRules(7, nil, nil, off, testNow); got != 7 {
		t.Errorf("disabled scale-up limit = %d, want 7", got)
	}
	if got := scaleDownLimitWithRules(7, nil, nil, off, testNow); got != 7 {
		t.Errorf("disabled scale-down limit = %d, want 7", got)
	}
}

func TestStoreScaleEvents(t *testing.T) {
	ago := func(s int) time.Time { return testNow.Add(-time.Duration(s) * time.Second) }
	cases := []struct {
		name       string
		change     int32
		prev       []scaleEvent
		want       []scaleEvent // changes and outdated flags
		rules      *api.HPAScalingRules
		prevChange int32
	}{
		{name: "empty entries with default behavior", change: 5, want: nil},
		{name: "empty entries with two-policy-behavior", change: 5, want: []scaleEvent{{change: 5}}, rules: scalingRules(10, 60, 100, 60, 0)},
		{name: "one outdated entry to be kept untouched without behavior", change: 5, prev: []scaleEvent{{7, ago(61), false}}, want: []scaleEvent{{change: 7}}},
		{name: "one outdated entry to be replaced with behavior", change: 5, prev: []scaleEvent{{7, ago(61), false}}, want: []scaleEvent{{change: 5}}, rules: scalingRules(10, 60, 100, 60, 0)},
		{name: "one actual entry to be not touched with behavior", change: 5, prev: []scaleEvent{{7, ago(58), false}}, want: []scaleEvent{{change: 7}, {change: 5}},
			rules: scalingRules(10, 60, 100, 60, 0), prevChange: 7},
		{name: "two entries, one of them to be replaced", change: 5, prev: []scaleEvent{{7, ago(61), false}, {6, ago(59), false}},
			want: []scaleEvent{{change: 5}, {change: 6}}, rules: scalingRules(10, 60, 0, 0, 0), prevChange: 6},
		{name: "replace one entry, use policies with different periods", change: 5,
			prev: []scaleEvent{{8, ago(29), false}, {6, ago(59), false}, {7, ago(61), false}, {9, ago(61), false}},
			want: []scaleEvent{{change: 8}, {change: 6}, {change: 7, outdated: true}, {change: 5}}, rules: scalingRules(10, 60, 100, 30, 0), prevChange: 14},
		{name: "two entries, both actual", change: 5, prev: []scaleEvent{{7, ago(58), false}, {6, ago(59), false}},
			want: []scaleEvent{{change: 7}, {change: 6}, {change: 5}}, rules: scalingRules(10, 120, 100, 30, 0), prevChange: 13},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, up := range []bool{true, false} {
				h := newHistory(5 * time.Minute)
				var b *api.HorizontalPodAutoscalerBehavior
				events := h.scaleDownEvents
				next := 10 - tc.change
				if up {
					events, next = h.scaleUpEvents, 10+tc.change
				}
				events["k"] = append([]scaleEvent(nil), tc.prev...)
				if got := replicasChangePerPeriod(60, events["k"], testNow); got != tc.prevChange {
					t.Errorf("up=%v: change in the last 60s = %d, want %d", up, got, tc.prevChange)
				}
				if tc.rules != nil {
					b = &api.HorizontalPodAutoscalerBehavior{ScaleUp: tc.rules, ScaleDown: tc.rules}
				}
				h.storeScaleEvent(b, "k", 10, next, testNow)
				got := events["k"]
				if len(got) != len(tc.want) {
					t.Fatalf("up=%v: events %v, want %v", up, got, tc.want)
				}
				for i := range got {
					if got[i].change != tc.want[i].change || got[i].outdated != tc.want[i].outdated {
						t.Errorf("up=%v: event %d = %+v, want %+v", up, i, got[i], tc.want[i])
					}
				}
			}
		})
	}
}

func TestStabilizeWithBehaviors(t *testing.T) {
	ago := func(d time.Duration) time.Time { return testNow.Add(-d) }
	cases := []struct {
		name               string
		recs               []recommendation
		current, desired   int32
		want               int32
		wantLog            []int32
		upWindow, downWind int32
	}{
		{"empty recommendations for scaling down", nil, 100, 5, 5, []int32{5}, 0, 0},
		{"simple scale down stabilization", []recommendation{{4, ago(2 * time.Minute)}, {5, ago(time.Minute)}}, 100, 3, 5, []int32{4, 5, 3}, 0, 180},
		{"simple scale up stabilization", []recommendation{{4, ago(2 * time.Minute)}, {5, ago(time.Minute)}}, 1, 7, 4, []int32{4, 5, 7}, 300, 0},
		{"no scale down stabilization", []recommendation{{1, ago(2 * time.Minute)}, {2, ago(time.Minute)}}, 100, 3, 3, []int32{1, 2, 3}, 300, 0},
		{"no scale up stabilization", []recommendation{{4, ago(2 * time.Minute)}, {5, ago(time.Minute)}}, 1, 3, 3, []int32{4, 5, 3}, 0, 300},
		{"no scale down stabilization, reuse recommendation element", []recommendation{{10, ago(10 * time.Minute)}, {9, ago(9 * time.Minute)}}, 100, 3, 3, []int32{10, 3}, 0, 0},
		{"no scale up stabilization, reuse recommendation element", []recommendation{{10, ago(10 * time.Minute)}, {9, ago(9 * time.Minute)}}, 1, 100, 100, []int32{10, 100}, 0, 0},
		{"scale down stabilization, reuse one of obsolete recommendation element",
			[]recommendation{{10, ago(10 * time.Minute)}, {4, ago(time.Minute)}, {5, ago(2 * time.Minute)}, {9, ago(9 * time.Minute)}}, 100, 3, 5, []int32{10, 4, 5, 3}, 0, 180},
		{"scale up stabilization, reuse one of obsolete recommendation element",
			[]recommendation{{10, ago(100 * time.Minute)}, {6, ago(time.Minute)}, {5, ago(2 * time.Minute)}, {9, ago(3 * time.Minute)}}, 1, 100, 5, []int32{100, 6, 5, 9}, 300, 0},
		{"scale up and down stabilization, do not scale up when prenormalized rec goes down",
			[]recommendation{{2, ago(100 * time.Minute)}, {3, ago(3 * time.Minute)}}, 2, 1, 2, []int32{1, 3}, 300, 300},
		{"scale up and down stabilization, do not scale down when prenormalized rec goes up",
			[]recommendation{{2, ago(100 * time.Minute)}, {1, ago(3 * time.Minute)}}, 2, 3, 2, []int32{3, 1}, 300, 300},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHistory(5 * time.Minute)
			h.recommendations["k"] = tc.recs
			got, _, _ := h.stabilizeWithBehaviors(normalizationArg{
				key: "k", desired: tc.desired, currentReplicas: tc.current,
				scaleUp:   &api.HPAScalingRules{StabilizationWindowSeconds: new32(tc.upWindow)},
				scaleDown: &api.HPAScalingRules{StabilizationWindowSeconds: new32(tc.downWind)},
			}, testNow)
			if got != tc.want {
				t.Errorf("stabilized %d, want %d", got, tc.want)
			}
			log := h.recommendations["k"]
			if len(log) != len(tc.wantLog) {
				t.Fatalf("log %v, want %v", log, tc.wantLog)
			}
			for i, r := range log {
				if r.replicas != tc.wantLog[i] {
					t.Errorf("log[%d] = %d, want %d", i, r.replicas, tc.wantLog[i])
				}
			}
		})
	}
}

// TestTolerances checks the per-direction tolerance window.
func TestTolerances(t *testing.T) {
	cases := []struct {
		tol    tolerances
		ratio  float64
		within bool
	}{
		{tolerances{0.1, 0.1}, 1.1, true},
		{tolerances{0.1, 0.1}, 1.11, false},
		{tolerances{0.1, 0.1}, 0.9, true},
		{tolerances{0.1, 0.1}, 0.89, false},
		{tolerances{0.5, 0.01}, 0.6, true},
		{tolerances{0.5, 0.01}, 1.02, false},
	}
	for _, tc := range cases {
		if got := tc.tol.within(tc.ratio); got != tc.within {
			t.Errorf("%+v.within(%v) = %v, want %v", tc.tol, tc.ratio, got, tc.within)
		}
	}
}
