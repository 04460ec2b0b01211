package endpointslice_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clustersim/clustersim/controllers/endpointslice"
	"github.com/clustersim/clustersim/controllers/scheduler"
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
	"github.com/clustersim/clustersim/sim/controller"
	"github.com/clustersim/clustersim/sim/kernel"
	"github.com/clustersim/clustersim/sim/kubelet"
	"github.com/clustersim/clustersim/sim/manifest"
	"github.com/clustersim/clustersim/sim/store"
)

// webManifest is a Service selecting three nginx pods.
const webManifest = `apiVersion: v1
kind: Service
metadata: {name: web, labels: {tier: front}}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
`

const podManifest = `apiVersion: v1
kind: Pod
metadata: {name: web-%d, labels: {app: web}}
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    ports: [{name: http, containerPort: 8080}]
`

// webCluster runs the service and its pods on two nodes in zones a and b
// with real kubelets, the scheduler and the EndpointSlice controller.
func webCluster(t *testing.T) *cluster.Cluster {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, zone := range []string{"zone-a", "zone-b"} {
		k, err := kubelet.New(c.Net, c.APIEndpoint.Addr(), kubelet.Config{
			NodeName: fmt.Sprintf("node-%d", i+1),
			Capacity: api.ResourceList{api.ResourceCPU: api.MustParseQuantity("4"), api.ResourceMemory: api.MustParseQuantity("16Gi")},
			PodCIDR:  fmt.Sprintf("10.244.%d.0/24", i+1),
			Labels:   map[string]string{api.LabelTopologyZone: zone},
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Bootstrap(k.Node()); err != nil {
			t.Fatal(err)
		}
		k.Start()
	}
	src := webManifest
	for i := range 3 {
		src += "---\n" + fmt.Sprintf(podManifest, i)
	}
	objs, err := manifest.Decode("web.yaml", []byte(src))
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
		{"endpointslice", endpointslice.Actor, func(m *controller.Manager) error { return endpointslice.Setup(m, endpointslice.Options{}) }},
	} {
		if err := c.AddManager(m.name, m.actor, m.setup).Start(); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func slicesOf(t *testing.T, c *cluster.Cluster) []*api.EndpointSlice {
	t.Helper()
	sel := api.SelectorFromSet(map[string]string{api.LabelServiceName: "web"})
	objs, _, err := c.Store.List(api.KindEndpointSlice, store.ListOptions{Namespace: "default", Labels: &sel})
	if err != nil {
		t.Fatal(err)
	}
	var out []*api.EndpointSlice
	for _, o := range objs {
		out = append(out, o.(*api.EndpointSlice))
	}
	return out
}

// endpointOf returns the endpoint of the named pod in the service's only
// slice, or nil.
func endpointOf(t *testing.T, c *cluster.Cluster, pod string) *api.Endpoint {
	t.Helper()
	ss := slicesOf(t, c)
	if len(ss) != 1 {
		t.Fatalf("%d slices, want 1", len(ss))
	}
	for i, ep := range ss[0].Endpoints {
		if ep.TargetRef != nil && ep.TargetRef.Name == pod {
			return &ss[0].Endpoints[i]
		}
	}
	return nil
}

// TestWebEndpointSlice: a Service with 3 pods gets one slice web-<suffix>
// of 3 ready endpoints with their node, zone and the resolved port; a
// deleted pod's endpoint turns terminating (not ready), then goes.
func TestWebEndpointSlice(t *testing.T) {
	c := webCluster(t)
	c.RunFor(30 * time.Second)
	ss := slicesOf(t, c)
	if len(ss) != 1 {
		t.Fatalf("%d slices, want 1", len(ss))
	}
	s := ss[0]
	if !strings.HasPrefix(s.Name, "web-") || len(s.Name) != len("web-")+5 || s.AddressType != api.AddressTypeIPv4 ||
		s.Labels[api.LabelManagedBy] != endpointslice.ManagedBy || s.Labels["tier"] != "front" ||
		len(s.OwnerReferences) != 1 || s.OwnerReferences[0].Kind != "Service" || s.OwnerReferences[0].Name != "web" {
		t.Fatalf("slice %s %s labels %v owners %+v", s.Name, s.AddressType, s.Labels, s.OwnerReferences)
	}
	if len(s.Ports) != 1 || *s.Ports[0].Port != 8080 || *s.Ports[0].Name != "http" || *s.Ports[0].Protocol != api.ProtocolTCP {
		t.Errorf("ports %+v, want http 8080/TCP", s.Ports)
	}
	if len(s.Endpoints) != 3 {
		t.Fatalf("%d endpoints, want 3", len(s.Endpoints))
	}
	for _, ep := range s.Endpoints {
		if !*ep.Conditions.Ready || !*ep.Conditions.Serving || *ep.Conditions.Terminating || ep.NodeName == nil || ep.Zone == nil ||
			*ep.Zone != map[string]string{"node-1": "zone-a", "node-2": "zone-b"}[*ep.NodeName] || len(ep.Addresses) != 1 {
			t.Errorf("endpoint %+v is not a ready endpoint on its node's zone", ep)
		}
	}

	cl := c.Client("user/kubectl", "kubectl")
	c.Go("user", func(*kernel.Process) {
		if err := cl.Delete(context.Background(), api.KindPod, api.Key{Namespace: "default", Name: "web-1"}); err != nil {
			t.Error(err)
		}
	})
	sawTerminating := false
	for range 3000 {
		c.RunFor(10 * time.Millisecond)
		ep := endpointOf(t, c, "web-1")
		if ep == nil {
			break
		}
		if *ep.Conditions.Terminating {
			sawTerminating = true
			if *ep.Conditions.Ready {
				t.Errorf("terminating endpoint is ready: %+v", ep.Conditions)
			}
		}
	}
	if !sawTerminating {
		t.Error("the deleted pod's endpoint was never terminating")
	}
	if ep := endpointOf(t, c, "web-1"); ep != nil {
		t.Fatalf("the deleted pod's endpoint remains: %+v", ep)
	}
	if n := len(slicesOf(t, c)[0].Endpoints); n != 2 {
		t.Errorf("%d endpoints after the delete, want 2", n)
	}
}
