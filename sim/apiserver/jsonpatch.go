package apiserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// jsonPatchOp is one operation of an RFC 6902 JSON patch. err is why a
// member of it is not what the operation needs (an op or a path that is
// not a string), which fails the operation when it is applied, not the
// patch's decoding: an operation is any JSON object until then, as in
// evanphx/json-patch, which kube-apiserver uses.
type jsonPatchOp struct {
	Op, Path, From string
	Value          *json.RawMessage
	err            error
}

// decodeJSONPatch decodes a JSON patch: an array of objects. What is not
// is a 400 with the message kube-apiserver gives (jsonpatch.DecodePatch's
// error, which names the library's types).
func decodeJSONPatch(patch []byte) ([]jsonPatchOp, error) {
	notA := func(err error, typ string) error {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return apierr.NewBadRequest(fmt.Sprintf("json: cannot unmarshal %s into Go value of type %s", te.Value, typ))
		}
		return apierr.NewBadRequest(err.Error())
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(patch, &raw); err != nil {
		return nil, notA(err, "jsonpatch.Patch")
	}
	ops := make([]jsonPatchOp, len(raw))
	for i, r := range raw {
		var m map[string]*json.RawMessage
		if err := json.Unmarshal(r, &m); err != nil {
			return nil, notA(err, "jsonpatch.Operation")
		}
		op := &ops[i]
		op.Value = m["value"]
		for _, f := range []struct {
			name string
			to   *string
		}{{"op", &op.Op}, {"path", &op.Path}, {"from", &op.From}} {
			if v := m[f.name]; v != nil && json.Unmarshal(*v, f.to) != nil && op.err == nil {
				op.err = fmt.Errorf("operation %d: %s is not a string", i, f.name)
			}
		}
	}
	return ops, nil
}

// The bounds kube-apiserver puts on a JSON patch: at most
// maxJSONPatchOperations operations (handlers/patch.go), and at most
// maxJSONPatchCopyBytes of JSON added by its copy operations in all
// (--json-patch-max-copy-bytes' default, JSONPatchMaxCopyBytes, enforced by
// evanphx/json-patch's AccumulatedCopySizeLimit). Without the second, a
// few dozen copies of a document into itself double it each time.
const (
	maxJSONPatchOperations = 10000
	maxJSONPatchCopyBytes  = 3 << 20
)

// applyJSONPatch applies an RFC 6902 JSON patch (application/json-patch+json,
// what kubectl rollout undo sends) to doc, a generic JSON tree, and
// returns the result; doc is not modified. Errors are the patch's fault:
// a patch that does not decode is a 400 and one of too many operations
// a 413, as kube-apiserver answers them (handlers/patch.go,
// applyJSPatch); an operation that does not apply is a plain error
// naming it, which applyPatchJSON answers as kube-apiserver does.
func applyJSONPatch(doc any, patch []byte) (any, error) {
	ops, err := decodeJSONPatch(patch)
	if err != nil {
		return nil, err
	}
	if len(ops) > maxJSONPatchOperations {
		return nil, apierr.NewRequestEntityTooLarge(fmt.Sprintf("The allowed maximum operations in a JSON patch is %d, got %d", maxJSONPatchOperations, len(ops)))
	}
	copied := 0
	doc = api.DeepCopyJSON(doc)
	for i, op := range ops {
		if op.err != nil {
			return nil, op.err
		}
		var val any
		if op.Value != nil {
			if err := decodeJSON(*op.Value, &val); err != nil {
				return nil, fmt.Errorf("operation %d: value: %v", i, err)
			}
		}
		var err error
		switch op.Op {
		case "add":
			doc, err = jsonPointerSet(doc, op.Path, val, true)
		case "replace":
			if _, err = jsonPointerGet(doc, op.Path); err == nil {
				doc, err = jsonPointerSet(doc, op.Path, val, false)
			}
		case "remove":
			doc, err = jsonPointerRemove(doc, op.Path)
		case "move", "copy":
			var v any
			if v, err = jsonPointerGet(doc, op.From); err == nil {
				if op.Op == "copy" {
					b, _ := json.Marshal(v)
					if copied += len(b); copied > maxJSONPatchCopyBytes {
						return nil, fmt.Errorf("Unable to complete the copy, the accumulated size increase of copy is %d, exceeding the limit %d", copied, maxJSONPatchCopyBytes)
					}
				}
				v = api.DeepCopyJSON(v)
				if op.Op == "move" {
					doc, err = jsonPointerRemove(doc, op.From)
				}
				if err == nil {
					doc, err = jsonPointerSet(doc, op.Path, v, true)
				}
			}
		case "test":
			var v any
			if v, err = jsonPointerGet(doc, op.Path); err == nil && !reflect.DeepEqual(normalizeNumbers(v), normalizeNumbers(val)) {
				err = fmt.Errorf("testing value %s failed", op.Path)
			}
		default:
			err = fmt.Errorf("unexpected kind: %q", op.Op)
		}
		if err != nil {
			return nil, err
		}
	}
	return doc, nil
}

func normalizeNumbers(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func splitPointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, fmt.Errorf("JSON pointer %q does not start with /", p)
	}
	parts := strings.Split(p[1:], "/")
	for i, s := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return parts, nil
}

func jsonPointerGet(doc any, p string) (any, error) {
	parts, err := splitPointer(p)
	if err != nil {
		return nil, err
	}
	cur := doc
	for _, s := range parts {
		switch t := cur.(type) {
		case map[string]any:
			v, ok := t[s]
			if !ok {
				return nil, fmt.Errorf("unable to find %s: missing key %q", p, s)
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(t) {
				return nil, fmt.Errorf("unable to find %s: index %q out of range", p, s)
			}
			cur = t[i]
		default:
			return nil, fmt.Errorf("unable to find %s", p)
		}
	}
	return cur, nil
}

// jsonPointerSet sets (add: inserts into a list, "-" appends) the value at
// p and returns the new root.
func jsonPointerSet(doc any, p string, val any, add bool) (any, error) {
	parts, err := splitPointer(p)
	if err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return val, nil
	}
	parent, err := jsonPointerGet(doc, "/"+strings.Join(escape(parts[:len(parts)-1]), "/"))
	if len(parts) == 1 {
		parent, err = doc, nil
	}
	if err != nil {
		return nil, err
	}
	last := parts[len(parts)-1]
	switch t := parent.(type) {
	case map[string]any:
		t[last] = val
	case []any:
		i := len(t)
		if last != "-" {
			if i, err = strconv.Atoi(last); err != nil || i < 0 || i > len(t) || (!add && i == len(t)) {
				return nil, fmt.Errorf("index %q out of range at %s", last, p)
			}
		}
		var nl []any
		if add {
			nl = append(append(append([]any{}, t[:i]...), val), t[i:]...)
		} else {
			nl = append([]any{}, t...)
			nl[i] = val
		}
		return jsonPointerSet(doc, "/"+strings.Join(escape(parts[:len(parts)-1]), "/"), nl, false)
	default:
		return nil, fmt.Errorf("cannot set %s: parent is not an object or a list", p)
	}
	return doc, nil
}

func jsonPointerRemove(doc any, p string) (any, error) {
	parts, err := splitPointer(p)
	if err != nil || len(parts) == 0 {
		return nil, fmt.Errorf("cannot remove %q", p)
	}
	parentPath := "/" + strings.Join(escape(parts[:len(parts)-1]), "/")
	var parent any = doc
	if len(parts) > 1 {
		if parent, err = jsonPointerGet(doc, parentPath); err != nil {
			return nil, err
		}
	}
	last := parts[len(parts)-1]
	switch t := parent.(type) {
	case map[string]any:
		if _, ok := t[last]; !ok {
			return nil, fmt.Errorf("unable to remove nonexistent key: %s: missing value", last)
		}
		delete(t, last)
		return doc, nil
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i >= len(t) {
			return nil, fmt.Errorf("index %q out of range at %s", last, p)
		}
		nl := append(append([]any{}, t[:i]...), t[i+1:]...)
		if len(parts) == 1 {
			return nl, nil
		}
		return jsonPointerSet(doc, parentPath, nl, false)
	}
	return nil, fmt.Errorf("cannot remove %s", p)
}

func escape(parts []string) []string {
	out := make([]string, len(parts))
	for i, s := range parts {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	}
	return out
}
