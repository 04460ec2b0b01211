package api

import (
	"fmt"
	"reflect"
)

// TwoWayMergePatch returns the strategic merge patch that turns document
// old into document cur, both generic JSON trees (maps, lists, scalars as
// encoding/json decodes them), and whether they differ; neither is
// changed. It is the counterpart of MergePatch, as
// k8s.io/apimachinery's strategicpatch.CreateTwoWayMergePatch makes it:
// a key that changed carries its new value (a map, only its changed
// keys), a key that went away is null, and a list with a merge key
// (MergeKeys) carries only its changed elements (each with its merge
// key), {"<key>": ..., "$patch": "delete"} for an element that went
// away, and a "$setElementOrder/<list>" beside it with the new order.
// Lists without a merge key are replaced whole. field is the key under
// which old sits ("" at the root).
//
// A patch made against a stale old leaves alone what the writer did not
// change, whatever the server holds there now: the kubelet's node status
// patch, made against its node lister's copy, relies on that.
func TwoWayMergePatch(old, cur any, field string) (any, bool) {
	switch c := cur.(type) {
	case map[string]any:
		o, ok := old.(map[string]any)
		if !ok {
			return cur, true
		}
		return mapPatch(o, c)
	case []any:
		o, ok := old.([]any)
		if !ok {
			return cur, true
		}
		if key := MergeKey(field, append(append([]any(nil), o...), c...)); key != "" && allMaps(o) && allMaps(c) {
			p, _, _ := listPatch(o, c, key)
			return p, len(p) > 0
		}
	}
	if reflect.DeepEqual(old, cur) {
		return nil, false
	}
	return cur, true
}

// mapPatch is TwoWayMergePatch for two maps.
func mapPatch(old, cur map[string]any) (any, bool) {
	out := map[string]any{}
	for k, cv := range cur {
		ov, had := old[k]
		if !had {
			out[k] = cv
			continue
		}
		if ol, isList := ov.([]any); isList {
			if cl, ok := cv.([]any); ok {
				if key := MergeKey(k, append(append([]any(nil), ol...), cl...)); key != "" && allMaps(ol) && allMaps(cl) {
					p, order, moved := listPatch(ol, cl, key)
					if len(p) > 0 {
						out[k] = p
					}
					if len(p) > 0 || moved {
						out["$setElementOrder/"+k] = order
					}
					continue
				}
			}
		}
		if p, changed := TwoWayMergePatch(ov, cv, k); changed {
			out[k] = p
		}
	}
	for k := range old {
		if _, kept := cur[k]; !kept {
			out[k] = nil
		}
	}
	if len(out) == 0 {
		return nil, false
	}
	return out, true
}

// listPatch is the patch of a list merged by key: the changed and new
// elements, the removed ones as deletions, the new order of keys, and
// whether the elements both lists hold changed places.
func listPatch(old, cur []any, key string) (patch, order []any, moved bool) {
	byKey := make(map[string]map[string]any, len(old))
	for _, e := range old {
		m := e.(map[string]any)
		byKey[fmt.Sprint(m[key])] = m
	}
	seen := make(map[string]bool, len(cur))
	for _, e := range cur {
		m := e.(map[string]any)
		kv := fmt.Sprint(m[key])
		seen[kv] = true
		order = append(order, map[string]any{key: m[key]})
		om, had := byKey[kv]
		if !had {
			patch = append(patch, m)
			continue
		}
		if p, changed := mapPatch(om, m); changed {
			pm := p.(map[string]any)
			pm[key] = m[key]
			patch = append(patch, pm)
		}
	}
	i := 0 // the next of cur's keys that old holds too
	for _, e := range old {
		m := e.(map[string]any)
		kv := fmt.Sprint(m[key])
		if !seen[kv] {
			patch = append(patch, map[string]any{key: m[key], "$patch": "delete"})
			continue
		}
		for i < len(cur) && byKey[fmt.Sprint(cur[i].(map[string]any)[key])] == nil {
			i++
		}
		if i < len(cur) && fmt.Sprint(cur[i].(map[string]any)[key]) != kv {
			moved = true
		}
		i++
	}
	return patch, order, moved
}

func allMaps(l []any) bool {
	for _, e := range l {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return true
}

// NodeConditionsPatch is a strategic merge patch of a Node's
// status.conditions and nothing else, the patch a kubelet sends nearly
// every time: the kubelet makes it without JSON maps and the API server
// applies it to the typed Node.
type NodeConditionsPatch struct {
	Status *NodeConditionsPatchStatus `json:"status"`
}

// NodeConditionsPatchStatus is the status of a NodeConditionsPatch: the
// changed conditions and the order of them all.
type NodeConditionsPatchStatus struct {
	// Order is the "$setElementOrder/conditions" directive: every
	// condition's type, in the new order.
	Order []NodeConditionPatch `json:"$setElementOrder/conditions,omitempty"`
	// Conditions are the changed, new and deleted conditions.
	Conditions []NodeConditionPatch `json:"conditions,omitempty"`
}

// NodeConditionPatch is one element of a conditions patch: its merge key,
// the fields it sets (nil: left as they are), or, with Patch "delete", a
// deletion.
type NodeConditionPatch struct {
	Type               NodeConditionType `json:"type"`
	Status             *ConditionStatus  `json:"status,omitempty"`
	LastHeartbeatTime  *Time             `json:"lastHeartbeatTime,omitempty"`
	LastTransitionTime *Time             `json:"lastTransitionTime,omitempty"`
	Reason             *string           `json:"reason,omitempty"`
	Message            *string           `json:"message,omitempty"`
	Patch              string            `json:"$patch,omitempty"`
}
