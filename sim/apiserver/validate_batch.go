package apiserver

import (
	"fmt"
	"slices"
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
// TZ, a time zone time.LoadLocation knows. old is the stored object on
// an update (else nil).
func validateBatch(obj, old api.Object, errs []apierr.FieldError) []apierr.FieldError {
	switch o := obj.(type) {
	case *api.Job:
		errs = validateJobSpec("spec", &o.Spec, errs)
		if oj, ok := old.(*api.Job); ok {
			errs = validateJobUpdate(o, oj, errs)
		}
	case *api.LimitRange:
		errs = validateLimitRange(o, errs)
	case *api.CronJob:
		var was *api.CronJobSpec
		if oc, ok := old.(*api.CronJob); ok {
			was = &oc.Spec
		}
		errs = validateCronJobSpec(&o.Spec, was, errs)
	}
	return errs
}

// validateCronJobSpec is upstream's validateCronJobSpec, in its order:
// schedule, startingDeadlineSeconds, timeZone, concurrencyPolicy, the job
// template, the history limits. old is the stored spec on an update (else
// nil): a schedule the stored one held TZ in may keep it (but not beside
// spec.timeZone), and an unchanged time zone is not checked again, so
// that a CronJob stored before these rules can still be updated.
func validateCronJobSpec(s, old *api.CronJobSpec, errs []apierr.FieldError) []apierr.FieldError {
	switch sc := s.Schedule; {
	case sc == "":
		errs = append(errs, apierr.FieldError{Field: "spec.schedule", Type: "Required value"})
	default:
		// validateScheduleFormat: the schedule must parse as the
		// controller's parser reads it, and carry no time zone.
		if _, err := cron.ParseStandard(sc); err != nil {
			errs = append(errs, apierr.FieldError{Field: "spec.schedule", Type: "Invalid value", Value: sc, Detail: err.Error()})
		}
		keepTZ := old != nil && strings.Contains(old.Schedule, "TZ")
		switch {
		case keepTZ && strings.Contains(sc, "TZ") && s.TimeZone != nil:
			errs = append(errs, apierr.FieldError{Field: "spec.schedule", Type: "Invalid value", Value: sc, Detail: "cannot use both timeZone field and TZ or CRON_TZ in schedule"})
		case !keepTZ && strings.Contains(sc, "TZ"):
			errs = append(errs, apierr.FieldError{Field: "spec.schedule", Type: "Invalid value", Value: sc, Detail: "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"})
		}
	}
	errs = nonNegativePtr("spec.startingDeadlineSeconds", s.StartingDeadlineSeconds, errs)
	if tz := s.TimeZone; tz != nil && (old == nil || !ptrEqual(tz, old.TimeZone)) {
		errs = validateTimeZone(*tz, errs)
	}
	switch s.ConcurrencyPolicy {
	case "Allow", "Forbid", "Replace":
	case "":
		errs = append(errs, apierr.FieldError{Field: "spec.concurrencyPolicy", Type: "Required value"})
	default:
		errs = append(errs, apierr.FieldError{Field: "spec.concurrencyPolicy", Type: "Unsupported value", Value: s.ConcurrencyPolicy, Detail: `supported values: "Allow", "Forbid", "Replace"`})
	}
	// ValidateJobTemplateSpec: the controller generates each Job's
	// selector. The selector is shown as field.Error shows a struct, as
	// its JSON.
	js := &s.JobTemplate.Spec
	errs = validateJobSpec("spec.jobTemplate.spec", js, errs)
	if js.Selector != nil {
		errs = append(errs, apierr.FieldError{Field: "spec.jobTemplate.spec.selector", Type: "Invalid value", Value: js.Selector, Detail: "`selector` will be auto-generated"})
	}
	if m := js.ManualSelector; m != nil && *m {
		errs = append(errs, apierr.FieldError{Field: "spec.jobTemplate.spec.manualSelector", Type: "Unsupported value", Value: true, Detail: `supported values: "nil", "false"`})
	}
	errs = nonNegative32("spec.successfulJobsHistoryLimit", s.SuccessfulJobsHistoryLimit, errs)
	return nonNegative32("spec.failedJobsHistoryLimit", s.FailedJobsHistoryLimit, errs)
}

// validateTimeZone is upstream's validateTimeZone: not empty; each
// '/'-separated part of at most 14 of [A-Za-z.-_0-9+], not "." or "..",
// not starting with '-' (else "unknown time zone", and nothing more);
// then "Local" in any case is refused, and a zone time.LoadLocation does
// not know (both for "local").
func validateTimeZone(tz string, errs []apierr.FieldError) []apierr.FieldError {
	bad := func(detail string) {
		errs = append(errs, apierr.FieldError{Field: "spec.timeZone", Type: "Invalid value", Value: tz, Detail: detail})
	}
	if tz == "" {
		bad("timeZone must be nil or non-empty string")
		return errs
	}
	for _, part := range strings.Split(tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !timeZonePart(part) {
			bad("unknown time zone " + tz)
			return errs
		}
	}
	if strings.EqualFold(tz, "Local") {
		bad("timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones")
	}
	if _, err := time.LoadLocation(tz); err != nil {
		bad(err.Error())
	}
	return errs
}

// timeZonePart reports whether part matches ^[A-Za-z.\-_0-9+]{1,14}$.
func timeZonePart(part string) bool {
	if part == "" || len(part) > 14 {
		return false
	}
	for i := 0; i < len(part); i++ {
		switch c := part[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '-', c == '_', c == '+':
		default:
			return false
		}
	}
	return true
}

// The bounds of an Indexed Job (batch validation's
// maxParallelismForIndexedJob, maxFailedIndexesForIndexedJob,
// completionsSoftLimit, parallelismLimitForHighCompletions and
// maxFailedIndexesLimitForHighCompletions).
const (
	maxParallelismIndexed          = 100_000
	maxFailedIndexes               = 100_000
	completionsSoftLimit           = 100_000
	parallelismLimitHighCompletion = 10_000
	maxFailedLimitHighCompletion   = 10_000
)

// validateJobSpec is upstream's validateJobSpec, in its order: the
// counts, the per-index back-off fields, the completion mode and what it
// bounds, the success policy, the pod replacement policy, the pod
// template, then the template's restartPolicy.
func validateJobSpec(f string, s *api.JobSpec, errs []apierr.FieldError) []apierr.FieldError {
	errs = nonNegative32(f+".parallelism", s.Parallelism, errs)
	errs = nonNegative32(f+".completions", s.Completions, errs)
	errs = nonNegativePtr(f+".activeDeadlineSeconds", s.ActiveDeadlineSeconds, errs)
	errs = nonNegative32(f+".backoffLimit", s.BackoffLimit, errs)
	errs = nonNegative32(f+".ttlSecondsAfterFinished", s.TTLSecondsAfterFinished, errs)
	errs = nonNegative32(f+".backoffLimitPerIndex", s.BackoffLimitPerIndex, errs)
	if s.MaxFailedIndexes != nil {
		errs = nonNegative32(f+".maxFailedIndexes", s.MaxFailedIndexes, errs)
		if s.BackoffLimitPerIndex == nil {
			errs = append(errs, apierr.FieldError{Field: f + ".backoffLimitPerIndex", Type: "Required value", Detail: "when maxFailedIndexes is specified"})
		}
	}
	indexed := s.CompletionMode != nil && *s.CompletionMode == api.IndexedCompletion
	if m := s.CompletionMode; m != nil && *m != api.NonIndexedCompletion && *m != api.IndexedCompletion {
		errs = append(errs, apierr.FieldError{Field: f + ".completionMode", Type: "Unsupported value", Value: *m,
			Detail: quoted(api.NonIndexedCompletion, api.IndexedCompletion)})
	}
	if indexed {
		if s.Completions == nil {
			errs = append(errs, apierr.FieldError{Field: f + ".completions", Type: "Required value", Detail: "when completion mode is Indexed"})
		}
		if s.Parallelism != nil && *s.Parallelism > maxParallelismIndexed {
			errs = append(errs, apierr.FieldError{Field: f + ".parallelism", Type: "Invalid value", Value: *s.Parallelism,
				Detail: fmt.Sprintf("must be less than or equal to %d when completion mode is Indexed", maxParallelismIndexed)})
		}
		mfi := s.MaxFailedIndexes
		if s.Completions != nil && mfi != nil && *mfi > *s.Completions {
			errs = append(errs, apierr.FieldError{Field: f + ".maxFailedIndexes", Type: "Invalid value", Value: *mfi, Detail: "must be less than or equal to completions"})
		}
		if mfi != nil && *mfi > maxFailedIndexes {
			errs = append(errs, apierr.FieldError{Field: f + ".maxFailedIndexes", Type: "Invalid value", Value: *mfi,
				Detail: fmt.Sprintf("must be less than or equal to %d", maxFailedIndexes)})
		}
		if s.Completions != nil && *s.Completions > completionsSoftLimit && s.BackoffLimitPerIndex != nil {
			high := fmt.Sprintf("when completions are above %d and used with backoff limit per index", completionsSoftLimit)
			if mfi == nil {
				errs = append(errs, apierr.FieldError{Field: f + ".maxFailedIndexes", Type: "Required value",
					Detail: fmt.Sprintf("must be specified when completions is above %d", completionsSoftLimit)})
			}
			if s.Parallelism != nil && *s.Parallelism > parallelismLimitHighCompletion {
				errs = append(errs, apierr.FieldError{Field: f + ".parallelism", Type: "Invalid value", Value: *s.Parallelism,
					Detail: fmt.Sprintf("must be less than or equal to %d %s", parallelismLimitHighCompletion, high)})
			}
			if mfi != nil && *mfi > maxFailedLimitHighCompletion {
				errs = append(errs, apierr.FieldError{Field: f + ".maxFailedIndexes", Type: "Invalid value", Value: *mfi,
					Detail: fmt.Sprintf("must be less than or equal to %d %s", maxFailedLimitHighCompletion, high)})
			}
		}
	} else {
		if v := s.BackoffLimitPerIndex; v != nil {
			errs = append(errs, apierr.FieldError{Field: f + ".backoffLimitPerIndex", Type: "Invalid value", Value: *v, Detail: "requires indexed completion mode"})
		}
		if v := s.MaxFailedIndexes; v != nil {
			errs = append(errs, apierr.FieldError{Field: f + ".maxFailedIndexes", Type: "Invalid value", Value: *v, Detail: "requires indexed completion mode"})
		}
	}
	if s.PodFailurePolicy != nil {
		errs = validatePodFailurePolicy(f+".podFailurePolicy", s, errs)
	}
	// The success policy is kept opaque (accepted, not simulated): only
	// upstream's first rule, an Indexed Job's, is checked. Upstream prints
	// the policy struct (%#v); it is abbreviated here, as other structs.
	if s.SuccessPolicy != nil && !indexed {
		errs = append(errs, apierr.FieldError{Field: f + ".successPolicy", Type: "Invalid value", Value: successPolicyValue(s.SuccessPolicy), Detail: "requires indexed completion mode"})
	}
	// validatePodReplacementPolicy: with a podFailurePolicy only Failed.
	if p := s.PodReplacementPolicy; p != nil {
		switch {
		case s.PodFailurePolicy != nil && *p != api.PodReplacementFailed:
			errs = append(errs, apierr.FieldError{Field: f + ".podReplacementPolicy", Type: "Unsupported value", Value: *p, Detail: quoted(api.PodReplacementFailed)})
		case s.PodFailurePolicy == nil && *p != api.PodReplacementFailed && *p != api.PodReplacementTerminatingOrFailed:
			errs = append(errs, apierr.FieldError{Field: f + ".podReplacementPolicy", Type: "Unsupported value", Value: *p,
				Detail: quoted(api.PodReplacementFailed, api.PodReplacementTerminatingOrFailed)})
		}
	}
	errs = append(errs, validatePodSpec(f+".template.spec", &s.Template.Spec)...)
	// A template left to default restarts Always: upstream calls that
	// Required, and only another value Unsupported; with a
	// podFailurePolicy, OnFailure is refused too.
	switch rp := s.Template.Spec.RestartPolicy; {
	case rp == api.RestartPolicyAlways || rp == "":
		errs = append(errs, apierr.FieldError{Field: f + ".template.spec.restartPolicy", Type: "Required value", Detail: `valid values: "OnFailure", "Never"`})
	case rp != api.RestartPolicyOnFailure && rp != api.RestartPolicyNever:
		errs = append(errs, apierr.FieldError{Field: f + ".template.spec.restartPolicy", Type: "Unsupported value", Value: string(rp), Detail: `supported values: "OnFailure", "Never"`})
	case s.PodFailurePolicy != nil && rp != api.RestartPolicyNever:
		errs = append(errs, apierr.FieldError{Field: f + ".template.spec.restartPolicy", Type: "Invalid value", Value: string(rp),
			Detail: `only "Never" is supported when podFailurePolicy is specified`})
	}
	return errs
}

// The bounds of a pod failure policy (batch validation's
// maxPodFailurePolicyRules, maxPodFailurePolicyOnExitCodesValues and
// maxPodFailurePolicyOnPodConditionsPatterns).
const (
	maxFailureRules      = 20
	maxExitCodeValues    = 255
	maxConditionPatterns = 20
)

// The values a pod failure policy's enumerations take, sorted as
// upstream lists them (sets.List).
var (
	failureActions    = []string{"Count", "FailIndex", "FailJob", "Ignore"}
	exitCodeOperators = []string{"In", "NotIn"}
	conditionStatuses = []string{"False", "True", "Unknown"}
)

// validatePodFailurePolicy is upstream's validatePodFailurePolicy: at
// most 20 rules; each with an action (FailIndex only with
// backoffLimitPerIndex), exactly one of onExitCodes and onPodConditions,
// exit codes with an operator, a container of the template, 1 to 255
// ordered distinct values (no 0 for In), conditions (at most 20) with a
// qualified type and a status.
func validatePodFailurePolicy(f string, s *api.JobSpec, errs []apierr.FieldError) []apierr.FieldError {
	rules := s.PodFailurePolicy.Rules
	if len(rules) > maxFailureRules {
		errs = append(errs, tooMany(f+".rules", len(rules), maxFailureRules))
	}
	for i := range rules {
		r := &rules[i]
		rf := fmt.Sprintf("%s.rules[%d]", f, i)
		switch {
		case r.Action == "":
			errs = append(errs, apierr.FieldError{Field: rf + ".action", Type: "Required value", Detail: "valid values: " + bracketed(failureActions)})
		case r.Action == "FailIndex":
			if s.BackoffLimitPerIndex == nil {
				errs = append(errs, apierr.FieldError{Field: rf + ".action", Type: "Invalid value", Value: r.Action, Detail: "requires the backoffLimitPerIndex to be set"})
			}
		case !slices.Contains(failureActions, r.Action):
			errs = append(errs, apierr.FieldError{Field: rf + ".action", Type: "Unsupported value", Value: r.Action, Detail: quoted(failureActions...)})
		}
		if r.OnExitCodes != nil {
			errs = validateOnExitCodes(rf+".onExitCodes", r.OnExitCodes, &s.Template.Spec, errs)
		}
		if len(r.OnPodConditions) > 0 {
			errs = validateOnPodConditions(rf+".onPodConditions", r.OnPodConditions, errs)
		}
		// Upstream omits the value (field.OmitValueType).
		switch {
		case r.OnExitCodes != nil && len(r.OnPodConditions) > 0:
			errs = append(errs, apierr.FieldError{Field: rf, Type: "Invalid value", Value: apierr.OmitValue, Detail: "specifying both OnExitCodes and OnPodConditions is not supported"})
		case r.OnExitCodes == nil && len(r.OnPodConditions) == 0:
			errs = append(errs, apierr.FieldError{Field: rf, Type: "Invalid value", Value: apierr.OmitValue, Detail: "specifying one of OnExitCodes and OnPodConditions is required"})
		}
	}
	return errs
}

// validateOnExitCodes is validatePodFailurePolicyRuleOnExitCodes; the
// values are shown as Go prints an []int32 (%#v), as field.Error does.
func validateOnExitCodes(f string, r *api.PodFailurePolicyOnExitCodesRequirement, spec *api.PodSpec, errs []apierr.FieldError) []apierr.FieldError {
	switch {
	case r.Operator == "":
		errs = append(errs, apierr.FieldError{Field: f + ".operator", Type: "Required value", Detail: "valid values: " + bracketed(exitCodeOperators)})
	case !slices.Contains(exitCodeOperators, r.Operator):
		errs = append(errs, apierr.FieldError{Field: f + ".operator", Type: "Unsupported value", Value: r.Operator, Detail: quoted(exitCodeOperators...)})
	}
	if c := r.ContainerName; c != nil && !podHasContainer(spec, *c) {
		errs = append(errs, apierr.FieldError{Field: f + ".containerName", Type: "Invalid value", Value: *c, Detail: "must be one of the container or initContainer names in the pod template"})
	}
	values := r.Values
	switch n := len(r.Values); {
	case n == 0:
		errs = append(errs, apierr.FieldError{Field: f + ".values", Type: "Invalid value", Value: values, Detail: "at least one value is required"})
	case n > maxExitCodeValues:
		errs = append(errs, tooMany(f+".values", n, maxExitCodeValues))
	}
	ordered := true
	for j, v := range r.Values {
		vf := fmt.Sprintf("%s.values[%d]", f, j)
		if r.Operator == "In" && v == 0 {
			errs = append(errs, apierr.FieldError{Field: vf, Type: "Invalid value", Value: v, Detail: "must not be 0 for the In operator"})
		}
		if slices.Contains(r.Values[:j], v) {
			errs = append(errs, apierr.FieldError{Field: vf, Type: "Duplicate value", Value: v})
		}
		if j > 0 && r.Values[j-1] > v {
			ordered = false
		}
	}
	if !ordered {
		errs = append(errs, apierr.FieldError{Field: f + ".values", Type: "Invalid value", Value: values, Detail: "must be ordered"})
	}
	return errs
}

// validateOnPodConditions is validatePodFailurePolicyRuleOnPodConditions.
func validateOnPodConditions(f string, patterns []api.PodFailurePolicyOnPodConditionsPattern, errs []apierr.FieldError) []apierr.FieldError {
	if len(patterns) > maxConditionPatterns {
		errs = append(errs, tooMany(f, len(patterns), maxConditionPatterns))
	}
	for j, p := range patterns {
		pf := fmt.Sprintf("%s[%d]", f, j)
		for _, msg := range qualifiedNameProblems(p.Type) {
			errs = append(errs, apierr.FieldError{Field: pf + ".type", Type: "Invalid value", Value: p.Type, Detail: msg})
		}
		switch st := string(p.Status); {
		case st == "":
			errs = append(errs, apierr.FieldError{Field: pf + ".status", Type: "Required value", Detail: "valid values: " + bracketed(conditionStatuses)})
		case !slices.Contains(conditionStatuses, st):
			errs = append(errs, apierr.FieldError{Field: pf + ".status", Type: "Unsupported value", Value: st, Detail: quoted(conditionStatuses...)})
		}
	}
	return errs
}

// podHasContainer reports whether spec has a container or init
// container named name.
func podHasContainer(spec *api.PodSpec, name string) bool {
	for _, cs := range [][]api.Container{spec.Containers, spec.InitContainers} {
		for i := range cs {
			if cs[i].Name == name {
				return true
			}
		}
	}
	return false
}

// tooMany is field.TooMany: n items where at most limit are allowed.
func tooMany(f string, n, limit int) apierr.FieldError {
	return apierr.FieldError{Field: f, Type: "Too many", Value: n, Detail: fmt.Sprintf("must have at most %d items", limit)}
}

// bracketed is fmt's %q of a []string, as upstream words a Required
// value's valid values: ["a" "b"].
func bracketed(vals []string) string {
	return fmt.Sprintf("%q", vals)
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
