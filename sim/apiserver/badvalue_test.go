package apiserver

import (
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// TestBadValuesAsUpstreamPassesThem: where upstream's validation passes
// a map, a slice, a pointer or a struct of its internal API types as the
// bad value, the message shows it as apimachinery v0.37's
// field.Error.ErrorBody does: JSON, internal structs with their Go field
// names (no json tags), a nil pointer or slice as null. Each row names
// the upstream call whose value it checks.
func TestBadValuesAsUpstreamPassesThem(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	raw := func(s string) *api.RawValue { r := api.RawValue(s); return &r }
	pfp := &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{{Action: "Ignore",
		OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget", Status: api.ConditionTrue}}},
		{Action: "FailJob", OnExitCodes: &api.PodFailurePolicyOnExitCodesRequirement{Operator: "In", Values: []int32{42}}}}}
	never := api.PreemptionPolicy("Never")
	job := func(mod func(*api.JobSpec)) *api.Job {
		j := &api.Job{ObjectMeta: api.ObjectMeta{Name: "j", Namespace: "default"},
			Spec: api.JobSpec{Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "a"}}}}
		if mod != nil {
			mod(&j.Spec)
		}
		return j
	}
	for _, tc := range []struct {
		name string
		errs []apierr.FieldError
		want string
	}{
		// ValidateJobSpecUpdate: ValidateImmutableField(spec.Selector, ...)
		{"job selector", validateJobUpdate(job(func(s *api.JobSpec) { s.Selector.MatchLabels = map[string]string{"app": "b"} }), job(nil), nil),
			`spec.selector: Invalid value: {"matchLabels":{"app":"b"}}: field is immutable`},
		// ValidateImmutableField(spec.PodFailurePolicy, ...): *batch.PodFailurePolicy
		{"job podFailurePolicy", validateJobUpdate(job(func(s *api.JobSpec) { s.PodFailurePolicy = pfp }), job(nil), nil),
			`spec.podFailurePolicy: Invalid value: {"Rules":[{"Action":"Ignore","OnExitCodes":null,"OnPodConditions":[{"Type":"DisruptionTarget","Status":"True"}]},` +
				`{"Action":"FailJob","OnExitCodes":{"ContainerName":null,"Operator":"In","Values":[42]},"OnPodConditions":null}]}: field is immutable`},
		{"job podFailurePolicy removed", validateJobUpdate(job(nil), job(func(s *api.JobSpec) { s.PodFailurePolicy = pfp }), nil),
			`spec.podFailurePolicy: Invalid value: null: field is immutable`},
		// ValidateImmutableField(spec.SuccessPolicy, ...): *batch.SuccessPolicy
		{"job successPolicy", validateJobUpdate(job(func(s *api.JobSpec) {
			s.SuccessPolicy = raw(`{"rules":[{"succeededIndexes":"1-3","succeededCount":2}]}`)
		}), job(nil), nil),
			`spec.successPolicy: Invalid value: {"Rules":[{"SucceededIndexes":"1-3","SucceededCount":2}]}: field is immutable`},
		// validateCompletions: ValidateImmutableField(spec.Completions, ...): *int32
		{"job completions", validateJobUpdate(job(func(s *api.JobSpec) { s.Completions = i32(3) }), job(nil), nil),
			`spec.completions: Invalid value: 3: field is immutable`},
		// ValidateJobTemplateSpec: field.Invalid(..., spec.Spec.Selector, "`selector` will be auto-generated")
		{"cronjob selector", validateCronJobSpec(&api.CronJobSpec{Schedule: "* * * * *", ConcurrencyPolicy: "Allow",
			JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{Selector: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "k", Operator: "Exists"}}}}}}, nil, nil),
			"spec.jobTemplate.spec.selector: Invalid value: {\"matchExpressions\":[{\"key\":\"k\",\"operator\":\"Exists\"}]}: `selector` will be auto-generated"},
		// ValidatePersistentVolumeSpec: field.NotSupported(..., pvSpec.Capacity, ...): core.ResourceList
		{"pv capacity", validatePVSpec(&api.PersistentVolumeSpec{AccessModes: []string{api.ReadWriteOnce},
			Capacity: api.ResourceList{api.ResourceStorage: api.MustParseQuantity("1Gi"), api.ResourceCPU: api.MustParseQuantity("500m")}}, nil),
			`spec.capacity: Unsupported value: {"cpu":"500m","storage":"1Gi"}: supported values: "storage"`},
		// ValidatePriorityClassUpdate: ValidateImmutableField(pc.PreemptionPolicy, ...): *core.PreemptionPolicy
		{"priority class preemptionPolicy cleared", validatePriorityClass(&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "p"}, Value: 1},
			&api.PriorityClass{ObjectMeta: api.ObjectMeta{Name: "p"}, Value: 1, PreemptionPolicy: &never}, nil),
			`preemptionPolicy: Invalid value: null: field is immutable`},
		// validateScopedResourceSelectorRequirement: field.Invalid(..., req.Values, ...): []string
		{"quota scope selector values", validateQuotaSpec(&api.ResourceQuotaSpec{ScopeSelector: &api.ScopeSelector{
			MatchExpressions: []api.ScopedResourceSelectorRequirement{{ScopeName: "PriorityClass", Operator: "Exists", Values: []string{"high"}}}}}, nil),
			"spec.scopeSelector.matchExpressions.values: Invalid value: [\"high\"]: must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"},
		// ValidatePolicyRule: field.Invalid(..., rule.NonResourceURLs, ...): []string
		{"role non-resource URLs", validatePolicyRules([]api.PolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/metrics"}}}, true, nil),
			`rules[0].nonResourceURLs: Invalid value: ["/healthz","/metrics"]: namespaced rules cannot apply to non-resource URLs`},
		// validateIngressBackend: field.Invalid(fldPath, "", ...)
		{"ingress backend", validateIngressBackend("spec.defaultBackend", &api.IngressBackend{}, nil),
			`spec.defaultBackend: Invalid value: "": resource or service backend is required`},
	} {
		var got []string
		for _, e := range tc.errs {
			got = append(got, e.Error())
		}
		if !strings.Contains(strings.Join(got, "\n"), tc.want) {
			t.Errorf("%s: errors\n%s\nwant one\n%s", tc.name, strings.Join(got, "\n"), tc.want)
		}
	}
}
