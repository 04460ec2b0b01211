package scenarios

import (
	"fmt"
	"maps"
	"slices"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
)

// definitionWarnings names the schema keywords of a
// CustomResourceDefinition that the API server accepts and does not
// enforce (sim/apiserver's validator): validation rules
// (x-kubernetes-validations, CEL) and the allOf, oneOf, anyOf and not
// compositions. An object that breaks them is stored all the same, where
// Kubernetes would refuse it.
func definitionWarnings(file string, o api.Object) []Warning {
	crd, ok := o.(*api.CustomResourceDefinition)
	if !ok {
		return nil
	}
	var out []Warning
	var walk func(path string, s *api.JSONSchemaProps)
	walk = func(path string, s *api.JSONSchemaProps) {
		warn := func(field, why string) {
			out = append(out, Warning{File: file, Object: objectName(o), Field: path + "." + field, Msg: why})
		}
		if len(s.XValidations) > 0 {
			warn("x-kubernetes-validations", "validation rules (CEL) are not evaluated: an object that breaks them is stored")
		}
		for _, c := range []struct {
			name string
			set  bool
		}{{"allOf", len(s.AllOf) > 0}, {"oneOf", len(s.OneOf) > 0}, {"anyOf", len(s.AnyOf) > 0}, {"not", s.Not != nil}} {
			if c.set {
				warn(c.name, c.name+" is not checked: an object that breaks it is stored")
			}
		}
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			p := s.Properties[k]
			walk(path+".properties."+k, &p)
		}
		if s.Items != nil {
			walk(path+".items", s.Items)
		}
		if add := apiserver.AdditionalSchema(s.AdditionalProperties); add != nil {
			walk(path+".additionalProperties", add)
		}
	}
	for i, v := range crd.Spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			walk(fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i), v.Schema.OpenAPIV3Schema)
		}
	}
	return out
}
