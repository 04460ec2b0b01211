package autoscaler

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

// The autoscaler's standing view of the cluster. Upstream's
// cluster-autoscaler rebuilds its ClusterSnapshot from every node and pod
// at each scan; in a simulation that costs wall time in proportion to
// the cluster at every one of a virtual hour's 360 scans. The view keeps
// the same state between scans instead (each node's pods and requests,
// the scheduler Simulation, the pending and DaemonSet pods) and brings it
// up to date at a scan's start from the nodes and pods the informers
// said changed, each looked up as the lister holds it then: the state a
// scan starts from is the one a rebuild from the listers would make
// (TestViewMatchesRebuild). What a scan changes in it (pods placed on
// nodes, template nodes, nodes removed) it undoes at its end: the
// Simulation reverts to the mark the scan started at, and each node it
// placed a pod on gets its standing requests and pods back.

// podLister is a lister of pods with the informer's index of pods by
// node name (informer.IndexNodeName).
type podLister interface {
	lister
	ByIndex(name, value string) []api.Object
}

// view is the standing state and what has changed since it was last
// brought up to date.
type view struct {
	nodes    lister
	pods     podLister
	provider CloudProvider
	s        *state
	// records are the pods of the standing state by key: the version
	// last seen and where it is counted.
	records map[api.Key]*podRecord
	// dirtyNodes and dirtyPods are the keys the informers reported
	// changed since the last scan.
	dirtyNodes map[string]bool
	dirtyPods  map[api.Key]bool
	pending    podSet
	daemons    podSet
	// terminating are the counted pods with a deletion timestamp, whose
	// requests leave a node's utilization once long past their grace
	// period (a matter of the scan's time, so set at each scan: setGone).
	terminating map[api.Key]*podRecord
	// withGone are the nodes the last scan charged gone requests to.
	withGone []*nodeState
	scan     scanLog
}

// podRecord is one pod of the standing state: the version counted and
// its requests, and the node it is counted on (nil for none).
type podRecord struct {
	pod      *api.Pod
	cpu, mem int64
	on       *nodeState
}

// newView is an empty view; the informers' handlers (podChanged,
// nodeChanged) fill it.
func newView(nodes lister, pods podLister, provider CloudProvider) *view {
	return &view{nodes: nodes, pods: pods, provider: provider,
		s:       &state{byName: map[string]*nodeState{}, sim: scheduler.NewSimulation()},
		records: map[api.Key]*podRecord{}, dirtyNodes: map[string]bool{}, dirtyPods: map[api.Key]bool{},
		pending: newPodSet(), daemons: newPodSet(), terminating: map[api.Key]*podRecord{}}
}

// changeHandler is an informer handler telling changed of every object
// added, updated or deleted. The view's only note the key: a scan may be
// under way.
func changeHandler(changed func(api.Object)) informer.HandlerFuncs {
	return informer.HandlerFuncs{AddFunc: changed, UpdateFunc: func(_, o api.Object) { changed(o) }, DeleteFunc: changed}
}

func (v *view) podChanged(o api.Object) { v.dirtyPods[o.GetObjectMeta().Key()] = true }

func (v *view) nodeChanged(o api.Object) { v.dirtyNodes[o.GetObjectMeta().Name] = true }

// begin brings the standing state up to date for a scan at now and
// returns it; end must follow when the scan is over.
func (v *view) begin(now time.Time) *state {
	v.syncNodes()
	v.syncPods()
	v.s.sim.Commit()
	v.setGone(now)
	v.s.pending = v.pending.list()
	v.s.daemons = v.daemons.list()
	v.s.templates = 0
	return v.s
}

// end undoes what the scan changed in the standing state.
func (v *view) end() {
	v.s.sim.Revert(0)
	v.scan.restore()
}

// syncNodes adds, updates and removes the nodes reported changed, in
// name order; a node added or removed has its pods looked at again.
func (v *view) syncNodes() {
	for _, name := range sortedKeys(v.dirtyNodes) {
		delete(v.dirtyNodes, name)
		o, _ := v.nodes.Get(api.Key{Name: name})
		n, _ := o.(*api.Node)
		ns := v.s.byName[name]
		switch {
		case n == nil && ns != nil:
			v.removeNode(ns)
		case n != nil && ns == nil:
			v.addNode(n)
		case n != nil && n != ns.node:
			ns.setNode(n, v.provider.NodeGroupForNode(n))
			v.s.sim.AddNode(n)
		}
	}
}

func (v *view) addNode(n *api.Node) {
	ns := &nodeState{sim: v.s.sim, scan: &v.scan}
	ns.setNode(n, v.provider.NodeGroupForNode(n))
	v.s.nodes = slices.Insert(v.s.nodes, v.nodeIndex(n.Name), ns)
	v.s.byName[n.Name] = ns
	v.s.sim.AddNode(n)
	for _, o := range v.pods.ByIndex(informer.IndexNodeName, n.Name) {
		v.dirtyPods[o.GetObjectMeta().Key()] = true
	}
}

// removeNode drops ns and, with it, the counting of its pods (they stay
// recorded: bound to a node that is gone, they are neither counted nor
// pending).
func (v *view) removeNode(ns *nodeState) {
	for _, p := range ns.pods {
		v.records[p.Key()].on = nil
	}
	name := ns.node.Name
	v.s.sim.RemoveNode(name)
	delete(v.s.byName, name)
	i := v.nodeIndex(name)
	v.s.nodes = slices.Delete(v.s.nodes, i, i+1)
}

// nodeIndex is where the node name is, or would go, in the standing
// state's nodes (name order).
func (v *view) nodeIndex(name string) int {
	i, _ := slices.BinarySearchFunc(v.s.nodes, name, func(x *nodeState, name string) int { return strings.Compare(x.node.Name, name) })
	return i
}

// syncPods brings the pods reported changed up to date, in key order.
func (v *view) syncPods() {
	keys := make([]api.Key, 0, len(v.dirtyPods))
	for k := range v.dirtyPods {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	clear(v.dirtyPods)
	for _, k := range keys {
		v.syncPod(k)
	}
}

// syncPod makes the standing state hold the lister's version of the pod
// key as a rebuild would: counted on its node when bound to a known node
// and not terminated, pending when Unschedulable and not expendable, a
// DaemonSet pod when not terminated.
func (v *view) syncPod(key api.Key) {
	o, _ := v.pods.Get(key)
	p, _ := o.(*api.Pod)
	if p != nil && terminated(p) {
		p = nil
	}
	var on *nodeState
	if p != nil && p.Spec.NodeName != "" {
		on = v.s.byName[p.Spec.NodeName]
	}
	rec := v.records[key]
	if rec != nil && rec.pod == p && rec.on == on {
		return
	}
	if rec != nil {
		v.forget(key, rec)
	}
	if p == nil {
		return
	}
	rec = &podRecord{pod: p, on: on}
	rec.cpu, rec.mem = requests(p)
	v.records[key] = rec
	if on != nil {
		on.add(p, rec.cpu, rec.mem)
		v.s.sim.AddPod(p, on.node.Name)
		if p.DeletionTimestamp != nil {
			v.terminating[key] = rec
		}
	} else if unschedulable(p) && !expendable(p) {
		v.pending.put(key, p)
	}
	if isDaemonPod(p) {
		v.daemons.put(key, p)
	}
}

// forget takes rec, the pod key's record, out of the standing state.
func (v *view) forget(key api.Key, rec *podRecord) {
	if rec.on != nil {
		rec.on.remove(key, rec.cpu, rec.mem)
		v.s.sim.RemovePod(key)
	}
	delete(v.records, key)
	delete(v.terminating, key)
	v.pending.del(key)
	v.daemons.del(key)
}

// setGone charges each node the requests of its pods terminating past
// their grace period at now, which utilization leaves out.
func (v *view) setGone(now time.Time) {
	for _, ns := range v.withGone {
		ns.goneCPU, ns.goneMem = 0, 0
	}
	v.withGone = v.withGone[:0]
	// Sums: the map's order cannot change them.
	for _, rec := range v.terminating {
		if rec.on != nil && longTerminating(rec.pod, now) {
			rec.on.goneCPU += rec.cpu
			rec.on.goneMem += rec.mem
			v.withGone = append(v.withGone, rec.on)
		}
	}
}

// setNode makes n hold node, of group: its allocatable, readiness and
// whether it is being deleted.
func (n *nodeState) setNode(node *api.Node, group string) {
	fresh := newNodeState(node, group, nodeReady(node))
	n.node, n.group, n.ready = node, group, fresh.ready
	n.cpu, n.mem, n.maxPods = fresh.cpu, fresh.mem, fresh.maxPods
	n.deleting = slices.ContainsFunc(node.Spec.Taints, func(t api.Taint) bool { return t.Key == TaintToBeDeleted })
}

// add counts p on n in the standing state, keeping n's pods in key
// order (a scan's place appends instead).
func (n *nodeState) add(p *api.Pod, cpu, mem int64) {
	i, _ := slices.BinarySearchFunc(n.pods, p.Key(), podKeyOrder)
	n.pods = slices.Insert(n.pods, i, p)
	n.usedCPU += cpu
	n.usedMem += mem
}

// remove stops counting the pod key, of the requests given, on n.
func (n *nodeState) remove(key api.Key, cpu, mem int64) {
	if i, ok := slices.BinarySearchFunc(n.pods, key, podKeyOrder); ok {
		n.pods = slices.Delete(n.pods, i, i+1)
	}
	n.usedCPU -= cpu
	n.usedMem -= mem
}

func podKeyOrder(p *api.Pod, k api.Key) int { return compareKeys(p.Key(), k) }

// compareKeys orders keys as listers list: namespace, then name.
func compareKeys(a, b api.Key) int {
	return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
}

// usage is a node's requests and number of pods.
type usage struct {
	cpu, mem int64
	pods     int
}

// scanLog is the nodes of the standing state a scan placed pods on,
// each with its usage before, to give back at the scan's end.
type scanLog struct{ touched []*nodeState }

// save records n's standing usage at a scan's first change to it.
func (l *scanLog) save(n *nodeState) {
	if n.saved {
		return
	}
	n.saved = true
	n.before = usage{cpu: n.usedCPU, mem: n.usedMem, pods: len(n.pods)}
	l.touched = append(l.touched, n)
}

// restore gives each node the scan changed its standing usage back.
func (l *scanLog) restore() {
	for _, n := range l.touched {
		n.usedCPU, n.usedMem = n.before.cpu, n.before.mem
		clear(n.pods[n.before.pods:])
		n.pods = n.pods[:n.before.pods]
		n.saved = false
	}
	clear(l.touched)
	l.touched = l.touched[:0]
}

// podSet is a set of pods by key, listed in key order.
type podSet struct {
	m      map[api.Key]*api.Pod
	sorted []*api.Pod
	stale  bool
}

func newPodSet() podSet { return podSet{m: map[api.Key]*api.Pod{}} }

func (s *podSet) put(key api.Key, p *api.Pod) {
	s.m[key] = p
	s.stale = true
}

func (s *podSet) del(key api.Key) {
	if _, ok := s.m[key]; ok {
		delete(s.m, key)
		s.stale = true
	}
}

// list returns the pods in key order, in a slice the caller must not
// change; it is valid until the next put or del.
func (s *podSet) list() []*api.Pod {
	if !s.stale {
		return s.sorted
	}
	s.sorted = make([]*api.Pod, 0, len(s.m))
	for _, p := range s.m {
		s.sorted = append(s.sorted, p)
	}
	slices.SortFunc(s.sorted, func(x, y *api.Pod) int { return compareKeys(x.Key(), y.Key()) })
	s.stale = false
	return s.sorted
}
