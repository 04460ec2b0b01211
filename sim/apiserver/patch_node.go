package apiserver

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/strategicpatch"
)

// A kubelet patches its Node's status every 5 minutes and whenever a
// condition changes: 3,576 patches an hour at 300 nodes. Through JSON
// (applyPatch: the Node encoded, decoded into maps, merged, encoded and
// decoded again) the server's part of each cost some 180 µs, an eighth
// of the 300-node probe's CPU in its profile (BenchmarkNodeStatusPatch,
// 2026-12-02 evening: about 57 µs alone, 8.2 to 8.6 µs typed).
// nodeConditionsPatch applies the one shape the kubelet sends, a
// strategic merge patch of status.conditions alone, to the typed Node;
// anything else takes the general path. TestNodeConditionsPatchMatches
// holds the two to the same result.

// nodeConditionsPatch applies patch, a strategic merge patch, to old when
// it is a Node and the patch sets status.conditions alone, without nulls
// and with no directive but a deletion and the element order, or is {}
// (nothing); ok is false otherwise, and the caller takes the general
// path. The result shares all but its conditions with old, all of it
// for {} (stored objects are never changed in place).
func nodeConditionsPatch(old api.Object, patch []byte) (api.Object, bool) {
	n, isNode := old.(*api.Node)
	if !isNode {
		return nil, false
	}
	if string(bytes.TrimSpace(patch)) == "{}" {
		// A patch of nothing: a kubelet's first status post when the
		// Node was created with the status it would write (one a node
		// in the scale probes, the report's "no-op writes"; through
		// JSON they were most of applyPatchJSON's 1.23 s in the
		// 5,000-node probe's profile). The Node as stored, as a patch
		// of no condition gives it.
		p := *n
		p.ResourceVersion = ""
		return &p, true
	}
	if len(n.Status.Conditions) == 0 {
		return nil, false
	}
	doc, ok := parseConditionsPatch(patch)
	if !ok || !followsOrder(doc) || len(doc.Conditions)+len(doc.Order) > fastConditions {
		return nil, false
	}
	conds := append([]api.NodeCondition(nil), n.Status.Conditions...)
	for _, pe := range doc.Conditions {
		i := 0
		for i < len(conds) && conds[i].Type != pe.Type {
			i++
		}
		if pe.Patch == "delete" {
			if i < len(conds) {
				conds = append(conds[:i], conds[i+1:]...)
			}
			continue
		}
		if i == len(conds) {
			conds = append(conds, api.NodeCondition{Type: pe.Type})
		}
		c := &conds[i]
		if pe.Status != nil {
			c.Status = *pe.Status
		}
		if pe.LastHeartbeatTime != nil {
			c.LastHeartbeatTime = *pe.LastHeartbeatTime
		}
		if pe.LastTransitionTime != nil {
			c.LastTransitionTime = *pe.LastTransitionTime
		}
		if pe.Reason != nil {
			c.Reason = *pe.Reason
		}
		if pe.Message != nil {
			c.Message = *pe.Message
		}
	}
	// The order upstream's merge gives the list, as the general path
	// (strategicpatch.NormalizeOrder): by the patch's elements. An element
	// order that names every condition, once each (the kubelet's patch),
	// alone decides; a patch with any other element order (an empty one,
	// one naming some) is left to the general path, whose merge orders
	// it (FuzzNodeConditionsPatch found an empty order the two placed
	// apart).
	switch {
	case doc.Order == nil:
		conds = orderConditions(conds, doc.Conditions, n.Status.Conditions)
	case namesEach(doc.Order, conds):
		conds = orderConditions(conds, doc.Order, n.Status.Conditions)
	default:
		return nil, false
	}
	p := *n
	p.Status.Conditions = conds
	// A patch without a resourceVersion applies to the latest state.
	p.ResourceVersion = ""
	return &p, true
}

// fastConditions is the most conditions (and element order entries) a
// patch may carry to take the typed path, whose list operations scan the
// node's conditions for each of the patch's: a kubelet's patch carries
// five. A longer one, which only some other client sends, takes the
// general path, which finds them by key (20,000 conditions took 0.97 s
// here).
const fastConditions = 64

// followsOrder reports whether the patch's conditions (deletions aside)
// appear in its element order, in that order, as upstream's merge
// requires of a list with a $setElementOrder (validatePatchWithSetOrderList;
// an empty list on either side passes). A patch that does not is left
// to the general path, which refuses it.
func followsOrder(doc api.NodeConditionsPatchStatus) bool {
	if len(doc.Order) == 0 || len(doc.Conditions) == 0 {
		return true
	}
	j := 0
	for _, pe := range doc.Conditions {
		if pe.Patch == "delete" {
			continue
		}
		for j < len(doc.Order) && doc.Order[j].Type != pe.Type {
			j++
		}
		if j == len(doc.Order) {
			return false
		}
		j++
	}
	return true
}

// orderConditions returns conds in the order a strategic merge gives
// them (strategicpatch.NormalizeOrder): order is the patch's list of
// conditions (its deletions left out) or its element order, before the
// conditions the Node had before the patch. conds is reordered in
// place, and returned as it is when already in that order.
func orderConditions(conds []api.NodeCondition, order []api.NodeConditionPatch, before []api.NodeCondition) []api.NodeCondition {
	inPatch, inServer := make([]int, len(conds)), make([]int, len(conds))
	for i := range conds {
		t := conds[i].Type
		inPatch[i] = slices.IndexFunc(order, func(o api.NodeConditionPatch) bool { return o.Patch != "delete" && o.Type == t })
		inServer[i] = slices.IndexFunc(before, func(c api.NodeCondition) bool { return c.Type == t })
	}
	perm := strategicpatch.NormalizeOrder(inPatch, inServer)
	moved := false
	for i, j := range perm {
		moved = moved || i != j
	}
	if !moved {
		return conds
	}
	out := make([]api.NodeCondition, len(conds))
	for i, j := range perm {
		out[i] = conds[j]
	}
	return out
}

// namesEach reports whether order names each condition of conds, and
// conds holds no type twice: NormalizeOrder then places each by its
// index in order alone, whatever their order before.
func namesEach(order []api.NodeConditionPatch, conds []api.NodeCondition) bool {
	for i := range conds {
		t := conds[i].Type
		if !slices.ContainsFunc(order, func(o api.NodeConditionPatch) bool { return o.Patch != "delete" && o.Type == t }) ||
			slices.ContainsFunc(conds[:i], func(c api.NodeCondition) bool { return c.Type == t }) {
			return false
		}
	}
	return true
}

// parseConditionsPatch reads patch as a strategic merge patch of a
// Node's status.conditions alone: an object whose one key is "status",
// holding "conditions" (objects of strings: type, status, reason,
// message, the two times, "$patch") and "$setElementOrder/conditions"
// (objects holding type alone), every key spelt exactly (encoding/json's
// struct decoding matches names whatever their case, which the general
// path does not: FuzzNodeConditionsPatch found it) and no value a null
// (which deletes a key). ok is false for anything else.
func parseConditionsPatch(patch []byte) (doc api.NodeConditionsPatchStatus, ok bool) {
	if doc, ok := scanConditionsPatch(patch); ok {
		return doc, true
	}
	return decodeConditionsPatch(patch)
}

// decodeConditionsPatch is parseConditionsPatch through encoding/json's
// maps, for every patch scanConditionsPatch does not read itself.
func decodeConditionsPatch(patch []byte) (doc api.NodeConditionsPatchStatus, ok bool) {
	var root map[string]any
	if json.Unmarshal(patch, &root) != nil || len(root) != 1 {
		return doc, false
	}
	st, isMap := root["status"].(map[string]any)
	if !isMap {
		return doc, false
	}
	known := 0
	if v, has := st["conditions"]; has {
		known++
		if doc.Conditions, ok = conditionPatches(v, false); !ok {
			return doc, false
		}
	}
	if v, has := st["$setElementOrder/conditions"]; has {
		known++
		if doc.Order, ok = conditionPatches(v, true); !ok {
			return doc, false
		}
		if doc.Order == nil {
			doc.Order = []api.NodeConditionPatch{}
		}
	}
	return doc, known == len(st)
}

// conditionPatches reads a list of condition patches; typeOnly allows
// the type alone (the element order). Every key must be known and every
// value a string, so the result does not depend on the order the keys
// are read in.
func conditionPatches(v any, typeOnly bool) ([]api.NodeConditionPatch, bool) {
	list, isList := v.([]any)
	if !isList {
		return nil, false
	}
	var out []api.NodeConditionPatch
	for _, e := range list {
		m, isMap := e.(map[string]any)
		if !isMap {
			return nil, false
		}
		var p api.NodeConditionPatch
		for key, v := range m {
			s, isStr := v.(string)
			if !isStr || (typeOnly && key != "type") {
				return nil, false
			}
			switch key {
			case "type":
				p.Type = api.NodeConditionType(s)
			case "status":
				c := api.ConditionStatus(s)
				p.Status = &c
			case "reason":
				r := s
				p.Reason = &r
			case "message":
				msg := s
				p.Message = &msg
			case "$patch":
				if s != "delete" {
					return nil, false
				}
				p.Patch = s
			case "lastHeartbeatTime", "lastTransitionTime":
				t, err := api.ParseTime(s)
				if err != nil {
					return nil, false
				}
				if key == "lastHeartbeatTime" {
					p.LastHeartbeatTime = &t
				} else {
					p.LastTransitionTime = &t
				}
			default:
				return nil, false
			}
		}
		if p.Type == "" {
			return nil, false
		}
		out = append(out, p)
	}
	return out, true
}
