package runner

import (
	"fmt"
	"time"

	"github.com/clustersim/clustersim/controllers/autoscaler"
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
// size, machines joining after the provisioning delay, deletions.
type cloud struct {
	r      *run
	target map[string]int
	groups []autoscaler.NodeGroup
	delay  map[string]time.Duration
}

var _ autoscaler.CloudProvider = (*cloud)(nil)

func (r *run) startAutoscaler() error {
	c := &cloud{r: r, target: map[string]int{}, delay: map[string]time.Duration{}}
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
	}
	m := r.c.AddManager("cluster-autoscaler", autoscaler.Actor, func(m *controller.Manager) error { return autoscaler.Setup(m, opts) })
	r.observeInformers(m, "cluster-autoscaler")
	if err := m.Start(); err != nil {
		return err
	}
	r.managers["cluster-autoscaler"] = m
	return nil
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

// IncreaseSize asks for delta machines: each starts its kubelet, which
// registers the node, after the group's provisioning delay.
func (c *cloud) IncreaseSize(group string, delta int) error {
	g, ok := c.target[group]
	if !ok {
		return fmt.Errorf("no autoscaled node group %q", group)
	}
	c.target[group] = g + delta
	k := c.r.c.K
	k.At(k.Now().Add(c.delay[group]), func() {
		lines, err := c.r.nodes.add(group, delta)
		if err != nil {
			lines = append(lines, "error: "+err.Error())
		}
		c.r.record(Entry{At: k.Now().Duration(), Command: fmt.Sprintf("cloud: %d machine(s) of %s provisioned after %s", delta, group, c.delay[group]), Lines: lines})
	})
	return nil
}

// DeleteNode stops the machine of node and deletes its Node object and
// the pods still bound to it.
func (c *cloud) DeleteNode(name string) error {
	g := c.r.nodes.groupOf[name]
	if k, ok := c.r.nodes.kubelets[name]; ok {
		k.Crash()
		k.Endpoint().SetDown(true)
	}
	c.target[g]--
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
