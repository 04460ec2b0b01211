package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
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
