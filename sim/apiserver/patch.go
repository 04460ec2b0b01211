package apiserver

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// mergeKeys are the strategic-merge keys of the lists clustersim's kinds
// carry (patchMergeKey in k8s.io/api). A list field not named here is
// replaced whole, as in a JSON merge patch.
var mergeKeys = map[string]string{
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
	"tolerations":               "", // atomic upstream: replaced
	"hostAliases":               "ip",
	"topologySpreadConstraints": "topologyKey",
}

// applyPatch returns a new object: old with the patch applied. old is not
// modified.
func applyPatch(old api.Object, patch []byte, typ PatchType) (api.Object, error) {
	if typ != MergePatch && typ != StrategicMergePatch {
		return nil, apierr.NewBadRequest(fmt.Sprintf("unsupported patch type %d", typ))
	}
	orig, err := json.Marshal(old)
	if err != nil {
		return nil, apierr.NewBadRequest(fmt.Sprintf("encoding the object: %v", err))
	}
	var doc any
	if err := decodeJSON(orig, &doc); err != nil {
		return nil, apierr.NewBadRequest(err.Error())
	}
	var p any
	if err := decodeJSON(patch, &p); err != nil {
		return nil, apierr.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
	}
	if _, ok := p.(map[string]any); !ok {
		return nil, apierr.NewBadRequest("patch is not a JSON object")
	}
	merged := mergeValue(doc, p, "", typ == StrategicMergePatch)
	out, err := json.Marshal(merged)
	if err != nil {
		return nil, apierr.NewBadRequest(err.Error())
	}
	tm := old.GetTypeMeta()
	obj, err := api.New(tm.APIVersion, tm.Kind)
	if err != nil {
		return nil, apierr.NewBadRequest(err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		return nil, apierr.NewBadRequest(fmt.Sprintf("the patched object is invalid: %v", err))
	}
	// Identity is not patchable.
	nm, om := obj.GetObjectMeta(), old.GetObjectMeta()
	nm.Name, nm.Namespace = om.Name, om.Namespace
	if nm.ResourceVersion == om.ResourceVersion {
		// A patch without a resourceVersion applies to the latest state.
		nm.ResourceVersion = ""
	}
	return obj, nil
}

func decodeJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

// mergeValue applies patch p to document d (RFC 7386, plus strategic list
// merging when strategic is set). field is the key under which d sits.
func mergeValue(d, p any, field string, strategic bool) any {
	pm, ok := p.(map[string]any)
	if !ok {
		if pl, isList := p.([]any); isList && strategic {
			if dl, ok := d.([]any); ok {
				if key := mergeKeys[field]; key != "" {
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
		out[k] = mergeValue(out[k], v, k, strategic)
	}
	return out
}

// mergeList merges patch elements into the list by key: an element whose
// key matches is merged, a new key is appended. Elements the patch does
// not mention are kept, in their order.
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
			dm, ok := de.(map[string]any)
			if ok && fmt.Sprint(dm[key]) == kv {
				out[i] = mergeValue(dm, pm, "", true)
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
