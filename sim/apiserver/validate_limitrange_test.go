package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateLimitRange holds a LimitRange's validation to upstream's
// ValidateLimitRange, after defaulting: before, only the item type was
// checked (and with a message of its own), so a default above max or a
// default request above the default was stored and the LimitRanger then
// gave pods requests above their limits.
func TestValidateLimitRange(t *testing.T) {
	rl := resources
	tests := []struct {
		name  string
		items []api.LimitRangeItem
		want  string
	}{
		{"the usual container defaults", []api.LimitRangeItem{{Type: "Container", Default: rl("cpu", "500m", "memory", "512Mi"),
			DefaultRequest: rl("cpu", "100m"), Max: rl("cpu", "4"), MaxLimitRequestRatio: rl("cpu", "10")},
			{Type: "PersistentVolumeClaim", Max: rl("storage", "50Gi")}, {Type: "Pod", Max: rl("memory", "8Gi")}}, ""},
		{"default request above max and default, min above default", []api.LimitRangeItem{{Type: "Container", Min: rl("cpu", "100m"),
			Default: rl("cpu", "50m"), DefaultRequest: rl("cpu", "200m"), Max: rl("cpu", "150m")}},
			`LimitRange "l" is invalid: [spec.limits[0].defaultRequest[cpu]: Invalid value: "200m": default request value 200m is greater than max value 150m, ` +
				`spec.limits[0].defaultRequest[cpu]: Invalid value: "200m": default request value 200m is greater than default limit value 50m, ` +
				`spec.limits[0].default[cpu]: Invalid value: "100m": min value 100m is greater than default value 50m]`},
		{"min above max (defaults from max and min)", []api.LimitRangeItem{{Type: "Container", Min: rl("memory", "2Gi"), Max: rl("memory", "1Gi")}},
			`LimitRange "l" is invalid: [spec.limits[0].min[memory]: Invalid value: "2Gi": min value 2Gi is greater than max value 1Gi, ` +
				`spec.limits[0].defaultRequest[memory]: Invalid value: "1Gi": min value 2Gi is greater than default request value 1Gi, ` +
				`spec.limits[0].default[memory]: Invalid value: "2Gi": min value 2Gi is greater than default value 1Gi]`},
		{"a ratio below 1", []api.LimitRangeItem{{Type: "Container", MaxLimitRequestRatio: rl("cpu", "500m")}},
			`LimitRange "l" is invalid: spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": ratio 500m is less than 1`},
		{"a ratio above max/min", []api.LimitRangeItem{{Type: "Pod", Min: rl("cpu", "1"), Max: rl("cpu", "2"), MaxLimitRequestRatio: rl("cpu", "3")}},
			`LimitRange "l" is invalid: spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "3": ratio 3 is greater than max/min = 2.000000`},
		{"a Pod item with defaults", []api.LimitRangeItem{{Type: "Pod", Default: rl("cpu", "1")}},
			"LimitRange \"l\" is invalid: spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'"},
		{"a claim item without storage bounds", []api.LimitRangeItem{{Type: "PersistentVolumeClaim", Max: rl("cpu", "1")}},
			`LimitRange "l" is invalid: spec.limits[0].limits: Required value: either minimum or maximum storage value is required, but neither was provided`},
		{"an unknown type, a duplicate type", []api.LimitRangeItem{{Type: "Node"}, {Type: "Container"}, {Type: "Container"}},
			`LimitRange "l" is invalid: [spec.limits[0].type: Invalid value: "Node": must be a standard limit type or fully qualified, spec.limits[2].type: Duplicate value: "Container"]`},
		{"a typo in a resource name", []api.LimitRangeItem{{Type: "Container", Max: rl("memmory", "1Gi")}},
			`LimitRange "l" is invalid: [spec.limits[0].max[memmory]: Invalid value: "memmory": must be a standard resource type or fully qualified, ` +
				`spec.limits[0].max[memmory]: Invalid value: "memmory": must be a standard resource for containers, ` +
				`spec.limits[0].default[memmory]: Invalid value: "memmory": must be a standard resource type or fully qualified, ` +
				`spec.limits[0].default[memmory]: Invalid value: "memmory": must be a standard resource for containers, ` +
				`spec.limits[0].defaultRequest[memmory]: Invalid value: "memmory": must be a standard resource type or fully qualified, ` +
				`spec.limits[0].defaultRequest[memmory]: Invalid value: "memmory": must be a standard resource for containers]`},
		{"an extended resource's default must equal its request", []api.LimitRangeItem{{Type: "Container", Default: rl("nvidia.com/gpu", "2"), DefaultRequest: rl("nvidia.com/gpu", "1")}},
			`LimitRange "l" is invalid: spec.limits[0].defaultRequest[nvidia.com/gpu]: Invalid value: "1": default value 2 must equal to defaultRequest value 1 in nvidia.com/gpu`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			resp := f.do(&Request{Verb: Create, Kind: api.KindLimitRange, Actor: user, Object: &api.LimitRange{
				ObjectMeta: api.ObjectMeta{Name: "l", Namespace: "default"}, Spec: api.LimitRangeSpec{Limits: tc.items}}})
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
