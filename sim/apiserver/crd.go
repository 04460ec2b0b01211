package apiserver

import (
	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// validateKinds checks what only the server's registry can tell: a
// CustomResourceDefinition must be valid and must not redefine a served
// kind; a custom resource must match its definition's schema.
func (s *Server) validateKinds(a *Attributes) error {
	switch o := a.Object.(type) {
	case *api.CustomResourceDefinition:
		if err := ValidateDefinition(o); err != nil {
			return err
		}
		info := o.ResourceInfo()
		if prev, ok := s.store.Kinds().Lookup(info.Kind); ok && (!prev.Custom || a.Verb == Create) {
			return apierr.NewInvalid(api.KindCustomResourceDefinition.GroupKind(), o.Name, apierr.FieldError{Field: "spec.names.kind", Type: "Invalid value",
				Value: o.Spec.Names.Kind, Detail: "the kind " + info.Kind.GroupKind() + " is already served"})
		}
	case *api.Unstructured:
		crd, ok := s.crds[api.KindOf(o)]
		if !ok {
			return apierr.NewBadRequest("the server could not find the requested resource (kind " + o.Kind + ")")
		}
		return ValidateCustom(crd, o)
	}
	return nil
}

// established registers the kind a stored CustomResourceDefinition
// defines, so that its objects are served from now on, and marks it
// Established (the apiextensions controllers do both within moments; the
// simulator does them with the write). A later update of the definition
// replaces its schema and columns.
func (s *Server) established(crd *api.CustomResourceDefinition) error {
	info := crd.ResourceInfo()
	if err := s.store.Kinds().Register(info, crd.ServedAPIVersions()...); err != nil {
		return apierr.NewInvalid(api.KindCustomResourceDefinition.GroupKind(), crd.Name, apierr.FieldError{Field: "spec.names.kind", Type: "Invalid value", Value: crd.Spec.Names.Kind, Detail: err.Error()})
	}
	if s.crds == nil {
		s.crds = map[api.Kind]*api.CustomResourceDefinition{}
	}
	s.crds[info.Kind] = crd
	return nil
}

// Definition returns the CustomResourceDefinition that defines kind, or
// nil.
func (s *Server) Definition(kind api.Kind) *api.CustomResourceDefinition { return s.crds[kind] }

// definitionStatus is the status the apiextensions controllers give an
// accepted definition: NamesAccepted and Established true, the names in
// use and the storage version.
func definitionStatus(crd *api.CustomResourceDefinition, now api.Time) api.CustomResourceDefinitionStatus {
	names := crd.Spec.Names
	if names.Singular == "" {
		names.Singular = crd.ResourceInfo().Singular
	}
	if names.ListKind == "" {
		names.ListKind = names.Kind + "List"
	}
	st := api.CustomResourceDefinitionStatus{AcceptedNames: names, Conditions: []api.CustomResourceDefinitionCondition{
		{Type: "NamesAccepted", Status: "True", LastTransitionTime: now, Reason: "NoConflicts", Message: "no conflicts found"},
		{Type: "Established", Status: "True", LastTransitionTime: now, Reason: "InitialNamesAccepted", Message: "the initial names have been accepted"},
	}}
	if v, ok := crd.StorageVersion(); ok {
		st.StoredVersions = []string{v.Name}
	}
	return st
}
