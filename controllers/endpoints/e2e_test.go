package endpoints_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/deployment"
	"github.com/clustersim/clustersim/controllers/endpoints"
	"github.com/clustersim/clustersim/controllers/replicaset"
	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/client"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/netsim"
	"github.com/clustersim/clustersim/sim/store"
)

// phpCluster runs the php-apache Deployment and Service of the HPA
// walkthrough on two nodes with real kubelets and the scheduler,
// ReplicaSet, Deployment and Endpoints controllers.
func phpCluster(t *testing.T, link netsim.LinkConfig) *cluster.Cluster {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1, Link: link})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		k, err := kubelet.New(c.Net, c.APIEndpoint.Addr(), kubelet.Config{
			NodeName: fmt.Sprintf("node-%d", i),
			Capacity: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4"), api.ResourceMemory: api.MustParseQuantity("16Gi")},
			PodCIDR:  fmt.Sprintf("10.244.%d.0/24", i),
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Bootstrap(k.Node()); err != nil {
			t.Fatal(err)
		}
		k.Start()
	}
	objs, err := manifest.DecodeFile("../../testdata/kubernetes-docs/php-apache.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Bootstrap(objs...); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		name, actor string
		setup       func(*controller.Manager) error
	}{
		{"kube-scheduler", scheduler.Actor, func(m *controller.Manager) error { return scheduler.Setup(m, scheduler.Options{}) }},
		{"replicaset", replicaset.Actor, func(m *controller.Manager) error { return replicaset.Setup(m, replicaset.Options{}) }},
		{"deployment", deployment.Actor, func(m *controller.Manager) error { return deployment.Setup(m, deployment.Options{}) }},
		{"endpoints", endpoints.Actor, func(m *controller.Manager) error { return endpoints.Setup(m, endpoints.Options{}) }},
	} {
		if err := c.AddManager(m.name, m.actor, m.setup).Start(); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func getEndpoints(c *cluster.Cluster, name string) *api.Endpoints {
	o, err := c.Store.Get(api.KindEndpoints, api.Key{Namespace: "default", Name: name})
	if err != nil {
		return nil
	}
	return o.(*api.Endpoints)
}

// readyPods returns the Running, Ready php-apache pods by IP.
func readyPods(t *testing.T, c *cluster.Cluster) map[string]*api.Pod {
	t.Helper()
	sel := api.SelectorFromSet(map[string]string{"app.kubernetes.io/name": "php-apache"})
	objs, _, err := c.Store.List(api.KindPod, store.ListOptions{Namespace: "default", Labels: &sel})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*api.Pod{}
	for _, o := range objs {
		p := o.(*api.Pod)
		for _, cd := range p.Status.Conditions {
			if cd.Type == api.PodReady && cd.Status == api.ConditionTrue && p.DeletionTimestamp == nil {
				out[p.Status.PodIP] = p
			}
		}
	}
	return out
}

// user runs fn as a kubectl user at the current virtual time.
func user(c *cluster.Cluster, fn func(ctx context.Context, cl client.Client)) {
	cl := c.Client("user/kubectl", "kubectl")
	c.Go("user", func(*kernel.Process) { fn(context.Background(), cl) })
}

func checkAddresses(t *testing.T, c *cluster.Cluster, want int) {
	t.Helper()
	ep := getEndpoints(c, "php-apache")
	if ep == nil {
		t.Fatal("no Endpoints php-apache")
	}
	pods := readyPods(t, c)
	if len(ep.Subsets) != 1 || len(ep.Subsets[0].Addresses) != want || len(ep.Subsets[0].NotReadyAddresses) != 0 || len(pods) != want {
		t.Fatalf("endpoints %+v with %d ready pods, want one subset of %d ready addresses", ep.Subsets, len(pods), want)
	}
	ss := ep.Subsets[0]
	if len(ss.Ports) != 1 || ss.Ports[0].Port != 80 || ss.Ports[0].Protocol != api.ProtocolTCP {
		t.Errorf("ports %+v, want 80/TCP", ss.Ports)
	}
	prev := ""
	for _, a := range ss.Addresses {
		p := pods[a.IP]
		if p == nil || a.TargetRef == nil || a.TargetRef.Name != p.Name || a.TargetRef.UID != p.UID || a.NodeName == nil || *a.NodeName != p.Spec.NodeName {
			t.Errorf("address %+v does not match a ready pod", a)
		}
		if a.IP <= prev {
			t.Errorf("addresses not sorted: %s after %s", a.IP, prev)
		}
		prev = a.IP
	}
	if ep.Labels["app.kubernetes.io/name"] != "php-apache" {
		t.Errorf("labels %v, want the service's", ep.Labels)
	}
}

// TestPHPApacheEndpoints follows the php-apache Service's Endpoints: the
// pod appears not ready, then ready; scaling to 3 adds two addresses; a
// service that selects nothing gets an Endpoints object without subsets;
// deleting the Endpoints puts them back; deleting the service removes
// them.
func TestPHPApacheEndpoints(t *testing.T) {
	c := phpCluster(t, netsim.LinkConfig{})
	c.RunFor(30 * time.Second)
	checkAddresses(t, c, 1)

	// The pod was listed as not ready before it was ready.
	sawNotReady := false
	for _, r := range c.Store.Audit().Records() {
		if r.Kind != api.KindEndpoints || r.Actor != endpoints.Actor {
			continue
		}
		for ch := range r.EachChange() {
			if len(ch.Path) > 25 && ch.Path[:25] == "subsets[0].notReadyAddres" {
				sawNotReady = true
			}
		}
	}
	if !sawNotReady {
		t.Error("the starting pod was never listed under notReadyAddresses")
	}

	user(c, func(ctx context.Context, cl client.Client) {
		d, err := client.GetAs[*api.Deployment](ctx, cl, api.Key{Namespace: "default", Name: "php-apache"})
		if err != nil {
			t.Error(err)
			return
		}
		three := int32(3)
		d.Spec.Replicas = &three
		if _, err := cl.Update(ctx, d); err != nil {
			t.Error(err)
		}
		if _, err := cl.Create(ctx, &api.Service{
			ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "nothing"},
			Spec:       api.ServiceSpec{Selector: map[string]string{"app": "none"}, Ports: []api.ServicePort{{Port: 80}}},
		}); err != nil {
			t.Error(err)
		}
	})
	c.RunFor(30 * time.Second)
	checkAddresses(t, c, 3)
	if ep := getEndpoints(c, "nothing"); ep == nil || len(ep.Subsets) != 0 {
		t.Fatalf("Endpoints nothing = %+v, want an object without subsets", ep)
	}

	user(c, func(ctx context.Context, cl client.Client) {
		if err := cl.Delete(ctx, api.KindEndpoints, api.Key{Namespace: "default", Name: "php-apache"}); err != nil {
			t.Error(err)
		}
		if err := cl.Delete(ctx, api.KindService, api.Key{Namespace: "default", Name: "nothing"}); err != nil {
			t.Error(err)
		}
	})
	c.RunFor(10 * time.Second)
	checkAddresses(t, c, 3)
	if ep := getEndpoints(c, "nothing"); ep != nil {
		t.Errorf("Endpoints of the deleted service remain: %+v", ep)
	}
}

// TestEndpointsLossyNetworkDeterministic runs the walkthrough over a
// network that drops and duplicates messages: the Endpoints converge, and
// two runs of one seed leave the same trace.
func TestEndpointsLossyNetworkDeterministic(t *testing.T) {
	link := netsim.LinkConfig{Latency: netsim.Latency{Base: time.Millisecond, Jitter: 2 * time.Millisecond}, Drop: 0.05, Duplicate: 0.05}
	var hashes []string
	for range 2 {
		c := phpCluster(t, link)
		c.RunFor(2 * time.Minute)
		checkAddresses(t, c, 1)
		hashes = append(hashes, c.TraceHash())
	}
	if hashes[0] != hashes[1] {
		t.Errorf("two runs of one seed differ: %s vs %s", hashes[0], hashes[1])
	}
}
