package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// BenchmarkValidatePod is the API server's validation of a pod as the
// scale probe writes it (defaulted: the DefaultTolerationSeconds
// admission's two NoExecute tolerations, no affinity or spread), which
// every pod create and update pays. A valid pod should cost no
// allocation: field paths are built only for an error.
func BenchmarkValidatePod(b *testing.B) {
	p := probePod()
	b.ReportAllocs()
	for b.Loop() {
		if err := Validate(p, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestValidatePodAllocatesNothing holds BenchmarkValidatePod's pod to
// no allocation: a path built before it is known to be needed shows here
// (8 allocations a write when the tolerations' paths were built eagerly).
func TestValidatePodAllocatesNothing(t *testing.T) {
	p := probePod()
	if n := testing.AllocsPerRun(100, func() { _ = Validate(p, nil) }); n != 0 {
		t.Errorf("Validate of a valid pod: %v allocations, want 0", n)
	}
}

// TestValidateAffinityPodAllocatesNothing holds a pod with node affinity
// and required and preferred pod anti-affinity (a selector with an
// expression) to no allocation either (24 a write when the affinity's
// paths were built eagerly).
func TestValidateAffinityPodAllocatesNothing(t *testing.T) {
	p := probePod()
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "web"},
		MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: api.LabelSelectorOpIn, Values: []string{"a"}}}}
	p.Spec.Affinity = &api.Affinity{
		NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
			{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: api.NodeSelectorOpIn, Values: []string{"a"}}}}}}},
		PodAntiAffinity: &api.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  []api.PodAffinityTerm{{LabelSelector: sel, TopologyKey: "kubernetes.io/hostname"}},
			PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: api.PodAffinityTerm{LabelSelector: sel, TopologyKey: "zone"}}}}}
	if n := testing.AllocsPerRun(100, func() { _ = Validate(p, nil) }); n != 0 {
		t.Errorf("Validate of a valid pod with affinity: %v allocations, want 0", n)
	}
}

// probePod is a pod as the scale probe writes it, defaulted.
func probePod() *api.Pod {
	secs := int64(300)
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "app-1-57bc45b4cd-x2x9z", Namespace: "default", Labels: map[string]string{"app": "app-1", "pod-template-hash": "57bc45b4cd", "tier": "scale"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.25"}},
			Tolerations: []api.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &secs},
				{Key: "node.kubernetes.io/unreachable", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &secs}}}}
	api.SetDefaults(p)
	return p
}

// BenchmarkValidateSpreadPod is BenchmarkValidatePod's pod with a zone
// spread constraint over its own labels, as a spread workload writes
// it: no allocation either.
func BenchmarkValidateSpreadPod(b *testing.B) {
	secs := int64(300)
	p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: api.ObjectMeta{Name: "web-57bc45b4cd-x2x9z", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.25"}},
			Tolerations: []api.Toleration{{Key: "node.kubernetes.io/not-ready", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &secs}},
			TopologySpreadConstraints: []api.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "topology.kubernetes.io/zone", WhenUnsatisfiable: api.DoNotSchedule,
				LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}}}
	api.SetDefaults(p)
	b.ReportAllocs()
	for b.Loop() {
		if err := Validate(p, nil); err != nil {
			b.Fatal(err)
		}
	}
}
