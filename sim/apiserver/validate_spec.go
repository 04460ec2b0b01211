package apiserver

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// The rules below are Kubernetes' own, with its messages: k/k
// pkg/apis/apps/validation/validation.go (ValidateDeploymentSpec,
// ValidateDeploymentStrategy), pkg/apis/core/validation/validation.go
// (ValidateLabels, validateContainerPorts, validateServicePort,
// ValidateResourceRequirements, ValidateConfigMap, ValidateResourceQuota),
// pkg/apis/autoscaling/validation/validation.go
// (validateHorizontalPodAutoscalerSpec) and apimachinery
// pkg/util/validation/validation.go (IsQualifiedName, IsValidLabelValue,
// IsValidPortNum).

const (
	nonNegative    = "must be greater than or equal to 0"
	portRange      = "must be between 1 and 65535, inclusive"
	qualifiedName  = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	nameExamples   = " (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	labelValueMsg  = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	maxConfigBytes = 1 << 20 // core.MaxSecretSize
)

// validateSpec adds the kind-specific rules to errs (obj is defaulted, as
// the API server validates after defaulting).
func validateSpec(obj api.Object, errs []apierr.FieldError) []apierr.FieldError {
	switch o := obj.(type) {
	case *api.Deployment:
		errs = validateLabels("spec.template.metadata.labels", o.Spec.Template.Labels, errs)
		errs = validateDeploymentSpec(&o.Spec, errs)
		errs = validatePodResources("spec.template.spec", &o.Spec.Template.Spec, errs)
	case *api.ReplicaSet:
		errs = validateLabels("spec.template.metadata.labels", o.Spec.Template.Labels, errs)
		errs = nonNegativeField("spec.minReadySeconds", int64(o.Spec.MinReadySeconds), errs)
		errs = validatePodResources("spec.template.spec", &o.Spec.Template.Spec, errs)
	case *api.DaemonSet:
		errs = validateLabels("spec.template.metadata.labels", o.Spec.Template.Labels, errs)
		errs = validatePodResources("spec.template.spec", &o.Spec.Template.Spec, errs)
	case *api.Pod:
		errs = validatePodResources("spec", &o.Spec, errs)
	case *api.HorizontalPodAutoscaler:
		errs = validateHPABounds(o.Spec.MinReplicas, o.Spec.MaxReplicas, errs)
		errs = validateHPASpec(&o.Spec, errs)
	case *api.HorizontalPodAutoscalerV1:
		errs = validateHPABounds(o.Spec.MinReplicas, o.Spec.MaxReplicas, errs)
	case *api.PodDisruptionBudget:
		errs = validatePDBSpec(&o.Spec, errs)
	case *api.ResourceQuota:
		errs = validateQuotaSpec(&o.Spec, errs)
	case *api.Secret:
		errs = validateSecret(o, errs)
	case *api.ConfigMap:
		errs = validateKeys("data", o.Data, errs)
		for _, k := range sortedKeysIf(len(o.BinaryData) > 0, o.Data) {
			if _, dup := o.BinaryData[k]; dup {
				errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("data[%s]", k), Type: "Invalid value", Value: k, Detail: "duplicate of key present in binaryData"})
			}
		}
		errs = validateKeys("binaryData", o.BinaryData, errs)
		size := 0
		for _, v := range o.Data {
			size += len(v)
		}
		for _, v := range o.BinaryData {
			size += len(v)
		}
		if size > maxConfigBytes {
			// Upstream reports it at the root path ("[]"); data is where
			// a reader finds it.
			errs = append(errs, apierr.FieldError{Field: "data", Type: "Too long", Detail: fmt.Sprintf("may not be more than %d bytes", maxConfigBytes)})
		}
	}
	return errs
}

func nonNegativeField(field string, v int64, errs []apierr.FieldError) []apierr.FieldError {
	if v < 0 {
		errs = append(errs, apierr.FieldError{Field: field, Type: "Invalid value", Value: v, Detail: nonNegative})
	}
	return errs
}

// validateDeploymentSpec is ValidateDeploymentSpec's rules beyond the
// selector, template and fenceposts.
func validateDeploymentSpec(spec *api.DeploymentSpec, errs []apierr.FieldError) []apierr.FieldError {
	switch spec.Strategy.Type {
	case api.RecreateDeploymentStrategyType, api.RollingUpdateDeploymentStrategyType:
	default:
		// Upstream reports the whole strategy at spec.strategy; the type
		// is the value that is wrong.
		errs = append(errs, apierr.FieldError{Field: "spec.strategy.type", Type: "Unsupported value", Value: string(spec.Strategy.Type),
			Detail: `supported values: "Recreate", "RollingUpdate"`})
	}
	errs = nonNegativeField("spec.minReadySeconds", int64(spec.MinReadySeconds), errs)
	if l := spec.RevisionHistoryLimit; l != nil {
		errs = nonNegativeField("spec.revisionHistoryLimit", int64(*l), errs)
	}
	if p := spec.ProgressDeadlineSeconds; p != nil {
		errs = nonNegativeField("spec.progressDeadlineSeconds", int64(*p), errs)
		if *p <= spec.MinReadySeconds {
			errs = append(errs, apierr.FieldError{Field: "spec.progressDeadlineSeconds", Type: "Invalid value", Value: int64(*p), Detail: "must be greater than minReadySeconds"})
		}
	}
	return errs
}

// validatePodResources checks each container's ports and resources, and
// each init container's resources.
func validatePodResources(field string, spec *api.PodSpec, errs []apierr.FieldError) []apierr.FieldError {
	for i := range spec.Containers {
		c := &spec.Containers[i]
		if containerValid(c) {
			continue // nothing to report: no field names to build
		}
		cf := fmt.Sprintf("%s.containers[%d]", field, i)
		for j, p := range c.Ports {
			pf := fmt.Sprintf("%s.ports[%d]", cf, j)
			if p.ContainerPort == 0 {
				errs = append(errs, apierr.FieldError{Field: pf + ".containerPort", Type: "Required value"})
			} else if !validPort(p.ContainerPort) {
				errs = append(errs, apierr.FieldError{Field: pf + ".containerPort", Type: "Invalid value", Value: int64(p.ContainerPort), Detail: portRange})
			}
			if p.HostPort != 0 && !validPort(p.HostPort) {
				errs = append(errs, apierr.FieldError{Field: pf + ".hostPort", Type: "Invalid value", Value: int64(p.HostPort), Detail: portRange})
			}
		}
		errs = validateResourceRequirements(cf+".resources", &c.Resources, errs)
	}
	for i := range spec.InitContainers {
		if c := &spec.InitContainers[i]; !containerValid(c) {
			errs = validateResourceRequirements(fmt.Sprintf("%s.initContainers[%d].resources", field, i), &c.Resources, errs)
		}
	}
	return errs
}

// validateResourceRequirements is validateResourceRequirements (k/k
// pkg/apis/core/validation) for a container: each limit's and request's
// name (validateContainerResourceName) and quantity (non-negative; a
// whole number for an extended resource), a request at most its limit,
// and equal to it for a resource that cannot be overcommitted (extended
// resources, hugepages), which must have a limit. As upstream, the
// request errors name the requests field, not the resource.
func validateResourceRequirements(rf string, r *api.ResourceRequirements, errs []apierr.FieldError) []apierr.FieldError {
	quantity := func(f string, n api.ResourceName, q api.Quantity) {
		if q.Cmp(api.Quantity{}) < 0 {
			errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: q.String(), Detail: nonNegative})
		}
		if integerQuotaResource(string(n)) && q.MilliValue()%1000 != 0 {
			errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: q.String(), Detail: "must be an integer"})
		}
	}
	for _, n := range r.Limits.SortedNames() {
		f := fmt.Sprintf("%s.limits[%s]", rf, n)
		errs = containerResourceNameErrs(f, string(n), errs)
		quantity(f, n, r.Limits[n])
	}
	for _, n := range r.Requests.SortedNames() {
		f := fmt.Sprintf("%s.requests[%s]", rf, n)
		errs = containerResourceNameErrs(f, string(n), errs)
		req := r.Requests[n]
		quantity(f, n, req)
		limit, ok := r.Limits[n]
		switch overcommit := overcommitAllowed(n); {
		case ok && !overcommit && req.Cmp(limit) != 0:
			errs = append(errs, apierr.FieldError{Field: rf + ".requests", Type: "Invalid value", Value: req.String(),
				Detail: fmt.Sprintf("must be equal to %s limit of %s", n, limit.String())})
		case ok && req.Cmp(limit) > 0:
			errs = append(errs, apierr.FieldError{Field: rf + ".requests", Type: "Invalid value", Value: req.String(),
				Detail: fmt.Sprintf("must be less than or equal to %s limit of %s", n, limit.String())})
		case !ok && !overcommit:
			errs = append(errs, apierr.FieldError{Field: rf + ".limits", Type: "Required value", Detail: "Limit must be set for non overcommitable resources"})
		}
	}
	return errs
}

// overcommitAllowed is IsOvercommitAllowed: a native resource (no "/",
// or in kubernetes.io) that is not hugepages.
func overcommitAllowed(n api.ResourceName) bool {
	return api.IsNativeResource(n) && !strings.HasPrefix(string(n), "hugepages-")
}

// cpuOrMemory is the common case of containerValid's resource names,
// decided without looking further.
func cpuOrMemory(n api.ResourceName) bool { return n == api.ResourceCPU || n == api.ResourceMemory }

// plainResource reports whether n is a container resource and q a whole
// number where n needs one.
func plainResource(n api.ResourceName, q api.Quantity) bool {
	return containerResource(string(n)) && (!integerQuotaResource(string(n)) || q.MilliValue()%1000 == 0)
}

// containerValid reports whether validatePodResources finds nothing
// wrong with c's ports and resources.
func containerValid(c *api.Container) bool {
	for _, p := range c.Ports {
		if !validPort(p.ContainerPort) || p.HostPort != 0 && !validPort(p.HostPort) {
			return false
		}
	}
	for name, q := range c.Resources.Limits {
		if q.Cmp(api.Quantity{}) < 0 || !cpuOrMemory(name) && !plainResource(name, q) {
			return false
		}
	}
	for name, q := range c.Resources.Requests {
		if q.Cmp(api.Quantity{}) < 0 {
			return false
		}
		limit, ok := c.Resources.Limits[name]
		if ok && q.Cmp(limit) > 0 {
			return false
		}
		if !cpuOrMemory(name) && (!plainResource(name, q) || !overcommitAllowed(name) && (!ok || q.Cmp(limit) != 0)) {
			return false
		}
	}
	return true
}

func validPort(p int32) bool { return p >= 1 && p <= 65535 }

// validateHPABounds is validateHorizontalPodAutoscalerSpec's replica
// bounds (minReplicas' lower bound is 1 without the HPAScaleToZero gate).
func validateHPABounds(minReplicas *int32, maxReplicas int32, errs []apierr.FieldError) []apierr.FieldError {
	if minReplicas != nil && *minReplicas < 1 {
		errs = append(errs, apierr.FieldError{Field: "spec.minReplicas", Type: "Invalid value", Value: int64(*minReplicas), Detail: "must be greater than or equal to 1"})
	}
	if maxReplicas < 1 {
		errs = append(errs, apierr.FieldError{Field: "spec.maxReplicas", Type: "Invalid value", Value: int64(maxReplicas), Detail: "must be greater than 0"})
	}
	if minReplicas != nil && maxReplicas < *minReplicas {
		errs = append(errs, apierr.FieldError{Field: "spec.maxReplicas", Type: "Invalid value", Value: int64(maxReplicas), Detail: "must be greater than or equal to `minReplicas`"})
	}
	return errs
}

// validateLabels is ValidateLabels: every key a qualified name, every
// value a valid label value, in key order.
func validateLabels(field string, labels map[string]string, errs []apierr.FieldError) []apierr.FieldError {
	if len(labels) == 0 || labelsValid(labels) {
		return errs
	}
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		for _, msg := range qualifiedNameProblems(k) {
			errs = append(errs, apierr.FieldError{Field: field, Type: "Invalid value", Value: k, Detail: msg})
		}
		for _, msg := range labelValueProblems(labels[k]) {
			errs = append(errs, apierr.FieldError{Field: field, Type: "Invalid value", Value: labels[k], Detail: msg})
		}
	}
	return errs
}

// labelsValid reports whether validateLabels finds nothing wrong with
// labels: then it need not sort the keys to report in order.
func labelsValid(labels map[string]string) bool {
	for k, v := range labels {
		if len(qualifiedNameProblems(k)) > 0 || !api.ValidLabelValue(v) {
			return false
		}
	}
	return true
}

// qualifiedNameProblems is IsQualifiedName, which is content.IsLabelKey
// in apimachinery v0.37 (api.LabelKeyProblems): every call site of
// IsQualifiedName upstream gets the label-key messages, in bytes.
func qualifiedNameProblems(s string) []string { return api.LabelKeyProblems(s) }

// sortedKeysIf returns m's keys sorted when cond holds, else nothing
// (and allocates nothing).
func sortedKeysIf[V any](cond bool, m map[string]V) []string {
	if !cond {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}
