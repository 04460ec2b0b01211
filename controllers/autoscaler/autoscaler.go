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
	// DefaultUnremovableNodeRecheckTimeout is
	// --unremovable-node-recheck-timeout.
	DefaultUnremovableNodeRecheckTimeout = 5 * time.Minute
	// DefaultBlockingSystemPodDisruptionTimeout is
	// --blocking-system-pod-distruption-timeout (sic).
	DefaultBlockingSystemPodDisruptionTimeout = time.Hour
	// DefaultMaxPodEvictionTime is --max-pod-eviction-time.
	DefaultMaxPodEvictionTime = 2 * time.Minute
	// DefaultMaxGracefulTerminationSec is --max-graceful-termination-sec.
	DefaultMaxGracefulTerminationSec = 600
	// DefaultNodeDeleteDelayAfterTaint is --node-delete-delay-after-taint.
	DefaultNodeDeleteDelayAfterTaint = 5 * time.Second
	// DefaultMaxNodeProvisionTime is --max-node-provision-time.
	DefaultMaxNodeProvisionTime = 15 * time.Minute
	// DefaultScaleDownUnreadyTime is --scale-down-unready-time.
	DefaultScaleDownUnreadyTime = 20 * time.Minute
	// DefaultMaxTotalUnreadyPercentage is --max-total-unready-percentage.
	DefaultMaxTotalUnreadyPercentage = 45.0
	// DefaultOkTotalUnreadyCount is --ok-total-unready-count.
	DefaultOkTotalUnreadyCount = 3
	// DefaultInitialNodeGroupBackoffDuration is
	// --initial-node-group-backoff-duration.
	DefaultInitialNodeGroupBackoffDuration = 5 * time.Minute
	// DefaultMaxNodeGroupBackoffDuration is
	// --max-node-group-backoff-duration.
	DefaultMaxNodeGroupBackoffDuration = 30 * time.Minute
	// DefaultNodeGroupBackoffResetTimeout is
	// --node-group-backoff-reset-timeout.
	DefaultNodeGroupBackoffResetTimeout = 3 * time.Hour
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
	ReasonScaleDownFailed   = "ScaleDownFailed"
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
	// NodeGroupForNode names the group of a node ("" for none). It is
	// asked when a node is added or updated, so its answer for a node
	// must not change in between.
	NodeGroupForNode(node *api.Node) string
	// TargetSize is the group's size as asked for: its machines, joined
	// or still provisioning.
	TargetSize(group string) int
	// Nodes names the group's machines, registered or not, sorted
	// (NodeGroup.Nodes): a machine that has no Node object yet is still
	// starting, or cannot register.
	Nodes(group string) []string
	// IncreaseSize asks for delta more machines; they join after the
	// group's provisioning delay.
	IncreaseSize(group string, delta int) error
	// DecreaseTargetSize lowers the group's target size by -delta
	// (negative) without deleting a machine: only machines asked for
	// and not yet started can go, else it fails.
	DecreaseTargetSize(group string, delta int) error
	// DeleteNode removes the machine of node and its Node object (a
	// machine that never registered has none), lowering the group's
	// target size by one.
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
	// UnremovableNodeRecheckTimeout is how long a node found unremovable
	// (a pod blocks it, or its pods fit nowhere else) is not looked at
	// again (5m).
	UnremovableNodeRecheckTimeout time.Duration
	// SkipNodesWithSystemPods is --skip-nodes-with-system-pods (nil:
	// true): a kube-system pod that no disruption budget selects keeps
	// its node, until it is older than
	// BlockingSystemPodDisruptionTimeout.
	SkipNodesWithSystemPods *bool
	// SkipNodesWithLocalStorage is --skip-nodes-with-local-storage (nil:
	// true): a pod with a hostPath volume, or an emptyDir not in memory,
	// keeps its node.
	SkipNodesWithLocalStorage *bool
	// SkipNodesWithCustomControllerPods is
	// --skip-nodes-with-custom-controller-pods (nil: true): a pod whose
	// controller is not a ReplicaSet, Job, StatefulSet or
	// ReplicationController keeps its node, and the controller of a pod
	// must exist.
	SkipNodesWithCustomControllerPods *bool
	// MinReplicaCount is --min-replica-count (0): a pod of a ReplicaSet
	// with fewer replicas keeps its node.
	MinReplicaCount int
	// BlockingSystemPodDisruptionTimeout is
	// --blocking-system-pod-distruption-timeout (1h).
	BlockingSystemPodDisruptionTimeout time.Duration
	// MaxPodEvictionTime is --max-pod-eviction-time (2m): how long a
	// refused eviction is retried before the drain fails.
	MaxPodEvictionTime time.Duration
	// MaxGracefulTerminationSec is --max-graceful-termination-sec (600):
	// the longest grace period an eviction gives a pod, and (with 30s of
	// headroom) how long the drain waits for evicted pods to go.
	MaxGracefulTerminationSec int
	// NodeDeleteDelayAfterTaint is --node-delete-delay-after-taint (5s):
	// the pause between tainting a node and draining it.
	NodeDeleteDelayAfterTaint time.Duration
	// MaxNodeProvisionTime is --max-node-provision-time (15m): a
	// scale-up whose nodes have not all registered this long after it
	// failed, and its group is backed off; a machine unregistered this
	// long is deleted.
	MaxNodeProvisionTime time.Duration
	// ScaleDownUnreadyTime is --scale-down-unready-time (20m): how long
	// an unready node must be unneeded before it is removed.
	ScaleDownUnreadyTime time.Duration
	// ScaleDownUnreadyDisabled is --scale-down-unready-enabled=false:
	// unready nodes are never removed.
	ScaleDownUnreadyDisabled bool
	// MaxTotalUnreadyPercentage is --max-total-unready-percentage (nil:
	// 45) and OkTotalUnreadyCount --ok-total-unready-count (nil: 3):
	// with more unready nodes than both allow the cluster is unhealthy
	// and the autoscaler neither scales up nor down.
	MaxTotalUnreadyPercentage *float64
	OkTotalUnreadyCount       *int
	// InitialNodeGroupBackoffDuration (5m),
	// MaxNodeGroupBackoffDuration (30m) and
	// NodeGroupBackoffResetTimeout (3h) are the back-off of a group
	// whose scale-up failed: --initial-node-group-backoff-duration,
	// --max-node-group-backoff-duration and
	// --node-group-backoff-reset-timeout.
	InitialNodeGroupBackoffDuration time.Duration
	MaxNodeGroupBackoffDuration     time.Duration
	NodeGroupBackoffResetTimeout    time.Duration
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
	if o.UnremovableNodeRecheckTimeout <= 0 {
		o.UnremovableNodeRecheckTimeout = DefaultUnremovableNodeRecheckTimeout
	}
	if o.BlockingSystemPodDisruptionTimeout <= 0 {
		o.BlockingSystemPodDisruptionTimeout = DefaultBlockingSystemPodDisruptionTimeout
	}
	if o.MaxPodEvictionTime <= 0 {
		o.MaxPodEvictionTime = DefaultMaxPodEvictionTime
	}
	if o.MaxGracefulTerminationSec <= 0 {
		o.MaxGracefulTerminationSec = DefaultMaxGracefulTerminationSec
	}
	if o.NodeDeleteDelayAfterTaint <= 0 {
		o.NodeDeleteDelayAfterTaint = DefaultNodeDeleteDelayAfterTaint
	}
	o.clusterStateDefaults()
}

// clusterStateDefaults fills the flags of cluster health, failed
// scale-ups and unready nodes.
func (o *Options) clusterStateDefaults() {
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&o.MaxNodeProvisionTime, DefaultMaxNodeProvisionTime}, {&o.ScaleDownUnreadyTime, DefaultScaleDownUnreadyTime},
		{&o.InitialNodeGroupBackoffDuration, DefaultInitialNodeGroupBackoffDuration},
		{&o.MaxNodeGroupBackoffDuration, DefaultMaxNodeGroupBackoffDuration},
		{&o.NodeGroupBackoffResetTimeout, DefaultNodeGroupBackoffResetTimeout}} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	if o.MaxTotalUnreadyPercentage == nil {
		p := DefaultMaxTotalUnreadyPercentage
		o.MaxTotalUnreadyPercentage = &p
	}
	if o.OkTotalUnreadyCount == nil {
		n := DefaultOkTotalUnreadyCount
		o.OkTotalUnreadyCount = &n
	}
}

// deleteOptions are the drain flags, nil ones true as upstream's.
func (o *Options) deleteOptions() deleteOptions {
	orTrue := func(b *bool) bool { return b == nil || *b }
	return deleteOptions{
		skipNodesWithSystemPods:           orTrue(o.SkipNodesWithSystemPods),
		skipNodesWithLocalStorage:         orTrue(o.SkipNodesWithLocalStorage),
		skipNodesWithCustomControllerPods: orTrue(o.SkipNodesWithCustomControllerPods),
		minReplicaCount:                   o.MinReplicaCount,
		bspDisruptionTimeout:              o.BlockingSystemPodDisruptionTimeout,
	}
}

type lister interface {
	List(sel api.Selector, namespace string) []api.Object
	Get(key api.Key) (api.Object, bool)
}

// autoscaler is one incarnation's memory: when nodes became unneeded,
// which were found unremovable and why, the drain under way, and when
// the last scale-up happened.
type autoscaler struct {
	opts     Options
	client   client.Client
	recorder client.EventRecorder
	clock    client.Clock
	// view is the cluster's nodes and pods, kept between scans.
	view    *view
	pods    podLister
	budgets lister
	// owners are the listers of the controllers a pod may have, by kind.
	owners ownerListers
	rules  []drainRule
	// spawn starts fn in a process of its own (a drain).
	spawn func(name string, fn func(ctx context.Context)) error
	// unneededSince is when each node was first found unneeded.
	unneededSince map[string]time.Time
	// unremovableUntil is when each node found unremovable may be
	// looked at again.
	unremovableUntil map[string]time.Time
	// reported is the last reason told for each node kept.
	reported map[string]string
	// draining names the node being drained ("" for none): one at a
	// time, --max-drain-parallelism's default.
	draining    string
	lastScaleUp time.Time
	// scaleUps are the scale-ups waiting for their nodes, by group.
	scaleUps map[string]*scaleUpRequest
	// unregisteredSince is when each machine without a Node was first
	// seen.
	unregisteredSince map[string]time.Time
	backoff           *backoff
	// unhealthy is whether the last scan found the cluster unhealthy.
	unhealthy bool
}

// ownerListers find a pod's controller by kind (the drainability rules'
// controllerGetter).
type ownerListers map[api.Kind]lister

func (o ownerListers) controller(kind api.Kind, namespace, name string) (*int32, bool) {
	l, ok := o[kind]
	if !ok {
		return nil, false
	}
	obj, ok := l.Get(api.Key{Namespace: namespace, Name: name})
	if !ok {
		return nil, false
	}
	if rs, isRS := obj.(*api.ReplicaSet); isRS {
		return rs.Spec.Replicas, true
	}
	return nil, true
}

// Setup registers the autoscaler with m: informers on Nodes, Pods,
// PodDisruptionBudgets and the controllers a pod may have, and a loop
// running once per scan interval; each drain runs in a process of its
// own.
func Setup(m *controller.Manager, opts Options) error {
	if opts.Provider == nil {
		return fmt.Errorf("autoscaler: no cloud provider")
	}
	opts.defaults()
	listers := map[api.Kind]lister{}
	informers := map[api.Kind]*informer.Informer{}
	for _, k := range []api.Kind{api.KindNode, api.KindPod, api.KindPodDisruptionBudget,
		api.KindReplicaSet, api.KindJob, api.KindStatefulSet, api.KindDaemonSet} {
		inf, err := m.Informer(k, informer.Options{})
		if err != nil {
			return err
		}
		informers[k] = inf
		listers[k] = inf.Lister()
	}
	informers[api.KindPod].AddIndex(informer.IndexNodeName, informer.ByNodeName)
	pods := informers[api.KindPod].Lister()
	v := newView(listers[api.KindNode], pods, opts.Provider)
	informers[api.KindPod].AddEventHandler(changeHandler(v.podChanged))
	informers[api.KindNode].AddEventHandler(changeHandler(v.nodeChanged))
	owners := ownerListers{}
	for _, k := range []api.Kind{api.KindReplicaSet, api.KindJob, api.KindStatefulSet, api.KindDaemonSet} {
		owners[k] = listers[k]
	}
	a := &autoscaler{opts: opts, client: m.Client(), recorder: m.Recorder(Component), clock: m.Clock(),
		view: v, pods: pods, budgets: listers[api.KindPodDisruptionBudget],
		owners: owners, rules: defaultRules(opts.deleteOptions()), spawn: m.Add,
		unneededSince: map[string]time.Time{}, unremovableUntil: map[string]time.Time{}, reported: map[string]string{},
		scaleUps: map[string]*scaleUpRequest{}, unregisteredSince: map[string]time.Time{},
		backoff: newBackoff(opts.InitialNodeGroupBackoffDuration, opts.MaxNodeGroupBackoffDuration, opts.NodeGroupBackoffResetTimeout)}
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
	// goneCPU and goneMem are the requests of pods terminating past
	// their grace period, which utilization leaves out.
	goneCPU, goneMem int64
	// pods are in key order in the standing state; a scan appends the
	// pods it places.
	pods     []*api.Pod
	maxPods  int64
	ready    bool
	deleting bool
	sim      *scheduler.Simulation
	// scan, for a node of the standing state (nil for a template
	// node), records the scan's first change to it; before is its
	// usage then, saved when set.
	scan   *scanLog
	saved  bool
	before usage
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
	if n.scan != nil {
		n.scan.save(n)
	}
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

// RunOnce is one scan, in static_autoscaler.go RunOnce's order: the
// cluster's state (a scale-up past its max node provision time fails
// and backs its group off), the removal of machines long unregistered,
// the cluster's health (unhealthy: nothing more this scan, and the
// unneeded times start again), then scale-up for pending pods, else
// scale-down.
func (a *autoscaler) RunOnce(ctx context.Context) {
	now := a.clock.Now()
	s := a.view.begin(now)
	defer a.view.end()
	cs := a.updateClusterState(s, now)
	a.removeOldUnregistered(cs)
	if !a.clusterHealthy(cs) {
		clear(a.unneededSince)
		return
	}
	if a.scaleUp(ctx, s, cs, now) {
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
func (a *autoscaler) scaleUp(ctx context.Context, s *state, cs *clusterState, now time.Time) bool {
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
	var upcoming []*nodeState
	for _, g := range groups {
		for range a.upcomingForScaleUp(cs, g.Name, now) {
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
		if r := a.skipped(cs, g.Name, now); r != "" {
			for _, p := range unhelped {
				note(p, r)
			}
			continue
		}
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
	a.lastScaleUp = now
	a.registerScaleUp(best.group.Name, best.nodes, now)
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

// skipped is why group is not considered for a scale-up
// (IsNodeGroupReadyToScaleUp), "" when it is.
func (a *autoscaler) skipped(cs *clusterState, group string, now time.Time) string {
	switch {
	case !a.nodeGroupHealthy(cs, group):
		return reasonNotReady
	case a.backoff.backedOff(group, now):
		return reasonBackoff
	}
	return ""
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
