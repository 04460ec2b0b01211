package autoscaler

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/sim/api"
)

// rebuild is the state a scan at now would build from scratch from the
// listers (what every scan did before the view): every node, then every
// pod not terminated in key order, counted on its node or pending.
func rebuild(nodes, pods lister, provider CloudProvider, now time.Time) *state {
	s := &state{byName: map[string]*nodeState{}, sim: scheduler.NewSimulation()}
	for _, o := range nodes.List(api.Everything(), "") {
		n := o.(*api.Node)
		ns := &nodeState{sim: s.sim}
		ns.setNode(n, provider.NodeGroupForNode(n))
		s.sim.AddNode(n)
		s.nodes = append(s.nodes, ns)
		s.byName[n.Name] = ns
	}
	for _, o := range pods.List(api.Everything(), "") {
		p := o.(*api.Pod)
		if terminated(p) {
			continue
		}
		if isDaemonPod(p) {
			s.daemons = append(s.daemons, p)
		}
		if ns := s.byName[p.Spec.NodeName]; ns != nil && p.Spec.NodeName != "" {
			cpu, mem := requests(p)
			ns.place(p, cpu, mem)
			if longTerminating(p, now) {
				ns.goneCPU += cpu
				ns.goneMem += mem
			}
		} else if unschedulable(p) && !expendable(p) {
			s.pending = append(s.pending, p)
		}
	}
	return s
}

// describe is what a scan reads of s, as text: each node's fields and
// pods (key and version, in order), the pending and DaemonSet pods and
// the Simulation's contents.
func describe(s *state) string {
	var b strings.Builder
	podList := func(pods []*api.Pod) string {
		var out []string
		for _, p := range pods {
			out = append(out, p.Namespace+"/"+p.Name+"@"+p.ResourceVersion)
		}
		return strings.Join(out, " ")
	}
	for _, n := range s.nodes {
		if s.byName[n.node.Name] != n {
			fmt.Fprintf(&b, "node %s not in byName\n", n.node.Name)
		}
		fmt.Fprintf(&b, "%s@%s group=%s alloc=%d/%d/%d used=%d/%d gone=%d/%d ready=%v deleting=%v: %s\n",
			n.node.Name, n.node.ResourceVersion, n.group, n.cpu, n.mem, n.maxPods, n.usedCPU, n.usedMem, n.goneCPU, n.goneMem,
			n.ready, n.deleting, podList(n.pods))
	}
	fmt.Fprintf(&b, "byName: %d\npending: %s\ndaemons: %s\n%s", len(s.byName), podList(s.pending), podList(s.daemons), s.sim.Contents())
	return b.String()
}

// churn makes random changes to a cluster of a few nodes and pods.
type churn struct {
	r           *rand.Rand
	nodes, pods *fakeLister
	version     int
	now         time.Time
}

func (c *churn) nextVersion() string {
	c.version++
	return fmt.Sprint(c.version)
}

func (c *churn) nodeName() string { return fmt.Sprintf("n-%d", c.r.IntN(8)) }

// node is a new version of a node: ready or not, tainted for deletion
// or not, of a group or none.
func (c *churn) node() *api.Node {
	n := benchNode(c.nodeName(), []string{"a", "b", ""}[c.r.IntN(3)], c.now)
	n.ResourceVersion = c.nextVersion()
	if c.r.IntN(4) == 0 {
		n.Status.Conditions[0].Status = api.ConditionFalse
	}
	if c.r.IntN(4) == 0 {
		n.Spec.Taints = []api.Taint{{Key: TaintToBeDeleted, Effect: api.TaintEffectNoSchedule}}
	}
	if c.r.IntN(3) == 0 {
		n.Labels["topology.kubernetes.io/zone"] = []string{"z1", "z2"}[c.r.IntN(2)]
	}
	return n
}

// pod is a new version of a pod: bound to a node (which may not exist)
// or pending, of a DaemonSet or not, terminal, terminating, expendable.
func (c *churn) pod() *api.Pod {
	node := ""
	if c.r.IntN(4) > 0 {
		node = c.nodeName()
	}
	p := benchPod(fmt.Sprintf("p-%d", c.r.IntN(40)), node, int64(100*(1+c.r.IntN(20))))
	p.Namespace = []string{"default", "kube-system"}[c.r.IntN(2)]
	p.ResourceVersion = c.nextVersion()
	if node == "" {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: api.ConditionFalse, Reason: api.PodReasonUnschedulable}}
	}
	switch c.r.IntN(8) {
	case 0:
		p.OwnerReferences[0].Kind, p.OwnerReferences[0].Name = "DaemonSet", "ds"
	case 1:
		p.Status.Phase = api.PodSucceeded
	case 2:
		p.DeletionTimestamp = &api.Time{Time: c.now.Add(-time.Duration(c.r.IntN(120)) * time.Second)}
	case 3:
		low := int32(-100)
		p.Spec.Priority = &low
	case 4:
		p.Spec.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{
			{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "bench"}}, TopologyKey: "kubernetes.io/hostname"}}}}
	}
	return p
}

// step makes one change: a node or pod put (new or a new version) or
// deleted.
func (c *churn) step() {
	switch k := c.r.IntN(10); {
	case k == 0:
		c.nodes.del(api.Key{Name: c.nodeName()})
	case k <= 2:
		c.nodes.put(c.node())
	case k == 3:
		p := c.pod()
		c.pods.del(p.Key())
	default:
		c.pods.put(c.pod())
	}
}

// scan changes s as a scan does: pods placed on its nodes, a template
// node, a node's pods moved elsewhere.
func (c *churn) scan(s *state) {
	if len(s.nodes) == 0 {
		return
	}
	for range c.r.IntN(4) {
		firstFit(s.nodes, c.pod())
	}
	t := benchNode("template-node-for-a-1", "a", c.now)
	s.sim.AddNode(t)
	n := s.nodes[c.r.IntN(len(s.nodes))]
	movable(n, n.pods, s, map[string]bool{})
}

// TestViewMatchesRebuild checks, after each of many seeded random
// batches of node and pod changes (and a scan's own changes in
// between), that the state the view starts a scan from is the one a
// rebuild from the listers makes.
func TestViewMatchesRebuild(t *testing.T) {
	for seed := range uint64(20) {
		c := &churn{r: rand.New(rand.NewPCG(seed, 1)), nodes: newFakeLister(), pods: newFakeLister(),
			now: time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)}
		cloud := &fakeCloud{}
		v := newView(c.nodes, c.pods, cloud)
		c.nodes.subscribe(v.nodeChanged)
		c.pods.subscribe(v.podChanged)
		for batch := range 60 {
			for range c.r.IntN(12) {
				c.step()
			}
			c.now = c.now.Add(DefaultScanInterval)
			got := describe(v.begin(c.now))
			want := describe(rebuild(c.nodes, c.pods, cloud, c.now))
			if got != want {
				t.Fatalf("seed %d, batch %d: the view\n%s\na rebuild\n%s", seed, batch, got, want)
			}
			c.scan(v.s)
			v.end()
		}
	}
}
