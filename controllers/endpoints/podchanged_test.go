package endpoints

import (
	"time"

	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestPodChanged lists which pod updates sync a Service's endpoints and
// slices: what an endpoint is built from does; a new image, a container
// status or an annotation does not.
func TestPodChanged(t *testing.T) {
	now := api.NewTime(time.Unix(1700000000, 0))
	tests := []struct {
		name   string
		change func(*api.Pod)
		want   bool
	}{
		{"nothing", func(*api.Pod) {}, false},
		{"readiness", func(p *api.Pod) { p.Status.Conditions[0].Status = api.ConditionFalse }, true},
		{"deletion", func(p *api.Pod) { p.DeletionTimestamp = &now }, true},
		{"pod IP", func(p *api.Pod) { p.Status.PodIP = "10.0.0.9" }, true},
		{"pod IPs", func(p *api.Pod) { p.Status.PodIPs = append(p.Status.PodIPs, api.PodIP{IP: "fd00::9"}) }, true},
		{"node", func(p *api.Pod) { p.Spec.NodeName = "node-2" }, true},
		{"hostname", func(p *api.Pod) { p.Spec.Hostname = "web-0" }, true},
		{"subdomain", func(p *api.Pod) { p.Spec.Subdomain = "web" }, true},
		{"phase", func(p *api.Pod) { p.Status.Phase = api.PodFailed }, true},
		{"uid", func(p *api.Pod) { p.UID = "other" }, true},
		{"container port", func(p *api.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 9090 }, true},
		{"port name", func(p *api.Pod) { p.Spec.Containers[0].Ports[0].Name = "web" }, true},
		{"a container more", func(p *api.Pod) { p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "sidecar"}) }, true},
		{"image", func(p *api.Pod) { p.Spec.Containers[0].Image = "nginx:1.27" }, false},
		{"container status", func(p *api.Pod) {
			p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "c", RestartCount: 1}}
		}, false},
		{"annotation", func(p *api.Pod) { p.Annotations = map[string]string{"a": "b"} }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := testPod("p", "10.0.0.1", true)
			p := o.DeepCopy()
			tt.change(p)
			if got := PodChanged(o, p); got != tt.want {
				t.Errorf("PodChanged = %v, want %v", got, tt.want)
			}
		})
	}
}
