package apiserver

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
)

// TestValidateResourceQuota holds a ResourceQuota's validation to
// upstream's ValidateResourceQuotaSpec (k/k pkg/apis/core/validation),
// messages as apimachinery prints them: before it, only negative values
// were refused, so a typo such as limits.pods was stored and enforced
// nothing.
func TestValidateResourceQuota(t *testing.T) {
	hard := resources
	tests := []struct {
		name string
		spec api.ResourceQuotaSpec
		want string // "" for valid
	}{
		{"the usual names", api.ResourceQuotaSpec{Hard: hard("requests.cpu", "20", "limits.memory", "80Gi", "pods", "100",
			"count/jobs.batch", "5", "requests.nvidia.com/gpu", "4", "fast.storageclass.storage.k8s.io/requests.storage", "1Ti", "hugepages-2Mi", "1Gi")}, ""},
		{"a name that is no quota resource", api.ResourceQuotaSpec{Hard: hard("limits.pods", "10")},
			`ResourceQuota "q" is invalid: [spec.hard[limits.pods]: Invalid value: "limits.pods": must be a standard resource type or fully qualified, spec.hard[limits.pods]: Invalid value: "limits.pods": must be a standard resource for quota]`},
		{"storage is a resource but not a quota resource", api.ResourceQuotaSpec{Hard: hard("storage", "10Gi")},
			`ResourceQuota "q" is invalid: spec.hard[storage]: Invalid value: "storage": must be a standard resource for quota`},
		{"a fractional count", api.ResourceQuotaSpec{Hard: hard("pods", "1500m")},
			`ResourceQuota "q" is invalid: spec.hard[pods]: Invalid value: "1500m": must be an integer`},
		{"a negative value", api.ResourceQuotaSpec{Hard: hard("requests.cpu", "-1")},
			`ResourceQuota "q" is invalid: spec.hard[requests.cpu]: Invalid value: "-1": must be greater than or equal to 0`},
		{"an unknown scope", api.ResourceQuotaSpec{Hard: hard("pods", "1"), Scopes: []api.ResourceQuotaScope{"Batch"}},
			`ResourceQuota "q" is invalid: spec.scopes: Invalid value: ["Batch"]: unsupported scope`},
		{"BestEffort limits only pods (one message for two resources)", api.ResourceQuotaSpec{Hard: hard("pods", "1", "requests.cpu", "1", "requests.memory", "1Gi"), Scopes: []api.ResourceQuotaScope{"BestEffort"}},
			`ResourceQuota "q" is invalid: spec.scopes: Invalid value: ["BestEffort"]: unsupported scope applied to resource`},
		{"conflicting scopes", api.ResourceQuotaSpec{Hard: hard("pods", "1"), Scopes: []api.ResourceQuotaScope{"Terminating", "NotTerminating"}},
			`ResourceQuota "q" is invalid: spec.scopes: Invalid value: ["Terminating","NotTerminating"]: conflicting scopes`},
		{"a priority class selector", api.ResourceQuotaSpec{Hard: hard("pods", "10", "requests.cpu", "4"), ScopeSelector: &api.ScopeSelector{
			MatchExpressions: []api.ScopedResourceSelectorRequirement{{ScopeName: "PriorityClass", Operator: "In", Values: []string{"high"}}}}}, ""},
		{"In without values", api.ResourceQuotaSpec{Hard: hard("pods", "10"), ScopeSelector: &api.ScopeSelector{
			MatchExpressions: []api.ScopedResourceSelectorRequirement{{ScopeName: "PriorityClass", Operator: "In"}}}},
			"ResourceQuota \"q\" is invalid: spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"},
		{"Terminating with In", api.ResourceQuotaSpec{Hard: hard("pods", "10"), ScopeSelector: &api.ScopeSelector{
			MatchExpressions: []api.ScopedResourceSelectorRequirement{{ScopeName: "Terminating", Operator: "In", Values: []string{"x"}}}}},
			`ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions.operator: Invalid value: "In": must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity`},
		{"a selector scope applied to a resource it does not limit", api.ResourceQuotaSpec{Hard: hard("requests.cpu", "1"), ScopeSelector: &api.ScopeSelector{
			MatchExpressions: []api.ScopedResourceSelectorRequirement{{ScopeName: "BestEffort", Operator: "Exists"}}}},
			`ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions: Invalid value: {"MatchExpressions":[{"ScopeName":"BestEffort","Operator":"Exists","Values":null}]}: unsupported scope applied to resource`},
		{"an unknown operator", api.ResourceQuotaSpec{Hard: hard("pods", "10"), ScopeSelector: &api.ScopeSelector{
			MatchExpressions: []api.ScopedResourceSelectorRequirement{{ScopeName: "PriorityClass", Operator: "Equals", Values: []string{"x"}}}}},
			`ResourceQuota "q" is invalid: spec.scopeSelector.matchExpressions.operator: Invalid value: "Equals": not a valid selector operator`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			resp := f.do(&Request{Verb: Create, Kind: api.KindResourceQuota, Actor: user, Object: &api.ResourceQuota{
				ObjectMeta: api.ObjectMeta{Name: "q", Namespace: "default"}, Spec: tc.spec}})
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

// resources builds a ResourceList from name, quantity pairs.
func resources(kv ...string) api.ResourceList {
	l := api.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		l[api.ResourceName(kv[i])] = api.MustParseQuantity(kv[i+1])
	}
	return l
}
