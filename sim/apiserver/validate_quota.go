package apiserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// ResourceQuota validation, after k/k pkg/apis/core/validation
// ValidateResourceQuotaSpec and pkg/apis/core/helper: the names in
// spec.hard, their values, spec.scopes and spec.scopeSelector. Values are
// printed as apimachinery's field errors print them: a resource name and a
// quantity by their String methods (unquoted), other values of the
// internal types with %#v.

// standardResourceNames is helper's standardResources: what a resource
// name without a "/" may be.
var standardResourceNames = []string{"cpu", "memory", "ephemeral-storage", "requests.cpu", "requests.memory",
	"requests.ephemeral-storage", "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "resourcequotas",
	"services", "replicationcontrollers", "secrets", "configmaps", "persistentvolumeclaims", "storage",
	"requests.storage", "services.nodeports", "services.loadbalancers"}

// integerQuotaResources is helper's integerResources: counts, which must
// be whole numbers.
var integerQuotaResources = []string{"pods", "resourcequotas", "services", "replicationcontrollers", "secrets",
	"configmaps", "persistentvolumeclaims", "services.nodeports", "services.loadbalancers"}

// quotaHugePages is IsQuotaHugePageResourceName.
func quotaHugePages(n string) bool {
	return strings.HasPrefix(n, "hugepages-") || strings.HasPrefix(n, "requests.hugepages-")
}

// standardQuotaResource is IsStandardQuotaResourceName: a standard
// resource name other than storage.
func standardQuotaResource(n string) bool {
	return n != "storage" && slices.Contains(standardResourceNames, n) || quotaHugePages(n)
}

// integerQuotaResource is IsIntegerResourceName: a count, or an extended
// resource (a name outside kubernetes.io without the requests. prefix).
func integerQuotaResource(n string) bool {
	if slices.Contains(integerQuotaResources, n) {
		return true
	}
	return !api.IsNativeResource(api.ResourceName(n)) && extendedResource(n)
}

// The scopes a quota may name, and the resources each may be applied to
// (IsStandardResourceQuotaScope, IsResourceQuotaScopeValidForResource).
var quotaScopes = []api.ResourceQuotaScope{api.ResourceQuotaScopeTerminating, api.ResourceQuotaScopeNotTerminating,
	api.ResourceQuotaScopeBestEffort, api.ResourceQuotaScopeNotBestEffort, api.ResourceQuotaScopePriorityClass,
	api.ResourceQuotaScopeCrossNamespacePodAffinity, api.ResourceQuotaScopeVolumeAttributesClass}

func scopeValidFor(scope api.ResourceQuotaScope, n string) bool {
	switch scope {
	case api.ResourceQuotaScopeTerminating, api.ResourceQuotaScopeNotTerminating, api.ResourceQuotaScopeNotBestEffort,
		api.ResourceQuotaScopePriorityClass, api.ResourceQuotaScopeCrossNamespacePodAffinity:
		return slices.Contains([]string{"pods", "cpu", "memory", "limits.cpu", "limits.memory", "requests.cpu", "requests.memory"}, n)
	case api.ResourceQuotaScopeBestEffort:
		return n == "pods"
	case api.ResourceQuotaScopeVolumeAttributesClass:
		return n == "persistentvolumeclaims" || n == "requests.storage"
	}
	return true
}

// validateQuotaSpec is ValidateResourceQuotaSpec. Upstream drops
// repeated messages (ErrorList.ToAggregate); so does this.
func validateQuotaSpec(spec *api.ResourceQuotaSpec, errs []apierr.FieldError) []apierr.FieldError {
	var out []apierr.FieldError
	names := spec.Hard.SortedNames()
	for _, name := range names {
		n, field := string(name), fmt.Sprintf("spec.hard[%s]", name)
		out = resourceNameErrs(field, n, out)
		if !strings.Contains(n, "/") && !standardQuotaResource(n) {
			out = append(out, apierr.FieldError{Field: field, Type: "Invalid value", Value: n, Detail: "must be a standard resource for quota"})
		}
		q := spec.Hard[name]
		if q.Cmp(api.Quantity{}) < 0 {
			out = append(out, apierr.FieldError{Field: field, Type: "Invalid value", Value: q.String(), Detail: nonNegative})
		}
		if integerQuotaResource(n) && q.MilliValue()%1000 != 0 {
			out = append(out, apierr.FieldError{Field: field, Type: "Invalid value", Value: q.String(), Detail: "must be an integer"})
		}
	}
	invalid := func(field string, v any, detail string) {
		out = append(out, apierr.FieldError{Field: field, Type: "Invalid value", Value: v, Detail: detail})
	}
	conflicts := func(scopes []api.ResourceQuotaScope, field string) {
		for _, pair := range [][2]api.ResourceQuotaScope{{api.ResourceQuotaScopeBestEffort, api.ResourceQuotaScopeNotBestEffort},
			{api.ResourceQuotaScopeTerminating, api.ResourceQuotaScopeNotTerminating}} {
			if slices.Contains(scopes, pair[0]) && slices.Contains(scopes, pair[1]) {
				invalid(field, spec.Scopes, "conflicting scopes")
			}
		}
	}
	checkScope := func(scope api.ResourceQuotaScope, notStandard func(), misapplied func()) {
		if !slices.Contains(quotaScopes, scope) {
			notStandard()
		}
		for _, name := range names {
			if standardQuotaResource(string(name)) && !scopeValidFor(scope, string(name)) {
				misapplied()
			}
		}
	}
	for _, scope := range spec.Scopes {
		checkScope(scope, func() { invalid("spec.scopes", spec.Scopes, "unsupported scope") },
			func() { invalid("spec.scopes", spec.Scopes, "unsupported scope applied to resource") })
	}
	conflicts(spec.Scopes, "spec.scopes")
	if sel := spec.ScopeSelector; sel != nil {
		const at = "spec.scopeSelector.matchExpressions"
		var seen []api.ResourceQuotaScope
		for _, req := range sel.MatchExpressions {
			checkScope(req.ScopeName, func() {
				invalid(at+".scopeName", req.ScopeName, "unsupported scope")
			},
				func() { invalid(at, scopeSelectorValue(sel), "unsupported scope applied to resource") })
			switch req.ScopeName {
			case api.ResourceQuotaScopeBestEffort, api.ResourceQuotaScopeNotBestEffort, api.ResourceQuotaScopeTerminating,
				api.ResourceQuotaScopeNotTerminating, api.ResourceQuotaScopeCrossNamespacePodAffinity:
				if req.Operator != api.ScopeSelectorOpExists {
					invalid(at+".operator", req.Operator, "must be 'Exists' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity")
				}
			}
			switch req.Operator {
			case api.ScopeSelectorOpIn, api.ScopeSelectorOpNotIn:
				if len(req.Values) == 0 {
					out = append(out, apierr.FieldError{Field: at + ".values", Type: "Required value", Detail: "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"})
				}
			case api.ScopeSelectorOpExists, api.ScopeSelectorOpDoesNotExist:
				if len(req.Values) != 0 {
					invalid(at+".values", req.Values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector")
				}
			default:
				invalid(at+".operator", req.Operator, "not a valid selector operator")
			}
			seen = append(seen, req.ScopeName)
		}
		// Upstream reports a selector's conflict with spec.scopes' value.
		conflicts(seen, at)
	}
	for i, e := range out {
		if !slices.ContainsFunc(out[:i], func(o apierr.FieldError) bool { return o.Error() == e.Error() }) {
			errs = append(errs, e)
		}
	}
	return errs
}
