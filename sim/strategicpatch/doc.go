// Package strategicpatch is Kubernetes' strategic merge patch as
// apimachinery's pkg/util/strategicpatch makes and applies it: the
// two-way patch (CreateTwoWayMergePatch), kubectl apply's three-way patch
// (CreateThreeWayMergePatch with overwrite), the application of a patch
// with its directives, and the directives' removal for an API server that
// does not read them. Documents are JSON trees as encoding/json decodes
// them (numbers as json.Number or float64): map[string]any, []any,
// string, bool, nil. Which lists merge, and by which key, is the patch
// metadata of the kinds clustersim serves (metaOf); every other list is
// replaced whole. The internal functions take that lookup as a parameter
// (lookup), so that the tests run upstream's own test tables
// (upstream_rows_test.go, from apimachinery v0.37.2 patch_test.go) with
// upstream's MergeItem test schema.
//
// Imports: the standard library only. sim/apiserver (a strategic merge
// PATCH, and StatusCode for the answer to a refused one),
// scenarios/kubectl (apply, edit) and sim/kubelet (its node status patch)
// use it.
package strategicpatch
