package apiserver

import (
	"fmt"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// The placement fields of a pod spec, checked as upstream's
// ValidatePodSpec checks them (k8s.io/kubernetes pkg/apis/core/validation:
// validateTolerations, validateAffinity, validateTopologySpreadConstraints;
// apimachinery's ValidateLabelSelector), with upstream's field paths and
// messages. The scheduler acts on these fields: a value the real API
// server refuses would otherwise place pods by a rule Kubernetes never
// runs (an operator it does not know, a spread of zero skew).

const (
	// notPositiveMsg is upstream's isNotPositiveErrorMsg.
	notPositiveMsg = "must be greater than zero"
	weightRangeMsg = "must be in the range 1-100"
	operatorMsg    = "not a valid selector operator"
)

// validateOperator checks a selector requirement's operator against its
// number of values (rf gives the requirement's path): In and NotIn need
// values, Exists and DoesNotExist take none, and a node selector's Gt
// and Lt (numeric) take one; any other operator is invalid. Upstream's
// ValidateLabelSelectorRequirement and ValidateNodeSelectorRequirement.
func validateOperator(rf func() string, op string, values int, numeric bool, errs []apierr.FieldError) []apierr.FieldError {
	switch {
	case op == "In" || op == "NotIn":
		if values == 0 {
			errs = append(errs, apierr.FieldError{Field: rf() + ".values", Type: "Required value", Detail: "must be specified when `operator` is 'In' or 'NotIn'"})
		}
	case op == "Exists" || op == "DoesNotExist":
		if values > 0 {
			errs = append(errs, apierr.FieldError{Field: rf() + ".values", Type: "Forbidden", Detail: "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"})
		}
	case numeric && (op == "Gt" || op == "Lt"):
		if values != 1 {
			errs = append(errs, apierr.FieldError{Field: rf() + ".values", Type: "Required value", Detail: "must be specified single value when `operator` is 'Lt' or 'Gt'"})
		}
	default:
		errs = append(errs, apierr.FieldError{Field: rf() + ".operator", Type: "Invalid value", Value: op, Detail: operatorMsg})
	}
	return errs
}

// validatePlacement checks spec's tolerations, affinity and topology
// spread constraints; field is the spec's path.
func validatePlacement(field string, spec *api.PodSpec, errs []apierr.FieldError) []apierr.FieldError {
	// Pods with affinity are written often too: the affinity's paths
	// are built only for an error, as the tolerations' are.
	if a := spec.Affinity; a != nil {
		if na := a.NodeAffinity; na != nil {
			errs = validateNodeAffinity(func() string { return field + ".affinity.nodeAffinity" }, na, errs)
		}
		if pa := a.PodAffinity; pa != nil {
			errs = validatePodAffinity(func() string { return field + ".affinity.podAffinity" }, pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, errs)
		}
		if pa := a.PodAntiAffinity; pa != nil {
			errs = validatePodAffinity(func() string { return field + ".affinity.podAntiAffinity" }, pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution, errs)
		}
	}
	// Every pod has tolerations (the DefaultTolerationSeconds
	// admission's two) and every pod write is validated: the paths of
	// these two are built only for an error.
	if len(spec.Tolerations) > 0 {
		errs = validateTolerations(field, spec.Tolerations, errs)
	}
	if len(spec.TopologySpreadConstraints) > 0 {
		errs = validateSpreadConstraints(field, spec.TopologySpreadConstraints, errs)
	}
	return errs
}

// validateNodeAffinity is upstream's validateNodeAffinity.
func validateNodeAffinity(f func() string, na *api.NodeAffinity, errs []apierr.FieldError) []apierr.FieldError {
	if ns := na.RequiredDuringSchedulingIgnoredDuringExecution; ns != nil {
		tf := func() string { return f() + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms" }
		if len(ns.NodeSelectorTerms) == 0 {
			errs = append(errs, apierr.FieldError{Field: tf(), Type: "Required value", Detail: "must have at least one node selector term"})
		}
		for i, t := range ns.NodeSelectorTerms {
			errs = validateNodeSelectorTerm(func() string { return fmt.Sprintf("%s[%d]", tf(), i) }, t, errs)
		}
	}
	for i, t := range na.PreferredDuringSchedulingIgnoredDuringExecution {
		tf := func() string { return fmt.Sprintf("%s.preferredDuringSchedulingIgnoredDuringExecution[%d]", f(), i) }
		errs = validateWeight(func() string { return tf() + ".weight" }, t.Weight, errs)
		errs = validateNodeSelectorTerm(func() string { return tf() + ".preference" }, t.Preference, errs)
	}
	return errs
}

func validateWeight(f func() string, w int32, errs []apierr.FieldError) []apierr.FieldError {
	if w <= 0 || w > 100 {
		errs = append(errs, apierr.FieldError{Field: f(), Type: "Invalid value", Value: int64(w), Detail: weightRangeMsg})
	}
	return errs
}

// validateNodeSelectorTerm is upstream's ValidateNodeSelectorTerm: label
// requirements, and field requirements on metadata.name.
func validateNodeSelectorTerm(f func() string, t api.NodeSelectorTerm, errs []apierr.FieldError) []apierr.FieldError {
	for j, r := range t.MatchExpressions {
		rf := func() string { return fmt.Sprintf("%s.matchExpressions[%d]", f(), j) }
		errs = validateOperator(rf, string(r.Operator), len(r.Values), true, errs)
		errs = validateLabelName(func() string { return rf() + ".key" }, r.Key, errs)
	}
	for j, r := range t.MatchFields {
		rf := fmt.Sprintf("%s.matchFields[%d]", f(), j)
		switch r.Operator {
		case api.NodeSelectorOpIn, api.NodeSelectorOpNotIn:
			if len(r.Values) != 1 {
				errs = append(errs, apierr.FieldError{Field: rf + ".values", Type: "Required value", Detail: "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"})
			}
		default:
			errs = append(errs, apierr.FieldError{Field: rf + ".operator", Type: "Invalid value", Value: string(r.Operator), Detail: operatorMsg})
		}
		if r.Key != "metadata.name" {
			errs = append(errs, apierr.FieldError{Field: rf + ".key", Type: "Invalid value", Value: r.Key, Detail: "not a valid field selector key"})
			continue
		}
		for k, v := range r.Values {
			for _, msg := range dns1123SubdomainProblems(v) {
				errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("%s.values[%d]", rf, k), Type: "Invalid value", Value: v, Detail: msg})
			}
		}
	}
	return errs
}

// validatePodAffinity is upstream's validatePodAffinity and
// validatePodAntiAffinity: required terms, then weighted ones.
func validatePodAffinity(f func() string, required []api.PodAffinityTerm, preferred []api.WeightedPodAffinityTerm, errs []apierr.FieldError) []apierr.FieldError {
	for i := range required {
		errs = validatePodAffinityTerm(func() string { return fmt.Sprintf("%s.requiredDuringSchedulingIgnoredDuringExecution[%d]", f(), i) }, &required[i], errs)
	}
	for i := range preferred {
		t := &preferred[i]
		tf := func() string { return fmt.Sprintf("%s.preferredDuringSchedulingIgnoredDuringExecution[%d]", f(), i) }
		errs = validateWeight(func() string { return tf() + ".weight" }, t.Weight, errs)
		errs = validatePodAffinityTerm(func() string { return tf() + ".podAffinityTerm" }, &t.PodAffinityTerm, errs)
	}
	return errs
}

// validatePodAffinityTerm is upstream's validatePodAffinityTerm: its
// selectors, namespaces and topology key.
func validatePodAffinityTerm(f func() string, t *api.PodAffinityTerm, errs []apierr.FieldError) []apierr.FieldError {
	errs = validateLabelSelector(func() string { return f() + ".labelSelector" }, t.LabelSelector, errs)
	errs = validateLabelSelector(func() string { return f() + ".namespaceSelector" }, t.NamespaceSelector, errs)
	for _, ns := range t.Namespaces {
		// ValidateNamespaceName: a length error gets its own message.
		for _, msg := range dns1123LabelProblems(ns) {
			errs = append(errs, apierr.FieldError{Field: f() + ".namespace", Type: "Invalid value", Value: ns, Detail: msg})
		}
	}
	if t.TopologyKey == "" {
		errs = append(errs, apierr.FieldError{Field: f() + ".topologyKey", Type: "Required value", Detail: "can not be empty"})
	}
	return validateLabelName(func() string { return f() + ".topologyKey" }, t.TopologyKey, errs)
}

// validateLabelSelector is apimachinery's ValidateLabelSelector (label
// values in selectors checked): its labels, then each requirement's
// operator and values, key, and values as label values.
func validateLabelSelector(f func() string, sel *api.LabelSelector, errs []apierr.FieldError) []apierr.FieldError {
	if sel == nil {
		return errs
	}
	// A spread constraint's selector is on every write of its pods:
	// its path is built only for an error (validatePlacement).
	if !labelsValid(sel.MatchLabels) {
		errs = validateLabels(f()+".matchLabels", sel.MatchLabels, errs)
	}
	for i, r := range sel.MatchExpressions {
		rf := func() string { return fmt.Sprintf("%s.matchExpressions[%d]", f(), i) }
		errs = validateOperator(rf, string(r.Operator), len(r.Values), false, errs)
		errs = validateLabelName(func() string { return rf() + ".key" }, r.Key, errs)
		for j, v := range r.Values {
			for _, msg := range labelValueProblems(v) {
				errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("%s.values[%d]", rf(), j), Type: "Invalid value", Value: v, Detail: msg})
			}
		}
	}
	return errs
}

// validateLabelName is ValidateLabelName: a qualified name.
func validateLabelName(f func() string, name string, errs []apierr.FieldError) []apierr.FieldError {
	for _, msg := range qualifiedNameProblems(name) {
		errs = append(errs, apierr.FieldError{Field: f(), Type: "Invalid value", Value: name, Detail: msg})
	}
	return errs
}

// labelValueProblems is IsValidLabelValue (content.IsLabelValue in
// apimachinery v0.37, api.LabelValueProblems).
func labelValueProblems(v string) []string { return api.LabelValueProblems(v) }

// validateTolerations is upstream's validateTolerations of the pod spec
// at field.
func validateTolerations(field string, ts []api.Toleration, errs []apierr.FieldError) []apierr.FieldError {
	for i := range ts {
		t := &ts[i]
		// The path is built only for an error (validatePlacement).
		at := func(leaf string) string { return fmt.Sprintf("%s.tolerations[%d].%s", field, i, leaf) }
		if t.Key != "" {
			for _, msg := range qualifiedNameProblems(t.Key) {
				errs = append(errs, apierr.FieldError{Field: at("key"), Type: "Invalid value", Value: t.Key, Detail: msg})
			}
		}
		if t.Key == "" && t.Operator != api.TolerationOpExists {
			errs = append(errs, apierr.FieldError{Field: at("operator"), Type: "Invalid value", Value: string(t.Operator),
				Detail: "operator must be Exists when `key` is empty, which means \"match all values and all keys\""})
		}
		if t.TolerationSeconds != nil && t.Effect != api.TaintEffectNoExecute {
			errs = append(errs, apierr.FieldError{Field: at("effect"), Type: "Invalid value", Value: string(t.Effect), Detail: "effect must be 'NoExecute' when `tolerationSeconds` is set"})
		}
		switch t.Operator {
		case api.TolerationOpEqual, "":
			// Upstream names the operator for a bad value.
			if msgs := labelValueProblems(t.Value); len(msgs) > 0 {
				errs = append(errs, apierr.FieldError{Field: at("operator"), Type: "Invalid value", Value: t.Value, Detail: strings.Join(msgs, ";")})
			}
		case api.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, apierr.FieldError{Field: at("operator"), Type: "Invalid value", Value: tolerationValue(t), Detail: "value must be empty when `operator` is 'Exists'"})
			}
		default:
			errs = append(errs, apierr.FieldError{Field: at("operator"), Type: "Unsupported value", Value: string(t.Operator), Detail: `supported values: "Equal", "Exists"`})
		}
		if t.Effect != "" {
			switch t.Effect {
			case api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute:
			default:
				errs = append(errs, apierr.FieldError{Field: at("effect"), Type: "Unsupported value", Value: string(t.Effect), Detail: `supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`})
			}
		}
	}
	return errs
}

// validateSpreadConstraints is upstream's
// validateTopologySpreadConstraints: skew, key, action, no repeated
// (key, action) pair, minDomains, the inclusion policies, the selector.
func validateSpreadConstraints(field string, cs []api.TopologySpreadConstraint, errs []apierr.FieldError) []apierr.FieldError {
	for i := range cs {
		c := &cs[i]
		// The path is built only for an error (validatePlacement).
		at := func(leaf string) string { return fmt.Sprintf("%s.topologySpreadConstraints[%d].%s", field, i, leaf) }
		if c.MaxSkew <= 0 {
			errs = append(errs, apierr.FieldError{Field: at("maxSkew"), Type: "Invalid value", Value: int64(c.MaxSkew), Detail: notPositiveMsg})
		}
		if c.TopologyKey == "" {
			errs = append(errs, apierr.FieldError{Field: at("topologyKey"), Type: "Required value", Detail: "can not be empty"})
		}
		if c.WhenUnsatisfiable != api.DoNotSchedule && c.WhenUnsatisfiable != api.ScheduleAnyway {
			errs = append(errs, apierr.FieldError{Field: at("whenUnsatisfiable"), Type: "Unsupported value", Value: string(c.WhenUnsatisfiable), Detail: `supported values: "DoNotSchedule", "ScheduleAnyway"`})
		}
		for _, d := range cs[i+1:] {
			if d.TopologyKey == c.TopologyKey && d.WhenUnsatisfiable == c.WhenUnsatisfiable {
				errs = append(errs, apierr.FieldError{Field: at("{topologyKey, whenUnsatisfiable}"), Type: "Duplicate value", Value: fmt.Sprintf("{%s, %s}", c.TopologyKey, c.WhenUnsatisfiable)})
				break
			}
		}
		if c.MinDomains != nil {
			if *c.MinDomains <= 0 {
				errs = append(errs, apierr.FieldError{Field: at("minDomains"), Type: "Invalid value", Value: int64(*c.MinDomains), Detail: notPositiveMsg})
			}
			if c.WhenUnsatisfiable != api.DoNotSchedule {
				errs = append(errs, apierr.FieldError{Field: at("minDomains"), Type: "Invalid value", Value: int64(*c.MinDomains),
					Detail: fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", api.DoNotSchedule, c.WhenUnsatisfiable)})
			}
		}
		errs = validateInclusionPolicy(at, "nodeAffinityPolicy", c.NodeAffinityPolicy, errs)
		errs = validateInclusionPolicy(at, "nodeTaintsPolicy", c.NodeTaintsPolicy, errs)
		errs = validateLabelSelector(func() string { return at("labelSelector") }, c.LabelSelector, errs)
	}
	return errs
}

func validateInclusionPolicy(at func(string) string, leaf string, p *api.NodeInclusionPolicy, errs []apierr.FieldError) []apierr.FieldError {
	if p == nil || *p == api.NodeInclusionPolicyHonor || *p == api.NodeInclusionPolicyIgnore {
		return errs
	}
	return append(errs, apierr.FieldError{Field: at(leaf), Type: "Unsupported value", Value: string(*p), Detail: `supported values: "Honor", "Ignore"`})
}
