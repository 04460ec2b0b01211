package apiserver

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// The patterns of upstream's IsDNS1123Subdomain and IsDNS1123Label
// (k8s.io/apimachinery/pkg/util/validation/validation.go), matched by
// isDNS1123Subdomain and isDNS1123Label without a regexp: every write
// checks its object's name, and the regexp engine was 3% of a large
// run. TestDNS1123Matchers holds the functions to the patterns.
const (
	dns1123SubdomainPattern = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	dns1123LabelPattern     = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
)

// isDNS1123Label reports whether s matches dns1123LabelPattern: lower
// case alphanumerics and '-', starting and ending with an alphanumeric.
// (The length limits are the callers'.)
func isDNS1123Label(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
		case c == '-' && i > 0 && i < len(s)-1:
		default:
			return false
		}
	}
	return true
}

// isDNS1123Subdomain reports whether s matches dns1123SubdomainPattern:
// DNS-1123 labels joined by '.'.
func isDNS1123Subdomain(s string) bool {
	for {
		label, rest, more := strings.Cut(s, ".")
		if !isDNS1123Label(label) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// dns1123LabelProblems is IsDNS1123Label: at most 63 characters, and
// the pattern; nil (and nothing allocated) for a valid label.
func dns1123LabelProblems(s string) []string {
	var out []string
	if len(s) > 63 {
		out = append(out, "must be no more than 63 characters")
	}
	if !isDNS1123Label(s) {
		out = append(out, labelMsg)
	}
	return out
}

const (
	subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	labelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
)

// Validate checks an object as the API server's validation does before it
// is stored (after defaulting): names, labels, non-negative replicas, a
// Deployment's or ReplicaSet's selector matching its template, strategy,
// rolling-update fenceposts, history and deadline bounds, containers with
// names, images and pull policies, ports, resource quantities, HPA
// bounds, quota and ConfigMap sizes (validate_spec.go), a pod spec's
// tolerations, affinity and topology spread (validate_scheduling.go). old is the stored object for updates
// (nil on create). The error
// is a 422 Invalid status error listing every field error.
func Validate(obj, old api.Object) error {
	if obj == nil {
		return nil
	}
	m := obj.GetObjectMeta()
	// The object's metadata before its spec, as ValidateObjectMeta runs
	// first upstream.
	errs := validateObjectMeta(obj, old, nil)
	switch o := obj.(type) {
	case *api.Deployment:
		errs = append(errs, validateReplicas("spec.replicas", o.Spec.Replicas)...)
		errs = append(errs, validateSelector(o.Spec.Selector, o.Spec.Template.Labels, "deployment", "invalid label selector")...)
		errs = append(errs, validatePodSpec("spec.template.spec", &o.Spec.Template.Spec)...)
		errs = validateControllerTemplate("ReplicaSet", &o.Spec.Template.Spec, errs)
		if ru := o.Spec.Strategy.RollingUpdate; o.Spec.Strategy.Type == api.RollingUpdateDeploymentStrategyType && ru != nil {
			errs = append(errs, validateFenceposts(ru)...)
		}
		if o.Spec.Strategy.Type == api.RecreateDeploymentStrategyType && o.Spec.Strategy.RollingUpdate != nil {
			errs = append(errs, apierr.FieldError{Field: "spec.strategy.rollingUpdate", Type: "Forbidden", Detail: "may not be specified when strategy `type` is 'Recreate'"})
		}
		if old != nil {
			if od, ok := old.(*api.Deployment); ok && !selectorEqual(od.Spec.Selector, o.Spec.Selector) {
				errs = append(errs, apierr.FieldError{Field: "spec.selector", Type: "Invalid value", Value: o.Spec.Selector, Detail: "field is immutable"})
			}
		}
	case *api.ReplicaSet:
		errs = append(errs, validateReplicas("spec.replicas", o.Spec.Replicas)...)
		errs = append(errs, validateSelector(o.Spec.Selector, o.Spec.Template.Labels, "deployment", "invalid label selector")...)
		errs = append(errs, validatePodSpec("spec.template.spec", &o.Spec.Template.Spec)...)
		errs = validateControllerTemplate("ReplicaSet", &o.Spec.Template.Spec, errs)
	case *api.DaemonSet:
		errs = append(errs, validateDaemonSet(o, old)...)
	case *api.Pod:
		errs = append(errs, validatePodSpec("spec", &o.Spec)...)
	case *api.Service:
		was, _ := old.(*api.Service)
		errs = validateService(o, was, errs)
	}
	if old != nil {
		errs = validateDataUpdate(obj, old, errs)
		if s, ok := obj.(*api.StatefulSet); ok {
			if os, ok := old.(*api.StatefulSet); ok {
				errs = validateStatefulSetUpdate(s, os, errs)
			}
		}
	}
	errs = validateSpec(obj, errs)
	errs = validateUnsimulated(obj, errs)
	errs = validateBatch(obj, old, errs)
	errs = validateStorage(obj, errs)
	errs = validatePriorityClass(obj, old, errs)
	errs = validateDiscovery(obj, errs)
	if len(errs) == 0 {
		return nil
	}
	return apierr.NewInvalid(api.KindOf(obj).GroupKind(), m.Name, errs...)
}

// ValidateStatusUpdate checks a status write as a status strategy's
// ValidateUpdate does, by ValidateObjectMetaUpdate: the object's name,
// namespace, labels, annotations and finalizers. The spec is the stored
// one (store.ForStatus) and is not checked again, so that an object
// stored before a rule can still have its status written. The error is
// a 422 Invalid status error.
func ValidateStatusUpdate(obj, old api.Object) error {
	if obj == nil {
		return nil
	}
	errs := validateObjectMeta(obj, old, nil)
	if len(errs) == 0 {
		return nil
	}
	m := obj.GetObjectMeta()
	return apierr.NewInvalid(api.KindOf(obj).GroupKind(), m.Name, errs...)
}

// validateObjectMeta is ValidateObjectMeta's checks of obj's metadata
// on create (old nil): its name, namespace, labels, annotations and
// finalizers, appended to errs. On update it is
// ValidateObjectMetaUpdate's: the name and namespace are only kept (the
// store finds old by them, so they are old's, checked when old was
// created), and the labels, annotations and finalizers are checked
// unless they are old's (the same map or slice, or equal entries).
// What the store holds passed these checks when it was written (every
// write that sets metadata is validated), so checking old's again finds
// nothing: a pod's status write, whose metadata is the stored pod's,
// skips them all.
func validateObjectMeta(obj, old api.Object, errs []apierr.FieldError) []apierr.FieldError {
	m := obj.GetObjectMeta()
	if old == nil {
		errs = validateName(obj, m.Name, errs)
		if m.Namespace != "" && !isDNS1123Label(m.Namespace) {
			errs = append(errs, apierr.FieldError{Field: "metadata.namespace", Type: "Invalid value", Value: m.Namespace, Detail: labelMsg})
		}
	}
	var om *api.ObjectMeta
	if old != nil {
		om = old.GetObjectMeta()
	}
	if om == nil || !api.EqualEntries(m.Labels, om.Labels) {
		errs = validateLabels("metadata.labels", m.Labels, errs)
	}
	if om == nil || !api.EqualEntries(m.Annotations, om.Annotations) {
		errs = validateAnnotationKeys(m.Annotations, errs)
		errs = validateAnnotationsSize(m.Annotations, errs)
	}
	if om == nil || !(api.SameElements(m.Finalizers, om.Finalizers) || slices.Equal(m.Finalizers, om.Finalizers)) {
		errs = validateFinalizers(m.Finalizers, errs)
	}
	return errs
}

// dns1035LabelMsg is IsDNS1035Label's pattern message.
const dns1035LabelMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"

// dns1035LabelProblems is IsDNS1035Label: at most 63 characters, and
// the pattern; nil for a valid label.
func dns1035LabelProblems(s string) []string {
	var out []string
	if len(s) > 63 {
		out = append(out, "must be no more than 63 characters")
	}
	if !isDNS1123Label(s) || s[0] < 'a' || s[0] > 'z' {
		out = append(out, dns1035LabelMsg)
	}
	return out
}

// totalAnnotationSizeLimit is apimachinery's TotalAnnotationSizeLimitB:
// the most bytes an object's annotations, keys and values, may hold.
const totalAnnotationSizeLimit = 256 * (1 << 10)

// validateAnnotationKeys is the key half of ValidateAnnotations: every
// key a qualified name once lower-cased, reported in key order. The keys
// are sorted only when one is bad.
func validateAnnotationKeys(annotations map[string]string, errs []apierr.FieldError) []apierr.FieldError {
	bad := false
	for k := range annotations {
		if len(qualifiedNameProblems(strings.ToLower(k))) > 0 {
			bad = true
			break
		}
	}
	for _, k := range sortedKeysIf(bad, annotations) {
		for _, msg := range qualifiedNameProblems(strings.ToLower(k)) {
			errs = append(errs, apierr.FieldError{Field: "metadata.annotations", Type: "Invalid value", Value: k, Detail: msg})
		}
	}
	return errs
}

// validateAnnotationsSize refuses annotations whose keys and values add up
// to more than totalAnnotationSizeLimit bytes, as ValidateAnnotations
// does (ValidateAnnotationsSize, reported as field.TooLong).
func validateAnnotationsSize(annotations map[string]string, errs []apierr.FieldError) []apierr.FieldError {
	total := 0
	for k, v := range annotations {
		total += len(k) + len(v)
	}
	if total > totalAnnotationSizeLimit {
		errs = append(errs, apierr.FieldError{Field: "metadata.annotations", Type: "Too long",
			Detail: fmt.Sprintf("may not be more than %d bytes", totalAnnotationSizeLimit)})
	}
	return errs
}

// validateFinalizers checks each finalizer name as ValidateFinalizers
// does (ValidateFinalizerName): a qualified name, reported at
// metadata.finalizers as upstream reports it.
func validateFinalizers(finalizers []string, errs []apierr.FieldError) []apierr.FieldError {
	for _, f := range finalizers {
		for _, msg := range qualifiedNameProblems(f) {
			errs = append(errs, apierr.FieldError{Field: "metadata.finalizers", Type: "Invalid value", Value: f, Detail: msg})
		}
	}
	return errs
}

// validateName checks metadata.name with the rule of the object's kind
// (ValidateObjectMeta's nameFn): a DNS-1123 label for a Namespace
// (ValidateNamespaceName), a DNS-1035 label for a Service
// (ValidateServiceName), a DNS-1123 subdomain otherwise; a CronJob's name
// leaves room for its Jobs' suffix (at most 52 characters,
// ValidateCronJobCreate). Only a create's name is checked
// (validateObjectMeta), so that a CronJob with a longer name stored
// before the rule can still be updated.
func validateName(obj api.Object, name string, errs []apierr.FieldError) []apierr.FieldError {
	if name == "" {
		return errs
	}
	bad := func(detail string) {
		errs = append(errs, apierr.FieldError{Field: "metadata.name", Type: "Invalid value", Value: name, Detail: detail})
	}
	switch obj.(type) {
	case *api.Namespace, *api.StatefulSet:
		// ValidateStatefulSetName is NameIsDNSLabel since k/k PR #114172
		// (v1.27): the pods' hostnames are the set's name.
		for _, msg := range dns1123LabelProblems(name) {
			bad(msg)
		}
	case *api.Service:
		for _, msg := range dns1035LabelProblems(name) {
			bad(msg)
		}
	default:
		for _, msg := range dns1123SubdomainProblems(name) {
			bad(msg)
		}
		if _, ok := obj.(*api.CronJob); ok && len(name) > 52 {
			bad("must be no more than 52 characters")
		}
	}
	return errs
}

func validateReplicas(field string, r *int32) []apierr.FieldError {
	if r != nil && *r < 0 {
		return []apierr.FieldError{{Field: field, Type: "Invalid value", Value: int64(*r), Detail: "must be greater than or equal to 0"}}
	}
	return nil
}

// validateSelector is the selector part of ValidateDeploymentSpec,
// ValidateReplicaSetSpec and ValidateStatefulSetSpec (k/k
// pkg/apis/apps/validation): a selector is required, its keys and values
// are ValidateLabelSelector's, an empty one is refused ("empty selector
// is invalid for " what, "deployment" for a ReplicaSet too, as upstream
// says), one that does not convert is refused with invalidDetail ("invalid
// label selector"; a StatefulSet's says nothing), and the template's
// labels must match it (ValidatePodTemplateSpecForReplicaSet and
// ForStatefulSet; a missing selector, which converts to labels.Nothing,
// matches none).
func validateSelector(sel *api.LabelSelector, labels map[string]string, what, invalidDetail string) []apierr.FieldError {
	var errs []apierr.FieldError
	if sel == nil {
		errs = append(errs, apierr.FieldError{Field: "spec.selector", Type: "Required value"})
	} else {
		errs = validateLabelSelector(func() string { return "spec.selector" }, sel, errs)
		if len(sel.MatchLabels)+len(sel.MatchExpressions) == 0 {
			errs = append(errs, apierr.FieldError{Field: "spec.selector", Type: "Invalid value", Value: sel, Detail: "empty selector is invalid for " + what})
		}
	}
	s, err := api.LabelSelectorAsSelector(sel)
	if err != nil {
		return append(errs, apierr.FieldError{Field: "spec.selector", Type: "Invalid value", Value: sel, Detail: invalidDetail})
	}
	if !s.Empty() && !s.Matches(labels) {
		errs = append(errs, apierr.FieldError{Field: "spec.template.metadata.labels", Type: "Invalid value", Value: labels, Detail: "`selector` does not match template `labels`"})
	}
	return errs
}

func selectorString(sel *api.LabelSelector) string {
	s, err := api.LabelSelectorAsSelector(sel)
	if err != nil || sel == nil {
		return "<invalid>"
	}
	return s.String()
}

func selectorEqual(a, b *api.LabelSelector) bool {
	return selectorString(a) == selectorString(b)
}

func validateFenceposts(ru *api.RollingUpdateDeployment) []apierr.FieldError {
	var errs []apierr.FieldError
	check := func(field string, v *api.IntOrString) {
		errs = append(errs, intOrPercent(field, v, field == "spec.strategy.rollingUpdate.maxUnavailable")...)
	}
	check("spec.strategy.rollingUpdate.maxUnavailable", ru.MaxUnavailable)
	check("spec.strategy.rollingUpdate.maxSurge", ru.MaxSurge)
	if isZero(ru.MaxUnavailable) && isZero(ru.MaxSurge) {
		errs = append(errs, apierr.FieldError{Field: "spec.strategy.rollingUpdate.maxUnavailable", Type: "Invalid value", Value: ru.MaxUnavailable.String(), Detail: "may not be 0 when `maxSurge` is 0"})
	}
	return errs
}

func isZero(v *api.IntOrString) bool {
	if v == nil {
		return false
	}
	n, err := api.GetScaledValueFromIntOrPercent(v, 100, true)
	return err == nil && n == 0
}

func validatePodSpec(field string, spec *api.PodSpec) []apierr.FieldError {
	errs := validateVolumes(field, spec.Volumes, nil)
	if len(spec.Containers) == 0 {
		errs = append(errs, apierr.FieldError{Field: field + ".containers", Type: "Required value"})
	}
	var seen map[string]bool // the names before, once there are many
	for i := range spec.Containers {
		c := &spec.Containers[i]
		// The field is named only for an error (most specs have none).
		cf := func() string { return fmt.Sprintf("%s.containers[%d]", field, i) }
		if c.Name == "" {
			errs = append(errs, apierr.FieldError{Field: cf() + ".name", Type: "Required value"})
		} else {
			for _, msg := range dns1123LabelProblems(c.Name) {
				errs = append(errs, apierr.FieldError{Field: cf() + ".name", Type: "Invalid value", Value: c.Name, Detail: msg})
			}
			if isDNS1123Label(c.Name) && nameBefore(spec.Containers, i, &seen) {
				errs = append(errs, apierr.FieldError{Field: cf() + ".name", Type: "Duplicate value", Value: c.Name})
			}
		}
		if c.Image == "" {
			errs = append(errs, apierr.FieldError{Field: cf() + ".image", Type: "Required value"})
		}
		errs = validatePullPolicy(cf, c.ImagePullPolicy, errs)
		errs = validateContainerPortNames(cf, c.Ports, errs)
		errs = validateEnvNames(cf, c.Env, errs)
		errs = validateVolumeMounts(cf, c.VolumeMounts, spec.Volumes, errs)
		errs = validateLifecycleSleep(cf, c, spec.TerminationGracePeriodSeconds, errs)
		errs = validateProbes(cf, c, errs)
	}
	for i := range spec.InitContainers {
		cf := func() string { return fmt.Sprintf("%s.initContainers[%d]", field, i) }
		c := &spec.InitContainers[i]
		errs = validatePullPolicy(cf, c.ImagePullPolicy, errs)
		errs = validateContainerPortNames(cf, c.Ports, errs)
		errs = validateEnvNames(cf, c.Env, errs)
		errs = validateVolumeMounts(cf, c.VolumeMounts, spec.Volumes, errs)
	}
	// validateRestartPolicy: one of the three (an empty one is of an
	// object checked without defaults, and passes).
	switch spec.RestartPolicy {
	case api.RestartPolicyAlways, api.RestartPolicyOnFailure, api.RestartPolicyNever, "":
	default:
		errs = append(errs, apierr.FieldError{Field: field + ".restartPolicy", Type: "Unsupported value", Value: string(spec.RestartPolicy), Detail: `supported values: "Always", "OnFailure", "Never"`})
	}
	if a := spec.ActiveDeadlineSeconds; a != nil && (*a < 1 || *a > math.MaxInt32) {
		errs = append(errs, apierr.FieldError{Field: field + ".activeDeadlineSeconds", Type: "Invalid value", Value: *a, Detail: "must be between 1 and 2147483647, inclusive"})
	}
	return validatePlacement(field, spec, errs)
}

// validateControllerTemplate is the end of upstream's
// ValidatePodTemplateSpecForReplicaSet (Deployments and ReplicaSets, kind
// "ReplicaSet" in the message, as upstream words it for both) and of
// ValidateDaemonSetSpec (kind "DaemonSet"): the template's pods restart
// Always, have no activeDeadlineSeconds and no ephemeral containers. An empty restartPolicy is of
// an object checked without defaults, and passes.
func validateControllerTemplate(kind string, spec *api.PodSpec, errs []apierr.FieldError) []apierr.FieldError {
	if rp := spec.RestartPolicy; rp != "" && rp != api.RestartPolicyAlways {
		errs = append(errs, apierr.FieldError{Field: "spec.template.spec.restartPolicy", Type: "Unsupported value", Value: string(rp), Detail: `supported values: "Always"`})
	}
	if spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, apierr.FieldError{Field: "spec.template.spec.activeDeadlineSeconds", Type: "Forbidden", Detail: "activeDeadlineSeconds in " + kind + " is not Supported"})
	}
	// ValidatePodTemplateSpec: a template holds no ephemeral containers.
	if len(spec.EphemeralContainers) > 0 {
		errs = append(errs, apierr.FieldError{Field: "spec.template.spec.ephemeralContainers", Type: "Forbidden", Detail: "ephemeral containers not allowed in pod template"})
	}
	return errs
}

// validatePullPolicy is upstream's validatePullPolicy: cf names the
// container. Defaulting sets an empty policy from the image's tag before
// the API server validates; an empty one here is of an object checked
// without defaults, which upstream never validates, and passes.
func validatePullPolicy(cf func() string, p api.PullPolicy, errs []apierr.FieldError) []apierr.FieldError {
	switch p {
	case api.PullAlways, api.PullIfNotPresent, api.PullNever, "":
		return errs
	}
	return append(errs, apierr.FieldError{Field: cf() + ".imagePullPolicy", Type: "Unsupported value", Value: string(p), Detail: `supported values: "Always", "IfNotPresent", "Never"`})
}

// nameBefore reports whether a container before cs[i] has its name: by
// a scan for a few containers, by a set of the names (seen, built on
// first use) for many.
func nameBefore(cs []api.Container, i int, seen *map[string]bool) bool {
	const scan = 8
	if i <= scan {
		for j := range i {
			if cs[j].Name == cs[i].Name {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, len(cs))
		for j := range i {
			(*seen)[cs[j].Name] = true
		}
	}
	dup := (*seen)[cs[i].Name]
	(*seen)[cs[i].Name] = true
	return dup
}

// dns1123SubdomainProblems is util/validation's IsDNS1123Subdomain:
// more than 253 characters, then the pattern, each reported.
func dns1123SubdomainProblems(s string) []string {
	var out []string
	if len(s) > 253 {
		out = append(out, "must be no more than 253 characters")
	}
	if !isDNS1123Subdomain(s) {
		out = append(out, subdomainMsg)
	}
	return out
}
