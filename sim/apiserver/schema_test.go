package apiserver_test

import (
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/manifest"
)

// TestValidateCustom: each schema keyword rejects a bad value with
// Kubernetes' message (kube-openapi's text inside the field error that
// apiextensions-apiserver builds from it).
func TestValidateCustom(t *testing.T) {
	objs, err := manifest.DecodeFile("../../testdata/custom-resources/widgets-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crd := objs[0].(*api.CustomResourceDefinition)
	if err := apiserver.ValidateDefinition(crd); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		spec string
		want string // "" for valid
	}{
		{"valid", `{replicas: 3, size: big, owner: ops, ports: [1, 2], extra: {x: {y: 1}}}`, ""},
		{"maximum", `{replicas: 11}`, `Widget.example.com "w" is invalid: spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10`},
		{"minimum", `{replicas: 0}`, `Widget.example.com "w" is invalid: spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1`},
		{"required", `{size: big}`, `Widget.example.com "w" is invalid: spec.replicas: Required value`},
		{"type", `{replicas: "3"}`, `Widget.example.com "w" is invalid: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`},
		{"enum", `{replicas: 1, size: huge}`, `Widget.example.com "w" is invalid: spec.size: Unsupported value: "huge": supported values: "small", "big"`},
		{"minLength", `{replicas: 1, owner: a}`, `Widget.example.com "w" is invalid: spec.owner: Invalid value: "a": spec.owner in body should be at least 2 chars long`},
		{"maxLength", `{replicas: 1, owner: abcdefghijklmnopqrstu}`, `Widget.example.com "w" is invalid: spec.owner: Too long: may not be more than 20 bytes`},
		{"pattern", `{replicas: 1, owner: Ops}`, `Widget.example.com "w" is invalid: spec.owner: Invalid value: "Ops": spec.owner in body should match '^[a-z]+$'`},
		{"maxItems", `{replicas: 1, ports: [1, 2, 3, 4]}`, `Widget.example.com "w" is invalid: spec.ports: Too many: 4: must have at most 3 items`},
		{"items", `{replicas: 1, ports: [1, x]}`, `Widget.example.com "w" is invalid: spec.ports.1: Invalid value: "string": spec.ports.1 in body must be of type integer: "string"`},
		{"unknown field", `{replicas: 1, colour: red}`, `Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.colour"`},
		{"two errors", `{replicas: 12, size: huge}`, `Widget.example.com "w" is invalid: [spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 10, spec.size: Unsupported value: "huge": supported values: "small", "big"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := manifest.Decode("w.yaml", []byte("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: "+tc.spec+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			u, ok := objs[0].(*api.Unstructured)
			if !ok {
				t.Fatalf("decoded %T, want *api.Unstructured", objs[0])
			}
			got := ""
			if err := apiserver.ValidateCustom(crd, u); err != nil {
				got = err.Error()
			}
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestValidateDefinitionPatterns: a schema pattern that does not compile,
// at any depth, makes the definition invalid with the structural
// schema's message (it would otherwise check nothing); patterns that
// compile pass.
func TestValidateDefinitionPatterns(t *testing.T) {
	objs, err := manifest.DecodeFile("../../testdata/custom-resources/widgets-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crd := objs[0].(*api.CustomResourceDefinition)
	root := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
	spec := root.Properties["spec"]
	owner := spec.Properties["owner"]
	owner.Pattern = "([a-z"
	spec.Properties["owner"] = owner
	ports := spec.Properties["ports"]
	ports.Items.Pattern = "+"
	spec.Properties["ports"] = ports
	root.Properties["spec"] = spec
	want := "CustomResourceDefinition.apiextensions.k8s.io \"widgets.example.com\" is invalid: [" +
		"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[owner].pattern: Invalid value: \"([a-z\": must be a valid regular expression, but isn't: error parsing regexp: missing closing ]: `[a-z`, " +
		"spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[ports].items.pattern: Invalid value: \"+\": must be a valid regular expression, but isn't: error parsing regexp: missing argument to repetition operator: `+`]"
	if err := apiserver.ValidateDefinition(crd); err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}
