package apiserver

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidatePlacement checks a pod's placement fields, container name
// length and pull policy against upstream's validation messages
// (pkg/apis/core/validation, apimachinery's ValidateLabelSelector): the
// errors of one defaulted pod created with each change, in order.
func TestValidatePlacement(t *testing.T) {
	sel := func(op api.LabelSelectorOperator, values ...string) *api.LabelSelector {
		return &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "app", Operator: op, Values: values}}}
	}
	term := func(key string, op api.NodeSelectorOperator, values ...string) *api.NodeAffinity {
		return &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{
			{MatchExpressions: []api.NodeSelectorRequirement{{Key: key, Operator: op, Values: values}}}}}}
	}
	spread := func(skew int32, key string, when api.UnsatisfiableConstraintAction) api.TopologySpreadConstraint {
		return api.TopologySpreadConstraint{MaxSkew: skew, TopologyKey: key, WhenUnsatisfiable: when, LabelSelector: sel(api.LabelSelectorOpExists)}
	}
	secs := int64(30)
	zero := int32(0)
	ignore := api.NodeInclusionPolicy("Sometimes")
	tests := []struct {
		name   string
		change func(*api.PodSpec)
		want   string // "" for valid
	}{
		{"valid", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: term("zone", api.NodeSelectorOpIn, "a"),
				PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{LabelSelector: sel(api.LabelSelectorOpIn, "web"), TopologyKey: "kubernetes.io/hostname"}}}}
			s.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoExecute, TolerationSeconds: &secs}, {Operator: api.TolerationOpExists}}
			s.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(1, "zone", api.DoNotSchedule), spread(1, "zone", api.ScheduleAnyway)}
		}, ""},
		{"anti-affinity operator", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{PodAntiAffinity: &api.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{LabelSelector: sel("Bogus", "web"), TopologyKey: "zone"}}}}
		}, `spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].operator: Invalid value: "Bogus": not a valid selector operator`},
		{"affinity without topology key", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 101, PodAffinityTerm: api.PodAffinityTerm{LabelSelector: sel(api.LabelSelectorOpExists, "x")}}}}}
		}, `spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 101: must be in the range 1-100; ` +
			"spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'; " +
			`spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Required value: can not be empty; ` +
			`spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: "": name part must be non-empty; ` +
			`spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: "": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},
		{"affinity namespace too long", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{{TopologyKey: "zone", Namespaces: []string{strings.Repeat("a", 64)}}}}}
		}, `spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: "` + strings.Repeat("a", 64) + `": must be no more than 63 characters`},
		{"node affinity In without values", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: term("zone", api.NodeSelectorOpIn)}
		}, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"},
		{"node affinity Gt of two values", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: term("cores", api.NodeSelectorOpGt, "1", "2")}
		}, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"},
		{"node affinity without terms", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{}}}
		}, "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term"},
		{"node field selector", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 1,
				Preference: api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.labels", Operator: api.NodeSelectorOpExists}}}}}}}
		}, `spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchFields[0].operator: Invalid value: "Exists": not a valid selector operator; ` +
			`spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchFields[0].key: Invalid value: "metadata.labels": not a valid field selector key`},
		// ValidateNodeFieldSelectorRequirement checks a metadata.name value
		// with ValidateNodeName (NameIsDNSSubdomain): the length first.
		{"node field selector of a long name", func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []api.PreferredSchedulingTerm{{Weight: 1,
				Preference: api.NodeSelectorTerm{MatchFields: []api.NodeSelectorRequirement{{Key: "metadata.name", Operator: api.NodeSelectorOpIn, Values: []string{strings.Repeat("n", 254)}}}}}}}}
		}, `spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchFields[0].values[0]: Invalid value: "` + strings.Repeat("n", 254) + `": must be no more than 253 characters`},
		{"spread of zero skew, no key, unknown action", func(s *api.PodSpec) {
			s.TopologySpreadConstraints = []api.TopologySpreadConstraint{spread(0, "", "Sometimes")}
		}, `spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero; ` +
			`spec.topologySpreadConstraints[0].topologyKey: Required value: can not be empty; ` +
			`spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Sometimes": supported values: "DoNotSchedule", "ScheduleAnyway"`},
		{"spread repeated, minDomains", func(s *api.PodSpec) {
			c := spread(1, "zone", api.ScheduleAnyway)
			c.MinDomains = &zero
			c.NodeTaintsPolicy = &ignore
			s.TopologySpreadConstraints = []api.TopologySpreadConstraint{c, spread(2, "zone", api.ScheduleAnyway)}
		}, `spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, ScheduleAnyway}"; ` +
			`spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero; ` +
			`spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway; ` +
			`spec.topologySpreadConstraints[0].nodeTaintsPolicy: Unsupported value: "Sometimes": supported values: "Honor", "Ignore"`},
		{"tolerationSeconds without NoExecute", func(s *api.PodSpec) {
			s.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists, Effect: api.TaintEffectNoSchedule, TolerationSeconds: &secs}}
		}, `spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when ` + "`tolerationSeconds`" + ` is set`},
		{"toleration operator, key and effect", func(s *api.PodSpec) {
			s.Tolerations = []api.Toleration{{Key: "bad key!", Operator: "Sometimes", Effect: "Never"}, {Value: "v"}}
		}, `spec.tolerations[0].key: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'); ` +
			`spec.tolerations[0].operator: Unsupported value: "Sometimes": supported values: "Equal", "Exists"; ` +
			`spec.tolerations[0].effect: Unsupported value: "Never": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"; ` +
			"spec.tolerations[1].operator: Invalid value: \"\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""},
		{"Exists with a value", func(s *api.PodSpec) {
			s.Tolerations = []api.Toleration{{Key: "k", Operator: api.TolerationOpExists, Value: "v"}}
		}, `spec.tolerations[0].operator: Invalid value: {"Key":"k","Operator":"Exists","Value":"v","Effect":"","TolerationSeconds":null}: value must be empty when ` + "`operator` is 'Exists'"},
		{"pull policy", func(s *api.PodSpec) { s.Containers[0].ImagePullPolicy = "Sometimes" },
			`spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`},
		{"long container name", func(s *api.PodSpec) { s.Containers[0].Name = strings.Repeat("a", 64) },
			`spec.containers[0].name: Invalid value: "` + strings.Repeat("a", 64) + `": must be no more than 63 characters`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &api.Pod{TypeMeta: api.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
				Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx:1.25"}}}}
			tc.change(&p.Spec)
			api.SetDefaults(p)
			var got []string
			for _, e := range validatePodSpec("spec", &p.Spec) {
				got = append(got, e.Error())
			}
			if g := strings.Join(got, "; "); g != tc.want {
				t.Errorf("errors\n%s\nwant\n%s", g, tc.want)
			}
			err := Validate(p, nil)
			if (err == nil) != (tc.want == "") {
				t.Errorf("Validate = %v, want an error: %v", err, tc.want != "")
			}
		})
	}
}
