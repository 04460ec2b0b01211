package autoscaler

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

// fakeLister is a lister over a map, listing in namespace and name order
// as an informer's does, with the node-name index of pods; changed is
// told every object put or deleted (an informer's handlers).
type fakeLister struct {
	objs    map[api.Key]api.Object
	sorted  []api.Key
	stale   bool
	changed func(api.Object)
	// byNode indexes pods by spec.nodeName.
	byNode map[string]map[api.Key]bool
}

func newFakeLister() *fakeLister {
	return &fakeLister{objs: map[api.Key]api.Object{}, byNode: map[string]map[api.Key]bool{}}
}

func (f *fakeLister) put(o api.Object) {
	k := o.GetObjectMeta().Key()
	old, ok := f.objs[k]
	if !ok {
		f.stale = true
	}
	f.file(k, old, o)
	f.objs[k] = o
	if f.changed != nil {
		f.changed(o)
	}
}

func (f *fakeLister) del(k api.Key) {
	o, ok := f.objs[k]
	if !ok {
		return
	}
	f.file(k, o, nil)
	delete(f.objs, k)
	f.stale = true
	if f.changed != nil {
		f.changed(o)
	}
}

// subscribe tells changed of every object held, then of every change
// (an informer's AddEventHandler).
func (f *fakeLister) subscribe(changed func(api.Object)) {
	f.changed = changed
	for _, k := range f.keys() {
		changed(f.objs[k])
	}
}

func (f *fakeLister) keys() []api.Key {
	if f.stale || f.sorted == nil {
		f.sorted = f.sorted[:0]
		for k := range f.objs {
			f.sorted = append(f.sorted, k)
		}
		slices.SortFunc(f.sorted, compareKeys)
		f.stale = false
	}
	return f.sorted
}

func (f *fakeLister) List(_ api.Selector, _ string) []api.Object {
	out := make([]api.Object, 0, len(f.objs))
	for _, k := range f.keys() {
		out = append(out, f.objs[k])
	}
	return out
}

func (f *fakeLister) Get(key api.Key) (api.Object, bool) {
	o, ok := f.objs[key]
	return o, ok
}

// ByIndex answers informer.IndexNodeName only.
func (f *fakeLister) ByIndex(name, value string) []api.Object {
	if name != informer.IndexNodeName {
		panic("fakeLister: no index " + name)
	}
	keys := slices.Collect(maps.Keys(f.byNode[value]))
	slices.SortFunc(keys, compareKeys)
	out := make([]api.Object, 0, len(keys))
	for _, k := range keys {
		out = append(out, f.objs[k])
	}
	return out
}

// file keeps the node-name index of pods in step with a put or del of o.
func (f *fakeLister) file(k api.Key, old, o api.Object) {
	if p, ok := old.(*api.Pod); ok && p.Spec.NodeName != "" {
		delete(f.byNode[p.Spec.NodeName], k)
	}
	if p, ok := o.(*api.Pod); ok && p.Spec.NodeName != "" {
		if f.byNode[p.Spec.NodeName] == nil {
			f.byNode[p.Spec.NodeName] = map[api.Key]bool{}
		}
		f.byNode[p.Spec.NodeName][k] = true
	}
}

// fakeClock stands still; Sleep moves it.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time                  { return c.now }
func (c *fakeClock) Since(t time.Time) time.Duration { return c.now.Sub(t) }
func (c *fakeClock) Sleep(d time.Duration)           { c.now = c.now.Add(d) }

// benchCluster is nodes of three groups with podsPerNode pods each, every
// node at 75% of its CPU: nothing to scale up or down.
type benchCluster struct {
	cloud       *fakeCloud
	nodes, pods *fakeLister
	clock       *fakeClock
}

func benchNode(name, group string, created time.Time) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{"group": group},
		CreationTimestamp: api.Time{Time: created}},
		Status: api.NodeStatus{
			Allocatable: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("8"), api.ResourceMemory: api.MustParseQuantity("32Gi"),
				api.ResourcePods: api.MustParseQuantity("110")},
			Conditions: []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}}}}
}

func benchPod(name, node string, cpuMilli int64) *api.Pod {
	yes := true
	return &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "bench"},
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-uid", Controller: &yes}}},
		Spec: api.PodSpec{NodeName: node, Containers: []api.Container{{Name: "app", Resources: api.ResourceRequirements{
			Requests: api.ResourceList{api.ResourceCPU: api.MustParseQuantity(fmt.Sprintf("%dm", cpuMilli)),
				api.ResourceMemory: api.MustParseQuantity("256Mi")}}}}},
		Status: api.PodStatus{Phase: api.PodRunning}}
}

func newBenchCluster(nodes, podsPerNode int) *benchCluster {
	now := time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)
	c := &benchCluster{cloud: &fakeCloud{target: map[string]int{}, machines: map[string][]string{}},
		nodes: newFakeLister(), pods: newFakeLister(), clock: &fakeClock{now: now}}
	groups := []string{"a", "b", "c"}
	for _, g := range groups {
		c.cloud.groups = append(c.cloud.groups, NodeGroup{Name: g, MinSize: 0, MaxSize: nodes, Template: benchNode("t", g, now)})
	}
	for i := range nodes {
		g := groups[i%len(groups)]
		name := fmt.Sprintf("%s-%05d", g, i)
		c.nodes.put(benchNode(name, g, now.Add(-time.Hour)))
		c.cloud.target[g]++
		c.cloud.machines[g] = append(c.cloud.machines[g], name)
		for j := range podsPerNode {
			c.pods.put(benchPod(fmt.Sprintf("p-%05d-%03d", i, j), name, 8000*3/4/int64(podsPerNode)))
		}
	}
	for _, g := range groups {
		slices.Sort(c.cloud.machines[g])
	}
	return c
}

// BenchmarkScan is one RunOnce over a steady cluster of N nodes of 30
// pods each, nothing to scale: changed=0 changes no pod between scans,
// changed=10 gives ten pods a new version (a status update) before each.
func BenchmarkScan(b *testing.B) {
	for _, n := range []int{300, 1000, 3000} {
		for _, changed := range []int{0, 10} {
			b.Run(fmt.Sprintf("nodes=%d/changed=%d", n, changed), func(b *testing.B) {
				c := newBenchCluster(n, 30)
				a := newBenchAutoscaler(c)
				ctx := context.Background()
				a.RunOnce(ctx)
				keys := slices.Clone(c.pods.keys())
				next := 0
				for b.Loop() {
					for range changed {
						k := keys[next%len(keys)]
						next += 7919
						o, _ := c.pods.Get(k)
						p := o.(*api.Pod).DeepCopy()
						p.ResourceVersion = fmt.Sprint(next)
						c.pods.put(p)
					}
					c.clock.Sleep(DefaultScanInterval)
					a.RunOnce(ctx)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/scan")
			})
		}
	}
}

// newBenchAutoscaler is an autoscaler over c's listers and cloud.
func newBenchAutoscaler(c *benchCluster) *autoscaler {
	opts := Options{Provider: c.cloud}
	opts.defaults()
	owners := ownerListers{api.KindReplicaSet: newFakeLister()}
	v := newView(c.nodes, c.pods, c.cloud)
	c.nodes.subscribe(v.nodeChanged)
	c.pods.subscribe(v.podChanged)
	return &autoscaler{opts: opts, clock: c.clock, view: v, pods: c.pods, budgets: newFakeLister(),
		owners: owners, rules: defaultRules(opts.deleteOptions()),
		unneededSince: map[string]time.Time{}, unremovableUntil: map[string]time.Time{}, reported: map[string]string{},
		scaleUps: map[string]*scaleUpRequest{}, unregisteredSince: map[string]time.Time{},
		backoff: newBackoff(opts.InitialNodeGroupBackoffDuration, opts.MaxNodeGroupBackoffDuration, opts.NodeGroupBackoffResetTimeout)}
}
