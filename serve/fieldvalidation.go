package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/clustersim/clustersim/sim/api"
	"github.com/clustersim/clustersim/sim/apierr"
	"github.com/clustersim/clustersim/sim/apiserver"
	"github.com/clustersim/clustersim/sim/manifest"
)

// decodeValidated decodes a create's or update's body (JSON or YAML)
// into an object of info's kind under the request's fieldValidation
// directive, as the API server's create and update handlers decode it
// (handlers/create.go, update.go; apiextensions-apiserver's decoder for
// a custom resource): the strict decoding errors are the keys of a
// built-in kind's body that no field of the kind is named by, the keys
// given twice in one object, and the fields a custom kind's schema
// prunes. Under Strict any of them is a 400 (transformDecodeError's
// `Deployment in version "v1" cannot be handled as a Deployment: strict
// decoding error: unknown field "spec.foo", ...`); under Warn and Ignore
// the fields are dropped (the last of duplicate keys kept), and under
// Warn each error is added to warnings, which the answer carries as
// Warning headers. A body that does not decode for another reason (a
// value of the wrong type) is refused as before, whatever the directive.
func (h *Handler) decodeValidated(info api.ResourceInfo, body []byte, directive string, warnings *[]string) (api.Object, error) {
	reg := h.gw.c.Store.Kinds()
	doc := body
	if !isJSON(body) {
		// A YAML body, as its JSON; one that does not convert is
		// refused as before.
		j, err := manifest.DocumentJSON("request body", body)
		if err != nil {
			return decodeObject(reg, info, body)
		}
		doc = j
	}
	var tm api.TypeMeta
	if json.Unmarshal(doc, &tm) != nil {
		return decodeObject(reg, info, body)
	}
	var obj api.Object
	var strict []string
	if info.Custom {
		dups, err := apiserver.StrictErrors(doc, reflect.TypeFor[any]())
		if err != nil {
			return decodeObject(reg, info, body)
		}
		o, err := decodeObject(reg, info, doc)
		if err != nil {
			return nil, err
		}
		strict = apiserver.StrictMessages(dups, "")
		if u, ok := o.(*api.Unstructured); ok && h.gw.c.API != nil {
			if crd := h.gw.c.API.Definition(info.Kind); crd != nil {
				strict = append(strict, apiserver.UnknownMessages(apiserver.PruneCustom(crd, u))...)
			}
		}
		obj = o
	} else {
		proto, err := reg.New(tm.APIVersion, tm.Kind)
		if err != nil {
			return decodeObject(reg, info, body)
		}
		errs, err := apiserver.StrictErrors(doc, reflect.TypeOf(proto))
		if err != nil || len(errs) == 0 {
			return decodeObject(reg, info, body)
		}
		// What a non-strict decoding keeps: the unknown fields dropped,
		// the last of duplicate keys (encoding/json's map keeps it).
		var m any
		dec := json.NewDecoder(bytes.NewReader(doc))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			return decodeObject(reg, info, body)
		}
		for _, e := range errs {
			if e.Unknown {
				apiserver.DeletePath(m, e.Path)
			}
		}
		clean, err := json.Marshal(m)
		if err != nil {
			return decodeObject(reg, info, body)
		}
		objs, err := manifest.Decode("request body", clean)
		if err != nil {
			return nil, decodeError(reg, info, doc, err)
		}
		if len(objs) != 1 {
			return nil, apierr.NewBadRequest(fmt.Sprintf("the request body holds %d objects; want one", len(objs)))
		}
		if obj, err = checkKind(objs[0], info); err != nil {
			return nil, err
		}
		strict = apiserver.StrictMessages(errs, "")
	}
	switch directive {
	case apiserver.FieldValidationStrict:
		if len(strict) > 0 {
			return nil, apiserver.CannotBeHandled(tm.Kind, tm.APIVersion, info.Kind.Name, apiserver.StrictDecodingError(strict))
		}
	case apiserver.FieldValidationWarn:
		*warnings = append(*warnings, strict...)
	}
	return obj, nil
}
