package runner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clustersim/clustersim/controllers/autoscaler"
	"github.com/clustersim/clustersim/scenarios"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/store"
)

// DefaultProvisioningDelay is how long a machine an autoscaled group asks
// for takes to start its kubelet when the group gives no delay: a typical
// cloud VM boot.
const DefaultProvisioningDelay = 2 * time.Minute

// cloudActor is the identity of the cloud's own writes (the machine
// deleted with its Node object and the pods bound to it, as the cloud
// node lifecycle and pod garbage collector would).
const cloudActor = "system:serviceaccount:kube-system:cloud-node-lifecycle-controller"

// cloud is the autoscaler's CloudProvider on the run: a group's target
// size, its machines (named when asked for) joining after the
// provisioning delay, deletions. A machine that boots in a zone a
// crashNodes step took down cannot reach the API server: it never
// registers, and stays until it is deleted.
type cloud struct {
	r      *run
	target map[string]int
	groups []autoscaler.NodeGroup
	delay  map[string]time.Duration
	// machines are each group's machines, registered or not, in the
	// order they were asked for.
	machines map[string][]string
	// booting are the machines asked for that have not started yet.
	booting map[string]bool
}

var _ autoscaler.CloudProvider = (*cloud)(nil)

func (r *run) startAutoscaler() error {
	c := &cloud{r: r, target: map[string]int{}, delay: map[string]time.Duration{}, machines: map[string][]string{}, booting: map[string]bool{}}
	for _, g := range r.s.Spec.Cluster.NodeGroups {
		a := g.Autoscaling
		if a == nil {
			continue
		}
		alloc, err := kubelet.NodeAllocatable(g.Capacity, g.KubeReserved, g.SystemReserved, g.EvictionHard)
		if err != nil {
			return err
		}
		t := &api.Node{ObjectMeta: api.ObjectMeta{Name: g.Name + "-template", Labels: g.Labels},
			Spec: api.NodeSpec{Taints: g.Taints}, Status: api.NodeStatus{Capacity: g.Capacity, Allocatable: alloc}}
		c.groups = append(c.groups, autoscaler.NodeGroup{Name: g.Name, MinSize: a.MinSize, MaxSize: a.MaxSize, Template: t})
		c.target[g.Name] = g.Count
		for i := range g.Count {
			c.machines[g.Name] = append(c.machines[g.Name], fmt.Sprintf("%s-%d", g.Name, i+1))
		}
		c.delay[g.Name] = DefaultProvisioningDelay
		if a.ProvisioningDelay != nil {
			c.delay[g.Name] = a.ProvisioningDelay.Duration
		}
	}
	if len(c.groups) == 0 {
		return nil
	}
	opts := autoscaler.Options{Provider: c, Decided: func(line string) {
		r.record(Entry{At: r.c.K.Now().Duration(), Command: "cluster-autoscaler " + line})
	}}
	if s := r.s.Spec.Cluster.Autoscaler; s != nil {
		if s.ScanInterval != nil {
			opts.ScanInterval = s.ScanInterval.Duration
		}
		if s.ScaleDownUnneededTime != nil {
			opts.ScaleDownUnneededTime = s.ScaleDownUnneededTime.Duration
		}
		if s.ScaleDownDelayAfterAdd != nil {
			opts.ScaleDownDelayAfterAdd = s.ScaleDownDelayAfterAdd.Duration
		}
		if s.ScaleDownUtilizationThreshold != nil {
			opts.ScaleDownUtilizationThreshold = *s.ScaleDownUtilizationThreshold
		}
		if s.ScaleDownEnabled != nil {
			opts.ScaleDownDisabled = !*s.ScaleDownEnabled
		}
		opts.SkipNodesWithSystemPods = s.SkipNodesWithSystemPods
		opts.SkipNodesWithLocalStorage = s.SkipNodesWithLocalStorage
		opts.SkipNodesWithCustomControllerPods = s.SkipNodesWithCustomControllerPods
		if s.MaxPodEvictionTime != nil {
			opts.MaxPodEvictionTime = s.MaxPodEvictionTime.Duration
		}
		if s.MaxGracefulTerminationSec != nil {
			opts.MaxGracefulTerminationSec = *s.MaxGracefulTerminationSec
		}
		clusterStateOptions(s, &opts)
	}
	m := r.c.AddManager("cluster-autoscaler", autoscaler.Actor, func(m *controller.Manager) error { return autoscaler.Setup(m, opts) })
	r.observeInformers(m, "cluster-autoscaler")
	r.paceAutoscaler(m)
	if err := m.Start(); err != nil {
		return err
	}
	r.managers["cluster-autoscaler"] = m
	return nil
}

// clusterStateOptions sets the flags of cluster health, failed
// scale-ups and unready nodes the scenario gives.
func clusterStateOptions(s *scenarios.AutoscalerSettings, opts *autoscaler.Options) {
	for _, d := range []struct {
		from *api.Duration
		to   *time.Duration
	}{{s.MaxNodeProvisionTime, &opts.MaxNodeProvisionTime}, {s.ScaleDownUnreadyTime, &opts.ScaleDownUnreadyTime},
		{s.InitialNodeGroupBackoffDuration, &opts.InitialNodeGroupBackoffDuration},
		{s.MaxNodeGroupBackoffDuration, &opts.MaxNodeGroupBackoffDuration},
		{s.NodeGroupBackoffResetTimeout, &opts.NodeGroupBackoffResetTimeout}} {
		if d.from != nil {
			*d.to = d.from.Duration
		}
	}
	if s.ScaleDownUnreadyEnabled != nil {
		opts.ScaleDownUnreadyDisabled = !*s.ScaleDownUnreadyEnabled
	}
	opts.MaxTotalUnreadyPercentage = s.MaxTotalUnreadyPercentage
	opts.OkTotalUnreadyCount = s.OkTotalUnreadyCount
}

func (c *cloud) NodeGroups() []autoscaler.NodeGroup { return c.groups }

func (c *cloud) NodeGroupForNode(n *api.Node) string {
	g := c.r.nodes.groupOf[n.Name]
	if _, ok := c.target[g]; !ok {
		return ""
	}
	return g
}

func (c *cloud) TargetSize(group string) int { return c.target[group] }

// Nodes names the group's machines in name order.
func (c *cloud) Nodes(group string) []string {
	return slices.SortedFunc(slices.Values(c.machines[group]), compareNodeNames)
}

// compareNodeNames orders <group>-<n> names by group, then number.
func compareNodeNames(x, y string) int {
	if len(x) != len(y) {
		return len(x) - len(y)
	}
	return strings.Compare(x, y)
}

// IncreaseSize asks for delta machines, named at once: each starts its
// kubelet, which registers the node, after the group's provisioning
// delay, unless its zone is lost or it was deleted before.
func (c *cloud) IncreaseSize(group string, delta int) error {
	g, ok := c.target[group]
	if !ok {
		return fmt.Errorf("no autoscaled node group %q", group)
	}
	c.target[group] = g + delta
	names := c.r.nodes.reserve(group, delta)
	c.machines[group] = append(c.machines[group], names...)
	for _, n := range names {
		c.booting[n] = true
	}
	k := c.r.c.K
	k.At(k.Now().Add(c.delay[group]), func() { c.boot(group, names) })
	return nil
}

// boot starts the machines of names still asked for: in a lost zone they
// come up cut off from the API server, elsewhere their kubelets register.
func (c *cloud) boot(group string, names []string) {
	names = slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !c.booting[n] })
	for _, n := range names {
		delete(c.booting, n)
	}
	if len(names) == 0 {
		return
	}
	var lines []string
	if zone := c.r.nodes.lostZone(group); zone != "" {
		for _, n := range names {
			lines = append(lines, "machine "+n+" cannot reach the API server: its zone is lost (crash nodes "+zone+"); it will not register")
		}
	} else {
		var err error
		if lines, err = c.r.nodes.start(group, names, false); err != nil {
			lines = append(lines, "error: "+err.Error())
		}
	}
	c.r.record(Entry{At: c.r.c.K.Now().Duration(), Command: fmt.Sprintf("cloud: %d machine(s) of %s provisioned after %s", len(names), group, c.delay[group]), Lines: lines})
}

// DecreaseTargetSize takes back -delta machines not started yet, the
// last asked for first, and fails, as a cloud's managed group does, when
// fewer have not started.
func (c *cloud) DecreaseTargetSize(group string, delta int) error {
	var booting []string
	for _, n := range c.machines[group] {
		if c.booting[n] {
			booting = append(booting, n)
		}
	}
	if delta >= 0 || -delta > len(booting) {
		return fmt.Errorf("attempt to delete existing nodes targetSize:%d delta:%d existingNodes: %d", c.target[group], delta, len(c.machines[group])-len(booting))
	}
	for _, n := range booting[len(booting)+delta:] {
		delete(c.booting, n)
		c.forget(group, n)
	}
	c.r.record(Entry{At: c.r.c.K.Now().Duration(), Command: fmt.Sprintf("cloud: target size of %s decreased by %d", group, -delta)})
	return nil
}

// DeleteNode stops the machine of node and deletes its Node object and
// the pods still bound to it; a machine that never registered has
// neither.
func (c *cloud) DeleteNode(name string) error {
	g := c.r.nodes.groupOf[name]
	if k, ok := c.r.nodes.kubelets[name]; ok {
		k.Crash()
		k.Endpoint().SetDown(true)
	} else if g = c.unregisteredGroup(name); g != "" {
		delete(c.booting, name)
		c.forget(g, name)
		c.r.record(Entry{At: c.r.c.K.Now().Duration(), Command: "cloud: machine " + name + " deleted (it never registered)"})
		return nil
	}
	c.forget(g, name)
	op := store.Op{Actor: cloudActor, Verb: "delete"}
	if _, _, err := c.r.c.Store.Delete(op, api.KindNode, api.Key{Name: name}, store.DeleteOptions{}); err != nil {
		return err
	}
	pods, _, _ := c.r.c.Store.List(api.KindPod, store.ListOptions{})
	zero := int64(0)
	for _, o := range pods {
		if p := o.(*api.Pod); p.Spec.NodeName == name {
			_, _, _ = c.r.c.Store.Delete(op, api.KindPod, p.GetObjectMeta().Key(), store.DeleteOptions{GracePeriodSeconds: &zero})
		}
	}
	c.r.record(Entry{At: c.r.c.K.Now().Duration(), Command: "cloud: machine " + name + " deleted"})
	return nil
}

// unregisteredGroup is the group of a machine that has no kubelet ("" if
// there is none).
func (c *cloud) unregisteredGroup(name string) string {
	for _, g := range c.groups {
		if slices.Contains(c.machines[g.Name], name) {
			return g.Name
		}
	}
	return ""
}

// forget removes machine name from group, lowering its target size.
func (c *cloud) forget(group, name string) {
	c.machines[group] = slices.DeleteFunc(c.machines[group], func(n string) bool { return n == name })
	c.target[group]--
}

// paceAutoscaler gives the autoscaler's client cluster-autoscaler's
// pacing (scenarios.AutoscalerPacing): its token bucket throttles its
// requests (evictions, node and taint writes) as --kube-client-qps and
// --kube-client-burst do, and its waits are reported as the
// controllers' are.
func (r *run) paceAutoscaler(m *controller.Manager) {
	p := scenarios.AutoscalerPacing(r.s)
	if p.Unpaced() {
		return
	}
	o := m.Options()
	o.Client.QPS, o.Client.Burst = p.QPS, p.Burst
	o.Client.Paced = r.throttle.paced(autoscaler.Actor, p, func() time.Duration { return r.c.K.Now().Duration() })
	m.SetOptions(o)
}
