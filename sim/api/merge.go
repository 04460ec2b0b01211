package api

import "fmt"

// MergeKeys are the list merge keys of strategic merge patch (the
// patchMergeKey of k8s.io/api's types), by the list field's name. Lists
// not named here are replaced whole, as in a JSON merge patch. "ports"
// merges container ports by containerPort and a Service's ports by port:
// MergeKey picks by what the elements carry.
var MergeKeys = map[string]string{
	"containers":                "name",
	"initContainers":            "name",
	"ephemeralContainers":       "name",
	"volumes":                   "name",
	"volumeMounts":              "mountPath",
	"env":                       "name",
	"ports":                     "containerPort",
	"conditions":                "type",
	"imagePullSecrets":          "name",
	"ownerReferences":           "uid",
	"hostAliases":               "ip",
	"topologySpreadConstraints": "topologyKey",
}

// MergeKey returns the key by which elements of the list field named
// field merge, or "" when the list is replaced whole.
func MergeKey(field string, elems []any) string {
	key := MergeKeys[field]
	if field == "ports" {
		for _, e := range elems {
			if m, ok := e.(map[string]any); ok {
				if _, container := m["containerPort"]; !container {
					if _, svc := m["port"]; svc {
						return "port"
					}
				}
			}
		}
	}
	return key
}

// MergePatch applies patch p to document d, both generic JSON trees
// (maps, lists, scalars as encoding/json decodes them), and returns the
// result without changing either: RFC 7386 JSON merge patch (objects
// merge, null deletes a key, anything else replaces), and with strategic
// set, lists with a merge key merge element by element (an element with a
// known key merges into it, a new one is appended), as Kubernetes'
// strategic merge patch does without its $patch directives. field is the
// key under which d sits ("" at the root).
func MergePatch(d, p any, field string, strategic bool) any {
	pm, ok := p.(map[string]any)
	if !ok {
		if pl, isList := p.([]any); isList && strategic {
			if dl, ok := d.([]any); ok {
				if key := MergeKey(field, append(append([]any(nil), dl...), pl...)); key != "" {
					return mergeList(dl, pl, key)
				}
			}
		}
		return p
	}
	dm, ok := d.(map[string]any)
	if !ok {
		dm = map[string]any{}
	}
	out := make(map[string]any, len(dm))
	for k, v := range dm {
		out[k] = v
	}
	for k, v := range pm {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = MergePatch(out[k], v, k, strategic)
	}
	return out
}

// mergeList merges patch elements into the list by key; elements the
// patch does not mention keep their place.
func mergeList(d, p []any, key string) []any {
	out := append([]any(nil), d...)
	for _, pe := range p {
		pm, ok := pe.(map[string]any)
		if !ok {
			return p // not a list of objects: replace
		}
		kv := fmt.Sprint(pm[key])
		found := false
		for i, de := range out {
			if dm, ok := de.(map[string]any); ok && fmt.Sprint(dm[key]) == kv {
				out[i] = MergePatch(dm, pm, "", true)
				found = true
				break
			}
		}
		if !found {
			out = append(out, pe)
		}
	}
	return out
}
