package runner

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/clustersim/clustersim/sim/api"

	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/kubelet"
)

// nodes are the run's kubelets, by node name, and the node groups they
// came from.
type nodes struct {
	r        *run
	registry *kubelet.Registry
	kubelets map[string]*kubelet.Kubelet
	groups   map[string]*scenarios.NodeGroup
	size     map[string]int // nodes created per group so far
	count    int            // nodes created, for pod CIDRs
	// groupOf is each node's group.
	groupOf map[string]string
	// kubeAPI and events pace every kubelet's API and event clients;
	// paced folds their waits into the run's throttling.
	kubeAPI, events kubelet.Pacing
	paced           func(events bool, wait time.Duration)
	// lost are the zones crashNodes took down (see lostZone).
	lost []*lostZone
}

// lostZone is a crashNodes step's failure domain: the node groups whose
// labels its selector matches. It stays lost until every node it
// stopped is recovered (one that stopped none stays lost): a machine the
// cloud starts there meanwhile cannot reach the API server.
type lostZone struct {
	selector string
	sel      api.Selector
	down     map[string]bool
	// stopped counts the nodes it stopped.
	stopped int
}

// startNodes creates every node group's nodes as they are when the run
// starts: registered and Ready (their Node objects bootstrapped), each with
// a running kubelet.
func (r *run) startNodes() error {
	reg, err := r.s.ImageRegistry()
	if err != nil {
		return err
	}
	r.nodes = &nodes{r: r, registry: reg, kubelets: map[string]*kubelet.Kubelet{}, groups: map[string]*scenarios.NodeGroup{}, size: map[string]int{}, groupOf: map[string]string{}}
	apiPacing, evPacing := scenarios.KubeletPacing(r.s)
	r.nodes.kubeAPI = kubelet.Pacing{QPS: apiPacing.QPS, Burst: apiPacing.Burst}
	r.nodes.events = kubelet.Pacing{QPS: evPacing.QPS, Burst: evPacing.Burst}
	now := func() time.Duration { return r.c.K.Now().Duration() }
	var apiPaced, evPaced func(time.Duration)
	if !apiPacing.Unpaced() {
		apiPaced = r.throttle.foldedPaced(KubeletsActor, apiPacing, now)
	}
	if !evPacing.Unpaced() {
		evPaced = r.throttle.foldedPaced(KubeletsActor+" (event client)", evPacing, now)
	}
	r.nodes.paced = func(events bool, wait time.Duration) {
		if events {
			evPaced(wait)
		} else {
			apiPaced(wait)
		}
	}
	for i := range r.s.Spec.Cluster.NodeGroups {
		g := &r.s.Spec.Cluster.NodeGroups[i]
		r.nodes.groups[g.Name] = g
		if _, err := r.nodes.create(g.Name, g.Count, true); err != nil {
			return err
		}
	}
	return nil
}

// add creates count nodes in a group during the run: their kubelets start
// and register them, as a new machine joining does.
func (n *nodes) add(group string, count int) ([]string, error) {
	return n.create(group, count, false)
}

func (n *nodes) create(group string, count int, bootstrap bool) ([]string, error) {
	if _, ok := n.groups[group]; !ok {
		return nil, fmt.Errorf("no node group %q", group)
	}
	return n.start(group, n.reserve(group, count), bootstrap)
}

// reserve names the next count nodes of group, <group>-<n+1> on, as a
// cloud names a machine when it is asked for.
func (n *nodes) reserve(group string, count int) []string {
	names := make([]string, count)
	for i := range names {
		n.size[group]++
		names[i] = fmt.Sprintf("%s-%d", group, n.size[group])
	}
	return names
}

// start starts the kubelets of the named nodes of group, which register
// them (bootstrap: their Node objects are in place from the start).
func (n *nodes) start(group string, names []string, bootstrap bool) ([]string, error) {
	g, ok := n.groups[group]
	if !ok {
		return nil, fmt.Errorf("no node group %q", group)
	}
	var lines []string
	for _, name := range names {
		idx := n.count
		n.count++
		alloc, err := kubelet.NodeAllocatable(g.Capacity, g.KubeReserved, g.SystemReserved, g.EvictionHard)
		if err != nil {
			return nil, fmt.Errorf("node group %s: %w", group, err)
		}
		k, err := kubelet.New(n.r.c.Net, n.r.c.APIEndpoint.Addr(), kubelet.Config{
			NodeName:    name,
			Capacity:    g.Capacity,
			Allocatable: alloc,
			Labels:      g.Labels,
			Taints:      g.Taints,
			PodCIDR:     podCIDR(idx),
			Registry:    n.registry,
			KubeAPI:     n.kubeAPI,
			Events:      n.events,
			Paced:       n.paced,
		})
		if err != nil {
			return nil, err
		}
		n.r.c.SetActor(k.Endpoint().Addr(), kubelet.Actor(name))
		if bootstrap {
			node := k.Node()
			node.Spec.Unschedulable = g.Unschedulable
			if err := n.r.c.Bootstrap(node); err != nil {
				return nil, err
			}
		}
		k.Start()
		n.kubelets[name] = k
		n.groupOf[name] = group
		lines = append(lines, "node/"+name+" added")
	}
	return lines, nil
}

// podCIDR gives node idx its pod range: 10.244.0.0/24, 10.244.1.0/24, ...
// continuing into 10.245.x and up.
func podCIDR(idx int) string {
	return fmt.Sprintf("10.%d.%d.0/24", (244+idx/256)%256, idx%256)
}

// crash stops a node's kubelet and takes its network endpoint down: the
// machine is gone.
func (n *nodes) crash(name string) []string {
	k, ok := n.kubelets[name]
	if !ok {
		return []string{"no node " + name}
	}
	k.Crash()
	k.Endpoint().SetDown(true)
	return []string{"node/" + name + " stopped: no lease renewals, no status, no pod work"}
}

// recover brings a crashed node back.
func (n *nodes) recover(name string) []string {
	k, ok := n.kubelets[name]
	if !ok {
		return []string{"no node " + name}
	}
	for _, z := range n.lost {
		delete(z.down, name)
	}
	k.Endpoint().SetDown(false)
	k.Recover()
	return []string{"node/" + name + " is back: its kubelet relists its pods and renews its lease"}
}

// stop makes a node's kubelet hang: it stops renewing its lease, posting
// status and working on pods, while the machine stays on the network.
func (n *nodes) stop(name string) []string {
	k, ok := n.kubelets[name]
	if !ok {
		return []string{"no node " + name}
	}
	k.Stop()
	return []string{"kubelet on " + name + " stopped: no lease renewals, no status, no pod work"}
}

// crashMatching crashes every running node whose group's labels the
// selector matches, in name order.
func (n *nodes) crashMatching(selector string) []string {
	sel, err := api.ParseSelector(selector)
	if err != nil {
		return []string{"error: " + err.Error()}
	}
	z := &lostZone{selector: selector, sel: sel, down: map[string]bool{}}
	var lines []string
	for _, name := range slices.Sorted(maps.Keys(n.kubelets)) {
		if g := n.groups[n.groupOf[name]]; g != nil && sel.Matches(g.Labels) {
			lines = append(lines, n.crash(name)...)
			z.down[name] = true
			z.stopped++
		}
	}
	n.lost = append(n.lost, z)
	return lines
}

// lostZone returns the selector of a crashNodes step whose zone group
// is in and that is still lost ("" when none is).
func (n *nodes) lostZone(group string) string {
	g := n.groups[group]
	for _, z := range n.lost {
		if g != nil && z.sel.Matches(g.Labels) && (len(z.down) > 0 || z.stopped == 0) {
			return z.selector
		}
	}
	return ""
}
