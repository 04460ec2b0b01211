package apiserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// validateLimitRange is ValidateLimitRange (k/k pkg/apis/core/validation),
// run after the LimitRange's defaults (a Container item's default from
// max, defaultRequest from default or min): each item's type, its
// resource names, what a Pod item may not set, a PersistentVolumeClaim
// item's storage bound, and per resource min <= defaultRequest <= default
// <= max and a maxLimitRequestRatio of at least 1 within max/min.
// Quantities are printed unquoted, as apimachinery prints a Quantity.
// Upstream visits the resources in map order; here they are sorted.
func validateLimitRange(lr *api.LimitRange, errs []apierr.FieldError) []apierr.FieldError {
	seen := map[string]bool{}
	for i := range lr.Spec.Limits {
		it := &lr.Spec.Limits[i]
		at := fmt.Sprintf("spec.limits[%d]", i)
		errs = limitTypeErrs(at+".type", it.Type, errs)
		if seen[it.Type] {
			errs = append(errs, apierr.FieldError{Field: at + ".type", Type: "Duplicate value", Value: it.Type})
		}
		seen[it.Type] = true
		names := func(field string, l api.ResourceList) {
			for _, n := range l.SortedNames() {
				f := fmt.Sprintf("%s.%s[%s]", at, field, n)
				if it.Type == api.LimitTypePod || it.Type == api.LimitTypeContainer {
					errs = containerResourceNameErrs(f, string(n), errs)
				} else {
					errs = resourceNameErrs(f, string(n), errs)
				}
			}
		}
		names("max", it.Max)
		names("min", it.Min)
		if it.Type == api.LimitTypePod {
			if len(it.Default) > 0 {
				errs = append(errs, apierr.FieldError{Field: at + ".default", Type: "Forbidden", Detail: "may not be specified when `type` is 'Pod'"})
			}
			if len(it.DefaultRequest) > 0 {
				errs = append(errs, apierr.FieldError{Field: at + ".defaultRequest", Type: "Forbidden", Detail: "may not be specified when `type` is 'Pod'"})
			}
		} else {
			names("default", it.Default)
			names("defaultRequest", it.DefaultRequest)
		}
		if it.Type == api.LimitTypePersistentVolumeClaim {
			_, min := it.Min[api.ResourceStorage]
			_, max := it.Max[api.ResourceStorage]
			if !min && !max {
				errs = append(errs, apierr.FieldError{Field: at + ".limits", Type: "Required value", Detail: "either minimum or maximum storage value is required, but neither was provided"})
			}
		}
		names("maxLimitRequestRatio", it.MaxLimitRequestRatio)
		defaults, defaultRequests := it.Default, it.DefaultRequest
		if it.Type == api.LimitTypePod {
			defaults, defaultRequests = nil, nil
		}
		errs = limitBoundsErrs(at, it, defaults, defaultRequests, errs)
	}
	return errs
}

// limitTypeErrs is validateLimitRangeTypeName.
func limitTypeErrs(field, t string, errs []apierr.FieldError) []apierr.FieldError {
	if probs := qualifiedNameProblems(t); len(probs) > 0 {
		for _, p := range probs {
			errs = append(errs, apierr.FieldError{Field: field, Type: "Invalid value", Value: t, Detail: p})
		}
		return errs
	}
	switch t {
	case api.LimitTypePod, api.LimitTypeContainer, api.LimitTypePersistentVolumeClaim:
		return errs
	}
	if !strings.Contains(t, "/") {
		errs = append(errs, apierr.FieldError{Field: field, Type: "Invalid value", Value: t, Detail: "must be a standard limit type or fully qualified"})
	}
	return errs
}

// limitBoundsErrs is ValidateLimitRange's comparisons of one item's
// bounds, resource by resource.
func limitBoundsErrs(at string, it *api.LimitRangeItem, defaults, defaultRequests api.ResourceList, errs []apierr.FieldError) []apierr.FieldError {
	var names []api.ResourceName
	for _, l := range []api.ResourceList{it.Max, it.Min, defaults, defaultRequests, it.MaxLimitRequestRatio} {
		for n := range l {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, k := range slices.Compact(names) {
		min, hasMin := it.Min[k]
		max, hasMax := it.Max[k]
		def, hasDef := defaults[k]
		req, hasReq := defaultRequests[k]
		ratio, hasRatio := it.MaxLimitRequestRatio[k]
		bad := func(field string, v api.Quantity, detail string) {
			errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("%s.%s[%s]", at, field, k), Type: "Invalid value", Value: v.String(), Detail: detail})
		}
		if hasMin && hasMax && min.Cmp(max) > 0 {
			bad("min", min, fmt.Sprintf("min value %s is greater than max value %s", min.String(), max.String()))
		}
		if hasReq && hasMin && min.Cmp(req) > 0 {
			bad("defaultRequest", req, fmt.Sprintf("min value %s is greater than default request value %s", min.String(), req.String()))
		}
		if hasReq && hasMax && req.Cmp(max) > 0 {
			bad("defaultRequest", req, fmt.Sprintf("default request value %s is greater than max value %s", req.String(), max.String()))
		}
		if hasReq && hasDef && req.Cmp(def) > 0 {
			bad("defaultRequest", req, fmt.Sprintf("default request value %s is greater than default limit value %s", req.String(), def.String()))
		}
		if hasDef && hasMin && min.Cmp(def) > 0 {
			bad("default", min, fmt.Sprintf("min value %s is greater than default value %s", min.String(), def.String()))
		}
		if hasDef && hasMax && def.Cmp(max) > 0 {
			bad("default", max, fmt.Sprintf("default value %s is greater than max value %s", def.String(), max.String()))
		}
		if hasRatio && ratio.Cmp(api.NewQuantity(1, api.DecimalSI)) < 0 {
			bad("maxLimitRequestRatio", ratio, fmt.Sprintf("ratio %s is less than 1", ratio.String()))
		}
		if hasRatio && hasMin && hasMax {
			limit := float64(max.MilliValue()) / float64(min.MilliValue())
			if float64(ratio.MilliValue())/1000 > limit {
				bad("maxLimitRequestRatio", ratio, fmt.Sprintf("ratio %s is greater than max/min = %f", ratio.String(), limit))
			}
		}
		if !overcommitAllowed(k) && hasDef && hasReq && def.Cmp(req) != 0 {
			bad("defaultRequest", req, fmt.Sprintf("default value %s must equal to defaultRequest value %s in %s", def.String(), req.String(), k))
		}
	}
	return errs
}
