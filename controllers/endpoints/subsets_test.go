package endpoints

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

func ref(uid string) *api.ObjectReference { return &api.ObjectReference{UID: api.UID(uid)} }

func addrs(ips ...string) []api.EndpointAddress {
	out := make([]api.EndpointAddress, len(ips))
	for i, ip := range ips {
		out[i] = api.EndpointAddress{IP: ip}
	}
	return out
}

func ports(ns ...int32) []api.EndpointPort {
	out := make([]api.EndpointPort, len(ns))
	for i, n := range ns {
		out[i] = api.EndpointPort{Port: n}
	}
	return out
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestRepack ports upstream's TestPackSubsets (pkg/api/v1/endpoints), with
// the current behaviour for subsets without ports (kept, for headless
// services) and clustersim's content order for several subsets.
func TestRepack(t *testing.T) {
	foo := &api.ObjectReference{Name: "foo"}
	bar := &api.ObjectReference{Name: "bar"}
	cases := []struct {
		name   string
		given  []api.EndpointSubset
		expect []api.EndpointSubset
	}{
		{"empty everything", []api.EndpointSubset{{Addresses: []api.EndpointAddress{}, Ports: []api.EndpointPort{}}}, []api.EndpointSubset{}},
		{"empty addresses", []api.EndpointSubset{{Ports: ports(111)}}, []api.EndpointSubset{}},
		{"empty ports", []api.EndpointSubset{{Addresses: addrs("1.2.3.4")}}, []api.EndpointSubset{{Addresses: addrs("1.2.3.4")}}},
		{"empty ports, not ready", []api.EndpointSubset{{NotReadyAddresses: addrs("1.2.3.4")}}, []api.EndpointSubset{{NotReadyAddresses: addrs("1.2.3.4")}}},
		{"one set, one ip, one port", []api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}}, []api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}}},
		{"one set, one ip, one port (IPv6)", []api.EndpointSubset{{Addresses: addrs("beef::1:2:3:4"), Ports: ports(111)}}, []api.EndpointSubset{{Addresses: addrs("beef::1:2:3:4"), Ports: ports(111)}}},
		{"one set, one notReady ip, one port", []api.EndpointSubset{{NotReadyAddresses: addrs("1.2.3.4"), Ports: ports(111)}}, []api.EndpointSubset{{NotReadyAddresses: addrs("1.2.3.4"), Ports: ports(111)}}},
		{"one set, one ip, one UID, one port",
			[]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-1")}}, Ports: ports(111)}},
			[]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-1")}}, Ports: ports(111)}}},
		{"one set, two ips, one port", []api.EndpointSubset{{Addresses: addrs("1.2.3.4", "5.6.7.8"), Ports: ports(111)}}, []api.EndpointSubset{{Addresses: addrs("1.2.3.4", "5.6.7.8"), Ports: ports(111)}}},
		{"one set, two mixed ips, one port",
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), NotReadyAddresses: addrs("5.6.7.8"), Ports: ports(111)}},
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), NotReadyAddresses: addrs("5.6.7.8"), Ports: ports(111)}}},
		{"one set, two duplicate ips, one port, notReady is covered by ready",
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), NotReadyAddresses: addrs("1.2.3.4"), Ports: ports(111)}},
			[]api.EndpointSubset{{NotReadyAddresses: addrs("1.2.3.4"), Ports: ports(111)}}},
		{"one set, one ip, two ports", []api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111, 222)}}, []api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111, 222)}}},
		{"one set, dup ips, one port", []api.EndpointSubset{{Addresses: addrs("1.2.3.4", "1.2.3.4"), Ports: ports(111)}}, []api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}}},
		{"one set, dup ips with target-refs, one port",
			[]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: foo}, {IP: "1.2.3.4", TargetRef: bar}}, Ports: ports(111)}},
			[]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: foo}}, Ports: ports(111)}}},
		{"one set, dup mixed ips with target-refs, one port",
			[]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: foo}}, NotReadyAddresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: bar}}, Ports: ports(111)}},
			[]api.EndpointSubset{{NotReadyAddresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: foo}}, Ports: ports(111)}}},
		{"one set, one ip, dup ports", []api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111, 111)}}, []api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}}},
		{"two sets, dup ip, dup port",
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}, {Addresses: addrs("1.2.3.4"), Ports: ports(111)}},
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}}},
		{"two sets, dup mixed ip, dup port",
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}, {NotReadyAddresses: addrs("1.2.3.4"), Ports: ports(111)}},
			[]api.EndpointSubset{{NotReadyAddresses: addrs("1.2.3.4"), Ports: ports(111)}}},
		{"two sets, dup ip, two ports",
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}, {Addresses: addrs("1.2.3.4"), Ports: ports(222)}},
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111, 222)}}},
		{"two sets, dup mixed ip, dup uids, two ports",
			[]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-1")}}, Ports: ports(111)}, {NotReadyAddresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-1")}}, Ports: ports(222)}},
			[]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-1")}}, Ports: ports(111)}, {NotReadyAddresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-1")}}, Ports: ports(222)}}},
		{"two sets, two ips, dup port",
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}, {Addresses: addrs("5.6.7.8"), Ports: ports(111)}},
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4", "5.6.7.8"), Ports: ports(111)}}},
		{"two sets, dup ip, two uids, dup ports",
			[]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-1")}}, Ports: ports(111)}, {Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-2")}}, Ports: ports(111)}},
			[]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-1")}, {IP: "1.2.3.4", TargetRef: ref("uid-2")}}, Ports: ports(111)}}},
		{"two sets, two ips, two dup ip with uid, dup port, wrong order",
			[]api.EndpointSubset{
				{Addresses: addrs("5.6.7.8"), Ports: ports(111)},
				{Addresses: []api.EndpointAddress{{IP: "5.6.7.8", TargetRef: ref("uid-1")}}, Ports: ports(111)},
				{Addresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-1")}}, Ports: ports(111)},
				{Addresses: addrs("1.2.3.4"), Ports: ports(111)},
			},
			[]api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1.2.3.4"}, {IP: "1.2.3.4", TargetRef: ref("uid-1")}, {IP: "5.6.7.8"}, {IP: "5.6.7.8", TargetRef: ref("uid-1")}}, Ports: ports(111)}}},
		{"two sets, two mixed ips, split addresses",
			[]api.EndpointSubset{
				{Addresses: addrs("5.6.7.8"), Ports: ports(111)},
				{NotReadyAddresses: []api.EndpointAddress{{IP: "5.6.7.8", TargetRef: ref("uid-1")}}, Ports: ports(111)},
				{NotReadyAddresses: []api.EndpointAddress{{IP: "1.2.3.4", TargetRef: ref("uid-1")}}, Ports: ports(111)},
				{NotReadyAddresses: addrs("1.2.3.4"), Ports: ports(111)},
			},
			[]api.EndpointSubset{{
				Addresses:         addrs("5.6.7.8"),
				NotReadyAddresses: []api.EndpointAddress{{IP: "1.2.3.4"}, {IP: "1.2.3.4", TargetRef: ref("uid-1")}, {IP: "5.6.7.8", TargetRef: ref("uid-1")}},
				Ports:             ports(111),
			}}},
		{"two sets, two ips, two ports",
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}, {Addresses: addrs("5.6.7.8"), Ports: ports(222)}},
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4"), Ports: ports(111)}, {Addresses: addrs("5.6.7.8"), Ports: ports(222)}}},
		{"four sets, three ips, three ports, jumbled",
			[]api.EndpointSubset{
				{Addresses: addrs("1.2.3.4"), Ports: ports(111)},
				{Addresses: addrs("1.2.3.5"), Ports: ports(222)},
				{Addresses: addrs("1.2.3.6"), Ports: ports(111)},
				{Addresses: addrs("1.2.3.5"), Ports: ports(333)},
			},
			[]api.EndpointSubset{{Addresses: addrs("1.2.3.4", "1.2.3.6"), Ports: ports(111)}, {Addresses: addrs("1.2.3.5"), Ports: ports(222, 333)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Repack(tc.given)
			if asJSON(got) != asJSON(tc.expect) {
				t.Errorf("Repack =\n%s\nwant\n%s", asJSON(got), asJSON(tc.expect))
			}
		})
	}
}

func testPod(name, ip string, ready bool, mods ...func(*api.Pod)) *api.Pod {
	p := &api.Pod{
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, UID: api.UID("uid-" + name), Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "c", Ports: []api.ContainerPort{
			{Name: "http", ContainerPort: 8080, Protocol: api.ProtocolTCP},
		}}}},
		Status: api.PodStatus{Phase: api.PodRunning},
	}
	if ip != "" {
		p.Status.PodIP = ip
		p.Status.PodIPs = []api.PodIP{{IP: ip}}
	}
	st := api.ConditionFalse
	if ready {
		st = api.ConditionTrue
	}
	p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: st}}
	for _, m := range mods {
		m(p)
	}
	return p
}

func service(mods ...func(*api.Service)) *api.Service {
	s := &api.Service{
		ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: api.ServiceSpec{Selector: map[string]string{"app": "web"},
			Ports: []api.ServicePort{{Port: 80, Protocol: api.ProtocolTCP, TargetPort: api.FromInt32(8080)}}},
	}
	for _, m := range mods {
		m(s)
	}
	return s
}

// addr is the address the controller makes for a test pod.
func addr(name, ip string) api.EndpointAddress {
	n := "node-1"
	return api.EndpointAddress{IP: ip, NodeName: &n, TargetRef: &api.ObjectReference{Kind: "Pod", Namespace: "default", Name: name, UID: api.UID("uid-" + name)}}
}

func port(name string, n int32) api.EndpointPort {
	return api.EndpointPort{Name: name, Port: n, Protocol: api.ProtocolTCP}
}

func TestSubsets(t *testing.T) {
	deleting := func(p *api.Pod) { ts := api.Time{}; p.DeletionTimestamp = &ts }
	cases := []struct {
		name            string
		svc             *api.Service
		pods            []*api.Pod
		want            []api.EndpointSubset
		ready, notReady int
	}{
		{name: "nothing selected", svc: service(), want: []api.EndpointSubset{}},
		{name: "ready and not ready pods", svc: service(), pods: []*api.Pod{testPod("a", "10.0.0.2", true), testPod("b", "10.0.0.1", false)},
			want:  []api.EndpointSubset{{Addresses: []api.EndpointAddress{addr("a", "10.0.0.2")}, NotReadyAddresses: []api.EndpointAddress{addr("b", "10.0.0.1")}, Ports: []api.EndpointPort{port("", 8080)}}},
			ready: 1, notReady: 1},
		{name: "addresses sorted by IP", svc: service(), pods: []*api.Pod{testPod("a", "10.0.0.3", true), testPod("b", "10.0.0.1", true)},
			want:  []api.EndpointSubset{{Addresses: []api.EndpointAddress{addr("b", "10.0.0.1"), addr("a", "10.0.0.3")}, Ports: []api.EndpointPort{port("", 8080)}}},
			ready: 2},
		{name: "named target port", svc: service(func(s *api.Service) { s.Spec.Ports[0].TargetPort = api.FromString("http") }),
			pods:  []*api.Pod{testPod("a", "10.0.0.1", true)},
			want:  []api.EndpointSubset{{Addresses: []api.EndpointAddress{addr("a", "10.0.0.1")}, Ports: []api.EndpointPort{port("", 8080)}}},
			ready: 1},
		{name: "named target port the pod lacks: pod left out of that port", svc: service(func(s *api.Service) { s.Spec.Ports[0].TargetPort = api.FromString("metrics") }),
			pods: []*api.Pod{testPod("a", "10.0.0.1", true)}, want: []api.EndpointSubset{}},
		{name: "pods with different named ports split into subsets",
			svc: service(func(s *api.Service) { s.Spec.Ports[0].TargetPort = api.FromString("http") }),
			pods: []*api.Pod{testPod("a", "10.0.0.1", true), testPod("b", "10.0.0.2", true, func(p *api.Pod) {
				p.Spec.Containers[0].Ports[0].ContainerPort = 9090
			})},
			want: []api.EndpointSubset{
				{Addresses: []api.EndpointAddress{addr("a", "10.0.0.1")}, Ports: []api.EndpointPort{port("", 8080)}},
				{Addresses: []api.EndpointAddress{addr("b", "10.0.0.2")}, Ports: []api.EndpointPort{port("", 9090)}},
			}, ready: 2},
		{name: "two service ports", svc: service(func(s *api.Service) {
			s.Spec.Ports = []api.ServicePort{{Name: "web", Port: 80, Protocol: api.ProtocolTCP, TargetPort: api.FromInt32(8080)}, {Name: "admin", Port: 81, Protocol: api.ProtocolTCP, TargetPort: api.FromInt32(8081)}}
		}), pods: []*api.Pod{testPod("a", "10.0.0.1", true)},
			want:  []api.EndpointSubset{{Addresses: []api.EndpointAddress{addr("a", "10.0.0.1")}, Ports: []api.EndpointPort{port("admin", 8081), port("web", 8080)}}},
			ready: 2},
		{name: "pod without an IP left out", svc: service(), pods: []*api.Pod{testPod("a", "", true)}, want: []api.EndpointSubset{}},
		{name: "terminal pods left out", svc: service(), pods: []*api.Pod{
			testPod("a", "10.0.0.1", false, func(p *api.Pod) { p.Status.Phase = api.PodSucceeded }),
			testPod("b", "10.0.0.2", false, func(p *api.Pod) { p.Status.Phase = api.PodFailed }),
		}, want: []api.EndpointSubset{}},
		{name: "terminating pod left out", svc: service(), pods: []*api.Pod{testPod("a", "10.0.0.1", true, deleting)}, want: []api.EndpointSubset{}},
		{name: "publishNotReadyAddresses: every pod ready, terminating ones included",
			svc:  service(func(s *api.Service) { s.Spec.PublishNotReadyAddresses = true }),
			pods: []*api.Pod{testPod("a", "10.0.0.1", false), testPod("b", "10.0.0.2", true, deleting)},
			want: []api.EndpointSubset{{Addresses: []api.EndpointAddress{addr("a", "10.0.0.1"), addr("b", "10.0.0.2")}, Ports: []api.EndpointPort{port("", 8080)}}}, ready: 2},
		{name: "headless service without ports", svc: service(func(s *api.Service) { s.Spec.ClusterIP = "None"; s.Spec.Ports = nil }),
			pods: []*api.Pod{testPod("a", "10.0.0.1", true)}, want: []api.EndpointSubset{{Addresses: []api.EndpointAddress{addr("a", "10.0.0.1")}}}, ready: 1},
		{name: "service without ports that is not headless", svc: service(func(s *api.Service) { s.Spec.Ports = nil }),
			pods: []*api.Pod{testPod("a", "10.0.0.1", true)}, want: []api.EndpointSubset{}},
		{name: "hostname when the subdomain is the service", svc: service(),
			pods: []*api.Pod{testPod("a", "10.0.0.1", true, func(p *api.Pod) { p.Spec.Hostname, p.Spec.Subdomain = "host-a", "web" })},
			want: []api.EndpointSubset{{Addresses: []api.EndpointAddress{func() api.EndpointAddress {
				a := addr("a", "10.0.0.1")
				a.Hostname = "host-a"
				return a
			}()}, Ports: []api.EndpointPort{port("", 8080)}}}, ready: 1},
		{name: "IPv6 service picks the IPv6 pod IP", svc: service(func(s *api.Service) { s.Spec.IPFamilies = []api.IPFamily{api.IPv6Protocol} }),
			pods: []*api.Pod{testPod("a", "10.0.0.1", true, func(p *api.Pod) { p.Status.PodIPs = append(p.Status.PodIPs, api.PodIP{IP: "fd00::1"}) })},
			want: []api.EndpointSubset{{Addresses: []api.EndpointAddress{addr("a", "fd00::1")}, Ports: []api.EndpointPort{port("", 8080)}}}, ready: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ready, notReady := Subsets(tc.svc, tc.pods)
			if asJSON(got) != asJSON(tc.want) {
				t.Errorf("subsets =\n%s\nwant\n%s", asJSON(got), asJSON(tc.want))
			}
			if ready != tc.ready || notReady != tc.notReady {
				t.Errorf("counted %d ready, %d not ready; want %d, %d", ready, notReady, tc.ready, tc.notReady)
			}
		})
	}
}

func TestFindPort(t *testing.T) {
	always := api.ContainerRestartPolicyAlways
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{UID: "u1"}, Spec: api.PodSpec{
		InitContainers: []api.Container{{Name: "side", RestartPolicy: &always, Ports: []api.ContainerPort{{Name: "proxy", ContainerPort: 15001}}}},
		Containers: []api.Container{{Name: "c", Ports: []api.ContainerPort{
			{Name: "http", ContainerPort: 80, Protocol: api.ProtocolTCP},
			{Name: "dns", ContainerPort: 53, Protocol: api.ProtocolUDP},
		}}}}}
	cases := []struct {
		name   string
		target api.IntOrString
		proto  api.Protocol
		want   int32
		err    bool
	}{
		{"number", api.FromInt32(8080), api.ProtocolTCP, 8080, false},
		{"name", api.FromString("http"), api.ProtocolTCP, 80, false},
		{"name with the wrong protocol", api.FromString("http"), api.ProtocolUDP, 0, true},
		{"udp name", api.FromString("dns"), api.ProtocolUDP, 53, false},
		{"sidecar port", api.FromString("proxy"), api.ProtocolTCP, 15001, false},
		{"unknown name", api.FromString("nope"), api.ProtocolTCP, 0, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FindPort(pod, &api.ServicePort{TargetPort: tc.target, Protocol: tc.proto})
			if tc.err {
				if !errors.Is(err, ErrNoPort) || err.Error() != "no suitable port for manifest: u1" {
					t.Fatalf("err = %v, want upstream's no suitable port", err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func TestTruncate(t *testing.T) {
	many := func(prefix string, n int) []api.EndpointAddress {
		out := make([]api.EndpointAddress, n)
		for i := range out {
			out[i] = api.EndpointAddress{IP: fmt.Sprintf("%s.%d.%d", prefix, i/250, i%250)}
		}
		return out
	}
	cases := []struct {
		name                   string
		subsets                []api.EndpointSubset
		truncated              bool
		wantReady, wantUnready []int
	}{
		{"under capacity", []api.EndpointSubset{{Addresses: many("10.0", 600), NotReadyAddresses: many("10.1", 400)}}, false, []int{600}, []int{400}},
		{"not-ready addresses cut first", []api.EndpointSubset{{Addresses: many("10.0", 600), NotReadyAddresses: many("10.1", 600)}}, true, []int{600}, []int{400}},
		{"too many ready: ready only, proportional", []api.EndpointSubset{
			{Addresses: many("10.0", 1200), NotReadyAddresses: many("10.1", 10)},
			{Addresses: many("10.2", 300)},
		}, true, []int{800, 200}, []int{0, 0}},
		{"not-ready share split over subsets", []api.EndpointSubset{
			{Addresses: many("10.0", 500), NotReadyAddresses: many("10.1", 300)},
			{NotReadyAddresses: many("10.2", 300)},
		}, true, []int{500, 0}, []int{250, 250}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Truncate(tc.subsets); got != tc.truncated {
				t.Fatalf("truncated = %v, want %v", got, tc.truncated)
			}
			total := 0
			for i := range tc.subsets {
				r, n := len(tc.subsets[i].Addresses), len(tc.subsets[i].NotReadyAddresses)
				total += r + n
				if r != tc.wantReady[i] || n != tc.wantUnready[i] {
					t.Errorf("subset %d: %d ready, %d not ready; want %d, %d", i, r, n, tc.wantReady[i], tc.wantUnready[i])
				}
			}
			if total > MaxCapacity {
				t.Errorf("%d addresses kept, over %d", total, MaxCapacity)
			}
		})
	}
}
