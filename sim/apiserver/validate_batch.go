package apiserver

import (
	"strings"
	"time"
	_ "time/tzdata" // spec.timeZone is checked against the same zones on every machine

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/cron"
)

// validateBatch adds the rules of Jobs and CronJobs, with Kubernetes'
// messages (k/k pkg/apis/batch/validation/validation.go validateJobSpec,
// ValidateCronJobSpec, validateTimeZone): non-negative counts, a
// restartPolicy of OnFailure or Never, the pod template's own rules, a
// schedule that parses (sim/cron, robfig/cron's ParseStandard) without
// TZ, a time zone time.LoadLocation knows.
func validateBatch(obj api.Object, errs []apierr.FieldError) []apierr.FieldError {
	switch o := obj.(type) {
	case *api.Job:
		errs = validateJobSpec("spec", &o.Spec, errs)
	case *api.LimitRange:
		errs = validateLimitRange(o, errs)
	case *api.CronJob:
		switch sc := o.Spec.Schedule; {
		case sc == "":
			errs = append(errs, apierr.FieldError{Field: "spec.schedule", Type: "Required value"})
		default:
			// validateScheduleFormat: the schedule must parse as the
			// controller's parser reads it, and carry no time zone.
			if _, err := cron.ParseStandard(sc); err != nil {
				errs = append(errs, apierr.FieldError{Field: "spec.schedule", Type: "Invalid value", Value: sc, Detail: err.Error()})
			}
			if strings.Contains(sc, "TZ") {
				errs = append(errs, apierr.FieldError{Field: "spec.schedule", Type: "Invalid value", Value: sc, Detail: "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"})
			}
		}
		if tz := o.Spec.TimeZone; tz != nil {
			switch _, err := time.LoadLocation(*tz); {
			case *tz == "":
				errs = append(errs, apierr.FieldError{Field: "spec.timeZone", Type: "Invalid value", Value: *tz, Detail: "timeZone must be nil or non-empty string"})
			case strings.EqualFold(*tz, "Local"):
				errs = append(errs, apierr.FieldError{Field: "spec.timeZone", Type: "Invalid value", Value: *tz, Detail: "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"})
			case err != nil:
				errs = append(errs, apierr.FieldError{Field: "spec.timeZone", Type: "Invalid value", Value: *tz, Detail: err.Error()})
			}
		}
		switch o.Spec.ConcurrencyPolicy {
		case "Allow", "Forbid", "Replace":
		default:
			errs = append(errs, apierr.FieldError{Field: "spec.concurrencyPolicy", Type: "Unsupported value", Value: o.Spec.ConcurrencyPolicy, Detail: `supported values: "Allow", "Forbid", "Replace"`})
		}
		errs = nonNegativePtr("spec.startingDeadlineSeconds", o.Spec.StartingDeadlineSeconds, errs)
		errs = nonNegative32("spec.successfulJobsHistoryLimit", o.Spec.SuccessfulJobsHistoryLimit, errs)
		errs = nonNegative32("spec.failedJobsHistoryLimit", o.Spec.FailedJobsHistoryLimit, errs)
		errs = validateJobSpec("spec.jobTemplate.spec", &o.Spec.JobTemplate.Spec, errs)
	}
	return errs
}

func validateJobSpec(f string, s *api.JobSpec, errs []apierr.FieldError) []apierr.FieldError {
	errs = nonNegative32(f+".parallelism", s.Parallelism, errs)
	errs = nonNegative32(f+".completions", s.Completions, errs)
	errs = nonNegativePtr(f+".activeDeadlineSeconds", s.ActiveDeadlineSeconds, errs)
	errs = nonNegative32(f+".backoffLimit", s.BackoffLimit, errs)
	errs = nonNegative32(f+".ttlSecondsAfterFinished", s.TTLSecondsAfterFinished, errs)
	if s.CompletionMode != nil && *s.CompletionMode == api.IndexedCompletion && s.Completions == nil {
		errs = append(errs, apierr.FieldError{Field: f + ".completions", Type: "Required value", Detail: "when completion mode is Indexed"})
	}
	// maxParallelismForIndexedJob: the cap on an Indexed Job's
	// parallelism, which bounds status.completedIndexes.
	if s.CompletionMode != nil && *s.CompletionMode == api.IndexedCompletion && s.Parallelism != nil && *s.Parallelism > 100000 {
		errs = append(errs, apierr.FieldError{Field: f + ".parallelism", Type: "Invalid value", Value: *s.Parallelism, Detail: "must be less than or equal to 100000 when completion mode is Indexed"})
	}
	// A template left to default restarts Always: upstream calls that
	// Required, and only another value Unsupported.
	switch rp := s.Template.Spec.RestartPolicy; rp {
	case api.RestartPolicyOnFailure, api.RestartPolicyNever:
	case api.RestartPolicyAlways, "":
		errs = append(errs, apierr.FieldError{Field: f + ".template.spec.restartPolicy", Type: "Required value", Detail: `valid values: "OnFailure", "Never"`})
	default:
		errs = append(errs, apierr.FieldError{Field: f + ".template.spec.restartPolicy", Type: "Unsupported value", Value: string(rp), Detail: `supported values: "OnFailure", "Never"`})
	}
	if p := s.PodFailurePolicy; p != nil && s.Template.Spec.RestartPolicy != api.RestartPolicyNever {
		errs = append(errs, apierr.FieldError{Field: f + ".podFailurePolicy", Type: "Invalid value", Value: apierr.Literal("\"\""),
			Detail: "only allowed when template.spec.restartPolicy is Never"})
	}
	return append(errs, validatePodSpec(f+".template.spec", &s.Template.Spec)...)
}

func nonNegative32(f string, v *int32, errs []apierr.FieldError) []apierr.FieldError {
	if v != nil && *v < 0 {
		errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: *v, Detail: nonNegative})
	}
	return errs
}

func nonNegativePtr(f string, v *int64, errs []apierr.FieldError) []apierr.FieldError {
	if v != nil && *v < 0 {
		errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: *v, Detail: nonNegative})
	}
	return errs
}
