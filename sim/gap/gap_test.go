package gap

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/store"
)

func ptr[T any](v T) *T { return &v }

func deployment(replicas int32, st api.DeploymentStatus) *api.Deployment {
	return &api.Deployment{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: api.DeploymentSpec{Replicas: ptr(replicas)}, Status: st}
}

func replicaSet(replicas int32, st api.ReplicaSetStatus) *api.ReplicaSet {
	return &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web-1"},
		Spec: api.ReplicaSetSpec{Replicas: ptr(replicas)}, Status: st}
}

func pod(name, ip string, ready bool, phase api.PodPhase, owned bool) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "web"}},
		Spec:   api.PodSpec{Containers: []api.Container{{Name: "c", Image: "x"}}},
		Status: api.PodStatus{Phase: phase, PodIP: ip}}
	st := api.ConditionFalse
	if ready {
		st = api.ConditionTrue
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: st}}
	if owned {
		p.OwnerReferences = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-1", UID: "u1", Controller: ptr(true)}}
	}
	return p
}

func service(selector map[string]string) *api.Service {
	return &api.Service{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web"}, Spec: api.ServiceSpec{Selector: selector}}
}

func endpoints(ips ...string) *api.Endpoints {
	var addrs []api.EndpointAddress
	for _, ip := range ips {
		addrs = append(addrs, api.EndpointAddress{IP: ip})
	}
	return &api.Endpoints{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web"}, Subsets: []api.EndpointSubset{{Addresses: addrs}}}
}

func node(status api.ConditionStatus, reason string) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: "worker-1"},
		Status: api.NodeStatus{Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: status, Reason: reason}}}}
}

func hpa(desired, current int32) *api.HorizontalPodAutoscaler {
	return &api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web"},
		Status: api.HorizontalPodAutoscalerStatus{DesiredReplicas: desired, CurrentReplicas: current}}
}

// put creates o in the store and then writes its status, as the store
// drops the status of a create.
func put(t *testing.T, st *store.Store, o api.Object) {
	t.Helper()
	created, err := st.Create(store.Op{Actor: "test"}, o.DeepCopyObject())
	if err != nil {
		t.Fatal(err)
	}
	next := created.DeepCopyObject()
	switch n := next.(type) {
	case *api.Deployment:
		n.Status = o.(*api.Deployment).Status
	case *api.ReplicaSet:
		n.Status = o.(*api.ReplicaSet).Status
	case *api.Pod:
		n.Status = o.(*api.Pod).Status
	case *api.Node:
		n.Status = o.(*api.Node).Status
	case *api.HorizontalPodAutoscaler:
		n.Status = o.(*api.HorizontalPodAutoscaler).Status
	default:
		return
	}
	if _, err := st.Update(store.Op{Actor: "test"}, next, "status"); err != nil {
		t.Fatal(err)
	}
}

// TestDefinitions checks each kind's gap on objects as the store holds
// them: the value and what the detail says.
func TestDefinitions(t *testing.T) {
	full := api.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3}
	// big is a Service of 1,500 ready pods and its Endpoints holding the
	// first n of their addresses and the extra ones.
	big := func(n int, extra ...string) []api.Object {
		objs := []api.Object{service(map[string]string{"app": "web"})}
		var ips []string
		for i := range 1500 {
			ip := fmt.Sprintf("10.1.%d.%d", i/250, i%250)
			objs = append(objs, pod(fmt.Sprintf("p%d", i), ip, true, api.PodRunning, true))
			if i < n {
				ips = append(ips, ip)
			}
		}
		return append(objs, endpoints(append(ips, extra...)...))
	}
	tests := []struct {
		name   string
		objs   []api.Object
		object Object
		want   int  // the gap
		none   bool // no series at all
		detail string
		stale  bool // a StaleSuccess is recorded
	}{
		{name: "deployment done", objs: []api.Object{deployment(3, full)}, object: Object{api.KindDeployment, api.Key{Namespace: "default", Name: "web"}},
			want: 0, detail: "updated 3/3, ready 3/3, available 3/3, total 3"},
		{name: "deployment rolling", objs: []api.Object{deployment(3, api.DeploymentStatus{ObservedGeneration: 1, Replicas: 4, UpdatedReplicas: 1, ReadyReplicas: 3, AvailableReplicas: 3})},
			object: Object{api.KindDeployment, api.Key{Namespace: "default", Name: "web"}}, want: 2, detail: "updated 1/3"},
		{name: "deployment surplus", objs: []api.Object{deployment(3, api.DeploymentStatus{ObservedGeneration: 1, Replicas: 5, UpdatedReplicas: 3, ReadyReplicas: 5, AvailableReplicas: 5})},
			object: Object{api.KindDeployment, api.Key{Namespace: "default", Name: "web"}}, want: 2, detail: "total 5"},
		{name: "deployment stale success", objs: []api.Object{deployment(3, api.DeploymentStatus{ObservedGeneration: 0, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3})},
			object: Object{api.KindDeployment, api.Key{Namespace: "default", Name: "web"}}, want: 1, detail: "observedGeneration 0 of 1", stale: true},
		{name: "replicaset short", objs: []api.Object{replicaSet(3, api.ReplicaSetStatus{ObservedGeneration: 1, Replicas: 3, ReadyReplicas: 1, AvailableReplicas: 1})},
			object: Object{api.KindReplicaSet, api.Key{Namespace: "default", Name: "web-1"}}, want: 2, detail: "ready 1/3"},
		{name: "replicaset scaled to 0", objs: []api.Object{replicaSet(0, api.ReplicaSetStatus{ObservedGeneration: 1})},
			object: Object{api.KindReplicaSet, api.Key{Namespace: "default", Name: "web-1"}}, want: 0},
		{name: "service missing and stale addresses", objs: []api.Object{service(map[string]string{"app": "web"}),
			pod("a", "10.0.0.1", true, api.PodRunning, true), pod("b", "10.0.0.2", true, api.PodRunning, true), pod("c", "10.0.0.3", false, api.PodRunning, true),
			endpoints("10.0.0.1", "10.0.0.9")},
			object: Object{api.KindService, api.Key{Namespace: "default", Name: "web"}}, want: 2, detail: "endpoints 1 of 2 ready pods, 1 stale"},
		{name: "service in step", objs: []api.Object{service(map[string]string{"app": "web"}), pod("a", "10.0.0.1", true, api.PodRunning, true), endpoints("10.0.0.1")},
			object: Object{api.KindService, api.Key{Namespace: "default", Name: "web"}}, want: 0},
		{name: "service of more pods than an Endpoints holds, full", objs: big(api.EndpointsMaxCapacity),
			object: Object{api.KindService, api.Key{Namespace: "default", Name: "web"}}, want: 0, detail: "endpoints 1000 of 1500 ready pods (an Endpoints holds 1000 at most), 0 stale"},
		{name: "service of more pods than an Endpoints holds, short and stale", objs: big(990, "10.9.9.9"),
			object: Object{api.KindService, api.Key{Namespace: "default", Name: "web"}}, want: 11, detail: "endpoints 990 of 1500 ready pods (an Endpoints holds 1000 at most), 1 stale"},
		{name: "service without selector", objs: []api.Object{service(nil), endpoints("10.0.0.1")},
			object: Object{api.KindService, api.Key{Namespace: "default", Name: "web"}}, none: true},
		{name: "hpa apart", objs: []api.Object{hpa(7, 4)}, object: Object{api.KindHorizontalPodAutoscaler, api.Key{Namespace: "default", Name: "web"}}, want: 3, detail: "desired 7, current 4"},
		{name: "hpa without recommendation", objs: []api.Object{hpa(0, 1)}, object: Object{api.KindHorizontalPodAutoscaler, api.Key{Namespace: "default", Name: "web"}}, want: 0, detail: "no recommendation yet"},
		{name: "node not ready", objs: []api.Object{node(api.ConditionUnknown, "NodeStatusUnknown")}, object: Object{api.KindNode, api.Key{Name: "worker-1"}}, want: 1, detail: "Ready=Unknown (NodeStatusUnknown)"},
		{name: "node ready", objs: []api.Object{node(api.ConditionTrue, "KubeletReady")}, object: Object{api.KindNode, api.Key{Name: "worker-1"}}, want: 0},
		{name: "bare pod pending", objs: []api.Object{pod("job", "", false, api.PodPending, false)}, object: Object{api.KindPod, api.Key{Namespace: "default", Name: "job"}}, want: 1, detail: "Pending, ready false"},
		{name: "bare pod succeeded", objs: []api.Object{pod("job", "", false, api.PodSucceeded, false)}, object: Object{api.KindPod, api.Key{Namespace: "default", Name: "job"}}, want: 0},
		{name: "owned pod", objs: []api.Object{pod("a", "", false, api.PodPending, true)}, object: Object{api.KindPod, api.Key{Namespace: "default", Name: "a"}}, none: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := kernel.New(1)
			st := store.New(k)
			tr, err := Watch(st, k)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range tt.objs {
				put(t, st, o)
			}
			k.RunFor(time.Second)
			tl := tr.Finish()
			var s *Series
			for i := range tl.Series {
				if tl.Series[i].Object == tt.object {
					s = &tl.Series[i]
				}
			}
			if tt.none {
				if s != nil {
					t.Fatalf("series %+v, want none", s)
				}
				return
			}
			if s == nil {
				t.Fatalf("no series for %s in %+v", tt.object, tl.Series)
			}
			p := s.At(time.Second)
			if p.Value != tt.want || !strings.Contains(p.Detail, tt.detail) {
				t.Errorf("gap %d (%s), want %d (%s)", p.Value, p.Detail, tt.want, tt.detail)
			}
			if got := len(tl.StaleSuccess) > 0; got != tt.stale {
				t.Errorf("stale success %+v, want %v", tl.StaleSuccess, tt.stale)
			}
		})
	}
}

// TestInstant checks that a gap is recorded once per instant, with the
// state after the instant's last write, at the instant's time.
func TestInstant(t *testing.T) {
	k := kernel.New(1)
	st := store.New(k)
	tr, err := Watch(st, k)
	if err != nil {
		t.Fatal(err)
	}
	key := api.Key{Namespace: "default", Name: "web-1"}
	set := func(ready int32) {
		o, err := st.Get(api.KindReplicaSet, key)
		if err != nil {
			t.Fatal(err)
		}
		rs := o.(*api.ReplicaSet).DeepCopy()
		rs.Status = api.ReplicaSetStatus{ObservedGeneration: 1, Replicas: 2, ReadyReplicas: ready, AvailableReplicas: ready}
		if _, err := st.Update(store.Op{Actor: "test"}, rs, "status"); err != nil {
			t.Fatal(err)
		}
	}
	put(t, st, replicaSet(2, api.ReplicaSetStatus{ObservedGeneration: 1, Replicas: 2, ReadyReplicas: 2, AvailableReplicas: 2}))
	k.At(kernel.Time(10*time.Second), func() { set(0); set(2) }) // open and closed within one instant: never seen
	k.At(kernel.Time(20*time.Second), func() { set(1) })
	k.At(kernel.Time(30*time.Second), func() { set(0); set(2) })
	k.RunFor(time.Minute)
	tl := tr.Finish()
	if len(tl.Series) != 1 {
		t.Fatalf("series %+v", tl.Series)
	}
	var got []string
	for _, p := range tl.Series[0].Points {
		got = append(got, p.At.String()+"="+string(rune('0'+p.Value)))
	}
	if want := "0s=0 20s=1 30s=0"; strings.Join(got, " ") != want {
		t.Errorf("points %v, want %s", got, want)
	}
	if tl.End != time.Minute {
		t.Errorf("end %v, want 1m", tl.End)
	}
}

// series builds a series from (at, value) pairs in seconds.
func series(kind api.Kind, name string, pts ...int) Series {
	s := Series{Object: Object{kind, api.Key{Namespace: "default", Name: name}}}
	for i := 0; i+1 < len(pts); i += 2 {
		s.Points = append(s.Points, Point{At: time.Duration(pts[i]) * time.Second, Value: pts[i+1]})
	}
	return s
}

func TestSettled(t *testing.T) {
	const s = time.Second
	tl := &Timeline{End: 600 * s, Series: []Series{
		series(api.KindDeployment, "a", 0, 3, 5, 0, 100, 1, 130, 0, 300, 2, 310, 0, 330, 1, 350, 0),
		series(api.KindReplicaSet, "b", 120, 1, 140, 0),
	}}
	tests := []struct {
		name              string
		from, settle, nxt time.Duration
		want              time.Duration
		ok                bool
	}{
		{"start closes at 5s", 0, 60 * s, 0, 5 * s, true},
		{"inside a span: wait for the union to close", 110 * s, 60 * s, 0, 140 * s, true},
		{"a gap reopening inside the window restarts it", 295 * s, 60 * s, 0, 350 * s, true},
		{"before any gap, with room", 30 * s, 60 * s, 0, 30 * s, true},
		{"closed but not long enough before the next opening", 60 * s, 60 * s, 0, 140 * s, true},
		{"the next cause shortens the window", 60 * s, 60 * s, 90 * s, 60 * s, true},
		{"too little run left", 560 * s, 60 * s, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at, ok := tl.Settled(tt.from, tt.settle, tt.nxt)
			if ok != tt.ok || (ok && at != tt.want) {
				t.Errorf("Settled(%v, %v, %v) = %v, %v; want %v, %v", tt.from, tt.settle, tt.nxt, at, ok, tt.want, tt.ok)
			}
		})
	}
	open := &Timeline{End: 100 * s, Series: []Series{series(api.KindNode, "n", 0, 0, 50, 1)}}
	if _, ok := open.Settled(60*s, 10*s, 0); ok {
		t.Error("a gap open at the end settled")
	}
	if at, ok := open.Settled(0, 10*s, 0); !ok || at != 0 {
		t.Errorf("before the node failed: %v %v, want 0 true", at, ok)
	}
}

func TestIntervalsIncidentsTotals(t *testing.T) {
	const s = time.Second
	tl := &Timeline{End: 600 * s, Series: []Series{
		series(api.KindDeployment, "a", 0, 3, 5, 1, 10, 0, 100, 1, 500, 0),
		series(api.KindDeployment, "b", 50, 2, 60, 0),
		series(api.KindNode, "n", 200, 1),
	}}
	ivs := tl.Intervals()
	if len(ivs) != 4 {
		t.Fatalf("intervals %+v", ivs)
	}
	if iv := ivs[0]; iv.From != 0 || iv.To != 10*s || iv.Peak != 3 || iv.Open {
		t.Errorf("first %+v", iv)
	}
	if iv := ivs[3]; iv.Kind != api.KindNode || !iv.Open || iv.To != 600*s {
		t.Errorf("last %+v", iv)
	}
	inc := tl.Incidents(5 * time.Minute)
	if len(inc) != 2 || inc[0].Key.Name != "a" || inc[1].Kind != api.KindNode {
		t.Errorf("incidents %+v, want a (400s) and the node (400s, open)", inc)
	}
	if len(tl.Without([]api.Kind{api.KindNode}).Incidents(5*time.Minute)) != 1 {
		t.Error("Without(Node) kept the node")
	}
	total := tl.KindTotal(api.KindDeployment)
	if got := total.Sample(25*s, 100*s); len(got) != 5 ||
		got[0] != 3 || got[1] != 0 || got[2] != 2 || got[3] != 0 || got[4] != 1 {
		t.Errorf("samples %v, want [3 0 2 0 1]", got)
	}
	if objs, sum := tl.OpenAt(55 * s); objs != 1 || sum != 2 {
		t.Errorf("OpenAt(55s) = %d, %d", objs, sum)
	}
}
