package apiserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
)

// applyPatch returns a new object: old with the patch applied. old is not
// modified.
func applyPatch(old api.Object, patch []byte, typ PatchType) (api.Object, error) {
	if typ != MergePatch && typ != StrategicMergePatch && typ != JSONPatch {
		return nil, apierr.NewBadRequest(fmt.Sprintf("unsupported patch type %d", typ))
	}
	if typ == StrategicMergePatch {
		if obj, ok := nodeConditionsPatch(old, patch); ok {
			return obj, nil
		}
	}
	return applyPatchJSON(old, patch, typ)
}

// applyPatchJSON is applyPatch through JSON: old encoded, decoded into
// maps, patched, encoded and decoded again.
func applyPatchJSON(old api.Object, patch []byte, typ PatchType) (api.Object, error) {
	orig, err := json.Marshal(old)
	if err != nil {
		return nil, apierr.NewBadRequest(fmt.Sprintf("encoding the object: %v", err))
	}
	var doc any
	if err := decodeJSON(orig, &doc); err != nil {
		return nil, apierr.NewBadRequest(err.Error())
	}
	var merged, patchMap any
	if typ == JSONPatch {
		if merged, err = applyJSONPatch(doc, patch); err != nil {
			// An operation that does not apply (a failed test, a
			// missing path, copies past the bound) is kube-apiserver's
			// generic 422, which does not name it.
			var se *apierr.StatusError
			if errors.As(err, &se) {
				return nil, se
			}
			return nil, apierr.NewRequestRejected()
		}
	} else {
		if err := decodeJSON(patch, &patchMap); err != nil {
			return nil, apierr.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
		}
		if _, ok := patchMap.(map[string]any); !ok {
			return nil, apierr.NewBadRequest("patch is not a JSON object")
		}
		merged = api.MergePatch(doc, patchMap, "", typ == StrategicMergePatch)
	}
	out, err := json.Marshal(merged)
	if err != nil {
		return nil, apierr.NewBadRequest(err.Error())
	}
	tm := old.GetTypeMeta()
	var obj api.Object
	if _, custom := old.(*api.Unstructured); custom {
		obj = &api.Unstructured{}
	} else if obj, err = api.New(tm.APIVersion, tm.Kind); err != nil {
		return nil, apierr.NewBadRequest(err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		// Upstream's patchers: a patched object that does not decode is
		// a 422 Invalid of the field "patch", naming no kind or object,
		// whose value is the patch map (%+v) for a strategic merge
		// patch and the patched object for the others.
		value := string(out)
		if typ == StrategicMergePatch {
			value = fmt.Sprintf("%+v", patchMap)
		}
		return nil, apierr.NewInvalid("", "", apierr.FieldError{Field: "patch", Type: "Invalid value", Value: value, Detail: err.Error()})
	}
	// Identity is not patchable: a patch that changes the name or the
	// namespace is refused (handlers/patch.go, checkName), one that
	// removes the namespace keeps it.
	nm, om := obj.GetObjectMeta(), old.GetObjectMeta()
	if nm.Name != om.Name {
		return nil, apierr.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", nm.Name, om.Name))
	}
	if nm.Namespace != "" && nm.Namespace != om.Namespace {
		return nil, apierr.NewBadRequest(fmt.Sprintf("the namespace of the object (%s) does not match the namespace on the URL (%s)", nm.Namespace, om.Namespace))
	}
	nm.Namespace = om.Namespace
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

// ApplyPatch is the API server's patch of old (not modified) by patch of
// type typ, as a patch request applies it: the scenario loader applies an
// edit or request step's patch to the object declared so far, to count
// the pods it may ask for.
func ApplyPatch(old api.Object, patch []byte, typ PatchType) (api.Object, error) {
	return applyPatch(old, patch, typ)
}
