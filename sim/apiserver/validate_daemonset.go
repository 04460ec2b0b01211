package apiserver

import (
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// validateDaemonSet is ValidateDaemonSetSpec's rules (k/k
// pkg/apis/apps/validation/validation.go): a selector that is not empty
// and matches the template's labels (a missing one matches none), restartPolicy Always and no
// activeDeadlineSeconds (validateControllerTemplate), non-negative
// minReadySeconds and revisionHistoryLimit, and an update strategy of
// RollingUpdate (exactly one of maxUnavailable and maxSurge non-zero) or
// OnDelete. The selector is immutable.
func validateDaemonSet(ds *api.DaemonSet, old api.Object) []apierr.FieldError {
	var errs []apierr.FieldError
	spec := &ds.Spec
	// The selector as ValidateDaemonSetSpec checks it: no Required (a
	// missing selector converts to labels.Nothing, which no template
	// matches), ValidateLabelSelector's errors, and no "invalid label
	// selector" of its own.
	errs = validateLabelSelector(func() string { return "spec.selector" }, spec.Selector, errs)
	if s, err := api.LabelSelectorAsSelector(spec.Selector); err == nil && !s.Matches(spec.Template.Labels) {
		errs = append(errs, apierr.FieldError{Field: "spec.template.metadata.labels", Type: "Invalid value", Value: spec.Template.Labels, Detail: "`selector` does not match template `labels`"})
	}
	if spec.Selector != nil && len(spec.Selector.MatchLabels)+len(spec.Selector.MatchExpressions) == 0 {
		errs = append(errs, apierr.FieldError{Field: "spec.selector", Type: "Invalid value", Value: spec.Selector, Detail: "empty selector is invalid for daemonset"})
	}
	errs = append(errs, validatePodSpec("spec.template.spec", &spec.Template.Spec)...)
	errs = validateControllerTemplate("DaemonSet", &spec.Template.Spec, errs)
	errs = nonNegativeField("spec.minReadySeconds", int64(spec.MinReadySeconds), errs)
	if l := spec.RevisionHistoryLimit; l != nil {
		errs = nonNegativeField("spec.revisionHistoryLimit", int64(*l), errs)
	}
	switch st := spec.UpdateStrategy; st.Type {
	case api.OnDeleteDaemonSetStrategyType:
	case api.RollingUpdateDaemonSetStrategyType:
		if st.RollingUpdate == nil {
			errs = append(errs, apierr.FieldError{Field: "spec.updateStrategy.rollingUpdate", Type: "Required value"})
			break
		}
		errs = append(errs, validateRollingUpdateDaemonSet(st.RollingUpdate)...)
	default:
		errs = append(errs, apierr.FieldError{Field: "spec.updateStrategy", Type: "Unsupported value", Value: string(st.Type),
			Detail: `supported values: "OnDelete", "RollingUpdate"`})
	}
	if old != nil {
		if od, ok := old.(*api.DaemonSet); ok && !selectorEqual(od.Spec.Selector, spec.Selector) {
			errs = append(errs, apierr.FieldError{Field: "spec.selector", Type: "Invalid value", Value: spec.Selector, Detail: "field is immutable"})
		}
	}
	return errs
}

// validateRollingUpdateDaemonSet is ValidateRollingUpdateDaemonSet:
// positive ints or percents of at most 100%, exactly one of them non-zero.
func validateRollingUpdateDaemonSet(ru *api.RollingUpdateDaemonSet) []apierr.FieldError {
	var errs []apierr.FieldError
	check := func(field string, v *api.IntOrString) { errs = append(errs, intOrPercent(field, v, true)...) }
	const prefix = "spec.updateStrategy.rollingUpdate."
	check(prefix+"maxUnavailable", ru.MaxUnavailable)
	check(prefix+"maxSurge", ru.MaxSurge)
	hasUnavailable := ru.MaxUnavailable != nil && !isZero(ru.MaxUnavailable)
	hasSurge := ru.MaxSurge != nil && !isZero(ru.MaxSurge)
	switch {
	case hasUnavailable && hasSurge:
		errs = append(errs, apierr.FieldError{Field: prefix + "maxSurge", Type: "Invalid value", Value: ru.MaxSurge.String(), Detail: "may not be set when maxUnavailable is non-zero"})
	case !hasUnavailable && !hasSurge:
		errs = append(errs, apierr.FieldError{Field: prefix + "maxUnavailable", Type: "Required value", Detail: "cannot be 0 when maxSurge is 0"})
	}
	return errs
}

// intOrPercent checks a non-negative int or a percent string; with cap100
// a percent above 100% is refused too (apps validation's
// ValidatePositiveIntOrPercent and IsNotMoreThan100Percent).
func intOrPercent(field string, v *api.IntOrString, cap100 bool) []apierr.FieldError {
	if v == nil {
		return nil
	}
	if v.Type == api.IntOrStringString {
		if !validPercent(v.StrVal) {
			return []apierr.FieldError{{Field: field, Type: "Invalid value", Value: v.String(), Detail: percentMsg}}
		}
		// As upstream's getPercentValue: strconv.Atoi, whose range error
		// gives the largest int (a percent of 22 digits is over 100%).
		if n, _ := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%")); n > 100 && cap100 {
			return []apierr.FieldError{{Field: field, Type: "Invalid value", Value: v.String(), Detail: "must not be greater than 100%"}}
		}
		return nil
	}
	if v.IntVal < 0 {
		return []apierr.FieldError{{Field: field, Type: "Invalid value", Value: int64(v.IntVal), Detail: nonNegative}}
	}
	return nil
}

// percentMsg is IsValidPercent's message.
const percentMsg = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"

// validPercent is apimachinery's IsValidPercent pattern, ^[0-9]+%$: digits
// and a '%', no sign, no fraction ("-1%" and "1.1%" are not percents,
// though strconv would read the first).
func validPercent(s string) bool {
	digits, ok := strings.CutSuffix(s, "%")
	if !ok || digits == "" {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}
