package apiserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// ValidateCustom validates a custom resource against the definition of its
// kind: the version must be served, and the content must match the
// version's openAPIV3Schema. Errors carry Kubernetes' messages: the
// schema errors of k8s.io/kube-openapi/pkg/validation/errors (schema.go:
// "spec.replicas in body should be less than or equal to 10") turned into
// field errors as apiextensions-apiserver's kubeOpenAPIResultToFieldErrors
// does (pkg/apiserver/validation/validation.go): Required value,
// Unsupported value for enums, Too long for maxLength, Too many for
// maxItems, Invalid value for the rest. A field the schema does not
// declare (and no x-kubernetes-preserve-unknown-fields allows) is
// rejected as strict field validation rejects it (`unknown field
// "spec.foo"`), never silently pruned.
func ValidateCustom(crd *api.CustomResourceDefinition, u *api.Unstructured) error {
	kind := api.KindOf(u)
	v := servedVersion(crd, u)
	if v == nil {
		return &api.UnknownKindError{APIVersion: u.APIVersion, Kind: u.Kind}
	}
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return nil
	}
	var sv schemaValidator
	sv.object("", v.Schema.OpenAPIV3Schema, map[string]any(u.Fields), true)
	if len(sv.unknown) > 0 {
		causes := make([]apierr.FieldError, len(sv.unknown))
		for i, f := range sv.unknown {
			causes[i] = apierr.FieldError{Field: f, Type: "Unknown field"}
		}
		// k8s.io/apimachinery's strict decoding error, as the server
		// returns it under fieldValidation=Strict (kubectl's default).
		se := CannotBeHandled(u.Kind, u.APIVersion, u.Kind, StrictDecodingError(UnknownMessages(sv.unknown)))
		se.Causes = causes
		return se
	}
	if len(sv.errs) == 0 {
		return nil
	}
	return apierr.NewInvalid(kind.GroupKind(), u.Name, sv.errs...)
}

// servedVersion returns the served version of crd that u is written in,
// or nil.
func servedVersion(crd *api.CustomResourceDefinition, u *api.Unstructured) *api.CustomResourceDefinitionVersion {
	version := strings.TrimPrefix(u.APIVersion, crd.Spec.Group+"/")
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == version && crd.Spec.Versions[i].Served {
			return &crd.Spec.Versions[i]
		}
	}
	return nil
}

// DefaultCustom sets in u the defaults its version's openAPIV3Schema
// declares, as apiextensions-apiserver does to every request it decodes
// before validating it (pkg/apiserver/schema/defaulting/algorithm.go,
// Default): in each object, a declared property that is absent, or null
// where its schema is not nullable, takes a copy of its schema's default;
// then each property (an added default included), additionalProperties
// value and list item is defaulted by its own schema. apiVersion, kind and
// metadata are left alone. An unserved version has nothing to default
// (ValidateCustom refuses it).
func DefaultCustom(crd *api.CustomResourceDefinition, u *api.Unstructured) {
	v := servedVersion(crd, u)
	if v == nil || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return
	}
	if u.Fields == nil {
		u.Fields = map[string]any{}
	}
	defaultObject(u.Fields, v.Schema.OpenAPIV3Schema, true)
	if len(u.Fields) == 0 {
		u.Fields = nil
	}
}

// defaultObject defaults the properties of object m by schema s (at the
// root, all but apiVersion, kind and metadata), then the values inside
// them.
func defaultObject(m map[string]any, s *api.JSONSchemaProps, root bool) {
	for k, p := range s.Properties {
		if !root || (k != "apiVersion" && k != "kind" && k != "metadata") {
			defaultProperty(m, k, &p)
		}
	}
	add, _ := additionalSchema(s.AdditionalProperties)
	for k, v := range m {
		if p, ok := s.Properties[k]; ok {
			defaultValue(v, &p)
		} else if add != nil {
			defaultProperty(m, k, add)
			defaultValue(m[k], add)
		}
	}
}

// defaultProperty sets m[k] to a copy of s's default when m has no value
// for k, or a null that s does not allow.
func defaultProperty(m map[string]any, k string, s *api.JSONSchemaProps) {
	if len(s.Default) == 0 {
		return
	}
	if v, ok := m[k]; ok && (v != nil || s.Nullable) {
		return
	}
	if d, ok := decodeDefault(s.Default); ok {
		m[k] = d
	}
}

// defaultValue defaults the objects and lists inside x by schema s.
func defaultValue(x any, s *api.JSONSchemaProps) {
	switch x := x.(type) {
	case map[string]any:
		defaultObject(x, s, false)
	case []any:
		if s.Items == nil {
			return
		}
		for i, v := range x {
			if v == nil && !s.Items.Nullable && len(s.Items.Default) > 0 {
				if d, ok := decodeDefault(s.Items.Default); ok {
					x[i] = d
				}
			}
			defaultValue(x[i], s.Items)
		}
	}
}

// decodeDefault decodes a schema's default as an unstructured object's
// values are decoded (numbers as int64 or float64), a fresh copy each
// time.
func decodeDefault(raw api.RawValue) (any, bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, false
	}
	return api.Normalize(v), true
}

type schemaValidator struct {
	errs    []apierr.FieldError
	unknown []string
}

func child(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// typeName is the OpenAPI type of a decoded JSON value.
func typeName(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case int64, uint64:
		return "integer"
	case float64:
		if v == math.Trunc(v) && !math.IsInf(v, 0) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func typeMatches(want, got string) bool {
	return want == got || want == "number" && got == "integer"
}

func (sv *schemaValidator) invalid(path string, value any, format string, args ...any) {
	sv.errs = append(sv.errs, apierr.FieldError{Field: path, Type: "Invalid value", Value: value, Detail: fmt.Sprintf(format, args...)})
}

// value validates v at path against s.
func (sv *schemaValidator) value(path string, s *api.JSONSchemaProps, v any) {
	got := typeName(v)
	if v == nil {
		if s.Nullable || s.Type == "" {
			return
		}
	}
	switch {
	case s.XIntOrString:
		if got != "integer" && got != "string" {
			sv.errs = append(sv.errs, apierr.FieldError{Field: path, Type: "Invalid value", Value: got,
				Detail: fmt.Sprintf("%s in body must be of type integer,string: %q", path, got)})
			return
		}
	case s.Type != "" && !typeMatches(s.Type, got):
		// kube-openapi's typeFailWithData, as field.TypeInvalid.
		sv.errs = append(sv.errs, apierr.FieldError{Field: path, Type: "Invalid value", Value: got,
			Detail: fmt.Sprintf("%s in body must be of type %s: %q", path, s.Type, got)})
		return
	}
	if len(s.Enum) > 0 && !inEnum(s.Enum, v) {
		values := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			var x any
			if err := json.Unmarshal(e, &x); err == nil {
				if str, ok := x.(string); ok {
					values[i] = strconv.Quote(str)
					continue
				}
			}
			values[i] = strconv.Quote(string(e))
		}
		sv.errs = append(sv.errs, apierr.FieldError{Field: path, Type: "Unsupported value", Value: v, Detail: "supported values: " + strings.Join(values, ", ")})
	}
	switch v := v.(type) {
	case map[string]any:
		sv.object(path, s, v, false)
	case []any:
		sv.array(path, s, v)
	case string:
		n := int64(utf8.RuneCountInString(v))
		if s.MaxLength != nil && n > *s.MaxLength {
			sv.errs = append(sv.errs, apierr.FieldError{Field: path, Type: "Too long", Detail: fmt.Sprintf("may not be more than %d bytes", *s.MaxLength)})
		}
		if s.MinLength != nil && n < *s.MinLength {
			sv.invalid(path, v, "%s in body should be at least %d chars long", path, *s.MinLength)
		}
		if s.Pattern != "" {
			if re, err := compiledPattern(s.Pattern); err == nil && !re.MatchString(v) {
				sv.invalid(path, v, "%s in body should match '%s'", path, s.Pattern)
			}
		}
	case int64, float64, uint64:
		f := toFloat(v)
		if s.Maximum != nil {
			if s.ExclusiveMaximum && f >= *s.Maximum {
				sv.invalid(path, v, "%s in body should be less than %v", path, *s.Maximum)
			} else if !s.ExclusiveMaximum && f > *s.Maximum {
				sv.invalid(path, v, "%s in body should be less than or equal to %v", path, *s.Maximum)
			}
		}
		if s.Minimum != nil {
			if s.ExclusiveMinimum && f <= *s.Minimum {
				sv.invalid(path, v, "%s in body should be greater than %v", path, *s.Minimum)
			} else if !s.ExclusiveMinimum && f < *s.Minimum {
				sv.invalid(path, v, "%s in body should be greater than or equal to %v", path, *s.Minimum)
			}
		}
		if s.MultipleOf != nil && *s.MultipleOf != 0 {
			if q := f / *s.MultipleOf; q != math.Trunc(q) {
				sv.invalid(path, v, "%s in body should be a multiple of %v", path, *s.MultipleOf)
			}
		}
	}
}

func toFloat(v any) float64 {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case uint64:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

func inEnum(enum []api.RawValue, v any) bool {
	got, err := json.Marshal(v)
	if err != nil {
		return false
	}
	for _, e := range enum {
		var x any
		if json.Unmarshal(e, &x) != nil {
			continue
		}
		want, _ := json.Marshal(api.Normalize(x))
		if string(want) == string(got) {
			return true
		}
	}
	return false
}

// object validates an object's required and declared properties; root
// skips apiVersion, kind and metadata, which the server owns.
func (sv *schemaValidator) object(path string, s *api.JSONSchemaProps, m map[string]any, root bool) {
	for _, r := range s.Required {
		if root && serverKey(r) {
			continue
		}
		if _, ok := m[r]; !ok {
			sv.errs = append(sv.errs, apierr.FieldError{Field: child(path, r), Type: "Required value"})
		}
	}
	ks := keySchemasOf(s)
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if root && serverKey(k) {
			continue
		}
		p := child(path, k)
		switch sub, declared := ks.of(k); {
		case sub != nil:
			sv.value(p, sub, m[k])
		case !declared:
			sv.unknown = append(sv.unknown, p)
		}
	}
}

// serverKey reports whether k, a key at a custom resource's root, is the
// server's (apiVersion, kind, metadata), which its schema does not
// describe.
func serverKey(k string) bool { return k == "apiVersion" || k == "kind" || k == "metadata" }

// keySchemas is what an object's schema says of its keys. ValidateCustom
// and PruneCustom both read an object's keys through it, so that what
// one refuses as unknown the other prunes.
type keySchemas struct {
	s          *api.JSONSchemaProps
	additional *api.JSONSchemaProps // additionalProperties' schema
	anyKey     bool                 // x-kubernetes-preserve-unknown-fields, or additionalProperties: true
}

func keySchemasOf(s *api.JSONSchemaProps) keySchemas {
	additional, allowAny := additionalSchema(s.AdditionalProperties)
	preserve := s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
	return keySchemas{s: s, additional: additional, anyKey: preserve || allowAny}
}

// of returns the schema of key k's value (its property's, else
// additionalProperties'), and whether the schema declares the key: a key
// with no schema is declared when any key is allowed, and is an unknown
// field otherwise.
func (ks keySchemas) of(k string) (sub *api.JSONSchemaProps, declared bool) {
	if ps, ok := ks.s.Properties[k]; ok {
		return &ps, true
	}
	if ks.additional != nil {
		return ks.additional, true
	}
	return nil, ks.anyKey
}

// AdditionalSchema returns the schema an additionalProperties value gives
// (nil for none, true or false).
func AdditionalSchema(raw api.RawValue) *api.JSONSchemaProps {
	s, _ := additionalSchema(raw)
	return s
}

// additionalSchema reads additionalProperties: a schema, or true (any
// property allowed).
func additionalSchema(raw api.RawValue) (*api.JSONSchemaProps, bool) {
	if len(raw) == 0 {
		return nil, false
	}
	if string(raw) == "true" {
		return nil, true
	}
	if string(raw) == "false" {
		return nil, false
	}
	var s api.JSONSchemaProps
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false
	}
	return &s, false
}

func (sv *schemaValidator) array(path string, s *api.JSONSchemaProps, a []any) {
	n := int64(len(a))
	if s.MaxItems != nil && n > *s.MaxItems {
		sv.errs = append(sv.errs, apierr.FieldError{Field: path, Type: "Too many", Value: n, Detail: fmt.Sprintf("must have at most %d items", *s.MaxItems)})
	}
	if s.MinItems != nil && n < *s.MinItems {
		sv.invalid(path, n, "%s in body should have at least %d items", path, *s.MinItems)
	}
	if s.Items == nil {
		return
	}
	for i, e := range a {
		// go-openapi names list elements "path.i".
		sv.value(path+"."+strconv.Itoa(i), s.Items, e)
	}
}

// patterns caches compiled schema patterns; several simulations may run
// side by side, so it is a sync.Map.
var patterns sync.Map // string -> *regexp.Regexp

func compiledPattern(p string) (*regexp.Regexp, error) {
	if re, ok := patterns.Load(p); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	patterns.Store(p, re)
	return re, nil
}

// ValidateDefinition checks a CustomResourceDefinition the way the
// apiextensions strategy does, for the fields the simulator relies on
// (k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation).
func ValidateDefinition(crd *api.CustomResourceDefinition) error {
	var errs []apierr.FieldError
	sp := &crd.Spec
	req := func(f, v string) {
		if v == "" {
			errs = append(errs, apierr.FieldError{Field: f, Type: "Required value"})
		}
	}
	req("spec.group", sp.Group)
	req("spec.names.plural", sp.Names.Plural)
	req("spec.names.kind", sp.Names.Kind)
	if sp.Group != "" && !strings.Contains(sp.Group, ".") {
		errs = append(errs, apierr.FieldError{Field: "spec.group", Type: "Invalid value", Value: sp.Group, Detail: "should be a domain with at least one dot"})
	}
	if want := sp.Names.Plural + "." + sp.Group; sp.Names.Plural != "" && sp.Group != "" && crd.Name != want {
		errs = append(errs, apierr.FieldError{Field: "metadata.name", Type: "Invalid value", Value: crd.Name, Detail: fmt.Sprintf("must be spec.names.plural+\".\"+spec.group")})
	}
	if sp.Scope != "Namespaced" && sp.Scope != "Cluster" {
		errs = append(errs, apierr.FieldError{Field: "spec.scope", Type: "Unsupported value", Value: sp.Scope, Detail: `supported values: "Cluster", "Namespaced"`})
	}
	// apiextensions.k8s.io/v1 requires every version's schema
	// (validationOptions.requireOpenAPISchema on create).
	for i, v := range sp.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i), Type: "Required value", Detail: "schemas are required"})
		}
	}
	storage := 0
	for i, v := range sp.Versions {
		req(fmt.Sprintf("spec.versions[%d].name", i), v.Name)
		if problems := dns1035LabelProblems(v.Name); v.Name != "" && len(problems) > 0 {
			errs = append(errs, apierr.FieldError{Field: fmt.Sprintf("spec.versions[%d].name", i), Type: "Invalid value", Value: v.Name, Detail: strings.Join(problems, ",")})
		}
		if v.Storage {
			storage++
		}
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			errs = validateSchema(fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i), v.Schema.OpenAPIV3Schema, errs)
		}
	}
	switch {
	case len(sp.Versions) == 0:
		// Upstream passes spec.Versions: null when absent, [] when empty.
		var v any
		if sp.Versions != nil {
			v = apierr.Literal("[]")
		}
		errs = append(errs, apierr.FieldError{Field: "spec.versions", Type: "Invalid value", Value: v, Detail: "must have exactly one version marked as storage version"})
	case storage != 1:
		// Upstream passes spec.Versions, printed as the JSON of its
		// internal apiextensions types (Go field names, the whole
		// JSONSchemaProps of each schema), which is not mirrored here:
		// the number of storage versions stands in for it.
		errs = append(errs, apierr.FieldError{Field: "spec.versions", Type: "Invalid value", Value: apierr.Literal(fmt.Sprintf("%d", storage)), Detail: "must have exactly one version marked as storage version"})
	}
	if len(errs) == 0 {
		return nil
	}
	return apierr.NewInvalid(api.KindCustomResourceDefinition.GroupKind(), crd.Name, errs...)
}

// openAPIV3Types are the types a CustomResourceDefinition's schema may
// name (apiextensions validation's openapiV3Types), sorted as upstream
// lists them.
var openAPIV3Types = []string{"array", "boolean", "integer", "number", "object", "string"}

// validateSchema checks the schema at path, and the schemas nested in it,
// as apiextensions validation does for the keywords the simulator reads
// (ValidateCustomResourceDefinitionOpenAPISchema and
// specStandardValidatorV3): a type must be an OpenAPI v3 type
// ("Unsupported value", where the simulator would otherwise blame every
// custom resource for a typo in its definition), $ref is forbidden (a
// structural schema has no references; the simulator would ignore it),
// and a pattern must
// compile (the structural schema's "must be a valid regular expression,
// but isn't": a pattern that does not compile would check nothing).
func validateSchema(path string, s *api.JSONSchemaProps, errs []apierr.FieldError) []apierr.FieldError {
	if s.Type != "" && !slices.Contains(openAPIV3Types, s.Type) {
		errs = append(errs, apierr.FieldError{Field: path + ".type", Type: "Unsupported value", Value: s.Type,
			Detail: "supported values: " + quoteAll(openAPIV3Types)})
	}
	if s.Ref != nil {
		errs = append(errs, apierr.FieldError{Field: path + ".$ref", Type: "Forbidden", Detail: "$ref is not supported"})
	}
	if s.Pattern != "" {
		if _, err := regexp.Compile(s.Pattern); err != nil {
			errs = append(errs, apierr.FieldError{Field: path + ".pattern", Type: "Invalid value", Value: s.Pattern,
				Detail: fmt.Sprintf("must be a valid regular expression, but isn't: %v", err)})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[name]
		errs = validateSchema(fmt.Sprintf("%s.properties[%s]", path, name), &p, errs)
	}
	if s.Items != nil {
		errs = validateSchema(path+".items", s.Items, errs)
	}
	for _, list := range []struct {
		name    string
		schemas []api.JSONSchemaProps
	}{{"allOf", s.AllOf}, {"anyOf", s.AnyOf}, {"oneOf", s.OneOf}} {
		for i := range list.schemas {
			errs = validateSchema(fmt.Sprintf("%s.%s[%d]", path, list.name, i), &list.schemas[i], errs)
		}
	}
	if s.Not != nil {
		errs = validateSchema(path+".not", s.Not, errs)
	}
	if add := AdditionalSchema(s.AdditionalProperties); add != nil {
		errs = validateSchema(path+".additionalProperties", add, errs)
	}
	return errs
}

// quoteAll is values quoted and joined as field.NotSupported lists them.
func quoteAll(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}
