package nodelifecycle

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

var t0 = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

func at(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

// TestTokenBucket checks the bucket against golang.org/x/time/rate's
// behaviour for client-go's token bucket limiter: full at the start,
// refilling at qps up to burst.
func TestTokenBucket(t *testing.T) {
	cases := []struct {
		name  string
		qps   float64
		burst int
		tries []float64 // seconds
		want  string    // one char per try: + accepted, - refused
	}{
		{"0.1 qps burst 1: one now, the next after 10s", 0.1, 1, []float64{0, 0, 5, 9.999, 10, 10, 20}, "+---+-+"},
		{"0.01 qps: one per 100s", 0.01, 1, []float64{0, 50, 99, 100, 150, 200}, "+--+-+"},
		{"burst 3", 1, 3, []float64{0, 0, 0, 0, 0.5, 1, 1}, "+++--+-"},
		{"idle time does not overfill", 0.1, 1, []float64{0, 100, 100}, "++-"},
		{"zero rate never accepts", 0, 1, []float64{0, 1000}, "--"},
		{"negative rate never accepts", -1, 1, []float64{0, 1000}, "--"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := newTokenBucket(tc.qps, tc.burst, t0)
			var got strings.Builder
			for _, s := range tc.tries {
				if b.tryAccept(at(s)) {
					got.WriteByte('+')
				} else {
					got.WriteByte('-')
				}
			}
			if got.String() != tc.want {
				t.Errorf("accepts %s, want %s", got.String(), tc.want)
			}
		})
	}
	b := newTokenBucket(0.1, 1, t0)
	b.tryAccept(t0)
	if next, ok := b.nextToken(at(4)); !ok || next.Sub(at(10)) < 0 || next.Sub(at(10)) > time.Microsecond {
		t.Errorf("next token at %v, want 10s", next.Sub(t0))
	}
	if _, ok := newTokenBucket(0, 1, t0).nextToken(t0); ok {
		t.Error("a zero-rate bucket promises a token")
	}
}

// TestTimedQueue ports the behaviours of upstream's
// rate_limited_queue_test.go: values are added once until removed,
// processed in due order as tokens allow, retried after their wait.
func TestTimedQueue(t *testing.T) {
	q := newTimedQueue(newTokenBucket(0.1, 1, t0))
	for i, v := range []string{"first", "second", "third"} {
		if !q.add(v, "uid", at(float64(i))) {
			t.Fatalf("add %s refused", v)
		}
	}
	if q.add("first", "uid", at(3)) {
		t.Fatal("a queued value was added twice")
	}
	var done []string
	process := func(now float64) {
		q.try(at(now), func(v timedValue) (bool, time.Duration) {
			done = append(done, v.value)
			return true, 0
		})
	}
	process(3)
	process(5)
	process(13)
	process(23)
	if got := strings.Join(done, ","); got != "first,second,third" {
		t.Fatalf("processed %s, want first,second,third (one per 10s)", got)
	}
	if len(done) != 3 || q.len() != 0 {
		t.Fatalf("queue not drained: %d left", q.len())
	}
	if q.add("first", "uid", at(30)) {
		t.Error("a processed value was added again before Remove")
	}
	if !q.remove("first") || !q.add("first", "uid", at(30)) {
		t.Error("a removed value could not be added again")
	}

	// A failed value is retried after its wait; values behind it wait.
	r := newTimedQueue(newTokenBucket(100, 1, t0))
	r.add("flaky", "", t0)
	r.add("ok", "", t0)
	tries := map[string]int{}
	fn := func(v timedValue) (bool, time.Duration) {
		tries[v.value]++
		return v.value != "flaky" || tries[v.value] > 1, time.Second
	}
	r.try(at(0), fn)
	if tries["flaky"] != 1 || tries["ok"] != 0 {
		t.Fatalf("tries %v: one token, one try", tries)
	}
	r.try(at(0.5), fn)
	if tries["ok"] != 1 || tries["flaky"] != 1 {
		t.Fatalf("tries %v: the retried value must wait its second", tries)
	}
	if next, ok := r.next(at(0.5)); !ok || next.Sub(at(1)) < 0 || next.Sub(at(1)) > time.Millisecond {
		t.Fatalf("next at %v, want 1s", next.Sub(t0))
	}
	r.try(at(1.1), fn)
	if tries["flaky"] != 2 || r.len() != 0 {
		t.Fatalf("tries %v, %d left: the retry must run once due", tries, r.len())
	}
}

func TestSwapLimiter(t *testing.T) {
	cases := []struct {
		name       string
		spentOld   bool
		qps        float64
		acceptsNow bool
	}{
		{"same rate keeps the bucket", true, 0.1, false},
		{"new rate, old bucket empty: new one drained", true, 0.01, false},
		{"new rate, old bucket full: new one full", false, 0.01, true},
		{"zero rate: never", false, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := newTimedQueue(newTokenBucket(0.1, 1, t0))
			if tc.spentOld {
				q.limiter.tryAccept(t0)
			}
			q.swapLimiter(tc.qps, at(1))
			if got := q.limiter.tryAccept(at(1)); got != tc.acceptsNow {
				t.Errorf("accepts now = %v, want %v", got, tc.acceptsNow)
			}
			if q.limiter.rate() != max(tc.qps, 0) {
				t.Errorf("rate %v, want %v", q.limiter.rate(), tc.qps)
			}
		})
	}
}

func conds(statuses ...api.ConditionStatus) []*api.NodeCondition {
	out := make([]*api.NodeCondition, len(statuses))
	for i, s := range statuses {
		if s != "" {
			out[i] = &api.NodeCondition{Type: api.NodeReady, Status: s}
		}
	}
	return out
}

// TestZoneStateAndRate checks ComputeZoneState and the rate each state
// gives a zone (setLimiterInZone with ReducedQPSFunc/HealthyQPSFunc).
func TestZoneStateAndRate(t *testing.T) {
	T, F, U := api.ConditionTrue, api.ConditionFalse, api.ConditionUnknown
	many := func(ready, notReady int) []*api.NodeCondition {
		var s []api.ConditionStatus
		for range ready {
			s = append(s, T)
		}
		for range notReady {
			s = append(s, U)
		}
		return conds(s...)
	}
	o := Options{}
	o.defaults()
	cases := []struct {
		name      string
		conds     []*api.NodeCondition
		state     zoneState
		unhealthy int
		rate      float64
	}{
		{"all ready", conds(T, T, T), stateNormal, 0, 0.1},
		{"one of three down", conds(T, T, U), stateNormal, 1, 0.1},
		{"two of three down: not more than 2", conds(T, U, F), stateNormal, 2, 0.1},
		{"none ready", conds(U, F), stateFullDisruption, 2, 0.1},
		{"no condition counts as not ready", conds("", ""), stateFullDisruption, 2, 0.1},
		{"3 of 5 down (60%): partial, small zone stops", conds(T, T, U, U, F), statePartialDisruption, 3, 0},
		{"3 of 6 down (50%): normal", conds(T, T, T, U, U, F), stateNormal, 3, 0.1},
		{"large zone partially disrupted: secondary rate", many(40, 60), statePartialDisruption, 60, 0.01},
		{"exactly 50 nodes is not large", many(20, 30), statePartialDisruption, 30, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n, st := computeZoneState(tc.conds, o.UnhealthyZoneThreshold)
			if st != tc.state || n != tc.unhealthy {
				t.Fatalf("state %s with %d unhealthy, want %s with %d", st, n, tc.state, tc.unhealthy)
			}
			mon := &monitor{opts: o, tainters: map[string]*timedQueue{"z": newTimedQueue(newTokenBucket(o.EvictionRate, 1, t0))}}
			mon.setLimiter("z", len(tc.conds), st, t0)
			if got := mon.tainters["z"].limiter.rate(); got != tc.rate {
				t.Errorf("rate %v, want %v", got, tc.rate)
			}
		})
	}
}

func readyNode(hb time.Time, status api.ConditionStatus) *api.Node {
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: "n", CreationTimestamp: api.NewTime(t0)},
		Status: api.NodeStatus{Conditions: []api.NodeCondition{
			{Type: api.NodeMemoryPressure, Status: api.ConditionFalse, LastHeartbeatTime: api.NewTime(hb), Reason: "KubeletHasSufficientMemory"},
			{Type: api.NodeReady, Status: status, LastHeartbeatTime: api.NewTime(hb), LastTransitionTime: api.NewTime(t0), Reason: "KubeletReady"},
		}},
	}
}

func lease(renew time.Time) *api.Lease {
	mt := api.NewMicroTime(renew)
	return &api.Lease{Spec: api.LeaseSpec{RenewTime: &mt}}
}

// TestCheckHealth ports the cases of upstream's TestMonitorNodeHealthUpdateStatus
// and ...NodeLease: a node silent for longer than the grace period goes
// Unknown; a renewed lease keeps it alive; one never posted gets the
// startup grace and NodeStatusNeverUpdated.
func TestCheckHealth(t *testing.T) {
	cases := []struct {
		name      string
		node      *api.Node
		lease     *api.Lease
		floor     time.Time
		now       time.Time
		write     bool
		ready     api.ConditionStatus
		reason    string
		condCount int
	}{
		{"fresh status", readyNode(at(100), api.ConditionTrue), nil, time.Time{}, at(130), false, api.ConditionTrue, "KubeletReady", 2},
		{"exactly at the grace period: still fine", readyNode(at(100), api.ConditionTrue), nil, time.Time{}, at(140), false, api.ConditionTrue, "KubeletReady", 2},
		{"stale status: Unknown", readyNode(at(100), api.ConditionTrue), nil, time.Time{}, at(141), true, api.ConditionUnknown, ReasonNodeStatusUnknown, 4},
		{"stale status, renewed lease: fine", readyNode(at(100), api.ConditionTrue), lease(at(130)), time.Time{}, at(141), false, api.ConditionTrue, "KubeletReady", 2},
		{"stale status and lease", readyNode(at(100), api.ConditionTrue), lease(at(100.5)), time.Time{}, at(141), true, api.ConditionUnknown, ReasonNodeStatusUnknown, 4},
		{"floor gives a fresh grace", readyNode(at(100), api.ConditionTrue), nil, at(120), at(141), false, api.ConditionTrue, "KubeletReady", 2},
		{"already Unknown: no write", func() *api.Node {
			n := readyNode(at(100), api.ConditionUnknown)
			n.Status.Conditions[1].Reason = ReasonNodeStatusUnknown
			n.Status.Conditions[1].Message = MessageNodeStatusUnknown
			for _, typ := range []api.NodeConditionType{api.NodeDiskPressure, api.NodePIDPressure} {
				n.Status.Conditions = append(n.Status.Conditions, api.NodeCondition{Type: typ, Status: api.ConditionUnknown})
			}
			n.Status.Conditions[0].Status = api.ConditionUnknown
			return n
		}(), nil, time.Time{}, at(500), false, api.ConditionUnknown, ReasonNodeStatusUnknown, 4},
		{"never posted, within startup grace", &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", CreationTimestamp: api.NewTime(t0)}}, nil, time.Time{}, at(59), false, "", "", 0},
		{"never posted, past startup grace", &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", CreationTimestamp: api.NewTime(t0)}}, nil, time.Time{}, at(61), true, api.ConditionUnknown, ReasonNodeStatusNeverUpdated, 4},
		{"never posted, but renews its lease", &api.Node{ObjectMeta: api.ObjectMeta{Name: "n", CreationTimestamp: api.NewTime(t0)}}, lease(at(55)), time.Time{}, at(100), false, "", "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.node.DeepCopy()
			_, write := checkHealth(n, renewTimeOf(tc.lease), tc.floor, tc.now, 40*time.Second, 60*time.Second)
			if write != tc.write {
				t.Errorf("write = %v, want %v", write, tc.write)
			}
			if len(n.Status.Conditions) != tc.condCount {
				t.Errorf("%d conditions, want %d: %+v", len(n.Status.Conditions), tc.condCount, n.Status.Conditions)
			}
			c := nodeCondition(&n.Status, api.NodeReady)
			if tc.ready == "" {
				if c != nil {
					t.Errorf("Ready = %+v, want none", c)
				}
				return
			}
			if c == nil || c.Status != tc.ready || c.Reason != tc.reason {
				t.Fatalf("Ready = %+v, want %s %s", c, tc.ready, tc.reason)
			}
			if tc.write {
				for _, cd := range n.Status.Conditions {
					// A condition the kubelet posted stopped; one it never
					// posted (DiskPressure, PIDPressure here) never was.
					want := MessageNodeStatusNeverUpdated
					if nodeCondition(&tc.node.Status, cd.Type) != nil {
						want = MessageNodeStatusUnknown
					}
					if cd.Status != api.ConditionUnknown || cd.Message != want || !cd.LastTransitionTime.Time.Equal(tc.now.Truncate(time.Second)) {
						t.Errorf("condition %+v, want Unknown %q since now", cd, want)
					}
				}
				if tc.reason == ReasonNodeStatusUnknown && !c.LastHeartbeatTime.Time.Equal(tc.node.Status.Conditions[1].LastHeartbeatTime.Time) {
					t.Errorf("lastHeartbeatTime changed to %v: the kubelet's last report must be kept", c.LastHeartbeatTime)
				}
			}
		})
	}
}

func secs(n int64) *int64 { return &n }

// TestEvictionTime ports upstream's TestGetMinTolerationTime and the
// taint manager's eviction cases, with the count starting at the taints'
// timeAdded.
func TestEvictionTime(t *testing.T) {
	added := api.NewTime(at(100))
	unreachable := api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute, TimeAdded: &added}
	notReady := api.Taint{Key: api.TaintNodeNotReady, Effect: api.TaintEffectNoExecute, TimeAdded: &added}
	later := api.NewTime(at(200))
	custom := api.Taint{Key: "example.com/gpu-broken", Effect: api.TaintEffectNoExecute, TimeAdded: &later}
	untimed := api.Taint{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}
	tol := func(key string, s *int64) api.Toleration {
		return api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: s}
	}
	defaults := []api.Toleration{tol(api.TaintNodeNotReady, secs(300)), tol(api.TaintNodeUnreachable, secs(300))}
	now := at(150)
	cases := []struct {
		name        string
		tolerations []api.Toleration
		taints      []api.Taint
		want        time.Time
		never       bool
	}{
		{"no tolerations: at once", nil, []api.Taint{unreachable}, now, false},
		{"default tolerations: 300s after the taint", defaults, []api.Taint{unreachable}, at(400), false},
		{"two taints, the earlier deadline wins", []api.Toleration{tol(api.TaintNodeUnreachable, secs(300)), tol("example.com/gpu-broken", secs(60))},
			[]api.Taint{unreachable, custom}, at(260), false},
		{"one taint not tolerated: at once", defaults, []api.Taint{unreachable, custom}, now, false},
		{"tolerated forever", []api.Toleration{tol(api.TaintNodeUnreachable, nil)}, []api.Taint{unreachable}, time.Time{}, true},
		{"forever and 300s: 300s", []api.Toleration{tol(api.TaintNodeUnreachable, nil), tol(api.TaintNodeNotReady, secs(300))},
			[]api.Taint{unreachable, notReady}, at(400), false},
		{"zero seconds: at once", []api.Toleration{tol(api.TaintNodeUnreachable, secs(0))}, []api.Taint{unreachable}, now, false},
		{"negative seconds: at once", []api.Toleration{tol(api.TaintNodeUnreachable, secs(-5))}, []api.Taint{unreachable}, now, false},
		{"the first matching toleration is the one used", []api.Toleration{tol(api.TaintNodeUnreachable, secs(100)), tol("", nil)},
			[]api.Taint{unreachable}, at(200), false},
		{"an empty key tolerates every taint", []api.Toleration{tol("", secs(30))}, []api.Taint{unreachable, custom}, at(130), false},
		{"a taint without timeAdded counts from now", defaults, []api.Taint{untimed}, at(450), false},
		{"2^63-1 seconds: forever, as upstream's sentinel", []api.Toleration{tol(api.TaintNodeUnreachable, secs(math.MaxInt64))}, []api.Taint{unreachable}, time.Time{}, true},
		{"seconds past a Duration: 292 years, not wrapped to the past", []api.Toleration{tol(api.TaintNodeUnreachable, secs(9_300_000_000))}, []api.Taint{unreachable}, at(100).Add(math.MaxInt64), false},
		{"already expired: now is past the deadline", []api.Toleration{tol(api.TaintNodeUnreachable, secs(10))}, []api.Taint{unreachable}, at(110), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := EvictionTime(tc.tolerations, tc.taints, now)
			if ok == tc.never {
				t.Fatalf("ok = %v, want never = %v", ok, tc.never)
			}
			if ok && !got.Equal(tc.want) {
				t.Errorf("evict at %v, want %v", got.Sub(t0), tc.want.Sub(t0))
			}
		})
	}
}

func taint(key string, effect api.TaintEffect) api.Taint { return api.Taint{Key: key, Effect: effect} }

func keys(ts []api.Taint) string {
	var s []string
	for _, t := range ts {
		s = append(s, fmt.Sprintf("%s:%s", t.Key, t.Effect))
	}
	return strings.Join(s, " ")
}

func TestNoScheduleDiff(t *testing.T) {
	node := func(unsched bool, taints []api.Taint, cs ...api.NodeCondition) *api.Node {
		return &api.Node{Spec: api.NodeSpec{Unschedulable: unsched, Taints: taints}, Status: api.NodeStatus{Conditions: cs}}
	}
	c := func(typ api.NodeConditionType, st api.ConditionStatus) api.NodeCondition {
		return api.NodeCondition{Type: typ, Status: st}
	}
	cases := []struct {
		name        string
		node        *api.Node
		add, remove string
	}{
		{"healthy", node(false, nil, c(api.NodeReady, api.ConditionTrue), c(api.NodeMemoryPressure, api.ConditionFalse)), "", ""},
		{"unreachable", node(false, nil, c(api.NodeReady, api.ConditionUnknown)), "node.kubernetes.io/unreachable:NoSchedule", ""},
		{"not ready and memory pressure", node(false, nil, c(api.NodeReady, api.ConditionFalse), c(api.NodeMemoryPressure, api.ConditionTrue)),
			"node.kubernetes.io/not-ready:NoSchedule node.kubernetes.io/memory-pressure:NoSchedule", ""},
		{"cordoned", node(true, nil, c(api.NodeReady, api.ConditionTrue)), "node.kubernetes.io/unschedulable:NoSchedule", ""},
		{"recovered: stale taints removed, others kept", node(false, []api.Taint{
			taint(api.TaintNodeUnreachable, api.TaintEffectNoSchedule), taint(api.TaintNodeUnreachable, api.TaintEffectNoExecute), taint("dedicated", api.TaintEffectNoSchedule),
		}, c(api.NodeReady, api.ConditionTrue)), "", "node.kubernetes.io/unreachable:NoSchedule"},
		{"already tainted", node(false, []api.Taint{taint(api.TaintNodeUnreachable, api.TaintEffectNoSchedule)}, c(api.NodeReady, api.ConditionUnknown)), "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			add, remove := noScheduleDiff(tc.node)
			if keys(add) != tc.add || keys(remove) != tc.remove {
				t.Errorf("add %q remove %q, want %q %q", keys(add), keys(remove), tc.add, tc.remove)
			}
		})
	}
}

func TestApplyTaints(t *testing.T) {
	t1, t2 := api.NewTime(at(1)), api.NewTime(at(2))
	stamped := func(key string, ts *api.Time) api.Taint {
		return api.Taint{Key: key, Effect: api.TaintEffectNoExecute, TimeAdded: ts}
	}
	cases := []struct {
		name        string
		have        []api.Taint
		add, remove []api.Taint
		want        string
		changed     bool
	}{
		{"add", nil, []api.Taint{stamped(api.TaintNodeUnreachable, &t1)}, nil, "node.kubernetes.io/unreachable:NoExecute", true},
		{"swap", []api.Taint{stamped(api.TaintNodeNotReady, &t1)}, []api.Taint{stamped(api.TaintNodeUnreachable, &t2)}, []api.Taint{notReadyNoExecute},
			"node.kubernetes.io/unreachable:NoExecute", true},
		{"same taint: nothing", []api.Taint{stamped(api.TaintNodeUnreachable, &t1)}, []api.Taint{stamped(api.TaintNodeUnreachable, &t1)}, nil,
			"node.kubernetes.io/unreachable:NoExecute", false},
		{"new time replaces", []api.Taint{stamped(api.TaintNodeUnreachable, &t1)}, []api.Taint{stamped(api.TaintNodeUnreachable, &t2)}, nil,
			"node.kubernetes.io/unreachable:NoExecute", true},
		{"remove absent: nothing", []api.Taint{taint("x", api.TaintEffectNoSchedule)}, nil, []api.Taint{unreachableNoExecute}, "x:NoSchedule", false},
		{"effect matters", []api.Taint{taint(api.TaintNodeUnreachable, api.TaintEffectNoSchedule)}, nil, []api.Taint{unreachableNoExecute},
			"node.kubernetes.io/unreachable:NoSchedule", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, changed := applyTaints(tc.have, tc.add, tc.remove)
			if keys(got) != tc.want || changed != tc.changed {
				t.Errorf("got %q changed %v, want %q %v", keys(got), changed, tc.want, tc.changed)
			}
		})
	}
}

func TestZoneKey(t *testing.T) {
	cases := []struct {
		labels map[string]string
		want   string
	}{
		{nil, ""},
		{map[string]string{LabelZone: "a"}, ":\x00:a"},
		{map[string]string{LabelZone: "a", LabelRegion: "r"}, "r:\x00:a"},
		{map[string]string{labelZoneBeta: "b", labelRegionBeta: "q"}, "q:\x00:b"},
	}
	for _, tc := range cases {
		if got := zoneKey(&api.Node{ObjectMeta: api.ObjectMeta{Labels: tc.labels}}); got != tc.want {
			t.Errorf("zoneKey(%v) = %q, want %q", tc.labels, got, tc.want)
		}
	}
}

// TestZoneKeyFollowsNodeObject checks the zone key and disruption
// exclusion a registered node's record keeps: read again whenever the
// informer hands over another object of the node (relabelled into
// another zone, excluded, included again), the same answer as zoneKey
// computes from scratch, and for an unregistered node too.
func TestZoneKeyFollowsNodeObject(t *testing.T) {
	node := func(zone string, excluded bool) *api.Node {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1", Labels: map[string]string{LabelRegion: "r", LabelZone: zone}}}
		if excluded {
			n.Labels[LabelExcludeDisruption] = ""
		}
		return n
	}
	mon := &monitor{registered: map[string]*nodeState{}}
	if got, want := mon.zoneKey(node("a", false)), zoneKey(node("a", false)); got != want {
		t.Fatalf("unregistered: zoneKey = %q, want %q", got, want)
	}
	st := &nodeState{}
	mon.registered["n1"] = st
	for i, n := range []*api.Node{node("a", false), node("b", false), node("b", true), node("c", false)} {
		for range 2 { // the second read comes from the record
			if got, want := mon.zoneKey(n), zoneKey(n); got != want {
				t.Fatalf("object %d: zoneKey = %q, want %q", i, got, want)
			}
			_, wantEx := n.Labels[LabelExcludeDisruption]
			if z, ex := mon.labels(st, n); z != zoneKey(n) || ex != wantEx {
				t.Fatalf("object %d: labels = %q, %v; want %q, %v", i, z, ex, zoneKey(n), wantEx)
			}
		}
	}
}

// TestRecordByPlace checks that the health pass finds a node's record by
// its place in the last pass's list only when the name there is the
// node's: after a node leaves or joins, the places shift and the record
// comes from the map by name.
func TestRecordByPlace(t *testing.T) {
	a, b, c := &nodeState{name: "a", uid: "a"}, &nodeState{name: "b", uid: "b"}, &nodeState{name: "c", uid: "c"}
	mon := &monitor{registered: map[string]*nodeState{"a": a, "b": b, "c": c}, listed: []*nodeState{a, b, c}}
	for _, tc := range []struct {
		i    int
		name string
		want *nodeState
	}{
		{0, "a", a}, {1, "b", b}, {2, "c", c}, // the same list
		{1, "c", c},   // b left: c moved up
		{2, "b", b},   // a node joined before b
		{3, "c", c},   // beyond the last list
		{1, "d", nil}, // not registered
	} {
		if got := mon.record(tc.i, &api.Node{ObjectMeta: api.ObjectMeta{Name: tc.name}}); got != tc.want {
			t.Errorf("record(%d, %q) = %v, want %v", tc.i, tc.name, got, tc.want)
		}
	}
}

// TestAllUnknown: a node is left uncopied by the health pass only when
// checkHealth cannot change it: every monitored condition there and
// Unknown.
func TestAllUnknown(t *testing.T) {
	conds := func(statuses ...api.ConditionStatus) *api.Node {
		n := &api.Node{}
		for i, s := range statuses {
			n.Status.Conditions = append(n.Status.Conditions, api.NodeCondition{Type: monitoredConditions[i], Status: s})
		}
		return n
	}
	u := api.ConditionUnknown
	cases := []struct {
		name string
		node *api.Node
		want bool
	}{
		{"all four Unknown", conds(u, u, u, u), true},
		{"Ready still True", conds(api.ConditionTrue, u, u, u), false},
		{"a pressure condition False", conds(u, u, api.ConditionFalse, u), false},
		{"one never posted", conds(u, u, u), false},
		{"none posted", conds(), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := allUnknown(tc.node); got != tc.want {
				t.Fatalf("allUnknown = %v, want %v", got, tc.want)
			}
			if tc.want {
				// What allUnknown promises: checkHealth changes nothing.
				n := tc.node.DeepCopy()
				if _, write := checkHealth(n, time.Time{}, time.Time{}, at(1000), 40*time.Second, 60*time.Second); write || !reflect.DeepEqual(n, tc.node) {
					t.Fatalf("checkHealth changed an all-Unknown node (write %v)", write)
				}
			}
		})
	}
}

// TestPackRecords: the health pass moves the records it lists into one
// array in the list's order; the map by name must point at the moved
// records, which keep every field, so that what the lease handlers
// write by name is what the next pass reads by place.
func TestPackRecords(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	b := &nodeState{name: "b", uid: "b-uid", renew: at, renewKnown: true, pass: 7}
	a := &nodeState{name: "a", uid: "a-uid", retry: true, ready: api.ConditionTrue, hasReady: true, pass: 7}
	c := &nodeState{name: "c", uid: "c-uid", pass: 7}
	mon := &monitor{registered: map[string]*nodeState{"a": a, "b": b, "c": c}}
	states := []*nodeState{b, a, c}
	mon.pack(states)
	for i, want := range []*nodeState{b, a, c} {
		st := states[i]
		if *st != *want {
			t.Errorf("record %d moved as %+v, want %+v", i, *st, *want)
		}
		if mon.registered[st.name] != st {
			t.Errorf("the map by name holds another record for %s than the list", st.name)
		}
		if i > 0 && reflect.ValueOf(st).Pointer()-reflect.ValueOf(states[i-1]).Pointer() != reflect.TypeFor[nodeState]().Size() {
			t.Errorf("%s is not next to %s in memory", st.name, states[i-1].name)
		}
	}
	mon.listed = states
	later := at.Add(10 * time.Second)
	mon.registered["a"].renew = later // as the lease handler writes
	if got := mon.record(1, &api.Node{ObjectMeta: api.ObjectMeta{Name: "a"}}); got.renew != later {
		t.Errorf("the next pass reads renew %v by place, want %v", got.renew, later)
	}
}

// TestGetMinTolerationTime ports upstream's rows of that name (k/k
// pkg/controller/tainteviction/taint_eviction_test.go): the i-th
// toleration is the one used for the i-th taint, every taint added now,
// so upstream's minimum toleration time is the eviction's delay (0: at
// once, -1: never). Its first row, no tolerations at all, is left out:
// it is reached only with no taints, which the controller handles before
// (the pod's pending deletion is called off), and EvictionTime answers
// never for it.
func TestGetMinTolerationTime(t *testing.T) {
	one, two := int64(1), int64(2)
	now := at(100)
	cases := []struct {
		name     string
		seconds  []*int64
		expected time.Duration
	}{
		{"nil", []*int64{nil}, -1},
		{"one and two", []*int64{&one, &two}, time.Second},
		{"one and nil", []*int64{&one, nil}, time.Second},
		{"nil and one", []*int64{nil, &one}, time.Second},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var tols []api.Toleration
			var taints []api.Taint
			added := api.NewTime(now)
			for i, s := range tc.seconds {
				key := fmt.Sprintf("taint%d", i)
				tols = append(tols, api.Toleration{Key: key, Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: s})
				taints = append(taints, api.Taint{Key: key, Effect: api.TaintEffectNoExecute, TimeAdded: &added})
			}
			got, ok := EvictionTime(tols, taints, now)
			switch {
			case tc.expected < 0 && ok:
				t.Errorf("evict after %v, want never", got.Sub(now))
			case tc.expected >= 0 && (!ok || got.Sub(now) != tc.expected):
				t.Errorf("evict after %v (ok %v), want %v", got.Sub(now), ok, tc.expected)
			}
		})
	}
}

// TestTryUpdateNodeHealth ports upstream's rows of that name: the Ready
// condition the health check leaves (upstream checks it against what it
// saved; here against the status that implies): a node heard from now
// keeps its own, one heard from a year ago goes Unknown, and one that
// never posted Ready gets it Unknown once past the startup grace.
func TestTryUpdateNodeHealth(t *testing.T) {
	fakeNow := at(400 * 24 * 3600)
	fakeOld := fakeNow.AddDate(-1, 0, 0)
	T, F, U := api.ConditionTrue, api.ConditionFalse, api.ConditionUnknown
	cases := []struct {
		name    string
		at      time.Time
		status  api.ConditionStatus // "": no conditions
		current api.ConditionStatus // "": no Ready condition
	}{
		{"Status true", fakeNow, T, T},
		{"Status false", fakeNow, F, F},
		{"Status unknown", fakeNow, U, U},
		{"Status nil", fakeNow, "", ""},
		{"Status true - after grace period", fakeOld, T, U},
		{"Status false - after grace period", fakeOld, F, U},
		{"Status unknown - after grace period", fakeOld, U, U},
		{"Status nil - after grace period", fakeOld, "", U},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node0", CreationTimestamp: api.NewTime(tc.at)}}
			if tc.status != "" {
				n.Status.Conditions = []api.NodeCondition{{Type: api.NodeReady, Status: tc.status, LastHeartbeatTime: api.NewTime(tc.at), LastTransitionTime: api.NewTime(tc.at)}}
			}
			checkHealth(n, time.Time{}, time.Time{}, fakeNow, DefaultGracePeriod, DefaultStartupGracePeriod)
			c := nodeCondition(&n.Status, api.NodeReady)
			switch {
			case tc.current == "" && c != nil:
				t.Errorf("Ready %s, want none", c.Status)
			case tc.current != "" && (c == nil || c.Status != tc.current):
				t.Errorf("Ready %+v, want %s", c, tc.current)
			}
		})
	}
}

// alwaysLimiter stands for flowcontrol's fake always rate limiter in
// upstream's rate_limited_queue_test.go: a bucket that never runs dry
// within a test.
func alwaysLimiter() *tokenBucket { return newTokenBucket(1, 1000, t0) }

func queued(q *timedQueue) []string {
	var out []string
	for _, v := range q.items {
		out = append(out, v.value)
	}
	return out
}

func known(q *timedQueue) []string {
	var out []string
	for v := range q.set {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// TestAddNode and the tests after it port upstream's
// rate_limited_queue_test.go (k/k pkg/controller/nodelifecycle/scheduler)
// by name onto timedQueue. Its TestClear is left out: the tainting queues
// are never cleared (entering full disruption swaps their limiter for one
// that never accepts), and timedQueue has no Clear.
func TestAddNode(t *testing.T) {
	q := newTimedQueue(alwaysLimiter())
	q.add("first", "11111", at(1))
	q.add("second", "22222", at(2))
	q.add("third", "33333", at(3))
	if got := queued(q); !slices.Equal(got, []string{"first", "second", "third"}) {
		t.Errorf("queue %v", got)
	}
	if got := known(q); !slices.Equal(got, []string{"first", "second", "third"}) {
		t.Errorf("set %v", got)
	}
}

func TestDelNode(t *testing.T) {
	for _, tc := range []struct{ remove, queue, set []string }{
		{[]string{"first"}, []string{"second", "third"}, []string{"second", "third"}},
		{[]string{"second"}, []string{"first", "third"}, []string{"first", "third"}},
		{[]string{"third"}, []string{"first", "second"}, []string{"first", "second"}},
	} {
		q := newTimedQueue(alwaysLimiter())
		q.add("first", "11111", at(0))
		q.add("second", "22222", at(1))
		q.add("third", "33333", at(2))
		for _, v := range tc.remove {
			q.remove(v)
		}
		if got := queued(q); !slices.Equal(got, tc.queue) {
			t.Errorf("remove %v: queue %v, want %v", tc.remove, got, tc.queue)
		}
		if got := known(q); !slices.Equal(got, tc.set) {
			t.Errorf("remove %v: set %v, want %v", tc.remove, got, tc.set)
		}
	}
}

// tryAll processes q at now, recording every value fn sees and marking
// it done.
func tryAll(q *timedQueue, now time.Time) []string {
	var seen []string
	q.try(now, func(v timedValue) (bool, time.Duration) {
		seen = append(seen, v.value)
		return true, 0
	})
	return seen
}

func TestTry(t *testing.T) {
	q := newTimedQueue(alwaysLimiter())
	q.add("first", "11111", at(0))
	q.add("second", "22222", at(0))
	q.add("third", "33333", at(0))
	q.remove("second")
	if got := tryAll(q, at(1)); !slices.Equal(got, []string{"first", "third"}) {
		t.Errorf("processed %v, want [first third]", got)
	}
}

// TestTryOrdering: a value that asks to be retried later is not seen
// again in the same pass (upstream's clock moves 1ms a call; here the
// pass runs at one instant and the retry is 2ms away); the others are
// processed in order, with the times they were added.
func TestTryOrdering(t *testing.T) {
	q := newTimedQueue(alwaysLimiter())
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	q.add("first", "11111", ms(1))
	q.add("second", "22222", ms(2))
	q.add("third", "33333", ms(3))
	var order []string
	count := 0
	q.try(ms(4), func(v timedValue) (bool, time.Duration) {
		count++
		if v.processAt.IsZero() {
			t.Fatal("processAt should not be zero")
		}
		want := map[string]time.Time{"first": ms(1), "second": ms(2), "third": ms(3)}[v.value]
		if !v.addedAt.Equal(want) {
			t.Fatalf("added time for %s is %v", v.value, v.addedAt)
		}
		if v.value == "second" {
			return false, 2 * time.Millisecond
		}
		order = append(order, v.value)
		return true, 0
	})
	if !slices.Equal(order, []string{"first", "third"}) || count != 3 {
		t.Errorf("order %v after %d calls, want [first third] after 3", order, count)
	}
}

// TestTryRemovingWhileTry: a value removed while it is being processed
// is not retried.
func TestTryRemovingWhileTry(t *testing.T) {
	q := newTimedQueue(alwaysLimiter())
	q.add("first", "11111", at(0))
	q.add("second", "22222", at(0))
	q.add("third", "33333", at(0))
	var order []string
	count, removed := 0, false
	q.try(at(1), func(v timedValue) (bool, time.Duration) {
		count++
		if !removed && v.value == "second" {
			removed = true
			q.remove("second")
			return false, time.Millisecond
		}
		order = append(order, v.value)
		return true, 0
	})
	if !slices.Equal(order, []string{"first", "third"}) || count != 3 {
		t.Errorf("order %v after %d calls, want [first third] after 3", order, count)
	}
	if q.len() != 0 {
		t.Errorf("%d values left, want none", q.len())
	}
}

// TestRateLimitedQueueSwapLimiter is upstream's TestSwapLimiter (ours of
// that name covers the bucket a swap leaves): a swap to 0 gives a limiter
// that never accepts, one to 5.5 a limiter of 5.5 QPS.
func TestRateLimitedQueueSwapLimiter(t *testing.T) {
	q := newTimedQueue(newTokenBucket(DefaultEvictionRate, EvictionBurst, t0))
	q.swapLimiter(0, t0)
	if q.limiter.rate() != 0 || q.limiter.tryAccept(at(1000)) {
		t.Fatalf("after a swap to 0: rate %v, want a limiter that never accepts", q.limiter.rate())
	}
	q.swapLimiter(5.5, t0)
	if q.limiter.rate() != 5.5 {
		t.Fatalf("rate %v, want 5.5", q.limiter.rate())
	}
}

func TestAddAfterTry(t *testing.T) {
	q := newTimedQueue(alwaysLimiter())
	q.add("first", "11111", at(0))
	q.add("second", "22222", at(0))
	q.add("third", "33333", at(0))
	q.remove("second")
	if got := tryAll(q, at(1)); !slices.Equal(got, []string{"first", "third"}) {
		t.Errorf("processed %v, want [first third]", got)
	}
	q.add("first", "11111", at(2))
	if got := tryAll(q, at(3)); len(got) != 0 {
		t.Errorf("processed %v again without an explicit remove", got)
	}
}

// TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease ports upstream's
// rows of that name onto checkHealth: two health checks an hour apart
// (the second with the row's new status and lease; upstream replaces the
// status with the row's newNodeStatus, empty where the row has none), the
// status writes they make, and the Ready condition left.
func TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease(t *testing.T) {
	fakeNow := at(400 * 24 * 3600)
	created := fakeNow.AddDate(-3, 0, 0) // upstream's nodeCreationTime, 2012
	ready := func(hb time.Time) []api.NodeCondition {
		return []api.NodeCondition{
			{Type: api.NodeReady, Status: api.ConditionTrue, LastHeartbeatTime: api.NewTime(hb), LastTransitionTime: api.NewTime(fakeNow)},
			{Type: api.NodeDiskPressure, Status: api.ConditionFalse, LastHeartbeatTime: api.NewTime(hb), LastTransitionTime: api.NewTime(fakeNow)},
		}
	}
	none := time.Time{}
	cases := []struct {
		name            string
		created         time.Time
		conds           []api.NodeCondition
		lease           time.Time
		later           bool // the second check, an hour later
		newConds        []api.NodeCondition
		newLease        time.Time
		writes          int
		ready           api.ConditionStatus // "": none
		reason          string
		expectedPodMark bool
	}{
		{"Node created recently, without status. Node lease is missing.", fakeNow, nil, none, false, nil, none, 0, "", "", false},
		{"Node created recently, without status. Node lease is renewed recently.", fakeNow, nil, fakeNow, false, nil, none, 0, "", "", false},
		{"Node created long time ago, without status. Node lease is missing.", created, nil, none, false, nil, none, 1, api.ConditionUnknown, ReasonNodeStatusNeverUpdated, false},
		{"Node created long time ago, without status. Node lease is renewed recently.", created, nil, fakeNow, true, nil, fakeNow.Add(time.Hour), 0, "", "", false},
		{"Node created long time ago, without status. Node lease is expired.", created, nil, fakeNow, true, nil, fakeNow, 1, api.ConditionUnknown, ReasonNodeStatusNeverUpdated, false},
		{"Node created long time ago, with status updated by kubelet exceeds grace period. Node lease is renewed.", created, ready(fakeNow), fakeNow, true, ready(fakeNow), fakeNow.Add(time.Hour), 0, api.ConditionTrue, "", false},
		{"Node created long time ago, with status updated by kubelet recently. Node lease is expired.", created, ready(fakeNow), fakeNow, true, ready(fakeNow.Add(time.Hour)), fakeNow, 0, api.ConditionTrue, "", false},
		{"Node created long time ago, with status updated by kubelet exceeds grace period. Node lease is also expired.", created, ready(fakeNow)[:1], fakeNow, true, ready(fakeNow)[:1], fakeNow, 1, api.ConditionUnknown, ReasonNodeStatusUnknown, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node0", CreationTimestamp: api.NewTime(tc.created)}, Status: api.NodeStatus{Conditions: tc.conds}}
			n = n.DeepCopy()
			writes := 0
			observed, write := checkHealth(n, tc.lease, time.Time{}, fakeNow, DefaultGracePeriod, DefaultStartupGracePeriod)
			if write {
				writes++
			}
			if tc.later {
				n.Status = api.NodeStatus{Conditions: slices.Clone(tc.newConds)}
				n = n.DeepCopy()
				if observed, write = checkHealth(n, tc.newLease, time.Time{}, fakeNow.Add(time.Hour), DefaultGracePeriod, DefaultStartupGracePeriod); write {
					writes++
				}
			}
			if writes != tc.writes {
				t.Errorf("%d status writes, want %d", writes, tc.writes)
			}
			c := nodeCondition(&n.Status, api.NodeReady)
			switch {
			case tc.ready == "" && c != nil:
				t.Errorf("Ready %+v, want none", c)
			case tc.ready != "" && (c == nil || c.Status != tc.ready || (tc.reason != "" && c.Reason != tc.reason)):
				t.Errorf("Ready %+v, want %s %s", c, tc.ready, tc.reason)
			}
			// Pods are marked not ready when Ready leaves True.
			marked := c != nil && c.Status != api.ConditionTrue && observed.Status == api.ConditionTrue
			if marked != tc.expectedPodMark {
				t.Errorf("pods marked not ready: %v, want %v", marked, tc.expectedPodMark)
			}
		})
	}
}
