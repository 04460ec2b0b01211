package kubelet

import (
	"reflect"
	"testing"
	"time"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/cluster"
)

// TestStatusSharesUnchangedParts checks what buildStatus reuses from one
// status to the next: the pod's IPs and start time, and the node's host
// IPs, are the same slices and pointer while they do not change, equal
// to what a fresh status would hold, and new ones once the pod's IP or
// start time is another. Planted: a pod IP list or start time kept when
// they changed, a host IP list kept when the node's IP changed, each
// fails it.
func TestStatusSharesUnchangedParts(t *testing.T) {
	k := runningKubelet(t, "a", "b")
	var running []*podState
	for _, ps := range k.slots {
		if ps != nil && ps.ipStr != "" {
			running = append(running, ps)
		}
	}
	if len(running) != 2 {
		t.Fatalf("%d pods with an IP, want 2", len(running))
	}
	ps := running[0]
	fresh := func(ps *podState) (start api.Time, podIPs []api.PodIP, hostIPs []api.HostIP) {
		return wallTime(ps.startTime), []api.PodIP{{IP: ps.ipStr}}, []api.HostIP{{IP: k.cfg.InternalIP}}
	}
	check := func(step string, st api.PodStatus, ps *podState) {
		t.Helper()
		start, podIPs, hostIPs := fresh(ps)
		if st.StartTime == nil || !st.StartTime.Equal(&start) || !reflect.DeepEqual(st.PodIPs, podIPs) || !reflect.DeepEqual(st.HostIPs, hostIPs) {
			t.Fatalf("%s: startTime %v podIPs %v hostIPs %v, want %v %v %v", step, st.StartTime, st.PodIPs, st.HostIPs, start, podIPs, hostIPs)
		}
	}
	first, second := k.buildStatus(ps, nil), k.buildStatus(ps, nil)
	check("first", first, ps)
	check("second", second, ps)
	if first.StartTime != second.StartTime || &first.PodIPs[0] != &second.PodIPs[0] || &first.HostIPs[0] != &second.HostIPs[0] {
		t.Error("a second status of an unchanged pod does not share its start time and IP lists with the first")
	}
	other := k.buildStatus(running[1], nil)
	check("other pod", other, running[1])
	if &other.HostIPs[0] != &first.HostIPs[0] {
		t.Error("two pods of one node do not share the host IP list")
	}

	ps.ipStr, ps.startTime = "10.100.0.250", ps.startTime.Add(time.Second)
	check("new IP and start", k.buildStatus(ps, nil), ps)
	k.cfg.InternalIP = "192.0.2.77"
	check("new host IP", k.buildStatus(ps, nil), ps)
}

// TestNamesAndUnreadyMessage holds names to the space-joined names of
// the containers selected, however many (the single one returned as it
// is), and unreadyMessage to the message for the names it is given now,
// not the ones it kept. Planted: names dropping the first of several, a
// message kept when the names change, each fails it.
func TestNamesAndUnreadyMessage(t *testing.T) {
	ps := &podState{}
	for _, n := range []string{"a", "b", "c"} {
		ps.cs = append(ps.cs, cstate{spec: &api.Container{Name: n}})
	}
	k := &Kubelet{}
	tests := []struct {
		name   string
		picked map[string]bool
		want   string
	}{
		{"none", map[string]bool{}, ""},
		{"one", map[string]bool{"b": true}, "b"},
		{"first", map[string]bool{"a": true}, "a"},
		{"two", map[string]bool{"a": true, "c": true}, "a c"},
		{"all", map[string]bool{"a": true, "b": true, "c": true}, "a b c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := k.names(ps, func(c *cstate) bool { return tt.picked[c.spec.Name] })
			if got != tt.want {
				t.Fatalf("names = %q, want %q", got, tt.want)
			}
			if got == "" {
				return
			}
			if m, want := ps.unreadyMessage(got), "containers with unready status: ["+tt.want+"]"; m != want {
				t.Fatalf("unreadyMessage = %q, want %q", m, want)
			}
		})
	}
}

// runningKubelet starts a kubelet of node-0 in a new cluster, its Events
// off, with a pod of one nginx container on it for each name, and runs
// the cluster a minute.
func runningKubelet(t *testing.T, pods ...string) *Kubelet {
	t.Helper()
	c, err := cluster.New(cluster.Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cpu, mem, maxPods := api.MustParseQuantity("8"), api.MustParseQuantity("32Gi"), api.MustParseQuantity("110")
	k, err := New(c.Net, c.APIEndpoint.Addr(), Config{NodeName: "node-0", PodCIDR: "10.100.0.0/24", Registry: DefaultRegistry(), NoEvents: true,
		Capacity: api.ResourceList{api.ResourceCPU: cpu, api.ResourceMemory: mem, api.ResourcePods: maxPods}})
	if err != nil {
		t.Fatal(err)
	}
	k.Start()
	for _, name := range pods {
		if err := c.Bootstrap(&api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name},
			Spec: api.PodSpec{NodeName: "node-0", Containers: []api.Container{{Name: "app", Image: "nginx:1.14.2"}}}}); err != nil {
			t.Fatal(err)
		}
	}
	c.RunFor(time.Minute)
	return k
}
