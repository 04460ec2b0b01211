package scheduler

import (
	"github.com/clustersim/clustersim/sim/api"
)

// rl builds a ResourceList from name/quantity pairs.
func rl(kv ...string) api.ResourceList {
	out := api.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		out[api.ResourceName(kv[i])] = api.MustParseQuantity(kv[i+1])
	}
	return out
}

// testPod is a pod with one container per request list (as upstream's
// st.MakePod().Req(...) builds them).
func testPod(name string, reqs ...api.ResourceList) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, UID: api.UID("uid-" + name)}}
	for i, r := range reqs {
		p.Spec.Containers = append(p.Spec.Containers, api.Container{
			Name:      "c" + string(rune('0'+i)),
			Image:     "pause",
			Resources: api.ResourceRequirements{Requests: r},
		})
	}
	return p
}

// withInit adds one init container per request list.
func withInit(p *api.Pod, reqs ...api.ResourceList) *api.Pod {
	for i, r := range reqs {
		p.Spec.InitContainers = append(p.Spec.InitContainers, api.Container{
			Name:      "i" + string(rune('0'+i)),
			Image:     "pause",
			Resources: api.ResourceRequirements{Requests: r},
		})
	}
	return p
}

// testNode is a Ready node with the given allocatable.
func testNode(name string, alloc api.ResourceList) *api.Node {
	return &api.Node{
		ObjectMeta: api.ObjectMeta{Name: name, Labels: map[string]string{}},
		Status: api.NodeStatus{
			Capacity:    alloc,
			Allocatable: alloc,
			Conditions:  []api.NodeCondition{{Type: api.NodeReady, Status: api.ConditionTrue}},
		},
	}
}

// bindTo returns a copy of p bound to node.
func bindTo(p *api.Pod, node string) *api.Pod {
	c := p.DeepCopyObject().(*api.Pod)
	c.Spec.NodeName = node
	return c
}

// newTestCache builds a cache holding nodes and the bound pods.
func newTestCache(nodes []*api.Node, pods ...*api.Pod) *cache {
	c := newCache()
	for _, n := range nodes {
		c.setNode(n)
	}
	for _, p := range pods {
		c.setPod(p)
	}
	return c
}
