package endpointslice

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/informer"
)

// TestMemoIsReconcile checks a Service's memo against Reconcile over
// random histories of one Service, its pods and their nodes as the
// informers make them: a changed pod, Service or Node is a new object.
// Pods are replaced by changed copies (ready or not, terminal,
// terminating or no longer, IPs of either family, two, none or an invalid
// one, another node or none, a hostname in the Service's subdomain or
// not, the container port renumbered or renamed, another UID, or nothing
// changed), added and removed; the Service is replaced by a copy (the
// same, or its labels changed) or by another (IPv4, IPv6, dual-stack or
// headless, one port or two, numbered or named targetPorts,
// publishNotReadyAddresses or not); a node is replaced (its zone label
// changed, or not), removed or added. The slices each plan writes are
// stored and read by the next sync (now and then with a copy of one,
// owned by the Service or not), with small slices (max 1 to 5) so that
// slices fill, empty, recycle and split. After every step the memo's
// plan must be Reconcile's, its entries those of the pods listed, the
// entries it built as many as the pods it did not hold (or held with
// another node object), and each entry's endpoints point into their own
// batch only.
func TestMemoIsReconcile(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	nodeNames := []string{"", "node-1", "node-2", "node-3", "node-4"}
	zones := []string{"", "zone-a", "zone-b"}
	newNode := func(name string) *api.Node {
		n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name}}
		if z := zones[r.IntN(len(zones))]; z != "" {
			n.Labels = map[string]string{api.LabelTopologyZone: z}
		}
		return n
	}
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
	setIPs := func(p *api.Pod) {
		p.Status.PodIPs, p.Status.PodIP = ips(), ""
		if len(p.Status.PodIPs) > 0 && r.IntN(4) > 0 {
			p.Status.PodIP = p.Status.PodIPs[0].IP
			if r.IntN(3) == 0 {
				p.Status.PodIPs = nil // the IP only
			}
		}
	}
	// change makes one change to p, a copy.
	change := func(p *api.Pod) {
		switch r.IntN(11) {
		case 0:
			status := api.ConditionTrue
			if api.IsPodReady(p) {
				status = api.ConditionFalse
			}
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: status}}
		case 1:
			p.Status.Phase = []api.PodPhase{api.PodRunning, api.PodSucceeded, api.PodFailed}[r.IntN(3)]
		case 2:
			if p.DeletionTimestamp == nil {
				p.DeletionTimestamp = &api.Time{}
			} else {
				p.DeletionTimestamp = nil
			}
		case 3:
			setIPs(p)
		case 4:
			p.Spec.NodeName = nodeNames[r.IntN(len(nodeNames))]
		case 5:
			p.Spec.Hostname, p.Spec.Subdomain = fmt.Sprintf("h-%s", p.Name), []string{"foo", "other"}[r.IntN(2)]
		case 6:
			p.Spec.Hostname, p.Spec.Subdomain = "", ""
		case 7:
			p.Spec.Containers[0].Ports[0].ContainerPort = []int32{8080, 9090}[r.IntN(2)]
		case 8:
			p.Spec.Containers[0].Ports[0].Name = []string{"http", "other"}[r.IntN(2)]
		case 9:
			p.UID = api.UID(fmt.Sprintf("uid-%s-%d", p.Name, r.IntN(100)))
		}
	}
	newPodNamed := func(j int) *api.Pod {
		p := newPod(j, r.IntN(3) > 0)
		p.Spec.NodeName = nodeNames[r.IntN(len(nodeNames))]
		setIPs(p)
		for range r.IntN(3) {
			change(p)
		}
		return p
	}
	newServiceOf := func() *api.Service {
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
			svc.Labels = map[string]string{"app": []string{"a", "b"}[r.IntN(2)]}
		}
		return svc
	}
	key := api.Key{Namespace: ns, Name: "foo"}
	steps, writes, held, built := 0, 0, 0, 0
	for h := range 400 {
		svc := newServiceOf()
		max := 1 + r.IntN(5)
		nodes := map[string]*api.Node{}
		for _, name := range nodeNames[1:4] { // node-4 is unknown at first
			nodes[name] = newNode(name)
		}
		getNode := func(name string) *api.Node { return nodes[name] }
		pods := map[string]*api.Pod{}
		for j := range r.IntN(12) {
			p := newPodNamed(j)
			pods[p.Name] = p
		}
		rec := &reconciler{}
		var stored []*api.EndpointSlice
		created := 0
		for step := range 30 {
			for range 1 + r.IntN(3) {
				names := sortedPodNames(pods)
				switch c := r.IntN(20); {
				case c < 8 && len(names) > 0: // a pod replaced by a changed copy
					p := pods[names[r.IntN(len(names))]].DeepCopy()
					change(p)
					pods[p.Name] = p
				case c < 11: // a pod added (or replaced by another)
					p := newPodNamed(r.IntN(16))
					pods[p.Name] = p
				case c < 13 && len(names) > 0: // a pod removed
					delete(pods, names[r.IntN(len(names))])
				case c == 13: // the Service replaced by another
					svc = newServiceOf()
				case c == 14: // the Service replaced by a copy
					svc = svc.DeepCopy()
					if r.IntN(3) == 0 {
						svc.Labels = map[string]string{"app": "c"}
					}
				case c < 18: // a node replaced, its zone changed or not
					name := nodeNames[1+r.IntN(4)]
					if n := nodes[name]; n != nil && r.IntN(3) == 0 {
						nodes[name] = n.DeepCopy()
					} else {
						nodes[name] = newNode(name)
					}
				case c == 18: // a node removed
					delete(nodes, nodeNames[1+r.IntN(4)])
				}
			}
			// Someone copies a slice: its endpoints are in two
			// slices, or in one the service does not own.
			if len(stored) > 0 && r.IntN(10) == 0 {
				dup := stored[r.IntN(len(stored))].DeepCopy()
				dup.Name += "-copy"
				if r.IntN(2) == 0 {
					dup.OwnerReferences[0].UID = "other"
				}
				stored = append(stored, dup)
			}
			list := make([]*api.Pod, 0, len(pods))
			for _, name := range sortedPodNames(pods) {
				list = append(list, pods[name])
			}
			// The pods the memo holds, with the node objects their
			// entries were made with still the getter's.
			m := informer.MemoOf(&rec.memos, key)
			valid := map[*api.Pod]bool{}
			if m.svc == svc {
				for _, e := range m.held.Entries() {
					valid[e.pod] = !e.in || getNode(e.nodeName) == e.node
				}
			}
			fresh := 0
			for _, p := range list {
				if valid[p] {
					held++
				} else {
					fresh++
				}
			}
			before := m.built
			got := m.reconcile(svc, list, getNode, stored, max)
			want := Reconcile(svc, list, getNode, stored, max)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("history %d step %d: the memo's plan\n%s\nReconcile's\n%s", h, step, asJSON(t, got), asJSON(t, want))
			}
			if m.built-before != fresh {
				t.Fatalf("history %d step %d: %d entries built, %d pods not held", h, step, m.built-before, fresh)
			}
			built += fresh
			// Each endpoint points into its own batch only, lest
			// endpoints reused keep others alive.
			for i, e := range m.held.Entries() {
				for _, own := range e.eps {
					if own != nil && (own.ep.Conditions.Ready != &own.conds[0][0] || own.ep.TargetRef != &own.refs[0] ||
						(own.ep.NodeName != nil && own.ep.NodeName != &own.strs[0][0])) {
						t.Fatalf("history %d step %d: entry %d's endpoint points outside its own batch", h, step, i)
					}
				}
			}
			if len(m.held.Entries()) != len(list) {
				t.Fatalf("history %d step %d: %d entries for %d pods", h, step, len(m.held.Entries()), len(list))
			}
			for i, p := range list {
				if m.held.Entries()[i].pod != p {
					t.Fatalf("history %d step %d: entry %d is of pod %p, want %s's %p", h, step, i, m.held.Entries()[i].pod, p.Name, p)
				}
			}
			steps++
			if !want.Empty() {
				writes++
			}
			stored = store(stored, want, &created)
		}
	}
	t.Logf("%d steps (%d writing), %d entries reused, %d built", steps, writes, held, built)
	if held < 2*steps || writes < steps/3 {
		t.Errorf("%d entries reused and %d writes in %d steps: the histories do not exercise the memo", held, writes, steps)
	}
}

// sortedPodNames returns the names of pods in order.
func sortedPodNames(pods map[string]*api.Pod) []string {
	names := make([]string, 0, len(pods))
	for name := range pods {
		names = append(names, name)
	}
	slices.SortFunc(names, strings.Compare)
	return names
}
