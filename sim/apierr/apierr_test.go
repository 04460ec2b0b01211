package apierr

import "testing"

// TestNewInvalidNamesItsObject: NewInvalid keeps the kind, group and
// name it is given as metav1.StatusDetails does (kind without its group),
// which kubectl prints an Invalid error from; a request-level one (a
// patch that does not decode) names none.
func TestNewInvalidNamesItsObject(t *testing.T) {
	for _, tc := range []struct {
		kindGroup, name   string
		kind, group, want string
	}{
		{"Pod", "p5", "Pod", "", `Pod "p5" is invalid: f: Required value`},
		{"Deployment.apps", "web", "Deployment", "apps", `Deployment.apps "web" is invalid: f: Required value`},
		{"Widget.example.com", `w"x`, "Widget", "example.com", `Widget.example.com "w\"x" is invalid: f: Required value`},
		{"PatchOptions.meta.k8s.io", "", "PatchOptions", "meta.k8s.io", `PatchOptions.meta.k8s.io "" is invalid: f: Required value`},
		{"", "", "", "", ` "" is invalid: f: Required value`},
	} {
		se := NewInvalid(tc.kindGroup, tc.name, FieldError{Field: "f", Type: "Required value"})
		if se.Kind != tc.kind || se.Group != tc.group || se.Name != tc.name || se.Message != tc.want {
			t.Errorf("NewInvalid(%q, %q) = kind %q group %q name %q message %q; want %q %q %q %q", tc.kindGroup, tc.name, se.Kind, se.Group, se.Name, se.Message, tc.kind, tc.group, tc.name, tc.want)
		}
	}
}

// TestFieldErrorRendersValuesAsErrorBody: bad values print as
// apimachinery v0.37's field.Error.ErrorBody prints them
// (pkg/util/validation/field/errors.go): %v for int64, int32, float64,
// float32 and bool, %q for a string, JSON for anything else (an int, a
// named string type, a slice, a map, a struct without json tags, a nil
// slice), nothing for field.OmitValue() and for the types that never
// print one. Rows marked "upstream" are from errors_test.go's
// TestErrorUsefulMessage and TestNewErrorTypes.
func TestFieldErrorRendersValuesAsErrorBody(t *testing.T) {
	type inner struct {
		Key      string
		Operator string
		Seconds  *int64
	}
	type named string
	type unmarshalable struct{ Ch chan int }
	secs := int64(5)
	for _, tc := range []struct {
		name string
		fe   FieldError
		want string
	}{
		{"int64", FieldError{Field: "f", Type: "Invalid value", Value: int64(-1), Detail: "d"}, "f: Invalid value: -1: d"},
		{"int32", FieldError{Field: "f", Type: "Invalid value", Value: int32(7)}, "f: Invalid value: 7"},
		{"int marshals to its digits", FieldError{Field: "f", Type: "Too many", Value: 3, Detail: "must have at most 2 items"}, "f: Too many: 3: must have at most 2 items"},
		{"uint", FieldError{Field: "f", Type: "Invalid value", Value: uint(9)}, "f: Invalid value: 9"},
		{"float64", FieldError{Field: "f", Type: "Invalid value", Value: 1.5}, "f: Invalid value: 1.5"},
		{"bool", FieldError{Field: "f", Type: "Unsupported value", Value: true, Detail: `supported values: "nil", "false"`}, `f: Unsupported value: true: supported values: "nil", "false"`},
		{"string is %q", FieldError{Field: "f", Type: "Invalid value", Value: "a\"<b>"}, `f: Invalid value: "a\"<b>"`},
		{"named string is JSON", FieldError{Field: "f", Type: "Unsupported value", Value: named("a<b>")}, `f: Unsupported value: "a\u003cb\u003e"`},
		{"[]string", FieldError{Field: "f", Type: "Invalid value", Value: []string{"a", "b"}}, `f: Invalid value: ["a","b"]`},
		{"nil []string", FieldError{Field: "f", Type: "Invalid value", Value: []string(nil)}, `f: Invalid value: null`},
		{"empty []string", FieldError{Field: "f", Type: "Invalid value", Value: []string{}}, `f: Invalid value: []`},
		{"[]int32", FieldError{Field: "f", Type: "Invalid value", Value: []int32{1, 2}}, `f: Invalid value: [1,2]`},
		{"map sorts keys", FieldError{Field: "f", Type: "Invalid value", Value: map[string]string{"tier": "x", "app": "web"}}, `f: Invalid value: {"app":"web","tier":"x"}`},
		{"struct without tags", FieldError{Field: "f", Type: "Invalid value", Value: inner{Key: "k", Operator: "Exists", Seconds: &secs}}, `f: Invalid value: {"Key":"k","Operator":"Exists","Seconds":5}`},
		{"nil pointer in a struct", FieldError{Field: "f", Type: "Invalid value", Value: inner{}}, `f: Invalid value: {"Key":"","Operator":"","Seconds":null}`},
		{"untyped nil", FieldError{Field: "f", Type: "Invalid value", Value: nil, Detail: "d"}, `f: Invalid value: null: d`},
		{"unmarshalable falls back to %#v", FieldError{Field: "f", Type: "Invalid value", Value: unmarshalable{}}, `f: Invalid value: apierr.unmarshalable{Ch:(chan int)(nil)}`},
		{"OmitValue", FieldError{Field: "f", Type: "Invalid value", Value: OmitValue, Detail: "d"}, `f: Invalid value: d`},
		{"Literal", FieldError{Field: "f", Type: "Invalid value", Value: Literal("{...}"), Detail: "d"}, `f: Invalid value: {...}: d`},
		{"Required never prints a value", FieldError{Field: "f", Type: "Required value", Value: "x"}, `f: Required value`},
		{"Forbidden never prints a value", FieldError{Field: "f", Type: "Forbidden", Value: "x", Detail: "d"}, `f: Forbidden: d`},
		{"Too long never prints a value", FieldError{Field: "f", Type: "Too long", Value: "<value omitted>", Detail: "may not be more than 2 bytes"}, `f: Too long: may not be more than 2 bytes`},
		{"upstream: Duplicate", FieldError{Field: "f", Type: "Duplicate value", Value: "duplicate"}, `f: Duplicate value: "duplicate"`},
		{"upstream: NotSupported", FieldError{Field: "f", Type: "Unsupported value", Value: "unsupported", Detail: `supported values: "v1", "v2"`}, `f: Unsupported value: "unsupported": supported values: "v1", "v2"`},
		{"upstream: Not found", FieldError{Field: "f", Type: "Not found", Value: "nf"}, `f: Not found: "nf"`},
		{"upstream: struct", FieldError{Field: "foo", Type: "Invalid value", Value: struct {
			Name    string
			Value   int
			Other   map[string]int
			Nothing *int
		}{"foo", 123, map[string]int{"a": 1}, nil}}, `foo: Invalid value: {"Name":"foo","Value":123,"Other":{"a":1},"Nothing":null}`},
		{"cause without a value", FieldError{Field: "spec.x", Type: "Unknown field"}, `spec.x: Unknown field`},
	} {
		if got := tc.fe.Error(); got != tc.want {
			t.Errorf("%s: got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}
