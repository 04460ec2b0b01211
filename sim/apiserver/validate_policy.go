package apiserver

import (
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// validatePDBSpec is k/k pkg/apis/policy/validation/validation.go
// ValidatePodDisruptionBudgetSpec: at most one of minAvailable and
// maxUnavailable, each a non-negative count or a percentage of at most
// 100%, a valid selector, a known unhealthyPodEvictionPolicy.
func validatePDBSpec(spec *api.PodDisruptionBudgetSpec, errs []apierr.FieldError) []apierr.FieldError {
	if spec.MinAvailable != nil && spec.MaxUnavailable != nil {
		errs = append(errs, apierr.FieldError{Field: "spec", Type: "Invalid value", Value: pdbSpecValue(spec), Detail: "minAvailable and maxUnavailable cannot be both set"})
	}
	errs = positiveIntOrPercent("spec.minAvailable", spec.MinAvailable, errs)
	errs = positiveIntOrPercent("spec.maxUnavailable", spec.MaxUnavailable, errs)
	// ValidateLabelSelector's errors alone, as ValidatePodDisruptionBudgetSpec.
	errs = validateLabelSelector(func() string { return "spec.selector" }, spec.Selector, errs)
	if p := spec.UnhealthyPodEvictionPolicy; p != nil && *p != api.IfHealthyBudget && *p != api.AlwaysAllow {
		errs = append(errs, apierr.FieldError{Field: "spec.unhealthyPodEvictionPolicy", Type: "Unsupported value", Value: string(*p),
			Detail: `supported values: "AlwaysAllow", "IfHealthyBudget"`})
	}
	return errs
}

// positiveIntOrPercent is apps validation's ValidatePositiveIntOrPercent
// and IsNotMoreThan100Percent.
func positiveIntOrPercent(field string, v *api.IntOrString, errs []apierr.FieldError) []apierr.FieldError {
	return append(errs, intOrPercent(field, v, true)...)
}
