package manifest

import (
	"reflect"
	"strings"
	"sync"
)

// field is one settable key of a struct as JSON sees it.
type field struct {
	name   string
	index  []int // path through inlined (embedded) structs
	tagged bool  // the name comes from a json tag
	// omitEmpty is the json omitempty option: encoding/json drops an empty
	// slice or map here, so the decoder makes empty ones nil to match.
	omitEmpty bool
}

// fieldCache maps reflect.Type to map[string]field. Lookups are by type, so
// the cache never influences an outcome; it only saves recomputation.
var fieldCache sync.Map

// fieldsOf returns the JSON-visible fields of struct type t by name, with the
// same visibility rules as encoding/json (tag names, `json:"-"`, inlined
// embedded structs, shallower and tagged fields dominating), plus one rule
// of Kubernetes' own: a struct field tagged `json:",inline"` is inlined even
// when it is not embedded.
func fieldsOf(t reflect.Type) map[string]field {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]field)
	}
	f := typeFields(t)
	fieldCache.Store(t, f)
	return f
}

func typeFields(t reflect.Type) map[string]field {
	type queued struct {
		typ   reflect.Type
		index []int
	}
	var all []field
	current := []queued{}
	next := []queued{{typ: t}}
	visited := map[reflect.Type]bool{}
	for len(next) > 0 {
		current, next = next, current[:0]
		for _, q := range current {
			if visited[q.typ] {
				continue
			}
			visited[q.typ] = true
			for i := 0; i < q.typ.NumField(); i++ {
				sf := q.typ.Field(i)
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if sf.Anonymous {
					if !sf.IsExported() && ft.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				index := append(append([]int(nil), q.index...), i)
				inline := name == "" && ft.Kind() == reflect.Struct &&
					(sf.Anonymous || hasOption(opts, "inline"))
				if inline {
					next = append(next, queued{typ: ft, index: index})
					continue
				}
				tagged := name != ""
				if !tagged {
					name = sf.Name
				}
				all = append(all, field{name: name, index: index, tagged: tagged, omitEmpty: hasOption(opts, "omitempty")})
			}
		}
	}
	// Dominance, as in encoding/json: for each name the shallowest field
	// wins; at equal depth a single tagged field wins; otherwise the name is
	// ambiguous and no field gets it.
	byName := map[string][]field{}
	for _, f := range all {
		byName[f.name] = append(byName[f.name], f)
	}
	out := make(map[string]field, len(byName))
	for name, fs := range byName {
		depth := len(fs[0].index)
		for _, f := range fs[1:] {
			depth = min(depth, len(f.index))
		}
		var best []field
		for _, f := range fs {
			if len(f.index) == depth {
				best = append(best, f)
			}
		}
		if len(best) > 1 {
			var tagged []field
			for _, f := range best {
				if f.tagged {
					tagged = append(tagged, f)
				}
			}
			best = tagged
		}
		if len(best) == 1 {
			out[name] = best[0]
		}
	}
	return out
}

func hasOption(opts, want string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == want {
			return true
		}
	}
	return false
}
