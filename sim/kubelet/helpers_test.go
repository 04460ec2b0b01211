package kubelet_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/store"
)

func quantities(kv ...string) api.ResourceList {
	out := api.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[api.ResourceName(kv[i])] = api.MustParseQuantity(kv[i+1])
	}
	return out
}

// env is a cluster with kubelets.
type env struct {
	t        *testing.T
	c        *cluster.Cluster
	registry *kubelet.Registry
	nodes    map[string]*kubelet.Kubelet
}

func newEnv(t *testing.T, cfg cluster.Config) *env {
	t.Helper()
	c, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := kubelet.DefaultRegistry()
	if err := r.Add("example.com/crash:v1", kubelet.Image{PullTime: time.Second, Exit: &kubelet.Exit{After: 5 * time.Second, Code: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := r.Add("example.com/graceful:v1", kubelet.Image{PullTime: time.Second, StopTime: 2 * time.Second}); err != nil {
		t.Fatal(err)
	}
	if err := r.Add("example.com/job:v1", kubelet.Image{PullTime: time.Second, Exit: &kubelet.Exit{After: 3 * time.Second}}); err != nil {
		t.Fatal(err)
	}
	return &env{t: t, c: c, registry: r, nodes: map[string]*kubelet.Kubelet{}}
}

// addNode starts a kubelet for node name with pod CIDR 10.244.<n>.0/24.
func (e *env) addNode(name string, n int, mod func(*kubelet.Config)) *kubelet.Kubelet {
	e.t.Helper()
	cfg := kubelet.Config{
		NodeName: name,
		Capacity: quantities("cpu", "4", "memory", "8Gi", "pods", "110"),
		Labels:   map[string]string{"topology.kubernetes.io/zone": "zone-a"},
		PodCIDR:  fmt.Sprintf("10.244.%d.0/24", n),
		Registry: e.registry,
	}
	if mod != nil {
		mod(&cfg)
	}
	k, err := kubelet.New(e.c.Net, e.c.APIEndpoint.Addr(), cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	k.Start()
	e.nodes[name] = k
	return k
}

// boundPod is a pod already bound to node, as if scheduled.
func boundPod(name, node, image string) *api.Pod {
	return &api.Pod{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name},
		Spec: api.PodSpec{
			NodeName:   node,
			Containers: []api.Container{{Name: "app", Image: image}},
		},
	}
}

func (e *env) create(objs ...api.Object) {
	e.t.Helper()
	if err := e.c.Bootstrap(objs...); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) pod(name string) *api.Pod {
	e.t.Helper()
	o, err := e.c.Store.Get(api.KindPod, api.Key{Namespace: "default", Name: name})
	if err != nil {
		return nil
	}
	return o.(*api.Pod)
}

func (e *env) run(d time.Duration) { e.c.RunFor(d) }

func cond(p *api.Pod, typ api.PodConditionType) *api.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == typ {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// events lists the Events about object name with reason ("" for all), in
// creation order.
func (e *env) events(name, reason string) []*api.Event {
	objs, _, _ := e.c.Store.List(api.KindEvent, store.ListOptions{})
	var out []*api.Event
	for _, o := range objs {
		ev := o.(*api.Event)
		if ev.InvolvedObject.Name == name && (reason == "" || ev.Reason == reason) {
			out = append(out, ev)
		}
	}
	return out
}

func (e *env) findEvent(name, reason, msg string) *api.Event {
	for _, ev := range e.events(name, reason) {
		if ev.Message == msg {
			return ev
		}
	}
	return nil
}
