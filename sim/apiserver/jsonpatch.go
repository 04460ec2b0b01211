package apiserver

import (
	"encoding/json"

	"fmt"
	"github.com/clustersim/clustersim/sim/api"
	"reflect"
	"strconv"
	"strings"
)

// jsonPatchOp is one operation of an RFC 6902 JSON patch.
type jsonPatchOp struct {
	Op    string           `json:"op"`
	Path  string           `json:"path"`
	From  string           `json:"from"`
	Value *json.RawMessage `json:"value"`
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
// returns the result; doc is not modified. Errors are the patch's fault.
func applyJSONPatch(doc any, patch []byte) (any, error) {
	var ops []jsonPatchOp
	if err := json.Unmarshal(patch, &ops); err != nil {
		return nil, fmt.Errorf("error decoding patch: %v", err)
	}
	if len(ops) > maxJSONPatchOperations {
		return nil, fmt.Errorf("The allowed maximum operations in a JSON patch is %d, got %d", maxJSONPatchOperations, len(ops))
	}
	copied := 0
	doc = api.DeepCopyJSON(doc)
	for i, op := range ops {
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
