package endpointslice

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

const ns = "test"

// newService is upstream's newServiceAndEndpointMeta: service foo
// selecting foo=bar, one TCP port 80 to the pods' port 8080, IPv4.
func newService() *api.Service {
	return &api.Service{
		TypeMeta:   api.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: api.ObjectMeta{Name: "foo", Namespace: ns, UID: "svc-uid"},
		Spec: api.ServiceSpec{Selector: map[string]string{"foo": "bar"}, IPFamilies: []api.IPFamily{api.IPv4Protocol},
			Ports: []api.ServicePort{{Name: "foo", Port: 80, Protocol: api.ProtocolTCP, TargetPort: api.FromInt32(8080)}}},
	}
}

// newPod is upstream's newPod: pod-<n> on node-1 with IP 1.2.3.<4+n>.
func newPod(n int, ready bool) *api.Pod {
	status := api.ConditionFalse
	if ready {
		status = api.ConditionTrue
	}
	ip := fmt.Sprintf("10.0.%d.%d", n/250, n%250+4)
	return &api.Pod{
		ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod%d", n), Namespace: ns, UID: api.UID(fmt.Sprintf("uid-%d", n)), Labels: map[string]string{"foo": "bar"}},
		Spec:       api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "c", Ports: []api.ContainerPort{{Name: "http", ContainerPort: 8080}}}}},
		Status: api.PodStatus{Phase: api.PodRunning, PodIP: ip, PodIPs: []api.PodIP{{IP: ip}},
			Conditions: []api.PodCondition{{Type: api.PodReady, Status: status}}},
	}
}

func pods(n int) []*api.Pod {
	var out []*api.Pod
	for i := range n {
		out = append(out, newPod(i, i%3 != 0))
	}
	return out
}

var node1 = &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: map[string]string{
	api.LabelTopologyZone: "us-central1-a", "topology.kubernetes.io/region": "us-central1"}}}

func nodes(name string) *api.Node {
	if name == node1.Name {
		return node1
	}
	return nil
}

// existingSlice is upstream's newEmptyEndpointSlice filled with the
// endpoints of the given pods, as the API server stored it.
func existingSlice(n int, svc *api.Service, ps []*api.Pod) *api.EndpointSlice {
	s := newSlice(svc, endpointPorts(svc, newPod(0, true)), api.AddressTypeIPv4)
	s.Name, s.GenerateName, s.ResourceVersion = fmt.Sprintf("foo-%d", n), "", "1"
	for _, p := range ps {
		s.Endpoints = append(s.Endpoints, PodToEndpoint(p, node1, svc, api.AddressTypeIPv4))
	}
	return s
}

// oldPorts is a slice of the pods made when the service's port was 81.
func oldPorts(n int, svc *api.Service, ps []*api.Pod) *api.EndpointSlice {
	s := existingSlice(n, svc, ps)
	port := int32(81)
	s.Ports[0].Port = &port
	return s
}

func every(ps []*api.Pod, from, step, end int) []*api.Pod {
	var out []*api.Pod
	for i := from; i < end; i += step {
		out = append(out, ps[i])
	}
	return out
}

func lengths(p Plan) (create, update []int) {
	for _, s := range p.Create {
		create = append(create, len(s.Endpoints))
	}
	for _, s := range p.Update {
		update = append(update, len(s.Endpoints))
	}
	// Unordered, as upstream's expectUnorderedSlicesWithLengths.
	slices.Sort(create)
	slices.Sort(update)
	return create, update
}

// TestReconcile ports the cases of upstream's reconciler_test.go
// (staging/src/k8s.io/endpointslice) that map onto the simulator, each
// named after its upstream test.
func TestReconcile(t *testing.T) {
	svc := newService()
	ps250 := pods(250)
	placeholder := existingSlice(1, svc, nil)
	placeholder.Ports = []api.EndpointSlicePort{}
	otherOwner := existingSlice(9, svc, every(ps250, 0, 1, 3))
	otherOwner.OwnerReferences[0].UID = "old-service-uid"
	namedSvc := newService()
	namedSvc.Spec.Ports[0].TargetPort = api.FromString("http")
	var namedPods []*api.Pod
	for i := range 4 {
		p := newPod(i, true)
		p.Spec.Containers[0].Ports[0].ContainerPort = int32(8080 + i%2)
		namedPods = append(namedPods, p)
	}
	tests := []struct {
		name               string
		svc                *api.Service
		pods               []*api.Pod
		existing           []*api.EndpointSlice
		wantCreate         []int // endpoints per created slice
		wantUpdate         []int // endpoints per updated slice
		wantDelete         []string
		wantCreatePortSets int
	}{
		// TestReconcileEmpty: a service without pods gets a placeholder.
		{name: "TestReconcileEmpty", svc: svc, wantCreate: []int{0}, wantCreatePortSets: 1},
		// TestReconcile1EndpointSlice: an existing placeholder is kept.
		{name: "TestReconcile1EndpointSlice", svc: svc, existing: []*api.EndpointSlice{placeholder}},
		// TestReconcileManyPods: 250 pods make slices of 100, 100, 50.
		{name: "TestReconcileManyPods", svc: svc, pods: ps250, wantCreate: []int{50, 100, 100}, wantCreatePortSets: 1},
		// TestReconcileEndpointSlicesSomePreexisting: slices of 62 and 61
		// desired endpoints; 127 left: one new slice of 100, and 27 into
		// the slice they bring closest to full (1 create + 1 update).
		{name: "TestReconcileEndpointSlicesSomePreexisting", svc: svc, pods: ps250,
			existing:   []*api.EndpointSlice{existingSlice(1, svc, every(ps250, 1, 4, 246)), existingSlice(2, svc, every(ps250, 3, 4, 246))},
			wantCreate: []int{100}, wantUpdate: []int{89}, wantCreatePortSets: 1},
		// TestReconcileEndpointSlicesSomePreexistingWithChanges (its first
		// step): endpoints gone from the pods are removed in place.
		{name: "TestReconcileEndpointSlicesSomePreexistingWithChanges", svc: svc, pods: ps250[:100],
			existing:   []*api.EndpointSlice{existingSlice(1, svc, ps250[:100]), existingSlice(2, svc, ps250[100:150])},
			wantDelete: []string{"foo-2"}},
		// TestReconcileEndpointSlicesRecycling: the service's port changed,
		// so every slice changes; the creates become updates of the old
		// slices (finalize) instead of 3 creates and 3 deletes.
		{name: "TestReconcileEndpointSlicesRecycling", svc: svc, pods: ps250[:240],
			existing:   []*api.EndpointSlice{oldPorts(1, svc, ps250[:100]), oldPorts(2, svc, ps250[100:200]), oldPorts(3, svc, ps250[200:240])},
			wantUpdate: []int{40, 100, 100}},
		// Not an upstream case (ownedBy): a slice of another owner (a
		// service of the same name deleted and re-created) is deleted,
		// not recycled.
		{name: "other owner", svc: svc, pods: ps250[:3], existing: []*api.EndpointSlice{otherOwner},
			wantCreate: []int{3}, wantDelete: []string{"foo-9"}, wantCreatePortSets: 1},
		// TestReconcileEndpointSlicesNamedPorts: pods resolving a named
		// targetPort to different numbers get one slice per port set.
		{name: "TestReconcileEndpointSlicesNamedPorts", svc: namedSvc, pods: namedPods, wantCreate: []int{2, 2}, wantCreatePortSets: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := Reconcile(tt.svc, tt.pods, nodes, tt.existing, DefaultMaxEndpointsPerSlice)
			create, update := lengths(plan)
			var deleted []string
			for _, s := range plan.Delete {
				deleted = append(deleted, s.Name)
			}
			if !slices.Equal(create, tt.wantCreate) || !slices.Equal(update, tt.wantUpdate) || !slices.Equal(deleted, tt.wantDelete) {
				t.Fatalf("create %v update %v delete %v, want %v %v %v", create, update, deleted, tt.wantCreate, tt.wantUpdate, tt.wantDelete)
			}
			sets := map[string]bool{}
			for _, s := range plan.Create {
				sets[portsKey(s.Ports)] = true
				if s.GenerateName != "foo-" || s.Labels[api.LabelServiceName] != "foo" || s.Labels[api.LabelManagedBy] != ManagedBy ||
					len(s.OwnerReferences) != 1 || s.OwnerReferences[0].UID != tt.svc.UID || s.OwnerReferences[0].Kind != "Service" {
					t.Errorf("created slice meta = %+v", s.ObjectMeta)
				}
			}
			if len(sets) != tt.wantCreatePortSets {
				t.Errorf("created slices have %d port sets, want %d", len(sets), tt.wantCreatePortSets)
			}
		})
	}
}

// TestReconcile1Pod ports upstream's TestReconcile1Pod: one pod, one
// slice of the service's address type, with the service's labels but the
// reserved ones, and the pod's endpoint.
func TestReconcile1Pod(t *testing.T) {
	pod := newPod(1, true)
	pod.Status.PodIPs = []api.PodIP{{IP: "1.2.3.4"}, {IP: "1234::5678:0000:0000:9abc:def0"}}
	pod.Spec.Hostname = "example-hostname"
	pod.Spec.Subdomain = "foo"
	svc := func(mod func(*api.Service)) *api.Service { s := newService(); mod(s); return s }
	yes, no := true, false
	node, zone, host := "node-1", "us-central1-a", "example-hostname"
	want := func(addr string) api.Endpoint {
		return api.Endpoint{Addresses: []string{addr}, Conditions: api.EndpointConditions{Ready: &yes, Serving: &yes, Terminating: &no},
			Hostname: &host, NodeName: &node, Zone: &zone, TargetRef: &api.ObjectReference{Kind: "Pod", Namespace: ns, Name: "pod1", UID: "uid-1"}}
	}
	base := map[string]string{api.LabelServiceName: "foo", api.LabelManagedBy: ManagedBy}
	with := func(k, v string) map[string]string { m := maps.Clone(base); m[k] = v; return m }
	tests := []struct {
		name       string
		svc        *api.Service
		wantType   string
		wantEP     api.Endpoint
		wantLabels map[string]string
	}{
		{"ipv4", svc(func(*api.Service) {}), api.AddressTypeIPv4, want("1.2.3.4"), base},
		{"ipv4-clusterip", svc(func(s *api.Service) { s.Spec.ClusterIP = "1.1.1.1" }), api.AddressTypeIPv4, want("1.2.3.4"), base},
		{"ipv4-labels", svc(func(s *api.Service) { s.Labels = map[string]string{"foo": "bar"} }), api.AddressTypeIPv4, want("1.2.3.4"), with("foo", "bar")},
		{"ipv4-bad-labels", svc(func(s *api.Service) {
			s.Labels = map[string]string{api.LabelServiceName: "bad", api.LabelManagedBy: "actor", "service.kubernetes.io/headless": "invalid"}
		}), api.AddressTypeIPv4, want("1.2.3.4"), base},
		{"ipv6", svc(func(s *api.Service) { s.Spec.IPFamilies = []api.IPFamily{api.IPv6Protocol} }), api.AddressTypeIPv6, want("1234::5678:0:0:9abc:def0"), base},
		{"ipv6-clusterip", svc(func(s *api.Service) { s.Spec.IPFamilies = nil; s.Spec.ClusterIP = "1234::5678:0000:0000:9abc:def1" }),
			api.AddressTypeIPv6, want("1234::5678:0:0:9abc:def0"), base},
		{"headless", svc(func(s *api.Service) { s.Spec.ClusterIP = "None" }), api.AddressTypeIPv4, want("1.2.3.4"), with("service.kubernetes.io/headless", "")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := Reconcile(tt.svc, []*api.Pod{pod}, nodes, nil, DefaultMaxEndpointsPerSlice)
			if len(plan.Create) != 1 || len(plan.Update)+len(plan.Delete) != 0 {
				t.Fatalf("plan = %d creates, %d updates, %d deletes; want 1 create", len(plan.Create), len(plan.Update), len(plan.Delete))
			}
			s := plan.Create[0]
			if s.AddressType != tt.wantType || len(s.Endpoints) != 1 || !same(s.Endpoints[0], tt.wantEP) || !same(s.Labels, tt.wantLabels) {
				t.Fatalf("slice %s %+v labels %v, want %s %+v %v", s.AddressType, s.Endpoints, s.Labels, tt.wantType, tt.wantEP, tt.wantLabels)
			}
		})
	}
}

// TestPodToEndpointConditions ports upstream's TestPodToEndpoint
// (utils_test.go) condition rows: ready, not ready, terminating with and
// without publishNotReadyAddresses.
func TestPodToEndpointConditions(t *testing.T) {
	ready, notReady := newPod(1, true), newPod(2, false)
	terminating := newPod(3, true)
	terminating.DeletionTimestamp = &api.Time{}
	termNotReady := newPod(4, false)
	termNotReady.DeletionTimestamp = &api.Time{}
	publish := newService()
	publish.Spec.PublishNotReadyAddresses = true
	tests := []struct {
		name                        string
		pod                         *api.Pod
		svc                         *api.Service
		ready, serving, terminating bool
	}{
		{"ready pod", ready, newService(), true, true, false},
		{"unready pod", notReady, newService(), false, false, false},
		{"unready pod, publishNotReadyAddresses", notReady, publish, true, false, false},
		{"ready terminating pod", terminating, newService(), false, true, true},
		{"ready terminating pod, publishNotReadyAddresses", terminating, publish, true, true, true},
		{"unready terminating pod", termNotReady, newService(), false, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := PodToEndpoint(tt.pod, node1, tt.svc, api.AddressTypeIPv4).Conditions
			if *c.Ready != tt.ready || *c.Serving != tt.serving || *c.Terminating != tt.terminating {
				t.Fatalf("ready %v serving %v terminating %v, want %v %v %v", *c.Ready, *c.Serving, *c.Terminating, tt.ready, tt.serving, tt.terminating)
			}
		})
	}
}
