package endpointslice

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestReconcileIsReference checks Reconcile, whose endpoints are made in
// batches and whose sets are filled after the pods are read, against the
// reconciler as it was (reference_test.go) over random histories: a
// Service of one or two ports (a named targetPort the pods serve on one
// number or another), IPv4, IPv6, dual-stack or headless, publishing
// not-ready addresses or not, its labels changing; pods ready or not,
// terminal, terminating, without an IP or with an invalid one, with one
// or two IPs (two pods may share one), on a known node, an unknown one or
// none, with a hostname; the slices each plan writes stored and read by
// the next sync (now and then a copy of one besides, owned by the service
// or not), with small slices (max 1 to 6) so that slices fill,
// empty, recycle and split. Both plans must serialize alike.
func TestReconcileIsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	nodeNames := []string{"", "node-1", "node-2", "node-3"} // node-3 is unknown
	zoned := map[string]*api.Node{
		"node-1": node1,
		"node-2": {ObjectMeta: api.ObjectMeta{Name: "node-2"}}, // no zone
	}
	getNode := func(name string) *api.Node { return zoned[name] }
	ips := func() []api.PodIP {
		v4 := api.PodIP{IP: fmt.Sprintf("10.0.0.%d", r.IntN(8))}
		v6 := api.PodIP{IP: fmt.Sprintf("fd00::%d", r.IntN(8))}
		switch r.IntN(8) {
		case 0:
			return nil
		case 1:
			return []api.PodIP{v6}
		case 2:
			return []api.PodIP{v4, v6}
		case 3:
			return []api.PodIP{{IP: "not-an-ip"}, v4}
		case 4:
			return []api.PodIP{{IP: "::ffff:10.0.0.9"}}
		default:
			return []api.PodIP{v4}
		}
	}
	pod := func(j int) *api.Pod {
		p := newPod(j, r.IntN(3) > 0)
		p.Spec.NodeName = nodeNames[r.IntN(len(nodeNames))]
		p.Status.PodIPs, p.Status.PodIP = ips(), ""
		if len(p.Status.PodIPs) > 0 && r.IntN(4) > 0 {
			p.Status.PodIP = p.Status.PodIPs[0].IP
			if r.IntN(3) == 0 {
				p.Status.PodIPs = nil // the IP only
			}
		}
		switch r.IntN(10) {
		case 0:
			p.Status.Phase = api.PodSucceeded
		case 1:
			ts := api.Time{}
			p.DeletionTimestamp = &ts
		case 2:
			p.Spec.Containers[0].Ports[0].ContainerPort = 9090
		case 3:
			p.Spec.Hostname, p.Spec.Subdomain = fmt.Sprintf("h%d", j), "foo"
		case 4:
			p.Spec.Containers[0].Ports[0].Name = "other"
		}
		return p
	}
	service := func() *api.Service {
		svc := newService()
		svc.Spec.PublishNotReadyAddresses = r.IntN(4) == 0
		switch r.IntN(5) {
		case 0:
			svc.Spec.IPFamilies = []api.IPFamily{api.IPv6Protocol}
		case 1:
			svc.Spec.IPFamilies = []api.IPFamily{api.IPv4Protocol, api.IPv6Protocol}
		case 2:
			svc.Spec.IPFamilies, svc.Spec.ClusterIP = nil, "None"
		}
		switch r.IntN(4) {
		case 0:
			svc.Spec.Ports[0].TargetPort = api.FromString("http")
		case 1:
			svc.Spec.Ports = append(svc.Spec.Ports, api.ServicePort{Name: "web", Port: 81, TargetPort: api.FromString("http")})
		}
		if r.IntN(3) == 0 {
			svc.Labels = map[string]string{"app": []string{"a", "b"}[r.IntN(2)], api.LabelManagedBy: "x"}
		}
		return svc
	}
	syncs, writes := 0, 0
	for i := range 400 {
		svc := service()
		max := 1 + r.IntN(6)
		var ps []*api.Pod
		var stored []*api.EndpointSlice
		created := 0
		for round := range 8 {
			// Some pods go, come and change; the service's labels
			// may change too.
			var next []*api.Pod
			for j, p := range ps {
				switch r.IntN(6) {
				case 0: // gone
				case 1:
					next = append(next, pod(j))
				default:
					next = append(next, p)
				}
			}
			for j := len(ps); j < len(ps)+r.IntN(6); j++ {
				next = append(next, pod(j))
			}
			ps = next
			if r.IntN(6) == 0 {
				svc = svc.DeepCopy()
				svc.Labels = map[string]string{"app": "c"}
			}
			// Someone copies a slice: its endpoints are in two
			// slices, or in one the service does not own.
			if len(stored) > 0 && r.IntN(8) == 0 {
				dup := stored[r.IntN(len(stored))].DeepCopy()
				dup.Name += "-copy"
				if r.IntN(2) == 0 {
					dup.OwnerReferences[0].UID = "other"
				}
				stored = append(stored, dup)
			}
			want := refReconcile(svc, ps, getNode, stored, max)
			got := Reconcile(svc, ps, getNode, stored, max)
			if g, w := asJSON(t, got), asJSON(t, want); g != w {
				t.Fatalf("case %d, round %d: Reconcile =\n%s\nthe reference's\n%s", i, round, g, w)
			}
			syncs++
			if !want.Empty() {
				writes++
			}
			stored = store(stored, want, &created)
		}
	}
	t.Logf("%d syncs, %d writing", syncs, writes)
	if writes < syncs/2 {
		t.Errorf("%d of %d syncs write: the histories change too little", writes, syncs)
	}
}

// store applies a plan to the stored slices as the API server would: the
// creates named, the updates replacing, the deletes removed; copies all.
func store(stored []*api.EndpointSlice, p Plan, created *int) []*api.EndpointSlice {
	var out []*api.EndpointSlice
	for _, s := range stored {
		keep := s
		for _, d := range p.Delete {
			if d.Name == s.Name {
				keep = nil
			}
		}
		for _, u := range p.Update {
			if u.Name == s.Name {
				keep = u.DeepCopy()
			}
		}
		if keep != nil {
			out = append(out, keep)
		}
	}
	for _, c := range p.Create {
		s := c.DeepCopy()
		s.Name, s.GenerateName = fmt.Sprintf("%s%d", c.GenerateName, *created), ""
		*created++
		out = append(out, s)
	}
	return out
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(j)
}

// TestPodToEndpointIsReference: an endpoint made in a batch shared with
// others is the one the reconciler made alone, for random pods.
func TestPodToEndpointIsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	svc := newService()
	b := new(endpointBatch) // grown several times over
	for j := range 2000 {
		p := newPod(j, r.IntN(2) == 0)
		p.Status.PodIPs = [][]api.PodIP{nil, {{IP: "fd00::1"}}, {{IP: "10.0.0.1"}, {IP: "fd00::2"}}, {{IP: "x"}}}[r.IntN(4)]
		if r.IntN(4) == 0 {
			p.Status.PodIP = ""
		}
		if r.IntN(3) == 0 {
			p.Spec.NodeName = ""
		}
		if r.IntN(3) == 0 {
			p.Spec.Hostname, p.Spec.Subdomain = "h", "foo"
		}
		n := node1
		if r.IntN(3) == 0 {
			n = nil
		}
		addrType := []string{api.AddressTypeIPv4, api.AddressTypeIPv6}[r.IntN(2)]
		got, want := b.endpoint(p, n, svc, addrType), refPodToEndpoint(p, n, svc, addrType)
		if g, w := asJSON(t, got), asJSON(t, want); g != w {
			t.Fatalf("pod %d: %s, want %s", j, g, w)
		}
	}
}
