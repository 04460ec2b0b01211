package endpoints

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestOneSubsetIsRepack checks Subsets' one-subset shortcut against
// upstream's way (a subset per address and port, then Repack) on random
// Services and pods: ready or not, terminal, terminating, without an IP,
// serving the Service's named port on one number or another, with a
// hostname, under one or two ports, headless, publishing not-ready
// addresses. Both must give the same subsets and counts; the shortcut
// must be taken in most cases and refused in some.
func TestOneSubsetIsRepack(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	took, refused := 0, 0
	for i := range 3000 {
		svc := service(func(s *api.Service) {
			s.Spec.PublishNotReadyAddresses = r.IntN(4) == 0
			switch r.IntN(5) {
			case 0:
				s.Spec.Ports = []api.ServicePort{{Name: "web", Port: 80, TargetPort: api.FromString("http")},
					{Name: "admin", Port: 81, Protocol: api.ProtocolTCP, TargetPort: api.FromInt32(8081)}}
			case 1:
				s.Spec.ClusterIP, s.Spec.Ports = "None", nil
			case 2:
				s.Spec.Ports[0].TargetPort = api.FromString("http")
			}
		})
		var pods []*api.Pod
		for j := range r.IntN(12) {
			name := fmt.Sprintf("p%d", j)
			ip := fmt.Sprintf("10.0.%d.%d", r.IntN(3), r.IntN(5)) // IPs reused: two pods may share one
			if r.IntN(8) == 0 {
				ip = ""
			}
			pods = append(pods, testPod(name, ip, r.IntN(3) > 0, func(p *api.Pod) {
				switch r.IntN(10) {
				case 0:
					p.Status.Phase = api.PodSucceeded
				case 1:
					ts := api.Time{}
					p.DeletionTimestamp = &ts
				case 2:
					p.Spec.Containers[0].Ports[0].ContainerPort = 9090
				case 3:
					p.Spec.Containers[0].Ports[0].Name = "other"
				case 4:
					p.Spec.Hostname, p.Spec.Subdomain = "h-"+name, "web"
				}
			}))
		}
		want, wantReady, wantNotReady := repackedSubsets(svc, pods)
		got, ready, notReady := Subsets(svc, pods)
		if asJSON(got) != asJSON(want) || ready != wantReady || notReady != wantNotReady {
			t.Fatalf("case %d: Subsets =\n%s (%d ready, %d not)\nrepacked\n%s (%d ready, %d not)", i, asJSON(got), ready, notReady, asJSON(want), wantReady, wantNotReady)
		}
		if _, _, _, ok := oneSubset(svc, pods); ok {
			took++
		} else {
			refused++
		}
	}
	t.Logf("took %d, refused %d", took, refused)
	if took < 1500 || refused < 100 {
		t.Errorf("the shortcut was taken %d times and refused %d: the cases do not cover both", took, refused)
	}
}
