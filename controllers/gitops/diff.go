package gitops

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
)

// The normalised diff: a desired manifest and a live object are compared
// as JSON trees, and only what the manifest says counts. A field the
// manifest does not set (a default, a server-set field, status) is not a
// difference; an empty object or list in the manifest asks for nothing.
// Lists of objects that all carry a "name" are matched by name, others by
// position; a live list with elements the manifest lacks differs. Pointers
// under an ignored pointer are skipped.

// tree encodes obj as a generic JSON tree (numbers kept exact).
func tree(obj api.Object) (map[string]any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// manifestTree is the tree of a desired manifest: without status and
// without the nulls the Go types write for unset fields.
func manifestTree(obj api.Object) (map[string]any, error) {
	m, err := tree(obj)
	if err != nil {
		return nil, err
	}
	delete(m, "status")
	return dropNulls(m).(map[string]any), nil
}

func dropNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if e != nil {
				out[k] = dropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = dropNulls(e)
		}
		return out
	}
	return v
}

// escape encodes a key as a JSON pointer token (RFC 6901).
func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}

func unescape(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
}

// ignored reports whether pointer p is one of ignore or below one.
func ignored(p string, ignore []string) bool {
	for _, ig := range ignore {
		if p == ig || strings.HasPrefix(p, ig+"/") {
			return true
		}
	}
	return false
}

func empty(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		return len(t) == 0
	case []any:
		return len(t) == 0
	}
	return false
}

// compare returns the JSON pointers where live differs from what desired
// asks for, sorted.
func compare(desired, live any, ignore []string) []string {
	var out []string
	diffAt(desired, live, "", ignore, &out)
	slices.Sort(out)
	return out
}

func diffAt(d, l any, p string, ignore []string, out *[]string) {
	if p != "" && ignored(p, ignore) {
		return
	}
	switch dv := d.(type) {
	case map[string]any:
		lv, ok := l.(map[string]any)
		if !ok {
			if !empty(dv) {
				*out = append(*out, pointerOr(p))
			}
			return
		}
		keys := make([]string, 0, len(dv))
		for k := range dv {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			cp := p + "/" + escape(k)
			lc, ok := lv[k]
			if !ok {
				if !empty(dv[k]) && !ignored(cp, ignore) {
					*out = append(*out, cp)
				}
				continue
			}
			diffAt(dv[k], lc, cp, ignore, out)
		}
	case []any:
		lv, ok := l.([]any)
		if !ok {
			if !empty(dv) {
				*out = append(*out, pointerOr(p))
			}
			return
		}
		if byName(dv) && byName(lv) {
			for i, de := range dv {
				name := de.(map[string]any)["name"]
				j := slices.IndexFunc(lv, func(le any) bool { return le.(map[string]any)["name"] == name })
				cp := p + "/" + strconv.Itoa(i)
				if j < 0 {
					if !ignored(cp, ignore) {
						*out = append(*out, cp)
					}
					continue
				}
				diffAt(de, lv[j], cp, ignore, out)
			}
			if len(lv) > len(dv) && !ignored(p, ignore) {
				for j, le := range lv {
					name := le.(map[string]any)["name"]
					if !slices.ContainsFunc(dv, func(de any) bool { return de.(map[string]any)["name"] == name }) {
						*out = append(*out, p+"/"+strconv.Itoa(j))
					}
				}
			}
			return
		}
		if len(lv) != len(dv) {
			*out = append(*out, pointerOr(p))
			return
		}
		for i := range dv {
			diffAt(dv[i], lv[i], p+"/"+strconv.Itoa(i), ignore, out)
		}
	default:
		if fmt.Sprint(d) != fmt.Sprint(l) {
			*out = append(*out, pointerOr(p))
		}
	}
}

func pointerOr(p string) string {
	if p == "" {
		return "/"
	}
	return p
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

// pointerGet returns the value at pointer p in t.
func pointerGet(t any, p string) (any, bool) {
	if p == "" || p == "/" {
		return t, true
	}
	for _, tok := range strings.Split(p[1:], "/") {
		tok = unescape(tok)
		switch c := t.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			t = v
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			t = c[i]
		default:
			return nil, false
		}
	}
	return t, true
}

// pointerSet sets the value at pointer p in t (an object), creating
// objects on the way; it reports whether it could.
func pointerSet(t map[string]any, p string, v any) bool {
	toks := strings.Split(strings.TrimPrefix(p, "/"), "/")
	var cur any = t
	for i, tok := range toks {
		tok = unescape(tok)
		last := i == len(toks)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[tok] = v
				return true
			}
			next, ok := c[tok]
			if !ok {
				next = map[string]any{}
				c[tok] = next
			}
			cur = next
		case []any:
			idx, err := strconv.Atoi(tok)
			if err != nil || idx < 0 || idx >= len(c) {
				return false
			}
			if last {
				c[idx] = v
				return true
			}
			cur = c[idx]
		default:
			return false
		}
	}
	return false
}

// pointerDelete removes the value at pointer p from t, if it is in an
// object.
func pointerDelete(t map[string]any, p string) {
	i := strings.LastIndex(p, "/")
	if i < 0 {
		return
	}
	parent, ok := pointerGet(t, p[:i])
	if !ok {
		return
	}
	if m, ok := parent.(map[string]any); ok {
		delete(m, unescape(p[i+1:]))
	}
}

// fromTree decodes a tree into a new object of apiVersion and kind.
func fromTree(t map[string]any, apiVersion, kind string) (api.Object, error) {
	obj, err := api.New(apiVersion, kind)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, obj); err != nil {
		return nil, err
	}
	return obj, nil
}
