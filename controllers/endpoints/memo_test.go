package endpoints

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestMemoIsSubsets checks a Service's memo against Subsets computed
// afresh, over random histories of one Service and its pods as the
// informers make them: a changed pod or Service is a new object (ready or
// not, a new IP or none, terminal, terminating, another node, hostname,
// container port or UID), pods come and go, and between two syncs some
// histories change nothing. After every step the memo's entries must be
// those of the pods listed, and its subsets and counts, shortcut or
// refusal, oneSubset's on the same pods; the reconciler's subsets must be
// Subsets'. Pods share IPs sometimes, so that equal IPs are ordered by
// UID.
func TestMemoIsSubsets(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	hits, steps := 0, 0
	for h := range 300 {
		newService := func() *api.Service {
			return service(func(s *api.Service) {
				s.Spec.PublishNotReadyAddresses = r.IntN(5) == 0
				switch r.IntN(6) {
				case 0:
					s.Spec.Ports = []api.ServicePort{{Name: "web", Port: 80, TargetPort: api.FromString("http")},
						{Name: "admin", Port: 81, Protocol: api.ProtocolTCP, TargetPort: api.FromInt32(8081)}}
				case 1:
					s.Spec.ClusterIP, s.Spec.Ports = "None", nil
				case 2, 3:
					s.Spec.Ports[0].TargetPort = api.FromString("http")
				}
			})
		}
		mutate := func(p *api.Pod) {
			switch r.IntN(12) {
			case 0:
				p.Status.Phase = api.PodFailed
			case 1:
				ts := api.Time{}
				p.DeletionTimestamp = &ts
			case 2:
				p.Spec.Containers[0].Ports[0].ContainerPort = 9090
			case 3:
				p.Spec.Containers[0].Ports[0].Name = "other"
			case 4:
				p.Spec.Hostname, p.Spec.Subdomain = "h-"+p.Name, "web"
			case 5:
				p.Spec.NodeName = fmt.Sprintf("node-%d", r.IntN(3))
			case 6:
				p.UID = api.UID(fmt.Sprintf("uid-%s-%d", p.Name, r.IntN(100)))
			case 7:
				p.Status.PodIP, p.Status.PodIPs = "", nil
			}
		}
		newPod := func(name string) *api.Pod {
			ip := fmt.Sprintf("10.0.%d.%d", r.IntN(3), r.IntN(6))
			return testPod(name, ip, r.IntN(3) > 0, mutate)
		}
		svc := newService()
		pods := map[string]*api.Pod{}
		for j := range r.IntN(15) {
			name := fmt.Sprintf("p%02d", j)
			pods[name] = newPod(name)
		}
		m := &serviceMemo{}
		rec := &reconciler{}
		key := api.Key{Namespace: "default", Name: "web"}
		for step := range 40 {
			switch c := r.IntN(10); {
			case c < 4 && len(pods) > 0: // a pod replaced by a changed copy
				names := sortedNames(pods)
				name := names[r.IntN(len(names))]
				p := testPod(name, fmt.Sprintf("10.0.%d.%d", r.IntN(3), r.IntN(6)), r.IntN(3) > 0, mutate)
				pods[name] = p
			case c < 6: // a pod added
				name := fmt.Sprintf("p%02d", r.IntN(30))
				pods[name] = newPod(name)
			case c < 8 && len(pods) > 0: // a pod removed
				names := sortedNames(pods)
				delete(pods, names[r.IntN(len(names))])
			case c == 8: // the Service replaced
				if r.IntN(2) == 0 {
					svc = newService()
				} else {
					svc = svc.DeepCopy() // the same content, a new object
				}
			}
			list := make([]*api.Pod, 0, len(pods))
			for _, name := range sortedNames(pods) {
				list = append(list, pods[name])
			}
			before := map[*api.Pod]bool{}
			if m.svc == svc {
				for _, e := range m.held.Entries() {
					before[e.pod] = true
				}
			}
			computed := m.computed
			m.update(svc, list)
			steps++
			fresh := 0
			for i, p := range list {
				if before[p] {
					hits++
				} else {
					fresh++
				}
				if m.held.Entries()[i].pod != p {
					t.Fatalf("history %d step %d: entry %d is of pod %p, want %s's %p", h, step, i, m.held.Entries()[i].pod, p.Name, p)
				}
			}
			if m.computed-computed != fresh {
				t.Fatalf("history %d step %d: %d entries computed, %d pods new to the memo", h, step, m.computed-computed, fresh)
			}
			if len(m.held.Entries()) != len(list) {
				t.Fatalf("history %d step %d: %d entries for %d pods", h, step, len(m.held.Entries()), len(list))
			}
			got, ready, notReady, ok := m.subsets()
			want, wantReady, wantNotReady, wantOK := oneSubset(svc, list)
			if ok != wantOK || (ok && (!reflect.DeepEqual(got, want) || ready != wantReady || notReady != wantNotReady)) {
				t.Fatalf("history %d step %d: memo %v\n%s (%d ready, %d not)\noneSubset %v\n%s (%d ready, %d not)",
					h, step, ok, asJSON(got), ready, notReady, wantOK, asJSON(want), wantReady, wantNotReady)
			}
			all, _, _ := Subsets(svc, list)
			if got := rec.subsets(key, svc, list); !reflect.DeepEqual(got, all) {
				t.Fatalf("history %d step %d: reconciler's subsets\n%s\nSubsets\n%s", h, step, asJSON(got), asJSON(all))
			}
		}
	}
	t.Logf("%d steps, %d entries reused", steps, hits)
	if hits < steps {
		t.Errorf("%d entries reused in %d steps: the histories do not exercise the memo", hits, steps)
	}
}

func sortedNames(pods map[string]*api.Pod) []string {
	names := make([]string, 0, len(pods))
	for name := range pods {
		names = append(names, name)
	}
	slices.SortFunc(names, strings.Compare)
	return names
}
