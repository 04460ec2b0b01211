package nodelifecycle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/informer"
)

// Actor is the identity kube-controller-manager runs this controller as.
const Actor = "system:serviceaccount:kube-system:node-controller"

// Component is the source component of the controller's events.
const Component = "node-controller"

// Name is the controller's name in its manager.
const Name = "node-lifecycle-controller"

// LeaseNamespace holds the node Leases the kubelets renew.
const LeaseNamespace = "kube-node-lease"

// Defaults, as kube-controller-manager's flags.
const (
	// DefaultMonitorPeriod is --node-monitor-period: 5s.
	DefaultMonitorPeriod = 5 * time.Second
	// DefaultGracePeriod is --node-monitor-grace-period: 50s since
	// Kubernetes 1.32 (PR #126287; 40s before), as in the pinned release
	// (api.KubernetesRelease; k/k
	// pkg/controller/nodelifecycle/config/v1alpha1/defaults.go).
	DefaultGracePeriod = 50 * time.Second
	// DefaultStartupGracePeriod is --node-startup-grace-period: 60s, the
	// grace of a node that never posted a Ready condition.
	DefaultStartupGracePeriod = 60 * time.Second
	// DefaultEvictionRate is --node-eviction-rate: 0.1 nodes tainted per
	// second per healthy zone.
	DefaultEvictionRate = 0.1
	// DefaultSecondaryEvictionRate is --secondary-node-eviction-rate:
	// 0.01 nodes per second in a partially disrupted zone of a large
	// cluster.
	DefaultSecondaryEvictionRate = 0.01
	// DefaultLargeClusterThreshold is --large-cluster-size-threshold: 50
	// nodes in a zone; smaller partially disrupted zones stop tainting.
	DefaultLargeClusterThreshold = 50
	// DefaultUnhealthyZoneThreshold is --unhealthy-zone-threshold: a zone
	// with more than 2 and at least 55% of its nodes not Ready is
	// partially disrupted.
	DefaultUnhealthyZoneThreshold = 0.55
	// DefaultWorkers handle node and pod updates (the periodic pass is one
	// request, never run twice at once).
	DefaultWorkers = 4
	// healthUpdateTimeout bounds the tries of one node status write
	// (upstream polls every 20ms for 100ms, NodeHealthUpdateRetry × 20ms).
	healthUpdateTimeout = 100 * time.Millisecond
	healthRetrySleep    = 20 * time.Millisecond
	// taintRetries and taintBackoff are upstream's UpdateTaintBackoff:
	// 5 tries, 100ms apart, on conflicts.
	taintRetries = 5
	taintBackoff = 100 * time.Millisecond
)

// Options configure the node lifecycle controller; zero fields take the
// defaults.
type Options struct {
	// MonitorPeriod is how often node health is checked (default 5s).
	MonitorPeriod time.Duration
	// GracePeriod is how long a node may go without a heartbeat (Lease
	// renewal or status post) before its conditions become Unknown
	// (default 50s, upstream's since 1.32; 40s before).
	GracePeriod time.Duration
	// StartupGracePeriod is the grace of a node that never posted a Ready
	// condition, counted from its creation (default 60s).
	StartupGracePeriod time.Duration
	// EvictionRate is the nodes per second that may be tainted
	// NoExecute in a healthy zone (default 0.1; negative: never).
	EvictionRate float64
	// SecondaryEvictionRate is the rate in a partially disrupted zone
	// larger than LargeClusterThreshold (default 0.01; negative: never).
	SecondaryEvictionRate float64
	// LargeClusterThreshold is the zone size above which a partially
	// disrupted zone keeps tainting at the secondary rate (default 50;
	// negative: 0, every zone is large).
	LargeClusterThreshold int
	// UnhealthyZoneThreshold is the share of not-Ready nodes (with more
	// than 2) that makes a zone partially disrupted (default 0.55).
	UnhealthyZoneThreshold float64
	// Workers is the number of node and pod updates handled at once
	// (default 4).
	Workers int
	// Observer, if set, is told of every reconcile.
	Observer controller.Observer
	// Zones, if set, is told at every periodic pass of each zone's
	// disruption state and tainting rate, and of each node the tainting
	// pass taints NoExecute: what paces the eviction of a lost zone's
	// pods, which upstream only logs ("Controller detected that zone %v
	// is now in state %v.").
	Zones ZoneObserver
}

// ZoneObserver is told how the controller paces its NoExecute taints,
// zone by zone (Options.Zones). Its methods run on the controller's
// pass and must not block.
type ZoneObserver interface {
	// ZonePass reports a zone's state as this pass left it.
	ZonePass(ZoneStatus)
	// Tainted reports that the tainting pass tainted node, of zone,
	// NoExecute.
	Tainted(zone, node string)
}

// ZoneStatus is one zone's state at a periodic pass (ZoneObserver).
type ZoneStatus struct {
	// Zone is the zone's name (ZoneName).
	Zone string
	// State is Normal, PartialDisruption or FullDisruption (upstream's
	// ComputeZoneState).
	State string
	// NotReady of Size nodes have no Ready condition that is True.
	NotReady, Size int
	// Rate is the nodes a second the zone's not-Ready nodes are tainted
	// NoExecute at now (0: not at all); Large, whether the zone has more
	// than LargeClusterThreshold nodes (a smaller partially disrupted zone
	// is not tainted whatever the secondary rate).
	Rate  float64
	Large bool
	// AllDisrupted is set when every zone is fully disrupted: the
	// controller then presumes the control plane, not the nodes, at
	// fault and stops every eviction (upstream's "master disruption
	// mode").
	AllDisrupted bool
}

// ZoneName is the name of a zone's key as a reader knows it: the zone
// label's value, "region/zone" when the node has a region label too, ""
// for nodes with neither.
func ZoneName(key string) string {
	region, zone, ok := strings.Cut(key, zoneKeySep)
	if !ok {
		return key
	}
	if region == "" {
		return zone
	}
	return region + "/" + zone
}

func (o *Options) defaults() {
	set := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	set(&o.MonitorPeriod, DefaultMonitorPeriod)
	set(&o.GracePeriod, DefaultGracePeriod)
	set(&o.StartupGracePeriod, DefaultStartupGracePeriod)
	rate := func(r *float64, v float64) {
		switch {
		case *r == 0:
			*r = v
		case *r < 0:
			*r = 0
		}
	}
	rate(&o.EvictionRate, DefaultEvictionRate)
	rate(&o.SecondaryEvictionRate, DefaultSecondaryEvictionRate)
	switch {
	case o.LargeClusterThreshold == 0:
		o.LargeClusterThreshold = DefaultLargeClusterThreshold
	case o.LargeClusterThreshold < 0:
		o.LargeClusterThreshold = 0
	}
	if o.UnhealthyZoneThreshold <= 0 {
		o.UnhealthyZoneThreshold = DefaultUnhealthyZoneThreshold
	}
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
}

// monitor is the node lifecycle controller's state for one incarnation.
// Requests: the empty key is the periodic pass (node health, zone states,
// NoExecute tainting), a name alone a node whose NoSchedule condition
// taints to reconcile, a namespaced key a pod newly bound to a node.
type monitor struct {
	client   client.Client
	recorder client.EventRecorder
	clock    client.Clock
	nodes    informer.Lister
	leases   informer.Lister
	pods     informer.Lister
	opts     Options

	// registered are the nodes registered with the controller, by name:
	// what the health pass keeps of each, in one record instead of a map
	// by name for each thing kept.
	registered map[string]*nodeState
	// pass counts the health passes; a node the latest did not list is
	// gone.
	pass uint64
	// listed are the records of the nodes the last pass listed, in its
	// order: the next pass, which nearly always lists the same nodes,
	// finds each record by its place instead of by name (at 3,000 nodes,
	// map lookups by string were 0.93 s of the pass's 3.16 s in a CPU
	// profile of the probe).
	listed []*nodeState
	// packed: the records listed are in one array, in the list's order
	// (pack), since the last pass that registered or forgot a node.
	packed      bool
	zoneStates  map[string]zoneState
	tainters    map[string]*timedQueue
	nextMonitor time.Time
	// zoneKeys are the zone keys built so far, by region and zone.
	zoneKeys map[[2]string]string
}

// nodeState is what the controller keeps of a registered node between
// health passes (upstream keeps the same in several maps by name).
type nodeState struct {
	name string
	uid  api.UID
	// floor holds the node's heartbeat no earlier than its value: set
	// for every node when the cluster leaves full disruption, as
	// upstream resets its probe timestamps.
	floor time.Time
	// retry is set while the node's pods still have to be marked not
	// ready.
	retry bool
	// ready is the Ready condition the node had at the last pass (when
	// hasReady), for pods bound to it since.
	ready    api.ConditionStatus
	hasReady bool
	// pass is the last health pass that listed the node.
	pass uint64
	// renew is the renewTime of the node's Lease as the lease informer
	// holds it now (zero: no lease, or never renewed), once renewKnown:
	// the first pass to check the node reads it from the lister, and the
	// lease informer's handlers keep it from then on, each as the lease
	// arrives. A pass over 5,000 nodes every 5 s then reads neither the
	// lister's map nor each lease object (the most of the pass's time).
	renew      time.Time
	renewKnown bool
	// seen is the node object the fields below were read from (see):
	// the informer replaces an object it changes, so the same pointer
	// has the same labels, conditions and taints. A pass reads every
	// node's zone, Ready condition and taints; reading them from each
	// node object every 5 s was most of the pass at 3,000 nodes (the
	// objects of thousands of nodes are not in the processor's caches).
	seen *api.Node
	// zone is the node's zone key; excluded whether it is left out of
	// the zones' disruption counts.
	zone     string
	excluded bool
	// readyCond is a copy of the node's Ready condition in seen, when
	// hasReadyCond (readyOf). A pass reads every node's Ready condition
	// (its heartbeat, its status); read in the node object, each was a
	// cache miss at thousands of nodes, and the copy is read in the
	// record the pass reads anyway.
	readyCond    api.NodeCondition
	hasReadyCond bool
	// noExecute is whether the node has the unreachable or the
	// not-ready NoExecute taint (hasNoExecute).
	noExecute bool
}

// see reads n's zone, Ready condition and NoExecute taints into st,
// unless st holds them for n already.
func (mon *monitor) see(st *nodeState, n *api.Node) {
	if st.seen == n {
		return
	}
	_, st.excluded = n.Labels[LabelExcludeDisruption]
	st.seen, st.zone = n, mon.buildZoneKey(n)
	st.readyCond, st.hasReadyCond = api.NodeCondition{}, false
	if c := nodeCondition(&n.Status, api.NodeReady); c != nil {
		st.readyCond, st.hasReadyCond = *c, true
	}
	st.noExecute = hasNoExecute(n)
}

// readyOf returns the Ready condition of the node object st has seen
// (see), nil when it has none: st's copy, valid until st sees another
// object or moves (pack).
func (st *nodeState) readyOf() *api.NodeCondition {
	if !st.hasReadyCond {
		return nil
	}
	return &st.readyCond
}

// hasNoExecute reports whether n has the unreachable or the not-ready
// NoExecute taint.
func hasNoExecute(n *api.Node) bool {
	return taintExists(n.Spec.Taints, &unreachableNoExecute) || taintExists(n.Spec.Taints, &notReadyNoExecute)
}

// labels returns n's zone key and whether n is excluded from the zones'
// disruption counts, read once per node object (see).
func (mon *monitor) labels(st *nodeState, n *api.Node) (zone string, excluded bool) {
	mon.see(st, n)
	return st.zone, st.excluded
}

// Setup registers the node lifecycle controller with m: informers on
// Nodes, Leases in kube-node-lease and Pods, and a controller named
// "node-lifecycle-controller" that runs the health pass every
// MonitorPeriod, taints nodes NoExecute at the zones' rates, mirrors
// conditions in NoSchedule taints, and marks the pods of a node that
// stopped reporting not ready. Pod eviction is the taint eviction
// controller's: register it with SetupEviction.
func Setup(m *controller.Manager, opts Options) error {
	_, err := setup(m, opts)
	return err
}

// leaseInformerOptions is the node Leases' informer for m. Upstream's
// controller reads kube-controller-manager's shared lease informer, which
// watches every namespace (NewNodeLifecycleController is given
// InformerFactory.Coordination().V1().Leases(), and reads
// Leases(v1.NamespaceNodeLease)); the garbage collector watches leases
// through the same informer, so a renewal reaches the process once. A
// manager hosted in kube-controller-manager's one process (Host) does
// the same. A manager of its own, a process of its own, watches
// kube-node-lease only: watching every namespace there would bring it
// every other controller's leader-election renewals, which upstream's
// one kube-controller-manager lease does not have.
func leaseInformerOptions(m *controller.Manager) informer.Options {
	if m.Hosted() != nil {
		return informer.Options{}
	}
	return informer.Options{Namespace: LeaseNamespace}
}

// setup is Setup, returning the controller's state (for tests).
func setup(m *controller.Manager, opts Options) (*monitor, error) {
	opts.defaults()
	nodeInf, err := m.Informer(api.KindNode, informer.Options{})
	if err != nil {
		return nil, err
	}
	leaseInf, err := m.Informer(api.KindLease, leaseInformerOptions(m))
	if err != nil {
		return nil, err
	}
	podInf, err := m.Informer(api.KindPod, informer.Options{})
	if err != nil {
		return nil, err
	}
	// The pods of a node, as upstream's spec.nodeName indexer files them.
	podInf.AddIndex(informer.IndexNodeName, informer.ByNodeName)
	mon := &monitor{
		client: m.Client(), recorder: m.Recorder(Component), clock: m.Clock(),
		nodes: nodeInf.Lister(), leases: leaseInf.Lister(), pods: podInf.Lister(), opts: opts,
		registered: map[string]*nodeState{},
		zoneStates: map[string]zoneState{}, tainters: map[string]*timedQueue{},
	}
	c, err := m.NewController(Name, controller.Options{Workers: opts.Workers, Observer: opts.Observer}, mon)
	if err != nil {
		return nil, err
	}
	nodeKey := func(obj api.Object) { c.Enqueue(controller.Request{Key: api.Key{Name: obj.GetObjectMeta().Name}}) }
	nodeInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc:    nodeKey,
		UpdateFunc: func(_, obj api.Object) { nodeKey(obj) },
		DeleteFunc: func(obj api.Object) {
			if st := mon.registered[obj.GetObjectMeta().Name]; st != nil {
				st.retry = false
			}
		},
	})
	leaseSeen := func(obj api.Object, deleted bool) {
		meta := obj.GetObjectMeta()
		if meta.Namespace != LeaseNamespace {
			return // a leader election's lease, in kube-system
		}
		if st := mon.registered[meta.Name]; st != nil {
			st.renew, st.renewKnown = time.Time{}, true
			if l, ok := obj.(*api.Lease); ok && !deleted {
				st.renew = renewTimeOf(l)
			}
		}
	}
	leaseInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc:    func(obj api.Object) { leaseSeen(obj, false) },
		UpdateFunc: func(_, obj api.Object) { leaseSeen(obj, false) },
		DeleteFunc: func(obj api.Object) { leaseSeen(obj, true) },
	})
	podInf.AddEventHandler(informer.HandlerFuncs{
		AddFunc: func(obj api.Object) {
			if p, ok := obj.(*api.Pod); ok && p.Spec.NodeName != "" {
				c.Enqueue(controller.Request{Key: p.Key()})
			}
		},
		UpdateFunc: func(old, obj api.Object) {
			o, ok1 := old.(*api.Pod)
			p, ok2 := obj.(*api.Pod)
			if ok1 && ok2 && p.Spec.NodeName != "" && p.Spec.NodeName != o.Spec.NodeName {
				c.Enqueue(controller.Request{Key: p.Key()})
			}
		},
	})
	c.Enqueue(controller.Request{}) // the periodic pass
	return mon, nil
}

// Reconcile dispatches a request (see monitor).
func (mon *monitor) Reconcile(ctx context.Context, req controller.Request) (controller.Result, error) {
	switch {
	case req.Name == "":
		return mon.periodic(ctx), nil
	case req.Namespace == "":
		// Upstream's doNodeProcessingPassWorker: the NoSchedule taints,
		// then the labels. Its node queue has no rate limiter and a
		// failure is logged, not retried ("Failed to taint NoSchedule on
		// node, requeue it", with the requeue a TODO): the node's next
		// update queues it again. A terminal error counts the failure
		// without a retry.
		err := errors.Join(mon.noScheduleTaints(ctx, req.Name), mon.reconcileNodeLabels(ctx, req.Name))
		if err != nil {
			return controller.Result{}, controller.TerminalError(err)
		}
		return controller.Result{}, nil
	default:
		return controller.Result{}, mon.processPod(ctx, req.Key)
	}
}

// periodic runs the health pass when it is due, then the tainting pass,
// and asks to run again when either is next due.
func (mon *monitor) periodic(ctx context.Context) controller.Result {
	if now := mon.clock.Now(); !now.Before(mon.nextMonitor) {
		mon.monitorNodeHealth(ctx)
		// Like wait.Until, the period runs from the end of a pass.
		mon.nextMonitor = mon.clock.Now().Add(mon.opts.MonitorPeriod)
	}
	mon.taintPass(ctx)
	now := mon.clock.Now()
	next := mon.nextMonitor
	for _, z := range mon.zones() {
		if at, ok := mon.tainters[z].next(now); ok && at.Before(next) {
			next = at
		}
	}
	return controller.Result{RequeueAfter: max(next.Sub(now), time.Millisecond)}
}

// zones returns the known zones, sorted.
func (mon *monitor) zones() []string {
	out := make([]string, 0, len(mon.zoneStates))
	for z := range mon.zoneStates {
		out = append(out, z)
	}
	slices.Sort(out)
	return out
}

// listNodes returns the cached nodes in name order.
func (mon *monitor) listNodes() []*api.Node {
	return informer.ListAs[*api.Node](mon.nodes, api.Everything(), "")
}

// addZone starts tracking a node's zone (upstream's addPodEvictorForNewZone).
func (mon *monitor) addZone(n *api.Node) {
	z := mon.zoneKey(n)
	if _, ok := mon.zoneStates[z]; !ok {
		mon.zoneStates[z] = stateInitial
		mon.tainters[z] = newTimedQueue(newTokenBucket(mon.opts.EvictionRate, EvictionBurst, mon.clock.Now()))
	}
}

// monitorNodeHealth is upstream's monitorNodeHealth: register new nodes,
// forget deleted ones, set the conditions of silent nodes to Unknown, queue
// nodes for NoExecute tainting (or untaint them), mark the pods of nodes
// that just stopped being Ready not ready, and update the zones' states
// and tainting rates.
func (mon *monitor) monitorNodeHealth(ctx context.Context) {
	nodes := mon.listNodes()
	mon.pass++
	states := make([]*nodeState, len(nodes))
	var added []*api.Node
	for i, n := range nodes {
		st := mon.record(i, n)
		if st == nil {
			added = append(added, n)
			continue
		}
		states[i] = st
		st.pass = mon.pass
		if z, _ := mon.labels(st, n); mon.zoneStates[z] == "" {
			mon.addZone(n)
		}
	}
	for _, n := range added {
		mon.recorder.Eventf(n, client.EventTypeNormal, "RegisteredNode", "Node %s event: Registered Node %s in Controller", n.Name, n.Name)
		mon.registered[n.Name] = &nodeState{name: n.Name, uid: n.UID, pass: mon.pass}
		mon.addZone(n)
		// Upstream untaints every node it registers, a restarted
		// controller included; a node still silent is tainted again by
		// this very pass's successor.
		_, _ = mon.markNodeAsReachable(ctx, n)
	}
	if len(added) > 0 {
		for i, n := range nodes {
			if states[i] == nil {
				states[i] = mon.registered[n.Name]
			}
		}
	}
	var gone []string
	if len(mon.registered) > len(nodes) {
		// Some record is of a node this pass did not list.
		for name, st := range mon.registered {
			if st.pass != mon.pass {
				gone = append(gone, name)
			}
		}
	}
	slices.Sort(gone)
	for _, name := range gone {
		ref := &api.Node{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Node"}, ObjectMeta: api.ObjectMeta{Name: name, UID: mon.registered[name].uid}}
		mon.recorder.Eventf(ref, client.EventTypeNormal, "RemovingNode", "Node %s event: Removing Node %s from Controller", name, name)
		delete(mon.registered, name)
	}

	mon.listed = states
	switch {
	case len(added) > 0 || len(gone) > 0:
		mon.packed = false
	case !mon.packed:
		// Nothing this pass did so far blocks: no record is in use
		// elsewhere while they move.
		mon.pack(states)
		mon.packed = true
	}
	zoneConds := map[string][]*api.NodeCondition{}
	for i, cached := range nodes {
		st := states[i]
		n, observed, current, err := mon.updateNodeHealth(ctx, cached, st)
		if err != nil {
			continue // upstream: "Skipping - no pods will be evicted"
		}
		if z, excluded := mon.labels(st, n); !excluded {
			zoneConds[z] = append(zoneConds[z], current)
		}
		if current == nil {
			continue
		}
		st.ready, st.hasReady = current.Status, true
		mon.processTaintBaseEviction(ctx, n, st, &observed)
		switch {
		case current.Status != api.ConditionTrue && observed.Status == api.ConditionTrue:
			mon.recorder.Eventf(n, client.EventTypeNormal, "NodeNotReady", "Node %s status is now: %s", n.Name, "NodeNotReady")
			fallthrough
		case st.retry && observed.Status != api.ConditionTrue:
			if err := mon.markPodsNotReady(ctx, n.Name, mon.podsOn(n.Name)); err != nil {
				st.retry = true
				continue
			}
		}
		st.retry = false
	}
	mon.handleDisruption(ctx, zoneConds, nodes)
}

// pack moves the records listed into one array, in the list's order,
// and points registered and the list at the moved ones. A pass reads
// every node's record in that order every 5 s, and at thousands of
// nodes, each allocated when its node registered among the cluster's
// other objects, their first reads were a cache miss each (record,
// 0.36 s of samples at 5,000 nodes). The informers' handlers find a
// record by name each time (registered), so nothing else holds one.
func (mon *monitor) pack(states []*nodeState) {
	slab := make([]nodeState, len(states))
	for i, st := range states {
		slab[i] = *st
		states[i] = &slab[i]
		mon.registered[st.name] = &slab[i]
	}
}

// record returns the record of node n, the i-th the pass lists: the
// record at the same place in the last pass's list when it has seen the
// same object (nearly always: a node's object changes every few
// minutes, a pass is every 5 s, and this reads nothing in the object) or
// is of the same name, else the one by name; nil for a node not
// registered.
func (mon *monitor) record(i int, n *api.Node) *nodeState {
	if i < len(mon.listed) {
		if st := mon.listed[i]; st.seen == n || st.name == n.Name {
			return st
		}
	}
	return mon.registered[n.Name]
}

// updateNodeHealth checks one node and writes its status when it changed,
// retrying from a fresh read for up to 100ms (upstream's
// tryUpdateNodeHealth under wait.PollImmediate). It returns the node as
// now known, its observed and current Ready conditions.
func (mon *monitor) updateNodeHealth(ctx context.Context, cached *api.Node, st *nodeState) (*api.Node, api.NodeCondition, *api.NodeCondition, error) {
	start := mon.clock.Now()
	// checkHealth changes the node only when its heartbeat is too old: a
	// healthy node is read from the cache without a copy.
	n, owned := cached, false
	for {
		if !st.renewKnown {
			var lease *api.Lease
			if l, ok := informer.GetAs[*api.Lease](mon.leases, api.Key{Namespace: LeaseNamespace, Name: n.Name}); ok {
				lease = l
			}
			st.renew, st.renewKnown = renewTimeOf(lease), true
		}
		renew := st.renew
		if !owned {
			// The cached node, read without a copy. One heard from within
			// its grace period is left as it is: checkHealth would find it
			// so (observed as it is, nothing to write).
			mon.see(st, n)
			ready := st.readyOf()
			if !healthExpired(n, ready, renew, st.floor, mon.clock.Now(), mon.opts.GracePeriod, mon.opts.StartupGracePeriod) {
				return n, observedReady(n, ready), ready, nil
			}
			// A node whose conditions are all Unknown already (one that
			// stays silent) is left as it is by checkHealth: no copy.
			if !allUnknown(n) {
				n, owned = n.DeepCopy(), true
			}
		}
		observed, write := checkHealth(n, renew, st.floor, mon.clock.Now(), mon.opts.GracePeriod, mon.opts.StartupGracePeriod)
		current := nodeCondition(&n.Status, api.NodeReady)
		if !write {
			return n, observed, current, nil
		}
		updated, err := client.UpdateStatusAs(ctx, mon.client, n)
		if err == nil {
			// Carry on with the stored node: its resourceVersion is the
			// one a taint write right after must send.
			return updated, observed, nodeCondition(&updated.Status, api.NodeReady), nil
		}
		if mon.clock.Since(start) >= healthUpdateTimeout {
			return nil, observed, nil, err
		}
		mon.clock.Sleep(healthRetrySleep)
		fresh, gerr := client.GetAs[*api.Node](ctx, mon.client, api.Key{Name: n.Name})
		if gerr != nil {
			return nil, observed, nil, gerr // probably deleted
		}
		n, owned = fresh, true
	}
}

// podsOn returns the cached pods bound to node, in namespace/name order.
func (mon *monitor) podsOn(node string) []*api.Pod {
	var out []*api.Pod
	for _, o := range mon.pods.ByIndex(informer.IndexNodeName, node) {
		if p, ok := o.(*api.Pod); ok && p.Spec.NodeName == node {
			out = append(out, p)
		}
	}
	return out
}

// processTaintBaseEviction is upstream's: a NotReady node gets the
// not-ready taint (at once if it had the unreachable one, else through its
// zone's rate-limited queue), an unreachable one the unreachable taint,
// and a Ready one loses both.
func (mon *monitor) processTaintBaseEviction(ctx context.Context, n *api.Node, st *nodeState, observed *api.NodeCondition) {
	switch observed.Status {
	case api.ConditionFalse:
		if taintExists(n.Spec.Taints, &unreachableNoExecute) {
			mon.swapTaints(ctx, n, []api.Taint{notReadyNoExecute}, []api.Taint{unreachableNoExecute})
		} else {
			mon.markNodeForTainting(n, api.ConditionFalse)
		}
	case api.ConditionUnknown:
		if taintExists(n.Spec.Taints, &notReadyNoExecute) {
			mon.swapTaints(ctx, n, []api.Taint{unreachableNoExecute}, []api.Taint{notReadyNoExecute})
		} else {
			mon.markNodeForTainting(n, api.ConditionUnknown)
		}
	case api.ConditionTrue:
		mon.see(st, n)
		_, _ = mon.markReachableIn(ctx, n, st.name, st.zone, st.noExecute) // the next pass retries a failure
	}
}

// markNodeForTainting queues a node in its zone's tainting queue,
// re-queueing it when it lacks the taint its status calls for.
func (mon *monitor) markNodeForTainting(n *api.Node, status api.ConditionStatus) bool {
	q := mon.tainters[mon.zoneKey(n)]
	if q == nil {
		mon.addZone(n)
		q = mon.tainters[mon.zoneKey(n)]
	}
	if status == api.ConditionFalse && !taintExists(n.Spec.Taints, &notReadyNoExecute) {
		q.remove(n.Name)
	}
	if status == api.ConditionUnknown && !taintExists(n.Spec.Taints, &unreachableNoExecute) {
		q.remove(n.Name)
	}
	return q.add(n.Name, string(n.UID), mon.clock.Now())
}

// markNodeAsReachable removes both NoExecute taints from a node (no call
// when it has neither) and forgets it in its zone's queue; it reports
// whether the node was queued.
func (mon *monitor) markNodeAsReachable(ctx context.Context, n *api.Node) (bool, error) {
	return mon.markReachableIn(ctx, n, n.Name, mon.zoneKey(n), hasNoExecute(n))
}

// markReachableIn is markNodeAsReachable for a node whose name, zone key
// and NoExecute taints (hasNoExecute) the caller has read (the health
// pass: from the node's record, not from the node object).
func (mon *monitor) markReachableIn(ctx context.Context, n *api.Node, name, zone string, noExecute bool) (bool, error) {
	if noExecute {
		if err := mon.updateTaints(ctx, n, nil, []api.Taint{unreachableNoExecute, notReadyNoExecute}); err != nil {
			return false, err
		}
	}
	q := mon.tainters[zone]
	if q == nil {
		return false, nil
	}
	return q.remove(name), nil
}

// swapTaints is upstream's SwapNodeControllerTaint: add (stamped with the
// time) and remove in one write; it reports success.
func (mon *monitor) swapTaints(ctx context.Context, n *api.Node, add, remove []api.Taint) bool {
	ts := api.NewTime(mon.clock.Now().Truncate(time.Second))
	stamped := make([]api.Taint, len(add))
	for i, t := range add {
		t.TimeAdded = &ts
		stamped[i] = t
	}
	return mon.updateTaints(ctx, n, stamped, remove) == nil
}

// updateTaints writes a node's taints with add applied and remove
// removed: first from the cached node, then, after a conflict, from a
// fresh read, up to 5 times 100ms apart (upstream's UpdateTaintBackoff).
// Nothing is written when nothing would change.
func (mon *monitor) updateTaints(ctx context.Context, cached *api.Node, add, remove []api.Taint) error {
	n := cached
	var err error
	for try := range taintRetries {
		if try > 0 {
			mon.clock.Sleep(taintBackoff)
			if n, err = client.GetAs[*api.Node](ctx, mon.client, api.Key{Name: cached.Name}); err != nil {
				return err
			}
		}
		taints, changed := applyTaints(n.Spec.Taints, add, remove)
		if !changed {
			return nil
		}
		next := n.DeepCopy()
		next.Spec.Taints = taints
		if _, err = mon.client.Update(ctx, next); err == nil || !errors.Is(err, apierr.ErrConflict) {
			return err
		}
	}
	return err
}

// taintPass is upstream's doNoExecuteTaintingPass: each zone's queue
// taints its due nodes as fast as its rate allows.
func (mon *monitor) taintPass(ctx context.Context) {
	for _, z := range mon.zones() {
		q := mon.tainters[z]
		q.try(mon.clock.Now(), func(v timedValue) (bool, time.Duration) {
			n, ok := informer.GetAs[*api.Node](mon.nodes, api.Key{Name: v.value})
			if !ok {
				return true, 0 // the node is gone
			}
			c := nodeCondition(&n.Status, api.NodeReady)
			if c == nil {
				return false, 50 * time.Millisecond
			}
			// Unreachable and not-ready are mutually exclusive, as the
			// Ready condition they mirror.
			var add, opposite api.Taint
			switch c.Status {
			case api.ConditionFalse:
				add, opposite = notReadyNoExecute, unreachableNoExecute
			case api.ConditionUnknown:
				add, opposite = unreachableNoExecute, notReadyNoExecute
			default:
				return true, 0 // Ready again: no taint
			}
			ok = mon.swapTaints(ctx, n, []api.Taint{add}, []api.Taint{opposite})
			if ok && mon.opts.Zones != nil {
				mon.opts.Zones.Tainted(ZoneName(z), n.Name)
			}
			return ok, 0
		})
	}
}

// handleDisruption is upstream's: it computes each zone's state from its
// nodes' Ready conditions and sets its tainting rate; when every zone is
// fully disrupted (the control plane, not the nodes, is probably at
// fault) it untaints every node and stops tainting, and when the cluster
// recovers it gives every node a fresh grace period.
func (mon *monitor) handleDisruption(ctx context.Context, zoneConds map[string][]*api.NodeCondition, nodes []*api.Node) {
	now := mon.clock.Now()
	newStates := map[string]zoneState{}
	var notReady map[string]int // for the observer
	allAreFull := true
	zones := make([]string, 0, len(zoneConds))
	for z := range zoneConds {
		zones = append(zones, z)
	}
	slices.Sort(zones)
	if mon.opts.Zones != nil {
		notReady = make(map[string]int, len(zones))
		defer func() {
			for _, z := range zones {
				size := len(zoneConds[z])
				mon.opts.Zones.ZonePass(ZoneStatus{Zone: ZoneName(z), State: string(mon.zoneStates[z]), NotReady: notReady[z],
					Size: size, Rate: mon.tainters[z].limiter.rate(), Large: mon.opts.large(size), AllDisrupted: allAreFull})
			}
		}()
	}
	for _, z := range zones {
		n, st := computeZoneState(zoneConds[z], mon.opts.UnhealthyZoneThreshold)
		if notReady != nil {
			notReady[z] = n
		}
		if st != stateFullDisruption {
			allAreFull = false
		}
		newStates[z] = st
		if _, ok := mon.zoneStates[z]; !ok {
			mon.zoneStates[z] = stateInitial
			mon.tainters[z] = newTimedQueue(newTokenBucket(mon.opts.EvictionRate, EvictionBurst, now))
		}
	}
	allWasFull := true
	for _, z := range mon.zones() {
		if _, ok := zoneConds[z]; !ok {
			delete(mon.zoneStates, z)
			continue
		}
		if mon.zoneStates[z] != stateFullDisruption {
			allWasFull = false
			break
		}
	}
	if allAreFull && allWasFull {
		return
	}
	switch {
	case allAreFull:
		// Entering master disruption mode: stop every eviction.
		for _, n := range nodes {
			_, _ = mon.markNodeAsReachable(ctx, n)
		}
		for _, z := range mon.zones() {
			mon.tainters[z].swapLimiter(0, now)
			mon.zoneStates[z] = stateFullDisruption
		}
	case allWasFull:
		// Leaving it: fresh grace for every node, rates per zone state.
		for _, n := range nodes {
			if st := mon.registered[n.Name]; st != nil {
				st.floor = now
			}
		}
		for _, z := range mon.zones() {
			mon.setLimiter(z, len(zoneConds[z]), newStates[z], now)
			mon.zoneStates[z] = newStates[z]
		}
	default:
		for _, z := range mon.zones() {
			if st := newStates[z]; mon.zoneStates[z] != st {
				mon.setLimiter(z, len(zoneConds[z]), st, now)
				mon.zoneStates[z] = st
			}
		}
	}
}

// setLimiter is upstream's setLimiterInZone.
func (mon *monitor) setLimiter(zone string, size int, st zoneState, now time.Time) {
	if st == stateInitial {
		return
	}
	mon.tainters[zone].swapLimiter(mon.opts.zoneRate(string(st), size), now)
}

// ZoneRate is the nodes a second a zone of size nodes in state (a
// ZoneStateOf) is tainted NoExecute at, as upstream's setLimiterInZone
// sets it, with o's defaults filled in: EvictionRate for a Normal or a
// fully disrupted zone, and for a partially disrupted one upstream's
// ReducedQPSFunc: SecondaryEvictionRate when it has more than
// LargeClusterThreshold nodes, 0 (stop) when fewer. (Every zone fully
// disrupted stops the tainting everywhere; handleDisruption sees to
// that.)
func (o Options) ZoneRate(state string, size int) float64 {
	o.defaults()
	return o.zoneRate(state, size)
}

// zoneRate is ZoneRate of options whose defaults are filled in already
// (defaults is not idempotent: it takes a "never" rate, negative, to 0,
// and 0 to the default).
func (o *Options) zoneRate(state string, size int) float64 {
	if state != ZonePartialDisruption {
		return o.EvictionRate
	}
	if o.large(size) {
		return o.SecondaryEvictionRate
	}
	return 0
}

// large is LargeZone of options whose defaults are filled in already.
func (o *Options) large(size int) bool { return size > o.LargeClusterThreshold }

// LargeZone reports whether a zone of size nodes is large: more than
// LargeClusterThreshold (default 50), so that partially disrupted it
// is still tainted, at SecondaryEvictionRate.
func (o Options) LargeZone(size int) bool {
	o.defaults()
	return o.large(size)
}

// markPodsNotReady is upstream's MarkPodsNotReady: each pod's Ready
// condition becomes False, with a Warning NodeNotReady event.
func (mon *monitor) markPodsNotReady(ctx context.Context, node string, pods []*api.Pod) error {
	var errs []error
	for _, p := range pods {
		if p.Spec.NodeName != node {
			continue
		}
		cp := p.DeepCopy()
		var ready *api.PodCondition
		for i := range cp.Status.Conditions {
			if cp.Status.Conditions[i].Type == api.PodReady {
				ready = &cp.Status.Conditions[i]
			}
		}
		if ready == nil {
			continue
		}
		cond := *ready
		cond.Status = api.ConditionFalse
		if !updatePodCondition(&cp.Status, cond, mon.clock.Now()) {
			continue
		}
		if _, err := mon.client.UpdateStatus(ctx, cp); err != nil {
			if errors.Is(err, apierr.ErrNotFound) {
				continue
			}
			errs = append(errs, err)
		}
		mon.recorder.Eventf(p, client.EventTypeWarning, "NodeNotReady", "Node is not ready")
	}
	return errors.Join(errs...)
}

// processPod is upstream's processPod: a pod bound to a node that was
// not Ready at the last pass is marked not ready at once.
func (mon *monitor) processPod(ctx context.Context, key api.Key) error {
	p, ok := informer.GetAs[*api.Pod](mon.pods, key)
	if !ok || p.Spec.NodeName == "" {
		return nil
	}
	st := mon.registered[p.Spec.NodeName]
	if st == nil || !st.hasReady || st.ready == api.ConditionTrue {
		return nil
	}
	if _, ok := mon.nodes.Get(api.Key{Name: p.Spec.NodeName}); !ok {
		return fmt.Errorf("node %s of pod %s is not in the cache", p.Spec.NodeName, key)
	}
	return mon.markPodsNotReady(ctx, p.Spec.NodeName, []*api.Pod{p})
}

// noScheduleTaints is upstream's doNoScheduleTaintingPass for one node.
func (mon *monitor) noScheduleTaints(ctx context.Context, name string) error {
	n, ok := informer.GetAs[*api.Node](mon.nodes, api.Key{Name: name})
	if !ok {
		return nil
	}
	add, remove := noScheduleDiff(n)
	if len(add) == 0 && len(remove) == 0 {
		return nil
	}
	if !mon.swapTaints(ctx, n, add, remove) {
		return fmt.Errorf("failed to swap taints of node %s", name)
	}
	return nil
}

// labelReconcile are upstream's labelReconcileInfo: the beta OS and arch
// labels follow the stable ones (primary), and are added when missing.
var labelReconcile = []struct{ primary, secondary string }{
	{LabelOSStable, labelOSBeta},
	{LabelArchStable, labelArchBeta},
}

// labelsToReconcile returns the labels reconcileNodeLabels sets on a node
// with labels, in labelReconcile's order, as "key", "value" pairs; none
// when they agree.
func labelsToReconcile(labels map[string]string) []string {
	var out []string
	for _, r := range labelReconcile {
		v, ok := labels[r.primary]
		if !ok {
			continue // upstream: not within the version skew; ignored
		}
		if sv, ok := labels[r.secondary]; !ok || sv != v {
			out = append(out, r.secondary, v)
		}
	}
	return out
}

// reconcileNodeLabels is upstream's: the beta OS and arch labels are set
// to the stable ones' values (AddOrUpdateLabelsOnNode, a strategic merge
// patch of the labels, retried on conflicts as upstream's
// UpdateLabelBackoff).
func (mon *monitor) reconcileNodeLabels(ctx context.Context, name string) error {
	n, ok := informer.GetAs[*api.Node](mon.nodes, api.Key{Name: name})
	if !ok || n.Labels == nil {
		return nil
	}
	kv := labelsToReconcile(n.Labels)
	if len(kv) == 0 {
		return nil
	}
	labels := make(map[string]string, len(kv)/2)
	for i := 0; i < len(kv); i += 2 {
		labels[kv[i]] = kv[i+1]
	}
	body, err := json.Marshal(map[string]any{"metadata": map[string]any{"labels": labels}})
	if err != nil {
		return err
	}
	for try := range taintRetries {
		if try > 0 {
			mon.clock.Sleep(taintBackoff)
		}
		if _, err = mon.client.Patch(ctx, api.KindNode, api.Key{Name: name}, client.StrategicMergePatch, body); err == nil || !errors.Is(err, apierr.ErrConflict) {
			break
		}
	}
	if err != nil && !errors.Is(err, apierr.ErrNotFound) {
		return fmt.Errorf("failed update labels for node %s: %w", name, err)
	}
	return nil
}
