package apiserver

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// TestPatchFieldValidation holds a patch's fieldValidation directive to
// the patch handlers' answers, for each patch type: none (the
// simulation's own requests) refuses an unknown field as before, with
// encoding/json's error; Strict refuses it with the strict decoding
// error; Warn applies the rest and warns; Ignore applies the rest. The
// unknown field is never stored.
func TestPatchFieldValidation(t *testing.T) {
	patches := map[PatchType]string{
		MergePatch:          `{"spec":{"replicas":3,"foo":1}}`,
		StrategicMergePatch: `{"spec":{"replicas":3,"foo":1}}`,
		JSONPatch:           `[{"op":"replace","path":"/spec/replicas","value":3},{"op":"add","path":"/spec/foo","value":1}]`,
	}
	for typ, patch := range patches {
		for _, directive := range []string{"", FieldValidationIgnore, FieldValidationWarn, FieldValidationStrict} {
			f := newFixture(t)
			f.must(t, &Request{Verb: Create, Kind: api.KindDeployment, Actor: user, Object: deployment("web", 1)})
			resp := f.do(&Request{Verb: Patch, Kind: api.KindDeployment, Namespace: "default", Name: "web", Actor: user, PatchType: typ,
				Patch: []byte(patch), FieldValidation: directive})
			var se *apierr.StatusError
			switch directive {
			case "":
				if !errors.As(resp.Err, &se) || se.Code != 422 || !strings.HasSuffix(se.Message, `: json: unknown field "foo"`) {
					t.Errorf("%d, no directive: %v; want the 422 of encoding/json's unknown field", typ, resp.Err)
				}
			case FieldValidationStrict:
				if !errors.As(resp.Err, &se) || se.Code != 422 || se.Causes[0].Field != "patch" || !strings.HasSuffix(se.Message, `: strict decoding error: unknown field "spec.foo"`) {
					t.Errorf("%d, Strict: %v; want the 422 strict decoding error", typ, resp.Err)
				}
			default:
				if resp.Err != nil {
					t.Fatalf("%d, %s: %v", typ, directive, resp.Err)
				}
				if d := resp.Object.(*api.Deployment); *d.Spec.Replicas != 3 {
					t.Errorf("%d, %s: replicas %d; want the patch applied", typ, directive, *d.Spec.Replicas)
				}
				want := []string{`unknown field "spec.foo"`}
				if directive == FieldValidationIgnore {
					want = nil
				}
				if !slices.Equal(resp.Warnings, want) {
					t.Errorf("%d, %s: warnings %q; want %q", typ, directive, resp.Warnings, want)
				}
			}
		}
	}
}

// TestCustomPatchFieldValidation: a custom resource's patch prunes what
// its schema does not declare under a directive, and is refused by the
// schema (a 400) without one, as before.
func TestCustomPatchFieldValidation(t *testing.T) {
	for _, directive := range []string{"", FieldValidationWarn, FieldValidationStrict} {
		f := newFixture(t)
		crd := &api.CustomResourceDefinition{}
		if err := json.Unmarshal([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","names":{"plural":"widgets","singular":"widget","kind":"Widget"},"scope":"Namespaced",
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object","properties":{"replicas":{"type":"integer"}}}}}}}]}}`), crd); err != nil {
			t.Fatal(err)
		}
		f.must(t, &Request{Verb: Create, Kind: api.KindCustomResourceDefinition, Actor: user, Object: crd})
		kind := api.Kind{Group: "example.com", Name: "Widget"}
		f.must(t, &Request{Verb: Create, Kind: kind, Actor: user, Object: &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"},
			ObjectMeta: api.ObjectMeta{Name: "w", Namespace: "default"}, Fields: api.Fields{"spec": map[string]any{"replicas": int64(1)}}}})
		resp := f.do(&Request{Verb: Patch, Kind: kind, Namespace: "default", Name: "w", Actor: user, PatchType: MergePatch,
			Patch: []byte(`{"spec":{"replicas":2,"colour":"red"}}`), FieldValidation: directive})
		var se *apierr.StatusError
		switch directive {
		case "":
			if !errors.As(resp.Err, &se) || se.Code != 400 || !strings.HasSuffix(se.Message, `strict decoding error: unknown field "spec.colour"`) {
				t.Errorf("no directive: %v; want the schema's 400", resp.Err)
			}
		case FieldValidationStrict:
			if !errors.As(resp.Err, &se) || se.Code != 422 || !strings.HasSuffix(se.Message, `: strict decoding error: unknown field "spec.colour"`) {
				t.Errorf("Strict: %v; want the 422", resp.Err)
			}
		case FieldValidationWarn:
			if resp.Err != nil || !slices.Equal(resp.Warnings, []string{`unknown field "spec.colour"`}) {
				t.Fatalf("Warn: %v %q", resp.Err, resp.Warnings)
			}
			if spec := resp.Object.(*api.Unstructured).Fields["spec"].(map[string]any); spec["colour"] != nil || spec["replicas"] != int64(2) {
				t.Errorf("Warn: spec %v; want replicas 2 and no colour", spec)
			}
		}
	}
}

// TestStrictErrors: the walker names every unknown and duplicate key in
// document order with its path, descends through lists and embedded
// structs, and leaves maps' keys (but for duplicates) and self-decoding
// values (a volume's source) alone; DeletePath then removes the unknown
// ones from the decoded document.
func TestStrictErrors(t *testing.T) {
	doc := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"any":"x","any":"y"},"x":1},` +
		`"spec":{"containers":[{"name":"c","image":"i","resources":{"limits":{"cpu":"1"}},"bad":{"deep":[1]}}],"volumes":[{"name":"v","emptyDir":{},"whatever":1}],"nodeName":"a","nodeName":"b"}}`
	errs, err := StrictErrors([]byte(doc), reflect.TypeFor[api.Pod]())
	if err != nil {
		t.Fatal(err)
	}
	got := StrictMessages(errs, "")
	want := []string{`duplicate field "metadata.labels.any"`, `unknown field "metadata.x"`, `unknown field "spec.containers[0].bad"`, `duplicate field "spec.nodeName"`}
	if !slices.Equal(got, want) {
		t.Errorf("StrictErrors = %q\nwant %q", got, want)
	}
	var m any
	if err := json.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		if e.Unknown {
			DeletePath(m, e.Path)
		}
	}
	out, _ := json.Marshal(m)
	if s := string(out); strings.Contains(s, `"bad"`) || strings.Contains(s, `"x"`) || !strings.Contains(s, `"nodeName":"b"`) || !strings.Contains(s, "whatever") {
		t.Errorf("cleaned: %s\nwant bad and x gone, the last nodeName kept, the volume's source kept", s)
	}
	if _, err := StrictErrors([]byte(`{"spec":`), reflect.TypeFor[api.Pod]()); err == nil {
		t.Errorf("a truncated document: no error")
	}
}

// TestPruneCustomAgreesWithValidateCustom: PruneCustom removes exactly
// the fields ValidateCustom refuses as unknown (each spelling its paths
// its own way: the strict decoder's [i], go-openapi's .i), through
// properties, additionalProperties (a schema, or true), a subtree that
// preserves unknown fields, and list items; the root's apiVersion, kind
// and metadata are the server's.
func TestPruneCustomAgreesWithValidateCustom(t *testing.T) {
	crd := &api.CustomResourceDefinition{}
	if err := json.Unmarshal([]byte(`{"spec":{"group":"example.com","names":{"kind":"Widget"},
"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
"spec":{"type":"object","properties":{
  "replicas":{"type":"integer"},
  "labels":{"type":"object","additionalProperties":{"type":"object","properties":{"v":{"type":"string"}}}},
  "free":{"type":"object","additionalProperties":true},
  "raw":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
  "items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}}}}}}}}]}}`), crd); err != nil {
		t.Fatal(err)
	}
	fields := func() api.Fields {
		var f map[string]any
		if err := json.Unmarshal([]byte(`{"spec":{"replicas":1,"colour":"red",
"labels":{"a":{"v":"x","w":"y"}},"free":{"any":1},"raw":{"deep":{"x":1}},
"items":[{"name":"n","size":2}]},"extra":true}`), &f); err != nil {
			t.Fatal(err)
		}
		return api.Fields(f)
	}
	u := &api.Unstructured{TypeMeta: api.TypeMeta{APIVersion: "example.com/v1", Kind: "Widget"}, Fields: fields()}
	pruned := PruneCustom(crd, u)
	if want := []string{"extra", "spec.colour", "spec.items[0].size", "spec.labels.a.w"}; !slices.Equal(pruned, want) {
		t.Errorf("pruned %q, want %q", pruned, want)
	}
	spec := u.Fields["spec"].(map[string]any)
	if spec["free"].(map[string]any)["any"] == nil || spec["raw"].(map[string]any)["deep"] == nil || spec["replicas"] == nil {
		t.Errorf("declared fields pruned: %v", spec)
	}
	err := ValidateCustom(crd, &api.Unstructured{TypeMeta: u.TypeMeta, Fields: fields()})
	const want = `Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "extra", unknown field "spec.colour", unknown field "spec.items.0.size", unknown field "spec.labels.a.w"`
	if err == nil || err.Error() != want {
		t.Errorf("ValidateCustom: %v\nwant %s", err, want)
	}
}
