package apiserver

import (
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/apierr"
)

// Resource names, after k/k pkg/apis/core/validation validateResourceName
// and validateContainerResourceName and pkg/apis/core/helper. A name is
// a quoted string (upstream passes it as a string; apimachinery v0.37's
// ErrorBody quotes it).

// resourceNameErrs is validateResourceName: a qualified name, and a
// standard resource when it has no "/".
func resourceNameErrs(field, n string, errs []apierr.FieldError) []apierr.FieldError {
	if probs := qualifiedNameProblems(n); len(probs) > 0 {
		for _, p := range probs {
			errs = append(errs, apierr.FieldError{Field: field, Type: "Invalid value", Value: n, Detail: p})
		}
		return errs
	}
	if !strings.Contains(n, "/") && !slices.Contains(standardResourceNames, n) && !quotaHugePages(n) {
		errs = append(errs, apierr.FieldError{Field: field, Type: "Invalid value", Value: n, Detail: "must be a standard resource type or fully qualified"})
	}
	return errs
}

// containerResource reports whether n may be requested by a container
// (validateContainerResourceName finds nothing): cpu, memory,
// ephemeral-storage, hugepages-*, a name in kubernetes.io, or an
// extended resource.
func containerResource(n string) bool {
	switch {
	case n == "cpu" || n == "memory" || n == "ephemeral-storage" || strings.HasPrefix(n, "hugepages-") && len(qualifiedNameProblems(n)) == 0:
		return true
	case !strings.Contains(n, "/"):
		return false
	case strings.Contains(n, "kubernetes.io/"):
		return len(qualifiedNameProblems(n)) == 0
	}
	return extendedResource(n)
}

// extendedResource is IsExtendedResourceName for a name with a "/"
// outside kubernetes.io.
func extendedResource(n string) bool {
	return !strings.HasPrefix(n, "requests.") && len(qualifiedNameProblems("requests."+n)) == 0
}

// containerResourceNameErrs is validateContainerResourceName.
func containerResourceNameErrs(field, n string, errs []apierr.FieldError) []apierr.FieldError {
	errs = resourceNameErrs(field, n, errs)
	switch {
	case !strings.Contains(n, "/"):
		if n != "cpu" && n != "memory" && n != "ephemeral-storage" && !strings.HasPrefix(n, "hugepages-") {
			errs = append(errs, apierr.FieldError{Field: field, Type: "Invalid value", Value: n, Detail: "must be a standard resource for containers"})
		}
	case !strings.Contains(n, "kubernetes.io/") && !extendedResource(n):
		errs = append(errs, apierr.FieldError{Field: field, Type: "Invalid value", Value: n, Detail: "doesn't follow extended resource name standard"})
	}
	return errs
}
