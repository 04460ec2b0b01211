package scheduler

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
)

// zonedScheduler returns a scheduler with the default options whose
// cache holds nodes nodes of the given capacity, named node-0000 on,
// in zones zone-a, zone-b and zone-c in turn, each labelled with its
// hostname.
func zonedScheduler(nodes int, capacity api.ResourceList) *scheduler {
	c := newCache()
	for i := range nodes {
		n := testNode(fmt.Sprintf("node-%04d", i), capacity)
		n.Labels[labelZone] = fmt.Sprintf("zone-%c", 'a'+i%3)
		n.Labels[labelHostname] = n.Name
		c.setNode(n)
	}
	s := &scheduler{cache: c, rng: rand.New(rand.NewPCG(1, 1))}
	s.opts.defaults()
	return s
}

// BenchmarkScheduleCycle measures one scheduling cycle (filter, score,
// select, assume) on a 5,000-node cluster across 3 zones, where the
// adaptive percentageOfNodesToScore searches 10% of the nodes: the
// scheduler's own cost per pod, without the API round trips.
func BenchmarkScheduleCycle(b *testing.B) {
	s := zonedScheduler(5000, rl("cpu", "64", "memory", "256Gi", "pods", "110"))
	pod := testPod("p", rl("cpu", "100m", "memory", "128Mi"))
	i := 0
	start := time.Now()
	for b.Loop() {
		p := pod.DeepCopyObject().(*api.Pod)
		p.Name = fmt.Sprintf("p-%d", i)
		p.UID = api.UID(p.Name)
		i++
		node, err := s.schedule(p, "")
		if err != nil {
			b.Fatal(err)
		}
		s.cache.assume(p, node)
	}
	b.ReportMetric(float64(i)/time.Since(start).Seconds(), "pods/s")
}

// BenchmarkScheduleScaleProbe measures one scheduling cycle as the
// 3,000-node scale probe (clustersim generate scale --nodes 3000) makes
// it: nodes of 8 cpu, 32Gi and 110 pods in three zones, 30 pods a node,
// and a pod of the probe's Deployment template (100m, 256Mi, two labels,
// no placement rules). The adaptive percentageOfNodesToScore searches 26%
// of the nodes (780), the formula's peak. Each bound pod replaces the
// oldest, so the cluster stays at 30 pods a node however long it runs.
func BenchmarkScheduleScaleProbe(b *testing.B) { scheduleProbeShapes(b, 1) }

// BenchmarkScheduleShapes is BenchmarkScheduleScaleProbe with pods of
// several request shapes taking turns: up to the cache's shapeSlots
// each shape's kept scores serve its next pod; past them (16) a shape's
// pods are scheduled as if none were kept, which should cost no more
// than before there were any.
func BenchmarkScheduleShapes(b *testing.B) {
	for _, k := range []int{4, 8, 16} {
		b.Run(fmt.Sprintf("shapes=%d", k), func(b *testing.B) { scheduleProbeShapes(b, k) })
	}
}

// scheduleProbeShapes runs BenchmarkScheduleScaleProbe's cluster with
// pods of k shapes in turn (100m, 110m, ... of cpu; 256Mi).
func scheduleProbeShapes(b *testing.B, k int) {
	const nodes, perNode = 3000, 30
	s := zonedScheduler(nodes, rl("cpu", "8", "memory", "32Gi", "pods", "110"))
	tmpls := make([]*api.Pod, k)
	for i := range tmpls {
		tmpls[i] = testPod("p", rl("cpu", fmt.Sprintf("%dm", 100+10*i), "memory", "256Mi"))
		tmpls[i].Labels = map[string]string{"app": "app-1", "tier": "scale"}
	}
	next := numbered()
	// scheduleRolling asks for next(0) at every measured cycle: the
	// shapes take turns by a count of their own.
	turn := 0
	scheduleRolling(b, s, nodes*perNode, func(int) *api.Pod {
		turn++
		return next(tmpls[turn%k])
	})
}

// numbered returns a maker of pods from templates, each named (and its
// uid) p-0, p-1, ... in turn. A pod is a shallow copy of its template:
// the scheduler and the cache only read a pod, and a deep copy per pod
// would be half of what is measured.
func numbered() func(t *api.Pod) *api.Pod {
	i := 0
	return func(t *api.Pod) *api.Pod {
		p := new(*t)
		p.Name = "p-" + strconv.Itoa(i)
		p.UID = api.UID(p.Name)
		i++
		return p
	}
}

// scheduleRolling schedules and binds n pods of next(0), ..., next(n-1),
// then measures one scheduling cycle an iteration, of next(0), each bound
// pod replacing the oldest so that the cluster keeps its size.
func scheduleRolling(b *testing.B, s *scheduler, n int, next func(j int) *api.Pod) {
	bound := make([]*api.Pod, 0, n)
	bind := func(p *api.Pod) {
		node, err := s.schedule(p, "")
		if err != nil {
			b.Fatal(err)
		}
		s.cache.assume(p, node)
		bound = append(bound, p)
	}
	for j := range n {
		bind(next(j))
	}
	b.ResetTimer()
	for b.Loop() {
		bind(next(0))
		old := bound[0]
		bound = bound[1:]
		s.cache.forget(old.Key(), old.UID)
	}
}

// BenchmarkScheduleSpread measures one scheduling cycle of a pod with
// two ScheduleAnyway topology spread constraints, zone and hostname, on
// 600 nodes in three zones holding 10 pods a node of three Deployments
// (the pod's among them), as a Deployment's rollout makes it: between
// two of its pods only the nodes that got or lost one change. Each
// bound pod replaces the oldest, so the cluster stays at 10 pods a node.
func BenchmarkScheduleSpread(b *testing.B) {
	const nodes, perNode = 600, 10
	s := zonedScheduler(nodes, rl("cpu", "64", "memory", "256Gi", "pods", "110"))
	tmpl := func(app string) *api.Pod {
		p := testPod("p", rl("cpu", "100m", "memory", "128Mi"))
		p.Labels = map[string]string{"app": app, "pod-template-hash": "h-" + app}
		sel := &api.LabelSelector{MatchLabels: map[string]string{"app": app}}
		for _, key := range []string{labelZone, labelHostname} {
			p.Spec.TopologySpreadConstraints = append(p.Spec.TopologySpreadConstraints, api.TopologySpreadConstraint{
				MaxSkew: 1, TopologyKey: key, WhenUnsatisfiable: api.ScheduleAnyway,
				LabelSelector: sel, MatchLabelKeys: []string{"pod-template-hash"},
			})
		}
		return p
	}
	tmpls := []*api.Pod{tmpl("web"), tmpl("api"), tmpl("cache")}
	next := numbered()
	scheduleRolling(b, s, nodes*perNode, func(j int) *api.Pod { return next(tmpls[j%len(tmpls)]) })
}

// BenchmarkScheduleAntiAffinity measures one scheduling cycle of a pod
// with a preferred pod anti-affinity to its own Deployment's pods by
// hostname (weight 100), on nodes in three zones holding 30 pods a node
// of ten such Deployments (the pod's among them): InterPodAffinity's
// PreScore reads every pod in the cluster, its own term against each
// and each one's term against it. Each bound pod replaces the oldest,
// so the cluster stays at 30 pods a node. At 300 and 1,000 nodes (9,000
// and 30,000 pods): read pod by pod, the cost of a cycle grows with the
// pods; by the nodes' memos (interpodmemo.go), with the nodes. (Its
// setup schedules every pod first: at 3,000 nodes pod by pod, hours.)
func BenchmarkScheduleAntiAffinity(b *testing.B) {
	for _, nodes := range []int{300, 1000} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			const perNode, apps = 30, 10
			s := zonedScheduler(nodes, rl("cpu", "8", "memory", "32Gi", "pods", "110"))
			tmpls := make([]*api.Pod, apps)
			for a := range tmpls {
				app := fmt.Sprintf("app-%d", a)
				p := testPod("p", rl("cpu", "100m", "memory", "256Mi"))
				p.Labels = map[string]string{"app": app, "tier": "scale"}
				p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{
					Weight: 100, PodAffinityTerm: api.PodAffinityTerm{TopologyKey: labelHostname,
						LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}}}}}}}
				tmpls[a] = p
			}
			next := numbered()
			scheduleRolling(b, s, nodes*perNode, func(j int) *api.Pod { return next(tmpls[j%apps]) })
		})
	}
}
