package scenarios

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"
)

// FuzzLoad loads any input and checks, beyond "does not panic": a
// refusal is an *Error (file, line, column, field); and an accepted
// scenario survives a parse-print-parse round trip. The accepted file's
// YAML is printed again in yaml.v3's canonical block style (aliases
// expanded, comments and flow style gone) and loaded again: it must load,
// and the two loads must agree on everything the loader decoded (the
// metadata, the spec with its values normalised, the decoded objects of
// spec.objects, applies, GitOps commits and IaC, the edit patches).
func FuzzLoad(f *testing.F) {
	for _, name := range BuiltinNames() {
		data, err := fs.ReadFile(builtinFS, "builtin/"+name+".yaml")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "broken-scenarios", "*.yaml"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Load("fuzz.yaml", "builtin", builtinFS, data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Load error %T is not a *scenarios.Error: %v", err, err)
			}
			return
		}
		if s.Metadata.Name == "" {
			t.Fatalf("Load accepted a scenario without a name")
		}
		var generic any
		if err := s.root.Decode(&generic); err != nil {
			t.Skipf("yaml.v3 cannot decode what the loader accepted generically: %v", err)
		}
		printed, err := yaml.Marshal(generic)
		if err != nil {
			t.Skipf("yaml.v3 cannot print it: %v", err)
		}
		again, err := Load("fuzz.yaml", "builtin", builtinFS, printed)
		if err != nil {
			t.Fatalf("the scenario loads, but printed again it does not: %v\nprinted:\n%s", err, printed)
		}
		if a, b := canonical(t, s), canonical(t, again); !bytes.Equal(a, b) {
			t.Fatalf("the scenario printed and loaded again differs\nfirst:  %s\nsecond: %s", a, b)
		}
	})
}

// canonical is the JSON of what the loader decoded from a scenario, with
// the raw YAML nodes left out (their positions differ between prints);
// what they decode to is kept (objects, patches).
func canonical(t *testing.T, s *Scenario) []byte {
	t.Helper()
	c := *s
	c.File, c.Dir, c.root = "", "", nil
	spec := reflect.New(reflect.TypeOf(c.Spec)).Elem()
	spec.Set(deepCopyValue(reflect.ValueOf(c.Spec)))
	stripNodes(spec)
	var hidden []any
	collectHidden(spec, &hidden)
	out, err := json.Marshal(struct {
		Metadata Metadata
		Spec     any
		Objects  any
		Decoded  []any
	}{c.Metadata, spec.Interface(), c.Objects, hidden})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var nodePtr = reflect.TypeFor[*yaml.Node]()

// deepCopyValue copies v through its JSON-independent structure: structs,
// slices, maps and pointers are copied so that stripNodes does not touch
// the scenario itself.
func deepCopyValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == nodePtr {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(deepCopyValue(v.Elem()))
		return c
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		for i := range v.NumField() {
			if c.Field(i).CanSet() {
				c.Field(i).Set(deepCopyValue(v.Field(i)))
			}
		}
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(deepCopyValue(v.Index(i)))
		}
		return c
	}
	return v
}

// stripNodes sets every *yaml.Node reachable from v through structs,
// slices and pointers to nil.
func stripNodes(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.Type() == nodePtr {
			if v.CanSet() {
				v.Set(reflect.Zero(nodePtr))
			}
			return
		}
		if !v.IsNil() {
			stripNodes(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				stripNodes(v.Field(i))
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			stripNodes(v.Index(i))
		}
	}
}

// collectHidden appends, in traversal order, the values of the struct
// fields reachable from v that JSON leaves out (`json:"-"`): what the
// loader decoded (Parsed objects, PatchJSON, CSV Points).
func collectHidden(v reflect.Value, out *[]any) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() && v.Type() != nodePtr {
			collectHidden(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			if f.Tag.Get("json") == "-" {
				*out = append(*out, v.Field(i).Interface())
				continue
			}
			collectHidden(v.Field(i), out)
		}
	case reflect.Slice:
		for i := range v.Len() {
			collectHidden(v.Index(i), out)
		}
	}
}
