// Package manifest loads Kubernetes manifests (YAML, one or more documents,
// block or flow style) into the simulator's API objects, strictly, and writes
// objects back as YAML in the shape of `kubectl get -o yaml`.
//
// Strict means that a manifest which real Kubernetes would reject, or which
// silently means something other than what its author wrote, is an error
// here: an unknown field, a duplicate key, a value of the wrong type or one
// that overflows its field. Every error is an *Error carrying the file, line,
// column and field path of the offending node, e.g.
//
//	web.yaml:20:9: spec.template.spec.containers[0]: unknown field "imagePullPolcy"
//
// The decoder underneath, DecodeNode, is generic: it fills any Go value from a
// yaml.v3 node by reflection, naming fields by their `json` struct tags, and
// hands subtrees to any type that implements json.Unmarshaler as JSON bytes.
// That lets the API types stay free of YAML (they only know encoding/json) and
// lets other loaders (scenario files) reuse the same strict decoding and the
// same error positions for their own structs.
//
// Imports: the standard library, gopkg.in/yaml.v3 and sim/api only. It must
// not import the kernel, the store, controllers or anything above them: a
// manifest is plain input, read before any simulation exists.
//
// Determinism contract: decoding and encoding are pure functions of their
// input bytes. Mapping keys are processed in document order, errors are
// reported for the first offending node in document order, encoded keys are
// sorted, and no output depends on Go map iteration order or the wall clock.
package manifest
