package apiserver

import (
	"fmt"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// HorizontalPodAutoscaler (autoscaling/v2) validation beyond the replica
// bounds, after k/k pkg/apis/autoscaling/validation: the scale target
// reference, each metric (its type, the one source it populates, a
// Resource metric's name and target), and the behavior's rules.
// Pods, Object, External and ContainerResource sources are kept opaque:
// only their presence is checked.

// The bounds of a scaling rule (autoscaling validation's
// MaxPeriodSeconds and MaxStabilizationWindowSeconds).
const (
	maxPeriodSeconds              = 1800
	maxStabilizationWindowSeconds = 3600
)

// validateHPASpec checks an autoscaling/v2 spec after the bounds.
func validateHPASpec(spec *api.HorizontalPodAutoscalerSpec, errs []apierr.FieldError) []apierr.FieldError {
	errs = validateScaleTargetRef("spec.scaleTargetRef", spec.ScaleTargetRef, errs)
	for i := range spec.Metrics {
		errs = validateMetricSpec(fmt.Sprintf("spec.metrics[%d]", i), &spec.Metrics[i], errs)
	}
	if b := spec.Behavior; b != nil {
		errs = validateScalingRules("spec.behavior.scaleUp", b.ScaleUp, errs)
		errs = validateScalingRules("spec.behavior.scaleDown", b.ScaleDown, errs)
	}
	return errs
}

// validateScaleTargetRef is ValidateCrossVersionObjectReference: a kind
// and a name, each a valid path segment.
func validateScaleTargetRef(at string, ref api.CrossVersionObjectReference, errs []apierr.FieldError) []apierr.FieldError {
	for _, f := range []struct{ name, v string }{{"kind", ref.Kind}, {"name", ref.Name}} {
		if f.v == "" {
			errs = append(errs, apierr.FieldError{Field: at + "." + f.name, Type: "Required value"})
			continue
		}
		for _, msg := range pathSegmentProblems(f.v) {
			errs = append(errs, apierr.FieldError{Field: at + "." + f.name, Type: "Invalid value", Value: f.v, Detail: msg})
		}
	}
	return errs
}

// pathSegmentProblems is IsValidPathSegmentName.
func pathSegmentProblems(s string) []string {
	var out []string
	if s == "." || s == ".." {
		out = append(out, fmt.Sprintf(`may not be '%s'`, s))
	}
	for _, bad := range []string{"/", "%"} {
		if strings.Contains(s, bad) {
			out = append(out, fmt.Sprintf(`may not contain '%s'`, bad))
		}
	}
	return out
}

// validateMetricSpec is validateMetricSpec for the simulator's types.
// Upstream reports an unknown type twice, and its ErrorList drops the
// repeat; here it is reported once.
func validateMetricSpec(at string, m *api.MetricSpec, errs []apierr.FieldError) []apierr.FieldError {
	present := []struct {
		field string
		set   bool
		typ   api.MetricSourceType
	}{
		{"object", m.Object != nil, api.ObjectMetricSourceType},
		{"external", m.External != nil, api.ExternalMetricSourceType},
		{"pods", m.Pods != nil, api.PodsMetricSourceType},
		{"resource", m.Resource != nil, api.ResourceMetricSourceType},
		{"containerResource", m.ContainerResource != nil, api.ContainerResourceMetricSourceType},
	}
	if m.Type == "" {
		errs = append(errs, apierr.FieldError{Field: at + ".type", Type: "Required value", Detail: "must specify a metric source type"})
	}
	expected, count := -1, 0
	for i, p := range present {
		if p.typ == m.Type {
			expected = i
		}
		if p.set {
			count++
		}
	}
	if expected < 0 {
		errs = append(errs, apierr.FieldError{Field: at + ".type", Type: "Unsupported value", Value: string(m.Type),
			Detail: `supported values: "ContainerResource", "External", "Object", "Pods", "Resource"`})
	}
	// Upstream validates only the first source present.
	if m.Resource != nil && m.Object == nil && m.External == nil && m.Pods == nil {
		errs = validateResourceSource(at+".resource", m.Resource, errs)
	}
	if expected >= 0 && !present[expected].set {
		errs = append(errs, apierr.FieldError{Field: at + "." + present[expected].field, Type: "Required value", Detail: "must populate information for the given metric source"})
	}
	if count > 1 {
		for i, p := range present {
			if p.set && i != expected {
				errs = append(errs, apierr.FieldError{Field: at + "." + p.field, Type: "Forbidden", Detail: "must populate the given metric source only"})
			}
		}
	}
	return errs
}

// validateResourceSource is validateResourceSource with
// validateMetricTarget. A quantity is shown as field.Error shows a value
// that is not a string, a number or a Stringer: as its JSON, a quoted
// string ("-300m").
func validateResourceSource(at string, r *api.ResourceMetricSource, errs []apierr.FieldError) []apierr.FieldError {
	if r.Name == "" {
		errs = append(errs, apierr.FieldError{Field: at + ".name", Type: "Required value", Detail: "must specify a resource name"})
	}
	t, tf := &r.Target, at+".target"
	switch t.Type {
	case "":
		errs = append(errs, apierr.FieldError{Field: tf + ".type", Type: "Required value", Detail: "must specify a metric target type"})
		fallthrough
	default:
		if t.Type != api.UtilizationMetricType && t.Type != api.ValueMetricType && t.Type != api.AverageValueMetricType {
			errs = append(errs, apierr.FieldError{Field: tf + ".type", Type: "Invalid value", Value: string(t.Type), Detail: "must be either Utilization, Value, or AverageValue"})
		}
	}
	if v := t.Value; v != nil && v.Cmp(api.Quantity{}) <= 0 {
		errs = append(errs, apierr.FieldError{Field: tf + ".value", Type: "Invalid value", Value: v.String(), Detail: "must be positive"})
	}
	if v := t.AverageValue; v != nil && v.Cmp(api.Quantity{}) <= 0 {
		errs = append(errs, apierr.FieldError{Field: tf + ".averageValue", Type: "Invalid value", Value: v.String(), Detail: "must be positive"})
	}
	if u := t.AverageUtilization; u != nil && *u < 1 {
		errs = append(errs, apierr.FieldError{Field: tf + ".averageUtilization", Type: "Invalid value", Value: int64(*u), Detail: "must be greater than 0"})
	}
	switch {
	case t.AverageUtilization == nil && t.AverageValue == nil:
		errs = append(errs, apierr.FieldError{Field: tf + ".averageUtilization", Type: "Required value", Detail: "must set either a target raw value or a target utilization"})
	case t.AverageUtilization != nil && t.AverageValue != nil:
		errs = append(errs, apierr.FieldError{Field: tf + ".averageValue", Type: "Forbidden", Detail: "may not set both a target raw value and a target utilization"})
	}
	return errs
}

// validateScalingRules is validateScalingRules and validateScalingPolicy,
// with the tolerance's lower bound.
func validateScalingRules(at string, r *api.HPAScalingRules, errs []apierr.FieldError) []apierr.FieldError {
	if r == nil {
		return errs
	}
	if w := r.StabilizationWindowSeconds; w != nil && *w < 0 {
		errs = append(errs, apierr.FieldError{Field: at + ".stabilizationWindowSeconds", Type: "Invalid value", Value: int64(*w), Detail: "must be greater than or equal to zero"})
	}
	if w := r.StabilizationWindowSeconds; w != nil && *w > maxStabilizationWindowSeconds {
		errs = append(errs, apierr.FieldError{Field: at + ".stabilizationWindowSeconds", Type: "Invalid value", Value: int64(*w), Detail: fmt.Sprintf("must be less than or equal to %d", maxStabilizationWindowSeconds)})
	}
	if p := r.SelectPolicy; p != nil && *p != "Max" && *p != "Min" && *p != "Disabled" {
		errs = append(errs, apierr.FieldError{Field: at + ".selectPolicy", Type: "Unsupported value", Value: string(*p), Detail: `supported values: "Disabled", "Max", "Min"`})
	}
	if len(r.Policies) == 0 {
		errs = append(errs, apierr.FieldError{Field: at + ".policies", Type: "Required value", Detail: "must specify at least one Policy"})
	}
	// HPAConfigurableTolerance (beta, on since 1.35): a tolerance is
	// zero or more.
	if tol := r.Tolerance; tol != nil && tol.Cmp(api.Quantity{}) < 0 {
		errs = append(errs, apierr.FieldError{Field: at + ".tolerance", Type: "Invalid value", Value: tol.String(), Detail: "must be greater or equal to zero"})
	}
	for i, p := range r.Policies {
		pf := fmt.Sprintf("%s.policies[%d]", at, i)
		if p.Type != "Pods" && p.Type != "Percent" {
			errs = append(errs, apierr.FieldError{Field: pf + ".type", Type: "Unsupported value", Value: string(p.Type), Detail: `supported values: "Percent", "Pods"`})
		}
		if p.Value <= 0 {
			errs = append(errs, apierr.FieldError{Field: pf + ".value", Type: "Invalid value", Value: int64(p.Value), Detail: "must be greater than zero"})
		}
		if p.PeriodSeconds <= 0 {
			errs = append(errs, apierr.FieldError{Field: pf + ".periodSeconds", Type: "Invalid value", Value: int64(p.PeriodSeconds), Detail: "must be greater than zero"})
		}
		if p.PeriodSeconds > maxPeriodSeconds {
			errs = append(errs, apierr.FieldError{Field: pf + ".periodSeconds", Type: "Invalid value", Value: int64(p.PeriodSeconds), Detail: fmt.Sprintf("must be less than or equal to %d", maxPeriodSeconds)})
		}
	}
	return errs
}
