package api

import (
	"fmt"

	"github.com/clustersim/clustersim/sim/strategicpatch"
)

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
	"volumeDevices":             "devicePath",
	"resourceClaims":            "name",
	"schedulingGates":           "name",
}

// mergeSets are the lists of scalars strategic merge patch merges as
// sets (patchStrategy merge without a merge key), by the key of the map
// holding them and their own: ObjectMeta's finalizers. Namespace's
// spec.finalizers, without a strategy, is replaced.
var mergeSets = map[[2]string]bool{{"metadata", "finalizers"}: true}

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
// known key merges into it, a new one is added) and the lists of
// mergeSets merge as sets, as Kubernetes' strategic merge patch does,
// which then orders a merged list (strategicpatch.Reorder):
// what the patch lists in its order, what only the server had placed
// among them by its old place, so that a new element comes first. field
// is the key under which d sits (""
// at the root). A strategic patch's directives are honoured as
// k8s.io/apimachinery/pkg/util/strategicpatch applies them:
// "$patch": "replace" (the map replaces the original) and "delete" (the
// map, or the list element with that merge key, is removed),
// "$retainKeys" (keys not listed are dropped), "$setElementOrder/<list>"
// (the merged list follows that order) and
// "$deleteFromPrimitiveList/<list>" (those values leave a list of
// scalars).
func MergePatch(d, p any, field string, strategic bool) any {
	if strategic {
		if pm, ok := p.(map[string]any); ok && hasDirective(pm) {
			return strategicMap(d, pm, field)
		}
	}
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
		if strategic && mergeSets[[2]string{field, k}] {
			if dl, ok := out[k].([]any); ok {
				if pl, ok := v.([]any); ok {
					out[k] = strategicpatch.Reorder(strategicpatch.MergeScalars(dl, pl), pl, dl, "")
					continue
				}
			}
		}
		if r := MergePatch(out[k], v, k, strategic); r != nil {
			out[k] = r
		} else {
			delete(out, k) // a strategic "$patch": "delete"
		}
	}
	return out
}

// mergeList merges patch elements into the list by key (a new one is
// appended, a "$patch": "delete" one removes its match), then orders
// the result as upstream does (strategicpatch.Reorder): the patch's
// elements in its order, the others where they stood among them.
func mergeList(d, p []any, key string) []any {
	order := make([]any, 0, len(p))
	for _, pe := range p {
		pm, ok := pe.(map[string]any)
		if !ok {
			return p // not a list of objects: replace
		}
		if pm["$patch"] != "delete" {
			// The order is the patch without its deletions (upstream's
			// patchWithoutSpecialElements): an element deleted and
			// added again takes the place of its addition.
			order = append(order, pe)
		}
	}
	return strategicpatch.Reorder(mergeKeyed(d, p, key), order, d, key)
}

// mergeKeyed merges patch elements into the list by key; elements the
// patch does not mention keep their place.
func mergeKeyed(d, p []any, key string) []any {
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
				if pm["$patch"] == "delete" {
					out = append(out[:i:i], out[i+1:]...)
				} else {
					out[i] = MergePatch(dm, pm, "", true)
				}
				found = true
				break
			}
		}
		if !found && pm["$patch"] != "delete" {
			out = append(out, MergePatch(nil, pm, "", true))
		}
	}
	return out
}

// hasDirective reports whether a patch map holds a strategic merge
// directive ("$patch", "$retainKeys", "$setElementOrder/...",
// "$deleteFromPrimitiveList/...").
func hasDirective(pm map[string]any) bool {
	for k := range pm {
		if len(k) > 0 && k[0] == '$' {
			return true
		}
	}
	return false
}

// strategicMap applies a strategic patch map carrying directives to d,
// which sits under field.
func strategicMap(d any, pm map[string]any, field string) any {
	switch pm["$patch"] {
	case "replace":
		out := make(map[string]any, len(pm))
		for k, v := range pm {
			if k != "$patch" {
				out[k] = v
			}
		}
		return out
	case "delete":
		return nil
	}
	plain := make(map[string]any, len(pm))
	for k, v := range pm {
		if len(k) == 0 || k[0] != '$' {
			plain[k] = v
		}
	}
	merged, _ := MergePatch(d, plain, field, true).(map[string]any)
	if merged == nil {
		merged = map[string]any{}
	}
	for k, v := range pm {
		switch {
		case k == "$retainKeys":
			keep := map[string]bool{}
			if l, ok := v.([]any); ok {
				for _, e := range l {
					keep[fmt.Sprint(e)] = true
				}
			}
			for mk := range merged {
				if !keep[mk] {
					delete(merged, mk)
				}
			}
		case len(k) > len("$deleteFromPrimitiveList/") && k[:len("$deleteFromPrimitiveList/")] == "$deleteFromPrimitiveList/":
			name := k[len("$deleteFromPrimitiveList/"):]
			gone := map[string]bool{}
			if l, ok := v.([]any); ok {
				for _, e := range l {
					gone[fmt.Sprint(e)] = true
				}
			}
			if l, ok := merged[name].([]any); ok {
				var kept []any
				for _, e := range l {
					if !gone[fmt.Sprint(e)] {
						kept = append(kept, e)
					}
				}
				merged[name] = kept
			}
		case len(k) > len("$setElementOrder/") && k[:len("$setElementOrder/")] == "$setElementOrder/":
			name := k[len("$setElementOrder/"):]
			order, _ := v.([]any)
			if l, ok := merged[name].([]any); ok {
				var before []any
				if dm, ok := d.(map[string]any); ok {
					before, _ = dm[name].([]any)
				}
				merged[name] = strategicpatch.Reorder(l, order, before, MergeKey(name, append(append([]any(nil), l...), order...)))
			}
		}
	}
	return merged
}
