package kubectl

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/strategicpatch"
)

// BenchmarkApplyPatch measures what Apply computes for a configured
// Deployment: the modified configuration, the three-way patch and its
// lowering for the simulator's server.
func BenchmarkApplyPatch(b *testing.B) {
	labels := map[string]string{"app": "web"}
	d := &api.Deployment{
		TypeMeta:   api.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", Labels: labels},
		Spec: api.DeploymentSpec{
			Replicas: new(int32),
			Selector: &api.LabelSelector{MatchLabels: labels},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: labels}, Spec: api.PodSpec{Containers: []api.Container{
				{Name: "web", Image: "nginx:1.14.2", Ports: []api.ContainerPort{{ContainerPort: 80}}},
				{Name: "log", Image: "busybox:1.36", Env: []api.EnvVar{{Name: "A", Value: "1"}}},
			}}},
		},
	}
	old, err := newConfig(d)
	if err != nil {
		b.Fatal(err)
	}
	live := d.DeepCopy()
	api.SetDefaultsDeployment(live)
	live.Annotations = map[string]string{LastAppliedAnnotation: old.applied}
	current, err := toTree(live)
	if err != nil {
		b.Fatal(err)
	}
	original, err := canonicalConfig(old.applied)
	if err != nil {
		b.Fatal(err)
	}
	next := d.DeepCopy()
	next.Spec.Template.Spec.Containers[0].Image = "nginx:1.16.1"
	for b.Loop() {
		cfg, err := newConfig(next)
		if err != nil {
			b.Fatal(err)
		}
		patch, err := strategicpatch.ThreeWay(original, cfg.modified, current)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := lowerPatch(current, patch, "1"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "applies/s")
}
