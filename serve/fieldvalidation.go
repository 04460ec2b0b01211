package serve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

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
	root := singleDocument(body)
	if root == nil {
		return decodeObject(reg, info, body)
	}
	apiVersion, kind := scalarField(root, "apiVersion"), scalarField(root, "kind")
	var obj api.Object
	var strict []string
	if info.Custom {
		dups := apiserver.StrictErrors(root, reflect.TypeFor[any](), false)
		o, err := decodeObject(reg, info, body)
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
		proto, err := reg.New(apiVersion, kind)
		if err != nil {
			return decodeObject(reg, info, body)
		}
		errs := apiserver.StrictErrors(root, reflect.TypeOf(proto), true)
		if len(errs) == 0 {
			return decodeObject(reg, info, body)
		}
		// root now holds what a non-strict decoding keeps.
		objs, err := manifest.DecodeObjectNode("request body", root, "")
		if err != nil {
			return nil, decodeError(reg, info, body, err)
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
			return nil, strictBodyError(apiVersion, kind, info, strict)
		}
	case apiserver.FieldValidationWarn:
		*warnings = append(*warnings, strict...)
	}
	return obj, nil
}

// strictBodyError is transformDecodeError's 400 for a body with strict
// decoding errors: `<kind> in version "<v>" cannot be handled as a
// <kind>: strict decoding error: unknown field "spec.foo"`.
func strictBodyError(apiVersion, kind string, info api.ResourceInfo, msgs []string) error {
	_, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		version = apiVersion
	}
	return apierr.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %s", kind, version, info.Kind.Name, apiserver.StrictDecodingError(msgs)))
}

// singleDocument is the mapping a body of one YAML (or JSON) document
// holds, or nil (the body does not parse, holds several documents or
// something else): the strict decoding leaves that to decodeObject.
func singleDocument(body []byte) (root *yaml.Node) {
	// yaml.v3 re-panics what it cannot handle; such a body is left to
	// decodeObject, whose decoder reports it.
	defer func() {
		if recover() != nil {
			root = nil
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(body))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		return nil
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		return nil
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return doc.Content[0]
}

// scalarField is the value of a mapping's scalar field k, or "".
func scalarField(n *yaml.Node, k string) string {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == k && n.Content[i+1].Kind == yaml.ScalarNode {
			return n.Content[i+1].Value
		}
	}
	return ""
}
