package apiserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// firstCause returns the first field error of a 422, or fails t.
func firstCause(t *testing.T, err error) (apierr.FieldError, []apierr.FieldError) {
	t.Helper()
	var se *apierr.StatusError
	if !errors.As(err, &se) || len(se.Causes) == 0 {
		t.Fatalf("error %v, want a 422 with causes", err)
	}
	return se.Causes[0], se.Causes
}

// TestValidateJobFieldsUpstream ports the rows of upstream's TestValidateJob
// (k/k pkg/apis/batch/validation/validation_test.go) for
// podReplacementPolicy, completionMode, backoffLimitPerIndex,
// maxFailedIndexes and the restartPolicy a podFailurePolicy requires,
// keyed as there by "<field>:<part of the message>" and checked as
// upstream checks them: the first error is of that field and holds that
// text. The completionMode and successPolicy rows follow
// validateJobSpec's code (upstream's test has no row for them).
//
// Rows left out: the podFailurePolicy rules' own rows (their actions,
// operators, exit codes and conditions are not validated here), the
// success policy's rules (the policy is kept opaque: accepted, not
// simulated, and warned about), the selector rows (see
// TestValidateJobUpstream).
func TestValidateJobFieldsUpstream(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	str := func(s string) *string { return &s }
	job := func(mod func(s *api.JobSpec)) *api.Job {
		j := &api.Job{ObjectMeta: api.ObjectMeta{Name: "myjob", Namespace: "default"}, Spec: api.JobSpec{
			Template: api.PodTemplateSpec{Spec: api.PodSpec{RestartPolicy: api.RestartPolicyOnFailure, Containers: []api.Container{{Name: "abc", Image: "image"}}}}}}
		mod(&j.Spec)
		return j
	}
	never := func(s *api.JobSpec) { s.Template.Spec.RestartPolicy = api.RestartPolicyNever }
	ignore := &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{{Action: "Ignore",
		OnPodConditions: []api.PodFailurePolicyOnPodConditionsPattern{{Type: "DisruptionTarget", Status: api.ConditionTrue}}}}}
	success := api.RawValue(`{"rules":[{"succeededCount":1}]}`)
	tests := []struct {
		key string // "" for valid
		obj *api.Job
	}{
		{"", job(func(s *api.JobSpec) {
			never(s)
			s.CompletionMode, s.Completions, s.BackoffLimitPerIndex, s.MaxFailedIndexes = str(api.IndexedCompletion), i32(10), i32(1), i32(10)
		})},
		{"", job(func(s *api.JobSpec) { s.PodReplacementPolicy = str(api.PodReplacementFailed) })},
		{"", job(func(s *api.JobSpec) {
			s.CompletionMode, s.Completions, s.SuccessPolicy = str(api.IndexedCompletion), i32(3), &success
		})},
		{`spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"`, job(func(s *api.JobSpec) {
			never(s)
			s.PodReplacementPolicy, s.PodFailurePolicy = str(api.PodReplacementTerminatingOrFailed), ignore
		})},
		{`spec.podReplacementPolicy: Unsupported value: "": supported values: "Failed", "TerminatingOrFailed"`, job(func(s *api.JobSpec) {
			never(s)
			s.PodReplacementPolicy = str("")
		})},
		{`spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified`,
			job(func(s *api.JobSpec) { s.PodFailurePolicy = &api.PodFailurePolicy{Rules: []api.PodFailurePolicyRule{}} })},
		{"spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode", job(func(s *api.JobSpec) { s.BackoffLimitPerIndex = i32(1) })},
		{"spec.backoffLimitPerIndex:must be greater than or equal to 0", job(func(s *api.JobSpec) {
			s.BackoffLimitPerIndex, s.CompletionMode = i32(-1), str(api.IndexedCompletion)
		})},
		{"spec.maxFailedIndexes: Invalid value: 11: must be less than or equal to completions", job(func(s *api.JobSpec) {
			s.Completions, s.MaxFailedIndexes, s.BackoffLimitPerIndex, s.CompletionMode = i32(10), i32(11), i32(1), str(api.IndexedCompletion)
		})},
		{"spec.maxFailedIndexes: Required value: must be specified when completions is above 100000", job(func(s *api.JobSpec) {
			s.Completions, s.BackoffLimitPerIndex, s.CompletionMode = i32(100_001), i32(1), str(api.IndexedCompletion)
		})},
		{"spec.parallelism: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index", job(func(s *api.JobSpec) {
			s.Completions, s.Parallelism, s.BackoffLimitPerIndex, s.MaxFailedIndexes, s.CompletionMode = i32(100_001), i32(50_000), i32(1), i32(1), str(api.IndexedCompletion)
		})},
		{"spec.maxFailedIndexes: Invalid value: 100001: must be less than or equal to 100000", job(func(s *api.JobSpec) {
			s.Completions, s.BackoffLimitPerIndex, s.MaxFailedIndexes, s.CompletionMode = i32(100_001), i32(1), i32(100_001), str(api.IndexedCompletion)
		})},
		{"spec.maxFailedIndexes: Invalid value: 50000: must be less than or equal to 10000 when completions are above 100000 and used with backoff limit per index", job(func(s *api.JobSpec) {
			s.Completions, s.BackoffLimitPerIndex, s.MaxFailedIndexes, s.CompletionMode = i32(100_001), i32(1), i32(50_000), str(api.IndexedCompletion)
		})},
		{"spec.maxFailedIndexes:must be greater than or equal to 0", job(func(s *api.JobSpec) {
			s.BackoffLimitPerIndex, s.MaxFailedIndexes, s.CompletionMode = i32(1), i32(-1), str(api.IndexedCompletion)
		})},
		{"spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified", job(func(s *api.JobSpec) {
			s.MaxFailedIndexes, s.CompletionMode = i32(1), str(api.IndexedCompletion)
		})},
		{`spec.completionMode: Unsupported value: "Ordered": supported values: "NonIndexed", "Indexed"`, job(func(s *api.JobSpec) { s.CompletionMode = str("Ordered") })},
		{"spec.successPolicy: Invalid value: {...}: requires indexed completion mode", job(func(s *api.JobSpec) { s.SuccessPolicy = &success })},
	}
	for _, tt := range tests {
		name := tt.key
		if name == "" {
			name = "valid"
		}
		t.Run(name, func(t *testing.T) {
			err := Validate(tt.obj, nil)
			if tt.key == "" {
				if err != nil {
					t.Errorf("error %v, want none", err)
				}
				return
			}
			field, text, _ := strings.Cut(tt.key, ":")
			first, _ := firstCause(t, err)
			if first.Field != field || !strings.Contains(first.Error(), text) {
				t.Errorf("first error %q, want %q (all: %v)", first.Error(), tt.key, err)
			}
		})
	}
}
