package apiserver

import (
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// validateJobUpdate is upstream's ValidateJobSpecUpdate beyond the
// create rules (k/k pkg/apis/batch/validation/validation.go), in its
// order: completions (an Indexed Job's may change together with
// parallelism: ElasticIndexedJob, GA in v1.31), the selector, the pod
// template, completionMode, podFailurePolicy, backoffLimitPerIndex,
// managedBy and successPolicy are immutable. The template's scheduling
// directives may change while the stored Job is suspended and has not
// started, or has been suspended with no active pods (the Job strategy's
// AllowMutableSchedulingDirectives, with
// MutableSchedulingDirectivesForSuspendedJobs, on by default since
// v1.36, and k/k PR #139287).
//
// Values print as apimachinery v0.37's field.Error prints them: JSON,
// structs of upstream's internal types with their Go field names
// (badvalue.go), an absent value as null. The pod template alone is
// abbreviated as {...}: upstream prints the whole internal
// core.PodTemplateSpec, which is not mirrored here.
func validateJobUpdate(n, o *api.Job, errs []apierr.FieldError) []apierr.FieldError {
	s, was := &n.Spec, &o.Spec
	immutable := func(f string, v any) {
		errs = append(errs, apierr.FieldError{Field: "spec." + f, Type: "Invalid value", Value: v, Detail: "field is immutable"})
	}
	indexed := s.CompletionMode != nil && *s.CompletionMode == api.IndexedCompletion
	switch {
	case ptrEqual(s.Completions, was.Completions):
	case !indexed:
		immutable("completions", valueOrNull(s.Completions))
	case s.Completions == nil:
		// validateJobSpec has said Required already.
	case s.Parallelism == nil || *s.Completions != *s.Parallelism:
		errs = append(errs, apierr.FieldError{Field: "spec.completions", Type: "Invalid value", Value: *s.Completions,
			Detail: "can only be modified in tandem with spec.parallelism"})
	}
	if !api.SemanticEqual(s.Selector, was.Selector) {
		immutable("selector", s.Selector)
	}
	if !api.SemanticEqual(&s.Template, schedulingMutable(n, o)) {
		immutable("template", apierr.Literal("{...}"))
	}
	if !ptrEqual(s.CompletionMode, was.CompletionMode) {
		immutable("completionMode", valueOrNull(s.CompletionMode))
	}
	if !api.SemanticEqual(s.PodFailurePolicy, was.PodFailurePolicy) {
		immutable("podFailurePolicy", podFailurePolicyValue(s.PodFailurePolicy))
	}
	if !ptrEqual(s.BackoffLimitPerIndex, was.BackoffLimitPerIndex) {
		immutable("backoffLimitPerIndex", valueOrNull(s.BackoffLimitPerIndex))
	}
	if !ptrEqual(s.ManagedBy, was.ManagedBy) {
		immutable("managedBy", valueOrNull(s.ManagedBy))
	}
	if !api.SemanticEqual(s.SuccessPolicy, was.SuccessPolicy) {
		immutable("successPolicy", successPolicyValue(s.SuccessPolicy))
	}
	return errs
}

// schedulingMutable returns the template n's may not differ from: o's
// own, or, when o's scheduling directives may change, a copy of it with
// n's node affinity, node selector, tolerations, scheduling gates,
// labels and annotations (validatePodTemplateUpdate). Affinity may be
// cleared only when it held nothing but node affinity.
func schedulingMutable(n, o *api.Job) *api.PodTemplateSpec {
	suspended := o.Spec.Suspend != nil && *o.Spec.Suspend
	c := o.Condition(api.JobSuspended)
	idle := c != nil && c.Status == api.ConditionTrue && o.Status.Active == 0
	if !suspended || o.Status.StartTime != nil && !idle {
		return &o.Spec.Template
	}
	t, was := &n.Spec.Template, o.Spec.Template.DeepCopy()
	switch a := t.Spec.Affinity; {
	case a == nil && was.Spec.Affinity != nil:
		was.Spec.Affinity.NodeAffinity = nil
		if *was.Spec.Affinity == (api.Affinity{}) {
			was.Spec.Affinity = nil
		}
	case a != nil && was.Spec.Affinity == nil:
		was.Spec.Affinity = &api.Affinity{NodeAffinity: a.NodeAffinity}
	case a != nil:
		was.Spec.Affinity.NodeAffinity = a.NodeAffinity
	}
	was.Spec.NodeSelector, was.Spec.Tolerations, was.Spec.SchedulingGates = t.Spec.NodeSelector, t.Spec.Tolerations, t.Spec.SchedulingGates
	was.Labels, was.Annotations = t.Labels, t.Annotations
	return was
}

// valueOrNull is *p, or nil (printed null) for nil, as field.Error
// prints a pointer: its JSON.
func valueOrNull[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
