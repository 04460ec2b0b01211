package apiserver_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/manifest"
)

// TestValidateCustom: each schema keyword rejects a bad value with
// Kubernetes' message (kube-openapi's text inside the field error that
// apiextensions-apiserver builds from it).
func TestValidateCustom(t *testing.T) {
	crd := loadDefinition(t, "../../testdata/custom-resources/widgets-crd.yaml")
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

// TestValidateDefinition: what apiextensions validation refuses in a
// definition is refused with its message, at the field upstream names.
func TestValidateDefinition(t *testing.T) {
	const prefix = `CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: `
	schema := func(crd *api.CustomResourceDefinition) *api.JSONSchemaProps {
		return crd.Spec.Versions[0].Schema.OpenAPIV3Schema
	}
	// property edits the schema of property name of spec.
	property := func(crd *api.CustomResourceDefinition, name string, edit func(*api.JSONSchemaProps)) {
		spec := schema(crd).Properties["spec"]
		p := spec.Properties[name]
		edit(&p)
		spec.Properties[name] = p
		schema(crd).Properties["spec"] = spec
	}
	tests := []struct {
		name string
		edit func(*api.CustomResourceDefinition)
		want string // "" for valid
	}{
		{"valid", func(*api.CustomResourceDefinition) {}, ""},
		{"unknown type", func(crd *api.CustomResourceDefinition) {
			property(crd, "size", func(p *api.JSONSchemaProps) { p.Type = "strnig" })
		}, `spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[size].type: Unsupported value: "strnig": supported values: "array", "boolean", "integer", "number", "object", "string"`},
		{"unknown type of items", func(crd *api.CustomResourceDefinition) {
			property(crd, "ports", func(p *api.JSONSchemaProps) { p.Items = &api.JSONSchemaProps{Type: "int"} })
		}, `spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[ports].items.type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`},
		{"unknown type at the root", func(crd *api.CustomResourceDefinition) { schema(crd).Type = "Object" },
			`spec.versions[0].schema.openAPIV3Schema.type: Unsupported value: "Object": supported values: "array", "boolean", "integer", "number", "object", "string"`},
		{"unknown type in additionalProperties", func(crd *api.CustomResourceDefinition) {
			property(crd, "extra", func(p *api.JSONSchemaProps) { p.AdditionalProperties = api.RawValue(`{"type":"map"}`) })
		}, `spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[extra].additionalProperties.type: Unsupported value: "map": supported values: "array", "boolean", "integer", "number", "object", "string"`},
		{"$ref", func(crd *api.CustomResourceDefinition) {
			ref := "#/definitions/x"
			property(crd, "owner", func(p *api.JSONSchemaProps) { *p = api.JSONSchemaProps{Ref: &ref} })
		}, `spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[owner].$ref: Forbidden: $ref is not supported`},
		{"no schema", func(crd *api.CustomResourceDefinition) { crd.Spec.Versions[0].Schema = nil },
			`spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required`},
		{"empty schema", func(crd *api.CustomResourceDefinition) { crd.Spec.Versions[0].Schema = &api.CustomResourceValidation{} },
			`spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required`},
		{"no schema in an unserved version", func(crd *api.CustomResourceDefinition) {
			crd.Spec.Versions = append(crd.Spec.Versions, api.CustomResourceDefinitionVersion{Name: "v2"})
		}, `spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required`},
		{"version name not a DNS-1035 label", func(crd *api.CustomResourceDefinition) { crd.Spec.Versions[0].Name = "V 1!" },
			`spec.versions[0].name: Invalid value: "V 1!": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`},
		{"version name starting with a digit", func(crd *api.CustomResourceDefinition) { crd.Spec.Versions[0].Name = "1v" },
			`spec.versions[0].name: Invalid value: "1v": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`},
		{"version name too long", func(crd *api.CustomResourceDefinition) { crd.Spec.Versions[0].Name = "v" + strings.Repeat("1", 63) },
			`spec.versions[0].name: Invalid value: "v` + strings.Repeat("1", 63) + `": must be no more than 63 characters`},
		{"version name v1beta1", func(crd *api.CustomResourceDefinition) { crd.Spec.Versions[0].Name = "v1beta1" }, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := manifest.DecodeFile("../../testdata/custom-resources/widgets-crd.yaml")
			if err != nil {
				t.Fatal(err)
			}
			crd := objs[0].(*api.CustomResourceDefinition)
			tc.edit(crd)
			want := tc.want
			if want != "" {
				want = prefix + want
			}
			got := ""
			if err := apiserver.ValidateDefinition(crd); err != nil {
				got = err.Error()
			}
			if got != want {
				t.Errorf("got  %s\nwant %s", got, want)
			}
		})
	}
}

// loadDefinition reads the CustomResourceDefinition at path and checks
// that it is valid.
func loadDefinition(t *testing.T, path string) *api.CustomResourceDefinition {
	t.Helper()
	objs, err := manifest.DecodeFile(path)
	if err != nil {
		t.Fatal(err)
	}
	crd := objs[0].(*api.CustomResourceDefinition)
	if err := apiserver.ValidateDefinition(crd); err != nil {
		t.Fatal(err)
	}
	return crd
}

// TestDefaultCustom: a custom resource takes its schema's defaults as
// apiextensions-apiserver's structural defaulting sets them (absent
// properties, non-nullable nulls, inside a default just added, list items
// and additionalProperties values), and the defaulted object validates
// where the bare one would not (a required property with a default).
func TestDefaultCustom(t *testing.T) {
	crd := loadDefinition(t, "../../testdata/custom-resources/gadgets-crd.yaml")
	tests := []struct {
		name, spec string
		want       string // the defaulted object's fields, as JSON
	}{
		{"all absent", `{}`,
			`{"spec":{"note":"none","replicas":1,"strategy":{"maxSurge":1,"type":"Rolling"},"tier":"free"}}`},
		{"explicit values kept", `{replicas: 3, tier: pro, note: x, strategy: {type: Recreate}}`,
			`{"spec":{"note":"x","replicas":3,"strategy":{"maxSurge":1,"type":"Recreate"},"tier":"pro"}}`},
		{"null where not nullable takes the default, nullable null kept", `{replicas: null, note: null}`,
			`{"spec":{"note":null,"replicas":1,"strategy":{"maxSurge":1,"type":"Rolling"},"tier":"free"}}`},
		{"list items", `{ports: [{port: 80}, {port: 53, protocol: UDP}]}`,
			`{"spec":{"note":"none","ports":[{"port":80,"protocol":"TCP"},{"port":53,"protocol":"UDP"}],"replicas":1,"strategy":{"maxSurge":1,"type":"Rolling"},"tier":"free"}}`},
		{"additionalProperties values", `{limits: {cpu: {}, mem: {max: 3}}}`,
			`{"spec":{"limits":{"cpu":{"max":10},"mem":{"max":3}},"note":"none","replicas":1,"strategy":{"maxSurge":1,"type":"Rolling"},"tier":"free"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			objs, err := manifest.Decode("g.yaml", []byte("apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: "+tc.spec+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			u := objs[0].(*api.Unstructured)
			apiserver.DefaultCustom(crd, u)
			got, err := json.Marshal(u.Fields)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if err := apiserver.ValidateCustom(crd, u); err != nil {
				t.Errorf("defaulted object invalid: %v", err)
			}
		})
	}
	// No spec: nothing declares a default for spec itself, so nothing
	// inside it is set.
	u := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Gadget"}, ObjectMeta: api.ObjectMeta{Name: "g"}}
	apiserver.DefaultCustom(crd, u)
	if u.Fields != nil {
		t.Errorf("an object without spec got fields %v", u.Fields)
	}
}
