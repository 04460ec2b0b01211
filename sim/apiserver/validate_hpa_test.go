package apiserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// TestValidateHPA holds an autoscaling/v2 HorizontalPodAutoscaler to
// upstream's validateHorizontalPodAutoscalerSpec beyond the replica
// bounds: before, a target utilization of 0, a stabilization window of
// two hours, a policy of value 0 or an unknown selectPolicy were stored,
// and the autoscaler then acted on them.
func TestValidateHPA(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	pct := func(u int32) []api.MetricSpec {
		return []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceCPU,
			Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: i32(u)}}}}
	}
	rules := func(r api.HPAScalingRules) *api.HorizontalPodAutoscalerBehavior {
		return &api.HorizontalPodAutoscalerBehavior{ScaleDown: &r}
	}
	sel := func(s string) *api.ScalingPolicySelect { p := api.ScalingPolicySelect(s); return &p }
	tests := []struct {
		name   string
		mutate func(*api.HorizontalPodAutoscalerSpec)
		want   string
	}{
		{"a usual autoscaler", func(s *api.HorizontalPodAutoscalerSpec) {
			s.Metrics = pct(70)
			s.Behavior = rules(api.HPAScalingRules{StabilizationWindowSeconds: i32(300), SelectPolicy: sel("Max"),
				Policies: []api.HPAScalingPolicy{{Type: "Percent", Value: 10, PeriodSeconds: 60}}})
		}, ""},
		{"a utilization of 0", func(s *api.HorizontalPodAutoscalerSpec) { s.Metrics = pct(0) },
			`HorizontalPodAutoscaler.autoscaling "h" is invalid: spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0`},
		{"a resource metric without a target", func(s *api.HorizontalPodAutoscalerSpec) {
			s.Metrics = []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceMemory, Target: api.MetricTarget{Type: "Percent"}}}}
		}, `HorizontalPodAutoscaler.autoscaling "h" is invalid: [spec.metrics[0].resource.target.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue, ` +
			`spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization]`},
		{"a Resource metric without its source", func(s *api.HorizontalPodAutoscalerSpec) {
			s.Metrics = []api.MetricSpec{{Type: api.ResourceMetricSourceType}}
		},
			`HorizontalPodAutoscaler.autoscaling "h" is invalid: spec.metrics[0].resource: Required value: must populate information for the given metric source`},
		{"an unknown metric type", func(s *api.HorizontalPodAutoscalerSpec) { s.Metrics = []api.MetricSpec{{Type: "Cpu"}} },
			`HorizontalPodAutoscaler.autoscaling "h" is invalid: spec.metrics[0].type: Unsupported value: "Cpu": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"`},
		{"a window beyond an hour, an unknown selectPolicy, a policy of 0 over 2000s", func(s *api.HorizontalPodAutoscalerSpec) {
			s.Behavior = rules(api.HPAScalingRules{StabilizationWindowSeconds: i32(4000), SelectPolicy: sel("Sometimes"),
				Policies: []api.HPAScalingPolicy{{Type: "Percent", Value: 0, PeriodSeconds: 2000}, {Type: "Replicas", Value: 1, PeriodSeconds: 15}}})
		}, `HorizontalPodAutoscaler.autoscaling "h" is invalid: [spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 4000: must be less than or equal to 3600, ` +
			`spec.behavior.scaleDown.selectPolicy: Unsupported value: "Sometimes": supported values: "Disabled", "Max", "Min", ` +
			`spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero, ` +
			`spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 2000: must be less than or equal to 1800, ` +
			`spec.behavior.scaleDown.policies[1].type: Unsupported value: "Replicas": supported values: "Percent", "Pods"]`},
		{"a target without a name", func(s *api.HorizontalPodAutoscalerSpec) { s.ScaleTargetRef.Name = "" },
			`HorizontalPodAutoscaler.autoscaling "h" is invalid: spec.scaleTargetRef.name: Required value`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: "h", Namespace: "default"}, Spec: api.HorizontalPodAutoscalerSpec{
				ScaleTargetRef: api.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}, MaxReplicas: 5}}
			tc.mutate(&h.Spec)
			f := newFixture(t)
			resp := f.do(&Request{Verb: Create, Kind: api.KindHorizontalPodAutoscaler, Actor: user, Object: h})
			got := ""
			if resp.Err != nil {
				got = resp.Err.Error()
			}
			if got != tc.want {
				t.Errorf("create:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestValidateHPAUpstream ports the rows of upstream's TestValidateBehavior,
// TestValidateHorizontalPodAutoscaler (those of Resource metrics, the
// scale target, the bounds and the metric types),
// TestValidateHorizontalPodAutoscalerScaleToZeroDisabled and
// TestValidateHorizontalPodAutoscalerConfigurableToleranceEnabled (k/k
// pkg/apis/autoscaling/validation/validation_test.go; HPAConfigurableTolerance
// is beta and on in 1.35 and later, HPAScaleToZero alpha and off). As
// upstream, each row holds its message in the first error, and the
// tolerance rows report exactly one error.
//
// Rows that cannot apply: those of Pods, Object, External and
// ContainerResource sources' contents (kept opaque here: only their
// presence is checked), the ScaleToZeroEnabled and ToleranceDisabled rows
// (gates in the other position), TestValidateScale (the scale
// subresource's body is validated elsewhere).
func TestValidateHPAUpstream(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	q := func(s string) *api.Quantity { v := api.MustParseQuantity(s); return &v }
	sel := func(s string) *api.ScalingPolicySelect { p := api.ScalingPolicySelect(s); return &p }
	cpu := func(tgt api.MetricTarget) []api.MetricSpec {
		return []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: api.ResourceCPU, Target: tgt}}}
	}
	util70 := api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: i32(70)}
	simple := []api.HPAScalingPolicy{{Type: "Percent", Value: 10, PeriodSeconds: 1}, {Type: "Pods", Value: 1, PeriodSeconds: 1800}}
	one := []api.HPAScalingPolicy{{Type: "Pods", Value: 1, PeriodSeconds: 1800}}
	up := func(r api.HPAScalingRules) func(*api.HorizontalPodAutoscalerSpec) {
		return func(s *api.HorizontalPodAutoscalerSpec) {
			s.Behavior = &api.HorizontalPodAutoscalerBehavior{ScaleUp: &r}
		}
	}
	down := func(r api.HPAScalingRules) func(*api.HorizontalPodAutoscalerSpec) {
		return func(s *api.HorizontalPodAutoscalerSpec) {
			s.Behavior = &api.HorizontalPodAutoscalerBehavior{ScaleDown: &r}
		}
	}
	metrics := func(m ...api.MetricSpec) func(*api.HorizontalPodAutoscalerSpec) {
		return func(s *api.HorizontalPodAutoscalerSpec) { s.Metrics = m }
	}
	raw := api.RawValue(`{"metric":{"name":"somemetric"},"target":{"type":"AverageValue","averageValue":"100m"}}`)
	tests := []struct {
		name   string
		mutate func(*api.HorizontalPodAutoscalerSpec)
		want   string // held by the first error; "" for valid
		only   bool   // the only error
	}{
		// TestValidateBehavior: success cases.
		{"no rules", func(s *api.HorizontalPodAutoscalerSpec) { s.Behavior = &api.HorizontalPodAutoscalerBehavior{} }, "", false},
		{"window 3600 Min, window 0 Disabled", func(s *api.HorizontalPodAutoscalerSpec) {
			s.Behavior = &api.HorizontalPodAutoscalerBehavior{
				ScaleUp:   &api.HPAScalingRules{StabilizationWindowSeconds: i32(3600), SelectPolicy: sel("Min"), Policies: simple},
				ScaleDown: &api.HPAScalingRules{StabilizationWindowSeconds: i32(0), SelectPolicy: sel("Disabled"), Policies: simple}}
		}, "", false},
		// TestValidateBehavior: error cases.
		{"scaleUp without policies", up(api.HPAScalingRules{SelectPolicy: sel("Min")}),
			"spec.behavior.scaleUp.policies: Required value: must specify at least one Policy", false},
		{"scaleUp window 3601", up(api.HPAScalingRules{StabilizationWindowSeconds: i32(3601), SelectPolicy: sel("Min"), Policies: simple}),
			"spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600", false},
		{"scaleUp period 1801", up(api.HPAScalingRules{Policies: []api.HPAScalingPolicy{{Type: "Pods", Value: 7, PeriodSeconds: 1801}}}),
			"spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800", false},
		{"scaleUp incorrect selectPolicy", up(api.HPAScalingRules{SelectPolicy: sel("incorrect"), Policies: []api.HPAScalingPolicy{{Type: "Pods", Value: 7, PeriodSeconds: 8}}}),
			`spec.behavior.scaleUp.selectPolicy: Unsupported value: "incorrect": supported values: "Disabled", "Max", "Min"`, false},
		{"scaleUp policy type hm", up(api.HPAScalingRules{Policies: []api.HPAScalingPolicy{{Type: "hm", Value: 7, PeriodSeconds: 8}}}),
			`spec.behavior.scaleUp.policies[0].type: Unsupported value: "hm": supported values: "Percent", "Pods"`, false},
		{"scaleUp period 0", up(api.HPAScalingRules{Policies: []api.HPAScalingPolicy{{Type: "Pods", Value: 8}}}),
			"spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 0: must be greater than zero", false},
		{"scaleUp value 0", up(api.HPAScalingRules{Policies: []api.HPAScalingPolicy{{Type: "Pods", PeriodSeconds: 8}}}),
			"spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero", false},
		{"scaleUp period -1", up(api.HPAScalingRules{Policies: []api.HPAScalingPolicy{{Type: "Pods", PeriodSeconds: -1, Value: 1}}}),
			"spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: -1: must be greater than zero", false},
		{"scaleUp value -1", up(api.HPAScalingRules{Policies: []api.HPAScalingPolicy{{Type: "Pods", PeriodSeconds: 1, Value: -1}}}),
			"spec.behavior.scaleUp.policies[0].value: Invalid value: -1: must be greater than zero", false},
		{"scaleDown without policies", down(api.HPAScalingRules{SelectPolicy: sel("Min")}),
			"spec.behavior.scaleDown.policies: Required value: must specify at least one Policy", false},
		{"scaleDown window 3601", down(api.HPAScalingRules{StabilizationWindowSeconds: i32(3601), SelectPolicy: sel("Min"), Policies: simple}),
			"spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600", false},
		{"scaleDown period 1801", down(api.HPAScalingRules{Policies: []api.HPAScalingPolicy{{Type: "Percent", Value: 7, PeriodSeconds: 1801}}}),
			"spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800", false},
		{"scaleDown value -1", down(api.HPAScalingRules{Policies: []api.HPAScalingPolicy{{Type: "Pods", PeriodSeconds: 1, Value: -1}}}),
			"spec.behavior.scaleDown.policies[0].value: Invalid value: -1: must be greater than zero", false},
		// TestValidateHorizontalPodAutoscaler.
		{"resource AverageValue", metrics(cpu(api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: q("300m")})...), "", false},
		{"no metrics", metrics(), "", false},
		{"scaleTargetRef without kind", func(s *api.HorizontalPodAutoscalerSpec) { s.ScaleTargetRef.Kind = "" }, "scaleTargetRef.kind: Required", false},
		{"scaleTargetRef kind ..", func(s *api.HorizontalPodAutoscalerSpec) { s.ScaleTargetRef.Kind = ".." }, "scaleTargetRef.kind: Invalid", false},
		{"scaleTargetRef without name", func(s *api.HorizontalPodAutoscalerSpec) { s.ScaleTargetRef.Name = "" }, "scaleTargetRef.name: Required", false},
		{"scaleTargetRef name ..", func(s *api.HorizontalPodAutoscalerSpec) { s.ScaleTargetRef.Name = ".." }, "scaleTargetRef.name: Invalid", false},
		{"minReplicas -1", func(s *api.HorizontalPodAutoscalerSpec) { s.MinReplicas = i32(-1) }, "must be greater than or equal to 1", false},
		{"minReplicas 7 over maxReplicas 5", func(s *api.HorizontalPodAutoscalerSpec) { s.MinReplicas = i32(7) }, "must be greater than or equal to `minReplicas`", false},
		{"both utilization and value", metrics(cpu(api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: i32(70), AverageValue: q("300m")})...),
			"may not set both a target raw value and a target utilization", false},
		{"no resource name", metrics(api.MetricSpec{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Target: util70}}),
			"must specify a resource name", false},
		{"utilization -10", metrics(cpu(api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: i32(-10)})...), "must be greater than 0", false},
		{"averageValue -300m", metrics(cpu(api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: q("-300m")})...),
			`spec.metrics[0].resource.target.averageValue: Invalid value: "-300m": must be positive`, false},
		{"Value type without a value", metrics(cpu(api.MetricTarget{Type: api.ValueMetricType})...),
			"must set either a target raw value or a target utilization", false},
		{"empty metric", metrics(api.MetricSpec{}), "must specify a metric source type", false},
		{"InvalidType", metrics(api.MetricSpec{Type: "InvalidType"}), "type: Unsupported value", false},
		{"resource and pods", metrics(api.MetricSpec{Type: api.ResourceMetricSourceType,
			Resource: &api.ResourceMetricSource{Name: api.ResourceCPU, Target: api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: q("100m")}}, Pods: &raw}),
			"must populate the given metric source only", false},
		{"resource source given as Pods", metrics(api.MetricSpec{Type: api.PodsMetricSourceType,
			Resource: &api.ResourceMetricSource{Name: api.ResourceCPU, Target: api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: q("100m")}}}),
			"must populate information for the given metric source", false},
		{"pods source given as Resource", metrics(api.MetricSpec{Type: api.ResourceMetricSourceType, Pods: &raw}),
			"must populate information for the given metric source", false},
		// TestValidateHorizontalPodAutoscalerScaleToZeroDisabled.
		{"minReplicas 0", func(s *api.HorizontalPodAutoscalerSpec) { s.MinReplicas = i32(0) }, "must be greater than or equal to 1", false},
		// TestValidateHorizontalPodAutoscalerConfigurableToleranceEnabled.
		{"tolerance 0.1", down(api.HPAScalingRules{Policies: one, Tolerance: q("0.1")}), "", false},
		{"tolerance 10", down(api.HPAScalingRules{Policies: one, Tolerance: q("10")}), "", false},
		{"tolerance 0", down(api.HPAScalingRules{Policies: one, Tolerance: q("0")}), "", false},
		{"tolerance 1m", down(api.HPAScalingRules{Policies: one, Tolerance: q("1m")}), "", false},
		{"no rules but policies", down(api.HPAScalingRules{Policies: one}), "", false},
		{"empty rules", up(api.HPAScalingRules{}), "at least one Policy", true},
		{"tolerance -0.001", up(api.HPAScalingRules{Policies: one, Tolerance: q("-0.001")}),
			"spec.behavior.scaleUp.tolerance: Invalid value: \"-1m\": must be greater or equal to zero", true},
		{"tolerance -10m", up(api.HPAScalingRules{Policies: one, Tolerance: q("-10m")}),
			"spec.behavior.scaleUp.tolerance: Invalid value: \"-10m\": must be greater or equal to zero", true},
		{"window without policies", up(api.HPAScalingRules{StabilizationWindowSeconds: i32(60)}), "at least one Policy", true},
		{"tolerance and window without policies", up(api.HPAScalingRules{Tolerance: q("1m"), StabilizationWindowSeconds: i32(60)}), "at least one Policy", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := &api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: "myautoscaler", Namespace: "default"}, Spec: api.HorizontalPodAutoscalerSpec{
				ScaleTargetRef: api.CrossVersionObjectReference{Kind: "ReplicationController", Name: "myrc"}, MinReplicas: i32(1), MaxReplicas: 5,
				Metrics: cpu(util70)}}
			tc.mutate(&h.Spec)
			err := Validate(h, nil)
			if tc.want == "" {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			var se *apierr.StatusError
			if !errors.As(err, &se) || len(se.Causes) == 0 {
				t.Fatalf("error %v, want one holding %q", err, tc.want)
			}
			if first := se.Causes[0].Error(); !strings.Contains(first, tc.want) {
				t.Errorf("first error %q, want it to hold %q (all: %v)", first, tc.want, err)
			}
			if tc.only && len(se.Causes) != 1 {
				t.Errorf("errors %v, want exactly one", err)
			}
		})
	}
}
