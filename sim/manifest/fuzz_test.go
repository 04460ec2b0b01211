package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/clustersim/clustersim/sim/api"
)

// FuzzDecode checks that Decode never panics, that it fails only with an
// *Error, and that whatever it accepts survives Encode and a second Decode
// unchanged as upstream's round-trip tests compare (api.SemanticEqual,
// equality.Semantic: a quantity by value, since "0Ki" or "+" encodes as
// its canonical "0", which decodes with another format; nil and empty
// lists and maps alike).
func FuzzDecode(f *testing.F) {
	for _, ex := range examples(f) {
		data, err := os.ReadFile(ex.path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, c := range brokenCases {
		f.Add([]byte(c.src))
	}
	for _, c := range roundTripCases {
		f.Add([]byte(c.src))
	}
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\ndata: {a: &x \"1\", b: *x, <<: {c: d}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, err := Decode("fuzz.yaml", data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode error %v is %T, want *Error", err, err)
			}
			return
		}
		enc, err := Encode(objs...)
		if err != nil {
			t.Fatalf("Encode of decoded objects: %v", err)
		}
		again, err := Decode("encoded.yaml", enc)
		if err != nil {
			t.Fatalf("Decode(Encode(x)): %v\n%s", err, enc)
		}
		if !api.SemanticEqual(objs, again) {
			t.Fatalf("Decode(Encode(x)) != x: %s\nencoded:\n%s", firstDiff(objs, again), enc)
		}
	})
}

// FuzzNode checks the generic decoder on arbitrary YAML into a
// generic value and into a struct: beyond "does not panic", every failure
// is an *Error (file, line, field), never another error type.
func FuzzNode(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(validDir, "*.yaml"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("spec: {replicas: 3, containers: [{name: a, resources: {cpu: 1}}], any: [1, x, {a: b}]}"))
	f.Add([]byte("a: &a [1, *a]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var n yaml.Node
		if parse(yaml.NewDecoder(bytes.NewReader(data)), &n) != nil {
			return
		}
		var v any
		check(t, DecodeNode("fuzz.yaml", &n, "", &v))
		var o object
		check(t, DecodeNode("fuzz.yaml", &n, "", &o))
	})
}

func check(t *testing.T, err error) {
	t.Helper()
	var e *Error
	if err != nil && !errors.As(err, &e) {
		t.Fatalf("DecodeNode error %v is %T, want *Error", err, err)
	}
}

// valueOf returns v as an interface for DeepEqual, reading unexported
// fields through their string form when reflection forbids Interface.
func valueOf(v reflect.Value) any {
	if v.CanInterface() {
		return v.Interface()
	}
	return fmt.Sprintf("%#v", v)
}
