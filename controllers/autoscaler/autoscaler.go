package autoscaler

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity the cluster autoscaler runs as.
const Actor = "system:serviceaccount:kube-system:cluster-autoscaler"

// Component is the source component of its events.
const Component = "cluster-autoscaler"

// Defaults of cluster-autoscaler (config/const.go, config/flags/flags.go).
const (
	DefaultScanInterval                  = 10 * time.Second
	DefaultScaleDownUnneededTime         = 10 * time.Minute
	DefaultScaleDownUtilizationThreshold = 0.5
	DefaultScaleDownDelayAfterAdd        = 10 * time.Minute
)

// TaintToBeDeleted is the taint put on a node being removed
// (utils/taints ToBeDeletedTaint).
const TaintToBeDeleted = "ToBeDeletedByClusterAutoscaler"

// Event reasons.
const (
	ReasonTriggeredScaleUp  = "TriggeredScaleUp"
	ReasonNotTriggerScaleUp = "NotTriggerScaleUp"
	ReasonScaleDown         = "ScaleDown"
	ReasonScaleDownEmpty    = "ScaleDownEmpty"
)

// NodeGroup is a group of identical nodes the autoscaler may resize.
type NodeGroup struct {
	// Name identifies the group (and prefixes its nodes' names).
	Name string
	// MinSize and MaxSize bound the group's size.
	MinSize, MaxSize int
	// Template is what a new node of the group looks like: labels,
	// taints and status.allocatable.
	Template *api.Node
}

// CloudProvider is the cloud the autoscaler resizes: node groups, their
// target sizes, and machines.
type CloudProvider interface {
	// NodeGroups lists the autoscaled groups, sorted by name.
	NodeGroups() []NodeGroup
	// NodeGroupForNode names the group of a node ("" for none).
	NodeGroupForNode(node *api.Node) string
	// TargetSize is the group's size as asked for: its machines, joined
	// or still provisioning.
	TargetSize(group string) int
	// IncreaseSize asks for delta more machines; they join after the
	// group's provisioning delay.
	IncreaseSize(group string, delta int) error
	// DeleteNode removes the machine of node and its Node object.
	DeleteNode(node string) error
}

// Options configure the autoscaler; zero fields take the defaults.
type Options struct {
	// Provider is the cloud; required.
	Provider CloudProvider
	// ScanInterval is how often the cluster is re-evaluated (10s).
	ScanInterval time.Duration
	// ScaleDownUnneededTime is how long a node must be unneeded before it
	// is removed (10m).
	ScaleDownUnneededTime time.Duration
	// ScaleDownUtilizationThreshold: below it a node may be removed (0.5).
	ScaleDownUtilizationThreshold float64
	// ScaleDownDelayAfterAdd: no scale-down this long after a scale-up
	// (10m).
	ScaleDownDelayAfterAdd time.Duration
	// ScaleDownDisabled turns scale-down off.
	ScaleDownDisabled bool
	// Decided, when set, is told each decision as a line ("scale-up:
	// group web 1->3 (max: 6)"), for the run's timeline.
	Decided func(line string)
}

func (o *Options) defaults() {
	if o.ScanInterval <= 0 {
		o.ScanInterval = DefaultScanInterval
	}
	if o.ScaleDownUnneededTime <= 0 {
		o.ScaleDownUnneededTime = DefaultScaleDownUnneededTime
	}
	if o.ScaleDownUtilizationThreshold <= 0 {
		o.ScaleDownUtilizationThreshold = DefaultScaleDownUtilizationThreshold
	}
	if o.ScaleDownDelayAfterAdd <= 0 {
		o.ScaleDownDelayAfterAdd = DefaultScaleDownDelayAfterAdd
	}
}

type lister interface {
	List(sel api.Selector, namespace string) []api.Object
}

// autoscaler is one incarnation's memory: when nodes became unneeded and
// when the last scale-up happened.
type autoscaler struct {
	opts     Options
	client   client.Client
	recorder client.EventRecorder
	clock    client.Clock
	nodes    lister
	pods     lister
	// unneededSince is when each node was first found unneeded.
	unneededSince map[string]time.Time
	lastScaleUp   time.Time
}

// Setup registers the autoscaler with m: informers on Nodes and Pods and
// a loop running once per scan interval.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Provider == nil {
		return fmt.Errorf("autoscaler: no cloud provider")
	}
	opts.defaults()
	nodeInf, err := m.Informer(api.KindNode, informer.Options{})
	if err != nil {
		return err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return err
	}
	a := &autoscaler{opts: opts, client: m.Client(), recorder: m.Recorder(Component), clock: m.Clock(),
		nodes: nodeInf.Lister(), pods: podInf.Lister(), unneededSince: map[string]time.Time{}}
	return m.Add("loop", func(ctx context.Context) {
		if !m.WaitForCacheSync() {
			return
		}
		for ctx.Err() == nil {
			a.RunOnce(ctx)
			a.clock.Sleep(opts.ScanInterval)
		}
	})
}

// state is one scan's view of the cluster.
type state struct {
	nodes  []*nodeState
	byName map[string]*nodeState
	pods   []*api.Pod // every pod, name order
	// pending are the pods the scheduler reported Unschedulable.
	pending []*api.Pod
	// daemonSets are the DaemonSet pods' specs by owner, to charge a
	// template node what its daemons would request.
	daemons []*api.Pod
	// sim holds every node (template nodes included) and the pods placed
	// on them, for the scheduler's topology spread and inter-pod affinity
	// filters.
	sim *scheduler.Simulation
	// templates counts the template nodes made this scan, for their names.
	templates int
}

type nodeState struct {
	node     *api.Node
	group    string
	cpu, mem int64 // allocatable
	usedCPU  int64
	usedMem  int64
	pods     []*api.Pod
	maxPods  int64
	ready    bool
	deleting bool
	sim      *scheduler.Simulation
}

func (n *nodeState) fits(p *api.Pod, cpu, mem int64) bool {
	return n.why(p, cpu, mem) == ""
}

// why is the reason p does not fit n, "" if it does: cordon, readiness,
// the pod count, resources, taints and node affinity, then topology
// spread and inter-pod affinity against every pod the simulation holds.
func (n *nodeState) why(p *api.Pod, cpu, mem int64) string {
	if n.deleting || !n.ready || n.node.Spec.Unschedulable {
		return "node(s) were unschedulable"
	}
	if int64(len(n.pods))+1 > n.maxPods || cpu > n.cpu-n.usedCPU || mem > n.mem-n.usedMem {
		return "Insufficient cpu or memory on a new node"
	}
	if r := why(p, n.node); r != "" {
		return r
	}
	if n.sim != nil {
		return n.sim.Placement(p, n.node.Name)
	}
	return ""
}

// newNodeState is n with nothing placed yet: its allocatable CPU,
// memory and pods.
func newNodeState(n *api.Node, group string, ready bool) *nodeState {
	alloc := n.Status.Allocatable
	ns := &nodeState{node: n, group: group, ready: ready, maxPods: 110}
	if q, ok := alloc[api.ResourceCPU]; ok {
		ns.cpu = q.MilliValue()
	}
	if q, ok := alloc[api.ResourceMemory]; ok {
		ns.mem = q.Value()
	}
	if q, ok := alloc[api.ResourcePods]; ok {
		ns.maxPods = q.Value()
	}
	return ns
}

// firstFit places p on the first of nodes it fits, reporting whether it
// found one.
func firstFit(nodes []*nodeState, p *api.Pod) bool {
	cpu, mem := requests(p)
	for _, n := range nodes {
		if n.fits(p, cpu, mem) {
			n.place(p, cpu, mem)
			return true
		}
	}
	return false
}

func (n *nodeState) place(p *api.Pod, cpu, mem int64) {
	n.usedCPU += cpu
	n.usedMem += mem
	n.pods = append(n.pods, p)
	if n.sim != nil {
		n.sim.AddPod(p, n.node.Name)
	}
}

// placeable is the non-resource part of the scheduler's filters that a
// template node can answer: node affinity and selector, taints, cordon.
func placeable(p *api.Pod, n *api.Node) bool {
	if n.Spec.Unschedulable {
		return false
	}
	return why(p, n) == ""
}

// why is the scheduler's reason a pod cannot go to n for its labels and
// taints, "" when it can.
func why(p *api.Pod, n *api.Node) string {
	if scheduler.FindUntoleratedTaint(n.Spec.Taints, p.Spec.Tolerations, api.TaintEffectNoSchedule, api.TaintEffectNoExecute) != nil {
		return "node(s) had untolerated taint(s)"
	}
	if !scheduler.MatchesNodeAffinity(&p.Spec, n) {
		return scheduler.ReasonNodeAffinity
	}
	return ""
}

func nodeReady(n *api.Node) bool {
	for i := range n.Status.Conditions {
		if c := &n.Status.Conditions[i]; c.Type == api.NodeReady {
			return c.Status == api.ConditionTrue
		}
	}
	return false
}

// ExpendablePodsPriorityCutoff is cluster-autoscaler's
// --expendable-pods-priority-cutoff default (config/flags/flags.go): pods
// of a lower priority are expendable, they trigger no scale-up and are
// not moved elsewhere before a scale-down.
const ExpendablePodsPriorityCutoff = -10

// expendable reports whether p's priority is below the cutoff.
func expendable(p *api.Pod) bool {
	return p.Spec.Priority != nil && *p.Spec.Priority < ExpendablePodsPriorityCutoff
}

func isDaemonPod(p *api.Pod) bool {
	ref := api.GetControllerOfNoCopy(&p.ObjectMeta)
	return ref != nil && ref.Kind == api.KindDaemonSet.Name
}

func terminated(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
}

func unschedulable(p *api.Pod) bool {
	if p.Spec.NodeName != "" || p.DeletionTimestamp != nil || terminated(p) {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == api.PodScheduled {
			return c.Status == api.ConditionFalse && c.Reason == api.PodReasonUnschedulable
		}
	}
	return false
}

func (a *autoscaler) snapshot() *state {
	s := &state{byName: map[string]*nodeState{}, sim: scheduler.NewSimulation()}
	for _, o := range a.nodes.List(api.Everything(), "") {
		n, ok := o.(*api.Node)
		if !ok {
			continue
		}
		ns := newNodeState(n, a.opts.Provider.NodeGroupForNode(n), nodeReady(n))
		ns.sim = s.sim
		s.sim.AddNode(n)
		for _, t := range n.Spec.Taints {
			if t.Key == TaintToBeDeleted {
				ns.deleting = true
			}
		}
		s.nodes = append(s.nodes, ns)
		s.byName[n.Name] = ns
	}
	for _, o := range a.pods.List(api.Everything(), "") {
		p, ok := o.(*api.Pod)
		if !ok || terminated(p) {
			continue
		}
		s.pods = append(s.pods, p)
		if isDaemonPod(p) {
			s.daemons = append(s.daemons, p)
		}
		if ns := s.byName[p.Spec.NodeName]; ns != nil && p.Spec.NodeName != "" {
			cpu, mem := scheduler.PodRequests(p)
			ns.place(p, cpu, mem)
		} else if unschedulable(p) && !expendable(p) {
			s.pending = append(s.pending, p)
		}
	}
	return s
}

// RunOnce is one scan: scale up for pending pods, else consider scale
// down.
func (a *autoscaler) RunOnce(ctx context.Context) {
	s := a.snapshot()
	if a.scaleUp(ctx, s) {
		return
	}
	if a.opts.ScaleDownDisabled {
		return
	}
	a.scaleDown(ctx, s)
}

func (a *autoscaler) decided(format string, args ...any) {
	if a.opts.Decided != nil {
		a.opts.Decided(fmt.Sprintf(format, args...))
	}
}

// templateFor returns a new, empty node of group g with what its
// DaemonSets would take already charged, added to the simulation under a
// name of its own ("template-node-for-<group>-<n>", also its hostname
// label, as cluster-autoscaler's sanitized template nodes are named).
func (a *autoscaler) templateFor(g NodeGroup, s *state) *nodeState {
	t := g.Template.DeepCopy()
	s.templates++
	t.Name = fmt.Sprintf("template-node-for-%s-%d", g.Name, s.templates)
	labels := make(map[string]string, len(t.Labels)+1)
	for k, v := range t.Labels {
		labels[k] = v
	}
	labels["kubernetes.io/hostname"] = t.Name
	t.Labels = labels
	ns := newNodeState(t, g.Name, true)
	ns.sim = s.sim
	s.sim.AddNode(t)
	// One pod of each DaemonSet that would run there (the daemon pods of
	// the cluster, one per owner).
	seen := map[api.UID]bool{}
	for _, p := range s.daemons {
		ref := api.GetControllerOfNoCopy(&p.ObjectMeta)
		if seen[ref.UID] {
			continue
		}
		seen[ref.UID] = true
		probe := &api.Pod{Spec: p.Spec}
		probe.Spec.Affinity = nil // the daemon pod's own node name
		if placeable(probe, t) {
			cpu, mem := scheduler.PodRequests(p)
			// A daemon pod of its own, not the one on its real node.
			d := p.DeepCopy()
			d.Name = p.Name + "-" + t.Name
			ns.place(d, cpu, mem)
		}
	}
	return ns
}

func requests(p *api.Pod) (int64, int64) { return scheduler.PodRequests(p) }

// scaleUp adds nodes for the pending pods that fit neither an existing
// node nor an upcoming one; it reports whether it asked for nodes.
func (a *autoscaler) scaleUp(ctx context.Context, s *state) bool {
	if len(s.pending) == 0 {
		return false
	}
	pending := slices.Clone(s.pending)
	// Largest first, as the binpacking estimator sorts them.
	slices.SortStableFunc(pending, func(x, y *api.Pod) int {
		xc, xm := requests(x)
		yc, ym := requests(y)
		if xc != yc {
			return int(yc - xc)
		}
		if xm != ym {
			if ym > xm {
				return 1
			}
			return -1
		}
		return 0
	})
	// Pods that fit an existing node: the scheduler will place them.
	var left []*api.Pod
	for _, p := range pending {
		if !firstFit(s.nodes, p) {
			left = append(left, p)
		}
	}
	// Pods that fit a node already asked for.
	groups := a.opts.Provider.NodeGroups()
	registered := map[string]int{}
	for _, n := range s.nodes {
		registered[n.group]++
	}
	var upcoming []*nodeState
	for _, g := range groups {
		for range a.opts.Provider.TargetSize(g.Name) - registered[g.Name] {
			upcoming = append(upcoming, a.templateFor(g, s))
		}
	}
	var unhelped []*api.Pod
	for _, p := range left {
		if !firstFit(upcoming, p) {
			unhelped = append(unhelped, p)
		}
	}
	if len(unhelped) == 0 {
		return false
	}
	type option struct {
		group          NodeGroup
		nodes          int
		pods           []*api.Pod
		waste          float64
		target, newMax int
	}
	var best *option
	reasons := map[*api.Pod]map[string]int{}
	note := func(p *api.Pod, r string) {
		if reasons[p] == nil {
			reasons[p] = map[string]int{}
		}
		reasons[p][r]++
	}
	for _, g := range groups {
		target := a.opts.Provider.TargetSize(g.Name)
		room := g.MaxSize - target
		var bins []*nodeState
		var helped []*api.Pod
		// Each group is tried on its own copy of the simulation
		// (the snapshot's Fork and Revert).
		mark := s.sim.Mark()
		for _, p := range unhelped {
			if r := why(p, g.Template); r != "" {
				note(p, r)
				continue
			}
			if firstFit(bins, p) {
				helped = append(helped, p)
				continue
			}
			cpu, mem := requests(p)
			if len(bins) >= room {
				note(p, "max node group size reached")
				continue
			}
			b := a.templateFor(g, s)
			if r := b.why(p, cpu, mem); r != "" {
				note(p, r)
				s.sim.RemoveNode(b.node.Name)
				continue
			}
			b.place(p, cpu, mem)
			bins = append(bins, b)
			helped = append(helped, p)
		}
		s.sim.Revert(mark)
		if len(bins) == 0 {
			continue
		}
		// The least-waste expander: unused share of CPU plus of memory.
		var availCPU, availMem, usedCPU, usedMem int64
		for _, b := range bins {
			availCPU += b.cpu
			availMem += b.mem
			usedCPU += b.usedCPU
			usedMem += b.usedMem
		}
		waste := 0.0
		if availCPU > 0 {
			waste += float64(availCPU-usedCPU) / float64(availCPU)
		}
		if availMem > 0 {
			waste += float64(availMem-usedMem) / float64(availMem)
		}
		o := &option{group: g, nodes: len(bins), pods: helped, waste: waste, target: target}
		if best == nil || o.waste < best.waste {
			best = o
		}
	}
	if best == nil {
		for _, p := range unhelped {
			a.recorder.Eventf(p, client.EventTypeNormal, ReasonNotTriggerScaleUp, "pod didn't trigger scale-up: %s", reasonList(reasons[p]))
		}
		return false
	}
	if err := a.opts.Provider.IncreaseSize(best.group.Name, best.nodes); err != nil {
		return false
	}
	a.lastScaleUp = a.clock.Now()
	info := fmt.Sprintf("[{%s %d->%d (max: %d)}]", best.group.Name, best.target, best.target+best.nodes, best.group.MaxSize)
	a.decided("scale-up: %s %d->%d (max: %d) for %d pending pod(s)", best.group.Name, best.target, best.target+best.nodes, best.group.MaxSize, len(best.pods))
	helped := map[*api.Pod]bool{}
	for _, p := range best.pods {
		helped[p] = true
		a.recorder.Eventf(p, client.EventTypeNormal, ReasonTriggeredScaleUp, "pod triggered scale-up: %s", info)
	}
	for _, p := range unhelped {
		if !helped[p] {
			a.recorder.Eventf(p, client.EventTypeNormal, ReasonNotTriggerScaleUp, "pod didn't trigger scale-up: %s", reasonList(reasons[p]))
		}
	}
	return true
}

// reasonList formats reason counts as "1 max node group size reached, 2
// node(s) ...", sorted.
func reasonList(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for r, n := range m {
		parts = append(parts, fmt.Sprintf("%d %s", n, r))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}
