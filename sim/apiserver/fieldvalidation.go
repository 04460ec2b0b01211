package apiserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// The fieldValidation directives of a write (k8s.io/apimachinery
// metav1.FieldValidationIgnore, Warn and Strict): what a field the kind
// does not declare, or a key given twice, does to the request. A client
// that sends none gets Warn (apiserver handlers/rest.go, fieldValidation).
const (
	// FieldValidationIgnore drops unknown fields silently (and keeps the
	// last of duplicate keys).
	FieldValidationIgnore = "Ignore"
	// FieldValidationWarn drops them and answers a warning per field.
	FieldValidationWarn = "Warn"
	// FieldValidationStrict refuses the request.
	FieldValidationStrict = "Strict"
)

// FieldValidations are the values the fieldValidation parameter may have,
// sorted as apimachinery's ValidateFieldValidation lists them ("" is
// Warn).
var FieldValidations = []string{"", FieldValidationIgnore, FieldValidationStrict, FieldValidationWarn}

// maxStrictErrors is how many strict decoding errors one decoding
// reports: sigs.k8s.io/json keeps the first 100 distinct ones.
const maxStrictErrors = 100

// StrictError is one strict decoding error of a request body:
// `unknown field "spec.foo"` or `duplicate field "spec.replicas"`, as
// sigs.k8s.io/json's strict decoding words them (the path from the
// document's root, list items as [i]).
type StrictError struct {
	// Msg is the error's text.
	Msg string
	// Path leads to the field: string keys and int list indices.
	Path []any
	// Unknown is set for an unknown field, clear for a duplicate.
	Unknown bool
}

// StrictErrors reads the JSON document data against the Go type t (the
// type a body of that kind decodes into, json tags naming the fields)
// and returns its strict decoding errors in document order, as
// sigs.k8s.io/json's strict decoding finds them: each key of a struct
// that no field is named by, each key given twice in one object. Values
// of types that decode themselves (json.Unmarshaler) are not looked
// into; values of interface and map types only for duplicate keys. A
// document that is not JSON is an error (the caller's decoding reports
// it).
func StrictErrors(data []byte, t reflect.Type) ([]StrictError, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	w := strictWalker{dec: dec}
	if err := w.value(t, nil); err != nil {
		return nil, err
	}
	return w.errs, nil
}

// StrictMessages are the distinct messages of errs, the first 100, with
// prefix before each (upstream's JSON patch errors say "json patch ").
func StrictMessages(errs []StrictError, prefix string) []string {
	var out []string
	for _, e := range errs {
		msg := prefix + e.Msg
		if !slices.Contains(out, msg) {
			out = append(out, msg)
		}
	}
	return capStrict(out)
}

func capStrict(msgs []string) []string {
	if len(msgs) > maxStrictErrors {
		msgs = msgs[:maxStrictErrors]
	}
	return msgs
}

// CannotBeHandled is transformDecodeError's 400 (apiserver
// handlers/rest.go) for a body that does not decode: `Deployment in
// version "v1" cannot be handled as a Deployment: ` and why (detail), the
// body's kind and version (of its apiVersion, the part after the group)
// first, the kind it was decoded as after.
func CannotBeHandled(kind, apiVersion, as, detail string) *apierr.StatusError {
	_, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		version = apiVersion
	}
	return apierr.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", kind, version, as, detail))
}

// StrictDecodingError is apimachinery's runtime.NewStrictDecodingError
// text: "strict decoding error: " and the errors, comma-separated.
func StrictDecodingError(msgs []string) string {
	return "strict decoding error: " + strings.Join(msgs, ", ")
}

type strictWalker struct {
	dec  *json.Decoder
	errs []StrictError
}

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	anyType         = reflect.TypeFor[any]()
)

// PathString spells a path as the strict decoder does: keys joined by
// dots, indices as [i].
func PathString(path []any) string {
	var b strings.Builder
	for _, s := range path {
		switch s := s.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(s) + "]")
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		}
	}
	return b.String()
}

func (w *strictWalker) add(kind string, path []any, unknown bool) {
	p := slices.Clone(path)
	w.errs = append(w.errs, StrictError{Msg: fmt.Sprintf("%s field %q", kind, PathString(p)), Path: p, Unknown: unknown})
}

// skip consumes the next value whole.
func (w *strictWalker) skip() error {
	var raw json.RawMessage
	return w.dec.Decode(&raw)
}

// value reads the next value against type t (nil: anything, unchecked).
func (w *strictWalker) value(t reflect.Type, path []any) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return w.skip()
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		var field func(string) (reflect.Type, bool)
		switch t.Kind() {
		case reflect.Struct:
			fields := jsonFields(t)
			field = func(k string) (reflect.Type, bool) { ft, ok := fields[k]; return ft, ok }
		case reflect.Map:
			et := t.Elem()
			field = func(string) (reflect.Type, bool) { return et, true }
		case reflect.Interface:
			field = func(string) (reflect.Type, bool) { return anyType, true }
		default:
			// An object where the type wants something else: the
			// decoding refuses it.
			field = func(string) (reflect.Type, bool) { return nil, true }
		}
		seen := map[string]bool{}
		for w.dec.More() {
			kt, err := w.dec.Token()
			if err != nil {
				return err
			}
			key, _ := kt.(string)
			p := append(slices.Clip(path), key)
			ft, ok := field(key)
			if !ok {
				w.add("unknown", p, true)
				if err := w.skip(); err != nil {
					return err
				}
				continue
			}
			if seen[key] {
				w.add("duplicate", p, false)
			}
			seen[key] = true
			if err := w.value(ft, p); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	case json.Delim('['):
		var et reflect.Type
		switch t.Kind() {
		case reflect.Slice, reflect.Array:
			if t.Elem().Kind() != reflect.Uint8 {
				et = t.Elem()
			}
		case reflect.Interface:
			et = anyType
		}
		for i := 0; w.dec.More(); i++ {
			if err := w.value(et, append(slices.Clip(path), i)); err != nil {
				return err
			}
		}
		_, err := w.dec.Token()
		return err
	}
	return nil
}

// fieldCache holds jsonFields' answers; simulations may run side by side.
var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// jsonFields are the fields encoding/json decodes a struct's keys into,
// by name: json tags, untagged exported fields by their Go names, and
// the fields of embedded structs promoted (a shallower field wins).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	out := map[string]reflect.Type{}
	level := []reflect.Type{t}
	for depth := 0; len(level) > 0 && depth < 8; depth++ {
		var next []reflect.Type
		found := map[string]reflect.Type{}
		for _, st := range level {
			for i := 0; i < st.NumField(); i++ {
				f := st.Field(i)
				tag := f.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, _, _ := strings.Cut(tag, ",")
				if f.Anonymous && name == "" {
					et := f.Type
					for et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if et.Kind() == reflect.Struct {
						next = append(next, et)
						continue
					}
				}
				if !f.IsExported() {
					continue
				}
				if name == "" {
					name = f.Name
				}
				if _, ok := out[name]; !ok {
					if _, ok := found[name]; !ok {
						found[name] = f.Type
					}
				}
			}
		}
		for k, v := range found {
			out[k] = v
		}
		level = next
	}
	fieldCache.Store(t, out)
	return out
}

// DeletePath removes the field at path from doc (decoded JSON: maps and
// slices), if it is there.
func DeletePath(doc any, path []any) {
	if len(path) == 0 {
		return
	}
	for _, s := range path[:len(path)-1] {
		switch s := s.(type) {
		case string:
			m, ok := doc.(map[string]any)
			if !ok {
				return
			}
			doc = m[s]
		case int:
			a, ok := doc.([]any)
			if !ok || s < 0 || s >= len(a) {
				return
			}
			doc = a[s]
		}
	}
	if m, ok := doc.(map[string]any); ok {
		if k, ok := path[len(path)-1].(string); ok {
			delete(m, k)
		}
	}
}

// strictPatchOp is an operation of a JSON patch as the patch handler
// decodes it strictly (handlers/patch.go jsonPatchOp). It is not
// jsonPatchOp, which applyJSONPatch decodes: its value is any, so that a
// key given twice inside an operation's value is a strict error too, as
// upstream's interface{} makes it.
type strictPatchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	From  string `json:"from"`
	Value any    `json:"value"`
}

// patchBodyStrictErrors are the strict errors of a patch's own body, as
// the patch handler finds them under Warn and Strict: a JSON patch's
// operations decoded strictly (unknown and duplicate keys, each "json
// patch "-prefixed), a merge or strategic merge patch decoded into a map
// (duplicate keys only). A body that does not parse has none here; the
// patch's own decoding refuses it.
func patchBodyStrictErrors(patch []byte, typ PatchType) []string {
	t := anyType
	prefix := ""
	if typ == JSONPatch {
		t, prefix = reflect.TypeFor[[]strictPatchOp](), "json patch "
	}
	errs, err := StrictErrors(patch, t)
	if err != nil {
		return nil
	}
	return StrictMessages(errs, prefix)
}

// PruneCustom removes from u the fields its version's openAPIV3Schema
// does not declare (and no x-kubernetes-preserve-unknown-fields or
// additionalProperties allows), as apiextensions-apiserver's structural
// pruning does when it decodes a custom resource, and returns their
// paths, sorted. apiVersion, kind and metadata at the root are the
// server's and kept.
func PruneCustom(crd *api.CustomResourceDefinition, u *api.Unstructured) []string {
	v := servedVersion(crd, u)
	if v == nil || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return nil
	}
	var pruned []string
	pruneObject(map[string]any(u.Fields), v.Schema.OpenAPIV3Schema, nil, true, &pruned)
	slices.Sort(pruned)
	return pruned
}

func pruneObject(m map[string]any, s *api.JSONSchemaProps, path []any, root bool, pruned *[]string) {
	ks := keySchemasOf(s)
	for k, x := range m {
		if root && serverKey(k) {
			continue
		}
		p := append(slices.Clip(path), k)
		switch sub, declared := ks.of(k); {
		case sub != nil:
			pruneValue(x, sub, p, pruned)
		case !declared:
			*pruned = append(*pruned, PathString(p))
			delete(m, k)
		}
	}
}

func pruneValue(x any, s *api.JSONSchemaProps, path []any, pruned *[]string) {
	switch x := x.(type) {
	case map[string]any:
		pruneObject(x, s, path, false, pruned)
	case []any:
		if s.Items == nil {
			return
		}
		for i, e := range x {
			pruneValue(e, s.Items, append(slices.Clip(path), i), pruned)
		}
	}
}

// UnknownMessages words the paths of fields a custom resource's schema
// does not declare (PruneCustom's, ValidateCustom's) as the strict
// decoding errors apiextensions-apiserver makes of them.
func UnknownMessages(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = fmt.Sprintf("unknown field %q", p)
	}
	return out
}

// patchStrictInvalid is the patch handlers' refusal of a patch whose
// result has strict decoding errors under Strict: a 422 Invalid of the
// field "patch", naming no kind or object, whose value is the patched
// object (the patch map, %+v, for a strategic merge patch).
func patchStrictInvalid(value string, msgs []string) error {
	return apierr.NewInvalid("", "", apierr.FieldError{Field: "patch", Type: "Invalid value", Value: value, Detail: StrictDecodingError(msgs)})
}
