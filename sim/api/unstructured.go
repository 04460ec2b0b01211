package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Fields is the content of an unstructured object besides apiVersion,
// kind and metadata ("spec", "status", ...), as decoded JSON: every value
// is nil, bool, int64 (integral numbers), float64, string, []any or
// map[string]any. The store's differ walks it like a struct, so its
// changes read "spec.replicas", not "[spec][replicas]".
type Fields map[string]any

// Unstructured is an object of a custom kind (one a
// CustomResourceDefinition defines): typed metadata, and everything else
// as JSON values, like k8s.io/apimachinery's unstructured.Unstructured.
// Deep copy, the store's diff and field ownership, patches, apply and the
// detectors handle it like any kind. Go structs convert to and from it
// through JSON (FromObject, Into).
type Unstructured struct {
	TypeMeta
	ObjectMeta `json:"metadata"`
	Fields
}

// MarshalJSON writes apiVersion, kind, metadata, then the fields with
// their keys sorted (as encoding/json writes maps).
func (u *Unstructured) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	first := true
	put := func(k string, v any) error {
		if !first {
			buf.WriteByte(',')
		}
		first = false
		buf.WriteString(strconv.Quote(k))
		buf.WriteByte(':')
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		buf.Write(b)
		return nil
	}
	if u.APIVersion != "" {
		if err := put("apiVersion", u.APIVersion); err != nil {
			return nil, err
		}
	}
	if u.Kind != "" {
		if err := put("kind", u.Kind); err != nil {
			return nil, err
		}
	}
	if err := put("metadata", &u.ObjectMeta); err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(u.Fields)) {
		if k == "apiVersion" || k == "kind" || k == "metadata" {
			continue
		}
		if err := put(k, u.Fields[k]); err != nil {
			return nil, err
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// ErrNotObject is returned when an unstructured object is decoded from JSON
// that is not an object.
var ErrNotObject = errors.New("unstructured object is not a JSON object")

// UnmarshalJSON reads a JSON object: apiVersion, kind and metadata into
// their typed fields, everything else into Fields.
func (u *Unstructured) UnmarshalJSON(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return err
	}
	if m == nil {
		return ErrNotObject
	}
	*u = Unstructured{}
	if v, ok := m["apiVersion"].(string); ok {
		u.APIVersion = v
	}
	if v, ok := m["kind"].(string); ok {
		u.Kind = v
	}
	if md, ok := m["metadata"]; ok && md != nil {
		raw, err := json.Marshal(md)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &u.ObjectMeta); err != nil {
			return err
		}
	}
	delete(m, "apiVersion")
	delete(m, "kind")
	delete(m, "metadata")
	if len(m) > 0 {
		u.Fields = Normalize(m).(map[string]any)
	}
	return nil
}

// Normalize returns v with json.Number values turned into int64 (when
// integral) or float64, and other integer and float types likewise, so
// that unstructured content compares and prints one way.
func Normalize(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(v), 64)
		return f
	case int:
		return int64(v)
	case int32:
		return int64(v)
	case float32:
		return float64(v)
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			return int64(v)
		}
		return v
	case Fields:
		return Normalize(map[string]any(v))
	case map[string]any:
		for k, e := range v {
			v[k] = Normalize(e)
		}
		return v
	case []any:
		for i, e := range v {
			v[i] = Normalize(e)
		}
		return v
	}
	return v
}

// DeepCopyObject returns a deep copy of u as an Object.
func (u *Unstructured) DeepCopyObject() Object { return u.DeepCopy() }

// DeepCopy returns a deep copy of u.
func (u *Unstructured) DeepCopy() *Unstructured {
	if u == nil {
		return nil
	}
	out := &Unstructured{TypeMeta: u.TypeMeta}
	u.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if u.Fields != nil {
		out.Fields = DeepCopyJSON(map[string]any(u.Fields)).(map[string]any)
	}
	return out
}

// DeepCopyJSON returns a deep copy of a JSON value (maps and slices copied,
// scalars shared).
func DeepCopyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = DeepCopyJSON(e)
		}
		return out
	case Fields:
		return DeepCopyJSON(map[string]any(v))
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = DeepCopyJSON(e)
		}
		return out
	}
	return v
}

// Get returns the value at a dotted path ("spec.replicas"), and whether it
// is there.
func (u *Unstructured) Get(path string) (any, bool) {
	var cur any = map[string]any(u.Fields)
	for p := range strings.SplitSeq(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// Set sets the value at a dotted path, creating the maps on the way (a
// non-map in the way is replaced).
func (u *Unstructured) Set(path string, v any) {
	if u.Fields == nil {
		u.Fields = Fields{}
	}
	m := map[string]any(u.Fields)
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[parts[len(parts)-1]] = Normalize(v)
}

// FromObject converts any JSON-encodable value (a Go struct with json
// tags, typically a custom resource's own type) to an *Unstructured.
func FromObject(v any) (*Unstructured, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	u := &Unstructured{}
	if err := u.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return u, nil
}

// Into converts u to a Go value (a pointer to a struct with json tags)
// through JSON.
func (u *Unstructured) Into(v any) error {
	b, err := u.MarshalJSON()
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
