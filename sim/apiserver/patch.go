package apiserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/strategicpatch"
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
	merged, patchMap, err := patchDocument(old, patch, typ)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(merged)
	if err != nil {
		return nil, apierr.NewBadRequest(err.Error())
	}
	obj, err := decodePatched(old, out, patchMap, typ)
	if err != nil {
		return nil, err
	}
	return patchedIdentity(obj, old)
}

// patchDocument is old, encoded and decoded into maps, with the patch
// applied; patchMap is a merge or strategic merge patch's body decoded.
func patchDocument(old api.Object, patch []byte, typ PatchType) (merged, patchMap any, err error) {
	orig, err := json.Marshal(old)
	if err != nil {
		return nil, nil, apierr.NewBadRequest(fmt.Sprintf("encoding the object: %v", err))
	}
	var doc any
	if err := decodeJSON(orig, &doc); err != nil {
		return nil, nil, apierr.NewBadRequest(err.Error())
	}
	if typ == JSONPatch {
		if merged, err = applyJSONPatch(doc, patch); err != nil {
			// An operation that does not apply (a failed test, a
			// missing path, copies past the bound) is kube-apiserver's
			// generic 422, which does not name it.
			var se *apierr.StatusError
			if errors.As(err, &se) {
				return nil, nil, se
			}
			return nil, nil, apierr.NewRequestRejected()
		}
		return merged, nil, nil
	}
	if err := decodeJSON(patch, &patchMap); err != nil {
		return nil, nil, apierr.NewBadRequest(fmt.Sprintf("error decoding patch: %v", err))
	}
	if _, ok := patchMap.(map[string]any); !ok {
		return nil, nil, apierr.NewBadRequest("patch is not a JSON object")
	}
	if typ == StrategicMergePatch {
		dm, _ := doc.(map[string]any)
		merged, err := strategicpatch.Apply(dm, patchMap.(map[string]any))
		if err != nil {
			return nil, nil, strategicPatchError(err)
		}
		return merged, patchMap, nil
	}
	return api.MergePatch(doc, patchMap), patchMap, nil
}

// strategicPatchError is the answer to a strategic merge patch Apply
// refused, as upstream's patch handler gives it
// (interpretStrategicMergePatchError): a 400 with the error's text, the
// generic 422, or the error itself, which the API server's error
// handling makes a 500 with no reason.
func strategicPatchError(err error) error {
	switch strategicpatch.StatusCode(err) {
	case 400:
		return apierr.NewBadRequest(err.Error())
	case 422:
		return apierr.NewRequestRejected()
	}
	return &apierr.StatusError{Code: 500, Message: err.Error()}
}

// newLike is an empty object of old's kind.
func newLike(old api.Object) (api.Object, error) {
	if _, custom := old.(*api.Unstructured); custom {
		return &api.Unstructured{}, nil
	}
	tm := old.GetTypeMeta()
	obj, err := api.New(tm.APIVersion, tm.Kind)
	if err != nil {
		return nil, apierr.NewBadRequest(err.Error())
	}
	return obj, nil
}

// decodePatched decodes the patched object out strictly into an object
// of old's kind.
func decodePatched(old api.Object, out []byte, patchMap any, typ PatchType) (api.Object, error) {
	obj, err := newLike(old)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(obj); err != nil {
		// Upstream's patchers: a patched object that does not decode is
		// a 422 Invalid of the field "patch", naming no kind or object,
		// whose value is the patch map (%+v) for a strategic merge
		// patch and the patched object for the others.
		return nil, apierr.NewInvalid("", "", apierr.FieldError{Field: "patch", Type: "Invalid value", Value: patchValue(out, patchMap, typ), Detail: err.Error()})
	}
	if err := patchedKind(obj, old); err != nil {
		return nil, apierr.NewInvalid("", "", apierr.FieldError{Field: "patch", Type: "Invalid value", Value: patchValue(out, patchMap, typ), Detail: err.Error()})
	}
	return obj, nil
}

// patchedKind checks the patched object's apiVersion and kind against
// old's, as upstream's patchers decode the patched object into the
// resource's type: what the patch left out is the resource's, another
// version of the kind or another kind does not decode into it (a 422 of
// the field "patch"). Decoded as given, it was stored as the kind it
// named, which nothing could patch again.
func patchedKind(obj, old api.Object) error {
	tm, want := obj.GetTypeMeta(), old.GetTypeMeta()
	if tm.APIVersion == "" {
		tm.APIVersion = want.APIVersion
	}
	if tm.Kind == "" {
		tm.Kind = want.Kind
	}
	if *tm == *want {
		return nil
	}
	if _, custom := old.(*api.Unstructured); !custom && tm.Kind == want.Kind {
		if _, err := api.New(tm.APIVersion, tm.Kind); err != nil {
			return err
		}
	}
	return fmt.Errorf("the kind of the object (%s, Kind=%s) is not the resource's (%s, Kind=%s)", tm.APIVersion, tm.Kind, want.APIVersion, want.Kind)
}

// patchValue is what the patch handlers quote of a patch that fails: the
// patch map (%+v) for a strategic merge patch, the patched object for
// the others.
func patchValue(out []byte, patchMap any, typ PatchType) string {
	if typ == StrategicMergePatch {
		return fmt.Sprintf("%+v", patchMap)
	}
	return string(out)
}

// patchedIdentity checks the patched object's identity against old's.
func patchedIdentity(obj, old api.Object) (api.Object, error) {
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

// applyPatchValidated is applyPatch under a fieldValidation directive
// (Ignore, Warn or Strict), as the patch handlers apply it: the patched
// object's fields that its kind does not declare are dropped, and with
// the patch body's own strict errors (Warn and Strict only) make strict,
// the strict decoding errors, for the caller to refuse (Strict) or warn
// of (Warn). A custom resource's fields are the caller's to prune, by its
// schema. value is what a refusal quotes (patchValue). A patched object
// that fails to decode for another reason is the 422 applyPatch answers,
// whatever the directive (non-strict errors trump strict ones).
func applyPatchValidated(old api.Object, patch []byte, typ PatchType, directive string) (obj api.Object, strict []string, value string, err error) {
	if typ != MergePatch && typ != StrategicMergePatch && typ != JSONPatch {
		return nil, nil, "", apierr.NewBadRequest(fmt.Sprintf("unsupported patch type %d", typ))
	}
	if directive != FieldValidationIgnore {
		strict = patchBodyStrictErrors(patch, typ)
	}
	merged, patchMap, err := patchDocument(old, patch, typ)
	if err != nil {
		return nil, nil, "", err
	}
	out, err := json.Marshal(merged)
	if err != nil {
		return nil, nil, "", apierr.NewBadRequest(err.Error())
	}
	value = patchValue(out, patchMap, typ)
	clean := out
	if _, custom := old.(*api.Unstructured); !custom {
		if proto, err := newLike(old); err == nil {
			if errs, err := StrictErrors(out, reflect.TypeOf(proto)); err == nil && len(errs) > 0 {
				for _, e := range errs {
					if e.Unknown {
						DeletePath(merged, e.Path)
					}
				}
				if clean, err = json.Marshal(merged); err != nil {
					return nil, nil, "", apierr.NewBadRequest(err.Error())
				}
				strict = append(strict, StrictMessages(errs, "")...)
			}
		}
	}
	if obj, err = decodePatched(old, clean, patchMap, typ); err != nil {
		// decodePatched quotes what it decoded; the handlers quote the
		// patched object as the patch made it.
		var se *apierr.StatusError
		if errors.As(err, &se) && len(se.Causes) == 1 {
			se = apierr.NewInvalid("", "", apierr.FieldError{Field: "patch", Type: "Invalid value", Value: value, Detail: se.Causes[0].Detail})
			return nil, nil, "", se
		}
		return nil, nil, "", err
	}
	if obj, err = patchedIdentity(obj, old); err != nil {
		return nil, nil, "", err
	}
	return obj, capStrict(strict), value, nil
}

// ApplyPatchValidated is applyPatchValidated for the scenario loader,
// which applies a request step's patch that carries a fieldValidation
// directive as the server will: it returns the patched object and the
// strict decoding errors (refused under Strict, a custom kind's not
// pruned).
func ApplyPatchValidated(old api.Object, patch []byte, typ PatchType, directive string) (api.Object, []string, error) {
	obj, strict, value, err := applyPatchValidated(old, patch, typ, directive)
	if err == nil && directive == FieldValidationStrict && len(strict) > 0 {
		return nil, strict, patchStrictInvalid(value, strict)
	}
	return obj, strict, err
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
