package store

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/kernel"
)

func pod(name, node string, labels map[string]string) *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: labels},
		Spec:       api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "c", Image: "nginx"}}},
	}
}

type recorder struct{ got []string }

func (r *recorder) Deliver(e Event) {
	m := e.Object.GetObjectMeta()
	r.got = append(r.got, fmt.Sprintf("%s %s", e.Type, m.Name))
}

func TestSelectiveWatchSeesObjectsEnterAndLeave(t *testing.T) {
	s := New(kernel.New(1))
	sel := api.SelectorFromSet(map[string]string{"app": "web"})
	var web, node1 recorder
	if _, err := s.Watch(api.KindPod, 0, ListOptions{Labels: &sel}, &web); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Watch(api.KindPod, 0, ListOptions{NodeName: "node-1"}, &node1); err != nil {
		t.Fatal(err)
	}
	op := Op{Actor: "test"}
	p, _ := s.Create(op, pod("a", "", map[string]string{"app": "web"}))
	s.Create(op, pod("b", "node-2", map[string]string{"app": "db"}))

	bound := p.DeepCopyObject().(*api.Pod)
	bound.Spec.NodeName = "node-1"
	p, _ = s.Update(op, bound, "")
	relabel := p.DeepCopyObject().(*api.Pod)
	relabel.Labels = map[string]string{"app": "db"}
	p, _ = s.Update(op, relabel, "")
	moved := p.DeepCopyObject().(*api.Pod)
	moved.Spec.NodeName = "node-3"
	s.Update(op, moved, "")
	s.Delete(op, api.KindPod, api.Key{Namespace: "default", Name: "b"}, DeleteOptions{GracePeriodSeconds: new(int64)})

	if want := []string{"ADDED a", "MODIFIED a", "DELETED a"}; !slices.Equal(web.got, want) {
		t.Errorf("label watch got %v, want %v", web.got, want)
	}
	if want := []string{"ADDED a", "MODIFIED a", "DELETED a"}; !slices.Equal(node1.got, want) {
		t.Errorf("node watch got %v, want %v", node1.got, want)
	}
}

// TestIndexedWatches holds the watches the store indexes (a pod watch
// by node, a watch by name) to what an unindexed watch with the same
// selector would see, through stops inside and outside deliveries.
func TestIndexedWatches(t *testing.T) {
	s := New(kernel.New(1))
	var byName, byNode, stopped, plain recorder
	var stopMe *Watch
	mustWatch := func(kind api.Kind, opts ListOptions, sink Sink) *Watch {
		t.Helper()
		w, err := s.Watch(kind, 0, opts, sink)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	mustWatch(api.KindConfigMap, ListOptions{Name: "x"}, &byName)
	// A second watch of the same name stops itself at its first event.
	stopMe = mustWatch(api.KindConfigMap, ListOptions{Name: "x"}, SinkFunc(func(e Event) {
		stopped.Deliver(e)
		stopMe.Stop()
	}))
	mustWatch(api.KindConfigMap, ListOptions{Namespace: "default"}, &plain)
	other := mustWatch(api.KindConfigMap, ListOptions{Name: "y"}, &recorder{})
	mustWatch(api.KindPod, ListOptions{NodeName: "n1", Name: "p"}, &byNode)

	op := Op{Actor: "test"}
	for _, n := range []string{"x", "y", "z"} {
		if _, err := s.Create(op, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: n, Namespace: "default"}}); err != nil {
			t.Fatal(err)
		}
	}
	other.Stop() // outside a delivery: dropped at once
	if tbl, _ := s.table(api.KindConfigMap); len(tbl.byName["y"]) != 0 || len(tbl.stopped) != 0 {
		t.Errorf("a watch stopped outside a delivery is still indexed (%d) or pending (%d)", len(tbl.byName["y"]), len(tbl.stopped))
	}
	cm, _ := s.Get(api.KindConfigMap, api.Key{Namespace: "default", Name: "x"})
	upd := cm.DeepCopyObject().(*api.ConfigMap)
	upd.Data = map[string]string{"k": "v"}
	if _, err := s.Update(op, upd, ""); err != nil {
		t.Fatal(err)
	}
	s.Create(op, pod("p", "n1", nil))
	s.Create(op, pod("q", "n1", nil))
	s.Delete(op, api.KindConfigMap, api.Key{Namespace: "default", Name: "x"}, DeleteOptions{})

	if want := []string{"ADDED x", "MODIFIED x", "DELETED x"}; !slices.Equal(byName.got, want) {
		t.Errorf("name watch got %v, want %v", byName.got, want)
	}
	if want := []string{"ADDED x"}; !slices.Equal(stopped.got, want) {
		t.Errorf("stopped name watch got %v, want %v", stopped.got, want)
	}
	if want := []string{"ADDED x", "ADDED y", "ADDED z", "MODIFIED x", "DELETED x"}; !slices.Equal(plain.got, want) {
		t.Errorf("namespace watch got %v, want %v", plain.got, want)
	}
	if want := []string{"ADDED p"}; !slices.Equal(byNode.got, want) {
		t.Errorf("node and name watch got %v, want %v", byNode.got, want)
	}
	tbl, _ := s.table(api.KindConfigMap)
	if got := len(tbl.byName["x"]); got != 1 {
		t.Errorf("watchers of x after compaction: %d, want 1", got)
	}
	if _, ok := tbl.byName["y"]; ok || len(tbl.stopped) != 0 {
		t.Errorf("stopped watch of y still indexed (%v) or pending (%d)", tbl.byName["y"], len(tbl.stopped))
	}
}

// TestStopDropsWatcher checks that a stopped watch leaves its table's
// lists without a write of its kind: at once when stopped outside a
// delivery, and when the delivery under way ends when stopped inside
// one, its own kind's or another's. Watches stopped and left registered
// until their kind's next write were a settled cluster's growing memory
// (TestMemoryFlatInSteadyState in scenarios/runner).
func TestStopDropsWatcher(t *testing.T) {
	lists := func(s *Store, kind api.Kind) (watchers, byNode, byName, stopped int) {
		tbl, err := s.table(kind)
		if err != nil {
			t.Fatal(err)
		}
		for _, ws := range tbl.byNode {
			byNode += len(ws)
		}
		for _, ws := range tbl.byName {
			byName += len(ws)
		}
		return len(tbl.watchers), byNode, byName, len(tbl.stopped)
	}
	for _, tc := range []struct {
		name string
		opts ListOptions
	}{
		{"unindexed", ListOptions{Namespace: "default"}},
		{"by node", ListOptions{NodeName: "n1"}},
		{"by name", ListOptions{Name: "p"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(kernel.New(1))
			// Stopped outside a delivery.
			w, err := s.Watch(api.KindPod, 0, tc.opts, &recorder{})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.RegisteredWatchers(api.KindPod); got != 1 {
				t.Fatalf("RegisteredWatchers = %d after a watch, want 1", got)
			}
			w.Stop()
			if a, b, c, d := lists(s, api.KindPod); a+b+c+d != 0 {
				t.Errorf("stopped outside a delivery: lists hold %d unindexed, %d by node, %d by name, %d stopped; want none", a, b, c, d)
			}
			// Stopped inside the delivery of another kind's change: the
			// Pod watch stays listed (stopped) while the ConfigMap
			// change is delivered, and goes when it has been.
			pw, err := s.Watch(api.KindPod, 0, tc.opts, &recorder{})
			if err != nil {
				t.Fatal(err)
			}
			var during int
			if _, err := s.Watch(api.KindConfigMap, 0, ListOptions{}, SinkFunc(func(Event) {
				pw.Stop()
				_, _, _, during = lists(s, api.KindPod)
			})); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Create(Op{}, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c", Namespace: "default"}}); err != nil {
				t.Fatal(err)
			}
			if during != 1 {
				t.Errorf("inside the delivery: %d stopped watches pending, want 1 (the lists must not shift under a delivery)", during)
			}
			if a, b, c, d := lists(s, api.KindPod); a+b+c+d != 0 {
				t.Errorf("after the delivery: lists hold %d unindexed, %d by node, %d by name, %d stopped; want none", a, b, c, d)
			}
			if got := s.RegisteredWatchers(api.KindPod); got != 0 {
				t.Errorf("RegisteredWatchers = %d after both stopped, want 0", got)
			}
		})
	}
}

func TestWatchStopInsideDeliver(t *testing.T) {
	s := New(kernel.New(1))
	var got []string
	var w1 *Watch
	w1, _ = s.Watch(api.KindConfigMap, 0, ListOptions{}, SinkFunc(func(e Event) {
		got = append(got, "w1 "+e.Object.GetObjectMeta().Name)
		w1.Stop()
	}))
	s.Watch(api.KindConfigMap, 0, ListOptions{}, SinkFunc(func(e Event) {
		got = append(got, "w2 "+e.Object.GetObjectMeta().Name)
	}))
	for _, n := range []string{"x", "y"} {
		s.Create(Op{}, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: n, Namespace: "default"}})
	}
	if want := []string{"w1 x", "w2 x", "w2 y"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestHistoryWindow(t *testing.T) {
	s := New(kernel.New(1))
	s.SetHistory(3)
	var rvs []uint64
	for i := range 6 {
		o, err := s.Create(Op{}, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint("cm-", i), Namespace: "default"}})
		if err != nil {
			t.Fatal(err)
		}
		rvs = append(rvs, s.parseRV(o.GetObjectMeta().ResourceVersion))
	}
	tests := []struct {
		from    uint64
		wantErr bool
		want    int // events replayed
	}{
		{rvs[0], true, 0},
		{rvs[1], true, 0},
		{rvs[2], false, 3},
		{rvs[4], false, 1},
		{rvs[5], false, 0},
	}
	for _, tc := range tests {
		var r recorder
		_, err := s.Watch(api.KindConfigMap, tc.from, ListOptions{}, &r)
		if tc.wantErr {
			if !errors.Is(err, apierr.ErrExpired) {
				t.Errorf("from %d: err = %v, want expired", tc.from, err)
			}
			continue
		}
		if err != nil || len(r.got) != tc.want {
			t.Errorf("from %d: err=%v replayed %v, want %d events", tc.from, err, r.got, tc.want)
		}
	}
}

func TestDiffPaths(t *testing.T) {
	a := pod("p", "", map[string]string{"app": "web"})
	a.Status.Conditions = []api.PodCondition{{Type: "Ready", Status: "False"}, {Type: "PodScheduled", Status: "True"}}
	b := a.DeepCopyObject().(*api.Pod)
	b.Labels["tier"] = "front"
	b.Status.Conditions = []api.PodCondition{{Type: "PodScheduled", Status: "True"}, {Type: "Ready", Status: "True"}}
	b.Spec.Containers[0].Image = "nginx:2"
	b.Spec.NodeName = "n1"
	var got []string
	for _, c := range Diff(a, b) {
		got = append(got, fmt.Sprintf("%s %q->%q", c.Path, c.Old, c.New))
	}
	want := []string{
		`metadata.labels[tier] ""->"front"`,
		`spec.containers[c].image "nginx"->"nginx:2"`,
		`spec.nodeName ""->"n1"`,
		`status.conditions[Ready].status "False"->"True"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("diff =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d := Diff(a, a.DeepCopyObject()); len(d) != 0 {
		t.Errorf("diff of equal objects = %v", d)
	}
}

func BenchmarkUpdate(b *testing.B) {
	s := New(kernel.New(1))
	o, _ := s.Create(Op{Actor: "bench"}, pod("p", "n1", map[string]string{"app": "web"}))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		u := o.DeepCopyObject().(*api.Pod)
		i++
		u.Status.Phase = []api.PodPhase{api.PodPending, api.PodRunning}[i&1]
		var err error
		o, err = s.Update(Op{Actor: "bench"}, u, "status")
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "updates/s")
}

// TestNewUID checks the uid's format against fmt's, which it spells out
// by hand (a planted digit order reversed made it fail).
func TestNewUID(t *testing.T) {
	s := New(kernel.New(7))
	check := New(kernel.New(7))
	for range 100 {
		hi, lo := check.uids.Uint64(), check.uids.Uint64()
		hi = hi&^0xf000 | 0x4000
		lo = lo&^(0xc<<60) | (0x8 << 60)
		want := fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", hi>>32, (hi>>16)&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
		if got := s.newUID(); string(got) != want {
			t.Fatalf("uid %s, want %s", got, want)
		}
	}
}

// TestListByName: a list selecting one name (one lookup when the
// namespace is given or the kind is cluster-scoped), and a watch from
// nothing with it, give what a walk of the kind filtered by every
// selector gives.
func TestListByName(t *testing.T) {
	s := New(kernel.New(1))
	op := Op{Actor: "test"}
	for _, ns := range []string{"default", "other"} {
		for _, n := range []string{"a", "b"} {
			if _, err := s.Create(op, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: n, Namespace: ns, Labels: map[string]string{"ns": ns}}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, n := range []string{"n1", "n2"} {
		if _, err := s.Create(op, &api.Node{ObjectMeta: api.ObjectMeta{Name: n}}); err != nil {
			t.Fatal(err)
		}
	}
	other := api.SelectorFromSet(map[string]string{"ns": "other"})
	tests := []struct {
		kind api.Kind
		opts ListOptions
		want []string
	}{
		{api.KindConfigMap, ListOptions{Namespace: "default", Name: "a"}, []string{"default/a"}},
		{api.KindConfigMap, ListOptions{Namespace: "default", Name: "zz"}, nil},
		{api.KindConfigMap, ListOptions{Name: "b"}, []string{"default/b", "other/b"}},
		{api.KindConfigMap, ListOptions{Namespace: "default", Name: "a", Labels: &other}, nil},
		{api.KindConfigMap, ListOptions{Namespace: "other", Name: "a", Labels: &other}, []string{"other/a"}},
		{api.KindNode, ListOptions{Name: "n2"}, []string{"/n2"}},
		{api.KindNode, ListOptions{Namespace: "default", Name: "n2"}, nil},
		{api.KindNode, ListOptions{Name: "n3"}, nil},
	}
	for _, tt := range tests {
		objs, _, err := s.List(tt.kind, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, o := range objs {
			m := o.GetObjectMeta()
			got = append(got, m.Namespace+"/"+m.Name)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s %+v: got %v, want %v", tt.kind, tt.opts, got, tt.want)
		}
		// A watch from nothing starts with the same objects.
		var initial []string
		w, err := s.Watch(tt.kind, 0, tt.opts, SinkFunc(func(e Event) {
			m := e.Object.GetObjectMeta()
			initial = append(initial, m.Namespace+"/"+m.Name)
		}))
		if err != nil {
			t.Fatal(err)
		}
		w.Stop()
		if !slices.Equal(initial, tt.want) {
			t.Errorf("%s %+v: a watch from 0 started with %v, want %v", tt.kind, tt.opts, initial, tt.want)
		}
	}
}
