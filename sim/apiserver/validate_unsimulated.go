package apiserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// validateUnsimulated adds the rules of the kinds that are stored and not
// simulated, with Kubernetes' messages: k/k
// pkg/apis/networking/validation/validation.go (validateHTTPIngressPath,
// validateIngressBackend, ValidateNetworkPolicySpec) and
// pkg/apis/rbac/validation/validation.go (validatePolicyRule,
// ValidateRoleBinding, validateRoleBindingSubject).
func validateUnsimulated(obj api.Object, errs []apierr.FieldError) []apierr.FieldError {
	switch o := obj.(type) {
	case *api.Ingress:
		if b := o.Spec.DefaultBackend; b != nil {
			errs = validateIngressBackend("spec.defaultBackend", b, errs)
		}
		for i, r := range o.Spec.Rules {
			if r.HTTP == nil {
				continue
			}
			f := fmt.Sprintf("spec.rules[%d].http", i)
			if len(r.HTTP.Paths) == 0 {
				errs = append(errs, apierr.FieldError{Field: f + ".paths", Type: "Required value"})
			}
			for j, p := range r.HTTP.Paths {
				errs = validateIngressPath(fmt.Sprintf("%s.paths[%d]", f, j), &p, errs)
			}
		}
	case *api.NetworkPolicy:
		for i, r := range o.Spec.Ingress {
			for j := range r.Ports {
				errs = validateNetworkPolicyPort(fmt.Sprintf("spec.ingress[%d].ports[%d]", i, j), &r.Ports[j], errs)
			}
		}
		for i, r := range o.Spec.Egress {
			for j := range r.Ports {
				errs = validateNetworkPolicyPort(fmt.Sprintf("spec.egress[%d].ports[%d]", i, j), &r.Ports[j], errs)
			}
		}
		for i, t := range o.Spec.PolicyTypes {
			if t != "Ingress" && t != "Egress" {
				errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("spec.policyTypes[%d]", i), Type: "Unsupported value", Value: t, Detail: `supported values: "Egress", "Ingress"`})
			}
		}
	case *api.Role:
		errs = validatePolicyRules(o.Rules, true, errs)
	case *api.ClusterRole:
		errs = validatePolicyRules(o.Rules, false, errs)
	case *api.RoleBinding:
		errs = validateRoleRef(o.RoleRef, []string{"Role", "ClusterRole"}, errs)
		errs = validateSubjects(o.Subjects, true, errs)
	case *api.ClusterRoleBinding:
		errs = validateRoleRef(o.RoleRef, []string{"ClusterRole"}, errs)
		errs = validateSubjects(o.Subjects, false, errs)
	}
	return errs
}

// validateNetworkPolicyPort is ValidateNetworkPolicyPort: a supported
// protocol, a port number in range or a port name, an endPort only after
// a numeric port and not below it.
func validateNetworkPolicyPort(f string, p *api.NetworkPolicyPort, errs []apierr.FieldError) []apierr.FieldError {
	if pr := p.Protocol; pr != nil && *pr != "TCP" && *pr != "UDP" && *pr != "SCTP" {
		errs = append(errs, apierr.FieldError{Field: f + ".protocol", Type: "Unsupported value", Value: *pr, Detail: `supported values: "TCP", "UDP", "SCTP"`})
	}
	switch {
	case p.Port == nil:
		if p.EndPort != nil {
			errs = append(errs, apierr.FieldError{Field: f + ".endPort", Type: "Invalid value", Value: int64(*p.EndPort), Detail: "may not be specified when `port` is not specified"})
		}
	case p.Port.Type == api.IntOrStringInt:
		if !validPort(p.Port.IntVal) {
			errs = append(errs, apierr.FieldError{Field: f + ".port", Type: "Invalid value", Value: int64(p.Port.IntVal), Detail: portRange})
		}
		if e := p.EndPort; e != nil {
			if *e < p.Port.IntVal {
				errs = append(errs, apierr.FieldError{Field: f + ".endPort", Type: "Invalid value", Value: int64(p.Port.IntVal), Detail: "must be greater than or equal to `port`"})
			}
			if !validPort(*e) {
				errs = append(errs, apierr.FieldError{Field: f + ".endPort", Type: "Invalid value", Value: int64(*e), Detail: portRange})
			}
		}
	default:
		if p.EndPort != nil {
			errs = append(errs, apierr.FieldError{Field: f + ".endPort", Type: "Invalid value", Value: int64(*p.EndPort), Detail: "may not be specified when `port` is non-numeric"})
		}
		for _, msg := range portNameProblems(p.Port.StrVal) {
			errs = append(errs, apierr.FieldError{Field: f + ".port", Type: "Invalid value", Value: p.Port.StrVal, Detail: msg})
		}
	}
	return errs
}

func validateIngressPath(f string, p *api.HTTPIngressPath, errs []apierr.FieldError) []apierr.FieldError {
	if p.PathType == nil {
		return append(errs, apierr.FieldError{Field: f + ".pathType", Type: "Required value", Detail: "pathType must be specified"})
	}
	switch *p.PathType {
	case "Exact", "Prefix":
		if !strings.HasPrefix(p.Path, "/") {
			errs = append(errs, apierr.FieldError{Field: f + ".path", Type: "Invalid value", Value: p.Path, Detail: "must be an absolute path"})
		}
	case "ImplementationSpecific":
		if p.Path != "" && !strings.HasPrefix(p.Path, "/") {
			errs = append(errs, apierr.FieldError{Field: f + ".path", Type: "Invalid value", Value: p.Path, Detail: "must be an absolute path"})
		}
	default:
		errs = append(errs, apierr.FieldError{Field: f + ".pathType", Type: "Unsupported value", Value: *p.PathType, Detail: `supported values: "Exact", "ImplementationSpecific", "Prefix"`})
	}
	return validateIngressBackend(f+".backend", &p.Backend, errs)
}

func validateIngressBackend(f string, b *api.IngressBackend, errs []apierr.FieldError) []apierr.FieldError {
	switch {
	case b.Service != nil && b.Resource != nil:
		return append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: "", Detail: "cannot set both resource and service backends"})
	case b.Service == nil && b.Resource == nil:
		return append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: "", Detail: "resource or service backend is required"})
	case b.Service != nil:
		s := b.Service
		if s.Name == "" {
			errs = append(errs, apierr.FieldError{Field: f + ".service.name", Type: "Required value"})
		}
		switch {
		case s.Port.Name != "" && s.Port.Number != 0:
			errs = append(errs, apierr.FieldError{Field: f, Type: "Invalid value", Value: "", Detail: "cannot set both port name & port number"})
		case s.Port.Name == "" && s.Port.Number == 0:
			errs = append(errs, apierr.FieldError{Field: f, Type: "Required value", Detail: "port name or number is required"})
		case s.Port.Number != 0 && (s.Port.Number < 1 || s.Port.Number > 65535):
			errs = append(errs, apierr.FieldError{Field: f + ".service.port.number", Type: "Invalid value", Value: s.Port.Number, Detail: portRange})
		}
	}
	return errs
}

func validatePolicyRules(rules []api.PolicyRule, namespaced bool, errs []apierr.FieldError) []apierr.FieldError {
	for i, r := range rules {
		f := fmt.Sprintf("rules[%d]", i)
		if len(r.Verbs) == 0 {
			errs = append(errs, apierr.FieldError{Field: f + ".verbs", Type: "Required value", Detail: "verbs must contain at least one value"})
		}
		if len(r.NonResourceURLs) > 0 {
			urls := r.NonResourceURLs
			if namespaced {
				errs = append(errs, apierr.FieldError{Field: f + ".nonResourceURLs", Type: "Invalid value", Value: urls, Detail: "namespaced rules cannot apply to non-resource URLs"})
			}
			if len(r.APIGroups) > 0 || len(r.Resources) > 0 || len(r.ResourceNames) > 0 {
				errs = append(errs, apierr.FieldError{Field: f + ".nonResourceURLs", Type: "Invalid value", Value: urls, Detail: "rules cannot apply to both regular resources and non-resource URLs"})
			}
			continue
		}
		if len(r.APIGroups) == 0 {
			errs = append(errs, apierr.FieldError{Field: f + ".apiGroups", Type: "Required value", Detail: "resource rules must supply at least one api group"})
		}
		if len(r.Resources) == 0 {
			errs = append(errs, apierr.FieldError{Field: f + ".resources", Type: "Required value", Detail: "resource rules must supply at least one resource"})
		}
		if len(r.ResourceNames) > 0 && len(r.Resources) > 1 {
			errs = append(errs, apierr.FieldError{Field: f + ".resourceNames", Type: "Required value", Detail: "resource names cannot apply to multiple resources"})
		}
	}
	return errs
}

const rbacGroup = "rbac.authorization.k8s.io"

func validateRoleRef(ref api.RoleRef, kinds []string, errs []apierr.FieldError) []apierr.FieldError {
	if ref.APIGroup != rbacGroup {
		errs = append(errs, apierr.FieldError{Field: "roleRef.apiGroup", Type: "Unsupported value", Value: ref.APIGroup, Detail: `supported values: "` + rbacGroup + `"`})
	}
	if !slices.Contains(kinds, ref.Kind) {
		errs = append(errs, apierr.FieldError{Field: "roleRef.kind", Type: "Unsupported value", Value: ref.Kind, Detail: `supported values: "` + strings.Join(kinds, `", "`) + `"`})
	}
	if ref.Name == "" {
		errs = append(errs, apierr.FieldError{Field: "roleRef.name", Type: "Required value"})
	}
	return errs
}

func validateSubjects(subjects []api.Subject, namespaced bool, errs []apierr.FieldError) []apierr.FieldError {
	for i, s := range subjects {
		f := fmt.Sprintf("subjects[%d]", i)
		if s.Name == "" {
			errs = append(errs, apierr.FieldError{Field: f + ".name", Type: "Required value"})
		}
		switch s.Kind {
		case "ServiceAccount":
			if s.APIGroup != "" {
				errs = append(errs, apierr.FieldError{Field: f + ".apiGroup", Type: "Unsupported value", Value: s.APIGroup, Detail: `supported values: ""`})
			}
			if !namespaced && s.Namespace == "" {
				errs = append(errs, apierr.FieldError{Field: f + ".namespace", Type: "Required value"})
			}
		case "User", "Group":
			// rbac/v1 defaults an empty apiGroup of a User or Group to
			// rbac.authorization.k8s.io (SetDefaults_Subject).
			if s.APIGroup != "" && s.APIGroup != rbacGroup {
				errs = append(errs, apierr.FieldError{Field: f + ".apiGroup", Type: "Unsupported value", Value: s.APIGroup, Detail: `supported values: "` + rbacGroup + `"`})
			}
		default:
			errs = append(errs, apierr.FieldError{Field: f + ".kind", Type: "Unsupported value", Value: s.Kind, Detail: `supported values: "ServiceAccount", "User", "Group"`})
		}
	}
	return errs
}
