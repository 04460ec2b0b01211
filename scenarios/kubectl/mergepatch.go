package kubectl

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
	"slices"
)

// JSON merge patches (RFC 7386) and the JSON trees kubectl's actions
// build them from; strategic merge patches are sim/strategicpatch's, which
// the server applies with strategicpatch.Apply (JSON merge patches with
// api.MergePatch).

// mergePatchDiff returns the JSON merge patch (RFC 7386) turning a into b:
// changed and added fields, null for removed ones, lists replaced whole.
func mergePatchDiff(a, b map[string]any) map[string]any {
	patch := map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(b)) {
		bv := b[k]
		av, ok := a[k]
		if !ok {
			patch[k] = bv
			continue
		}
		am, aIsMap := av.(map[string]any)
		bm, bIsMap := bv.(map[string]any)
		if aIsMap && bIsMap {
			if sub := mergePatchDiff(am, bm); len(sub) > 0 {
				patch[k] = sub
			}
			continue
		}
		if !reflect.DeepEqual(av, bv) {
			patch[k] = bv
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a)) {
		if _, ok := b[k]; !ok {
			patch[k] = nil
		}
	}
	return patch
}

// decodeTree decodes JSON into a tree, numbers kept as json.Number.
func decodeTree(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// decodeObject decodes a JSON object into a map.
func decodeObject(b []byte) (map[string]any, error) {
	v, err := decodeTree(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return m, nil
}

// encode writes v as compact JSON with sorted keys, as encoding/json
// writes maps.
func encode(v any) ([]byte, error) { return json.Marshal(v) }
