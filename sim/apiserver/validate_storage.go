package apiserver

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// supportedAccessModes as upstream lists them (sorted).
var supportedAccessModes = []string{api.ReadOnlyMany, api.ReadWriteMany, api.ReadWriteOnce, api.ReadWriteOncePod}

// quoted formats values as field.NotSupported does: `"a", "b"`.
func quoted(vals ...string) string {
	out := "supported values: "
	for i, v := range vals {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%q", v)
	}
	return out
}

// validateStorage adds the rules of StatefulSets, PersistentVolumeClaims,
// PersistentVolumes and StorageClasses with Kubernetes' messages (k/k
// pkg/apis/apps/validation/validation.go ValidateStatefulSetSpec,
// pkg/apis/core/validation/validation.go ValidatePersistentVolumeClaimSpec
// and ValidatePersistentVolumeSpec, pkg/apis/storage/validation
// ValidateStorageClass).
func validateStorage(obj api.Object, errs []apierr.FieldError) []apierr.FieldError {
	switch o := obj.(type) {
	case *api.StatefulSet:
		errs = validateStatefulSetSpec(&o.Spec, errs)
	case *api.PersistentVolumeClaim:
		errs = validateClaimSpec("spec", &o.Spec, errs)
	case *api.PersistentVolume:
		errs = validatePVSpec(&o.Spec, errs)
	case *api.StorageClass:
		if o.Provisioner == "" {
			errs = append(errs, apierr.FieldError{Field: "provisioner", Type: "Required value"})
		}
		if p := o.ReclaimPolicy; p != nil && *p != api.ReclaimDelete && *p != api.ReclaimRetain {
			errs = append(errs, apierr.FieldError{Field: "reclaimPolicy", Type: "Unsupported value", Value: *p, Detail: quoted(api.ReclaimDelete, api.ReclaimRetain)})
		}
		if m := o.VolumeBindingMode; m != nil && *m != api.VolumeBindingImmediate && *m != api.VolumeBindingWaitForFirstConsumer {
			errs = append(errs, apierr.FieldError{Field: "volumeBindingMode", Type: "Unsupported value", Value: *m, Detail: quoted(api.VolumeBindingImmediate, api.VolumeBindingWaitForFirstConsumer)})
		}
		for i, t := range o.AllowedTopologies {
			if len(t.MatchLabelExpressions) == 0 {
				errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("allowedTopologies[%d].matchLabelExpressions", i), Type: "Required value", Detail: "must have at least one label selector requirement"})
			}
			for j, r := range t.MatchLabelExpressions {
				if len(r.Values) == 0 {
					errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("allowedTopologies[%d].matchLabelExpressions[%d].values", i, j), Type: "Required value", Detail: "must specify as least one value"})
				}
			}
		}
	}
	return errs
}

func validateStatefulSetSpec(spec *api.StatefulSetSpec, errs []apierr.FieldError) []apierr.FieldError {
	// serviceName is optional; a set one is each pod's subdomain, which
	// must be a DNS-1123 label (k/k PR #130233, v1.33: before, such a set
	// was stored and its pods were refused).
	if n := spec.ServiceName; n != "" {
		for _, msg := range dns1123LabelProblems(n) {
			errs = append(errs, apierr.FieldError{Field: "spec.serviceName", Type: "Invalid value", Value: n, Detail: msg})
		}
	}
	switch spec.PodManagementPolicy {
	case api.OrderedReadyPodManagement, api.ParallelPodManagement:
	default:
		errs = append(errs, apierr.FieldError{Field: "spec.podManagementPolicy", Type: "Invalid value", Value: spec.PodManagementPolicy, Detail: "must be 'OrderedReady' or 'Parallel'"})
	}
	switch st := spec.UpdateStrategy; st.Type {
	case api.OnDeleteStatefulSetStrategyType:
		if st.RollingUpdate != nil {
			errs = append(errs, apierr.FieldError{Field: "spec.updateStrategy.rollingUpdate", Type: "Invalid value", Value: statefulSetRollingUpdateValue(st.RollingUpdate), Detail: "only allowed for updateStrategy 'RollingUpdate'"})
		}
	case api.RollingUpdateStatefulSetStrategyType:
		if ru := st.RollingUpdate; ru != nil {
			errs = nonNegative32("spec.updateStrategy.rollingUpdate.partition", ru.Partition, errs)
			if mu := ru.MaxUnavailable; mu != nil {
				if errs2 := intOrPercent("spec.updateStrategy.rollingUpdate.maxUnavailable", mu, true); len(errs2) > 0 {
					errs = append(errs, errs2...)
				} else if n, _ := api.GetScaledValueFromIntOrPercent(mu, 100, false); n == 0 {
					errs = append(errs, apierr.FieldError{Field: "spec.updateStrategy.rollingUpdate.maxUnavailable", Type: "Invalid value", Value: mu.String(), Detail: "cannot be 0"})
				}
			}
		}
	default:
		errs = append(errs, apierr.FieldError{Field: "spec.updateStrategy", Type: "Invalid value", Value: st.Type, Detail: "must be 'RollingUpdate' or 'OnDelete'"})
	}
	if p := spec.PersistentVolumeClaimRetentionPolicy; p != nil {
		for _, f := range []struct{ name, v string }{{"whenDeleted", p.WhenDeleted}, {"whenScaled", p.WhenScaled}} {
			if f.v != api.RetainPersistentVolumeClaimRetentionPolicyType && f.v != api.DeletePersistentVolumeClaimRetentionPolicyType {
				errs = append(errs, apierr.FieldError{Field: "spec.persistentVolumeClaimRetentionPolicy." + f.name, Type: "Unsupported value", Value: f.v,
					Detail: quoted(api.RetainPersistentVolumeClaimRetentionPolicyType, api.DeletePersistentVolumeClaimRetentionPolicyType)})
			}
		}
	}
	errs = append(errs, validateReplicas("spec.replicas", spec.Replicas)...)
	errs = nonNegativeField("spec.minReadySeconds", int64(spec.MinReadySeconds), errs)
	if o := spec.Ordinals; o != nil {
		errs = nonNegativeField("spec.ordinals.start", int64(o.Start), errs)
	}
	errs = append(errs, validateSelector(spec.Selector, spec.Template.Labels, "statefulset", "")...)
	// The controller gives each pod a volume per claim template, which the
	// template's containers mount (upstream leaves the template's pod spec
	// unvalidated for that reason; the pods are validated when created).
	tmpl := spec.Template.Spec
	if len(spec.VolumeClaimTemplates) > 0 {
		tmpl.Volumes = slices.Clone(tmpl.Volumes)
		for _, c := range spec.VolumeClaimTemplates {
			if !slices.ContainsFunc(tmpl.Volumes, func(v api.Volume) bool { return v.Name == c.Name }) {
				tmpl.Volumes = append(tmpl.Volumes, api.Volume{Name: c.Name})
			}
		}
	}
	errs = append(errs, validatePodSpec("spec.template.spec", &tmpl)...)
	if rp := spec.Template.Spec.RestartPolicy; rp != "" && rp != api.RestartPolicyAlways {
		errs = append(errs, apierr.FieldError{Field: "spec.template.spec.restartPolicy", Type: "Unsupported value", Value: string(rp), Detail: `supported values: "Always"`})
	}
	if spec.Template.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, apierr.FieldError{Field: "spec.template.spec.activeDeadlineSeconds", Type: "Forbidden", Detail: "activeDeadlineSeconds in StatefulSet is not Supported"})
	}
	return errs
}

// validateClaimSpec is ValidatePersistentVolumeClaimSpec's rules: access
// modes, a positive storage request, a class name that is a DNS
// subdomain, a supported volume mode.
func validateClaimSpec(f string, spec *api.PersistentVolumeClaimSpec, errs []apierr.FieldError) []apierr.FieldError {
	if len(spec.AccessModes) == 0 {
		errs = append(errs, apierr.FieldError{Field: f + ".accessModes", Type: "Required value", Detail: "at least 1 access mode is required"})
	}
	errs = validateAccessModes(f, spec.AccessModes, errs)
	switch q, ok := spec.Resources.Requests[api.ResourceStorage]; {
	case !ok:
		errs = append(errs, apierr.FieldError{Field: f + ".resources[storage]", Type: "Required value"})
	case q.Cmp(api.Quantity{}) <= 0:
		errs = append(errs, apierr.FieldError{Field: f + ".resources[storage]", Type: "Invalid value", Value: q.String(), Detail: "must be greater than zero"})
	}
	// ValidateClassName (NameIsDNSSubdomain) of a non-empty class.
	if c := spec.StorageClassName; c != nil && *c != "" {
		if len(*c) > 253 {
			errs = append(errs, apierr.FieldError{Field: f + ".storageClassName", Type: "Invalid value", Value: *c, Detail: "must be no more than 253 characters"})
		}
		if !isDNS1123Subdomain(*c) {
			errs = append(errs, apierr.FieldError{Field: f + ".storageClassName", Type: "Invalid value", Value: *c, Detail: subdomainMsg})
		}
	}
	return validateVolumeMode(f, spec.VolumeMode, errs)
}

func validateAccessModes(f string, modes []string, errs []apierr.FieldError) []apierr.FieldError {
	for _, m := range modes {
		if !slices.Contains(supportedAccessModes, m) {
			errs = append(errs, apierr.FieldError{Field: f + ".accessModes", Type: "Unsupported value", Value: m, Detail: quoted(supportedAccessModes...)})
		}
	}
	return errs
}

func validateVolumeMode(f string, m *string, errs []apierr.FieldError) []apierr.FieldError {
	if m != nil && *m != api.VolumeModeBlock && *m != api.VolumeModeFilesystem {
		errs = append(errs, apierr.FieldError{Field: f + ".volumeMode", Type: "Unsupported value", Value: *m, Detail: quoted(api.VolumeModeBlock, api.VolumeModeFilesystem)})
	}
	return errs
}

// validatePVSpec is ValidatePersistentVolumeSpec's rules: access modes,
// a storage capacity, a reclaim policy, exactly one volume source.
func validatePVSpec(spec *api.PersistentVolumeSpec, errs []apierr.FieldError) []apierr.FieldError {
	if len(spec.AccessModes) == 0 {
		errs = append(errs, apierr.FieldError{Field: "spec.accessModes", Type: "Required value"})
	}
	errs = validateAccessModes("spec", spec.AccessModes, errs)
	if len(spec.Capacity) == 0 {
		errs = append(errs, apierr.FieldError{Field: "spec.capacity", Type: "Required value"})
	}
	if _, ok := spec.Capacity[api.ResourceStorage]; !ok || len(spec.Capacity) > 1 {
		errs = append(errs, apierr.FieldError{Field: "spec.capacity", Type: "Unsupported value", Value: spec.Capacity, Detail: `supported values: "storage"`})
	}
	switch p := spec.PersistentVolumeReclaimPolicy; p {
	case "", api.ReclaimDelete, api.ReclaimRecycle, api.ReclaimRetain:
	default:
		errs = append(errs, apierr.FieldError{Field: "spec.persistentVolumeReclaimPolicy", Type: "Unsupported value", Value: p, Detail: quoted(api.ReclaimDelete, api.ReclaimRecycle, api.ReclaimRetain)})
	}
	switch len(spec.Source) {
	case 0:
		errs = append(errs, apierr.FieldError{Field: "spec", Type: "Required value", Detail: "must specify a volume type"})
	case 1:
	default:
		errs = append(errs, apierr.FieldError{Field: "spec", Type: "Forbidden", Detail: "may not specify more than 1 volume type"})
	}
	if na := spec.NodeAffinity; na != nil && na.Required != nil && len(na.Required.NodeSelectorTerms) == 0 {
		errs = append(errs, apierr.FieldError{Field: "spec.nodeAffinity.required.nodeSelectorTerms", Type: "Required value", Detail: "must have at least one node selector term"})
	}
	return validateVolumeMode("spec", spec.VolumeMode, errs)
}

// validateStatefulSetUpdate is the end of ValidateStatefulSetUpdate: an
// update may change only replicas, ordinals, template, updateStrategy,
// persistentVolumeClaimRetentionPolicy and minReadySeconds; anything else
// in the spec (selector, serviceName, podManagementPolicy,
// revisionHistoryLimit, volumeClaimTemplates) is forbidden, reported once
// at spec.
func validateStatefulSetUpdate(s, old *api.StatefulSet, errs []apierr.FieldError) []apierr.FieldError {
	n, o := &s.Spec, &old.Spec
	same := n.ServiceName == o.ServiceName && n.PodManagementPolicy == o.PodManagementPolicy &&
		ptrEqual(n.RevisionHistoryLimit, o.RevisionHistoryLimit) && selectorEqual(n.Selector, o.Selector) &&
		(len(n.VolumeClaimTemplates) == 0 && len(o.VolumeClaimTemplates) == 0 || reflect.DeepEqual(n.VolumeClaimTemplates, o.VolumeClaimTemplates))
	if !same {
		errs = append(errs, apierr.FieldError{Field: "spec", Type: "Forbidden",
			Detail: "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"})
	}
	return errs
}

// ptrEqual reports whether a and b are both nil or point to equal values.
func ptrEqual[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}
