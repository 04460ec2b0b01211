package iac

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// JSON trees of objects, as the tool keeps fields in its state file.

func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// tree encodes obj as a JSON tree.
func tree(obj api.Object) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	v, err := decode(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("object encodes as %T", v)
	}
	return m, nil
}

// fieldsOf is the fields a declared object sets: its tree without
// status, nulls, empty objects and lists, and server-set metadata.
func fieldsOf(obj api.Object) (map[string]any, error) {
	m, err := tree(obj)
	if err != nil {
		return nil, err
	}
	delete(m, "status")
	if meta, ok := m["metadata"].(map[string]any); ok {
		for _, k := range []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink"} {
			delete(meta, k)
		}
	}
	out, _ := clean(m).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	return out, nil
}

// clean drops nulls and empty objects and lists.
func clean(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if c := clean(e); c != nil {
				out[k] = c
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		if len(t) == 0 {
			return nil
		}
		out := make([]any, len(t))
		for i, e := range t {
			c := clean(e)
			if c == nil {
				c = map[string]any{}
			}
			out[i] = c
		}
		return out
	}
	return v
}

func equal(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// byName reports whether every element is an object with a string name.
func byName(l []any) bool {
	if len(l) == 0 {
		return false
	}
	for _, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m["name"].(string); !ok {
			return false
		}
	}
	return true
}

// project returns live's values at the fields shape has: what a refresh
// writes into the state for the fields the tool set. A field live lacks is
// left out; lists of named objects match by name, other lists of the
// shape's length element by element (so that a field the server adds to
// an element, such as a port's defaulted protocol, is no drift), and
// lists of another length are taken whole.
func project(shape, live any) (any, bool) {
	switch s := shape.(type) {
	case map[string]any:
		l, ok := live.(map[string]any)
		if !ok {
			return nil, false
		}
		out := make(map[string]any, len(s))
		for k, sv := range s {
			if lv, ok := l[k]; ok {
				if pv, ok := project(sv, lv); ok {
					out[k] = pv
				}
			}
		}
		return out, true
	case []any:
		l, ok := live.([]any)
		if !ok {
			return nil, false
		}
		if !byName(s) || !byName(l) {
			if len(s) != len(l) {
				return l, true
			}
			out := make([]any, len(l))
			for i := range l {
				pv, ok := project(s[i], l[i])
				if !ok {
					return l, true
				}
				out[i] = pv
			}
			return out, true
		}
		var out []any
		for _, se := range s {
			name := se.(map[string]any)["name"]
			if i := slices.IndexFunc(l, func(le any) bool { return le.(map[string]any)["name"] == name }); i >= 0 {
				if pv, ok := project(se, l[i]); ok {
					out = append(out, pv)
				}
			}
		}
		return out, true
	}
	return live, true
}

// mergeDiff returns the JSON merge patch that turns from into to (objects
// merge, null removes, anything else replaces), and the JSON pointers it
// changes, sorted.
func mergeDiff(from, to map[string]any) (map[string]any, []string) {
	var ptrs []string
	p := mergeDiffAt(from, to, "", &ptrs)
	slices.Sort(ptrs)
	return p, ptrs
}

func mergeDiffAt(from, to map[string]any, at string, ptrs *[]string) map[string]any {
	out := map[string]any{}
	keys := make([]string, 0, len(to))
	for k := range to {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		tv := to[k]
		p := at + "/" + escape(k)
		fv, ok := from[k]
		if !ok {
			out[k] = tv
			*ptrs = append(*ptrs, p)
			continue
		}
		fm, fok := fv.(map[string]any)
		tm, tok := tv.(map[string]any)
		if fok && tok {
			if sub := mergeDiffAt(fm, tm, p, ptrs); len(sub) > 0 {
				out[k] = sub
			}
			continue
		}
		if !equal(fv, tv) {
			out[k] = tv
			*ptrs = append(*ptrs, p)
		}
	}
	for k := range from {
		if _, ok := to[k]; !ok {
			out[k] = nil
			*ptrs = append(*ptrs, at+"/"+escape(k))
		}
	}
	return out
}

func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

// canonical encodes a tree with sorted keys, the state file's form.
func canonical(v any) string {
	b, _ := json.Marshal(v) // trees from JSON always encode
	return string(b)
}

// parseFields reads a state entry's fields back into a tree.
func parseFields(s string) (map[string]any, error) {
	if s == "" {
		return map[string]any{}, nil
	}
	v, err := decode([]byte(s))
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("state fields are a %T", v)
	}
	return m, nil
}
